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
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>

#include <dirent.h>
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
#include "rclient.h"

#define NGAMES		6
#define IO_MS		30000
#define STORE_MS	1500	/* a refusal while the server is down */

struct fgame {
	char			 id[16];
	struct dandy_state	 st;		/* after the moves answered */
	int64_t			 moves;
	int			 pending;	/* a move refused, to resend */
	int			 card;		/* ... with this card */
	char			 want[32];	/* ... and this reply */
	char			(*hist)[48];
	size_t			 cap;
};

static struct fgame	 F[NGAMES];
static uint64_t		 rng = 1;
static int		 cuts = 12;
static const char	*pgdir, *pgcluster;
static uint64_t		 ok_replies, refused, applied_before;

/* pgcluster kill|restart of the suite's cluster. */
static int
cluster(const char *what)
{
	char	 cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s %s", pgcluster, what, pgdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* -------------------------------------------------------------- games */

static int
create(struct rconn *c, int i, const char *prefix)
{
	struct reply	 r;
	struct fgame	*g = &F[i];
	int		 ok;

	free(g->hist);
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "%s%d", prefix, i);
	dandy_init(&g->st, 3, "abcdefghi", NULL, NULL);
	memset(&r, 0, sizeof(r));
	ok = rc_call(c, &r, IO_MS, "DANDY.CREATE", g->id, "3", "abcdefghi",
	    NULL) == 1 && rc_is_status(&r, "OK");
	if (!ok)
		fault_fail("create %s: %s", g->id, fault_text(&r));
	reply_free(&r);
	return ok ? 0 : -1;
}

/* The game's next move, chosen now or the one refused before. */
static void
next_move(struct fgame *g)
{
	static const char	 cards[] = "abcdefghi123456789";
	struct dandy_state	 out;
	struct dandy_result	 r;

	if (g->pending)
		return;
	g->card = cards[fault_rnd(&rng, 18)];
	if (dandy_draw(&g->st, g->card, &out, &r) == -1)
		abort();
	if (r.pos == DANDY_OFF)
		snprintf(g->want, sizeof(g->want), "P%d OFF %d", r.player + 1,
		    r.points);
	else
		snprintf(g->want, sizeof(g->want), "P%d %d %d", r.player + 1,
		    r.pos + 1, r.points);
	g->pending = 1;
}

/* The move was answered: stored (its reply, predicted), or refused. */
static void
answered(struct fgame *g, const struct reply *r)
{
	struct dandy_result	 res;

	if (rc_is_error(r, "STORE")) {
		refused++;
		return;
	}
	if (r->type != REPLY_STATUS || strcmp(r->str, g->want) != 0) {
		fault_fail("%s move %lld: got %s, want %s", g->id,
		    (long long)g->moves + 1, fault_text(r), g->want);
		return;
	}
	ok_replies++;
	g->pending = 0;
	if ((size_t)g->moves >= g->cap) {
		g->cap = g->cap == 0 ? 64 : g->cap * 2;
		g->hist = xrealloc(g->hist, g->cap * sizeof(*g->hist));
	}
	dandy_draw(&g->st, g->card, &g->st, &res);
	snprintf(g->hist[g->moves], sizeof(g->hist[0]), "%lld,P%d,%c,%s",
	    (long long)g->moves + 1, res.player + 1, g->card, g->want);
	g->moves++;
}

/* One round: a move of every game not over, pipelined; replies read. */
static int
round_once(struct rconn *c)
{
	char		*buf = NULL, card[8], at[24];
	const char	*argv[5];
	size_t		 len = 0, cap = 0;
	struct reply	 r;
	int		 i, n = 0, idx[NGAMES];

	for (i = 0; i < NGAMES; i++) {
		next_move(&F[i]);
		snprintf(card, sizeof(card), "%c", F[i].card);
		snprintf(at, sizeof(at), "%lld", (long long)F[i].moves);
		argv[0] = "DANDY.DRAW";
		argv[1] = F[i].id;
		argv[2] = card;
		argv[3] = "AT";
		argv[4] = at;
		rc_encode(&buf, &len, &cap, 5, argv);
		idx[n++] = i;
	}
	if (n > 0 && rc_write(c, buf, len) != 0) {
		free(buf);
		return -1;
	}
	free(buf);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		if (rc_read(c, &r, IO_MS) != 1) {
			reply_free(&r);
			return -1;
		}
		answered(&F[idx[i]], &r);
		reply_free(&r);
	}
	return n;
}

