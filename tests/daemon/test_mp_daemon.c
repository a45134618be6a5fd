/*
 * Multiplayer options through the real ludusd, driven with hiredis:
 * a game of bots plays to its end by itself while a watcher sees every
 * move; seats belong to connections; a server roll and a turn deadline
 * survive a restart (the deadline is neither forgotten nor reset); the
 * require-seats setting; a seat key exchanged once (SEAT.EXCHANGE), by
 * one of two connections sending it at once.  Each test starts its own
 * daemon on a port the kernel picks, and requires it to exit 0 on
 * SIGTERM.
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>

#include "daemon_helper.h"
#include "hiredis_helper.h"

static struct daemon	 D;
/* Bots play at once: what is tested is what they play, not the pace. */
static const char *const normal[] = { "--durability", "normal",
    "--bot-delay", "0", NULL };

/* ---------------------------------------------------------- fixtures */

static int
setup(void **state)
{
	(void)state;
	return daemon_launch(&D, normal);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

static int64_t
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
sleep_ms(int ms)
{
	struct timespec	 ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* ----------------------------------------------------- hiredis helpers */

/* Runs a command given as one format string (hiredis splits it). */
static redisReply *
vcmd(redisContext *c, const char *fmt, va_list ap)
{
	redisReply	*r;

	if ((r = redisvCommand(c, fmt, ap)) == NULL)
		fail_msg("%s: no reply: %s", fmt, c->errstr);
	return r;
}

static redisReply *
cmd(redisContext *c, const char *fmt, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, fmt);
	r = vcmd(c, fmt, ap);
	va_end(ap);
	return r;
}

/* The reply, as one line (hr_joined), is want. */
static void
expect(redisContext *c, const char *want, const char *fmt, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, fmt);
	r = vcmd(c, fmt, ap);
	va_end(ap);
	hr_check_joined(r, want, 0, fmt);
}

/* The reply, as one line, starts with want. */
static void
expect_prefix(redisContext *c, const char *want, const char *fmt, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, fmt);
	r = vcmd(c, fmt, ap);
	va_end(ap);
	hr_check_joined(r, want, HR_PREFIX, fmt);
}

/* The key of player in a secure create's reply ("player,key" each). */
static void
key_of(const redisReply *r, const char *player, char *key, size_t len)
{
	size_t	 i, n = strlen(player);

	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	for (i = 0; i < r->elements; i++)
		if (strncmp(r->element[i]->str, player, n) == 0 &&
		    r->element[i]->str[n] == ',') {
			snprintf(key, len, "%s", r->element[i]->str + n + 1);
			assert_int_equal(strlen(key), 32);
			return;
		}
	fail_msg("no key for %s", player);
}

/* The number of HISTORY entries of a game, and the first one. */
static size_t
history(redisContext *c, const char *game, char *first, size_t len)
{
	redisReply	*r = cmd(c, "HISTORY %s 1 10000", game);
	size_t		 n;

	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	n = r->elements;
	if (first != NULL)
		snprintf(first, len, "%s", n > 0 ? r->element[0]->str : "");
	freeReplyObject(r);
	return n;
}

/* Waits up to ms for a game to have at least n moves; the time taken. */
static int64_t
wait_moves(redisContext *c, const char *game, size_t n, int ms)
{
	int64_t	 t0 = now_ms();

	while (history(c, game, NULL, 0) < n) {
		if (now_ms() - t0 > ms)
			fail_msg("%s: no move %zu after %d ms", game, n, ms);
		sleep_ms(20);
	}
	return now_ms() - t0;
}

/* ------------------------------------------------------------- tests */

/*
 * The one-line demo: two bots play a whole game by themselves,
 * each move its own transaction, and a watcher sees every one in order.
 */
