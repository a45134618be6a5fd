/*
 * The end of a pass of the event loop, and group commit's network half.
 * Every write served in one pass, from any connection and for any game,
 * joins one store transaction (the command layer's, cmd_txn.h: each write
 * in a savepoint of its own), and one COMMIT, with its one fsync, makes
 * them all durable.  A reply that promises a write may only leave after
 * that COMMIT, so the reply of every command that came from the store
 * while the transaction is open (a write's, and a read's too, since a
 * read sees the transaction's rows) is held (held.c), and every later
 * reply of that connection behind it.  Replies that never depend on the
 * store (PING, ECHO, HELLO, QUIT, a refusal of a request's form) are
 * released as made.  If the COMMIT fails, nothing of the transaction
 * exists: every held reply that came from the store becomes -STORE, no
 * event is sent and no counter moves.
 *
 * This file is the one place that decides when a pass ends and what then
 * happens: pass_run() holds the steps, in the order they run, each with
 * what it must come before and why (as Redis's beforeSleep() flushes the
 * AOF before it writes to the clients).  A pass ends at the "flush", an
 * event at the loop's lowest priority: libevent runs a lower priority
 * only when no callback of a higher one is ready, so it runs after every
 * connection that was ready has been served, and in the same pass as the
 * request when there is one client.  Whoever needs the transaction ended
 * sooner calls the barrier, pass_barrier(): the caps (batch-max-turns,
 * batch-max-usec), the barrier commands (GAME.WATCH, GAME.UNWATCH, the
 * subscriptions, WATCH, RESET, INFO), HTTP's reads, the feed of other
 * nodes' moves and the stop; it runs every step but the sockets, which
 * wait for the flush.  The pass learns where the transaction stands from
 * the result of each command (struct cmd_result) and, after a timer's
 * move, from cmd_txn_status(); it asks the command layer nothing else.
 *
 * With an optimistic store (several ludusd nodes on one PostgreSQL) the
 * COMMIT may also find that some requests conflicted: another node wrote
 * their game first, and nothing of them is stored (env->on_conflict,
 * from the command layer).  Their replies are not sent: the release keeps
 * each such request, and every later reply of its connection behind it,
 * and then the pass runs those requests again (pass_redo()), in order, on
 * the fresh rows, into the next transaction; their new replies take their
 * old places and leave with that transaction's COMMIT.  A request is run
 * again at most HELD_REDO_MAX times (held.h), and a request whose write
 * the store could not find out after a connection broke in its COMMIT
 * becomes -STORE: a reply never claims what may not be stored.  The same
 * holds for HTTP's held writes (http_write.c: the handler runs again, its
 * response waits) and for a timer's move (autoplay.c).  An EXEC is one
 * request whose writes the store keeps all or none of
 * (cmd_txn_group_begin()); it is not run again (its queue is gone and
 * its WATCHed games may have moved): its conflict answers it -STORE, and
 * nothing of it is stored.  An SQLite store never conflicts (it holds
 * the write lock), and this costs its path nothing: no request is
 * copied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

static void	pass_conflict(void *, uint64_t, int);

#define PASS_PRIORITIES	3	/* all but the flush in the middle */
#define OUTCOME_TRY_MS	200	/* a lost COMMIT's outcome asked again */

struct pass {
	struct event	*flush;		/* lowest priority: the pass's end */
	struct event	*outcome;	/* the next ask of a lost COMMIT's */
	int		 armed;		/* flush made active */
	int		 freeing;	/* in pass_free(): last asks */
	int		 ending;	/* in pass_run() */
	int		 optimistic;	/* the store may conflict */
	int		 redo;		/* held_conflict() kept one */
	size_t		 writes;	/* the transaction's, as last told */
	size_t		 committing;	/* those of the COMMIT tried last */
	uint64_t	 started_us;	/* when the pass first saw it open */
	uint64_t	*pumps;		/* connections (ids) whose backlog or */
	size_t		 npumps, cap;	/* XREAD waits: kept across passes */
	struct pass_stats stats;	/* what the COMMITs took (/metrics) */
};

/* The histograms' upper bounds: writes per COMMIT, and microseconds. */
static const uint64_t size_bounds[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256,
    512, 1024 };
