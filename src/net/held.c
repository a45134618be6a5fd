/*
 * Held replies.  A reply that came from the store while the pass's
 * transaction is open promises rows that are not committed: it is kept
 * here, encoded in its connection's protocol, until the pass ends and
 * takes it (pass.c).  Once a connection has a reply held, every later
 * reply of that connection is held behind it, whatever it is, so that
 * replies leave in request order.  One buffer holds every connection's
 * bytes, in the order they were made; each entry remembers how many of
 * the transaction's moves came before it, so that the end of the pass can
 * send each move's event right after the reply of the command that made
 * it.
 *
 * This file knows nothing of sockets: it only keeps bytes and counts.
 */
#include <stdlib.h>

#include "net/conn.h"
#include "util/util.h"

#define HELD_KEEP	(4 * 1024 * 1024)	/* held bytes kept */

struct held {
	struct conn	*conn;		/* NULL once the conn is freed */
	size_t		 off;		/* in buf */
	size_t		 len;
	uint64_t	 moves;		/* the transaction's moves before it */
	int		 store;		/* it came from the store */
};

struct held_queue {
	struct resp_buf	 buf;		/* the replies' bytes */
	struct held	*held;
	size_t		 n, cap;
	size_t		 next;		/* held[0..next) taken */
	uint64_t	 moves;		/* as last noted */
};

struct held_queue *
held_new(void)
{
	return xcalloc(1, sizeof(struct held_queue));
}

void
held_free(struct held_queue *q)
{
	if (q == NULL)
		return;
	resp_buf_free(&q->buf);
	free(q->held);
	free(q);
}

void
held_note(struct held_queue *q, uint64_t moves)
{
	q->moves = moves;
}

void
held_add(struct held_queue *q, struct conn *c, const struct reply *r,
    int proto, int store)
{
	struct held	*h;
	size_t		 off = q->buf.len;

	if (q->n == q->cap) {
		q->cap = q->cap == 0 ? 256 : q->cap * 2;
		q->held = xrealloc(q->held, q->cap * sizeof *q->held);
	}
	resp_encode(&q->buf, r, proto);
	h = &q->held[q->n++];
	h->conn = c;
	h->off = off;
	h->len = q->buf.len - off;
	h->moves = q->moves;
	h->store = store;
	c->held.n++;
	c->held.bytes += h->len;
}

/* While the queue is being taken, what is written to a connection (a
 * move's event) goes out at once, between the replies of the moves it
 * follows. */
int
held_behind(const struct held_queue *q, const struct conn *c)
{
	return c->held.n > 0 && q->next == 0;
}

size_t
held_bytes(const struct conn *c)
{
	return c->held.bytes;
}

void
held_forget(struct held_queue *q, struct conn *c)
{
	size_t	 i;

	for (i = q->next; i < q->n && c->held.n > 0; i++)
		if (q->held[i].conn == c) {
			q->held[i].conn = NULL;
			c->held.n--;
		}
	c->held.n = 0;
	c->held.bytes = 0;
}

int
held_next(struct held_queue *q, struct held_out *out)
{
	struct held	*h;

	if (q->next == q->n) {
		q->n = q->next = 0;
		q->moves = 0;
		q->buf.len = 0;
		if (q->buf.cap > HELD_KEEP)
			resp_buf_free(&q->buf);
		return 0;
	}
	h = &q->held[q->next++];
	if ((out->conn = h->conn) != NULL) {
		h->conn->held.n--;
		h->conn->held.bytes -= h->len;
	}
	out->data = q->buf.data + h->off;
	out->len = h->len;
	out->moves = h->moves;
	out->store = h->store;
	return 1;
}
