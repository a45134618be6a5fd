/*
 * The daemon's side of the lobby (the command layer's is cmd_lobby.h):
 * when the matchmaker runs, MATCH.WAIT, and the account channels.
 *
 * The matchmaker.  Every match-interval each queue with tickets waiting
 * is run (cmd_match_queue()): the waiting tickets read, the matcher's
 * rule asked, each group's game stored with its tickets as one write of
 * the pass's transaction, in the same group commit as the turns.  A
 * ticket joined makes its queue run again at once, after the COMMIT that
 * stored it, and a ticket whose bots-after falls due in between gets a
 * run then.  A queue that stored groups runs at most once per
 * transaction, so that no run reads as waiting what an earlier run of
 * the same transaction took; a run whose COMMIT failed, or whose groups
 * conflicted (another node took a ticket first), runs again.
 *
 * Several nodes on one store (PostgreSQL): a queue is run by one node
 * at a time, the one holding its lock (store_queue_lock(), an advisory
 * lock of its read connection's session); the others pass it over.  The
 * queues are listed from the store at every sweep, so a queue whose
 * tickets were all joined through other nodes is found too; when the
 * node holding a queue dies, its connection and with it its lock go,
 * and the next node to ask takes the queue over within match-interval.
 * The store checks every match regardless (a ticket is taken only while
 * it waits), so a lock held by two for a moment makes a conflict, never
 * a ticket matched twice.
 *
 * MATCH.WAIT blocks its connection as XREAD BLOCK does (stream.c):
 * nothing more of its input is read until it is answered.  It is
 * resolved with the pass's transaction closed (pass_pump()): a matched
 * ticket is answered at once, for ever; a waiting one waits for the
 * COMMIT that matches it (its event, through the command layer's hook),
 * or until timeout-ms has passed (null, as BLPOP answers).  On a shared
 * store the tickets waited on are also read every FEED_MS, for the
 * matches other nodes make.  In an EXEC nothing waits: a waiting ticket
 * is answered null at once.
 *
 * The account channels: a subscriber of "player:NAME" gets the message
 * "matched,TICKET,GAME,SEAT" when a ticket of NAME is matched through
 * this node, after its COMMIT, so that a pub/sub client need not block;
 * the HTTP side's streams of the ticket are told then as well
 * (srv->http_match).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "cmd/cmd_lobby.h"
#include "net/conn.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/util.h"

#define FEED_MS		100	/* other nodes' matches of waited tickets */
#define FEED_IDS	1024	/* waited tickets read at once, at most */
#define RETRY_MS	1000	/* a queue whose run failed */

struct lobbyd;

/* One queue: its timer, and what its run in the open transaction did. */
struct lqueue {
	struct lobbyd	*ld;
	struct event	*ev;
	int64_t		 due;		/* the timer's, unix ms; 0 none */
	int		 ran;		/* stored groups in the open
					   transaction */
	int		 again;		/* runs once it has ended */
	int64_t		 next_ms;	/* a bots-after due, after it */
	int		 seen;		/* listed by the last sweep */
	int		 held;		/* this node its matcher, as last
					   asked */
	char		 name[STORE_QUEUE_MAX + 1];
};

enum lstate {
	LS_IDLE = 0,
	LS_PARKED,		/* to resolve with the transaction closed */
	LS_WAITING		/* for the ticket's match */
};

/* A connection's MATCH.WAIT, made at its first and kept until it
 * closes. */
struct lconn {
	struct conn	*conn;
	enum lstate	 state;
	int64_t		 ticket;
	int64_t		 timeout_ms;	/* 0: for ever */
	struct event	*timer;
	struct lticket	*on;		/* waiting on (LS_WAITING) */
	struct lconn	*next;		/* ... with these others */
};

/* The waiters of one ticket. */
struct lticket {
	struct lconn	*first;
	int64_t		 id;
	char		 key[24];	/* the id, in decimal */
};