static const uint64_t usec_bounds[] = { 100, 250, 500, 1000, 2500, 5000,
    10000, 25000, 50000, 100000, 250000, 1000000 };

static uint64_t
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static size_t	pass_run(struct server *, int flush);

/*
 * The flush: the whole end of the pass, the sockets included.  It stays
 * armed meanwhile, so what is queued here does not ask for another pass;
 * what is left (a transaction a resumed reader opened, requests run
 * again, a connection that got more output after its write) does.
 */
static void
flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;
	struct pass	*p = srv->pass;
	size_t		 left;

	(void)fd;
	(void)what;
	left = pass_run(srv, 1);
	p->armed = 0;
	/* Held replies left over are requests run again (pass_redo()), or
	 * wait for a lost COMMIT's outcome (the outcome timer's). */
	if (p->writes > 0 || left > 0 || (held_count(srv->held) > 0 &&
	    !cmd_txn_pending(&srv->env))) {
		pass_wake(srv);
		/*
		 * libevent runs an event made active from a callback in the
		 * same run of its queue, without polling: a flush that
		 * re-arms itself would run again at once, and a backlog the
		 * clients read fast (GAME.WATCH FROM 0, a long XRANGE) would
		 * be written whole before anyone else's request is read.
		 * Poll the sockets first, so that each pass writes a slice
		 * of every backlog and serves the requests that came.
		 */
		event_base_loopcontinue(srv->base);
	}
}

/* A lost COMMIT's outcome is asked again: at the end of a pass. */
static void
outcome_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	pass_wake(arg);
}

int
pass_init(struct server *srv)
{
	struct pass	*p;

	/*
	 * Events get priority npriorities / 2 by default: with three
	 * levels, every event made after this is at 1 and the flush alone
	 * at 2, below them.  Must come before any event is made.
	 */
	if (event_base_priority_init(srv->base, PASS_PRIORITIES) == -1)
		return -1;
	p = xcalloc(1, sizeof(*p));
	srv->pass = p;
	srv->held = held_new();
	srv->env.txn = cmd_txn_new();
	p->stats.writes.bounds = size_bounds;
	p->stats.writes.nbounds = sizeof size_bounds / sizeof size_bounds[0];
	p->stats.usec.bounds = usec_bounds;
	p->stats.usec.nbounds = sizeof usec_bounds / sizeof usec_bounds[0];
	srv->env.on_conflict = pass_conflict;
	srv->env.on_conflict_arg = srv;
	p->optimistic = store_optimistic(srv->env.store);
	p->flush = event_new(srv->base, -1, 0, flush_cb, srv);
	p->outcome = evtimer_new(srv->base, outcome_cb, srv);
	if (p->flush == NULL || p->outcome == NULL ||
	    event_priority_set(p->flush, PASS_PRIORITIES - 1) == -1)
		return -1;
	return 0;
}

void
pass_free(struct server *srv)
{
	struct pass	*p = srv->pass;

	if (p == NULL)
		return;
	p->freeing = 1;
	if (srv->env.store != NULL)
		pass_barrier(srv);
	cmd_txn_free(&srv->env);
	held_free(srv->held);
	srv->held = NULL;
	if (p->flush != NULL)
		event_free(p->flush);
	if (p->outcome != NULL)
		event_free(p->outcome);
	free(p->pumps);
	free(p);
	srv->pass = NULL;
}

void
pass_wake(struct server *srv)
{
	struct pass	*p = srv->pass;

	/* No flush once pass_free() ran: the loop is over. */
	if (p == NULL || p->flush == NULL || p->armed)
		return;
	p->armed = 1;
	event_active(p->flush, EV_TIMEOUT, 1);
}

/* What a command's result (or cmd_txn_status()) says. */
static void
pass_note(struct server *srv, const struct cmd_result *res)
{
	srv->pass->writes = res->writes;
	held_note(srv->held, res->moves);
}

