/*
 * ludus export and ludus import: games to an archive (JSON Lines,
 * doc/archive.md) and back, on the store of --db or --store.
 *
 * export [--finished-before T] [--kind K] FILE writes the games (those
 * finished before T, of kind K), each with its whole history, into a new
 * file next to FILE, synced, then linked in as FILE: FILE never holds
 * half an archive, and one already there is not overwritten.  Each game
 * is read with its history (a move made meanwhile is left out, as ludus
 * copy leaves it out); a running ludusd may go on writing.
 *
 * import FILE reads the archive twice.  The first pass checks every line:
 * the header's format and version, each game replayed through the rules
 * (archive_read()), no id twice and none the store holds, the end line
 * and its counts (a cut archive has none); any refusal names its line and
 * nothing is written.  The second pass stores the games, IMPORT_BATCH per
 * transaction; a store failure in it deletes the games it stored before,
 * so that the store is left as it was.
 *
 * Both show their progress on a terminal (stderr) as ludus copy does,
 * and say what they did on stdout: games, moves, bytes and seconds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/archive.h"
#include "cmd/archive.h"
#include "store/store.h"
#include "util/idmap.h"
#include "util/util.h"

#define IMPORT_BATCH	100
#define LIST_PAGE	256
#define PROGRESS_EVERY	100

struct job {
	const char	*verb;		/* "export", "import" */
	struct store	*st;
	int		 tty;
	int64_t		 games, moves, bytes;
	struct timespec	 t0;
};

static int
job_err(const struct job *j, const char *what, const char *msg)
{
	fprintf(stderr, "ludus %s: %s: %s\n", j->verb, what, msg);
	return 1;
}

static void
job_start(struct job *j, const char *verb)
{
	memset(j, 0, sizeof(*j));
	j->verb = verb;
	j->tty = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
}

static double
job_secs(const struct job *j)
{
	struct timespec	 t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - j->t0.tv_sec) +
	    (double)(t.tv_nsec - j->t0.tv_nsec) / 1e9;
}

static void
progress(const struct job *j, const char *what, int last)
{
	if (j->tty && (last || j->games % PROGRESS_EVERY == 0))
		fprintf(stderr, "\r%s: %lld games, %lld moves%s", what,
		    (long long)j->games, (long long)j->moves,
		    last ? "\n" : "");
}

static void
summary(const struct job *j, const char *done)
{
	printf("%s %lld games, %lld moves, %lld bytes in %.1f s\n", done,
	    (long long)j->games, (long long)j->moves, (long long)j->bytes,
	    job_secs(j));
}

/* ------------------------------------------------------------ export */

struct export {
	struct job	 job;
	FILE		*out;
	enum game_kind	 kind;
	int64_t		 before;	/* finished before; 0: every game */
	struct archive_moves mv;
	char		 ids[LIST_PAGE][GAME_ID_MAX + 1];
	int		 n;
};

static int
collect(void *arg, const struct move *mv)
{
	archive_moves_add(arg, mv);
	return 0;
}

static int
page_add(void *arg, const char *id, enum game_kind kind)
{
	struct export	*e = arg;

	(void)kind;
	str_copy(e->ids[e->n++], sizeof(e->ids[0]), id);
	return 0;
}

static int
write_line(struct export *e, char *line)
{
	size_t	 n;
	int	 rc;

	if (line == NULL)
		return -1;
	n = strlen(line);
	rc = fwrite(line, 1, n, e->out) == n && putc('\n', e->out) != EOF ?
	    0 : -1;
	e->job.bytes += (int64_t)n + 1;
	free(line);
	return rc;
}

/* One game, read with its history; a game gone meanwhile is left out. */
static int
export_game(struct export *e, const char *id, struct game *g)
{
	int	 rc;

	if ((rc = store_load_game_stored(e->job.st, id, g)) == STORE_NOTFOUND)
		return 0;
	if (rc != STORE_OK)
		return job_err(&e->job, id, store_errmsg(e->job.st));
	if (e->before != 0 && (game_turn(g) >= 0 || g->updated >= e->before))
		return 0;
	e->mv.n = 0;
	if (store_history(e->job.st, id, 1, g->moves, collect, &e->mv) !=
	    STORE_OK)
		return job_err(&e->job, id, store_errmsg(e->job.st));
	if (e->mv.n < g->moves)
		return job_err(&e->job, id, "history shorter than the game");
	if (write_line(e, archive_game(g, e->mv.mv, g->moves)) != 0)
		return job_err(&e->job, id, "cannot write it");
	e->job.games++;
	e->job.moves += g->moves;
	progress(&e->job, "exporting", 0);
	return 0;
}

