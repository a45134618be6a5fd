/*
 * ludusd as a black box: each test starts the real daemon on a port the
 * kernel picks, with a database in a fresh temporary directory, and talks
 * to it with hiredis (RESP2) or a raw socket read with the RESP reply
 * parser through tests/rclient.c (RESP3, malformed input).  Game results
 * are predicted with the rules engine.  The teardown stops the daemon
 * with SIGTERM and requires exit status 0, so a sanitizer report or a
 * leak in the daemon fails the test that caused it.
 */
#include <sys/types.h>

#include <errno.h>
#include <pthread.h>
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

#include "engine/engine.h"
#include "util/reply.h"
#include "daemon_helper.h"
#include "hiredis_helper.h"
#include "rc_helper.h"
#include "rclient.h"

static struct daemon	 D;

/* ---------------------------------------------------------- fixtures */

/* Most tests: fsync is not what they test, and it costs time. */
static int
setup_normal(void **state)
{
	static const char *const extra[] = { "--durability", "normal", NULL };

	(void)state;
	return daemon_launch(&D, extra);
}

static int
setup_full(void **state)
{
	(void)state;
	return daemon_launch(&D, NULL);
}

static int
setup_maxclients(void **state)
{
	static const char *const extra[] = { "--maxclients", "2", NULL };

	(void)state;
	return daemon_launch(&D, extra);
}

static int
setup_timeout(void **state)
{
	static const char *const extra[] = { "--timeout", "1",
	    "--durability", "normal", NULL };

	(void)state;
	return daemon_launch(&D, extra);
}

static int
setup_output_limit(void **state)
{
	static const char *const extra[] = { "--client-output-limit",
	    "100kb", "--durability", "normal", NULL };

	(void)state;
	return daemon_launch(&D, extra);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* ----------------------------------------------------- hiredis helpers */

/* A status or bulk reply equal to want. */
static void
expect_str(redisContext *c, const char *want, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	if ((r->type != REDIS_REPLY_STATUS && r->type != REDIS_REPLY_STRING) ||
	    strcmp(r->str, want) != 0)
		fail_msg("%s: expected '%s', got type %d '%s'", first, want,
		    r->type, r->str != NULL ? r->str : "");
	freeReplyObject(r);
}
#define EXPECT(c, want, ...) \
	expect_str(c, want, __VA_ARGS__, (const char *)NULL)

/* An error reply starting with prefix. */
static void
expect_err(redisContext *c, const char *prefix, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	if (r->type != REDIS_REPLY_ERROR ||
	    strncmp(r->str, prefix, strlen(prefix)) != 0)
		fail_msg("%s: expected error '%s...', got type %d '%s'", first,
		    prefix, r->type, r->str != NULL ? r->str : "");
	freeReplyObject(r);
}
#define EXPECT_ERR(c, prefix, ...) \
	expect_err(c, prefix, __VA_ARGS__, (const char *)NULL)

/* An array of simple/bulk strings, exactly want[0..n). */
static void
check_lines(const redisReply *r, const char *const *want, size_t n)
{
	size_t	 i;

	if (r->type != REDIS_REPLY_ARRAY)
		fail_msg("expected an array, got type %d '%s'", r->type,
		    r->str != NULL ? r->str : "");
	if (r->elements != n)
		fail_msg("expected %zu elements, got %zu", n, r->elements);
	for (i = 0; i < n; i++) {
		const redisReply *e = r->element[i];

		if (e->str == NULL || strcmp(e->str, want[i]) != 0)
			fail_msg("element %zu: expected '%s', got '%s'", i,
			    want[i], e->str != NULL ? e->str : "(none)");
	}
}

static void
expect_lines(redisContext *c, const char *const *want, size_t n,
    const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	check_lines(r, want, n);
	freeReplyObject(r);
}
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define EXPECT_LINES(c, want, ...) \
	expect_lines(c, want, NELEM(want), __VA_ARGS__, (const char *)NULL)

static void
expect_ints(redisContext *c, const long long *want, size_t n,
    const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;
	size_t		 i;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(r->element[i]->type, REDIS_REPLY_INTEGER);
		assert_int_equal(r->element[i]->integer, want[i]);
	}
	freeReplyObject(r);
}

/* A watch confirmation or event read as the next reply: an array, its
 * strings joined with spaces ("move g 3 P1 a P1 2 0"). */
static void
expect_next(redisContext *c, const char *want)
{
	hr_check_joined(hr_next(c, want), want, HR_ARRAY, NULL);
}

static void
expect_joined(redisContext *c, const char *want, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	hr_check_joined(r, want, HR_ARRAY, first);
}
#define EXPECT_JOINED(c, want, ...) \
	expect_joined(c, want, __VA_ARGS__, (const char *)NULL)

static long long
game_moves(redisContext *c, const char *id)
{
	redisReply	*r = RUN(c, "GAME.INFO", id);
	long long	 moves = -1;
	size_t		 i;

	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	for (i = 0; i < r->elements; i++)
		if (strncmp(r->element[i]->str, "moves,", 6) == 0)
			moves = atoll(r->element[i]->str + 6);
	freeReplyObject(r);
	return moves;
}

/* ----------------------------------------------------- raw connections */

/* tests/rclient.c, failing the test where it would wait too long. */
static void
raw_open(struct rconn *r)
{
	assert_int_equal(rc_open(r, D.port), 0);
}

/* Sends everything; a peer that closed early is not an error here. */
static void
raw_send(struct rconn *r, const void *p, size_t n)
{
	(void)rc_write(r, p, n);
}

static void
raw_sends(struct rconn *r, const char *s)
{
	raw_send(r, s, strlen(s));
}

/* -------------------------------------------------- engine predictions */

static const char *
ludo_res(const struct ludo_state *st, int player, int dice, int token,
    struct ludo_state *next)
{
	struct ludo_state	 out;
	enum ludo_result	 res;

	res = ludo_play(st, player, dice, token, &out);
	if (ludo_result_stored(res))
		*next = out;
	else
		*next = *st;
	return ludo_result_str(res);
}

static void
ludo_state_lines(const struct ludo_state *st, const char *const *ids,
    char lines[][64], size_t *n)
{
	int	 p, t;

	*n = 0;
	snprintf(lines[(*n)++], 64, "turn,%s", st->turn >= 0 ?
	    ids[st->turn] : "NONE");
	snprintf(lines[(*n)++], 64, "winner,%s", st->winner >= 0 ?
	    ids[st->winner] : "NONE");
	for (p = 0; p < st->nplayers; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			snprintf(lines[(*n)++], 64, "%s,%d,%s,%d", ids[p],
			    t + 1, ludo_location(&st->rules, st->pos[p][t]),
			    st->pos[p][t]);
}

static void
snl_res(const struct snl_state *st, int value, struct snl_state *next,
    char *buf, size_t len)
{
	struct snl_result	 r;

	*next = *st;
	assert_int_equal(snl_roll(st, value, next, &r), 0);
	if (r.outcome == SNL_GAME_OVER)
		snprintf(buf, len, "GAME_OVER");
	else if (r.outcome == SNL_WON)
		snprintf(buf, len, "P%d WINS", r.player + 1);
	else
		snprintf(buf, len, "P%d %d", r.player + 1, r.pos);
}

static void
snl_state_lines(const struct snl_state *st, char lines[][64], size_t *n)
{
	int	 i;

	*n = 0;
	if (st->turn >= 0)
		snprintf(lines[(*n)++], 64, "turn,P%d", st->turn + 1);
	else
		snprintf(lines[(*n)++], 64, "turn,NONE");
	if (st->winner >= 0)
		snprintf(lines[(*n)++], 64, "winner,P%d", st->winner + 1);
	else
		snprintf(lines[(*n)++], 64, "winner,NONE");
	for (i = 0; i < st->nplayers; i++)
		snprintf(lines[(*n)++], 64, "P%d,%d", i + 1, st->pos[i]);
	for (i = 1; i <= SNL_CELLS; i++)
		if (st->jump[i] != 0)
			snprintf(lines[(*n)++], 64, "%s,%d,%d",
			    st->jump[i] < i ? "snake" : "ladder", i,
			    st->jump[i]);
}

/* The result string of a DandyLand draw (card given), and the player. */
static void
dandy_res(const struct dandy_state *st, int card, struct dandy_state *next,
    char *buf, size_t len)
{
	struct dandy_result	 r;

	*next = *st;
	assert_int_equal(dandy_draw(st, card, next, &r), 0);
	if (r.game_over)
		snprintf(buf, len, "GAME_OVER");
	else if (r.pos < 0)
		snprintf(buf, len, "P%d OFF %d", r.player + 1, r.points);
	else
		snprintf(buf, len, "P%d %d %d", r.player + 1, r.pos + 1,
		    r.points);
}

static void
dandy_state_lines(const struct dandy_state *st, char lines[][64], size_t *n)
{
	int	 i;

	*n = 0;
	if (st->turn >= 0)
		snprintf(lines[(*n)++], 64, "turn,P%d", st->turn + 1);
	else
		snprintf(lines[(*n)++], 64, "turn,NONE");
	for (i = 0; i < st->nplayers; i++)
		if (st->pos[i] < 0)
			snprintf(lines[(*n)++], 64, "P%d,OFF,%d", i + 1,
			    st->points[i]);
		else
			snprintf(lines[(*n)++], 64, "P%d,%d,%d", i + 1,
			    st->pos[i] + 1, st->points[i]);
}

/* Compares a STATE reply with predicted lines; 0 or -1 (for threads). */
static int
state_matches(const redisReply *r, char lines[][64], size_t n)
{
	size_t	 i;

	if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements != n)
		return -1;
	for (i = 0; i < n; i++)
		if (r->element[i]->str == NULL ||
		    strcmp(r->element[i]->str, lines[i]) != 0)
			return -1;
	return 0;
}

