/*
 * See batch_helper.h.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>
#include <sqlite3.h>

#include "batch_helper.h"
#include "hiredis_helper.h"

/* The reply as one line: +status, -error, :int, $bulk, an array's
 * elements joined with spaces in brackets. */
void
flat(const redisReply *r, char *buf, size_t len)
{
	size_t	 i, n;

	switch (r->type) {
	case REDIS_REPLY_STATUS:
		snprintf(buf, len, "+%s", r->str);
		break;
	case REDIS_REPLY_ERROR:
		snprintf(buf, len, "-%s", r->str);
		break;
	case REDIS_REPLY_STRING:
		snprintf(buf, len, "$%s", r->str);
		break;
	case REDIS_REPLY_INTEGER:
		snprintf(buf, len, ":%lld", r->integer);
		break;
	case REDIS_REPLY_NIL:
		snprintf(buf, len, "(nil)");
		break;
	case REDIS_REPLY_ARRAY:
		n = (size_t)snprintf(buf, len, "[");
		for (i = 0; i < r->elements && n + 1 < len; i++) {
			if (i > 0)
				buf[n++] = ' ';
			flat(r->element[i], buf + n, len - n);
			n += strlen(buf + n);
		}
		if (n + 1 < len)
			snprintf(buf + n, len - n, "]");
		break;
	default:
		snprintf(buf, len, "?%d", r->type);
		break;
	}
}

/* Runs a command given as words and compares the flat reply. */
void
expect(redisContext *c, const char *want, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;
	char		 got[4096];

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	flat(r, got, sizeof got);
	freeReplyObject(r);
	if (strcmp(got, want) != 0)
		fail_msg("%s: expected '%s', got '%s'", first, want, got);
}

/* The next reply of a pipeline, flat; prefix: compare only that much. */
void
expect_next(redisContext *c, const char *want, int prefix)
{
	redisReply	*r = hr_next(c, want);
	char		 got[4096];

	flat(r, got, sizeof got);
	freeReplyObject(r);
	if (prefix ? strncmp(got, want, strlen(want)) != 0 :
	    strcmp(got, want) != 0)
		fail_msg("expected '%s', got '%s'", want, got);
}

/* Queues a command (words) without sending it. */
void
append(redisContext *c, const char *first, ...)
{
	const char	*argv[40], *a;
	va_list		 ap;
	int		 argc = 0;

	va_start(ap, first);
	for (a = first; a != NULL && argc < 40; a = va_arg(ap, const char *))
		argv[argc++] = a;
	va_end(ap);
	assert_int_equal(redisAppendCommandArgv(c, argc, argv, NULL),
	    REDIS_OK);
}

/* Sends what is queued, reading nothing. */
void
send_all(redisContext *c)
{
	int	 done = 0;

	while (!done)
		if (redisBufferWrite(c, &done) != REDIS_OK)
			fail_msg("write: %s", c->errstr);
}

/* One counter of INFO stats. */
unsigned long long
info_u64(redisContext *c, const char *key)
{
	redisReply		*r;
	char			 pat[64];
	const char		*p;
	unsigned long long	 v;

	r = redisCommand(c, "INFO stats");
	assert_non_null(r);
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	snprintf(pat, sizeof pat, "\n%s:", key);
	p = strstr(r->str, pat);
	if (p == NULL)
		fail_msg("INFO has no %s:\n%s", key, r->str);
	v = strtoull(p + strlen(pat), NULL, 10);
	freeReplyObject(r);
	return v;
}

void
counters(redisContext *c, struct counters *k)
{
	k->commits = info_u64(c, "commits");
	k->turns = info_u64(c, "turns_committed");
	k->batches = info_u64(c, "batches");
	k->failures = info_u64(c, "batch_failures");
	k->largest = info_u64(c, "largest_batch");
}

/* Every connection has been accepted and served once: the next requests
 * are plain reads of ready sockets. */
void
ping_all(redisContext **cs, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		EXPECT(cs[i], "+PONG", "PING");
}

/* Linux: 1 once the daemon is stopped (state T in /proc); elsewhere 1
 * after a moment. */
static int
is_stopped(pid_t pid)
{
	char	 path[64], buf[512], *p;
	FILE	*f;
	size_t	 n;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL) {
		usleep(50000);
		return 1;
	}
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": the state follows the last ')'. */
	if ((p = strrchr(buf, ')')) == NULL || p[1] == '\0')
		return 0;
	return p[2] == 'T' || p[2] == 't';
}

/*
 * Stops the daemon and waits until it is stopped: what is written then
 * waits in its sockets, and it finds all of it ready when it continues.
 * (Even a socket it saw ready before stopping would not end the pass
 * early: the batch commits only once a poll finds nothing more to read.)
 */
void
bh_pause(struct daemon *d)
{
	int	 i;

	assert_int_equal(kill(d->pid, SIGSTOP), 0);
	for (i = 0; i < 2000 && !is_stopped(d->pid); i++)
		usleep(1000);
	assert_true(is_stopped(d->pid));
}

void
bh_resume(struct daemon *d)
{
	assert_int_equal(kill(d->pid, SIGCONT), 0);
}

/* Runs SQL on the daemon's database while the daemon is stopped. */
void
bh_db_exec(struct daemon *d, const char *sql)
{
	sqlite3	*db;
	char	*err = NULL;

	assert_int_equal(daemon_stop(d, SIGTERM), 0);
	assert_int_equal(sqlite3_open(d->db, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s: %s", sql, err);
	sqlite3_close(db);
	assert_int_equal(daemon_start(d, d->flags), 0);
}

/* Whether the daemon's log has a line containing s. */
int
bh_log_has(const struct daemon *d, const char *s)
{
	FILE	*f;
	char	 line[1024];
	int	 found = 0;

	if ((f = fopen(d->log, "r")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = strstr(line, s) != NULL;
	fclose(f);
	return found;
}

void
bh_poison(struct daemon *d, const char *game)
{
	char	 sql[256];

	/* history names its game by the gid (sql/008_int_keys.sql). */
	snprintf(sql, sizeof sql, "CREATE TRIGGER poison BEFORE INSERT ON "
	    "history WHEN NEW.game = (SELECT gid FROM games WHERE id = '%s')"
	    " BEGIN SELECT RAISE(ABORT, 'poisoned row'); END", game);
	bh_db_exec(d, sql);
}

void
bh_bomb(struct daemon *d, const char *game)
{
	char	 sql[512];

	snprintf(sql, sizeof sql, "CREATE TABLE fuse (id INTEGER PRIMARY KEY);"
	    "CREATE TABLE spark (f INTEGER REFERENCES fuse (id)"
	    " DEFERRABLE INITIALLY DEFERRED);"
	    "CREATE TRIGGER bomb AFTER INSERT ON history"
	    " WHEN NEW.game = (SELECT gid FROM games WHERE id = '%s')"
	    " BEGIN INSERT INTO spark VALUES (1); END", game);
	bh_db_exec(d, sql);
}

void
expect_has(redisContext *c, const char *part, const char *first, ...)
{
	redisReply	*r;
	va_list		 ap;
	char		 got[8192];

	va_start(ap, first);
	r = hr_vrun(c, first, ap);
	va_end(ap);
	flat(r, got, sizeof(got));
	freeReplyObject(r);
	if (strstr(got, part) == NULL)
		fail_msg("%s: '%s' has no '%s'", first, got, part);
}
