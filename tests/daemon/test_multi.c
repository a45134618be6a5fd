/*
 * MULTI / EXEC / DISCARD and WATCH / UNWATCH in the real ludusd, as a
 * black box: Redis's queueing (+QUEUED, -EXECABORT for a request refused
 * when queued, errors of the commands in their places), and ludus's
 * transaction on top: an EXEC's commands are one store transaction,
 * committed together (never split by batch-max-turns), undone together
 * when the store fails inside, and its reply waits for the COMMIT.
 * WATCH makes EXEC answer null when a watched game moved.
 *
 * Store failures are made as in test_batch, through the database itself
 * (a trigger that refuses one game's history rows; a deferred foreign
 * key only the COMMIT checks).
 */
#include <sys/types.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>

#include "util/reply.h"
#include "batch_helper.h"
#include "daemon_helper.h"
#include "hiredis_helper.h"
#include "rc_helper.h"
#include "rclient.h"

static struct daemon	 D;

static const char *const normal_flags[] = { "--durability", "normal",
    "--batch-max-usec", "0", NULL };
static const char *const one_flags[] = { "--durability", "normal",
    "--batch-max-turns", "1", NULL };

static int
setup_normal(void **state)
{
	(void)state;
	return daemon_launch(&D, normal_flags);
}

static int
setup_one_per_batch(void **state)
{
	(void)state;
	return daemon_launch(&D, one_flags);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* ------------------------------------------------------------- queueing */

/* The queued commands run at EXEC, each reply in its place. */
static void
test_exec_runs_the_queue(void **state)
{
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, "+OK", "LUDO.CREATE", "g", "red", "blue");
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "3", "1");
	EXPECT(c, "+QUEUED", "PING");
	EXPECT(c, "+QUEUED", "ECHO", "hi");
	EXPECT(c, "+QUEUED", "HISTORY", "g");
	/* Nothing ran yet. */
	EXPECT(c, "[+MOVED +MOVED +PONG $hi [+1,red,6:1,MOVED "
	    "+2,red,3:1,MOVED]]", "EXEC");
	EXPECT(c, "[+1,red,6:1,MOVED +2,red,3:1,MOVED]", "HISTORY", "g");
	/* Out of the transaction again. */
	EXPECT(c, "-ERR EXEC without MULTI", "EXEC");
	EXPECT(c, "+PONG", "PING");
	redisFree(c);
}

/* A request refused when queued aborts the whole EXEC: nothing runs. */
static void
test_queue_time_errors_abort(void **state)
{
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, "+OK", "LUDO.CREATE", "g", "red", "blue");
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(c, "-ERR unknown command 'NOSUCH'", "NOSUCH", "x");
	EXPECT(c, "-ERR wrong number of arguments for 'LUDO.PLAY'",
	    "LUDO.PLAY", "g");
	EXPECT(c, "-ERR wrong number of arguments for 'ECHO'", "ECHO");
	EXPECT(c, "-ERR Command not allowed inside a transaction", "INFO");
	EXPECT(c, "-ERR Command not allowed inside a transaction",
	    "GAME.WATCH", "g");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "3", "1");
	EXPECT(c, "-EXECABORT Transaction discarded because of previous "
	    "errors.", "EXEC");
	EXPECT(c, "[]", "HISTORY", "g");
	/* The next transaction starts clean. */
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(c, "[+MOVED]", "EXEC");
	redisFree(c);
}

/*
 * Decided: a command's own refusal inside an EXEC is its reply in the
 * array and changes nothing, and the other commands still run, as Redis
 * runs every queued command: a game result that is no move (INVALID_MOVE,
 * GAME_OVER) and an error (BADARG, STALE, NOSEAT, NOGAME) alike.
 */