static const char CARDS[] = "abcdefghi123456789";

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ---------------------------------------------------- the seed examples */

static void
test_seed_ludo_examples(void **state)
{
	static const char *const state1[] = { "turn,red", "winner,NONE",
	    "red,1,TRACK,3", "red,2,YARD,-1", "red,3,YARD,-1",
	    "red,4,YARD,-1", "blue,1,YARD,-1", "blue,2,YARD,-1",
	    "blue,3,YARD,-1", "blue,4,YARD,-1" };
	static const char *const state2[] = { "turn,alpha", "winner,NONE",
	    "alpha,1,YARD,-1", "alpha,2,YARD,-1", "alpha,3,YARD,-1",
	    "alpha,4,YARD,-1", "beta,1,TRACK,1", "beta,2,YARD,-1",
	    "beta,3,YARD,-1", "beta,4,YARD,-1" };
	static const char *const state3[] = { "turn,moon", "winner,NONE",
	    "sun,1,YARD,-1", "sun,2,YARD,-1", "sun,3,YARD,-1",
	    "sun,4,YARD,-1", "moon,1,YARD,-1", "moon,2,YARD,-1",
	    "moon,3,YARD,-1", "moon,4,YARD,-1" };
	redisContext	*c = hr_connect(D.port);

	(void)state;
	/* Example 1. */
	EXPECT(c, "OK", "LUDO.CREATE", "game-1", "red", "blue");
	EXPECT(c, "MOVED", "LUDO.PLAY", "game-1", "red", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "game-1", "red", "3", "1");
	EXPECT(c, "PASSED", "LUDO.PLAY", "game-1", "blue", "4", "0");
	EXPECT_LINES(c, state1, "LUDO.STATE", "game-1");
	/* Example 2. */
	EXPECT(c, "OK", "LUDO.CREATE", "capture-game", "alpha", "beta");
	EXPECT(c, "MOVED", "LUDO.PLAY", "capture-game", "alpha", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "capture-game", "alpha", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "capture-game", "alpha", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "capture-game", "alpha", "2", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "capture-game", "beta", "6", "1");
	EXPECT(c, "MOVED_AND_CAPTURED", "LUDO.PLAY", "capture-game", "beta",
	    "1", "1");
	EXPECT_LINES(c, state2, "LUDO.STATE", "capture-game");
	/* Example 3. */
	EXPECT(c, "OK", "LUDO.CREATE", "pass-game", "sun", "moon");
	EXPECT(c, "INVALID_MOVE", "LUDO.PLAY", "pass-game", "sun", "3", "1");
	EXPECT(c, "PASSED", "LUDO.PLAY", "pass-game", "sun", "3", "0");
	EXPECT_LINES(c, state3, "LUDO.STATE", "pass-game");
	/* The same game twice, and a game that is not there. */
	EXPECT_ERR(c, "EXISTS", "LUDO.CREATE", "game-1", "red", "blue");
	EXPECT_ERR(c, "NOGAME", "LUDO.STATE", "nosuch");
	redisFree(c);
}

static void
test_seed_snl_examples(void **state)
{
	static const char *const state1[] = { "turn,NONE", "winner,P1",
	    "P1,100", "P2,6", "ladder,4,98", "snake,99,2" };
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, "OK", "SNL.CREATE", "snl-1", "2");
	EXPECT(c, "OK", "SNL.LADDER", "snl-1", "4", "98");
	EXPECT(c, "OK", "SNL.SNAKE", "snl-1", "99", "2");
	EXPECT(c, "P1 98", "SNL.ROLL", "snl-1", "4");
	EXPECT(c, "P2 6", "SNL.ROLL", "snl-1", "6");
	EXPECT(c, "P1 WINS", "SNL.ROLL", "snl-1", "2");
	EXPECT(c, "GAME_OVER", "SNL.ROLL", "snl-1", "5");
	EXPECT(c, "GAME_OVER", "SNL.ROLL", "snl-1", "6");
	EXPECT_LINES(c, state1, "SNL.STATE", "snl-1");
	EXPECT(c, "OK", "SNL.CREATE", "snl-2", "2");
	EXPECT(c, "OK", "SNL.LADDER", "snl-2", "3", "100");
	EXPECT(c, "P1 WINS", "SNL.ROLL", "snl-2", "3");
	EXPECT(c, "GAME_OVER", "SNL.ROLL", "snl-2", "1");
	EXPECT_ERR(c, "WRONGTYPE", "LUDO.STATE", "snl-2");
	redisFree(c);
}