/* GAME.INFO's move count ("moves,N"), -1 if it cannot be read. */
static int64_t
moves_of(struct rconn *c, const char *id)
{
	struct reply	 r;
	int64_t		 n = -1;
	size_t		 i;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, IO_MS, "GAME.INFO", id, NULL) == 1 &&
	    r.type == REPLY_ARRAY)
		for (i = 0; i < r.n; i++)
			if (r.elem[i].str != NULL &&
			    strncmp(r.elem[i].str, "moves,", 6) == 0)
				n = strtoll(r.elem[i].str + 6, NULL, 10);
	reply_free(&r);
	return n;
}

/* HISTORY, asked again while the node is reconnecting (-STORE): a
 * client's resend of a read. */
static int
history(struct rconn *c, const char *id, struct reply *r)
{
	int	 rc, tries;

	for (tries = 0; tries < 50; tries++) {
		rc = rc_call(c, r, IO_MS, "HISTORY", id, "1", "10000", NULL);
		if (rc != 1 || !rc_is_error(r, "STORE"))
			return rc;
		reply_free(r);
		rc_sleep_ms(100);
	}
	return rc_call(c, r, IO_MS, "HISTORY", id, "1", "10000", NULL);
}

static void
check_games(struct rconn *c)
{
	struct reply	 r;
	int		 i;
	int64_t		 k;

	for (i = 0; i < NGAMES; i++) {
		memset(&r, 0, sizeof(r));
		if (history(c, F[i].id, &r) != 1 || r.type != REPLY_ARRAY) {
			fault_fail("HISTORY %s: %s", F[i].id, fault_text(&r));
		} else if ((int64_t)r.n != F[i].moves) {
			fault_fail("%s: %zu moves stored, %lld acknowledged",
			    F[i].id, r.n, (long long)F[i].moves);
		} else {
			for (k = 0; k < F[i].moves; k++)
				if (strcmp(fault_text(&r.elem[k]), F[i].hist[k]) != 0)
					fault_fail("%s: move %lld is %s, want %s",
					    F[i].id, (long long)k + 1,
					    fault_text(&r.elem[k]), F[i].hist[k]);
		}
		reply_free(&r);
	}
	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT is not empty: %s (%zu)", r.n > 0 ?
		    fault_text(&r.elem[0]) : fault_text(&r), r.n);
	reply_free(&r);
}

/* Plays until every move refused has been stored. */
static void
settle(struct rconn *c)
{
	int	 i, left, rounds;

	for (rounds = 0; rounds < 200; rounds++) {
		for (i = left = 0; i < NGAMES; i++)
			left += F[i].pending;
		if (left == 0)
			return;
		if (round_once(c) < 0) {
			fault_fail("settle: connection lost");
			return;
		}
		rc_sleep_ms(20);
	}
	fault_fail("moves refused still refused after 200 rounds");
}

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
	for (i = 0; i < NGAMES; i++)
		create(&c, i, "r");
	t0 = rc_now_ms();
	while ((t = rc_now_ms() - t0) < 3500 && fault_failures == 0) {
		if (!down && t > 500) {
			down = 1;
			if (cluster("kill") != 0)
				fault_fail("pgcluster kill");
			/* A read is refused too, and promptly. */
			memset(&r, 0, sizeof(r));
			t = rc_now_ms();
			if (rc_call(&c, &r, IO_MS, "GAME.INFO", F[0].id,
			    NULL) != 1 || !rc_is_error(&r, "STORE") ||
			    rc_now_ms() - t > STORE_MS)
				fault_fail("a read while down: %s", fault_text(&r));
			reply_free(&r);
		}
		if (down == 1 && rc_now_ms() - t0 > 1500) {
			down = 2;
			if (cluster("restart") != 0)
				fault_fail("pgcluster restart");
		}
		if (round_once(&c) < 0)
			fault_fail("connection to the node lost");
		if (down == 2 && back < 0 && refused > 0 && F[0].pending == 0)
			back = (int)(rc_now_ms() - t0 - 1500);
		rc_sleep_ms(10);
	}
	settle(&c);
	check_games(&c);
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

