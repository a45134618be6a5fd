/*
 * Retiring finished games, in the background: with finished-retention
 * set, a game finished longer ago than that is archived, then deleted;
 * and the pages deleted games leave are given back to the file system.
 *
 * A sweep is a run of ticks of a libevent timer, RETIRE_BUSY_MS apart,
 * each one small.  One tick takes the oldest RETIRE_BATCH games finished
 * before the retention (from their index, store_list_finished()); the
 * next ones read them, RETIRE_CHUNK a tick, each with its whole history,
 * and write each as a line of the sweep's archive (a new file in
 * finished-archive, doc/archive.md); then a thread of the job syncs the
 * archive, once for the batch, while the loop goes on serving; once it
 * has, the ticks delete them, RETIRE_SLICE a tick, through the write path
 * (cmd_delete_game()), in the pass's group commit like a client's
 * turn.  The loop serves every
 * client between two ticks, and a tick adds to its pass's COMMIT about
 * what RETIRE_SLICE turns do: small slices keep the pages a COMMIT
 * writes, and so the turns that share it, near what they are without a
 * purge.  A tick also stops once it has taken RETIRE_BUDGET_US (after
 * one game at least): what a tick holds the loop is bounded by time, not
 * only by games, whatever the games' histories and the disk.  When no
 * client has done anything since the last tick (no transaction open, no
 * command, no move), a tick takes RETIRE_IDLE_X times as much: an idle
 * server purges fast, a busy one gently.  The base pace (RETIRE_SLICE
 * deletes a tick) retires about RETIRE_BASE_RATE games a second on an
 * idle machine, fewer under load; a fixed pace would be a service's time
 * bomb, its store growing for ever once its games finish faster than
 * that.  So the job counts the games that finish (env->finished, at the
 * COMMITs of the moves that end them), a second at a time, and while
 * more games are due than a batch holds it keeps RETIRE_MARGIN times that
 * rate: as many multiples of the base pace as that takes (what one
 * retires is measured as it goes), up to RETIRE_BEHIND_X times as many
 * games a tick within RETIRE_BEHIND_T times the time budget (a third of
 * the loop's time at most).  A backlog (retention set on an old store, or
 * lowered) is not a service outrunning the job: with few games finishing
 * it drains at the base pace under load, whose cost to turns is within
 * noise, and with no client at RETIRE_BEHIND_X times the idle pace.
 * Turns wait a little longer only while the job keeps pace with a
 * service that finishes games faster than the base pace.  A game deleted
 * is always in an archive that is on disk.  When a tick finds no game
 * left, the sweep gives free pages back, a step (store_reclaim(), a short
 * write transaction) per tick, outside any pass's transaction; then the
 * job sleeps until a batch is due at the rate games finish, RETIRE_IDLE_MS
 * at most.  An archive outlives its sweep: it is NAME.part, synced after
 * each batch, until it has been open finished-archive-roll (an hour) or
 * holds RETIRE_ROLL_BYTES, or the daemon stops; then it gets its end line
 * and its final name, and the next game opens another.
 *
 * If a COMMIT fails, the games of that tick were archived but not
 * deleted: the archive is closed, and the next tick starts another, in
 * which they come again (an archive never holds a game twice; two
 * archives may).  A daemon that stops in the middle of a sweep leaves its
 * NAME.part: the next start finishes it (a line cut by the stop dropped,
 * the end line written with its counts), so that every archive imports.
 */
#include <sys/types.h>
#include <sys/file.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <jansson.h>

#include "cmd/archive.h"
#include "cmd/cmd_txn.h"
#include "net/ludusd.h"
#include "net/log.h"
#include "util/util.h"

#define RETIRE_BATCH	256		/* games archived (one sync) */
#define RETIRE_CHUNK	8		/* ... read and written a tick */
#define RETIRE_SLICE	4		/* ... then deleted a tick */
#define RETIRE_IDLE_X	8		/* both, times this, when no client
					   wrote since the last pass */
