/*
 * The store: a narrow interface between the command layer and a database.
 * The command layer sees only these functions.  Behind them a core that
 * every backend shares (the game <-> rows mapping, transactions, the game
 * cache) drives a backend's row operations (store/backend.h; SQLite now,
 * another later).  A turn is
 *
 *	store_begin(); store_load_game(); ...engine...; store_save_turn();
 *	store_commit();		(or store_rollback() on any failure)
 *
 * and nothing of it is visible to anyone until store_commit() returns 0.
 *
 * Two backends: SQLite (one writer at a time holds the write lock for a
 * whole transaction) and PostgreSQL (several ludusd nodes on one
 * database, each writing optimistically: see "Several writers" below).
 */
#ifndef LUDUS_STORE_H
#define LUDUS_STORE_H

#include <stdint.h>

#include "game/game.h"

#define STORE_OK	0
#define STORE_ERR	(-1)	/* database failure: see store_errmsg() */
#define STORE_NOTFOUND	1	/* no such game */
#define STORE_EXISTS	2	/* a game with that id exists */
#define STORE_PENDING	3	/* a COMMIT's outcome is being found out */

enum durability {
	DURABILITY_FULL = 0,	/* WAL, synchronous=FULL */
	DURABILITY_NORMAL,	/* WAL, synchronous=NORMAL */
	DURABILITY_OFF		/* WAL, synchronous=OFF */
};

struct store;

typedef int (*store_move_cb)(void *arg, const struct move *);
typedef int (*store_id_cb)(void *arg, const char *id, enum game_kind);
typedef int (*store_deadline_cb)(void *arg, const char *id,
    int64_t deadline_ms);

#define STORE_SECRET_LEN	32	/* bytes of the seat-hash key */

/* What a store's game cache has done since it was opened. */
struct store_cache_stats {
	int64_t		games;		/* capacity; 0: no cache */
	int64_t		used;		/* games in it now */
	uint64_t	hits;		/* loads answered from it */
	uint64_t	misses;		/* loads that read the rows */
	uint64_t	flushes;	/* emptied: another connection wrote */
	uint64_t	mismatches;	/* entries that differed from their
					   rows when read back: a bug */
	uint64_t	oversize;	/* games not cached: too big for an
					   entry (GAME_CACHE_SLOT) */
};

/* The SQLite backend.  path may be ":memory:".  NULL on failure, with a
 * message in errbuf. */
struct store	*store_sqlite_open(const char *path, enum durability,
		    char *errbuf, size_t errlen);
/* The PostgreSQL backend, on a libpq URI ("postgresql://...").  It
 * creates or migrates the schema (safely when several nodes start at
 * once).  Durability full and normal commit with synchronous_commit on,
 * off with it off.  NULL on failure, with a message in errbuf. */
struct store	*store_pg_open(const char *uri, enum durability,
		    char *errbuf, size_t errlen);
/*
 * A store by its URI: "postgresql://..." or "postgres://..." (libpq's
 * URI), "sqlite:PATH", or a plain path (SQLite, ":memory:" included).
 */
struct store	*store_open(const char *uri, enum durability, char *errbuf,
		    size_t errlen);
/* 1 when uri names a PostgreSQL database, 0 for SQLite. */
int		 store_uri_is_pg(const char *uri);
/* The SQLite path of such a URI (after "sqlite:"), NULL for PostgreSQL. */
const char	*store_uri_path(const char *uri);
/* The URI as it may be shown (INFO, a log): a password in it, after the
 * user name or as password=..., is replaced by "***". */
void		 store_uri_shown(const char *uri, char *buf, size_t len);
const char	*durability_name(enum durability);
int		 durability_parse(const char *);	/* -1 if unknown */

void	store_close(struct store *);
/* Starts a write transaction (BEGIN IMMEDIATE). */
int	store_begin(struct store *);
int	store_commit(struct store *);
void	store_rollback(struct store *);
/*
 * Group commit: several turns share the transaction of one store_begin(),
 * each inside a savepoint of its own, so that one turn that fails is
 * undone alone (store_rollback_savepoint) while the others stay, and all
 * of them become visible at the one store_commit().  A savepoint needs
 * the caller's transaction: without one, or once the database has rolled
 * that transaction back by itself (out of memory, I/O error, disk full),
 * store_savepoint() fails rather than start a new transaction, and the
 * final store_commit() fails too, so nothing of the batch is kept.
 *
 * Contract: a write (store_create_game, store_save_setup, store_save_turn,
 * store_save_opts, store_secret) that fails inside a savepoint may leave
 * part of it written: it is not undone on its own, to spare each turn a
 * nested savepoint.  The caller must then end that savepoint with
 * store_savepoint_rollback(), which undoes it with the rest of the turn;
 * store_savepoint_release() would keep the half-written turn.  Outside a
 * savepoint (in a plain transaction, or in none) a failed write changes
 * nothing.
 */