static void
test_bots_play_to_the_end_watched(void **state)
{
	redisContext	*w, *c;
	redisReply	*r;
	char		 want[64], line[128];
	long long	 seq = 0;
	int		 over = 0;

	(void)state;
	w = hr_connect(D.port);
	/* One write: the watch is in place before the first bot move. */
	redisAppendCommand(w, "LUDO.CREATE g a b bots=a:expert,b:aggressive "
	    "dice=server");
	redisAppendCommand(w, "GAME.WATCH g FROM 0");
	assert_int_equal(redisGetReply(w, (void **)&r), REDIS_OK);
	assert_string_equal(hr_joined(r), "OK");
	freeReplyObject(r);
	assert_int_equal(redisGetReply(w, (void **)&r), REDIS_OK);
	assert_string_equal(hr_joined(r), "watch g 1");
	freeReplyObject(r);
	c = hr_connect(D.port);
	while (!over) {
		if (redisGetReply(w, (void **)&r) != REDIS_OK || r == NULL)
			fail_msg("event %lld: %s", seq + 1, w->errstr);
		assert_int_equal(r->elements, 6);
		snprintf(want, sizeof(want), "move g %lld ", ++seq);
		if (strncmp(hr_joined(r), want, strlen(want)) != 0)
			fail_msg("expected '%s...', got '%s'", want,
			    hr_joined(r));
		assert_true(strcmp(r->element[3]->str, "a") == 0 ||
		    strcmp(r->element[3]->str, "b") == 0);
		over = strcmp(r->element[5]->str, "PLAYER_WON") == 0;
		/* The event is the stored move, marked as a bot's. */
		snprintf(line, sizeof(line), "%lld,%s,%s,%s,bot", seq,
		    r->element[3]->str, r->element[4]->str,
		    r->element[5]->str);
		freeReplyObject(r);
		if (seq % 16 == 1 || over) {
			r = cmd(c, "HISTORY g %lld 1", seq);
			assert_string_equal(hr_joined(r), line);
			freeReplyObject(r);
		}
	}
	assert_true(seq > 20);
	snprintf(want, sizeof(want), "kind,ludo players,2 moves,%lld "
	    "turn,NONE winner,", seq);
	expect_prefix(c, want, "GAME.INFO g");
	expect(c, "", "AUDIT");
	/* Nothing more comes: the next reply is the PING's. */
	expect(w, "pong ", "PING");
	redisFree(w);
	redisFree(c);
}

/* Bots of the other kinds too, over the network. */
static void
test_bots_other_kinds(void **state)
{
	redisContext	*c;
	int64_t		 t0 = now_ms();
	redisReply	*r;
	int		 done = 0;

	(void)state;
	c = hr_connect(D.port);
	expect(c, "OK", "SNL.CREATE s 3 dice=server bots=P1:first,P2:first,"
	    "P3:first ladders=2:50");
	expect(c, "OK", "DANDY.CREATE d 2 abcdefghi deck=shuffled:40 "
	    "bots=P1:first,P2:first");
	while (done != 2) {
		if (now_ms() - t0 > 20000)
			fail_msg("the bots did not finish");
		r = cmd(c, "SNL.STATE s");
		done = strcmp(r->element[0]->str, "turn,NONE") == 0;
		freeReplyObject(r);
		r = cmd(c, "DANDY.STATE d");
		done += strcmp(r->element[0]->str, "turn,NONE") == 0;
		freeReplyObject(r);
		sleep_ms(20);
	}
	assert_int_equal(history(c, "d", NULL, 0), 40);
	expect(c, "", "AUDIT");
	redisFree(c);
}

static void
test_seats_belong_to_connections(void **state)
{
	redisContext	*a, *b;
	redisReply	*r;
	char		 red[64], blue[64];

	(void)state;
	a = hr_connect(D.port);
	b = hr_connect(D.port);
	r = cmd(a, "LUDO.CREATE s red blue seats=secure");
	assert_int_equal(r->elements, 2);
	key_of(r, "red", red, sizeof(red));
	key_of(r, "blue", blue, sizeof(blue));
	freeReplyObject(r);
	/* A stolen player id, a wrong key: refused, nothing changes. */
	expect_prefix(b, "-NOSEAT", "LUDO.PLAY s red 6 1");
	expect_prefix(b, "-NOSEAT wrong key", "SEAT s red %s", blue);
	expect_prefix(b, "-NOSEAT wrong key",
	    "SEAT s red 0123456789abcdef0123456789abcdef");
	expect(a, "OK", "SEAT s red %s", red);
	expect(a, "MOVED", "LUDO.PLAY s red 6 1");
	expect_prefix(b, "-NOSEAT", "LUDO.PLAY s red 2 1");
	/* Spectators read freely. */
	expect(b, "1,red,6:1,MOVED", "HISTORY s");
	/* a drops; its key on a new connection resumes the seat. */
	redisFree(a);
	a = hr_connect(D.port);
	expect_prefix(a, "-NOSEAT", "LUDO.PLAY s red 2 1");
	expect(a, "OK", "SEAT s red %s", red);
	expect(a, "MOVED", "LUDO.PLAY s red 2 1");
	/* ... and across a restart. */
	redisFree(a);
	redisFree(b);
	assert_int_equal(daemon_restart(&D, normal), 0);
	b = hr_connect(D.port);
	expect(b, "OK", "SEAT s blue %s", blue);
	expect(b, "PASSED", "LUDO.PLAY s blue 3 0");
	redisFree(b);
}

