/*
 * Fault injection on turns, at the store level: disk full, SQLITE_BUSY,
 * I/O errors and out of memory.  A turn is run as the command layer runs
 * it (begin, load, save, commit, rollback on failure); under a fault it
 * must be refused, leave the game byte for byte as it was with no history
 * row added and no transaction left open, reads must keep working, and
 * the same turn must commit once the fault is gone.
 *
 * The faults come from SQLite's own hooks:
 *   - disk full: PRAGMA max_page_count set to the current page count;
 *   - busy: a second connection holding BEGIN IMMEDIATE;
 *   - I/O errors: a VFS shim, registered as the default VFS (the store
 *     cannot choose one), whose xWrite/xSync fail on demand;
 *   - out of memory: an allocator, installed in main() before SQLite
 *     initializes, that fails on demand.
 * Both shims (fault_shims.c) pass everything through while disarmed.
 * Beyond single turns: a batch of turns in one transaction (group
 * commit) and opening the store, both under out of memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "game/game.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store_helper.h"
#include "fault_shims.h"

#define MAX_PAGES	1073741823	/* SQLite's own maximum page count */
#define SWEEP_MAX	20000		/* a longer sweep is a bug */

/* The stage of a turn that refused it (0: it committed). */
enum stage {
	TURN_OK = 0,
	TURN_BEGIN,
	TURN_LOAD,
	TURN_SAVE,
	TURN_COMMIT
};

/* ----------------------------------------------------------- helpers */

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static struct store *
open_file(const char *path, enum durability d)
{
	char		 err[256];
	struct store	*st;

	st = store_sqlite_open(path, d, err, sizeof(err));
	if (st == NULL)
		fail_msg("open: %s", err);
	return st;
}

/* A classic Ludo game of four, created in st. */
static void
create_ludo(struct store *st, struct game *g, const char *id)
{
	make_ludo(g, id, "classic", 4);
	assert_int_equal(store_create_game(st, g), STORE_OK);
}

/*
 * One turn as the command layer runs it, from the stored game *cur to
 * *next.  A failed COMMIT is not followed by a rollback: the store must
 * leave no transaction open by itself.
 */
static enum stage
try_turn(struct store *st, const struct game *cur, const struct game *next,
    const struct move *mv)
{
	struct game	 loaded;

	if (store_begin(st) != STORE_OK)
		return TURN_BEGIN;
	if (store_load_game(st, cur->id, &loaded) != STORE_OK) {
		store_rollback(st);
		return TURN_LOAD;
	}
	/* What loads under a fault is exact, or an error. */
	assert_memory_equal(&loaded, cur, sizeof(loaded));
	if (store_save_turn(st, &loaded, next, mv) != STORE_OK) {
		store_rollback(st);
		return TURN_SAVE;
	}
	if (store_commit(st) != STORE_OK)
		return TURN_COMMIT;
	return TURN_OK;
}

/* Plays n turns that must all commit. */
static void
play(struct store *st, struct game *g, int n, uint32_t *seed)
{
	struct game	 next;
	struct move	 mv;

	while (n-- > 0) {
		assert_true(random_move(g, &next, &mv, seed));
		assert_int_equal(try_turn(st, g, &next, &mv), TURN_OK);
		memcpy(g, &next, sizeof(*g));
	}
}

static int
find_id(void *arg, const char *id, enum game_kind kind)
{
	const struct game	*g = arg;

	return strcmp(id, g->id) == 0 && kind == g->kind;
}

/* Every read the store offers works and shows exactly *g. */
static void
assert_reads(struct store *st, const struct game *g)
{
	struct game	 got;
	int64_t		 n = 0, counts[KIND_COUNT];

	assert_int_equal(store_load_game(st, g->id, &got), STORE_OK);
	assert_memory_equal(&got, g, sizeof(got));
	/* History is 1..moves, nothing more. */
	assert_int_equal(store_history(st, g->id, 1, -1, count_move, &n), 0);
	assert_int_equal(n, g->moves);
	assert_int_equal(store_list_games(st, KIND_LUDO, NULL, -1, find_id,
	    (void *)g), 1);
	assert_int_equal(store_count_games(st, counts), 0);
	assert_true(counts[KIND_LUDO] >= 1);
	assert_true(store_size(st) > 0);
}

