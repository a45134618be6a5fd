/*
 * The clients of tests/fault/jepsen: threads, each on connections to
 * random nodes, each request recorded as an operation (invoked,
 * completed, and what came back: ok, an error, or no reply).
 *
 * How the checker tells moves apart.  A move is a card drawn in a game;
 * its history row names the card, not the client.  So two moves of one
 * card of one game are never in flight at once: a client holds the
 * (game, card) pair from before its request until its answer (an error
 * a second longer, for a late commit to land in its window), and an
 * unknown one holds it until its node is killed (after which nothing of
 * it can commit) or a resend with AT settles it.  The rows of one card of
 * one game are then the answers, in order, of a sequence of operations
 * whose windows do not overlap: the checker matches the two sequences.
 *
 * The mix: draws with AT seq (after a GAME.INFO for seq; an unknown one
 * is sent again to another node, as doc/protocol.md section 10 says a
 * client should), plain draws (a client that does not use AT), the
 * pipeline of a plain draw and a connection command that loads another
 * game, on a node whose cache of both is stale (another node moved them
 * just before), and reads: DANDY.STATE, GAME.INFO, HISTORY, XRANGE.  A
 * quarter of them go to two hot games.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "util/util.h"
#include "fault_helper.h"
#include "rclient.h"
#include "jepsen.h"

#define HOLD_FAIL_US	1000000	/* an error's card, held after it */
#define RESENDS		3	/* of an unknown draw with AT */
#define MAX_ERRS	256
#define HOT_GAMES	2	/* the first games: a quarter of the load */

static const char	 cards[J_CARDS + 1] = "abcdefghi123456789";

/* (game, card): who may draw it now. */
struct hold {
	int		 busy;		/* a request in flight */
	unsigned	 pins;		/* nodes an unknown one went to */
	int64_t		 until;		/* free again from then */
};

struct client {
	pthread_t	 th;
	int		 id;
	uint64_t	 rng;
	struct rconn	 conn[J_MAX_NODES];
	int		 conn_port[J_MAX_NODES];
	int64_t		 known[J_MAX_GAMES];	/* moves seen of each game */
	int		 avoid_game;		/* the last definite failure */
	int64_t		 avoid_at;
	int		 avoid_card;
	struct oplog	 log;
};

static struct hold	 holds[J_MAX_GAMES][J_CARDS];
static struct client	 clients[J_MAX_CLIENTS];
static char		*errs[MAX_ERRS];
static int		 nerrs;
uint64_t		 clients_full;

/* ------------------------------------------------------------ the log */

void *
jgrow(void *p, size_t *cap, size_t n, size_t first, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap == 0 ? first : *cap * 2;
	return xrealloc(p, *cap * size);
}

size_t
oplog_add(struct oplog *l, const struct op *o)
{
	l->op = jgrow(l->op, &l->cap, l->n, 4096, sizeof(*l->op));
	l->op[l->n] = *o;
	return l->n++;
}

/*
 * An error's text without what varies from one to the next (numbers, a
 * quoted id), so that the figures can count them by kind.
 */
int
err_intern(const char *s)
{
	char	 buf[160];
	size_t	 n = 0;
	int	 i, quoted = 0;

	for (; *s != '\0' && n + 2 < sizeof(buf); s++) {
		if (*s == '\'') {
			quoted = !quoted;
			if (quoted)
				buf[n++] = '*';
			continue;
		}
		if (quoted)
			continue;
		if (isdigit((unsigned char)*s)) {
			if (n == 0 || buf[n - 1] != '#')
				buf[n++] = '#';
			continue;
		}
		buf[n++] = *s;
	}
	buf[n] = '\0';
	pthread_mutex_lock(&J.lock);
	for (i = 0; i < nerrs; i++)
		if (strcmp(errs[i], buf) == 0)
			break;
	if (i == nerrs && nerrs < MAX_ERRS)
		errs[nerrs++] = xstrdup(buf);
	pthread_mutex_unlock(&J.lock);
	return i < MAX_ERRS ? i : MAX_ERRS - 1;
}