static void
test_seed_dandy_examples(void **state)
{
	static const struct {
		const char	*players, *cards, *board;
		long long	 points[8];
		size_t		 n;
	} ex[] = {
		{ "2", "abab9abcaa", "abab", { 3, 1 }, 2 },
		{ "1", "7aaa", "abcde", { 4 }, 1 },
		{ "1", "af1f1fa", "abcde", { 3 }, 1 },
		{ "2", "1181a221aeeb1", "abcd", { 4, 1 }, 2 },
		{ "4", "9b8b2a11", "ab", { 5, 0, 3, 1 }, 4 },
		{ "8", "d53ab9e7b5decaacd59aeeeb", "abcdabcdabcd",
		  { 0, 1, 1, 1, 0, 1, 0, 1 }, 8 },
		{ "1", "4", "abcd", { 0 }, 1 },
	};
	static const long long scores[] = { 3, 1 };
	redisContext	*c = hr_connect(D.port);
	size_t		 i;

	(void)state;
	for (i = 0; i < NELEM(ex); i++)
		expect_ints(c, ex[i].points, ex[i].n, "DANDY.PLAY",
		    ex[i].players, ex[i].cards, ex[i].board,
		    (const char *)NULL);
	/* The first example again, stored, one draw at a time. */
	EXPECT(c, "OK", "DANDY.CREATE", "dandy-1", "2", "abab",
	    "deck=abab9abcaa");
	EXPECT(c, "P1 1 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P2 2 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P1 3 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P2 4 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P1 4 2", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P2 1 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P1 2 3", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P2 4 0", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P1 3 3", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "P2 1 1", "DANDY.DRAW", "dandy-1");
	EXPECT(c, "GAME_OVER", "DANDY.DRAW", "dandy-1");
	expect_ints(c, scores, 2, "DANDY.SCORES", "dandy-1",
	    (const char *)NULL);
	redisFree(c);
}

/* ---------------------------------------------------------- pipelining */

static void
test_pipeline_thousand_in_order(void **state)
{
	redisContext		*c = hr_connect(D.port);
	struct snl_state	 snl, next;
	char			*buf = NULL, *cmd, want[64], arg[32];
	size_t			 len = 0;
	int			 i, n;
	redisReply		*r;

	(void)state;
	EXPECT(c, "OK", "SNL.CREATE", "pipe", "8");
	assert_int_equal(snl_init(&snl, 8), 0);
	/* Four kinds of request, RESP and inline, in one buffer. */
	for (i = 0; i < 1000; i++) {
		snprintf(arg, sizeof arg, "%d", i);
		switch (i % 4) {
		case 0:
			n = redisFormatCommand(&cmd, "ECHO msg-%d", i);
			break;
		case 1:
			n = redisFormatCommand(&cmd, "PING");
			break;
		case 2:
			n = redisFormatCommand(&cmd, "SNL.ROLL pipe %d",
			    i % 6 + 1);
			break;
		default:
			n = asprintf(&cmd, "ECHO \"inline %d\"\r\n", i);
			break;
		}
		assert_true(n > 0);
		buf = realloc(buf, len + (size_t)n);
		memcpy(buf + len, cmd, (size_t)n);
		len += (size_t)n;
		free(cmd);
	}
	/* One write: the daemon sees it all at once. */
	assert_true(write(c->fd, buf, len) == (ssize_t)len);
	free(buf);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(redisGetReply(c, (void **)&r), REDIS_OK);
		switch (i % 4) {
		case 0:
			snprintf(want, sizeof want, "msg-%d", i);
			break;
		case 1:
			snprintf(want, sizeof want, "PONG");
			break;
		case 2:
			snl_res(&snl, i % 6 + 1, &next, want, sizeof want);
			snl = next;
			break;
		default:
			snprintf(want, sizeof want, "inline %d", i);
			break;
		}
		if (r->str == NULL || strcmp(r->str, want) != 0)
			fail_msg("reply %d: expected '%s', got '%s'", i, want,
			    r->str != NULL ? r->str : "(none)");
		freeReplyObject(r);
	}
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/* -------------------------------------------------------- many clients */

#define MC_THREADS	8
#define MC_ROUNDS	40

struct mc_arg {
	int		 idx;
	char		 err[256];
};

static int
mc_fail(struct mc_arg *a, const char *what, const char *want,
    const redisReply *r)
{
	snprintf(a->err, sizeof a->err, "client %d: %s: expected '%s', got "
	    "'%s'", a->idx, what, want, r != NULL && r->str != NULL ? r->str :
	    "(none)");
	return -1;
}

/* One command whose reply must be the string want. */
static int
mc_cmd(struct mc_arg *a, redisContext *c, const char *want, int argc,
    const char **argv)
{
	redisReply	*r;
	int		 rc = 0;

	r = redisCommandArgv(c, argc, argv, NULL);
	if (r == NULL || r->str == NULL || strcmp(r->str, want) != 0)
		rc = mc_fail(a, argv[0], want, r);
	if (r != NULL)
		freeReplyObject(r);
	return rc;
}

static int
mc_state(struct mc_arg *a, redisContext *c, const char *cmd,
    const char *id, char lines[][64], size_t n)
{
	const char	*argv[2] = { cmd, id };
	redisReply	*r = redisCommandArgv(c, 2, argv, NULL);
	int		 rc = state_matches(r, lines, n);

	if (rc == -1)
		snprintf(a->err, sizeof a->err, "client %d: %s %s differs",
		    a->idx, cmd, id);
	if (r != NULL)
		freeReplyObject(r);
	return rc;
}

static int
mc_play(struct mc_arg *a)
{
	static const char *const pids[] = { "p0", "p1", "p2" };
	struct ludo_rules	 rules;
	struct ludo_state	 lst, lnext;
	struct snl_state	 sst, snext;
	struct dandy_state	 dst, dnext;
	char			 lid[32], sid[32], did[32], want[64];
	char			 n1[8], n2[8], lines[32][64];
	const char		*argv[8], *why;
	redisContext		*c;
	uint64_t		 seed = 0x9e3779b97f4a7c15ULL * (a->idx + 1);
	size_t			 n;
	int			 round, toks[LUDO_TOKENS], nt, dice, tok, p;
	int			 card, rc = -1;

	c = redisConnect("127.0.0.1", D.port);
	if (c == NULL || c->err) {
		snprintf(a->err, sizeof a->err, "client %d: connect", a->idx);
		goto out;
	}
	snprintf(lid, sizeof lid, "mc-%d-ludo", a->idx);
	snprintf(sid, sizeof sid, "mc-%d-snl", a->idx);
	snprintf(did, sizeof did, "mc-%d-dandy", a->idx);
	argv[0] = "LUDO.CREATE"; argv[1] = lid; argv[2] = "p0";
	argv[3] = "p1"; argv[4] = "p2";
	if (mc_cmd(a, c, "OK", 5, argv) == -1)
		goto out;
	argv[0] = "SNL.CREATE"; argv[1] = sid; argv[2] = "3";
	if (mc_cmd(a, c, "OK", 3, argv) == -1)
		goto out;
	argv[0] = "SNL.SNAKE"; argv[2] = "40"; argv[3] = "10";
	if (mc_cmd(a, c, "OK", 4, argv) == -1)
		goto out;
	argv[0] = "SNL.LADDER"; argv[2] = "5"; argv[3] = "50";
	if (mc_cmd(a, c, "OK", 4, argv) == -1)
		goto out;
	argv[0] = "DANDY.CREATE"; argv[1] = did; argv[2] = "3";
	argv[3] = "abcabcdef";
	if (mc_cmd(a, c, "OK", 4, argv) == -1)
		goto out;
	ludo_rules_preset(&rules, "classic");
	ludo_init(&lst, &rules, 3);
	snl_init(&sst, 3);
	snl_add_snake(&sst, 40, 10, &why);
	snl_add_ladder(&sst, 5, 50, &why);
	dandy_init(&dst, 3, "abcabcdef", NULL, &why);
	for (round = 0; round < MC_ROUNDS; round++) {
		/* Ludo: mostly legal moves, some by the wrong player. */
		dice = (int)(rnd(&seed) % 6) + 1;
		p = lst.turn >= 0 ? lst.turn : 0;
		if (rnd(&seed) % 10 == 0)
			p = (p + 1) % 3;
		nt = lst.turn >= 0 ? ludo_legal(&lst, dice, toks) : 0;
		tok = nt > 0 ? toks[rnd(&seed) % (unsigned)nt] : 0;
		snprintf(want, sizeof want, "%s",
		    ludo_res(&lst, p, dice, tok, &lnext));
		lst = lnext;
		snprintf(n1, sizeof n1, "%d", dice);
		snprintf(n2, sizeof n2, "%d", tok);
		argv[0] = "LUDO.PLAY"; argv[1] = lid; argv[2] = pids[p];
		argv[3] = n1; argv[4] = n2;
		if (mc_cmd(a, c, want, 5, argv) == -1)
			goto out;
		/* Snake & Ladder. */
		dice = (int)(rnd(&seed) % 6) + 1;
		snl_res(&sst, dice, &snext, want, sizeof want);
		sst = snext;
		snprintf(n1, sizeof n1, "%d", dice);
		argv[0] = "SNL.ROLL"; argv[1] = sid; argv[2] = n1;
		if (mc_cmd(a, c, want, 3, argv) == -1)
			goto out;
		/* DandyLand, cards given. */
		card = CARDS[rnd(&seed) % (sizeof CARDS - 1)];
		dandy_res(&dst, card, &dnext, want, sizeof want);
		dst = dnext;
		snprintf(n1, sizeof n1, "%c", card);
		argv[0] = "DANDY.DRAW"; argv[1] = did; argv[2] = n1;
		if (mc_cmd(a, c, want, 3, argv) == -1)
			goto out;
	}
	ludo_state_lines(&lst, pids, lines, &n);
	if (mc_state(a, c, "LUDO.STATE", lid, lines, n) == -1)
		goto out;
	snl_state_lines(&sst, lines, &n);
	if (mc_state(a, c, "SNL.STATE", sid, lines, n) == -1)
		goto out;
	dandy_state_lines(&dst, lines, &n);
	if (mc_state(a, c, "DANDY.STATE", did, lines, n) == -1)
		goto out;
	rc = 0;
out:
	if (c != NULL)
		redisFree(c);
	return rc;
}

static void *
mc_thread(void *arg)
{
	mc_play(arg);
	return NULL;
}

static void
test_many_clients_match_engine(void **state)
{
	pthread_t	 th[MC_THREADS];
	struct mc_arg	 args[MC_THREADS];
	redisContext	*c;
	redisReply	*r;
	int		 i;

	(void)state;
	for (i = 0; i < MC_THREADS; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].idx = i;
		assert_int_equal(pthread_create(&th[i], NULL, mc_thread,
		    &args[i]), 0);
	}
	for (i = 0; i < MC_THREADS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < MC_THREADS; i++)
		if (args[i].err[0] != '\0')
			fail_msg("%s", args[i].err);
	c = hr_connect(D.port);
	r = RUN(c, "AUDIT");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 0);
	freeReplyObject(r);
	r = RUN(c, "GAMES", "LIMIT", "1000");
	assert_int_equal(r->elements, 3 * MC_THREADS);
	freeReplyObject(r);
	redisFree(c);
}

