/*
 * Group commit in the real ludusd, as a black box.  Turns that
 * reach the daemon in one pass of its event loop share one transaction:
 * to put requests of several connections in one pass without any timing
 * luck, the daemon is stopped (SIGSTOP), the requests are written, and it
 * is continued: its next epoll_wait() finds every one of them ready.
 *
 * Failures are made with the database itself, through a second SQLite
 * connection while the daemon is stopped cleanly: a trigger that refuses
 * the history row of one game (a turn that fails alone), and a deferred
 * foreign key that only the COMMIT checks (a COMMIT that fails, taking
 * the whole batch).  Nothing in ludusd exists for the tests.
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
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>
#include <sqlite3.h>

#include "engine/engine.h"
#include "batch_helper.h"
#include "daemon_helper.h"
#include "hiredis_helper.h"

static struct daemon	 D;

/* A pass of the loop must not be cut by the time cap on a slow machine
 * (sanitizers): only the tests of caps set one. */
static const char *const normal_flags[] = { "--durability", "normal",
    "--batch-max-usec", "0", NULL };
static const char *const full_flags[] = { "--batch-max-usec", "0", NULL };
static const char *const one_flags[] = { "--durability", "normal",
    "--batch-max-turns", "1", NULL };
static const char *const four_flags[] = { "--durability", "normal",
    "--batch-max-turns", "4", "--batch-max-usec", "0", NULL };
/* Any two turns are more than a microsecond apart. */
static const char *const usec_flags[] = { "--durability", "normal",
    "--batch-max-usec", "1", NULL };

/* ---------------------------------------------------------- fixtures */

/* fsync is not what most of these test: durability normal. */
static int
setup_normal(void **state)
{
	(void)state;
	return daemon_launch(&D, normal_flags);
}

static int
setup_full(void **state)
{
	(void)state;
	return daemon_launch(&D, full_flags);
}

static int
setup_one_per_batch(void **state)
{
	(void)state;
	return daemon_launch(&D, one_flags);
}

static int
setup_four_per_batch(void **state)
{
	(void)state;
	return daemon_launch(&D, four_flags);
}

static int
setup_usec_cap(void **state)
{
	(void)state;
	return daemon_launch(&D, usec_flags);
}

/* A failed test may leave the daemon stopped: daemon_finish continues
 * it before SIGTERM. */
static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* Group commit's helpers (tests/lib/batch_helper.h) on this daemon. */
static void
daemon_pause(void)
{
	bh_pause(&D);
}

static void
daemon_resume(void)
{
	bh_resume(&D);
}

/* --------------------------------------------------------------- tests */

/*
 * Moves of six connections for six games, in one pass: one COMMIT for
 * all of them, and a watcher gets its game's event after it.
 */
static void
test_batch_spans_connections(void **state)
{
	redisContext	*cs[6], *w;
	struct counters	 k0, k1;
	char		 id[16];
	int		 i;

	(void)state;
	for (i = 0; i < 6; i++) {
		cs[i] = hr_connect(D.port);
		snprintf(id, sizeof id, "g%d", i);
		EXPECT(cs[i], "+OK", "SNL.CREATE", id, "2");
	}
	w = hr_connect(D.port);
	EXPECT(w, "[$watch $g0 :1]", "GAME.WATCH", "g0");
	ping_all(cs, 6);
	counters(cs[0], &k0);

	daemon_pause();
	for (i = 0; i < 6; i++) {
		snprintf(id, sizeof id, "g%d", i);
		APPEND(cs[i], "SNL.ROLL", id, "3");
		send_all(cs[i]);
	}
	daemon_resume();
	for (i = 0; i < 6; i++)
		expect_next(cs[i], "+P1 3", 0);
	expect_next(w, "[$move $g0 :1 $P1 $3 $P1 3]", 0);

	counters(cs[0], &k1);
	assert_int_equal(k1.turns - k0.turns, 6);
	assert_int_equal(k1.commits - k0.commits, 1);
	assert_int_equal(k1.batches - k0.batches, 1);
	assert_true(k1.largest >= 6);
	assert_int_equal(k1.failures, 0);
	for (i = 0; i < 6; i++)
		redisFree(cs[i]);
	redisFree(w);
}

