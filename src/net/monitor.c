/*
 * MONITOR, as Redis has it: the connection that sends it gets, as a
 * simple string, every request other connections send that is run or
 * queued, with its time, its client and its words:
 *
 *	+1700000000.123456 [0 127.0.0.1:51234] "LUDO.PLAY" "g" "red" "6" "1"
 *
 * A secret is never shown: the words of a command declared CMD_SECRET
 * (AUTH's password, HELLO's AUTH, SEAT's and SEAT.EXCHANGE's key) are
 * "(redacted)" after its name, as Redis writes AUTH's.  Requests refused
 * for their form or before AUTH are not shown (they are not run), nor
 * the monitor's own.
 * While nobody monitors, a request costs one test.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/conn.h"
#include "util/util.h"

#define MONITOR_ARG_MAX	256	/* bytes of one word shown; then "..." */

/* The line being made, NUL-ended. */
struct line {
	char	*s;
	size_t	 len, cap;
};

static void
add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2;
		l->s = xrealloc(l->s, l->cap);
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = '\0';
}

/* A word as Redis quotes it (sdscatrepr): "..." with \\, \", \n, \r,
 * \t, \a, \b escaped and other bytes outside printable ASCII as \xHH. */
static void
quote(struct line *b, const char *s, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	char			 e[4];
	size_t			 i, n = len < MONITOR_ARG_MAX ? len :
				    MONITOR_ARG_MAX;
	unsigned char		 ch;

	add(b, "\"", 1);
	for (i = 0; i < n; i++) {
		ch = (unsigned char)s[i];
		e[0] = '\\';
		switch (ch) {
		case '\\': case '"':
			e[1] = (char)ch;
			add(b, e, 2);
			continue;
		case '\n': e[1] = 'n'; add(b, e, 2); continue;
		case '\r': e[1] = 'r'; add(b, e, 2); continue;
		case '\t': e[1] = 't'; add(b, e, 2); continue;
		case '\a': e[1] = 'a'; add(b, e, 2); continue;
		case '\b': e[1] = 'b'; add(b, e, 2); continue;
		}
		if (ch < 0x20 || ch > 0x7e) {
			e[1] = 'x';
			e[2] = hex[ch >> 4];
			e[3] = hex[ch & 0xf];
			add(b, e, 4);
		} else
			add(b, (const char *)&ch, 1);
	}
	if (n < len)
		add(b, "...", 3);
	add(b, "\"", 1);
}

void
monitor_feed(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a)
{
	struct server	*srv = c->srv;
	struct line	 b = { NULL, 0, 0 };
	struct reply	 r = { 0 };
	struct timespec	 ts;
	struct conn	*o;
	char		 head[128];
	int		 i, n;

	if (srv->nmonitors == 0)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	n = snprintf(head, sizeof(head), "%lld.%06ld [0 %s]",
	    (long long)ts.tv_sec, ts.tv_nsec / 1000, c->addr);
	add(&b, head, (size_t)n);
	for (i = 0; i < a->argc; i++) {
		add(&b, " ", 1);
		if (i > 0 && (d->flags & CMD_SECRET))
			add(&b, "\"(redacted)\"", 12);
		else
			quote(&b, a->argv[i], a->argl[i]);
	}
	reply_status(&r, b.s);
	TAILQ_FOREACH(o, &srv->conns, entry)
		if (o->monitor && o != c && o->state == CONN_OPEN)
			conn_reply(o, &r);
	reply_free(&r);
	free(b.s);
}

void
monitor_gone(struct conn *c)
{
	if (c->monitor) {
		c->monitor = 0;
		c->srv->nmonitors--;
	}
}

/* MONITOR: +OK, then the lines. */
static void
monitor_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	(void)p;
	reply_status(&r, "OK");
	conn_reply(c, &r);
	reply_free(&r);
	if (!c->monitor) {
		c->monitor = 1;
		c->srv->nmonitors++;
	}
}

const struct cmd_def conn_monitor_entry = { .name = "MONITOR",
    .spec = CMD_ARGS_NONE, .flags = CMD_READONLY | CMD_NO_MULTI,
    .conn = monitor_cmd };
