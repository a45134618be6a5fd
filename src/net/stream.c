/*
 * The daemon's side of streams (the command layer's is cmd_stream.c):
 * XREAD BLOCK, the gap-free resume of a client that reconnects, and a
 * long XRANGE or XREVRANGE, written in slices.
 *
 * XREAD BLOCK blocks its connection, as Redis blocks a client: nothing
 * more of its input is read until it is answered.  It is first resolved
 * with the pass's transaction closed (at once, or at the end of the pass,
 * through pass_pump()), so that what it reads and what "$" means (the
 * game's last move) are committed: if there are entries after its ids it
 * is answered at once, else it waits.  It wakes on a move of one of its
 * games through the one path of every committed move's events (watch.c),
 * which runs after the COMMIT: a move that never commits never wakes it.
 * Then it reads the history again, so a wait that spans several moves
 * misses none.  BLOCK 0 waits for ever, BLOCK ms answers null once it has
 * waited that long.
 *
 * An XRANGE whose answer may be long is resolved the same way; its array
 * is then written a slice of rows at a time, each time the client has
 * read what was written, so that one client reading a long history does
 * not hold up the others (its next requests wait for the end, as they
 * would behind one long reply).  The rows of committed moves never change,
 * so the slices are one consistent answer.
 *
 * In RESP3 XREAD answers a map of game to entries, in RESP2 an array of
 * pairs, as Redis does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/util.h"

#define STREAM_SLICE	256		/* rows read at once */
#define STREAM_HIGH	(16 * 1024)	/* a slice is written below this */
#define SPARE_GAMES	64		/* empty waiter lists kept for reuse */

enum sstate {
	SS_IDLE = 0,
	SS_PARKED,		/* to resolve with the transaction closed */
	SS_WAITING,		/* XREAD BLOCK, waiting for a move */
	SS_STREAMING		/* a long XRANGE, being written */
};

struct sgame;
struct sconn;

/* One game an XREAD waits on. */
struct skey {
	TAILQ_ENTRY(skey)	 game_entry;
	struct sgame		*game;		/* NULL: not waiting on it */
	struct sconn		*sc;
	int			 dollar;	/* "$": to resolve */
	int64_t			 after;
	char			 id[GAME_ID_MAX + 1];
};

TAILQ_HEAD(skey_list, skey);

struct sgame {
	struct skey_list	 keys;
	struct sgame		*next_spare;
	char			 id[GAME_ID_MAX + 1];
};

/* A connection's stream state: made at its first XREAD BLOCK or long
 * XRANGE, kept (buffers grown) until it closes. */
struct sconn {
	struct conn		*conn;
	enum sstate		 state;
	int			 range;		/* parked: XRANGE, not XREAD */
	struct sconn		*next_wake;	/* stream_deliver()'s list */
	int			 waking;
	/* XREAD */
	struct skey		*keys;
	struct xread_key	*xk;		/* for cmd_xread_keys() */
	int			 nkeys, capkeys;
	int64_t			 count, block_ms;
	struct event		*timer;
	/* XRANGE */
	struct xrange_req	 req;
	char			 id[GAME_ID_MAX + 1];
	int64_t			 next, left;
};

struct streams {
	struct idmap		*games;		/* id -> struct sgame */
	struct sgame		*spare;
	int			 nspare;
};

struct streams *
streams_new(void)
{
	struct streams	*ss = xcalloc(1, sizeof(*ss));

	ss->games = idmap_new();
	return ss;
}

void
streams_free(struct streams *ss)
{
	struct sgame	*g;
	size_t		 pos = 0;

	if (ss == NULL)
		return;
	while ((g = idmap_next(ss->games, &pos)) != NULL)
		free(g);
	while ((g = ss->spare) != NULL) {
		ss->spare = g->next_spare;
		free(g);
	}
	idmap_free(ss->games);
	free(ss);
}

int
stream_busy(const struct conn *c)
{
	return c->stream != NULL && c->stream->state != SS_IDLE;
}

/* An XREAD BLOCK waiting for a move (INFO's blocked_clients). */
int
stream_blocked(const struct conn *c)
{
	return c->stream != NULL && c->stream->state == SS_WAITING;
}

int
stream_wants(const struct server *srv, const char *game)
{
	return idmap_get(srv->streams->games, game) != NULL;
}

void
stream_each_game(struct server *srv, follow_cb cb, void *arg)
{
	struct sgame	*g;
	struct skey	*k;
	size_t		 pos = 0;

	while ((g = idmap_next(srv->streams->games, &pos)) != NULL)
		TAILQ_FOREACH(k, &g->keys, game_entry)
			if (!k->dollar)
				cb(arg, g->id, k->after);
}

