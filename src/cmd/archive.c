/*
 * Archives of games, JSON Lines through jansson (archive.h; the format
 * is doc/archive.md).  A game line is written from a loaded game and its
 * history, and read back by replaying that history through the rules
 * from the initial snapshot its rules give (the kind table's rules_parse
 * and replay_step): the line's recorded state must be what the replay
 * gives, so an archive edited by hand, or cut, is refused, not stored.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/archive.h"
#include "cmd/cmd.h"
#include "engine/bot.h"
#include "game/kind.h"
#include "util/util.h"

static const char *const by_names[] = {
	[MOVE_PLAYER] = "player",
	[MOVE_BOT] = "bot",
	[MOVE_TIMEOUT] = "timeout",
};
#define NBY	(sizeof(by_names) / sizeof(by_names[0]))

void
archive_moves_add(struct archive_moves *m, const struct move *mv)
{
	if (m->n == m->cap) {
		m->cap = m->cap == 0 ? 256 : m->cap * 2;
		m->mv = xrealloc(m->mv, (size_t)m->cap * sizeof(*m->mv));
	}
	m->mv[m->n++] = *mv;
}

void
archive_moves_free(struct archive_moves *m)
{
	free(m->mv);
	memset(m, 0, sizeof(*m));
}

/* ----------------------------------------------------------- writing */

static json_t *
hex(const uint8_t *p, size_t n)
{
	static const char	 digits[] = "0123456789abcdef";
	char			 buf[2 * SEAT_HASH_LEN + 1];
	size_t			 i;

	for (i = 0; i < n && i < SEAT_HASH_LEN; i++) {
		buf[2 * i] = digits[p[i] >> 4];
		buf[2 * i + 1] = digits[p[i] & 15];
	}
	return json_stringn(buf, 2 * i);
}

/* The dump of obj, which it frees: one line. */
static char *
line_of(json_t *obj)
{
	char	*s;

	if (obj == NULL)
		return NULL;
	s = json_dumps(obj, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(obj);
	return s;
}

char *
archive_header(int64_t now, const uint8_t *secret)
{
	return line_of(json_pack("{s:s, s:i, s:I, s:o}",
	    "format", ARCHIVE_FORMAT, "version", ARCHIVE_VERSION,
	    "created", (json_int_t)now,
	    "seat_secret", secret != NULL ? hex(secret, STORE_SECRET_LEN) :
	    json_null()));
}

char *
archive_end(int64_t games, int64_t moves)
{
	return line_of(json_pack("{s:b, s:I, s:I}", "end", 1,
	    "games", (json_int_t)games, "moves", (json_int_t)moves));
}

static json_t *
players_json(const struct game *g)
{
	json_t		*a = json_array();
	const char	*bot;
	char		 name[PLAYER_NAME_MAX];
	int		 i, n = game_nplayers(g);

	for (i = 0; i < n && i < GAME_MAX_PLAYERS; i++) {
		bot = g->opts.bot[i] != 0 ?
		    bot_strategy_name(g->opts.bot[i] - 1) : NULL;
		game_player_name(g, i, name, sizeof(name));
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}",
		    "name", name,
		    "bot", bot != NULL ? json_string(bot) : json_null(),
		    "seat", g->opts.secure ? hex(g->opts.seat[i],
		    SEAT_HASH_LEN) : json_null()));
	}
	return a;
}

static json_t *
history_json(const struct move *mv, int64_t n)
{
	json_t	*a = json_array();
	int64_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:I, s:s, s:s, s:s, s:I,"
		    " s:s}", "seq", (json_int_t)mv[i].seq,
		    "player", mv[i].player, "action", mv[i].action,
		    "result", mv[i].result, "at", (json_int_t)mv[i].at,
		    "by", mv[i].by >= 0 && (size_t)mv[i].by < NBY ?
		    by_names[mv[i].by] : "player"));
	return a;
}

/* What the replay gives, as the HTTP API shows a game: turn, winner,
 * state (a reader's view; import checks its replay against it). */
static json_t *
final_json(const struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	json_t				*o = json_object(), *f;

	if (k == NULL || k->state_json(g, o) != 0) {
		json_decref(o);
		return NULL;
	}
	f = json_pack("{s:O, s:O, s:O}", "turn", json_object_get(o, "turn"),
	    "winner", json_object_get(o, "winner"),
	    "state", json_object_get(o, "state"));
	json_decref(o);
	return f;
}

