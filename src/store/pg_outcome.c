/*
 * The PostgreSQL backend's COMMITs whose connection broke before their
 * results came: what became of them is found out, not guessed.
 *
 * The old session is ended for certain first (pg_terminate_backend, which
 * waits for it, of the backend's process and start taken when the
 * connection was made), then the node's mark (ludus_nodes, written last
 * by every transaction that writes) says whether the COMMIT happened, and
 * if it did, history.txn says which turns are stored, the stamps which
 * other writes of games are, and each lobby row's write is told by its
 * row (lobby_question()); a write whose stamp has been overwritten since
 * cannot be told, and is reported lost (its reply can only be an
 * error).
 *
 * When the server cannot be asked now (it crashed, or is restarting, or
 * the old session would not end), the outcome is pending: the COMMIT
 * returns STORE_PENDING, the queue and the transaction's number are kept,
 * no new transaction begins (its mark would hide the old one's), and
 * pg_outcome() asks again, as often as the caller calls it, until the
 * server answers, or OUTCOME_MS have passed: only then is the outcome
 * "not known", which claims nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

/* How long an outcome is looked for: a server restart, a failover. */
#define OUTCOME_MS	30000
#define LOBBY_PARAMS_MAX	16	/* a lobby row's write takes at most */

/* The old session (its backend's process and start) ended for certain:
 * 1 when it is, 0 when that cannot be told (it would not end within the
 * statement's wait, or the question failed). */
static int
end_session(struct pg_store *s, int pid, int64_t start)
{
	const char	*params[2];
	char		 a[PG_INT_MAX], b[PG_INT_MAX];
	PGresult	*r;
	int		 gone;

	params[0] = pg_int(a, pid);
	params[1] = pg_int(b, start);
	if ((r = pg_rd_one(s, "commit", PS_TERMINATE, 2, params)) == NULL)
		return 0;
	gone = PQntuples(r) == 0 ||
	    (PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0);
	PQclear(r);
	return gone;
}

/* 1 when the node's mark is this transaction's, 0 when not, -1 when it
 * cannot be read. */
static int
mark_is_ours(struct pg_store *s)
{
	const char	*params[1];
	char		 v[PG_INT_MAX];
	PGresult	*r;
	int64_t		 txn;
	int		 rc = -1;

	params[0] = pg_int(v, s->node);
	if ((r = pg_rd_one(s, "commit", PS_OUTCOME, 1, params)) == NULL)
		return -1;
	if (PQntuples(r) == 1 && pg_col_int(r, 0, 0, &txn) == 0)
		rc = txn == s->txn;
	PQclear(r);
	return rc;
}

/* The question that tells what a lobby row's write became, by the
 * write's statement (pg_stmt.c); -1: none can. */
static int
lobby_question(const struct pg_q *q)
{
	switch (q->stmt) {
	case PS_TICKET_INSERT:
	case PS_TICKET_IMPORT:
		return PS_TICKET_IS;
	case PS_TICKET_CANCEL:
		return PS_CANCEL_IS;
	case PS_ACCOUNT_INSERT:
	case PS_ACCOUNT_REKEY:
		return PS_ACCOUNT_KEY_IS;
	case PS_SEAT_IMPORT:
		return PS_SEAT_IS;
	default:
		return -1;
	}
}

/* What one write of a committed transaction became, queued on the read
 * connection. */
static int
ask_one(struct pg_store *s, const struct pg_q *q)
{
	const char	*params[LOBBY_PARAMS_MAX];
	char		 a[PG_INT_MAX], b[PG_INT_MAX];

	if (q->kind == PQ_LOBBY) {
		if (q->nparams > LOBBY_PARAMS_MAX)
			return -1;
		pg_q_params(s, q, params);
		return pg_send(s->rd.pc, (enum pg_stmt_id)lobby_question(q),
		    q->nparams, params);
	}
	params[0] = q->id;
	if (q->kind == PQ_TURN) {
		params[1] = pg_int(a, q->seq);
		params[2] = pg_int(b, s->txn);
		return pg_send(s->rd.pc, PS_TURN_STORED, 3, params);
	}
	params[1] = pg_int(a, q->stamp);
	return pg_send(s->rd.pc, PS_STAMP_IS, 2, params);
}