#define RETIRE_BASE_RATE 250		/* games a second at the base pace */
#define RETIRE_MARGIN	2		/* the pace kept: times the rate at
					   which games finish */
#define RETIRE_BEHIND_X	8		/* both, times this at most, to keep
					   that pace */
#define RETIRE_BEHIND_T	3		/* ... and the budget, times this */
#define RETIRE_RATE_US	1000000		/* games finishing counted over */
#define RETIRE_BUDGET_US 1000		/* a tick stops past this (one game
					   at least), times the above */
#define RETIRE_BUSY_MS	10		/* between two ticks of a sweep */
#define RETIRE_IDLE_MS	10000		/* between two sweeps */
#define RETIRE_ROLL_BYTES ((off_t)1 << 30) /* an archive closed past this
					   (or finished-archive-roll) */
#define PART		".part"

struct retire {
	struct server	*srv;
	struct event	*ev;
	/* The archive open (NULL: none), since opened_us. */
	FILE		*out;
	char		 path[1024];
	int64_t		 games, moves;
	uint64_t	 opened_us;
	/* The batch: ids[arch..n) still to archive, then (synced)
	 * ids[next..n) still to delete; pending: deleted in the pass's
	 * open transaction. */
	char		 ids[RETIRE_BATCH][GAME_ID_MAX + 1];
	int		 n, arch, next, synced;
	int		 full;		/* the batch is full: more due */
	int		 pace;		/* times the base pace, 1.. */
	/* The rate at which games finish, and what one multiple of the
	 * base pace retires, counted over RETIRE_RATE_US. */
	uint64_t	 fin_seen, done_seen, fin_us, fin_rate, per_pace;
	int		 idle_seen;	/* an idle tick this second: its
					   retired say nothing of a pace */
	int64_t		 before;
	int64_t		 pending;
	struct archive_moves mv;
	struct game	 g;
	struct retire_stats stats;
	/* The thread that syncs the archive: asked (want) and done under
	 * lock; rc its fdatasync()'s. */
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 wake;
	int		 started, stop, want, busy, fd, rc;
	/* What the clients had done at the last tick: idle if unchanged. */
	uint64_t	 seen_commands, seen_turns;
};

