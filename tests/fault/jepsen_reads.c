/*
 * The checker of tests/fault/jepsen, part two: what the clients read,
 * what the watchers got, how long the nodes kept them waiting, and the
 * nodes' last answers, all against the stored truth (jepsen_check.c).
 *
 * A read is torn when it shows a state that no prefix of the game's
 * history produces (DANDY.STATE, GAME.INFO's turn at its move count);
 * stale when the only prefixes it matches are older than a move that
 * was acknowledged before the read was sent ("reads see every
 * acknowledged move", doc/scaling.md); contradicted when it shows rows
 * that are not the stored ones (HISTORY, XRANGE, the watchers' events).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "util/util.h"
#include "fault_helper.h"
#include "rclient.h"
#include "jepsen.h"

#define FAULT_SLACK_US	1000000		/* after a fault, it settles */
/*
 * The nodes keep up: a PING kept waiting this long is a stall, and this
 * is the most another node's moves may take to reach a watcher, p99
 * (doc/scaling.md's target is 250 ms; both leave room for a machine
 * shared with other work, and the faults' own waits are not counted).
 */
#define STALL_US	5000000
#define FEED_P99_US	1000000

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t
pct(const int64_t *v, size_t n, int p)
{
	size_t	 k;

	if (n == 0)
		return 0;
	k = (n * (size_t)p + 99) / 100;
	return v[k == 0 ? 0 : k - 1];
}

/* --------------------------------------------------------------- reads */

/* The moves acknowledged in one game: (when, seq), by time. */
struct acks {
	int64_t		*t, *seq;	/* seq: running maximum */
	size_t		 n, cap;
};

struct tpair {
	int64_t	 t, seq;
};