static void
test_exec_time_refusals_in_place(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;

	(void)state;
	EXPECT(c, "+OK", "LUDO.CREATE", "g", "red", "blue");
	EXPECT(c, "+OK", "SNL.CREATE", "s", "1", "ladders=2:100");
	r = RUN(c, "LUDO.CREATE", "sg", "red", "blue", "seats=secure");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	freeReplyObject(r);
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "blue", "6", "1");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "9", "1");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "3", "1", "AT", "0");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "3", "1", "AT", "1");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "s", "2");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "s", "3");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "sg", "red", "6", "1");
	EXPECT(c, "+QUEUED", "LUDO.STATE", "nope");
	EXPECT(c, "[+MOVED +INVALID_MOVE "
	    "-BADARG dice must be an integer from 1 to 6 "
	    "-STALE game 'g' has 1 moves, not 0 +MOVED +P1 WINS +GAME_OVER "
	    "-NOSEAT this connection does not hold the seat of red in game "
	    "'sg' (SEAT id player key) -NOGAME no such game 'nope']", "EXEC");
	EXPECT(c, "[+1,red,6:1,MOVED +2,red,3:1,MOVED]", "HISTORY", "g");
	EXPECT(c, "[+1,P1,2,P1 WINS]", "HISTORY", "s");
	EXPECT(c, "[]", "HISTORY", "sg");
	redisFree(c);
}

static void
test_multi_errors_as_redis_words_them(void **state)
{
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, "+OK", "LUDO.CREATE", "g", "red", "blue");
	EXPECT(c, "-ERR EXEC without MULTI", "EXEC");
	EXPECT(c, "-ERR DISCARD without MULTI", "DISCARD");
	EXPECT(c, "-ERR wrong number of arguments for 'MULTI'", "MULTI",
	    "x");
	EXPECT(c, "+OK", "MULTI");
	/* Neither of these aborts the transaction. */
	EXPECT(c, "-ERR MULTI calls can not be nested", "MULTI");
	EXPECT(c, "-ERR WATCH inside MULTI is not allowed", "WATCH", "g");
	EXPECT(c, "[]", "EXEC");
	/* DISCARD drops the queue. */
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(c, "+OK", "DISCARD");
	EXPECT(c, "[]", "HISTORY", "g");
	EXPECT(c, "-ERR DISCARD without MULTI", "DISCARD");
	redisFree(c);
}

/* ---------------------------------------------------------------- WATCH */

static void
test_watch_aborts_exec_when_a_game_moved(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "+OK", "LUDO.CREATE", "g", "red", "blue");
	EXPECT(a, "+OK", "WATCH", "g", "nope", "Bad_Id");
	EXPECT(b, "+MOVED", "LUDO.PLAY", "g", "red", "6", "1");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+QUEUED", "LUDO.PLAY", "g", "red", "6", "2");
	EXPECT(a, "(nil)", "EXEC");
	EXPECT(a, "[+1,red,6:1,MOVED]", "HISTORY", "g");
	/* EXEC unwatched everything: the same again goes through. */
	EXPECT(b, "+MOVED", "LUDO.PLAY", "g", "red", "3", "1");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+QUEUED", "GAME.INFO", "nope");
	EXPECT(a, "[-NOGAME no such game 'nope']", "EXEC");
	/* Nothing moved since WATCH: EXEC runs. */
	EXPECT(a, "+OK", "WATCH", "g");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+QUEUED", "LUDO.PLAY", "g", "blue", "4", "0");
	EXPECT(a, "[+PASSED]", "EXEC");
	/* UNWATCH and DISCARD forget the games. */
	EXPECT(a, "+OK", "WATCH", "g");
	EXPECT(a, "+OK", "UNWATCH");
	EXPECT(b, "+MOVED", "LUDO.PLAY", "g", "red", "6", "2");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "[]", "EXEC");
	EXPECT(a, "+OK", "WATCH", "g");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+OK", "DISCARD");
	EXPECT(b, "+MOVED", "LUDO.PLAY", "g", "red", "1", "2");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "[]", "EXEC");
	/* A game that did not exist when watched and does now has moved. */
	EXPECT(a, "+OK", "WATCH", "later");
	EXPECT(b, "+OK", "SNL.CREATE", "later", "2");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "(nil)", "EXEC");
	redisFree(a);
	redisFree(b);
}

/* ------------------------------------------------- one store transaction */

/*
 * batch-max-turns 1 commits after every write, but an EXEC's writes are
 * one group: one COMMIT for all of them.
 */
