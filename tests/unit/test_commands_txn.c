/*
 * test_commands, the transaction rules: nothing written for a move that
 * changes nothing, a failed COMMIT leaves the games as they were, the
 * on_move hook once per move, and group commit (a batch's turns, its
 * failures, what cmd_run() tells the daemon).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_txn.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"
#include "store_helper.h"
#include "test_commands.h"

/* ------------------------------------------------------ transactions */

void
test_invalid_move_writes_nothing(void **state)
{
	struct fixture	*f = *state;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 changes;
	uint64_t	 commits;

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "LUDO.PLAY g red 6 1", "+MOVED");
	changes = sqlite3_total_changes(db);
	commits = f->env.commits;
	EXPECT(f, "LUDO.PLAY g red 6 2", "+MOVED");
	assert_int_not_equal(sqlite3_total_changes(db), changes);
	changes = sqlite3_total_changes(db);
	commits = f->env.commits;
	EXPECT(f, "LUDO.PLAY g blue 6 1", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g red 5 3", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g red 2 0", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g green 2 0", "-BADARG player 'green' is not in "
	    "game 'g'");
	assert_int_equal(sqlite3_total_changes(db), changes);
	assert_int_equal(f->env.commits, commits);
	assert_int_equal(tc_count_rows(f, "SELECT count(*) FROM history"), 2);
	assert_int_equal(tc_count_rows(f, "SELECT moves FROM games"), 2);
	assert_int_equal(f->hooked, 2);
	assert_int_equal(sqlite3_get_autocommit(db), 1);	/* no open tx */
}

static int
refuse_commit(void *arg)
{
	(*(int *)arg)++;
	return 1;
}

void
test_commit_failure_rolls_back(void **state)
{
	struct fixture	*f = *state;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 calls = 0;
	const char	*before =
	    "*10\n+turn,red\n+winner,NONE\n+red,1,TRACK,0\n+red,2,YARD,-1\n"
	    "+red,3,YARD,-1\n+red,4,YARD,-1\n+blue,1,YARD,-1\n"
	    "+blue,2,YARD,-1\n+blue,3,YARD,-1\n+blue,4,YARD,-1";

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "LUDO.PLAY g red 6 1", "+MOVED");
	EXPECT(f, "LUDO.STATE g", before);

	sqlite3_commit_hook(db, refuse_commit, &calls);
	EXPECT_ERR(f, "LUDO.PLAY g red 6 1", "-STORE");
	EXPECT_ERR(f, "SNL.LADDER s 3 50", "-STORE");
	EXPECT_ERR(f, "LUDO.CREATE h a b", "-STORE");
	sqlite3_commit_hook(db, NULL, NULL);
	assert_true(calls >= 3);
	assert_int_equal(f->env.store_errors, 3);
	assert_int_equal(f->hooked, 1);
	assert_int_equal(f->env.turns, 1);
	assert_int_equal(sqlite3_get_autocommit(db), 1);

	EXPECT(f, "LUDO.STATE g", before);
	EXPECT(f, "HISTORY g", "*1\n+1,red,6:1,MOVED");
	EXPECT(f, "SNL.STATE s", "*4\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0");
	EXPECT(f, "GAME.INFO h", "-NOGAME no such game 'h'");
	EXPECT(f, "AUDIT", "*0");
	/* And the store works again afterwards. */
	EXPECT(f, "LUDO.PLAY g red 6 1 AT 1", "+MOVED");
	EXPECT(f, "LUDO.CREATE h a b", "+OK");
	assert_int_equal(f->hooked, 2);
}

void
test_on_move_once_per_move(void **state)
{
	struct fixture	*f = *state;

	f->env.on_move = tc_on_move;
	EXPECT(f, "SNL.CREATE s 1", "+OK");
	EXPECT(f, "SNL.LADDER s 2 99", "+OK");
	assert_int_equal(f->hooked, 0);
	EXPECT(f, "SNL.ROLL s 2", "+P1 99");
	EXPECT(f, "SNL.ROLL s 2", "+P1 99");	/* overshoot */
	EXPECT(f, "SNL.ROLL s 1", "+P1 WINS");
	EXPECT(f, "SNL.ROLL s 1", "+GAME_OVER");
	EXPECT(f, "SNL.ROLL s 1 AT 2", "+P1 WINS");
	assert_int_equal(f->hooked, 3);
	assert_string_equal(f->last.result, "P1 WINS");
	assert_int_equal(f->last.seq, 3);
	/* No hook set: moves still commit. */
	f->env.on_move = NULL;
	EXPECT(f, "SNL.CREATE t 1", "+OK");
	EXPECT(f, "SNL.ROLL t 1", "+P1 1");
	assert_int_equal(f->hooked, 3);
	assert_int_equal(f->env.turns, 4);
}