const char *
err_text(int i)
{
	return i >= 0 && i < nerrs ? errs[i] : "?";
}

int
err_count(void)
{
	return nerrs;
}

void
err_free(void)
{
	while (nerrs > 0)
		free(errs[--nerrs]);
}

uint64_t
line_hash(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ '\n') * 1099511628211ULL;
}

uint64_t
rows_hash_add(uint64_t h, uint64_t row)
{
	int	 i;

	for (i = 0; i < 8; i++, row >>= 8)
		h = (h ^ (row & 0xff)) * 1099511628211ULL;
	return h;
}

/* ------------------------------------------------------ card holding */

/* A card of game g free now (none equal to avoid), held; -1 if none. */
static int
card_take(struct client *cl, int g, int avoid)
{
	int	 free_[J_CARDS], n = 0, c;
	int64_t	 now = rc_now_us();

	pthread_mutex_lock(&J.lock);
	for (c = 0; c < J_CARDS; c++)
		if (!holds[g][c].busy && holds[g][c].pins == 0 &&
		    holds[g][c].until <= now && c != avoid)
			free_[n++] = c;
	if (n > 0) {
		c = free_[fault_rnd(&cl->rng, n)];
		holds[g][c].busy = 1;
	} else {
		c = -1;
		clients_full++;
	}
	pthread_mutex_unlock(&J.lock);
	return c;
}

/* The draw's answer is in: the card is free, or held a while, or kept
 * until a fence of the nodes it was sent to. */
static void
card_give(int g, int c, int outcome, unsigned nodes)
{
	int64_t	 now = rc_now_us();

	pthread_mutex_lock(&J.lock);
	holds[g][c].busy = 0;
	if (outcome == OUT_OK)
		holds[g][c].until = now;
	else if (outcome == OUT_FAIL)
		holds[g][c].until = now + HOLD_FAIL_US;
	else
		holds[g][c].pins |= nodes;
	pthread_mutex_unlock(&J.lock);
}

void
clients_fence(int node)
{
	int64_t	 now = rc_now_us();
	int	 g, c;

	pthread_mutex_lock(&J.lock);
	for (g = 0; g < J_MAX_GAMES; g++)
		for (c = 0; c < J_CARDS; c++)
			if (holds[g][c].pins & (1u << node)) {
				holds[g][c].pins &= ~(1u << node);
				/* Its backends may still be finishing a
				 * transaction the server had whole. */
				holds[g][c].until = now + 2000000;
			}
	pthread_mutex_unlock(&J.lock);
}

/* ------------------------------------------------------- connections */

/* The client's connection to node i, (re)opened; NULL if it is down. */
static struct rconn *
conn_to(struct client *cl, int i)
{
	int	 port = node_port(i);

	if (port == 0)
		return NULL;
	if (cl->conn[i].fd >= 0 && cl->conn_port[i] == port)
		return &cl->conn[i];
	if (cl->conn[i].fd >= 0)
		rc_close(&cl->conn[i]);
	if (rc_open(&cl->conn[i], port) != 0) {
		cl->conn[i].fd = -1;
		return NULL;
	}
	cl->conn_port[i] = port;
	return &cl->conn[i];
}

/*
 * Sends one request on c and reads its reply into *r, the op's times
 * around it.  1: a reply; 0: none (the op's outcome is then unknown:
 * the connection is closed, its next reply could not be told apart).
 */
static int
exchange(struct rconn *c, struct op *o, int argc, const char *const *argv,
    struct reply *r)
{
	char	*buf = NULL;
	size_t	 len = 0, cap = 0;
	int	 rv;

	rc_encode(&buf, &len, &cap, argc, argv);
	memset(r, 0, sizeof(*r));
	o->t0 = rc_now_us();
	rv = rc_write(c, buf, len) == 0 ? rc_read(c, r, jo.io_ms) : -1;
	o->t1 = rc_now_us();
	free(buf);
	if (rv != 1) {
		reply_free(r);
		rc_close(c);
		return 0;
	}
	return 1;
}

