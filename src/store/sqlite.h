/*
 * What the SQLite backend shows beyond store.h: its connection, for tests
 * that inject failures (sqlite3_commit_hook) or inspect the rows.
 */
#ifndef LUDUS_STORE_SQLITE_H
#define LUDUS_STORE_SQLITE_H

#include <stdint.h>

struct sqlite3;
struct store;

/*
 * The connection of a store opened by store_sqlite_open(), else NULL.
 * The store's game cache notices rows changed through it with SQL
 * (sqlite3_total_changes64() moves) and empties itself; it cannot see a
 * change made with incremental blob I/O (sqlite3_blob_write()).
 */
struct sqlite3	*store_sqlite_handle(struct store *);

/* store_set_lock_wait() (store.h) of an SQLite store: a write that waits
 * longer fails with "database is locked".  No effect on other stores. */
void		 store_sqlite_set_busy_timeout(struct store *, int ms);

/*
 * For tests: every load that the game cache answers reads the rows as
 * well, and fails ("game cache differs from the stored rows") if they are
 * not the entry byte for byte.  Also on for every store opened while the
 * environment has LUDUS_GAME_CACHE_CHECK, so that a whole test suite can
 * run checked.  No effect on other stores.
 */
void		 store_sqlite_set_cache_check(struct store *, int on);

/*
 * The checkpointer of a database file (sqlite_ckpt.c): the rounds the
 * loop's commits asked of its thread, the tails the loop copied itself
 * (after each, the WAL starts again), the checkpoints forced by a WAL
 * at its limit, and the commits that found a round still running.
 * All 0 for a store without one (in memory).
 */
struct store_sqlite_ckpt_stats {
	uint64_t	rounds;
	uint64_t	tails;
	uint64_t	forced;
	uint64_t	waits;
};

void		 store_sqlite_ckpt_stats(struct store *,
		    struct store_sqlite_ckpt_stats *);

/*
 * An online backup of the database at from into the file to (SQLite's
 * backup API, in one step: one read transaction, which a daemon writing
 * the file in WAL mode does not wait for): to becomes a copy of a
 * consistent state of from, the games it held replaced.  0, or -1 with
 * a message in err.
 */
int		 store_sqlite_backup(const char *from, const char *to,
		    char *err, size_t errlen);

#endif /* LUDUS_STORE_SQLITE_H */