/* A run in the open transaction: its requests, first to last. */
struct lrun {
	uint64_t	 first, last;
	struct lqueue	*q;
};

struct lobbyd {
	struct server	*srv;
	struct cmd_lobby lobby;
	struct idmap	*queues;	/* name -> struct lqueue */
	struct idmap	*tickets;	/* decimal id -> struct lticket */
	struct event	*sweep;		/* every match-interval */
	struct event	*feed;		/* shared store: waited tickets */
	struct lrun	*runs;		/* of the open transaction */
	size_t		 nruns, capruns;
	int64_t		*ids;		/* the feed's, FEED_IDS */
	uint64_t	 runs_total, waits;
};

static void	queue_cb(evutil_socket_t, short, void *);

static void
arm_ms(struct event *ev, int64_t ms)
{
	struct timeval	 tv;

	if (ms < 0)
		ms = 0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(ev, &tv);
}

static int64_t
now_ms(const struct lobbyd *ld)
{
	return cmd_now_ms(&ld->srv->env);
}

/* ------------------------------------------------------------ queues */

static struct lqueue *
queue_get(struct lobbyd *ld, const char *name)
{
	struct lqueue	*q;

	if ((q = idmap_get(ld->queues, name)) != NULL)
		return q;
	q = xcalloc(1, sizeof(*q));
	q->ld = ld;
	str_copy(q->name, sizeof(q->name), name);
	if ((q->ev = evtimer_new(ld->srv->base, queue_cb, q)) == NULL) {
		log_warning("lobby: no timer for queue '%s'", name);
		free(q);
		return NULL;
	}
	idmap_put(ld->queues, q->name, q);
	return q;
}

/* The queue runs in ms, or sooner if it is due sooner; after the open
 * transaction if it stored groups in it. */
static void
queue_soon(struct lobbyd *ld, const char *name, int64_t ms)
{
	struct lqueue	*q;
	int64_t		 at = now_ms(ld) + (ms > 0 ? ms : 0);

	if ((q = queue_get(ld, name)) == NULL)
		return;
	if (q->ran) {
		q->again = 1;
		return;
	}
	if (q->due != 0 && q->due <= at)
		return;
	q->due = at;
	/* At once: active now, it runs before this pass ends (the flush is
	 * the loop's lowest priority), so that its writes join the open
	 * transaction; a timer would wait for the next turn of the loop. */
	if (ms <= 0)
		event_active(q->ev, EV_TIMEOUT, 1);
	else
		arm_ms(q->ev, ms);
}

static void
run_note(struct lobbyd *ld, struct lqueue *q, const struct cmd_match_run *r)
{
	struct lrun	*run;

	if (ld->nruns == ld->capruns) {
		ld->capruns = ld->capruns == 0 ? 8 : 2 * ld->capruns;
		ld->runs = xrealloc(ld->runs, ld->capruns *
		    sizeof(*ld->runs));
	}
	run = &ld->runs[ld->nruns++];
	run->first = r->first_req;
	run->last = r->last_req;
	run->q = q;
}