static void
op_init(struct op *o, struct client *cl, int type, int node, int g)
{
	memset(o, 0, sizeof(*o));
	o->client = cl->id;
	o->type = (uint8_t)type;
	o->node = (int8_t)node;
	o->game = (int16_t)g;
	o->at = -1;
	o->err = -1;
}

/* Error replies are definite failures, but for the store's "not known". */
static void
classify_error(struct op *o, const struct reply *r)
{
	o->err = (int16_t)err_intern(r->str);
	o->outcome = rc_is_error(r, "STORE") && strstr(r->str, "not known") ?
	    OUT_TOLD : OUT_FAIL;
}

/* ------------------------------------------------------------ the draws */

static void
classify_draw(struct op *o, const struct reply *r)
{
	if (r->type == REPLY_STATUS && r->str[0] == 'P') {
		o->outcome = OUT_OK;
		snprintf(o->u.reply, sizeof(o->u.reply), "%s", r->str);
	} else if (r->type == REPLY_ERROR) {
		classify_error(o, r);
	} else {
		/* No draw of a game without a deck answers anything else. */
		o->outcome = OUT_FAIL;
		char	 what[64];

		snprintf(what, sizeof(what), "(a reply of type %d: %.40s)",
		    (int)r->type, r->str != NULL ? r->str :
		    r->n > 0 && r->elem[0].str != NULL ? r->elem[0].str : "");
		o->err = (int16_t)err_intern(what);
	}
}

/* One DANDY.DRAW of card c (with AT at >= 0) to node i; the op's
 * outcome (*stale: it is -STALE).  -1: the node is down, nothing sent. */
static int
draw(struct client *cl, int type, int i, int g, int c, int64_t at,
    int *stale)
{
	struct rconn	*rc;
	struct op	 o;
	struct reply	 r;
	char		 card[2] = { cards[c], '\0' }, ats[24];
	const char	*argv[5] = { "DANDY.DRAW", J.game[g].id, card, "AT", ats };

	if ((rc = conn_to(cl, i)) == NULL)
		return -1;
	op_init(&o, cl, type, i, g);
	o.card = cards[c];
	o.at = at;
	snprintf(ats, sizeof(ats), "%lld", (long long)at);
	if (exchange(rc, &o, at >= 0 ? 5 : 3, argv, &r) == 0) {
		o.outcome = OUT_LOST;
	} else {
		classify_draw(&o, &r);
		reply_free(&r);
	}
	if (at >= 0 && o.outcome == OUT_OK && cl->known[g] < at + 1)
		cl->known[g] = at + 1;
	*stale = o.outcome == OUT_FAIL && o.err >= 0 &&
	    strncmp(err_text(o.err), "STALE ", 6) == 0;
	oplog_add(&cl->log, &o);
	return o.outcome;
}

/* GAME.INFO of game g on node i: its moves (recorded as a read), or -1. */
static int64_t read_info(struct client *, int, int);

static int
other_node(struct client *cl, int i)
{
	int	 j = fault_rnd(&cl->rng, jo.nodes - 1);

	return j >= i ? j + 1 : j;
}

/*
 * A draw with AT: seq from GAME.INFO, and an unknown answer sent again
 * (to other nodes) until one is definite.  A definite answer to a resend
 * settles the unknown ones before it when it is the move or -STALE: move
 * k + 1 is then this card or another for good, so none of them can still
 * be stored.  Any other error settles nothing.
 */