static int
cmp_tpair(const void *a, const void *b)
{
	const struct tpair	*x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

/* The highest seq acknowledged before time t0 in game g's acks. */
static int64_t
acked_before(const struct acks *a, int64_t t0)
{
	size_t	 lo = 0, hi = a->n;

	while (lo < hi) {
		size_t	 mid = (lo + hi) / 2;

		if (a->t[mid] < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? 0 : a->seq[lo - 1];
}

static void
build_acks(const struct oplog *log, struct acks *acks)
{
	struct tpair	*p;
	size_t		*n, k;
	int		 g;

	n = xcalloc((size_t)jo.games, sizeof(*n));
	for (k = 0; k < log->n; k++)
		if (log->op[k].outcome == OUT_OK && log->op[k].seq > 0 &&
		    log->op[k].type <= OP_PIPE)
			n[log->op[k].game]++;
	for (g = 0; g < jo.games; g++) {
		acks[g].t = xcalloc(n[g] + 1, sizeof(int64_t));
		acks[g].seq = xcalloc(n[g] + 1, sizeof(int64_t));
	}
	p = xcalloc(log->n + 1, sizeof(*p));
	for (g = 0; g < jo.games; g++) {
		size_t	 m = 0;

		for (k = 0; k < log->n; k++)
			if (log->op[k].game == g &&
			    log->op[k].outcome == OUT_OK &&
			    log->op[k].seq > 0 && log->op[k].type <= OP_PIPE) {
				p[m].t = log->op[k].t1;
				p[m].seq = log->op[k].seq;
				m++;
			}
		qsort(p, m, sizeof(*p), cmp_tpair);
		for (k = 0; k < m; k++) {
			acks[g].t[k] = p[k].t;
			acks[g].seq[k] = k > 0 && acks[g].seq[k - 1] > p[k].seq ?
			    acks[g].seq[k - 1] : p[k].seq;
		}
		acks[g].n = m;
	}
	free(p);
	free(n);
}

static void
read_verdict(struct op *o, int v, struct figures *fg, const char *what)
{
	o->verdict = (int8_t)v;
	if (v == V_TORN && fg->torn++ < 5)
		fault_fail("%s of %s on node %d: a state no prefix of its "
		    "history produces", what, J.game[o->game].id, o->node);
	if (v == V_STALE && fg->stale++ < 5)
		fault_fail("%s of %s on node %d: older than a move "
		    "acknowledged before it", what, J.game[o->game].id,
		    o->node);
	if (v == V_CONTRADICTED && fg->contradicted++ < 5)
		fault_fail("%s of %s on node %d: rows that are not the "
		    "stored ones", what, J.game[o->game].id, o->node);
}

static void
dump_state(const struct jstate *st)
{
	int	 i;

	fprintf(stderr, " turn %d", st->turn);
	for (i = 0; i < st->np; i++)
		fprintf(stderr, " P%d@%d/%d", i + 1, st->pos[i], st->points[i]);
	fprintf(stderr, "\n");
}

static void
check_state(struct op *o, int64_t lo, struct figures *fg)
{
	const struct tgame	*t = &truth[o->game];
	int64_t			 k;

	for (k = lo; k <= t->n; k++)
		if (jstate_eq(&t->pre[k], &o->u.st)) {
			o->seq = k;
			read_verdict(o, V_GOOD, fg, "DANDY.STATE");
			return;
		}
	for (k = lo < t->n ? lo : t->n; k >= 0; k--)
		if (jstate_eq(&t->pre[k], &o->u.st)) {
			read_verdict(o, V_STALE, fg, "DANDY.STATE");
			return;
		}
	read_verdict(o, V_TORN, fg, "DANDY.STATE");
	if (getenv("JEPSEN_DEBUG") != NULL) {
		fprintf(stderr, "torn %s at %.3f s, acknowledged %lld:",
		    J.game[o->game].id, (o->t0 - J.t_start) / 1e6,
		    (long long)lo);
		dump_state(&o->u.st);
		for (k = lo > 2 ? lo - 2 : 0; k <= t->n && k <= lo + 3; k++) {
			fprintf(stderr, "  after %lld:", (long long)k);
			dump_state(&t->pre[k]);
		}
	}
}

static void
check_info(struct op *o, int64_t lo, struct figures *fg)
{
	const struct tgame	*t = &truth[o->game];

	if (o->n > t->n)
		read_verdict(o, V_CONTRADICTED, fg, "GAME.INFO");
	else if (t->pre[o->n].turn != o->u.st.turn)
		read_verdict(o, V_TORN, fg, "GAME.INFO");
	else if (o->n < lo)
		read_verdict(o, V_STALE, fg, "GAME.INFO");
	else
		read_verdict(o, V_GOOD, fg, "GAME.INFO");
}

/* HISTORY or XRANGE of the rows [at, at + n): the stored ones, and up
 * to the last acknowledged when the answer ended short of its count. */
static void
check_rows(struct op *o, int64_t lo, struct figures *fg)
{
	const struct tgame	*t = &truth[o->game];
	const char		*what = o->type == OP_HISTORY ? "HISTORY" :
				    "XRANGE";
	uint64_t		 h = LINE_HASH_INIT;
	int64_t			 k, last = o->at + o->n - 1;

	if (last > t->n) {
		read_verdict(o, V_CONTRADICTED, fg, what);
		return;
	}
	for (k = o->at; k <= last; k++)
		h = rows_hash_add(h, t->row[k - 1].hash);
	if (h != o->hash)
		read_verdict(o, V_CONTRADICTED, fg, what);
	else if (o->n < o->cnt && last < lo)
		read_verdict(o, V_STALE, fg, what);
	else
		read_verdict(o, V_GOOD, fg, what);
}

void
check_reads(struct oplog *log, struct figures *fg)
{
	struct acks	*acks = xcalloc((size_t)jo.games, sizeof(*acks));
	size_t		 k;
	int		 g;
	int64_t		 lo;

	build_acks(log, acks);
	for (k = 0; k < log->n; k++) {
		struct op	*o = &log->op[k];

		fg->ops[o->type][o->outcome]++;
		if (o->early > 0 && fg->early++ < 5)
			fault_fail("%s on node %d: %d events of another game "
			    "came before the draw's reply", J.game[o->game].id,
			    o->node, o->early);
		if (o->outcome != OUT_OK || o->type <= OP_PIPE)
			continue;
		lo = acked_before(&acks[o->game], o->t0);
		switch (o->type) {
		case OP_STATE:
			check_state(o, lo, fg);
			break;
		case OP_INFO:
			check_info(o, lo, fg);
			break;
		default:
			check_rows(o, lo, fg);
			break;
		}
	}
	for (g = 0; g < jo.games; g++) {
		free(acks[g].t);
		free(acks[g].seq);
	}
	free(acks);
}

/* ------------------------------------------------------------- events */

static int
in_fault(const struct faultlog *fl, int64_t t0, int64_t t1, int node,
    int own)
{
	size_t	 k;

	for (k = 0; k < fl->n; k++) {
		const struct fault *f = &fl->f[k];

		if (own && (f->node != node || (f->kind != F_KILL &&
		    f->kind != F_STOP)))
			continue;
		if (t1 >= f->t0 - 100000 && t0 <= f->t1 + FAULT_SLACK_US)
			return 1;
	}
	return 0;
}

/* Where a watcher's game is in the truth. */
static int
ev_truth(const struct event *e)
{
	return e->game >= 0 ? e->game : jo.games - 1 - e->game;
}

/* The first live arrival of each move at each node: arr[k][seq * nodes +
 * node], 0 for none. */
static int64_t **
arrivals(const struct watchlog *wl, struct figures *fg)
{
	int64_t		**arr = xcalloc((size_t)TRUTH_GAMES, sizeof(*arr));
	size_t		  i;
	int		  k;

	for (k = 0; k < TRUTH_GAMES; k++)
		arr[k] = xcalloc((size_t)(truth[k].n + 1) * (size_t)jo.nodes,
		    sizeof(int64_t));
	for (i = 0; i < wl->nev; i++) {
		const struct event	*e = &wl->ev[i];
		const struct tgame	*t = &truth[k = ev_truth(e)];
		int64_t			*a;

		fg->events++;
		if (e->seq < 1 || e->seq > t->n || t->row[e->seq - 1].hash !=
		    e->hash) {
			if (fg->ev_wrong++ < 5)
				fault_fail("node %d: an event of move %lld of "
				    "%s that is not the stored one", e->node,
				    (long long)e->seq, k < jo.games ?
				    J.game[k].id : J.bot[k - jo.games].id);
			continue;
		}
		if (e->order == 1 && fg->ev_gap++ < 5)
			fault_fail("node %d: a gap before move %lld's event "
			    "of %s", e->node, (long long)e->seq, k < jo.games ?
			    J.game[k].id : J.bot[k - jo.games].id);
		if (e->order == 2 && fg->ev_repeat++ < 5)
			fault_fail("node %d: move %lld's event of %s again",
			    e->node, (long long)e->seq, k < jo.games ?
			    J.game[k].id : J.bot[k - jo.games].id);
		a = &arr[k][e->seq * jo.nodes + e->node];
		if (!e->backlog && e->order == 0 && *a == 0)
			*a = e->t;
	}
	return arr;
}

/* How long another node's watchers waited for each acknowledged move. */
static void
feed_delays(const struct oplog *log, int64_t **arr,
    const struct faultlog *fl, struct figures *fg)
{
	int64_t	*d = xcalloc(log->n * (size_t)jo.nodes + 1, sizeof(int64_t));
	size_t	 n = 0, k;
	int	 x;

	for (k = 0; k < log->n; k++) {
		const struct op	*o = &log->op[k];

		if (o->type > OP_PIPE || o->outcome != OUT_OK || !o->took ||
		    in_fault(fl, o->t0, o->t1, -1, 0))
			continue;
		for (x = 0; x < jo.nodes; x++) {
			int64_t	 a = arr[o->game][o->seq * jo.nodes + x];

			if (x != o->node && a != 0)
				d[n++] = a > o->t1 ? a - o->t1 : 0;
		}
	}
	qsort(d, n, sizeof(*d), cmp_i64);
	fg->feed_n = n;
	fg->feed_p50 = pct(d, n, 50);
	fg->feed_p99 = pct(d, n, 99);
	fg->feed_max = n > 0 ? d[n - 1] : 0;
	if (fg->feed_p99 > FEED_P99_US) {
		fg->feed_slow = 1;
		fault_fail("another node's moves reached the watchers in %.2f "
		    "s (p99; max %.2f s)", fg->feed_p99 / 1e6,
		    fg->feed_max / 1e6);
	}
	free(d);
}

/* The PINGs of each node, but while that node was killed or stopped. */
static void
pings(const struct watchlog *wl, const struct faultlog *fl,
    struct figures *fg)
{
	int64_t	*d = xcalloc(wl->nping + 1, sizeof(int64_t));
	size_t	 n = 0, k;

	for (k = 0; k < wl->nping; k++) {
		const struct ping *p = &wl->ping[k];

		/* After the load, the checker's own questions keep them
		 * busy. */
		if (in_fault(fl, p->t0, p->t0 + p->us, p->node, 1) ||
		    p->t0 + p->us > J.t_end)
			continue;
		d[n++] = p->us;
		if (p->us > STALL_US && fg->stalls++ < 5)
			fault_fail("node %d kept a PING waiting %.2f s, %.1f s "
			    "into the run", p->node, p->us / 1e6,
			    (p->t0 - J.t_start) / 1e6);
	}
	qsort(d, n, sizeof(*d), cmp_i64);
	fg->pings = n;
	fg->ping_p99 = pct(d, n, 99);
	fg->ping_max = n > 0 ? d[n - 1] : 0;
	free(d);
}

/*
 * The bots' pace: a move comes bot-delay after the one before.  Moves s
 * and s + 1 were committed less than hi[s + 1] - lo[s] apart (the
 * observer's windows, jepsen_watch.c): when that is under half the
 * delay, two moves came too close, for certain, faults or not: a node
 * plays a game's move only bot-delay after it saw the one before
 * committed (src/net/autoplay.c).
 */
static void
bot_pace(const struct watchlog *wl, struct figures *fg)
{
	int64_t	 up, min = INT64_MAX;
	int	 b;
	int64_t	 s;

	for (b = 0; b < jo.bots; b++) {
		const struct botlog *l = &wl->bot[b];

		for (s = 1; s < l->n; s++) {
			if (l->lo[s] == 0)
				continue;
			up = l->hi[s + 1] - l->lo[s];
			fg->bot_gaps++;
			if (up < min)
				min = up;
			if (up >= (int64_t)jo.bot_delay * 500)
				continue;
			if (fg->bot_short++ < 5)
				fault_fail("%s: move %lld came less than %.0f ms "
				    "after the one before (bot-delay %d ms), "
				    "%.1f s into the run", J.bot[b].id,
				    (long long)s + 1, up / 1e3, jo.bot_delay,
				    (l->hi[s + 1] - J.t_start) / 1e6);
		}
	}
	fg->bot_min_gap = min == INT64_MAX ? 0 : min;
}

void
check_watch(const struct oplog *log, const struct watchlog *wl,
    const struct faultlog *fl, struct figures *fg)
{
	int64_t	**arr = arrivals(wl, fg);
	int	  k;

	feed_delays(log, arr, fl, fg);
	pings(wl, fl, fg);
	bot_pace(wl, fg);
	for (k = 0; k < TRUTH_GAMES; k++)
		free(arr[k]);
	free(arr);
}

/* -------------------------------------------------- the nodes' answers */

/* The next pipelined reply, an array; 0 (and a note) if it is not. */
static int
answer_ok(struct rconn *c, const char *what, const char *id,
    struct reply *r)
{
	memset(r, 0, sizeof(*r));
	if (rc_read(c, r, 30000) == 1 && r->type == REPLY_ARRAY)
		return 1;
	fault_fail("%s %s: %s", what, id, r->str != NULL ? r->str :
	    "no answer");
	reply_free(r);
	return 0;
}

/* DANDY.STATE's lines of a state. */
static int
state_is(const struct reply *r, const struct jstate *p)
{
	char	 line[64];
	int	 q;

	if (r->n != (size_t)p->np + 1 || r->elem[0].str == NULL)
		return 0;
	if (p->turn < 0)
		snprintf(line, sizeof(line), "turn,NONE");
	else
		snprintf(line, sizeof(line), "turn,P%d", p->turn + 1);
	if (strcmp(r->elem[0].str, line) != 0)
		return 0;
	for (q = 0; q < p->np; q++) {
		if (p->pos[q] < 0)
			snprintf(line, sizeof(line), "P%d,OFF,%d", q + 1,
			    p->points[q]);
		else
			snprintf(line, sizeof(line), "P%d,%d,%d", q + 1,
			    p->pos[q] + 1, p->points[q]);
		if (r->elem[q + 1].str == NULL ||
		    strcmp(r->elem[q + 1].str, line) != 0)
			return 0;
	}
	return 1;
}

/* The four requests asked of every node for game g. */
static void
agree_ask(char **buf, size_t *len, size_t *cap, int g)
{
	const char	*id = J.game[g].id;
	const char	*info[2] = { "GAME.INFO", id };
	const char	*state[2] = { "DANDY.STATE", id };
	const char	*hist[4] = { "HISTORY", id, "1", "10000" };
	const char	*audit[2] = { "AUDIT", id };

	rc_encode(buf, len, cap, 2, info);
	rc_encode(buf, len, cap, 2, state);
	rc_encode(buf, len, cap, 4, hist);
	rc_encode(buf, len, cap, 2, audit);
}

/* Node i's four answers for game g: 0 if they are all the truth's, 1 if
 * not, 2 if one of them did not come (the connection is then of no more
 * use: what follows on it cannot be told from a late answer). */
static int
node_agrees(struct rconn *c, int i, int g)
{
	const struct tgame	*t = &truth[g];
	const char		*id = J.game[g].id;
	struct reply		 r;
	char			 want[32];
	uint64_t		 h = LINE_HASH_INIT, th = LINE_HASH_INIT;
	size_t			 k;
	int			 bad = 1, lost = 0;

	snprintf(want, sizeof(want), "moves,%lld", (long long)t->n);
	if (answer_ok(c, "GAME.INFO", id, &r)) {
		for (k = 0; k < r.n; k++)
			if (r.elem[k].str != NULL &&
			    strcmp(r.elem[k].str, want) == 0)
				bad = 0;
		reply_free(&r);
	} else
		lost = 1;
	if (answer_ok(c, "DANDY.STATE", id, &r)) {
		bad |= !state_is(&r, &t->pre[t->n]);
		reply_free(&r);
	} else
		lost = 1;
	if (answer_ok(c, "HISTORY", id, &r)) {
		for (k = 0; k < r.n; k++)
			h = rows_hash_add(h, line_hash(LINE_HASH_INIT,
			    r.elem[k].str != NULL ? r.elem[k].str : ""));
		for (k = 0; k < (size_t)t->n && k < 10000; k++)
			th = rows_hash_add(th, t->row[k].hash);
		bad |= h != th;
		reply_free(&r);
	} else
		lost = 1;
	if (answer_ok(c, "AUDIT", id, &r)) {
		bad |= r.n != 0;
		reply_free(&r);
	} else
		lost = 1;
	if (bad && !lost)
		fault_fail("node %d does not answer %s as it is stored", i, id);
	return lost ? 2 : bad;
}

uint64_t
check_nodes_agree(void)
{
	struct rconn	 c;
	char		*buf = NULL;
	size_t		 len, cap = 0;
	uint64_t	 bad = 0;
	int		 i, g, v;

	for (i = 0; i < jo.nodes; i++) {
		if (rc_open(&c, node_port(i)) != 0) {
			fault_fail("node %d does not answer", i);
			bad += (uint64_t)jo.games;
			continue;
		}
		for (len = 0, g = 0; g < jo.games; g++)
			agree_ask(&buf, &len, &cap, g);
		if (rc_write(&c, buf, len) != 0) {
			fault_fail("node %d does not answer", i);
			bad += (uint64_t)jo.games;
		} else {
			for (g = 0; g < jo.games; g++) {
				if ((v = node_agrees(&c, i, g)) > 1) {
					fault_fail("node %d: no answer for %d "
					    "games", i, jo.games - g);
					bad += (uint64_t)(jo.games - g);
					break;
				}
				bad += (uint64_t)v;
			}
		}
		rc_close(&c);
	}
	free(buf);
	return bad;
}