static int
free_port(void)
{
	struct sockaddr_in	 sa;
	socklen_t		 len = sizeof(sa);
	int			 fd, port = -1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

static pid_t
proxy_start(int port)
{
	char	 listen[64], to[512];
	pid_t	 pid;

	snprintf(listen, sizeof(listen),
	    "TCP-LISTEN:%d,bind=127.0.0.1,reuseaddr,fork", port);
	snprintf(to, sizeof(to), "UNIX-CONNECT:%s/.s.PGSQL.5432", pgdir);
	if ((pid = fork()) == 0) {
		execlp("socat", "socat", listen, to, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Kills the proxy's children, the connections it carries; the listener
 * stays.  How many were cut. */
static int
proxy_cut(pid_t parent)
{
	DIR		*d = opendir("/proc");
	struct dirent	*e;
	char		 path[300], buf[512], *p;
	FILE		*f;
	int		 n = 0, pid, ppid;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if ((pid = atoi(e->d_name)) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		ppid = -1;
		if (fgets(buf, sizeof(buf), f) != NULL &&
		    (p = strrchr(buf, ')')) != NULL)
			sscanf(p + 2, "%*c %d", &ppid);
		fclose(f);
		if (ppid == parent && kill(pid, SIGKILL) == 0)
			n++;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

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
	char		 uri[600], user[64] = "postgres";
	const char	*u;
	pid_t		 px, killer;
	int		 port = free_port(), k, cut = 0, i;
	int64_t		 was;
	int		 before = fault_failures;

	if ((u = strstr(pg_test_uri(), "user=")) != NULL)
		snprintf(user, sizeof(user), "%s", u + 5);
	snprintf(uri, sizeof(uri), "postgresql://%s@127.0.0.1:%d/ludus",
	    user, port);
	px = proxy_start(port);
	rc_sleep_ms(300);
	setenv("LUDUS_TEST_STORE", uri, 1);
	ok_replies = refused = 0;
	if (daemon_launch(&d, NULL) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start behind the proxy");
		kill(px, SIGKILL);
		return;
	}
	for (i = 0; i < NGAMES; i++)
		create(&c, i, "c");
	for (k = 0; k < cuts && fault_failures == 0; k++) {
		/* Pipelines in flight, then the cut at a random moment of
		 * their commits. */
		round_once(&c);
		if ((killer = fork()) == 0) {
			rc_sleep_ms(fault_rnd(&rng, 4));
			_exit(proxy_cut(px) > 0 ? 0 : 1);
		}
		round_once(&c);
		round_once(&c);
		waitpid(killer, NULL, 0);
		cut++;
		/* What was refused: stored already or not, found by GAME.INFO
		 * before it is sent again. */
		for (i = 0; i < NGAMES; i++) {
			if (!F[i].pending)
				continue;
			was = moves_of(&c, F[i].id);
			if (was > F[i].moves)
				applied_before++;
		}
		settle(&c);
	}
	check_games(&c);
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
	proxy_cut(px);
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
	if (rc_call(&ca, &r, IO_MS, "SNL.CREATE", "late", "2", "dice=server",
	    "turn-timeout=1", NULL) != 1 || !rc_is_status(&r, "OK"))
		fault_fail("create: %s", fault_text(&r));
	reply_free(&r);
	kill(a.pid, SIGSTOP);
	t0 = rc_now_ms();
	m0 = moves_of(&cb, "late");
	while ((m = moves_of(&cb, "late")) < m0 + 2 &&
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
	if (rc_call(&ca, &r, IO_MS, "AUDIT", NULL) != 1 ||
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
	char		 uri[600];
	const char	*top = getenv("top_srcdir");
	static char	 path[600];
	int		 i;
	int64_t		 v;
	const char	*errstr;

	for (i = 1; i + 1 < argc; i += 2) {
		if (parse_int64(argv[i + 1], 0, INT32_MAX, &v, &errstr) != 0)
			return 2;
		if (strcmp(argv[i], "--cuts") == 0)
			cuts = (int)v;
		else if (strcmp(argv[i], "--seed") == 0)
			rng = (uint64_t)v;
		else
			return 2;
	}
	pgdir = getenv("LUDUS_TEST_PGDIR");
	if (pg_test_uri() == NULL || pgdir == NULL) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/pgfaults.pg)\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/tests/lib/pgcluster",
	    top != NULL ? top : ".");
	pgcluster = path;
	snprintf(uri, sizeof(uri), "%s", pg_test_uri());
	printf("1..3\n");
	test_restart(1);
	test_cut(2);
	test_stopped_node(3, uri);
	for (i = 0; i < NGAMES; i++)
		free(F[i].hist);
	return fault_failures == 0 ? 0 : 1;
}
