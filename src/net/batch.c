/*
 * Group commit.  Every write served in one pass of the event loop, from
 * any connection and for any game, joins one SQLite transaction (the
 * command layer puts each in a savepoint of its own: cmd_batch_*), and
 * one COMMIT, with its one fsync, makes them all durable.  A reply that
 * promises a write may only leave after that COMMIT, so:
 *
 *  - the reply of every command of the command layer that runs while the
 *    batch is open is held here, encoded: a write's, and a read's too,
 *    since a read sees the batch's uncommitted rows;
 *  - once a connection has a reply held, every later reply of that
 *    connection is held behind it (replies leave in request order);
 *  - at the end of the pass the batch commits, then the held replies are
 *    written in the order they were made, then the WATCH events of its
 *    moves are sent (and the autoplay timers armed, by the command
 *    layer's hooks, which only run after a COMMIT).
 *
 * If the COMMIT fails, nothing of the batch exists: every held reply that
 * came from the store (a write's, or a read that may have seen the
 * batch's rows) becomes -STORE, no event is sent and no counter moves.
 * Replies that never depend on the store (PING, ECHO, HELLO, QUIT, a
 * command's -ERR for a bad name, arity or syntax) are released as made.
 *
 * The end of the pass is a "flush" event at the loop's lowest priority:
 * libevent runs a lower priority only when no callback of a higher one is
 * ready, so it runs after every connection that was ready has been served,
 * and in the same pass as the request when there is one client.  Caps
 * (batch-max-turns, batch-max-usec) commit earlier, mid-pass.  The flush
 * also writes every connection's output to its socket (conn.c), whether a
 * batch was open or not: replies leave once per pass, after the COMMIT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

#define BATCH_PRIORITIES	3	/* all but the flush in the middle */
#define BATCH_KEEP		(4 * 1024 * 1024)	/* held bytes kept */

struct held {
	struct conn	*conn;		/* NULL once the conn is freed */
	size_t		 off;		/* in batch.buf */
	size_t		 len;
	uint64_t	 moves;		/* the batch's moves before it */
	int		 store;		/* -STORE if COMMIT fails */
};

static struct cmd_result
txn_now(struct server *srv)
{
	struct cmd_result	 res;

	cmd_txn_status(&srv->env, &res);
	return res;
}

static uint64_t
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * The end of the pass: the COMMIT, then the output of every connection
 * (the replies it released included) to the sockets.  The flush stays
 * armed meanwhile, so what is queued here does not ask for another pass;
 * what is left (a batch a resumed reader opened, a connection that got
 * more output after its write) does.
 */
static void
flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;

	(void)fd;
	(void)what;
	batch_end(srv);
	conn_flush_all(srv);
	srv->batch.armed = 0;
	if (txn_now(srv).writes > 0 || srv->nwpend > 0)
		batch_wake(srv);
}

void
batch_wake(struct server *srv)
{
	struct batch	*b = &srv->batch;

	/* No flush once batch_free() ran: the loop is over. */
	if (b->armed || b->flush == NULL)
		return;
	b->armed = 1;
	event_active(b->flush, EV_TIMEOUT, 1);
}

int
batch_init(struct server *srv)
{
	struct batch	*b = &srv->batch;

	/*
	 * Events get priority npriorities / 2 by default: with three
	 * levels, every event made after this is at 1 and the flush alone
	 * at 2, below them.  Must come before any event is made.
	 */
	if (event_base_priority_init(srv->base, BATCH_PRIORITIES) == -1)
		return -1;
	b->flush = event_new(srv->base, -1, 0, flush_cb, srv);
	if (b->flush == NULL ||
	    event_priority_set(b->flush, BATCH_PRIORITIES - 1) == -1)
		return -1;
	srv->env.txn = cmd_txn_new();
	return 0;
}

void
batch_free(struct server *srv)
{
	struct batch	*b = &srv->batch;

	if (srv->env.txn != NULL && srv->env.store != NULL)
		batch_end(srv);
	cmd_txn_free(&srv->env);
	if (b->flush != NULL)
		event_free(b->flush);
	b->flush = NULL;
	resp_buf_free(&b->buf);
	free(b->held);
	b->held = NULL;
	b->nheld = b->cap = 0;
}

