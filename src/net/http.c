/*
 * The HTTP server: evhttp on the daemon's loop, listening on the bind
 * addresses at http-port, with the limits of the RESP side: header and
 * body sizes, a timeout for each read and write, a count of connections
 * (http-maxclients) and a deadline by which a request must have arrived,
 * so that a client sending its headers a byte at a time (slowloris)
 * holds a connection for http-timeout seconds at most.
 *
 * libevent 2.1's evhttp has no connection count and no hook at accept,
 * so connections are followed from the bufferevent made for each one
 * (evhttp_set_bevcb): the new bufferevent is kept (a reference) until a
 * callback at the loop's highest priority, which runs before anything
 * can be read from it, takes its connection (the bufferevent's callback
 * argument, as evhttp sets it) and watches its close (closecb).  libevent
 * 2.2's evhttp_set_max_connections and evhttp_set_newreqcb would replace
 * this.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>

#include "net/http.h"
#include "net/http_check.h"
#include "net/log.h"
#include "util/util.h"
#include "web/web.h"

struct http_conn {
	LIST_ENTRY(http_conn)	 link;		/* in its bucket */
	TAILQ_ENTRY(http_conn)	 queue;		/* in pending */
	struct http		*h;
	struct bufferevent	*bev;		/* until taken in */
	struct evhttp_connection *evcon;	/* once taken in */
	struct event		*deadline;
	int			 refused;	/* over http-maxclients */
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

static void
conn_free(struct http_conn *hc)
{
	if (hc->evcon != NULL) {
		LIST_REMOVE(hc, link);
		hc->h->nconns--;
	}
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

static void
conn_take(struct http *h, struct http_conn *hc, struct evhttp_connection *evcon)
{
	hc->evcon = evcon;
	LIST_INSERT_HEAD(bucket(h, evcon), hc, link);
	h->nconns++;
	hc->refused = h->nconns > h->srv->cfg->http_maxclients;
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
static void
adopt_cb(evutil_socket_t fd, short what, void *arg)
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
		bufferevent_decref(hc->bev);
		hc->bev = NULL;
		if (hc->evcon == NULL)
			conn_free(hc);
	}
}

static struct bufferevent *
bev_cb(struct event_base *base, void *arg)
{
	struct http		*h = arg;
	struct http_conn	*hc;

	hc = xcalloc(1, sizeof *hc);
	hc->h = h;
	hc->bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
	if (hc->bev == NULL) {		/* evhttp makes one: not counted */
		free(hc);
		return NULL;
	}
	bufferevent_incref(hc->bev);
	TAILQ_INSERT_TAIL(&h->pending, hc, queue);
	event_active(h->adopt, EV_TIMEOUT, 1);
	return hc->bev;
}

/* The reply has been written: the next request's deadline starts. */
static void
request_done_cb(struct evhttp_request *req, void *arg)
{
	struct http		*h = arg;
	struct http_conn	*hc;

	hc = conn_find(h, evhttp_request_get_connection(req));
	if (hc != NULL && hc->deadline != NULL)
		evtimer_add(hc->deadline, &h->deadline);
}

/* A request has arrived on its connection: the connection's deadline
 * stops until the reply is sent, when the next request's starts.  1 when
 * the connection is one over http-maxclients. */
static int
conn_begin(struct http *h, struct evhttp_request *req)
{
	struct http_conn	*hc;

	hc = conn_find(h, evhttp_request_get_connection(req));
	if (hc == NULL)
		return 0;
	if (hc->deadline != NULL)
		evtimer_del(hc->deadline);
	evhttp_request_set_on_complete_cb(req, request_done_cb, h);
	return hc->refused;
}

static void
request_cb(struct evhttp_request *req, void *arg)
{
	struct http	*h = arg;

	http_serve(h, req, conn_begin(h, req));
}

/* ------------------------------------------------------------ names */

static void
add_name(struct http *h, const char *name)
{
	char	*n = xstrdup(name);
	size_t	 i;

	for (i = 0; n[i] != '\0'; i++)
		if (n[i] >= 'A' && n[i] <= 'Z')
			n[i] = (char)(n[i] + 'a' - 'A');
	h->names = xrealloc(h->names, (size_t)(h->nnames + 1) *
	    sizeof *h->names);
	h->names[h->nnames++] = n;
}

/* What a Host header may name: localhost, every bind value, every
 * http-host (and, once bound, every address listened on); any address
 * literal when a bind is a wildcard. */
