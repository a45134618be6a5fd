/*
 * The quotas of ludusd (src/net/quota.c), black box: each test starts
 * the real daemon with a small cap, reaches it from one client and
 * checks that the request over it gets -LIMIT, changes nothing, is
 * counted in INFO (limit_refused_*), and that another client is served
 * as before.  create-rate, max-games, max-subscriptions (channels,
 * patterns, GAME.WATCH games, XREAD BLOCK keys), multi-max-commands;
 * and the defaults, which a well-behaved service never reaches: no cap
 * on a RESP connection's creates nor on the games stored.  A rate is
 * reached by a burst; only max-games' count of games in play waits out
 * the second between two counts of the store.
 */
#include <sys/types.h>

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

static const char *const rate_flags[] = { "--create-rate", "3", NULL };
static const char *const games_flags[] = { "--max-games", "4", NULL };
static const char *const play_flags[] = { "--max-games", "2", NULL };
static const char *const stored_flags[] = { "--max-games", "2",
    "--max-games-finished", "yes", NULL };
static const char *const subs_flags[] = { "--max-subscriptions", "3",
    NULL };
static const char *const multi_flags[] = { "--multi-max-commands", "2",
    NULL };

#define RATE_LIMIT	"-LIMIT max number of games created a minute " \
			"reached (create-rate 3): try again in "
#define GAMES_LIMIT	"-LIMIT max number of games reached (max-games 4)"
#define SUBS_LIMIT	"-LIMIT max number of subscriptions reached " \
			"(max-subscriptions 3)"
#define MULTI_LIMIT	"-LIMIT max number of queued commands reached " \
			"(multi-max-commands 2)"

static int
setup_rate(void **state)
{
	(void)state;
	return daemon_launch(&D, rate_flags);
}

static int
setup_games(void **state)
{
	(void)state;
	return daemon_launch(&D, games_flags);
}

static int
setup_defaults(void **state)
{
	(void)state;
	return daemon_launch(&D, NULL);
}

static int
setup_play(void **state)
{
	(void)state;
	return daemon_launch(&D, play_flags);
}

static int
setup_stored(void **state)
{
	(void)state;
	return daemon_launch(&D, stored_flags);
}

static int
setup_subs(void **state)
{
	(void)state;
	return daemon_launch(&D, subs_flags);
}

static int
setup_multi(void **state)
{
	(void)state;
	return daemon_launch(&D, multi_flags);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* Runs a command whose reply must start with want. */
static void
expect_prefix(redisContext *c, const char *want, const char *first, ...)
{
	va_list		 ap;
	redisReply	*r;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	hr_check_joined(r, want, HR_PREFIX, first);
}

/* ---------------------------------------------------------- create-rate */

/*
 * Three creates of a connection pass, a fourth is refused and makes
 * nothing, a create of a taken id does not count; another connection
 * has its own three; a refused create in an EXEC is its place's reply.
 */
static void
test_create_rate_per_connection(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "LUDO.CREATE", "a1", "red", "blue");
	EXPECT(a, "-EXISTS game 'a1' already exists", "LUDO.CREATE", "a1",
	    "red", "blue");
	EXPECT(a, "+OK", "SNL.CREATE", "a2", "2");
	EXPECT(a, "+OK", "DANDY.CREATE", "a3", "2", "abc");
	/* A malformed create is told what is wrong with it first. */
	EXPECT(a, "-BADARG invalid game id", "LUDO.CREATE", "A!", "red",
	    "blue");
	expect_prefix(a, RATE_LIMIT, "LUDO.CREATE", "a4", "red", "blue", NULL);
	EXPECT(a, "-NOGAME no such game 'a4'", "GAME.INFO", "a4");
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+QUEUED", "SNL.CREATE", "a5", "2");
	EXPECT(a, "+QUEUED", "PING");
	expect_prefix(a, "-LIMIT max number of games created a minute", "EXEC",
	    NULL);
	EXPECT(a, "[$a1 $a2 $a3]", "GAMES");
	/* The other connection is not held back. */
	EXPECT(b, "+OK", "LUDO.CREATE", "b1", "red", "blue");
	EXPECT(b, "+MOVED", "LUDO.PLAY", "a1", "red", "6", "1");
	EXPECT(a, "+MOVED", "LUDO.PLAY", "a1", "red", "3", "1");
	assert_int_equal(info_u64(b, "limit_refused_create_rate"), 2);
	assert_int_equal(info_u64(b, "limit_refused_max_games"), 0);
	assert_true(bh_log_has(&D, "refused: max number of games created"));
	redisFree(a);
	redisFree(b);
}