int	store_savepoint(struct store *);
/* Keeps the savepoint's writes in the transaction. */
int	store_savepoint_release(struct store *);
/* Undoes the savepoint's writes and ends it; the transaction stays. */
void	store_savepoint_rollback(struct store *);
/* Inserts the game with its players, token rows and jumps.
 * STORE_EXISTS if the id is taken. */
int	store_create_game(struct store *, const struct game *);
/* STORE_NOTFOUND if there is no such game.  May come from the store's
 * cache of games, which is kept equal to the rows (see
 * store_set_game_cache()). */
int	store_load_game(struct store *, const char *id, struct game *);
/* The same, always read from the rows: for AUDIT, which must check what
 * is on disk.  An entry of the cache that differs is dropped (and
 * counted: it is a bug). */
int	store_load_game_stored(struct store *, const char *id,
	    struct game *);
/* Writes a setup change (Snake & Ladder jumps) made before any move. */
int	store_save_setup(struct store *, const struct game *old,
	    const struct game *new);
/* Writes the rows that differ between old and new plus one history row
 * (new->moves must be old->moves + 1 and equal mv->seq), and new's
 * pending roll and deadline.  The other options never change. */
int	store_save_turn(struct store *, const struct game *old,
	    const struct game *new, const struct move *mv);
/* Writes what may change between moves (g->opts.roll, roll_player and
 * deadline) of a game that still has g->moves moves; no history row. */
int	store_save_opts(struct store *, const struct game *);
/* Writes the one seat key hash of a secure game that differs between
 * old and new (a seat key exchanged), only if the stored hash is still
 * old's: else nothing is written (STORE_ERR, "game or seat changed").
 * With several writers (an optimistic store) it is a write of the game
 * like a turn, checked by old's version: in a transaction, a conflict at
 * the COMMIT.  Nothing else of the game changes. */
int	store_save_seat(struct store *, const struct game *old,
	    const struct game *new);
/* Calls cb for every game with a deadline (game_opts.deadline), earliest
 * first; a non-zero return from cb stops the walk and is returned. */
int	store_list_deadlines(struct store *, store_deadline_cb, void *);
/* The database's seat-hash key: the stored one, or fresh (random bytes
 * from the caller) stored now if there is none yet. */
int	store_secret(struct store *, const uint8_t fresh[STORE_SECRET_LEN],
	    uint8_t out[STORE_SECRET_LEN]);
/* Calls cb for moves from..from+count-1 in order (count < 0: all);
 * a non-zero return from cb stops the walk and is returned. */
int	store_history(struct store *, const char *id, int64_t from,
	    int64_t count, store_move_cb, void *);
/* Calls cb for game ids > after (NULL: from the start) in id order, of one
 * kind or all (KIND_NONE), at most limit of them (limit < 0: all). */
int	store_list_games(struct store *, enum game_kind, const char *after,
	    int64_t limit, store_id_cb, void *);
int	store_count_games(struct store *, int64_t counts[KIND_COUNT]);
int64_t	store_size(struct store *);		/* bytes on disk, or -1 */
/*
 * Keeps copies of up to games snapshots (512 bytes each, encoded: a game
 * that does not fit, such as a long DandyLand deck or Snake & Ladder with
 * many secure seats, is not kept), so that a load need not read back the
 * rows this store just read or wrote; 0 disables it.  Whatever another
 * connection commits to the database empties it.  The cache is
 * allocated here, at once, and emptied; STORE_ERR (the cache left as it
 * was) when out of memory or out of range.  store_sqlite_open() starts
 * with STORE_GAME_CACHE_DEFAULT.
 */
#define STORE_GAME_CACHE_DEFAULT	16384	/* 8 MB */
#define STORE_GAME_CACHE_MAX		16777216	/* 8 GB */
int	store_set_game_cache(struct store *, int64_t games);
/*
 * The game cache as a memory budget: the bytes a cache of games entries
 * takes (0 for none; INT64_MAX past STORE_GAME_CACHE_MAX), and the most
 * games whose cache fits in bytes (0 when not even one does; at most
 * STORE_GAME_CACHE_MAX).
 */
