/*
 * test_store: retiring games.  A game deleted with every row of it, at
 * once for every reader (its cache entry, the lists, the counts), only
 * as the version it was loaded as, and undone with its transaction; the
 * finished games listed oldest first and counted from their index; the
 * free pages of a file given back step by step; the schema version.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "store/sqlite.h"
#include "store/store.h"
#include "store_helper.h"
#include "test_store.h"

/* The rows of game id left in each of its tables, added up. */
static int64_t
rows_of(struct store *st, const char *id)
{
	char	 sql[256];
	int64_t	 n = 0;
	size_t	 i;

	/* A child row of a deleted game names no game at all. */
	for (i = 0; game_rows_sql(i, id, sql, sizeof(sql)) != NULL; i++)
		n += query_int(st, sql);
	return n;
}

static int
count_id(void *arg, const char *id, enum game_kind kind)
{
	(void)id;
	(void)kind;
	(*(int *)arg)++;
	return 0;
}

static int
listed(struct store *st)
{
	int	 n = 0;

	assert_int_equal(store_list_games(st, KIND_NONE, NULL, -1, count_id,
	    &n), STORE_OK);
	return n;
}

/* Plays g to its end through the store; its moves. */
static int
play_out(struct store *st, struct game *g, uint32_t *seed)
{
	int	 n = 0;

	while (store_turn(st, g, seed))
		n++;
	return n;
}

void
test_delete_game(void **state)
{
	struct store	*st;
	struct game	 a, b, c, got;
	int64_t		 n[KIND_COUNT], moves = 0;
	uint32_t	 seed = 11;

	(void)state;
	st = open_mem();
	make_ludo(&a, "del-a", "classic", 4);
	make_snl(&b, "del-b", 3);
	make_dandy(&c, "del-c", 2, "abcdefghi", "abc");
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	assert_int_equal(store_create_game(st, &b), STORE_OK);
	assert_int_equal(store_create_game(st, &c), STORE_OK);
	play_moves(st, &a, 5, &seed);
	play_moves(st, &b, 4, &seed);
	assert_true(rows_of(st, "del-b") > 4);

	/* The loaded snapshot: from the cache, which must forget it. */
	assert_int_equal(store_load_game(st, "del-b", &got), STORE_OK);
	assert_int_equal(store_delete_game(st, &got), STORE_OK);
	assert_int_equal(rows_of(st, "del-b"), 0);
	assert_int_equal(store_load_game(st, "del-b", &got), STORE_NOTFOUND);
	assert_int_equal(store_load_game_stored(st, "del-b", &got),
	    STORE_NOTFOUND);
	assert_int_equal(store_history(st, "del-b", 1, -1, count_move,
	    &moves), STORE_OK);
	assert_int_equal(moves, 0);
	assert_int_equal(listed(st), 2);
	assert_int_equal(store_count_games(st, n), STORE_OK);
	assert_int_equal(n[KIND_NONE], 2);
	assert_int_equal(n[KIND_SNL], 0);
	/* The others are as they were. */
	assert_loads_as(st, &a);
	assert_loads_as(st, &c);

	/* Twice: no such game, and nothing else changes. */
	assert_int_equal(store_delete_game(st, &b), STORE_NOTFOUND);
	assert_non_null(strstr(store_errmsg(st), "missing"));
	assert_int_equal(listed(st), 2);
	store_close(st);
}

/* n turns of g in the caller's transaction, loaded and saved as the
 * command layer does. */
static void
txn_turns(struct store *st, struct game *g, int n, uint32_t *seed)
{
	struct game	 old, new;
	struct move	 mv;

	while (n-- > 0) {
		assert_int_equal(store_load_game(st, g->id, &old), STORE_OK);
		assert_same_game(&old, g);
		assert_int_equal(random_move(&old, &new, &mv, seed), 1);
		assert_int_equal(store_save_turn(st, &old, &new, &mv),
		    STORE_OK);
		*g = new;
	}
}

/* The rows of g as stored, whatever the cache holds, and its history. */
static void
assert_stored_as(struct store *st, const struct game *g)
{
	struct game	 got;
	int64_t		 moves = 0;

	assert_int_equal(store_load_game_stored(st, g->id, &got), STORE_OK);
	assert_same_game(&got, g);
	assert_int_equal(store_history(st, g->id, 1, -1, count_move,
	    &moves), STORE_OK);
	assert_int_equal(moves, g->moves);
}

/*
 * SQLite gives a deleted game's gid (the largest rowid) to the next game
 * created, and a created game's undone by its savepoint too, within one
 * transaction as well: the gid the backend keeps for the game it last
 * wrote goes with the game, and every game's rows are its own.
 */