/* ---------------------------------------------------------- GAME.WATCH */

static void
test_resp3_push_while_playing(void **state)
{
	struct rconn	 r;
	redisContext	*b = hr_connect(D.port);
	struct reply	 rep;
	char		 got[1024];

	(void)state;
	raw_open(&r);
	raw_sends(&r, "HELLO 3\r\n");
	assert_true(rch_reply(&r, &rep));
	reply_flat(&rep, got, sizeof got);
	reply_free(&rep);
	assert_non_null(strstr(got, "%[$server $ludus $version "));
	assert_non_null(strstr(got, "$proto :3 $id :"));
	raw_sends(&r, "LUDO.CREATE p red blue\r\nGAME.WATCH p\r\n");
	rch_expect(&r, "+OK");
	rch_expect(&r, ">[$watch $p :1]");
	/* Its own move: the reply, then the event. */
	raw_sends(&r, "LUDO.PLAY p red 6 1\r\n");
	rch_expect(&r, "+MOVED");
	rch_expect(&r, ">[$move $p :1 $red $6:1 $MOVED]");
	/* Someone else's move arrives as a push too. */
	EXPECT(b, "MOVED", "LUDO.PLAY", "p", "red", "3", "1");
	rch_expect(&r, ">[$move $p :2 $red $3:1 $MOVED]");
	/* Still playing, still watching: RESP3 is no subscriber mode. */
	raw_sends(&r, "LUDO.PLAY p blue 4 0\r\nGAME.INFO nosuch\r\n");
	rch_expect(&r, "+PASSED");
	rch_expect(&r, ">[$move $p :3 $blue $4:0 $PASSED]");
	rch_expect_err(&r, "NOGAME");
	raw_sends(&r, "GAME.UNWATCH\r\nGAME.UNWATCH\r\n");
	rch_expect(&r, ">[$unwatch $p :0]");
	rch_expect(&r, ">[$unwatch (nil) :0]");
	EXPECT(b, "MOVED", "LUDO.PLAY", "p", "red", "2", "1");
	raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	redisFree(b);
}

static void
test_watch_resp2_subscriber_mode(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "OK", "LUDO.CREATE", "sub", "red", "blue");
	EXPECT_ERR(a, "NOGAME", "GAME.WATCH", "nosuch");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "Bad Id");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "sub", "FROM", "5");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "sub", "FROM", "-1");
	EXPECT_ERR(a, "ERR", "GAME.WATCH", "sub", "SINCE", "0");
	EXPECT_JOINED(a, "watch sub 1", "GAME.WATCH", "sub");
	EXPECT_ERR(a, "ERR Can't execute 'LUDO.STATE'", "LUDO.STATE", "sub");
	EXPECT_ERR(a, "ERR Can't execute", "INFO");
	EXPECT_JOINED(a, "pong ", "PING");
	EXPECT_JOINED(a, "pong hi", "PING", "hi");
	EXPECT(b, "MOVED", "LUDO.PLAY", "sub", "red", "6", "2");
	expect_next(a, "move sub 1 red 6:2 MOVED");
	EXPECT(b, "INVALID_MOVE", "LUDO.PLAY", "sub", "blue", "6", "2");
	EXPECT(b, "MOVED", "LUDO.PLAY", "sub", "red", "1", "2");
	expect_next(a, "move sub 2 red 1:2 MOVED");
	EXPECT_JOINED(a, "unwatch sub 0", "GAME.UNWATCH", "sub");
	EXPECT_JOINED(a, "turn,blue winner,NONE red,1,YARD,-1 "
	    "red,2,TRACK,1 red,3,YARD,-1 red,4,YARD,-1 blue,1,YARD,-1 "
	    "blue,2,YARD,-1 blue,3,YARD,-1 blue,4,YARD,-1", "LUDO.STATE",
	    "sub");
	redisFree(a);
	redisFree(b);
}

static void
draw_and_record(redisContext *b, const char *id, struct dandy_state *st,
    char events[][96], int seq, int card)
{
	struct dandy_state	 next;
	char			 want[64], cs[2] = { (char)card, 0 };

	dandy_res(st, card, &next, want, sizeof want);
	snprintf(events[seq], 96, "move %s %d P%d %s %s", id, seq,
	    st->turn + 1, cs, want);
	*st = next;
	EXPECT(b, want, "DANDY.DRAW", id, cs);
}

static void
test_watch_from_resume_across_restart(void **state)
{
	static const char *const extra[] = { "--durability", "normal", NULL };
	struct dandy_state	 st;
	char			 events[32][96];
	const char		*why;
	redisContext		*a, *b;
	int			 seq;

	(void)state;
	a = hr_connect(D.port);
	b = hr_connect(D.port);
	assert_int_equal(dandy_init(&st, 2, "abcd", NULL, &why), 0);
	EXPECT(b, "OK", "DANDY.CREATE", "w", "2", "abcd");
	EXPECT_JOINED(a, "watch w 1", "GAME.WATCH", "w");
	for (seq = 1; seq <= 5; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    CARDS[(seq * 7) % 18]);
	for (seq = 1; seq <= 5; seq++)
		expect_next(a, events[seq]);
	/* The watcher saw 5; the daemon restarts; moves go on without it. */
	redisFree(a);
	redisFree(b);
	assert_int_equal(daemon_restart(&D, extra), 0);
	b = hr_connect(D.port);
	for (seq = 6; seq <= 10; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    CARDS[(seq * 7) % 18]);
	a = hr_connect(D.port);
	EXPECT_JOINED(a, "watch w 1", "GAME.WATCH", "w", "FROM", "5");
	for (seq = 6; seq <= 10; seq++)
		expect_next(a, events[seq]);
	for (seq = 11; seq <= 15; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    CARDS[(seq * 7) % 18]);
	for (seq = 11; seq <= 15; seq++)
		expect_next(a, events[seq]);
	/* Nothing more: the next reply is the PING's. */
	EXPECT_JOINED(a, "pong ", "PING");
	redisFree(a);
	redisFree(b);
}

/*
 * A long backlog sent while new moves commit.  The watcher (RESP3) sends
 * GAME.WATCH FROM 0 and its own moves in one write: the daemon sends the first
 * part of the history, then commits those moves while the rest of the
 * history is still unsent, so their events must come from the history
 * reader, after the older ones.  Then another client adds moves while the
 * watcher still reads nothing.  Every seq arrives exactly once, in order,
 * and the watcher's own replies arrive in request order among them.
 */
