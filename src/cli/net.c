/*
 * The network backend of the ludus CLI: one blocking TCP connection to a
 * ludusd, in clear or through TLS (--tls, cli/tls.c).  A command goes out as a RESP array of bulk strings (what every
 * Redis client sends, so arguments may hold anything) and the reply comes
 * back through the same parser the tests and fuzzers exercise.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backend.h"
#include "cli/frames.h"
#include "cli/tls.h"
#include "net/resp.h"
#include "util/util.h"

#define READ_CHUNK	16384

struct netbe {
	struct backend	 be;		/* first: what callers hold */
	int		 fd;		/* -1 once the connection is lost */
	struct cli_tls	*tls;		/* NULL: in clear */
	char		*in;		/* bytes read, not parsed yet */
	size_t		 inlen;
	size_t		 incap;
	struct frames	 frames;	/* replies owed, subscriptions */
};

static void
net_disconnect(struct netbe *nb)
{
	cli_tls_close(nb->tls);
	nb->tls = NULL;
	if (nb->fd != -1)
		close(nb->fd);
	nb->fd = -1;
}

/* Marks the connection lost and says why in out. */
static int
net_fail(struct netbe *nb, struct reply *out, const char *why)
{
	net_disconnect(nb);
	reply_free(out);
	reply_error(out, "ERR", "connection to ludusd lost: %s", why);
	return -1;
}

