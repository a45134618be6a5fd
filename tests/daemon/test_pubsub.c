/*
 * Live games through Redis's APIs in the real ludusd, as a black box:
 * pub/sub over game ids (SUBSCRIBE, PSUBSCRIBE, their frames and the
 * payload, subscriber mode, only committed moves, a subscription from
 * the moves after it), XREAD BLOCK (woken by a committed move only,
 * timeouts, "$" after the pass's COMMIT, the requests behind it), and a
 * long XRANGE written in slices.
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
static const char *const flags[] = { "--durability", "normal",
    "--batch-max-usec", "0", "--bot-delay", "0", NULL };

static int
setup(void **state)
{
	(void)state;
	return daemon_launch(&D, flags);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* Sends a command (words) without reading its reply. */
#define SEND(c, ...)	do {					\
	APPEND(c, __VA_ARGS__);					\
	send_all(c);						\
} while (0)

/*
 * Games "bomb" and "ok" (Snake & Ladder, two players), a store whose
 * COMMIT fails for any move of "bomb" (bh_bomb: the daemon restarts for
 * it), and two new connections.
 */
static void
bomb_and_ok(redisContext **a, redisContext **b)
{
	redisContext	*c = hr_connect(D.port);

	EXPECT(c, "+OK", "SNL.CREATE", "bomb", "2");
	EXPECT(c, "+OK", "SNL.CREATE", "ok", "2");
	redisFree(c);
	bh_bomb(&D, "bomb");
	*a = hr_connect(D.port);
	*b = hr_connect(D.port);
}

/* -------------------------------------------------------------- pub/sub */

static void
test_subscribe_frames_and_payload(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);
	redisReply	*r;
	char		 got[256];

	(void)state;
	EXPECT(b, "+OK", "LUDO.CREATE", "p", "red", "blue");
	EXPECT(a, "[$subscribe $p :1]", "SUBSCRIBE", "p", "not a game");
	expect_next(a, "[$subscribe $not a game :2]", 0);
	SEND(a, "PSUBSCRIBE", "p*", "[xp]");
	expect_next(a, "[$psubscribe $p* :3]", 0);
	expect_next(a, "[$psubscribe $[xp] :4]", 0);
	EXPECT(b, "+MOVED", "LUDO.PLAY", "p", "red", "6", "1");
	/* The channel's message, then each pattern's. */
	expect_next(a, "[$message $p $1,red,6:1,MOVED]", 0);
	expect_next(a, "[$pmessage $p* $p $1,red,6:1,MOVED]", 0);
	expect_next(a, "[$pmessage $[xp] $p $1,red,6:1,MOVED]", 0);
	/* A bot's move says so, as HISTORY does. */
	EXPECT(b, "+OK", "SNL.CREATE", "px", "2", "bots=P2:first",
	    "dice=server");
	EXPECT(b, "[]", "HISTORY", "px");
	SEND(b, "SNL.ROLL", "px");
	freeReplyObject(hr_next(b, "the roll"));
	expect_next(a, "[$pmessage $p* $px $1,P1,", 1);
	r = hr_next(a, "the bot's message");
	flat(r, got, sizeof(got));
	freeReplyObject(r);
	if (strncmp(got, "[$pmessage $p* $px $2,P2,", 25) != 0 ||
	    strcmp(got + strlen(got) - 5, ",bot]") != 0)
		fail_msg("the bot's message: %s", got);
	redisFree(a);
	redisFree(b);
}

