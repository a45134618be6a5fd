/*
 * The PostgreSQL backend's queue of statements: what the requests of a
 * pass write and check, kept until the COMMIT sends it (pg_batch.c).  A
 * statement is a place in the queue and its parameters, copied into one
 * arena; a request that read what it could not see is doomed: it queues
 * nothing more, and is run again after the COMMIT.
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

static struct pg_q *
q_push(struct pg_store *s, enum pg_qkind kind)
{
	struct pg_q	*q;

	if (s->nq == s->capq) {
		s->capq = s->capq == 0 ? 64 : s->capq * 2;
		s->q = xrealloc(s->q, s->capq * sizeof(*s->q));
	}
	q = &s->q[s->nq++];
	memset(q, 0, sizeof(*q));
	q->kind = (uint8_t)kind;
	q->req = s->req;
	return q;
}

static void
arena_add(struct pg_store *s, const void *p, size_t n)
{
	if (s->alen + n > s->acap) {
		while (s->alen + n > s->acap)
			s->acap = s->acap == 0 ? 4096 : s->acap * 2;
		s->arena = xrealloc(s->arena, s->acap);
	}
	memcpy(s->arena + s->alen, p, n);
	s->alen += n;
}

int
pg_q_is_write(enum pg_qkind k)
{
	return k == PQ_TURN || k == PQ_CREATE || k == PQ_SETUP ||
	    k == PQ_DELETE || k == PQ_PENDING || k == PQ_IMPORT ||
	    k == PQ_LOBBY || k == PQ_RATINGS;
}

/* The request is doomed: what it would write is not worth sending. */
static int
doomed(const struct pg_store *s)
{
	return s->nq > 0 && s->q[s->nq - 1].kind == PQ_DOOM &&
	    s->q[s->nq - 1].req == s->req;
}

int
pg_queue(struct pg_store *s, const char *op, enum pg_stmt_id id, int n,
    const char *const *params, const struct pg_q *want)
{
	struct pg_q	*q;
	uint8_t		 null;
	int		 i;

	if (!s->open)
		return store_set_err(&s->store, op, "no transaction open");
	if (want->kind != PQ_MARK && doomed(s))
		return 0;
	q = q_push(s, (enum pg_qkind)want->kind);
	q->stmt = (uint8_t)id;
	q->nparams = (uint8_t)n;
	q->off = (uint32_t)s->alen;
	q->seq = want->seq;
	q->stamp = want->stamp;
	memcpy(q->id, want->id, sizeof(q->id));
	for (i = 0; i < n; i++) {
		null = params[i] == NULL;
		arena_add(s, &null, 1);
		if (!null)
			arena_add(s, params[i], strlen(params[i]) + 1);
	}
	if (pg_q_is_write((enum pg_qkind)q->kind))
		s->writes++;
	return 0;
}

void
pg_q_params(const struct pg_store *s, const struct pg_q *q,
    const char **params)
{
	const char	*p = s->arena + q->off;
	int		 i;

	for (i = 0; i < q->nparams; i++) {
		if (*p++ != 0) {
			params[i] = NULL;
			continue;
		}
		params[i] = p;
		p += strlen(p) + 1;
	}
}

void
pg_doom(struct pg_store *s, const char *id)
{
	struct pg_q	*q;

	if (!s->open || doomed(s))
		return;
	q = q_push(s, PQ_DOOM);
	q->outcome = STORE_REDO;
	str_copy(q->id, sizeof(q->id), id != NULL ? id : "");
}

int
pg_writes_game(const struct pg_store *s, const char *id)
{
	size_t	 i;

	if (!s->open)
		return 0;
	for (i = 0; i < s->nq; i++)
		if (pg_q_is_write((enum pg_qkind)s->q[i].kind) &&
		    (id == NULL ? s->q[i].kind == PQ_CREATE :
		    strcmp(s->q[i].id, id) == 0))
			return 1;
	return 0;
}

int
pg_writes_seq(const struct pg_store *s, enum pg_stmt_id stmt, int64_t seq)
{
	size_t	 i;

	if (!s->open)
		return 0;
	for (i = 0; i < s->nq; i++)
		if (s->q[i].stmt == stmt && s->q[i].seq == seq &&
		    s->q[i].kind != PQ_DOOM)
			return 1;
	return 0;
}

int
pg_creates_game(const struct pg_store *s, const char *id)
{
	size_t	 i;

	if (!s->open)
		return 0;
	for (i = 0; i < s->nq; i++)
		if (s->q[i].kind == PQ_CREATE && strcmp(s->q[i].id, id) == 0)
			return 1;
	return 0;
}