static void
names_init(struct http *h, const struct config *cfg)
{
	int	 i;

	add_name(h, "localhost");
	for (i = 0; i < cfg->nbind; i++) {
		add_name(h, cfg->bind[i]);
		if (strcmp(cfg->bind[i], "0.0.0.0") == 0 ||
		    strcmp(cfg->bind[i], "::") == 0)
			h->any_address = 1;
	}
	for (i = 0; i < cfg->nhttp_host; i++)
		add_name(h, cfg->http_host[i]);
}

/* ------------------------------------------------------------- life */

static int
bind_all(struct http *h, const struct config *cfg)
{
	struct addrinfo		*res, *ai;
	char			 where[128], err[512], name[128];
	int			 i, fd;

	for (i = 0; i < cfg->nbind; i++) {
		if (listen_resolve(cfg->bind[i], h->port, &res, err,
		    sizeof err) == -1) {
			log_warning("http: %s", err);
			return -1;
		}
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			fd = listen_socket(ai, &h->port, where,
			    sizeof where, err, sizeof err);
			if (fd == -1 || evhttp_accept_socket_with_handle(h->evh,
			    fd) == NULL) {
				if (fd != -1)
					close(fd);
				log_warning("http: %s", fd == -1 ? err :
				    "cannot serve a socket");
				freeaddrinfo(res);
				return -1;
			}
			/* The address itself names us too (a bind given as
			 * a name listens on its addresses). */
			if (http_host_name(where, name, sizeof name) == 0)
				add_name(h, name);
			log_info("http: listening on %s", where);
		}
		freeaddrinfo(res);
	}
	return 0;
}

/* evhttp's own limits; every method reaches our handler, which answers
 * what it does not serve itself. */
static int
evhttp_setup(struct http *h, const struct config *cfg)
{
	h->evh = evhttp_new(h->srv->base);
	h->adopt = event_new(h->srv->base, -1, 0, adopt_cb, h);
	if (h->evh == NULL || h->adopt == NULL ||
	    event_priority_set(h->adopt, 0) == -1)
		return -1;
	evhttp_set_allowed_methods(h->evh, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
	    EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_max_headers_size(h->evh, (ev_ssize_t)cfg->http_max_header);
	evhttp_set_max_body_size(h->evh, (ev_ssize_t)cfg->http_max_body);
	evhttp_set_timeout(h->evh, (int)cfg->http_timeout);
	evhttp_set_default_content_type(h->evh, "text/plain; charset=utf-8");
	evhttp_set_bevcb(h->evh, bev_cb, h);
	evhttp_set_gencb(h->evh, request_cb, h);
	h->deadline.tv_sec = (time_t)cfg->http_timeout;
	return 0;
}

int
http_listen(struct server *srv)
{
	struct http	*h;
	int		 port = config_http_port(srv->cfg), i;

	if (port == HTTP_PORT_OFF)
		return 0;
	h = srv->http = xcalloc(1, sizeof *h);
	h->srv = srv;
	h->port = port == HTTP_PORT_ANY ? 0 : port;
	TAILQ_INIT(&h->pending);
	for (i = 0; i < HTTP_CONN_BUCKETS; i++)
		LIST_INIT(&h->conns[i]);
	names_init(h, srv->cfg);
	web_json_init();
	if (evhttp_setup(h, srv->cfg) == -1 || http_events_init(h) == -1) {
		log_warning("http: cannot set up the server");
		return -1;
	}
	return bind_all(h, srv->cfg);
}

int
http_port(const struct server *srv)
{
	return srv->http != NULL ? srv->http->port : 0;
}

void
http_free(struct server *srv)
{
	struct http	*h = srv->http;
	struct http_conn *hc;
	int		 i;

	if (h == NULL)
		return;
	/* The writes held for the open pass are answered, the streams end. */
	pass_end(srv);
	http_events_free(h);
	/* Every connection's closecb runs: their records go with them. */
	if (h->evh != NULL)
		evhttp_free(h->evh);
	while ((hc = TAILQ_FIRST(&h->pending)) != NULL) {
		TAILQ_REMOVE(&h->pending, hc, queue);
		bufferevent_decref(hc->bev);
		free(hc);
	}
	if (h->adopt != NULL)
		event_free(h->adopt);
	for (i = 0; i < h->nnames; i++)
		free(h->names[i]);
	free(h->names);
	free(h);
	srv->http = NULL;
}

/* --------------------------------------------- the pass, the events */

void
http_on_move(struct server *srv, const char *game, const struct move *mv)
{
	if (srv->http != NULL)
		http_events_move(srv->http, game, mv);
}

void
http_pass_end(struct server *srv, const char *failure)
{
	if (srv->http == NULL)
		return;
	http_held_release(srv->http, failure);
	http_events_pass_end(srv->http);
}