/* The result of an SNL roll and of a DandyLand draw, from the engine. */
static void
snl_res(struct snl_state *st, int value, char *buf, size_t len)
{
	struct snl_state	 next = *st;
	struct snl_result	 r;

	assert_int_equal(snl_roll(st, value, &next, &r), 0);
	if (r.outcome == SNL_GAME_OVER)
		snprintf(buf, len, "+GAME_OVER");
	else if (r.outcome == SNL_WON)
		snprintf(buf, len, "+P%d WINS", r.player + 1);
	else
		snprintf(buf, len, "+P%d %d", r.player + 1, r.pos);
	*st = next;
}

static void
snl_state_flat(const struct snl_state *st, char *buf, size_t len)
{
	size_t	 n;
	int	 i;

	n = (size_t)snprintf(buf, len, "[+turn,");
	n += (size_t)(st->turn >= 0 ? snprintf(buf + n, len - n, "P%d",
	    st->turn + 1) : snprintf(buf + n, len - n, "NONE"));
	n += (size_t)(st->winner >= 0 ? snprintf(buf + n, len - n,
	    " +winner,P%d", st->winner + 1) : snprintf(buf + n, len - n,
	    " +winner,NONE"));
	for (i = 0; i < st->nplayers; i++)
		n += (size_t)snprintf(buf + n, len - n, " +P%d,%d", i + 1,
		    st->pos[i]);
	for (i = 1; i <= SNL_CELLS; i++)
		if (st->jump[i] != 0)
			n += (size_t)snprintf(buf + n, len - n, " +%s,%d,%d",
			    st->jump[i] < i ? "snake" : "ladder", i,
			    st->jump[i]);
	snprintf(buf + n, len - n, "]");
}

