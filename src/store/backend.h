/*
 * The contract between the store's backend-neutral core and a backend.
 *
 * The core (store.c, txn.c, games.c, load.c, rows.c, coherence.c,
 * cache.c, optimistic.c) keeps what every backend shares: the mapping of
 * a game to rows through the kind table, the transaction state the
 * callers see, the savepoint that makes a write all or nothing, the loads
 * and the game cache with its coherence protocol, and the version checks
 * of a store with several writers.  A backend (sqlite_*.c, pg_*.c) writes
 * only its SQL and its connection handling: it reads and writes neutral
 * rows (game/rows.h) and knows no game kind.
 *
 * A backend allocates its own struct whose first member is a struct
 * store, calls store_init() on it, opens its connection, and ends with
 * store_set_game_cache().  Every operation below that fails sets the
 * message (store_set_err(), "<op>: <why>") and returns STORE_ERR unless
 * it says otherwise.
 *
 * How a backend keeps concurrent writers apart is declared once, in its
 * caps (as OpenSMTPD's backends carry a mask of what they can do), and
 * the core asks the mask, never whether some hook happens to be set:
 *
 *  - without STORE_CAP_OPTIMISTIC a transaction holds the write lock
 *    from its BEGIN (SQLite's BEGIN IMMEDIATE): nothing changes between
 *    a load and its write, and the core writes a game row by row
 *    (insert_game ... update_pending), one operation per statement;
 *  - with it, several writers share the database and none holds a lock
 *    from a load to its write (store.h, "Several writers"; PostgreSQL):
 *    each write of a game is one statement checked against the version
 *    its snapshot was loaded with (create ... pending), what a request
 *    read is checked at the COMMIT (check, version), and the requests
 *    that conflicted are reported (request, whole, conflicts).
 *
 * store_init() refuses (aborts on) a table whose members do not match
 * its caps: that is a backend's bug, found when it is first opened.
 */
#ifndef LUDUS_STORE_BACKEND_H
#define LUDUS_STORE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/rows.h"
#include "store/cache.h"
#include "store/store.h"

/* The store's two savepoints: a caller's turn (store_savepoint(), group
 * commit) and a write's own (all or nothing outside a turn). */
enum store_sp {
	STORE_SP_TURN = 0,
	STORE_SP_WRITE
};

/* Walks of the rows of one game: each row, then the next; a non-zero
 * return (1) stops the walk and is returned by the operation. */
typedef int (*store_row_game_cb)(void *, const struct row_game *);
typedef int (*store_row_player_cb)(void *, const struct row_player *);
typedef int (*store_row_token_cb)(void *, const struct row_token *);
typedef int (*store_row_cell_cb)(void *, const struct row_cell *);

/*
 * The lobby's rows (store.h, "the lobby"), each operation as the core's
 * function of the same name says, with the same returns; the core has
 * checked the arguments.  match_rows writes, after the game's rows in
 * the same write, what a match adds to a create (a store with one
 * writer); an optimistic store's match writes the whole of it in one
 * statement instead, like create (below), made only if every ticket is
 * still waiting: no row is a conflict.
 */
struct store_lobby_ops {
	int	(*account_insert)(struct store *, const char *name,
		    const uint8_t key[STORE_KEY_HASH_LEN], int64_t created);
	int	(*account_read)(struct store *, const char *name,
		    struct store_account *);
	int	(*account_rekey)(struct store *, const char *name,
		    const uint8_t key[STORE_KEY_HASH_LEN],
		    const uint8_t old[STORE_KEY_HASH_LEN]);
	int	(*rating_read)(struct store *, const char *, enum game_kind,
		    struct store_rating *);
	int	(*ratings_write)(struct store *, enum game_kind, int n,
		    const char *const accounts[],
		    const struct store_rating old[],
		    const struct store_rating new[]);
	int	(*leaderboard)(struct store *, enum game_kind, int64_t offset,
		    int64_t limit, store_rating_cb, void *);
	int	(*ticket_insert)(struct store *, struct store_ticket *,
		    int64_t max_waiting);
	int	(*ticket_read)(struct store *, int64_t,
		    struct store_ticket *);
	int	(*ticket_cancel)(struct store *, int64_t, int64_t ended);
	int	(*tickets_waiting)(struct store *, const char *, int64_t,
		    store_ticket_cb, void *);
	int	(*queues)(struct store *, enum game_kind, store_queue_cb,
		    void *);
	int	(*tickets_ended)(struct store *, size_t, const int64_t *,
		    store_ticket_cb, void *);
	int	(*match_rows)(struct store *, const char *game,
		    const struct store_match *);
	int	(*match)(struct store *, const struct row_game *,
		    const struct row_player *, int np,
		    const struct row_token *, int nt,
		    const struct row_cell *, int nc,
		    const struct store_match *, int64_t *stamp_out);
	int	(*game_accounts)(struct store *, const char *, store_seat_cb,
		    void *);
	int	(*account_games)(struct store *, const char *,
		    enum store_games_filter, const char *, int64_t,
		    store_account_game_cb, void *);
	/* NULL: one writer, always the matcher. */
	int	(*queue_lock)(struct store *, const char *queue);
	/* ludus copy's (store.h). */
	int	(*each_account)(struct store *, store_account_cb, void *);
	int	(*each_rating)(struct store *, store_each_rating_cb, void *);
	int	(*each_ticket)(struct store *, int64_t, int64_t,
		    store_ticket_cb, void *);
	int	(*each_seat)(struct store *, store_each_seat_cb, void *);
	int	(*ticket_import)(struct store *, const struct store_ticket *);
	int	(*seat_import)(struct store *, const char *, int,
		    const char *);
};

