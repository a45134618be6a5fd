/*
 * The lobby over HTTP: accounts (POST /api/players, GET /api/players/NAME
 * and its /games), the leaderboard (GET /api/leaderboard/KIND), the
 * queues (GET /api/lobby) and tickets (POST /api/lobby, GET and DELETE
 * /api/lobby/ID; their streams are http_tickets.c's).  Each request is the
 * words a RESP client would send for it, run by cmd_run(): PLAYER.CREATE,
 * PLAYER.INFO, PLAYER.GAMES, LEADERBOARD, MATCH.LIST, MATCH.JOIN,
 * MATCH.CANCEL, and for a ticket's state MATCH.WAIT's own answer
 * (cmd_ticket_answer()); the writes join the pass's group commit and are
 * answered after its COMMIT, as http_write.c's are.
 *
 * An account is proved by each request, never remembered: "NAME:KEY" as
 * the bearer token (in X-Account-Key on a server with a password, whose
 * bearer token is the password), the way a seat's key is given, goes to
 * PLAYER.LOGIN in a session of the request's own, and the command runs
 * in that session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <sodium.h>

#include "cmd/cmd.h"
#include "cmd/cmd_lobby.h"
#include "game/kind.h"
#include "http/http.h"
#include "http/http_check.h"
#include "http/json.h"
#include "util/util.h"

/* "NAME:KEY": a name of 50 bytes, a key of 32 hex digits, and room for a
 * wrong one to be refused as wrong rather than cut. */
#define TOKEN_MAX	160

/* ------------------------------------------------------- an account */

/* The account's token the request gives, NUL-ended; 0 when none. */
static int
account_token(struct http_ctx *x, char *tok, size_t len)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(x->req);
	const char	*v, *t;
	size_t		 n;

	if ((v = evhttp_find_header(in, "X-Account-Key")) != NULL) {
		t = v + strspn(v, " ");
		n = strcspn(t, " ");
	} else if (auth_required(x->srv->auth) ||
	    (v = evhttp_find_header(in, "Authorization")) == NULL ||
	    http_bearer(v, &t, &n) == -1)
		return 0;
	if (n == 0)
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(tok, t, n);
	tok[n] = '\0';
	return 1;
}

static const char *
token_how(const struct http_ctx *x)
{
	return auth_required(x->srv->auth) ? "X-Account-Key: NAME:KEY" :
	    "Authorization: Bearer NAME:KEY";
}

/* Runs a command that writes nothing (no session: NULL). */
static void
read_run(struct http_ctx *x, struct http_words *w, struct cmd_session *s,
    struct reply *r)
{
	struct cmd_args		 a = { w->argc, w->argv, w->argl, s };
	struct cmd_result	 res;

	cmd_run(&x->srv->env, &a, r, &res);
	pass_after(x->srv, &res);
}

/* The error reply of a command ("NOACCOUNT no account 'x'"), as JSON
 * with its status, or as a page for a browser that asked a page. */
static void
reply_error_json(struct http_ctx *x, const struct reply *r)
{
	char	 code[32];
	size_t	 n = strcspn(r->str, " ");

	if (n >= sizeof code)
		n = sizeof code - 1;
	memcpy(code, r->str, n);
	code[n] = '\0';
	http_error(x, code, "%s", r->str[n] == ' ' ? r->str + n + 1 : "");
}

int
http_token_login(struct http_ctx *x, const char *tok, struct cmd_session *s)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	const char		*colon;
	int			 rc = 0;

	if ((colon = strchr(tok, ':')) == NULL) {
		http_error(x, "BADARG", "the account's token is NAME:KEY, as "
		    "in %s", token_how(x));
		return -1;
	}
	http_words_add(&w, "PLAYER.LOGIN", 12);
	http_words_add(&w, tok, (size_t)(colon - tok));
	http_words_add(&w, colon + 1, strlen(colon + 1));
	read_run(x, &w, s, &r);
	if (r.type == REPLY_ERROR) {
		reply_error_json(x, &r);
		rc = -1;
	}
	sodium_memzero(w.argv[2], w.argl[2]);
	http_words_free(&w);
	reply_free(&r);
	return rc;
}