static void
test_exec_is_one_commit_under_the_caps(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct counters	 k0, k1;

	(void)state;
	EXPECT(c, "+OK", "SNL.CREATE", "a", "2");
	EXPECT(c, "+OK", "DANDY.CREATE", "d", "2", "abcd");
	counters(c, &k0);
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "a", "3");
	EXPECT(c, "+QUEUED", "DANDY.DRAW", "d", "b");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "a", "4");
	EXPECT(c, "+QUEUED", "SNL.CREATE", "b", "1");
	EXPECT(c, "+QUEUED", "DANDY.DRAW", "d", "c");
	EXPECT(c, "[+P1 3 +P1 2 0 +P2 4 +OK +P2 3 0]", "EXEC");
	counters(c, &k1);
	assert_int_equal(k1.commits - k0.commits, 1);
	assert_int_equal(k1.turns - k0.turns, 4);
	assert_true(k1.largest >= 5);
	redisFree(c);
}

/* A store failure in the middle of an EXEC undoes all of it; the same
 * moves outside a transaction fail alone. */
static void
test_exec_store_failure_undoes_all(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct counters	 k0, k1;

	(void)state;
	EXPECT(c, "+OK", "SNL.CREATE", "a", "2");
	EXPECT(c, "+OK", "SNL.CREATE", "poison", "2");
	redisFree(c);
	bh_poison(&D, "poison");
	c = hr_connect(D.port);
	counters(c, &k0);
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "a", "3");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "poison", "3");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "a", "5");
	EXPECT(c, "-STORE EXEC rolled back: save_turn: poisoned row", "EXEC");
	EXPECT(c, "[]", "HISTORY", "a");
	counters(c, &k1);
	assert_int_equal(k1.turns, k0.turns);
	EXPECT(c, "+P1 3", "SNL.ROLL", "a", "3");
	EXPECT(c, "-STORE save_turn: poisoned row", "SNL.ROLL", "poison", "3");
	EXPECT(c, "+P2 5", "SNL.ROLL", "a", "5");
	redisFree(c);
}

/*
 * The EXEC's reply waits for the pass's COMMIT: when that fails (a
 * deferred foreign key broken by a move of "bomb"), it is -STORE, nothing
 * of it is kept and a watcher gets no event.
 */
static void
test_exec_reply_waits_for_the_commit(void **state)
{
	redisContext	*c = hr_connect(D.port), *w;
	redisReply	*r;

	(void)state;
	EXPECT(c, "+OK", "SNL.CREATE", "a", "2");
	EXPECT(c, "+OK", "SNL.CREATE", "bomb", "2");
	redisFree(c);
	bh_bomb(&D, "bomb");
	c = hr_connect(D.port);
	w = hr_connect(D.port);
	EXPECT(w, "[$watch $a :1]", "GAME.WATCH", "a");
	EXPECT(c, "+OK", "MULTI");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "a", "3");
	EXPECT(c, "+QUEUED", "SNL.ROLL", "bomb", "3");
	EXPECT(c, "+QUEUED", "PING");
	r = RUN(c, "EXEC");
	assert_int_equal(r->type, REDIS_REPLY_ERROR);
	assert_non_null(strstr(r->str, "STORE group commit failed: "));
	freeReplyObject(r);
	EXPECT(c, "[]", "HISTORY", "a");
	EXPECT(c, "+P1 4", "SNL.ROLL", "a", "4");
	expect_next(w, "[$move $a :1 $P1 $4 $P1 4]", 0);
	redisFree(c);
	redisFree(w);
}

/*
 * An EXEC of reads only (a stream read included) that saw another
 * connection's move of the same pass waits for its COMMIT as well, and is
 * -STORE when that fails.
 */
static void
test_exec_of_reads_waits_for_the_commit(void **state)
{
	redisContext	*a, *b = hr_connect(D.port);
	redisContext	*cs[2];
	char		 got[512];
	redisReply	*r;

	(void)state;
	EXPECT(b, "+OK", "SNL.CREATE", "bomb", "2");
	redisFree(b);
	bh_bomb(&D, "bomb");
	a = hr_connect(D.port);
	b = hr_connect(D.port);
	cs[0] = a;
	cs[1] = b;
	ping_all(cs, 2);
	bh_pause(&D);
	APPEND(b, "SNL.ROLL", "bomb", "3");
	send_all(b);
	APPEND(a, "MULTI");
	APPEND(a, "XRANGE", "bomb", "-", "+");
	APPEND(a, "PING");
	APPEND(a, "EXEC");
	send_all(a);
	bh_resume(&D);
	expect_next(b, "-STORE group commit failed: ", 1);
	expect_next(a, "+OK", 0);
	expect_next(a, "+QUEUED", 0);
	expect_next(a, "+QUEUED", 0);
	r = hr_next(a, "EXEC");
	flat(r, got, sizeof(got));
	freeReplyObject(r);
	if (strncmp(got, "-STORE group commit failed: ", 28) != 0)
		fail_msg("EXEC of a read of an uncommitted move: %s", got);
	EXPECT(a, "[]", "XRANGE", "bomb", "-", "+");
	redisFree(a);
	redisFree(b);
}

