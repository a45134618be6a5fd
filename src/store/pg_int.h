/*
 * The PostgreSQL backend's private header, shared by its files:
 *
 *	pg_open.c	open (the migrations, safely when several nodes
 *			start at once), close, the ops table
 *	pg_conn.c	the two connections: connecting, the session's
 *			settings, preparing the statements, reconnecting,
 *			and the round trips of the read connection
 *	pg_stmt.c	the statements (SQL, prepared once per connection)
 *			and the text parameters and columns
 *	pg_batch.c	the transaction: its statements queued in libpq's
 *			pipeline, the COMMIT, the outcome of each request
 *	pg_queue.c	the queue of the transaction's statements
 *	pg_set.c	its turns sent as one set-based statement
 *	pg_outcome.c	the outcome of a COMMIT lost with its connection,
 *			found out, now or once the server is back
 *	pg_write.c	the writes of a game, each one statement checked
 *			against the snapshot's version (store/backend.h)
 *	pg_read.c	the reads: a game's rows, history, lists, counts,
 *			deadlines, the secret, the size
 *	pg_lobby.c	accounts, ratings, tickets, the seats accounts
 *			hold, and the matcher's lock of a queue
 *
 * Two connections.  The write connection carries the caller's
 * transaction: every write and check of the pass is queued here as the
 * turns are computed, and BEGIN, the statements and COMMIT go out in one
 * pipeline, one round trip, so that the transaction lives on the server
 * only while it runs there and no row lock is held while this node
 * computes or waits.  (Queued here rather than in libpq's buffer: a turn
 * savepoint rolled back takes its statements out again.)  The read connection serves every read at once (autocommit,
 * committed rows only, one round trip each, a game's four tables in one
 * and in one snapshot).
 * A read inside the transaction cannot see its writes: a read of the
 * rows of a game the transaction writes, or a list while it creates
 * games, marks its request conflicted instead ("doomed"), to be run
 * again once the writes are committed.
 */
#ifndef LUDUS_STORE_PG_INT_H
#define LUDUS_STORE_PG_INT_H

#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

#include "store/backend.h"

enum pg_stmt_id {
	/* The write connection's. */
	PS_CREATE,
	PS_TURN,
	PS_TURNS,
	PS_SETUP,
	PS_PENDING,
	PS_SEAT,
	PS_CHECK,
	PS_MARK,
	PS_IMPORT,
	PS_ACCOUNT_INSERT,
	PS_ACCOUNT_REKEY,
	PS_ACCOUNT_LOCK,
	PS_RATINGS,
	PS_TICKET_INSERT,
	PS_TICKET_CANCEL,
	PS_MATCH,
	PS_DELETE,
	/* The read connection's. */
	PS_SNAP_BEGIN,
	PS_GAME,
	PS_PLAYERS,
	PS_TOKENS,
	PS_JUMPS,
	PS_SNAP_END,
	PS_VERSION,
	PS_EXISTS,
	PS_HISTORY,
	PS_SINCE,
	PS_LIST_ALL,
	PS_LIST_KIND,
	PS_COUNT,
	PS_DEADLINES,
	PS_DEADLINES_BEFORE,
	PS_META_SELECT,
	PS_META_INSERT,
	PS_SIZE,
	PS_NODE_ADD,
	PS_NODE_PRUNE,
	PS_TERMINATE,
	PS_OUTCOME,
	PS_TURN_STORED,
	PS_STAMP_IS,
	PS_TICKET_IS,
	PS_CANCEL_IS,
	PS_ACCOUNT_KEY_IS,
	PS_SEAT_IS,
	PS_CLEAR,
	PS_CLEAR_ACCOUNTS,
	PS_WHOLE,
	PS_ACCOUNT_SELECT,
	PS_RATING_SELECT,
	PS_LEADERBOARD,
	PS_TICKET_IDS,
	PS_JOIN_READ,
	PS_TICKET_SELECT,
	PS_TICKETS_WAITING,
	PS_QUEUES_ALL,
	PS_QUEUES_KIND,
	PS_TICKETS_ENDED,
	PS_SEAT_SELECT,
	PS_ACCOUNT_GAMES,
	PS_QUEUE_LOCK,
	PS_ACCOUNT_EACH,
	PS_RATING_EACH,
	PS_TICKET_EACH,
	PS_SEAT_EACH,
	PS_TICKET_IMPORT,
	PS_SEAT_IMPORT,
	PS_FINISHED,
	PS_FINISHED_COUNT,
	NPS
};

