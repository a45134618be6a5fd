/*
 * The stream of a ticket's match: GET /api/lobby/ID/events, Server-Sent
 * Events, for the account the request proves (http_lobby.c).  It says one
 * thing: the event "matched", its data the ticket as GET /api/lobby/ID
 * gives it (the game, the account's seat, the players), and then the
 * stream ends.  A ticket matched already is answered so at once, for
 * ever, as MATCH.WAIT answers one: a client that reconnects (a browser's
 * EventSource does, by itself) gets the event again, and needs nothing
 * else to find its game.  A ticket cancelled while its stream waits ends
 * it with the event "error", the JSON error GET /api/lobby/ID would give.
 *
 * What a stream reads is MATCH.WAIT's answer (cmd_ticket_answer()), read
 * with the pass's transaction closed: when the lobby announces a match
 * of its ticket (after its COMMIT, through srv->http_match), when it is
 * cancelled over HTTP, at every heartbeat (http-event-heartbeat: a
 * cancel over RESP, or a match another node made), and on a store shared
 * by several nodes every POLL_MS as well, as MATCH.WAIT reads the tickets
 * it waits on.
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "cmd/cmd_lobby.h"
#include "http/http.h"
#include "http/json.h"
#include "net/log.h"
#include "util/util.h"

#define POLL_MS		250	/* a shared store: other nodes' matches */
#define TICKETS_INPUT	4096	/* bytes read of what a reader sends */
#define TICKETS_RETRY	1000	/* ms before a browser reconnects */

struct tstream {
	TAILQ_ENTRY(tstream)	 entry;
	struct http_tickets	*t;
	struct evhttp_request	*req;
	int64_t			 ticket;
	char			 account[GAME_ID_MAX + 1];
	int			 due;		/* to read again */
};
TAILQ_HEAD(tstream_list, tstream);

struct http_tickets {
	struct http		*h;
	struct tstream_list	 all;
	size_t			 n;
	struct event		*heartbeat;
	struct event		*read;		/* reads the due streams */
	struct event		*poll;		/* a shared store's */
	struct evbuffer		*buf;
};

static void
tstream_free(struct tstream *st)
{
	struct http_tickets	*t = st->t;

	TAILQ_REMOVE(&t->all, st, entry);
	if (--t->n == 0) {
		evtimer_del(t->heartbeat);
		if (t->poll != NULL)
			evtimer_del(t->poll);
	}
	free(st);
}

static void
tstream_gone(struct http *h, struct evhttp_request *req, void *arg)
{
	(void)h;
	tstream_free(arg);
	http_request_gone(req);
}

/* One event, its data JSON (the reference is taken). */
static void
tstream_event(struct tstream *st, const char *type, json_t *j)
{
	char	*text;
	size_t	 len;

	text = json_text(j, &len);
	json_decref(j);
	evbuffer_add_printf(st->t->buf, "id: %lld\nevent: %s\ndata: ",
	    (long long)st->ticket, type);
	evbuffer_add(st->t->buf, text, len);	/* ends with its newline */
	evbuffer_add(st->t->buf, "\n", 1);
	free(text);
	evhttp_send_reply_chunk(st->req, st->t->buf);
}

/* The stream's last event has been sent: it ends. */
static void
tstream_end(struct tstream *st)
{
	(void)http_conn_watch(st->t->h, st->req, NULL, NULL);
	evhttp_send_reply_end(st->req);
	tstream_free(st);
}

/* With the transaction closed: the ticket's answer, sent if it has one. */
static void
tstream_read(struct tstream *st)
{
	struct reply	 r = { 0 };
	int		 rc, status;

	st->due = 0;
	rc = cmd_ticket_answer(&st->t->h->srv->env, st->account, st->ticket,
	    &r);
	if (rc > 0) {
		tstream_event(st, "matched", http_ticket_json(st->ticket,
		    st->account, &r));
		tstream_end(st);
	} else if (rc < 0 && strncmp(r.str, "STORE", 5) == 0)
		log_warning("http: ticket %lld: %s", (long long)st->ticket,
		    r.str);		/* read again at the next heartbeat */
	else if (rc < 0) {
		tstream_event(st, "error", http_error_json(r.str, &status));
		tstream_end(st);
	}
	reply_free(&r);
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_tickets	*t = arg;
	struct tstream		*st, *next;

	(void)fd;
	(void)what;
	http_reads_committed(t->h->srv);
	for (st = TAILQ_FIRST(&t->all); st != NULL; st = next) {
		next = TAILQ_NEXT(st, entry);	/* st may end */
		if (st->due)
			tstream_read(st);
	}
}

/* Every stream is read, at the next turn of the loop. */
static void
all_due(struct http_tickets *t)
{
	struct tstream	*st;

	TAILQ_FOREACH(st, &t->all, entry)
		st->due = 1;
	if (t->n > 0)
		event_active(t->read, EV_TIMEOUT, 1);
}

void
http_tickets_changed(struct http *h, int64_t ticket)
{
	struct http_tickets	*t = h->tickets;
	struct tstream		*st;
	int			 any = 0;

	TAILQ_FOREACH(st, &t->all, entry)
		if (st->ticket == ticket)
			any = st->due = 1;
	if (any)
		event_active(t->read, EV_TIMEOUT, 1);
}

static void
heartbeat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_tickets	*t = arg;
	struct tstream		*st;

	(void)fd;
	(void)what;
	TAILQ_FOREACH(st, &t->all, entry) {
		evbuffer_add(t->buf, ": heartbeat\n\n", 13);
		evhttp_send_reply_chunk(st->req, t->buf);
	}
	all_due(t);
}

