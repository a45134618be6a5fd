/*
 * The JSON API's writes: POST /api/games (a create), /api/games/ID/moves
 * (a move) and /api/games/ID/roll (a server roll).  Each is a turn like a
 * RESP client's: the JSON body becomes the words a RESP client would send
 * for it (the kind table's api names them), run by cmd_run() in the
 * pass's group commit.  A reply that waits for the COMMIT (struct
 * cmd_result) is held here until the pass ends (http_pass_end(), from
 * pass.c's pass_run()), then sent, or replaced by 503 STORE if the COMMIT
 * failed, as a held RESP reply becomes -STORE.  A write never ends the pass
 * itself: it joins it.
 *
 * With an optimistic store (several ludusd nodes on one PostgreSQL) the
 * COMMIT may find that a held write conflicted: another node wrote its
 * game first, and nothing of it is stored.  Its response is not sent:
 * the write is run again, whole (the game loaded, the seat proved, the
 * command), by its handler in step 7 of the pass's end (http_redo()),
 * as a RESP request is, into the next transaction, and its response waits
 * for that COMMIT; after HELD_REDO_MAX runs, or when the store could not
 * find out what became of it, it is 503 STORE.  Each HTTP connection
 * serves one request at a time, so nothing queues behind it.
 *
 * A seat is proved by each request, never remembered: the key in
 * Authorization: Bearer (X-Seat-Key on a server with a password, whose
 * bearer token is the password) goes to SEAT in a session of the
 * request's own, then the move runs in that session.
 *
 * A create counts against its peer address's create-rate and against
 * max-games (quota.c); a refusal is 429 LIMIT.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <sodium.h>

#include "game/kind.h"
#include "http/http.h"
#include "http/http_check.h"
#include "http/json.h"
#include "net/held.h"
#include "net/log.h"
#include "util/util.h"

#define SEAT_KEY_MAX	128	/* bytes of a seat key given */
#define OPTION_MAX	32	/* bytes of an option's name */

/* A response waiting for the pass's COMMIT. */
struct http_held {
	struct http_ctx	 x;		/* x.req NULL: the connection went */
	int		 status;
	char		*body;		/* JSON text */
	size_t		 len;
	uint64_t	 req;		/* its request in the transaction */
	int		 redo;		/* it conflicted: run it again */
	enum held_lost	 lost;		/* 503 STORE in its place */
};

/* ------------------------------------------------------------ words */

void
http_words_add(struct http_words *w, const char *s, size_t len)
{
	if (w->argc == w->cap) {
		w->cap = w->cap == 0 ? 8 : w->cap * 2;
		w->argv = xrealloc(w->argv, (size_t)w->cap * sizeof *w->argv);
		w->argl = xrealloc(w->argl, (size_t)w->cap * sizeof *w->argl);
	}
	w->argv[w->argc] = xstrndup(s, len);
	w->argl[w->argc++] = len;
}

void
http_words_addf(struct http_words *w, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[64];
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	http_words_add(w, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n :
	    sizeof buf - 1);
}

void
http_words_free(struct http_words *w)
{
	int	 i;

	for (i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w->argl);
	memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------- body */

/* The body as a JSON object ({} when empty); NULL with BADARG sent.  A
 * write takes no query parameter: what it says is in its body (and a
 * seat key never in a URL). */
json_t *
http_body_json(struct http_ctx *x)
{
	static const char *const none[] = { NULL };
	struct evbuffer	*in = evhttp_request_get_input_buffer(x->req);
	size_t		 len = evbuffer_get_length(in);
	struct evkeyvalq q;
	json_error_t	 err;
	json_t		*j;

	if (http_query(x, none, &q) == -1)
		return NULL;
	evhttp_clear_headers(&q);
	if (len == 0)
		return json_object();
	j = json_loadb((const char *)evbuffer_pullup(in, -1), len,
	    JSON_REJECT_DUPLICATES, &err);
	if (j == NULL)
		http_error(x, "BADARG", "the body is not JSON: %s", err.text);
	else if (!json_is_object(j)) {
		http_error(x, "BADARG", "the body must be a JSON object");
		json_decref(j);
		j = NULL;
	}
	return j;
}

static int
arg_known(const struct game_arg *args, const char *name)
{
	int	 i;

	for (i = 0; i < GAME_API_ARGS && args[i].name != NULL; i++)
		if (strcmp(args[i].name, name) == 0)
			return 1;
	return 0;
}

/* Every member of the body is one of fixed or of args; 0, or -1 with
 * BADARG sent. */
static int
members_known(struct http_ctx *x, json_t *body, const char *const *fixed,
    const struct game_arg *args)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach(body, key, v) {
		for (i = 0; fixed[i] != NULL; i++)
			if (strcmp(fixed[i], key) == 0)
				break;
		if (fixed[i] == NULL && !arg_known(args, key)) {
			http_error(x, "BADARG", "unknown member '%.64s'", key);
			return -1;
		}
	}
	return 0;
}