void
test_delete_game_gid_reused(void **state)
{
	struct store	*st;
	struct game	 a, b, c, got;
	int64_t		 gid;
	uint32_t	 seed = 21;

	(void)state;
	st = open_mem();
	assert_int_equal(store_begin(st), STORE_OK);
	make_ludo(&a, "gid-a", "classic", 4);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	txn_turns(st, &a, 3, &seed);
	gid = query_int(st, "SELECT gid FROM games WHERE id = 'gid-a'");
	assert_int_equal(store_load_game(st, "gid-a", &got), STORE_OK);
	assert_int_equal(store_delete_game(st, &got), STORE_OK);

	make_snl(&b, "gid-b", 3);
	assert_int_equal(store_create_game(st, &b), STORE_OK);
	assert_int_equal(query_int(st, "SELECT gid FROM games"
	    " WHERE id = 'gid-b'"), gid);
	txn_turns(st, &b, 4, &seed);

	assert_int_equal(store_savepoint(st), STORE_OK);
	make_dandy(&c, "gid-c", 2, "abcabc", NULL);
	assert_int_equal(store_create_game(st, &c), STORE_OK);
	store_savepoint_rollback(st);
	make_ludo(&a, "gid-a", "classic", 2);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	assert_int_equal(query_int(st, "SELECT gid FROM games"
	    " WHERE id = 'gid-a'"), gid + 1);
	txn_turns(st, &a, 2, &seed);
	txn_turns(st, &b, 1, &seed);
	assert_int_equal(store_commit(st), STORE_OK);

	assert_stored_as(st, &a);
	assert_stored_as(st, &b);
	assert_int_equal(store_load_game(st, "gid-c", &got), STORE_NOTFOUND);
	/* Every child row names one of the two, by its gid. */
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens"
	    " WHERE game NOT IN (SELECT gid FROM games)"), 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens"
	    " WHERE game = " SQL_GID("gid-a")), 8);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"
	    " WHERE game = " SQL_GID("gid-b")), 5);
	store_close(st);
}

/* A snapshot gone stale (a move made since) deletes nothing: the caller
 * must look again, as a turn computed on it would. */
void
test_delete_game_stale(void **state)
{
	struct store	*st;
	struct game	 a, old;
	uint32_t	 seed = 5;

	(void)state;
	st = open_mem();
	make_ludo(&a, "stale", "classic", 2);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	play_moves(st, &a, 2, &seed);
	assert_int_equal(store_load_game(st, "stale", &old), STORE_OK);
	play_moves(st, &a, 1, &seed);
	assert_int_equal(store_delete_game(st, &old), STORE_NOTFOUND);
	assert_loads_as(st, &a);
	assert_int_equal(store_load_game(st, "stale", &old), STORE_OK);
	assert_int_equal(store_delete_game(st, &old), STORE_OK);
	assert_int_equal(rows_of(st, "stale"), 0);
	store_close(st);
}

/* Inside a transaction: seen by the transaction's own loads, undone with
 * it (rolled back, and a savepoint rolled back), kept by its COMMIT. */
void
test_delete_game_in_transaction(void **state)
{
	struct store	*st;
	struct game	 a, got;
	uint32_t	 seed = 8;

	(void)state;
	st = open_mem();
	make_ludo(&a, "txn", "classic", 3);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	play_moves(st, &a, 3, &seed);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "txn", &got), STORE_OK);
	assert_int_equal(store_delete_game(st, &got), STORE_OK);
	store_rollback(st);
	assert_loads_as(st, &a);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, "txn", &got), STORE_OK);
	assert_int_equal(store_delete_game(st, &got), STORE_OK);
	store_savepoint_rollback(st);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_loads_as(st, &a);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, "txn", &got), STORE_OK);
	assert_int_equal(store_delete_game(st, &got), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(store_load_game(st, "txn", &got), STORE_NOTFOUND);
	assert_int_equal(rows_of(st, "txn"), 0);
	store_close(st);
}

struct finished {
	char	 ids[8][GAME_ID_MAX + 1];
	int	 n;
};

static int
finished_add(void *arg, const char *id, enum game_kind kind)
{
	struct finished	*f = arg;

	(void)kind;
	assert_true(f->n < 8);
	snprintf(f->ids[f->n++], sizeof(f->ids[0]), "%s", id);
	return 0;
}

/* Finished games (whatever their kind), oldest last move first, and
 * none in play; the counts agree. */