static uint64_t
mono_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void *
syncer_main(void *arg)
{
	struct retire	*r = arg;
	int		 fd, rc;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->want && !r->stop)
			pthread_cond_wait(&r->wake, &r->lock);
		if (r->stop)
			break;
		fd = r->fd;
		r->want = 0;
		pthread_mutex_unlock(&r->lock);
		rc = fdatasync(fd);
		pthread_mutex_lock(&r->lock);
		r->rc = rc == 0 ? 0 : errno;
		r->busy = 0;
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* The archive's lines written, its sync asked of the thread. */
static int
sync_ask(struct retire *r)
{
	if (fflush(r->out) != 0)
		return -1;
	pthread_mutex_lock(&r->lock);
	r->fd = fileno(r->out);
	r->want = r->busy = 1;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

/* 0: still syncing; 1: synced; -1: the sync failed (errno set). */
static int
sync_done(struct retire *r)
{
	int	 busy, rc;

	pthread_mutex_lock(&r->lock);
	busy = r->busy;
	rc = r->rc;
	pthread_mutex_unlock(&r->lock);
	if (busy)
		return 0;
	errno = rc;
	return rc == 0 ? 1 : -1;
}

static void
arm(struct retire *r, int64_t ms)
{
	struct timeval	 tv;

	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(r->ev, &tv);
}

/* ---------------------------------------------------------- archives */

static int
put_line(FILE *fp, char *line)
{
	int	 rc = -1;

	if (line != NULL && fputs(line, fp) != EOF && putc('\n', fp) != EOF)
		rc = 0;
	free(line);
	return rc;
}

static int
sync_file(FILE *fp)
{
	return fflush(fp) == 0 && fdatasync(fileno(fp)) == 0 ? 0 : -1;
}

/* The archive, opened at the first game after the last one closed. */
static int
archive_open(struct retire *r)
{
	const struct config	*cfg = r->srv->cfg;
	uint8_t			 key[STORE_SECRET_LEN];
	struct tm		 tm;
	time_t			 now = time(NULL);
	char			 stamp[32];
	int			 fd, has;

	if (r->out != NULL)
		return 0;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	/* The pid: two ludusd writing one directory do not take the same
	 * name in the same second. */
	snprintf(r->path, sizeof(r->path), "%s/ludus-archive-%s-%ld-%llu.jsonl"
	    PART, cfg->finished_archive, stamp, (long)getpid(),
	    (unsigned long long)r->stats.archives);
	/* Locked while open, so that another ludusd starting on the same
	 * directory does not take it for one a crash left. */
	if ((fd = open(r->path, O_WRONLY | O_CREAT | O_EXCL, 0600)) == -1 ||
	    flock(fd, LOCK_EX | LOCK_NB) != 0 ||
	    (r->out = fdopen(fd, "w")) == NULL) {
		log_warning("finished-retention: %s: %s", r->path,
		    strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(r->path);
		}
		return -1;
	}
	has = store_secret_read(r->srv->env.store, key);
	r->games = r->moves = 0;
	if (has == STORE_ERR || put_line(r->out, archive_header(now,
	    has == 0 ? key : NULL)) != 0) {
		log_warning("finished-retention: %s: cannot write its header",
		    r->path);
		fclose(r->out);
		r->out = NULL;
		unlink(r->path);
		return -1;
	}
	r->opened_us = mono_us();
	r->stats.archives++;
	return 0;
}

/* NAME.part -> NAME, once its end line is on disk. */
static int
finish_file(FILE *fp, const char *path, int64_t games, int64_t moves)
{
	char	 final[1024];
	size_t	 n = strlen(path) - strlen(PART);

	if (put_line(fp, archive_end(games, moves)) != 0 || sync_file(fp) != 0)
		return -1;
	memcpy(final, path, n);
	final[n] = '\0';
	return rename(path, final);
}

static void
archive_close(struct retire *r)
{
	if (r->out == NULL)
		return;
	if (finish_file(r->out, r->path, r->games, r->moves) != 0)
		log_warning("finished-retention: %s: %s", r->path,
		    strerror(errno));
	else
		log_notice("finished-retention: %lld games archived in %.*s",
		    (long long)r->games, (int)(strlen(r->path) - strlen(PART)),
		    r->path);
	fclose(r->out);
	r->out = NULL;
}

/*
 * Between two batches: the archive closed once it has been open
 * finished-archive-roll or holds RETIRE_ROLL_BYTES.  Not at each sweep's
 * end: a busy service's sweeps catch up about once a second, a quiet
 * one's find a game or two, and either would fill the directory with
 * files by the hundred thousand in a year.
 */
static void
archive_roll(struct retire *r)
{
	off_t	 size;

	if (r->out == NULL)
		return;
	size = ftello(r->out);
	if (size == -1 || size >= RETIRE_ROLL_BYTES || mono_us() -
	    r->opened_us >= (uint64_t)r->srv->cfg->finished_archive_roll *
	    1000000)
		archive_close(r);
}

/* A NAME.part a crash left: its whole lines kept and counted, the end
 * line added.  Each of its games was synced before it was deleted.  One
 * that is locked is open in a ludusd that runs: left to it. */
static void
finish_part(const char *path)
{
	FILE	*fp;
	char	*line = NULL;
	size_t	 cap = 0;
	off_t	 good = 0;
	ssize_t	 n;
	int64_t	 games = 0, moves = 0, lines = 0;
	json_t	*o;

	if ((fp = fopen(path, "r+")) == NULL)
		return;
	if (flock(fileno(fp), LOCK_EX | LOCK_NB) != 0) {
		log_notice("finished-retention: %s is open in another ludusd: "
		    "left to it", path);
		fclose(fp);
		return;
	}
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] != '\n' || (o = json_loadb(line, (size_t)n, 0,
		    NULL)) == NULL)
			break;
		if (lines++ > 0) {
			games++;
			moves += json_integer_value(json_object_get(o,
			    "moves"));
		}
		json_decref(o);
		good += n;
	}
	free(line);
	if (lines == 0 || ftruncate(fileno(fp), good) != 0 ||
	    fseeko(fp, good, SEEK_SET) != 0 ||
	    finish_file(fp, path, games, moves) != 0)
		log_warning("finished-retention: %s: cannot finish it", path);
	else
		log_notice("finished-retention: %s finished: %lld games", path,
		    (long long)games);
	fclose(fp);
}

