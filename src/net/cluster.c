/*
 * What a node does because other ludusd nodes share its store (an
 * optimistic store: PostgreSQL).  Nothing runs here on SQLite.
 *
 * The feed of other nodes' moves.  A move committed through this node
 * reaches its followers at its COMMIT (watch_on_move(), from the command
 * layer, the one path of GAME.WATCH's events, pub/sub's messages, the
 * XREAD BLOCKs it wakes and HTTP's event streams); one committed through
 * another node only exists in history, which is the source of truth.
 * This node keeps, for each game some client of it follows by name (the
 * one iterator, watch_each_game(): watchers, channels, XREAD waiters,
 * event streams), its front: the seq of the last move of the game it has
 * announced, local or fed.  Every FEED_MS it reads, in one query for all
 * of them, the moves past each front, and hands each, in seq order, to
 * the same watch_on_move() a local commit calls, between passes
 * (pass_barrier() first and after, so that they go out then, in no
 * transaction, and after every move this node committed before them),
 * moving the front; a local commit moves it too
 * (cluster_on_move(), the command layer's hook in front of watch.c's).
 * So every move is announced once on each node, in order: moves of one
 * game commit in seq order (each needs the one before it stored), so a
 * read sees a prefix of them; watch.c's rule then serves each watcher
 * exactly (an event ahead of it makes it read the history from its
 * place), and so do the event streams' and XREAD's own.  A new front
 * starts at the most any of the game's followers has seen.  A pattern
 * subscription follows no game by name: it gets other nodes' moves only
 * of the games followed here by name (pubsub.c).  The delay is at most
 * FEED_MS plus a round trip (doc/scaling.md has the figures).  No NOTIFY
 * is sent: it would take a lock at every COMMIT that serializes all of
 * them; nothing here needs a wake-up signal.  The read never stops the
 * loop: it runs on the store's feed connection (store_feed_send()),
 * whose socket the loop watches like a client's, so a server that is
 * slow to answer it, or gone, delays the feed alone; a read with no
 * answer in FEED_STALL_MS is given up and its connection made again.
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
#include "util/idmap.h"
#include "util/util.h"

#define FEED_MS		50	/* how often other nodes' moves are read */
#define FEED_LIMIT	4096	/* moves read at most at once */
#define FEED_STALL_MS	10000	/* a read's answer waited for at most */
#define OVERDUE_MS	500	/* how often overdue deadlines are looked for */
#define GRACE_MS	2000	/* a deadline is another node's until then */
#define OVERDUE_LIMIT	256

/* A followed game: what this node has announced of it. */
struct front {
	int64_t		 seen;		/* seq of the last move announced */
	int		 live;		/* still followed, this poll */
	int		 fresh;		/* made this poll */
	char		 id[GAME_ID_MAX + 1];
};

