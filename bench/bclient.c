/*
 * The bench tools' blocking RESP client (see bclient.h).
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bclient.h"
#include "util/util.h"

#define READ_CHUNK	65536
#define WALK_LIMIT	10000	/* ids per GAMES page, the server's most */
#define WALK_LIMIT_S	"10000"
#define WALK_PAGES_MAX	100000	/* a walk this long is a paging bug */
#define WALK_ID_LEN	51

int
bclient_connect(struct bclient *c, const char *host, const char *port)
{
	struct addrinfo	 hints, *ai, *p;
	struct timeval	 tv = { BCLIENT_TIMEOUT, 0 };
	int		 rc, one = 1;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	snprintf(c->name, sizeof(c->name), "%s:%s", host, port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host, port, &hints, &ai)) != 0) {
		fprintf(stderr, "%s: %s\n", c->name, gai_strerror(rc));
		return -1;
	}
	for (p = ai; p != NULL && c->fd == -1; p = p->ai_next) {
		c->fd = socket(p->ai_family, p->ai_socktype, p->ai_protocol);
		if (c->fd == -1)
			continue;
		if (connect(c->fd, p->ai_addr, p->ai_addrlen) == -1) {
			close(c->fd);
			c->fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (c->fd == -1) {
		fprintf(stderr, "%s: connect: %s\n", c->name, strerror(errno));
		return -1;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return 0;
}

void
bclient_close(struct bclient *c)
{
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = c->used = 0;
}

int
bclient_send_raw(struct bclient *c, const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = write(c->fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "%s: write: %s\n", c->name,
			    strerror(errno));
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
bclient_send(struct bclient *c, int argc, const char *const *argv)
{
	char	*buf;
	size_t	 len = 32, off;
	int	 i, rc;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 32;
	buf = xmalloc(len);
	off = (size_t)snprintf(buf, len, "*%d\r\n", argc);
	for (i = 0; i < argc; i++)
		off += (size_t)snprintf(buf + off, len - off, "$%zu\r\n%s\r\n",
		    strlen(argv[i]), argv[i]);
	rc = bclient_send_raw(c, buf, off);
	free(buf);
	return rc;
}

/* Reads what the socket has into the buffer; 0, or -1 on EOF/error. */
static int
bclient_fill(struct bclient *c)
{
	ssize_t	n;

	if (c->cap - c->len < READ_CHUNK) {
		c->cap = c->len + READ_CHUNK * 2;
		c->buf = xrealloc(c->buf, c->cap);
	}
	do
		n = read(c->fd, c->buf + c->len, c->cap - c->len);
	while (n == -1 && errno == EINTR);
	if (n <= 0) {
		fprintf(stderr, "%s: %s\n", c->name, n == 0 ?
		    "connection closed" : errno == EAGAIN ?
		    "no reply (timeout)" : strerror(errno));
		return -1;
	}
	c->len += (size_t)n;
	return 0;
}

int
bclient_recv(struct bclient *c, struct reply *out, const char **raw,
    size_t *rawlen)
{
	size_t	used;

	if (c->used > 0) {
		memmove(c->buf, c->buf + c->used, c->len - c->used);
		c->len -= c->used;
		c->used = 0;
	}
	for (;;) {
		memset(out, 0, sizeof(*out));
		switch (resp_parse_reply(c->buf, c->len, &used, out)) {
		case RESP_OK:
			c->used = used;
			*raw = c->buf;
			*rawlen = used;
			return 0;
		case RESP_INCOMPLETE:
			reply_free(out);
			if (bclient_fill(c) == -1)
				return -1;
			continue;
		default:
			reply_free(out);
			fprintf(stderr, "%s: malformed reply\n", c->name);
			return -1;
		}
	}
}

int
bclient_call(struct bclient *c, int argc, const char *const *argv,
    struct reply *out)
{
	const char	*raw;
	size_t		 len;

	if (bclient_send(c, argc, argv) == -1)
		return -1;
	return bclient_recv(c, out, &raw, &len);
}

int64_t
bclient_info_field(struct bclient *c, const char *field)
{
	static const char *const argv[] = { "INFO" };
	struct reply	 r;
	const char	*p, *errstr;
	char		 num[32];
	size_t		 flen = strlen(field), n;
	int64_t		 v = -1;

	if (bclient_call(c, 1, argv, &r) == -1)
		return -1;
	for (p = r.type == REPLY_BULK ? r.str : NULL; p != NULL;
	    p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, field, flen) != 0 || p[flen] != ':')
			continue;
		p += flen + 1;
		n = strcspn(p, "\r\n");
		if (n < sizeof(num)) {
			memcpy(num, p, n);
			num[n] = '\0';
			if (parse_int64(num, 0, INT64_MAX, &v, &errstr) != 0)
				v = -1;
		}
		break;
	}
	reply_free(&r);
	return v;
}

/* Takes a page's ids in order after last; 0, or -1 if out of order. */
static int
walk_page(const struct reply *r, char *last)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		if (r->elem[i].str == NULL || r->elem[i].len >= WALK_ID_LEN ||
		    strcmp(r->elem[i].str, last) <= 0) {
			fprintf(stderr, "GAMES: ids out of order after '%s'\n",
			    last);
			return -1;
		}
		memcpy(last, r->elem[i].str, r->elem[i].len + 1);
	}
	return 0;
}

int
bclient_walk_games(struct bclient *c, uint64_t *ids, int *pages)
{
	char		 last[WALK_ID_LEN] = "";
	const char	*first[] = { "GAMES", "LIMIT", WALK_LIMIT_S };
	const char	*next[] = { "GAMES", "AFTER", last, "LIMIT",
			    WALK_LIMIT_S };
	struct reply	 r;
	int		 rc, done;

	*ids = 0;
	for (*pages = 0; *pages < WALK_PAGES_MAX; ) {
		if (bclient_call(c, *pages ? 5 : 3, *pages ? next : first,
		    &r) == -1)
			return -1;
		++*pages;
		if (r.type != REPLY_ARRAY) {
			fprintf(stderr, "GAMES: %s\n", r.str != NULL ? r.str :
			    "not an array");
			reply_free(&r);
			return -1;
		}
		rc = walk_page(&r, last);
		*ids += r.n;
		done = r.n < WALK_LIMIT;
		reply_free(&r);
		if (rc == -1 || done)
			return rc;
	}
	fprintf(stderr, "GAMES: more than %d pages\n", WALK_PAGES_MAX);
	return -1;
}
