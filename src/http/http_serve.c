/*
 * What every HTTP request passes before a handler sees it, and the routes
 * to the handlers.  The checks, in order:
 *
 *  1. the connection is within http-maxclients and its address's share,
 *     http-maxclients-per-address (else 503 LIMIT, close); a probe
 *     (/healthz, /readyz, /metrics) on one over them is served all the
 *     same, and closed, while there are at most HTTP_RESERVE connections
 *     over http-maxclients: a monitor is answered while a flood holds
 *     every slot;
 *  2. one Host header, naming an address we listen on, localhost or an
 *     http-host name (else 421 HOST): a page on a hostile name that
 *     resolves to us (DNS rebinding) is refused;
 *  3. an origin-form target ("/path?query"; a proxy's absolute form is
 *     400);
 *  4. GET and HEAD read.  A CORS preflight (OPTIONS from an origin of
 *     http-allow-origin) is answered.  Any other method is a write, which
 *     must be application/json (a browser then sends a preflight, which
 *     gets no CORS answer unless its origin is listed), from our own
 *     origin or a listed one when it has an Origin (else 415 TYPE, 403
 *     ORIGIN), and carry the server's password as its bearer token when
 *     it has one (else 401 NOAUTH, WRONGPASS); a route that takes no such
 *     method answers 405 METHOD.  The writes are POST and DELETE (a
 *     ticket cancelled), DELETE as JSON as the others: one rule for every
 *     write, whatever it carries.
 *
 * Every reply, refusals included, has the headers of http_reply.c, and
 * the CORS headers when its Origin is listed in http-allow-origin (none
 * at all when the list is empty).  Each refusal of 2 and 4 is logged
 * with its peer, at a rate (quota.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "cmd/cmd.h"
#include "http/http.h"
#include "http/http_check.h"
#include "http/json.h"
#include "net/log.h"
#include "util/util.h"

/* ----------------------------------------------------------- checks */

/* What a client sent, fit for a log line: 64 bytes at most, anything but
 * printable ASCII as '?'. */
static const char *
printable(const char *s, char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; s[i] != '\0' && i < len - 1 && i < 64; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

/*
 * A refusal's log line (notice), naming the peer, at the rate of
 * quota.c's log of refusals: a page that sends requests in a loop must
 * not fill the disk.  The next line written says how many were left out.
 */
static void
refusal_log(struct http_ctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
refusal_log(struct http_ctx *x, const char *fmt, ...)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(x->req);
	char		*addr = NULL, msg[256], more[64] = "";
	uint16_t	 port = 0;
	uint64_t	 left;
	va_list		 ap;

	if (!quota_log(x->srv, QUOTA_LOG_WEB, &left))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (left > 0)
		snprintf(more, sizeof more, " (and %llu more not logged)",
		    (unsigned long long)left);
	if (evcon != NULL)
		evhttp_connection_get_peer(evcon, &addr, &port);
	log_notice("http%s: %s:%u: %s%s", x->tls ? "s" : "",
	    addr != NULL ? addr : "?", (unsigned)port, msg, more);
}

/* The request's one Host header, NULL when there is none or several. */
static const char *
one_host(struct evhttp_request *req)
{
	struct evkeyval	*kv;
	const char	*host = NULL;

	TAILQ_FOREACH(kv, evhttp_request_get_input_headers(req), next)
		if (strcaseeq(kv->key, "Host")) {
			if (host != NULL)
				return NULL;
			host = kv->value;
		}
	return host;
}

/* 1 when a browser page of that origin may use the API: ours (http://
 * and the Host, https:// on the HTTPS port), or one of
 * http-allow-origin. */
static int
origin_allowed(const struct http_ctx *x, const char *origin, const char *host)
{
	const struct config	*cfg = x->srv->cfg;

	return http_origin_ours(origin, x->tls, host) ||
	    http_origin_listed(origin, cfg->http_allow_origin,
	    cfg->nhttp_allow_origin);
}

/* The CORS headers of a reply to a listed origin; nothing else gets any. */
static void
cors_headers(struct http_ctx *x)
{
	const struct config	*cfg = x->srv->cfg;
	struct evkeyvalq	*out = evhttp_request_get_output_headers(x->req);
	const char		*origin;

	if (cfg->nhttp_allow_origin == 0)
		return;
	evhttp_add_header(out, "Vary", "Origin");
	origin = evhttp_find_header(evhttp_request_get_input_headers(x->req),
	    "Origin");
	if (origin == NULL || !http_origin_listed(origin,
	    cfg->http_allow_origin, cfg->nhttp_allow_origin))
		return;
	evhttp_add_header(out, "Access-Control-Allow-Origin", origin);
	evhttp_add_header(out, "Access-Control-Expose-Headers", "Location");
}

/* A listed origin's preflight: 1 with its answer sent. */
static int
preflight(struct http_ctx *x)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(x->req);
	struct evkeyvalq *out = evhttp_request_get_output_headers(x->req);

	if (evhttp_request_get_command(x->req) != EVHTTP_REQ_OPTIONS ||
	    evhttp_find_header(out, "Access-Control-Allow-Origin") == NULL ||
	    evhttp_find_header(in, "Access-Control-Request-Method") == NULL)
		return 0;
	evhttp_add_header(out, "Access-Control-Allow-Methods",
	    "GET, HEAD, POST, DELETE");
	evhttp_add_header(out, "Access-Control-Allow-Headers", "Content-Type, "
	    "Authorization, X-Seat-Key, X-Account-Key, Last-Event-ID");
	evhttp_add_header(out, "Access-Control-Max-Age", "600");
	http_reply(x, 204, NULL, "no-store", NULL, 0);
	return 1;
}

