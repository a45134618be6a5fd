/*
 * What crosses nodes besides the rounds' moves (tests/fault/multinode):
 * the ways to follow a game, an EXEC raced by another node, an HTTP move
 * raced by another node's, a feed whose server stops answering, an
 * invite's key exchanged on two nodes at once (multinode.h).
 */
#include <sys/types.h>

#include <libpq-fe.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "fault_helper.h"
#include "multinode.h"
#include "pg_helper.h"

/* The HTTP port node i wrote (it may come just after the RESP one's
 * file), or 0 after 5 s. */
int
http_port(int i)
{
	char	 path[PATH_MAX];
	FILE	*f;
	int	 port = 0, tries;

	snprintf(path, sizeof(path), "%s/http", D[i].dir);
	for (tries = 0; port == 0 && tries < 500; tries++) {
		if ((f = fopen(path, "r")) != NULL) {
			if (fscanf(f, "%d", &port) != 1)
				port = 0;
			fclose(f);
		}
		if (port == 0)
			rc_sleep_ms(10);
	}
	return port;
}

/* INFO's conflicts of node n (-1 if it cannot say). */
static int64_t
conflicts_of(int n)
{
	struct reply	 r;
	const char	*p;
	int64_t		 v = -1;

	memset(&r, 0, sizeof(r));
	if (rc_call(&C[n], &r, IO_MS, "INFO", NULL) == 1 && r.str != NULL &&
	    (p = strstr(r.str, "\nconflicts:")) != NULL)
		v = strtoll(p + 11, NULL, 10);
	reply_free(&r);
	return v;
}

/* --------------------------------------------- followers, EXEC, HTTP */

/* The seq of a move as a follower gets it: a GAME.WATCH event, a pub/sub
 * message's payload ("seq,..."), an XREAD entry ("seq-0"); -1 if none. */
static int64_t
event_seq(const struct reply *r)
{
	const struct reply	*p;

	if (r->type != REPLY_ARRAY && r->type != REPLY_PUSH)
		return -1;
	if (r->n == 6 && r->elem[2].type == REPLY_INT)
		return r->elem[2].integer;
	p = r->n == 3 ? &r->elem[2] : r->n == 4 ? &r->elem[3] : NULL;
	if (p == NULL || p->str == NULL)
		return -1;
	return strtoll(p->str, NULL, 10);
}

/* A follower's moves, in order, once each: want more of them. */
static int
follow_one(struct rconn *c, const char *who, int64_t *next, int want)
{
	struct reply	 r;
	int64_t		 seq, t0 = rc_now_ms();

	memset(&r, 0, sizeof(r));
	while (*next <= want && rc_now_ms() - t0 < 5000 &&
	    rc_read(c, &r, 5000) == 1) {
		if ((seq = event_seq(&r)) > 0) {
			if (seq != *next)
				fault_fail("%s: move %lld, want %lld", who,
				    (long long)seq, (long long)*next);
			*next = seq + 1;
		}
		reply_free(&r);
	}
	reply_free(&r);
	return *next > want ? 0 : -1;
}

/* An XREAD's entries, in order from *next; the last one's id into
 * last. */
static int
xread_entries(const struct reply *r, int64_t *next, char *last, size_t len)
{
	const struct reply	*e;
	int64_t			 seq;
	size_t			 i;

	if (r->type != REPLY_ARRAY || r->n != 1 || r->elem[0].n != 2)
		return -1;
	e = &r->elem[0].elem[1];
	for (i = 0; i < e->n; i++) {
		if (e->elem[i].n < 1 || e->elem[i].elem[0].str == NULL)
			return -1;
		seq = strtoll(e->elem[i].elem[0].str, NULL, 10);
		if (seq != *next)
			fault_fail("XREAD: entry %lld, want %lld", (long long)seq,
			    (long long)*next);
		*next = seq + 1;
		snprintf(last, len, "%s", e->elem[i].elem[0].str);
	}
	return 0;
}

/* The XREAD BLOCK sent on c wakes with the first moves; the rest are
 * read after them, in order, up to want. */