static void
queue_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lqueue		*q = arg;
	struct lobbyd		*ld = q->ld;
	struct server		*srv = ld->srv;
	struct cmd_match_run	 run;
	struct cmd_result	 res;
	int64_t			 t0;
	int			 rc;

	(void)fd;
	(void)what;
	q->due = 0;
	if (srv->stopping)
		return;		/* the tickets wait in the store */
	if (q->ran) {
		q->again = 1;
		return;
	}
	q->held = rc = store_queue_lock(srv->env.store, q->name);
	if (rc == 0)
		return;		/* another node's */
	if (rc < 0) {
		log_warning("lobby: queue '%s': %s", q->name,
		    store_errmsg(srv->env.store));
		queue_soon(ld, q->name, RETRY_MS);
		return;
	}
	t0 = now_ms(ld);
	rc = cmd_match_queue(&srv->env, q->name, t0, &run);
	ld->runs_total++;
	cmd_txn_status(&srv->env, &res);
	if (rc != 0) {
		log_warning("lobby: queue '%s': %s", q->name,
		    store_errmsg(srv->env.store));
		queue_soon(ld, q->name, RETRY_MS);
	} else if (run.groups > 0) {
		/* What it stored waits for the COMMIT, and so does its next
		 * run (lobby_pass_end()). */
		q->ran = 1;
		q->next_ms = run.next_ms;
		run_note(ld, q, &run);
	} else if (run.next_ms > 0)
		queue_soon(ld, q->name, run.next_ms - now_ms(ld));
	if (run.groups > 0)
		log_debug("lobby: queue '%s': %d game(s) of %d ticket(s) in "
		    "%lld ms", q->name, run.groups, run.waiting,
		    (long long)(now_ms(ld) - t0));
	pass_after(srv, &res);
}

static int
swept(void *arg, const char *queue, enum game_kind kind, int64_t waiting,
    int64_t oldest_ms)
{
	struct lobbyd	*ld = arg;
	struct lqueue	*q;

	(void)kind;
	(void)waiting;
	(void)oldest_ms;
	queue_soon(ld, queue, 0);
	if ((q = idmap_get(ld->queues, queue)) != NULL)
		q->seen = 1;
	return 0;
}

/* Every queue with tickets waiting runs (their windows have widened);
 * those with none are forgotten. */
static void
sweep_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lobbyd	*ld = arg;
	struct server	*srv = ld->srv;
	struct lqueue	*q, **gone;
	size_t		 pos = 0, n = 0, i;

	(void)fd;
	(void)what;
	arm_ms(ld->sweep, srv->cfg->match_interval);
	if (srv->stopping)
		return;
	while ((q = idmap_next(ld->queues, &pos)) != NULL)
		q->seen = 0;
	if (store_queues(srv->env.store, KIND_NONE, swept, ld) == STORE_ERR) {
		log_warning("lobby: queues: %s", store_errmsg(srv->env.store));
		return;
	}
	gone = xcalloc(idmap_count(ld->queues) + 1, sizeof(*gone));
	pos = 0;
	while ((q = idmap_next(ld->queues, &pos)) != NULL)
		if (!q->seen && !q->ran && q->due == 0)
			gone[n++] = q;
	for (i = 0; i < n; i++) {
		idmap_del(ld->queues, gone[i]->name);
		event_free(gone[i]->ev);
		free(gone[i]);
	}
	free(gone);
}

void
lobby_pass_end(struct server *srv, int ok)
{
	struct lobbyd	*ld = srv->lobbyd;
	struct lqueue	*q;
	size_t		 i;

	if (ld == NULL)
		return;
	for (i = 0; i < ld->nruns; i++) {
		q = ld->runs[i].q;
		if (!q->ran)
			continue;
		q->ran = 0;
		if (!ok)
			queue_soon(ld, q->name, RETRY_MS);
		else if (q->again)
			queue_soon(ld, q->name, 0);
		else if (q->next_ms > 0)
			queue_soon(ld, q->name, q->next_ms - now_ms(ld));
		q->again = 0;
		q->next_ms = 0;
	}
	ld->nruns = 0;
}

int
lobby_conflict(struct server *srv, uint64_t req)
{
	struct lobbyd	*ld = srv->lobbyd;
	size_t		 i;

	for (i = 0; ld != NULL && i < ld->nruns; i++)
		if (req >= ld->runs[i].first && req <= ld->runs[i].last) {
			ld->runs[i].q->again = 1;
			return 1;
		}
	return 0;
}

/* -------------------------------------------------------- MATCH.WAIT */

int
lobby_busy(const struct conn *c)
{
	return c->lobby != NULL && c->lobby->state != LS_IDLE;
}