void
pass_after(struct server *srv, const struct cmd_result *res)
{
	struct pass		*p = srv->pass;
	const struct config	*cfg = srv->cfg;
	uint64_t		 t;

	if (res != NULL)
		pass_note(srv, res);
	if (p->writes == 0 || p->ending)
		return;
	if (p->writes >= (size_t)cfg->batch_max_turns) {
		pass_barrier(srv);
		return;
	}
	t = now_us();
	if (p->started_us == 0)
		p->started_us = t;
	else if (cfg->batch_max_usec > 0 &&
	    t - p->started_us >= (uint64_t)cfg->batch_max_usec) {
		pass_barrier(srv);
		return;
	}
	pass_wake(srv);
}

/* With an optimistic store a held reply carries its request: it may
 * have to run again. */
void
pass_reply(struct conn *c, const struct cmd_args *a, const struct reply *r,
    const struct cmd_result *res)
{
	struct server	*srv = c->srv;
	size_t		 n;

	pass_note(srv, res);
	if (res->wait) {
		n = held_count(srv->held);
		conn_hold(c, r, 1);
		if (srv->pass->optimistic && held_count(srv->held) > n)
			held_tag(srv->held, n, res->req, a);
	} else
		conn_reply(c, r);	/* behind c's held replies, if any */
	pass_after(srv, NULL);
}

/* The command layer's conflict hook: the held reply of that request (a
 * RESP one, or an HTTP write's) is kept to run again, or is lost; a
 * timer's move is autoplay's. */
static void
pass_conflict(void *arg, uint64_t req, int redo)
{
	struct server	*srv = arg;

	if (held_conflict(srv->held, req, redo) ||
	    (srv->http_conflict != NULL && srv->http_conflict(srv, req, redo)))
		srv->pass->redo = 1;
	else if (!lobby_conflict(srv, req))
		autoplay_conflict(srv, req);
}

static void
hist_add(struct pass_hist *h, uint64_t v)
{
	size_t	 i;

	for (i = 0; i < h->nbounds && v > h->bounds[i]; i++)
		;
	h->counts[i]++;
	h->count++;
	h->sum += v;
}

const struct pass_stats *
pass_stats(const struct server *srv)
{
	return &srv->pass->stats;
}

size_t
pass_writes(const struct server *srv)
{
	return srv->pass != NULL ? srv->pass->writes : 0;
}

/* The reads that never run while the transaction is open. */
static void
pump_now(struct conn *c)
{
	watch_pump(c);
	stream_pump(c);
	lobby_pump(c);
}

void
pass_pump(struct conn *c)
{
	struct pass	*p = c->srv->pass;

	if (p->writes == 0) {
		pump_now(c);
		return;
	}
	/* Once per connection in a row; the resume skips repeats. */
	if (p->npumps > 0 && p->pumps[p->npumps - 1] == c->id)
		return;
	if (p->npumps == p->cap) {
		p->cap = p->cap == 0 ? 16 : p->cap * 2;
		p->pumps = xrealloc(p->pumps, p->cap * sizeof(*p->pumps));
	}
	p->pumps[p->npumps++] = c->id;
}