static void
test_watch_backlog_while_committing(void **state)
{
	enum { BEFORE = 1500, OWN = 50, AFTER = 300 };
	enum { TOTAL = BEFORE + OWN + AFTER };
	struct dandy_state	 st, next;
	struct rconn		 r;
	struct reply		 rep;
	redisContext		*b = hr_connect(D.port);
	redisReply		*rr;
	char			 want[64], cs[2] = { 0, 0 }, got[256];
	char			 (*events)[128], (*results)[64], *req = NULL;
	const char		*why;
	size_t			 len = 0;
	int			 i, seq, own, tries;

	(void)state;
	events = calloc(TOTAL + 1, sizeof *events);
	results = calloc(TOTAL + 1, sizeof *results);
	assert_true(events != NULL && results != NULL);
	assert_int_equal(dandy_init(&st, 3, "abcdefghi", NULL, &why), 0);
	EXPECT(b, "OK", "DANDY.CREATE", "big", "3", "abcdefghi");
	for (i = 1; i <= TOTAL; i++) {
		cs[0] = CARDS[(i * 5) % 18];
		dandy_res(&st, cs[0], &next, results[i], sizeof results[i]);
		snprintf(events[i], 128, ">[$move $big :%d $P%d $%s $%s]", i,
		    st.turn + 1, cs, results[i]);
		st = next;
	}
	for (i = 1; i <= BEFORE; i++) {
		cs[0] = CARDS[(i * 5) % 18];
		redisAppendCommand(b, "DANDY.DRAW big %s", cs);
	}
	for (i = 1; i <= BEFORE; i++) {
		assert_int_equal(redisGetReply(b, (void **)&rr), REDIS_OK);
		freeReplyObject(rr);
	}
	/* One write: HELLO, GAME.WATCH, and the watcher's own moves. */
	raw_open(&r);
	req = strdup("HELLO 3\r\nGAME.WATCH big FROM 0\r\n");
	len = strlen(req);
	for (i = BEFORE + 1; i <= BEFORE + OWN; i++) {
		req = realloc(req, len + 32);
		len += (size_t)snprintf(req + len, 32, "DANDY.DRAW big %c\r\n",
		    CARDS[(i * 5) % 18]);
	}
	raw_send(&r, req, len);
	free(req);
	for (tries = 0; tries < 2000 && game_moves(b, "big") < BEFORE + OWN;
	    tries++)
		usleep(5000);
	assert_int_equal(game_moves(b, "big"), BEFORE + OWN);
	/* Moves of another client, the watcher still not reading. */
	for (i = BEFORE + OWN + 1; i <= TOTAL; i++) {
		cs[0] = CARDS[(i * 5) % 18];
		redisAppendCommand(b, "DANDY.DRAW big %s", cs);
	}
	for (i = BEFORE + OWN + 1; i <= TOTAL; i++) {
		assert_int_equal(redisGetReply(b, (void **)&rr), REDIS_OK);
		freeReplyObject(rr);
	}
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect(&r, ">[$watch $big :1]");
	for (seq = 1, own = BEFORE + 1; seq <= TOTAL || own <= BEFORE + OWN;) {
		assert_true(rch_reply(&r, &rep));
		reply_flat(&rep, got, sizeof got);
		if (rep.type == REPLY_PUSH) {
			if (seq > TOTAL || strcmp(got, events[seq]) != 0)
				fail_msg("event %d: expected '%s', got '%s'",
				    seq, seq <= TOTAL ? events[seq] : "none",
				    got);
			seq++;
		} else {
			snprintf(want, sizeof want, "+%s", results[own]);
			if (own > BEFORE + OWN || strcmp(got, want) != 0)
				fail_msg("reply %d: expected '%s', got '%s'",
				    own, want, got);
			own++;
		}
		reply_free(&rep);
	}
	/* No duplicate after the last one. */
	raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	free(events);
	free(results);
	redisFree(b);
}

/* ---------------------------------------------------------- durability */

static void
test_at_resend_after_dropped_connection(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	int		 tries;
	static const char *const hist1[] = { "1,red,6:1,MOVED" };
	static const char *const hist2[] = { "1,red,6:1,MOVED",
	    "2,red,3:1,MOVED" };

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "at", "red", "blue");
	/* A move whose reply the client never reads. */
	raw_open(&r);
	raw_sends(&r, "LUDO.PLAY at red 6 1 AT 0\r\n");
	rc_close(&r);
	for (tries = 0; game_moves(c, "at") != 1 && tries < 1000; tries++)
		usleep(10000);
	assert_int_equal(game_moves(c, "at"), 1);
	/* The resend on a new connection: the stored result, once. */
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "6", "1", "AT", "0");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "6", "1", "AT", "0");
	EXPECT_LINES(c, hist1, "HISTORY", "at");
	/* Another move claiming the same place is stale. */
	EXPECT_ERR(c, "STALE", "LUDO.PLAY", "at", "red", "5", "1", "AT", "0");
	EXPECT_ERR(c, "STALE", "LUDO.PLAY", "at", "red", "3", "1", "AT", "2");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "3", "1", "AT", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "3", "1", "AT", "1");
	EXPECT_LINES(c, hist2, "HISTORY", "at");
	redisFree(c);
}

/* Every STATE and HISTORY reply of the games, as one string. */
static char *
snapshot(redisContext *c, const char *const *games, const char *const *kinds)
{
	char		*s = NULL, *t, cmd[32];
	redisReply	*r;
	size_t		 i, j;

	s = strdup("");
	for (i = 0; games[i] != NULL; i++) {
		snprintf(cmd, sizeof cmd, "%s.STATE", kinds[i]);
		for (j = 0; j < 2; j++) {
			r = j == 0 ? RUN(c, cmd, games[i]) :
			    RUN(c, "HISTORY", games[i], "1", "10000");
			assert_int_equal(r->type, REDIS_REPLY_ARRAY);
			assert_true(asprintf(&t, "%s%s:\n%s\n", s, games[i],
			    hr_joined(r)) > 0);
			free(s);
			s = t;
			freeReplyObject(r);
		}
	}
	return s;
}

static void
test_state_intact_after_sigterm(void **state)
{
	static const char *const games[] = { "t-ludo", "t-snl", "t-dandy",
	    NULL };
	static const char *const kinds[] = { "LUDO", "SNL", "DANDY" };
	redisContext	*c = hr_connect(D.port);
	char		*before, *after;
	redisReply	*r;

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "t-ludo", "a", "b", "c",
	    "rules=extended");
	EXPECT(c, "MOVED", "LUDO.PLAY", "t-ludo", "a", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "t-ludo", "a", "5", "1");
	EXPECT(c, "PASSED", "LUDO.PLAY", "t-ludo", "b", "5", "0");
	EXPECT(c, "OK", "SNL.CREATE", "t-snl", "3");
	EXPECT(c, "OK", "SNL.LADDER", "t-snl", "2", "60");
	EXPECT(c, "P1 60", "SNL.ROLL", "t-snl", "2");
	EXPECT(c, "P2 5", "SNL.ROLL", "t-snl", "5");
	EXPECT(c, "OK", "DANDY.CREATE", "t-dandy", "2", "abcd",
	    "deck=ab12cd");
	EXPECT(c, "P1 1 0", "DANDY.DRAW", "t-dandy");
	EXPECT(c, "P2 2 0", "DANDY.DRAW", "t-dandy");
	before = snapshot(c, games, kinds);
	redisFree(c);
	assert_int_equal(daemon_restart(&D, NULL), 0);
	c = hr_connect(D.port);
	after = snapshot(c, games, kinds);
	assert_string_equal(before, after);
	r = RUN(c, "AUDIT");
	assert_int_equal(r->elements, 0);
	freeReplyObject(r);
	free(before);
	free(after);
	redisFree(c);
}

/*
 * SIGTERM while a client has a pipeline in flight: every request the
 * daemon ran got its reply, so the moves acknowledged are exactly the
 * moves stored.
 */
static void
test_sigterm_flushes_in_flight_replies(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	int		 i, acked = 0;

	(void)state;
	EXPECT(c, "OK", "DANDY.CREATE", "fl", "2", "abcdef");
	for (i = 0; i < 400; i++)
		assert_int_equal(redisAppendCommand(c, "DANDY.DRAW fl %b",
		    &CARDS[i % 18], (size_t)1), REDIS_OK);
	/* Send it all, then stop the daemon under it. */
	for (i = 0; ; i++) {
		int done = 0;

		assert_int_equal(redisBufferWrite(c, &done), REDIS_OK);
		if (done)
			break;
	}
	kill(D.pid, SIGTERM);
	while (redisGetReply(c, (void **)&r) == REDIS_OK && r != NULL) {
		assert_int_equal(r->type, REDIS_REPLY_STATUS);
		acked++;
		freeReplyObject(r);
	}
	redisFree(c);
	/* It is stopping already: wait, do not signal again. */
	assert_int_equal(daemon_stop(&D, 0), 0);
	assert_int_equal(daemon_start(&D, NULL), 0);
	c = hr_connect(D.port);
	assert_int_equal(game_moves(c, "fl"), acked);
	print_message("# %d of 400 moves acknowledged and stored\n", acked);
	redisFree(c);
}