static void
ticket_key(char key[24], int64_t id)
{
	snprintf(key, 24, "%lld", (long long)id);
}

static void
wait_link(struct lobbyd *ld, struct lconn *lc)
{
	struct lticket	*t;
	char		 key[24];

	ticket_key(key, lc->ticket);
	if ((t = idmap_get(ld->tickets, key)) == NULL) {
		t = xcalloc(1, sizeof(*t));
		t->id = lc->ticket;
		memcpy(t->key, key, sizeof(key));
		idmap_put(ld->tickets, t->key, t);
	}
	lc->next = t->first;
	t->first = lc;
	lc->on = t;
}

static void
wait_unlink(struct lobbyd *ld, struct lconn *lc)
{
	struct lticket	*t = lc->on;
	struct lconn	**pp;

	if (t == NULL)
		return;
	for (pp = &t->first; *pp != NULL; pp = &(*pp)->next)
		if (*pp == lc) {
			*pp = lc->next;
			break;
		}
	lc->on = NULL;
	lc->next = NULL;
	if (t->first == NULL) {
		idmap_del(ld->tickets, t->key);
		free(t);
	}
}

/* Answered: the connection reads its next requests. */
static void
unblock(struct conn *c)
{
	struct lconn	*lc = c->lobby;

	wait_unlink(c->srv->lobbyd, lc);
	if (lc->timer != NULL)
		evtimer_del(lc->timer);
	lc->state = LS_IDLE;
	if (c->state != CONN_OPEN)
		return;
	if (!c->paused && !c->eof)
		bufferevent_enable(c->bev, EV_READ);
	event_active(c->resume, EV_TIMEOUT, 1);
}

static void
send_free(struct conn *c, struct reply *r)
{
	conn_reply(c, r);
	reply_free(r);
}

static void
wait_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;
	struct reply	 r = { 0 };

	(void)fd;
	(void)what;
	if (c->lobby->state != LS_WAITING)
		return;
	reply_null(&r);
	send_free(c, &r);
	unblock(c);
}

/* With the transaction closed: answered (matched, refused), or waiting. */
static void
wait_resolve(struct conn *c)
{
	struct lconn	*lc = c->lobby;
	struct lobbyd	*ld = c->srv->lobbyd;
	struct reply	 r = { 0 };

	if (cmd_ticket_answer(&c->srv->env, c->session->account, lc->ticket,
	    &r) != 0) {
		send_free(c, &r);
		unblock(c);
		return;
	}
	lc->state = LS_WAITING;
	wait_link(ld, lc);
	if (lc->timeout_ms == 0)
		return;
	if (lc->timer == NULL && (lc->timer = evtimer_new(c->srv->base,
	    wait_timeout_cb, c)) == NULL) {
		log_warning("%s: no timer for MATCH.WAIT", c->addr);
		return;
	}
	arm_ms(lc->timer, lc->timeout_ms);
}

void
lobby_pump(struct conn *c)
{
	struct lconn	*lc = c->lobby;

	if (lc == NULL || c->state != CONN_OPEN)
		return;
	if (lc->state == LS_PARKED)
		wait_resolve(c);
}

void
lobby_wait(struct conn *c, int64_t ticket, int64_t timeout_ms)
{
	struct server	*srv = c->srv;
	struct lconn	*lc;
	struct reply	 r = { 0 };
	int		 rc;

	if (srv->lobbyd == NULL) {
		conn_error(c, "ERR", "this server has no lobby");
		return;
	}
	if (c->session == NULL || c->session->account[0] == '\0') {
		conn_error(c, "NOLOGIN", "MATCH.WAIT needs an account: "
		    "PLAYER.LOGIN name key first");
		return;
	}
	/* A client that has closed its side, or a server that is stopping,
	 * would never read the answer. */
	if (c->eof || c->state != CONN_OPEN || srv->stopping) {
		conn_error(c, "STATE", "the connection is closing: MATCH.WAIT "
		    "would never be answered");
		return;
	}
	if (c->capture != NULL) {
		rc = cmd_ticket_answer(&srv->env, c->session->account, ticket,
		    &r);
		if (rc == 0)
			reply_null(&r);
		send_free(c, &r);
		return;
	}
	if ((lc = c->lobby) == NULL) {
		lc = c->lobby = xcalloc(1, sizeof(*lc));
		lc->conn = c;
	}
	lc->ticket = ticket;
	lc->timeout_ms = timeout_ms;
	lc->state = LS_PARKED;
	srv->lobbyd->waits++;
	pass_pump(c);
}