char *
archive_game(const struct game *g, const struct move *mv, int64_t n)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	json_t				*rules, *final, *roll;
	char				 who[PLAYER_NAME_MAX];

	if (k == NULL || k->rules_json == NULL || n != g->moves)
		return NULL;
	rules = json_object();
	if (k->rules_json(g, rules) != 0 || (final = final_json(g)) == NULL) {
		json_decref(rules);
		return NULL;
	}
	roll = json_null();
	if (g->opts.roll != 0) {
		game_player_name(g, g->opts.roll_player, who, sizeof(who));
		roll = json_pack("{s:s, s:i}", "player", who, "dice",
		    g->opts.roll);
	}
	return line_of(json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o,"
	    " s:{s:s, s:s, s:I}, s:{s:o, s:o}, s:o, s:o}",
	    "id", g->id, "kind", k->name,
	    "created", (json_int_t)g->created,
	    "updated", (json_int_t)g->updated,
	    "moves", (json_int_t)g->moves,
	    "rules", rules, "players", players_json(g),
	    "options", "seats", g->opts.secure ? "secure" : "open",
	    "dice", g->opts.server_dice ? "server" : "manual",
	    "turn_timeout", (json_int_t)g->opts.timeout,
	    "pending", "deadline_ms", g->opts.deadline != 0 ?
	    json_integer(g->opts.deadline) : json_null(), "roll", roll,
	    "final", final, "history", history_json(mv, n)));
}

/* ----------------------------------------------------------- reading */