int64_t	store_game_cache_bytes(int64_t games);
int64_t	store_game_cache_games(int64_t bytes);
void	store_game_cache_stats(struct store *, struct store_cache_stats *);
const char *store_errmsg(struct store *);
/*
 * How long a write waits for a lock another connection holds before it
 * fails: SQLite's busy timeout (another process's write lock: BEGIN
 * IMMEDIATE, or a write outside a transaction), PostgreSQL's lock_timeout
 * (a row lock of another node's transaction, which a node stopped in the
 * middle of its COMMIT holds).  0 (or less) fails at once on SQLite and
 * waits 1 ms on PostgreSQL.  store_sqlite_open() starts with 5000 ms,
 * right for the CLI; a single-threaded server blocks every client for
 * that long, so it sets its own.  store_pg_open() starts with 1000 ms.
 */
void	store_set_lock_wait(struct store *, int ms);

/*
 * Several writers.  A store is optimistic when other processes write the
 * same games at the same time and no lock is held from a load to its
 * write (PostgreSQL): a write is made only if the game's row is still the
 * version (move count and stamp, struct game) its snapshot was loaded
 * with, and what a request read inside a transaction (a load the game
 * cache answered, any read of a game the transaction writes) is checked
 * the same way when the transaction commits.  A request whose write or
 * check finds the row changed "conflicted": nothing it wrote is stored,
 * its reply must not be sent, and it must be run again, on the fresh
 * state (its game's cache entry is dropped).  An SQLite store never
 * conflicts: its transactions hold the write lock.
 *
 * The caller numbers its requests: store_request() says that what
 * follows, until the next call, belongs to request req (> 0) of the open
 * or the next transaction.  After a store_commit() that returned 0,
 * store_conflicts() calls cb for each request that conflicted, in
 * request order, once: STORE_REDO, or STORE_LOST when the connection
 * broke in the middle of the COMMIT and what became of the request's
 * write could not be found out afterwards (the rest of the transaction
 * could: it committed), so that its reply can only be -STORE.  A
 * store_commit() that fails reports nothing: the whole transaction is
 * gone.
 */
enum store_outcome {
	STORE_REDO = 1,
	STORE_LOST
};
typedef void (*store_conflict_cb)(void *arg, uint64_t req,
    enum store_outcome);
int	store_optimistic(const struct store *);
void	store_request(struct store *, uint64_t req);
/* The request now running (store_request(), inside a transaction) is
 * kept whole: if any of its writes or checks conflicts, none of what it
 * wrote is stored.  The PostgreSQL backend rolls the whole transaction
 * back for it: every request of that COMMIT is then reported, STORE_REDO.
 * (MULTI/EXEC's group.)  Nothing to do for SQLite. */
void	store_request_whole(struct store *);
void	store_conflicts(struct store *, store_conflict_cb, void *arg);
/*
 * A COMMIT of an optimistic store may return STORE_PENDING: the
 * connection broke before its result came and the server cannot be asked
 * now what became of it (it crashed, it restarts).  The transaction is
 * over for the caller, who must answer none of its requests yet:
 * store_commit_outcome() asks again (the caller calls it every so often,
 * as its loop goes on), and returns 0 (it committed: store_conflicts()
 * then reports as after a COMMIT that returned 0), STORE_ERR (it did
 * not, or last was set, or it could not be told for long: the message
 * says which), or STORE_PENDING.  Meanwhile store_begin() refuses: no
 * other transaction of this store may commit before that one is known.
 * store_commit_wait() is store_commit() for a caller with no loop to go
 * on with (the CLI, ludus copy): it waits for the outcome.
 */
int	store_commit_outcome(struct store *, int last);
int	store_commit_wait(struct store *);
/* The COMMITs whose connection broke before their results came, and
 * whose outcome was then found out (committed: *stored, or not): for the
 * log.  0 for a store that never conflicts. */
uint64_t store_found_out(struct store *, uint64_t *stored);

/* ------------------------------------------------ several nodes */

/* Calls cb for the moves of games ids[0..n) whose seq is above after[i],
 * in id order, then seq order, at most limit moves (limit < 0: all); a
 * non-zero return from cb stops the walk and is returned.  One query for
 * all of them: how a node learns the moves other nodes made. */
