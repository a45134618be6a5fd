/*
 * multinode: several ludusd nodes on one PostgreSQL database, as a black
 * box (TAP).
 *
 *	tests/fault/multinode [--nodes N] [--games G] [--rounds R]
 *	    [--seed S] [--no-kill] [--feed-lag M]
 *
 * Started by tests/lib/pgcluster run (LUDUS_TEST_STORE); skipped
 * without it.  N nodes (default 3) serve the same G games (12: Ludo,
 * Snake & Ladder, DandyLand), each move sent with AT seq, and the rules
 * engine, linked in, predicts every reply.  In each round some games
 * each get their next move, pipelined: consecutive moves of one game go
 * through different nodes, and a third of them are also sent, at the same
 * time, to a second node (a racing duplicate, as a client that failed
 * over too early would).  Every reply of either must be the predicted
 * one: one of them stores the move, the other one conflicts, runs again,
 * and finds it stored (the resend of AT).  Half way through, one node is
 * killed (SIGKILL) with its requests in flight: they are sent again, with
 * the same AT, to another node, and must get the predicted reply too.
 * At the end every game's history must be its moves, once each, in
 * order, and AUDIT (the state against the replay) empty.  A node's watch
 * of a game must also see the moves the other nodes made, in order, and
 * so must its subscriptions and XREAD BLOCKs; an EXEC raced by another
 * node is stored whole or not at all, and an HTTP move raced by another
 * node's is stored once, or answered STALE after it ran again; an
 * invite's key exchanged on two nodes at once gives one key.
 * --feed-lag M measures how long M moves made through one node, one at a
 * time, take to reach a watcher on another (from the reply of the move to
 * the event), and prints the percentiles (doc/scaling.md has them); the
 * default run measures 50, a figure only: no test here is timed.
 */
#include <sys/types.h>

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "rclient.h"
#include "multinode.h"

#define MAX_GAMES	64
#define PER_ROUND	8
#define DANDY_LIMIT	120

enum gkind { GK_LUDO, GK_SNL, GK_DANDY };

struct mgame {
	char		 id[16];
	enum gkind	 kind;
	int		 np;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} st;
	int64_t		 moves;		/* sent and answered */
	int		 last_node;
	int		 done;
	char		(*hist)[80];	/* "seq,player,action,result" */
	size_t		 cap;
};

/* One request of a round: its bytes, where it went, what it must get. */
struct mreq {
	int		 game;
	int		 node;
	char		 want[64];
	char		 text[96];
	char		*bytes;
	size_t		 len;
};

struct mopt	 opt = { 3, 12, 120, 1, 50, 1 };
struct daemon	 D[MAX_NODES];
struct rconn	 C[MAX_NODES];
int		 H[MAX_NODES];
int		 alive[MAX_NODES];
static struct mgame	 G[MAX_GAMES];
uint64_t	 rng;
static uint64_t		 sent, dups, resent;

static const char *const ludo_names[] = { "red", "blue", "green", "yellow" };

int
pick_node(int not)
{
	int	 i, n;

	for (i = 0; i < 100; i++) {
		n = fault_rnd(&rng, opt.nodes);
		if (alive[n] && n != not)
			return n;
	}
	for (n = 0; n < opt.nodes; n++)
		if (alive[n] && n != not)
			return n;
	return -1;
}

/* --------------------------------------------------------------- games */

static void
hist_add(struct mgame *g, const char *player, const char *action,
    const char *result)
{
	if ((size_t)g->moves >= g->cap) {
		g->cap = g->cap == 0 ? 64 : g->cap * 2;
		g->hist = xrealloc(g->hist, g->cap * sizeof(*g->hist));
	}
	snprintf(g->hist[g->moves], sizeof(g->hist[0]), "%lld,%s,%s,%s",
	    (long long)g->moves + 1, player, action, result);
}

/* The next move of g as arguments into argv (buffers in b), its reply
 * into want; the model moves on.  0, or -1 when g is over. */
