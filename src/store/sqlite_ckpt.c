/*
 * The SQLite backend's checkpointer: a thread with a connection of its
 * own that copies the WAL's pages back into the database, so that the
 * connection of the event loop never does (SQLite's automatic
 * checkpoint runs inside the COMMIT that crosses its threshold: there
 * it read every frame back, wrote the pages into the database and
 * waited for the database's fsync, milliseconds during which no client
 * was served).
 *
 * A checkpoint only copies: the WAL starts again from its beginning
 * when a writer begins a transaction and finds every frame copied.
 * Under a steady stream of writes the thread's copy never catches up
 * exactly (the loop commits while it copies), so the rule is, after
 * each commit (the WAL hook, on the loop's thread):
 *
 *  - CKPT_START_BYTES of frames not yet copied wake the thread, which
 *    copies what the WAL holds (a passive checkpoint: it takes no lock a
 *    writer needs).  The larger the WAL, the more often a page changed
 *    twice is copied once;
 *  - from CKPT_RESTART_BYTES on, every commit that finds the thread idle
 *    wakes it again, for the frames of the meantime, and once a round
 *    has left fewer than CKPT_TAIL_BYTES uncopied the loop copies that
 *    tail itself: a short copy and a small fsync instead of the whole
 *    WAL, after which its next transaction starts the WAL again;
 *  - a WAL that reaches CKPT_MAX_BYTES all the same (a thread that
 *    cannot keep up) is copied by the loop, as SQLite would.
 *
 * The thread's connection syncs as the loop's does (no sync with
 * durability off), and a checkpoint fsyncs the WAL before it copies and
 * the database before the WAL may start again, as SQLite's own: a
 * COMMIT's durability is the loop's fsync of the WAL, unchanged.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "util/util.h"

#define CKPT_START_BYTES	(16 << 20)
#define CKPT_RESTART_BYTES	(32 << 20)
#define CKPT_TAIL_BYTES		(1 << 20)
#define CKPT_MAX_BYTES		(128 << 20)

struct sqlite_ckpt {
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 wake;
	sqlite3		*db;		/* the thread's connection */
	int		 start, restart, tail, max;	/* in frames */
	/* Under lock. */
	int		 want;		/* a round asked for */
	int		 busy;		/* a round running */
	int		 stop;
	int		 done;		/* frames the last round left copied */
	int		 seen;		/* a round ran since the WAL started */
	/* The loop's counters (its thread only). */
	struct store_sqlite_ckpt_stats stats;
};

/* One round: a passive checkpoint, and what it left copied. */
static void *
ckpt_main(void *arg)
{
	struct sqlite_ckpt	*c = arg;
	int			 log, copied, rc;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		while (!c->want && !c->stop)
			pthread_cond_wait(&c->wake, &c->lock);
		if (c->stop)
			break;
		c->want = 0;
		c->busy = 1;
		pthread_mutex_unlock(&c->lock);
		log = copied = -1;
		rc = sqlite3_wal_checkpoint_v2(c->db, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
		pthread_mutex_lock(&c->lock);
		c->busy = 0;
		if (rc == SQLITE_OK && copied >= 0) {
			c->done = copied;
			c->seen = 1;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* The loop copies what is left: the WAL starts again at its next write
 * transaction.  SQLITE_BUSY (the thread, or another process, holds the
 * checkpoint lock) leaves it for the next commit. */
static void
ckpt_inline(struct sqlite_ckpt *c, sqlite3 *db)
{
	if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL) == SQLITE_OK)
		c->stats.tails++;
}

/*
 * After every commit of the loop's connection, with the frames the WAL
 * holds.  Whatever the loop copies itself ends what the thread's rounds
 * knew: the WAL starts again, and the next one needs rounds of its own.
 */
static int
ckpt_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct sqlite_ckpt	*c = arg;
	int			 tail = 0, wake = 0;

	(void)name;
	if (frames < c->start)
		return SQLITE_OK;
	pthread_mutex_lock(&c->lock);
	if (frames >= c->max) {
		c->seen = 0;
		pthread_mutex_unlock(&c->lock);
		ckpt_inline(c, db);
		c->stats.forced++;
		return SQLITE_OK;
	}
	if (!c->busy && !c->want) {
		if (c->seen && frames - c->done <= c->tail) {
			tail = 1;
			c->seen = 0;
		} else if (frames - (c->seen ? c->done : 0) >= c->start ||
		    frames >= c->restart)
			wake = c->want = 1;
	}
	pthread_mutex_unlock(&c->lock);
	if (wake) {
		pthread_cond_signal(&c->wake);
		c->stats.rounds++;
	}
	if (tail)
		ckpt_inline(c, db);
	else if (!wake)
		c->stats.waits++;
	return SQLITE_OK;
}

