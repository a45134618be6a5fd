/*
 * The lobby through the real ludusd, black box (hiredis): two accounts
 * find each other (MATCH.JOIN, a MATCH.WAIT blocked on another
 * connection, the account's channel), play the game to its end by being
 * logged in, and the leaderboard shows both rated; tickets survive kill
 * -9 and a restart (none lost, their order kept, none matched twice);
 * MATCH.WAIT's refusals; the lobby's writes refused in MULTI; accounts
 * and tickets on create-rate.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

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

#include "daemon_helper.h"
#include "hiredis_helper.h"

static struct daemon	 D;

static const char *const flags[] = { "--bot-delay", "0", "--create-rate",
    "0", NULL };
static const char *const rate_flags[] = { "--create-rate", "3", NULL };

static int
setup(void **state)
{
	(void)state;
	return daemon_launch(&D, flags);
}

static int
setup_rate(void **state)
{
	(void)state;
	return daemon_launch(&D, rate_flags);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* A reply as one line, nested arrays flattened in order: "m1-x bob bob
 * ann" for MATCH.WAIT's [game, seat, [players]]; a null is "(nil)".
 * Frees r; the line is in a static buffer. */
static void
flat_put(const redisReply *r, char *buf, size_t len, size_t *n)
{
	size_t	 i;

	if (r->type == REDIS_REPLY_ARRAY) {
		for (i = 0; i < r->elements; i++)
			flat_put(r->element[i], buf, len, n);
		return;
	}
	if (*n > 0 && *n < len - 1)
		buf[(*n)++] = ' ';
	if (r->type == REDIS_REPLY_INTEGER)
		*n += (size_t)snprintf(buf + *n, len - *n, "%lld",
		    r->integer);
	else if (r->type == REDIS_REPLY_NIL)
		*n += (size_t)snprintf(buf + *n, len - *n, "(nil)");
	else
		*n += (size_t)snprintf(buf + *n, len - *n, "%s%s",
		    r->type == REDIS_REPLY_ERROR ? "-" : "", r->str);
	if (*n >= len)
		*n = len - 1;
}

/* hr_joined() of a reply, which is then freed (the text is kept in
 * hr_joined()'s own buffer). */
static const char *
joined(redisReply *r)
{
	const char	*s = hr_joined(r);

	freeReplyObject(r);
	return s;
}

static const char *
flat(redisReply *r)
{
	static char	 buf[4096];
	size_t		 n = 0;

	buf[0] = '\0';
	flat_put(r, buf, sizeof(buf), &n);
	freeReplyObject(r);
	return buf;
}

/* A new account's key. */
static void
create(redisContext *c, const char *name, char key[33])
{
	redisReply	*r = RUN(c, "PLAYER.CREATE", name);

	if (r->type != REDIS_REPLY_STRING || r->len != 32)
		fail_msg("PLAYER.CREATE %s: %s", name, hr_joined(r));
	memcpy(key, r->str, 33);
	freeReplyObject(r);
}

/* A connection logged in as a new account. */
static redisContext *
player(const char *name)
{
	redisContext	*c = hr_connect(D.port);
	char		 key[33];

	create(c, name, key);
	hr_check_joined(RUN(c, "PLAYER.LOGIN", name, key), "OK", 0, NULL);
	return c;
}

static long long
join(redisContext *c, const char *opt1, const char *opt2)
{
	redisReply	*r;
	long long	 id;

	r = opt2 != NULL ? RUN(c, "MATCH.JOIN", "ludo", opt1, opt2) :
	    RUN(c, "MATCH.JOIN", "ludo", opt1);
	if (r->type != REDIS_REPLY_INTEGER)
		fail_msg("MATCH.JOIN: %s", hr_joined(r));
	id = r->integer;
	freeReplyObject(r);
	return id;
}

/* MATCH.WAIT's answer as one line: "game seat p1 p2 ...". */
static const char *
wait_line(redisContext *c, long long ticket, const char *timeout)
{
	char	 t[24];

	snprintf(t, sizeof(t), "%lld", ticket);
	return flat(RUN(c, "MATCH.WAIT", t, timeout));
}

/* The first word of a line, into buf. */
static const char *
first_word(const char *line, char *buf, size_t len)
{
	size_t	 n = strcspn(line, " ");

	if (n >= len)
		n = len - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return buf;
}

/* Plays the Ludo game to its end: the player to move rolls and plays
 * its last legal token, on the connection of its account. */