static int
next_move(struct mgame *g, const char **argv, int *argc, char b[4][24],
    char *want)
{
	static const char cards[] = "abcdefghi123456789";
	int	 toks[LUDO_TOKENS], n, dice, tok, card;

	*argc = 0;
	if (g->done)
		return -1;
	if (g->kind == GK_LUDO) {
		struct ludo_state	 out;
		enum ludo_result	 lr;
		int			 p = g->st.ludo.turn;

		do {
			dice = 1 + fault_rnd(&rng, 6);
			n = ludo_legal(&g->st.ludo, dice, toks);
			tok = n > 0 ? toks[fault_rnd(&rng, n)] : 0;
			lr = ludo_play(&g->st.ludo, p, dice, tok, &out);
		} while (!ludo_result_stored(lr));
		snprintf(b[0], 24, "%d", dice);
		snprintf(b[1], 24, "%d", tok);
		snprintf(b[2], 24, "%d:%d", dice, tok);
		snprintf(want, 64, "%s", ludo_result_str(lr));
		hist_add(g, ludo_names[p], b[2], want);
		argv[(*argc)++] = "LUDO.PLAY";
		argv[(*argc)++] = g->id;
		argv[(*argc)++] = ludo_names[p];
		argv[(*argc)++] = b[0];
		argv[(*argc)++] = b[1];
		g->st.ludo = out;
		g->done = out.winner >= 0;
	} else if (g->kind == GK_SNL) {
		struct snl_state	 out;
		struct snl_result	 r;

		dice = 1 + fault_rnd(&rng, 6);
		if (snl_roll(&g->st.snl, dice, &out, &r) == -1)
			abort();
		if (r.outcome == SNL_WON)
			snprintf(want, 64, "P%d WINS", r.player + 1);
		else
			snprintf(want, 64, "P%d %d", r.player + 1, r.pos);
		snprintf(b[0], 24, "%d", dice);
		snprintf(b[2], 24, "P%d", r.player + 1);
		hist_add(g, b[2], b[0], want);
		argv[(*argc)++] = "SNL.ROLL";
		argv[(*argc)++] = g->id;
		argv[(*argc)++] = b[0];
		g->st.snl = out;
		g->done = out.winner >= 0;
	} else {
		struct dandy_state	 out;
		struct dandy_result	 r;

		card = cards[fault_rnd(&rng, 18)];
		if (dandy_draw(&g->st.dandy, card, &out, &r) == -1)
			abort();
		if (r.pos == DANDY_OFF)
			snprintf(want, 64, "P%d OFF %d", r.player + 1,
			    r.points);
		else
			snprintf(want, 64, "P%d %d %d", r.player + 1,
			    r.pos + 1, r.points);
		snprintf(b[0], 24, "%c", card);
		snprintf(b[2], 24, "P%d", r.player + 1);
		hist_add(g, b[2], b[0], want);
		argv[(*argc)++] = "DANDY.DRAW";
		argv[(*argc)++] = g->id;
		argv[(*argc)++] = b[0];
		g->st.dandy = out;
		g->done = g->moves + 1 >= DANDY_LIMIT;
	}
	snprintf(b[3], 24, "%lld", (long long)g->moves);
	argv[(*argc)++] = "AT";
	argv[(*argc)++] = b[3];
	return 0;
}

static int
create_games(void)
{
	struct ludo_rules	 rules;
	struct reply		 r;
	struct mgame		*g;
	int			 i, node, rc;

	for (i = 0; i < opt.games; i++) {
		g = &G[i];
		memset(g, 0, sizeof(*g));
		g->kind = (enum gkind)(i % 3);
		snprintf(g->id, sizeof(g->id), "%c%d", "lsd"[g->kind], i);
		node = i % opt.nodes;
		g->last_node = node;
		memset(&r, 0, sizeof(r));
		if (g->kind == GK_LUDO) {
			g->np = 2 + fault_rnd(&rng, 3);
			ludo_rules_preset(&rules, "classic");
			ludo_init(&g->st.ludo, &rules, g->np);
			rc = rc_call(&C[node], &r, IO_MS, "LUDO.CREATE", g->id,
			    "red", "blue", g->np > 2 ? "green" : NULL,
			    g->np > 3 ? "yellow" : NULL, NULL);
		} else if (g->kind == GK_SNL) {
			g->np = 2;
			snl_init(&g->st.snl, 2);
			rc = rc_call(&C[node], &r, IO_MS, "SNL.CREATE", g->id,
			    "2", NULL);
		} else {
			g->np = 3;
			dandy_init(&g->st.dandy, 3, "abcdefghi", NULL, NULL);
			rc = rc_call(&C[node], &r, IO_MS, "DANDY.CREATE", g->id,
			    "3", "abcdefghi", NULL);
		}
		if (rc != 1 || !rc_is_status(&r, "OK")) {
			fault_fail("create %s: %s", g->id, fault_text(&r));
			reply_free(&r);
			return -1;
		}
		reply_free(&r);
	}
	return 0;
}