/* In RESP2 a subscribed connection is in subscriber mode. */
static void
test_subscriber_mode_and_pubsub(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "+OK", "SNL.CREATE", "s", "2");
	EXPECT(a, "[$subscribe $s :1]", "SUBSCRIBE", "s");
	EXPECT(a, "[$psubscribe $s* :2]", "PSUBSCRIBE", "s*");
	EXPECT(a, "-ERR Can't execute 'SNL.STATE': only (P)SUBSCRIBE / "
	    "(P)UNSUBSCRIBE / GAME.WATCH / GAME.UNWATCH / PING / QUIT / RESET "
	    "are allowed in this context", "SNL.STATE", "s");
	EXPECT(a, "[$pong $]", "PING");
	EXPECT(b, "[$s]", "PUBSUB", "CHANNELS");
	EXPECT(b, "[]", "PUBSUB", "CHANNELS", "x*");
	EXPECT(b, "[$s :1 $t :0]", "PUBSUB", "NUMSUB", "s", "t");
	EXPECT(b, ":1", "PUBSUB", "NUMPAT");
	EXPECT(b, "-ERR unknown subcommand or wrong number of arguments for "
	    "'FOO'. Try CHANNELS, NUMSUB or NUMPAT.", "PUBSUB", "FOO");
	EXPECT(a, "[$unsubscribe $s :1]", "UNSUBSCRIBE");
	EXPECT(a, "[$unsubscribe $nope :1]", "UNSUBSCRIBE", "nope");
	EXPECT(a, "[$punsubscribe $s* :0]", "PUNSUBSCRIBE");
	EXPECT(a, "[$punsubscribe (nil) :0]", "PUNSUBSCRIBE");
	EXPECT(a, "[$unsubscribe (nil) :0]", "UNSUBSCRIBE");
	/* Out of subscriber mode. */
	EXPECT(a, "[+turn,P1 +winner,NONE +P1,0 +P2,0]", "SNL.STATE", "s");
	EXPECT(b, "[]", "PUBSUB", "CHANNELS");
	redisFree(a);
	redisFree(b);
}

/* RESP3: one connection plays and subscribes; its message comes right
 * after the reply of its move. */
static void
test_resp3_message_follows_own_reply(void **state)
{
	static const char req[] = "HELLO 3\r\nDANDY.CREATE d 2 abcd\r\n"
	    "SUBSCRIBE d\r\nDANDY.DRAW d a\r\nDANDY.DRAW d b\r\nPING\r\n";
	struct rconn	 r;
	struct reply	 rep;

	(void)state;
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, req, strlen(req)), 0);
	assert_int_equal(rch_reply(&r, &rep), 1);
	reply_free(&rep);
	rch_expect(&r, "+OK");
	rch_expect(&r, ">[$subscribe $d :1]");
	rch_expect(&r, "+P1 1 0");
	rch_expect(&r, ">[$message $d $1,P1,a,P1 1 0]");
	rch_expect(&r, "+P2 2 0");
	rch_expect(&r, ">[$message $d $2,P2,b,P2 2 0]");
	rch_expect(&r, "+PONG");
	rc_close(&r);
}

/*
 * A move whose COMMIT fails is published to no one (a deferred foreign
 * key that only the COMMIT checks is broken by a move of "bomb"); the
 * subscriber's next message is the next move that commits.
 */
static void
test_messages_only_after_commit(void **state)
{
	redisContext	*a, *b;

	(void)state;
	bomb_and_ok(&a, &b);
	EXPECT(a, "[$psubscribe $* :1]", "PSUBSCRIBE", "*");
	bh_pause(&D);
	APPEND(b, "SNL.ROLL", "ok", "2");
	APPEND(b, "SNL.ROLL", "bomb", "3");
	send_all(b);
	bh_resume(&D);
	expect_next(b, "-STORE group commit failed: ", 1);
	expect_next(b, "-STORE group commit failed: ", 1);
	EXPECT(b, "+P1 4", "SNL.ROLL", "ok", "4");
	expect_next(a, "[$pmessage $* $ok $1,P1,4,P1 4]", 0);
	redisFree(a);
	redisFree(b);
}

/*
 * SUBSCRIBE is a barrier: a move made before it in the same pass (the
 * daemon stopped while both are written) is committed first and not
 * published to the new subscriber; the next one is.
 */
