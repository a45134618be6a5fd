/*
 * What a node does because other ludusd nodes share its store (an
 * optimistic store: PostgreSQL).  Nothing runs here on SQLite.
 *
 * The feed of other nodes' moves.  A move committed through this node
 * reaches its watchers at its COMMIT (watch_on_move(), from the command
 * layer); one committed through another node only exists in history,
 * which is the source of truth: every FEED_MS this node reads, in one
 * query for all of them, the moves of the games its clients watch past
 * the seq every watcher of each has seen (watch_each_game()), and hands
 * each move, in seq order, to the same watch_on_move() a local commit
 * calls, between passes (pass_end() first and after, so that they go
 * out then, in no transaction).  watch.c's rule makes that exact: an
 * event is sent only when it is the very next one a watcher is owed,
 * one further ahead makes it read the history from its place, and one
 * already seen is dropped; moves of one game commit in seq order (each
 * needs the one before it stored), so a read sees a prefix of them.  In
 * order, gap-free, no duplicates; the delay is at most FEED_MS plus a
 * round trip (doc/scaling.md has the figures).  No NOTIFY is sent: it
 * would take a lock at every COMMIT that serializes all of them; nothing
 * here needs a wake-up signal.
 *
 * Deadlines no node played.  The node whose commit sets a deadline arms
 * its timer (autoplay.c), so a due move is normally played at once by
 * the node that made the move before it.  If that node dies or stops,
 * every OVERDUE_MS each node looks for deadlines passed by more than
 * GRACE_MS and arms them here: several nodes may then race for one, and
 * the version check stores one move (the others conflict, and look
 * again).  A due move is so played within GRACE_MS + OVERDUE_MS of its
 * deadline whatever node dies.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "net/ludusd.h"
#include "net/log.h"
#include "store/pg.h"
#include "util/util.h"

#define FEED_MS		50	/* how often other nodes' moves are read */
#define FEED_LIMIT	4096	/* moves read at most at once */
#define OVERDUE_MS	500	/* how often overdue deadlines are looked for */
#define GRACE_MS	2000	/* a deadline is another node's until then */
#define OVERDUE_LIMIT	256

struct cluster {
	struct server	 *srv;
	struct event	 *feed, *overdue;
	uint64_t	  found;	/* outcomes found out, as logged */
	/* The watched games of a poll: kept across polls. */
	char		(*ids)[GAME_ID_MAX + 1];
	const char	**idp;
	int64_t		 *after;
	size_t		  n, cap;
};

static void
arm(struct event *ev, int ms)
{
	struct timeval	 tv = { ms / 1000, (ms % 1000) * 1000 };

	evtimer_add(ev, &tv);
}

/* ------------------------------------------------------------- feed */

static void
collect(void *arg, const char *id, int64_t after)
{
	struct cluster	*c = arg;

	if (c->n == c->cap) {
		c->cap = c->cap == 0 ? 64 : c->cap * 2;
		c->ids = xrealloc(c->ids, c->cap * sizeof(*c->ids));
		c->idp = xrealloc(c->idp, c->cap * sizeof(*c->idp));
		c->after = xrealloc(c->after, c->cap * sizeof(*c->after));
	}
	str_copy(c->ids[c->n], sizeof(c->ids[0]), id);
	c->after[c->n] = after;
	c->n++;
}

static int
fed(void *arg, const char *id, const struct move *mv)
{
	struct cluster	*c = arg;

	watch_on_move(c->srv, id, mv);
	return 0;
}

static void
feed_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*c = arg;
	struct server	*srv = c->srv;
	size_t		 i;

	(void)fd;
	(void)what;
	c->n = 0;
	watch_each_game(srv, collect, c);
	if (c->n > 0 && !srv->stopping) {
		/* Between passes: no history is read in a transaction. */
		pass_end(srv);
		for (i = 0; i < c->n; i++)
			c->idp[i] = c->ids[i];
		if (store_history_since(srv->env.store, c->n, c->idp,
		    c->after, FEED_LIMIT, fed, c) == STORE_ERR)
			log_info("feed: %s", store_errmsg(srv->env.store));
		pass_end(srv);
	}
	arm(c->feed, FEED_MS);
}

/* ---------------------------------------------------------- overdue */

static int
overdue_one(void *arg, const char *id, int64_t deadline)
{
	struct cluster	*c = arg;

	log_info("autoplay %s: deadline %lld passed, no node played it",
	    id, (long long)deadline);
	autoplay_schedule(c->srv, id, deadline);
	return 0;
}

/* What the store found out of COMMITs whose connection broke. */
static void
log_found_out(struct cluster *c)
{
	uint64_t	 n, stored;

	n = store_pg_found_out(c->srv->env.store, &stored);
	if (n != c->found)
		log_notice("outcomes of commits whose connection broke, found "
		    "out: %llu (%llu committed)", (unsigned long long)n,
		    (unsigned long long)stored);
	c->found = n;
}

static void
overdue_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*c = arg;
	struct server	*srv = c->srv;

	(void)fd;
	(void)what;
	log_found_out(c);
	if (!srv->stopping && store_list_deadlines_before(srv->env.store,
	    cmd_now_ms(&srv->env) - GRACE_MS, OVERDUE_LIMIT, overdue_one,
	    c) == STORE_ERR)
		log_info("overdue deadlines: %s",
		    store_errmsg(srv->env.store));
	arm(c->overdue, OVERDUE_MS);
}

/* ------------------------------------------------------------- life */

int
cluster_init(struct server *srv)
{
	struct cluster	*c;

	if (!store_optimistic(srv->env.store))
		return 0;
	c = xcalloc(1, sizeof(*c));
	c->srv = srv;
	srv->cluster = c;
	c->feed = evtimer_new(srv->base, feed_cb, c);
	c->overdue = evtimer_new(srv->base, overdue_cb, c);
	if (c->feed == NULL || c->overdue == NULL)
		return -1;
	arm(c->feed, FEED_MS);
	arm(c->overdue, OVERDUE_MS);
	return 0;
}

void
cluster_free(struct server *srv)
{
	struct cluster	*c = srv->cluster;

	if (c == NULL)
		return;
	if (c->feed != NULL)
		event_free(c->feed);
	if (c->overdue != NULL)
		event_free(c->overdue);
	free(c->ids);
	free(c->idp);
	free(c->after);
	free(c);
	srv->cluster = NULL;
}