/* --------------------------------------------------------- waiters */

static void
key_link(struct streams *ss, struct skey *k)
{
	struct sgame	*g;

	if ((g = idmap_get(ss->games, k->id)) == NULL) {
		if ((g = ss->spare) != NULL) {
			ss->spare = g->next_spare;
			ss->nspare--;
		} else
			g = xmalloc(sizeof(*g));
		TAILQ_INIT(&g->keys);
		str_copy(g->id, sizeof(g->id), k->id);
		idmap_put(ss->games, g->id, g);
	}
	k->game = g;
	TAILQ_INSERT_TAIL(&g->keys, k, game_entry);
}

static void
key_unlink(struct streams *ss, struct skey *k)
{
	struct sgame	*g = k->game;

	if (g == NULL)
		return;
	TAILQ_REMOVE(&g->keys, k, game_entry);
	k->game = NULL;
	if (!TAILQ_EMPTY(&g->keys))
		return;
	idmap_del(ss->games, g->id);
	if (ss->nspare < SPARE_GAMES) {
		g->next_spare = ss->spare;
		ss->spare = g;
		ss->nspare++;
	} else
		free(g);
}

/* Out of every wait list, the timer off. */
static void
keys_drop(struct conn *c)
{
	struct sconn	*sc = c->stream;
	int		 i;

	for (i = 0; i < sc->nkeys; i++)
		key_unlink(c->srv->streams, &sc->keys[i]);
	if (sc->timer != NULL)
		evtimer_del(sc->timer);
	sc->state = SS_IDLE;
	sc->nkeys = 0;
}

/* Answered: the connection reads its next requests. */
static void
unblock(struct conn *c)
{
	keys_drop(c);
	if (c->state != CONN_OPEN)
		return;
	/* Its input may have been left unread while it waited. */
	if (!c->paused && !c->eof)
		bufferevent_enable(c->bev, EV_READ);
	event_active(c->resume, EV_TIMEOUT, 1);
}

void
stream_conn_free(struct conn *c)
{
	struct sconn	*sc = c->stream;

	if (sc == NULL)
		return;
	keys_drop(c);
	if (sc->timer != NULL)
		event_free(sc->timer);
	free(sc->keys);
	free(sc->xk);
	free(sc);
	c->stream = NULL;
}

static void	timeout_cb(evutil_socket_t, short, void *);

static struct sconn *
sconn_get(struct conn *c)
{
	if (c->stream == NULL) {
		c->stream = xcalloc(1, sizeof(*c->stream));
		c->stream->conn = c;
	}
	return c->stream;
}

/* ----------------------------------------------------------- replies */

/* XREAD's [[id, entries], ...] as RESP3's map of id to entries. */
static void
reshape(struct reply *r, int proto)
{
	struct reply	 m = { 0 };
	size_t		 i;

	if (proto < 3 || r->type != REPLY_ARRAY)
		return;
	reply_map(&m);
	for (i = 0; i < r->n; i++) {
		*reply_add(&m) = r->elem[i].elem[0];
		*reply_add(&m) = r->elem[i].elem[1];
		r->elem[i].n = 0;
	}
	reply_free(r);
	*r = m;
}

static void
send_free(struct conn *c, struct reply *r)
{
	conn_reply(c, r);
	reply_free(r);
}

/* A reply of the command layer, answered as any: held while the pass's
 * transaction is open (or captured, in an EXEC). */
static void
answer(struct conn *c, const struct cmd_args *a, struct reply *r,
    const struct cmd_result *res)
{
	if (c->capture != NULL)
		conn_reply(c, r);
	else
		pass_reply(c, a, r, res);
	reply_free(r);
}

/* A read of the command layer at once, on the words as read; an XREAD's
 * answer reshaped for the protocol. */
static void
run_read(struct conn *c, struct cmd_parsed *p)
{
	struct reply		 r = { 0 };
	struct cmd_result	 res;

	conncmd_run(c, p->def, p->args, p, &r, &res);
	if (p->stream.read)
		reshape(&r, c->proto);
	answer(c, p->args, &r, &res);
}

void
stream_again(struct conn *c, const struct cmd_parsed *p, struct reply *r)
{
	if (p->stream.read)
		reshape(r, c->proto);
}

/* --------------------------------------------------------------- XREAD */