/* The capabilities of a backend (struct store_ops, caps). */
#define STORE_CAP_OPTIMISTIC	0x1u	/* several writers, checked writes */

struct store_ops {
	const char	*name;
	unsigned int	 caps;		/* STORE_CAP_* */
	const struct store_lobby_ops *lobby;
	/* Closes the connection and frees the backend's struct (the core
	 * has freed what is its own). */
	void	(*close)(struct store *);

	/* ------------------------------------------------ transactions */
	/* A write transaction that holds the write lock (BEGIN IMMEDIATE):
	 * no other writer comes between its reads and its writes. */
	int	(*begin)(struct store *);
	/* On failure the core rolls back. */
	int	(*commit)(struct store *);
	/* Ends any transaction open; none open is no error. */
	void	(*rollback)(struct store *);
	/* A savepoint of the open transaction, its release, and its
	 * rollback (rolled back, then released; whatever fails, the
	 * message of what made the caller roll back is kept). */
	int	(*savepoint)(struct store *, enum store_sp, const char *op);
	int	(*release)(struct store *, enum store_sp, const char *op);
	void	(*rollback_to)(struct store *, enum store_sp);

	/* ---------------------------------- what the game cache asks */
	/* 1 while the connection is inside a transaction.  A backend that
	 * ends a transaction by itself (SQLite on out of memory, an I/O
	 * error, a full disk) says 0 here, and the core refuses the
	 * caller's next writes and drops what the cache took from it. */
	int	(*in_txn)(struct store *);
	/* A number that moves when another connection has committed since
	 * it was last read (SQLite: PRAGMA data_version); -1 when it
	 * cannot be read (no message needed). */
	int	(*data_version)(struct store *, int64_t *);
	/* Rows changed through this connection so far, by the store or by
	 * anyone else holding it (SQLite: sqlite3_total_changes64()). */
	int64_t	(*changes)(struct store *);

	/* --------------------------------------------------- game rows */
	/*
	 * The rows of a game, each given to cb (op "load_game"): its games
	 * row (STORE_NOTFOUND, no message, when there is none), its
	 * players rows by idx, its token rows, its cell rows.  0 when every
	 * row was given, or what cb returned to stop.
	 */
	int	(*read_game)(struct store *, const char *id,
		    store_row_game_cb, void *);
	int	(*read_players)(struct store *, const char *id,
		    store_row_player_cb, void *);
	int	(*read_tokens)(struct store *, const char *id,
		    store_row_token_cb, void *);
	int	(*read_cells)(struct store *, const char *id,
		    store_row_cell_cb, void *);

	/* ------------- without STORE_CAP_OPTIMISTIC (a locking backend) */
	/* The rows of a new game (op "create_game"); insert_game returns
	 * STORE_EXISTS when the id is taken.  write_cell writes one cell
	 * row, or deletes it for a target of 0. */
	int	(*insert_game)(struct store *, const struct row_game *);
	int	(*insert_player)(struct store *, const char *id,
		    const struct row_player *);
	int	(*insert_token)(struct store *, const char *id,
		    const struct row_token *);
	int	(*write_cell)(struct store *, const char *id,
		    const struct row_cell *, const char *op);
	/*
	 * A turn (op "save_turn"): the games row's play columns, moves,
	 * updated and pending columns, in one UPDATE that also checks the
	 * version, WHERE id = r->id AND moves = moves; a token row's pos
	 * and points; the history row.  The UPDATEs return STORE_NOTFOUND
	 * (no message) when no row matched: for the games row, a conflict
	 * (the game changed or went since it was loaded).
	 */
	int	(*update_game)(struct store *, const struct row_game *,
		    int64_t moves);
	int	(*update_token)(struct store *, const char *id,
		    const struct row_token *);
	int	(*insert_move)(struct store *, const char *id,
		    const struct move *);
	/* A setup change's updated column (op "save_setup"), and what may
	 * change between moves, deadline, roll, roll_player, checked like
	 * a turn (op "save_opts"); STORE_NOTFOUND when no row matched. */
	int	(*touch_game)(struct store *, const char *id, int64_t updated);
	int	(*update_pending)(struct store *, const struct row_game *,
		    int64_t moves);
	/* A seat's key hash (op "save_seat"): the players row of game id
	 * and seat idx gets key, only where it still holds old (a
	 * compare-and-swap: of two writers with the same old, one wins);
	 * STORE_NOTFOUND (no message) when no row matched. */
	int	(*update_seat)(struct store *, const char *id, int idx,
		    const uint8_t key[SEAT_HASH_LEN],
		    const uint8_t old[SEAT_HASH_LEN]);