/* The word of one argument: an integer or a string, as the kind says;
 * none for an optional one left out.  0, or -1 with BADARG sent. */
static int
arg_word(struct http_ctx *x, struct http_words *w, json_t *body,
    const struct game_arg *a)
{
	json_t	*v = json_object_get(body, a->name);

	if (v == NULL || json_is_null(v)) {
		if (a->optional)
			return 0;
		http_error(x, "BADARG", "'%s' is required", a->name);
		return -1;
	}
	if (a->integer && json_is_integer(v))
		http_words_addf(w, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
	else if (!a->integer && json_is_string(v))
		http_words_add(w, json_string_value(v), json_string_length(v));
	else {
		http_error(x, "BADARG", "'%s' must be %s", a->name,
		    a->integer ? "an integer" : "a string");
		return -1;
	}
	return 0;
}

static int
args_words(struct http_ctx *x, struct http_words *w, json_t *body,
    const struct game_arg *args)
{
	int	 i;

	for (i = 0; i < GAME_API_ARGS && args[i].name != NULL; i++)
		if (arg_word(x, w, body, &args[i]) == -1)
			return -1;
	return 0;
}

/* ---------------------------------------------------------- replies */

/* A held response's connection closes before the COMMIT: nothing will be
 * sent to it. */
static void
held_gone(struct http *h, struct evhttp_request *req, void *arg)
{
	size_t	 i;

	(void)arg;
	for (i = 0; i < h->nheld; i++)
		if (h->held[i].x.req == req) {
			h->held[i].x.req = NULL;
			http_request_gone(req);
		}
}

/* A write refused by a quota (quota.c): 429 Too Many Requests, with
 * Retry-After when waiting is what it takes (create-rate). */
static int
quota_status(struct http_ctx *x)
{
	char	 secs[24];

	if (quota_retry_after(x->srv) > 0) {
		snprintf(secs, sizeof secs, "%lld",
		    (long long)quota_retry_after(x->srv));
		evhttp_add_header(evhttp_request_get_output_headers(x->req),
		    "Retry-After", secs);
	}
	return 429;
}

/* The response to a command's reply r (j: what the API says of a reply
 * that is no error; the reference is taken): now, or once the COMMIT
 * has made it true when the reply waits for it. */
static void
respond(struct http_ctx *x, const struct reply *r,
    const struct cmd_result *res, int status, json_t *j)
{
	struct http	*h = x->srv->http;
	struct http_held *held;

	if (r->type == REPLY_ERROR) {
		json_decref(j);
		j = http_error_json(r->str, &status);
		if (strncmp(r->str, "LIMIT ", 6) == 0)
			status = quota_status(x);
	}
	if (!res->wait) {
		http_json(x, status, j);
		return;
	}
	if (h->nheld == h->capheld) {
		h->capheld = h->capheld == 0 ? 16 : h->capheld * 2;
		h->held = xrealloc(h->held, h->capheld * sizeof *h->held);
	}
	held = &h->held[h->nheld++];
	held->x = *x;
	held->status = status;
	held->body = json_text(j, &held->len);
	held->req = res->req;
	held->redo = 0;
	held->lost = HELD_KEPT;
	json_decref(j);
	if (http_conn_watch(h, x->req, held_gone, NULL) == -1)
		log_debug("http: a held response on a connection not followed");
}

/* Runs the words in the session (NULL: none); the reply in r. */
void
http_run(struct http_ctx *x, struct http_words *w, struct cmd_session *s,
    struct reply *r, struct cmd_result *res)
{
	struct cmd_args	 a = { w->argc, w->argv, w->argl, s };
	uint64_t	 errors = x->srv->env.store_errors;

	cmd_run(&x->srv->env, &a, r, res);
	x->srv->http->writes++;
	if (x->srv->env.store_errors != errors)
		log_warning("http: store error in %.64s: %s", w->argv[0],
		    r->str != NULL ? r->str : "?");
}

/* Responds, then tells the pass what ran (its caps may end it now, which
 * releases what was just held). */
void
http_finish(struct http_ctx *x, const struct reply *r,
    const struct cmd_result *res, int status, json_t *j)
{
	respond(x, r, res, status, j);
	pass_after(x->srv, res);
}

/* ------------------------------------------------------------ seats */

/* The seat key the request gives, NUL-ended in key; 0 when none.  An
 * account's token (X-Account-Key, or NAME:KEY where a seat key goes)
 * plays the seats the account holds. */
static int
seat_key(struct http_ctx *x, char *key, size_t len)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(x->req);
	const char	*v, *token;
	size_t		 n;

	if ((v = evhttp_find_header(in, "X-Seat-Key")) != NULL ||
	    (v = evhttp_find_header(in, "X-Account-Key")) != NULL) {
		token = v + strspn(v, " ");
		n = strcspn(token, " ");
	} else if (auth_required(x->srv->auth) ||
	    (v = evhttp_find_header(in, "Authorization")) == NULL ||
	    http_bearer(v, &token, &n) == -1)
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(key, token, n);
	key[n] = '\0';
	return n > 0;
}

