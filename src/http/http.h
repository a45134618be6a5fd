/*
 * The HTTP side of ludusd: libevent's evhttp on the daemon's own loop,
 * sharing its store.  The files, each with one job:
 *
 *	http.c		the server: listening (HTTP, HTTPS), its evhttp
 *			and its limits
 *	http_conn.c	the connections, followed from accept to close
 *	http_serve.c	what every request passes (Host, methods), the
 *			routes
 *	http_reply.c	replies with their security headers, JSON errors,
 *			query parameters
 *	http_check.c	the Host, Content-Type and Origin values (pure,
 *			fuzzed)
 *	http_api.c	the JSON API's reads (/api/..., /healthz, /readyz)
 *			and the kinds (/api/kinds)
 *	http_write.c	its writes (create, move, roll): turns in the
 *			pass's group commit, replied after its COMMIT
 *	http_events.c	the live event streams (Server-Sent Events)
 *	http_lobby.c	accounts, tickets, the leaderboard (/api/players,
 *			/api/lobby, /api/leaderboard)
 *	http_tickets.c	the streams of a ticket's match
 *	http_metrics.c	/metrics, in Prometheus's text format
 *	http_pages.c	the pages, the boards as SVG, the static files
 *	json.c		a game as JSON, the JSON of errors (pure: json.h)
 *
 * GET and HEAD read; POST writes, and DELETE (a ticket cancelled), after
 * the checks of a write (content type, origin, the server's password);
 * nothing else is served.
 */
#ifndef LUDUS_HTTP_HTTP_H
#define LUDUS_HTTP_HTTP_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "game/game.h"
#include "net/ludusd.h"

struct http_conn;
struct http_events;
struct http_held;
struct http_tickets;
LIST_HEAD(http_conn_bucket, http_conn);
TAILQ_HEAD(http_conn_queue, http_conn);

#define HTTP_CONN_BUCKETS	256

struct http {
	struct server		*srv;
	struct evhttp		*evh;
	int			 port;
	/* HTTPS (https-port): an evhttp of its own, whose connections'
	 * bufferevents are tls.c's; NULL, 0: none. */
	struct evhttp		*evhs;
	int			 https_port;
	/* Connections, counted from their accept to their close. */
	struct event		*adopt;		/* takes in the new ones */
	struct http_conn_queue	 pending;	/* accepted, not yet taken */
	struct http_conn_bucket	 conns[HTTP_CONN_BUCKETS];
	int64_t			 nconns;
	struct timeval		 deadline;	/* for a request to arrive */
	/* The names a Host header may give (lower case), and whether any
	 * address literal is one of ours (a wildcard bind). */
	char			**names;
	int			 nnames;
	int			 any_address;
	uint64_t		 requests;
	uint64_t		 refused;	/* 421, 403, 415, 401, 503 LIMIT */
	uint64_t		 writes;	/* commands run for a write */
	/* Responses waiting for the pass's COMMIT (http_write.c). */
	struct http_held	*held;
	size_t			 nheld, capheld;
	struct http_events	*events;	/* http_events.c */
	struct http_tickets	*tickets;	/* http_tickets.c */
};

/* One request being served. */
struct http_ctx {
	struct server		*srv;
	struct evhttp_request	*req;
	int			 tls;		/* on the HTTPS port */
	const char		*path;
	const char		*query;		/* raw, NULL when none */
	char			 id[GAME_ID_MAX + 1];	/* of the path */
	/* A write's handler and its runs again so far: a write that
	 * conflicted (an optimistic store) is run again (http_write.c). */
	void			(*route)(struct http_ctx *);
	int			 tries;
};

/* http.c: the HTTP port (http-port), on the same addresses as RESP;
 * started and freed by main (src/net/ludusd.c), around the server's
 * life: the one file of the RESP side that names HTTP's functions. */
/* Listens when HTTP is on, and sets the server's hooks; 0, or -1
 * logged. */
int	http_listen(struct server *);
/* The HTTP port bound, 0 when none; the HTTPS one. */
int	http_port(const struct server *);
int	http_tls_port(const struct server *);
/* Closes every HTTP connection and the listeners: before server_free. */
void	http_free(struct server *);

/* http_conn.c: the connections (http.c sets these callbacks up); the
 * HTTPS port's bufferevents accept TLS with tls.c's context in use. */
struct bufferevent *http_conn_bev_cb(struct event_base *, void *h);
struct bufferevent *http_conn_bev_tls_cb(struct event_base *, void *h);
void	http_conn_adopt_cb(evutil_socket_t, short, void *h);
/* A connection over a limit when it was accepted: one more than
 * http-maxclients, or than its peer's share
 * (http-maxclients-per-address).  Such a one is answered 503 LIMIT and
 * closed, but for a probe (/healthz, /readyz, /metrics) while the
 * connections are at most http-maxclients + HTTP_RESERVE. */