/* What a statement queued in the transaction is, for its result. */
enum pg_qkind {
	PQ_BEGIN,
	PQ_COMMIT,
	PQ_MARK,
	PQ_CHECK,		/* a version check: no row is a conflict */
	PQ_TURN,		/* writes, checked the same way */
	PQ_CREATE,
	PQ_SETUP,
	PQ_DELETE,		/* checked as a turn; found out as lost */
	PQ_PENDING,
	PQ_IMPORT,		/* no outcome of its own */
	PQ_LOBBY,		/* a lobby row's write (pg_lobby.c): no row
				   is a conflict */
	PQ_LOCK,		/* a lock taken for what follows it: no
				   outcome of its own */
	PQ_RATINGS,		/* ratings written on top of those read:
				   else 1 / 0, and every request of the
				   transaction conflicted */
	PQ_DOOM,		/* nothing sent: conflicted already */
	PQ_WHOLE		/* a whole request's check (pg_whole.c) */
};

/*
 * What the queue is sorted by (pg_batch.c): a game's id, or a key of
 * the lobby's rows, which begins with PG_KEY_LOBBY (no game id can) so
 * that the lobby's statements lock their rows first, in an order every
 * node shares: "!a" and the account's name, "!r" and a kind's digit
 * for ratings, "!t" and a ticket's id in 20 digits.
 */
#define PG_KEY_LOBBY	'!'
#define PG_KEY_MAX	64

/* The advisory locks' first keys ('ludu' and 'ludq'): an account's
 * tickets counted, and the matcher of a queue (pg_lobby.c). */
#define PG_LOCK_ACCOUNT	"1819632757"
#define PG_LOCK_QUEUE	"1819632753"

/* The columns of a ticket, in the order pg_lobby.c reads them. */
#define PG_TICKET_COLS \
	"id, account, kind, queue, players_min, players_max, rating, span," \
	" bots_after, joined, state, game, seat, ended"

struct pg_q {
	uint8_t		 kind;		/* enum pg_qkind */
	uint8_t		 outcome;	/* 0, STORE_REDO or STORE_LOST */
	uint8_t		 stmt;		/* enum pg_stmt_id */
	uint8_t		 nparams;
	uint32_t	 off;		/* its parameters in the arena */
	uint64_t	 req;
	int64_t		 seq;		/* a turn's history seq */
	int64_t		 base;		/* the stamp it expects (a check's) */
	int64_t		 stamp;		/* the stamp a write puts */
	uint8_t		 inset;		/* sent in the set (pg_set.c) */
	char		 id[PG_KEY_MAX];	/* a game or a lobby key; ""
						   for none */
};

/* 1 when q's id names a game (not a lobby row's key, not none). */
static inline int
pg_q_game(const struct pg_q *q)
{
	return q->id[0] != '\0' && q->id[0] != PG_KEY_LOBBY;
}

/* The backend's process and its start (microseconds since the epoch)
 * are taken when it connects: libpq says neither of a connection that
 * broke, and a COMMIT lost with one needs its session ended for certain,
 * and no other session that has its number since. */
struct pg_db {
	PGconn		*pc;
	int		 ready;		/* set up, prepared, in pipeline mode */
	int		 pid;
	int64_t		 start;
	int		 ended;		/* the server said FATAL, idle */
};

#define PG_SAVEPOINTS	8	/* nested at most */

/* An array parameter's text, built one element at a time (pg_stmt.c). */
struct pg_buf {
	char	*p;
	size_t	 len, cap;
};