#define K9_THREADS	4

struct k9_arg {
	int		 idx;
	int		 acked;
	char		 results[4096][64];
};

static void *
k9_thread(void *arg)
{
	struct k9_arg		*a = arg;
	struct dandy_state	 st, next;
	redisContext		*c;
	redisReply		*r;
	const char		*why;
	char			 id[32], want[64], cs[2] = { 0, 0 };
	int			 i;

	snprintf(id, sizeof id, "k9-%d", a->idx);
	dandy_init(&st, 2, "abcdefgh", NULL, &why);
	if ((c = redisConnect("127.0.0.1", D.port)) == NULL || c->err)
		return NULL;
	for (i = 1; i < 4096; i++) {
		cs[0] = CARDS[(i * (a->idx + 3)) % 18];
		dandy_res(&st, cs[0], &next, want, sizeof want);
		st = next;
		r = redisCommand(c, "DANDY.DRAW %s %s", id, cs);
		if (r == NULL)
			break;
		if (r->type == REDIS_REPLY_STATUS &&
		    strcmp(r->str, want) == 0) {
			snprintf(a->results[i], 128, "%d,P%d,%s,%s", i,
			    (i - 1) % 2 + 1, cs, want);
			__atomic_store_n(&a->acked, i, __ATOMIC_RELEASE);
		}
		freeReplyObject(r);
		if (a->acked != i)
			break;
	}
	redisFree(c);
	return NULL;
}

static void
test_kill9_keeps_acknowledged_moves(void **state)
{
	static struct k9_arg	 args[K9_THREADS];
	pthread_t		 th[K9_THREADS];
	redisContext		*c;
	redisReply		*r;
	char			 id[32];
	int			 i, j;

	(void)state;
	c = hr_connect(D.port);
	for (i = 0; i < K9_THREADS; i++) {
		snprintf(id, sizeof id, "k9-%d", i);
		EXPECT(c, "OK", "DANDY.CREATE", id, "2", "abcdefgh");
	}
	redisFree(c);
	for (i = 0; i < K9_THREADS; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].idx = i;
		assert_int_equal(pthread_create(&th[i], NULL, k9_thread,
		    &args[i]), 0);
	}
	/* Kill it once every client has had some moves acknowledged. */
	for (j = 0; j < 2000; j++) {
		for (i = 0; i < K9_THREADS; i++)
			if (__atomic_load_n(&args[i].acked,
			    __ATOMIC_ACQUIRE) < 20)
				break;
		if (i == K9_THREADS)
			break;
		usleep(5000);
	}
	assert_int_equal(daemon_stop(&D, SIGKILL), 128 + SIGKILL);
	for (i = 0; i < K9_THREADS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(daemon_start(&D, NULL), 0);
	c = hr_connect(D.port);
	for (i = 0; i < K9_THREADS; i++) {
		snprintf(id, sizeof id, "k9-%d", i);
		assert_true(args[i].acked > 0);
		r = RUN(c, "HISTORY", id, "1", "10000");
		/* Every acknowledged move, and at most one more whose
		 * reply was lost in the kill. */
		assert_true((int)r->elements >= args[i].acked);
		assert_true((int)r->elements <= args[i].acked + 1);
		for (j = 1; j <= args[i].acked; j++)
			assert_string_equal(r->element[j - 1]->str,
			    args[i].results[j]);
		freeReplyObject(r);
	}
	r = RUN(c, "AUDIT");
	assert_int_equal(r->elements, 0);
	freeReplyObject(r);
	redisFree(c);
}

/* ------------------------------------------------------- bad input */

/* Another client is served while one misbehaves. */
static void
still_served(redisContext *ok)
{
	EXPECT(ok, "PONG", "PING");
}

static void
bad_input(redisContext *ok, const char *input, size_t len,
    const char *prefix)
{
	struct rconn	 r;

	raw_open(&r);
	raw_send(&r, input, len);
	still_served(ok);
	rch_expect_err(&r, prefix);
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
}