/*
 * Binds, in the session, the seat the key is for: the player the body
 * names (the kind's seat argument), or the player to move, through SEAT
 * as a RESP client would; an account's token (NAME:KEY) logs the
 * account in instead (PLAYER.LOGIN), which then plays every seat it
 * holds, a game the matchmaker made.  An open game needs no key, and a
 * secure one without a key gets the move's own NOSEAT.  A seq other than
 * the game's moves binds nothing: the command makes no move then, and
 * answers as over RESP, with the stored result of a resend or STALE (the
 * player to move now is not the one who sent the move being resent).  0,
 * or -1 with the error sent.
 */
static int
seat_bind(struct http_ctx *x, const struct game *g, json_t *body,
    const char *seat_arg, struct cmd_session *s)
{
	json_t			*seq = json_object_get(body, "seq");
	struct http_words		 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	char			 key[SEAT_KEY_MAX + 1], name[PLAYER_NAME_MAX];
	const char		*player;
	int			 turn, rc = 0;

	if (!g->opts.secure || (json_is_integer(seq) &&
	    json_integer_value(seq) != g->moves) ||
	    !seat_key(x, key, sizeof key))
		return 0;
	if (strchr(key, ':') != NULL) {
		rc = http_token_login(x, key, s);
		sodium_memzero(key, sizeof key);
		return rc;
	}
	if (seat_arg != NULL)
		player = json_string_value(json_object_get(body, seat_arg));
	else {
		turn = game_turn(g);
		player = turn >= 0 ? game_player_name(g, turn, name,
		    sizeof name) : NULL;
	}
	if (player == NULL)		/* the command says what is wrong */
		return 0;
	http_words_add(&w, "SEAT", 4);
	http_words_add(&w, g->id, strlen(g->id));
	http_words_add(&w, player, strlen(player));
	http_words_add(&w, key, strlen(key));
	http_run(x, &w, s, &r, &res);
	sodium_memzero(key, sizeof key);
	if (r.type == REPLY_ERROR) {
		http_finish(x, &r, &res, 0, NULL);
		rc = -1;
	}
	sodium_memzero(w.argv[3], w.argl[3]);
	http_words_free(&w);
	reply_free(&r);
	return rc;
}