static int
id_cmp(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The backlogs that waited for the COMMIT, in the order of srv->conns.  That list is in the
 * order of ids (conn_accept() numbers each new connection and appends
 * it), so one walk of both finds them; an id whose connection is gone is
 * passed over.
 */
static void
pumps_resume(struct server *srv)
{
	struct pass	*p = srv->pass;
	struct conn	*c;
	size_t		 i = 0, n = p->npumps;

	qsort(p->pumps, n, sizeof(*p->pumps), id_cmp);
	p->npumps = 0;
	TAILQ_FOREACH(c, &srv->conns, entry) {
		while (i < n && p->pumps[i] < c->id)
			i++;
		if (i == n)
			break;
		if (p->pumps[i] == c->id)
			pump_now(c);
	}
}

/* -STORE for a held reply whose COMMIT failed: the same in RESP2 and
 * RESP3, a simple error. */
static void
failure_encode(struct resp_buf *eb, const char *failure)
{
	struct reply	 err = { 0 };

	reply_error(&err, "STORE", "group commit failed: %s", failure);
	resp_encode(eb, &err, 2);
	reply_free(&err);
}

/* -STORE for one request of a transaction that committed. */
static void
lost_write(struct conn *c, enum held_lost why)
{
	struct resp_buf	 eb = { NULL, 0, 0 };
	struct reply	 err = { 0 };

	if (why == HELD_UNKNOWN)
		reply_error(&err, "STORE", "commit: the connection to the "
		    "store broke in the COMMIT; whether this request's write "
		    "is stored is not known");
	else if (why == HELD_WHOLE)
		reply_error(&err, "STORE", "conflict: another writer changed "
		    "a game of the EXEC first; none of it is stored");
	else
		reply_error(&err, "STORE", "conflict: its game changed %d "
		    "times while the request was run", HELD_REDO_MAX);
	resp_encode(&eb, &err, 2);
	conn_write(c, eb.data, eb.len);
	resp_buf_free(&eb);
	reply_free(&err);
}

/*
 * The held replies in order (failure: NULL, or why the COMMIT failed),
 * each followed by the events of the moves made before it, as if every
 * command had committed alone: a move's reply, then its event, then the
 * next reply.  (An
 * event is written at once even to a connection with replies still held:
 * held_behind() is 0 while the queue is taken.)
 */
static void
release(struct server *srv, const char *failure)
{
	struct resp_buf	 eb = { NULL, 0, 0 };
	struct held_out	 h;
	struct conn	*last;

	while (held_next(srv->held, &h)) {
		/* A closing connection's last reply: the events of the moves
		 * made up to it still go to it (conn_hears()), later ones
		 * not. */
		last = h.conn != NULL && h.conn->state == CONN_CLOSING &&
		    h.conn->held.n == 0 ? h.conn : NULL;
		if (h.conn != NULL && h.lost != HELD_KEPT)
			lost_write(h.conn, h.lost);
		else if (h.conn != NULL && (failure == NULL || !h.store))
			conn_write(h.conn, h.data, h.len);
		else if (h.conn != NULL) {
			if (eb.len == 0)
				failure_encode(&eb, failure);
			conn_write(h.conn, eb.data, eb.len);
		}
		if (last != NULL)
			last->last_reply = 1;
		if (failure == NULL)
			watch_flush_upto(srv, h.moves);
		if (last != NULL)
			last->last_reply = 0;
	}
	resp_buf_free(&eb);
}

/*
 * The requests that conflicted, run again in the order they came, into
 * a new transaction; each new reply goes where the old one was.  The
 * flush that follows ends that transaction, or writes the reply of one
 * that did not open it.
 */
static void
pass_redo(struct server *srv)
{
	struct held_redo	 hr;
	struct cmd_args		 a;
	struct cmd_result	 res;
	struct reply		 r;
	size_t			 pos = 0;

	if (!srv->pass->redo)
		return;
	srv->pass->redo = 0;
	while (held_redo_next(srv->held, &pos, &hr)) {
		memset(&a, 0, sizeof(a));
		memset(&r, 0, sizeof(r));
		a.argc = hr.argc;
		a.argv = hr.argv;
		a.argl = hr.argl;
		a.session = hr.conn->session;
		conncmd_again(hr.conn, &a, &r, &res);
		pass_note(srv, &res);
		held_fill(srv->held, hr.pos, &r, hr.conn->proto, res.req,
		    res.wait);
		reply_free(&r);
	}
	if (srv->http_redo != NULL)	/* HTTP's writes, the same way */
		srv->http_redo(srv);
	pass_wake(srv);
}

/*
 * The COMMIT and what it took (/metrics), or, when the store is finding
 * out what became of the last one (its connection broke), that outcome,
 * asked again (the last time when the server stops): 0 and *failure NULL
 * or why it failed, or 1 while the outcome is not known yet.
 */
static int
commit(struct server *srv, const char **failure)
{
	struct pass	*p = srv->pass;
	struct timeval	 tv;
	uint64_t	 batches = srv->env.batches, t = 0;
	int		 rc;

	*failure = NULL;
	if (cmd_txn_pending(&srv->env))
		rc = cmd_txn_outcome(&srv->env, srv->stopping || p->freeing);
	else {
		if (p->writes > 0)
			t = now_us();
		p->committing = p->writes;
		rc = cmd_txn_commit(&srv->env);
		if (srv->env.batches != batches) {	/* a COMMIT was tried */
			hist_add(&p->stats.writes, p->writes);
			hist_add(&p->stats.usec, now_us() - t);
		}
		if (rc == 1)
			log_warning("group commit of %zu turn(s): %s",
			    p->writes, store_errmsg(srv->env.store));
		p->writes = 0;
		p->started_us = 0;
	}
	if (rc == 1) {
		tv.tv_sec = 0;
		tv.tv_usec = OUTCOME_TRY_MS * 1000;
		evtimer_add(p->outcome, &tv);
		return 1;
	}
	if (rc == -1) {
		*failure = store_errmsg(srv->env.store);
		log_warning("group commit of %zu turn(s) failed: %s",
		    p->committing, *failure);
	}
	return 0;
}

/*
 * The end of a pass, in order (flush: the flush's, with the sockets; else
 * a barrier's).  The output left unwritten, in bytes (0 for a barrier).
 */
static size_t
pass_run(struct server *srv, int flush)
{
	struct pass	*p = srv->pass;
	const char	*failure;
	size_t		 left = 0;

	if (p == NULL || p->ending)
		return 0;
	p->ending = 1;
	/* 1. The COMMIT: before any held reply or event leaves, because each
	 * promises a stored turn; its hooks queue the events of its moves
	 * (watch_on_move()) and arm its games' timers for the steps below.
	 * While the store finds out what became of a COMMIT whose connection
	 * broke, nothing of that transaction is told: every step but the
	 * sockets waits for the outcome. */
	if (commit(srv, &failure) == 1) {
		p->ending = 0;
		return flush ? conn_flush_all(srv) : 0;
	}
	/* 2. The held replies, each followed by the events of the moves made
	 * up to it: before the events left (3), because a reply goes out
	 * ahead of the events of the moves made after it. */
	release(srv, failure);
	/* 3. The events left: before the next transaction (7), because this
	 * empties the queue that its COMMIT's hooks fill again. */
	watch_flush(srv);
	/* 4. HTTP's share (its writes held for the COMMIT, its event
	 * streams' backlogs): before the redo (7), which runs again the
	 * HTTP writes this release keeps back for it. */
	if (srv->http_pass_end != NULL)
		srv->http_pass_end(srv, failure);
	/* 5. The backlogs that waited (GAME.WATCH's, long XRANGEs) and the
	 * XREAD BLOCKs: after the COMMIT and before the next transaction
	 * (7), because a history read inside a transaction would show moves
	 * that may never commit. */
	if (p->npumps > 0)
		pumps_resume(srv);
	/* 6. The timers that fired in this transaction, armed again if its
	 * COMMIT failed, and the matchmaker's queues that ran in it (again
	 * if it failed or they conflicted): after the COMMIT, whose conflicts
	 * autoplay_conflict() and lobby_conflict() looked up in the same
	 * lists, and before the next transaction (7), whose timers the lists
	 * then hold. */
	autoplay_pass_end(srv, failure == NULL);
	lobby_pass_end(srv, failure == NULL);
	/* The retention job's deletes of this transaction, counted once
	 * they are in (or its archive closed when they are not). */
	retire_pass_end(srv, failure == NULL);
	/* 7. The requests that conflicted, run again: last of the store's
	 * steps, because they open the next transaction, which none of the
	 * steps above may run inside. */
	pass_redo(srv);
	p->ending = 0;
	/* 8. The sockets, at the flush only: after every other step, so that
	 * a connection's output of the whole pass leaves in one write; a
	 * barrier leaves them to the flush. */
	if (flush)
		left = conn_flush_all(srv);
	return left;
}

/*
 * The requests a COMMIT found conflicted run again at once (step 7), into
 * a transaction of their own: a barrier's caller must find none open (it
 * reads committed rows only, outside any request), so that one is ended
 * too, and so on.  Each round runs a request once more at most, and none
 * runs more than HELD_REDO_MAX times: the rounds end.
 */
void
pass_barrier(struct server *srv)
{
	struct pass	*p = srv->pass;
	int		 round;

	for (round = 0; round < HELD_REDO_MAX + 2; round++) {
		(void)pass_run(srv, 0);
		if (p == NULL || p->ending || p->writes == 0)
			break;
	}
}