/*
 * A server with a password (requirepass) takes only the writes that give
 * it as their bearer token, checked as AUTH checks it (auth.c: a keyed
 * hash, compared in constant time).
 */
static int
password_given(struct http_ctx *x)
{
	const struct auth	*a = x->srv->auth;
	const char		*auth, *token;
	size_t			 len;

	if (!auth_required(a))
		return 1;
	auth = evhttp_find_header(evhttp_request_get_input_headers(x->req),
	    "Authorization");
	evhttp_add_header(evhttp_request_get_output_headers(x->req),
	    "WWW-Authenticate", "Bearer realm=\"ludus\"");
	if (auth == NULL || http_bearer(auth, &token, &len) == -1) {
		http_error(x, "NOAUTH", "Authentication required.");
		return 0;
	}
	if (!auth_check(a, NULL, token, len)) {
		refusal_log(x, "a write with a wrong password");
		http_error(x, "WRONGPASS", "invalid password");
		return 0;
	}
	evhttp_remove_header(evhttp_request_get_output_headers(x->req),
	    "WWW-Authenticate");
	return 1;
}

/* Logs a write refused for its type: what a form or a page's "simple"
 * fetch() sends, or the preflight of a page whose origin is not listed
 * (a browser then never sends the write itself). */
static void
type_refused(struct http_ctx *x, const char *type, const char *origin)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(x->req);
	char		 o[72], t[72];

	if (origin != NULL)
		printable(origin, o, sizeof o);
	if (evhttp_request_get_command(x->req) == EVHTTP_REQ_OPTIONS &&
	    evhttp_find_header(in, "Access-Control-Request-Method") != NULL)
		refusal_log(x, "refused a CORS preflight from origin '%s' "
		    "(cross-site request?)", origin != NULL ? o : "(none)");
	else
		refusal_log(x, "refused a write of type '%s'%s%s%s (a form or "
		    "a cross-site request?)", type != NULL ? printable(type, t,
		    sizeof t) : "(none)", origin != NULL ? " from origin '" :
		    "", origin != NULL ? o : "", origin != NULL ? "'" : "");
}

/* A write must be JSON, so that a browser cannot send it cross-site
 * without a preflight, from our own origin or a listed one when it names
 * one, and carry the server's password if it has one. */
static int
write_allowed(struct http_ctx *x, const char *host)
{
	struct evkeyvalq	*in = evhttp_request_get_input_headers(x->req);
	const char		*type, *origin;
	char			 buf[72];

	type = evhttp_find_header(in, "Content-Type");
	origin = evhttp_find_header(in, "Origin");
	if (type == NULL || !http_type_is_json(type)) {
		type_refused(x, type, origin);
		http_error(x, "TYPE", "a write must be application/json");
		return 0;
	}
	if (origin != NULL && !origin_allowed(x, origin, host)) {
		refusal_log(x, "refused a write from origin '%s' (cross-site "
		    "request?)", printable(origin, buf, sizeof buf));
		http_error(x, "ORIGIN", "origin not allowed");
		return 0;
	}
	return password_given(x);
}

/* A probe of a monitor, which a connection over a limit may still ask. */
static int
is_probe(const char *path)
{
	return strcmp(path, "/healthz") == 0 ||
	    strcmp(path, "/readyz") == 0 || strcmp(path, "/metrics") == 0;
}

