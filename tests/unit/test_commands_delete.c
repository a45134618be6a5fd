/*
 * test_commands: retiring games through the write path
 * (cmd_delete_game(), the core of GAME.DELETE and of the retention job).
 * A finished game goes with every row; one in play only when forced; a
 * retention's time keeps what is newer or in play; NOGAME changes
 * nothing; in a shared transaction (group commit) the delete is seen by
 * the transaction's own reads (SQLite), kept with its COMMIT, and undone
 * with its group; a deadline is cancelled with the COMMIT.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd_txn.h"
#include "store/store.h"
#include "store_helper.h"
#include "test_commands.h"

static int
deleted(struct fixture *f, const char *id, int force, int64_t before,
    const char *want)
{
	struct reply	 r = { 0 };
	int		 rc;

	rc = cmd_delete_game(&f->env, &r, id, force, before);
	assert_non_null(r.str);
	if (strncmp(r.str, want, strlen(want)) != 0)
		fail_msg("%s: got '%s', want '%s'", id, r.str, want);
	reply_free(&r);
	return rc;
}

static int64_t
rows_of(struct fixture *f, const char *id)
{
	char	 sql[256];
	int64_t	 n = 0;
	size_t	 i;

	/* A child row of a deleted game names no game at all. */
	for (i = 0; game_rows_sql(i, id, sql, sizeof(sql)) != NULL; i++)
		n += tc_count_rows(f, sql);
	return n;
}

void
test_delete_finished_and_forced(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE done 1", "+OK");
	EXPECT(f, "SNL.LADDER done 3 100", "+OK");
	EXPECT(f, "SNL.ROLL done 3", "+P1 WINS");
	EXPECT(f, "LUDO.CREATE play red blue", "+OK");
	EXPECT(f, "LUDO.PLAY play red 6 1", "+MOVED");
	assert_true(rows_of(f, "done") > 0);

	assert_int_equal(deleted(f, "done", 0, 0, "OK"), 1);
	assert_int_equal(rows_of(f, "done"), 0);
	EXPECT_ERR(f, "GAME.INFO done", "-NOGAME");
	EXPECT(f, "GAMES", "*1\n$play");
	/* In play: refused unless forced; nothing changed. */
	assert_int_equal(deleted(f, "play", 0, 0, "STATE game 'play' is in "
	    "play"), 0);
	EXPECT(f, "HISTORY play", "*1\n+1,red,6:1,MOVED");
	assert_int_equal(deleted(f, "play", 1, 0, "OK"), 1);
	assert_int_equal(rows_of(f, "play"), 0);
	assert_int_equal(deleted(f, "play", 1, 0, "NOGAME"), 0);
	assert_int_equal(deleted(f, "never", 0, 0, "NOGAME"), 0);
	EXPECT(f, "DBSIZE", ":0");
	/* The id may be used again. */
	EXPECT(f, "LUDO.CREATE play red blue", "+OK");
	EXPECT(f, "HISTORY play", "*0");
}

/* A retention's time: games finished before it go, the rest is KEPT. */
void
test_delete_before(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE old 1", "+OK");
	EXPECT(f, "SNL.LADDER old 3 100", "+OK");
	EXPECT(f, "SNL.ROLL old 3", "+P1 WINS");
	EXPECT(f, "SNL.CREATE open 2", "+OK");
	assert_int_equal(deleted(f, "old", 0, NOW, "KEPT"), 0);
	assert_int_equal(deleted(f, "open", 1, NOW + 1000, "KEPT"), 0);
	assert_int_equal(deleted(f, "old", 0, NOW + 1, "OK"), 1);
	EXPECT(f, "GAMES", "*1\n$open");
}

static int	 scheduled;
static int64_t	 scheduled_due;

static void
on_schedule(void *arg, const char *game, int64_t due_ms)
{
	(void)arg;
	(void)game;
	scheduled++;
	scheduled_due = due_ms;
}

/* In the daemon's shared transaction: read back by the transaction,
 * undone with its savepoint's rollback, kept by its COMMIT, and a
 * deadline cancelled only then. */
void
test_delete_in_batch(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE t x y turn-timeout=60 dice=server", "+OK");
	f->env.on_schedule = on_schedule;
	scheduled = 0;
	f->env.txn = cmd_txn_new();
	assert_int_equal(deleted(f, "t", 1, 0, "OK"), 1);
	/* PostgreSQL's reads cannot see the open transaction's writes: a
	 * read of the game is run again after the COMMIT instead (its
	 * request conflicts), which the daemon does, not this test. */
	if (!test_on_pg())
		EXPECT_ERR(f, "GAME.INFO t", "-NOGAME");
	assert_int_equal(scheduled, 0);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(scheduled, 1);
	assert_int_equal(scheduled_due, 0);
	assert_int_equal(rows_of(f, "t"), 0);

	EXPECT(f, "LUDO.CREATE u x y", "+OK");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	assert_int_equal(deleted(f, "u", 1, 0, "OK"), 1);
	assert_int_equal(cmd_txn_group_end(&f->env, 0), -1);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT(f, "GAMES", "*1\n$u");
	cmd_txn_free(&f->env);
	f->env.on_schedule = NULL;
}