int
http_account_login(struct http_ctx *x, struct cmd_session *s)
{
	char	 tok[TOKEN_MAX];
	int	 rc;

	if (!account_token(x, tok, sizeof tok)) {
		if (!auth_required(x->srv->auth))
			evhttp_add_header(evhttp_request_get_output_headers(
			    x->req), "WWW-Authenticate",
			    "Bearer realm=\"ludus\"");
		http_error(x, "NOLOGIN", "this needs an account: %s",
		    token_how(x));
		return -1;
	}
	rc = http_token_login(x, tok, s);
	sodium_memzero(tok, sizeof tok);
	return rc;
}

/* ---------------------------------------------------- POST /api/players */

void
api_player_create(struct http_ctx *x)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	json_t			*body, *name;
	const char		*key;
	char			*loc;

	x->route = api_player_create;
	if ((body = http_body_json(x)) == NULL)
		return;
	name = json_object_get(body, "name");
	if (json_object_size(body) != (name != NULL ? 1u : 0u)) {
		json_object_foreach(body, key, name)
			if (strcmp(key, "name") != 0)
				break;
		http_error(x, "BADARG", "unknown member '%.64s'", key);
	} else if (!json_is_string(name))
		http_error(x, "BADARG", "'name' must be a string");
	else {
		http_words_add(&w, "PLAYER.CREATE", 13);
		http_words_add(&w, json_string_value(name),
		    json_string_length(name));
		http_peer_enter(x);
		http_run(x, &w, NULL, &r, &res);
		quota_leave(x->srv);
		if (r.type != REPLY_ERROR) {
			xasprintf(&loc, "/api/players/%s",
			    json_string_value(name));
			evhttp_add_header(evhttp_request_get_output_headers(
			    x->req), "Location", loc);
			free(loc);
		}
		/* The key is shown this once: the store keeps its hash. */
		http_finish(x, &r, &res, 201, r.type == REPLY_BULK ?
		    json_pack("{s:s, s:s%, s:s++}", "name",
		    json_string_value(name), "key", r.str, r.len, "token",
		    json_string_value(name), ":", r.str) : json_null());
		if (r.str != NULL)
			sodium_memzero(r.str, r.len);
	}
	http_words_free(&w);
	reply_free(&r);
	json_decref(body);
}

/* ------------------------------------------------ GET /api/players/NAME */

/* A "rating,KIND,rating,rd,volatility,games,won" line of PLAYER.INFO. */
static int
rating_json(json_t *ratings, const char *line)
{
	char		 buf[256], *f[6], *save = NULL, *p;
	const char	*err;
	int64_t		 games, won;
	int		 n = 0;

	str_copy(buf, sizeof buf, line);
	for (p = strtok_r(buf, ",", &save); p != NULL && n < 6;
	    p = strtok_r(NULL, ",", &save))
		f[n++] = p;
	if (n != 6 || parse_int64(f[4], 0, INT64_MAX, &games, &err) != 0 ||
	    parse_int64(f[5], 0, INT64_MAX, &won, &err) != 0)
		return -1;
	json_object_set_new(ratings, f[0], json_pack("{s:f, s:f, s:f, s:I, "
	    "s:I}", "rating", strtod(f[1], NULL), "rd", strtod(f[2], NULL),
	    "volatility", strtod(f[3], NULL), "played", (json_int_t)games,
	    "won", (json_int_t)won));
	return 0;
}

/* PLAYER.INFO's "key,value" lines as an object. */
static json_t *
info_json(const struct reply *r)
{
	json_t		*j = json_object(), *ratings = json_object();
	const char	*line, *v, *err;
	int64_t		 created;
	size_t		 i, n;

	json_object_set_new(j, "bot", json_null());
	for (i = 0; i < r->n; i++) {
		line = r->elem[i].str;
		if (line == NULL || (v = strchr(line, ',')) == NULL)
			continue;
		n = (size_t)(v++ - line);
		if (n == 4 && strncmp(line, "name", 4) == 0)
			json_object_set_new(j, "name", json_string(v));
		else if (n == 3 && strncmp(line, "bot", 3) == 0)
			json_object_set_new(j, "bot", json_string(v));
		else if (n == 7 && strncmp(line, "created", 7) == 0 &&
		    parse_int64(v, 0, INT64_MAX, &created, &err) == 0)
			json_object_set_new(j, "created",
			    json_integer((json_int_t)created));
		else if (n == 6 && strncmp(line, "rating", 6) == 0)
			(void)rating_json(ratings, v);
	}
	json_object_set_new(j, "ratings", ratings);
	return j;
}