/* --------------------------------------------------------------- rounds */

static void
req_add(struct mreq *q, int *n, int game, int node, const char *want,
    int argc, const char **argv)
{
	size_t	 cap = 0, len = 0;
	int	 i;

	q[*n].text[0] = '\0';
	for (i = 0; i < argc; i++)
		len += (size_t)snprintf(q[*n].text + len, sizeof(q[*n].text) -
		    len, "%s%s", i > 0 ? " " : "", argv[i]);
	q[*n].game = game;
	q[*n].node = node;
	snprintf(q[*n].want, sizeof(q[*n].want), "%s", want);
	q[*n].bytes = NULL;
	q[*n].len = 0;
	rc_encode(&q[*n].bytes, &q[*n].len, &cap, argc, argv);
	(*n)++;
}

/* One request's reply from its node; -1 when the node is gone. */
static int
answer(struct mreq *q)
{
	struct reply	 r;
	int		 rc;

	memset(&r, 0, sizeof(r));
	rc = alive[q->node] ? rc_read(&C[q->node], &r, IO_MS) : 0;
	if (rc != 1) {
		reply_free(&r);
		return -1;
	}
	if (r.type != REPLY_STATUS || strcmp(r.str, q->want) != 0)
		fault_fail("node %d: %s: got %s, want %s", q->node, q->text,
		    fault_text(&r), q->want);
	reply_free(&r);
	return 0;
}

/* A request whose node died: sent again, same AT, to a live node. */
static void
resend(struct mreq *q)
{
	q->node = pick_node(q->node);
	if (q->node < 0 || rc_write(&C[q->node], q->bytes, q->len) != 0 ||
	    answer(q) != 0)
		fault_fail("resend of %s found no node", q->text);
	resent++;
}

static void
kill_one(void)
{
	int	 k = pick_node(-1);

	rc_note("kill -9 of node %d with requests in flight", k);
	kill(D[k].pid, SIGKILL);
	daemon_stop(&D[k], 0);
	alive[k] = 0;
	rc_close(&C[k]);
}

static void
round_once(int kill_now)
{
	struct mreq	 q[2 * PER_ROUND];
	const char	*argv[8];
	char		 b[4][24], want[64];
	int		 n = 0, i, k, gi, argc, node, picked[MAX_GAMES] = { 0 };
	int		 lost[2 * PER_ROUND];

	for (k = 0; k < PER_ROUND; k++) {
		gi = fault_rnd(&rng, opt.games);
		if (picked[gi] || next_move(&G[gi], argv, &argc, b, want) != 0)
			continue;
		picked[gi] = 1;
		node = pick_node(G[gi].last_node);
		G[gi].last_node = node;
		req_add(q, &n, gi, node, want, argc, argv);
		if (fault_rnd(&rng, 3) == 0 && (node = pick_node(node)) >= 0) {
			req_add(q, &n, gi, node, want, argc, argv);
			dups++;
		}
		G[gi].moves++;
	}
	for (i = 0; i < n; i++)
		if (rc_write(&C[q[i].node], q[i].bytes, q[i].len) != 0)
			fault_fail("write to node %d", q[i].node);
	sent += (uint64_t)n;
	if (kill_now)
		kill_one();
	/* Every reply of the live nodes first: a resend must not come
	 * between a connection's requests and their replies. */
	for (i = 0; i < n; i++)
		lost[i] = answer(&q[i]) != 0;
	for (i = 0; i < n; i++) {
		if (lost[i])
			resend(&q[i]);
		free(q[i].bytes);
	}
}

/* -------------------------------------------------------------- checks */

