/*
 * The HTTP connections, followed from their accept to their close: their
 * count (http-maxclients) and each one's peer's (its share,
 * http-maxclients-per-address, counted in quota.c with the peer's create
 * rate), the deadline by which a request must have arrived, and a
 * watcher of a request that outlives its pass or its read (a held
 * write, an event stream).
 *
 * libevent 2.1's evhttp has no connection count and no hook at accept,
 * so connections are followed from the bufferevent made for each one
 * (evhttp_set_bevcb): the new bufferevent is kept (a reference) until a
 * callback at the loop's highest priority, which runs before anything
 * can be read from it, takes its connection (the bufferevent's callback
 * argument, as evhttp sets it) and watches its close (closecb).  libevent
 * 2.2's evhttp_set_max_connections and evhttp_set_newreqcb would replace
 * this.  The HTTPS port's bufferevents are tls.c's (bufferevent_openssl,
 * accepting, with the context in use: a certificate reloaded on SIGHUP
 * is the next connection's).
 *
 * evhttp answers some requests itself, before a handler sees them: 400
 * to one it cannot parse or whose line and headers are over
 * http-max-header, 413 to a body over http-max-body, 501 to a method
 * not taken, 417 to an Expect it does not know.  libevent 2.1 has no
 * hook for those pages (2.2's evhttp_set_errorcb), yet they must carry
 * the headers every reply does.  They are the only replies written on a
 * connection while no request of ours is being served, and evhttp writes
 * a reply's status line into the connection's output in one piece: a
 * callback on that buffer puts the security headers right after such a
 * line, before evhttp's own headers follow it.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include "http/http.h"
#include "net/log.h"
#include "util/util.h"

struct http_conn {
	LIST_ENTRY(http_conn)	 link;		/* in its bucket */
	TAILQ_ENTRY(http_conn)	 queue;		/* in pending */
	struct http		*h;
	struct bufferevent	*bev;		/* until taken in */
	struct evhttp_connection *evcon;	/* once taken in */
	struct event		*deadline;
	struct quota_peer	*peer;		/* its address's count */
	enum http_over		 refused;	/* over a limit at its accept */
	int			 broken;	/* HTTPS without TLS: closed */
	struct evbuffer		*out;		/* the bufferevent's output */
	struct evbuffer_cb_entry *outcb;	/* out_cb on it */
	int			 serving;	/* a request of ours */
	int			 adding;	/* out_cb writing */
	http_gone_cb		 gone;		/* http_conn_watch() */
	struct evhttp_request	*gone_req;
	void			*gone_arg;
};

static struct http_conn_bucket *
bucket(struct http *h, const void *evcon)
{
	uint64_t	 k = (uint64_t)(uintptr_t)evcon;

	k ^= k >> 17;
	k *= 0x9e3779b97f4a7c15ULL;
	return &h->conns[(k >> 40) % HTTP_CONN_BUCKETS];
}

static struct http_conn *
conn_find(struct http *h, const struct evhttp_connection *evcon)
{
	struct http_conn	*hc;

	LIST_FOREACH(hc, bucket(h, evcon), link)
		if (hc->evcon == evcon)
			return hc;
	return NULL;
}

/* ------------------------------------------------------ connections */

/* A status line evhttp wrote of its own (see above): the security
 * headers follow it.  Not an interim reply (100 Continue, written with
 * its blank line), nor anything written while a request of ours is
 * served. */
static void
out_cb(struct evbuffer *out, const struct evbuffer_cb_info *info, void *arg)
{
	struct http_conn	*hc = arg;
	struct evbuffer_ptr	 at;
	char			 line[128];
	size_t			 n = info->n_added;

	if (n < 14 || n >= sizeof line || info->n_deleted > 0 ||
	    hc->serving || hc->adding)
		return;
	if (evbuffer_ptr_set(out, &at, info->orig_size,
	    EVBUFFER_PTR_SET) == -1 ||
	    evbuffer_copyout_from(out, &at, line, n) != (ev_ssize_t)n)
		return;
	line[n] = '\0';
	if (strncmp(line, "HTTP/1.", 7) != 0 || line[8] != ' ' ||
	    line[9] < '2' || line[9] > '5' ||
	    strstr(line, "\r\n") != line + n - 2)
		return;
	hc->adding = 1;
	http_secure_headers_raw(out);
	hc->adding = 0;
}