	/* -------------------------------------------------------- rest */
	/* The seat-hash key (op "secret"): read (1 when there is none
	 * yet), and inserted unless there is one. */
	int	(*secret_read)(struct store *, uint8_t out[STORE_SECRET_LEN]);
	int	(*secret_insert)(struct store *,
		    const uint8_t fresh[STORE_SECRET_LEN]);
	/* As store.h says of store_list_deadlines(), store_history(),
	 * store_list_games(), store_count_games() and store_size(). */
	int	(*list_deadlines)(struct store *, store_deadline_cb, void *);
	int	(*history)(struct store *, const char *, int64_t, int64_t,
		    store_move_cb, void *);
	int	(*list_games)(struct store *, enum game_kind, const char *,
		    int64_t, store_id_cb, void *);
	int	(*count_games)(struct store *, int64_t[KIND_COUNT]);
	int64_t	(*size)(struct store *);
	/* store_clear() (op "clear"). */
	int	(*clear)(struct store *);
	/* store_set_lock_wait(): how long a statement waits for a lock
	 * another connection holds, from now on. */
	void	(*lock_wait)(struct store *, int ms);

	/* ------------------------------ retiring games (retire.c) */
	/*
	 * Deletes the games row of id if it still has that many moves (and,
	 * an optimistic backend, that stamp; 0: any), and so every row of
	 * the game with it (op "delete_game").  STORE_NOTFOUND (no message)
	 * when no row matched.  An optimistic backend queues it in the
	 * caller's transaction as a turn (a conflict when no row matched).
	 */
	int	(*delete_game)(struct store *, const char *id, int64_t moves,
		    int64_t stamp);
	/* Finished games (turn -1) whose last move was before before (unix
	 * seconds), oldest first, at most limit (op "list_finished"); and
	 * the number of all finished games (op "count_finished"). */
	int	(*list_finished)(struct store *, int64_t before, int64_t limit,
		    store_id_cb, void *);
	int	(*count_finished)(struct store *, int64_t *);
	/* Gives one step of free pages (STORE_RECLAIM_STEP) back to the
	 * file system, outside any transaction; *left: the free pages
	 * still in the file that it could give (op "reclaim").  NULL: the
	 * backend's server does it (PostgreSQL's autovacuum). */
	int	(*reclaim)(struct store *, int64_t *left);