static void
keys_set(struct sconn *sc, const struct xread_req *req)
{
	struct skey	*k;
	int		 i;

	if (req->nkeys > sc->capkeys) {
		sc->capkeys = req->nkeys * 2;
		sc->keys = xrealloc(sc->keys, (size_t)sc->capkeys *
		    sizeof(*sc->keys));
		sc->xk = xrealloc(sc->xk, (size_t)sc->capkeys *
		    sizeof(*sc->xk));
	}
	sc->nkeys = 0;
	for (i = 0; i < req->nkeys; i++) {
		/* No move can come for a key that is no game id. */
		if (!valid_id(req->keys[i], req->keyl[i]))
			continue;
		k = &sc->keys[sc->nkeys++];
		memset(k, 0, sizeof(*k));
		k->sc = sc;
		str_copy(k->id, sizeof(k->id), req->keys[i]);
		k->dollar = cmd_xread_id(req->ids[i], req->idl[i],
		    &k->after) == 1;
	}
	sc->count = req->count;
	sc->block_ms = req->block_ms;
}

/* "$" is the last committed move.  0, or -1 when the store failed. */
static int
keys_resolve(struct conn *c)
{
	struct sconn	*sc = c->stream;
	struct game	 g;
	int		 i, rc;

	for (i = 0; i < sc->nkeys; i++) {
		if (!sc->keys[i].dollar)
			continue;
		rc = store_load_game(c->srv->env.store, sc->keys[i].id, &g);
		if (rc == STORE_ERR)
			return -1;
		sc->keys[i].after = rc == STORE_OK ? g.moves : 0;
		sc->keys[i].dollar = 0;
	}
	return 0;
}

/* What there is after the keys' ids: 1 when it was answered (entries,
 * or an error), 0 when there is nothing. */
static int
xread_now(struct conn *c)
{
	struct sconn	*sc = c->stream;
	struct reply	 r = { 0 };
	int		 i;

	for (i = 0; i < sc->nkeys; i++) {
		sc->xk[i].id = sc->keys[i].id;
		sc->xk[i].len = strlen(sc->keys[i].id);
		sc->xk[i].after = sc->keys[i].after;
	}
	if (cmd_xread_keys(&c->srv->env, sc->xk, sc->nkeys, sc->count, &r) ==
	    0 &&
	    r.type == REPLY_NULL) {
		reply_free(&r);
		return 0;
	}
	reshape(&r, c->proto);
	send_free(c, &r);
	return 1;
}

static void
store_error(struct conn *c)
{
	struct reply	 r = { 0 };

	c->srv->env.store_errors++;
	reply_error(&r, "STORE", "%s", store_errmsg(c->srv->env.store));
	send_free(c, &r);
	unblock(c);
}

static void
xread_wait(struct conn *c)
{
	struct sconn	*sc = c->stream;
	struct timeval	 tv;
	int		 i;

	sc->state = SS_WAITING;
	for (i = 0; i < sc->nkeys; i++)
		key_link(c->srv->streams, &sc->keys[i]);
	if (sc->block_ms == 0)
		return;
	if (sc->timer == NULL &&
	    (sc->timer = evtimer_new(c->srv->base, timeout_cb, c)) == NULL) {
		log_warning("%s: no timer for XREAD BLOCK", c->addr);
		return;
	}
	tv.tv_sec = (time_t)(sc->block_ms / 1000);
	tv.tv_usec = (suseconds_t)(sc->block_ms % 1000) * 1000;
	evtimer_add(sc->timer, &tv);
}

static void
xread_resolve(struct conn *c)
{
	if (keys_resolve(c) == -1) {
		store_error(c);
		return;
	}
	if (xread_now(c))
		unblock(c);
	else
		xread_wait(c);
}

static void
timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;
	struct reply	 r = { 0 };

	(void)fd;
	(void)what;
	if (c->stream->state != SS_WAITING)
		return;
	reply_null(&r);
	send_free(c, &r);
	unblock(c);
}

/* Blocks the connection; resolved now, or at the end of the pass. */
static void
park(struct conn *c, int range)
{
	c->stream->state = SS_PARKED;
	c->stream->range = range;
	pass_pump(c);
}

/* XREAD with BLOCK: blocks; without, or in an EXEC (nothing waits in
 * one, as in Redis), a read at once. */
static void
xread_run(struct conn *c, struct cmd_parsed *p)
{
	const struct xread_req	*req = &p->stream.xread;
	struct reply		 r = { 0 };
	int			 i, n = 0;

	if (req->block_ms < 0 || c->capture != NULL) {
		run_read(c, p);
		return;
	}
	/* Each key waited on counts against max-subscriptions (quota.c). */
	for (i = 0; i < req->nkeys; i++)
		n += valid_id(req->keys[i], req->keyl[i]);
	if (quota_subscribe(c, n, &r) == -1) {
		send_free(c, &r);
		return;
	}
	keys_set(sconn_get(c), req);
	park(c, 0);
}

