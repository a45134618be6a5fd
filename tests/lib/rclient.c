/*
 * See rclient.h.  Plain POSIX sockets and poll(2); nothing of cmocka, so
 * the crash driver can use it too.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/resp.h"
#include "util/util.h"
#include "rclient.h"

#define READ_CHUNK	(64 * 1024)
#define MAX_ARGS	64

int64_t
rc_now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t
rc_now_ms(void)
{
	return rc_now_us() / 1000;
}

void
rc_sleep_ms(int ms)
{
	struct timespec	 ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

int
rc_open(struct rconn *c, int port)
{
	return rc_open_rcvbuf(c, port, 0);
}

int
rc_open_rcvbuf(struct rconn *c, int port, int rcvbuf)
{
	struct sockaddr_in	 sin;
	int			 one = 1;

	memset(c, 0, sizeof *c);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd == -1)
		return -1;
	if (rcvbuf > 0)
		(void)setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		    sizeof rcvbuf);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(c->fd, (struct sockaddr *)&sin, sizeof sin) == -1) {
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	(void)setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return 0;
}

void
rc_close(struct rconn *c)
{
	if (c->fd != -1)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof *c);
	c->fd = -1;
}

void
rc_reset(struct rconn *c)
{
	struct linger	 lg = { 1, 0 };

	if (c->fd != -1)
		(void)setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	rc_close(c);
}

static void
grow(char **p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	if (*cap == 0)
		*cap = 256;
	while (*cap < need)
		*cap *= 2;
	*p = xrealloc(*p, *cap);
}

void
rc_encode(char **out, size_t *len, size_t *cap, int argc,
    const char *const *argv)
{
	char	 head[32];
	size_t	 n, al;
	int	 i;

	n = (size_t)snprintf(head, sizeof head, "*%d\r\n", argc);
	grow(out, cap, *len + n);
	memcpy(*out + *len, head, n);
	*len += n;
	for (i = 0; i < argc; i++) {
		al = strlen(argv[i]);
		n = (size_t)snprintf(head, sizeof head, "$%zu\r\n", al);
		grow(out, cap, *len + n + al + 2);
		memcpy(*out + *len, head, n);
		memcpy(*out + *len + n, argv[i], al);
		memcpy(*out + *len + n + al, "\r\n", 2);
		*len += n + al + 2;
	}
}

int
rc_write(struct rconn *c, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
vsend(struct rconn *c, const char *arg, va_list ap)
{
	const char	*argv[MAX_ARGS];
	char		*out = NULL;
	size_t		 len = 0, cap = 0;
	int		 argc = 0, rv;

	for (; arg != NULL && argc < MAX_ARGS; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	rc_encode(&out, &len, &cap, argc, argv);
	rv = rc_write(c, out, len);
	free(out);
	return rv;
}

int
rc_send(struct rconn *c, const char *arg, ...)
{
	va_list	 ap;
	int	 rv;

	va_start(ap, arg);
	rv = vsend(c, arg, ap);
	va_end(ap);
	return rv;
}

int
rc_fill(struct rconn *c, int timeout_ms)
{
	struct pollfd	 pfd = { c->fd, POLLIN, 0 };
	int64_t		 deadline = rc_now_ms() + timeout_ms;
	ssize_t		 n;
	int		 left, r;

	if (c->eof)
		return 0;
	for (;;) {
		left = (int)(deadline - rc_now_ms());
		if (left < 0)
			left = 0;
		r = poll(&pfd, 1, left);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		grow(&c->buf, &c->cap, c->len + READ_CHUNK);
		n = recv(c->fd, c->buf + c->len, READ_CHUNK, 0);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			/* A reset ends the stream as a FIN does. */
			c->eof = 1;
			c->err = n == -1 ? errno : 0;
			return 0;
		}
		c->len += (size_t)n;
		return 1;
	}
}

int
rc_parse_buffered(struct rconn *c, struct reply *r)
{
	size_t	 used = 0;

	if (c->len == 0)
		return 0;
	if (resp_parse_reply(c->buf, c->len, &used, r) != RESP_OK)
		return 0;
	memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	return 1;
}

int
rc_read(struct rconn *c, struct reply *r, int timeout_ms)
{
	int64_t		 deadline = rc_now_ms() + timeout_ms;
	size_t		 used;
	int		 left, f;

	for (;;) {
		if (c->len > 0) {
			used = 0;
			switch (resp_parse_reply(c->buf, c->len, &used, r)) {
			case RESP_OK:
				memmove(c->buf, c->buf + used, c->len - used);
				c->len -= used;
				return 1;
			case RESP_ERROR:
				return -1;
			default:
				break;
			}
		}
		left = (int)(deadline - rc_now_ms());
		if (left <= 0)
			return -1;
		if ((f = rc_fill(c, left)) <= 0)
			return f;
	}
}

int
rc_call(struct rconn *c, struct reply *r, int timeout_ms, const char *arg,
    ...)
{
	va_list	 ap;
	int	 rv;

	va_start(ap, arg);
	rv = vsend(c, arg, ap);
	va_end(ap);
	if (rv == -1)
		return -1;
	return rc_read(c, r, timeout_ms);
}

int
rc_is_status(const struct reply *r, const char *s)
{
	return r->type == REPLY_STATUS && strcmp(r->str, s) == 0;
}

int
rc_is_error(const struct reply *r, const char *code)
{
	size_t	 n = strlen(code);

	return r->type == REPLY_ERROR && strncmp(r->str, code, n) == 0 &&
	    (r->str[n] == ' ' || r->str[n] == '\0');
}

int
proc_fd_count(int pid)
{
	char		 path[64];
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	snprintf(path, sizeof path, "/proc/%d/fd", pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

long
proc_rss_kb(int pid)
{
	char	 path[64], line[256];
	FILE	*f;
	long	 kb = -1;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void
rc_vnote(const char *fmt, va_list ap)
{
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

void
rc_note(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	rc_vnote(fmt, ap);
	va_end(ap);
}