json_t *
http_player_json(struct http_ctx *x, const char *name)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	json_t			*j = NULL;

	http_reads_committed(x->srv);
	http_words_add(&w, "PLAYER.INFO", 11);
	http_words_add(&w, name, strlen(name));
	read_run(x, &w, NULL, &r);
	if (r.type == REPLY_ERROR)
		reply_error_json(x, &r);
	else
		j = info_json(&r);
	http_words_free(&w);
	reply_free(&r);
	return j;
}

void
api_player(struct http_ctx *x)
{
	json_t	*j;

	if (http_query_none(x) == 0 && (j = http_player_json(x, x->id)) !=
	    NULL)
		http_json(x, 200, j);
}

/* ------------------------------------------ GET /api/players/NAME/games */

/* The page's size: the limit given (the command has checked it), else
 * the command's default. */
static int64_t
page_size(const char *limit)
{
	const char	*err;
	int64_t		 n;

	return limit != NULL && parse_int64(limit, 1, INT64_MAX, &n,
	    &err) == 0 ? n : CMD_LIST_DEFAULT;
}

/* Whether a reply element is a bulk string or a status. */
static int
is_text(const struct reply *e)
{
	return e->type == REPLY_BULK || e->type == REPLY_STATUS;
}

const char *const http_player_games_params[] = { "state", "after",
	"limit", NULL };

json_t *
http_player_games_json(struct http_ctx *x, const char *name,
    const struct evkeyvalq *q)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 }, *e;
	const char		*state, *after, *limit;
	json_t			*games, *j = NULL;
	int64_t			 n;
	size_t			 i;

	state = evhttp_find_header(q, "state");
	after = evhttp_find_header(q, "after");
	limit = evhttp_find_header(q, "limit");
	if (state != NULL && strcmp(state, "active") != 0 &&
	    strcmp(state, "finished") != 0) {
		http_error(x, "BADARG", "state must be active or finished");
		goto done;
	}
	http_words_add(&w, "PLAYER.GAMES", 12);
	http_words_add(&w, name, strlen(name));
	if (state != NULL)
		http_words_add(&w, state[0] == 'a' ? "ACTIVE" : "FINISHED",
		    state[0] == 'a' ? 6 : 8);
	if (after != NULL) {
		http_words_add(&w, "AFTER", 5);
		http_words_add(&w, after, strlen(after));
	}
	if (limit != NULL) {
		http_words_add(&w, "LIMIT", 5);
		http_words_add(&w, limit, strlen(limit));
	}
	http_reads_committed(x->srv);
	read_run(x, &w, NULL, &r);
	if (r.type == REPLY_ERROR) {
		reply_error_json(x, &r);
		goto done;
	}
	games = json_array();
	for (i = 0; i < r.n; i++) {
		e = &r.elem[i];
		if (e->type != REPLY_ARRAY || e->n != 5 ||
		    !is_text(&e->elem[0]) || !is_text(&e->elem[1]) ||
		    !is_text(&e->elem[2]) || !is_text(&e->elem[3]))
			continue;
		json_array_append_new(games, json_pack("{s:s, s:s, s:s, s:o, "
		    "s:I}", "id", e->elem[0].str, "kind", e->elem[1].str,
		    "seat", e->elem[2].str, "turn",
		    strcmp(e->elem[3].str, "NONE") == 0 ? json_null() :
		    json_string(e->elem[3].str), "moves",
		    (json_int_t)e->elem[4].integer));
	}
	/* A full page may have a next one: its after is this one's last. */
	n = page_size(limit);
	j = json_pack("{s:s, s:o, s:o}", "name", name, "games", games, "next",
	    (int64_t)json_array_size(games) == n && n > 0 ?
	    json_copy(json_object_get(json_array_get(games,
	    json_array_size(games) - 1), "id")) : json_null());
done:
	http_words_free(&w);
	reply_free(&r);
	return j;
}

void
api_player_games(struct http_ctx *x)
{
	struct evkeyvalq	 q;
	json_t			*j;

	if (http_query(x, http_player_games_params, &q) == -1)
		return;
	if ((j = http_player_games_json(x, x->id, &q)) != NULL)
		http_json(x, 200, j);
	evhttp_clear_headers(&q);
}

/* -------------------------------------------- GET /api/leaderboard/KIND */

const char *const http_leaderboard_params[] = { "after", "limit", NULL };