static void
out_unwatch(struct http_conn *hc)
{
	if (hc->outcb != NULL)
		evbuffer_remove_cb_entry(hc->out, hc->outcb);
	hc->outcb = NULL;
}

static void
conn_free(struct http_conn *hc)
{
	out_unwatch(hc);
	if (hc->evcon != NULL) {
		LIST_REMOVE(hc, link);
		hc->h->nconns--;
	}
	if (hc->peer != NULL)
		quota_peer_close(hc->peer);
	if (hc->deadline != NULL)
		event_free(hc->deadline);
	free(hc);
}

static void
conn_closed_cb(struct evhttp_connection *evcon, void *arg)
{
	struct http_conn	*hc = arg;
	http_gone_cb		 gone = hc->gone;

	evhttp_connection_set_closecb(evcon, NULL, NULL);
	if (gone != NULL) {
		hc->gone = NULL;
		gone(hc->h, hc->gone_req, hc->gone_arg);
	}
	conn_free(hc);
}

int
http_conn_watch(struct http *h, struct evhttp_request *req, http_gone_cb gone,
    void *arg)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct http_conn	*hc;

	if (evcon == NULL || (hc = conn_find(h, evcon)) == NULL)
		return -1;
	hc->gone = gone;
	hc->gone_req = req;
	hc->gone_arg = arg;
	return 0;
}

void
http_request_gone(struct evhttp_request *req)
{
	/* evhttp_connection_fail_() takes a request that has not been
	 * answered off its connection before freeing it: the request is
	 * the answerer's then.  A connection freed directly still holds
	 * its request, and frees it right after this. */
	if (evhttp_request_get_connection(req) == NULL)
		evhttp_request_free(req);
}

/* No request arrived in time: the connection goes (closecb frees hc). */
static void
conn_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http_conn	*hc = arg;

	(void)fd;
	(void)what;
	log_debug("http: no request within %lld s: closing",
	    (long long)hc->h->srv->cfg->http_timeout);
	evhttp_connection_free(hc->evcon);
}

/* A connection taken in counts on the server and on its peer; it is one
 * over http-maxclients, or over its peer's share, or neither. */
static void
conn_take(struct http *h, struct http_conn *hc, struct evhttp_connection *evcon)
{
	const struct config	*cfg = h->srv->cfg;
	char			*addr = NULL;
	ev_uint16_t		 port;
	int64_t			 held;

	hc->evcon = evcon;
	LIST_INSERT_HEAD(bucket(h, evcon), hc, link);
	h->nconns++;
	evhttp_connection_get_peer(evcon, &addr, &port);
	hc->peer = quota_peer_open(h->srv, addr != NULL ? addr : "", &held);
	if (h->nconns > cfg->http_maxclients)
		hc->refused = HTTP_OVER_ALL;
	else if (held > cfg->http_maxclients_per_address)
		hc->refused = HTTP_OVER_SHARE;
	else
		hc->refused = HTTP_OVER_NONE;
	hc->deadline = evtimer_new(h->srv->base, conn_deadline_cb, hc);
	if (hc->deadline != NULL)
		evtimer_add(hc->deadline, &h->deadline);
	evhttp_connection_set_closecb(evcon, conn_closed_cb, hc);
}

/*
 * Takes in the connections accepted since the last time: each one's
 * bufferevent now has its connection as callback argument, unless evhttp
 * freed it meanwhile (its callbacks are then cleared).
 */