static int
follow_xread(struct rconn *c, const char *id, int want)
{
	struct reply	 r;
	char		 last[32];
	int64_t		 next = 1;
	int		 i;

	memset(&r, 0, sizeof(r));
	if (rc_read(c, &r, 6000) != 1 ||
	    xread_entries(&r, &next, last, sizeof(last)) != 0 || next < 2) {
		reply_free(&r);
		return -1;
	}
	reply_free(&r);
	for (i = 0; i < 100 && next <= want; i++) {
		if (rc_call(c, &r, IO_MS, "XREAD", "COUNT", "100", "STREAMS",
		    id, last, NULL) != 1 ||
		    xread_entries(&r, &next, last, sizeof(last)) != 0) {
			reply_free(&r);
			return -1;
		}
		reply_free(&r);
	}
	return next > want ? 0 : -1;
}

/*
 * Every way to follow a game, on one node, of the moves another node
 * makes, each on a game of its own (so that each is what makes the node
 * read that game's moves): GAME.WATCH, SUBSCRIBE (and a PSUBSCRIBE that
 * matches its game, followed by name there), XREAD BLOCK; each gets them
 * all, in order, once.
 */
void
check_followers(void)
{
	static const char *const cmd[] = { "GAME.WATCH", "SUBSCRIBE",
	    "PSUBSCRIBE" };
	static const char *const arg[] = { "fw", "fs", "fs*" };
	static const char *const game[] = { "fw", "fs", "fx" };
	struct rconn	 f[4];
	struct reply	 r;
	int64_t		 next[3] = { 1, 1, 1 };
	int		 a = pick_node(-1), b = pick_node(a), i, k, ok = 1;
	char		 at[16];

	memset(&r, 0, sizeof(r));
	if (a < 0 || b < 0)
		return;
	for (k = 0; k < 3; k++) {
		rc_call(&C[b], &r, IO_MS, "DANDY.CREATE", game[k], "2", "abc",
		    NULL);
		reply_free(&r);
	}
	for (i = 0; i < 4; i++)
		if (rc_open(&f[i], D[a].port) != 0) {
			fault_fail("followers: cannot connect");
			while (i-- > 0)
				rc_close(&f[i]);
			return;
		}
	for (i = 0; i < 3; i++) {
		rc_call(&f[i], &r, IO_MS, cmd[i], arg[i], NULL);
		reply_free(&r);
	}
	/* After 0 of a game of none: it waits, and another node's first
	 * move wakes it (or it came after some, and answers at once). */
	rc_send(&f[3], "XREAD", "BLOCK", "10000", "STREAMS", "fx", "0",
	    NULL);
	for (i = 0; i < 20; i++)
		for (k = 0; k < 3; k++) {
			snprintf(at, sizeof(at), "%d", i);
			rc_call(&C[b], &r, IO_MS, "DANDY.DRAW", game[k], "a",
			    "AT", at, NULL);
			reply_free(&r);
		}
	for (i = 0; i < 3; i++)
		if (follow_one(&f[i], cmd[i], &next[i], 20) != 0) {
			fault_fail("%s on node %d saw %lld of node %d's 20 moves",
			    cmd[i], a, (long long)next[i] - 1, b);
			ok = 0;
		}
	if (follow_xread(&f[3], "fx", 20) != 0) {
		fault_fail("XREAD BLOCK on node %d did not get node %d's moves", a,
		    b);
		ok = 0;
	}
	if (ok)
		rc_note("GAME.WATCH, SUBSCRIBE, PSUBSCRIBE and XREAD BLOCK on "
		    "node %d got node %d's moves", a, b);
	for (i = 0; i < 4; i++)
		rc_close(&f[i]);
}

/* A game's moves as node n's XLEN says; -1 if it cannot. */
static int64_t
xlen(int n, const char *id)
{
	struct reply	 r;
	int64_t		 v = -1;

	memset(&r, 0, sizeof(r));
	if (rc_call(&C[n], &r, IO_MS, "XLEN", id, NULL) == 1 &&
	    r.type == REPLY_INT)
		v = r.integer;
	reply_free(&r);
	return v;
}

/* One EXEC's answer: 1 when both its draws stored (or found stored), 0
 * for a conflict (none of it stored), -1 for anything else. */
static int
exec_outcome(struct rconn *c)
{
	struct reply	 r;
	int		 i, rc = -1;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < 3; i++) {		/* +OK, +QUEUED, +QUEUED */
		if (rc_read(c, &r, IO_MS) != 1 || r.type == REPLY_ERROR) {
			reply_free(&r);
			return -1;
		}
		reply_free(&r);
	}
	if (rc_read(c, &r, IO_MS) != 1)
		return -1;
	if (rc_is_error(&r, "STORE") && strstr(fault_text(&r), "conflict") != NULL)
		rc = 0;
	else if (r.type == REPLY_ARRAY && r.n == 2 &&
	    r.elem[0].type == REPLY_STATUS && r.elem[1].type == REPLY_STATUS)
		rc = 1;
	else
		fault_fail("EXEC: %s", r.type == REPLY_ARRAY ? "an array" : fault_text(&r));
	reply_free(&r);
	return rc;
}