enum http_over {
	HTTP_OVER_NONE = 0,
	HTTP_OVER_ALL,
	HTTP_OVER_SHARE
};
#define HTTP_RESERVE	32
/* A request has arrived: whether its connection is one over a limit. */
enum http_over http_conn_begin(struct http *, struct evhttp_request *);
/* The connections accepted and not yet taken in (at the end). */
void	http_conns_free(struct http *);
/* Calls gone(h, req, arg) when the connection of req closes, before
 * evhttp frees what is queued on it; NULL clears it.  A connection serves
 * one request at a time, so it has one such watcher.  -1 when the
 * connection is not followed (http.c could not take it in). */
typedef void (*http_gone_cb)(struct http *, struct evhttp_request *,
    void *arg);
int	http_conn_watch(struct http *, struct evhttp_request *, http_gone_cb,
	    void *arg);
/* The request's connection is closing (a watcher's gone): frees the
 * request when evhttp has let go of it (a reset or timeout detaches a
 * request it has not been answered), else leaves it to evhttp. */
void	http_request_gone(struct evhttp_request *);

/* http_serve.c */
/* Checks a request and routes it to its handler; over: the limit its
 * connection is over (enum http_over); tls: it came on the HTTPS port. */
void	http_serve(struct http *, struct evhttp_request *, enum http_over,
	    int tls);

/* http_reply.c */
/* The headers every reply of ours carries. */
void	http_secure_headers(struct evkeyvalq *);
/* The same as header lines ("Name: value\r\n"), for a reply written by
 * evhttp itself (http_conn.c). */
void	http_secure_headers_raw(struct evbuffer *);
/* The reply; type and cache are the Content-Type and Cache-Control
 * values. */
void	http_reply(struct http_ctx *, int status, const char *type,
	    const char *cache, const void *body, size_t len);