static void
draw_at(struct client *cl, int i, int g)
{
	int64_t		 k;
	int		 c, out, tries, stale, avoid = -1;
	unsigned	 unknown = 0;

	if ((k = read_info(cl, i, g)) < 0)
		return;
	if (cl->avoid_game == g && cl->avoid_at == k)
		avoid = cl->avoid_card;
	if ((c = card_take(cl, g, avoid)) < 0)
		return;
	if ((out = draw(cl, OP_DRAW_AT, i, g, c, k, &stale)) < 0) {
		card_give(g, c, OUT_OK, 0);
		return;
	}
	for (tries = 0; (out == OUT_LOST || out == OUT_TOLD) &&
	    tries < RESENDS && !J.stop; tries++) {
		unknown |= 1u << i;
		rc_sleep_ms(50 * (tries + 1));
		i = other_node(cl, i);
		if ((out = draw(cl, OP_DRAW_AT, i, g, c, k, &stale)) < 0)
			out = OUT_LOST;
	}
	if (out == OUT_LOST || out == OUT_TOLD)
		unknown |= 1u << i;
	if (out == OUT_FAIL) {
		/* Believed: that move is not sent again. */
		cl->avoid_game = g;
		cl->avoid_at = k;
		cl->avoid_card = c;
	}
	if (out == OUT_OK || (out == OUT_FAIL && stale) || unknown == 0)
		card_give(g, c, out, 0);
	else
		card_give(g, c, OUT_LOST, unknown);
}

static void
draw_plain(struct client *cl, int i, int g)
{
	int	 c, out, stale;

	if ((c = card_take(cl, g, -1)) < 0)
		return;
	out = draw(cl, OP_DRAW, i, g, c, -1, &stale);
	card_give(g, c, out < 0 ? OUT_OK : out, 1u << i);
}

static int
is_event(const struct reply *r)
{
	return r->type == REPLY_ARRAY && r->n > 0 && r->elem[0].str != NULL &&
	    (strcmp(r->elem[0].str, "message") == 0 ||
	    strcmp(r->elem[0].str, "move") == 0);
}

/*
 * A plain draw of game g pipelined with a command that loads game w on
 * the same connection, to a node b whose cache holds both games (read
 * there just before) while another node moves both.
 */
static void
draw_pipelined(struct client *cl, int b, int g)
{
	struct rconn	 rc;
	struct reply	 r, r2;
	struct op	 o;
	char		*buf = NULL, card[2];
	size_t		 len = 0, cap = 0;
	const char	*argv[3];
	int		 a = other_node(cl, b), w, c, port, got;

	w = (g + 1 + fault_rnd(&cl->rng, jo.games - 1)) % jo.games;
	if (read_info(cl, b, g) < 0 || read_info(cl, b, w) < 0)
		return;
	draw_at(cl, a, g);
	draw_at(cl, a, w);
	if ((port = node_port(b)) == 0 || rc_open(&rc, port) != 0)
		return;
	if ((c = card_take(cl, g, -1)) < 0) {
		rc_close(&rc);
		return;
	}
	card[0] = cards[c];
	card[1] = '\0';
	argv[0] = "DANDY.DRAW";
	argv[1] = J.game[g].id;
	argv[2] = card;
	rc_encode(&buf, &len, &cap, 3, argv);
	argv[0] = fault_rnd(&cl->rng, 2) ? "SUBSCRIBE" : "GAME.WATCH";
	argv[1] = J.game[w].id;
	rc_encode(&buf, &len, &cap, 2, argv);
	op_init(&o, cl, OP_PIPE, b, g);
	o.card = cards[c];
	memset(&r, 0, sizeof(r));
	memset(&r2, 0, sizeof(r2));
	o.t0 = rc_now_us();
	got = rc_write(&rc, buf, len) == 0 && rc_read(&rc, &r, jo.io_ms) == 1;
	/* An event of w before the draw's reply: no client can tell it from
	 * the reply (Redis sends a subscription's messages after its
	 * confirmation, which comes after the draw's reply).  Counted, and
	 * skipped to find the reply. */
	while (got && is_event(&r) && o.early < 100) {
		o.early++;
		reply_free(&r);
		got = rc_read(&rc, &r, jo.io_ms) == 1;
	}
	o.t1 = rc_now_us();
	if (got)
		classify_draw(&o, &r);
	else
		o.outcome = OUT_LOST;
	/* The second reply is the subscription's; it changes nothing. */
	if (got)
		(void)rc_read(&rc, &r2, jo.io_ms);
	reply_free(&r);
	reply_free(&r2);
	free(buf);
	rc_close(&rc);
	oplog_add(&cl->log, &o);
	card_give(g, c, o.outcome, 1u << b);
}