typedef int (*store_game_move_cb)(void *arg, const char *id,
    const struct move *);
int	store_history_since(struct store *, size_t n, const char *const ids[],
	    const int64_t after[], int64_t limit, store_game_move_cb,
	    void *arg);
/*
 * The same read without waiting for it: a node's loop serves every
 * client and must not stop for a round trip, nor for a server that is
 * slow, locked or gone.  It runs on a connection of its own, one read at
 * a time.  store_feed_send() sends it (first making the connection,
 * itself without waiting, when there is none): 0, or STORE_ERR with the
 * message (the server was found down a moment ago, a read already runs).
 * While it runs, store_feed_wait() says what to wait for on which socket
 * (STORE_FEED_IN, STORE_FEED_OUT, both; 0: none runs), and
 * store_feed_step(), called when that came, goes as far as it can
 * without waiting: STORE_PENDING (wait again), 0 when the answer came
 * (handed to cb first, as store_history_since() does, whose return then
 * is), or STORE_ERR (it failed, the message says why; a connection that
 * broke is made again by the next send).  store_feed_cancel() ends a
 * read that took too long, and its connection.  An optimistic store has
 * them; another refuses the send.
 */
#define STORE_FEED_IN	1
#define STORE_FEED_OUT	2
int	store_feed_send(struct store *, size_t n, const char *const ids[],
	    const int64_t after[], int64_t limit);
int	store_feed_wait(struct store *, int *fd);
int	store_feed_step(struct store *, store_game_move_cb, void *);
void	store_feed_cancel(struct store *);
/* As store_list_deadlines(), only the deadlines before before_ms, at
 * most limit of them (limit < 0: all). */
int	store_list_deadlines_before(struct store *, int64_t before_ms,
	    int64_t limit, store_deadline_cb, void *);

/* ----------------------------------------------------- ludus copy */

/* The seat-hash key if the database has one: 0, or 1 when it has none. */
int	store_secret_read(struct store *, uint8_t out[STORE_SECRET_LEN]);
/* Stores a game as it stands (its rows, options, pending roll, deadline)
 * with its history, moves[0..g->moves), for a copy of a whole store. */
int	store_import_game(struct store *, const struct game *,
	    const struct move *moves);
/* Deletes every game, its rows and history, and the seat secret: a copy
 * told to overwrite its target.  Outside any transaction. */
int	store_clear(struct store *);

/* ------------------------------------------------------------ the lobby */

/*
 * Accounts, the matchmaker's tickets, ratings, and the seats of a game
 * that accounts hold (sql/006_lobby.sql says what each column means).
 * The writes are writes like a turn: in the caller's transaction (each
 * inside its turn savepoint, under group commit), or a transaction of
 * their own.  On an optimistic store they conflict as a turn does, at
 * the COMMIT, when what they depend on changed meanwhile (a ticket no
 * longer waiting, a rating written by another node, an account's
 * waiting tickets over the cap), and are run again; a read of a row the
 * open transaction writes conflicts the same way (it cannot see that
 * write before the COMMIT).
 */
#define STORE_LIMIT	3	/* a cap reached (max-tickets) */

#define STORE_KEY_HASH_LEN	32	/* an account key's keyed hash */
#define STORE_QUEUE_MAX		255	/* a queue's name, in bytes */

struct store_account {
	char		 name[GAME_ID_MAX + 1];
	int		 has_key;	/* a person; else a bot */
	uint8_t		 key[STORE_KEY_HASH_LEN];
	int		 bot;		/* a bot's strategy; -1 a person */
	int64_t		 created;	/* unix seconds */
};

/* A new person's account (key: its key's hash).  STORE_EXISTS when the
 * name is taken. */
int	store_account_create(struct store *, const char *name,
	    const uint8_t key[STORE_KEY_HASH_LEN], int64_t created);
/* STORE_NOTFOUND when there is none. */
int	store_account_get(struct store *, const char *name,
	    struct store_account *);
/* A new key's hash, only if the key is still the one whose hash is old:
 * STORE_NOTFOUND (nothing written) when the account or its key is not. */
int	store_account_rekey(struct store *, const char *name,
	    const uint8_t key[STORE_KEY_HASH_LEN],
	    const uint8_t old[STORE_KEY_HASH_LEN]);

/* An account's Glicko-2 rating of one kind, and its rated games. */
struct store_rating {
	double		 rating, rd, vol;
	int64_t		 games, won;	/* 0 both: never played */
	int64_t		 updated;	/* unix seconds */
};

