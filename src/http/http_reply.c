/*
 * Replies and queries, for every handler: the headers every reply of ours
 * carries (nosniff, a Content-Security-Policy that lets the pages load
 * only their own scripts, styles and images and be framed by no one, no
 * referrer, never a CORS header), JSON and its errors, and the checked
 * reading of query parameters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "http/http.h"
#include "http/json.h"
#include "net/log.h"
#include "util/util.h"

#define HTTP_CSP	"default-src 'none'; script-src 'self'; " \
			"style-src 'self'; img-src 'self'; connect-src 'self'; " \
			"base-uri 'none'; form-action 'self'; " \
			"frame-ancestors 'none'"

/* The headers every reply carries, evhttp's own error pages included. */
static const struct {
	const char	*name;
	const char	*value;
} secure[] = {
	{ "X-Content-Type-Options", "nosniff" },
	{ "Content-Security-Policy", HTTP_CSP },
	{ "Referrer-Policy", "no-referrer" },
	{ "X-Frame-Options", "DENY" },
};

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 204: return "No Content";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 415: return "Unsupported Media Type";
	case 421: return "Misdirected Request";
	case 429: return "Too Many Requests";
	case 503: return "Service Unavailable";
	default: return "Internal Server Error";
	}
}

/* How much of a path a log line shows: at most 128 of a-z, A-Z, 0-9 and
 * "/._-". */
static size_t
log_path_len(const char *path)
{
	size_t	 n = strspn(path, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-");

	return n < 128 ? n : 128;
}

static const char *
method_name(enum evhttp_cmd_type m)
{
	switch (m) {
	case EVHTTP_REQ_GET: return "GET";
	case EVHTTP_REQ_HEAD: return "HEAD";
	case EVHTTP_REQ_POST: return "POST";
	case EVHTTP_REQ_PUT: return "PUT";
	case EVHTTP_REQ_DELETE: return "DELETE";
	case EVHTTP_REQ_OPTIONS: return "OPTIONS";
	case EVHTTP_REQ_PATCH: return "PATCH";
	default: return "other";
	}
}

void
http_secure_headers(struct evkeyvalq *out)
{
	size_t	 i;

	for (i = 0; i < sizeof secure / sizeof secure[0]; i++)
		evhttp_add_header(out, secure[i].name, secure[i].value);
}

void
http_secure_headers_raw(struct evbuffer *out)
{
	size_t	 i;

	for (i = 0; i < sizeof secure / sizeof secure[0]; i++)
		evbuffer_add_printf(out, "%s: %s\r\n", secure[i].name,
		    secure[i].value);
}

void
http_reply(struct http_ctx *x, int status, const char *type,
    const char *cache, const void *body, size_t len)
{
	struct evkeyvalq	*out = evhttp_request_get_output_headers(x->req);

	if (type != NULL)
		evhttp_add_header(out, "Content-Type", type);
	if (cache != NULL)
		evhttp_add_header(out, "Cache-Control", cache);
	/* Stopping: no connection is kept for a next request. */
	if (x->srv->stopping || status == 503)
		evhttp_add_header(out, "Connection", "close");
	if (len > 0)
		evbuffer_add(evhttp_request_get_output_buffer(x->req), body,
		    len);
	/* The path up to anything but a plain path's characters: a key
	 * that a mangled invite link (%23key=) put in it never reaches
	 * the log. */
	log_debug("http: %s %.*s %d", method_name(
	    evhttp_request_get_command(x->req)), (int)log_path_len(x->path),
	    x->path, status);
	evhttp_send_reply(x->req, status, reason(status), NULL);
}

void
http_json(struct http_ctx *x, int status, json_t *j)
{
	char	*text;
	size_t	 len;

	text = json_text(j, &len);
	json_decref(j);
	http_reply(x, status, "application/json", status == 200 ?
	    "no-cache" : "no-store", text, len);
	free(text);
}

void
http_error(struct http_ctx *x, const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (page_wanted(x))
		page_error(x, web_error_status(code), code, msg);
	else
		http_json(x, web_error_status(code), json_error(code, "%s",
		    msg));
}

json_t *
http_error_json(const char *err, int *status)
{
	char	 code[32];
	size_t	 n = strcspn(err, " ");

	if (n >= sizeof code)
		n = sizeof code - 1;
	memcpy(code, err, n);
	code[n] = '\0';
	*status = web_error_status(code);
	return json_error(code, "%s", err[n] == ' ' ? err + n + 1 : "");
}

void
http_store_error(struct http_ctx *x)
{
	const char	*msg = store_errmsg(x->srv->env.store);

	x->srv->env.store_errors++;
	log_warning("http: store error in %s: %s", x->path, msg);
	http_error(x, "STORE", "%s", msg);
}

/* ---------------------------------------------------------- queries */

int
http_query(struct http_ctx *x, const char *const *allowed,
    struct evkeyvalq *q)
{
	struct evkeyval	*kv, *o;
	size_t		 i;

	TAILQ_INIT(q);
	if (x->query == NULL)
		return 0;
	if (evhttp_parse_query_str(x->query, q) == -1) {
		http_error(x, "BADARG", "malformed query string");
		return -1;
	}
	TAILQ_FOREACH(kv, q, next) {
		for (i = 0; allowed[i] != NULL; i++)
			if (strcmp(kv->key, allowed[i]) == 0)
				break;
		if (allowed[i] == NULL) {
			http_error(x, "BADARG", "unknown parameter '%.64s'",
			    kv->key);
			goto fail;
		}
		for (o = TAILQ_FIRST(q); o != kv; o = TAILQ_NEXT(o, next))
			if (strcmp(o->key, kv->key) == 0) {
				http_error(x, "BADARG", "parameter '%s' "
				    "given twice", kv->key);
				goto fail;
			}
	}
	return 0;
fail:
	evhttp_clear_headers(q);
	return -1;
}

int
http_query_none(struct http_ctx *x)
{
	static const char *const none[] = { NULL };
	struct evkeyvalq q;

	if (http_query(x, none, &q) == -1)
		return -1;
	evhttp_clear_headers(&q);
	return 0;
}

int
http_query_int(struct http_ctx *x, const struct evkeyvalq *q,
    const char *name, int64_t min, int64_t max, int64_t def, int64_t *out)
{
	const char	*v, *errstr;

	v = evhttp_find_header(q, name);
	if (v == NULL) {
		*out = def;
		return 0;
	}
	if (parse_int64(v, min, max, out, &errstr) == -1) {
		http_error(x, "BADARG", "%s must be an integer from %lld to "
		    "%lld", name, (long long)min, (long long)max);
		return -1;
	}
	return 0;
}