/* ------------------------------------------------------------ the reads */

static const char *
pair_value(const struct reply *r, const char *key)
{
	size_t	 i, n = strlen(key);

	for (i = 0; i < r->n; i++)
		if (r->elem[i].str != NULL &&
		    strncmp(r->elem[i].str, key, n) == 0 &&
		    r->elem[i].str[n] == ',')
			return r->elem[i].str + n + 1;
	return NULL;
}

/* "P3" -> 2, "NONE" -> -1; -2 for anything else. */
static int
player_index(const char *s)
{
	int64_t		 v;
	const char	*errstr;

	if (strcmp(s, "NONE") == 0)
		return -1;
	if (s[0] != 'P' || parse_int64(s + 1, 1, DANDY_MAX_PLAYERS, &v,
	    &errstr) != 0)
		return -2;
	return (int)v - 1;
}

/*
 * Sends read o (made by op_init) to node i: 1 when a reply that is no
 * error is in *r for the caller to read, 0 when o's outcome is set
 * already (no reply: unknown; an error), -1 when the node is down
 * (nothing sent, nothing to log).
 */
static int
ask(struct client *cl, int i, struct op *o, int argc,
    const char *const *argv, struct reply *r)
{
	struct rconn	*rc;

	memset(r, 0, sizeof(*r));
	if ((rc = conn_to(cl, i)) == NULL)
		return -1;
	if (exchange(rc, o, argc, argv, r) == 0) {
		o->outcome = OUT_LOST;
		return 0;
	}
	if (r->type == REPLY_ERROR) {
		classify_error(o, r);
		return 0;
	}
	return 1;
}

static int64_t
read_info(struct client *cl, int i, int g)
{
	struct op	 o;
	struct reply	 r;
	const char	*argv[2] = { "GAME.INFO", J.game[g].id };
	const char	*m, *t, *errstr;
	int64_t		 moves = -1;
	int		 got;

	op_init(&o, cl, OP_INFO, i, g);
	if ((got = ask(cl, i, &o, 2, argv, &r)) < 0)
		return -1;
	/* got == 0: the outcome is o's already. */
	if (got > 0 && r.type == REPLY_ARRAY &&
	    (m = pair_value(&r, "moves")) && (t = pair_value(&r, "turn")) &&
	    parse_int64(m, 0, INT64_MAX, &moves, &errstr) == 0) {
		o.outcome = OUT_OK;
		o.n = moves;
		o.u.st.turn = (int8_t)player_index(t);
		if (moves > cl->known[g])
			cl->known[g] = moves;
	} else if (got > 0) {
		o.outcome = OUT_FAIL;
		o.err = (int16_t)err_intern("GAME.INFO: a reply without moves");
	}
	reply_free(&r);
	oplog_add(&cl->log, &o);
	return o.outcome == OUT_OK ? moves : -1;
}