static void
play(redisContext *c[2], const char *names[2], const char *id)
{
	redisReply	*r;
	char		 dice[8], token[8], who[512];
	const char	*p, *q;
	int		 i, moves = 0;

	for (;;) {
		r = RUN(c[0], "LUDO.STATE", id);
		p = strstr(hr_joined(r), "turn,");
		assert_non_null(p);
		snprintf(who, sizeof(who), "%.*s", (int)strcspn(p + 5, " "),
		    p + 5);
		freeReplyObject(r);
		if (strcmp(who, "NONE") == 0)
			break;
		assert_true(++moves < 20000);
		i = strcmp(who, names[0]) == 0 ? 0 : 1;
		assert_string_equal(who, names[i]);
		r = RUN(c[i], "LUDO.ROLL", id, who);
		assert_int_equal(r->type, REDIS_REPLY_INTEGER);
		snprintf(dice, sizeof(dice), "%lld", r->integer);
		freeReplyObject(r);
		r = RUN(c[i], "LUDO.LEGAL", id, dice);
		q = hr_joined(r);
		p = strrchr(q, ' ');
		snprintf(token, sizeof(token), "%.4s", *q == '\0' ? "0" :
		    p != NULL ? p + 1 : q);
		freeReplyObject(r);
		r = RUN(c[i], "LUDO.PLAY", id, who, dice, token);
		assert_int_equal(r->type, REDIS_REPLY_STATUS);
		assert_null(strstr(r->str, "INVALID"));
		freeReplyObject(r);
	}
}

/* The rating line of an account's PLAYER.INFO for Ludo, in buf. */
static const char *
rating_of(redisContext *c, const char *name, char *buf, size_t len)
{
	const char	*p;

	p = strstr(joined(RUN(c, "PLAYER.INFO", name)), "rating,ludo,");
	assert_non_null(p);
	snprintf(buf, len, "%s", p);
	buf[strcspn(buf, " ")] = '\0';
	return buf;
}

static void
test_two_players_meet_and_play(void **state)
{
	const char	*names[2] = { "ann", "bob" };
	redisContext	*c[2], *waiter, *sub;
	redisReply	*r;
	char		 game[64], line[256], a[128], b[128], msg[128];
	long long	 t1, t2;

	(void)state;
	c[0] = player("ann");
	c[1] = player("bob");
	sub = hr_connect(D.port);
	hr_check_joined(RUN(sub, "SUBSCRIBE", "player:ann"),
	    "subscribe player:ann 1", 0, NULL);
	t1 = join(c[0], "players=2", NULL);
	/* ann waits on a connection of her own, blocked */
	waiter = hr_connect(D.port);
	assert_string_equal(joined(RUN(waiter, "PLAYER.LOGIN", "ann",
	    "x")), "-WRONGKEY wrong key for account 'ann'");
	assert_string_equal(wait_line(waiter, t1, "100"), "-NOLOGIN "
	    "MATCH.WAIT needs an account: PLAYER.LOGIN name key first");
	assert_string_equal(wait_line(c[0], t1, "50"), "(nil)");
	snprintf(msg, sizeof(msg), "%lld", t1);
	assert_int_equal(redisAppendCommand(c[0], "MATCH.WAIT %s 0", msg),
	    REDIS_OK);
	assert_int_equal(redisBufferWrite(c[0], &(int){ 0 }), REDIS_OK);
	usleep(100000);
	t2 = join(c[1], "players=2", NULL);
	snprintf(line, sizeof(line), "%s", wait_line(c[1], t2, "0"));
	first_word(line, game, sizeof(game));
	assert_true(strncmp(game, "m", 1) == 0);
	/* ann's blocked wait is answered with the same game, her seat */
	snprintf(a, sizeof(a), "%s", flat(hr_next(c[0], "MATCH.WAIT")));
	snprintf(b, sizeof(b), "%s ann ", game);
	assert_true(strncmp(a, b, strlen(b)) == 0);
	snprintf(b, sizeof(b), "%s bob ", game);
	assert_true(strncmp(line, b, strlen(b)) == 0);
	/* and again, for ever */
	assert_string_equal(wait_line(c[0], t1, "0"), a);
	/* the account's channel heard of it */
	r = hr_next(sub, "player:ann");
	snprintf(msg, sizeof(msg), "message player:ann matched,%lld,%s,",
	    t1, game);
	assert_true(strncmp(hr_joined(r), msg, strlen(msg)) == 0);
	freeReplyObject(r);
	/* whose turn, in PLAYER.GAMES */
	snprintf(b, sizeof(b), "%s ludo bob ", game);
	assert_true(strncmp(flat(RUN(c[1], "PLAYER.GAMES", "bob")), b,
	    strlen(b)) == 0);
	/* nobody else can play their seats */
	assert_true(strncmp(joined(RUN(waiter, "LUDO.ROLL", game, "ann")),
	    "-", 1) == 0);
	play(c, names, game);
	assert_string_not_equal(rating_of(c[0], "ann", a, sizeof(a)),
	    "rating,ludo,1500.00,350.00,0.060000,0,0");
	assert_string_not_equal(rating_of(c[0], "bob", b, sizeof(b)),
	    "rating,ludo,1500.00,350.00,0.060000,0,0");
	r = RUN(c[0], "LEADERBOARD", "ludo");
	assert_int_equal(r->elements, 2);
	freeReplyObject(r);
	snprintf(b, sizeof(b), "%s ludo bob NONE", game);
	assert_true(strncmp(flat(RUN(c[1], "PLAYER.GAMES", "bob",
	    "FINISHED")), b, strlen(b)) == 0);
	redisFree(c[0]);
	redisFree(c[1]);
	redisFree(waiter);
	redisFree(sub);
}