static int
bad(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
bad(char *why, size_t len, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int
unhex(const char *s, uint8_t *out, size_t n)
{
	size_t	 i;
	int	 hi, lo;

	if (s == NULL || strlen(s) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		hi = s[2 * i] >= 'a' && s[2 * i] <= 'f' ? s[2 * i] - 'a' + 10 :
		    s[2 * i] >= '0' && s[2 * i] <= '9' ? s[2 * i] - '0' : -1;
		lo = s[2 * i + 1] >= 'a' && s[2 * i + 1] <= 'f' ?
		    s[2 * i + 1] - 'a' + 10 : s[2 * i + 1] >= '0' &&
		    s[2 * i + 1] <= '9' ? s[2 * i + 1] - '0' : -1;
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* An integer member within [lo, hi]. */
static int
int_member(const json_t *o, const char *name, int64_t lo, int64_t hi,
    int64_t *out, char *why, size_t len)
{
	json_t	*v = json_object_get(o, name);

	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi)
		return bad(why, len, "%s must be an integer from %lld to %lld",
		    name, (long long)lo, (long long)hi);
	*out = json_integer_value(v);
	return 0;
}

/* A text member into buf (at most size - 1 bytes, no NUL). */
static int
str_member(const json_t *o, const char *name, char *buf, size_t size,
    char *why, size_t len)
{
	json_t	*v = json_object_get(o, name);
	size_t	 n;

	if (!json_is_string(v) || (n = json_string_length(v)) == 0 ||
	    n >= size || memchr(json_string_value(v), '\0', n) != NULL)
		return bad(why, len, "%s must be a text of 1 to %zu bytes",
		    name, size - 1);
	memcpy(buf, json_string_value(v), n);
	buf[n] = '\0';
	return 0;
}

static int
read_header(const json_t *o, struct archive_item *it, char *why, size_t len)
{
	const char	*fmt = json_string_value(json_object_get(o, "format"));
	json_t		*sec = json_object_get(o, "seat_secret");
	int64_t		 v;

	if (fmt == NULL || strcmp(fmt, ARCHIVE_FORMAT) != 0)
		return bad(why, len, "not a ludus archive (no \"format\": \""
		    ARCHIVE_FORMAT "\" header)");
	if (!json_is_integer(json_object_get(o, "version")))
		return bad(why, len, "the header has no format version");
	v = json_integer_value(json_object_get(o, "version"));
	if (v != ARCHIVE_VERSION)
		return bad(why, len, "unknown format version %lld (this ludus "
		    "reads version %d)", (long long)v, ARCHIVE_VERSION);
	it->version = (int)v;
	it->has_secret = !json_is_null(sec) && sec != NULL;
	if (it->has_secret && unhex(json_string_value(sec), it->secret,
	    STORE_SECRET_LEN) != 0)
		return bad(why, len, "seat_secret must be %d hex bytes or null",
		    STORE_SECRET_LEN);
	return 0;
}

/* The players: names as the kind names them, bots, seat hashes. */
static int
read_players(const json_t *a, struct game *g, int secure, char *why,
    size_t len)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	const json_t			*p, *bot, *seat;
	char				 name[PLAYER_NAME_MAX];
	char				 want[PLAYER_NAME_MAX];
	size_t				 i;
	int				 s;

	json_array_foreach(a, i, p) {
		if (str_member(p, "name", name, sizeof(name), why, len) != 0)
			return -1;
		if (k->player_put != NULL) {
			if (!valid_id(name, strlen(name)) ||
			    k->player_put(g, (int)i, name, strlen(name)) != 0)
				return bad(why, len, "player %zu: bad name",
				    i + 1);
		} else if (strcmp(name, game_player_name(g, (int)i, want,
		    sizeof(want))) != 0)
			return bad(why, len, "player %zu must be named %s",
			    i + 1, want);
		bot = json_object_get(p, "bot");
		if (bot != NULL && !json_is_null(bot)) {
			if ((s = bot_strategy_parse(json_string_value(bot))) <
			    0)
				return bad(why, len, "player %s: unknown bot",
				    name);
			g->opts.bot[i] = (uint8_t)(s + 1);
		}
		seat = json_object_get(p, "seat");
		if (secure != (seat != NULL && !json_is_null(seat)) ||
		    (secure && unhex(json_string_value(seat), g->opts.seat[i],
		    SEAT_HASH_LEN) != 0))
			return bad(why, len, "player %s: a seat hash (%d hex "
			    "bytes) exactly when seats are secure", name,
			    SEAT_HASH_LEN);
	}
	for (i = 0; k->player_put != NULL && i < (size_t)game_nplayers(g);
	    i++)
		if (game_player_index(g, g->players[i]) != (int)i)
			return bad(why, len, "two players named %s",
			    g->players[i]);
	return 0;
}

static int
read_options(const json_t *o, struct game *g, char *why, size_t len)
{
	const char	*seats = json_string_value(json_object_get(o, "seats"));
	const char	*dice = json_string_value(json_object_get(o, "dice"));

	if (seats == NULL || (strcmp(seats, "secure") != 0 &&
	    strcmp(seats, "open") != 0))
		return bad(why, len, "options: seats must be secure or open");
	if (dice == NULL || (strcmp(dice, "server") != 0 &&
	    strcmp(dice, "manual") != 0))
		return bad(why, len, "options: dice must be server or manual");
	g->opts.secure = seats[0] == 's';
	g->opts.server_dice = dice[0] == 's';
	return int_member(o, "turn_timeout", 0, INT64_MAX / 1000,
	    &g->opts.timeout, why, len);
}

static int
read_move(const json_t *o, int64_t seq, struct move *mv, char *why,
    size_t len)
{
	const char	*by = json_string_value(json_object_get(o, "by"));
	size_t		 i;
	int64_t		 v;

	memset(mv, 0, sizeof(*mv));
	if (int_member(o, "seq", seq, seq, &mv->seq, why, len) != 0 ||
	    str_member(o, "player", mv->player, sizeof(mv->player), why,
	    len) != 0 ||
	    str_member(o, "action", mv->action, sizeof(mv->action), why,
	    len) != 0 ||
	    str_member(o, "result", mv->result, sizeof(mv->result), why,
	    len) != 0 ||
	    int_member(o, "at", 0, INT64_MAX / 1000, &v, why, len) != 0)
		return -1;
	mv->at = v;
	for (i = 0; by != NULL && i < NBY; i++)
		if (strcmp(by, by_names[i]) == 0)
			break;
	if (by == NULL || i == NBY)
		return bad(why, len, "by must be player, bot or timeout");
	mv->by = (int)i;
	return 0;
}

/* The history, each move replayed on g as AUDIT replays it. */
static int
replay(const json_t *a, struct game *g, struct archive_moves *m, char *why,
    size_t len)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	const json_t			*o;
	struct move			 mv;
	char				 step[128];
	size_t				 i;

	json_array_foreach(a, i, o) {
		if (read_move(o, (int64_t)i + 1, &mv, step,
		    sizeof(step)) != 0)
			return bad(why, len, "move %zu: %s", i + 1, step);
		if (k->replay_step(g, &mv, step, sizeof(step)) != 0)
			return bad(why, len, "move %zu does not replay: %s",
			    i + 1, step);
		g->moves = mv.seq;
		archive_moves_add(m, &mv);
	}
	return 0;
}

static int
read_pending(const json_t *o, struct game *g, char *why, size_t len)
{
	const json_t	*dl = json_object_get(o, "deadline_ms");
	const json_t	*roll = json_object_get(o, "roll");
	char		 who[PLAYER_NAME_MAX];
	int64_t		 v;
	int		 p;

	if (!json_is_object(o))
		return bad(why, len, "no pending object");
	if (dl != NULL && !json_is_null(dl)) {
		if (int_member(o, "deadline_ms", 1, INT64_MAX, &v, why,
		    len) != 0)
			return -1;
		g->opts.deadline = v;
	}
	if (roll == NULL || json_is_null(roll))
		return 0;
	if (str_member(roll, "player", who, sizeof(who), why, len) != 0 ||
	    int_member(roll, "dice", 1, 6, &v, why, len) != 0)
		return -1;
	if ((p = game_player_index(g, who)) < 0 || p != game_turn(g) ||
	    !g->opts.server_dice)
		return bad(why, len, "pending roll of a player not to move");
	g->opts.roll = (uint8_t)v;
	g->opts.roll_player = (uint8_t)p;
	return 0;
}

static int
read_game(const json_t *o, struct archive_item *it, char *why, size_t len)
{
	struct game			*g = &it->g;
	const struct game_kind_ops	*k;
	const json_t			*players, *history, *final;
	json_t				*got;
	char				 kind[16];
	int64_t				 v;
	int				 same;

	memset(g, 0, sizeof(*g));
	it->mv.n = 0;
	if (str_member(o, "id", g->id, sizeof(g->id), why, len) != 0)
		return -1;
	if (!valid_id(g->id, strlen(g->id)))
		return bad(why, len, "invalid game id");
	if (str_member(o, "kind", kind, sizeof(kind), why, len) != 0)
		return -1;
	g->kind = game_kind_parse(kind);
	if ((k = game_kind_get(g->kind)) == NULL || k->rules_parse == NULL)
		return bad(why, len, "game %s: unknown kind '%s'", g->id, kind);
	players = json_object_get(o, "players");
	history = json_object_get(o, "history");
	final = json_object_get(o, "final");
	if (!json_is_array(players) || !json_is_array(history) ||
	    !json_is_object(json_object_get(o, "rules")) ||
	    !json_is_object(json_object_get(o, "options")) ||
	    !json_is_object(final))
		return bad(why, len, "game %s: players and history must be "
		    "lists, rules, options and final objects", g->id);
	if (json_array_size(players) > GAME_MAX_PLAYERS ||
	    k->rules_parse(g, json_object_get(o, "rules"),
	    (int)json_array_size(players), why, len) != 0 ||
	    read_options(json_object_get(o, "options"), g, why, len) != 0 ||
	    read_players(players, g, g->opts.secure, why, len) != 0 ||
	    int_member(o, "created", 0, INT64_MAX / 1000, &g->created, why,
	    len) != 0)
		return -1;
	g->updated = g->created;
	if (replay(history, g, &it->mv, why, len) != 0 ||
	    read_pending(json_object_get(o, "pending"), g, why, len) != 0 ||
	    int_member(o, "moves", g->moves, g->moves, &v, why, len) != 0 ||
	    int_member(o, "updated", 0, INT64_MAX / 1000, &g->updated, why,
	    len) != 0)
		return -1;
	if ((got = final_json(g)) == NULL)
		return bad(why, len, "game %s: no state", g->id);
	same = json_equal(got, final);
	json_decref(got);
	if (!same)
		return bad(why, len, "game %s: its history replays to another "
		    "state than the one recorded", g->id);
	return 0;
}

enum archive_kind
archive_read(const char *line, size_t len, int first,
    struct archive_item *it, char *why, size_t whylen)
{
	json_error_t	 e;
	json_t		*o;
	int		 rc;
	enum archive_kind kind;

	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &e);
	if (o == NULL) {
		bad(why, whylen, "not JSON: %s", e.text);
		return ARCHIVE_BAD;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		bad(why, whylen, "not a JSON object");
		return ARCHIVE_BAD;
	}
	if (first) {
		kind = ARCHIVE_HEADER;
		rc = read_header(o, it, why, whylen);
	} else if (json_object_get(o, "end") != NULL) {
		kind = ARCHIVE_END;
		rc = !json_is_true(json_object_get(o, "end")) ? bad(why,
		    whylen, "end must be true") : int_member(o, "games", 0,
		    INT64_MAX, &it->games, why, whylen) != 0 ? -1 :
		    int_member(o, "moves", 0, INT64_MAX, &it->moves, why,
		    whylen);
	} else {
		kind = ARCHIVE_GAME;
		rc = read_game(o, it, why, whylen);
	}
	json_decref(o);
	return rc == 0 ? kind : ARCHIVE_BAD;
}

int
archive_time(const char *s, int64_t now, int64_t *out)
{
	static const struct {
		char	 unit;
		int64_t	 secs;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 },
	    { 'd', 86400 } };
	char		 num[32];
	const char	*err;
	size_t		 n = strlen(s), i;
	int64_t		 v;

	if (n == 0 || n >= sizeof(num))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (s[n - 1] != units[i].unit)
			continue;
		memcpy(num, s, n - 1);
		num[n - 1] = '\0';
		if (parse_int64(num, 0, INT64_MAX / 86400, &v, &err) != 0)
			return -1;
		*out = now - v * units[i].secs;
		return 0;
	}
	return parse_int64(s, 0, INT64_MAX / 1000, out, &err);
}