static void
finish_parts(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	char		 path[1024];
	size_t		 n;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (strncmp(e->d_name, "ludus-archive-", 14) != 0 ||
		    n <= strlen(PART) ||
		    strcmp(e->d_name + n - strlen(PART), PART) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		finish_part(path);
	}
	closedir(d);
}

/* ------------------------------------------------------------- ticks */

static int
collect(void *arg, const struct move *mv)
{
	archive_moves_add(arg, mv);
	return 0;
}

static int
list_add(void *arg, const char *id, enum game_kind kind)
{
	struct retire	*r = arg;

	(void)kind;
	str_copy(r->ids[r->n++], sizeof(r->ids[0]), id);
	return 0;
}

/* What a tick may take: the budget, times x (idle), times the pace
 * (RETIRE_BEHIND_T at most). */
static uint64_t
budget_us(const struct retire *r, int x)
{
	return (uint64_t)RETIRE_BUDGET_US * (uint64_t)x *
	    (uint64_t)(r->pace < RETIRE_BEHIND_T ? r->pace : RETIRE_BEHIND_T);
}

/*
 * The pace of this tick: the base one, unless more games are due than a
 * batch holds and they finish faster than the job retires them at the
 * base pace, with RETIRE_MARGIN to spare; then enough multiples of the
 * base pace to retire RETIRE_MARGIN times that rate, RETIRE_BEHIND_X at
 * most; with a batch full and no client (idle), RETIRE_BEHIND_X.  What
 * one multiple retires is measured, a second at a time while the job is
 * busy and no tick is idle (RETIRE_BASE_RATE until then): the machine, the load and the
 * games' histories all change it.
 */
static void
pace_update(struct retire *r, int idle)
{
	uint64_t	 now = mono_us(), fin = r->srv->env.finished, want;
	uint64_t	 done = r->stats.retired, dt;

	if (r->fin_us == 0 || now - r->fin_us >= RETIRE_RATE_US) {
		dt = now - r->fin_us;
		if (r->fin_us != 0) {
			r->fin_rate = (fin - r->fin_seen) * 1000000 / dt;
			if (r->full && !r->idle_seen && done > r->done_seen)
				r->per_pace = (done - r->done_seen) * 1000000 /
				    dt / (uint64_t)r->pace;
		}
		if (r->per_pace < RETIRE_BASE_RATE / 8)
			r->per_pace = r->per_pace == 0 ? RETIRE_BASE_RATE :
			    RETIRE_BASE_RATE / 8;
		r->fin_seen = fin;
		r->done_seen = done;
		r->fin_us = now;
		r->idle_seen = 0;
	}
	r->idle_seen |= idle;
	want = (r->fin_rate * RETIRE_MARGIN + r->per_pace - 1) / r->per_pace;
	if (!r->full || want < 1)
		want = 1;
	if (r->full && idle)
		want = RETIRE_BEHIND_X;	/* nobody waits: as fast as it may */
	r->pace = want > RETIRE_BEHIND_X ? RETIRE_BEHIND_X : (int)want;
	r->stats.pace = r->pace;
	r->stats.finish_rate = r->fin_rate;
}

/* A chunk of the batch read and written to the archive, its sync asked
 * after the last: 0, or -1. */