static void
check_game(struct rconn *c, struct mgame *g)
{
	struct reply	 r;
	char		 from[8];
	int64_t		 i;

	memset(&r, 0, sizeof(r));
	snprintf(from, sizeof(from), "1");
	if (rc_call(c, &r, IO_MS, "HISTORY", g->id, from, "10000", NULL) !=
	    1 || r.type != REPLY_ARRAY) {
		fault_fail("HISTORY %s: %s", g->id, fault_text(&r));
		reply_free(&r);
		return;
	}
	if ((int64_t)r.n != g->moves)
		fault_fail("%s: %zu moves stored, %lld made", g->id, r.n,
		    (long long)g->moves);
	for (i = 0; i < g->moves && (size_t)i < r.n; i++)
		if (r.elem[i].str == NULL ||
		    strcmp(r.elem[i].str, g->hist[i]) != 0) {
			fault_fail("%s: move %lld is %s, want %s", g->id,
			    (long long)i + 1, fault_text(&r.elem[i]), g->hist[i]);
			break;
		}
	reply_free(&r);
}

/* A watch on one node of a game another node plays: every move, in
 * order, once. */
static void
check_watch(void)
{
	struct rconn	 w;
	struct reply	 r;
	int		 a = pick_node(-1), b = pick_node(a), i, got = 0;
	int64_t		 next = 1, t0;

	if (a < 0 || b < 0 || rc_open(&w, D[a].port) != 0) {
		fault_fail("watch: no two nodes");
		return;
	}
	memset(&r, 0, sizeof(r));
	rc_call(&w, &r, IO_MS, "LUDO.CREATE", "watched", "red", "blue", NULL);
	reply_free(&r);
	rc_call(&w, &r, IO_MS, "GAME.WATCH", "watched", NULL);
	reply_free(&r);
	for (i = 0; i < 20; i++) {
		char	 at[16];

		snprintf(at, sizeof(at), "%d", i);
		rc_call(&C[b], &r, IO_MS, "LUDO.PLAY", "watched",
		    i % 2 == 0 ? "red" : "blue", "1", "0", "AT", at, NULL);
		reply_free(&r);
	}
	t0 = rc_now_ms();
	while (got < 20 && rc_now_ms() - t0 < 5000 &&
	    rc_read(&w, &r, 5000) == 1) {
		if (r.n == 6 && r.elem[2].type == REPLY_INT) {
			if (r.elem[2].integer != next)
				fault_fail("watch: event %lld, want %lld",
				    r.elem[2].integer, (long long)next);
			next = r.elem[2].integer + 1;
			got++;
		}
		reply_free(&r);
	}
	reply_free(&r);
	if (got != 20)
		fault_fail("watch on node %d saw %d of node %d's 20 moves", a, got,
		    b);
	else
		rc_note("watch on node %d saw node %d's 20 moves in %lld ms",
		    a, b, (long long)(rc_now_ms() - t0));
	rc_close(&w);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The delay of other nodes' moves to a watcher: opt.lag moves, each
 * made alone, from its reply on one node to its event on another. */
static void
feed_lag(void)
{
	struct rconn	 w;
	struct reply	 r;
	int64_t		*lag = xcalloc((size_t)opt.lag, sizeof(*lag)), t;
	int		 a = pick_node(-1), b = pick_node(a), i, n = 0;
	char		 at[16];

	if (a < 0 || b < 0 || rc_open(&w, D[a].port) != 0)
		return;
	memset(&r, 0, sizeof(r));
	rc_call(&C[b], &r, IO_MS, "DANDY.CREATE", "lagged", "2", "abc",
	    NULL);
	reply_free(&r);
	rc_call(&w, &r, IO_MS, "GAME.WATCH", "lagged", NULL);
	reply_free(&r);
	for (i = 0; i < opt.lag; i++) {
		snprintf(at, sizeof(at), "%d", i);
		/* At random moments of the other node's polls; a game
		 * without a deck never ends. */
		rc_sleep_ms(fault_rnd(&rng, 60));
		if (rc_call(&C[b], &r, IO_MS, "DANDY.DRAW", "lagged", "a",
		    "AT", at, NULL) != 1 || r.type != REPLY_STATUS) {
			reply_free(&r);
			break;
		}
		reply_free(&r);
		t = rc_now_us();
		if (rc_read(&w, &r, 5000) != 1) {
			fault_fail("feed: no event for move %d within 5 s", i + 1);
			reply_free(&r);
			break;
		}
		reply_free(&r);
		lag[n++] = rc_now_us() - t;
	}
	rc_close(&w);
	if (n > 0) {
		qsort(lag, (size_t)n, sizeof(*lag), cmp_i64);
		rc_note("feed delay over %d moves: p50 %.1f ms, p99 %.1f ms, "
		    "max %.1f ms", n, lag[n / 2] / 1000.0,
		    lag[(n * 99) / 100] / 1000.0, lag[n - 1] / 1000.0);
	}
	free(lag);
}

static void
check_all(void)
{
	struct reply	 r;
	int		 i, n = pick_node(-1);

	for (i = 0; i < opt.games; i++)
		check_game(&C[n], &G[i]);
	memset(&r, 0, sizeof(r));
	if (rc_call(&C[n], &r, IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT is not empty: %zu", r.n);
	reply_free(&r);
}

/* ---------------------------------------------------------------- main */

static int
start_nodes(void)
{
	const char	*flags[] = { "--batch-max-usec", "0", "--http-port",
	    "any", "--http-portfile", NULL, NULL };
	char		 path[PATH_MAX];
	int		 i;

	for (i = 0; i < opt.nodes; i++)
		if (daemon_setup(&D[i]) != 0)
			return -1;
	for (i = 0; i < opt.nodes; i++) {
		snprintf(path, sizeof(path), "%s/http", D[i].dir);
		flags[5] = path;
		if (daemon_start(&D[i], flags) != 0 ||
		    rc_open(&C[i], D[i].port) != 0 ||
		    (H[i] = http_port(i)) == 0)
			return -1;
		alive[i] = 1;
	}
	return 0;
}

static void
stop_nodes(void)
{
	int	 i;

	for (i = 0; i < opt.nodes; i++) {
		if (alive[i]) {
			rc_close(&C[i]);
			if (daemon_finish(&D[i]) != 0)
				fault_fail("node %d did not exit 0", i);
		}
		daemon_cleanup(&D[i]);
	}
}

static int
num(const char *s, int min, int max)
{
	int64_t		 v;
	const char	*errstr;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) != 0) {
		fprintf(stderr, "multinode: bad number '%s'\n", s ? s : "");
		exit(2);
	}
	return (int)v;
}

int
main(int argc, char **argv)
{
	int	 i, r;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--nodes") == 0)
			opt.nodes = num(argv[++i], 2, MAX_NODES);
		else if (strcmp(argv[i], "--games") == 0)
			opt.games = num(argv[++i], 3, MAX_GAMES);
		else if (strcmp(argv[i], "--rounds") == 0)
			opt.rounds = num(argv[++i], 2, 1000000);
		else if (strcmp(argv[i], "--seed") == 0)
			opt.seed = (uint64_t)num(argv[++i], 0, INT32_MAX);
		else if (strcmp(argv[i], "--no-kill") == 0)
			opt.kill = 0;
		else if (strcmp(argv[i], "--feed-lag") == 0)
			opt.lag = num(argv[++i], 1, 1000000);
		else {
			fprintf(stderr, "usage: multinode [--nodes N] "
			    "[--games G] [--rounds R] [--seed S] "
			    "[--no-kill] [--feed-lag M]\n");
			return 2;
		}
	}
	if (pg_test_uri() == NULL) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/multinode.pg)\n");
		return 0;
	}
	printf("1..1\n");
	rng = opt.seed;
	rc_note("seed %llu, %d nodes, %d games, %d rounds",
	    (unsigned long long)opt.seed, opt.nodes, opt.games, opt.rounds);
	if (start_nodes() != 0 || create_games() != 0) {
		fault_fail("the nodes did not start");
		for (i = 0; i < opt.nodes; i++)
			daemon_dump_log(&D[i]);
	} else {
		for (r = 0; r < opt.rounds && fault_failures == 0; r++)
			round_once(opt.kill && r == opt.rounds / 2);
		check_exec_race();
		check_http_race();
		check_exchange_race();
		check_all();
		check_watch();
		check_followers();
		check_feed_stalled();
		feed_lag();
	}
	rc_note("requests=%llu duplicates=%llu resent=%llu",
	    (unsigned long long)sent, (unsigned long long)dups,
	    (unsigned long long)resent);
	stop_nodes();
	printf("%sok 1 - %d nodes, racing duplicates%s: every reply "
	    "predicted, each move stored once, AUDIT empty\n",
	    fault_failures == 0 ? "" : "not ", opt.nodes,
	    opt.kill ? ", a node killed" : "");
	return fault_failures == 0 ? 0 : 1;
}