static void
dandy_res(struct dandy_state *st, int card, char *buf, size_t len)
{
	struct dandy_state	 next = *st;
	struct dandy_result	 r;

	assert_int_equal(dandy_draw(st, card, &next, &r), 0);
	if (r.game_over)
		snprintf(buf, len, "+GAME_OVER");
	else if (r.pos < 0)
		snprintf(buf, len, "+P%d OFF %d", r.player + 1, r.points);
	else
		snprintf(buf, len, "+P%d %d %d", r.player + 1, r.pos + 1,
		    r.points);
	*st = next;
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char CARDS[] = "abcdefghi123456789";

#define PIPE_MOVES	100
#define PIPE_MAX	(4 * PIPE_MOVES)

/*
 * One connection pipelines 100 moves of two games mixed with reads,
 * errors, an AT resend and PINGs: every reply is the one the engine
 * predicts, in request order, reads seeing the moves before them, though
 * the moves share commits.
 */
static void
test_batch_pipeline_keeps_order(void **state)
{
	redisContext		*c = hr_connect(D.port);
	struct snl_state	 snl;
	struct dandy_state	 dandy;
	struct counters		 k0, k1;
	char			 (*want)[512], arg[16], seq[16], last[64];
	uint64_t		 seed = 7;
	int			 i, n = 0, card, v, lastv = 0, moves = 0;
	int			 pmoves = 0;

	(void)state;
	want = calloc(PIPE_MAX, sizeof *want);
	assert_non_null(want);
	EXPECT(c, "+OK", "SNL.CREATE", "p", "3");
	EXPECT(c, "+OK", "SNL.LADDER", "p", "4", "60");
	EXPECT(c, "+OK", "SNL.SNAKE", "p", "30", "7");
	EXPECT(c, "+OK", "DANDY.CREATE", "d", "2", "abcdefghiabcdefghi");
	assert_int_equal(snl_init(&snl, 3), 0);
	assert_int_equal(snl_add_ladder(&snl, 4, 60, NULL), 0);
	assert_int_equal(snl_add_snake(&snl, 30, 7, NULL), 0);
	assert_int_equal(dandy_init(&dandy, 2, "abcdefghiabcdefghi", NULL,
	    NULL), 0);
	counters(c, &k0);

	for (i = 0; i < PIPE_MOVES; i++) {
		if (i % 2 == 0) {
			v = (int)(rnd(&seed) % 6) + 1;
			snprintf(arg, sizeof arg, "%d", v);
			APPEND(c, "SNL.ROLL", "p", arg);
			snl_res(&snl, v, want[n], sizeof want[0]);
			/* A roll after the end is not a move. */
			if (strcmp(want[n], "+GAME_OVER") != 0) {
				snprintf(last, sizeof last, "%s", want[n]);
				lastv = v;
				pmoves++;
				moves++;
			}
			n++;
		} else {
			card = CARDS[rnd(&seed) % (sizeof CARDS - 1)];
			snprintf(arg, sizeof arg, "%c", card);
			APPEND(c, "DANDY.DRAW", "d", arg);
			dandy_res(&dandy, card, want[n], sizeof want[0]);
			if (strcmp(want[n], "+GAME_OVER") != 0)
				moves++;
			n++;
		}
		if (i % 10 == 4) {
			APPEND(c, "SNL.STATE", "p");
			snl_state_flat(&snl, want[n++], sizeof want[0]);
		}
		if (i % 10 == 7) {
			APPEND(c, "PING");
			snprintf(want[n++], sizeof want[0], "+PONG");
			APPEND(c, "NOSUCH.COMMAND", "x");
			snprintf(want[n++], sizeof want[0],
			    "-ERR unknown command 'NOSUCH.COMMAND'");
		}
		if (i % 25 == 12) {
			/* A resend of the last move (not committed yet): its
			 * stored result; another value at that seq: stale. */
			snprintf(seq, sizeof seq, "%d", pmoves - 1);
			snprintf(arg, sizeof arg, "%d", lastv);
			APPEND(c, "SNL.ROLL", "p", arg, "AT", seq);
			snprintf(want[n++], sizeof want[0], "%s", last);
			snprintf(arg, sizeof arg, "%d", lastv % 6 + 1);
			APPEND(c, "SNL.ROLL", "p", arg, "AT", seq);
			snprintf(want[n++], sizeof want[0], "-STALE game 'p'");
		}
	}
	APPEND(c, "GAME.INFO", "nosuch");
	snprintf(want[n++], sizeof want[0], "-NOGAME no such game 'nosuch'");
	for (i = 0; i < n; i++)
		expect_next(c, want[i], want[i][0] == '-');

	counters(c, &k1);
	assert_int_equal(k1.turns - k0.turns, moves);
	/* They did share commits. */
	assert_true(k1.commits - k0.commits < k1.turns - k0.turns);
	assert_true(k1.largest > 1);
	free(want);
	redisFree(c);
}

/* Many connections pipelining moves at once, every reply checked. */
#define MC_CONNS	8
#define MC_ROUNDS	12
#define MC_DEPTH	10

struct mc_arg {
	int	 idx;
	int	 port;
	char	 err[256];
};

static void *
mc_thread(void *arg)
{
	struct mc_arg		*a = arg;
	struct dandy_state	 st;
	redisContext		*c;
	redisReply		*r;
	char			 id[16], card[2] = "a", got[4096];
	uint64_t		 seed = 1000 + (uint64_t)a->idx;
	int			 round, i;

	if ((c = hr_open(a->port)) == NULL) {
		snprintf(a->err, sizeof a->err, "connect failed");
		goto out;
	}
	snprintf(id, sizeof id, "mc%d", a->idx);
	if (dandy_init(&st, 3, "abcdefghiabcdefghiabcdefghi", NULL,
	    NULL) != 0) {
		snprintf(a->err, sizeof a->err, "dandy_init");
		goto out;
	}
	for (round = 0; round < MC_ROUNDS; round++) {
		char	 wants[MC_DEPTH][64];

		for (i = 0; i < MC_DEPTH; i++) {
			struct dandy_state	 next = st;
			struct dandy_result	 res;

			card[0] = CARDS[rnd(&seed) % (sizeof CARDS - 1)];
			redisAppendCommand(c, "DANDY.DRAW %s %s", id, card);
			if (dandy_draw(&st, card[0], &next, &res) != 0) {
				snprintf(a->err, sizeof a->err, "engine");
				goto out;
			}
			if (res.game_over)
				snprintf(wants[i], 64, "+GAME_OVER");
			else if (res.pos < 0)
				snprintf(wants[i], 64, "+P%d OFF %d",
				    res.player + 1, res.points);
			else
				snprintf(wants[i], 64, "+P%d %d %d",
				    res.player + 1, res.pos + 1, res.points);
			st = next;
		}
		for (i = 0; i < MC_DEPTH; i++) {
			r = NULL;
			if (redisGetReply(c, (void **)&r) != REDIS_OK ||
			    r == NULL) {
				snprintf(a->err, sizeof a->err, "no reply");
				goto out;
			}
			flat(r, got, sizeof got);
			freeReplyObject(r);
			if (strcmp(got, wants[i]) != 0) {
				snprintf(a->err, sizeof a->err,
				    "%s round %d: got '%.64s', want '%.64s'",
				    id, round, got, wants[i]);
				goto out;
			}
		}
	}
out:
	if (c != NULL)
		redisFree(c);
	return NULL;
}

static void
test_batch_concurrent_pipelines(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct mc_arg	 args[MC_CONNS];
	pthread_t	 th[MC_CONNS];
	struct counters	 k0, k1;
	char		 id[16];
	int		 i;

	(void)state;
	for (i = 0; i < MC_CONNS; i++) {
		snprintf(id, sizeof id, "mc%d", i);
		EXPECT(c, "+OK", "DANDY.CREATE", id, "3",
		    "abcdefghiabcdefghiabcdefghi");
	}
	counters(c, &k0);
	for (i = 0; i < MC_CONNS; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].idx = i;
		args[i].port = D.port;
		assert_int_equal(pthread_create(&th[i], NULL, mc_thread,
		    &args[i]), 0);
	}
	for (i = 0; i < MC_CONNS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < MC_CONNS; i++)
		if (args[i].err[0] != '\0')
			fail_msg("client %d: %s", i, args[i].err);
	counters(c, &k1);
	assert_int_equal(k1.turns - k0.turns, MC_CONNS * MC_ROUNDS * MC_DEPTH);
	assert_true(k1.commits - k0.commits < k1.turns - k0.turns);
	assert_true(k1.largest > 1);
	print_message("# %llu turns in %llu commits, largest batch %llu\n",
	    k1.turns - k0.turns, k1.commits - k0.commits, k1.largest);
	redisFree(c);
}

