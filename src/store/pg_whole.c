/*
 * The PostgreSQL backend's whole requests (store_request_whole(): an
 * EXEC): all that one request writes is stored, or none of it.
 *
 * Each write is one statement checked on its own (pg_batch.c), so two
 * writes of one request to two games could commit one without the other.
 * A whole request that writes gets one more statement, sent after every
 * game's statements: it counts the request's games that still have the
 * stamps the request put (or read, for a game it only read), or that a
 * later write of the same transaction put on top of them, and divides by
 * zero when one is missing.  That error rolls the whole transaction back,
 * in the same round trip: every request of it conflicted, and runs again
 * (or, the whole request, is answered as its caller says).  A whole
 * request found doomed before the COMMIT sends nothing at all.
 *
 * No lock is taken and no round trip added; the price of a conflict of
 * a whole request is the rest of its transaction run again, which is the
 * rare case (another node wrote one of its games in the same instant).
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

#define DIV_BY_ZERO	"22012"

void
pg_whole(struct store *st)
{
	struct pg_store	*s = to_pg(st);

	if (!s->open)
		return;
	if (s->nwhole > 0 && s->whole[s->nwhole - 1] == s->req)
		return;
	if (s->nwhole == s->capwhole) {
		s->capwhole = s->capwhole == 0 ? 4 : s->capwhole * 2;
		s->whole = xrealloc(s->whole, s->capwhole * sizeof(*s->whole));
	}
	s->whole[s->nwhole++] = s->req;
}

/* The stamps of a set, small: a game's chain within one transaction. */
struct stamps {
	int64_t	*v;
	size_t	 n, cap;
};

static int
stamps_has(const struct stamps *st, int64_t v)
{
	size_t	 i;

	for (i = 0; i < st->n; i++)
		if (st->v[i] == v)
			return 1;
	return 0;
}

static void
stamps_add(struct stamps *st, int64_t v)
{
	if (stamps_has(st, v))
		return;
	if (st->n == st->cap) {
		st->cap = st->cap == 0 ? 8 : st->cap * 2;
		st->v = xrealloc(st->v, st->cap * sizeof(*st->v));
	}
	st->v[st->n++] = v;
}

/*
 * The stamps game id may end the transaction with if request req's share
 * of it stands: the last it put (or what it read), and each put on top of
 * one of those by a later write of the transaction.
 */
static void
chain(const struct pg_store *s, uint64_t req, const char *id,
    struct stamps *st)
{
	const struct pg_q	*q;
	size_t			 i;

	st->n = 0;
	for (i = 0; i < s->nq; i++) {
		q = &s->q[i];
		if (strcmp(q->id, id) != 0)
			continue;
		if (q->req == req && pg_q_is_write((enum pg_qkind)q->kind)) {
			st->n = 0;
			stamps_add(st, q->stamp);
		} else if (q->req == req && q->kind == PQ_CHECK)
			stamps_add(st, q->base);
		else if (q->req != req && q->kind != PQ_CREATE &&
		    pg_q_is_write((enum pg_qkind)q->kind) &&
		    stamps_has(st, q->base))
			stamps_add(st, q->stamp);
	}
}

/* 1 when game id came before q[i] in request req's statements. */
static int
seen_before(const struct pg_store *s, uint64_t req, size_t i)
{
	size_t	 j;

	for (j = 0; j < i; j++)
		if (s->q[j].req == req && strcmp(s->q[j].id, s->q[i].id) == 0)
			return 1;
	return 0;
}

/* Its check queued: the pairs (game, stamp) that must all be there. */
static void
queue_check(struct pg_store *s, uint64_t req)
{
	struct pg_buf	 ids = { NULL, 0, 0 }, vals = { NULL, 0, 0 };
	struct stamps	 st = { NULL, 0, 0 };
	struct pg_q	 want;
	const char	*params[3];
	char		 n[PG_INT_MAX];
	uint64_t	 saved = s->req;
	size_t		 i, k, nq = s->nq;
	int64_t		 games = 0;

	pg_buf_start(&ids);
	pg_buf_start(&vals);
	for (i = 0; i < nq; i++) {
		if (s->q[i].req != req || !pg_q_game(&s->q[i]) ||
		    (s->q[i].kind != PQ_CHECK &&
		    !pg_q_is_write((enum pg_qkind)s->q[i].kind)) ||
		    seen_before(s, req, i))
			continue;
		chain(s, req, s->q[i].id, &st);
		games++;
		for (k = 0; k < st.n; k++) {
			pg_buf_text(&ids, s->q[i].id, strlen(s->q[i].id));
			pg_buf_int(&vals, st.v[k]);
		}
	}
	params[0] = pg_buf_end(&ids);
	params[1] = pg_buf_end(&vals);
	params[2] = pg_int(n, games);
	memset(&want, 0, sizeof(want));
	want.kind = PQ_WHOLE;
	s->req = req;
	(void)pg_queue(s, "commit", PS_WHOLE, 3, params, &want);
	s->req = saved;
	pg_buf_free(&ids);
	pg_buf_free(&vals);
	free(st.v);
}

/* Every statement of the request: nothing of it is sent. */
static void
doom_all(struct pg_store *s, uint64_t req)
{
	size_t	 i;

	for (i = 0; i < s->nq; i++)
		if (s->q[i].req == req) {
			s->q[i].kind = PQ_DOOM;
			s->q[i].outcome = STORE_REDO;
		}
}

void
pg_whole_prepare(struct pg_store *s)
{
	size_t	 w, i;
	int	 doomed, wrote;

	s->whole_failed = 0;
	for (w = 0; w < s->nwhole; w++) {
		doomed = wrote = 0;
		for (i = 0; i < s->nq; i++) {
			if (s->q[i].req != s->whole[w])
				continue;
			doomed |= s->q[i].kind == PQ_DOOM;
			wrote |= pg_q_is_write((enum pg_qkind)s->q[i].kind);
		}
		if (doomed)
			doom_all(s, s->whole[w]);
		else if (wrote)
			queue_check(s, s->whole[w]);
	}
	s->nwhole = 0;
}

int
pg_whole_refused(const struct pg_q *q, const PGresult *r)
{
	const char	*state;

	/* A rating written on top of another than it read refuses the
	 * same way (pg_lobby.c). */
	if (q->kind != PQ_WHOLE && q->kind != PQ_RATINGS)
		return 0;
	state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	return state != NULL && strcmp(state, DIV_BY_ZERO) == 0;
}

void
pg_whole_undone(struct pg_store *s)
{
	size_t	 i;

	for (i = 0; i < s->nq; i++)
		if (s->q[i].kind >= PQ_CHECK && s->q[i].kind <= PQ_DOOM)
			s->q[i].outcome = STORE_REDO;
		else
			s->q[i].outcome = 0;
}

void
pg_whole_found(struct pg_store *s)
{
	size_t	 i, k;

	for (i = 0; i < s->nq; i++)
		if (s->q[i].kind == PQ_WHOLE)
			for (k = 0; k < s->nq; k++)
				if (s->q[k].req == s->q[i].req &&
				    s->q[k].kind != PQ_DOOM)
					s->q[k].outcome = 0;
}