void
lobby_closing(struct conn *c)
{
	conn_error(c, "STATE", "the connection is closing: MATCH.WAIT would "
	    "never be answered");
	unblock(c);
}

void
lobby_conn_free(struct conn *c)
{
	struct lconn	*lc = c->lobby;

	if (lc == NULL)
		return;
	if (c->srv->lobbyd != NULL)
		wait_unlink(c->srv->lobbyd, lc);
	if (lc->timer != NULL)
		event_free(lc->timer);
	free(lc);
	c->lobby = NULL;
}

/* MATCH.WAIT ticket [timeout-ms]: 0 waits for ever. */
enum { WAIT_TICKET, WAIT_TIMEOUT };
static const struct cmd_arg wait_args[] = {
	[WAIT_TICKET] = CMD_ARG_INT("ticket", 1, INT64_MAX),
	[WAIT_TIMEOUT] = CMD_ARG_INT_OPT("timeout-ms", 0, INT64_MAX / 1000,
	    0),
};

static void
match_wait_cmd(struct conn *c, const struct cmd_parsed *p)
{
	lobby_wait(c, p->v[WAIT_TICKET].i, p->v[WAIT_TIMEOUT].i);
}

const struct cmd_def conn_match_wait_entry = {
	.name = "MATCH.WAIT",
	.spec = CMD_ARGS(wait_args, 0),
	.flags = CMD_READONLY,
	.conn = match_wait_cmd,
};

/* A ticket was matched: its waiters read their answer once the
 * transaction is closed. */
static void
wake(struct lobbyd *ld, int64_t ticket)
{
	struct lticket	*t;
	struct lconn	*lc;
	char		 key[24];

	ticket_key(key, ticket);
	/* Looked up again each time: the last one out frees it. */
	while ((t = idmap_get(ld->tickets, key)) != NULL &&
	    (lc = t->first) != NULL) {
		wait_unlink(ld, lc);
		if (lc->timer != NULL)
			evtimer_del(lc->timer);
		lc->state = LS_PARKED;
		pass_pump(lc->conn);
	}
}

/* ------------------------------------------------- the command hooks */

static void
on_join(void *arg, const struct cmd_matched *m)
{
	queue_soon(arg, m->queue, 0);
}

/* SQLite's reads see the open transaction's tickets: the run that
 * follows in this pass may match this one with its own COMMIT. */
static void
on_joining(void *arg, const struct cmd_matched *m)
{
	struct lobbyd	*ld = arg;

	if (!store_optimistic(ld->srv->env.store))
		queue_soon(ld, m->queue, 0);
}

static void
on_match(void *arg, const struct cmd_matched *m)
{
	struct lobbyd	*ld = arg;
	char		 msg[STORE_QUEUE_MAX];
	int		 n;

	wake(ld, m->ticket);
	if (ld->srv->http_match != NULL)
		ld->srv->http_match(ld->srv, m->ticket);
	n = snprintf(msg, sizeof(msg), "matched,%lld,%s,%d",
	    (long long)m->ticket, m->game, m->seat);
	pubsub_account(ld->srv, m->account, msg, (size_t)n);
}

/* Accounts and tickets count against the client's create-rate. */
static int
admit(void *arg, struct reply *out)
{
	return quota_lobby_admit(((struct lobbyd *)arg)->srv, out);
}

