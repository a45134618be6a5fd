/*
 * What the black-box tests of group commit share (test_batch, test_multi):
 * hiredis replies as one line, pipelines written without reading, INFO's
 * counters, and the daemon stopped (SIGSTOP) while requests are written,
 * so that its next pass finds all of them ready, without timing luck.
 * The checks fail the cmocka test.
 */
#ifndef LUDUS_BATCH_HELPER_H
#define LUDUS_BATCH_HELPER_H

#include <stddef.h>

#include <hiredis/hiredis.h>

#include "daemon_helper.h"

/* The reply as one line: +status, -error, :int, $bulk, (nil), an
 * array's elements joined with spaces in brackets. */
void	flat(const redisReply *, char *buf, size_t len);
/* Runs a command given as words and compares the flat reply. */
void	expect(redisContext *, const char *want, const char *first, ...)
	    __attribute__((sentinel));
#define EXPECT(c, want, ...) expect(c, want, __VA_ARGS__, (const char *)NULL)
/* The next reply of a pipeline, flat; prefix: compare only that much. */
void	expect_next(redisContext *, const char *want, int prefix);
/* Queues a command (words) without sending it. */
void	append(redisContext *, const char *first, ...)
	    __attribute__((sentinel));
#define APPEND(c, ...)	append(c, __VA_ARGS__, (const char *)NULL)
/* Sends what is queued, reading nothing. */
void	send_all(redisContext *);
/* One counter of INFO stats. */
unsigned long long info_u64(redisContext *, const char *key);

struct counters {
	unsigned long long	 commits, turns, batches, failures, largest;
};

void	counters(redisContext *, struct counters *);
/* Every connection has been accepted and served once: the next requests
 * are plain reads of ready sockets. */
void	ping_all(redisContext **, int n);
/* Stops the daemon (SIGSTOP) and waits until it is; continues it. */
void	bh_pause(struct daemon *);
void	bh_resume(struct daemon *);
/* Runs SQL on the daemon's database, the daemon stopped cleanly for it
 * and started again with the flags of its last start. */
void	bh_db_exec(struct daemon *, const char *sql);
/* A store that refuses the moves of one game: a trigger fails its history
 * rows ("poisoned row"): each move fails alone.  A bomb: a deferred
 * foreign key that only the COMMIT checks, broken by a move of the game:
 * the whole batch fails at its COMMIT.  Made as bh_db_exec() does. */
void	bh_poison(struct daemon *, const char *game);
void	bh_bomb(struct daemon *, const char *game);
/* Runs a command (words) whose flat reply must contain part. */
void	expect_has(redisContext *, const char *part, const char *first, ...)
	    __attribute__((sentinel));
#define EXPECT_HAS(c, part, ...) \
	expect_has(c, part, __VA_ARGS__, (const char *)NULL)
/* Whether the daemon's log has a line containing s. */
int	bh_log_has(const struct daemon *, const char *s);

#endif /* LUDUS_BATCH_HELPER_H */
