/*
 * pgfaults: what goes wrong under ludusd nodes on PostgreSQL (TAP), as a
 * black box.  Started by tests/lib/pgcluster run (LUDUS_TEST_STORE and
 * LUDUS_TEST_PGDIR: the cluster, which it stops and starts itself);
 * skipped without it.
 *
 *  1. PostgreSQL stopped (immediate shutdown: a crash) and started again
 *     under load: meanwhile every turn and every read is refused with
 *     -STORE, at once; nothing is half applied; the node reconnects by
 *     itself, and the turns refused are sent again with AT and stored
 *     once each.
 *  2. The node's connections cut in the middle of its batches (a socat
 *     proxy between it and the server, whose connections are killed at
 *     random moments of the commits): a reply never claims a turn that
 *     is not stored (each success is in history), and every turn refused
 *     with -STORE, sent again with the same AT, gets the predicted reply
 *     and is stored exactly once, whether its COMMIT had happened or not.
 *  3. A node stopped (SIGSTOP) for longer than its games' turn deadlines:
 *     another node plays the due moves (within the grace of
 *     src/net/cluster.c), and when it goes on nothing is played twice.
 *
 * The games are DandyLand games without a deck (they never end), the
 * cards given, whose replies the engine predicts; at the end each game's
 * history must be its moves once each and AUDIT empty.  Options: --cuts N
 * (default 12), --seed S.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "pgplay.h"
#include "rclient.h"

#define STORE_MS	1500	/* a refusal while the server is down */

static int		 cuts = 12;
static uint64_t		 applied_before;

/* ------------------------------------------------ 1. server restart */

static void
test_restart(int tap)
{
	struct daemon	 d;
	struct rconn	 c;
	struct reply	 r;
	int64_t		 t0, t;
	int		 i, down = 0, back = -1;
	int		 before = fault_failures;

	if (daemon_launch(&d, NULL) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start");
		return;
	}
	for (i = 0; i < PLAY_GAMES; i++)
		play_create(&c, i, "r");
	t0 = rc_now_ms();
	while ((t = rc_now_ms() - t0) < 3500 && fault_failures == 0) {
		if (!down && t > 500) {
			down = 1;
			if (play_cluster("kill", NULL) != 0)
				fault_fail("pgcluster kill");
			/* A read is refused too, and promptly. */
			memset(&r, 0, sizeof(r));
			t = rc_now_ms();
			if (rc_call(&c, &r, PLAY_IO_MS, "GAME.INFO", F[0].id,
			    NULL) != 1 || !rc_is_error(&r, "STORE") ||
			    rc_now_ms() - t > STORE_MS)
				fault_fail("a read while down: %s", fault_text(&r));
			reply_free(&r);
		}
		if (down == 1 && rc_now_ms() - t0 > 1500) {
			down = 2;
			if (play_cluster("restart", NULL) != 0)
				fault_fail("pgcluster restart");
		}
		if (play_round(&c) < 0)
			fault_fail("connection to the node lost");
		if (down == 2 && back < 0 && refused > 0 && F[0].pending == 0)
			back = (int)(rc_now_ms() - t0 - 1500);
		rc_sleep_ms(10);
	}
	play_settle(&c);
	play_check(&c);
	rc_note("restart: %llu stored, %llu refused meanwhile, back %d ms "
	    "after the server", (unsigned long long)ok_replies,
	    (unsigned long long)refused, back);
	if (refused == 0)
		fault_fail("no turn was refused while the server was down");
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
	printf("%sok %d - PostgreSQL restarted under load: -STORE meanwhile, "
	    "reconnected, each move once\n", fault_failures > before ? "not " : "",
	    tap);
}

/* ----------------------------------------------------- 2. cut proxy */

/* The last "found out" line of the node's log, or "none". */
static const char *
found_out(const struct daemon *d)
{
	static char	 last[256];
	char		 line[512], *p;
	FILE		*f;

	snprintf(last, sizeof(last), "none");
	if ((f = fopen(d->log, "r")) == NULL)
		return last;
	while (fgets(line, sizeof(line), f) != NULL)
		if ((p = strstr(line, "found out: ")) != NULL) {
			p[strcspn(p, "\n")] = '\0';
			snprintf(last, sizeof(last), "%s", p + 11);
		}
	fclose(f);
	return last;
}