static void
made(void *arg, int ok)
{
	quota_lobby_made(((struct lobbyd *)arg)->srv, ok);
}

/* -------------------------------------------------- other nodes' news */

/* The waited tickets that another node matched (or cancelled). */
static int
fed(void *arg, const struct store_ticket *t)
{
	wake(arg, t->id);
	return 0;
}

static void
feed_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lobbyd	*ld = arg;
	struct server	*srv = ld->srv;
	struct lticket	*t;
	size_t		 pos = 0, n = 0;

	(void)fd;
	(void)what;
	arm_ms(ld->feed, FEED_MS);
	if (srv->stopping || idmap_count(ld->tickets) == 0)
		return;
	while ((t = idmap_next(ld->tickets, &pos)) != NULL && n < FEED_IDS)
		ld->ids[n++] = t->id;
	if (store_tickets_ended(srv->env.store, n, ld->ids, fed, ld) ==
	    STORE_ERR)
		log_warning("lobby: waited tickets: %s",
		    store_errmsg(srv->env.store));
}

/* --------------------------------------------------------- life cycle */

int
lobby_init(struct server *srv)
{
	struct lobbyd	*ld = xcalloc(1, sizeof(*ld));

	ld->srv = srv;
	cmd_lobby_init(&ld->lobby);
	ld->lobby.window = (double)srv->cfg->match_window;
	ld->lobby.params.widen = (double)srv->cfg->match_widen;
	ld->lobby.max_tickets = srv->cfg->max_tickets;
	ld->lobby.on_join = on_join;
	ld->lobby.on_match = on_match;
	ld->lobby.on_joining = on_joining;
	ld->lobby.admit = admit;
	ld->lobby.made = made;
	ld->lobby.arg = ld;
	ld->queues = idmap_new();
	ld->tickets = idmap_new();
	ld->ids = xcalloc(FEED_IDS, sizeof(*ld->ids));
	srv->lobbyd = ld;
	srv->env.lobby = &ld->lobby;
	if ((ld->sweep = evtimer_new(srv->base, sweep_cb, ld)) == NULL)
		return -1;
	/* The tickets a restart finds waiting are swept at once. */
	arm_ms(ld->sweep, 0);
	if (store_optimistic(srv->env.store)) {
		if ((ld->feed = evtimer_new(srv->base, feed_cb, ld)) == NULL)
			return -1;
		arm_ms(ld->feed, FEED_MS);
	}
	return 0;
}

void
lobby_free(struct server *srv)
{
	struct lobbyd	*ld = srv->lobbyd;
	struct lqueue	*q;
	struct lticket	*t;
	size_t		 pos = 0;

	if (ld == NULL)
		return;
	while ((q = idmap_next(ld->queues, &pos)) != NULL) {
		event_free(q->ev);
		free(q);
	}
	pos = 0;
	while ((t = idmap_next(ld->tickets, &pos)) != NULL)
		free(t);
	idmap_free(ld->queues);
	idmap_free(ld->tickets);
	if (ld->sweep != NULL)
		event_free(ld->sweep);
	if (ld->feed != NULL)
		event_free(ld->feed);
	free(ld->runs);
	free(ld->ids);
	free(ld);
	srv->lobbyd = NULL;
	srv->env.lobby = NULL;
}

const struct cmd_lobby *
lobby_stats(const struct server *srv, struct lobby_stats *st)
{
	const struct lobbyd	*ld = srv->lobbyd;
	const struct lqueue	*q;
	size_t			 pos = 0;

	if (ld == NULL)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->runs = ld->runs_total;
	st->waits = ld->waits;
	st->waited = idmap_count(ld->tickets);
	while ((q = idmap_next(ld->queues, &pos)) != NULL) {
		st->queues++;
		st->held += q->held == 1;
	}
	return &ld->lobby;
}
