/*
 * The PostgreSQL backend's transaction: the caller's BEGIN ... COMMIT,
 * on the write connection, in libpq's pipeline mode.
 *
 * Nothing is sent before the COMMIT: each write and check of the
 * requests of the pass is queued (pg_queue(), pg_queue.c), and BEGIN, the queue,
 * the node's mark (below) and COMMIT go out in one round trip with one
 * sync; their results are read in order.  A write or a check that finds
 * its row changed returns no row: that request conflicted (conflicts()),
 * the others commit.  Any error aborts the pipeline and so the whole
 * transaction (a ROLLBACK then ends it).  A savepoint is a place in the
 * queue: rolled back, its statements are taken out again (each write is
 * one statement, all or nothing by itself, so no server savepoint is
 * needed, and none costs a subtransaction).  The queue is sent in the
 * order of the games' ids (each game's statements in the order they
 * came): every node then takes its rows' locks in the same order, and two
 * nodes whose transactions write the same games wait for one another at
 * most, never deadlock.
 *
 * The mark: a transaction that writes also sets this node's row of
 * ludus_nodes to its number.  If the connection breaks while the results
 * are read, the outcome is found out, not guessed (pg_outcome.c).
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

static void
q_reset(struct pg_store *s)
{
	s->nq = 0;
	s->alen = 0;
	s->open = 0;
	s->nsp = 0;
	s->nwhole = 0;
}

static int
send_plain(PGconn *pc, const char *sql)
{
	return PQsendQueryParams(pc, sql, 0, NULL, NULL, NULL, NULL, 0) == 1 ?
	    0 : -1;
}

int
pg_begin(struct store *st)
{
	struct pg_store	*s = to_pg(st);

	if (s->open)
		return store_set_err(st, "begin",
		    "cannot start a transaction within a transaction");
	/* Its mark would hide whether the one before it committed. */
	if (s->pending)
		return store_set_err(st, "begin", "the outcome of the last "
		    "COMMIT is being found out");
	q_reset(s);
	if (pg_ready(s, "begin") != 0)
		return STORE_ERR;
	s->txn = pg_unique(s);
	s->open = 1;
	return 0;
}

static int
queue_writes(const struct pg_store *s)
{
	size_t	 i;

	for (i = 0; i < s->nq; i++)
		if (pg_q_is_write((enum pg_qkind)s->q[i].kind))
			return 1;
	return 0;
}

void
pg_request(struct store *st, uint64_t req)
{
	to_pg(st)->req = req;
}

/* Sends one queued statement with its parameters from the arena. */
static int
send_queued(struct pg_store *s, const struct pg_q *q)
{
	const char	*params[64];

	pg_q_params(s, q, params);
	return pg_send(s->wr.pc, (enum pg_stmt_id)q->stmt, q->nparams,
	    params);
}

/* BEGIN, the queue (its turns as one statement when pg_set.c takes
 * them) and COMMIT into libpq's buffer: 0, or -1 when libpq refused one
 * (the connection is known broken: nothing was sent). */
static int
send_all(struct pg_store *s)
{
	size_t	 i;

	if (send_plain(s->wr.pc, "BEGIN") != 0)
		return -1;
	for (i = 0; i <= s->nsent; i++) {
		if (s->use_set && i == s->set.at && pg_set_send(s) != 0)
			return -1;
		if (i < s->nsent && !s->q[s->order[i]].inset &&
		    send_queued(s, &s->q[s->order[i]]) != 0)
			return -1;
	}
	return send_plain(s->wr.pc, "COMMIT");
}

static struct pg_store	*sorting;	/* qsort() has no argument */

/* After every game's statements: the whole requests' checks, then the
 * mark (neither has an id). */
static int
late(const struct pg_q *q)
{
	return q->kind == PQ_MARK ? 2 : q->kind == PQ_WHOLE;
}