static int
archive_chunk(struct retire *r, int x)
{
	struct store	*st = r->srv->env.store;
	int		 end = r->arch + RETIRE_CHUNK * x * r->pace, rc;
	uint64_t	 t0 = mono_us();

	if (r->srv->cfg->finished_archive[0] == '\0') {
		r->arch = r->n;
		r->synced = 1;
		return 0;
	}
	if (archive_open(r) != 0)
		return -1;
	for (; r->arch < r->n && r->arch < end; r->arch++) {
		if (mono_us() - t0 > budget_us(r, x))
			break;
		rc = store_load_game_stored(st, r->ids[r->arch], &r->g);
		r->mv.n = 0;
		if (rc == STORE_OK)
			rc = store_history(st, r->ids[r->arch], 1, r->g.moves,
			    collect, &r->mv);
		if (rc != STORE_OK || r->mv.n != r->g.moves ||
		    put_line(r->out, archive_game(&r->g, r->mv.mv,
		    r->g.moves)) != 0) {
			log_warning("finished-retention: %s: not archived: %s",
			    r->ids[r->arch], rc == STORE_ERR ?
			    store_errmsg(st) : "its rows changed, or the "
			    "archive");
			return -1;
		}
		r->games++;
		r->moves += r->g.moves;
	}
	if (r->arch == r->n && sync_ask(r) != 0) {
		log_warning("finished-retention: %s: %s", r->path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* A slice of the deletes, in the pass's transaction; counted at its
 * COMMIT. */
static void
delete_slice(struct retire *r, int x)
{
	struct server		*srv = r->srv;
	struct cmd_result	 res;
	struct reply		 out;
	int			 end = r->next + RETIRE_SLICE * x *
				    r->pace;
	uint64_t		 t0 = mono_us();

	for (; r->next < r->n && r->next < end; r->next++) {
		if (mono_us() - t0 > budget_us(r, x))
			break;
		memset(&out, 0, sizeof(out));
		if (cmd_delete_game(&srv->env, &out, r->ids[r->next], 0,
		    r->before) == 1)
			r->pending++;
		reply_free(&out);
	}
	cmd_txn_status(&srv->env, &res);
	pass_after(srv, &res);
}

/* No game left to retire: free pages given back, a step a tick. */
static int
reclaim(struct retire *r)
{
	struct server		*srv = r->srv;
	struct cmd_result	 res;
	int64_t			 left;


	cmd_txn_status(&srv->env, &res);
	if (res.writes > 0)
		return 1;	/* a pass's transaction is open: next tick */
	if (store_reclaim(srv->env.store, &left) != STORE_OK) {
		log_warning("reclaim: %s", store_errmsg(srv->env.store));
		return 0;
	}
	r->stats.free_pages = left;
	if (left > 0)
		r->stats.reclaimed += left < 256 ? left : 256;
	return left > 0;
}

/*
 * Between two sweeps: RETIRE_IDLE_MS, or the retention if shorter; and
 * while games finish, no longer than a batch of them takes to come due at
 * the rate they finish (RETIRE_BUSY_MS at least).  The games stored past
 * their retention grow by that pause times the rate: a fixed pause would
 * let a busy service's pile up by its length each time a sweep catches
 * up, where this one keeps them about a batch.
 */
static int64_t
idle_ms(const struct retire *r, int64_t keep)
{
	int64_t	 ms, batch;

	ms = keep > 0 && keep * 1000 < RETIRE_IDLE_MS ? keep * 1000 :
	    RETIRE_IDLE_MS;
	if (r->fin_rate > 0) {
		batch = (int64_t)((uint64_t)RETIRE_BATCH * 1000 / r->fin_rate);
		if (batch < ms)
			ms = batch < RETIRE_BUSY_MS ? RETIRE_BUSY_MS : batch;
	}
	return ms;
}

static void
tick(evutil_socket_t fd, short what, void *arg)
{
	struct retire	*r = arg;
	struct server	*srv = r->srv;
	int64_t		 keep = srv->cfg->finished_retention, before;
	struct cmd_result res;
	int		 x;

	(void)fd;
	(void)what;
	if (srv->stopping)
		return;
	/* Idle: no transaction open, and no command nor move since the
	 * last tick (a pass that has just committed is not idle). */
	cmd_txn_status(&srv->env, &res);
	x = res.writes == 0 && srv->commands == r->seen_commands &&
	    srv->env.turns == r->seen_turns ? RETIRE_IDLE_X : 1;
	r->seen_commands = srv->commands;
	r->seen_turns = srv->env.turns;
	pace_update(r, x > 1);
	if (r->synced && r->next < r->n) {
		delete_slice(r, x);
		arm(r, RETIRE_BUSY_MS);
		return;
	}
	if (r->arch < r->n) {
		if (archive_chunk(r, x) != 0)
			goto fail;
		arm(r, RETIRE_BUSY_MS);
		return;
	}
	if (r->n > 0 && !r->synced) {
		switch (sync_done(r)) {
		case 0:
			break;
		case 1:
			r->synced = 1;
			break;
		default:
			log_warning("finished-retention: %s: %s", r->path,
			    strerror(errno));
			goto fail;
		}
		arm(r, RETIRE_BUSY_MS);
		return;
	}
	archive_roll(r);
	r->n = r->arch = r->next = r->synced = 0;
	before = cmd_now_ms(&srv->env) / 1000 - keep;
	if (keep > 0 && store_list_finished(srv->env.store, before,
	    RETIRE_BATCH, list_add, r) != STORE_OK) {
		log_warning("finished-retention: %s",
		    store_errmsg(srv->env.store));
		arm(r, RETIRE_IDLE_MS);
		return;
	}
	if (r->n == 0) {
		arm(r, reclaim(r) ? RETIRE_BUSY_MS : idle_ms(r, keep));
		return;
	}
	r->before = before;
	r->full = r->n == RETIRE_BATCH;
	arm(r, RETIRE_BUSY_MS);
	return;
fail:
	/* Nothing of the batch deleted; the archive, whole up to its last
	 * line, is closed, and the next sweep starts another. */
	r->n = r->arch = r->next = r->synced = 0;
	archive_close(r);
	arm(r, RETIRE_IDLE_MS);
}

void
retire_pass_end(struct server *srv, int ok)
{
	struct retire	*r = srv->retire;

	if (r == NULL || r->pending == 0)
		return;
	if (ok)
		r->stats.retired += (uint64_t)r->pending;
	else {
		/* Those games stay, in an archive that is closed now: the
		 * next batch lists them again, for the next archive. */
		r->n = r->arch = r->next = r->synced = 0;
		archive_close(r);
	}
	r->pending = 0;
}

const struct retire_stats *
retire_stats(const struct server *srv)
{
	return &srv->retire->stats;
}

/* -------------------------------------------------------------- life */

int
retire_init(struct server *srv)
{
	struct retire	*r = xcalloc(1, sizeof(*r));

	r->srv = srv;
	if ((r->ev = evtimer_new(srv->base, tick, r)) == NULL) {
		free(r);
		return -1;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	if (pthread_create(&r->thread, NULL, syncer_main, r) != 0) {
		log_warning("finished-retention: cannot start its thread");
		event_free(r->ev);
		free(r);
		return -1;
	}
	r->started = 1;
	srv->retire = r;
	if (srv->cfg->finished_retention > 0 &&
	    srv->cfg->finished_archive[0] != '\0')
		finish_parts(srv->cfg->finished_archive);
	arm(r, RETIRE_BUSY_MS);
	return 0;
}

void
retire_free(struct server *srv)
{
	struct retire	*r = srv->retire;

	if (r == NULL)
		return;
	if (r->started) {
		pthread_mutex_lock(&r->lock);
		r->stop = 1;
		pthread_cond_signal(&r->wake);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
	}
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->wake);
	archive_close(r);
	event_free(r->ev);
	archive_moves_free(&r->mv);
	free(r);
	srv->retire = NULL;
}