/* A JSON reply; takes the reference. */
void	http_json(struct http_ctx *, int status, json_t *);
/* {"error": code, "message": ...} with the code's status. */
void	http_error(struct http_ctx *, const char *code, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	http_store_error(struct http_ctx *);
/* The query's parameters, each one of allowed and given once; 0, or -1
 * with a BADARG reply sent.  Clear q with evhttp_clear_headers(). */
int	http_query(struct http_ctx *, const char *const *allowed,
	    struct evkeyvalq *q);
/* A target that takes no parameter: 0, or -1 with a BADARG reply sent. */
int	http_query_none(struct http_ctx *);
/* A parameter as an integer in [min, max], def when absent; 0, or -1
 * with a BADARG reply sent. */
int	http_query_int(struct http_ctx *, const struct evkeyvalq *,
	    const char *name, int64_t min, int64_t max, int64_t def,
	    int64_t *);

/* An error reply of the command layer ("NOGAME no such game 'g'") as
 * JSON, {"error": "NOGAME", "message": ...}, and its status. */
json_t	*http_error_json(const char *resp_error, int *status);

/* http_api.c */
void	api_games(struct http_ctx *);
void	api_game(struct http_ctx *);
void	api_history(struct http_ctx *);
void	api_replay(struct http_ctx *);
void	api_kinds(struct http_ctx *);
void	api_healthz(struct http_ctx *);
void	api_readyz(struct http_ctx *);
/* Ends the open group-commit batch, so that a read sees committed rows
 * only (as INFO does). */
void	http_reads_committed(struct server *);
/* Loads the game of the path; 0, or -1 with NOGAME or STORE sent. */
int	http_load_game(struct http_ctx *, struct game *);
/* kind, after and limit (default def) of a listing, as GAMES takes
 * them; 0, or -1 with BADARG sent. */
int	http_list_args(struct http_ctx *, const struct evkeyvalq *,
	    enum game_kind *, const char **after, int64_t *limit,
	    int64_t def);
/* The game of the path after move seq (the query's "seq", every move
 * when absent): loaded, and replayed when seq is earlier; *latest gets
 * its moves now.  0, or -1 with the error sent. */
int	http_game_at(struct http_ctx *, const struct evkeyvalq *,
	    struct game *, int64_t *seq, int64_t *latest);
/* The games after `after` (NULL: from the first) of one kind (or all), at
 * most limit, loaded after the listing so that no store call runs in
 * another's callback (one gone meanwhile is left out); next gets the id
 * to list after for the next page, "" at the end.  0, or -1 with STORE
 * sent.  *games is the caller's to free. */
int	http_list_games(struct http_ctx *, enum game_kind, const char *after,
	    int64_t limit, struct game **games, int64_t *n, char *next);

/* http_write.c */
void	api_create(struct http_ctx *);
/* What the writes share (http_lobby.c's too): the words of a request, as
 * a RESP client would send them, run by cmd_run() in the pass's group
 * commit, and the response, held for the COMMIT when the reply waits
 * for it. */
struct http_words {
	int	 argc;
	char	**argv;
	size_t	*argl;
	int	 cap;
};
void	http_words_add(struct http_words *, const char *, size_t);
void	http_words_addf(struct http_words *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	http_words_free(struct http_words *);
/* The body as a JSON object ({} when empty), the target taking no query
 * parameter; NULL with BADARG sent. */
json_t	*http_body_json(struct http_ctx *);
/* Runs the words in the session (NULL: none); the reply in r. */
void	http_run(struct http_ctx *, struct http_words *, struct cmd_session *,
	    struct reply *, struct cmd_result *);
/* Responds to r (j: what the API says of a reply that is no error; the
 * reference is taken), now or after the COMMIT, then tells the pass
 * what ran. */
void	http_finish(struct http_ctx *, const struct reply *,
	    const struct cmd_result *, int status, json_t *);
/* The body's "options": {"key": value}, each a key=value word. */
int	http_options_words(struct http_ctx *, struct http_words *, json_t *);
/* What the request makes counts against its peer address's create-rate
 * (quota.c) until quota_leave(). */
void	http_peer_enter(struct http_ctx *);
void	api_move(struct http_ctx *);
void	api_roll(struct http_ctx *);
void	api_exchange(struct http_ctx *);
/* The pass has ended: the held responses go, as 503 STORE when failure
 * (why the COMMIT failed) is set. */
void	http_held_release(struct http *, const char *failure);
/* A conflict of the COMMIT (pass.c): 1 when req was a held write, which
 * then runs again at http_held_redo(), or becomes 503 STORE. */
int	http_held_conflict(struct http *, uint64_t req, int redo);
void	http_held_redo(struct http *);

/* http_lobby.c: accounts, tickets, the leaderboard */
/* What the API's reads and the pages share: PLAYER.INFO, PLAYER.GAMES
 * (q: the query, of http_player_games_params) and LEADERBOARD (q: of
 * http_leaderboard_params) as the API's JSON; NULL with the error sent
 * (a page of it for a browser that asked a page). */
json_t	*http_player_json(struct http_ctx *, const char *name);
extern const char *const http_player_games_params[];
json_t	*http_player_games_json(struct http_ctx *, const char *name,
	    const struct evkeyvalq *q);
extern const char *const http_leaderboard_params[];
json_t	*http_leaderboard_json(struct http_ctx *, const char *kind,
	    const struct evkeyvalq *q);
void	api_player_create(struct http_ctx *);
void	api_player(struct http_ctx *);
void	api_player_games(struct http_ctx *);
void	api_leaderboard(struct http_ctx *);
void	api_lobby(struct http_ctx *);
void	api_ticket_create(struct http_ctx *);
void	api_ticket(struct http_ctx *);
void	api_ticket_cancel(struct http_ctx *);
/* The account the request proves ("NAME:KEY" as its bearer token, or in
 * X-Account-Key on a server with a password), logged in in s through
 * PLAYER.LOGIN; 0, or -1 with the error sent. */
int	http_account_login(struct http_ctx *, struct cmd_session *s);
/* The same with the token given ("NAME:KEY"); a seat's key never holds
 * a ':', so a move's key that does is an account's (http_write.c). */
int	http_token_login(struct http_ctx *, const char *token,
	    struct cmd_session *s);
/* The ticket of the path; 0, or -1 with BADARG sent. */
int	http_ticket_id(struct http_ctx *, int64_t *);
/* A ticket as JSON: matched (r: cmd_ticket_answer()'s reply, [game, seat,
 * [player...]]) or waiting (r NULL). */
json_t	*http_ticket_json(int64_t, const char *account, const struct reply *r);

/* http_tickets.c: the streams of a ticket's match (Server-Sent Events) */
int	http_tickets_init(struct http *);
void	http_tickets_free(struct http *);
void	api_ticket_events(struct http_ctx *);
/* A ticket was matched (after its COMMIT), or cancelled over HTTP (in
 * the open transaction): its streams read it at the next turn of the
 * loop, with the transaction ended. */
void	http_tickets_changed(struct http *, int64_t ticket);
size_t	http_tickets_open(const struct http *);

/* http_events.c */
int	http_events_init(struct http *);
/* Ends every stream (the daemon stops). */
void	http_events_free(struct http *);
void	api_events(struct http_ctx *);
/* A committed move (the event path, see http_on_move()). */
void	http_events_move(struct http *, const char *game, const struct move *);
/* The pass has ended: the backlogs that waited for it are read. */
void	http_events_pass_end(struct http *);
/* watch_each_game()'s share of the event streams. */
void	http_events_each_game(struct http *, follow_cb, void *);
struct http_events_stats {
	size_t		 open;		/* streams now */
	uint64_t	 streams;	/* opened */
	uint64_t	 sent;		/* events sent */
	uint64_t	 dropped;	/* streams dropped: too slow a reader */
};
void	http_events_stats(const struct http *, struct http_events_stats *);

/* http_metrics.c */
void	page_metrics(struct http_ctx *);

/* http_pages.c */
void	page_index(struct http_ctx *);
void	page_game(struct http_ctx *);
void	page_svg(struct http_ctx *);
void	page_static(struct http_ctx *);
void	page_leaderboard(struct http_ctx *);
void	page_player(struct http_ctx *);
/* An error as a page that says what to do, for a browser that asked a
 * page's address for HTML (http_error() calls it). */
int	page_wanted(const struct http_ctx *);
void	page_error(struct http_ctx *, int status, const char *code,
	    const char *msg);

#endif /* LUDUS_HTTP_HTTP_H */