	/* ------------------- STORE_CAP_OPTIMISTIC's (store.h), else NULL */
	/*
	 * Each write of a game is one statement, made only WHERE the games
	 * row still has moves and stamp (the snapshot's version), that
	 * writes a new stamp (*stamp_out) with it, and that writes nothing
	 * at all when the row has changed: the conflict is found when the
	 * transaction commits and reported by conflicts(), not as an error.
	 * A stamp of 0 (a snapshot its caller made, not loaded from this
	 * store) is checked by moves alone.  Outside a transaction each is
	 * a transaction of its own, run at once (STORE_NOTFOUND when the
	 * row had changed, STORE_EXISTS for a create).  Op names are as
	 * above; each returns 0 (queued), or STORE_ERR.
	 *
	 * create writes the games row (a stamp of its own) with all its
	 * players, token and cell rows; STORE_EXISTS when the id is known
	 * to be taken now (a create that races another is a conflict).
	 * turn: the games row's play, bookkeeping and pending columns, the
	 * changed token rows and the history row.  setup: the updated
	 * column and the cell changes.  pending: deadline, roll,
	 * roll_player.  seat: a seat's key hash, written where the row
	 * still holds old, with the games row's new stamp (so that every
	 * node's cache and every read's check see it as they see a turn).
	 */
	int	(*create)(struct store *, const struct row_game *,
		    const struct row_player *, int np,
		    const struct row_token *, int nt,
		    const struct row_cell *, int nc, int64_t *stamp_out);
	int	(*turn)(struct store *, const struct row_game *,
		    int64_t moves, int64_t stamp, const struct row_token *,
		    int nt, const struct move *, int64_t *stamp_out);
	int	(*setup)(struct store *, const struct row_game *,
		    int64_t stamp, const struct row_cell *, int nc,
		    int64_t *stamp_out);
	int	(*pending)(struct store *, const struct row_game *,
		    int64_t moves, int64_t stamp, int64_t *stamp_out);
	int	(*seat)(struct store *, const char *id, int64_t moves,
		    int64_t stamp, int idx, const uint8_t key[SEAT_HASH_LEN],
		    const uint8_t old[SEAT_HASH_LEN], int64_t *stamp_out);
	/* What a request read of a game (its version) is checked at the
	 * COMMIT (op "check"); outside a transaction, version() reads the
	 * row's version now (STORE_NOTFOUND, no message, if none). */
	int	(*check)(struct store *, const char *id, int64_t moves,
		    int64_t stamp);
	int	(*version)(struct store *, const char *id, int64_t *moves,
		    int64_t *stamp);
	/* store_request(), and the conflicts of the last COMMIT: cb once
	 * per request and game (op "conflicts"). */
	void	(*request)(struct store *, uint64_t req);
	/* store_request_whole() (op "whole"). */
	void	(*whole)(struct store *);
	void	(*conflicts)(struct store *, void (*cb)(void *, uint64_t,
		    const char *id, enum store_outcome), void *);
	/* store_import_game()'s history rows, written only if the games
	 * row has the stamp its create gave it (op "import"). */
	int	(*import_moves)(struct store *, const char *id, int64_t stamp,
		    const struct move *, int64_t n);
	/* store_found_out(), and store_commit_outcome() after a commit
	 * that returned STORE_PENDING (which only such a backend does). */
	uint64_t (*found_out)(struct store *, uint64_t *stored);
	int	(*outcome)(struct store *, int last);

	/* ------------------- optional: the core does without them */
	/* store_history_since() and store_list_deadlines_before() in one
	 * query each (the core otherwise walks history and
	 * list_deadlines). */
	int	(*history_since)(struct store *, size_t, const char *const *,
		    const int64_t *, int64_t, store_game_move_cb, void *);
	int	(*deadlines_before)(struct store *, int64_t, int64_t,
		    store_deadline_cb, void *);
	/* store_feed_send() and the rest: an optimistic backend's, on a
	 * connection of their own (the core refuses the send without). */
	int	(*feed_send)(struct store *, size_t, const char *const *,
		    const int64_t *, int64_t);
	int	(*feed_wait)(struct store *, int *fd);
	int	(*feed_step)(struct store *, store_game_move_cb, void *);
	void	(*feed_cancel)(struct store *);
};

/* Turn savepoints nested with marks of their own (coherence.c). */
#define STORE_NEST	4

/* What the core keeps of one store; the backend's struct begins with it. */
struct store {
	const struct store_ops	*ops;
	char			 err[256];
	int64_t			 schema;	/* the database's version, set
						   by the backend's open */
	int			 txn;		/* the caller's BEGIN is open */
	int			 turns;		/* its turn savepoints open */
	/* The game cache and its coherence (coherence.c). */
	struct game_cache	*cache;		/* NULL: every load reads */
	struct store_cache_stats stats;
	int64_t			 data_version;	/* at the last check */
	int64_t			 changes;	/* changes the cache knows of */
	int			 synced;	/* checked in the open txn */
	int			 check;		/* every hit read back */
	uint64_t		 marks;		/* the last mark handed out */
	/* The marks of the open transaction and turn savepoint (0: none),
	 * and whether they wrote to a game. */
	uint64_t		 mark[CACHE_NMARKS];
	int			 wrote[CACHE_NMARKS];
	/* The outer savepoints' turn marks, while one nested in them is
	 * open (coherence.c). */
	uint64_t		 nest_mark[STORE_NEST];
	int			 nest_wrote[STORE_NEST];
	/* The seat secret as read (games.c), and whether this store's
	 * open transaction inserted it (not kept until it commits). */
	uint8_t			 secret[STORE_SECRET_LEN];
	int			 secret_known;
	int			 secret_made;
	/* An optimistic backend's: what the open turn loaded (a turn that
	 * writes nothing has what it read checked instead). */
	struct {
		int		 set;
		int64_t		 moves, stamp;
		char		 id[GAME_ID_MAX + 1];
	}			 seen;
};

/* Zeroes nothing (the backend's struct comes zeroed): sets the ops and
 * the checking mode of LUDUS_GAME_CACHE_CHECK. */
void	store_init(struct store *, const struct store_ops *);
/* Sets "<op>: <msg>" on one line (it may end up in a protocol reply);
 * returns STORE_ERR. */
int	store_set_err(struct store *, const char *op, const char *msg);

#endif /* LUDUS_STORE_BACKEND_H */