/* ----------------------------------------------------------- create */

/* The players: names where the kind names them, else their count. */
static int
players_words(struct http_ctx *x, struct http_words *w, json_t *body,
    enum game_kind kind)
{
	json_t	*p = json_object_get(body, "players"), *v;
	size_t	 i;

	if (game_kind_get(kind)->player_name == NULL) {
		if (!json_is_integer(p)) {
			http_error(x, "BADARG", "'players' must be the number "
			    "of players");
			return -1;
		}
		http_words_addf(w, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(p));
		return 0;
	}
	if (!json_is_array(p)) {
		http_error(x, "BADARG", "'players' must be a list of names");
		return -1;
	}
	/* Names and options share the create's words: a name is checked
	 * here, so that "dice=server" is refused and never an option. */
	json_array_foreach(p, i, v) {
		if (!json_is_string(v)) {
			http_error(x, "BADARG", "a player's name must be a "
			    "string");
			return -1;
		}
		if (!valid_id(json_string_value(v), json_string_length(v))) {
			http_error(x, "BADARG", "a player's name is 1 to %d "
			    "lower-case letters a-z, digits 0-9 and -",
			    GAME_ID_MAX);
			return -1;
		}
		http_words_add(w, json_string_value(v), json_string_length(v));
	}
	return 0;
}

/* An option's name: the command's (turn-timeout), or with _ for - as the
 * JSON of a game writes them (turn_timeout). */
static int
option_name(const char *key, char *name)
{
	size_t	 i;

	for (i = 0; key[i] != '\0'; i++) {
		if (i == OPTION_MAX || !((key[i] >= 'a' && key[i] <= 'z') ||
		    (key[i] >= '0' && key[i] <= '9') || key[i] == '-' ||
		    key[i] == '_'))
			return -1;
		name[i] = key[i] == '_' ? '-' : key[i];
	}
	name[i] = '\0';
	return i > 0 ? 0 : -1;
}

/* "options": {"key": value}, each the create's key=value word: a string
 * as it is, a number in decimal, true and false as on and off. */
int
http_options_words(struct http_ctx *x, struct http_words *w, json_t *body)
{
	json_t		*opts = json_object_get(body, "options"), *v;
	const char	*key;
	char		 name[OPTION_MAX + 1], *word;
	int		 n;

	if (opts == NULL || json_is_null(opts))
		return 0;
	if (!json_is_object(opts)) {
		http_error(x, "BADARG", "'options' must be an object");
		return -1;
	}
	json_object_foreach(opts, key, v) {
		if (option_name(key, name) == -1) {
			http_error(x, "BADARG", "invalid option name");
			return -1;
		}
		if (json_is_string(v))
			n = xasprintf(&word, "%s=%s", name,
			    json_string_value(v));
		else if (json_is_integer(v))
			n = xasprintf(&word, "%s=%" JSON_INTEGER_FORMAT, name,
			    json_integer_value(v));
		else if (json_is_boolean(v))
			n = xasprintf(&word, "%s=%s", name, json_is_true(v) ?
			    "on" : "off");
		else {
			http_error(x, "BADARG", "option '%s' must be a string, "
			    "an integer, true or false", name);
			return -1;
		}
		http_words_add(w, word, (size_t)n);
		free(word);
	}
	return 0;
}

/* A game id of the server's choosing: "g-" and 10 random letters or
 * digits. */
static void
new_id(char *id)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	int	 i;

	memcpy(id, "g-", 2);
	for (i = 0; i < 10; i++)
		id[2 + i] = digits[randombytes_uniform(sizeof digits - 1)];
	id[12] = '\0';
}

