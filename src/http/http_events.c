/*
 * The live event streams: GET /api/games/ID/events, Server-Sent Events
 * (text/event-stream, one chunk per event, evhttp_send_reply_start and
 * _chunk).  One event "move" per stored move, its id the move's seq and
 * its data the move as the history gives it, so that a browser that
 * reconnects sends Last-Event-ID and resumes after it: nothing missed,
 * nothing twice.  ?from=seq starts after that move (GAME.WATCH's FROM);
 * with neither, the stream starts after the game's last move.
 *
 * The rule is GAME.WATCH's (watch.c): each stream remembers the seq of
 * the next event it owes.  A committed move, from the daemon's one event
 * path (the command layer's on_move, through watch_on_move() and
 * http_on_move()), is sent when it is exactly that one; anything further
 * ahead means that moves sit in the history which the stream has not
 * sent, and the backlog reader sends them from there, in chunks, while
 * the reader's output stays low.  No history is read while the pass's
 * transaction is open (it would show moves that may never commit): such
 * a backlog waits for the end of the pass (http_events_pass_end()).
 *
 * Limits: a reader that lets more than http-event-buffer bytes of events
 * pile up unread is dropped (its browser reconnects and resumes by
 * Last-Event-ID); every stream gets a comment every http-event-heartbeat
 * seconds, so that proxies and browsers keep it open; evhttp's read
 * timeout is off for a stream (its reader sends nothing), its write
 * timeout (http-timeout) stays, and what a reader sends meanwhile is not
 * read past a few kilobytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "http/http.h"
#include "http/json.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/util.h"

#define EVENTS_CHUNK	256		/* history rows read at once */
#define EVENTS_HIGH	(64 * 1024)	/* backlog sent while output is below */
#define EVENTS_INPUT	4096		/* bytes read of what a reader sends */
#define EVENTS_RETRY	1000		/* ms before a browser reconnects */

struct stream;
TAILQ_HEAD(stream_list, stream);

/* The streams of one game. */
struct sgame {
	struct stream_list	 streams;
	char			 id[GAME_ID_MAX + 1];
};

enum stream_queue {
	QUEUE_NONE = 0,
	QUEUE_WAITING,		/* its backlog waits for the pass's end */
	QUEUE_DROPPING		/* closed at the next turn of the loop */
};

struct stream {
	TAILQ_ENTRY(stream)	 game_entry;
	TAILQ_ENTRY(stream)	 all_entry;
	TAILQ_ENTRY(stream)	 queue_entry;	/* in waiting or dropping */
	struct http_events	*ev;
	struct sgame		*game;
	struct evhttp_request	*req;
	int64_t			 next;		/* seq of the next event */
	int			 catching_up;	/* the history may hold more */
	enum stream_queue	 queue;
};

struct http_events {
	struct http		*h;
	struct idmap		*games;		/* id -> struct sgame */
	struct stream_list	 all;
	struct stream_list	 waiting;
	struct stream_list	 dropping;
	size_t			 n;
	struct event		*heartbeat;
	struct event		*drop;
	struct evbuffer		*buf;		/* one event, being sent */
	struct http_events_stats stats;
};

static void	pump(struct stream *);

/* ----------------------------------------------------------- output */

static struct bufferevent *
stream_bev(const struct stream *st)
{
	return evhttp_connection_get_bufferevent(
	    evhttp_request_get_connection(st->req));
}

static size_t
stream_output(const struct stream *st)
{
	return evbuffer_get_length(bufferevent_get_output(stream_bev(st)));
}

/* What a backlog may fill the output with before it waits. */
static size_t
stream_high(const struct stream *st)
{
	size_t	 half = (size_t)st->ev->h->srv->cfg->http_event_buffer / 2;

	return half < EVENTS_HIGH ? half : EVENTS_HIGH;
}

static void
queue_set(struct stream *st, enum stream_queue q)
{
	struct http_events	*ev = st->ev;

	if (st->queue == QUEUE_WAITING)
		TAILQ_REMOVE(&ev->waiting, st, queue_entry);
	else if (st->queue == QUEUE_DROPPING)
		TAILQ_REMOVE(&ev->dropping, st, queue_entry);
	st->queue = q;
	if (q == QUEUE_WAITING)
		TAILQ_INSERT_TAIL(&ev->waiting, st, queue_entry);
	else if (q == QUEUE_DROPPING)
		TAILQ_INSERT_TAIL(&ev->dropping, st, queue_entry);
}