/*
 * An EXEC of two games' draws on one node races a plain draw of the
 * first game on another, twenty times: the first game gets its draw
 * once; the second one only with an EXEC that answered its two draws,
 * never with one that conflicted (none of it stored), never half.
 */
void
check_exec_race(void)
{
	struct reply	 r;
	int		 x = pick_node(-1), y = pick_node(x), i, oc, ny;
	int		 whole = 0, lost = 0;
	int64_t		 m1, m2;
	char		 a1[24], a2[24];

	memset(&r, 0, sizeof(r));
	if (x < 0 || y < 0)
		return;
	rc_call(&C[x], &r, IO_MS, "DANDY.CREATE", "e1", "2", "abc", NULL);
	reply_free(&r);
	rc_call(&C[x], &r, IO_MS, "DANDY.CREATE", "e2", "2", "abc", NULL);
	reply_free(&r);
	for (i = 0; i < 20 && fault_failures == 0; i++) {
		if ((m1 = xlen(x, "e1")) < 0 || (m2 = xlen(x, "e2")) < 0)
			break;
		snprintf(a1, sizeof(a1), "%lld", (long long)m1);
		snprintf(a2, sizeof(a2), "%lld", (long long)m2);
		/* The plain draw before the EXEC, after it, or both. */
		ny = 0;
		if (fault_rnd(&rng, 2) && ++ny)
			rc_send(&C[y], "DANDY.DRAW", "e1", "a", "AT", a1, NULL);
		rc_send(&C[x], "MULTI", NULL);
		rc_send(&C[x], "DANDY.DRAW", "e1", "a", "AT", a1, NULL);
		rc_send(&C[x], "DANDY.DRAW", "e2", "a", "AT", a2, NULL);
		rc_send(&C[x], "EXEC", NULL);
		if ((ny == 0 || fault_rnd(&rng, 2)) && ++ny)
			rc_send(&C[y], "DANDY.DRAW", "e1", "a", "AT", a1, NULL);
		if ((oc = exec_outcome(&C[x])) < 0)
			break;
		while (ny-- > 0 && rc_read(&C[y], &r, IO_MS) == 1)
			reply_free(&r);
		whole += oc;
		lost += !oc;
		if (xlen(y, "e1") != m1 + 1 || xlen(y, "e2") != m2 + oc)
			fault_fail("EXEC race %d: e1 %lld moves (want %lld), e2 %lld "
			    "(want %lld)", i, (long long)xlen(y, "e1"),
			    (long long)m1 + 1, (long long)xlen(y, "e2"),
			    (long long)m2 + oc);
	}
	rc_note("EXEC raced 20 times: %d stored whole, %d conflicted, none "
	    "half", whole, lost);
}

/* Sends an HTTP POST of body to path on node n, with a seat key as its
 * bearer token unless NULL (the connection closes after the response):
 * 0, or -1. */
static int
http_post(struct rconn *c, int n, const char *path, const char *body,
    const char *key)
{
	char	 req[640];
	int	 len;

	if (rc_open(c, H[n]) != 0)
		return -1;
	len = snprintf(req, sizeof(req), "POST %s HTTP/1.1\r\n"
	    "Host: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
	    "%s%s%s"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", path, H[n],
	    key != NULL ? "Authorization: Bearer " : "", key != NULL ? key : "",
	    key != NULL ? "\r\n" : "", strlen(body), body);
	return rc_write(c, req, (size_t)len);
}

static int
http_send(struct rconn *c, int n, const char *path, const char *body)
{
	return http_post(c, n, path, body, NULL);
}

/* 1 when the response read on c holds needle. */
static int
c_has(const struct rconn *c, const char *needle)
{
	return c->len > 0 && memmem(c->buf, c->len, needle,
	    strlen(needle)) != NULL;
}

