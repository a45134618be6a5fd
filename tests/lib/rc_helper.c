/*
 * See rc_helper.h.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/reply.h"
#include "rc_helper.h"
#include "reply_flat.h"

void
rch_open(struct rconn *c, int port)
{
	if (rc_open(c, port) == -1)
		fail_msg("connect: %s", strerror(errno));
}

void
rch_fds_back(const struct daemon *d, int base)
{
	int64_t	 end = rc_now_ms() + FD_WAIT_MS;
	int	 n;

	while ((n = proc_fd_count(d->pid)) != base && rc_now_ms() < end)
		rc_sleep_ms(10);
	rc_note("daemon descriptors: %d before, %d after", base, n);
	assert_int_equal(n, base);
}

long long
rch_info_field(struct rconn *c, const char *name)
{
	struct reply	 r = { 0 };
	const char	*p;
	long long	 v = -1;
	size_t		 n = strlen(name);

	assert_int_equal(rc_call(c, &r, IO_MS, "INFO", NULL), 1);
	assert_int_equal(r.type, REPLY_BULK);
	for (p = r.str; p != NULL; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			v = strtoll(p + n + 1, NULL, 10);
			break;
		}
	}
	reply_free(&r);
	return v;
}

void
rch_long_game(struct rconn *c, const char *id, int moves)
{
	const char	*argv[] = { "DANDY.DRAW", id, "a" };
	struct reply	 r = { 0 };
	char		*buf = NULL;
	size_t		 len = 0, cap = 0;
	int		 i;

	assert_int_equal(rc_call(c, &r, IO_MS, "DANDY.CREATE", id, "2",
	    "abcdefghi", NULL), 1);
	if (!rc_is_status(&r, "OK"))
		fail_msg("DANDY.CREATE %s: expected OK, got type %d '%s'", id,
		    (int)r.type, r.str != NULL ? r.str : "");
	reply_free(&r);
	for (i = 0; i < moves; i++) {
		argv[2] = i % 2 ? "a" : "5";
		rc_encode(&buf, &len, &cap, 3, argv);
	}
	assert_int_equal(rc_write(c, buf, len), 0);
	free(buf);
	for (i = 0; i < moves; i++) {
		assert_int_equal(rc_read(c, &r, IO_MS), 1);
		assert_int_equal(r.type, REPLY_STATUS);
		reply_free(&r);
	}
}

/* ------------------------------------------------------ raw replies */

/* The next reply; 0 if the connection ended (FIN or reset) first. */
int
rch_reply(struct rconn *r, struct reply *out)
{
	int	 rv;

	memset(out, 0, sizeof *out);
	if ((rv = rc_read(r, out, IO_MS)) == -1)
		fail_msg("no reply from ludusd within %d ms, or a malformed "
		    "one", IO_MS);
	if (rv == 0 && r->err != 0 && r->err != ECONNRESET)
		fail_msg("recv: %s", strerror(r->err));
	return rv;
}

/* Reads the next reply and compares its flattened form (see reply_flat). */
void
rch_expect(struct rconn *r, const char *want)
{
	struct reply	 rep;
	char		 got[4096];

	if (!rch_reply(r, &rep))
		fail_msg("expected '%s', got end of connection", want);
	reply_flat(&rep, got, sizeof got);
	reply_free(&rep);
	if (strcmp(got, want) != 0)
		fail_msg("expected '%s', got '%s'", want, got);
}

/* Reads the next reply, which must be an error starting with prefix. */
void
rch_expect_err(struct rconn *r, const char *prefix)
{
	struct reply	 rep;

	if (!rch_reply(r, &rep))
		fail_msg("expected error '%s', got end of connection", prefix);
	if (rep.type != REPLY_ERROR ||
	    strncmp(rep.str, prefix, strlen(prefix)) != 0)
		fail_msg("expected error '%s...', got type %d '%s'", prefix,
		    rep.type, rep.str != NULL ? rep.str : "");
	reply_free(&rep);
}

/* The server closes: no more replies, then EOF. */
void
rch_expect_eof(struct rconn *r)
{
	struct reply	 rep;

	if (rch_reply(r, &rep)) {
		char got[512];

		reply_flat(&rep, got, sizeof got);
		fail_msg("expected a close, got '%s'", got);
	}
}