/* The stream goes at the next turn of the loop (never from inside a
 * callback that walks the streams). */
static void
stream_drop(struct stream *st, const char *why)
{
	if (st->queue == QUEUE_DROPPING)
		return;
	log_info("http: events of %s: %s: dropping the stream (it resumes "
	    "by Last-Event-ID)", st->game->id, why);
	st->ev->stats.dropped++;
	queue_set(st, QUEUE_DROPPING);
	event_active(st->ev->drop, EV_TIMEOUT, 1);
}

/* The output has been written: more of the backlog, now or once the
 * pass's transaction has ended. */
static void
drained_cb(struct evhttp_connection *evcon, void *arg)
{
	struct stream	*st = arg;

	(void)evcon;
	if (!st->catching_up || st->queue != QUEUE_NONE)
		return;
	if (pass_writes(st->ev->h->srv) > 0)
		queue_set(st, QUEUE_WAITING);
	else
		pump(st);
}

/* Sends what ev->buf holds as one chunk. */
static void
stream_send(struct stream *st)
{
	evhttp_send_reply_chunk_with_cb(st->req, st->ev->buf, drained_cb, st);
}

/* One event: id, type, the move as JSON. */
static void
send_move(struct stream *st, const struct move *mv)
{
	json_t	*j = json_move(mv);
	char	*text;
	size_t	 len;

	text = json_text(j, &len);
	json_decref(j);
	evbuffer_add_printf(st->ev->buf, "id: %lld\nevent: move\ndata: ",
	    (long long)mv->seq);
	evbuffer_add(st->ev->buf, text, len);	/* ends with its newline */
	evbuffer_add(st->ev->buf, "\n", 1);
	free(text);
	stream_send(st);
	st->next = mv->seq + 1;
	st->ev->stats.sent++;
}

/* After a live event or a heartbeat: a reader that does not read goes. */
static void
check_unread(struct stream *st)
{
	if (stream_output(st) > (size_t)st->ev->h->srv->cfg->http_event_buffer)
		stream_drop(st, "the reader is too slow");
}

/* ---------------------------------------------------------- backlog */

static int
pump_row(void *arg, const struct move *mv)
{
	struct stream	*st = arg;

	if (mv->seq >= st->next)
		send_move(st, mv);
	return 0;
}

struct rows {
	struct stream	*st;
	int64_t		 n;
};

static int
count_row(void *arg, const struct move *mv)
{
	struct rows	*r = arg;

	r->n++;
	return pump_row(r->st, mv);
}

/* Sends the history from st->next on while the reader keeps up; no
 * transaction may be open. */
static void
pump(struct stream *st)
{
	struct server	*srv = st->ev->h->srv;
	struct rows	 r;

	while (st->catching_up && st->queue == QUEUE_NONE &&
	    stream_output(st) < stream_high(st)) {
		r.st = st;
		r.n = 0;
		if (store_history(srv->env.store, st->game->id, st->next,
		    EVENTS_CHUNK, count_row, &r) != STORE_OK) {
			log_warning("store error reading the history of %s: "
			    "%s", st->game->id, store_errmsg(srv->env.store));
			stream_drop(st, "the history cannot be read");
			return;
		}
		if (r.n < EVENTS_CHUNK)
			st->catching_up = 0;
	}
}

void
http_events_pass_end(struct http *h)
{
	struct http_events	*ev = h->events;
	struct stream		*st;

	while ((st = TAILQ_FIRST(&ev->waiting)) != NULL) {
		queue_set(st, QUEUE_NONE);
		pump(st);
	}
}

void
http_events_each_game(struct http *h, follow_cb cb, void *arg)
{
	struct sgame	*g;
	struct stream	*st;
	size_t		 pos = 0;

	while ((g = idmap_next(h->events->games, &pos)) != NULL)
		TAILQ_FOREACH(st, &g->streams, game_entry)
			cb(arg, g->id, st->next - 1);
}

/* ------------------------------------------------------------- live */