void
stream_deliver(struct server *srv, const char *game, const struct move *mv)
{
	struct sgame	*g;
	struct skey	*k;
	struct sconn	*wake = NULL, *sc;

	if ((g = idmap_get(srv->streams->games, game)) == NULL)
		return;
	/* Which wake first, then each, since each takes its keys out. */
	TAILQ_FOREACH(k, &g->keys, game_entry)
		if (mv->seq > k->after && !k->sc->waking) {
			k->sc->waking = 1;
			k->sc->next_wake = wake;
			wake = k->sc;
		}
	while ((sc = wake) != NULL) {
		wake = sc->next_wake;
		sc->waking = 0;
		if (sc->conn->state != CONN_OPEN)
			continue;
		if (xread_now(sc->conn))
			unblock(sc->conn);
	}
}

/* -------------------------------------------------------------- XRANGE */

/* Writes slices while the client keeps up; the end unblocks. */
static void
range_pump(struct conn *c)
{
	struct sconn	*sc = c->stream;
	struct reply	 rows = { 0 };
	int64_t		 k;
	size_t		 i;

	while (sc->left > 0 && c->state == CONN_OPEN &&
	    conn_pending(c) < STREAM_HIGH) {
		k = sc->left < STREAM_SLICE ? sc->left : STREAM_SLICE;
		reply_array(&rows);
		if (cmd_stream_rows(&c->srv->env, sc->id, sc->next, k,
		    sc->req.rev, &rows) == -1 || rows.n != (size_t)k) {
			/* Half an array sent: only a close is left. */
			log_warning("%s: XRANGE of %s cut: %s", c->addr, sc->id,
			    store_errmsg(c->srv->env.store));
			reply_free(&rows);
			conn_kill(c, "history unavailable for XRANGE");
			return;
		}
		for (i = 0; i < rows.n; i++)
			conn_reply(c, &rows.elem[i]);
		reply_free(&rows);
		sc->next += sc->req.rev ? -k : k;
		sc->left -= k;
	}
	if (sc->left == 0)
		unblock(c);
}

static void
range_resolve(struct conn *c)
{
	struct sconn	*sc = c->stream;
	struct game	 g;
	struct reply	 r = { 0 };
	char		 head[32];
	int64_t		 moves = 0, n;
	int		 rc;

	if (sc->req.valid) {
		rc = store_load_game(c->srv->env.store, sc->id, &g);
		if (rc == STORE_ERR) {
			store_error(c);
			return;
		}
		moves = rc == STORE_OK ? g.moves : 0;
	}
	n = cmd_xrange_span(&sc->req, moves);
	if (n == 0) {
		reply_array(&r);
		send_free(c, &r);
		unblock(c);
		return;
	}
	snprintf(head, sizeof(head), "*%lld\r\n", (long long)n);
	conn_write(c, head, strlen(head));
	sc->state = SS_STREAMING;
	sc->left = n;
	sc->next = sc->req.rev ? (sc->req.hi < moves ? sc->req.hi : moves) :
	    sc->req.lo;
	range_pump(c);
}

/* A range that may be long: parked, then written in slices; short
 * answers, and those of an EXEC, as any read. */
static void
range_run(struct conn *c, struct cmd_parsed *p)
{
	const struct xrange_req	*req = &p->stream.range;
	struct sconn		*sc;

	if (!req->valid || req->count <= STREAM_SLICE ||
	    req->hi - req->lo < STREAM_SLICE || c->capture != NULL) {
		run_read(c, p);
		return;
	}
	sc = sconn_get(c);
	sc->req = *req;
	str_copy(sc->id, sizeof(sc->id), req->id);
	sc->req.id = sc->id;
	park(c, 1);
}

void
stream_run(struct conn *c, const struct cmd_def *d, const struct cmd_args *a)
{
	struct cmd_parsed	 p;
	struct reply		 r = { 0 };
	struct cmd_result	 res;

	/* Its words are read once, here, and what it asks with them; a
	 * refusal is the command layer's to answer, as any. */
	if (cmd_parse(d, a, &p, NULL, &r) == -1) {
		cmd_txn_status(&c->srv->env, &res);
		answer(c, a, &r, &res);
		return;
	}
	if (p.stream.read)
		xread_run(c, &p);
	else
		range_run(c, &p);
}

/* ---------------------------------------------------------------- pump */

void
stream_pump(struct conn *c)
{
	struct sconn	*sc = c->stream;

	if (sc == NULL || c->state != CONN_OPEN)
		return;
	if (sc->state == SS_PARKED && sc->range)
		range_resolve(c);
	else if (sc->state == SS_PARKED)
		xread_resolve(c);
	else if (sc->state == SS_STREAMING)
		range_pump(c);
}
