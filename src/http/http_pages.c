/*
 * The pages: the list of games, one game (its board, the move list and a
 * scrubber that shows the board after any move), the board alone as SVG,
 * and the static files.  A page is one of the templates of web/
 * (compiled in) with its {{slots}} filled with markup made here, every
 * text from a game escaped.  No page needs its script: the board is
 * drawn here, the scrubber is a form (?seq=N, the server's REPLAY) and
 * each move a link.  The script saves the reloads, follows the game live
 * (the page names its event stream) and lets a player play: the forms
 * that write are hidden until it shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "cmd/cmd.h"
#include "game/kind.h"
#include "http/http.h"
#include "http/json.h"
#include "http/web_assets.h"
#include "util/svg.h"

#define PAGE_GAMES	50	/* games on a page of the list */
#define HTML_TYPE	"text/html; charset=utf-8"

struct slot {
	const char	*name;
	const char	*value;		/* markup */
};

const struct web_asset *
web_asset_find(const char *name)
{
	const struct web_asset	*a;

	for (a = web_assets; a->name != NULL; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

/* The template with each {{name}} replaced by its slot's value (an
 * unknown name by nothing). */
static void
fill(struct svg *out, const char *name, const struct slot *slots)
{
	const struct web_asset	*t = web_asset_find(name);
	const char		*p, *end, *open, *close;
	const struct slot	*s;

	if (t == NULL)
		return;
	p = t->data;
	end = t->data + t->len;
	while ((open = strstr(p, "{{")) != NULL && open < end &&
	    (close = strstr(open, "}}")) != NULL) {
		svg_addn(out, p, (size_t)(open - p));
		for (s = slots; s->name != NULL; s++)
			if (strlen(s->name) == (size_t)(close - open - 2) &&
			    strncmp(s->name, open + 2, strlen(s->name)) == 0) {
				svg_add(out, s->value);
				break;
			}
		p = close + 2;
	}
	svg_addn(out, p, (size_t)(end - p));
}

static void
send_page(struct http_ctx *x, const char *tmpl, const struct slot *slots)
{
	struct svg	 page;

	svg_init(&page);
	fill(&page, tmpl, slots);
	http_reply(x, 200, HTML_TYPE, "no-cache", svg_str(&page), page.len);
	svg_free(&page);
}

/* The text of a JSON string member, escaped; "" for null. */
static void
esc_member(struct svg *out, const json_t *obj, const char *key,
    const char *none)
{
	const char	*v = json_string_value(json_object_get(obj, key));

	svg_esc(out, v != NULL ? v : none);
}

/* ------------------------------------------------------------- list */

/* The names of the players of a game's JSON, comma separated. */
static void
esc_players(struct svg *out, const json_t *j)
{
	const json_t	*players = json_object_get(j, "players"), *p;
	size_t		 i;

	json_array_foreach(players, i, p) {
		if (i > 0)
			svg_add(out, ", ");
		if (i == 8 && json_array_size(players) > 9) {
			svg_printf(out, "and %zu more",
			    json_array_size(players) - 8);
			break;
		}
		esc_member(out, p, "name", "?");
	}
}

static void
list_row(struct svg *out, const struct game *g)
{
	json_t	*j = json_game_summary(g);
	int	 over = json_is_null(json_object_get(j, "turn"));

	svg_printf(out, "<tr%s><td class=\"id\"><a href=\"/games/",
	    over ? " class=\"over\"" : "");
	svg_esc(out, g->id);
	svg_add(out, "\">");
	svg_esc(out, g->id);
	svg_add(out, "</a></td><td>");
	svg_esc(out, game_kind_get(g->kind)->title);
	svg_add(out, "</td><td>");
	esc_players(out, j);
	svg_printf(out, "</td><td class=\"num\">%lld</td><td>",
	    (long long)g->moves);
	esc_member(out, j, "turn", "\xe2\x80\x94");
	svg_add(out, "</td><td>");
	esc_member(out, j, "winner", "\xe2\x80\x94");
	svg_add(out, "</td></tr>\n");
	json_decref(j);
}

/* All, then each kind: a link, or the current one in bold. */
static void
kinds_nav(struct svg *out, enum game_kind current)
{
	const struct game_kind_ops	*ops;
	int				 k;

	svg_add(out, current == KIND_NONE ? "<strong>All</strong>" :
	    "<a href=\"/\">All</a>");
	for (k = KIND_NONE + 1; k < game_kind_end(); k++) {
		if ((ops = game_kind_get((enum game_kind)k)) == NULL)
			continue;
		if ((int)current == k)
			svg_add(out, " <strong>");
		else
			svg_printf(out, " <a href=\"/?kind=%s\">", ops->name);
		svg_esc(out, ops->title);
		svg_add(out, (int)current == k ? "</strong>" : "</a>");
	}
}

/* The query of a page of the list: kind=K&amp;limit=N (only those
 * given), then after=ID when after is set. */
static void
list_query(struct svg *out, enum game_kind kind, int64_t limit,
    const char *after)
{
	const char	*sep = "?";

	if (kind != KIND_NONE) {
		svg_printf(out, "%skind=%s", sep, game_kind_name(kind));
		sep = "&amp;";
	}
	if (limit != PAGE_GAMES) {
		svg_printf(out, "%slimit=%lld", sep, (long long)limit);
		sep = "&amp;";
	}
	if (after != NULL) {
		svg_printf(out, "%safter=", sep);
		svg_esc(out, after);
	}
}

static void
pager(struct svg *out, enum game_kind kind, int64_t limit, const char *after,
    const char *next)
{
	svg_add(out, "<p class=\"pager\">");
	if (after != NULL) {
		svg_add(out, "<a href=\"/");
		list_query(out, kind, limit, NULL);
		svg_add(out, "\">First page</a> ");
	}
	if (next[0] != '\0') {
		svg_add(out, "<a rel=\"next\" href=\"/");
		list_query(out, kind, limit, next);
		svg_add(out, "\">Next page</a>");
	}
	svg_add(out, "</p>");
}

/* Each kind's leaderboard: a link, or the current one in bold (NULL:
 * none is). */
static void
boards_nav(struct svg *out, const char *current)
{
	const struct game_kind_ops	*ops;
	int				 k, n = 0;

	for (k = KIND_NONE + 1; k < game_kind_end(); k++) {
		if ((ops = game_kind_get((enum game_kind)k)) == NULL)
			continue;
		svg_add(out, n++ > 0 ? " " : "");
		if (current != NULL && strcmp(current, ops->name) == 0)
			svg_add(out, "<strong>");
		else
			svg_printf(out, "<a href=\"/leaderboard/%s\">",
			    ops->name);
		svg_esc(out, ops->title);
		svg_add(out, current != NULL && strcmp(current, ops->name) ==
		    0 ? "</strong>" : "</a>");
	}
}

void
page_index(struct http_ctx *x)
{
	static const char *const params[] = { "kind", "after", "limit",
	    NULL };
	struct evkeyvalq q;
	struct game	*games;
	struct svg	 rows, nav, pg, boards;
	enum game_kind	 kind;
	const char	*after;
	char		 next[GAME_ID_MAX + 1];
	int64_t		 limit, n, i;

	if (http_query(x, params, &q) == -1)
		return;
	if (http_list_args(x, &q, &kind, &after, &limit, PAGE_GAMES) == 0 &&
	    http_list_games(x, kind, after, limit, &games, &n, next) == 0) {
		svg_init(&rows);
		svg_init(&nav);
		svg_init(&pg);
		svg_init(&boards);
		boards_nav(&boards, NULL);
		for (i = 0; i < n; i++)
			list_row(&rows, &games[i]);
		if (n == 0)
			svg_add(&rows, "<tr><td colspan=\"6\" class=\"empty\">"
			    "No games yet.</td></tr>\n");
		kinds_nav(&nav, kind);
		pager(&pg, kind, limit, after, next);
		send_page(x, "index.html", (const struct slot[]){
		    { "title", kind == KIND_NONE ? "Games" :
		      game_kind_get(kind)->title },
		    { "kinds", svg_str(&nav) }, { "rows", svg_str(&rows) },
		    { "pager", svg_str(&pg) }, { "version", PACKAGE_VERSION },
		    { "boards", svg_str(&boards) }, { NULL, NULL } });
		svg_free(&rows);
		svg_free(&nav);
		svg_free(&pg);
		svg_free(&boards);
		free(games);
	}
	evhttp_clear_headers(&q);
}

/* ------------------------------------------ leaderboard, a player */

/* A real of the API's JSON to two places, as LEADERBOARD gives it. */
static void
real_cell(struct svg *out, const json_t *obj, const char *key)
{
	svg_printf(out, "<td class=\"num\">%.2f</td>",
	    json_real_value(json_object_get(obj, key)));
}

static void
int_cell(struct svg *out, const json_t *obj, const char *key)
{
	svg_printf(out, "<td class=\"num\">%lld</td>",
	    (long long)json_integer_value(json_object_get(obj, key)));
}

/* A player's name, linked to their page. */
static void
player_link(struct svg *out, const char *name)
{
	svg_add(out, "<a href=\"/players/");
	svg_esc(out, name);
	svg_add(out, "\">");
	svg_esc(out, name);
	svg_add(out, "</a>");
}

/* The next page's link: base, then ?after=NEXT (a string or an
 * integer), nothing when there is none. */
static void
next_link(struct svg *out, const char *base, const json_t *next,
    const char *after)
{
	svg_add(out, "<p class=\"pager\">");
	if (after != NULL) {
		svg_add(out, "<a href=\"");
		svg_esc(out, base);
		svg_add(out, "\">First page</a> ");
	}
	if (json_is_string(next) || json_is_integer(next)) {
		svg_add(out, "<a rel=\"next\" href=\"");
		svg_esc(out, base);
		svg_add(out, "?after=");
		if (json_is_string(next))
			svg_esc(out, json_string_value(next));
		else
			svg_printf(out, "%lld",
			    (long long)json_integer_value(next));
		svg_add(out, "\">Next page</a>");
	}
	svg_add(out, "</p>");
}

/* GET /leaderboard/KIND: LEADERBOARD as a table, each name a link to the
 * player's page. */
void
page_leaderboard(struct http_ctx *x)
{
	struct evkeyvalq	 q;
	struct svg		 rows, nav, pg;
	json_t			*j, *p;
	char			 base[GAME_ID_MAX + 16];
	size_t			 i;

	if (http_query(x, http_leaderboard_params, &q) == -1)
		return;
	if ((j = http_leaderboard_json(x, x->id, &q)) == NULL)
		goto done;
	svg_init(&rows);
	svg_init(&nav);
	svg_init(&pg);
	json_array_foreach(json_object_get(j, "players"), i, p) {
		svg_add(&rows, "<tr>");
		int_cell(&rows, p, "rank");
		svg_add(&rows, "<td>");
		player_link(&rows, json_string_value(json_object_get(p,
		    "name")));
		svg_add(&rows, "</td>");
		real_cell(&rows, p, "rating");
		real_cell(&rows, p, "rd");
		int_cell(&rows, p, "played");
		int_cell(&rows, p, "won");
		svg_add(&rows, "</tr>\n");
	}
	if (json_array_size(json_object_get(j, "players")) == 0)
		svg_add(&rows, "<tr><td colspan=\"6\" class=\"empty\">"
		    "Nobody is rated yet.</td></tr>\n");
	boards_nav(&nav, x->id);
	snprintf(base, sizeof base, "/leaderboard/%s", x->id);
	next_link(&pg, base, json_object_get(j, "next"),
	    evhttp_find_header(&q, "after"));
	send_page(x, "leaderboard.html", (const struct slot[]){
	    { "title", game_kind_get(game_kind_parse(x->id))->title },
	    { "kind", x->id }, { "kinds", svg_str(&nav) },
	    { "rows", svg_str(&rows) }, { "pager", svg_str(&pg) },
	    { "version", PACKAGE_VERSION }, { NULL, NULL } });
	svg_free(&rows);
	svg_free(&nav);
	svg_free(&pg);
	json_decref(j);
done:
	evhttp_clear_headers(&q);
}

/* The ratings of PLAYER.INFO, one row per kind. */
static void
rating_rows(struct svg *out, const json_t *info)
{
	const json_t	*ratings = json_object_get(info, "ratings"), *r;
	const struct game_kind_ops *ops;
	int		 k;

	for (k = KIND_NONE + 1; k < game_kind_end(); k++) {
		if ((ops = game_kind_get((enum game_kind)k)) == NULL ||
		    (r = json_object_get(ratings, ops->name)) == NULL)
			continue;
		svg_printf(out, "<tr data-kind=\"%s\"><td><a href=\""
		    "/leaderboard/%s\">", ops->name, ops->name);
		svg_esc(out, ops->title);
		svg_add(out, "</a></td>");
		real_cell(out, r, "rating");
		real_cell(out, r, "rd");
		int_cell(out, r, "played");
		int_cell(out, r, "won");
		svg_add(out, "</tr>\n");
	}
}

/* The games of PLAYER.GAMES, each a link to its page. */
static void
game_rows(struct svg *out, const json_t *games)
{
	const json_t	*g;
	enum game_kind	 kind;
	size_t		 i;

	json_array_foreach(json_object_get(games, "games"), i, g) {
		svg_add(out, "<tr><td class=\"id\"><a href=\"/games/");
		esc_member(out, g, "id", "");
		svg_add(out, "\">");
		esc_member(out, g, "id", "");
		svg_add(out, "</a></td><td>");
		kind = game_kind_parse(json_string_value(json_object_get(g,
		    "kind")));
		svg_esc(out, kind != KIND_NONE ? game_kind_get(kind)->title :
		    "?");
		svg_add(out, "</td><td>");
		esc_member(out, g, "seat", "");
		svg_add(out, "</td><td>");
		esc_member(out, g, "turn", "\xe2\x80\x94");
		svg_add(out, "</td>");
		int_cell(out, g, "moves");
		svg_add(out, "</tr>\n");
	}
	if (i == 0)
		svg_add(out, "<tr><td colspan=\"5\" class=\"empty\">"
		    "No games yet.</td></tr>\n");
}

/* GET /players/NAME: the account's ratings (PLAYER.INFO) and its games
 * (PLAYER.GAMES, ?state= ?after= ?limit= as the API's). */
void
page_player(struct http_ctx *x)
{
	struct evkeyvalq	 q;
	struct svg		 ratings, games, pg, bot;
	json_t			*info, *list = NULL;
	char			 base[GAME_ID_MAX + 16];

	if (http_query(x, http_player_games_params, &q) == -1)
		return;
	if ((info = http_player_json(x, x->id)) == NULL ||
	    (list = http_player_games_json(x, x->id, &q)) == NULL)
		goto done;
	svg_init(&ratings);
	svg_init(&games);
	svg_init(&pg);
	svg_init(&bot);
	if (json_is_string(json_object_get(info, "bot"))) {
		svg_add(&bot, " <span class=\"id\">(a bot: ");
		esc_member(&bot, info, "bot", "");
		svg_add(&bot, ")</span>");
	}
	rating_rows(&ratings, info);
	game_rows(&games, list);
	snprintf(base, sizeof base, "/players/%s", x->id);
	next_link(&pg, base, json_object_get(list, "next"),
	    evhttp_find_header(&q, "after"));
	send_page(x, "player.html", (const struct slot[]){
	    { "name", x->id }, { "bot", svg_str(&bot) },
	    { "ratings", svg_str(&ratings) }, { "games", svg_str(&games) },
	    { "pager", svg_str(&pg) }, { "version", PACKAGE_VERSION },
	    { NULL, NULL } });
	svg_free(&ratings);
	svg_free(&games);
	svg_free(&pg);
	svg_free(&bot);
done:
	json_decref(info);
	json_decref(list);
	evhttp_clear_headers(&q);
}

/* ------------------------------------------------------------- game */

struct move_list {
	struct svg	*out;
	const char	*id;
	int64_t		 seq;		/* the move shown */
	struct svg	*last;		/* its words, for the line over the
					   board */
};

/* The row itself, "red 6:1 MOVED", escaped. */
static void
move_row(struct svg *out, const struct move *mv)
{
	svg_esc(out, mv->player);
	svg_add(out, " ");
	svg_esc(out, mv->action);
	svg_add(out, " ");
	svg_esc(out, mv->result);
}

static int
move_item(void *arg, const struct move *mv, const char *words)
{
	struct move_list	*ml = arg;
	struct svg		*out = ml->out;

	if (mv->seq == ml->seq) {
		svg_printf(ml->last, "Move %lld: ", (long long)mv->seq);
		if (words != NULL)
			svg_esc(ml->last, words);
		else
			move_row(ml->last, mv);
	}

	svg_printf(out, "<li data-seq=\"%lld\" value=\"%lld\"%s><a href=\""
	    "/games/", (long long)mv->seq, (long long)mv->seq,
	    mv->seq == ml->seq ? " class=\"current\" aria-current=\"step\"" :
	    "");
	svg_esc(out, ml->id);
	svg_printf(out, "?seq=%lld\"", (long long)mv->seq);
	if (words != NULL) {
		/* The kind's words, the row itself in the title. */
		svg_add(out, " title=\"");
		move_row(out, mv);
		svg_add(out, "\"><span class=\"words\">");
		svg_esc(out, words);
		svg_add(out, "</span>");
	} else {
		svg_add(out, "><span class=\"who\">");
		svg_esc(out, mv->player);
		svg_add(out, "</span> ");
		svg_esc(out, mv->action);
		svg_add(out, " <span class=\"res\">");
		svg_esc(out, mv->result);
		svg_add(out, "</span>");
	}
	if (mv->by != MOVE_PLAYER)
		svg_add(out, mv->by == MOVE_BOT ? " (bot)" : " (timeout)");
	svg_add(out, "</a></li>\n");
	return 0;
}

/* "red to move", "P2 won", "game over"; of a past board (seq before
 * latest), "After move 3 of 20: red was to move.", so that the line
 * agrees with the board shown (the script writes the same). */
static void
status_line(struct svg *out, const struct game *g, int64_t seq,
    int64_t latest)
{
	json_t	*j = json_game_summary(g);
	int	 then = seq < latest;

	if (then)
		svg_printf(out, "After move %lld of %lld: ", (long long)seq,
		    (long long)latest);
	if (!json_is_null(json_object_get(j, "winner"))) {
		esc_member(out, j, "winner", "?");
		svg_add(out, then ? " had won." : " won.");
	} else if (!json_is_null(json_object_get(j, "turn"))) {
		esc_member(out, j, "turn", "?");
		svg_add(out, then ? " was to move." : " to move.");
	} else
		svg_add(out, "Game over.");
	json_decref(j);
}

struct game_page {
	struct svg	 board, moves, status, caption, last;
	char		 num[3][24];	/* moves, seq, latest */
};

static int
game_page_make(struct http_ctx *x, struct game_page *p, const struct game *g,
    int64_t seq, int64_t latest)
{
	struct move_list	 ml = { &p->moves, g->id, seq, &p->last };

	svg_init(&p->last);
	if (seq == 0)
		svg_add(&p->last, "The start: no move yet.");
	svg_init(&p->board);
	svg_init(&p->moves);
	svg_init(&p->status);
	svg_init(&p->caption);
	if (game_kind_get(g->kind)->render_svg(g, &p->board) == -1 ||
	    cmd_history_words(x->srv->env.store, g, 1, latest < CMD_LIST_MAX ?
	    latest : CMD_LIST_MAX, move_item, &ml) == STORE_ERR)
		return -1;
	status_line(&p->status, g, seq, latest);
	if (seq < latest)
		svg_printf(&p->caption, "The board after move %lld of %lld.",
		    (long long)seq, (long long)latest);
	else
		svg_printf(&p->caption, "The board now, after %lld move%s.",
		    (long long)latest, latest == 1 ? "" : "s");
	snprintf(p->num[0], sizeof p->num[0], "%lld", (long long)latest);
	snprintf(p->num[1], sizeof p->num[1], "%lld", (long long)seq);
	return 0;
}

static void
game_page_free(struct game_page *p)
{
	svg_free(&p->board);
	svg_free(&p->moves);
	svg_free(&p->status);
	svg_free(&p->caption);
	svg_free(&p->last);
}

void
page_game(struct http_ctx *x)
{
	static const char *const params[] = { "seq", NULL };
	struct evkeyvalq  q;
	struct game	  g;
	struct game_page  p;
	int64_t		  seq, latest;
	char		  events[96];

	if (http_query(x, params, &q) == -1)
		return;
	if (http_game_at(x, &q, &g, &seq, &latest) == -1)
		goto done;
	/* The page follows the game from the moves it shows (an id is
	 * 1-50 of a-z 0-9 -: markup as it is). */
	snprintf(events, sizeof events, " data-events=\"/api/games/%s/events"
	    "?from=%lld\"", g.id, (long long)latest);
	if (game_page_make(x, &p, &g, seq, latest) == -1)
		http_store_error(x);
	else
		/* An id is 1-50 of a-z 0-9 -: markup as it is. */
		send_page(x, "game.html", (const struct slot[]){
		    { "id", g.id }, { "kind", game_kind_name(g.kind) },
		    { "kind_title", game_kind_get(g.kind)->title },
		    { "moves", p.num[0] }, { "seq", p.num[1] },
		    { "events", events },
		    { "status", svg_str(&p.status) },
		    { "svg", svg_str(&p.board) },
		    { "caption", svg_str(&p.caption) },
		    { "last", svg_str(&p.last) },
		    { "move_list", svg_str(&p.moves) },
		    { "version", PACKAGE_VERSION }, { NULL, NULL } });
	game_page_free(&p);
done:
	evhttp_clear_headers(&q);
}

void
page_svg(struct http_ctx *x)
{
	static const char *const params[] = { "seq", NULL };
	struct evkeyvalq q;
	struct game	 g;
	struct svg	 s;
	int64_t		 seq, latest;

	if (http_query(x, params, &q) == -1)
		return;
	svg_init(&s);
	if (http_game_at(x, &q, &g, &seq, &latest) == 0) {
		if (game_kind_get(g.kind)->render_svg(&g, &s) == -1)
			http_error(x, "STATE", "game '%s' has no board", g.id);
		else
			http_reply(x, 200, "image/svg+xml", "no-cache",
			    svg_str(&s), s.len);
	}
	svg_free(&s);
	evhttp_clear_headers(&q);
}

/* ----------------------------------------------------------- static */

/* Does If-None-Match hold the tag?  RFC 9110 section 13.1.2: "*", or a
 * comma-separated list of entity tags compared weakly (W/ ignored). */
static int
etag_matches(const char *inm, const char *etag)
{
	size_t	 n, elen = strlen(etag);

	for (;;) {
		inm += strspn(inm, " \t,");
		if (*inm == '\0')
			return 0;
		if (*inm == '*')
			return 1;
		if (strncmp(inm, "W/", 2) == 0)
			inm += 2;
		/* An entity tag is quoted and holds no '"'. */
		n = *inm == '"' ? strcspn(inm + 1, "\"") + 2 :
		    strcspn(inm, " \t,");
		if (n == elen && strncmp(inm, etag, n) == 0)
			return 1;
		if (n > strlen(inm))
			return 0;
		inm += n;
	}
}

void
page_static(struct http_ctx *x)
{
	const struct web_asset	*a = web_asset_find(x->path + 8);
	const char		*inm;
	struct evkeyvalq	*out = evhttp_request_get_output_headers(
				    x->req);
	size_t			 n;

	if (http_query_none(x) == -1)
		return;
	/* The templates are not pages of their own. */
	n = a != NULL ? strlen(a->name) : 0;
	if (a == NULL || (n > 5 && strcmp(a->name + n - 5, ".html") == 0)) {
		http_error(x, "NOTFOUND", "no such file");
		return;
	}
	evhttp_add_header(out, "ETag", a->etag);
	inm = evhttp_find_header(evhttp_request_get_input_headers(x->req),
	    "If-None-Match");
	if (inm != NULL && etag_matches(inm, a->etag)) {
		http_reply(x, 304, NULL, "no-cache", NULL, 0);
		return;
	}
	http_reply(x, 200, a->type, "no-cache", a->data, a->len);
}

/* ------------------------------------------------------------ errors */

/*
 * A browser's request of a page (not of the API, a board's SVG, a static
 * file or the probes) that asked for HTML: the reply to an error is a
 * page saying what to do, the API's JSON error for everyone else.
 */
int
page_wanted(const struct http_ctx *x)
{
	static const char *const not_pages[] = { "/api/", "/static/",
	    "/healthz", "/readyz", "/metrics", NULL };
	const char	*accept;
	size_t		 i, n = strlen(x->path);

	for (i = 0; not_pages[i] != NULL; i++)
		if (strncmp(x->path, not_pages[i], strlen(not_pages[i])) == 0)
			return 0;
	if (n >= 4 && strcmp(x->path + n - 4, ".svg") == 0)
		return 0;
	accept = evhttp_find_header(evhttp_request_get_input_headers(x->req),
	    "Accept");
	return accept != NULL && strstr(accept, "text/html") != NULL;
}

/* What a reader does about an error, by its code. */
static const char *
error_hint(const char *code)
{
	static const struct {
		const char	*code;
		const char	*hint;
	} hints[] = {
		{ "NOGAME", "Check the game's name in the address, or pick "
		  "a game from the list." },
		{ "NOTFOUND", "Check the address, or start from the list of "
		  "games." },
		{ "BADARG", "Check the address: the page of a game is "
		  "/games/NAME, the board after a move /games/NAME?seq=N." },
		{ "METHOD", "This address is read, not written: open it as a "
		  "link." },
		{ "LIMIT", "The server is busy: try again in a moment." },
		{ "NOAUTH", "This server wants its password." },
		{ NULL, "Try again in a moment; if it happens again, the "
		  "server's log says why." },
	};
	size_t	 i;

	for (i = 0; hints[i].code != NULL; i++)
		if (strcmp(hints[i].code, code) == 0)
			break;
	return hints[i].hint;
}

void
page_error(struct http_ctx *x, int status, const char *code, const char *msg)
{
	struct svg	 page, text;
	char		 num[16];

	svg_init(&page);
	svg_init(&text);
	svg_esc(&text, msg);
	snprintf(num, sizeof num, "%d", status);
	fill(&page, "error.html", (const struct slot[]){
	    { "status", num }, { "code", code }, { "message", svg_str(&text) },
	    { "hint", error_hint(code) }, { "version", PACKAGE_VERSION },
	    { NULL, NULL } });
	http_reply(x, status, HTML_TYPE, "no-store", svg_str(&page),
	    page.len);
	svg_free(&page);
	svg_free(&text);
}
