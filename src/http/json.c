/*
 * The game, its history and errors as JSON, through jansson: never text
 * assembled by hand.  What every kind shares is here; each kind's
 * players, turn, winner and state are in json_<kind>.c.
 *
 * Conventions (doc/http.md): names are the protocol's (Ludo ids, P1..Pn),
 * positions are those of the kind's STATE reply, times are unix seconds
 * except deadlines (unix milliseconds, as GAME.INFO gives them), and
 * something absent is null rather than a magic value.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/kind.h"
#include "http/json.h"
#include "util/util.h"

void
web_json_init(void)
{
	json_set_alloc_funcs(xmalloc, free);
}

/* The options GAME.INFO lists, always all of them: seats, dice, the turn
 * timeout, when the server next plays, a Ludo roll drawn. */
static json_t *
json_options(const struct game *g)
{
	const struct game_opts	*o = &g->opts;

	return json_pack("{s:s, s:s, s:I, s:o, s:o}",
	    "seats", o->secure ? "secure" : "open",
	    "dice", o->server_dice ? "server" : "manual",
	    "turn_timeout", (json_int_t)o->timeout,
	    "deadline", o->deadline > 0 ? json_integer(o->deadline) :
	    json_null(),
	    "roll", o->roll != 0 ? json_integer(o->roll) : json_null());
}

/* id, kind, title and counters: the start of every game object. */
static json_t *
json_game_head(const struct game *g)
{
	return json_pack("{s:s, s:s, s:s, s:I, s:I, s:I}",
	    "id", g->id,
	    "kind", game_kind_name(g->kind),
	    "title", game_kind_of(g)->title,
	    "moves", (json_int_t)g->moves,
	    "created", (json_int_t)g->created,
	    "updated", (json_int_t)g->updated);
}

json_t *
json_game(const struct game *g)
{
	json_t	*obj;

	if (game_kind_of(g) == NULL)
		return NULL;
	obj = json_game_head(g);
	/* Before the state: a kind may drop an option it does not have. */
	json_object_set_new(obj, "options", json_options(g));
	if (game_kind_of(g)->state_json(g, obj) == -1) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

json_t *
json_game_summary(const struct game *g)
{
	json_t	*obj = json_game(g);

	if (obj != NULL) {
		json_object_del(obj, "state");
		json_object_del(obj, "options");
	}
	return obj;
}

json_t *
json_move(const struct move *mv)
{
	return json_pack("{s:I, s:s, s:s, s:s, s:I, s:s}",
	    "seq", (json_int_t)mv->seq,
	    "player", mv->player,
	    "action", mv->action,
	    "result", mv->result,
	    "at", (json_int_t)mv->at,
	    "by", mv->by == MOVE_BOT ? "bot" : mv->by == MOVE_TIMEOUT ?
	    "timeout" : "player");
}

json_t *
json_error(const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];
	size_t	 i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* As on the RESP side: no control character from an argument. */
	for (i = 0; msg[i] != '\0'; i++)
		if ((unsigned char)msg[i] < 0x20)
			msg[i] = ' ';
	return json_pack("{s:s, s:s%}", "error", code, "message", msg,
	    strlen(msg));
}

/*
 * The error code words and their statuses: RESP's (doc/protocol.md,
 * section 3) and those only HTTP has (doc/http.md).
 */
static const struct {
	const char	*code;
	int		 status;
} statuses[] = {
	{ "BADARG", 400 },	/* an argument malformed or out of range */
	{ "ERR", 400 },		/* syntax */
	{ "NOAUTH", 401 },	/* a write without the server's password */
	{ "NOLOGIN", 401 },	/* no account's token where one is needed */
	{ "WRONGKEY", 401 },	/* ... with a wrong key */
	{ "WRONGPASS", 401 },	/* ... with another one */
	{ "NOSEAT", 403 },	/* the seat is not held */
	{ "ORIGIN", 403 },	/* a foreign Origin on a write */
	{ "NOGAME", 404 },
	{ "NOACCOUNT", 404 },
	{ "NOTICKET", 404 },	/* none, or another account's */
	{ "NOTFOUND", 404 },	/* no such page or endpoint */
	{ "METHOD", 405 },
	{ "EXISTS", 409 },
	{ "STALE", 409 },
	{ "STATE", 409 },
	{ "WRONGTYPE", 409 },
	{ "TYPE", 415 },	/* a write that is not application/json */
	{ "HOST", 421 },	/* a Host that names no address of ours */
	{ "LIMIT", 503 },	/* too many connections */
	{ "STORE", 503 },	/* the database failed: try again */
};

int
web_error_status(const char *code)
{
	size_t	 i;

	for (i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
		if (strcmp(code, statuses[i].code) == 0)
			return statuses[i].status;
	return 500;
}

char *
json_text(const json_t *j, size_t *len)
{
	char	*s, *out;
	size_t	 n;

	/* A real (a rating) to 15 significant digits, what a double holds
	 * exactly: 0.06 prints as 0.06, not 0.059999999999999998. */
	s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(15));
	if (s == NULL)		/* only for an invalid value: a bug */
		s = xstrdup("null");
	n = strlen(s);
	out = xrealloc(s, n + 2);
	out[n] = '\n';
	out[n + 1] = '\0';
	if (len != NULL)
		*len = n + 1;
	return out;
}