/* A refused turn: no transaction open, the game as it was. */
static void
assert_refused(struct store *st, const struct game *g)
{
	assert_int_not_equal(sqlite3_get_autocommit(store_sqlite_handle(st)),
	    0);
	assert_reads(st, g);
}

static void
assert_integrity(sqlite3 *db)
{
	sqlite3_stmt	*stmt;

	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "ok");
	assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_key_check",
	    -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
	sqlite3_finalize(stmt);
}

static void
set_max_pages(sqlite3 *db, int64_t pages)
{
	char	 sql[64];

	/* A PRAGMA takes no bound parameters; pages is our own integer. */
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld",
	    (long long)pages);
	assert_true(sql_int(db, sql) >= pages);
}

static void
copy_file(const char *from, const char *to)
{
	FILE	*in, *out;
	char	 buf[8192];
	size_t	 n;

	if ((in = fopen(from, "rb")) == NULL)
		return;		/* no -wal yet: nothing to copy */
	assert_non_null(out = fopen(to, "wb"));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* ------------------------------------------------------- disk full */

static void
test_save_turn_disk_full(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, next;
	struct move	 mv;
	sqlite3		*db;
	uint32_t	 seed = 2024;
	enum stage	 r = TURN_OK;
	int		 i, done = 0;

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	db = store_sqlite_handle(st);
	create_ludo(st, &g, "full");
	play(st, &g, 3, &seed);

	/* The file may not grow: turns go on while the last pages have
	 * room, then history needs a page.  The pages that migrations left
	 * free (tables rebuilt) are taken first, or history would get them. */
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE filler (x BLOB)",
	    NULL, NULL, NULL), SQLITE_OK);
	while (sql_int(db, "PRAGMA freelist_count") > 0)
		assert_int_equal(sqlite3_exec(db, "INSERT INTO filler"
		    " VALUES (zeroblob(1000))", NULL, NULL, NULL), SQLITE_OK);
	set_max_pages(db, sql_int(db, "PRAGMA page_count"));
	for (i = 0; i < 2000; i++) {
		assert_true(random_move(&g, &next, &mv, &seed));
		if ((r = try_turn(st, &g, &next, &mv)) != TURN_OK)
			break;
		memcpy(&g, &next, sizeof(g));
		done++;
	}
	assert_true(r == TURN_SAVE || r == TURN_COMMIT);
	assert_non_null(strstr(store_errmsg(st), "full"));
	assert_refused(st, &g);
	/* While the disk stays full the turn is refused each time. */
	assert_int_not_equal(try_turn(st, &g, &next, &mv), TURN_OK);
	assert_refused(st, &g);

	set_max_pages(db, MAX_PAGES);
	assert_int_equal(try_turn(st, &g, &next, &mv), TURN_OK);
	memcpy(&g, &next, sizeof(g));
	assert_reads(st, &g);
	play(st, &g, 3, &seed);
	assert_integrity(db);
	print_message("# disk full after %d turns, refused at %s\n", done,
	    r == TURN_SAVE ? "save" : "commit");
	store_close(st);
	tmpdir_remove(&t);
}

/* -------------------------------------------------------------- busy */