/* ------------------------------------------------------------ max-games */

/* Four games in all, whoever makes them; the fifth is refused for
 * everyone, and CONFIG RESETSTAT sets the counter to 0. */
static void
test_max_games_for_everyone(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "LUDO.CREATE", "g1", "red", "blue");
	EXPECT(b, "+OK", "SNL.CREATE", "g2", "2");
	EXPECT(a, "+OK", "SNL.CREATE", "g3", "2");
	EXPECT(b, "+OK", "DANDY.CREATE", "g4", "2", "ab");
	EXPECT(a, GAMES_LIMIT, "LUDO.CREATE", "g5", "red", "blue");
	EXPECT(b, GAMES_LIMIT, "SNL.CREATE", "g5", "2");
	EXPECT(a, ":4", "DBSIZE");
	/* The games there are played on. */
	EXPECT(b, "+MOVED", "LUDO.PLAY", "g1", "red", "6", "1");
	assert_int_equal(info_u64(a, "limit_refused_max_games"), 2);
	EXPECT(a, "+OK", "CONFIG", "RESETSTAT");
	assert_int_equal(info_u64(a, "limit_refused_max_games"), 0);
	redisFree(a);
	redisFree(b);
}

/* The count survives a restart: it is the store's, not the daemon's. */
static void
test_max_games_counts_the_store(void **state)
{
	redisContext	*a = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "LUDO.CREATE", "s1", "red", "blue");
	EXPECT(a, "+OK", "LUDO.CREATE", "s2", "red", "blue");
	EXPECT(a, "+OK", "LUDO.CREATE", "s3", "red", "blue");
	redisFree(a);
	assert_int_equal(daemon_restart(&D, games_flags), 0);
	a = hr_connect(D.port);
	EXPECT(a, "+OK", "LUDO.CREATE", "s4", "red", "blue");
	EXPECT(a, GAMES_LIMIT, "LUDO.CREATE", "s5", "red", "blue");
	redisFree(a);
}

/* A game of one Snake & Ladder player, played to its end. */
static void
finished_game(redisContext *c, const char *id)
{
	EXPECT(c, "+OK", "SNL.CREATE", id, "1");
	EXPECT(c, "+OK", "SNL.LADDER", id, "3", "100");
	EXPECT(c, "+P1 WINS", "SNL.ROLL", id, "3");
}

/*
 * By default max-games counts the games in play: a finished game, kept
 * for its history, takes no room.  The count learns of a game finished
 * at its next count of the store, a second after the one before.
 */
static void
test_max_games_counts_games_in_play(void **state)
{
	redisContext	*a = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "LUDO.CREATE", "p1", "red", "blue");
	finished_game(a, "f1");
	/* Counted two at their creates; f1 finished since. */
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p2", "red", "blue");
	usleep(1100 * 1000);
	EXPECT(a, "+OK", "LUDO.CREATE", "p2", "red", "blue");
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p3", "red", "blue");
	/* Games in play do not finish by waiting. */
	usleep(1100 * 1000);
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p3", "red", "blue");
	EXPECT(a, ":3", "DBSIZE");
	redisFree(a);
	/* A restart counts the store again: the same. */
	assert_int_equal(daemon_restart(&D, play_flags), 0);
	a = hr_connect(D.port);
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p3", "red", "blue");
	assert_int_equal(info_u64(a, "limit_refused_max_games"), 1);
	redisFree(a);
}