void
batch_hold(struct conn *c, const struct reply *r, int store)
{
	struct server	*srv = c->srv;
	struct batch	*b = &srv->batch;
	struct held	*h;
	int64_t		 limit = srv->cfg->output_limit;
	size_t		 off = b->buf.len;

	if (c->state == CONN_DEAD)
		return;
	if (b->nheld == b->cap) {
		b->cap = b->cap == 0 ? 256 : b->cap * 2;
		b->held = xrealloc(b->held, b->cap * sizeof *b->held);
	}
	resp_encode(&b->buf, r, c->proto);
	h = &b->held[b->nheld++];
	h->conn = c;
	h->off = off;
	h->len = b->buf.len - off;
	h->moves = txn_now(srv).moves;
	h->store = store;
	c->nheld++;
	c->held_bytes += h->len;
	if (limit > 0 && conn_pending(c) > (size_t)limit)
		conn_kill(c, "output buffer over client-output-limit");
}

void
batch_forget(struct conn *c)
{
	struct batch	*b = &c->srv->batch;
	size_t		 i;

	for (i = 0; i < b->nheld && c->nheld > 0; i++)
		if (b->held[i].conn == c) {
			b->held[i].conn = NULL;
			c->nheld--;
		}
	c->nheld = 0;
	c->held_bytes = 0;
}

/*
 * Writes the held replies in order; ok == 0: the COMMIT failed.  After
 * each reply go the events of the moves made up to it, as if every
 * command had committed alone: a move's reply, then its event, then the
 * next reply.  (An event is written at once even to a connection with
 * replies still held: batch.ending is set.)
 */
static void
release(struct server *srv, int ok)
{
	struct batch	*b = &srv->batch;
	struct reply	 err = { 0 };
	struct resp_buf	 eb = { NULL, 0, 0 };
	struct held	*h;
	struct conn	*c;
	size_t		 i;

	if (!ok && b->nheld > 0) {
		/* The same in RESP2 and RESP3: a simple error. */
		reply_error(&err, "STORE", "group commit failed: %s",
		    store_errmsg(srv->env.store));
		resp_encode(&eb, &err, 2);
		reply_free(&err);
	}
	for (i = 0; i < b->nheld; i++) {
		h = &b->held[i];
		if ((c = h->conn) != NULL) {
			c->nheld--;
			c->held_bytes -= h->len;
			if (ok || !h->store)
				conn_write(c, b->buf.data + h->off, h->len);
			else
				conn_write(c, eb.data, eb.len);
		}
		if (ok)
			watch_flush_upto(srv, h->moves);
	}
	b->nheld = 0;
	b->buf.len = 0;
	if (b->buf.cap > BATCH_KEEP)
		resp_buf_free(&b->buf);
	resp_buf_free(&eb);
}

/* The WATCH backlogs that waited: reading history while a batch is open
 * would send moves that are not committed. */
static void
resume_pumps(struct server *srv)
{
	struct conn	*c;

	srv->batch.pumps = 0;
	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->pump_later) {
			c->pump_later = 0;
			watch_pump(c);
		}
}

void
batch_end(struct server *srv)
{
	struct batch	*b = &srv->batch;
	size_t		 turns;
	int		 ok = 1;

	if (b->ending)
		return;
	b->ending = 1;
	if (txn_now(srv).writes > 0) {
		turns = txn_now(srv).writes;
		if (cmd_txn_commit(&srv->env) == -1) {
			ok = 0;
			log_warning("group commit of %zu turn(s) failed: %s",
			    turns, store_errmsg(srv->env.store));
		}
		autoplay_batch_end(srv, ok);
	}
	b->started_us = 0;
	release(srv, ok);
	/* The events follow the replies of the moves that made them. */
	watch_flush(srv);
	if (b->pumps)
		resume_pumps(srv);
	b->ending = 0;
}

void
batch_after(struct server *srv)
{
	struct batch	*b = &srv->batch;
	const struct config *cfg = srv->cfg;
	uint64_t	 t;

	if (txn_now(srv).writes == 0 || b->ending)
		return;
	if (txn_now(srv).writes >= (size_t)cfg->batch_max_turns) {
		batch_end(srv);
		return;
	}
	t = now_us();
	if (b->started_us == 0)
		b->started_us = t;
	else if (cfg->batch_max_usec > 0 &&
	    t - b->started_us >= (uint64_t)cfg->batch_max_usec) {
		batch_end(srv);
		return;
	}
	batch_wake(srv);
}

size_t
batch_writes(struct server *srv)
{
	return txn_now(srv).writes;
}
