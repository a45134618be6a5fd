/*
 * A connection's life: bytes come in, the RESP parser turns them into
 * requests, each request is run to completion (a move commits before its
 * reply is queued) and replies leave in request order.  Three rules keep
 * one client from hurting the others: a bounded number of requests per
 * turn of the event loop, no reading while too much output waits, and a
 * hard cap on pending output.  A connection is only ever freed from a
 * libevent callback at the top of the loop, never in the middle of a
 * request, so code that serves a request may drop any client safely.
 *
 * Output is written the way Redis does it: a reply goes to the
 * bufferevent's output with its write event off, and the connection
 * joins the server's list of pending writes (srv->wpend).  At the end of
 * the pass (the flush of pass.c, after the COMMIT) each is written
 * straight to its socket: a reply the kernel takes whole costs one writev
 * and no change to the epoll set.  Only when the kernel does not take it
 * all is EV_WRITE turned on, and libevent writes the rest as the socket
 * drains (with the write timeout of a closing client); conn_write_cb
 * turns it off again once the output is empty.
 *
 * That is the plain transport.  A TLS connection (tls.c) has a
 * bufferevent_openssl instead, which must do the writing itself (the
 * bytes go through SSL_write): its flush only turns EV_WRITE on, and
 * libevent writes as soon as the socket is writable, one turn of the
 * loop later; the rest is the same.  The plain path pays one test of the
 * transport per flush.
 *
 * Until its first request has been read, a connection is sniffed
 * (sniff.h): one that starts like a TLS handshake, or whose first
 * request looks like HTTP (a web page's fetch() of the RESP port), is
 * closed before anything it sent runs.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "net/conn.h"
#include "net/log.h"
#include "net/sniff.h"
#include "util/util.h"

#define CONN_BATCH	128		/* requests per turn of the loop */
#define OUT_PAUSE	(1024 * 1024)	/* stop reading requests above this */
#define OUT_LOW		(64 * 1024)	/* ... and resume below this */
#define CLOSE_TIMEOUT	10		/* seconds a closing client may take */
#define LINGER_MSEC	100		/* reading after our FIN, at most */
#define ENC_KEEP	(1024 * 1024)	/* scratch encoder memory kept */
#define HANDSHAKE_TIMEOUT 10		/* seconds for a TLS handshake */

static void	conn_read_cb(struct bufferevent *, void *);
static void	conn_write_cb(struct bufferevent *, void *);
static void	conn_event_cb(struct bufferevent *, short, void *);
static void	conn_resume_cb(evutil_socket_t, short, void *);
static void	conn_process(struct conn *);
static void	conn_output_low(struct conn *);

static void
format_addr(const struct sockaddr *sa, char *buf, size_t len)
{
	char	 host[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof host);
		snprintf(buf, len, "%s:%u", host, ntohs(sin->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof host);
		snprintf(buf, len, "[%s]:%u", host, ntohs(sin6->sin6_port));
	} else
		snprintf(buf, len, "?");
}

/*
 * Refuses a client over maxclients without building a connection: one
 * non-blocking send of the error, then close.
 */