/* STORE_NOTFOUND (and out untouched) when the account never played a
 * rated game of the kind. */
int	store_rating_get(struct store *, const char *account, enum game_kind,
	    struct store_rating *);
/*
 * The ratings of a finished game's n accounts (distinct), each written
 * only if the account's row still has old[i].games rated games (0: no
 * row yet), so that two games ending at once never lose one's update;
 * one that changed is a conflict (STORE_ERR on a store that holds the
 * write lock, where it cannot happen).
 */
int	store_ratings_save(struct store *, enum game_kind, int n,
	    const char *const accounts[], const struct store_rating old[],
	    const struct store_rating new[]);
/* The kind's rated accounts best first (by rating, then name), from the
 * (offset + 1)-th, at most limit: cb gets each one's rank (from 1). */
typedef int (*store_rating_cb)(void *arg, int64_t rank, const char *account,
    const struct store_rating *);
int	store_leaderboard(struct store *, enum game_kind, int64_t offset,
	    int64_t limit, store_rating_cb, void *arg);

enum store_ticket_state {
	TICKET_WAITING = 0,
	TICKET_MATCHED = 1,
	TICKET_CANCELLED = 2
};

struct store_ticket {
	int64_t		 id;
	char		 account[GAME_ID_MAX + 1];
	enum game_kind	 kind;
	char		 queue[STORE_QUEUE_MAX + 1];
	int		 players_min, players_max;
	double		 rating;	/* the account's when it joined */
	double		 span;		/* its window's half-width then */
	int64_t		 bots_after;	/* ms; -1: never */
	int64_t		 joined;	/* unix ms */
	enum store_ticket_state state;
	char		 game[GAME_ID_MAX + 1];	/* matched: its game, */
	int		 seat;		/* ... its seat there; else -1 */
	int64_t		 ended;		/* unix ms; 0 while it waits */
};

/*
 * A new waiting ticket: t's account, kind, queue, players, span,
 * bots_after and joined are stored with the account's rating of the
 * kind, which t->rating gets (it holds, when called, the rating of one
 * who never played the kind), and t->id gets its id.  STORE_LIMIT
 * (nothing written) when the account has max_waiting tickets waiting
 * already (0: no cap).  The rating and the count are read together: on
 * a store of several nodes, one round trip.
 */
int	store_ticket_join(struct store *, struct store_ticket *,
	    int64_t max_waiting);
/* STORE_NOTFOUND when there is none. */
int	store_ticket_get(struct store *, int64_t id, struct store_ticket *);
/* A waiting ticket cancelled at ended (unix ms): STORE_NOTFOUND
 * (nothing written) when it is not waiting (matched, cancelled, none). */
int	store_ticket_cancel(struct store *, int64_t id, int64_t ended);
/* The queue's waiting tickets, oldest first (joined, then id), at most
 * limit (< 0: all); a non-zero return from cb stops the walk. */
typedef int (*store_ticket_cb)(void *arg, const struct store_ticket *);
int	store_tickets_waiting(struct store *, const char *queue,
	    int64_t limit, store_ticket_cb, void *arg);
/* The queues with tickets waiting, of one kind or all (KIND_NONE), by
 * name: how many wait and when the oldest joined. */
typedef int (*store_queue_cb)(void *arg, const char *queue, enum game_kind,
    int64_t waiting, int64_t oldest_ms);
int	store_queues(struct store *, enum game_kind, store_queue_cb, void *arg);
/* Those of tickets ids[0..n) that are no longer waiting, each to cb:
 * how a node learns of matches another node made. */
int	store_tickets_ended(struct store *, size_t n, const int64_t ids[],
	    store_ticket_cb, void *arg);

/*
 * A group matched: its game created (as store_create_game() does, with
 * the same STORE_EXISTS), the seats accounts hold (accounts[i] for seat
 * i, NULL for none), and each of its n tickets matched into its seat,
 * at ended (unix ms), all or nothing.  STORE_NOTFOUND (nothing written)
 * when a ticket is no longer waiting.
 */
struct store_match {
	int		  n;
	const int64_t	 *tickets;
	const int	 *seats;		/* tickets[i]'s seat */
	const char *const *accounts;		/* per seat of the game */
	int64_t		  ended;
};
int	store_match(struct store *, const struct game *,
	    const struct store_match *);