/* DANDY.STATE: "turn,P<i>", then "P<i>,<pos|OFF>,<points>". */
static int
parse_state(const struct reply *r, struct jstate *st)
{
	char		 pl[16], pos[16];
	int64_t		 v;
	const char	*errstr;
	long long	 pts;
	size_t		 i;

	if (r->type != REPLY_ARRAY || r->n < 2 || r->n > DANDY_MAX_PLAYERS + 1 ||
	    r->elem[0].str == NULL || strncmp(r->elem[0].str, "turn,", 5) != 0)
		return -1;
	memset(st, 0, sizeof(*st));
	st->turn = (int8_t)player_index(r->elem[0].str + 5);
	st->np = (int8_t)(r->n - 1);
	for (i = 1; i < r->n; i++) {
		if (r->elem[i].str == NULL || sscanf(r->elem[i].str,
		    "%15[^,],%15[^,],%lld", pl, pos, &pts) != 3 ||
		    player_index(pl) != (int)i - 1)
			return -1;
		if (strcmp(pos, "OFF") == 0)
			st->pos[i - 1] = DANDY_OFF;
		else if (parse_int64(pos, 1, DANDY_BOARD_MAX, &v, &errstr) == 0)
			st->pos[i - 1] = (int8_t)(v - 1);
		else
			return -1;
		st->points[i - 1] = (int32_t)pts;
	}
	return 0;
}

static void
read_state(struct client *cl, int i, int g)
{
	struct op	 o;
	struct reply	 r;
	const char	*argv[2] = { "DANDY.STATE", J.game[g].id };
	int		 got;

	op_init(&o, cl, OP_STATE, i, g);
	if ((got = ask(cl, i, &o, 2, argv, &r)) < 0)
		return;
	if (got > 0 && parse_state(&r, &o.u.st) == 0) {
		o.outcome = OUT_OK;
	} else if (got > 0) {
		o.outcome = OUT_FAIL;
		o.err = (int16_t)err_intern("DANDY.STATE: a reply that is no "
		    "state");
	}
	reply_free(&r);
	oplog_add(&cl->log, &o);
}

/* An XRANGE entry as the line HISTORY gives: "seq,player,action,result". */
static int
xrange_line(const struct reply *e, char *line, size_t len)
{
	const char	*f[3] = { NULL, NULL, NULL };
	static const char *const names[3] = { "player", "action", "result" };
	const struct reply *kv;
	size_t		 i, k;
	long long	 seq;

	if (e->type != REPLY_ARRAY || e->n != 2 || e->elem[0].str == NULL ||
	    sscanf(e->elem[0].str, "%lld-0", &seq) != 1)
		return -1;
	kv = &e->elem[1];
	if (kv->type != REPLY_ARRAY)
		return -1;
	for (i = 0; i + 1 < kv->n; i += 2)
		for (k = 0; k < 3; k++)
			if (kv->elem[i].str != NULL &&
			    strcmp(kv->elem[i].str, names[k]) == 0)
				f[k] = kv->elem[i + 1].str;
	if (f[0] == NULL || f[1] == NULL || f[2] == NULL)
		return -1;
	snprintf(line, len, "%lld,%s,%s,%s", seq, f[0], f[1], f[2]);
	return 0;
}

/* HISTORY g from count, or XRANGE g from-0 + COUNT count: a few rows
 * near the end the client knows of, hashed. */
static void
read_rows(struct client *cl, int type, int i, int g)
{
	struct op	 o;
	struct reply	 r;
	char		 from[32], count[16], line[128];
	const char	*argv[6];
	int64_t		 f = cl->known[g] - fault_rnd(&cl->rng, 8);
	int		 argc, cnt = 1 + fault_rnd(&cl->rng, 16), bad = 0, got;
	size_t		 k;

	if (f < 1)
		f = 1;
	op_init(&o, cl, type, i, g);
	o.at = f;
	o.cnt = cnt;
	snprintf(count, sizeof(count), "%d", cnt);
	argv[1] = J.game[g].id;
	if (type == OP_HISTORY) {
		snprintf(from, sizeof(from), "%lld", (long long)f);
		argv[0] = "HISTORY";
		argv[2] = from;
		argv[3] = count;
		argc = 4;
	} else {
		snprintf(from, sizeof(from), "%lld-0", (long long)f);
		argv[0] = "XRANGE";
		argv[2] = from;
		argv[3] = "+";
		argv[4] = "COUNT";
		argv[5] = count;
		argc = 6;
	}
	if ((got = ask(cl, i, &o, argc, argv, &r)) < 0)
		return;
	if (got > 0 && (r.type != REPLY_ARRAY || r.n > (size_t)cnt)) {
		bad = 1;
	} else if (got > 0) {
		o.hash = LINE_HASH_INIT;
		for (k = 0; k < r.n && !bad; k++) {
			if (type == OP_HISTORY && r.elem[k].str != NULL)
				snprintf(line, sizeof(line), "%s",
				    r.elem[k].str);
			else if (type == OP_HISTORY ||
			    xrange_line(&r.elem[k], line, sizeof(line)) != 0)
				bad = 1;
			o.hash = rows_hash_add(o.hash,
			    line_hash(LINE_HASH_INIT, line));
		}
		o.n = (int64_t)r.n;
		o.outcome = OUT_OK;
		if (r.n > 0 && f + (int64_t)r.n - 1 > cl->known[g])
			cl->known[g] = f + (int64_t)r.n - 1;
	}
	if (bad) {
		o.outcome = OUT_FAIL;
		o.err = (int16_t)err_intern(type == OP_HISTORY ?
		    "HISTORY: a malformed reply" : "XRANGE: a malformed reply");
	}
	reply_free(&r);
	oplog_add(&cl->log, &o);
}