/* ------------------------------------------------------ group commit */

static int	scheduled;	/* on_schedule calls */

static void
on_schedule(void *arg, const char *game, int64_t due)
{
	(void)arg;
	(void)game;
	(void)due;
	scheduled++;
}

static int
fail_commit(void *arg)
{
	(void)arg;
	return 1;
}

/* Where the open transaction stands (cmd_txn_status). */
static struct cmd_result
txn_status(struct fixture *f)
{
	struct cmd_result	 res;

	cmd_txn_status(&f->env, &res);
	return res;
}

static void
sql(struct fixture *f, const char *text)
{
	assert_int_equal(sqlite3_exec(store_sqlite_handle(f->st), text, NULL,
	    NULL, NULL), SQLITE_OK);
}

/*
 * Several turns in one batch: each sees the ones before it, one that the
 * database refuses (a trigger stands for a CHECK on its history row) is
 * rolled back alone and replied -STORE at once, and the others, their
 * hooks and their counters all come with the one COMMIT.
 */
void
test_batch_turn_fails_alone(void **state)
{
	struct fixture	*f = *state;
	uint64_t	 commits;

	f->env.txn = cmd_txn_new();
	EXPECT(f, "SNL.CREATE s1 2", "+OK");
	EXPECT(f, "SNL.CREATE s2 2", "+OK");
	EXPECT(f, "SNL.CREATE s3 2", "+OK");
	EXPECT(f, "SNL.CREATE s3 2", "-EXISTS game 's3' already exists");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->env.commits, 1);
	assert_int_equal(f->env.batch_max, 3);
	sql(f, "CREATE TEMP TRIGGER poison BEFORE INSERT ON history"
	    " WHEN NEW.game = " SQL_GID("s2")
	    " BEGIN SELECT RAISE(ABORT, 'poisoned'); END");

	commits = f->env.commits;
	EXPECT(f, "SNL.ROLL s1 3", "+P1 3");
	EXPECT(f, "SNL.ROLL s2 3", "-STORE save_turn: poisoned");
	EXPECT(f, "SNL.ROLL s1 4", "+P2 4");
	EXPECT(f, "SNL.ROLL s3 5", "+P1 5");
	/* A read inside the batch sees its writes. */
	EXPECT(f, "SNL.STATE s1", "*4\n+turn,P1\n+winner,NONE\n+P1,3\n+P2,4");
	assert_true(txn_status(f).writes > 0);
	assert_int_equal(txn_status(f).writes, 4);
	assert_int_equal(txn_status(f).moves, 3);
	/* Nothing is announced or counted before the COMMIT. */
	assert_int_equal(f->hooked, 0);
	assert_int_equal(f->env.turns, 0);
	assert_int_equal(f->env.commits, commits);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_false(txn_status(f).writes > 0);
	assert_int_equal(f->hooked, 3);
	assert_string_equal(f->last_game, "s3");
	assert_int_equal(f->env.turns, 3);
	assert_int_equal(f->env.commits, commits + 1);
	assert_int_equal(f->env.batch_max, 3);
	assert_int_equal(f->env.batch_failures, 0);

	sql(f, "DROP TRIGGER poison");
	EXPECT(f, "SNL.STATE s2", "*4\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0");
	EXPECT(f, "HISTORY s2", "*0");
	EXPECT(f, "SNL.ROLL s2 3", "+P1 3");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT(f, "HISTORY s1", "*2\n+1,P1,3,P1 3\n+2,P2,4,P2 4");
}

/*
 * A COMMIT that fails takes the whole batch: turns of three games of three
 * kinds, none kept, no hook called, no counter moved but the failures.
 * The same turns then go through.
 */