static void
conn_refuse(struct server *srv, evutil_socket_t fd, const char *addr)
{
	static const char msg[] = "-ERR max number of clients reached\r\n";

	srv->conns_rejected++;
	log_info("%s: refused: max number of clients (%lld) reached", addr,
	    (long long)srv->maxclients);
	(void)send(fd, msg, sizeof msg - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	evutil_closesocket(fd);
}

/* The idle timeout of the configuration; a TLS client must also finish
 * its handshake in time, whatever that is. */
static void
conn_set_timeout(struct conn *c)
{
	struct timeval	 tv = { (time_t)c->srv->cfg->timeout, 0 };

	if (c->transport == CONN_TLS && !c->tls_up) {
		tv.tv_sec = HANDSHAKE_TIMEOUT;
		bufferevent_set_timeouts(c->bev, &tv, NULL);
	} else
		bufferevent_set_timeouts(c->bev, tv.tv_sec > 0 ? &tv : NULL,
		    NULL);
}

void
conn_accept(struct server *srv, evutil_socket_t fd, struct sockaddr *sa,
    int socklen, enum conn_transport transport)
{
	struct conn		*c;
	struct sockaddr_storage	 local;
	socklen_t		 locallen = sizeof local;
	char			 addr[64];
	int			 one = 1;

	(void)socklen;
	format_addr(sa, addr, sizeof addr);
	if (srv->stopping) {
		evutil_closesocket(fd);
		return;
	}
	if (srv->nclients >= srv->maxclients) {
		conn_refuse(srv, fd, addr);
		return;
	}
	/* Small replies should leave at once, not wait for Nagle. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	c = xcalloc(1, sizeof *c);
	if (transport == CONN_TLS)
		c->bev = tls_bufferevent_new(srv, fd);
	else
		c->bev = bufferevent_socket_new(srv->base, fd,
		    BEV_OPT_CLOSE_ON_FREE);
	c->resume = event_new(srv->base, -1, 0, conn_resume_cb, c);
	if (c->bev == NULL || c->resume == NULL) {
		log_warning("%s: cannot set up the connection", addr);
		if (c->bev != NULL)
			bufferevent_free(c->bev);
		else
			evutil_closesocket(fd);
		if (c->resume != NULL)
			event_free(c->resume);
		free(c);
		return;
	}
	c->srv = srv;
	c->id = ++srv->next_id;
	c->proto = 2;
	c->transport = transport;
	c->since = c->last = time(NULL);
	c->authed = !auth_required(srv->auth);
	memcpy(c->addr, addr, sizeof c->addr);
	if (getsockname(fd, (struct sockaddr *)&local, &locallen) == 0)
		format_addr((struct sockaddr *)&local, c->laddr,
		    sizeof c->laddr);
	else
		snprintf(c->laddr, sizeof c->laddr, "?");
	TAILQ_INIT(&c->watches);
	TAILQ_INIT(&c->subs);
	c->session = cmd_session_new();
	resp_parser_init(&c->parser, &srv->cfg->limits);
	bufferevent_setcb(c->bev, conn_read_cb, conn_write_cb, conn_event_cb,
	    c);
	bufferevent_setwatermark(c->bev, EV_WRITE, OUT_LOW, 0);
	conn_set_timeout(c);
	/* A new bufferevent has EV_WRITE on: output waits for the flush. */
	bufferevent_disable(c->bev, EV_WRITE);
	bufferevent_enable(c->bev, EV_READ);
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	srv->nclients++;
	srv->conns_total++;
	log_debug("%s: connected (client %llu)", c->addr,
	    (unsigned long long)c->id);
}

/* Off the list of pending writes. */
static void
conn_delist(struct conn *c)
{
	if (!c->wpend)
		return;
	c->wpend = 0;
	TAILQ_REMOVE(&c->srv->wpend, c, wentry);
	c->srv->nwpend--;
}

void
conn_free(struct conn *c)
{
	struct server	*srv = c->srv;

	log_debug("%s: closed (client %llu)", c->addr,
	    (unsigned long long)c->id);
	conn_delist(c);
	held_forget(srv->held, c);
	monitor_gone(c);
	watch_remove_all(c, NULL);
	pubsub_remove_all(c);
	stream_conn_free(c);
	lobby_conn_free(c);
	multi_free(c);
	client_free(c);
	TAILQ_REMOVE(&srv->conns, c, entry);
	srv->nclients--;
	resp_parser_free(&c->parser);
	cmd_session_free(c->session);
	event_free(c->resume);
	bufferevent_free(c->bev);
	free(c);
	server_conn_gone(srv);
}

/* Held replies count: a connection closing after a reply held for the
 * COMMIT must wait for it as for one being written. */
size_t
conn_pending(const struct conn *c)
{
	return evbuffer_get_length(bufferevent_get_output(c->bev)) +
	    held_bytes(c);
}

void
conn_kill(struct conn *c, const char *why)
{
	if (c->state == CONN_DEAD)
		return;
	if (why != NULL)
		log_notice("%s: dropped: %s", c->addr, why);
	c->state = CONN_DEAD;
	conn_delist(c);
	bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	event_active(c->resume, EV_TIMEOUT, 1);
}

/*
 * Everything queued has been sent: send our FIN and read (and discard)
 * what the client still sends for a moment.  Closing a socket with
 * unread input makes the kernel send a reset, and a reset can destroy
 * the last reply before the client has read it.
 */
static void
conn_linger(struct conn *c)
{
	struct timeval	 tv = { 0, LINGER_MSEC * 1000 };

	if (c->eof || c->lingering) {
		conn_kill(c, NULL);
		return;
	}
	c->lingering = 1;
	if (c->tls_up)
		tls_close_notify(c->bev);
	shutdown(bufferevent_getfd(c->bev), SHUT_WR);
	bufferevent_disable(c->bev, EV_WRITE);
	bufferevent_set_timeouts(c->bev, &tv, NULL);
	bufferevent_enable(c->bev, EV_READ);
}

void
conn_close_after_flush(struct conn *c)
{
	struct timeval	 tv = { CLOSE_TIMEOUT, 0 };

	if (c->state != CONN_OPEN)
		return;
	c->state = CONN_CLOSING;
	if (conn_pending(c) == 0) {
		conn_linger(c);
		return;
	}
	/*
	 * Keep reading, to throw away what the client still sends: closing
	 * a socket with unread input makes the kernel send a reset, which
	 * can destroy the reply we are flushing before the client reads it.
	 */
	bufferevent_set_timeouts(c->bev, NULL, &tv);
	if (!c->eof)
		bufferevent_enable(c->bev, EV_READ);
	/* What is queued is on srv->wpend, or being written by libevent
	 * (EV_WRITE, with the timeout just set), or held for the COMMIT. */
}

/* Output was queued: written at the end of the pass, unless libevent is
 * writing already. */
static void
conn_enlist(struct conn *c)
{
	struct server	*srv = c->srv;

	if (c->wpend || (bufferevent_get_enabled(c->bev) & EV_WRITE))
		return;
	c->wpend = 1;
	TAILQ_INSERT_TAIL(&srv->wpend, c, wentry);
	srv->nwpend++;
	pass_wake(srv);
}

/* Writes to the socket what the kernel takes now: 0, or -1 when a write
 * error ended the connection (as it would in conn_event_cb). */
static int
conn_write_now(struct conn *c, struct evbuffer *out)
{
	int	 n, err;

	/* A bufferevent keeps its output's start frozen: only its own
	 * writes may drain it. */
	evbuffer_unfreeze(out, 1);
	n = evbuffer_write(out, bufferevent_getfd(c->bev));
	err = errno;
	evbuffer_freeze(out, 1);
	if (n == -1 && err != EAGAIN && err != EWOULDBLOCK && err != EINTR) {
		log_debug("%s: %s", c->addr, strerror(err));
		conn_free(c);
		return -1;
	}
	return 0;
}

/*
 * Writes what the kernel takes now (plain), or has the bufferevent write
 * it (TLS).  The rest is left to libevent (EV_WRITE).
 */
static void
conn_flush(struct conn *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	if (c->state == CONN_DEAD)
		return;
	if (evbuffer_get_length(out) > 0) {
		if (c->transport == CONN_PLAIN && conn_write_now(c, out) == -1)
			return;
		if (evbuffer_get_length(out) > 0)
			bufferevent_enable(c->bev, EV_WRITE);
		if (evbuffer_get_length(out) > OUT_LOW)
			return;
	}
	conn_output_low(c);
}

/*
 * Each connection that was pending when the flush began is written once:
 * one that gets more output meanwhile (a GAME.WATCH backlog, a resumed reader)
 * waits for the next pass, like the other clients.
 */
size_t
conn_flush_all(struct server *srv)
{
	struct conn	*c;
	size_t		 n = srv->nwpend;

	while (n-- > 0 && (c = TAILQ_FIRST(&srv->wpend)) != NULL) {
		conn_delist(c);
		conn_flush(c);
	}
	return srv->nwpend;
}

/* Pending output (held replies included) over client-output-limit
 * drops the connection: 1 when it did. */
static int
conn_over_limit(struct conn *c)
{
	int64_t	 limit = c->srv->cfg->output_limit;

	if (limit <= 0 || conn_pending(c) <= (size_t)limit)
		return 0;
	conn_kill(c, "output buffer over client-output-limit");
	return 1;
}

void
conn_write(struct conn *c, const char *data, size_t len)
{
	if (c->state == CONN_DEAD)
		return;
	evbuffer_add(bufferevent_get_output(c->bev), data, len);
	c->srv->bytes_out += len;
	if (!conn_over_limit(c))
		conn_enlist(c);
}

void
conn_hold(struct conn *c, const struct reply *r, int store)
{
	if (c->state == CONN_DEAD)
		return;
	held_add(c->srv->held, c, r, c->proto, store);
	(void)conn_over_limit(c);
}

void
conn_reply(struct conn *c, const struct reply *r)
{
	struct resp_buf	*b = &c->srv->enc;

	if (c->state == CONN_DEAD || multi_capture(c, r))
		return;
	if (held_behind(c->srv->held, c)) {
		/* Behind what is held: replies keep their order. */
		conn_hold(c, r, 0);
		return;
	}
	b->len = 0;
	resp_encode(b, r, c->proto);
	conn_write(c, b->data, b->len);
	if (b->cap > ENC_KEEP)
		resp_buf_free(b);
}

void
conn_verror(struct conn *c, const char *code, const char *fmt, va_list ap)
{
	struct reply	 r = { 0 };
	char		*msg;

	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	reply_error(&r, code, "%s", msg != NULL ? msg : "out of memory");
	free(msg);
	conn_reply(c, &r);
	reply_free(&r);
}

void
conn_error(struct conn *c, const char *code, const char *fmt, ...)
{
	va_list		 ap;

	va_start(ap, fmt);
	conn_verror(c, code, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ requests */

/* The next request of the input (resp_input.c). */
static enum resp_status
conn_parse(struct conn *c, struct resp_request *req, const char **err)
{
	return resp_parse_evbuffer(&c->parser, bufferevent_get_input(c->bev),
	    req, err, &c->srv->bytes_in);
}

static void
conn_protocol_error(struct conn *c, const char *err)
{
	c->srv->proto_errors++;
	log_info("%s: protocol error: %s", c->addr, err);
	if (strncmp(err, "LIMIT ", 6) == 0)
		conn_error(c, "LIMIT", "%s", err + 6);
	else
		conn_error(c, "ERR", "Protocol error: %s", err);
	conn_close_after_flush(c);
}

/* Something that is not a RESP client: closed, nothing of what it sent
 * is run, and logged unless too many were of late (quota.c: a page that
 * opens connections in a loop must not fill the disk with lines). */
static void
conn_foreign(struct conn *c, enum sniff what)
{
	uint64_t	 left;
	char		 more[64] = "";

	c->srv->foreign_closed++;
	conn_kill(c, NULL);
	if (!quota_log(c->srv, what == SNIFF_TLS ? QUOTA_LOG_TLS :
	    QUOTA_LOG_HTTP, &left))
		return;
	if (left > 0)
		snprintf(more, sizeof more, " (and %llu more not logged)",
		    (unsigned long long)left);
	if (what == SNIFF_TLS)
		log_warning("%s: TLS on a plain port? A TLS handshake on the "
		    "RESP port: closed%s", c->addr, more);
	else
		log_warning("%s: possible cross-protocol attack: %s on the "
		    "RESP port (a web page?): closed%s", c->addr,
		    sniff_name(what), more);
}

/* The input before the first request: 1 if it is foreign (closed). */
static int
conn_sniff_input(struct conn *c)
{
	struct evbuffer	*in = bufferevent_get_input(c->bev);
	unsigned char	 b;

	if (c->parser.in_multibulk || evbuffer_copyout(in, &b, 1) != 1 ||
	    sniff_bytes(&b, 1) == SNIFF_RESP)
		return 0;
	conn_foreign(c, SNIFF_TLS);
	return 1;
}

/* A request read: 1 if it is foreign (the connection is closed). */
static int
conn_sniff(struct conn *c, const struct resp_request *req)
{
	enum sniff	 what = sniff_request(req, !c->served);

	c->served = 1;
	if (what == SNIFF_RESP)
		return 0;
	conn_foreign(c, what);
	return 1;
}

static void
conn_pause(struct conn *c)
{
	c->paused = 1;
	bufferevent_disable(c->bev, EV_READ);
}

/*
 * Serves the requests waiting in the input, at most CONN_BATCH of them:
 * the rest wait for the next turn of the loop (c->resume), after the
 * other clients have had theirs.
 */
/* What a request's arguments take (CLIENT INFO's argv-mem). */
static size_t
req_mem(const struct resp_request *req)
{
	size_t	 n = 0;
	int	 i;

	for (i = 0; i < req->argc; i++)
		n += req->argl[i] + 1 + sizeof(char *) + sizeof(size_t);
	return n;
}

static void
conn_process(struct conn *c)
{
	struct resp_request	 req;
	struct cmd_args		 args;
	const char		*err;
	enum resp_status	 st;
	int			 n;

	if (!c->served && conn_sniff_input(c))
		return;
	/* A blocked XREAD or MATCH.WAIT, a long XRANGE being written: the
	 * next requests wait for them. */
	for (n = 0; c->state == CONN_OPEN && !conn_blocked(c); n++) {
		if (conn_pending(c) >= OUT_PAUSE) {
			conn_pause(c);
			return;
		}
		if (n == CONN_BATCH) {
			event_active(c->resume, EV_TIMEOUT, 1);
			return;
		}
		st = conn_parse(c, &req, &err);
		if (st == RESP_INCOMPLETE)
			break;
		if (st == RESP_ERROR) {
			conn_protocol_error(c, err);
			return;
		}
		if (req.argc == 0) {
			resp_request_free(&req);
			continue;
		}
		if ((req.is_inline || !c->served) && conn_sniff(c, &req)) {
			resp_request_free(&req);
			return;
		}
		memset(&args, 0, sizeof args);
		args.argc = req.argc;
		args.argv = req.argv;
		args.argl = req.argl;
		args.session = c->session;
		c->srv->commands++;
		c->argv_mem = req_mem(&req);
		conn_dispatch(c, &args);
		c->argv_mem = 0;
		resp_request_free(&req);
	}
	/* The peer has said all it will say: answer, then close.  A
	 * MATCH.WAIT would never be read: it is answered so (lobby.c). */
	if (c->eof && lobby_busy(c))
		lobby_closing(c);
	if (c->eof && !conn_blocked(c))
		conn_close_after_flush(c);
}

/* ----------------------------------------------------------- callbacks */

static void
conn_read_cb(struct bufferevent *bev, void *arg)
{
	struct conn	*c = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	size_t		 n;

	if (c->state != CONN_OPEN) {
		n = evbuffer_get_length(in);
		c->srv->bytes_in += n;
		evbuffer_drain(in, n);
		return;
	}
	/* A blocked client's requests wait, but not without bound: it is
	 * read again once it is answered. */
	if (conn_blocked(c) && evbuffer_get_length(in) > OUT_PAUSE) {
		bufferevent_disable(bev, EV_READ);
		return;
	}
	conn_process(c);
}

/* libevent wrote (EV_WRITE is on) and the output is down to OUT_LOW. */
static void
conn_write_cb(struct bufferevent *bev, void *arg)
{
	struct conn	*c = arg;

	/* Back to writing at the end of the pass. */
	if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bufferevent_disable(bev, EV_WRITE);
	conn_output_low(c);
}

/*
 * The output is down to OUT_LOW (written by the flush or by libevent):
 * a closing connection that has sent everything sends its FIN, a GAME.WATCH
 * backlog sends more, a paused reader reads again.
 */
static void
conn_output_low(struct conn *c)
{
	if (c->state == CONN_CLOSING) {
		if (conn_pending(c) == 0)
			conn_linger(c);
		return;
	}
	if (c->state != CONN_OPEN)
		return;
	/* A long run of callbacks that are not requests must not stretch
	 * the pass past its time cap either. */
	pass_after(c->srv, NULL);
	if (c->nwatch > 0 || conn_blocked(c))
		pass_pump(c);
	if (c->paused && conn_pending(c) <= OUT_LOW) {
		c->paused = 0;
		if (!c->eof)
			bufferevent_enable(c->bev, EV_READ);
		conn_process(c);
	}
}

/*
 * An event of a TLS connection before its handshake is done: 1 if it
 * was handled here.  A handshake that fails, or takes too long, closes
 * the connection (cleanly: what the client sent is read first).
 */
static int
conn_tls_event(struct conn *c, short what)
{
	if (what & BEV_EVENT_CONNECTED) {
		c->tls_up = 1;
		conn_set_timeout(c);
		tls_connected(c->bev, c->addr);
		return 1;
	}
	if (what & BEV_EVENT_ERROR) {
		tls_failed(c->bev, c->addr, 1);
		conn_free(c);
		return 1;
	}
	if (what & BEV_EVENT_TIMEOUT) {
		log_info("%s: TLS handshake not done in %ds: closed", c->addr,
		    HANDSHAKE_TIMEOUT);
		conn_free(c);
		return 1;
	}
	return 0;
}

static void
conn_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct conn	*c = arg;

	if (c->transport == CONN_TLS && !c->tls_up && conn_tls_event(c, what))
		return;
	if (what & BEV_EVENT_ERROR) {
		if (c->transport == CONN_TLS)
			tls_failed(bev, c->addr, 0);
		else
			log_debug("%s: %s", c->addr,
			    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
		conn_free(c);
		return;
	}
	if (what & BEV_EVENT_EOF) {
		c->eof = 1;
		if (c->state == CONN_OPEN && !c->paused)
			conn_process(c);
		else if (c->state == CONN_CLOSING && conn_pending(c) == 0)
			conn_free(c);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT) {
		if (c->lingering) {
			conn_free(c);
			return;
		}
		if ((what & BEV_EVENT_WRITING) || c->state != CONN_OPEN) {
			log_info("%s: not reading its replies: closed",
			    c->addr);
			conn_free(c);
			return;
		}
		/* Watching is waiting, not idling. */
		if (conn_subscribed(c) || conn_blocked(c) ||
		    conn_pending(c) > 0) {
			bufferevent_enable(bev, EV_READ);
			return;
		}
		log_info("%s: idle for %llds: closed", c->addr,
		    (long long)c->srv->cfg->timeout);
		conn_free(c);
	}
}

static void
conn_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;

	(void)fd;
	(void)what;
	if (c->state == CONN_DEAD)
		conn_free(c);
	else if (c->state == CONN_OPEN && !c->paused)
		conn_process(c);
}
