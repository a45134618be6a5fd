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
 * With an optimistic store a reply may have to be made again: its
 * request conflicted at the COMMIT (held.h).  Such an entry keeps a copy
 * of its request; taking the queue keeps it, and its connection's later
 * replies behind it, for the next pass, which fills it with the reply of
 * the request run again.  The replies kept behind it were committed
 * already: they only wait for their turn.
 *
 * This file knows nothing of sockets: it only keeps bytes and counts.
 */
#include <stdlib.h>
#include <string.h>

#include "net/conn.h"
#include "util/util.h"

#define HELD_KEEP	(4 * 1024 * 1024)	/* held bytes kept */

/* A request kept to be run again: argv and argl point into the block. */
struct held_req {
	int		 argc;
	char		**argv;
	size_t		*argl;
};

struct held {
	struct conn	*conn;		/* NULL once the conn is freed */
	size_t		 off;		/* in buf */
	size_t		 len;
	uint64_t	 moves;		/* the transaction's moves before it */
	uint64_t	 req;		/* its request (held_tag()) */
	struct held_req	*again;		/* a copy of it, or NULL */
	uint8_t		 store;		/* it came from the store */
	uint8_t		 redo;		/* run it again */
	uint8_t		 lost;		/* enum held_lost */
	uint8_t		 tries;		/* runs again so far */
	uint8_t		 kept;		/* for the next pass */
};

struct held_queue {
	struct resp_buf	 buf;		/* the replies' bytes */
	struct held	*held;
	size_t		 n, cap;
	size_t		 next;		/* held[0..next) taken */
	size_t		 nkept;		/* of which kept */
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
	size_t	 i;

	if (q == NULL)
		return;
	for (i = 0; i < q->n; i++)
		free(q->held[i].again);
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
	memset(h, 0, sizeof(*h));
	h->conn = c;
	h->off = off;
	h->len = q->buf.len - off;
	h->moves = q->moves;
	h->store = store != 0;
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

static void
buf_add(struct resp_buf *b, const char *data, size_t n)
{
	if (n == 0)
		return;
	if (b->cap - b->len < n) {
		while (b->cap - b->len < n)
			b->cap = b->cap == 0 ? 4096 : b->cap * 2;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, data, n);
	b->len += n;
}

/* The queue taken: empty again, or holding what was kept, its bytes
 * moved to a fresh buffer in queue order. */
static void
settle(struct held_queue *q)
{
	struct resp_buf	 nb = { NULL, 0, 0 };
	struct held	*h;
	size_t		 i, k = 0;

	for (i = 0; i < q->n && q->nkept > 0; i++) {
		h = &q->held[i];
		if (!h->kept)
			continue;
		buf_add(&nb, q->buf.data + h->off, h->len);
		h->off = nb.len - h->len;
		h->kept = 0;
		if (h->conn != NULL)
			h->conn->held.blocked = 0;
		q->held[k++] = *h;
	}
	q->n = k;
	q->next = q->nkept = 0;
	q->moves = 0;
	if (k > 0) {
		resp_buf_free(&q->buf);
		q->buf = nb;
		return;
	}
	q->buf.len = 0;
	if (q->buf.cap > HELD_KEEP)
		resp_buf_free(&q->buf);
}

/* A reply to run again, or one behind it: kept.  The ones behind it
 * committed: they are final, and their events went with their pass. */
static void
keep(struct held_queue *q, struct held *h)
{
	h->kept = 1;
	q->nkept++;
	if (h->redo) {
		h->conn->held.blocked = 1;
		h->conn->held.bytes -= h->len;
		h->len = 0;
		h->store = 1;
	} else {
		/* Final: the next transaction's requests reuse its number. */
		h->store = 0;
		h->req = 0;
		free(h->again);
		h->again = NULL;
	}
	h->moves = 0;
}

int
held_next(struct held_queue *q, struct held_out *out)
{
	struct held	*h;

	for (;;) {
		if (q->next == q->n) {
			settle(q);
			return 0;
		}
		h = &q->held[q->next++];
		if (h->conn != NULL && (h->redo || h->conn->held.blocked)) {
			keep(q, h);
			continue;
		}
		break;
	}
	if ((out->conn = h->conn) != NULL) {
		h->conn->held.n--;
		h->conn->held.bytes -= h->len;
	}
	out->data = q->buf.data + h->off;
	out->len = h->len;
	out->moves = h->moves;
	out->store = h->store;
	out->lost = (enum held_lost)h->lost;
	free(h->again);
	h->again = NULL;
	return 1;
}

/* ------------------------------------------------------------ conflicts */

size_t
held_count(const struct held_queue *q)
{
	return q->n;
}

void
held_tag(struct held_queue *q, size_t i, uint64_t req,
    const struct cmd_args *a)
{
	struct held_req	*r;
	size_t		 size, n;
	char		*p;
	int		 k;

	if (i >= q->n)
		return;
	q->held[i].req = req;
	if (a == NULL || q->held[i].again != NULL)
		return;
	size = sizeof(*r) + (size_t)a->argc * (sizeof(char *) +
	    sizeof(size_t));
	for (k = 0; k < a->argc; k++)
		size += a->argl[k] + 1;
	r = xmalloc(size);
	r->argc = a->argc;
	r->argv = (char **)(void *)(r + 1);
	r->argl = (size_t *)(void *)(r->argv + a->argc);
	p = (char *)(r->argl + a->argc);
	for (k = 0; k < a->argc; k++) {
		n = a->argl[k];
		memcpy(p, a->argv[k], n);
		p[n] = '\0';
		r->argv[k] = p;
		r->argl[k] = n;
		p += n + 1;
	}
	q->held[i].again = r;
}

int
held_conflict(struct held_queue *q, uint64_t req, int redo)
{
	struct held	*h;
	size_t		 i;

	for (i = q->next; i < q->n; i++) {
		h = &q->held[i];
		if (h->req != req || h->redo)
			continue;
		if (redo && h->again != NULL && h->tries < HELD_REDO_MAX) {
			h->redo = 1;
			h->tries++;
		} else if (!redo)
			h->lost = HELD_UNKNOWN;
		else
			h->lost = h->again == NULL ? HELD_WHOLE : HELD_CONTENDED;
		return 1;
	}
	return 0;
}

int
held_redo_next(struct held_queue *q, size_t *pos, struct held_redo *hr)
{
	struct held	*h;

	for (; *pos < q->n; (*pos)++) {
		h = &q->held[*pos];
		if (!h->redo || h->conn == NULL || h->again == NULL)
			continue;
		hr->conn = h->conn;
		hr->argc = h->again->argc;
		hr->argv = h->again->argv;
		hr->argl = h->again->argl;
		hr->pos = (*pos)++;
		return 1;
	}
	return 0;
}

void
held_fill(struct held_queue *q, size_t pos, const struct reply *r,
    int proto, uint64_t req, int store)
{
	struct held	*h = &q->held[pos];
	size_t		 off = q->buf.len;

	resp_encode(&q->buf, r, proto);
	h->off = off;
	h->len = q->buf.len - off;
	h->moves = q->moves;
	h->req = req;
	h->store = store != 0;
	h->redo = 0;
	if (h->conn != NULL)
		h->conn->held.bytes += h->len;
}