static void
test_malformed_input_closes_only_that_client(void **state)
{
	static const char garbage[] = "\"\x01\xfe\xff\x7f oops\r\n";
	static const char binary[] = "\x00\x01\xfe\xff\x7f\"x\r\nPING\r\n";
	redisContext	*ok = hr_connect(D.port);
	struct rconn	 r;
	char		*big;
	size_t		 i;

	(void)state;
	bad_input(ok, "*abc\r\n", 6, "ERR Protocol error: invalid multibulk");
	bad_input(ok, "*1\r\n$-5\r\n", 9, "ERR Protocol error: invalid bulk");
	bad_input(ok, "*1\r\n$99999999999\r\n", 19, "LIMIT ");
	bad_input(ok, "*1\r\n$9999999999999999999999\r\n", 29, "");
	bad_input(ok, "*9999999\r\n", 10, "LIMIT ");
	bad_input(ok, "*1\r\n$4\r\nPINGxx\r\n", 16, "ERR Protocol error:");
	bad_input(ok, "*2\r\n:4\r\n", 8, "ERR Protocol error: expected '$'");
	bad_input(ok, garbage, sizeof garbage - 1, "ERR Protocol error:");
	/* Binary bytes on a line are just an unknown command. */
	raw_open(&r);
	raw_send(&r, binary, sizeof binary - 1);
	rch_expect_err(&r, "ERR unknown command");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	/* A line with no end is refused while it arrives. */
	big = malloc(70000);
	assert_non_null(big);
	memset(big, 'a', 70000);
	bad_input(ok, big, 70000, "LIMIT too big inline request");
	free(big);
	/* An HTTP request (a web page's: cross-protocol scripting) is
	 * closed before any of its lines runs, not served line by line;
	 * the other clients go on (tests/daemon/test_crossproto.sh has
	 * the attacks). */
	raw_open(&r);
	raw_sends(&r, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\nPING\r\n");
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
	/* Random bytes: errors or replies, never a crash. */
	raw_open(&r);
	big = malloc(4096);
	for (i = 0; i < 4096; i++)
		big[i] = (char)((i * 2654435761u) >> 13);
	raw_send(&r, big, 4096);
	free(big);
	rc_close(&r);
	still_served(ok);
	/* A huge bulk half sent does not stall anyone. */
	raw_open(&r);
	raw_sends(&r, "*1\r\n$100000000\r\n");
	big = calloc(1, 1 << 20);
	raw_send(&r, big, 1 << 20);
	free(big);
	still_served(ok);
	rc_close(&r);
	/* A request sent one byte at a time. */
	raw_open(&r);
	for (i = 0; i < 14; i++) {
		raw_send(&r, &"*1\r\n$4\r\nPING\r\n"[i], 1);
		usleep(1000);
	}
	rch_expect(&r, "+PONG");
	rc_close(&r);
	still_served(ok);
	redisFree(ok);
}

static void
test_inline_commands(void **state)
{
	struct rconn	 r;

	(void)state;
	raw_open(&r);
	raw_sends(&r, "LUDO.CREATE \"inl\" red blue\r\n"
	    "ludo.play inl red 6 1\n\r\n  \r\nECHO \"a b\\tc\"\r\n"
	    "ECHO 'x y'\r\nECHO \"\"\r\nECHO \"unbalanced\r\n");
	rch_expect(&r, "+OK");
	rch_expect(&r, "+MOVED");
	rch_expect(&r, "$a b\tc");
	rch_expect(&r, "$x y");
	rch_expect(&r, "$");
	rch_expect_err(&r, "ERR Protocol error: unbalanced quotes");
	rch_expect_eof(&r);
	rc_close(&r);
}

static void
test_quit_flushes_then_closes(void **state)
{
	struct rconn	 r;

	(void)state;
	raw_open(&r);
	raw_sends(&r, "PING\r\nECHO bye\r\nQUIT\r\nPING\r\n");
	rch_expect(&r, "+PONG");
	rch_expect(&r, "$bye");
	rch_expect(&r, "+OK");
	rch_expect_eof(&r);
	rc_close(&r);
}

/* ------------------------------------------------ slow readers, closes */

#define BIG_ECHO	(100 * 1000)	/* bytes: far over a 16 KB rcvbuf */

/* Sends a prepared pipeline from a thread while the test reads slowly:
 * the daemon stops reading while a megabyte of replies waits. */
struct sender {
	pthread_t	 tid;
	struct rconn	*r;
	const char	*buf;
	size_t		 len;
};

static void *
sender_main(void *arg)
{
	struct sender	*s = arg;

	raw_send(s->r, s->buf, s->len);
	return NULL;
}

static void
sender_start(struct sender *s, struct rconn *r, const char *buf, size_t len)
{
	s->r = r;
	s->buf = buf;
	s->len = len;
	assert_int_equal(pthread_create(&s->tid, NULL, sender_main, s), 0);
}

static void
append(char **buf, size_t *len, const void *p, size_t n)
{
	*buf = realloc(*buf, *len + n);
	assert_non_null(*buf);
	memcpy(*buf + *len, p, n);
	*len += n;
}

/* ECHO of n bytes: "<i>:" then the letter of i, so that a reply out of
 * place or cut short shows. */
static void
append_big_echo(char **buf, size_t *len, int i, size_t n)
{
	char	 head[64], *arg;
	int	 k;

	arg = malloc(n);
	assert_non_null(arg);
	memset(arg, 'a' + i % 26, n);
	k = snprintf(head, sizeof head, "%d:", i);
	memcpy(arg, head, (size_t)k);
	k = snprintf(head, sizeof head, "*2\r\n$4\r\nECHO\r\n$%zu\r\n", n);
	append(buf, len, head, (size_t)k);
	append(buf, len, arg, n);
	append(buf, len, "\r\n", 2);
	free(arg);
}

static void
check_big_echo(const struct reply *rep, int i, size_t n)
{
	char	 head[64];
	size_t	 j, k;

	assert_int_equal(rep->type, REPLY_BULK);
	assert_int_equal(rep->len, n);
	k = (size_t)snprintf(head, sizeof head, "%d:", i);
	if (memcmp(rep->str, head, k) != 0)
		fail_msg("big reply %d: starts with '%.8s'", i, rep->str);
	for (j = k; j < n; j++)
		if (rep->str[j] != 'a' + i % 26)
			fail_msg("big reply %d: byte %zu is '%c'", i, j,
			    rep->str[j]);
}

/*
 * Replies far bigger than the socket buffer, pipelined with moves (whose
 * replies wait for the group commit) to a client that reads slowly: every
 * one arrives complete and in order, the last one (QUIT's) too, then the
 * close.  10 MB is more than the kernel buffers hold (tcp_wmem's 4 MB at
 * most), so the daemon has writes the kernel takes only in part, and
 * stops and resumes reading the client.
 */
static void
test_big_replies_reach_a_slow_reader_in_order(void **state)
{
	redisContext		*c = hr_connect(D.port);
	struct snl_state	 snl, next;
	struct rconn		 r;
	struct sender		 snd;
	struct reply		 rep;
	char			*buf = NULL, want[64], line[128];
	size_t			 len = 0;
	int			 i, k, n = 300;

	(void)state;
	EXPECT(c, "OK", "SNL.CREATE", "slow", "3");
	assert_int_equal(snl_init(&snl, 3), 0);
	for (i = 0; i < n; i++) {
		switch (i % 3) {
		case 0:
			append_big_echo(&buf, &len, i, BIG_ECHO + (size_t)i);
			break;
		case 1:
			k = snprintf(line, sizeof line, "SNL.ROLL slow %d\r\n",
			    i % 6 + 1);
			append(&buf, &len, line, (size_t)k);
			break;
		default:
			k = snprintf(line, sizeof line, "ECHO m-%d\r\n", i);
			append(&buf, &len, line, (size_t)k);
			break;
		}
	}
	append(&buf, &len, "QUIT\r\nPING\r\n", 12);
	assert_int_equal(rc_open_rcvbuf(&r, D.port, 16 * 1024), 0);
	sender_start(&snd, &r, buf, len);
	/* Let the output pile up before reading any of it. */
	rc_sleep_ms(300);
	for (i = 0; i < n; i++) {
		assert_true(rch_reply(&r, &rep));
		switch (i % 3) {
		case 0:
			check_big_echo(&rep, i, BIG_ECHO + (size_t)i);
			break;
		case 1:
			snl_res(&snl, i % 6 + 1, &next, want, sizeof want);
			snl = next;
			assert_int_equal(rep.type, REPLY_STATUS);
			if (strcmp(rep.str, want) != 0)
				fail_msg("reply %d: expected '%s', got '%s'",
				    i, want, rep.str);
			break;
		default:
			snprintf(want, sizeof want, "m-%d", i);
			assert_int_equal(rep.type, REPLY_BULK);
			assert_string_equal(rep.str, want);
			break;
		}
		reply_free(&rep);
		if (i % 4 == 0)
			rc_sleep_ms(5);
	}
	rch_expect(&r, "+OK");
	rch_expect_eof(&r);
	assert_int_equal(pthread_join(snd.tid, NULL), 0);
	rc_close(&r);
	free(buf);
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/*
 * A line over proto-max-inline behind a reply the client has not read
 * yet, bigger than the kernel buffers: the big reply, the next, the
 * -LIMIT, then the close, all delivered.
 */
static void
test_limit_close_delivers_the_last_replies(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	struct sender	 snd;
	char		*buf = NULL;
	size_t		 len = 0, n = 100 * 1024;
	struct reply	 rep;
	char		*line;

	(void)state;
	line = malloc(n);
	assert_non_null(line);
	memset(line, 'y', n);
	append_big_echo(&buf, &len, 7, 80 * BIG_ECHO);
	append(&buf, &len, "ECHO last\r\n", 11);
	append(&buf, &len, line, n);
	free(line);
	assert_int_equal(rc_open_rcvbuf(&r, D.port, 16 * 1024), 0);
	sender_start(&snd, &r, buf, len);
	rc_sleep_ms(300);
	assert_true(rch_reply(&r, &rep));
	check_big_echo(&rep, 7, 80 * BIG_ECHO);
	reply_free(&rep);
	rch_expect(&r, "$last");
	rch_expect_err(&r, "LIMIT");
	rch_expect_eof(&r);
	assert_int_equal(pthread_join(snd.tid, NULL), 0);
	rc_close(&r);
	free(buf);
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/* ------------------------------------------------------- introspection */

static void
test_hello_switches_protocol(void **state)
{
	struct rconn	 r;
	struct reply	 rep;
	char		 got[1024];

	(void)state;
	raw_open(&r);
	raw_sends(&r, "HELLO 4\r\nHELLO x\r\nHELLO 3 AUTH a b\r\nHELLO\r\n");
	rch_expect_err(&r, "NOPROTO unsupported protocol version");
	rch_expect_err(&r, "ERR Protocol version");
	/* HELLO takes AUTH now: a user that is not "default" is refused. */
	rch_expect_err(&r, "WRONGPASS invalid username-password pair");
	/* RESP2: the map is a flat array. */
	assert_true(rch_reply(&r, &rep));
	reply_flat(&rep, got, sizeof got);
	reply_free(&rep);
	assert_non_null(strstr(got, "[$server $ludus $version $"));
	assert_non_null(strstr(got, "$proto :2 $id :"));
	assert_non_null(strstr(got,
	    "$mode $standalone $role $master $modules []]"));
	raw_sends(&r, "HELLO 3 SETNAME me\r\nGAME.INFO nosuch\r\n"
	    "DANDY.PLAY 2 abab9abcaa abab\r\nHELLO 2\r\n");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect_err(&r, "NOGAME");
	rch_expect(&r, "[:3 :1]");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_ARRAY);
	reply_free(&rep);
	rc_close(&r);
}

static void
test_info_fields(void **state)
{
	static const char *const fields[] = { "# Server\r\n",
	    "ludus_version:" PACKAGE_VERSION "\r\n", "uptime_in_seconds:",
	    "# Clients\r\n", "connected_clients:1\r\n", "maxclients:",
	    "# Stats\r\n", "turns_committed:1\r\n", "commits:2\r\n",
	    "total_net_input_bytes:", "total_net_output_bytes:",
	    "# Persistence\r\n", "durability:normal\r\n", "store_size:",
	    "store_errors:0\r\n", "# Games\r\n", "games_ludo:1\r\n",
	    "games_snl:0\r\n", "games_dandy:0\r\n", "games_total:1\r\n" };
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	size_t		 i;

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "inf", "red", "blue");
	EXPECT(c, "MOVED", "LUDO.PLAY", "inf", "red", "6", "1");
	r = RUN(c, "INFO");
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	for (i = 0; i < NELEM(fields); i++)
		if (strstr(r->str, fields[i]) == NULL)
			fail_msg("INFO lacks '%s':\n%s", fields[i], r->str);
	freeReplyObject(r);
	r = RUN(c, "INFO", "games");
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	assert_true(strncmp(r->str, "# Games\r\n", 9) == 0);
	assert_null(strstr(r->str, "# Server"));
	freeReplyObject(r);
	redisFree(c);
}

static void
test_command_describes_every_command(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	long long	 count;
	size_t		 i;
	int		 seen_play = 0, seen_watch = 0;

	(void)state;
	r = RUN(c, "COMMAND", "COUNT");
	assert_int_equal(r->type, REDIS_REPLY_INTEGER);
	count = r->integer;
	freeReplyObject(r);
	assert_true(count >= 27);
	r = RUN(c, "COMMAND");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, count);
	for (i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];

		/* What redis-cli checks before it trusts an entry. */
		assert_int_equal(e->type, REDIS_REPLY_ARRAY);
		assert_true(e->elements >= 4);
		assert_int_equal(e->element[0]->type, REDIS_REPLY_STRING);
		assert_int_equal(e->element[1]->type, REDIS_REPLY_INTEGER);
		assert_int_equal(e->element[3]->type, REDIS_REPLY_INTEGER);
		seen_play |= strcmp(e->element[0]->str, "ludo.play") == 0;
		seen_watch |= strcmp(e->element[0]->str, "game.watch") == 0;
	}
	assert_true(seen_play && seen_watch);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "INFO", "LUDO.PLAY", "nosuch");
	assert_int_equal(r->elements, 2);
	assert_string_equal(r->element[0]->element[0]->str, "ludo.play");
	assert_int_equal(r->element[1]->type, REDIS_REPLY_NIL);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "DOCS");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 2 * count);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "LIST");
	assert_int_equal(r->elements, count);
	freeReplyObject(r);
	EXPECT_ERR(c, "ERR unknown subcommand", "COMMAND", "FROB");
	EXPECT_ERR(c, "ERR wrong number of arguments for 'ECHO'", "ECHO");
	EXPECT_ERR(c, "ERR unknown command", "FROB");
	redisFree(c);
}

