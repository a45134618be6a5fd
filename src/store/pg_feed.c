/*
 * The feed of other nodes' moves, read without waiting (store.h,
 * store_feed_send()).  A node's loop serves all its clients; a read of
 * the feed on the read connection waited a round trip every poll, and as
 * long as a lock or a slow plan made the server take, with every client
 * of the node.  So it has a connection of its own, in non-blocking mode,
 * made with PQconnectStartParams() and PQconnectPoll() as the caller's
 * loop finds the socket ready, and a read is sent and its answer taken
 * as the socket allows.  In pipeline mode: a new connection's setting
 * (statement_timeout, so that a read stuck behind a lock ends on the
 * server, not only here), the statement prepared and the first read go
 * out together.  The connection carries no transaction, writes nothing
 * and takes no lock a write waits for: dropping it at any moment loses
 * nothing (the next read starts from the caller's fronts again).
 */
#include <stdio.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

enum {
	FEED_NONE,
	FEED_CONNECTING,
	FEED_READY		/* set up: a read may be sent */
};

/* A read taking longer than this ends on the server; the caller ends one
 * taking longer still (the server itself gone) with pg_feed_cancel(). */
#define FEED_STATEMENT_MS	"4000"

/* Notices are nobody's business on a connection that only reads. */
static void
quiet(void *arg, const PGresult *r)
{
	(void)arg;
	(void)r;
}

static void
feed_close(struct pg_feed *f)
{
	PQclear(f->res);
	f->res = NULL;
	if (f->pc != NULL)
		PQfinish(f->pc);
	f->pc = NULL;
	f->state = FEED_NONE;
	f->running = f->queued = f->out = f->syncs = 0;
	f->err[0] = '\0';
}

/* The read failed: the connection goes (the next send makes another),
 * the message from what libpq says unless one was set. */
static int
feed_fail(struct pg_store *s, const char *why)
{
	struct pg_feed	*f = &s->feed;

	if (why != NULL)
		store_set_err(&s->store, "feed", why);
	else if (f->err[0] != '\0')
		store_set_err(&s->store, "feed", f->err);
	else
		pg_err(s, "feed", f->pc, NULL);
	if (f->state == FEED_CONNECTING)
		f->down_ms = pg_now_ms();
	feed_close(f);
	return STORE_ERR;
}

/* What was queued on the pipeline goes out, as far as the socket takes
 * it now: -1 if the connection broke. */
static int
flush(struct pg_feed *f)
{
	int	 r;

	if ((r = PQflush(f->pc)) < 0)
		return -1;
	f->out = r == 1;
	return 0;
}

/* The read itself, queued with its sync. */
static int
send_read(struct pg_feed *f)
{
	char		 l[PG_INT_MAX];
	const char	*params[3];

	params[0] = f->ids.p;
	params[1] = f->after.p;
	params[2] = f->limit < 0 ? NULL : pg_int(l, f->limit);
	if (pg_send(f->pc, PS_SINCE, 3, params) != 0 ||
	    PQpipelineSync(f->pc) != 1)
		return -1;
	f->syncs++;
	f->queued = 0;
	return flush(f);
}

/* A connection just made: its setting and the statement, then the read
 * that waited for it, all in one go. */
static int
set_up(struct pg_feed *f)
{
	const char	*params[1] = { FEED_STATEMENT_MS };

	(void)PQsetNoticeReceiver(f->pc, quiet, NULL);
	if (PQsetnonblocking(f->pc, 1) != 0 ||
	    PQenterPipelineMode(f->pc) != 1 ||
	    PQsendQueryParams(f->pc, "SELECT set_config('statement_timeout',"
	    " $1, false)", 1, NULL, params, NULL, NULL, 0) != 1 ||
	    pg_send_prepare(f->pc, PS_SINCE) != 0 ||
	    PQpipelineSync(f->pc) != 1)
		return -1;
	f->syncs++;
	f->state = FEED_READY;
	return f->queued ? send_read(f) : flush(f);
}

/* A connection that stands idle: it broke, or the server ended the
 * session meanwhile (whatever came is read, without waiting). */
static int
idle_stands(struct pg_feed *f)
{
	PGresult	*r;

	if (PQstatus(f->pc) != CONNECTION_OK || PQconsumeInput(f->pc) != 1)
		return 0;
	while (!PQisBusy(f->pc) && (r = PQgetResult(f->pc)) != NULL) {
		/* An idle connection has nothing owed: what comes is the
		 * server's FATAL. */
		PQclear(r);
		return 0;
	}
	return PQstatus(f->pc) == CONNECTION_OK;
}