/* max-games-finished yes: every stored game counts, finished or not. */
static void
test_max_games_finished_count(void **state)
{
	redisContext	*a = hr_connect(D.port);

	(void)state;
	finished_game(a, "f1");
	EXPECT(a, "+OK", "LUDO.CREATE", "p1", "red", "blue");
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p2", "red", "blue");
	usleep(1100 * 1000);
	EXPECT(a, "-LIMIT max number of games reached (max-games 2)",
	    "LUDO.CREATE", "p2", "red", "blue");
	EXPECT(a, ":2", "DBSIZE");
	redisFree(a);
}

/* -------------------------------------------------------------- defaults */

#define BURST	2000

/*
 * The defaults: a lobby that creates its games over one pooled RESP
 * connection (here a pipeline of BURST creates) is refused none, and
 * nothing caps the games stored.
 */
static void
test_no_create_cap_by_default(void **state)
{
	redisContext	*a = hr_connect(D.port);
	redisReply	*r;
	void		*v;
	int		 i, ok = 0;

	(void)state;
	for (i = 0; i < BURST; i++)
		assert_int_equal(redisAppendCommand(a, "SNL.CREATE d%d 2", i),
		    REDIS_OK);
	for (i = 0; i < BURST; i++) {
		assert_int_equal(redisGetReply(a, &v), REDIS_OK);
		r = v;
		ok += r->type == REDIS_REPLY_STATUS &&
		    strcmp(r->str, "OK") == 0;
		freeReplyObject(r);
	}
	assert_int_equal(ok, BURST);
	EXPECT(a, ":" "2000", "DBSIZE");
	assert_int_equal(info_u64(a, "limit_refused_create_rate"), 0);
	assert_int_equal(info_u64(a, "limit_refused_max_games"), 0);
	EXPECT(a, "[$create-rate $0]", "CONFIG", "GET", "create-rate");
	EXPECT(a, "[$max-games $0]", "CONFIG", "GET", "max-games");
	EXPECT(a, "[$http-create-rate $600]", "CONFIG", "GET",
	    "http-create-rate");
	redisFree(a);
}

/* ---------------------------------------------------- max-subscriptions */

/* Channels, patterns and GAME.WATCH games count together; a request
 * that would go over subscribes to none of its names. */
static void
test_subscriptions_count_together(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "+OK", "LUDO.CREATE", "w", "red", "blue");
	EXPECT(a, "[$subscribe $c1 :1]", "SUBSCRIBE", "c1", "c1");
	expect_next(a, "[$subscribe $c1 :1]", 0);
	EXPECT(a, SUBS_LIMIT, "SUBSCRIBE", "c1", "c2", "c3", "c4");
	EXPECT(b, "[$c1]", "PUBSUB", "CHANNELS");
	EXPECT(a, "[$psubscribe $p* :2]", "PSUBSCRIBE", "p*");
	EXPECT(a, "[$watch $w :1]", "GAME.WATCH", "w");
	EXPECT(a, SUBS_LIMIT, "PSUBSCRIBE", "q*");
	EXPECT(a, SUBS_LIMIT, "SUBSCRIBE", "c2");
	/* Again the same: no new one. */
	EXPECT(a, "[$subscribe $c1 :2]", "SUBSCRIBE", "c1");
	EXPECT(a, "[$watch $w :1]", "GAME.WATCH", "w");
	EXPECT(b, ":1", "PUBSUB", "NUMPAT");
	redisFree(a);
	redisFree(b);
}

/* A connection that ended some has room again; the other connection
 * has a cap of its own. */
static void
test_subscriptions_room_again(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(a, "[$subscribe $x :1]", "SUBSCRIBE", "x", "y", "z");
	expect_next(a, "[$subscribe $y :2]", 0);
	expect_next(a, "[$subscribe $z :3]", 0);
	EXPECT(a, SUBS_LIMIT, "SUBSCRIBE", "t");
	EXPECT(b, "[$subscribe $t :1]", "SUBSCRIBE", "t", "u", "v");
	expect_next(b, "[$subscribe $u :2]", 0);
	expect_next(b, "[$subscribe $v :3]", 0);
	EXPECT(a, "[$unsubscribe $x :2]", "UNSUBSCRIBE", "x");
	EXPECT(a, "[$subscribe $t :3]", "SUBSCRIBE", "t");
	assert_int_equal(bh_log_has(&D, "refused: max number of "
	    "subscriptions"), 1);
	redisFree(a);
	redisFree(b);
	a = hr_connect(D.port);
	assert_int_equal(info_u64(a, "limit_refused_max_subscriptions"), 1);
	redisFree(a);
}

