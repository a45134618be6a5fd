/*
 * ludusd's private header: the server every connection shares, and the
 * functions the daemon's files call across each other, grouped by file.
 */
#ifndef LUDUS_LUDUSD_H
#define LUDUS_LUDUSD_H

#include <sys/queue.h>

#include <stdint.h>
#include <time.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "cmd/cmd.h"
#include "cmd/cmd_txn.h"
#include "net/config.h"
#include "net/resp.h"

struct addrinfo;
struct auth;
struct autoplay;
struct bufferevent;
struct cluster;
struct conn;
struct held_queue;
struct http;
struct lobbyd;
struct pass;
struct pubsub;
struct quota;
struct reply;
struct streams;
struct tls;
struct watch_registry;

TAILQ_HEAD(conn_list, conn);

/* A game some client follows, and the seq it has seen up to
 * (watch_each_game()). */
typedef void (*follow_cb)(void *arg, const char *id, int64_t seen);

struct server {
	struct event_base	 *base;
	const struct config	 *cfg;
	struct cmd_env		  env;
	struct evconnlistener	**listeners;
	int			  nlisteners;
	int			  port;		/* the port bound (0: off) */
	int			  tls_port;	/* the TLS one (0: off) */
	struct tls		 *tls;		/* tls.c's: NULL without TLS */
	struct event		 *sig_term, *sig_int, *sig_hup;
	struct event		 *stop_timer;	/* end of the shutdown grace */
	struct event		 *accept_timer;	/* re-enables accepting */
	struct conn_list	  conns;
	struct conn_list	  wpend;	/* output not yet written */
	size_t			  nwpend;
	int64_t			  nclients;
	int			  nmonitors;	/* connections in MONITOR */
	int64_t			  maxclients;	/* after RLIMIT_NOFILE */
	uint64_t		  next_id;
	time_t			  started;
	int			  stopping;
	struct auth		 *auth;		/* requirepass (auth.c) */
	struct quota		 *quota;	/* what a client may take */
	struct watch_registry	 *watches;
	struct pubsub		 *pubsub;	/* channels, patterns */
	struct streams		 *streams;	/* XREAD BLOCK's waits */
	struct autoplay		 *autoplay;	/* bots, turn deadlines */
	struct retire		 *retire;	/* finished-retention */
	struct cluster		 *cluster;	/* other nodes' moves */
	struct lobbyd		 *lobbyd;	/* the matchmaker, MATCH.WAIT */
	struct resp_buf		  enc;		/* scratch for the encoder */
	struct pass		 *pass;		/* the end of the pass */
	struct held_queue	 *held;		/* replies held for its COMMIT */
	struct http		 *http;		/* http.c; NULL: no HTTP */
	/* HTTP's share of the event path (a committed move, for the event
	 * streams) and of the end of the pass (after its COMMIT; failure:
	 * why it failed, else NULL), set by http_listen(): through pointers,
	 * as the command layer's hooks, so that the RESP side's files use
	 * nothing of HTTP's. */
	void			(*http_move)(struct server *, const char *game,
				    const struct move *);
	void			(*http_pass_end)(struct server *,
				    const char *failure);
	/* ... and of the followed games (watch_each_game()), of the
	 * conflicts (its held writes run again: http_conflict() says 1 when
	 * the request was one of them) and of the redo at the end of the
	 * pass (pass.c's step 7), where they run (http_redo()). */
	void			(*http_each_game)(struct server *,
				    follow_cb, void *);
	int			(*http_conflict)(struct server *,
				    uint64_t req, int redo);
	void			(*http_redo)(struct server *);
	/* ... and of the lobby's matches (after their COMMIT): a ticket's
	 * streams read it (lobby.c calls it). */
	void			(*http_match)(struct server *, int64_t ticket);