json_t *
http_leaderboard_json(struct http_ctx *x, const char *kind,
    const struct evkeyvalq *q)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 }, *e;
	const char		*after, *limit;
	json_t			*players, *j = NULL;
	int64_t			 n, last = 0;
	size_t			 i;

	after = evhttp_find_header(q, "after");
	limit = evhttp_find_header(q, "limit");
	http_words_add(&w, "LEADERBOARD", 11);
	http_words_add(&w, kind, strlen(kind));
	if (limit != NULL) {
		http_words_add(&w, "LIMIT", 5);
		http_words_add(&w, limit, strlen(limit));
	}
	if (after != NULL) {
		http_words_add(&w, "AFTER", 5);
		http_words_add(&w, after, strlen(after));
	}
	http_reads_committed(x->srv);
	read_run(x, &w, NULL, &r);
	if (r.type == REPLY_ERROR) {
		reply_error_json(x, &r);
		goto done;
	}
	players = json_array();
	for (i = 0; i < r.n; i++) {
		e = &r.elem[i];
		if (e->type != REPLY_ARRAY || e->n != 6 ||
		    !is_text(&e->elem[1]) || !is_text(&e->elem[2]) ||
		    !is_text(&e->elem[3]))
			continue;
		last = e->elem[0].integer;
		json_array_append_new(players, json_pack("{s:I, s:s, s:f, "
		    "s:f, s:I, s:I}", "rank", (json_int_t)last, "name",
		    e->elem[1].str, "rating", strtod(e->elem[2].str, NULL),
		    "rd", strtod(e->elem[3].str, NULL), "played",
		    (json_int_t)e->elem[4].integer, "won",
		    (json_int_t)e->elem[5].integer));
	}
	n = page_size(limit);
	j = json_pack("{s:s, s:o, s:o}", "kind", kind, "players", players,
	    "next", (int64_t)json_array_size(players) == n && n > 0 ?
	    json_integer((json_int_t)last) : json_null());
done:
	http_words_free(&w);
	reply_free(&r);
	return j;
}

void
api_leaderboard(struct http_ctx *x)
{
	struct evkeyvalq	 q;
	json_t			*j;

	if (http_query(x, http_leaderboard_params, &q) == -1)
		return;
	if ((j = http_leaderboard_json(x, x->id, &q)) != NULL)
		http_json(x, 200, j);
	evhttp_clear_headers(&q);
}

/* ----------------------------------------------------- GET /api/lobby */

void
api_lobby(struct http_ctx *x)
{
	static const char *const params[] = { "kind", NULL };
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 }, *e;
	struct evkeyvalq	 q;
	const char		*kind;
	json_t			*queues;
	size_t			 i;

	if (http_query(x, params, &q) == -1)
		return;
	http_words_add(&w, "MATCH.LIST", 10);
	if ((kind = evhttp_find_header(&q, "kind")) != NULL)
		http_words_add(&w, kind, strlen(kind));
	http_reads_committed(x->srv);
	read_run(x, &w, NULL, &r);
	if (r.type == REPLY_ERROR) {
		reply_error_json(x, &r);
		goto done;
	}
	queues = json_array();
	for (i = 0; i < r.n; i++) {
		e = &r.elem[i];
		if (e->type != REPLY_ARRAY || e->n != 4 ||
		    !is_text(&e->elem[0]) || !is_text(&e->elem[1]))
			continue;
		json_array_append_new(queues, json_pack("{s:s, s:s, s:I, s:I}",
		    "queue", e->elem[0].str, "kind", e->elem[1].str, "waiting",
		    (json_int_t)e->elem[2].integer, "oldest_wait_ms",
		    (json_int_t)e->elem[3].integer));
	}
	http_json(x, 200, json_pack("{s:o}", "queues", queues));
done:
	http_words_free(&w);
	reply_free(&r);
	evhttp_clear_headers(&q);
}

/* ---------------------------------------------------- POST /api/lobby */

/* The join's words: MATCH.JOIN kind option=value...; 0, or -1 with
 * BADARG sent. */
static int
join_words(struct http_ctx *x, struct http_words *w, json_t *body)
{
	json_t		*kind = json_object_get(body, "kind"), *v;
	const char	*key;

	json_object_foreach(body, key, v)
		if (strcmp(key, "kind") != 0 && strcmp(key, "options") != 0) {
			http_error(x, "BADARG", "unknown member '%.64s'", key);
			return -1;
		}
	if (!json_is_string(kind)) {
		http_error(x, "BADARG", "'kind' must be a string");
		return -1;
	}
	http_words_add(w, "MATCH.JOIN", 10);
	http_words_add(w, json_string_value(kind), json_string_length(kind));
	return http_options_words(x, w, body);
}