void
test_batch_commit_failure(void **state)
{
	struct fixture	*f = *state;
	uint64_t	 commits, errors;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 i;

	f->env.txn = cmd_txn_new();
	f->env.on_schedule = on_schedule;
	scheduled = 0;
	EXPECT(f, "LUDO.CREATE l red blue turn-timeout=60", "+OK");
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "DANDY.CREATE d 2 abab", "+OK");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(scheduled, 1);		/* l's deadline */
	scheduled = 0;
	commits = f->env.commits;
	errors = f->env.store_errors;

	for (i = 0; i < 2; i++) {
		EXPECT(f, "LUDO.PLAY l red 6 1", "+MOVED");
		EXPECT(f, "SNL.ROLL s 2", "+P1 2");
		EXPECT(f, "DANDY.DRAW d a", "+P1 1 0");
		EXPECT(f, "LUDO.PLAY l red 6 1", "+MOVED");
		if (i == 1)
			break;
		sqlite3_commit_hook(db, fail_commit, NULL);
		assert_int_equal(cmd_txn_commit(&f->env), -1);
		sqlite3_commit_hook(db, NULL, NULL);
		assert_non_null(strstr(store_errmsg(f->st), "commit"));
		assert_false(txn_status(f).writes > 0);
		assert_int_equal(f->hooked, 0);
		assert_int_equal(scheduled, 0);
		assert_int_equal(f->env.turns, 0);
		assert_int_equal(f->env.commits, commits);
		assert_int_equal(f->env.batch_failures, 1);
		assert_int_equal(f->env.store_errors, errors + 1);
		EXPECT(f, "GAME.INFO s", "*7\n+kind,snl\n+players,2\n"
		    "+moves,0\n+turn,P1\n+winner,NONE\n+created,1700000000\n"
		    "+updated,1700000000");
		EXPECT(f, "HISTORY l", "*0");
		EXPECT(f, "HISTORY d", "*0");
		EXPECT(f, "DANDY.STATE d", "*3\n+turn,P1\n+P1,OFF,0\n"
		    "+P2,OFF,0");
	}
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 4);
	assert_int_equal(scheduled, 2);
	assert_int_equal(f->env.turns, 4);
	assert_int_equal(f->env.commits, commits + 1);
	EXPECT(f, "HISTORY s 1 1", "*1\n+1,P1,2,P1 2");
}

/* cmd_run() of one inline line; what its result says, the reply dropped. */
#define EXPECT_RESULT(f, line, wait, writes, moves) \
	expect_result((f), (line), (wait), (writes), (moves), __LINE__)

static void
expect_result(struct fixture *f, const char *line, int wait, size_t writes,
    uint64_t moves, int at)
{
	struct cmd_result	 res;
	struct reply		 r;

	tc_exec_line(f, line, &r, &res);
	reply_free(&r);
	if (res.wait != wait || res.writes != writes || res.moves != moves) {
		print_error("line %d: %s\n  got:  wait %d writes %zu moves %llu"
		    "\n  want: wait %d writes %zu moves %llu\n", at, line,
		    res.wait, res.writes, (unsigned long long)res.moves, wait,
		    writes, (unsigned long long)moves);
		fail();
	}
}

/*
 * What cmd_run() tells the daemon: a reply waits for the commit when it
 * came from the store while the transaction was open (a write's, a read's,
 * a refused move's), never when the request was refused for its form; and
 * how many of the transaction's writes it holds and of its moves precede
 * the reply.
 */
