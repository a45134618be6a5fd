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
