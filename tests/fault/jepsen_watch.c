/*
 * The watchers of tests/fault/jepsen: on every node, one connection
 * follows every game (GAME.WATCH of the clients' games and of the games of
 * bots), as many watchers as a node of a busy service has, and records
 * each event with the time it came; after a lost connection it follows
 * again from the last seq it saw (GAME.WATCH id FROM seq), the resume of
 * doc/protocol.md section 11.  And a probe per node, a PING every 100 ms
 * on a connection of its own: how long a node leaves a client waiting.
 *
 * The checker reads the events against the stored history (each one a
 * stored row, in order, no gap, no repeat), and times the delay of
 * another node's moves from them.
 *
 * The bots' pace is seen past the nodes: an observer looks at the history
 * table itself every 10 ms (libpq), so that a node slow to send its
 * events (or stopped) does not make two moves look close together.  Each
 * move was committed between the sending of the last look that did not
 * see it and the answer of the first that did.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "util/util.h"
#include "rclient.h"
#include "jepsen.h"

#define BACKLOG_US	500000	/* events this soon after a watch */
#define PING_EVERY_MS	100
#define PING_MAX_MS	60000

struct watcher {
	pthread_t	 th, ping_th;
	int		 node;
	int64_t		 last[J_MAX_GAMES + J_MAX_BOTS];
	struct watchlog	 log;
};

#define BOT_LOOK_MS	10

static struct watcher	 watchers[J_MAX_NODES];
static volatile int	 watch_stop;
static pthread_t	 observer;
static struct botlog	 bots[J_MAX_BOTS];

static void
event_add(struct watchlog *l, const struct event *e)
{
	l->ev = jgrow(l->ev, &l->capev, l->nev, 4096, sizeof(*l->ev));
	l->ev[l->nev++] = *e;
}

static void
ping_add(struct watchlog *l, const struct ping *p)
{
	l->ping = jgrow(l->ping, &l->capping, l->nping, 1024,
	    sizeof(*l->ping));
	l->ping[l->nping++] = *p;
}

static int
ngames(void)
{
	return jo.games + jo.bots;
}

/* Game k of the watcher: a client's game, then the bots'. */
static const char *
game_id(int k)
{
	return k < jo.games ? J.game[k].id : J.bot[k - jo.games].id;
}

/* The watcher's index of a game id, or -1. */
static int
game_index(const char *id)
{
	int	 k;

	for (k = 0; k < ngames(); k++)
		if (strcmp(game_id(k), id) == 0)
			return k;
	return -1;
}

/* One event (["move", id, seq, player, action, result]) recorded. */
static void
on_event(struct watcher *w, const struct reply *r, int64_t watched)
{
	struct event	 e;
	char		 line[160];
	int		 k;

	if (r->n != 6 || r->elem[1].str == NULL ||
	    r->elem[2].type != REPLY_INT || r->elem[3].str == NULL ||
	    r->elem[4].str == NULL || r->elem[5].str == NULL ||
	    (k = game_index(r->elem[1].str)) < 0)
		return;
	memset(&e, 0, sizeof(e));
	e.t = rc_now_us();
	e.seq = r->elem[2].integer;
	snprintf(line, sizeof(line), "%lld,%s,%s,%s", (long long)e.seq,
	    r->elem[3].str, r->elem[4].str, r->elem[5].str);
	e.hash = line_hash(LINE_HASH_INIT, line);
	e.game = (int16_t)(k < jo.games ? k : -1 - (k - jo.games));
	e.node = (int8_t)w->node;
	e.backlog = e.t - watched < BACKLOG_US;
	if (e.seq == w->last[k] + 1) {
		w->last[k] = e.seq;
	} else if (e.seq <= w->last[k]) {
		e.order = 2;
	} else {
		e.order = 1;
		w->last[k] = e.seq;
	}
	event_add(&w->log, &e);
}

/* Follows every game on one connection until it breaks or the run ends. */
static void
follow(struct watcher *w, int port)
{
	struct rconn	 c;
	struct reply	 r;
	char		*buf = NULL, from[24];
	size_t		 len = 0, cap = 0;
	const char	*argv[4];
	int64_t		 watched;
	int		 k, rv, bad = 0;

	if (rc_open(&c, port) != 0) {
		rc_sleep_ms(100);
		return;
	}
	for (k = 0; k < ngames(); k++) {
		snprintf(from, sizeof(from), "%lld", (long long)w->last[k]);
		argv[0] = "GAME.WATCH";
		argv[1] = game_id(k);
		argv[2] = "FROM";
		argv[3] = from;
		rc_encode(&buf, &len, &cap, 4, argv);
	}
	watched = rc_now_us();
	if (rc_write(&c, buf, len) != 0)
		bad = 1;
	free(buf);
	while (!bad && !watch_stop && node_port(w->node) == port) {
		memset(&r, 0, sizeof(r));
		rv = rc_read(&c, &r, 200);
		if (rv == 0 || (rv < 0 && c.len > 0 && ++bad))
			break;
		/* A watch refused (the store down): all again, later. */
		if (rv == 1 && r.type == REPLY_ERROR) {
			reply_free(&r);
			bad = 1;
			break;
		}
		if (rv == 1 && r.type == REPLY_ARRAY && r.n > 0 &&
		    r.elem[0].str != NULL && strcmp(r.elem[0].str, "move") == 0)
			on_event(w, &r, watched);
		reply_free(&r);
	}
	rc_close(&c);
	if (bad)
		rc_sleep_ms(100);
}

