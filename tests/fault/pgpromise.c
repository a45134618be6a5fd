/*
 * pgpromise: the promise of ludusd nodes on PostgreSQL ("a reply means the
 * turn is stored, once; a refusal means it is not") kept through the
 * races and faults that once broke it (TAP), as a black box on a real
 * server.  Started by tests/lib/pgcluster run (LUDUS_TEST_STORE and
 * LUDUS_TEST_PGDIR: the cluster, which it stops and starts itself);
 * skipped without it.
 *
 *  1. A move that conflicted (another node moved its game first) and is
 *     run again in the same pass as a command that reads a game at a
 *     barrier (SUBSCRIBE, GAME.WATCH): stored once, not run a third time
 *     on the read's account.
 *
 * Options: --tries N (default 10), --seed S.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "pgplay.h"
#include "rclient.h"

static int	 tries = 10;

/* A call that must succeed: its reply, noted when it is not status want
 * (NULL: any reply but an error). */
static int
call_ok(struct rconn *c, const char *want, const char *a0, const char *a1,
    const char *a2, const char *a3)
{
	struct reply	 r;
	int		 ok;

	memset(&r, 0, sizeof(r));
	ok = rc_call(c, &r, PLAY_IO_MS, a0, a1, a2, a3, NULL) == 1 &&
	    r.type != REPLY_ERROR &&
	    (want == NULL || rc_is_status(&r, want));
	if (!ok)
		fault_fail("%s %s: %s", a0, a1, fault_text(&r));
	reply_free(&r);
	return ok ? 0 : -1;
}

/* The reply a draw of card on a fresh 2-player game after first's draw
 * gets ("P2 <pos> <points>"). */
static void
second_draw(int first, int card, char *want, size_t len)
{
	struct dandy_state	 st;
	struct dandy_result	 r;

	dandy_init(&st, 2, "abcdefghi", NULL, NULL);
	if (dandy_draw(&st, first, &st, &r) == -1 ||
	    dandy_draw(&st, card, &st, &r) == -1)
		abort();
	if (r.pos == DANDY_OFF)
		snprintf(want, len, "P%d OFF %d", r.player + 1, r.points);
	else
		snprintf(want, len, "P%d %d %d", r.player + 1, r.pos + 1,
		    r.points);
}

/* HISTORY's length of a game, -1 when it cannot be read. */
static int64_t
history_len(struct rconn *c, const char *id)
{
	struct reply	 r;
	int64_t		 n = -1;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "HISTORY", id, NULL) == 1 &&
	    r.type == REPLY_ARRAY)
		n = (int64_t)r.n;
	reply_free(&r);
	return n;
}

/* ----------------------------------- 1. a re-run and a barrier's read */

/*
 * Node b has games g and w cached; node a moves both, so that b's copies
 * are stale.  One connection of b's then pipelines a move of g and a
 * barrier that loads w: the move conflicts at the barrier's COMMIT and
 * is run again at once, and the barrier's load of w must not be taken as
 * part of that re-run (a stale read of it would make the re-run, stored
 * already, run a third time).
 */
static void
rerun_once(struct rconn *ca, struct rconn *cb, int port_b, int k,
    const char *barrier)
{
	char		 g[16], w[16], want[32], *buf = NULL;
	const char	*argv[3];
	size_t		 len = 0, cap = 0;
	struct rconn	 cx;
	struct reply	 r;
	int64_t		 n;

	snprintf(g, sizeof(g), "rg%d", k);
	snprintf(w, sizeof(w), "rw%d", k);
	if (call_ok(ca, "OK", "DANDY.CREATE", g, "2", "abcdefghi") != 0 ||
	    call_ok(ca, "OK", "DANDY.CREATE", w, "2", "abcdefghi") != 0 ||
	    call_ok(cb, NULL, "GAME.INFO", g, NULL, NULL) != 0 ||
	    call_ok(cb, NULL, "GAME.INFO", w, NULL, NULL) != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", g, "a", NULL) != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", w, "a", NULL) != 0)
		return;
	second_draw('a', 'h', want, sizeof(want));
	if (rc_open(&cx, port_b) != 0) {
		fault_fail("connect to node b");
		return;
	}
	argv[0] = "DANDY.DRAW";
	argv[1] = g;
	argv[2] = "h";
	rc_encode(&buf, &len, &cap, 3, argv);
	argv[0] = barrier;
	argv[1] = w;
	rc_encode(&buf, &len, &cap, 2, argv);
	if (rc_write(&cx, buf, len) != 0)
		fault_fail("send to node b");
	free(buf);
	memset(&r, 0, sizeof(r));
	if (rc_read(&cx, &r, PLAY_IO_MS) != 1 || !rc_is_status(&r, want))
		fault_fail("%s (with %s %s): got %s, want %s", g, barrier, w,
		    fault_text(&r), want);
	reply_free(&r);
	memset(&r, 0, sizeof(r));
	if (rc_read(&cx, &r, PLAY_IO_MS) != 1 || r.type == REPLY_ERROR)
		fault_fail("%s %s: %s", barrier, w, fault_text(&r));
	reply_free(&r);
	rc_close(&cx);
	if ((n = history_len(ca, g)) != 2)
		fault_fail("%s (with %s %s): %lld moves stored for 2 replies",
		    g, barrier, w, (long long)n);
}

static void
test_rerun(int tap)
{
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	int		 k, before = fault_failures;

	if (daemon_launch(&a, NULL) != 0 || daemon_setup(&b) != 0 ||
	    daemon_start(&b, NULL) != 0 || rc_open(&ca, a.port) != 0 ||
	    rc_open(&cb, b.port) != 0) {
		fault_fail("the nodes did not start");
		return;
	}
	for (k = 0; k < 2 * tries && fault_failures == before; k++)
		rerun_once(&ca, &cb, b.port, k,
		    k % 2 == 0 ? "SUBSCRIBE" : "GAME.WATCH");
	rc_close(&ca);
	rc_close(&cb);
	if (daemon_teardown(&a) != 0 || daemon_teardown(&b) != 0)
		fault_fail("a node did not exit 0");
	printf("%sok %d - a move run again at a barrier that reads a stale "
	    "game: stored once\n", fault_failures > before ? "not " : "", tap);
}

int
main(int argc, char **argv)
{
	int		 i;
	int64_t		 v;
	const char	*errstr;

	for (i = 1; i + 1 < argc; i += 2) {
		if (parse_int64(argv[i + 1], 0, INT32_MAX, &v, &errstr) != 0)
			return 2;
		if (strcmp(argv[i], "--tries") == 0)
			tries = (int)v;
		else if (strcmp(argv[i], "--seed") == 0)
			rng = (uint64_t)v;
		else
			return 2;
	}
	if (play_init() != 0) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/pgpromise.pg)\n");
		return 0;
	}
	printf("1..1\n");
	test_rerun(1);
	play_free();
	return fault_failures == 0 ? 0 : 1;
}