/* The seats of a game that accounts hold: cb(idx, account), by idx; 0
 * calls for a game made without accounts. */
typedef int (*store_seat_cb)(void *arg, int idx, const char *account);
int	store_game_accounts(struct store *, const char *game, store_seat_cb,
	    void *arg);

/* An account's games (PLAYER.GAMES), by id after after (NULL: from the
 * start), at most limit, all or only those going on or only those over. */
enum store_games_filter {
	GAMES_ALL = 0,
	GAMES_ACTIVE,
	GAMES_FINISHED
};
struct store_account_game {
	char		 game[GAME_ID_MAX + 1];
	enum game_kind	 kind;
	int		 seat;		/* the account's */
	char		 seat_name[PLAYER_NAME_MAX];
	char		 turn_name[PLAYER_NAME_MAX];	/* "" when over */
	int		 nplayers;
	int		 turn;		/* whose turn: an index, -1 over */
	int		 winner;	/* -1: none (yet) */
	int64_t		 moves;
};
typedef int (*store_account_game_cb)(void *arg,
    const struct store_account_game *);
int	store_account_games(struct store *, const char *account,
	    enum store_games_filter, const char *after, int64_t limit,
	    store_account_game_cb, void *arg);

/*
 * ludus copy: the lobby's rows walked as they are, and written so: the
 * persons' accounts (the bots' are every schema's own), every rating,
 * the tickets by id after after (at most limit), the seats accounts
 * hold; a ticket imported keeps its id, its state and its match (and a
 * store that draws ids draws later ones after it).
 */
typedef int (*store_account_cb)(void *arg, const struct store_account *);
int	store_each_account(struct store *, store_account_cb, void *arg);
typedef int (*store_each_rating_cb)(void *arg, const char *account,
    enum game_kind, const struct store_rating *);
int	store_each_rating(struct store *, store_each_rating_cb, void *arg);
int	store_each_ticket(struct store *, int64_t after, int64_t limit,
	    store_ticket_cb, void *arg);
typedef int (*store_each_seat_cb)(void *arg, const char *game, int idx,
    const char *account);
int	store_each_seat(struct store *, store_each_seat_cb, void *arg);
int	store_ticket_import(struct store *, const struct store_ticket *);
int	store_seat_import(struct store *, const char *game, int idx,
	    const char *account);

/* 1 when this process may match the queue now, 0 when another process
 * is its matcher (several nodes on one PostgreSQL: one at a time per
 * queue, and another takes over when that one's connection is gone);
 * -1 when that could not be found out.  A store with one writer: 1. */
int	store_queue_lock(struct store *, const char *queue);
/* ------------------------------------------ retiring games (retire.c) */

/*
 * Deletes the game g was loaded as, with every row of it (players,
 * tokens, cells, history), checked against its version as a turn's
 * write is; its cache entry goes at once.  Inside the caller's
 * transaction like any write (a savepoint of a turn may hold it).
 * STORE_NOTFOUND when the game is gone or changed since g was loaded
 * (an optimistic store reports that as a conflict instead, at the
 * COMMIT: store_conflicts()).
 */
int	store_delete_game(struct store *, const struct game *);
/* Calls cb for the finished games (no player to move) whose last move
 * was before before (unix seconds), oldest first, at most limit of them
 * (limit < 0: all); a non-zero return from cb stops the walk and is
 * returned.  From an index: the cost is the games listed. */
int	store_list_finished(struct store *, int64_t before, int64_t limit,
	    store_id_cb, void *);
/* The finished games, and the games in play (stored less finished). */
int	store_count_finished(struct store *, int64_t *finished);
int	store_count_in_play(struct store *, int64_t *in_play);
/*
 * Gives up to STORE_RECLAIM_STEP of the file's free pages back to the
 * file system (SQLite's incremental vacuum; a database made before the
 * store set auto_vacuum has none to give until a VACUUM), outside any
 * transaction: one short write transaction.  *left: the free pages
 * still in the file that a next call would give, 0 when none.  A store
 * whose server does it itself (PostgreSQL: autovacuum) says 0 at once.
 */
#define STORE_RECLAIM_STEP	"256"
int	store_reclaim(struct store *, int64_t *left);

/* ------------------------------------------------- schema versions */

/* The schema version of the open database (after its migrations: the
 * latest this program knows), and the latest of each backend. */
int64_t	store_schema_version(const struct store *);
int	store_schema_latest(int pg);

#endif /* LUDUS_STORE_H */