static void
test_cut(int tap)
{
	struct daemon	 d;
	struct rconn	 c;
	char		 uri[600];
	pid_t		 px, killer;
	int		 port = play_free_port(), k, cut = 0, i;
	int		 before = fault_failures;

	play_proxy_uri(uri, sizeof(uri), port);
	px = play_proxy_start(port);
	rc_sleep_ms(300);
	setenv("LUDUS_TEST_STORE", uri, 1);
	ok_replies = refused = 0;
	if (daemon_launch(&d, NULL) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start behind the proxy");
		kill(px, SIGKILL);
		return;
	}
	for (i = 0; i < PLAY_GAMES; i++)
		play_create(&c, i, "c");
	for (k = 0; k < cuts && fault_failures == 0; k++) {
		/* Pipelines in flight, then the cut at a random moment of
		 * their commits. */
		play_round(&c);
		if ((killer = fork()) == 0) {
			rc_sleep_ms(fault_rnd(&rng, 4));
			_exit(play_proxy_cut(px) > 0 ? 0 : 1);
		}
		play_round(&c);
		play_round(&c);
		waitpid(killer, NULL, 0);
		cut++;
		/* What was refused: stored already or not, found by GAME.INFO
		 * before it is sent again. */
		applied_before += (uint64_t)play_refused_stored(&c);
		play_settle(&c);
	}
	play_check(&c);
	rc_sleep_ms(600);	/* the node logs what it found out */
	rc_note("cut %d times: %llu stored, %llu refused, of which %llu had "
	    "been stored before the cut; the node's last word on the "
	    "commits it lost: %s", cut, (unsigned long long)ok_replies,
	    (unsigned long long)refused, (unsigned long long)applied_before,
	    found_out(&d));
	/* An outcome found out is not a refusal: a turn stored gets its
	 * reply, so none refused was stored. */
	if (applied_before > 0)
		fault_fail("%llu turns refused had been stored",
		    (unsigned long long)applied_before);
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
	kill(px, SIGKILL);
	play_proxy_cut(px);
	printf("%sok %d - connections cut in commits: no reply claims an "
	    "unstored turn, resends stored once\n",
	    fault_failures > before ? "not " : "", tap);
}

/* --------------------------------------------------- 3. a node stops */

static void
test_stopped_node(int tap, const char *uri)
{
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	struct reply	 r;
	int64_t		 t0, m0, m;
	int		 before = fault_failures;

	setenv("LUDUS_TEST_STORE", uri, 1);
	if (daemon_launch(&a, NULL) != 0 || daemon_setup(&b) != 0 ||
	    daemon_start(&b, NULL) != 0 || rc_open(&ca, a.port) != 0 ||
	    rc_open(&cb, b.port) != 0) {
		fault_fail("the nodes did not start");
		return;
	}
	memset(&r, 0, sizeof(r));
	/* Every turn times out after a second: node a armed the first. */
	if (rc_call(&ca, &r, PLAY_IO_MS, "SNL.CREATE", "late", "2", "dice=server",
	    "turn-timeout=1", NULL) != 1 || !rc_is_status(&r, "OK"))
		fault_fail("create: %s", fault_text(&r));
	reply_free(&r);
	kill(a.pid, SIGSTOP);
	t0 = rc_now_ms();
	m0 = play_moves_of(&cb, "late");
	while ((m = play_moves_of(&cb, "late")) < m0 + 2 &&
	    rc_now_ms() - t0 < 8000)
		rc_sleep_ms(100);
	if (m < m0 + 2)
		fault_fail("node b played %lld moves in 8 s with node a stopped",
		    (long long)(m - m0));
	else
		rc_note("node a stopped: node b played its first due move "
		    "after about %lld ms", (long long)(rc_now_ms() - t0));
	kill(a.pid, SIGCONT);
	rc_sleep_ms(1500);
	memset(&r, 0, sizeof(r));
	if (rc_call(&ca, &r, PLAY_IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT after node a went on: %s", fault_text(&r));
	reply_free(&r);
	rc_close(&ca);
	rc_close(&cb);
	if (daemon_teardown(&a) != 0 || daemon_teardown(&b) != 0)
		fault_fail("a node did not exit 0");
	printf("%sok %d - a node stopped past its deadlines: another plays "
	    "them, nothing twice\n", fault_failures > before ? "not " : "", tap);
}

int
main(int argc, char **argv)
{
	static const char *const names[] = { "--cuts" };
	int		*const vals[] = { &cuts };
	char		 uri[600];

	if (play_options(argc, argv, names, vals, 1) != 0)
		return 2;
	if (play_init() != 0) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/pgfaults.pg)\n");
		return 0;
	}
	snprintf(uri, sizeof(uri), "%s", pg_test_uri());
	printf("1..3\n");
	test_restart(1);
	test_cut(2);
	test_stopped_node(3, uri);
	play_free();
	return fault_failures == 0 ? 0 : 1;
}
