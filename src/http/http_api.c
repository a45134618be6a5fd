/*
 * The JSON API, read side: the games, one game, its history and its
 * replay, the health checks (doc/http.md), and the kinds.  Each read of
 * a game reads the store as the commands do (GAMES, GAME.INFO, HISTORY,
 * REPLAY), with the same bounds and the same error code words, and first
 * ends the open group-commit batch so that no reply shows a move before
 * its commit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "http/http.h"
#include "http/json.h"
#include "util/util.h"

#define API_GAMES_MAX	1000	/* games per page: each is a load */

static const char *const no_params[] = { NULL };

void
http_reads_committed(struct server *srv)
{
	/* A read inside the pass's open transaction would see its rows
	 * before they are committed: the pass ends first, as INFO's does. */
	pass_barrier(srv);
}

int
http_load_game(struct http_ctx *x, struct game *g)
{
	int	 rc;

	http_reads_committed(x->srv);
	rc = store_load_game(x->srv->env.store, x->id, g);
	if (rc == STORE_NOTFOUND)
		http_error(x, "NOGAME", "no such game '%s'", x->id);
	else if (rc != STORE_OK)
		http_store_error(x);
	return rc == STORE_OK ? 0 : -1;
}

int
http_game_at(struct http_ctx *x, const struct evkeyvalq *q, struct game *g,
    int64_t *seq, int64_t *latest)
{
	struct game	 now;
	const char	*v, *errstr;
	char		 why[256];

	if (http_load_game(x, &now) == -1)
		return -1;
	/* A move's number, said with the game's own bounds. */
	*seq = now.moves;
	if ((v = evhttp_find_header(q, "seq")) != NULL &&
	    parse_int64(v, 0, INT64_MAX / 2, seq, &errstr) == -1) {
		http_error(x, "BADARG", "seq must be a move number: 0 (the "
		    "start) to %lld (the game now)", (long long)now.moves);
		return -1;
	}
	if (*seq > now.moves) {
		http_error(x, "BADARG", "game '%s' has only %lld moves",
		    now.id, (long long)now.moves);
		return -1;
	}
	*latest = now.moves;
	if (*seq == now.moves) {
		*g = now;
		return 0;
	}
	switch (cmd_replay_game(x->srv->env.store, &now, *seq, g, why,
	    sizeof why)) {
	case REPLAY_OK:
		/* Who plays each seat is the game's; what the server owed
		 * then (a roll, a deadline) is not known any more. */
		g->opts = now.opts;
		g->opts.roll = g->opts.roll_player = 0;
		g->opts.deadline = 0;
		return 0;
	case REPLAY_STORE:
		http_store_error(x);
		return -1;
	default:
		http_error(x, "STATE", "history of '%s' does not replay: %s",
		    now.id, why);
		return -1;
	}
}

/* ------------------------------------------------------- the games */

struct id_list {
	char	(*ids)[GAME_ID_MAX + 1];
	int64_t	 n;
	int64_t	 cap;
};

static int
list_id(void *arg, const char *id, enum game_kind kind)
{
	struct id_list	*l = arg;

	(void)kind;
	if (l->n < l->cap)
		str_copy(l->ids[l->n++], sizeof l->ids[0], id);
	return 0;
}

int
http_list_games(struct http_ctx *x, enum game_kind kind, const char *after,
    int64_t limit, struct game **games, int64_t *n, char *next)
{
	/* One id more than the page: a next page only when it has one. */
	struct id_list	 l = { xcalloc((size_t)limit + 1, GAME_ID_MAX + 1), 0,
			    limit + 1 };
	int64_t		 i;
	int		 rc;

	*games = xcalloc((size_t)limit, sizeof **games);
	*n = 0;
	http_reads_committed(x->srv);
	if (store_list_games(x->srv->env.store, kind, after, limit + 1,
	    list_id, &l) == STORE_ERR)
		goto fail;
	for (i = 0; i < l.n && i < limit; i++) {
		rc = store_load_game(x->srv->env.store, l.ids[i], &(*games)[*n]);
		if (rc == STORE_NOTFOUND)
			continue;
		if (rc != STORE_OK)
			goto fail;
		(*n)++;
	}
	str_copy(next, GAME_ID_MAX + 1, l.n > limit ? l.ids[limit - 1] : "");
	free(l.ids);
	return 0;
fail:
	free(l.ids);
	free(*games);
	*games = NULL;
	http_store_error(x);
	return -1;
}

int
http_list_args(struct http_ctx *x, const struct evkeyvalq *q,
    enum game_kind *kind, const char **after, int64_t *limit, int64_t def)
{
	const char	*k = evhttp_find_header(q, "kind");
	char		 kinds[128];

