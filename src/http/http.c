/*
 * The HTTP server: evhttp on the daemon's loop, listening on the bind
 * addresses at http-port, with the limits of the RESP side: header and
 * body sizes, a timeout for each read and write, a count of connections
 * (http-maxclients) and a deadline by which a request must have arrived,
 * so that a client sending its headers a byte at a time (slowloris)
 * holds a connection for http-timeout seconds at most (the connections
 * are followed in http_conn.c).
 *
 * HTTPS is a port of its own (https-port), as tls-port is RESP's: a
 * second evhttp on the same addresses, whose connections' bufferevents
 * are TLS with tls-port's certificate (tls.c's one context, reloaded on
 * SIGHUP), serving the same requests; one of it knows it came in TLS
 * (its own origin is https://).  Both count against http-maxclients.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/http.h>

#include "http/http.h"
#include "http/http_check.h"
#include "http/json.h"
#include "net/log.h"
#include "util/util.h"

static void
request_cb(struct evhttp_request *req, void *arg)
{
	struct http	*h = arg;

	http_serve(h, req, http_conn_begin(h, req), 0);
}

static void
request_tls_cb(struct evhttp_request *req, void *arg)
{
	struct http	*h = arg;

	http_serve(h, req, http_conn_begin(h, req), 1);
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

/* --------------------------------------------- the pass, the events */

/* A committed move (the daemon's event path): for the event streams. */
static void
http_move(struct server *srv, const char *game, const struct move *mv)
{
	http_events_move(srv->http, game, mv);
}

/* The pass has ended: the writes held for its COMMIT are answered, the
 * streams' backlogs read. */
static void
http_pass_end(struct server *srv, const char *failure)
{
	http_held_release(srv->http, failure);
	http_events_pass_end(srv->http);
}

static void
http_each_game(struct server *srv, follow_cb cb, void *arg)
{
	http_events_each_game(srv->http, cb, arg);
}

/* A ticket matched (lobby.c, after the COMMIT): for its streams. */
static void
http_match(struct server *srv, int64_t ticket)
{
	http_tickets_changed(srv->http, ticket);
}

static int
http_conflict(struct server *srv, uint64_t req, int redo)
{
	return http_held_conflict(srv->http, req, redo);
}

static void
http_redo(struct server *srv)
{
	http_held_redo(srv->http);
}

/* ------------------------------------------------------------- life */

/* Every bind address on *port (0: a free one, set once bound), served
 * by evh; what names the port in the log ("http", "https"). */
static int
bind_all(struct http *h, struct evhttp *evh, int *port, const char *what)
{
	const struct config	*cfg = h->srv->cfg;
	struct addrinfo		*res, *ai;
	char			 where[128], err[512], name[128];
	int			 i, fd;

	for (i = 0; i < cfg->nbind; i++) {
		if (listen_resolve(cfg->bind[i], *port, &res, err,
		    sizeof err) == -1) {
			log_warning("%s: %s", what, err);
			return -1;
		}
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			fd = listen_socket(ai, port, where, sizeof where, err,
			    sizeof err);
			if (fd == -1 || evhttp_accept_socket_with_handle(evh,
			    fd) == NULL) {
				if (fd != -1)
					close(fd);
				log_warning("%s: %s", what, fd == -1 ? err :
				    "cannot serve a socket");
				freeaddrinfo(res);
				return -1;
			}
			/* The address itself names us too (a bind given as
			 * a name listens on its addresses). */
			if (http_host_name(where, name, sizeof name) == 0)
				add_name(h, name);
			log_info("%s: listening on %s", what, where);
		}
		freeaddrinfo(res);
	}
	return 0;
}

/* An evhttp with our limits, its connections' bufferevents from bevcb
 * (followed by http_conn.c), its requests to reqcb; NULL when it cannot
 * be made.  Every method reaches our handler, which answers what it
 * does not serve itself. */
