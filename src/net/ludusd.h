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
#include "net/config.h"
#include "net/resp.h"

struct addrinfo;
struct autoplay;
struct conn;
struct held;
struct http;
struct reply;
struct watch_registry;

TAILQ_HEAD(conn_list, conn);

/*
 * Group commit (batch.c): the writes of one pass of the event loop share
 * one transaction, and the replies of the commands that ran while it was
 * open wait here, encoded, until it has committed.  Kept across batches.
 */
struct batch {
	struct event		*flush;		/* lowest priority: pass end */
	int			 armed;		/* flush made active */
	int			 ending;	/* in batch_end() */
	int			 pumps;		/* WATCH backlogs to resume */
	uint64_t		 started_us;	/* when the open one opened */
	struct resp_buf		 buf;		/* held replies' bytes */
	struct held		*held;
	size_t			 nheld;
	size_t			 cap;
};

struct server {
	struct event_base	 *base;
	const struct config	 *cfg;
	struct cmd_env		  env;
	struct evconnlistener	**listeners;
	int			  nlisteners;
	int			  port;		/* the port bound */
	struct event		 *sig_term, *sig_int, *sig_hup;
	struct event		 *stop_timer;	/* end of the shutdown grace */
	struct event		 *accept_timer;	/* re-enables accepting */
	struct conn_list	  conns;
	struct conn_list	  wpend;	/* output not yet written */
	size_t			  nwpend;
	int64_t			  nclients;
	int64_t			  maxclients;	/* after RLIMIT_NOFILE */
	uint64_t		  next_id;
	time_t			  started;
	int			  stopping;
	struct watch_registry	 *watches;
	struct autoplay		 *autoplay;	/* bots, turn deadlines */
	struct resp_buf		  enc;		/* scratch for the encoder */
	struct batch		  batch;	/* group commit */
	struct http		 *http;		/* http.c; NULL: no HTTP */

	/* INFO counters. */
	uint64_t		  conns_total;
	uint64_t		  conns_rejected;
	uint64_t		  commands;
	uint64_t		  bytes_in;
	uint64_t		  bytes_out;
	uint64_t		  proto_errors;
};

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

/* http.c: the HTTP port (http-port), on the same addresses as RESP;
 * started and freed by main, around the server's life. */
/* Listens when HTTP is on; 0, or -1 logged. */
int	http_listen(struct server *);
/* The HTTP port bound, 0 when none. */
int	http_port(const struct server *);
/* Closes every HTTP connection and the listeners: before server_free. */
void	http_free(struct server *);

/* conncmd.c */
/* Runs one request: a connection command or one of the command layer. */
void	conn_dispatch(struct conn *, const struct cmd_args *);
/* For the tests and --help: whether a name is a connection command. */
int	conncmd_exists(const char *);

/* watch.c */
struct watch_registry *watch_registry_new(void);
void	watch_registry_free(struct watch_registry *);
/* The command layer's commit hook: queues the event until the reply of
 * the command that made the move has been written. */
void	watch_on_move(void *srv, const char *game, const struct move *);
/* Sends the queued events to every watcher, and starts counting the
 * moves of the next batch from 0. */
void	watch_flush(struct server *);
/* Sends the queued events of the batch's moves before the limit-th
 * (counted from 0 in on_move order), and keeps the others. */
void	watch_flush_upto(struct server *, uint64_t limit);
/* WATCH id [FROM seq]: from < 0 means only new moves.  0, or -1 with an
 * error reply set. */
int	watch_add(struct conn *, const char *id, int64_t from,
	    struct reply *err);
/* Removes a connection's watch of a game; 0 if it had none. */
int	watch_remove(struct conn *, const char *id);
/* Removes every watch of a connection; calls cb for each game id. */
void	watch_remove_all(struct conn *, void (*cb)(struct conn *,
	    const char *));
/* Sends more of the backlogs once output has drained. */
void	watch_pump(struct conn *);
uint64_t watch_games(const struct server *);

/* batch.c */
/* Sets up the flush event (the loop has priorities); 0 or -1. */
int	batch_init(struct server *);
/* Ends the open batch and frees what it keeps. */
void	batch_free(struct server *);
/* After a command or a timer that may have run a write: commits at once
 * when a cap is reached, else makes sure the pass ends with a commit. */
void	batch_after(struct server *);
/* Makes sure the flush runs at the end of this pass (it writes the
 * connections' pending output, after the batch's COMMIT). */
void	batch_wake(struct server *);
/* Commits (or fails) the open batch and releases what waited for it: the
 * held replies in order, then the WATCH events.  Safe when none is open. */
void	batch_end(struct server *);
/* Queues a reply behind the batch.  store: the reply was computed from
 * the store (it becomes -STORE if the COMMIT fails). */
void	batch_hold(struct conn *, const struct reply *, int store);
/* A connection is being freed: its held replies are dropped. */
void	batch_forget(struct conn *);

/* autoplay.c */
/* Arms a timer for every game the server owes a move (bots, deadlines)
 * and hooks env->on_schedule; 0, or -1 if the store cannot say. */
int	autoplay_init(struct server *);
void	autoplay_free(struct server *);
/* The env->on_schedule hook: plays game at due_ms (0: never). */
void	autoplay_schedule(void *srv, const char *game, int64_t due_ms);
size_t	autoplay_pending(const struct server *);	/* games armed */
/* A batch ended: ok, or its COMMIT failed and the games whose timers
 * fired while it was open are tried again later. */
void	autoplay_batch_end(struct server *, int ok);

#endif /* LUDUS_LUDUSD_H */