	/* INFO counters. */
	uint64_t		  conns_total;
	uint64_t		  conns_rejected;
	uint64_t		  commands;
	uint64_t		  bytes_in;
	uint64_t		  bytes_out;
	uint64_t		  proto_errors;
	uint64_t		  foreign_closed;	/* HTTP, TLS on RESP */
};

/* monitor.c: shows the request c sends (d's, found and well formed) to
 * the connections in MONITOR; monitor_gone() as c closes. */
void	monitor_feed(struct conn *c, const struct cmd_def *d,
	    const struct cmd_args *);
void	monitor_gone(struct conn *);

/* server.c */
int	server_init(struct server *, const struct config *);
int	server_listen(struct server *);
int	server_run(struct server *);
void	server_free(struct server *);
void	server_conn_gone(struct server *);

/* listen.c */
/* A listening socket on one address, for RESP and for HTTP: at *port, or
 * at a port the kernel picks when *port is 0 (and *port gets it); where
 * gets "addr:port".  The descriptor, or -1 with err set. */
int	listen_socket(const struct addrinfo *, int *port, char *where,
	    size_t wherelen, char *err, size_t errlen);
/* The addresses a bind value names (freeaddrinfo them); 0 or -1. */
int	listen_resolve(const char *host, int port, struct addrinfo **,
	    char *err, size_t errlen);
/* Whether a bind value names an address beyond loopback: 1 with where
 * set to the first ("addr:port"), 0 if none, -1 with err set. */
int	listen_beyond_loopback(char *const *binds, int nbind, int port,
	    char *where, size_t wherelen, char *err, size_t errlen);

/* conncmd.c */
/* Runs one request: a connection command or one of the command layer. */
void	conn_dispatch(struct conn *, const struct cmd_args *);
/* Runs a request of the command layer whose form was checked (p: as its
 * caller read it, else NULL: read here), its store errors logged; its
 * reply in r, what it tells the pass in res. */
void	conncmd_run(struct conn *, const struct cmd_def *,
	    const struct cmd_args *, struct cmd_parsed *p, struct reply *,
	    struct cmd_result *);
/* Runs one request of an EXEC (queued: found as d, its form checked) and
 * puts its reply in out: a command of the command layer, or a connection
 * command, whose reply conn_reply() then captures. */
void	conncmd_exec(struct conn *, const struct cmd_def *d,
	    const struct cmd_args *, struct reply *);
/* Runs again a held request that conflicted (pass.c, an optimistic
 * store): the command layer's answer, shaped as conn_dispatch (or
 * stream_run's read at once) shaped it the first time. */
void	conncmd_again(struct conn *, const struct cmd_args *, struct reply *,
	    struct cmd_result *);

/* auth.c: the password, kept as a keyed hash (see there). */
/* The password's hash ("" or NULL: none); NULL if libsodium fails. */
struct auth *auth_new(const char *password);
void	auth_free(struct auth *);
/* 1 when there is a password: connections must AUTH first. */
int	auth_required(const struct auth *);
/* 1 when user (NULL: the default one) and pass, len bytes, are right;
 * in constant time. */
int	auth_check(const struct auth *, const char *user, const char *pass,
	    size_t len);

/* client.c: HELLO, AUTH, CLIENT, SELECT, TIME, RESET (see there). */
/* backup.c: BACKUP path, an online backup made by a thread. */
struct backup_stats {
	int		 running;
	uint64_t	 count;		/* backups ended */
	int		 last_ok;	/* 1, 0, or -1: none yet */
	double		 last_secs;
};
void	backup_stats(struct backup_stats *);
void	backup_free(void);
/* Frees the names a connection was given. */
void	client_free(struct conn *);

/* multi.c: MULTI, EXEC, DISCARD, WATCH, UNWATCH (see there). */
/* Between MULTI and EXEC or DISCARD: requests are queued. */
int	multi_queuing(const struct conn *);
/* Queues a request of command d whose form the caller checked,
 * answering +QUEUED. */
void	multi_queue(struct conn *, const struct cmd_def *d,
	    const struct cmd_args *);
