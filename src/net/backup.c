/*
 * BACKUP path: an online backup of the daemon's SQLite file into a new
 * file, made by a thread of its own while the loop goes on serving, as
 * Redis's BGSAVE saves in the background.  The thread opens connections
 * of its own (store_sqlite_backup(): SQLite's backup API in one step, one
 * read transaction, which in WAL mode the loop's writes do not wait for),
 * so the copy is one moment of the database that holds every move
 * acknowledged before the command; it is written as PATH.tmp and linked
 * in as PATH once whole, so PATH is never half a backup and one already
 * there is not overwritten.  The reply comes at once ("Background backup
 * started"); INFO's backup_* lines say how it went, and the log.  One at
 * a time; a PostgreSQL store has pg_dump (doc/scaling.md).
 */
#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "net/conn.h"
#include "net/ludusd.h"
#include "net/log.h"
#include "store/sqlite.h"
#include "util/util.h"

#define POLL_MS		100

struct backup {
	pthread_t	 thread;
	struct event	*poll;
	char		*from, *to, *tmp;
	struct timespec	 t0;
	/* Under lock while the thread runs. */
	pthread_mutex_t	 lock;
	int		 running, done, rc;
	char		 err[512];
	/* INFO's. */
	uint64_t	 count;
	int		 last_ok;	/* -1 none yet */
	double		 last_secs;
	char		 last_path[512];
};

static struct backup	*the;

static void *
backup_main(void *arg)
{
	struct backup	*b = arg;
	char		 err[512];
	int		 rc;

	err[0] = '\0';
	rc = store_sqlite_backup(b->from, b->tmp, err, sizeof(err));
	if (rc == 0 && link(b->tmp, b->to) != 0) {
		snprintf(err, sizeof(err), "%s: %s", b->to, errno == EEXIST ?
		    "exists: not overwritten" : strerror(errno));
		rc = -1;
	}
	unlink(b->tmp);
	pthread_mutex_lock(&b->lock);
	b->rc = rc;
	snprintf(b->err, sizeof(b->err), "%s", err);
	b->done = 1;
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

static void
backup_poll(evutil_socket_t fd, short what, void *arg)
{
	struct backup	*b = arg;
	struct timeval	 tv = { 0, POLL_MS * 1000 };
	struct timespec	 t1;
	int		 done;

	(void)fd;
	(void)what;
	pthread_mutex_lock(&b->lock);
	done = b->done;
	pthread_mutex_unlock(&b->lock);
	if (!done) {
		evtimer_add(b->poll, &tv);
		return;
	}
	pthread_join(b->thread, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	b->running = 0;
	b->count++;
	b->last_ok = b->rc == 0;
	b->last_secs = (double)(t1.tv_sec - b->t0.tv_sec) +
	    (double)(t1.tv_nsec - b->t0.tv_nsec) / 1e9;
	snprintf(b->last_path, sizeof(b->last_path), "%s", b->to);
	if (b->rc == 0)
		log_notice("BACKUP: %s written in %.1f s", b->to, b->last_secs);
	else
		log_warning("BACKUP to %s failed: %s", b->to, b->err);
}

/* Why a backup to path cannot start now, or NULL. */
static const char *
refusal(struct server *srv, const char *path, char *buf, size_t len)
{
	struct stat	 st;
	char		*copy, *dir;

	if (store_uri_path(srv->cfg->store != NULL ? srv->cfg->store :
	    srv->cfg->db) == NULL)
		return "BACKUP needs a SQLite store: back PostgreSQL up with "
		    "pg_dump or a base backup (doc/scaling.md)";
	if (the != NULL && the->running)
		return "a backup is in progress";
	if (path[0] == '\0')
		return "BACKUP needs a file name";
	if (lstat(path, &st) == 0) {
		snprintf(buf, len, "%s exists: not overwritten", path);
		return buf;
	}
	copy = xstrdup(path);
	dir = dirname(copy);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "%s: no such directory", dir);
		free(copy);
		return buf;
	}
	free(copy);
	return NULL;
}

/* BACKUP path: the file the backup makes. */
static const struct cmd_arg backup_args[] = { CMD_ARG_STR("path") };

static void
backup_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct server	*srv = c->srv;
	struct backup	*b;
	struct timeval	 tv = { 0, POLL_MS * 1000 };
	const char	*why, *path = p->v[0].s;
	char		 buf[600];

	if (memchr(path, '\0', p->v[0].len) != NULL) {
		conn_error(c, "ERR", "a file name has no NUL");
		return;
	}
	if ((why = refusal(srv, path, buf, sizeof(buf))) != NULL) {
		conn_error(c, "ERR", "%s", why);
		return;
	}
	if (the == NULL) {
		the = xcalloc(1, sizeof(*the));
		the->last_ok = -1;
		pthread_mutex_init(&the->lock, NULL);
		the->poll = evtimer_new(srv->base, backup_poll, the);
	}
	b = the;
	free(b->from);
	free(b->to);
	free(b->tmp);
	b->from = xstrdup(store_uri_path(srv->cfg->store != NULL ?
	    srv->cfg->store : srv->cfg->db));
	b->to = xstrdup(path);
	xasprintf(&b->tmp, "%s.tmp", path);
	b->done = 0;
	clock_gettime(CLOCK_MONOTONIC, &b->t0);
	if (b->poll == NULL || pthread_create(&b->thread, NULL, backup_main,
	    b) != 0) {
		conn_error(c, "ERR", "cannot start the backup's thread");
		return;
	}
	b->running = 1;
	evtimer_add(b->poll, &tv);
	log_notice("BACKUP to %s started", path);
	conn_reply(c, &(struct reply){ .type = REPLY_STATUS,
	    .str = (char *)"Background backup started",
	    .len = sizeof("Background backup started") - 1 });
}

/* Not inside MULTI: it starts a thread, which EXEC could not undo. */
const struct cmd_def conn_backup_entry = { .name = "BACKUP",
    .spec = CMD_ARGS(backup_args, 0),
    .flags = CMD_READONLY | CMD_NO_MULTI, .conn = backup_cmd };

void
backup_stats(struct backup_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->last_ok = -1;
	if (the == NULL)
		return;
	out->running = the->running;
	out->count = the->count;
	out->last_ok = the->last_ok;
	out->last_secs = the->last_secs;
}

void
backup_free(void)
{
	if (the == NULL)
		return;
	if (the->running)
		pthread_join(the->thread, NULL);
	if (the->poll != NULL)
		event_free(the->poll);
	pthread_mutex_destroy(&the->lock);
	free(the->from);
	free(the->to);
	free(the->tmp);
	free(the);
	the = NULL;
}