void
http_events_move(struct http *h, const char *game, const struct move *mv)
{
	struct http_events	*ev = h->events;
	struct sgame		*g = idmap_get(ev->games, game);
	struct stream		*st;

	if (g == NULL)
		return;
	TAILQ_FOREACH(st, &g->streams, game_entry) {
		if (st->queue == QUEUE_DROPPING || mv->seq < st->next)
			continue;
		if (!st->catching_up && mv->seq == st->next) {
			send_move(st, mv);
			check_unread(st);
			continue;
		}
		/* Ahead of this stream: the history has it, and is read
		 * once the pass has ended (the COMMIT is being made). */
		st->catching_up = 1;
		if (st->queue == QUEUE_NONE)
			queue_set(st, QUEUE_WAITING);
	}
}

static void
heartbeat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_events	*ev = arg;
	struct stream		*st;

	(void)fd;
	(void)what;
	TAILQ_FOREACH(st, &ev->all, all_entry) {
		if (st->queue == QUEUE_DROPPING)
			continue;
		evbuffer_add(ev->buf, ": heartbeat\n\n", 13);
		stream_send(st);
		check_unread(st);
	}
}

/* ------------------------------------------------------ life, death */

static void
stream_free(struct stream *st)
{
	struct http_events	*ev = st->ev;
	struct sgame		*g = st->game;

	queue_set(st, QUEUE_NONE);
	TAILQ_REMOVE(&g->streams, st, game_entry);
	if (TAILQ_EMPTY(&g->streams)) {
		idmap_del(ev->games, g->id);
		free(g);
	}
	TAILQ_REMOVE(&ev->all, st, all_entry);
	if (--ev->n == 0)
		evtimer_del(ev->heartbeat);
	free(st);
}

/* The reader has gone (or was dropped): its connection is closing. */
static void
stream_gone(struct http *h, struct evhttp_request *req, void *arg)
{
	(void)h;
	log_debug("http: events of %s: the reader has gone",
	    ((struct stream *)arg)->game->id);
	stream_free(arg);
	http_request_gone(req);
}

static void
drop_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_events		*ev = arg;
	struct stream			*st;
	struct evhttp_connection	*evcon;

	(void)fd;
	(void)what;
	while ((st = TAILQ_FIRST(&ev->dropping)) != NULL) {
		evcon = evhttp_request_get_connection(st->req);
		if (evcon != NULL)
			evhttp_connection_free(evcon);	/* stream_gone() */
		if (TAILQ_FIRST(&ev->dropping) == st)	/* it was not */
			stream_free(st);
	}
}

static struct stream *
stream_new(struct http_events *ev, struct evhttp_request *req,
    const char *id, int64_t after, int64_t moves)
{
	struct stream	*st = xcalloc(1, sizeof *st);
	struct sgame	*g = idmap_get(ev->games, id);
	struct timeval	 tv = { (time_t)ev->h->srv->cfg->http_event_heartbeat,
			    0 };

	if (g == NULL) {
		g = xcalloc(1, sizeof *g);
		str_copy(g->id, sizeof g->id, id);
		TAILQ_INIT(&g->streams);
		idmap_put(ev->games, g->id, g);
	}
	st->ev = ev;
	st->game = g;
	st->req = req;
	st->next = after + 1;
	st->catching_up = after < moves;
	TAILQ_INSERT_TAIL(&g->streams, st, game_entry);
	TAILQ_INSERT_TAIL(&ev->all, st, all_entry);
	if (ev->n++ == 0)
		evtimer_add(ev->heartbeat, &tv);
	ev->stats.streams++;
	return st;
}

/* The move after which the stream starts: Last-Event-ID (a browser's
 * reconnect), else ?from, else the game's last; 0, or -1 with BADARG
 * sent. */
static int
stream_after(struct http_ctx *x, const struct evkeyvalq *q,
    const struct game *g, int64_t *after)
{
	const char	*last, *errstr;

	last = evhttp_find_header(evhttp_request_get_input_headers(x->req),
	    "Last-Event-ID");
	if (last != NULL) {
		if (parse_int64(last, 0, INT64_MAX / 2, after, &errstr) == -1) {
			http_error(x, "BADARG", "Last-Event-ID must be the seq "
			    "of a move");
			return -1;
		}
	} else if (http_query_int(x, q, "from", 0, INT64_MAX / 2, g->moves,
	    after) == -1)
		return -1;
	if (*after > g->moves) {
		http_error(x, "BADARG", "%s %lld is beyond the %lld moves of "
		    "'%s'", last != NULL ? "Last-Event-ID" : "from",
		    (long long)*after, (long long)g->moves, g->id);
		return -1;
	}
	return 0;
}