struct cluster {
	struct server	 *srv;
	struct event	 *feed, *overdue;
	struct event	 *io;		/* the feed's socket, while it reads */
	int		  reading;	/* a read sent: c->feed is its
					   deadline */
	int		  barred;	/* its answer ended the pass */
	char		  failed[128];	/* the feed's last failure, logged */
	uint64_t	  found;	/* outcomes found out, as logged */
	struct idmap	 *fronts;	/* id -> struct front */
	/* The followed games of a poll: kept across polls. */
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

/* watch_each_game()'s callback: once per follower. */
static void
follow(void *arg, const char *id, int64_t seen)
{
	struct cluster	*c = arg;
	struct front	*f;

	if ((f = idmap_get(c->fronts, id)) == NULL) {
		f = xcalloc(1, sizeof(*f));
		str_copy(f->id, sizeof(f->id), id);
		f->seen = seen;
		f->fresh = 1;
		idmap_put(c->fronts, f->id, f);
	} else if (f->fresh && seen > f->seen)
		f->seen = seen;
	f->live = 1;
}

/* The fronts of the games followed now; the others go. */
static void
collect(struct cluster *c)
{
	struct front	*f;
	size_t		 pos = 0, n = 0, i;
	struct front	**gone = NULL;

	while ((f = idmap_next(c->fronts, &pos)) != NULL)
		f->live = f->fresh = 0;
	watch_each_game(c->srv, follow, c);
	c->n = 0;
	pos = 0;
	while ((f = idmap_next(c->fronts, &pos)) != NULL) {
		if (!f->live) {
			gone = xrealloc(gone, (n + 1) * sizeof(*gone));
			gone[n++] = f;
			continue;
		}
		if (c->n == c->cap) {
			c->cap = c->cap == 0 ? 64 : c->cap * 2;
			c->idp = xrealloc(c->idp, c->cap * sizeof(*c->idp));
			c->after = xrealloc(c->after, c->cap *
			    sizeof(*c->after));
		}
		c->idp[c->n] = f->id;
		c->after[c->n++] = f->seen;
	}
	for (i = 0; i < n; i++) {
		idmap_del(c->fronts, gone[i]->id);
		free(gone[i]);
	}
	free(gone);
}

/* One move past a front (the query is in seq order).  The first that is
 * news ends the pass: a move this node committed goes out before it. */
static int
fed(void *arg, const char *id, const struct move *mv)
{
	struct cluster	*c = arg;
	struct front	*f = idmap_get(c->fronts, id);

	if (f == NULL)
		return 0;
	if (!c->barred && mv->seq > f->seen) {
		pass_barrier(c->srv);
		c->barred = 1;
	}
	if (mv->seq <= f->seen)
		return 0;
	f->seen = mv->seq;
	watch_on_move(c->srv, id, mv);
	return 0;
}

void
cluster_on_move(void *arg, const char *game, const struct move *mv)
{
	struct server	*srv = arg;
	struct front	*f;

	if ((f = idmap_get(srv->cluster->fronts, game)) != NULL &&
	    mv->seq > f->seen)
		f->seen = mv->seq;
	watch_on_move(srv, game, mv);
}

/* A failure of the feed is logged once, until it reads again. */
static void
feed_failed(struct cluster *c)
{
	const char	*msg = store_errmsg(c->srv->env.store);

	if (strcmp(msg, c->failed) != 0)
		log_info("feed: %s", msg);
	str_copy(c->failed, sizeof(c->failed), msg);
}

static void
feed_done(struct cluster *c)
{
	c->reading = 0;
	(void)event_del(c->io);
	arm(c->feed, FEED_MS);
}

static void	feed_io(evutil_socket_t, short, void *);

/* Waits for the feed's socket as its read asks. */
static void
feed_wait(struct cluster *c)
{
	struct server	*srv = c->srv;
	int		 fd, what;
	short		 ev = 0;

	what = store_feed_wait(srv->env.store, &fd);
	if (what == 0 || fd < 0) {
		feed_done(c);
		return;
	}
	if (what & STORE_FEED_IN)
		ev |= EV_READ;
	if (what & STORE_FEED_OUT)
		ev |= EV_WRITE;
	(void)event_del(c->io);
	if (event_assign(c->io, srv->base, fd, ev, feed_io, c) != 0 ||
	    event_add(c->io, NULL) != 0) {
		log_warning("feed: cannot wait for its socket");
		store_feed_cancel(srv->env.store);
		feed_done(c);
	}
}

static void
feed_io(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*c = arg;
	struct server	*srv = c->srv;
	int		 rc;

	(void)fd;
	(void)what;
	c->barred = 0;
	rc = store_feed_step(srv->env.store, fed, c);
	if (rc == STORE_PENDING) {
		feed_wait(c);
		return;
	}
	if (rc == STORE_ERR)
		feed_failed(c);
	else if (c->failed[0] != '\0') {
		log_info("feed: reading again");
		c->failed[0] = '\0';
	}
	if (c->barred)
		pass_barrier(srv);
	feed_done(c);
}

static void
feed_cb(evutil_socket_t fd, short what, void *arg)
{
	struct cluster	*c = arg;
	struct server	*srv = c->srv;

	(void)fd;
	(void)what;
	if (c->reading) {
		/* The read's deadline: the server is gone or stopped. */
		store_feed_cancel(srv->env.store);
		log_info("feed: no answer in %d ms; connecting again",
		    FEED_STALL_MS);
		c->failed[0] = '\0';
		feed_done(c);
		return;
	}
	collect(c);
	if (c->n == 0 || srv->stopping) {
		feed_done(c);
		return;
	}
	if (store_feed_send(srv->env.store, c->n, c->idp, c->after,
	    FEED_LIMIT) != 0) {
		feed_failed(c);
		feed_done(c);
		return;
	}
	c->reading = 1;
	arm(c->feed, FEED_STALL_MS);
	feed_wait(c);
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

	n = store_found_out(c->srv->env.store, &stored);
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
	c->fronts = idmap_new();
	srv->cluster = c;
	srv->env.on_move = cluster_on_move;
	c->feed = evtimer_new(srv->base, feed_cb, c);
	c->overdue = evtimer_new(srv->base, overdue_cb, c);
	c->io = event_new(srv->base, -1, 0, feed_io, c);
	if (c->feed == NULL || c->overdue == NULL || c->io == NULL)
		return -1;
	arm(c->feed, FEED_MS);
	arm(c->overdue, OVERDUE_MS);
	return 0;
}

void
cluster_free(struct server *srv)
{
	struct cluster	*c = srv->cluster;
	struct front	*f;
	size_t		 pos = 0;

	if (c == NULL)
		return;
	srv->env.on_move = watch_on_move;
	if (c->feed != NULL)
		event_free(c->feed);
	if (c->overdue != NULL)
		event_free(c->overdue);
	if (c->io != NULL)
		event_free(c->io);
	store_feed_cancel(srv->env.store);
	while ((f = idmap_next(c->fronts, &pos)) != NULL)
		free(f);
	idmap_free(c->fronts);
	free(c->idp);
	free(c->after);
	free(c);
	srv->cluster = NULL;
}