/* Refuses a request at queue time, answering r or -ERR and the message;
 * the EXEC will abort. */
void	multi_abort(struct conn *, const struct reply *r);
void	multi_refuse(struct conn *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* RESET: out of MULTI, nothing watched. */
void	multi_reset(struct conn *);
/* For CLIENT LIST: commands queued (-1: not in MULTI), games watched. */
int	multi_queued(const struct conn *);
int	multi_watched(const struct conn *);
size_t	multi_mem(const struct conn *);
void	multi_free(struct conn *);
/* In an EXEC, a connection command's reply is captured: 1 when r was (the
 * caller then sends nothing), 0 when it is to be sent. */
int	multi_capture(struct conn *, const struct reply *);

/* watch.c */
struct watch_registry *watch_registry_new(void);
void	watch_registry_free(struct watch_registry *);
/* The command layer's commit hook: queues the event until the reply of
 * the command that made the move has been written. */
void	watch_on_move(void *srv, const char *game, const struct move *);
/* Sends the queued events to every watcher, and starts counting the
 * moves of the next transaction from 0. */
void	watch_flush(struct server *);
/* Sends the queued events of the transaction's moves before the limit-th
 * (counted from 0 in on_move order), and keeps the others. */
void	watch_flush_upto(struct server *, uint64_t limit);
/* GAME.WATCH id [FROM seq]: from < 0 means only new moves.  0, or -1 with an
 * error reply set. */
int	watch_add(struct conn *, const char *id, int64_t from,
	    struct reply *err);
/* Removes a connection's watch of a game; 0 if it had none. */
int	watch_remove(struct conn *, const char *id);
/* Removes every watch of a connection; calls cb for each game id. */
void	watch_remove_all(struct conn *, void (*cb)(struct conn *,
	    const char *));
/* Sends more of the backlogs once output has drained; no transaction may
 * be open (pass_pump() makes sure). */
void	watch_pump(struct conn *);
uint64_t watch_games(const struct server *);
/*
 * The one iterator of the games this node's clients follow, whatever the
 * path of their events (cluster.c reads other nodes' moves of exactly
 * these): cb once per follower, with the seq it has seen up to, for
 * GAME.WATCH's watchers (the next event each is owed, less one), the
 * channels of pub/sub (the game's moves when the channel was made:
 * pubsub_each_game()), the XREAD BLOCKs that wait (their ids: "$" not
 * yet resolved is no follower yet: stream_each_game()) and HTTP's event
 * streams (srv->http_each_game).  A pattern subscription follows no game
 * by name, and is none of them.
 */
void	watch_each_game(struct server *, follow_cb, void *);

/* pubsub.c: SUBSCRIBE and the rest over games (see there). */
struct pubsub *pubsub_new(void);
void	pubsub_free(struct pubsub *);
/* watch_each_game()'s share of the channels. */
void	pubsub_each_game(struct server *, follow_cb, void *);
/* Whether a move of game may have a subscriber: a channel, a pattern. */
int	pubsub_wants(const struct server *, const char *game);
/* Sends the move's message to the game's subscribers and patterns. */
void	pubsub_deliver(struct server *, const char *game, const struct move *);
/* Every subscription of a connection ends, without a word (a close, a
 * RESET). */
void	pubsub_remove_all(struct conn *);
/* Sends msg to the subscribers of the account's channel, "player:NAME",
 * and to the patterns that match it. */
void	pubsub_account(struct server *, const char *account, const char *msg,
	    size_t len);

/* stream.c: XREAD BLOCK, a long XRANGE in slices (see there). */
struct streams *streams_new(void);
void	streams_free(struct streams *);
/* A CMD_STREAM request (XRANGE, XREVRANGE, XREAD) whose form was
 * checked: its words read once, then parked and delivered its own way (a
 * long range in slices, BLOCK's wait), or answered by the command layer
 * like any read. */
void	stream_run(struct conn *, const struct cmd_def *,
	    const struct cmd_args *);
/* Its read at once made again (conncmd_again(), which read it as p): r,
 * the command layer's reply, shaped as stream_run() shapes it for the
 * connection. */
void	stream_again(struct conn *, const struct cmd_parsed *p,
	    struct reply *r);
/* Waiting for its XREAD BLOCK, or writing a long XRANGE: its next
 * requests wait. */
int	stream_busy(const struct conn *);
int	stream_blocked(const struct conn *);
/* Whether an XREAD waits on the game. */
int	stream_wants(const struct server *, const char *game);
/* A committed move of game: wakes the XREADs it answers. */
void	stream_deliver(struct server *, const char *game, const struct move *);
/* Resolves a parked XREAD or XRANGE, or writes more of a long XRANGE;
 * no transaction may be open (pass_pump() makes sure). */
void	stream_pump(struct conn *);
void	stream_conn_free(struct conn *);
/* watch_each_game()'s share of the XREADs that wait. */
void	stream_each_game(struct server *, follow_cb, void *);

/* pass.c: the end of the pass and group commit (see there). */
/* Sets up the flush event (the loop has priorities), the held replies and
 * the command layer's transaction; 0 or -1. */
int	pass_init(struct server *);
/* Ends the open transaction and frees what the pass keeps. */
void	pass_free(struct server *);
/* Queues the reply of a command of the command layer (the request a), as
 * its result says: held until the COMMIT when it waits for it (with the
 * request, if the store may conflict: it may have to run again, through
 * conncmd_again(); a NULL: it cannot, an EXEC, whose conflict becomes
 * -STORE), else
 * written (behind the connection's held replies, if any); then as
 * pass_after(). */
void	pass_reply(struct conn *, const struct cmd_args *, const struct reply *,
	    const struct cmd_result *);
/* After a command or a timer that may have run a write (res: where the
 * transaction stands; NULL: nothing new ran): ends the pass at once when
 * a cap is reached, else makes sure it ends with a COMMIT. */
void	pass_after(struct server *, const struct cmd_result *res);
/* Output was queued: the end of this pass writes it to the socket. */
void	pass_wake(struct server *);
/* The barrier: ends the pass's transaction now, for a caller that must
 * see committed rows only or must not leave one open (a barrier command,
 * HTTP's reads, the feed of other nodes' moves, the stop): every step of
 * the end of a pass (pass.c's pass_run()) but the sockets, which wait for
 * the flush, and again while the requests run again leave a transaction
 * open: none is when it returns.  Safe when none is open. */
void	pass_barrier(struct server *);
/* Sends more of a connection's backlogs (GAME.WATCH's, a long XRANGE's)
 * and resolves its XREAD BLOCK: now, or once the open transaction has
 * ended (a history read inside it would see moves that may never
 * commit). */
void	pass_pump(struct conn *);
/* Writes run in the open transaction (0: none). */
size_t	pass_writes(const struct server *);
/* What the COMMITs took, for /metrics: a histogram of the writes of each
 * and one of its time in microseconds (counts[i]: the observations above
 * bounds[i - 1] and at most bounds[i]; counts[nbounds]: above all). */
#define PASS_HIST_MAX	16
struct pass_hist {
	const uint64_t	*bounds;	/* ascending */
	size_t		 nbounds;	/* < PASS_HIST_MAX */
	uint64_t	 counts[PASS_HIST_MAX];
	uint64_t	 count;
	uint64_t	 sum;
};
struct pass_stats {
	struct pass_hist writes;
	struct pass_hist usec;
};
const struct pass_stats *pass_stats(const struct server *);

/* retire.c: finished games archived and deleted (finished-retention),
 * and free pages given back, in the background (see there). */
struct retire_stats {
	uint64_t	 retired;	/* games deleted by retention */
	uint64_t	 archives;	/* archive files written */
	uint64_t	 reclaimed;	/* free pages given back */
	int64_t		 free_pages;	/* still in the file, at the last look */
	int		 pace;		/* times the base pace, this tick */
	uint64_t	 finish_rate;	/* games finished a second, last */
};
int	retire_init(struct server *);
void	retire_free(struct server *);
/* The end of a pass: its COMMIT went through (ok) or not. */
void	retire_pass_end(struct server *, int ok);
const struct retire_stats *retire_stats(const struct server *);

/* quota.c: what one client may take (see there). */
enum quota_limit {
	QUOTA_CREATE_RATE = 0,		/* create-rate */
	QUOTA_HTTP_CREATE_RATE,		/* http-create-rate */
	QUOTA_MAX_GAMES,		/* max-games */
	QUOTA_SUBSCRIPTIONS,		/* max-subscriptions */
	QUOTA_MULTI,			/* multi-max-commands */
	QUOTA_HTTP_PER_ADDRESS,		/* http-maxclients-per-address */
	QUOTA_COUNT
};
/* Sets the quotas up and hooks the command layer's create quotas. */
void	quota_init(struct server *);
void	quota_free(struct server *);
/* Whose the commands run until quota_leave() are, for their create-rate:
 * a RESP connection's, or an HTTP peer's (by its address). */
void	quota_enter_conn(struct server *, struct conn *);
void	quota_enter_peer(struct server *, const char *addr);
void	quota_leave(struct server *);
/* The lobby's quota (env->lobby's admit and made): an account or a
 * ticket on the client's create-rate. */
int	quota_lobby_admit(struct server *, struct reply *out);
void	quota_lobby_made(struct server *, int ok);
/* Seconds until a create of the client that the last create-rate
 * refusal refused would not be one (HTTP's Retry-After); 0: none. */
int64_t	quota_retry_after(const struct server *);
/* A connection would have more subscriptions (channels, patterns,
 * GAME.WATCH games, XREAD BLOCK keys): 0, or -1 with the -LIMIT refusal
 * set in err. */
int	quota_subscribe(struct conn *, int64_t more, struct reply *err);
/* A MULTI that queued that many commands would queue one more: 0, or -1
 * with the refusal set in err. */
int	quota_queue(struct conn *, size_t queued, struct reply *err);
/* An HTTP connection from addr is counted on its peer (the address, an
 * IPv6 one by its /64) until quota_peer_close(); *held: the peer's
 * connections now, this one included.  The peer lives while it holds
 * one. */
struct quota_peer;
struct quota_peer *quota_peer_open(struct server *, const char *addr,
	    int64_t *held);
void	quota_peer_close(struct quota_peer *);
/* A refusal of that cap made by the caller (counted in INFO, /metrics). */
void	quota_count(struct server *, enum quota_limit);
/* A refusal of a security check may be logged: 1, with *left the lines
 * of its kind left out since the last one; 0 when the log's rate is over
 * (the line is counted as left out). */
enum quota_log {
	QUOTA_LOG_HTTP = 0,		/* HTTP on the RESP port */
	QUOTA_LOG_TLS,			/* TLS on the RESP port */
	QUOTA_LOG_WEB,			/* HTTP: Host, Origin, type */
	QUOTA_LOG_KINDS
};
int	quota_log(struct server *, enum quota_log, uint64_t *left);
/* For INFO and /metrics: the config key of a cap, its refusals, the
 * foreign connections on the RESP port not logged; CONFIG RESETSTAT sets
 * them to 0. */
const char *quota_name(enum quota_limit);
uint64_t quota_refused(const struct server *, enum quota_limit);
uint64_t quota_unlogged(const struct server *);
void	quota_reset_stats(struct server *);

/* tls.c: TLS on tls-port and https-port (see there). */
/* Builds the context from the files of the configuration when tls-port
 * or https-port is set: 0, or -1 (logged). */
int	tls_init(struct server *);
void	tls_free(struct server *);
/* SIGHUP: the files again; on failure the old context stays (logged). */
void	tls_reload(struct server *);
/* A bufferevent that accepts a TLS client on fd (fd -1: set later, as
 * evhttp does), with the context in use now; NULL if none can be made
 * (fd is then still open). */
struct bufferevent *tls_bufferevent_new(struct server *, evutil_socket_t);
/* Sends TLS's close_notify, before our FIN. */
void	tls_close_notify(struct bufferevent *);
/* The handshake is done: logs its version and peer (debug). */
void	tls_connected(struct bufferevent *, const char *addr);
/* The bufferevent reported an error: logs OpenSSL's reason.  handshake:
 * it failed in the handshake; what the client sent is read and our FIN
 * sent, so that the close is clean (no reset). */
void	tls_failed(struct bufferevent *, const char *addr, int handshake);

/* cluster.c: what a node does because others share its store. */
/* Starts the feed of other nodes' moves and the watch of overdue
 * deadlines when the store is shared (optimistic); 0 or -1. */
int	cluster_init(struct server *);
void	cluster_free(struct server *);
/* The command layer's move hook on a shared store: the game's front
 * moves, then watch_on_move(). */
void	cluster_on_move(void *srv, const char *game, const struct move *);

/* lobby.c: the matchmaker's runs, MATCH.WAIT, the account channels
 * (see there). */
/* Hooks the command layer's lobby (env->lobby) and starts the sweeps of
 * the queues; 0 or -1. */
int	lobby_init(struct server *);
void	lobby_free(struct server *);
/* MATCH.WAIT ticket [timeout-ms] of a connection (0: for ever): blocks
 * it until the ticket is matched, answers at once if it is. */
void	lobby_wait(struct conn *, int64_t ticket, int64_t timeout_ms);
/* Waiting for its MATCH.WAIT: its next requests wait. */
int	lobby_busy(const struct conn *);
/* Resolves a parked MATCH.WAIT; no transaction may be open (pass_pump()
 * makes sure). */
void	lobby_pump(struct conn *);
void	lobby_conn_free(struct conn *);
/* The client has closed its side while its MATCH.WAIT waits: answered
 * -STATE, the connection then closes. */
void	lobby_closing(struct conn *);
/* The pass's transaction ended (ok: its COMMIT did): the queues that ran
 * in it may run again. */
void	lobby_pass_end(struct server *, int ok);
/* A request of a queue's run conflicted: 1 (it runs again), 0 when req
 * was none of the lobby's. */
int	lobby_conflict(struct server *, uint64_t req);
/* For INFO: the command layer's counters, and the daemon's; NULL
 * without a lobby. */
struct lobby_stats {
	uint64_t	 runs;		/* queues run */
	uint64_t	 waits;		/* MATCH.WAITs blocked */
	size_t		 waited;	/* tickets waited on now */
	size_t		 queues;	/* with tickets waiting, known */
	size_t		 held;		/* ... of which this node matches */
};
const struct cmd_lobby *lobby_stats(const struct server *,
	    struct lobby_stats *);

/* autoplay.c */
/* Arms a timer for every game the server owes a move (bots, deadlines)
 * and hooks env->on_schedule; 0, or -1 if the store cannot say. */
int	autoplay_init(struct server *);
void	autoplay_free(struct server *);
/* The env->on_schedule hook: plays game at due_ms (0: never). */
void	autoplay_schedule(void *srv, const char *game, int64_t due_ms);
size_t	autoplay_pending(const struct server *);	/* games armed */
/* The pass's transaction ended: ok, or its COMMIT failed and the games
 * whose timers fired while it was open are tried again later. */
void	autoplay_pass_end(struct server *, int ok);
/* A timer's move of request req conflicted: another node wrote the game
 * first, and arms what follows there. */
void	autoplay_conflict(struct server *, uint64_t req);

#endif /* LUDUS_LUDUSD_H */