/*
 * A turn the database refuses (its history row fails a trigger, as a
 * CHECK would) fails alone: the turns around it, from other connections,
 * in the same batch, commit.
 */
static void
test_batch_turn_fails_alone(void **state)
{
	redisContext	*cs[3];
	struct counters	 k0, k1;
	int		 i;

	(void)state;
	cs[0] = hr_connect(D.port);
	EXPECT(cs[0], "+OK", "SNL.CREATE", "a", "2");
	EXPECT(cs[0], "+OK", "SNL.CREATE", "poison", "2");
	EXPECT(cs[0], "+OK", "SNL.CREATE", "c", "2");
	redisFree(cs[0]);
	bh_poison(&D, "poison");
	for (i = 0; i < 3; i++)
		cs[i] = hr_connect(D.port);
	ping_all(cs, 3);
	counters(cs[0], &k0);

	daemon_pause();
	APPEND(cs[0], "SNL.ROLL", "a", "3");
	APPEND(cs[0], "SNL.ROLL", "a", "5");
	APPEND(cs[0], "SNL.STATE", "a");
	send_all(cs[0]);
	APPEND(cs[1], "SNL.ROLL", "poison", "3");
	APPEND(cs[1], "SNL.STATE", "poison");
	send_all(cs[1]);
	APPEND(cs[2], "SNL.ROLL", "c", "4");
	APPEND(cs[2], "SNL.ROLL", "c", "2");
	send_all(cs[2]);
	daemon_resume();
	expect_next(cs[0], "+P1 3", 0);
	expect_next(cs[0], "+P2 5", 0);
	expect_next(cs[0], "[+turn,P1 +winner,NONE +P1,3 +P2,5]", 0);
	expect_next(cs[1], "-STORE save_turn: poisoned row", 0);
	expect_next(cs[1], "[+turn,P1 +winner,NONE +P1,0 +P2,0]", 0);
	expect_next(cs[2], "+P1 4", 0);
	expect_next(cs[2], "+P2 2", 0);

	counters(cs[0], &k1);
	assert_int_equal(k1.turns - k0.turns, 4);
	assert_int_equal(k1.commits - k0.commits, 1);
	assert_int_equal(k1.failures, 0);
	EXPECT(cs[0], "[+1,P1,3,P1 3 +2,P2,5,P2 5]", "HISTORY", "a");
	EXPECT(cs[0], "[]", "HISTORY", "poison");
	EXPECT(cs[0], "[+1,P1,4,P1 4 +2,P2,2,P2 2]", "HISTORY", "c");
	for (i = 0; i < 3; i++)
		redisFree(cs[i]);
}

/*
 * A COMMIT that fails (a deferred foreign key only the COMMIT checks,
 * broken by the batch's turn on game "bomb") takes the whole batch: every
 * reply that came from the store is -STORE (a read that saw the batch's
 * rows too), others (PING) are what they were; no game moved, no counter
 * but the failures, and no event reached a watcher: its next event is the
 * next move that does commit.
 */