static void
test_begin_busy(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, next;
	struct move	 mv;
	sqlite3		*other;
	uint32_t	 seed = 77;
	double		 t0, waited, at_once;

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	create_ludo(st, &g, "busy");
	play(st, &g, 3, &seed);
	assert_true(random_move(&g, &next, &mv, &seed));

	/* Another writer holds the lock, with a change of its own that no
	 * read of ours may see. */
	assert_int_equal(sqlite3_open_v2(t.path, &other, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE;"
	    " UPDATE games SET updated = updated + 100", NULL, NULL, NULL),
	    SQLITE_OK);

	store_sqlite_set_busy_timeout(st, 50);
	t0 = now_ms();
	assert_int_equal(try_turn(st, &g, &next, &mv), TURN_BEGIN);
	waited = now_ms() - t0;
	assert_non_null(strstr(store_errmsg(st), "locked"));
	/* It waited for the lock, but not the default 5 s. */
	assert_true(waited >= 45.0);
	assert_true(waited < 2000.0);
	assert_refused(st, &g);

	/* A write outside a transaction is refused the same way. */
	assert_int_equal(store_save_turn(st, &g, &next, &mv), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "locked"));
	assert_refused(st, &g);

	store_sqlite_set_busy_timeout(st, 0);
	t0 = now_ms();
	assert_int_equal(try_turn(st, &g, &next, &mv), TURN_BEGIN);
	at_once = now_ms() - t0;
	assert_true(at_once < 1000.0);
	assert_refused(st, &g);

	assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(other);
	assert_int_equal(try_turn(st, &g, &next, &mv), TURN_OK);
	memcpy(&g, &next, sizeof(g));
	assert_reads(st, &g);
	assert_integrity(store_sqlite_handle(st));
	print_message("# busy: refused after %.1f ms (timeout 50),"
	    " %.2f ms (timeout 0)\n", waited, at_once);
	store_close(st);
	tmpdir_remove(&t);
}

/* --------------------------------------------------------- I/O errors */

/*
 * A write or sync that fails at COMMIT refuses the turn; reads go on
 * during the fault, and the turn commits once it is gone.  After a failed
 * sync the frames may already be in the WAL file: a copy of the files
 * taken then (as a crash would leave them) must hold the game either as
 * it was or with the whole turn, never a part of it.
 */