/* --------------------------------------------------------------- limits */

static void
test_maxclients_refuses_the_next(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port), *c;
	struct rconn	 r;
	int		 tries;

	(void)state;
	still_served(a);
	still_served(b);
	raw_open(&r);
	rch_expect_err(&r, "LIMIT max number of clients reached");
	rch_expect_eof(&r);
	rc_close(&r);
	redisFree(a);
	/* Once one has gone, a new one is welcome again. */
	for (tries = 0; tries < 500; tries++) {
		redisReply *rep;

		c = hr_connect(D.port);
		rep = redisCommand(c, "PING");
		if (rep != NULL && rep->type == REDIS_REPLY_STATUS) {
			freeReplyObject(rep);
			redisFree(c);
			break;
		}
		if (rep != NULL)
			freeReplyObject(rep);
		redisFree(c);
		usleep(10000);
	}
	assert_true(tries < 500);
	redisFree(b);
}

/* A reply bigger than client-output-limit costs the client its
 * connection, and nobody else anything. */
static void
test_output_limit_drops_the_client(void **state)
{
	redisContext	*ok = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;
	char		*big, *req;
	size_t		 n = 200 * 1024;

	(void)state;
	big = malloc(n);
	req = malloc(n + 64);
	assert_true(big != NULL && req != NULL);
	memset(big, 'x', n);
	raw_open(&r);
	snprintf(req, 64, "*2\r\n$4\r\nECHO\r\n$%d\r\n", 50 * 1024);
	raw_sends(&r, req);
	raw_send(&r, big, 50 * 1024);
	raw_sends(&r, "\r\n");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_BULK);
	assert_int_equal(rep.len, 50 * 1024);
	reply_free(&rep);
	rc_close(&r);
	raw_open(&r);
	snprintf(req, 64, "*2\r\n$4\r\nECHO\r\n$%zu\r\n", n);
	raw_sends(&r, req);
	raw_send(&r, big, n);
	raw_sends(&r, "\r\n");
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
	free(big);
	free(req);
	redisFree(ok);
}

static void
test_idle_timeout_spares_watchers(void **state)
{
	redisContext	*w = hr_connect(D.port);
	struct rconn	 r;

	(void)state;
	EXPECT(w, "OK", "LUDO.CREATE", "idle", "red", "blue");
	EXPECT_JOINED(w, "watch idle 1", "GAME.WATCH", "idle");
	raw_open(&r);
	raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rch_expect_eof(&r);	/* within HR_TIMEOUT_MS; timeout is 1s */
	rc_close(&r);
	sleep(1);
	EXPECT_JOINED(w, "pong ", "PING");
	redisFree(w);
}

static void
test_sighup_reopens_log(void **state)
{
	char		 path[PATH_MAX + 16], moved[PATH_MAX + 32];
	const char	*extra[] = { "--logfile", path, NULL };
	FILE		*f;
	char		 line[512];
	int		 tries, found = 0;

	(void)state;
	snprintf(path, sizeof path, "%s/hup.log", D.dir);
	snprintf(moved, sizeof moved, "%s/hup.log.1", D.dir);
	assert_int_equal(daemon_restart(&D, extra), 0);
	assert_int_equal(rename(path, moved), 0);
	kill(D.pid, SIGHUP);
	for (tries = 0; tries < 500 && !found; tries++) {
		usleep(10000);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL)
			found |= strstr(line, "reopened") != NULL;
		fclose(f);
	}
	assert_true(found);
	assert_int_equal(daemon_stop(&D, SIGTERM), 0);
	/* The stop went to the new file. */
	f = fopen(path, "r");
	assert_non_null(f);
	found = 0;
	while (fgets(line, sizeof line, f) != NULL)
		found |= strstr(line, "stopped") != NULL;
	fclose(f);
	assert_true(found);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seed_ludo_examples,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_seed_snl_examples,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_seed_dandy_examples,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_pipeline_thousand_in_order, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_many_clients_match_engine, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_resp3_push_while_playing,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_watch_resp2_subscriber_mode, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_watch_from_resume_across_restart, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_watch_backlog_while_committing, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_at_resend_after_dropped_connection, setup_full,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_state_intact_after_sigterm, setup_full, teardown),
		cmocka_unit_test_setup_teardown(
		    test_sigterm_flushes_in_flight_replies, setup_full,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_kill9_keeps_acknowledged_moves, setup_full,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_malformed_input_closes_only_that_client,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_inline_commands,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_quit_flushes_then_closes,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_big_replies_reach_a_slow_reader_in_order, setup_full,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_limit_close_delivers_the_last_replies, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hello_switches_protocol,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_info_fields,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_command_describes_every_command, setup_normal,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_maxclients_refuses_the_next, setup_maxclients,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_output_limit_drops_the_client, setup_output_limit,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_idle_timeout_spares_watchers, setup_timeout, teardown),
		cmocka_unit_test_setup_teardown(test_sighup_reopens_log,
		    setup_normal, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