void
test_batch_result(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	EXPECT_RESULT(f, "SNL.STATE nope", 0, 0, 0);	/* none open */
	EXPECT_RESULT(f, "SNL.CREATE s 2", 1, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 3", 1, 2, 1);
	EXPECT_RESULT(f, "SNL.STATE s", 1, 2, 1);	/* it saw the roll */
	EXPECT_RESULT(f, "SNL.ROLL nope 3", 1, 3, 1);
	EXPECT_RESULT(f, "NOSUCH x", 0, 3, 1);
	EXPECT_RESULT(f, "SNL.STATE", 0, 3, 1);		/* arity */
	EXPECT_RESULT(f, "HISTORY s 1 2 3", 0, 3, 1);	/* the handler's */
	EXPECT_RESULT(f, "GAMES LIMIT", 0, 3, 1);	/* syntax */
	EXPECT_RESULT(f, "SNL.CREATE t 2 color=red", 0, 3, 1);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT_RESULT(f, "SNL.STATE s", 0, 0, 0);
}

/*
 * What the parser refuses never waits for a commit (it read nothing),
 * BADARG included; an option or keyword given twice is one such refusal,
 * and writes nothing.
 */
void
test_parser_refusals(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	EXPECT_RESULT(f, "SNL.CREATE s 2", 1, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 9", 0, 1, 0);	/* BADARG value */
	EXPECT_RESULT(f, "SNL.ROLL s 3 AT x", 0, 1, 0);
	EXPECT_RESULT(f, "LUDO.PLAY BAD a 6 1", 0, 1, 0);
	EXPECT_RESULT(f, "SNL.CREATE t 2 seats=secure seats=open", 0, 1, 0);
	EXPECT_RESULT(f, "GAMES LIMIT 1 LIMIT 2", 0, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 3", 1, 2, 1);	/* a move waits */
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT(f, "LUDO.CREATE g a b rules=classic rules=extended",
	    "-ERR syntax error: option 'rules' given twice");
	EXPECT(f, "LUDO.CREATE g a b six-bonus=on seats=open six-bonus=off",
	    "-ERR syntax error: option 'six-bonus' given twice");
	EXPECT(f, "DANDY.CREATE d 2 ab deck=shuffled deck=abc",
	    "-ERR syntax error: option 'deck' given twice");
	EXPECT(f, "SNL.CREATE t 2 snakes=99:2 snakes=98:3",
	    "-ERR syntax error: option 'snakes' given twice");
	EXPECT(f, "GAMES AFTER a AFTER b",
	    "-ERR syntax error: option 'AFTER' given twice");
	assert_int_equal(tc_count_rows(f, "SELECT count(*) FROM games"), 1);
	/* The connection commands are the daemon's, not this layer's. */
	EXPECT(f, "PING", "-ERR unknown command 'PING'");
	EXPECT(f, "watch s", "-ERR unknown command 'watch'");
	EXPECT(f, "COMMAND DOCS", "-ERR unknown command 'COMMAND'");
}

/*
 * A group (MULTI/EXEC's): its writes are kept together and announced at
 * the COMMIT, or undone together, their events with them: when told so,
 * and when the store failed inside, a failed read included.
 */
void
test_group_kept_or_undone_whole(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	assert_int_equal(cmd_txn_group_end(&f->env, 1), -1);	/* none */
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	assert_int_equal(cmd_txn_group_begin(&f->env), -1);	/* nested */
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "SNL.ROLL s 3", "+P1 3");
	EXPECT(f, "SNL.ROLL nope 3", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.ROLL s 4", "+P2 4");
	assert_int_equal(cmd_txn_group_end(&f->env, 1), 0);
	assert_int_equal(txn_status(f).moves, 2);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 2);

	/* Undone when asked: no row, no event. */
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	EXPECT(f, "SNL.ROLL s 5", "+P1 8");
	assert_int_equal(cmd_txn_group_end(&f->env, 0), -1);
	assert_int_equal(txn_status(f).moves, 0);
	EXPECT(f, "SNL.ROLL s 6", "+P1 9");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 3);
	EXPECT(f, "HISTORY s", "*3\n+1,P1,3,P1 3\n+2,P2,4,P2 4\n"
	    "+3,P1,6,P1 9");

	/* Undone by a store failure inside, the moves before it too: the
	 * failure is an SQLite trigger's (test_pg has PostgreSQL's groups). */
	if (test_on_pg())
		return;
	sql(f, "CREATE TEMP TRIGGER poison BEFORE INSERT ON history"
	    " WHEN NEW.game = " SQL_GID("p")
	    " BEGIN SELECT RAISE(ABORT, 'poisoned'); END");
	EXPECT(f, "SNL.CREATE p 1", "+OK");
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	EXPECT(f, "SNL.ROLL s 1", "+P2 5");
	EXPECT(f, "SNL.ROLL p 1", "-STORE save_turn: poisoned");
	EXPECT(f, "SNL.ROLL s 1", "+P1 10");
	assert_int_equal(cmd_txn_group_end(&f->env, 1), -1);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 3);
	EXPECT(f, "HISTORY s 4", "*0");
	EXPECT(f, "GAMES snl", "*2\n$p\n$s");
}

/* A batch of reads and refused writes has nothing to commit. */
void
test_batch_nothing_written(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	assert_int_equal(cmd_txn_commit(&f->env), 0);	/* none open */
	EXPECT(f, "SNL.ROLL nope 1", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.STATE nope", "-NOGAME no such game 'nope'");
	assert_true(txn_status(f).writes > 0);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_false(txn_status(f).writes > 0);
	assert_int_equal(f->env.commits, 0);
	assert_int_equal(f->env.batches, 0);
	/* Freeing an open batch rolls it back. */
	EXPECT(f, "SNL.CREATE s 1", "+OK");
	cmd_txn_free(&f->env);
	assert_null(f->env.txn);
	EXPECT(f, "SNL.STATE s", "-NOGAME no such game 's'");
}