/* The turns of a COMMIT sent as one statement (pg_set.c). */
#define SET_TURN_COLS	19	/* a turn's columns */
#define SET_PARAMS	(1 + SET_TURN_COLS + 5)
struct pg_set {
	struct pg_buf	 b[SET_PARAMS];
	const char	*p[SET_PARAMS];
	size_t		 n;		/* turns in it */
	size_t		 at;		/* its place in the order sent */
	uint8_t		*stored;	/* each turn's, from its rows */
};

/* The feed's connection (pg_feed.c): other nodes' moves, read without
 * waiting, one read at a time. */
struct pg_feed {
	PGconn		*pc;
	int		 state;		/* FEED_NONE, _CONNECTING, _READY */
	int		 in;		/* connecting waits to read (not to
					   write) */
	int		 running;	/* a read sent, its answer not had */
	int		 queued;	/* ... not sent yet (connecting) */
	int		 out;		/* what was sent is not all out */
	int		 syncs;		/* pipeline syncs not yet read */
	int64_t		 down_ms;	/* its last failed connect */
	PGresult	*res;		/* the answer */
	char		 err[200];	/* the first error of the read */
	struct pg_buf	 ids, after;	/* its parameters */
	int64_t		 limit;		/* < 0: none */
};

struct pg_store {
	struct store	 store;		/* first: the handle callers hold */
	char		*uri;
	enum durability	 durability;
	int		 lock_ms;	/* lock_timeout of the sessions */
	struct pg_db	 wr, rd;
	struct pg_feed	 feed;
	int64_t		 node;		/* ludus_nodes.node */
	uint64_t	 rng;		/* stamps and transaction numbers */
	int64_t		 reconnects;	/* data_version(): the cache's */
	int64_t		 down_ms;	/* last failed reconnect */
	int64_t		 writes;	/* changes() */
	uint64_t	 found, found_stored;	/* outcomes found out */
	/* A COMMIT whose connection broke, its outcome not found out yet
	 * (pg_outcome.c): since when, and the old session's backend. */
	int		 pending;
	int64_t		 pending_ms;
	int		 lost_pid;
	int64_t		 lost_start;
	/* The transaction (the write connection's). */
	int		 open;		/* begun */
	uint64_t	 req;		/* store_request() */
	int64_t		 txn;		/* its number (history.txn) */
	struct pg_q	*q;		/* kept until the next BEGIN: */
	size_t		 nq, capq;	/* conflicts() reads it */
	char		*arena;		/* the queue's parameters: a flag */
	size_t		 alen, acap;	/* byte (1 NULL) and a text each */
	size_t		 spq[PG_SAVEPOINTS];	/* where each open savepoint */
	size_t		 spa[PG_SAVEPOINTS];	/* began, the innermost last */
	int		 nsp;
	size_t		*order;		/* q's indexes, in the order sent */
	size_t		 nsent, caporder;
	struct pg_set	 set;		/* the turns sent as one */
	int		 use_set;	/* this COMMIT sends it */
	/* The requests kept whole (pg_whole.c), and whether the check of
	 * one failed, which rolled the transaction back. */
	uint64_t	*whole;
	size_t		 nwhole, capwhole;
	int		 whole_failed;
	/* The rows of the game last read (pg_read.c). */
	PGresult	*load[4];
	char		 load_id[GAME_ID_MAX + 1];
	/* The lobby's (pg_lobby.c): ticket ids drawn and not yet used,
	 * and the queues this node matches (the session's advisory locks,
	 * good while the read connection is the one that took them). */
	int64_t		 ids[32];
	int		 nids;
	struct pg_qlock {
		uint32_t	 hash;
		int64_t		 epoch;		/* reconnects then */
	}		*qlocks;
	size_t		 nqlocks, capqlocks;
};

static inline struct pg_store *
to_pg(struct store *st)
{
	return (struct pg_store *)st;
}

/* ---------------------------------------------------------- pg_feed.c */

int	pg_feed_send(struct store *, size_t, const char *const *,
	    const int64_t *, int64_t);
