/*
 * hiredis for the black-box tests of ludusd (test_daemon, test_mp_daemon,
 * test_batch): connections with a timeout on every wait, commands given
 * as words, and replies as one line of text.  The functions that fail
 * the test (with cmocka's fail_msg) say so; the others may run in threads.
 */
#ifndef LUDUS_HIREDIS_HELPER_H
#define LUDUS_HIREDIS_HELPER_H

#include <stdarg.h>

#include <hiredis/hiredis.h>

#define HR_TIMEOUT_MS	20000	/* no reply this long: the test fails */

/* A connection to 127.0.0.1:port, HR_TIMEOUT_MS on every wait; NULL. */
redisContext	*hr_open(int port);
/* The same, failing the test if it does not connect. */
redisContext	*hr_connect(int port);
/*
 * Runs a command given as words, first and then those of ap up to a
 * NULL; fails the test if no reply comes, so never NULL.
 */
redisReply	*hr_vrun(redisContext *, const char *first, va_list);
redisReply	*hr_run(redisContext *, const char *first, ...)
		    __attribute__((sentinel));
#define RUN(c, ...)	hr_run(c, __VA_ARGS__, (const char *)NULL)
/* The next reply (of a pipeline, or a watch event); fails if none. */
redisReply	*hr_next(redisContext *, const char *want);
/*
 * A reply as one line, in a static buffer: an array's elements joined
 * with spaces ("move g 3 P1 a P1 2 0"), integers in decimal, a nil
 * element as "(nil)"; a single string as itself, an error as "-text".
 */
const char	*hr_joined(const redisReply *);
/*
 * Fails the test unless hr_joined(r) is want (HR_PREFIX: starts with
 * it), and, with HR_ARRAY, r is an array; what names the command in the
 * message (NULL: "reply").  Frees r.
 */
#define HR_PREFIX	0x1
#define HR_ARRAY	0x2
void		 hr_check_joined(redisReply *r, const char *want, int flags,
		    const char *what);

#endif /* LUDUS_HIREDIS_HELPER_H */