static void
test_subscription_sees_the_moves_after_it(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);
	redisContext	*cs[2] = { a, b };

	(void)state;
	EXPECT(b, "+OK", "SNL.CREATE", "s", "2");
	ping_all(cs, 2);
	bh_pause(&D);
	APPEND(b, "SNL.ROLL", "s", "3");
	send_all(b);
	APPEND(a, "SUBSCRIBE", "s");
	send_all(a);
	bh_resume(&D);
	expect_next(b, "+P1 3", 0);
	expect_next(a, "[$subscribe $s :1]", 0);
	EXPECT(b, "+P2 5", "SNL.ROLL", "s", "5");
	expect_next(a, "[$message $s $2,P2,5,P2 5]", 0);
	redisFree(a);
	redisFree(b);
}

/* ---------------------------------------------------------- XREAD BLOCK */

#define D1	"[$1-0 [$player $P1 $action $a $result $P1 1 0]]"
#define D2	"[$2-0 [$player $P2 $action $b $result $P2 2 0]]"
#define D3	"[$3-0 [$player $P1 $action $c $result $P1 3 0]]"

/* It waits for the next committed move; the requests behind it wait. */
static void
test_xread_block_wakes_on_a_move(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "+OK", "DANDY.CREATE", "d", "2", "abcd");
	EXPECT(b, "+P1 1 0", "DANDY.DRAW", "d", "a");
	APPEND(a, "XREAD", "BLOCK", "0", "STREAMS", "nope", "d", "0", "$");
	APPEND(a, "PING");
	send_all(a);
	/* Nothing for it yet: its PING is not answered either. */
	EXPECT(b, "+PONG", "PING");
	EXPECT(b, "+P2 2 0", "DANDY.DRAW", "d", "b");
	expect_next(a, "[[$d [" D2 "]]]", 0);
	expect_next(a, "+PONG", 0);
	/* Behind the game: answered at once. */
	EXPECT(a, "[[$d [" D1 " " D2 "]]]", "XREAD", "BLOCK", "0",
	    "STREAMS", "d", "0");
	EXPECT(a, "[[$d [" D1 "]]]", "XREAD", "COUNT", "1", "BLOCK", "0",
	    "STREAMS", "d", "0");
	redisFree(a);
	redisFree(b);
}

static void
test_xread_block_times_out(void **state)
{
	redisContext	*a = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "DANDY.CREATE", "d", "2", "abcd");
	EXPECT(a, "(nil)", "XREAD", "BLOCK", "20", "STREAMS", "d", "$");
	EXPECT(a, "(nil)", "XREAD", "BLOCK", "1", "STREAMS", "nope", "0");
	EXPECT(a, "-ERR timeout is negative", "XREAD", "BLOCK", "-1",
	    "STREAMS", "d", "$");
	EXPECT(a, "+PONG", "PING");
	redisFree(a);
}

/*
 * A move whose COMMIT fails wakes no one: the waiter on "bomb" and "ok"
 * is woken by the next move that commits, of "ok", and reads only it.
 */
static void
test_xread_block_never_wakes_on_an_uncommitted_move(void **state)
{
	redisContext	*a, *b;
	redisReply	*r;

	(void)state;
	bomb_and_ok(&a, &b);
	SEND(a, "XREAD", "BLOCK", "0", "STREAMS", "bomb", "ok", "$", "$");
	EXPECT(b, "+PONG", "PING");
	r = RUN(b, "SNL.ROLL", "bomb", "3");
	assert_int_equal(r->type, REDIS_REPLY_ERROR);
	assert_non_null(strstr(r->str, "STORE group commit failed"));
	freeReplyObject(r);
	EXPECT(b, "+P1 6", "SNL.ROLL", "ok", "6");
	expect_next(a, "[[$ok [[$1-0 [$player $P1 $action $6 $result "
	    "$P1 6]]]]]", 0);
	redisFree(a);
	redisFree(b);
}

/*
 * An XREAD BLOCK in the same pass as a move of its game (the daemon
 * stopped while both are written): it is resolved after the COMMIT, "$"
 * counting that move, so the next move wakes it with that one only.
 */
