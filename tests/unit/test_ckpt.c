/*
 * The SQLite store's checkpointer: under a steady stream of commits its
 * thread copies the WAL back into the database, the loop copies only
 * the tail, the WAL starts again (so it stays bounded), and nothing of
 * what was committed is lost, then or after a reopen.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "game/game.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store_helper.h"

/* Far more commits than the WAL's 32 MiB restart mark takes. */
#define GAMES_MAX	40000
#define WAL_LIMIT	(128LL << 20)

static int64_t
wal_bytes(const struct tmpdir *t)
{
	char		 path[160];
	struct stat	 sb;

	snprintf(path, sizeof(path), "%s-wal", t->path);
	return stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

static void
assert_integrity(struct store *st)
{
	sqlite3_stmt	*stmt;

	assert_int_equal(sqlite3_prepare_v2(store_sqlite_handle(st),
	    "PRAGMA integrity_check", -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "ok");
	sqlite3_finalize(stmt);
}

/* Creates games, one commit each, until the loop has copied a tail
 * twice (the WAL started again twice) or GAMES_MAX; returns how many. */
static int
create_until_tails(struct store *st, const struct tmpdir *t, int64_t *wal)
{
	struct store_sqlite_ckpt_stats	 cs;
	struct game			 g;
	char				 id[32];
	int				 i;

	*wal = 0;
	for (i = 0; i < GAMES_MAX; i++) {
		snprintf(id, sizeof(id), "ckpt-%d", i);
		make_dandy(&g, id, 4, "abcdefghi", NULL);
		assert_int_equal(store_create_game(st, &g), STORE_OK);
		if (wal_bytes(t) > *wal)
			*wal = wal_bytes(t);
		store_sqlite_ckpt_stats(st, &cs);
		if (cs.tails >= 2)
			return i + 1;
	}
	return i;
}

static void
test_ckpt_wal_bounded(void **state)
{
	struct store_sqlite_ckpt_stats	 cs;
	struct tmpdir			 t;
	struct store			*st;
	struct game			 g;
	char				 err[256];
	int64_t				 wal;
	int				 n, i;

	(void)state;
	tmpdir_make(&t, "test_ckpt");
	st = store_sqlite_open(t.path, DURABILITY_OFF, err, sizeof(err));
	assert_non_null(st);
	n = create_until_tails(st, &t, &wal);
	store_sqlite_ckpt_stats(st, &cs);
	print_message("%d games, WAL at most %lld bytes; %llu rounds, %llu "
	    "tails, %llu forced, %llu waits\n", n, (long long)wal,
	    (unsigned long long)cs.rounds, (unsigned long long)cs.tails,
	    (unsigned long long)cs.forced, (unsigned long long)cs.waits);
	assert_true(cs.rounds >= 1);
	assert_true(cs.tails >= 2);
	assert_true(n < GAMES_MAX);
	assert_true(wal <= WAL_LIMIT + (1 << 20));
	/* The database holds what the thread copied. */
	assert_true(store_size(st) > (int64_t)n * 100);
	store_close(st);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "SELECT count(*) FROM games"), n);
	for (i = 0; i < n; i += n / 7 + 1) {
		char id[32];

		snprintf(id, sizeof(id), "ckpt-%d", i);
		assert_int_equal(store_load_game(st, id, &g), STORE_OK);
	}
	assert_integrity(st);
	store_close(st);
	tmpdir_remove(&t);
}

/* An in-memory store has no WAL and no thread. */
static void
test_ckpt_memory_none(void **state)
{
	struct store_sqlite_ckpt_stats	 cs;
	struct store			*st;
	struct game			 g;

	(void)state;
	st = open_mem();
	make_dandy(&g, "mem", 2, "abc", NULL);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	store_sqlite_ckpt_stats(st, &cs);
	assert_int_equal(cs.rounds + cs.tails + cs.forced + cs.waits, 0);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ckpt_wal_bounded),
		cmocka_unit_test(test_ckpt_memory_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