int
pg_feed_send(struct store *st, size_t n, const char *const *ids,
    const int64_t *after, int64_t limit)
{
	struct pg_store	*s = to_pg(st);
	struct pg_feed	*f = &s->feed;

	if (f->running)
		return store_set_err(st, "feed", "a read of the feed runs");
	if (f->state == FEED_READY && !idle_stands(f))
		feed_close(f);
	pg_since_args(&f->ids, &f->after, n, ids, after);
	(void)pg_buf_end(&f->ids);
	(void)pg_buf_end(&f->after);
	f->limit = limit;
	f->err[0] = '\0';
	if (f->state == FEED_NONE) {
		if (f->down_ms != 0 &&
		    pg_now_ms() - f->down_ms < PG_RECONNECT_MS)
			return store_set_err(st, "feed",
			    "connection to PostgreSQL lost; reconnecting");
		if ((f->pc = pg_connect_start(s, "feed")) == NULL) {
			f->down_ms = pg_now_ms();
			return STORE_ERR;
		}
		/* A connect begins by writing. */
		f->state = FEED_CONNECTING;
		f->in = 0;
		f->running = f->queued = 1;
		return 0;
	}
	f->running = 1;
	if (send_read(f) != 0)
		return feed_fail(s, NULL);
	return 0;
}

int
pg_feed_wait(struct store *st, int *fd)
{
	struct pg_feed	*f = &to_pg(st)->feed;

	*fd = -1;
	if (!f->running || f->pc == NULL)
		return 0;
	*fd = PQsocket(f->pc);
	if (f->state == FEED_CONNECTING)
		return f->in ? STORE_FEED_IN : STORE_FEED_OUT;
	return STORE_FEED_IN | (f->out ? STORE_FEED_OUT : 0);
}

/* One result of the pipeline. */
static void
take(struct pg_feed *f, PGresult *r)
{
	const char	*msg;

	switch (PQresultStatus(r)) {
	case PGRES_TUPLES_OK:
		PQclear(f->res);
		f->res = r;
		return;
	case PGRES_COMMAND_OK:
		break;
	case PGRES_PIPELINE_SYNC:
		/* The read's sync is the last: rows before it are the
		 * setting's. */
		if (--f->syncs > 0) {
			PQclear(f->res);
			f->res = NULL;
		}
		break;
	default:
		/* An error, or a statement the one before it aborted: the
		 * first says why. */
		msg = PQresultErrorMessage(r);
		if (f->err[0] == '\0' && msg != NULL && *msg != '\0') {
			if (strncmp(msg, "ERROR:  ", 8) == 0)
				msg += 8;
			str_copy(f->err, sizeof(f->err), msg);
			f->err[strcspn(f->err, "\n")] = '\0';
		}
		break;
	}
	PQclear(r);
}

int
pg_feed_step(struct store *st, store_game_move_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	struct pg_feed	*f = &s->feed;
	PostgresPollingStatusType p;
	PGresult	*r;
	int		 ret;

	if (!f->running)
		return 0;
	if (f->state == FEED_CONNECTING) {
		p = PQconnectPoll(f->pc);
		if (p == PGRES_POLLING_FAILED)
			return feed_fail(s, NULL);
		if (p != PGRES_POLLING_OK) {
			f->in = p == PGRES_POLLING_READING;
			return STORE_PENDING;
		}
		f->down_ms = 0;
		if (set_up(f) != 0)
			return feed_fail(s, NULL);
		return STORE_PENDING;
	}
	if ((f->out && flush(f) != 0) || PQconsumeInput(f->pc) != 1)
		return feed_fail(s, NULL);
	while (f->syncs > 0) {
		if (PQisBusy(f->pc))
			break;
		if ((r = PQgetResult(f->pc)) == NULL) {
			/* The end of one statement's results, or of the
			 * connection. */
			if (PQstatus(f->pc) != CONNECTION_OK)
				return feed_fail(s, NULL);
			continue;
		}
		take(f, r);
	}
	if (PQstatus(f->pc) != CONNECTION_OK)
		return feed_fail(s, NULL);
	if (f->syncs > 0)
		return STORE_PENDING;
	f->running = 0;
	/* The server refused it (its statement_timeout, say): the
	 * connection goes too, since what failed may be its setting up
	 * (the statement's preparing waits for a lock as the read does). */
	if (f->err[0] != '\0' || f->res == NULL)
		return feed_fail(s, f->err[0] != '\0' ? NULL :
		    "no answer to the read");
	r = f->res;
	f->res = NULL;
	ret = pg_since_walk(s, r, cb, arg);
	PQclear(r);
	return ret;
}

void
pg_feed_cancel(struct store *st)
{
	feed_close(&to_pg(st)->feed);
}

void
pg_feed_free(struct pg_store *s)
{
	feed_close(&s->feed);
	pg_buf_free(&s->feed.ids);
	pg_buf_free(&s->feed.after);
}