int	pg_feed_wait(struct store *, int *fd);
int	pg_feed_step(struct store *, store_game_move_cb, void *);
void	pg_feed_cancel(struct store *);
/* The feed's connection closed, its buffers freed (the store closes). */
void	pg_feed_free(struct pg_store *);

/* ---------------------------------------------------------- pg_open.c */

extern const struct store_ops	pg_ops;

/* ---------------------------------------------------------- pg_conn.c */

/* Connects both, if they are not: 0, or STORE_ERR with the message set
 * (op).  At most one try in RECONNECT_MS once the server was found down,
 * so that a dead server costs each request a quick refusal. */
int		 pg_ready(struct pg_store *, const char *op);
/* The read connection alone (a read inside the transaction). */
int		 pg_ready_rd(struct pg_store *, const char *op);
/* The write connection, between transactions, made again if the server
 * ended it while it was idle (nothing sent yet finds it so). */
int		 pg_ready_wr(struct pg_store *, const char *op);
/* Drops both connections, or the read one (the next pg_ready()
 * connects again); the cache is told (data_version()). */
void		 pg_drop(struct pg_store *);
void		 pg_drop_rd(struct pg_store *);
/* store_set_lock_wait(): the sessions' lock_timeout, now. */
void		 pg_set_lock(struct pg_store *, int ms);
/* The rows of the game last read (pg_read.c's) are forgotten. */
void		 pg_load_forget(struct pg_store *);
/* The read connection's round trip: the n statements queued with
 * pg_send(), then their results into res[] (cleared by the caller with
 * pg_clear()): 0, or STORE_ERR with the message (a statement's error,
 * or the connection, which is dropped then). */
int		 pg_rd_run(struct pg_store *, const char *op, PGresult **res,
		    int n);
void		 pg_clear(PGresult **, int n);
/* Queues a prepared statement on a connection's pipeline (text
 * parameters, NULL for SQL NULL; one that takes fewer than n gets the
 * first ones): 0, or -1 if libpq refused it. */
int		 pg_send(PGconn *, enum pg_stmt_id, int n,
		    const char *const *params);
/* n statements with the same parameters on the read connection, one
 * round trip, tried once more on a new connection if the one it had
 * turns out broken: 0, or STORE_ERR with the message. */
int		 pg_rd_same(struct pg_store *, const char *op,
		    const enum pg_stmt_id *, int n, int nparams,
		    const char *const *params, PGresult **res);
/* A statement run alone on the read connection: its result (NULL and
 * the message set when it failed). */
PGresult	*pg_rd_one(struct pg_store *, const char *op, enum pg_stmt_id,
		    int n, const char *const *params);
/* "<op>: <libpq's message>", on one line; STORE_ERR. */
int		 pg_err(struct pg_store *, const char *op, PGconn *,
		    const PGresult *);
/* A fresh 63-bit positive number: a stamp or a transaction number. */
int64_t		 pg_unique(struct pg_store *);
/* Milliseconds of a monotonic clock. */
int64_t		 pg_now_ms(void);
/* A connection to the store's server begun, not waited for (libpq's
 * PQconnectStartParams()): NULL (the message set) when it cannot be. */
PGconn		*pg_connect_start(struct pg_store *, const char *op);
/* Once between connects of one connection after the server was found
 * down, so that a dead server costs each request a quick refusal. */
#define PG_RECONNECT_MS	200

/* ---------------------------------------------------------- pg_stmt.c */

/* Prepares every statement on a connection: 0 or -1. */
int		 pg_prepare_all(PGconn *);
/* Queues the preparing of one on a connection's pipeline: 0 or -1. */
int		 pg_send_prepare(PGconn *, enum pg_stmt_id);

/* Text parameters: an integer, a bytea (hex), and arrays built one
 * element at a time ("{...}", elements quoted when text; struct pg_buf
 * is above, with the store that keeps some). */
