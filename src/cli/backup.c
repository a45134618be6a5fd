/*
 * ludus backup DEST: an online backup of the SQLite store of --db (or
 * --store sqlite:...) into a new file DEST, while a ludusd may go on
 * playing on it.  SQLite's backup API copies every page in one step, one
 * read transaction of the source, which in WAL mode no writer waits for
 * and which sees every transaction committed when it began: the copy
 * holds every move acknowledged before the backup began, and is a state
 * that existed.  (Stepped in pieces, a backup starts over whenever
 * another connection writes between two steps: under a daemon's steady
 * turns it would never end.)  The copy is written next to DEST, opened
 * as a store and AUDITed, then linked in as DEST: DEST is never half a
 * backup, and one already there is not overwritten.
 *
 * PostgreSQL has its own tools (pg_dump, base backups: doc/scaling.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/archive.h"
#include "cmd/cmd.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"

static int
backup_err(const char *what, const char *msg)
{
	fprintf(stderr, "ludus backup: %s: %s\n", what, msg);
	return 1;
}

/* AUDIT of the copy through the command layer, as a client sees it:
 * 0, or 1 (said why). */
static int
audit(struct store *st)
{
	struct cmd_env	 env;
	struct reply	 r = { 0 };
	int		 rc = 0;

	memset(&env, 0, sizeof(env));
	env.store = st;
	cmd_executev(&env, &r, "AUDIT", NULL);
	if (r.type != REPLY_ARRAY)
		rc = backup_err("AUDIT", r.str != NULL ? r.str : "failed");
	else if (r.n > 0)
		rc = backup_err("AUDIT", "the copy differs from its history");
	reply_free(&r);
	return rc;
}

struct count {
	struct store	*st;
	struct game	 g;
	int64_t		 games, moves;
	char		 last[GAME_ID_MAX + 1];
};

static int
count_one(void *arg, const char *id, enum game_kind kind)
{
	struct count	*c = arg;

	(void)kind;
	if (store_load_game_stored(c->st, id, &c->g) != STORE_OK)
		return 1;
	c->games++;
	c->moves += c->g.moves;
	str_copy(c->last, sizeof(c->last), id);
	return 0;
}

/* The games and moves of the copy, a page of ids at a time. */
static int
count_all(struct store *st, struct count *c)
{
	int64_t	 before;

	memset(c, 0, sizeof(*c));
	c->st = st;
	do {
		before = c->games;
		if (store_list_games(st, KIND_NONE, c->last, 256, count_one,
		    c) != STORE_OK)
			return -1;
	} while (c->games - before == 256);
	return 0;
}

static void
files_remove(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char	 buf[4096];
	size_t	 i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, ext[i]);
		unlink(buf);
	}
}

static int
copy_checked(const char *from, const char *tmp, struct count *c,
    int64_t *bytes)
{
	struct store	*st;
	char		 err[512];
	int		 rc;

	if (store_sqlite_backup(from, tmp, err, sizeof(err)) != 0)
		return backup_err(from, err);
	if ((st = store_open(tmp, DURABILITY_FULL, err, sizeof(err))) == NULL)
		return backup_err(tmp, err);
	if (count_all(st, c) != 0)
		rc = backup_err(tmp, store_errmsg(st));
	else if ((rc = audit(st)) == 0)
		*bytes = store_size(st);
	store_close(st);
	return rc;
}

int
cli_backup(const char *uri, int argc, char **argv)
{
	struct timespec	 t0, t1;
	const char	*from, *dest;
	struct count	*c;
	char		*tmp;
	int64_t		 bytes = 0;
	int		 rc;

	if (argc != 1 || argv[0][0] == '-' || uri == NULL) {
		fprintf(stderr, "usage: ludus --db FILE backup DEST\n");
		return 2;
	}
	dest = argv[0];
	if ((from = store_uri_path(uri)) == NULL || strcmp(from,
	    ":memory:") == 0)
		return backup_err(uri, "not a SQLite file: a PostgreSQL store "
		    "is backed up with its own tools (doc/scaling.md)");
	if (access(from, F_OK) != 0)
		return backup_err(from, strerror(errno));
	if (access(dest, F_OK) == 0)
		return backup_err(dest, "exists: not overwritten");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "backing up %s: one read transaction...", from);
	tmp = xmalloc(strlen(dest) + 8);
	sprintf(tmp, "%s.tmp", dest);
	c = xcalloc(1, sizeof(*c));
	if (access(tmp, F_OK) == 0) {
		rc = backup_err(tmp, "exists: a backup under way?");
		free(tmp);
		free(c);
		return rc;
	}
	if ((rc = copy_checked(from, tmp, c, &bytes)) == 0 &&
	    link(tmp, dest) != 0)
		rc = backup_err(dest, errno == EEXIST ?
		    "exists: not overwritten" : strerror(errno));
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\n");
	files_remove(tmp);
	free(tmp);
	if (rc == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("backed up %lld games, %lld moves, %lld bytes in %.1f s;"
		    " AUDIT of the copy: no differences\n",
		    (long long)c->games, (long long)c->moves,
		    (long long)bytes, (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	free(c);
	return rc;
}