/* The response's status and its string member name into result. */
static int
http_member(struct rconn *c, const char *name, char *result, size_t len)
{
	const char	*p;
	char		 needle[32];
	int64_t		 t0 = rc_now_ms();
	int		 status = -1;
	size_t		 n;

	while (!c->eof && rc_now_ms() - t0 < IO_MS)
		if (rc_fill(c, IO_MS) < 0)
			break;
	result[0] = '\0';
	if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 ", 9) != 0)
		return -1;
	status = atoi(c->buf + 9);
	snprintf(needle, sizeof(needle), "\"%s\":\"", name);
	if ((p = memmem(c->buf, c->len, needle, strlen(needle))) != NULL) {
		p += strlen(needle);
		n = strcspn(p, "\"");
		snprintf(result, len, "%.*s", (int)(n < len ? n : len - 1), p);
	}
	return status;
}

static int
http_result(struct rconn *c, char *result, size_t len)
{
	return http_member(c, "result", result, len);
}

/* /metrics' ludus_conflicts_total is INFO's conflicts. */
static void
check_metrics(int n)
{
	struct rconn	 h;
	const char	*p;
	char		 req[256];
	int64_t		 info = conflicts_of(n), t0 = rc_now_ms();
	int		 len;

	if (rc_open(&h, H[n]) != 0)
		return;
	len = snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\n"
	    "Host: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", H[n]);
	(void)rc_write(&h, req, (size_t)len);
	while (!h.eof && rc_now_ms() - t0 < IO_MS)
		if (rc_fill(&h, IO_MS) < 0)
			break;
	if (h.len == 0 || (p = memmem(h.buf, h.len,
	    "\nludus_conflicts_total ", 23)) == NULL)
		fault_fail("/metrics: no ludus_conflicts_total");
	else if (strtoll(p + 23, NULL, 10) != info)
		fault_fail("/metrics: ludus_conflicts_total %lld, INFO %lld",
		    strtoll(p + 23, NULL, 10), (long long)info);
	rc_close(&h);
}

/*
 * A move sent over HTTP to one node races another move of the same game
 * (the same AT, another card) sent over RESP to another, twenty times:
 * one of them is stored, and the other, which conflicted and ran again
 * (an HTTP write as a RESP one) or came after, is STALE.  An HTTP write
 * whose conflict went unseen would claim its move too.
 */
void
check_http_race(void)
{
	struct rconn	 h;
	struct reply	 r;
	int		 x = pick_node(-1), y = pick_node(x), i, status, first;
	int		 won_http, won_resp, nhttp = 0;
	int64_t		 c0;
	char		 at[24], body[64], result[64];

	memset(&r, 0, sizeof(r));
	if (x < 0 || y < 0)
		return;
	rc_call(&C[y], &r, IO_MS, "DANDY.CREATE", "hr", "2", "abc", NULL);
	reply_free(&r);
	c0 = conflicts_of(x);
	for (i = 0; i < 20 && fault_failures == 0; i++) {
		snprintf(at, sizeof(at), "%d", i);
		snprintf(body, sizeof(body), "{\"card\": \"a\", \"seq\": %d}",
		    i);
		if ((first = fault_rnd(&rng, 2)))
			rc_send(&C[y], "DANDY.DRAW", "hr", "b", "AT", at, NULL);
		if (http_send(&h, x, "/api/games/hr/moves", body) != 0) {
			fault_fail("HTTP: cannot send to node %d", x);
			break;
		}
		if (!first)
			rc_send(&C[y], "DANDY.DRAW", "hr", "b", "AT", at, NULL);
		status = http_result(&h, result, sizeof(result));
		won_http = status == 200;
		if (!won_http && (c_has(&h, "STALE") == 0))
			fault_fail("HTTP race %d: %d, not STALE", i, status);
		rc_close(&h);
		if (rc_read(&C[y], &r, IO_MS) != 1)
			break;
		won_resp = r.type == REPLY_STATUS;
		if (!won_resp && !rc_is_error(&r, "STALE"))
			fault_fail("HTTP race %d: RESP %s", i, fault_text(&r));
		if (won_http + won_resp != 1)
			fault_fail("HTTP race %d: HTTP %d %s, RESP %s", i, status,
			    result, fault_text(&r));
		nhttp += won_http;
		reply_free(&r);
		if (xlen(y, "hr") != i + 1)
			fault_fail("HTTP race %d: %lld moves stored", i,
			    (long long)xlen(y, "hr"));
	}
	if (fault_failures == 0)
		rc_note("an HTTP move raced a RESP one 20 times: one stored "
		    "each time (%d by HTTP), %lld conflicts on its node",
		    nhttp, (long long)(conflicts_of(x) - c0));
	check_metrics(x);
}


/* ------------------------------------------------ a feed that stalls */