#define PG_INT_MAX	24	/* "-9223372036854775808" and a NUL */
const char	*pg_int(char buf[PG_INT_MAX], int64_t);
const char	*pg_int_or_null(char buf[PG_INT_MAX], int64_t);
void		 pg_buf_start(struct pg_buf *);	/* "{" */
void		 pg_buf_int(struct pg_buf *, int64_t);
void		 pg_buf_text(struct pg_buf *, const char *, size_t);
void		 pg_buf_bytea(struct pg_buf *, const uint8_t *, size_t);
void		 pg_buf_null(struct pg_buf *);
void		 pg_buf_raw(struct pg_buf *, const char *, size_t);
const char	*pg_buf_end(struct pg_buf *);	/* "}", the text */
void		 pg_buf_free(struct pg_buf *);
/* A bytea parameter, "\x..." into buf (2 * len + 3 bytes). */
const char	*pg_bytea(char *buf, const uint8_t *, size_t len);

/* Columns: an integer (0 for NULL; -1 if not one), a bytea's bytes into
 * out (its length, -1 if it is none or longer than len). */
int		 pg_col_int(const PGresult *, int row, int col, int64_t *);
int		 pg_col_bytea(const PGresult *, int row, int col, uint8_t *out,
		    size_t len);

/* --------------------------------------------------------- pg_batch.c */

int		 pg_begin(struct store *);
int		 pg_commit(struct store *);
void		 pg_rollback(struct store *);
int		 pg_savepoint(struct store *, enum store_sp, const char *);
int		 pg_release(struct store *, enum store_sp, const char *);
void		 pg_rollback_to(struct store *, enum store_sp);
int		 pg_in_txn(struct store *);
int		 pg_data_version(struct store *, int64_t *);
int64_t		 pg_changes(struct store *);
void		 pg_request(struct store *, uint64_t);
void		 pg_conflicts(struct store *, void (*)(void *, uint64_t,
		    const char *, enum store_outcome), void *);
/* A write outside any transaction: one of its own, committed now; 0,
 * STORE_NOTFOUND when the row had changed, or STORE_ERR. */
int		 pg_write_alone(struct pg_store *, const char *op,
		    enum pg_stmt_id, int n, const char *const *params,
		    enum pg_qkind);

/* ------------------------------------------------------- pg_outcome.c */

/* The COMMIT's connection broke before its results came: the outcome,
 * found out now (0, STORE_ERR) or pending (STORE_PENDING). */
int		 pg_find_out(struct pg_store *);
/* store_commit_outcome(). */
int		 pg_outcome(struct store *, int last);

/* --------------------------------------------------------- pg_queue.c */

/* Queues a statement of the transaction (q: what its result says; the
 * parameters are copied): 0, or STORE_ERR outside a transaction. */
int		 pg_queue(struct pg_store *, const char *op, enum pg_stmt_id,
		    int n, const char *const *params, const struct pg_q *q);
/* The request now running conflicts already (a read that cannot see
 * the transaction's writes): it will be run again. */
void		 pg_doom(struct pg_store *, const char *id);
/* 1 when the open transaction writes the game (NULL: creates any). */
int		 pg_writes_game(const struct pg_store *, const char *id);
/* 1 when it creates that game. */
int		 pg_creates_game(const struct pg_store *, const char *id);
/* 1 when it queued a statement stmt with q->seq == seq (a lobby row's
 * number: a ticket's id, a kind). */
int		 pg_writes_seq(const struct pg_store *, enum pg_stmt_id,
		    int64_t seq);
/* 1 when a statement of this kind writes a row. */
int		 pg_q_is_write(enum pg_qkind);
/* A queued statement's parameters, from the arena into params[]. */
void		 pg_q_params(const struct pg_store *, const struct pg_q *,
		    const char **params);

/* ----------------------------------------------------------- pg_set.c */

/* After the queue is ordered: 1 when its turns go as one statement
 * (marked inset, the statement's parameters built), else 0. */
int		 pg_set_plan(struct pg_store *);
int		 pg_set_send(struct pg_store *);
/* Its result: each turn's outcome; -1 for an error (*failed set). */
int		 pg_set_read(struct pg_store *, PGresult *, int *failed);
void		 pg_set_free(struct pg_store *);