	*kind = KIND_NONE;
	if (k != NULL && (*kind = game_kind_parse(k)) == KIND_NONE) {
		http_error(x, "BADARG", "kind must be %s",
		    game_kind_list(kinds, sizeof kinds));
		return -1;
	}
	*after = evhttp_find_header(q, "after");
	if (*after != NULL && !valid_id(*after, strlen(*after))) {
		http_error(x, "BADARG", "invalid game id");
		return -1;
	}
	return http_query_int(x, q, "limit", 1, API_GAMES_MAX, def, limit);
}

void
api_games(struct http_ctx *x)
{
	static const char *const params[] = { "kind", "after", "limit", NULL };
	struct evkeyvalq q;
	struct game	*games;
	enum game_kind	 kind;
	const char	*after;
	char		 next[GAME_ID_MAX + 1];
	int64_t		 limit, n, i;
	json_t		*arr;

	if (http_query(x, params, &q) == -1)
		return;
	if (http_list_args(x, &q, &kind, &after, &limit,
	    CMD_LIST_DEFAULT) == 0 && http_list_games(x, kind, after, limit,
	    &games, &n, next) == 0) {
		arr = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(arr,
			    json_game_summary(&games[i]));
		free(games);
		http_json(x, 200, json_pack("{s:o, s:o}", "games", arr,
		    "next", next[0] != '\0' ? json_string(next) :
		    json_null()));
	}
	evhttp_clear_headers(&q);
}

/* --------------------------------------------------------- one game */

void
api_game(struct http_ctx *x)
{
	struct evkeyvalq q;
	struct game	 g;

	if (http_query(x, no_params, &q) == -1)
		return;
	if (http_load_game(x, &g) == 0)
		http_json(x, 200, json_game(&g));
	evhttp_clear_headers(&q);
}

/* A move of the history, with its words (null: the kind has none). */
static int
add_move(void *arg, const struct move *mv, const char *words)
{
	json_t	*j = json_move(mv);

	json_object_set_new(j, "words", words != NULL ? json_string(words) :
	    json_null());
	json_array_append_new(arg, j);
	return 0;
}

void
api_history(struct http_ctx *x)
{
	static const char *const params[] = { "from", "count", NULL };
	struct evkeyvalq q;
	struct game	 g;
	int64_t		 from, count, last;
	json_t		*moves;

	if (http_query(x, params, &q) == -1)
		return;
	if (http_query_int(x, &q, "from", 1, INT64_MAX / 2, 1, &from) == -1 ||
	    http_query_int(x, &q, "count", 1, CMD_LIST_MAX, CMD_LIST_DEFAULT,
	    &count) == -1 || http_load_game(x, &g) == -1)
		goto done;
	moves = json_array();
	if (cmd_history_words(x->srv->env.store, &g, from, count, add_move,
	    moves) == STORE_ERR) {
		json_decref(moves);
		http_store_error(x);
		goto done;
	}
	last = from + (int64_t)json_array_size(moves) - 1;
	http_json(x, 200, json_pack("{s:s, s:I, s:I, s:o, s:o}",
	    "id", g.id, "moves", (json_int_t)g.moves, "from",
	    (json_int_t)from, "history", moves, "next", last < g.moves &&
	    json_array_size(moves) > 0 ? json_integer(last + 1) :
	    json_null()));
done:
	evhttp_clear_headers(&q);
}

void
api_replay(struct http_ctx *x)
{
	static const char *const params[] = { "seq", NULL };
	struct evkeyvalq q;
	struct game	 g;
	int64_t		 seq, latest;
	json_t		*j;

	if (http_query(x, params, &q) == -1)
		return;
	if (http_game_at(x, &q, &g, &seq, &latest) == 0) {
		j = json_game(&g);
		json_object_set_new(j, "seq", json_integer(seq));
		http_json(x, 200, j);
	}
	evhttp_clear_headers(&q);
}

/* -------------------------------------------------------- the kinds */

/* What the page asks of each kind (json_kind.c): a function of the kind
 * table, the same for every request, and no store read. */
void
api_kinds(struct http_ctx *x)
{
	struct evkeyvalq q;

	if (http_query(x, no_params, &q) == -1)
		return;
	http_json(x, 200, json_kinds());
	evhttp_clear_headers(&q);
}

/* ----------------------------------------------------------- health */

void
api_healthz(struct http_ctx *x)
{
	int64_t	 counts[KIND_COUNT];

	if (http_query_none(x) == -1)
		return;
	http_reads_committed(x->srv);
	if (store_count_games(x->srv->env.store, counts) == STORE_ERR) {
		http_store_error(x);
		return;
	}
	http_json(x, 200, json_pack("{s:s}", "status", "ok"));
}

void
api_readyz(struct http_ctx *x)
{
	if (x->srv->stopping) {
		http_json(x, 503, json_error("STATE", "shutting down"));
		return;
	}
	http_json(x, 200, json_pack("{s:s}", "status", "ready"));
}