void
http_conn_adopt_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http		*h = arg;
	struct http_conn	*hc;
	bufferevent_event_cb	 ecb;
	void			*cbarg;

	(void)fd;
	(void)what;
	while ((hc = TAILQ_FIRST(&h->pending)) != NULL) {
		TAILQ_REMOVE(&h->pending, hc, queue);
		bufferevent_getcb(hc->bev, NULL, NULL, &ecb, &cbarg);
		if (ecb != NULL && cbarg != NULL &&
		    evhttp_connection_get_bufferevent(cbarg) == hc->bev)
			conn_take(h, hc, cbarg);
		else
			out_unwatch(hc);	/* before its buffer goes */
		bufferevent_decref(hc->bev);
		hc->bev = NULL;
		if (hc->evcon == NULL)
			conn_free(hc);
		else if (hc->broken)	/* closecb frees hc */
			evhttp_connection_free(hc->evcon);
	}
}

/* The bufferevent evhttp asked for, followed until it is taken in. */
static struct bufferevent *
conn_new(struct http *h, struct bufferevent *bev, int broken)
{
	struct http_conn	*hc;

	if (bev == NULL)
		return NULL;
	hc = xcalloc(1, sizeof *hc);
	hc->h = h;
	hc->bev = bev;
	hc->broken = broken;
	hc->out = bufferevent_get_output(bev);
	hc->outcb = evbuffer_add_cb(hc->out, out_cb, hc);
	bufferevent_incref(hc->bev);
	TAILQ_INSERT_TAIL(&h->pending, hc, queue);
	event_active(h->adopt, EV_TIMEOUT, 1);
	return hc->bev;
}

/* Without one (out of memory), evhttp makes a plain one itself, which is
 * not counted. */
struct bufferevent *
http_conn_bev_cb(struct event_base *base, void *arg)
{
	return conn_new(arg, bufferevent_socket_new(base, -1,
	    BEV_OPT_CLOSE_ON_FREE), 0);
}

/* A TLS one; when none can be made, a plain one that is closed as soon
 * as it is taken in, before anything is read: HTTPS is never served in
 * clear. */
struct bufferevent *
http_conn_bev_tls_cb(struct event_base *base, void *arg)
{
	struct http		*h = arg;
	struct bufferevent	*bev = tls_bufferevent_new(h->srv, -1);

	if (bev != NULL)
		return conn_new(h, bev, 0);
	log_warning("https: cannot set up TLS for a connection: closed");
	return conn_new(h, bufferevent_socket_new(base, -1,
	    BEV_OPT_CLOSE_ON_FREE), 1);
}

/* The reply has been written: the next request's deadline starts. */
static void
request_done_cb(struct evhttp_request *req, void *arg)
{
	struct http		*h = arg;
	struct http_conn	*hc;

	hc = conn_find(h, evhttp_request_get_connection(req));
	if (hc == NULL)
		return;
	hc->serving = 0;
	if (hc->deadline != NULL)
		evtimer_add(hc->deadline, &h->deadline);
}

/* A request has arrived on its connection: the connection's deadline
 * stops until the reply is sent, when the next request's starts.  Says
 * whether the connection is one over a limit. */
enum http_over
http_conn_begin(struct http *h, struct evhttp_request *req)
{
	struct http_conn	*hc;

	hc = conn_find(h, evhttp_request_get_connection(req));
	if (hc == NULL)
		return HTTP_OVER_NONE;
	if (hc->deadline != NULL)
		evtimer_del(hc->deadline);
	hc->serving = 1;
	evhttp_request_set_on_complete_cb(req, request_done_cb, h);
	return hc->refused;
}

void
http_conns_free(struct http *h)
{
	struct http_conn	*hc;

	while ((hc = TAILQ_FIRST(&h->pending)) != NULL) {
		TAILQ_REMOVE(&h->pending, hc, queue);
		out_unwatch(hc);
		bufferevent_decref(hc->bev);
		free(hc);
	}
}