/*
 * The events of an EXEC's moves come after its reply, in order, in RESP3
 * on the connection that made them, and to a watcher elsewhere.
 */
static void
test_exec_events_follow_its_reply(void **state)
{
	static const char req[] = "HELLO 3\r\nGAME.WATCH d\r\nMULTI\r\n"
	    "DANDY.DRAW d a\r\nDANDY.DRAW d b\r\nEXEC\r\nPING\r\n";
	redisContext	*w = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;

	(void)state;
	EXPECT(w, "+OK", "DANDY.CREATE", "d", "2", "abcd");
	EXPECT(w, "[$watch $d :1]", "GAME.WATCH", "d");
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, req, strlen(req)), 0);
	assert_int_equal(rch_reply(&r, &rep), 1);
	reply_free(&rep);
	rch_expect(&r, ">[$watch $d :1]");
	rch_expect(&r, "+OK");
	rch_expect(&r, "+QUEUED");
	rch_expect(&r, "+QUEUED");
	rch_expect(&r, "[+P1 1 0 +P2 2 0]");
	rch_expect(&r, ">[$move $d :1 $P1 $a $P1 1 0]");
	rch_expect(&r, ">[$move $d :2 $P2 $b $P2 2 0]");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	expect_next(w, "[$move $d :1 $P1 $a $P1 1 0]", 0);
	expect_next(w, "[$move $d :2 $P2 $b $P2 2 0]", 0);
	redisFree(w);
}

/*
 * Another connection's moves in the same pass as an EXEC (the daemon
 * stopped while all are written) run before or after it, never inside:
 * the EXEC's moves are consecutive in the history.
 */
static void
test_exec_is_not_interleaved(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);
	redisContext	*cs[2];
	redisReply	*r;
	size_t		 i, first = 0, last = 0;

	(void)state;
	EXPECT(a, "+OK", "DANDY.CREATE", "d", "1", "abcd");
	cs[0] = a;
	cs[1] = b;
	ping_all(cs, 2);
	bh_pause(&D);
	APPEND(a, "MULTI");
	for (i = 0; i < 10; i++)
		APPEND(a, "DANDY.DRAW", "d", "a");
	APPEND(a, "EXEC");
	send_all(a);
	for (i = 0; i < 10; i++)
		APPEND(b, "DANDY.DRAW", "d", "b");
	send_all(b);
	bh_resume(&D);
	for (i = 0; i < 11; i++)
		freeReplyObject(hr_next(a, "+QUEUED"));
	freeReplyObject(hr_next(a, "the EXEC's array"));
	for (i = 0; i < 10; i++)
		freeReplyObject(hr_next(b, "a draw"));
	r = RUN(a, "HISTORY", "d", "1", "100");
	assert_int_equal(r->elements, 20);
	for (i = 0; i < r->elements; i++)
		if (strstr(r->element[i]->str, ",a,") != NULL) {
			if (first == 0)
				first = i + 1;
			last = i + 1;
		}
	freeReplyObject(r);
	assert_int_equal(last - first, 9);
	redisFree(a);
	redisFree(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exec_runs_the_queue,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_queue_time_errors_abort,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_time_refusals_in_place, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_multi_errors_as_redis_words_them, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_watch_aborts_exec_when_a_game_moved, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_is_one_commit_under_the_caps,
		    setup_one_per_batch, teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_store_failure_undoes_all, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_reply_waits_for_the_commit, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_of_reads_waits_for_the_commit, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_exec_events_follow_its_reply, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_exec_is_not_interleaved,
		    setup_normal, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