#define STALL_PIDS	8

/* Stops (SIGSTOP) or goes on with (SIGCONT) the server's processes that
 * serve the nodes' reads of other nodes' moves: those whose last
 * statement is that read.  The number of them, or -1. */
static int
feed_backends(int sig, int pid[STALL_PIDS], int n)
{
	PGconn		*pc;
	PGresult	*r;
	int		 i;

	if (sig == SIGCONT) {
		for (i = 0; i < n; i++)
			(void)kill(pid[i], SIGCONT);
		return n;
	}
	pc = PQconnectdb(pg_test_uri());
	r = PQexec(pc, "SELECT pid FROM pg_stat_activity WHERE"
	    " application_name = 'ludusd' AND query LIKE"
	    " '%CROSS JOIN LATERAL%' ORDER BY pid");
	n = -1;
	if (PQresultStatus(r) == PGRES_TUPLES_OK) {
		for (n = 0; n < PQntuples(r) && n < STALL_PIDS; n++)
			pid[n] = atoi(PQgetvalue(r, n, 0));
		for (i = 0; i < n; i++)
			if (pid[i] <= 0 || kill(pid[i], sig) != 0)
				n = -1;
	} else
		fault_fail("feed stall: %s", PQerrorMessage(pc));
	PQclear(r);
	PQfinish(pc);
	return n;
}

/*
 * The read of other nodes' moves never stops a node: with the server's
 * processes that answer it stopped (as a server that hangs, or a network
 * that drops everything, would leave it), the node answers PING at once,
 * and plays moves; once the read is given up (the node's deadline for
 * it) or answered, its watcher gets every move it missed, once, in order.
 */
void
check_feed_stalled(void)
{
	struct rconn	 w;
	struct reply	 r;
	int		 a = pick_node(-1), b = pick_node(a), pid[STALL_PIDS];
	int		 i, n, slow = 0;
	int64_t		 t, worst = 0, next = 1;
	char		 at[16];

	if (a < 0 || b < 0 || pg_test_uri() == NULL ||
	    rc_open(&w, D[a].port) != 0)
		return;
	memset(&r, 0, sizeof(r));
	rc_call(&C[b], &r, IO_MS, "DANDY.CREATE", "stalled", "2", "abc",
	    NULL);
	reply_free(&r);
	rc_call(&w, &r, IO_MS, "GAME.WATCH", "stalled", NULL);
	reply_free(&r);
	/* A move through the feed: node a's read has run, so its process is
	 * found by its statement. */
	rc_call(&C[b], &r, IO_MS, "DANDY.DRAW", "stalled", "a", "AT", "0",
	    NULL);
	reply_free(&r);
	if (follow_one(&w, "feed", &next, 1) != 0) {
		fault_fail("feed stall: node %d saw no move of node %d", a, b);
		rc_close(&w);
		return;
	}
	if ((n = feed_backends(SIGSTOP, pid, 0)) <= 0) {
		fault_fail("feed stall: no process reads the feed");
		rc_close(&w);
		return;
	}
	for (i = 1; i <= 20; i++) {
		snprintf(at, sizeof(at), "%d", i);
		if (rc_call(&C[b], &r, IO_MS, "DANDY.DRAW", "stalled", "a",
		    "AT", at, NULL) != 1 || r.type != REPLY_STATUS)
			fault_fail("feed stall: move %d on node %d failed", i,
			    b);
		reply_free(&r);
		t = rc_now_ms();
		if (rc_call(&C[a], &r, 2000, "PING", NULL) != 1 ||
		    r.type != REPLY_STATUS)
			fault_fail("feed stall: PING of node %d failed", a);
		reply_free(&r);
		t = rc_now_ms() - t;
		if (t > worst)
			worst = t;
		/* A loop that waits for the read waits for ever: a second
		 * is a loop that is merely slow, on a busy machine. */
		if (t > 1000)
			slow++;
		rc_sleep_ms(100);
	}
	/* Past the node's deadline for the read (FEED_STALL_MS of
	 * src/net/cluster.c): it is given up, and read again on a new
	 * connection. */
	rc_sleep_ms(10500);
	(void)feed_backends(SIGCONT, pid, n);
	if (slow > 0)
		fault_fail("feed stall: node %d's PING waited %lld ms (%d of "
		    "20 over 1 s) while its read of the feed hung", a,
		    (long long)worst, slow);
	if (follow_one(&w, "feed", &next, 21) != 0)
		fault_fail("feed stall: after it, node %d's watcher saw %lld "
		    "of node %d's 21 moves", a, (long long)next - 1, b);
	else
		rc_note("feed stalled on %d processes: PING of node %d at "
		    "most %lld ms, its watcher then got the 20 moves", n, a,
		    (long long)worst);
	rc_close(&w);
}