static int
export_games(struct export *e)
{
	struct game	*g = xmalloc(sizeof(*g));
	char		 after[GAME_ID_MAX + 1] = "";
	int		 i, rc = 0;

	for (;;) {
		e->n = 0;
		if (store_list_games(e->job.st, e->kind, after, LIST_PAGE,
		    page_add, e) != STORE_OK) {
			rc = job_err(&e->job, "list", store_errmsg(e->job.st));
			break;
		}
		for (i = 0; i < e->n && rc == 0; i++)
			rc = export_game(e, e->ids[i], g);
		if (rc != 0 || e->n < LIST_PAGE)
			break;
		str_copy(after, sizeof(after), e->ids[e->n - 1]);
	}
	free(g);
	progress(&e->job, "exporting", 1);
	return rc;
}

static int
export_usage(void)
{
	fprintf(stderr, "usage: ludus [--db FILE | --store URI] export "
	    "[--finished-before T] [--kind K] FILE\n"
	    "  T: unix seconds, or an age: 30d, 12h, 90m, 45s\n");
	return 2;
}

/* The archive is written next to path and linked in at the end. */
static int
export_to(struct export *e, const char *path)
{
	uint8_t	 key[STORE_SECRET_LEN];
	char	*tmp;
	int	 fd, rc, has;

	tmp = xmalloc(strlen(path) + 16);
	sprintf(tmp, "%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1 || (e->out = fdopen(fd, "w")) ==
	    NULL) {
		rc = job_err(&e->job, path, strerror(errno));
		if (fd != -1)
			close(fd);
		free(tmp);
		return rc;
	}
	if ((has = store_secret_read(e->job.st, key)) == STORE_ERR)
		rc = job_err(&e->job, "secret", store_errmsg(e->job.st));
	else if (write_line(e, archive_header(time(NULL), has == 0 ? key :
	    NULL)) != 0)
		rc = job_err(&e->job, path, "cannot write the header");
	else if ((rc = export_games(e)) == 0 && write_line(e,
	    archive_end(e->job.games, e->job.moves)) != 0)
		rc = job_err(&e->job, path, "cannot write the end");
	if (fflush(e->out) != 0 || fsync(fileno(e->out)) != 0) {
		if (rc == 0)
			rc = job_err(&e->job, path, strerror(errno));
	}
	fclose(e->out);
	if (rc == 0 && link(tmp, path) != 0)
		rc = job_err(&e->job, path, errno == EEXIST ?
		    "exists: not overwritten" : strerror(errno));
	unlink(tmp);
	free(tmp);
	return rc;
}

int
cli_export(const char *uri, int argc, char **argv)
{
	struct export	 e;
	const char	*path = NULL;
	char		 err[512];
	int		 i, rc;

	memset(&e, 0, sizeof(e));
	job_start(&e.job, "export");
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--finished-before") == 0 && i + 1 < argc) {
			if (archive_time(argv[++i], time(NULL), &e.before) !=
			    0 || e.before <= 0)
				return job_err(&e.job, "--finished-before",
				    "a time is unix seconds or an age such "
				    "as 30d, 12h, 90m, 45s");
		} else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
			if ((e.kind = game_kind_parse(argv[++i])) == KIND_NONE)
				return job_err(&e.job, "--kind",
				    "unknown kind");
		} else if (argv[i][0] == '-' || path != NULL)
			return export_usage();
		else
			path = argv[i];
	}
	if (path == NULL || uri == NULL)
		return export_usage();
	if (access(path, F_OK) == 0)
		return job_err(&e.job, path, "exists: not overwritten");
	if ((e.job.st = store_open(uri, DURABILITY_FULL, err, sizeof(err))) ==
	    NULL)
		return job_err(&e.job, uri, err);
	if ((rc = export_to(&e, path)) == 0)
		summary(&e.job, "exported");
	archive_moves_free(&e.mv);
	store_close(e.job.st);
	return rc;
}