/* The create's reply: OK, or a secure game's "player,key" lines. */
static json_t *
created_json(const char *id, enum game_kind kind, const struct reply *r)
{
	json_t		*seats = json_array();
	const char	*comma;
	char		*invite;
	size_t		 i;

	for (i = 0; r->type == REPLY_ARRAY && i < r->n; i++) {
		if ((comma = strchr(r->elem[i].str, ',')) == NULL)
			continue;
		xasprintf(&invite, "/games/%s#key=%s&player=%.*s", id,
		    comma + 1, (int)(comma - r->elem[i].str), r->elem[i].str);
		json_array_append_new(seats, json_pack("{s:s%, s:s, s:s}",
		    "player", r->elem[i].str, (size_t)(comma - r->elem[i].str),
		    "key", comma + 1, "invite", invite));
		free(invite);
	}
	return json_pack("{s:s, s:s, s:s, s:o}", "id", id, "kind",
	    game_kind_name(kind), "result", "OK", "seats", seats);
}

/* A create's create-rate is its peer address's (quota.c): an HTTP client
 * may open a connection for each request. */
void
http_peer_enter(struct http_ctx *x)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(x->req);
	const char		*addr = NULL;
	uint16_t		 port;

	if (evcon != NULL)
		evhttp_connection_get_peer(evcon, (char **)&addr, &port);
	quota_enter_peer(x->srv, addr != NULL ? addr : "?");
}

static int
create_words(struct http_ctx *x, struct http_words *w, json_t *body,
    enum game_kind kind, char *id)
{
	static const char *const fixed[] = { "kind", "id", "players",
	    "options", NULL };
	const struct game_api	*api = game_kind_get(kind)->api;
	json_t			*v = json_object_get(body, "id");

	if (members_known(x, body, fixed, api->create_args) == -1)
		return -1;
	if (v == NULL || json_is_null(v))
		new_id(id);
	else if (json_is_string(v))
		str_copy(id, GAME_ID_MAX + 1, json_string_value(v));
	else {
		http_error(x, "BADARG", "'id' must be a string");
		return -1;
	}
	http_words_add(w, api->create, strlen(api->create));
	/* The whole string, so that an id too long is the command's
	 * BADARG. */
	if (json_is_string(v))
		http_words_add(w, json_string_value(v), json_string_length(v));
	else
		http_words_add(w, id, strlen(id));
	return players_words(x, w, body, kind) == -1 ||
	    args_words(x, w, body, api->create_args) == -1 ||
	    http_options_words(x, w, body) == -1 ? -1 : 0;
}

void
api_create(struct http_ctx *x)
{
	struct http_words		 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	json_t			*body;
	enum game_kind		 kind;
	char			 id[GAME_ID_MAX + 1], *loc, kinds[128];

	x->route = api_create;
	if ((body = http_body_json(x)) == NULL)
		return;
	kind = json_is_string(json_object_get(body, "kind")) ?
	    game_kind_parse(json_string_value(json_object_get(body, "kind"))) :
	    KIND_NONE;
	if (kind == KIND_NONE || game_kind_get(kind)->api == NULL)
		http_error(x, "BADARG", "kind must be %s",
		    game_kind_list(kinds, sizeof kinds));
	else if (create_words(x, &w, body, kind, id) == 0) {
		http_peer_enter(x);
		http_run(x, &w, NULL, &r, &res);
		quota_leave(x->srv);
		if (r.type != REPLY_ERROR) {
			xasprintf(&loc, "/api/games/%s", id);
			evhttp_add_header(evhttp_request_get_output_headers(
			    x->req), "Location", loc);
			free(loc);
		}
		http_finish(x, &r, &res, 201, created_json(id, kind, &r));
	}
	http_words_free(&w);
	reply_free(&r);
	json_decref(body);
}

/* ------------------------------------------------------ moves, rolls */

/*
 * The game of the path, as the pass's transaction sees it (a write joins
 * the pass: it does not end it), and its kind's API; 0, or -1 with
 * NOGAME or STORE sent.
 */
static int
write_game(struct http_ctx *x, struct game *g, const struct game_api **api)
{
	int	 rc = store_load_game(x->srv->env.store, x->id, g);

	if (rc == STORE_NOTFOUND)
		http_error(x, "NOGAME", "no such game '%s'", x->id);
	else if (rc != STORE_OK)
		http_store_error(x);
	else if ((*api = game_kind_of(g)->api) == NULL) {
		http_error(x, "WRONGTYPE", "game '%s' takes no moves over "
		    "HTTP", x->id);
		rc = STORE_ERR;
	}
	return rc == STORE_OK ? 0 : -1;
}