/* 0, or -1 with why set. */
static int
send_all(struct netbe *nb, const char *p, size_t len, char *why,
    size_t whylen)
{
	ssize_t	 n;

	if (nb->tls != NULL)
		return cli_tls_write(nb->tls, p, len, why, whylen);
	while (len > 0) {
		/* MSG_NOSIGNAL: a closed peer is an error here, not a kill. */
		n = send(nb->fd, p, len, MSG_NOSIGNAL);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			snprintf(why, whylen, "%s", strerror(errno));
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A frame whole in the input buffer: 1 with out set, 0 if none, -1. */
static int
parse_buffered(struct netbe *nb, struct reply *out)
{
	enum resp_status	 st;
	size_t			 used;

	if (nb->inlen == 0)
		return 0;
	st = resp_parse_reply(nb->in, nb->inlen, &used, out);
	if (st == RESP_ERROR)
		return net_fail(nb, out, "protocol error in the server's reply");
	if (st != RESP_OK)
		return 0;
	memmove(nb->in, nb->in + used, nb->inlen - used);
	nb->inlen -= used;
	return 1;
}

static void
make_room(struct netbe *nb)
{
	if (nb->incap - nb->inlen < READ_CHUNK) {
		nb->incap = nb->incap * 2 + READ_CHUNK;
		nb->in = xrealloc(nb->in, nb->incap);
	}
}

/*
 * What the server sent through TLS: whatever is there, waiting for some
 * unless nowait.  What OpenSSL has already decrypted is all taken, so
 * that a poll() of the socket never misses bytes waiting inside it.
 */
static int
fill_tls(struct netbe *nb, int nowait, struct reply *why)
{
	char	 err[256];
	ssize_t	 n;

	do {
		make_room(nb);
		n = cli_tls_read(nb->tls, nb->in + nb->inlen,
		    nb->incap - nb->inlen, nowait, err, sizeof err);
		if (n == -1)
			return net_fail(nb, why, err);
		nb->inlen += (size_t)n;
	} while (n > 0 && cli_tls_pending(nb->tls) > 0);
	return 0;
}

/* One recv into the input buffer (blocking unless flags say not). */
static int
fill(struct netbe *nb, int flags, struct reply *why)
{
	ssize_t	 n;

	if (nb->tls != NULL)
		return fill_tls(nb, (flags & MSG_DONTWAIT) != 0, why);
	make_room(nb);
	do
		n = recv(nb->fd, nb->in + nb->inlen, nb->incap - nb->inlen,
		    flags);
	while (n == -1 && errno == EINTR);
	if (n == 0)
		return net_fail(nb, why, "closed by the server");
	if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n == -1)
		return net_fail(nb, why, strerror(errno));
	nb->inlen += (size_t)n;
	return 0;
}

static void
dispatch_event(struct netbe *nb, struct reply *ev)
{
	if (nb->be.on_event != NULL)
		nb->be.on_event(nb->be.event_arg, ev);
	reply_free(ev);
}

/*
 * Reads frames until one belongs to the reply of the command in flight,
 * handing events to on_event on the way: 0 with out set, or -1.
 */
static int
read_reply_frame(struct netbe *nb, struct reply *out)
{
	int	 r;

	if (nb->fd == -1)
		return net_fail(nb, out, "not connected");
	for (;;) {
		if ((r = parse_buffered(nb, out)) == -1)
			return -1;
		if (r == 0) {
			if (fill(nb, 0, out) == -1)
				return -1;
			continue;
		}
		if (frames_classify(&nb->frames, out) == FRAME_REPLY)
			return 0;
		dispatch_event(nb, out);
	}
}

/* The request as a RESP array of bulk strings. */
static char *
encode_request(int argc, char **argv, size_t *argl, size_t *lenp)
{
	char	*buf, *p;
	size_t	 len = 32;
	int	 i;

	for (i = 0; i < argc; i++)
		len += argl[i] + 32;
	p = buf = xmalloc(len);
	p += snprintf(p, 32, "*%d\r\n", argc);
	for (i = 0; i < argc; i++) {
		p += snprintf(p, 32, "$%zu\r\n", argl[i]);
		memcpy(p, argv[i], argl[i]);
		p += argl[i];
		*p++ = '\r';
		*p++ = '\n';
	}
	*lenp = (size_t)(p - buf);
	return buf;
}

static int
net_more(struct backend *be, struct reply *out)
{
	struct netbe	*nb = (struct netbe *)be;

	if (!frames_owed(&nb->frames))
		return 0;
	return read_reply_frame(nb, out) == -1 ? -1 : 1;
}

static int
net_exec(struct backend *be, int argc, char **argv, size_t *argl,
    struct reply *out)
{
	struct netbe	*nb = (struct netbe *)be;
	char		*req, why[256];
	size_t		 len;
	int		 r;

	if (nb->fd == -1)
		return net_fail(nb, out, "not connected");
	/* What an earlier reply still owes is not this one's. */
	while ((r = net_more(be, out)) == 1)
		dispatch_event(nb, out);
	if (r == -1)
		return -1;
	req = encode_request(argc, argv, argl, &len);
	r = send_all(nb, req, len, why, sizeof why);
	free(req);
	if (r == -1)
		return net_fail(nb, out, why);
	frames_sent(&nb->frames, argc, argv);
	return read_reply_frame(nb, out);
}

static int
net_event_fd(struct backend *be)
{
	return ((struct netbe *)be)->fd;
}

/* Hands the frames whole in the buffer to on_event: how many, or -1. */
static int
dispatch_buffered(struct netbe *nb, struct reply *why)
{
	struct reply	 ev;
	int		 n = 0, r;

	for (;;) {
		memset(&ev, 0, sizeof ev);
		if ((r = parse_buffered(nb, &ev)) == -1) {
			*why = ev;
			return -1;
		}
		if (r == 0)
			return n;
		/* A frame now is an event, or a reply no one waits for. */
		(void)frames_classify(&nb->frames, &ev);
		dispatch_event(nb, &ev);
		n++;
	}
}

static int
net_pump(struct backend *be, int timeout_ms, struct reply *why)
{
	struct netbe	*nb = (struct netbe *)be;
	struct pollfd	 pfd;
	int		 r;

	if (nb->fd == -1)
		return net_fail(nb, why, "not connected");
	if ((r = dispatch_buffered(nb, why)) != 0)
		return r == -1 ? -1 : 0;
	pfd.fd = nb->fd;
	pfd.events = POLLIN;
	while ((r = poll(&pfd, 1, timeout_ms)) == -1 && errno == EINTR)
		;
	if (r == 1 && fill(nb, MSG_DONTWAIT, why) == -1)
		return -1;
	return dispatch_buffered(nb, why) == -1 ? -1 : 0;
}

static long long
net_subscriptions(struct backend *be)
{
	return ((struct netbe *)be)->frames.subs;
}

static void
net_close(struct backend *be)
{
	struct netbe	*nb = (struct netbe *)be;

	net_disconnect(nb);
	free(nb->in);
	free(nb);
}

/* Connects to the first address of host:port that answers; -1 if none. */
static int
dial(const char *host, int port, char *err, size_t errlen)
{
	struct addrinfo	 hints, *res, *ai;
	char		 portstr[16];
	int		 fd = -1, e, saved = 0, one = 1;

	snprintf(portstr, sizeof portstr, "%d", port);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, portstr, &hints, &res)) != 0) {
		snprintf(err, errlen, "could not resolve %s: %s", host,
		    gai_strerror(e));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd == -1) {
			saved = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		snprintf(err, errlen, "could not connect to %s:%d: %s", host,
		    port, strerror(saved));
		return -1;
	}
	/* Commands are small and answered one by one: do not batch them. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

struct backend *
backend_network(const char *host, int port, const struct cli_tls_opts *tls,
    char *err, size_t errlen)
{
	struct netbe	*nb;
	struct cli_tls	*t = NULL;
	char		 name[256];
	size_t		 n;
	int		 fd;

	if (port < 1 || port > 65535) {
		snprintf(err, errlen, "invalid port %d", port);
		return NULL;
	}
	/* Accept "[::1]" as well as "::1". */
	n = strlen(host);
	if (n >= 2 && host[0] == '[' && host[n - 1] == ']' &&
	    n - 2 < sizeof name) {
		memcpy(name, host + 1, n - 2);
		name[n - 2] = '\0';
		host = name;
	}
	if ((fd = dial(host, port, err, errlen)) == -1)
		return NULL;
	if (tls != NULL && tls->enabled &&
	    (t = cli_tls_connect(fd, host, tls, err, errlen)) == NULL) {
		close(fd);
		return NULL;
	}
	nb = xcalloc(1, sizeof *nb);
	nb->tls = t;
	nb->be.exec = net_exec;
	nb->be.more = net_more;
	nb->be.event_fd = net_event_fd;
	nb->be.pump = net_pump;
	nb->be.subscriptions = net_subscriptions;
	nb->be.close = net_close;
	nb->fd = fd;
	return &nb->be;
}