static void
test_batch_commit_failure(void **state)
{
	redisContext	*cs[3], *w;
	struct counters	 k0, k1;
	int		 i;

	(void)state;
	cs[0] = hr_connect(D.port);
	EXPECT(cs[0], "+OK", "SNL.CREATE", "a", "2");
	EXPECT(cs[0], "+OK", "SNL.CREATE", "bomb", "2");
	EXPECT(cs[0], "+OK", "LUDO.CREATE", "l", "red", "blue");
	redisFree(cs[0]);
	bh_bomb(&D, "bomb");
	for (i = 0; i < 3; i++)
		cs[i] = hr_connect(D.port);
	w = hr_connect(D.port);
	EXPECT(w, "[$watch $a :1]", "GAME.WATCH", "a");
	EXPECT(w, "[$watch $l :2]", "GAME.WATCH", "l");
	ping_all(cs, 3);
	counters(cs[0], &k0);

	daemon_pause();
	APPEND(cs[0], "SNL.ROLL", "a", "3");
	APPEND(cs[0], "SNL.STATE", "a");
	APPEND(cs[0], "PING");
	send_all(cs[0]);
	APPEND(cs[1], "SNL.ROLL", "bomb", "3");
	send_all(cs[1]);
	APPEND(cs[2], "LUDO.PLAY", "l", "red", "6", "1");
	APPEND(cs[2], "NOSUCH");
	send_all(cs[2]);
	daemon_resume();
	expect_next(cs[0], "-STORE group commit failed: ", 1);
	expect_next(cs[0], "-STORE group commit failed: ", 1);
	expect_next(cs[0], "+PONG", 0);
	expect_next(cs[1], "-STORE group commit failed: ", 1);
	expect_next(cs[2], "-STORE group commit failed: ", 1);
	expect_next(cs[2], "-ERR unknown command 'NOSUCH'", 0);

	counters(cs[0], &k1);
	assert_int_equal(k1.turns, k0.turns);
	assert_int_equal(k1.commits, k0.commits);
	assert_int_equal(k1.failures - k0.failures, 1);
	EXPECT(cs[0], "[]", "HISTORY", "a");
	EXPECT(cs[0], "[]", "HISTORY", "bomb");
	EXPECT(cs[0], "[]", "HISTORY", "l");
	EXPECT(cs[0], "[+turn,P1 +winner,NONE +P1,0 +P2,0]", "SNL.STATE",
	    "a");

	/* The same moves, without the bomb, commit; the watcher's next
	 * events are theirs, from seq 1. */
	EXPECT(cs[0], "+P1 4", "SNL.ROLL", "a", "4");
	EXPECT(cs[2], "+MOVED", "LUDO.PLAY", "l", "red", "6", "1");
	expect_next(w, "[$move $a :1 $P1 $4 $P1 4]", 0);
	expect_next(w, "[$move $l :1 $red $6:1 $MOVED]", 0);
	for (i = 0; i < 3; i++)
		redisFree(cs[i]);
	redisFree(w);
}

/* batch-max-turns 1: one transaction per write, as before group commit,
 * even for writes that arrive together. */
static void
test_batch_max_turns_one(void **state)
{
	redisContext	*cs[3];
	struct counters	 k0, k1;
	char		 v[16];
	int		 i;

	(void)state;
	for (i = 0; i < 3; i++)
		cs[i] = hr_connect(D.port);
	EXPECT(cs[0], "+OK", "DANDY.CREATE", "d1", "2", "abcdefghi");
	EXPECT(cs[0], "+OK", "DANDY.CREATE", "d2", "2", "abcdefghi");
	EXPECT(cs[0], "+OK", "SNL.CREATE", "s", "1");
	ping_all(cs, 3);
	counters(cs[0], &k0);
	assert_int_equal(k0.largest, 1);

	daemon_pause();
	for (i = 0; i < 20; i++)
		APPEND(cs[0], "SNL.ROLL", "s", "1");
	APPEND(cs[0], "SNL.STATE", "s");
	send_all(cs[0]);
	APPEND(cs[1], "DANDY.DRAW", "d1", "a");
	send_all(cs[1]);
	APPEND(cs[2], "DANDY.DRAW", "d2", "b");
	send_all(cs[2]);
	daemon_resume();
	for (i = 0; i < 20; i++) {
		snprintf(v, sizeof v, "+P1 %d", i + 1);
		expect_next(cs[0], v, 0);
	}
	expect_next(cs[0], "[+turn,P1 +winner,NONE +P1,20]", 0);
	expect_next(cs[1], "+P1 1 0", 0);
	expect_next(cs[2], "+P1 2 0", 0);
	counters(cs[0], &k1);
	assert_int_equal(k1.turns - k0.turns, 22);
	assert_int_equal(k1.commits - k0.commits, 22);
	assert_int_equal(k1.largest, 1);
	for (i = 0; i < 3; i++)
		redisFree(cs[i]);
}