static void
test_commit_io_error(void **state)
{
	static const int ops[] = { IO_WRITE, IO_SYNC };
	struct tmpdir	 t;
	struct store	*st, *copy;
	struct game	 g, next, got;
	struct move	 mv;
	char		 from[200], to[200];
	uint32_t	 seed = 31;
	int		 i, recovered = -1;

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	create_ludo(st, &g, "io");
	play(st, &g, 3, &seed);

	for (i = 0; i < 2; i++) {
		assert_true(random_move(&g, &next, &mv, &seed));
		io_arm(ops[i], 0, 0);
		assert_int_equal(try_turn(st, &g, &next, &mv), TURN_COMMIT);
		assert_true(io.failed > 0);
		assert_non_null(strstr(store_errmsg(st), "I/O"));
		assert_refused(st, &g);
		assert_int_equal(try_turn(st, &g, &next, &mv), TURN_COMMIT);
		assert_refused(st, &g);

		if (ops[i] == IO_SYNC) {
			snprintf(to, sizeof(to), "%s/crash.db", t.dir);
			copy_file(t.path, to);
			snprintf(from, sizeof(from), "%s-wal", t.path);
			snprintf(to, sizeof(to), "%s/crash.db-wal", t.dir);
			copy_file(from, to);
			snprintf(to, sizeof(to), "%s/crash.db", t.dir);
			io_disarm();
			copy = open_file(to, DURABILITY_FULL);
			assert_int_equal(store_load_game(copy, g.id, &got),
			    STORE_OK);
			if (memcmp(&got, &g, sizeof(got)) == 0)
				recovered = 0;
			else {
				assert_memory_equal(&got, &next, sizeof(got));
				recovered = 1;
			}
			assert_reads(copy, recovered ? &next : &g);
			assert_integrity(store_sqlite_handle(copy));
			store_close(copy);
			db_remove(to);
		}

		io_disarm();
		assert_int_equal(try_turn(st, &g, &next, &mv), TURN_OK);
		memcpy(&g, &next, sizeof(g));
		assert_reads(st, &g);
	}
	play(st, &g, 3, &seed);
	assert_integrity(store_sqlite_handle(st));
	print_message("# failed fsync: a crash copy holds the game %s\n",
	    recovered ? "WITH the refused turn" : "as it was");
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * Fails the k-th write or sync of a turn, for every k: once (a transient
 * error) and from then on.  Each turn committed whole or was refused
 * whole, and a refused one commits once the fault is gone.
 */
static void
test_turn_io_error_sweep(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, next;
	struct move	 mv;
	uint32_t	 seed = 5;
	enum stage	 r;
	long		 k, failed, refused = 0, runs = 0;
	int		 once;

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	create_ludo(st, &g, "io-sweep");
	play(st, &g, 2, &seed);
	for (once = 0; once < 2; once++)
		for (k = 0; k < SWEEP_MAX; k++) {
			assert_true(random_move(&g, &next, &mv, &seed));
			io_arm(IO_WRITE | IO_SYNC, k, once);
			r = try_turn(st, &g, &next, &mv);
			failed = io.failed;
			io_disarm();
			runs++;
			if (r != TURN_OK) {
				assert_true(failed > 0);
				assert_refused(st, &g);
				refused++;
				assert_int_equal(try_turn(st, &g, &next, &mv),
				    TURN_OK);
			}
			memcpy(&g, &next, sizeof(g));
			assert_reads(st, &g);
			if (failed == 0)
				break;	/* the turn did fewer than k+1 */
		}
	assert_integrity(store_sqlite_handle(st));
	print_message("# io sweep: %ld turns, %ld refused\n", runs, refused);
	store_close(st);
	tmpdir_remove(&t);
}

/* ------------------------------------------------------ out of memory */

/*
 * Fails the n-th allocation of a whole turn (begin, load, save, commit),
 * for every n: once, then persistently.  The turn is all or nothing, no
 * transaction stays open, and the store works after the allocator
 * recovers.
 */
static void
test_turn_oom_sweep(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, next;
	struct move	 mv;
	uint32_t	 seed = 9;
	enum stage	 r;
	long		 n, failed, allocs = 0, refused = 0, absorbed = 0;
	int		 persistent, games = 1;
	char		 id[24];

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	create_ludo(st, &g, "oom-1");
	play(st, &g, 2, &seed);

	/* A turn's allocations, for the report. */
	assert_true(random_move(&g, &next, &mv, &seed));
	oom_arm(-1, 0);
	assert_int_equal(try_turn(st, &g, &next, &mv), TURN_OK);
	allocs = oom.count;
	oom_disarm();
	memcpy(&g, &next, sizeof(g));

	for (persistent = 0; persistent < 2; persistent++)
		for (n = 0; n < SWEEP_MAX; n++) {
			if (!random_move(&g, &next, &mv, &seed)) {
				snprintf(id, sizeof(id), "oom-%d", ++games);
				create_ludo(st, &g, id);
				n--;
				continue;
			}
			oom_arm(n, persistent);
			r = try_turn(st, &g, &next, &mv);
			failed = oom.failed;
			oom_disarm();
			if (r != TURN_OK) {
				assert_true(failed > 0);
				assert_refused(st, &g);
				refused++;
				assert_int_equal(try_turn(st, &g, &next, &mv),
				    TURN_OK);
			} else if (failed > 0)
				absorbed++;
			memcpy(&g, &next, sizeof(g));
			assert_reads(st, &g);
			if (failed == 0)
				break;	/* past the last allocation */
		}
	assert_integrity(store_sqlite_handle(st));
	print_message("# oom sweep: %ld allocations per turn, %ld refused,"
	    " %ld committed despite a failed allocation\n", allocs, refused,
	    absorbed);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * Several turns in one transaction (group commit), the
 * second one under out of memory.  SQLite may roll the whole transaction
 * back on such an error; the turns after it must then not be written on
 * their own: either the batch commits without the failed turn, or nothing
 * of it is visible.
 */
static void
test_batch_oom_sweep(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g[3], next[3], loaded;
	struct move	 mv[3];
	uint32_t	 seed = 13;
	int		 i, ok[3], committed, persistent, games = 0;
	long		 n, failed = 0, whole = 0, kept = 0;
	char		 id[24];

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	for (i = 0; i < 3; i++) {
		snprintf(id, sizeof(id), "batch-%d", games++);
		create_ludo(st, &g[i], id);
	}
	for (persistent = 0; persistent < 2; persistent++)
		for (n = 0; n < SWEEP_MAX; n++) {
			for (i = 0; i < 3; i++)
				while (!random_move(&g[i], &next[i], &mv[i],
				    &seed)) {
					snprintf(id, sizeof(id), "batch-%d",
					    games++);
					create_ludo(st, &g[i], id);
				}
			assert_int_equal(store_begin(st), STORE_OK);
			for (i = 0; i < 3; i++) {
				if (i == 1)
					oom_arm(n, persistent);
				ok[i] = store_load_game(st, g[i].id,
				    &loaded) == STORE_OK &&
				    store_save_turn(st, &g[i], &next[i],
				    &mv[i]) == STORE_OK;
				if (i == 1) {
					failed = oom.failed;
					oom_disarm();
				}
			}
			/* A turn refused in a batch is left out; the
			 * others commit together, or none does. */
			committed = store_commit(st) == STORE_OK;
			store_rollback(st);
			whole += !committed;
			kept += committed && !ok[1];
			assert_true(ok[1] || failed > 0);
			for (i = 0; i < 3; i++) {
				if (committed && ok[i])
					memcpy(&g[i], &next[i], sizeof(g[i]));
				assert_refused(st, &g[i]);
			}
			if (failed == 0)
				break;
		}
	/* The case that matters was met: SQLite rolled the whole
	 * transaction back under the batch's feet. */
	assert_true(whole > 0);
	assert_integrity(store_sqlite_handle(st));
	print_message("# batch oom sweep: %ld batches refused whole, %ld"
	    " committed without their failed turn\n", whole, kept);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * Opening (creating the schema) under out of memory: either a store, or
 * NULL with a message; the file is then never half-migrated, and opens
 * and plays normally.  An open makes some 15,000 allocations and each try
 * creates a file, so the failure points are every one of the first 16,
 * then 25% apart: each phase of the open (connection, pragmas, each
 * migration, statements) is hit.
 */
static void
test_open_oom_sweep(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g;
	char		 err[256];
	uint32_t	 seed = 3;
	long		 n, failed, tries = 0, refused = 0;
	int64_t		 version, tables, want_tables;

	(void)state;
	tmpdir_make(&t, "test_faults");
	st = open_file(t.path, DURABILITY_FULL);
	want_tables = sql_int(store_sqlite_handle(st), "SELECT count(*)"
	    " FROM sqlite_master WHERE type = 'table'");
	store_close(st);
	db_remove(t.path);
	for (n = 0; tries++ < 200; n += n < 16 ? 1 : n / 4) {
		err[0] = '\0';
		oom_arm(n, 1);
		st = store_sqlite_open(t.path, DURABILITY_FULL, err,
		    sizeof(err));
		failed = oom.failed;
		oom_disarm();
		if (st == NULL) {
			assert_true(failed > 0);
			assert_true(err[0] != '\0');
			refused++;
			st = open_file(t.path, DURABILITY_FULL);
		}
		version = sql_int(store_sqlite_handle(st),
		    "PRAGMA user_version");
		tables = sql_int(store_sqlite_handle(st), "SELECT count(*)"
		    " FROM sqlite_master WHERE type = 'table'");
		assert_int_equal(version, store_migration_count);
		assert_int_equal(tables, want_tables);
		create_ludo(st, &g, "opened");
		play(st, &g, 1, &seed);
		assert_integrity(store_sqlite_handle(st));
		store_close(st);
		db_remove(t.path);
		if (failed == 0)
			break;
	}
	assert_true(tries <= 200);
	print_message("# open oom sweep: %ld of %ld opens refused, an open"
	    " makes fewer than %ld allocations\n", refused, tries, n + 1);
	tmpdir_remove(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_save_turn_disk_full,
		    faults_clear),
		cmocka_unit_test_teardown(test_begin_busy, faults_clear),
		cmocka_unit_test_teardown(test_commit_io_error, faults_clear),
		cmocka_unit_test_teardown(test_turn_io_error_sweep,
		    faults_clear),
		cmocka_unit_test_teardown(test_turn_oom_sweep, faults_clear),
		cmocka_unit_test_teardown(test_batch_oom_sweep,
		    faults_clear),
		cmocka_unit_test_teardown(test_open_oom_sweep, faults_clear),
	};

	/* The allocator first: SQLite takes it only before it starts. */
	oom_install();
	if (sqlite3_initialize() != SQLITE_OK)
		return 1;
	shim_install();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