/* A connection over a limit: 0 for a probe within the reserve (served,
 * then closed), or -1 with 503 LIMIT sent. */
static int
over_limit(struct http_ctx *x, enum http_over over)
{
	struct http		*h = x->srv->http;
	const struct config	*cfg = x->srv->cfg;

	if (is_probe(x->path) && h->nconns <= cfg->http_maxclients +
	    HTTP_RESERVE) {
		evhttp_add_header(evhttp_request_get_output_headers(x->req),
		    "Connection", "close");
		return 0;
	}
	if (over == HTTP_OVER_ALL) {
		http_error(x, "LIMIT", "max number of HTTP clients reached "
		    "(http-maxclients %lld)", (long long)cfg->http_maxclients);
		return -1;
	}
	quota_count(x->srv, QUOTA_HTTP_PER_ADDRESS);
	refusal_log(x, "refused: max number of HTTP connections from one "
	    "address reached (http-maxclients-per-address %lld)",
	    (long long)cfg->http_maxclients_per_address);
	http_error(x, "LIMIT", "max number of HTTP connections from one "
	    "address reached (http-maxclients-per-address %lld)",
	    (long long)cfg->http_maxclients_per_address);
	return -1;
}

/* Passes the checks of every request; 0, or -1 with the reply sent. */
static int
request_allowed(struct http_ctx *x, enum http_over over)
{
	struct http	*h = x->srv->http;
	const char	*host = one_host(x->req);
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(x->req);
	char		 buf[72];

	if (over != HTTP_OVER_NONE && over_limit(x, over) == -1)
		return -1;
	if (host == NULL || !http_host_allowed(host, h->names, h->nnames,
	    h->any_address)) {
		refusal_log(x, "refused Host '%s' (DNS rebinding?)",
		    host != NULL ? printable(host, buf, sizeof buf) :
		    "(none or several)");
		http_error(x, "HOST", "this server is not '%.64s'",
		    host != NULL ? host : "");
		return -1;
	}
	if (uri == NULL || evhttp_uri_get_host(uri) != NULL ||
	    x->path[0] != '/') {
		http_error(x, "ERR", "the target must be a path");
		return -1;
	}
	switch (evhttp_request_get_command(x->req)) {
	case EVHTTP_REQ_GET:
	case EVHTTP_REQ_HEAD:
		return 0;
	default:
		if (preflight(x))
			return 1;
		return write_allowed(x, host) ? 0 : -1;
	}
}

/* ----------------------------------------------------------- routes */

struct route {
	const char	*prefix;
	const char	*suffix;	/* NULL: the path is the prefix */
	void		(*get)(struct http_ctx *);	/* and HEAD */
	void		(*post)(struct http_ctx *);
	void		(*del)(struct http_ctx *);	/* DELETE */
	const char	*what;		/* the id's, for its error */
};

#define GAME_IDS	"invalid game id"
#define ACCOUNTS	"an account name is 1 to 50 of a-z, 0-9 and -"
#define KINDS		"invalid kind"
#define TICKETS		"a ticket is a number"

/* The first that matches serves; an id (a game's, an account's, a
 * kind's, a ticket's) sits between a prefix and a suffix. */
static const struct route routes[] = {
	{ "/", NULL, page_index, NULL, NULL, NULL },
	{ "/healthz", NULL, api_healthz, NULL, NULL, NULL },
	{ "/readyz", NULL, api_readyz, NULL, NULL, NULL },
	{ "/metrics", NULL, page_metrics, NULL, NULL, NULL },
	{ "/api/games", NULL, api_games, api_create, NULL, NULL },
	{ "/api/kinds", NULL, api_kinds, NULL, NULL, NULL },
	{ "/api/games/", "/history", api_history, NULL, NULL, GAME_IDS },
	{ "/api/games/", "/replay", api_replay, NULL, NULL, GAME_IDS },
	{ "/api/games/", "/events", api_events, NULL, NULL, GAME_IDS },
	{ "/api/games/", "/moves", NULL, api_move, NULL, GAME_IDS },
	{ "/api/games/", "/roll", NULL, api_roll, NULL, GAME_IDS },
	{ "/api/games/", "/exchange", NULL, api_exchange, NULL, GAME_IDS },
	{ "/api/games/", "", api_game, NULL, NULL, GAME_IDS },
	{ "/api/players", NULL, NULL, api_player_create, NULL, NULL },
	{ "/api/players/", "/games", api_player_games, NULL, NULL, ACCOUNTS },
	{ "/api/players/", "", api_player, NULL, NULL, ACCOUNTS },
	{ "/api/leaderboard/", "", api_leaderboard, NULL, NULL, KINDS },
	{ "/api/lobby", NULL, api_lobby, api_ticket_create, NULL, NULL },
	{ "/api/lobby/", "/events", api_ticket_events, NULL, NULL, TICKETS },
	{ "/api/lobby/", "", api_ticket, NULL, api_ticket_cancel, TICKETS },
	{ "/leaderboard/", "", page_leaderboard, NULL, NULL, KINDS },
	{ "/players/", "", page_player, NULL, NULL, ACCOUNTS },
	{ "/games/", ".svg", page_svg, NULL, NULL, GAME_IDS },
	{ "/games/", "", page_game, NULL, NULL, GAME_IDS },
};

