/*
 * The PostgreSQL backend's connections: connecting (libpq's URI, with a
 * connect timeout of its own unless the URI has one), the session's
 * settings, the statements prepared, pipeline mode; dropping them when
 * one breaks and connecting again on the next use, at most once per
 * PG_RECONNECT_MS while the server is down (a server that restarts is found
 * again by itself, and meanwhile every request is refused at once); and
 * the round trips of the read connection.
 */
#include <sys/random.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/pg_int.h"
#include "util/util.h"


/*
 * The session: bytea in hex (what pg_col_bytea() reads), a lock wait
 * bounded (a node stopped while the server ran its transaction holds
 * row locks), a transaction left idle by a node that stopped in the
 * middle of sending it ended by the server, and the durability.
 */
static const char *const session_sql[] = {
	[DURABILITY_FULL] = "SET bytea_output = hex;"
	    " SET idle_in_transaction_session_timeout = '5s';"
	    " SET synchronous_commit = on",
	[DURABILITY_NORMAL] = "SET bytea_output = hex;"
	    " SET idle_in_transaction_session_timeout = '5s';"
	    " SET synchronous_commit = on",
	[DURABILITY_OFF] = "SET bytea_output = hex;"
	    " SET idle_in_transaction_session_timeout = '5s';"
	    " SET synchronous_commit = off",
};

int64_t
pg_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* splitmix64: every value of the state gives a different output, so a
 * node never repeats itself, and a random start keeps nodes apart. */