/* SEAT.EXCHANGE's reply: a fresh key, copied into key. */
static void
exchanged(redisReply *r, const char *old, char *key, size_t len)
{
	if (r->type != REDIS_REPLY_STRING)
		fail_msg("SEAT.EXCHANGE: not a key: %s", hr_joined(r));
	assert_int_equal(r->len, 32);
	assert_string_not_equal(r->str, old);
	snprintf(key, len, "%s", r->str);
	freeReplyObject(r);
}

static void
test_seat_exchange_once(void **state)
{
	redisContext	*a, *b;
	redisReply	*r, *ra, *rb;
	char		 red[64], blue[64], fresh[64], spent[] =
			    "-NOSEAT wrong key for red in game 'x', or a key "
			    "exchanged already: an invite's key works once";
	int		 round;

	(void)state;
	a = hr_connect(D.port);
	b = hr_connect(D.port);
	r = cmd(a, "LUDO.CREATE x red blue seats=secure");
	key_of(r, "red", red, sizeof(red));
	key_of(r, "blue", blue, sizeof(blue));
	freeReplyObject(r);
	expect(a, "OK", "LUDO.CREATE o red blue");
	/* Every refusal changes nothing: the key still works after. */
	expect(a, "-NOGAME no such game 'nope'", "SEAT.EXCHANGE nope red %s",
	    red);
	expect(a, "-BADARG no player 'green' in game 'x'",
	    "SEAT.EXCHANGE x green %s", red);
	expect(a, "-STATE game 'o' has open seats: there is no key to "
	    "exchange", "SEAT.EXCHANGE o red %s", red);
	expect_prefix(a, "-NOSEAT wrong key for red", "SEAT.EXCHANGE x red %s",
	    blue);
	expect_prefix(a, "-NOSEAT wrong key for red",
	    "SEAT.EXCHANGE x red 0123456789abcdef0123456789abcdef");
	expect(a, "OK", "MULTI");
	expect(a, "QUEUED", "SEAT.EXCHANGE x red %s", blue);
	expect_prefix(a, "-NOSEAT wrong key for red", "EXEC");
	expect(b, "OK", "SEAT x red %s", red);
	/* Once: a fresh key, the old one spent for SEAT and the exchange,
	 * the fresh one a seat that moves. */
	exchanged(cmd(a, "SEAT.EXCHANGE x red %s", red), red, fresh,
	    sizeof(fresh));
	expect(a, spent, "SEAT.EXCHANGE x red %s", red);
	expect(a, "-NOSEAT wrong key for red in game 'x' (a key once "
	    "exchanged is spent)", "SEAT x red %s", red);
	expect(a, "OK", "SEAT x red %s", fresh);
	expect(a, "MOVED", "LUDO.PLAY x red 6 1");
	/* A connection that held the seat by the old key keeps it (a seat
	 * is proved once per connection). */
	expect(b, "MOVED", "LUDO.PLAY x red 6 1");
	/* Two connections exchanging one key at once, several times: one
	 * gets a key, the other NOSEAT, and the key got is the seat's. */
	snprintf(red, sizeof(red), "%s", fresh);
	for (round = 0; round < 8; round++) {
		assert_int_equal(redisAppendCommand(a,
		    "SEAT.EXCHANGE x red %s", red), REDIS_OK);
		assert_int_equal(redisAppendCommand(b,
		    "SEAT.EXCHANGE x red %s", red), REDIS_OK);
		assert_int_equal(redisGetReply(a, (void **)&ra), REDIS_OK);
		assert_int_equal(redisGetReply(b, (void **)&rb), REDIS_OK);
		if (ra->type == REDIS_REPLY_STRING) {
			hr_check_joined(rb, spent, 0, "the loser's");
			exchanged(ra, red, fresh, sizeof(fresh));
		} else {
			hr_check_joined(ra, spent, 0, "the loser's");
			exchanged(rb, red, fresh, sizeof(fresh));
		}
		expect_prefix(a, "-NOSEAT", "SEAT x red %s", red);
		snprintf(red, sizeof(red), "%s", fresh);
	}
	/* ... and across a restart. */
	redisFree(a);
	redisFree(b);
	assert_int_equal(daemon_restart(&D, normal), 0);
	a = hr_connect(D.port);
	expect(a, "OK", "SEAT x red %s", red);
	expect(a, "OK", "SEAT x blue %s", blue);
	redisFree(a);
}