/* XREAD BLOCK's keys count while it waits: too many is refused at once,
 * not waited on; RESP3 lets a subscribed connection block too. */
static void
test_xread_block_keys_count(void **state)
{
	static const char req[] = "HELLO 3\r\nSUBSCRIBE s1 s2\r\n"
	    "XREAD BLOCK 0 STREAMS k1 k2 0 0\r\nXREAD BLOCK 1 STREAMS k1 0\r\n"
	    "PING\r\n";
	redisContext	*a = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;

	(void)state;
	EXPECT(a, SUBS_LIMIT, "XREAD", "BLOCK", "0", "STREAMS", "a", "b", "c",
	    "d", "0", "0", "0", "0");
	/* Keys that are no game id wait on nothing and count for nothing. */
	EXPECT(a, "(nil)", "XREAD", "BLOCK", "1", "STREAMS", "a", "b", "c",
	    "NOT-A-GAME", "0", "0", "0", "0");
	EXPECT(a, "+PONG", "PING");
	redisFree(a);
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, req, strlen(req)), 0);
	assert_int_equal(rch_reply(&r, &rep), 1);
	reply_free(&rep);
	rch_expect(&r, ">[$subscribe $s1 :1]");
	rch_expect(&r, ">[$subscribe $s2 :2]");
	rch_expect(&r, SUBS_LIMIT);
	rch_expect(&r, "(nil)");
	rch_expect(&r, "+PONG");
	rc_close(&r);
}

/* --------------------------------------------------- multi-max-commands */

/* A MULTI queues two commands; a third is refused and the EXEC aborts:
 * nothing of it runs. */
static void
test_multi_queue_cap(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(a, "+OK", "MULTI");
	EXPECT(a, "+QUEUED", "LUDO.CREATE", "m1", "red", "blue");
	EXPECT(a, "+QUEUED", "PING");
	EXPECT(a, MULTI_LIMIT, "PING");
	EXPECT(a, "-EXECABORT Transaction discarded because of previous "
	    "errors.", "EXEC");
	EXPECT(a, "-NOGAME no such game 'm1'", "GAME.INFO", "m1");
	/* Two is fine, and so is another client's. */
	EXPECT(b, "+OK", "MULTI");
	EXPECT(b, "+QUEUED", "LUDO.CREATE", "m1", "red", "blue");
	EXPECT(b, "+QUEUED", "PING");
	EXPECT(b, "[+OK +PONG]", "EXEC");
	assert_int_equal(info_u64(b, "limit_refused_multi_max_commands"), 1);
	redisFree(a);
	redisFree(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_create_rate_per_connection, setup_rate, teardown),
		cmocka_unit_test_setup_teardown(test_max_games_for_everyone,
		    setup_games, teardown),
		cmocka_unit_test_setup_teardown(
		    test_max_games_counts_the_store, setup_games, teardown),
		cmocka_unit_test_setup_teardown(
		    test_max_games_counts_games_in_play, setup_play, teardown),
		cmocka_unit_test_setup_teardown(
		    test_max_games_finished_count, setup_stored, teardown),
		cmocka_unit_test_setup_teardown(
		    test_no_create_cap_by_default, setup_defaults, teardown),
		cmocka_unit_test_setup_teardown(
		    test_subscriptions_count_together, setup_subs, teardown),
		cmocka_unit_test_setup_teardown(test_subscriptions_room_again,
		    setup_subs, teardown),
		cmocka_unit_test_setup_teardown(test_xread_block_keys_count,
		    setup_subs, teardown),
		cmocka_unit_test_setup_teardown(test_multi_queue_cap,
		    setup_multi, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
