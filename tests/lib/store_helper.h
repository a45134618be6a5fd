/*
 * What the store-level tests share (test_store, test_faults, and a piece
 * each for test_commands and test_multiplayer): seeded random numbers
 * and random moves, a database file in a fresh temporary directory,
 * one-integer queries, a Ludo game ready to create.  The checks fail the
 * cmocka test.
 */
#ifndef LUDUS_STORE_HELPER_H
#define LUDUS_STORE_HELPER_H

#include <stdint.h>

#include <sqlite3.h>

#include "game/game.h"

struct tmpdir {
	char	dir[64];
	char	path[128];	/* dir/ludus.db */
};

/* xorshift32: the same games on every platform. */
uint32_t	 xorshift32(uint32_t *seed);

/* Makes /tmp/NAME.XXXXXX; fails the test if it cannot. */
void		 tmpdir_make(struct tmpdir *, const char *name);
/* Removes the database at path with its -wal, -shm and -journal. */
void		 db_remove(const char *path);
/* Removes the database and the directory. */
void		 tmpdir_remove(struct tmpdir *);

/* The first column of the first row of a query, which must have one. */
int64_t		 sql_int(sqlite3 *, const char *sql);

/* The gid of game id (a string literal) in SQL text: SQLite's child
 * tables name their game by it (sql/008_int_keys.sql); query_int() and
 * test_exec() make it the id on PostgreSQL, whose tables name it so. */
#define SQL_GID(id)	"(SELECT gid FROM games WHERE id = '" id "')"

/* The SQL that counts the rows of game id in the i-th of its tables
 * (games, then each child table, where a row of no game counts too),
 * written into sql; NULL past the last table.  For the checks that a
 * deleted game leaves nothing behind. */
const char	*game_rows_sql(size_t i, const char *id, char *sql,
		    size_t len);

/*
 * Plays one random stored move on a copy of g (the engine's, as the
 * command layer would): out and mv are filled and 1 returned, or 0 when
 * the game is over.
 */
int		 random_move(const struct game *g, struct game *out,
		    struct move *mv, uint32_t *seed);
/*
 * A store_history() callback: counts the moves into *(int64_t *)arg and
 * checks that their seqs run 1, 2, 3...
 */
int		 count_move(void *arg, const struct move *);

/* A game of kind with times set and nothing else (no engine state). */
void		 game_base(struct game *, const char *id, enum game_kind);
/* A new Ludo game of the preset, players "player-0".. "player-(n-1)". */
void		 make_ludo(struct game *, const char *id, const char *preset,
		    int n);

struct store;
struct CMUnitTest;

/*
 * The backend a suite runs on: PostgreSQL when LUDUS_TEST_STORE holds its
 * URI (tests/lib/pgcluster run starts a throwaway cluster and sets it),
 * SQLite otherwise.  A test of SQLite alone (its file, its pragmas, its
 * connection, its VFS) is put in the suite's table with SQLITE_TEST() or
 * SQLITE_TEST_ST() and left out of the PostgreSQL run altogether, not
 * counted there as a skip: the suite runs with store_run_tests().
 */
int		 test_on_pg(void);
extern int	 sqlite_test_mark;
#define SQLITE_TEST(f)	{ #f, f, NULL, NULL, &sqlite_test_mark }
#define SQLITE_TEST_ST(f, setup, teardown) \
	{ #f, f, setup, teardown, &sqlite_test_mark }
/* cmocka_run_group_tests(tests, NULL, NULL) with the SQLite tests left
 * out on PostgreSQL (and their mark taken off on SQLite). */
int		 store_run_tests(const char *name,
		    const struct CMUnitTest *tests, size_t n);
#define STORE_RUN_TESTS(tests) \
	store_run_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]))
/* PostgreSQL: every table of the schema emptied (nothing if there is no
 * schema yet); SQLite: nothing. */
void		 test_store_empty(void);
/* A store on the suite's backend: the SQLite file path, or the suite's
 * PostgreSQL database (not emptied: a second store on the same data). */
struct store	*test_store_at(const char *path, enum durability,
		    char *err, size_t len);

/* An empty store: in memory, or the suite's PostgreSQL database emptied;
 * fails the test if it cannot be opened. */
struct store	*open_mem(void);
/* A Snake & Ladder game of n players with two snakes and two ladders. */
void		 make_snl(struct game *, const char *id, int n);
/* A DandyLand game of n players on board, with deck (NULL: none). */
void		 make_dandy(struct game *, const char *id, int n,
		    const char *board, const char *deck);
/* a and b are the same game, byte for byte. */
void		 assert_same_game(const struct game *a, const struct game *b);
/* A load of want->id gives want. */
void		 assert_loads_as(struct store *, const struct game *want);
/* sql_int() on the store's SQLite connection, or the same query on the
 * suite's PostgreSQL database. */
int64_t		 query_int(struct store *, const char *sql);
/* A statement run behind the store's back, as another writer: on
 * PostgreSQL every games row gets a new stamp with it, as every writer
 * of the schema must give the rows it changes. */
void		 test_exec(struct store *, const char *sql);
/*
 * One turn as the command layer runs it, checking that the loaded game is
 * *expect and that only the changed rows and one history row were
 * written; 0 when the game is over, 1 after a committed move.
 */
int		 store_turn(struct store *, struct game *expect,
		    uint32_t *seed);
/* n committed turns of g. */
void		 play_moves(struct store *, struct game *g, int n,
		    uint32_t *seed);

#endif /* LUDUS_STORE_HELPER_H */