static void
test_server_roll_survives_restart(void **state)
{
	redisContext	*c;
	redisReply	*r;
	long long	 v;
	char		 want[64];

	(void)state;
	c = hr_connect(D.port);
	expect(c, "OK", "LUDO.CREATE r a b dice=server");
	r = cmd(c, "LUDO.ROLL r a");
	assert_int_equal(r->type, REDIS_REPLY_INTEGER);
	v = r->integer;
	freeReplyObject(r);
	assert_true(v >= 1 && v <= 6);
	snprintf(want, sizeof(want), "%lld", v);
	expect(c, want, "LUDO.ROLL r a");
	redisFree(c);
	assert_int_equal(daemon_restart(&D, normal), 0);
	c = hr_connect(D.port);
	expect(c, want, "LUDO.ROLL r a");
	expect_prefix(c, "-BADARG", "LUDO.PLAY r a %lld 0", v % 6 + 1);
	expect(c, v == 6 ? "MOVED" : "PASSED", "LUDO.PLAY r a %lld %d", v,
	    v == 6 ? 1 : 0);
	redisFree(c);
}

/* An absent player is played for once the 1-second timeout is over. */
static void
test_timeout_plays_absent_player(void **state)
{
	redisContext	*c;
	char		 first[128];
	int64_t		 t0;

	(void)state;
	c = hr_connect(D.port);
	t0 = now_ms();
	expect(c, "OK", "LUDO.CREATE t a b turn-timeout=1");
	sleep_ms(500);
	if (now_ms() - t0 < 900)
		assert_int_equal(history(c, "t", NULL, 0), 0);
	wait_moves(c, "t", 1, 10000);
	assert_true(now_ms() - t0 >= 950);
	assert_int_equal(history(c, "t", first, sizeof(first)), 1);
	/* a's turn played with "first" on server dice, marked. */
	assert_true(strncmp(first, "1,a,", 4) == 0);
	assert_non_null(strstr(first, ",timeout"));
	/* Then b has its full second. */
	sleep_ms(300);
	assert_true(history(c, "t", NULL, 0) <= 2);
	wait_moves(c, "t", 2, 10000);
	expect(c, "", "AUDIT");
	redisFree(c);
}

/*
 * The deadline is stored with the game: a daemon restarted in the middle
 * of the wait plays the turn when it was due, not a full timeout after
 * the restart; and a deadline that passed while it was down is played as
 * soon as it is back.
 */
static void
test_timeout_across_restart(void **state)
{
	redisContext	*c;
	char		 first[128];
	int64_t		 t0, t1, at;

	(void)state;
	c = hr_connect(D.port);
	t0 = now_ms();
	expect(c, "OK", "SNL.CREATE r 2 turn-timeout=4");
	expect(c, "OK", "SNL.CREATE late 2 turn-timeout=1");
	redisFree(c);
	assert_int_equal(daemon_stop(&D, SIGTERM), 0);
	if (now_ms() - t0 < 1500)
		sleep_ms((int)(1500 - (now_ms() - t0)));
	t1 = now_ms();
	assert_int_equal(daemon_start(&D, normal), 0);
	c = hr_connect(D.port);
	/* "late" was due while the daemon was down: played at once. */
	wait_moves(c, "late", 1, 5000);
	assert_int_equal(history(c, "late", first, sizeof(first)), 1);
	assert_non_null(strstr(first, ",timeout"));
	/* "r" at t0 + 4 s; a reset would have made it t1 + 4 s. */
	if (now_ms() - t0 < 3500)
		assert_int_equal(history(c, "r", NULL, 0), 0);
	wait_moves(c, "r", 1, 10000);
	at = now_ms();
	assert_true(at - t0 >= 3900);
	if (t1 - t0 < 2500)	/* else too slow a machine to tell */
		assert_true(at < t1 + 4000);
	assert_int_equal(history(c, "r", first, sizeof(first)), 1);
	assert_true(strncmp(first, "1,P1,", 5) == 0);
	assert_non_null(strstr(first, ",timeout"));
	expect(c, "", "AUDIT");
	redisFree(c);
}

static void
test_require_seats_setting(void **state)
{
	static const char *const secure[] = { "--durability", "normal",
	    "--bot-delay", "0", "--require-seats", "yes", NULL };
	redisContext	*c;
	redisReply	*r;

	(void)state;
	assert_int_equal(daemon_restart(&D, secure), 0);
	c = hr_connect(D.port);
	r = cmd(c, "SNL.CREATE q 2");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 2);
	freeReplyObject(r);
	expect_prefix(c, "-BADARG this server requires seats=secure",
	    "LUDO.CREATE o a b seats=open");
	expect_prefix(c, "-NOSEAT", "SNL.ROLL q 3");
	redisFree(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(x)	cmocka_unit_test_setup_teardown(x, setup, teardown)
		T(test_bots_play_to_the_end_watched),
		T(test_bots_other_kinds),
		T(test_seats_belong_to_connections),
		T(test_seat_exchange_once),
		T(test_server_roll_survives_restart),
		T(test_timeout_plays_absent_player),
		T(test_timeout_across_restart),
		T(test_require_seats_setting),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