/* --------------------------------------------------------- pg_whole.c */

/* store_request_whole(): the request now running is kept whole. */
void		 pg_whole(struct store *);
/* At the COMMIT, before the queue is ordered: a whole request that is
 * doomed sends nothing; one that writes gets its check queued. */
void		 pg_whole_prepare(struct pg_store *);
/* 1 when the failed result r is a whole request's check. */
int		 pg_whole_refused(const struct pg_q *, const PGresult *r);
/* The check failed, the transaction rolled back: every request of it
 * conflicted.  Or (found) the transaction committed, the checks passed:
 * what the whole requests wrote is stored. */
void		 pg_whole_undone(struct pg_store *);
void		 pg_whole_found(struct pg_store *);

/* --------------------------------------------------------- pg_lobby.c */

extern const struct store_lobby_ops	pg_lobby_ops;

/* --------------------------------------------------------- pg_write.c */

int	pg_create(struct store *, const struct row_game *,
	    const struct row_player *, int, const struct row_token *, int,
	    const struct row_cell *, int, int64_t *);
int	pg_match(struct store *, const struct row_game *,
	    const struct row_player *, int, const struct row_token *, int,
	    const struct row_cell *, int, const struct store_match *,
	    int64_t *);
int	pg_turn(struct store *, const struct row_game *, int64_t, int64_t,
	    const struct row_token *, int, const struct move *, int64_t *);
int	pg_setup(struct store *, const struct row_game *, int64_t,
	    const struct row_cell *, int, int64_t *);
int	pg_seat(struct store *, const char *, int64_t, int64_t, int,
	    const uint8_t[SEAT_HASH_LEN], const uint8_t[SEAT_HASH_LEN],
	    int64_t *);
int	pg_pending(struct store *, const struct row_game *, int64_t,
	    int64_t, int64_t *);
int	pg_check(struct store *, const char *, int64_t, int64_t);
int	pg_import_moves(struct store *, const char *, int64_t,
	    const struct move *, int64_t);
int	pg_delete_game(struct store *, const char *, int64_t, int64_t);

/* ---------------------------------------------------------- pg_read.c */

int	pg_read_game(struct store *, const char *, store_row_game_cb, void *);
int	pg_read_players(struct store *, const char *, store_row_player_cb,
	    void *);
int	pg_read_tokens(struct store *, const char *, store_row_token_cb,
	    void *);
int	pg_read_cells(struct store *, const char *, store_row_cell_cb,
	    void *);
int	pg_version(struct store *, const char *, int64_t *, int64_t *);
int	pg_secret_read(struct store *, uint8_t[STORE_SECRET_LEN]);
int	pg_secret_insert(struct store *, const uint8_t[STORE_SECRET_LEN]);
int	pg_list_deadlines(struct store *, store_deadline_cb, void *);
int	pg_deadlines_before(struct store *, int64_t, int64_t,
	    store_deadline_cb, void *);
int	pg_history(struct store *, const char *, int64_t, int64_t,
	    store_move_cb, void *);
/* PS_SINCE's arrays ($1, $2; the caller ends and frees them), and the
 * rows of its result handed to cb (store_history_since()). */
void	pg_since_args(struct pg_buf *, struct pg_buf *, size_t,
	    const char *const *, const int64_t *);
int	pg_since_walk(struct pg_store *, const PGresult *, store_game_move_cb,
	    void *);
int	pg_history_since(struct store *, size_t, const char *const *,
	    const int64_t *, int64_t, store_game_move_cb, void *);
int	pg_list_games(struct store *, enum game_kind, const char *, int64_t,
	    store_id_cb, void *);
int	pg_count_games(struct store *, int64_t[KIND_COUNT]);
int64_t	pg_size(struct store *);
int	pg_clear_all(struct store *);
int	pg_list_finished(struct store *, int64_t, int64_t, store_id_cb,
	    void *);
int	pg_count_finished(struct store *, int64_t *);

#endif /* LUDUS_STORE_PG_INT_H */