/* One of the game's commands: NAME id args... [AT seq] (at: the command
 * takes it), in a session holding the seat the request proves; 0 with
 * the reply in r, or -1 with the error sent. */
static int
game_command(struct http_ctx *x, const struct game *g, json_t *body,
    const char *name, const struct game_arg *args, int at,
    struct reply *r, struct cmd_result *res)
{
	static const char *const with_seq[] = { "seq", NULL };
	static const char *const none[] = { NULL };
	struct http_words		 w = { 0 };
	struct cmd_session	*s = cmd_session_new();
	json_t			*seq = json_object_get(body, "seq");
	int			 rc = -1;

	s->seat_how = auth_required(x->srv->auth) ?
	    "the seat's key in X-Seat-Key: KEY" :
	    "the seat's key in Authorization: Bearer KEY";

	http_words_add(&w, name, strlen(name));
	http_words_add(&w, g->id, strlen(g->id));
	if (members_known(x, body, at ? with_seq : none, args) == -1 ||
	    args_words(x, &w, body, args) == -1)
		goto done;
	if (seq != NULL && !json_is_integer(seq)) {
		http_error(x, "BADARG", "'seq' must be an integer");
		goto done;
	}
	if (seq != NULL) {
		http_words_add(&w, "AT", 2);
		http_words_addf(&w, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(seq));
	}
	if (seat_bind(x, g, body, game_kind_of(g)->api->seat_arg, s) == 0) {
		http_run(x, &w, s, r, res);
		rc = 0;
	}
done:
	cmd_session_free(s);
	http_words_free(&w);
	return rc;
}

/* A move (roll 0) or a roll of the game of the path. */
static void
game_write(struct http_ctx *x, int roll)
{
	const struct game_api	*api;
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	struct game		 g;
	json_t			*body;

	if ((body = http_body_json(x)) == NULL)
		return;
	if (write_game(x, &g, &api) == -1)
		goto done;
	if (!roll) {
		if (game_command(x, &g, body, api->move, api->move_args, 1, &r,
		    &res) == 0)
			http_finish(x, &r, &res, 200, json_pack("{s:s, s:s}",
			    "id", g.id, "result", r.str != NULL ? r.str : ""));
	} else if (api->roll == NULL)
		http_error(x, "STATE", "a %s game rolls in its moves: POST "
		    "/api/games/%s/moves", game_kind_name(g.kind), g.id);
	else if (game_command(x, &g, body, api->roll, api->roll_args, 0, &r,
	    &res) == 0)
		http_finish(x, &r, &res, 200, json_pack("{s:s, s:I}", "id",
		    g.id, "roll", (json_int_t)r.integer));
done:
	reply_free(&r);
	json_decref(body);
}

void
api_move(struct http_ctx *x)
{
	x->route = api_move;
	game_write(x, 0);
}

void
api_roll(struct http_ctx *x)
{
	x->route = api_roll;
	game_write(x, 1);
}

/* ---------------------------------------------------------- exchange */

/*
 * POST /api/games/ID/exchange {"player": NAME} with the seat's key as a
 * move gives it: SEAT.EXCHANGE, as a RESP client would send it.  The key
 * given is spent and the response has the fresh one (held for the
 * COMMIT like every write, and never stored by a cache: no-store).
 */