static void
poll_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	all_due(arg);
}

/* The response's head, and a first chunk that tells the browser how soon
 * to reconnect. */
static void
tstream_start(struct http_ctx *x, struct http_tickets *t, int64_t ticket)
{
	struct evkeyvalq	*out;
	struct timeval		 tv = { (time_t)x->srv->cfg->http_timeout, 0 };
	struct bufferevent	*bev;

	out = evhttp_request_get_output_headers(x->req);
	evhttp_add_header(out, "Content-Type", "text/event-stream");
	evhttp_add_header(out, "Cache-Control", "no-cache");
	evhttp_add_header(out, "X-Accel-Buffering", "no");
	evhttp_send_reply_start(x->req, 200, "OK");
	/* The reader sends nothing: no read timeout, a bounded input. */
	bev = evhttp_connection_get_bufferevent(
	    evhttp_request_get_connection(x->req));
	bufferevent_set_timeouts(bev, NULL, &tv);
	bufferevent_setwatermark(bev, EV_READ, 0, TICKETS_INPUT);
	evbuffer_add_printf(t->buf, "retry: %d\n: the match of ticket %lld\n\n",
	    TICKETS_RETRY, (long long)ticket);
	evhttp_send_reply_chunk(x->req, t->buf);
}

void
api_ticket_events(struct http_ctx *x)
{
	struct http_tickets	*t = x->srv->http->tickets;
	struct cmd_session	*s = cmd_session_new();
	struct reply		 r = { 0 };
	struct tstream		*st;
	struct timeval		 tv = { 0, POLL_MS * 1000 };
	struct timeval		 hb = { (time_t)x->srv->cfg->
				    http_event_heartbeat, 0 };
	json_t			*j;
	int64_t			 id;
	int			 rc, status;

	if (http_query_none(x) == -1 || http_ticket_id(x, &id) == -1)
		goto done;
	http_reads_committed(x->srv);
	if (http_account_login(x, s) == -1)
		goto done;
	if ((rc = cmd_ticket_answer(&x->srv->env, s->account, id, &r)) < 0) {
		j = http_error_json(r.str, &status);
		http_json(x, status, j);
		goto done;
	}
	if (evhttp_request_get_command(x->req) == EVHTTP_REQ_HEAD) {
		http_reply(x, 200, "text/event-stream", "no-cache", NULL, 0);
		goto done;
	}
	st = xcalloc(1, sizeof *st);
	st->t = t;
	st->req = x->req;
	st->ticket = id;
	str_copy(st->account, sizeof st->account, s->account);
	TAILQ_INSERT_TAIL(&t->all, st, entry);
	if (t->n++ == 0) {
		evtimer_add(t->heartbeat, &hb);
		if (t->poll != NULL)
			evtimer_add(t->poll, &tv);
	}
	if (http_conn_watch(x->srv->http, x->req, tstream_gone, st) == -1) {
		tstream_free(st);
		http_error(x, "LIMIT", "this connection cannot stream");
		goto done;
	}
	tstream_start(x, t, id);
	if (rc > 0) {
		tstream_event(st, "matched", http_ticket_json(id, s->account,
		    &r));
		tstream_end(st);
	}
done:
	reply_free(&r);
	cmd_session_free(s);
}

int
http_tickets_init(struct http *h)
{
	struct http_tickets	*t = xcalloc(1, sizeof *t);

	h->tickets = t;
	t->h = h;
	TAILQ_INIT(&t->all);
	t->heartbeat = event_new(h->srv->base, -1, EV_PERSIST, heartbeat_cb,
	    t);
	t->read = event_new(h->srv->base, -1, 0, read_cb, t);
	if (store_optimistic(h->srv->env.store))
		t->poll = event_new(h->srv->base, -1, EV_PERSIST, poll_cb, t);
	t->buf = evbuffer_new();
	return t->heartbeat != NULL && t->read != NULL && t->buf != NULL &&
	    (t->poll != NULL || !store_optimistic(h->srv->env.store)) ? 0 : -1;
}

void
http_tickets_free(struct http *h)
{
	struct http_tickets	*t = h->tickets;
	struct tstream		*st;
	struct bufferevent	*bev;
	struct evbuffer		*out;

	if (t == NULL)
		return;
	/* Each stream ends, its last chunk written now if the socket takes
	 * it (the loop is over), as the event streams' are: its reader sees
	 * the end, not a cut, and asks the next daemon again. */
	while ((st = TAILQ_FIRST(&t->all)) != NULL) {
		bev = evhttp_connection_get_bufferevent(
		    evhttp_request_get_connection(st->req));
		tstream_end(st);
		out = bufferevent_get_output(bev);
		/* A socket bufferevent keeps its output's front frozen
		 * between its own writes. */
		evbuffer_unfreeze(out, 1);
		(void)evbuffer_write(out, bufferevent_getfd(bev));
		evbuffer_freeze(out, 1);
	}
	if (t->heartbeat != NULL)
		event_free(t->heartbeat);
	if (t->read != NULL)
		event_free(t->read);
	if (t->poll != NULL)
		event_free(t->poll);
	if (t->buf != NULL)
		evbuffer_free(t->buf);
	free(t);
	h->tickets = NULL;
}

size_t
http_tickets_open(const struct http *h)
{
	return h->tickets != NULL ? h->tickets->n : 0;
}
