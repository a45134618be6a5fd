/*
 * ludusd as a black box: each test starts the real daemon on a port the
 * kernel picks, with a database in a fresh temporary directory, and talks
 * to it with hiredis (RESP2) or a raw socket read with the RESP reply
 * parser through tests/rclient.c (RESP3, malformed input).  Game results
 * are predicted with the rules engine.  The teardown stops the daemon
 * with SIGTERM and requires exit status 0, so a sanitizer report or a
 * leak in the daemon fails the test that caused it.  GAME.WATCH and
 * durability are in test_daemon_watch.c, the wire and the limits in
 * test_daemon_wire.c.
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
#include "test_daemon.h"

struct daemon	 D;

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
void
td_expect_str(redisContext *c, const char *want, const char *first, ...)
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

/* An error reply starting with prefix. */
void
td_expect_err(redisContext *c, const char *prefix, const char *first, ...)
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

void
td_expect_lines(redisContext *c, const char *const *want, size_t n,
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

void
td_expect_joined(redisContext *c, const char *want, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	hr_check_joined(r, want, HR_ARRAY, first);
}

/* ----------------------------------------------------- raw connections */

/* tests/rclient.c, failing the test where it would wait too long. */
void
td_raw_open(struct rconn *r)
{
	assert_int_equal(rc_open(r, D.port), 0);
}

/* Sends everything; a peer that closed early is not an error here. */
void
td_raw_send(struct rconn *r, const void *p, size_t n)
{
	(void)rc_write(r, p, n);
}

void
td_raw_sends(struct rconn *r, const char *s)
{
	td_raw_send(r, s, strlen(s));
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

void
td_snl_res(const struct snl_state *st, int value, struct snl_state *next,
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
void
td_dandy_res(const struct dandy_state *st, int card, struct dandy_state *next,
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

const char td_cards[] = "abcdefghi123456789";

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
		td_snl_res(&sst, dice, &snext, want, sizeof want);
		sst = snext;
		snprintf(n1, sizeof n1, "%d", dice);
		argv[0] = "SNL.ROLL"; argv[1] = sid; argv[2] = n1;
		if (mc_cmd(a, c, want, 3, argv) == -1)
			goto out;
		/* DandyLand, cards given. */
		card = td_cards[rnd(&seed) % (sizeof td_cards - 1)];
		td_dandy_res(&dst, card, &dnext, want, sizeof want);
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
		    test_half_close_keeps_own_events, setup_normal, teardown),
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