/* ------------------------------------------------------------ import */

struct import {
	struct job	 job;
	const char	*path;
	FILE		*in;
	char		*line;
	size_t		 cap;
	int64_t		 lineno;
	struct archive_item *it;
	int		 secure;	/* a game needs the seat secret */
	struct idmap	*ids;		/* pass 1: the ids seen */
	char		(*done)[GAME_ID_MAX + 1];	/* pass 2: stored */
	int64_t		 ndone, capdone;
};

/* The next line, its newline cut: its length, or -1 at the end. */
static ssize_t
next_line(struct import *im)
{
	ssize_t	 n;

	if ((n = getline(&im->line, &im->cap, im->in)) == -1)
		return -1;
	im->lineno++;
	im->job.bytes += n;
	if (n > 0 && im->line[n - 1] == '\n')
		im->line[--n] = '\0';
	return n;
}

static int
line_err(struct import *im, const char *why)
{
	fprintf(stderr, "ludus import: %s: line %lld: %s; nothing imported\n",
	    im->path, (long long)im->lineno, why);
	return 1;
}

static int
store_has(struct import *im, const char *id, int *has)
{
	struct game	*g = xmalloc(sizeof(*g));
	int		 rc = store_load_game_stored(im->job.st, id, g);

	free(g);
	*has = rc == STORE_OK;
	return rc == STORE_OK || rc == STORE_NOTFOUND ? 0 : STORE_ERR;
}

/* Pass 1: every line checked, nothing written. */
static int
check_all(struct import *im, struct archive_item *head)
{
	struct archive_item	*it = im->it;
	enum archive_kind	 k;
	char			 why[512], *key;
	ssize_t			 n;
	int			 ended = 0, has;

	while ((n = next_line(im)) != -1) {
		if (ended)
			return line_err(im, "a line after the end line");
		k = archive_read(im->line, (size_t)n, im->lineno == 1,
		    im->lineno == 1 ? head : it, why, sizeof(why));
		if (k == ARCHIVE_BAD)
			return line_err(im, why);
		if (k == ARCHIVE_END) {
			if (it->games != im->job.games ||
			    it->moves != im->job.moves)
				return line_err(im, "the end line counts "
				    "other games or moves than the archive "
				    "holds");
			ended = 1;
			continue;
		}
		if (k != ARCHIVE_GAME)
			continue;
		if (idmap_get(im->ids, it->g.id) != NULL) {
			snprintf(why, sizeof(why), "game '%s' is in the "
			    "archive twice", it->g.id);
			return line_err(im, why);
		}
		if (store_has(im, it->g.id, &has) != 0)
			return job_err(&im->job, it->g.id,
			    store_errmsg(im->job.st));
		if (has) {
			snprintf(why, sizeof(why), "game '%s' exists in the "
			    "store", it->g.id);
			return line_err(im, why);
		}
		key = xstrdup(it->g.id);
		idmap_put(im->ids, key, key);
		im->secure |= it->g.opts.secure;
		im->job.games++;
		im->job.moves += it->g.moves;
		progress(&im->job, "checking", 0);
	}
	if (ferror(im->in))
		return job_err(&im->job, im->path, strerror(errno));
	if (im->lineno == 0)
		return line_err(im, "an empty file: no header");
	if (!ended)
		return line_err(im, "the archive is cut short: no end line "
		    "after its last game");
	progress(&im->job, "checking", 1);
	return 0;
}

/* The archive's seat secret, which its secure games' seats need. */
static int
import_secret(struct import *im, const struct archive_item *head)
{
	uint8_t	 out[STORE_SECRET_LEN];

	if (!im->secure)
		return 0;
	if (!head->has_secret)
		return line_err(im, "secure games but no seat_secret");
	if (store_secret(im->job.st, head->secret, out) != STORE_OK)
		return job_err(&im->job, "secret", store_errmsg(im->job.st));
	if (memcmp(out, head->secret, sizeof(out)) != 0) {
		fprintf(stderr, "ludus import: %s: the store has another seat "
		    "secret: the archive's seats would not open; nothing "
		    "imported\n", im->path);
		return 1;
	}
	return 0;
}