/* Tickets stored by a reply survive kill -9; after the restart the
 * oldest are matched first and each ticket once. */
static void
test_tickets_survive_kill(void **state)
{
	const char	*names[5] = { "p1", "p2", "p3", "p4", "p5" };
	redisContext	*c[5];
	char		 games[5][64];
	long long	 t[5];
	int		 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		c[i] = player(names[i]);
		t[i] = join(c[i], "players=4", NULL);
		redisFree(c[i]);
	}
	assert_int_equal(daemon_stop(&D, SIGKILL), 128 + SIGKILL);
	assert_int_equal(daemon_start(&D, flags), 0);
	c[0] = hr_connect(D.port);
	assert_true(strncmp(flat(RUN(c[0], "MATCH.LIST")),
	    "ludo dice=server ludo 3 ", 24) == 0);
	redisFree(c[0]);
	for (i = 3; i < 5; i++) {
		c[i] = player(names[i]);
		t[i] = join(c[i], "players=4", NULL);
	}
	/* the three old tickets and the first new one */
	first_word(wait_line(c[3], t[3], "10000"), games[3], 64);
	assert_string_equal(wait_line(c[4], t[4], "300"), "(nil)");
	for (i = 0; i < 3; i++) {
		redisContext	*x = hr_connect(D.port);
		redisReply	*r;

		r = RUN(x, "PLAYER.GAMES", names[i]);
		assert_int_equal(r->elements, 1);
		snprintf(games[i], 64, "%s", r->element[0]->element[0]->str);
		freeReplyObject(r);
		assert_string_equal(games[i], games[3]);
		redisFree(x);
	}
	assert_string_equal(flat(RUN(c[4], "PLAYER.GAMES", "p5")), "");
	assert_true(strncmp(flat(RUN(c[4], "MATCH.LIST")),
	    "ludo dice=server ludo 1 ", 24) == 0);
	redisFree(c[3]);
	redisFree(c[4]);
}

static void
test_lobby_refusals(void **state)
{
	redisContext	*c;
	struct sockaddr_in sin;
	char		 buf[512], key[33];
	long long	 t;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd;

	(void)state;
	c = hr_connect(D.port);
	create(c, "ann", key);
	hr_check_joined(RUN(c, "PLAYER.LOGIN", "ann", key), "OK", 0, NULL);
	t = join(c, "players=4", NULL);
	/* the lobby's writes are no part of a transaction */
	hr_check_joined(RUN(c, "MULTI"), "OK", 0, NULL);
	hr_check_joined(RUN(c, "MATCH.JOIN", "ludo"), "-ERR Command not "
	    "allowed inside a transaction", 0, NULL);
	hr_check_joined(RUN(c, "EXEC"), "-EXECABORT", HR_PREFIX, NULL);
	assert_true(strncmp(flat(RUN(c, "MATCH.LIST")),
	    "ludo dice=server ludo 1 ", 24) == 0);
	redisFree(c);
	/* a MATCH.WAIT of a client that has closed its side is refused:
	 * nobody would read its answer */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)D.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)),
	    0);
	n = snprintf(buf, sizeof(buf), "PLAYER.LOGIN ann %s\r\n", key);
	assert_int_equal(write(fd, buf, (size_t)n), n);
	usleep(100000);
	n = snprintf(buf, sizeof(buf), "MATCH.WAIT %lld\r\n", t);
	assert_int_equal(write(fd, buf, (size_t)n), n);
	shutdown(fd, SHUT_WR);
	while (got < sizeof(buf) - 1 &&
	    (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	assert_string_equal(buf, "+OK\r\n-STATE the connection is closing: "
	    "MATCH.WAIT would never be answered\r\n");
}

/* Accounts and tickets are on create-rate with the games. */
static void
test_lobby_create_rate(void **state)
{
	redisContext	*c;
	char		 key[33];

	(void)state;
	c = hr_connect(D.port);
	create(c, "ann", key);
	hr_check_joined(RUN(c, "PLAYER.LOGIN", "ann", key), "OK", 0, NULL);
	(void)join(c, "players=4", NULL);
	hr_check_joined(RUN(c, "LUDO.CREATE", "g", "a", "b"), "OK", 0, NULL);
	hr_check_joined(RUN(c, "PLAYER.CREATE", "bob"), "-LIMIT max number of "
	    "games, accounts and tickets made a minute reached (create-rate "
	    "3): try again in ", HR_PREFIX, NULL);
	hr_check_joined(RUN(c, "MATCH.JOIN", "ludo"), "-LIMIT", HR_PREFIX,
	    NULL);
	hr_check_joined(RUN(c, "PLAYER.INFO", "bob"), "-NOACCOUNT no account "
	    "'bob'", 0, NULL);
	assert_true(strncmp(flat(RUN(c, "MATCH.LIST")),
	    "ludo dice=server ludo 1 ", 24) == 0);
	redisFree(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_two_players_meet_and_play, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tickets_survive_kill,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_lobby_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lobby_create_rate,
		    setup_rate, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