/* The response's head, and a first chunk that tells the browser how soon
 * to reconnect. */
static void
stream_start(struct http_ctx *x, struct stream *st, int64_t after)
{
	struct evkeyvalq	*out = evhttp_request_get_output_headers(x->req);
	struct timeval		 tv = { (time_t)x->srv->cfg->http_timeout, 0 };
	struct bufferevent	*bev;

	evhttp_add_header(out, "Content-Type", "text/event-stream");
	evhttp_add_header(out, "Cache-Control", "no-cache");
	evhttp_add_header(out, "X-Accel-Buffering", "no");
	evhttp_send_reply_start(x->req, 200, "OK");
	/* The reader sends nothing: no read timeout, a bounded input. */
	bev = stream_bev(st);
	bufferevent_set_timeouts(bev, NULL, &tv);
	bufferevent_setwatermark(bev, EV_READ, 0, EVENTS_INPUT);
	evbuffer_add_printf(st->ev->buf, "retry: %d\n: events of %s after "
	    "move %lld\n\n", EVENTS_RETRY, st->game->id, (long long)after);
	stream_send(st);
	log_debug("http: events of %s after move %lld", st->game->id,
	    (long long)after);
}

void
api_events(struct http_ctx *x)
{
	static const char *const params[] = { "from", NULL };
	struct http_events	*ev = x->srv->http->events;
	struct evkeyvalq	 q;
	struct stream		*st;
	struct game		 g;
	int64_t			 after;

	if (http_query(x, params, &q) == -1)
		return;
	if (http_load_game(x, &g) == -1 || stream_after(x, &q, &g,
	    &after) == -1)
		goto done;
	if (evhttp_request_get_command(x->req) == EVHTTP_REQ_HEAD) {
		http_reply(x, 200, "text/event-stream", "no-cache", NULL, 0);
		goto done;
	}
	st = stream_new(ev, x->req, g.id, after, g.moves);
	if (http_conn_watch(x->srv->http, x->req, stream_gone, st) == -1) {
		stream_free(st);
		http_error(x, "LIMIT", "this connection cannot stream");
		goto done;
	}
	stream_start(x, st, after);
	/* http_load_game() ended the pass: the history may be read. */
	if (st->catching_up)
		pump(st);
done:
	evhttp_clear_headers(&q);
}

int
http_events_init(struct http *h)
{
	struct http_events	*ev = xcalloc(1, sizeof *ev);

	h->events = ev;
	ev->h = h;
	ev->games = idmap_new();
	TAILQ_INIT(&ev->all);
	TAILQ_INIT(&ev->waiting);
	TAILQ_INIT(&ev->dropping);
	ev->heartbeat = event_new(h->srv->base, -1, EV_PERSIST, heartbeat_cb,
	    ev);
	ev->drop = event_new(h->srv->base, -1, 0, drop_cb, ev);
	ev->buf = evbuffer_new();
	return ev->heartbeat != NULL && ev->drop != NULL && ev->buf != NULL ?
	    0 : -1;
}

void
http_events_free(struct http *h)
{
	struct http_events	*ev = h->events;
	struct stream		*st;
	struct bufferevent	*bev;
	struct evbuffer		*out;

	if (ev == NULL)
		return;
	/* The last chunk of each, written now if the socket takes it (the
	 * loop is over): its reader sees the stream end, not a cut. */
	while ((st = TAILQ_FIRST(&ev->all)) != NULL) {
		bev = stream_bev(st);
		(void)http_conn_watch(h, st->req, NULL, NULL);
		evhttp_send_reply_end(st->req);
		out = bufferevent_get_output(bev);
		/* A socket bufferevent keeps its output's front frozen
		 * between its own writes. */
		evbuffer_unfreeze(out, 1);
		(void)evbuffer_write(out, bufferevent_getfd(bev));
		evbuffer_freeze(out, 1);
		stream_free(st);
	}
	idmap_free(ev->games);
	if (ev->heartbeat != NULL)
		event_free(ev->heartbeat);
	if (ev->drop != NULL)
		event_free(ev->drop);
	if (ev->buf != NULL)
		evbuffer_free(ev->buf);
	free(ev);
	h->events = NULL;
}

void
http_events_stats(const struct http *h, struct http_events_stats *s)
{
	*s = h->events->stats;
	s->open = h->events->n;
}