void
api_ticket_create(struct http_ctx *x)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	struct cmd_session	*s = cmd_session_new();
	json_t			*body;
	char			*loc;

	x->route = api_ticket_create;
	if ((body = http_body_json(x)) == NULL)
		goto done;
	if (join_words(x, &w, body) == -1 || http_account_login(x, s) == -1)
		goto done;
	http_peer_enter(x);
	http_run(x, &w, s, &r, &res);
	quota_leave(x->srv);
	if (r.type == REPLY_INT) {
		xasprintf(&loc, "/api/lobby/%lld", r.integer);
		evhttp_add_header(evhttp_request_get_output_headers(x->req),
		    "Location", loc);
		free(loc);
	}
	http_finish(x, &r, &res, 201, json_pack("{s:I, s:s, s:s}", "ticket",
	    (json_int_t)r.integer, "account", s->account, "state",
	    "waiting"));
done:
	cmd_session_free(s);
	http_words_free(&w);
	reply_free(&r);
	json_decref(body);
}

/* ------------------------------------------------ GET /api/lobby/ID */

int
http_ticket_id(struct http_ctx *x, int64_t *id)
{
	const char	*err;

	if (parse_int64(x->id, 1, INT64_MAX, id, &err) != 0) {
		http_error(x, "BADARG", "a ticket is a number from 1");
		return -1;
	}
	return 0;
}

/* cmd_ticket_answer()'s matched reply: [game, seat, [player...]]. */
json_t *
http_ticket_json(int64_t id, const char *account, const struct reply *r)
{
	json_t	*j, *players;
	size_t	 i;

	if (r == NULL || r->type != REPLY_ARRAY || r->n != 3 ||
	    !is_text(&r->elem[0]) || !is_text(&r->elem[1]))
		return json_pack("{s:I, s:s, s:s, s:n, s:n, s:n, s:n}",
		    "ticket", (json_int_t)id, "account", account, "state",
		    "waiting", "game", "seat", "players", "url");
	players = json_array();
	for (i = 0; i < r->elem[2].n; i++)
		if (is_text(&r->elem[2].elem[i]))
			json_array_append_new(players,
			    json_string(r->elem[2].elem[i].str));
	j = json_pack("{s:I, s:s, s:s, s:s, s:s, s:o, s:s+}", "ticket",
	    (json_int_t)id, "account", account, "state", "matched", "game",
	    r->elem[0].str, "seat", r->elem[1].str, "players", players, "url",
	    "/games/", r->elem[0].str);
	return j;
}

void
api_ticket(struct http_ctx *x)
{
	struct cmd_session	*s = cmd_session_new();
	struct reply		 r = { 0 };
	int64_t			 id;
	int			 rc;

	if (http_query_none(x) == -1 || http_ticket_id(x, &id) == -1)
		goto done;
	http_reads_committed(x->srv);
	if (http_account_login(x, s) == -1)
		goto done;
	rc = cmd_ticket_answer(&x->srv->env, s->account, id, &r);
	if (rc < 0)
		reply_error_json(x, &r);
	else
		http_json(x, 200, http_ticket_json(id, s->account, rc > 0 ?
		    &r : NULL));
done:
	reply_free(&r);
	cmd_session_free(s);
}

/* --------------------------------------------- DELETE /api/lobby/ID */

void
api_ticket_cancel(struct http_ctx *x)
{
	struct http_words	 w = { 0 };
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	struct cmd_session	*s = cmd_session_new();
	int64_t			 id;

	x->route = api_ticket_cancel;
	if (http_query_none(x) == -1 || http_ticket_id(x, &id) == -1 ||
	    http_account_login(x, s) == -1)
		goto done;
	http_words_add(&w, "MATCH.CANCEL", 12);
	http_words_add(&w, x->id, strlen(x->id));
	http_run(x, &w, s, &r, &res);
	http_finish(x, &r, &res, 200, json_pack("{s:I, s:s, s:s}", "ticket",
	    (json_int_t)id, "account", s->account, "state", "cancelled"));
	/* Its streams end at once rather than at their next heartbeat. */
	if (r.type != REPLY_ERROR)
		http_tickets_changed(x->srv->http, id);
done:
	cmd_session_free(s);
	http_words_free(&w);
	reply_free(&r);
}