static int
asked(const struct pg_q *q)
{
	return (q->kind >= PQ_TURN && q->kind <= PQ_PENDING) ||
	    (q->kind == PQ_LOBBY && lobby_question(q) >= 0);
}

/* The writes of a transaction that committed, one round trip; the
 * checks, whose answers were lost, are run again. */
static int
ask_writes(struct pg_store *s)
{
	PGresult	**res;
	size_t		 i, n = 0;
	int		 rc = 0;

	res = xcalloc(s->nq + 1, sizeof(*res));
	for (i = 0; i < s->nq && rc == 0; i++) {
		if (s->q[i].kind == PQ_CHECK)
			s->q[i].outcome = STORE_REDO;
		else if (s->q[i].kind == PQ_RATINGS)
			/* Ratings that changed meanwhile roll the whole
			 * transaction back: committed, they are stored. */
			s->q[i].outcome = 0;
		else if (s->q[i].kind == PQ_LOBBY && !asked(&s->q[i]))
			s->q[i].outcome = STORE_LOST;
		else if (asked(&s->q[i])) {
			rc = ask_one(s, &s->q[i]);
			n++;
		}
	}
	if (rc != 0) {
		pg_drop_rd(s);
		free(res);
		return -1;
	}
	if (n > 0 && pg_rd_run(s, "commit", res, (int)n) != 0) {
		free(res);
		return -1;
	}
	for (i = 0, n = 0; i < s->nq; i++) {
		if (!asked(&s->q[i]))
			continue;
		/* A turn or a lobby row not written conflicted, as its
		 * statement's empty result would have said; another write
		 * may have been overwritten since, and cannot be told. */
		if (PQntuples(res[n]) == 1)
			s->q[i].outcome = 0;
		else
			s->q[i].outcome = s->q[i].kind == PQ_TURN ||
			    s->q[i].kind == PQ_LOBBY ? STORE_REDO : STORE_LOST;
		n++;
	}
	pg_clear(res, (int)n);
	free(res);
	return 0;
}

/* Once: 0 (it committed; conflicts() reports the requests), STORE_ERR
 * (it did not, the message says so), or STORE_PENDING (it cannot be
 * told now). */
static int
ask(struct pg_store *s)
{
	int	 ours;

	if (pg_ready_rd(s, "commit") != 0 ||
	    !end_session(s, s->lost_pid, s->lost_start) ||
	    (ours = mark_is_ours(s)) < 0)
		return STORE_PENDING;
	if (!ours) {
		s->nq = 0;
		s->found++;
		return store_set_err(&s->store, "commit",
		    "connection to PostgreSQL lost; the transaction did not "
		    "commit");
	}
	if (ask_writes(s) != 0)
		return STORE_PENDING;
	pg_whole_found(s);
	s->found++;
	s->found_stored++;
	return 0;
}

int
pg_outcome(struct store *st, int last)
{
	struct pg_store	*s = to_pg(st);
	int		 rc;

	if (!s->pending)
		return store_set_err(st, "commit", "no outcome to find out");
	if ((rc = ask(s)) != STORE_PENDING) {
		s->pending = 0;
		return rc;
	}
	if (last || pg_now_ms() - s->pending_ms >= OUTCOME_MS) {
		s->pending = 0;
		s->nq = 0;
		return store_set_err(st, "commit", "connection to PostgreSQL "
		    "lost; the outcome is not known");
	}
	store_set_err(st, "commit", "connection to PostgreSQL lost; finding "
	    "out whether the transaction committed");
	return STORE_PENDING;
}

int
pg_find_out(struct pg_store *s)
{
	s->lost_pid = s->wr.pid;
	s->lost_start = s->wr.start;
	pg_drop(s);
	s->pending = 1;
	s->pending_ms = pg_now_ms();
	return pg_outcome(&s->store, 0);
}