static struct evhttp *
evhttp_make(struct http *h, struct bufferevent *(*bevcb)(struct event_base *,
    void *), void (*reqcb)(struct evhttp_request *, void *))
{
	const struct config	*cfg = h->srv->cfg;
	struct evhttp		*evh = evhttp_new(h->srv->base);

	if (evh == NULL)
		return NULL;
	evhttp_set_allowed_methods(evh, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
	    EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE |
	    EVHTTP_REQ_OPTIONS | EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT |
	    EVHTTP_REQ_PATCH);
	evhttp_set_max_headers_size(evh, (ev_ssize_t)cfg->http_max_header);
	evhttp_set_max_body_size(evh, (ev_ssize_t)cfg->http_max_body);
	evhttp_set_timeout(evh, (int)cfg->http_timeout);
	evhttp_set_default_content_type(evh, "text/plain; charset=utf-8");
	evhttp_set_bevcb(evh, bevcb, h);
	evhttp_set_gencb(evh, reqcb, h);
	return evh;
}

/* The HTTP side's evhttp, and the HTTPS port's when it is on (its TLS
 * context is tls.c's, made at start with tls-port's files). */
static int
evhttp_setup(struct http *h, const struct config *cfg)
{
	h->evh = evhttp_make(h, http_conn_bev_cb, request_cb);
	h->adopt = event_new(h->srv->base, -1, 0, http_conn_adopt_cb, h);
	if (h->evh == NULL || h->adopt == NULL ||
	    event_priority_set(h->adopt, 0) == -1)
		return -1;
	if (cfg->https_port != TLS_PORT_OFF && (h->evhs = evhttp_make(h,
	    http_conn_bev_tls_cb, request_tls_cb)) == NULL)
		return -1;
	h->deadline.tv_sec = (time_t)cfg->http_timeout;
	return 0;
}

int
http_listen(struct server *srv)
{
	struct http	*h;
	int		 port = config_http_port(srv->cfg), i;

	if (port == HTTP_PORT_OFF && srv->cfg->https_port == TLS_PORT_OFF)
		return 0;
	h = srv->http = xcalloc(1, sizeof *h);
	h->srv = srv;
	h->port = port == HTTP_PORT_ANY ? 0 : port;
	h->https_port = srv->cfg->https_port == TLS_PORT_ANY ? 0 :
	    srv->cfg->https_port;
	TAILQ_INIT(&h->pending);
	for (i = 0; i < HTTP_CONN_BUCKETS; i++)
		LIST_INIT(&h->conns[i]);
	names_init(h, srv->cfg);
	web_json_init();
	if (evhttp_setup(h, srv->cfg) == -1 || http_events_init(h) == -1 ||
	    http_tickets_init(h) == -1) {
		log_warning("http: cannot set up the server");
		return -1;
	}
	srv->http_move = http_move;
	srv->http_pass_end = http_pass_end;
	srv->http_each_game = http_each_game;
	srv->http_conflict = http_conflict;
	srv->http_redo = http_redo;
	srv->http_match = http_match;
	if (port != HTTP_PORT_OFF && bind_all(h, h->evh, &h->port, "http") ==
	    -1)
		return -1;
	if (port == HTTP_PORT_OFF)
		h->port = 0;
	return h->evhs != NULL ? bind_all(h, h->evhs, &h->https_port,
	    "https") : 0;
}

int
http_port(const struct server *srv)
{
	return srv->http != NULL ? srv->http->port : 0;
}

int
http_tls_port(const struct server *srv)
{
	return srv->http != NULL && srv->http->evhs != NULL ?
	    srv->http->https_port : 0;
}

void
http_free(struct server *srv)
{
	struct http	*h = srv->http;
	int		 i;

	if (h == NULL)
		return;
	/* The writes held for the open pass are answered, the streams end. */
	pass_barrier(srv);
	srv->http_move = NULL;
	srv->http_pass_end = NULL;
	srv->http_each_game = NULL;
	srv->http_conflict = NULL;
	srv->http_redo = NULL;
	srv->http_match = NULL;
	http_tickets_free(h);
	http_events_free(h);
	/* Every connection's closecb runs: their records go with them. */
	if (h->evh != NULL)
		evhttp_free(h->evh);
	if (h->evhs != NULL)
		evhttp_free(h->evhs);
	http_conns_free(h);
	if (h->adopt != NULL)
		event_free(h->adopt);
	for (i = 0; i < h->nnames; i++)
		free(h->names[i]);
	free(h->names);
	free(h->held);
	free(h);
	srv->http = NULL;
}