/* By game id, then by place in the queue; late() ones last. */
static int
order_cmp(const void *a, const void *b)
{
	const struct pg_q	*x = &sorting->q[*(const size_t *)a];
	const struct pg_q	*y = &sorting->q[*(const size_t *)b];
	int			 c;

	if (late(x) != late(y))
		return late(x) - late(y);
	if ((c = strcmp(x->id, y->id)) != 0)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The statements to send (the doomed ones send none), in order. */
static void
order_queue(struct pg_store *s)
{
	size_t	 i;

	if (s->caporder < s->nq) {
		s->caporder = s->capq;
		s->order = xrealloc(s->order, s->caporder * sizeof(*s->order));
	}
	for (i = s->nsent = 0; i < s->nq; i++)
		if (s->q[i].kind != PQ_DOOM)
			s->order[s->nsent++] = i;
	sorting = s;
	qsort(s->order, s->nsent, sizeof(*s->order), order_cmp);
	sorting = NULL;
}

/* ------------------------------------------------------------ results */

/* The next result and the NULL after it; NULL if the connection broke. */
static PGresult *
next(PGconn *pc)
{
	PGresult	*r, *end;

	if (PQstatus(pc) != CONNECTION_OK || (r = PQgetResult(pc)) == NULL)
		return NULL;
	if (PQresultStatus(r) != PGRES_PIPELINE_SYNC)
		while (PQstatus(pc) == CONNECTION_OK &&
		    (end = PQgetResult(pc)) != NULL)
			PQclear(end);
	return r;
}

/* One statement's result: 0, STORE_REDO (a check that found no row), or
 * -1 for an error (the first one's message is kept). */
static int
outcome(struct pg_store *s, const char *op, const struct pg_q *q,
    PGresult *r, int *failed)
{
	ExecStatusType	 t = PQresultStatus(r);

	if (t == PGRES_PIPELINE_ABORTED)
		return -1;
	if (t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK) {
		if (!*failed)
			pg_err(s, op, s->wr.pc, r);
		*failed = 1;
		return -1;
	}
	switch (q->kind) {
	case PQ_CHECK:
	case PQ_TURN:
	case PQ_CREATE:
	case PQ_SETUP:
	case PQ_DELETE:
	case PQ_PENDING:
	case PQ_LOBBY:
		return PQntuples(r) == 1 ? 0 : STORE_REDO;
	default:
		return 0;
	}
}

/* BEGIN's or COMMIT's result: 0, -1 when the connection broke. */
static int
read_one(struct pg_store *s, int *failed)
{
	static const struct pg_q	 plain = { .kind = PQ_BEGIN };
	PGresult			*r;

	if ((r = next(s->wr.pc)) == NULL)
		return -1;
	if (outcome(s, "commit", &plain, r, failed) < 0)
		*failed = 1;
	PQclear(r);
	return 0;
}

/* The COMMIT's own result says it committed. */
static int
said_commit(const PGresult *r)
{
	return PQresultStatus(r) == PGRES_COMMAND_OK &&
	    strcmp(PQcmdStatus((PGresult *)r), "COMMIT") == 0;
}

/*
 * Reads the results of BEGIN, the queue, COMMIT and the sync: 0 when all
 * came (*failed set if one was an error), -1 when the connection broke
 * first.  Once the COMMIT's own result has said COMMIT (*committed),
 * the transaction is durable whatever follows: a server that shuts down
 * sends its FATAL as soon as it takes the signal, which may be in place
 * of the sync's result, and a connection cut then loses only that.
 */
static int
read_results(struct pg_store *s, int *failed, int *committed)
{
	struct pg_q	*q;
	PGresult	*r;
	size_t		 i;
	int		 oc;

	*committed = 0;
	if (read_one(s, failed) != 0)
		return -1;
	for (i = 0; i <= s->nsent; i++) {
		if (s->use_set && i == s->set.at) {
			if ((r = next(s->wr.pc)) == NULL)
				return -1;
			if (pg_set_read(s, r, failed) < 0)
				*failed = 1;
			PQclear(r);
		}
		if (i == s->nsent)
			break;
		q = &s->q[s->order[i]];
		if (q->inset)
			continue;
		if ((r = next(s->wr.pc)) == NULL)
			return -1;
		if (!*failed && pg_whole_refused(q, r))
			s->whole_failed = 1;
		if ((oc = outcome(s, "commit", q, r, failed)) < 0)
			*failed = 1;
		else
			q->outcome = (uint8_t)oc;
		PQclear(r);
	}
	if ((r = next(s->wr.pc)) == NULL)
		return -1;
	if (!*failed && said_commit(r))
		*committed = 1;
	else if (outcome(s, "commit", &(struct pg_q){ .kind = PQ_COMMIT }, r,
	    failed) < 0)
		*failed = 1;
	PQclear(r);
	if ((r = next(s->wr.pc)) == NULL)
		return *committed ? 0 : -1;
	if (PQresultStatus(r) != PGRES_PIPELINE_SYNC && !*committed) {
		if (!*failed)
			pg_err(s, "commit", s->wr.pc, r);
		*failed = 1;
	}
	PQclear(r);
	return 0;
}

/* After an error the transaction block is aborted: ROLLBACK ends it. */
static void
abort_block(struct pg_store *s)
{
	PGresult	*r;
	int		 n = 0;

	if (send_plain(s->wr.pc, "ROLLBACK") != 0 ||
	    PQpipelineSync(s->wr.pc) != 1 || PQflush(s->wr.pc) != 0) {
		pg_drop(s);
		return;
	}
	while (n < 2 && (r = next(s->wr.pc)) != NULL) {
		n++;
		if (PQresultStatus(r) == PGRES_PIPELINE_SYNC)
			n = 2;
		PQclear(r);
	}
	if (n < 2)
		pg_drop(s);
}

int
pg_commit(struct store *st)
{
	struct pg_store	*s = to_pg(st);
	struct pg_q	 mark;
	const char	*params[2];
	char		 node[PG_INT_MAX], txn[PG_INT_MAX];
	int		 failed = 0, committed;

	if (!s->open || s->nq == 0) {
		q_reset(s);
		return 0;
	}
	pg_whole_prepare(s);
	if (queue_writes(s)) {
		memset(&mark, 0, sizeof(mark));
		mark.kind = PQ_MARK;
		mark.req = s->req;
		params[0] = pg_int(node, s->node);
		params[1] = pg_int(txn, s->txn);
		(void)pg_queue(s, "commit", PS_MARK, 2, params, &mark);
	}
	s->open = 0;
	order_queue(s);
	s->use_set = pg_set_plan(s);
	if (pg_ready_wr(s, "commit") != 0) {
		/* Nothing has left: it did not commit. */
		s->nq = 0;
		return STORE_ERR;
	}
	if (send_all(s) != 0) {
		/* Refused before anything left: it did not commit. */
		pg_err(s, "commit", s->wr.pc, NULL);
		s->nq = 0;
		pg_drop(s);
		return STORE_ERR;
	}
	if (PQpipelineSync(s->wr.pc) != 1 || PQflush(s->wr.pc) != 0 ||
	    read_results(s, &failed, &committed) != 0)
		return pg_find_out(s);
	if (committed) {
		/* What came after the COMMIT may have ended the connection. */
		if (PQstatus(s->wr.pc) != CONNECTION_OK ||
		    PQpipelineStatus(s->wr.pc) != PQ_PIPELINE_ON ||
		    PQtransactionStatus(s->wr.pc) != PQTRANS_IDLE)
			pg_drop(s);
		return 0;
	}
	if (!failed)
		return 0;
	abort_block(s);
	if (s->whole_failed) {
		/* No error: the conflict of a whole request. */
		pg_whole_undone(s);
		return 0;
	}
	s->nq = 0;
	return STORE_ERR;
}

/* Nothing of the queue has left: it is forgotten (but for a COMMIT's
 * whose outcome is being found out: that one is over already). */
void
pg_rollback(struct store *st)
{
	if (!to_pg(st)->pending)
		q_reset(to_pg(st));
}

void
pg_conflicts(struct store *st, void (*cb)(void *, uint64_t, const char *,
    enum store_outcome), void *arg)
{
	struct pg_store	*s = to_pg(st);
	size_t		 i;

	for (i = 0; i < s->nq; i++)
		if (s->q[i].outcome != 0)
			cb(arg, s->q[i].req, pg_q_game(&s->q[i]) ?
			    s->q[i].id : NULL,
			    (enum store_outcome)s->q[i].outcome);
}

/* ---------------------------------------------------- alone, at once */

int
pg_write_alone(struct pg_store *s, const char *op, enum pg_stmt_id id,
    int n, const char *const *params, enum pg_qkind kind)
{
	PGresult	*r;
	int		 failed = 0, rc;

	if (s->pending)
		return store_set_err(&s->store, op, "the outcome of the last "
		    "COMMIT is being found out");
	q_reset(s);
	if (pg_ready(s, op) != 0 || pg_ready_wr(s, op) != 0)
		return STORE_ERR;
	if (pg_send(s->wr.pc, id, n, params) != 0 ||
	    PQpipelineSync(s->wr.pc) != 1 || PQflush(s->wr.pc) != 0 ||
	    (r = next(s->wr.pc)) == NULL) {
		pg_err(s, op, s->wr.pc, NULL);
		pg_drop(s);
		return STORE_ERR;
	}
	s->writes++;
	rc = outcome(s, op, &(struct pg_q){ .kind = (uint8_t)kind }, r,
	    &failed);
	PQclear(r);
	if ((r = next(s->wr.pc)) == NULL ||
	    PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
		PQclear(r);
		pg_drop(s);
		return failed ? STORE_ERR :
		    store_set_err(&s->store, op, "connection lost");
	}
	PQclear(r);
	if (rc < 0)
		return STORE_ERR;
	return rc == STORE_REDO ? STORE_NOTFOUND : 0;
}

/* ------------------------------------------- what the core asks */

/* The savepoints nest (an EXEC's group holds its commands' turns): each
 * is a place in the queue, the innermost last. */
int
pg_savepoint(struct store *st, enum store_sp sp, const char *op)
{
	struct pg_store	*s = to_pg(st);

	(void)sp;
	if (s->nsp == PG_SAVEPOINTS)
		return store_set_err(st, op, "savepoints nested too deep");
	s->spq[s->nsp] = s->nq;
	s->spa[s->nsp++] = s->alen;
	return 0;
}

int
pg_release(struct store *st, enum store_sp sp, const char *op)
{
	struct pg_store	*s = to_pg(st);

	(void)sp;
	(void)op;
	if (s->nsp > 0)
		s->nsp--;
	return 0;
}

/* The innermost savepoint's statements out of the queue; a doomed
 * request stays doomed (it read what it could not see, whatever it
 * wrote). */
void
pg_rollback_to(struct store *st, enum store_sp sp)
{
	struct pg_store	*s = to_pg(st);
	size_t		 i, n, at;

	(void)sp;
	if (!s->open || s->nsp == 0)
		return;
	at = s->spq[--s->nsp];
	if (at > s->nq)
		return;
	for (i = n = at; i < s->nq; i++)
		if (s->q[i].kind == PQ_DOOM)
			s->q[n++] = s->q[i];
	s->nq = n;
	s->alen = s->spa[s->nsp];
}

int
pg_in_txn(struct store *st)
{
	return to_pg(st)->open;
}

/* No number moves with other nodes' commits (their writes are found by
 * the version checks); a reconnect may have missed anything, and the
 * cache is emptied. */
int
pg_data_version(struct store *st, int64_t *v)
{
	*v = to_pg(st)->reconnects;
	return 0;
}

int64_t
pg_changes(struct store *st)
{
	return to_pg(st)->writes;
}
