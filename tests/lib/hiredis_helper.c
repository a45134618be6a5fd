/*
 * See hiredis_helper.h.
 */
#include <sys/types.h>
#include <sys/time.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>

#include "hiredis_helper.h"

#define MAX_WORDS	40

/* A context, with its err set if it did not connect (or NULL). */
static redisContext *
dial(int port)
{
	struct timeval	 tv = { HR_TIMEOUT_MS / 1000, 0 };
	redisContext	*c;

	c = redisConnectWithTimeout("127.0.0.1", port, tv);
	if (c != NULL && !c->err)
		redisSetTimeout(c, tv);
	return c;
}

redisContext *
hr_open(int port)
{
	redisContext	*c = dial(port);

	if (c != NULL && c->err) {
		redisFree(c);
		c = NULL;
	}
	return c;
}

redisContext *
hr_connect(int port)
{
	redisContext	*c = dial(port);

	assert_non_null(c);
	if (c->err)
		fail_msg("connect to port %d: %s", port, c->errstr);
	return c;
}

redisReply *
hr_vrun(redisContext *c, const char *first, va_list ap)
{
	const char	*argv[MAX_WORDS], *a;
	redisReply	*r;
	int		 argc = 0;

	for (a = first; a != NULL && argc < MAX_WORDS;
	    a = va_arg(ap, const char *))
		argv[argc++] = a;
	r = redisCommandArgv(c, argc, argv, NULL);
	if (r == NULL)
		fail_msg("%s: no reply: %s", first, c->errstr);
	return r;
}

redisReply *
hr_run(redisContext *c, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	return r;
}

redisReply *
hr_next(redisContext *c, const char *want)
{
	redisReply	*r = NULL;

	if (redisGetReply(c, (void **)&r) != REDIS_OK || r == NULL)
		fail_msg("expected '%s', got nothing: %s", want, c->errstr);
	return r;
}

/* Appends one element or single reply to buf at *n, space-separated. */
static void
put(char *buf, size_t len, size_t *n, const redisReply *e, int sep)
{
	const char	*pre = sep ? " " : "";
	int		 w;

	if (*n >= len - 1)
		return;
	if (e->type == REDIS_REPLY_INTEGER)
		w = snprintf(buf + *n, len - *n, "%s%lld", pre, e->integer);
	else if (e->type == REDIS_REPLY_NIL)
		w = snprintf(buf + *n, len - *n, "%s(nil)", pre);
	else
		w = snprintf(buf + *n, len - *n, "%s%s%s", pre,
		    e->type == REDIS_REPLY_ERROR ? "-" : "",
		    e->str != NULL ? e->str : "");
	*n += w > 0 ? (size_t)w : 0;
	if (*n >= len)
		*n = len - 1;
}

const char *
hr_joined(const redisReply *r)
{
	static char	 buf[8192];
	size_t		 i, n = 0;

	buf[0] = '\0';
	if (r->type != REDIS_REPLY_ARRAY) {
		put(buf, sizeof buf, &n, r, 0);
		return buf;
	}
	for (i = 0; i < r->elements; i++)
		put(buf, sizeof buf, &n, r->element[i], i > 0);
	return buf;
}

void
hr_check_joined(redisReply *r, const char *want, int flags,
    const char *what)
{
	const char	*got;
	int		 same;

	if ((flags & HR_ARRAY) && r->type != REDIS_REPLY_ARRAY)
		fail_msg("%s: expected an array, got type %d '%s'",
		    what != NULL ? what : "reply", r->type,
		    r->str != NULL ? r->str : "");
	got = hr_joined(r);
	same = (flags & HR_PREFIX) ? strncmp(got, want, strlen(want)) == 0 :
	    strcmp(got, want) == 0;
	if (!same)
		fail_msg("%s: expected '%s%s', got '%s'",
		    what != NULL ? what : "reply", want,
		    (flags & HR_PREFIX) ? "..." : "", got);
	freeReplyObject(r);
}