static int
ckpt_open(struct sqlite_ckpt *c, const char *path, enum durability d)
{
	static const char *const sync[] = {
		[DURABILITY_FULL] = "PRAGMA synchronous = NORMAL",
		[DURABILITY_NORMAL] = "PRAGMA synchronous = NORMAL",
		[DURABILITY_OFF] = "PRAGMA synchronous = OFF",
	};

	if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return -1;
	/* The schema read opens the WAL; no checkpoint of its own at
	 * close (the loop's connection closes last and does that). */
	if (sqlite3_exec(c->db, sync[d], NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_schema", NULL,
	    NULL, NULL) != SQLITE_OK ||
	    sqlite3_db_config(c->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
	    NULL) != SQLITE_OK)
		return -1;
	return 0;
}

static void
ckpt_free(struct sqlite_ckpt *c)
{
	sqlite3_close(c->db);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* A WAL frame: its page and a 24-byte header. */
static int
frame_bytes(struct sqlite_store *s)
{
	sqlite3_stmt	*st = s->stmt[ST_PAGE_SIZE];
	int		 page = 0;

	if (sqlite3_step(st) == SQLITE_ROW)
		page = sqlite3_column_int(st, 0);
	sql_stmt_done(st);
	return (page > 0 ? page : 4096) + 24;
}

int
sqlite_ckpt_start(struct sqlite_store *s, enum durability d)
{
	struct sqlite_ckpt	*c;
	const char		*path;
	int			 frame;

	path = sqlite3_db_filename(s->db, "main");
	if (path == NULL || *path == '\0')
		return 0;		/* in memory: no WAL */
	c = xcalloc(1, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->wake, NULL);
	frame = frame_bytes(s);
	c->start = CKPT_START_BYTES / frame;
	c->restart = CKPT_RESTART_BYTES / frame;
	c->tail = CKPT_TAIL_BYTES / frame;
	c->max = CKPT_MAX_BYTES / frame;
		if (ckpt_open(c, path, d) != 0 ||
	    pthread_create(&c->thread, NULL, ckpt_main, c) != 0) {
		ckpt_free(c);
		return store_set_err(&s->store, "open",
		    "cannot start the checkpointer");
	}
	s->ckpt = c;
	sqlite3_wal_hook(s->db, ckpt_hook, c);
	return 0;
}

void
sqlite_ckpt_stop(struct sqlite_store *s)
{
	struct sqlite_ckpt	*c = s->ckpt;

	if (c == NULL)
		return;
	sqlite3_wal_hook(s->db, NULL, NULL);
	pthread_mutex_lock(&c->lock);
	c->stop = 1;
	pthread_mutex_unlock(&c->lock);
	pthread_cond_signal(&c->wake);
	pthread_join(c->thread, NULL);
	ckpt_free(c);
	s->ckpt = NULL;
}

void
sqlite_ckpt_stats(struct sqlite_store *s, struct store_sqlite_ckpt_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (s->ckpt != NULL)
		*out = s->ckpt->stats;
}
