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

struct autoplay;
struct cluster;
struct conn;
struct held_queue;
struct pass;
struct reply;
struct watch_registry;

TAILQ_HEAD(conn_list, conn);

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
	struct cluster		 *cluster;	/* other nodes' moves */
	struct resp_buf		  enc;		/* scratch for the encoder */
	struct pass		 *pass;		/* the end of the pass */
	struct held_queue	 *held;		/* replies held for its COMMIT */

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
 * moves of the next transaction from 0. */
void	watch_flush(struct server *);
/* Sends the queued events of the transaction's moves before the limit-th
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
/* Sends more of the backlogs once output has drained; no transaction may
 * be open (pass_pump() makes sure). */
void	watch_pump(struct conn *);
uint64_t watch_games(const struct server *);
/* Calls cb for each game watched, with the seq its watchers have all
 * seen (the next event any of them is owed, less one): what another
 * node's moves are read after. */
void	watch_each_game(struct server *, void (*cb)(void *, const char *,
	    int64_t), void *);

/* pass.c: the end of the pass and group commit (see there). */
/* Sets up the flush event (the loop has priorities), the held replies and
 * the command layer's transaction; 0 or -1. */
int	pass_init(struct server *);
/* Ends the open transaction and frees what the pass keeps. */
void	pass_free(struct server *);
/* Queues the reply of a command of the command layer (the request a), as
 * its result says: held until the COMMIT when it waits for it (with the
 * request, if the store may conflict: it may have to run again), else
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
/* Ends the pass's transaction now (a barrier, the stop): the COMMIT, the
 * held replies, the events, the backlogs, the timers.  Safe when none is
 * open. */
void	pass_end(struct server *);
/* Sends more of a connection's WATCH backlogs: now, or once the open
 * transaction has ended (a history read inside it would see moves that
 * may never commit). */
void	pass_pump(struct conn *);
/* Writes run in the open transaction (0: none). */
size_t	pass_writes(const struct server *);

/* cluster.c: what a node does because others share its store. */
/* Starts the feed of other nodes' moves and the watch of overdue
 * deadlines when the store is shared (optimistic); 0 or -1. */
int	cluster_init(struct server *);
void	cluster_free(struct server *);

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