/* A failure of pass 2: what it stored is deleted again. */
static void
undo(struct import *im)
{
	struct game	*g = xmalloc(sizeof(*g));
	int64_t		 i;

	store_rollback(im->job.st);
	for (i = 0; i < im->ndone; i++)
		if (store_load_game_stored(im->job.st, im->done[i], g) ==
		    STORE_OK && store_delete_game(im->job.st, g) != STORE_OK)
			fprintf(stderr, "ludus import: %s: not deleted again: "
			    "%s\n", im->done[i], store_errmsg(im->job.st));
	free(g);
}

static void
stored(struct import *im, const char *id)
{
	if (im->ndone == im->capdone) {
		im->capdone = im->capdone == 0 ? 1024 : im->capdone * 2;
		im->done = xrealloc(im->done, (size_t)im->capdone *
		    sizeof(*im->done));
	}
	str_copy(im->done[im->ndone++], sizeof(im->done[0]), id);
}

/* Pass 2: the games stored, IMPORT_BATCH per transaction. */
static int
store_all(struct import *im)
{
	struct archive_item	*it = im->it;
	struct store		*st = im->job.st;
	char			 why[512];
	int64_t			 batch = 0;
	ssize_t			 n;
	int			 rc = 0;

	rewind(im->in);
	im->lineno = 0;
	im->job.games = im->job.moves = im->job.bytes = 0;
	while (rc == 0 && (n = next_line(im)) != -1) {
		if (im->lineno == 1 || archive_read(im->line, (size_t)n, 0, it,
		    why, sizeof(why)) != ARCHIVE_GAME)
			continue;
		if (batch == 0 && store_begin(st) != STORE_OK)
			rc = job_err(&im->job, "begin", store_errmsg(st));
		else if (store_import_game(st, &it->g, it->mv.mv) != STORE_OK)
			rc = job_err(&im->job, it->g.id, store_errmsg(st));
		else if (++batch == IMPORT_BATCH && store_commit(st) !=
		    STORE_OK)
			rc = job_err(&im->job, "commit", store_errmsg(st));
		if (rc != 0)
			break;
		if (batch == IMPORT_BATCH)
			batch = 0;
		stored(im, it->g.id);
		im->job.games++;
		im->job.moves += it->g.moves;
		progress(&im->job, "importing", 0);
	}
	if (rc == 0 && batch > 0 && store_commit(st) != STORE_OK)
		rc = job_err(&im->job, "commit", store_errmsg(st));
	progress(&im->job, "importing", 1);
	if (rc != 0)
		undo(im);
	return rc;
}

int
cli_import(const char *uri, int argc, char **argv)
{
	struct import		 im;
	struct archive_item	*head;
	char			 err[512];
	size_t			 pos = 0;
	void			*v;
	int			 rc;

	memset(&im, 0, sizeof(im));
	job_start(&im.job, "import");
	if (argc != 1 || argv[0][0] == '-' || uri == NULL) {
		fprintf(stderr, "usage: ludus [--db FILE | --store URI] import "
		    "FILE\n");
		return 2;
	}
	im.path = argv[0];
	if ((im.in = fopen(im.path, "r")) == NULL)
		return job_err(&im.job, im.path, strerror(errno));
	if ((im.job.st = store_open(uri, DURABILITY_FULL, err,
	    sizeof(err))) == NULL) {
		fclose(im.in);
		return job_err(&im.job, uri, err);
	}
	im.it = xcalloc(1, sizeof(*im.it));
	head = xcalloc(1, sizeof(*head));
	im.ids = idmap_new();
	if ((rc = check_all(&im, head)) == 0 &&
	    (rc = import_secret(&im, head)) == 0 && (rc = store_all(&im)) == 0)
		summary(&im.job, "imported");
	while ((v = idmap_next(im.ids, &pos)) != NULL)
		free(v);
	idmap_free(im.ids);
	archive_moves_free(&im.it->mv);
	free(im.it);
	free(head);
	free(im.done);
	free(im.line);
	fclose(im.in);
	store_close(im.job.st);
	return rc;
}