/* ---------------------------------------------- an invite exchanged */

/* 1 when SEAT with key on node n binds the seat of a in game id. */
static int
seat_ok(int n, const char *id, const char *key)
{
	struct reply	 r;
	int		 ok;

	memset(&r, 0, sizeof(r));
	if (rc_call(&C[n], &r, IO_MS, "SEAT", id, "a", key, NULL) != 1)
		return -1;
	ok = rc_is_status(&r, "OK");
	reply_free(&r);
	return ok;
}

/*
 * An invite's key exchanged over HTTP on one node races its exchange
 * over RESP on another, twenty times (each round's key the last round's
 * winner's): one of them gets a fresh key, the other, which conflicted
 * and ran again or came after, finds the key spent (403 NOSEAT over
 * HTTP).  Then on both nodes the winner's key holds the seat and the
 * spent one does not: the loser's key was never stored, and the nodes'
 * caches see the exchange.
 */
void
check_exchange_race(void)
{
	struct rconn	 h;
	struct reply	 r;
	int		 x = pick_node(-1), y = pick_node(x), i, status, first;
	int		 won_http, won_resp, nhttp = 0;
	int64_t		 c0;
	char		 key[64], fresh[64], got[64];

	memset(&r, 0, sizeof(r));
	if (x < 0 || y < 0)
		return;
	if (rc_call(&C[y], &r, IO_MS, "LUDO.CREATE", "xr", "a", "b",
	    "seats=secure", NULL) != 1 || r.type != REPLY_ARRAY || r.n < 1 ||
	    strncmp(r.elem[0].str, "a,", 2) != 0) {
		fault_fail("exchange race: no secure game: %s", fault_text(&r));
		reply_free(&r);
		return;
	}
	snprintf(key, sizeof(key), "%s", r.elem[0].str + 2);
	reply_free(&r);
	c0 = conflicts_of(x) + conflicts_of(y);
	for (i = 0; i < 20 && fault_failures == 0; i++) {
		if ((first = fault_rnd(&rng, 2)))
			rc_send(&C[y], "SEAT.EXCHANGE", "xr", "a", key, NULL);
		if (http_post(&h, x, "/api/games/xr/exchange",
		    "{\"player\": \"a\"}", key) != 0) {
			fault_fail("HTTP: cannot send to node %d", x);
			break;
		}
		if (!first)
			rc_send(&C[y], "SEAT.EXCHANGE", "xr", "a", key, NULL);
		status = http_member(&h, "key", got, sizeof(got));
		won_http = status == 200 && strlen(got) == 32;
		if (!won_http && (status != 403 || !c_has(&h, "works once")))
			fault_fail("exchange race %d: HTTP %d, not NOSEAT", i,
			    status);
		rc_close(&h);
		if (rc_read(&C[y], &r, IO_MS) != 1)
			break;
		won_resp = r.type == REPLY_BULK && r.len == 32;
		if (!won_resp && !rc_is_error(&r, "NOSEAT"))
			fault_fail("exchange race %d: RESP %s", i,
			    fault_text(&r));
		if (won_http + won_resp != 1) {
			fault_fail("exchange race %d: HTTP %d, RESP %s", i,
			    status, fault_text(&r));
			reply_free(&r);
			break;
		}
		snprintf(fresh, sizeof(fresh), "%s", won_http ? got : r.str);
		reply_free(&r);
		nhttp += won_http;
		if (seat_ok(x, "xr", fresh) != 1 ||
		    seat_ok(y, "xr", fresh) != 1)
			fault_fail("exchange race %d: the winner's key is not "
			    "the seat's on both nodes", i);
		if (seat_ok(x, "xr", key) != 0 || seat_ok(y, "xr", key) != 0)
			fault_fail("exchange race %d: the spent key still "
			    "works", i);
		snprintf(key, sizeof(key), "%s", fresh);
	}
	if (fault_failures == 0)
		rc_note("an invite's key exchanged on two nodes at once 20 "
		    "times: one key each time (%d by HTTP), %lld conflicts",
		    nhttp, (long long)(conflicts_of(x) + conflicts_of(y) - c0));
}