void
api_exchange(struct http_ctx *x)
{
	static const char *const fixed[] = { "player", NULL };
	static const struct game_arg none[] = { { NULL, 0, 0, NULL } };
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	char			 key[SEAT_KEY_MAX + 1];
	json_t			*body, *player;

	x->route = api_exchange;
	if ((body = http_body_json(x)) == NULL)
		return;
	player = json_object_get(body, "player");
	if (members_known(x, body, fixed, none) == -1)
		goto done;
	if (!json_is_string(player)) {
		http_error(x, "BADARG", "'player' must be the name of the "
		    "seat's player");
		goto done;
	}
	if (!seat_key(x, key, sizeof key)) {
		http_error(x, "NOSEAT", "no key to exchange: %s",
		    auth_required(x->srv->auth) ? "the seat's key in "
		    "X-Seat-Key: KEY" : "the seat's key in Authorization: "
		    "Bearer KEY");
		goto done;
	}
	http_words_add(&w, "SEAT.EXCHANGE", 13);
	http_words_add(&w, x->id, strlen(x->id));
	http_words_add(&w, json_string_value(player),
	    json_string_length(player));
	http_words_add(&w, key, strlen(key));
	sodium_memzero(key, sizeof key);
	http_run(x, &w, NULL, &r, &res);
	sodium_memzero(w.argv[3], w.argl[3]);
	http_finish(x, &r, &res, 200, json_pack("{s:s, s:s%, s:s}", "id", x->id,
	    "player", json_string_value(player), json_string_length(player),
	    "key", r.type == REPLY_BULK && r.str != NULL ? r.str : ""));
	if (r.str != NULL)
		sodium_memzero(r.str, r.len);
done:
	http_words_free(&w);
	reply_free(&r);
	json_decref(body);
}

/* ------------------------------------------------------- the release */

/* A held write's error in place of its response: the COMMIT failed, or
 * the write was lost to conflicts. */
static void
held_error(struct http_held *held, const char *failure)
{
	evhttp_remove_header(evhttp_request_get_output_headers(held->x.req),
	    "Location");
	if (failure != NULL)
		http_error(&held->x, "STORE", "group commit failed: %s",
		    failure);
	else if (held->lost == HELD_UNKNOWN)
		http_error(&held->x, "STORE", "commit: the connection to the "
		    "store broke in the COMMIT; whether this write is stored "
		    "is not known");
	else
		http_error(&held->x, "STORE", "conflict: its game changed %d "
		    "times while the write was run", HELD_REDO_MAX);
}

/* The writes to run again stay (http_redo()), the others are answered. */
void
http_held_release(struct http *h, const char *failure)
{
	struct http_held	*held;
	size_t			 i, k = 0;

	for (i = 0; i < h->nheld; i++) {
		held = &h->held[i];
		if (held->redo && failure == NULL && held->x.req != NULL) {
			h->held[k++] = *held;
			continue;
		}
		if (held->x.req != NULL) {
			(void)http_conn_watch(h, held->x.req, NULL, NULL);
			if (failure == NULL && held->lost == HELD_KEPT)
				http_reply(&held->x, held->status,
				    "application/json", "no-store",
				    held->body, held->len);
			else
				held_error(held, failure);
		}
		free(held->body);
	}
	h->nheld = k;
}

/* The COMMIT's hook (pass.c): 1 when req was a held write's. */
int
http_held_conflict(struct http *h, uint64_t req, int redo)
{
	struct http_held	*held;
	size_t			 i;

	for (i = 0; i < h->nheld; i++) {
		held = &h->held[i];
		if (held->req != req || held->redo || held->lost != HELD_KEPT)
			continue;
		if (redo && held->x.tries < HELD_REDO_MAX)
			held->redo = 1;
		else
			held->lost = redo ? HELD_CONTENDED : HELD_UNKNOWN;
		return 1;
	}
	return 0;
}

/* Step 7 of the pass's end: the writes that conflicted, run again by
 * their handlers, in the order they came; each holds its new response. */
void
http_held_redo(struct http *h)
{
	struct http_held	*again;
	struct http_ctx		 x;
	size_t			 i, n = h->nheld;

	if (n == 0)
		return;
	again = xmalloc(n * sizeof(*again));
	memcpy(again, h->held, n * sizeof(*again));
	h->nheld = 0;
	for (i = 0; i < n; i++) {
		x = again[i].x;
		free(again[i].body);
		if (x.req == NULL)
			continue;
		(void)http_conn_watch(h, x.req, NULL, NULL);
		evhttp_remove_header(evhttp_request_get_output_headers(x.req),
		    "Location");
		x.tries++;
		x.route(&x);
	}
	free(again);
}