int64_t
pg_unique(struct pg_store *s)
{
	uint64_t	 z;

	if (s->rng == 0 && getrandom(&s->rng, sizeof(s->rng), 0) !=
	    (ssize_t)sizeof(s->rng))
		s->rng = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
	z = (s->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	z &= INT64_MAX;
	return z == 0 ? 1 : (int64_t)z;
}

int
pg_err(struct pg_store *s, const char *op, PGconn *pc, const PGresult *r)
{
	const char	*msg = NULL;
	char		 buf[200];
	size_t		 n;

	if (r != NULL)
		msg = PQresultErrorMessage(r);
	if ((msg == NULL || *msg == '\0') && pc != NULL)
		msg = PQerrorMessage(pc);
	if (msg == NULL || *msg == '\0')
		msg = "connection to PostgreSQL lost";
	/* libpq's messages start with "ERROR:  " and end in a newline. */
	if (strncmp(msg, "ERROR:  ", 8) == 0)
		msg += 8;
	str_copy(buf, sizeof(buf), msg);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return store_set_err(&s->store, op, buf);
}

/*
 * Notices ("relation already exists, skipping") are nobody's business,
 * but for one: what comes while the connection is idle (libpq hands it
 * over as a notice) with a FATAL, or the code of an operator's shutdown
 * (57P01-57P03: a fast one's FATAL, an immediate one's WARNING), is the
 * server ending the session, and the connection is gone.
 */
static void
notice(void *arg, const PGresult *r)
{
	struct pg_db	*db = arg;
	const char	*sev, *code;

	sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
	code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	if ((sev != NULL && (strcmp(sev, "FATAL") == 0 ||
	    strcmp(sev, "PANIC") == 0)) ||
	    (code != NULL && strncmp(code, "57P", 3) == 0))
		db->ended = 1;
}

static void
db_close(struct pg_store *s, struct pg_db *db)
{
	if (db->pc != NULL) {
		PQfinish(db->pc);
		s->reconnects++;
	}
	db->pc = NULL;
	db->ready = 0;
	db->pid = 0;
	db->start = 0;
	db->ended = 0;
	if (db == &s->rd)
		pg_load_forget(s);
}

void
pg_drop(struct pg_store *s)
{
	db_close(s, &s->wr);
	db_close(s, &s->rd);
}

void
pg_drop_rd(struct pg_store *s)
{
	db_close(s, &s->rd);
}

static int
exec_ok(PGconn *pc, const char *sql)
{
	PGresult	*r = PQexec(pc, sql);
	int		 ok;

	ok = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
	PQclear(r);
	return ok;
}

/* The lock wait is the caller's (store_set_lock_wait()). */
static int
set_lock_timeout(PGconn *pc, int ms)
{
	const char	*params[1];
	char		 v[PG_INT_MAX + 2];
	PGresult	*r;
	int		 ok;

	params[0] = pg_int(v, ms > 0 ? ms : 1);
	r = PQexecParams(pc, "SELECT set_config('lock_timeout', $1, false)",
	    1, NULL, params, NULL, NULL, 0);
	ok = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK;
	PQclear(r);
	return ok;
}

/* Which backend serves the connection (struct pg_db): 0, or -1. */
static int
backend_of(struct pg_db *db)
{
	PGresult	*r;
	int		 ok;

	db->pid = PQbackendPID(db->pc);
	r = PQexec(db->pc, "SELECT (extract(epoch FROM backend_start)"
	    " * 1000000)::bigint FROM pg_stat_activity"
	    " WHERE pid = pg_backend_pid()");
	ok = r != NULL && PQresultStatus(r) == PGRES_TUPLES_OK &&
	    PQntuples(r) == 1 && pg_col_int(r, 0, 0, &db->start) == 0 &&
	    db->pid > 0;
	PQclear(r);
	return ok ? 0 : -1;
}

/* A connect_timeout of the URI's own comes later and wins (a connection
 * begun without waiting has none: its caller bounds the wait). */
static const char *const conn_kw[] = { "connect_timeout", "application_name",
    "dbname", NULL };

static void
conn_val(struct pg_store *s, const char *val[4])
{
	val[0] = "5";
	val[1] = "ludusd";
	val[2] = s->uri;
	val[3] = NULL;
}

PGconn *
pg_connect_start(struct pg_store *s, const char *op)
{
	const char	*val[4];
	PGconn		*pc;

	conn_val(s, val);
	if ((pc = PQconnectStartParams(conn_kw, val, 1)) == NULL) {
		store_set_err(&s->store, op, "out of memory");
		return NULL;
	}
	if (PQstatus(pc) == CONNECTION_BAD) {
		pg_err(s, op, pc, NULL);
		PQfinish(pc);
		return NULL;
	}
	return pc;
}

static int
db_open(struct pg_store *s, struct pg_db *db, const char *op)
{
	const char	*val[4];

	conn_val(s, val);
	db->pc = PQconnectdbParams(conn_kw, val, 1);
	if (db->pc == NULL)
		return store_set_err(&s->store, op, "out of memory");
	if (PQstatus(db->pc) != CONNECTION_OK) {
		pg_err(s, op, db->pc, NULL);
		db_close(s, db);
		return STORE_ERR;
	}
	(void)PQsetNoticeReceiver(db->pc, notice, db);
	if (!exec_ok(db->pc, session_sql[s->durability]) ||
	    !set_lock_timeout(db->pc, s->lock_ms) || backend_of(db) != 0 ||
	    pg_prepare_all(db->pc) != 0 || PQenterPipelineMode(db->pc) != 1) {
		pg_err(s, op, db->pc, NULL);
		db_close(s, db);
		return STORE_ERR;
	}
	db->ready = 1;
	return 0;
}

static int
db_ok(const struct pg_db *db)
{
	return db->ready && PQstatus(db->pc) == CONNECTION_OK;
}

/* One connection made again if it broke: a write connection only
 * between transactions (a transaction it carried is the COMMIT's to
 * find out about). */
static int
db_ready(struct pg_store *s, struct pg_db *db, const char *op)
{
	int64_t	 now;

	if (db_ok(db))
		return 0;
	if (db == &s->wr && s->open)
		return store_set_err(&s->store, op,
		    "connection to PostgreSQL lost in the transaction");
	now = pg_now_ms();
	if (s->down_ms != 0 && now - s->down_ms < PG_RECONNECT_MS)
		return store_set_err(&s->store, op,
		    "connection to PostgreSQL lost; reconnecting");
	db_close(s, db);
	if (db_open(s, db, op) != 0) {
		s->down_ms = now;
		return STORE_ERR;
	}
	s->down_ms = 0;
	return 0;
}

int
pg_ready(struct pg_store *s, const char *op)
{
	return db_ready(s, &s->wr, op) != 0 || db_ready(s, &s->rd, op) != 0 ?
	    STORE_ERR : 0;
}

int
pg_ready_rd(struct pg_store *s, const char *op)
{
	return db_ready(s, &s->rd, op);
}

/* Whatever an idle connection has been sent, read and parsed (notice()
 * sees it), until nothing more is there: 1 while it stands, 0 once it is
 * closed or ended. */
static int
idle_stands(struct pg_db *db)
{
	struct pollfd	 pfd;
	int		 n;

	pfd.fd = PQsocket(db->pc);
	pfd.events = POLLIN;
	for (n = 0; n < 8 && !db->ended; n++) {
		pfd.revents = 0;
		if (pfd.fd < 0 || poll(&pfd, 1, 0) == -1)
			return 0;
		if (pfd.revents == 0)
			break;
		/* PQisBusy() parses what PQconsumeInput() read. */
		if (PQconsumeInput(db->pc) != 1)
			return 0;
		(void)PQisBusy(db->pc);
	}
	return !db->ended && PQstatus(db->pc) == CONNECTION_OK;
}

/*
 * What the server said to the idle write connection is read first: one
 * that restarted (or ended the session) meanwhile has said so and closed
 * it, and a COMMIT sent on it would fail without ever reaching the
 * server.  Made again then, at once, as a read does (pg_rd_same()).
 */
int
pg_ready_wr(struct pg_store *s, const char *op)
{
	if (db_ok(&s->wr) && idle_stands(&s->wr))
		return 0;
	db_close(s, &s->wr);
	s->down_ms = 0;
	return db_ready(s, &s->wr, op);
}

/* A setting made on an idle connection in pipeline mode. */
static int
lock_now(PGconn *pc, int ms)
{
	int	 ok;

	if (PQexitPipelineMode(pc) != 1)
		return 0;
	ok = set_lock_timeout(pc, ms);
	return PQenterPipelineMode(pc) == 1 && ok;
}

void
pg_set_lock(struct pg_store *s, int ms)
{
	s->lock_ms = ms;
	/* Between transactions the connections are idle: set it now (or
	 * drop the one that refuses, made again with it). */
	if (s->open)
		return;
	if (s->wr.ready && !lock_now(s->wr.pc, ms))
		db_close(s, &s->wr);
	if (s->rd.ready && !lock_now(s->rd.pc, ms))
		db_close(s, &s->rd);
}

void
pg_load_forget(struct pg_store *s)
{
	pg_clear(s->load, 4);
	s->load_id[0] = '\0';
}

void
pg_clear(PGresult **res, int n)
{
	int	 i;

	for (i = 0; i < n; i++) {
		PQclear(res[i]);
		res[i] = NULL;
	}
}

/*
 * The next result of a pipeline and the NULL that ends it (a sync has
 * none).  NULL when the connection broke: then nothing more is read.
 */
static PGresult *
next_result(PGconn *pc)
{
	PGresult	*r, *end;

	if (PQstatus(pc) != CONNECTION_OK)
		return NULL;
	if ((r = PQgetResult(pc)) == NULL)
		return NULL;
	if (PQresultStatus(r) == PGRES_PIPELINE_SYNC)
		return r;
	while (PQstatus(pc) == CONNECTION_OK &&
	    (end = PQgetResult(pc)) != NULL)
		PQclear(end);
	return r;
}

static int
res_ok(const PGresult *r)
{
	ExecStatusType	 t = PQresultStatus(r);

	return t == PGRES_TUPLES_OK || t == PGRES_COMMAND_OK;
}

int
pg_rd_run(struct pg_store *s, const char *op, PGresult **res, int n)
{
	PGconn		*pc = s->rd.pc;
	PGresult	*r;
	int		 i, bad = -1;

	if (PQpipelineSync(pc) != 1 || PQflush(pc) != 0) {
		pg_err(s, op, pc, NULL);
		pg_drop_rd(s);
		return STORE_ERR;
	}
	for (i = 0; i < n; i++) {
		if ((res[i] = next_result(pc)) == NULL) {
			pg_err(s, op, pc, NULL);
			pg_clear(res, i);
			pg_drop_rd(s);
			return STORE_ERR;
		}
		if (bad < 0 && !res_ok(res[i]))
			bad = i;
	}
	r = next_result(pc);
	if (r == NULL || PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
		pg_err(s, op, pc, r);
		PQclear(r);
		pg_clear(res, n);
		pg_drop_rd(s);
		return STORE_ERR;
	}
	PQclear(r);
	if (bad >= 0) {
		pg_err(s, op, pc, res[bad]);
		pg_clear(res, n);
		return STORE_ERR;
	}
	return 0;
}

/* One exchange of pg_rd_same(): 0, STORE_ERR, or 1 when the connection
 * broke in it (dropped: the message set). */
static int
rd_once(struct pg_store *s, const char *op, const enum pg_stmt_id *ids,
    int n, int nparams, const char *const *params, PGresult **res)
{
	int	 i;

	if (pg_ready_rd(s, op) != 0)
		return STORE_ERR;
	for (i = 0; i < n; i++)
		if (pg_send(s->rd.pc, ids[i], nparams, params) != 0) {
			pg_err(s, op, s->rd.pc, NULL);
			pg_drop_rd(s);
			return 1;
		}
	if (pg_rd_run(s, op, res, n) == 0)
		return 0;
	return s->rd.pc == NULL ? 1 : STORE_ERR;
}

/*
 * A read is idempotent: one that finds its idle connection broken (the
 * server restarted, a proxy cut it) is tried once more on a new one, so
 * that only a server still down fails it.
 */
int
pg_rd_same(struct pg_store *s, const char *op, const enum pg_stmt_id *ids,
    int n, int nparams, const char *const *params, PGresult **res)
{
	int	 rc;

	if ((rc = rd_once(s, op, ids, n, nparams, params, res)) == 1) {
		s->down_ms = 0;
		rc = rd_once(s, op, ids, n, nparams, params, res);
	}
	return rc == 0 ? 0 : STORE_ERR;
}

PGresult *
pg_rd_one(struct pg_store *s, const char *op, enum pg_stmt_id id, int n,
    const char *const *params)
{
	PGresult	*r = NULL;

	if (pg_rd_same(s, op, &id, 1, n, params, &r) != 0)
		return NULL;
	return r;
}