/* ------------------------------------------------------------ the loop */

static void *
client_main(void *arg)
{
	struct client	*cl = arg;
	size_t		 n;
	int		 i, g, p;

	while (!J.stop) {
		i = fault_rnd(&cl->rng, jo.nodes);
		/* A quarter of the requests go to the hot games, as the
		 * busiest games of a service: another node's reads of a
		 * game land in the middle of its writes. */
		g = fault_rnd(&cl->rng, 4) == 0 ? fault_rnd(&cl->rng, HOT_GAMES) :
		    fault_rnd(&cl->rng, jo.games);
		if (node_port(i) == 0) {
			rc_sleep_ms(20);
			continue;
		}
		p = fault_rnd(&cl->rng, 100);
		n = cl->log.n;
		if (p < 28)
			draw_at(cl, i, g);
		else if (p < 50)
			draw_plain(cl, i, g);
		else if (p < 54)
			draw_pipelined(cl, i, g);
		else if (p < 70)
			read_state(cl, i, g);
		else if (p < 80)
			(void)read_info(cl, i, g);
		else if (p < 90)
			read_rows(cl, OP_HISTORY, i, g);
		else
			read_rows(cl, OP_XRANGE, i, g);
		/* A client that got an error waits a little before the
		 * next request, as a real one would. */
		for (; n < cl->log.n; n++)
			if (cl->log.op[n].outcome != OUT_OK) {
				rc_sleep_ms(20 + fault_rnd(&cl->rng, 30));
				break;
			}
	}
	for (i = 0; i < jo.nodes; i++)
		if (cl->conn[i].fd >= 0)
			rc_close(&cl->conn[i]);
	return NULL;
}

int
clients_start(void)
{
	int	 i, k;

	for (i = 0; i < jo.clients; i++) {
		struct client *cl = &clients[i];

		memset(cl, 0, sizeof(*cl));
		cl->id = i;
		cl->rng = jo.seed * 1000003 + (uint64_t)i;
		cl->avoid_game = -1;
		for (k = 0; k < J_MAX_NODES; k++)
			cl->conn[k].fd = -1;
		if (pthread_create(&cl->th, NULL, client_main, cl) != 0)
			return -1;
	}
	return 0;
}

static int
by_t0(const void *a, const void *b)
{
	const struct op	*x = a, *y = b;

	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

void
clients_join(struct oplog *all)
{
	size_t	 k;
	int	 i;

	memset(all, 0, sizeof(*all));
	for (i = 0; i < jo.clients; i++) {
		pthread_join(clients[i].th, NULL);
		for (k = 0; k < clients[i].log.n; k++)
			oplog_add(all, &clients[i].log.op[k]);
		free(clients[i].log.op);
	}
	qsort(all->op, all->n, sizeof(*all->op), by_t0);
}