void
test_list_finished(void **state)
{
	struct store	*st;
	struct game	 g[4];
	struct finished	 f;
	int64_t		 done, play;
	uint32_t	 seed = 21;
	int		 i;

	(void)state;
	st = open_mem();
	make_snl(&g[0], "f-snl", 2);
	make_ludo(&g[1], "f-play", "classic", 2);
	make_snl(&g[2], "f-snl2", 1);
	make_dandy(&g[3], "f-dandy", 2, "abcdefghi", "abcdefghi");
	for (i = 0; i < 4; i++)
		assert_int_equal(store_create_game(st, &g[i]), STORE_OK);
	assert_true(play_out(st, &g[0], &seed) > 0);
	assert_true(play_out(st, &g[2], &seed) > 0);
	assert_true(play_out(st, &g[3], &seed) > 0);
	play_moves(st, &g[1], 3, &seed);
	test_exec(st, "UPDATE games SET updated = 300 WHERE id = 'f-snl'");
	test_exec(st, "UPDATE games SET updated = 100 WHERE id = 'f-snl2'");
	test_exec(st, "UPDATE games SET updated = 200 WHERE id = 'f-dandy'");
	test_exec(st, "UPDATE games SET updated = 50 WHERE id = 'f-play'");

	memset(&f, 0, sizeof(f));
	assert_int_equal(store_list_finished(st, INT64_MAX, -1, finished_add,
	    &f), STORE_OK);
	assert_int_equal(f.n, 3);
	assert_string_equal(f.ids[0], "f-snl2");
	assert_string_equal(f.ids[1], "f-dandy");
	assert_string_equal(f.ids[2], "f-snl");
	memset(&f, 0, sizeof(f));
	assert_int_equal(store_list_finished(st, 300, -1, finished_add, &f),
	    STORE_OK);
	assert_int_equal(f.n, 2);
	memset(&f, 0, sizeof(f));
	assert_int_equal(store_list_finished(st, 300, 1, finished_add, &f),
	    STORE_OK);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.ids[0], "f-snl2");

	assert_int_equal(store_count_finished(st, &done), STORE_OK);
	assert_int_equal(done, 3);
	assert_int_equal(store_count_in_play(st, &play), STORE_OK);
	assert_int_equal(play, 1);
	store_close(st);
}

void
test_schema_version(void **state)
{
	struct store	*st;

	(void)state;
	st = open_mem();
	assert_true(store_schema_latest(0) >= 1);
	assert_true(store_schema_latest(1) >= 1);
	assert_int_equal(store_schema_version(st),
	    store_schema_latest(test_on_pg()));
	store_close(st);
}

/*
 * A new file keeps auto_vacuum = incremental: after most of its games
 * are deleted, steps of store_reclaim() give the pages back and the file
 * shrinks, each step a write transaction of its own; the games left are
 * whole.
 */
void
test_reclaim_shrinks_file(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, keep;
	char		 id[32], err[256];
	int64_t		 before, after, left, steps = 0;
	int		 i;

	(void)state;
	tmpdir_make(&t, "test_store");
	st = store_sqlite_open(t.path, DURABILITY_OFF, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "PRAGMA auto_vacuum"), 2);
	assert_int_equal(store_begin(st), STORE_OK);
	for (i = 0; i < 2000; i++) {
		snprintf(id, sizeof(id), "r%04d", i);
		make_ludo(&g, id, "classic", 4);
		assert_int_equal(store_create_game(st, &g), STORE_OK);
		if (i == 1999)
			keep = g;
	}
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(store_reclaim(st, &left), STORE_OK);
	assert_int_equal(left, 0);
	before = store_size(st);
	assert_int_equal(store_begin(st), STORE_OK);
	for (i = 0; i < 1800; i++) {
		snprintf(id, sizeof(id), "r%04d", i);
		assert_int_equal(store_load_game(st, id, &g), STORE_OK);
		assert_int_equal(store_delete_game(st, &g), STORE_OK);
	}
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(store_size(st), before);
	assert_true(query_int(st, "PRAGMA freelist_count") > 0);
	do {
		assert_int_equal(store_reclaim(st, &left), STORE_OK);
		steps++;
	} while (left > 0 && steps < 10000);
	assert_int_equal(left, 0);
	assert_true(steps >= 2);
	after = store_size(st);
	assert_true(after * 3 < before);
	assert_int_equal(query_int(st, "PRAGMA freelist_count"), 0);
	assert_loads_as(st, &keep);
	assert_int_equal(listed(st), 200);
	/* Not inside a transaction. */
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_reclaim(st, &left), STORE_ERR);
	store_rollback(st);
	store_close(st);
	tmpdir_remove(&t);
}