static void *
watcher_main(void *arg)
{
	struct watcher	*w = arg;
	int		 port, first = 1;

	while (!watch_stop) {
		if ((port = node_port(w->node)) == 0) {
			rc_sleep_ms(50);
			continue;
		}
		if (!first)
			w->log.rewatch++;
		first = 0;
		follow(w, port);
	}
	return NULL;
}

static void *
ping_main(void *arg)
{
	struct watcher	*w = arg;
	struct rconn	 c;
	struct reply	 r;
	struct ping	 p;
	int		 port = 0, cport = 0;
	int64_t		 t;

	c.fd = -1;
	while (!watch_stop) {
		rc_sleep_ms(PING_EVERY_MS);
		if ((port = node_port(w->node)) == 0)
			continue;
		if (c.fd >= 0 && cport != port)
			rc_close(&c);
		if (c.fd < 0) {
			if (rc_open(&c, port) != 0) {
				c.fd = -1;
				continue;
			}
			cport = port;
		}
		memset(&r, 0, sizeof(r));
		t = rc_now_us();
		if (rc_call(&c, &r, PING_MAX_MS, "PING", NULL) == 1) {
			p.t0 = t;
			p.us = (int32_t)(rc_now_us() - t);
			p.node = (int8_t)w->node;
			ping_add(&w->log, &p);
		} else {
			rc_close(&c);
		}
		reply_free(&r);
	}
	if (c.fd >= 0)
		rc_close(&c);
	return NULL;
}

/* The moves of bot game b up to seq n were committed before hi, and
 * those past the last seen after lo. */
static void
bot_seen(struct botlog *l, int64_t n, int64_t lo, int64_t hi)
{
	if (n >= l->cap) {
		l->cap = n + 256;
		l->lo = xrealloc(l->lo, (size_t)(l->cap + 1) * sizeof(int64_t));
		l->hi = xrealloc(l->hi, (size_t)(l->cap + 1) * sizeof(int64_t));
	}
	for (; l->n < n; l->n++) {
		l->lo[l->n + 1] = lo;
		l->hi[l->n + 1] = hi;
	}
}

static void *
observer_main(void *arg)
{
	PGconn		*pc = NULL;
	PGresult	*r;
	char		 ids[J_MAX_BOTS * 20 + 4];
	const char	*v[1] = { ids };
	size_t		 len = 1;
	int64_t		 sent, last = 0;
	int		 b, i;

	(void)arg;
	strcpy(ids, "{");
	for (b = 0; b < jo.bots; b++)
		len += (size_t)snprintf(ids + len, sizeof(ids) - len, "%s%s",
		    b ? "," : "", J.bot[b].id);
	snprintf(ids + len, sizeof(ids) - len, "}");
	while (!watch_stop) {
		rc_sleep_ms(BOT_LOOK_MS);
		if (pc == NULL || PQstatus(pc) != CONNECTION_OK) {
			PQfinish(pc);
			pc = jpg_connect();
			continue;
		}
		sent = rc_now_us();
		r = PQexecParams(pc, "SELECT game, max(seq) FROM history WHERE "
		    "game = ANY($1::text[]) GROUP BY game", 1, NULL, v, NULL,
		    NULL, 0);
		if (PQresultStatus(r) == PGRES_TUPLES_OK) {
			for (i = 0; i < PQntuples(r); i++)
				for (b = 0; b < jo.bots; b++)
					if (strcmp(PQgetvalue(r, i, 0),
					    J.bot[b].id) == 0)
						bot_seen(&bots[b],
						    jpg_int(r, i, 1), last,
						    rc_now_us());
			last = sent;
		} else {
			PQfinish(pc);
			pc = NULL;
		}
		PQclear(r);
	}
	PQfinish(pc);
	return NULL;
}

int
watchers_start(void)
{
	int	 i;

	watch_stop = 0;
	if (jo.bots > 0 && pthread_create(&observer, NULL, observer_main,
	    NULL) != 0)
		return -1;
	for (i = 0; i < jo.nodes; i++) {
		memset(&watchers[i], 0, sizeof(watchers[i]));
		watchers[i].node = i;
		if (pthread_create(&watchers[i].th, NULL, watcher_main,
		    &watchers[i]) != 0 ||
		    pthread_create(&watchers[i].ping_th, NULL, ping_main,
		    &watchers[i]) != 0)
			return -1;
	}
	return 0;
}

void
watchers_join(struct watchlog *all)
{
	size_t	 k;
	int	 i;

	watch_stop = 1;
	memset(all, 0, sizeof(*all));
	if (jo.bots > 0)
		pthread_join(observer, NULL);
	memcpy(all->bot, bots, sizeof(bots));
	for (i = 0; i < jo.nodes; i++) {
		struct watchlog *l = &watchers[i].log;

		pthread_join(watchers[i].th, NULL);
		pthread_join(watchers[i].ping_th, NULL);
		for (k = 0; k < l->nev; k++)
			event_add(all, &l->ev[k]);
		for (k = 0; k < l->nping; k++)
			ping_add(all, &l->ping[k]);
		all->rewatch += l->rewatch;
		free(l->ev);
		free(l->ping);
	}
}