/* 1 when the route takes the path (x->id set); -1 when it would but the
 * id is not one (BADARG sent); 0 when it does not. */
static int
route_match(struct http_ctx *x, const struct route *r)
{
	size_t		 plen = strlen(r->prefix), len = strlen(x->path), n;
	const char	*id = x->path + plen;

	if (r->suffix == NULL)
		return strcmp(x->path, r->prefix) == 0;
	if (len < plen + strlen(r->suffix) ||
	    strncmp(x->path, r->prefix, plen) != 0 ||
	    strcmp(x->path + len - strlen(r->suffix), r->suffix) != 0)
		return 0;
	n = len - plen - strlen(r->suffix);
	if (n == 0 || memchr(id, '/', n) != NULL)
		return 0;
	if (n > GAME_ID_MAX || !valid_id(id, n)) {
		http_error(x, "BADARG", "%s", r->what);
		return -1;
	}
	memcpy(x->id, id, n);
	x->id[n] = '\0';
	return 1;
}

/* The route's handler for the request's method, or 405 with what the
 * route takes. */
static void
route_serve(struct http_ctx *x, const struct route *r)
{
	enum evhttp_cmd_type	 m = evhttp_request_get_command(x->req);
	void			(*serve)(struct http_ctx *);

	char			 allow[32];
	struct strbuf		 sb;

	if (m == EVHTTP_REQ_GET || m == EVHTTP_REQ_HEAD)
		serve = r->get;
	else if (m == EVHTTP_REQ_POST)
		serve = r->post;
	else
		serve = m == EVHTTP_REQ_DELETE ? r->del : NULL;
	if (serve != NULL) {
		serve(x);
		return;
	}
	strbuf_init(&sb, allow, sizeof allow);
	if (r->get != NULL)
		strbuf_add(&sb, "GET, HEAD");
	if (r->post != NULL)
		strbuf_add(&sb, r->get != NULL ? ", POST" : "POST");
	if (r->del != NULL)
		strbuf_add(&sb, ", DELETE");
	evhttp_add_header(evhttp_request_get_output_headers(x->req), "Allow",
	    allow);
	http_error(x, "METHOD", "%s takes only %s", x->path, allow);
}

static void
route(struct http_ctx *x)
{
	static const struct route files = { "/static/", NULL, page_static,
	    NULL, NULL, NULL };
	size_t	 i;
	int	 m;

	if (strncmp(x->path, "/static/", 8) == 0) {
		route_serve(x, &files);
		return;
	}
	for (i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		if ((m = route_match(x, &routes[i])) == -1)
			return;
		if (m == 1) {
			route_serve(x, &routes[i]);
			return;
		}
	}
	http_error(x, "NOTFOUND", "no such page");
}

void
http_serve(struct http *h, struct evhttp_request *req, enum http_over over,
    int tls)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct http_ctx		 x;

	memset(&x, 0, sizeof x);
	x.srv = h->srv;
	x.req = req;
	x.tls = tls;
	x.path = uri != NULL && evhttp_uri_get_path(uri) != NULL ?
	    evhttp_uri_get_path(uri) : "";
	x.query = uri != NULL ? evhttp_uri_get_query(uri) : NULL;
	h->requests++;
	http_secure_headers(evhttp_request_get_output_headers(req));
	cors_headers(&x);
	switch (request_allowed(&x, over)) {
	case -1:
		h->refused++;
		return;
	case 0:
		route(&x);
		return;
	default:		/* a preflight, answered */
		return;
	}
}