/*
 * The caps commit in the middle of a pass: ten moves read at once make
 * batches of 4, 4 and 2 with batch-max-turns 4, and batches of 2 with
 * batch-max-usec 1 (the second turn finds the batch older than that).
 */
static void
caps_commit_mid_pass(int want_commits, unsigned long long want_largest)
{
	redisContext	*c = hr_connect(D.port);
	struct counters	 k0, k1;
	char		 want[16];
	int		 i;

	EXPECT(c, "+OK", "SNL.CREATE", "cap", "1");
	counters(c, &k0);
	for (i = 0; i < 10; i++)
		APPEND(c, "SNL.ROLL", "cap", "1");
	for (i = 0; i < 10; i++) {
		snprintf(want, sizeof want, "+P1 %d", i + 1);
		expect_next(c, want, 0);
	}
	counters(c, &k1);
	assert_int_equal(k1.turns - k0.turns, 10);
	assert_int_equal(k1.commits - k0.commits, want_commits);
	assert_int_equal(k1.largest, want_largest);
	redisFree(c);
}

static void
test_batch_max_turns_cap(void **state)
{
	(void)state;
	caps_commit_mid_pass(3, 4);
}

static void
test_batch_max_usec_cap(void **state)
{
	(void)state;
	caps_commit_mid_pass(5, 2);
}

/*
 * One client, request and reply, durability full: each move is its own
 * commit, made in the pass that read it (nothing waits for company).
 * Then SIGTERM arrives with a batch open (the daemon stopped while a
 * burst and the signal wait): the batch commits and its replies are
 * flushed before the daemon exits, and all of it is there after a
 * restart.
 */
static void
test_batch_single_client_and_sigterm(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct counters	 k0, k1;
	char		 want[16];
	int		 i;

	(void)state;
	EXPECT(c, "+OK", "SNL.CREATE", "one", "1");
	counters(c, &k0);
	for (i = 0; i < 30; i++) {
		snprintf(want, sizeof want, "+P1 %d", i + 1);
		EXPECT(c, want, "SNL.ROLL", "one", "1");
	}
	counters(c, &k1);
	assert_int_equal(k1.turns - k0.turns, 30);
	assert_int_equal(k1.commits - k0.commits, 30);

	daemon_pause();
	for (i = 0; i < 50; i++)
		APPEND(c, "SNL.ROLL", "one", "1");
	send_all(c);
	assert_int_equal(kill(D.pid, SIGTERM), 0);
	daemon_resume();
	for (i = 0; i < 50; i++) {
		snprintf(want, sizeof want, "+P1 %d", 31 + i);
		expect_next(c, want, 0);
	}
	assert_int_equal(daemon_stop(&D, 0), 0);
	redisFree(c);
	/* The premise: the signal found the batch open. */
	assert_true(bh_log_has(&D, "SIGTERM: ending the open batch of 50 turn(s)"));
	assert_int_equal(daemon_start(&D, D.flags), 0);
	c = hr_connect(D.port);
	EXPECT(c, "[+turn,P1 +winner,NONE +P1,80]", "SNL.STATE", "one");
	redisFree(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_batch_spans_connections,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_batch_pipeline_keeps_order, setup_normal, teardown),
		cmocka_unit_test_setup_teardown(
		    test_batch_concurrent_pipelines, setup_full, teardown),
		cmocka_unit_test_setup_teardown(test_batch_turn_fails_alone,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_batch_commit_failure,
		    setup_normal, teardown),
		cmocka_unit_test_setup_teardown(test_batch_max_turns_one,
		    setup_one_per_batch, teardown),
		cmocka_unit_test_setup_teardown(test_batch_max_turns_cap,
		    setup_four_per_batch, teardown),
		cmocka_unit_test_setup_teardown(test_batch_max_usec_cap,
		    setup_usec_cap, teardown),
		cmocka_unit_test_setup_teardown(
		    test_batch_single_client_and_sigterm, setup_full,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