static void
test_xread_block_resolved_after_the_pass(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);
	redisContext	*cs[2] = { a, b };

	(void)state;
	EXPECT(b, "+OK", "DANDY.CREATE", "d", "2", "abcd");
	ping_all(cs, 2);
	bh_pause(&D);
	APPEND(b, "DANDY.DRAW", "d", "a");
	send_all(b);
	APPEND(a, "XREAD", "BLOCK", "0", "STREAMS", "d", "$");
	APPEND(a, "XREAD", "BLOCK", "0", "STREAMS", "d", "0");
	send_all(a);
	bh_resume(&D);
	expect_next(b, "+P1 1 0", 0);
	EXPECT(b, "+P2 2 0", "DANDY.DRAW", "d", "b");
	expect_next(a, "[[$d [" D2 "]]]", 0);
	expect_next(a, "[[$d [" D1 " " D2 "]]]", 0);
	redisFree(a);
	redisFree(b);
}

/* RESP3: a map of game to entries; the wait as in RESP2. */
static void
test_xread_resp3_map(void **state)
{
	static const char req[] = "HELLO 3\r\nDANDY.CREATE d 2 abcd\r\n"
	    "DANDY.DRAW d a\r\nXREAD STREAMS d 0\r\n"
	    "XREAD BLOCK 0 STREAMS d $\r\n";
	redisContext	*b = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;

	(void)state;
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, req, strlen(req)), 0);
	assert_int_equal(rch_reply(&r, &rep), 1);
	reply_free(&rep);
	rch_expect(&r, "+OK");
	rch_expect(&r, "+P1 1 0");
	rch_expect(&r, "%[$d [" D1 "]]");
	EXPECT(b, "+P2 2 0", "DANDY.DRAW", "d", "b");
	rch_expect(&r, "%[$d [" D2 "]]");
	rc_close(&r);
	redisFree(b);
}

/* ---------------------------------------------------------- long XRANGE */

enum { LONG = 3000 };

/* Every entry of a long history, in order, in one reply; the requests
 * behind it come after it. */
static void
test_long_xrange_in_slices(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	redisReply	*x;
	char		 id[32];
	size_t		 i;

	(void)state;
	rch_open(&r, D.port);
	rch_long_game(&r, "long", LONG);
	rc_close(&r);
	APPEND(c, "XRANGE", "long", "-", "+");
	APPEND(c, "XREVRANGE", "long", "+", "(10", "COUNT", "2000");
	APPEND(c, "XRANGE", "long", "2990", "+", "COUNT", "400");
	APPEND(c, "PING");
	send_all(c);
	x = hr_next(c, "XRANGE");
	assert_int_equal(x->type, REDIS_REPLY_ARRAY);
	assert_int_equal(x->elements, LONG);
	for (i = 0; i < x->elements; i++) {
		snprintf(id, sizeof(id), "%zu-0", i + 1);
		assert_string_equal(x->element[i]->element[0]->str, id);
		assert_string_equal(x->element[i]->element[1]->element[3]->str,
		    i % 2 ? "a" : "5");
	}
	freeReplyObject(x);
	x = hr_next(c, "XREVRANGE");
	assert_int_equal(x->elements, 2000);
	for (i = 0; i < x->elements; i++) {
		snprintf(id, sizeof(id), "%zu-0", LONG - i);
		assert_string_equal(x->element[i]->element[0]->str, id);
	}
	freeReplyObject(x);
	x = hr_next(c, "XRANGE COUNT");
	assert_int_equal(x->elements, 11);
	freeReplyObject(x);
	expect_next(c, "+PONG", 0);
	redisFree(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_subscribe_frames_and_payload, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_subscriber_mode_and_pubsub, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_resp3_message_follows_own_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_messages_only_after_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_subscription_sees_the_moves_after_it, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_xread_block_wakes_on_a_move, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xread_block_times_out,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_xread_block_never_wakes_on_an_uncommitted_move, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_xread_block_resolved_after_the_pass, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_xread_resp3_map, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_long_xrange_in_slices,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
