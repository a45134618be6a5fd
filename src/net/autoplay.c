/*
 * The turns the server plays by itself: a bot's turn at once, a
 * person's turn when its turn-timeout runs out.  The command layer says
 * when a game next owes such a move (env->on_schedule, after every commit
 * that changes it, and cmd_due_games() at start-up, from the deadlines
 * stored with the games); here each such game gets a libevent timer, and
 * when it fires cmd_autoplay() plays one move in its own transaction.
 *
 * A game of bots is therefore played one move per timer: each move is
 * committed, its watchers are told, and the loop serves every other
 * client before the next move.  No timer fires sooner than bot-delay
 * (300 ms by default) after it was set, that is after the move before,
 * so that people can follow a game of bots; a deadline of turn-timeout
 * lies further ahead anyway.  On stop the timers are dropped: the
 * deadlines are in the database and the next start re-arms them, neither
 * forgotten nor reset.
 *
 * A move played here joins the pass's open transaction (pass.c) like a
 * client's: the command layer arms the game's next timer only once that
 * has committed.  If the COMMIT fails, the timers that fired while the
 * transaction was open are armed again RETRY_MS later: the move was lost,
 * or the timer was set from rows that were not kept.
 *
 * Several nodes on one store (PostgreSQL): the node whose commit sets a
 * deadline arms its timer, so each due move is normally played by the
 * node that made the move before it.  A timer plays only the deadline it
 * was armed for: a game another node has moved since has another one,
 * and that node has armed its own timer, so this one lets it be (else
 * two nodes would each play the game on a timer of their own, a node
 * come back from a kill or a stop among them).  A timer let be stays
 * gone: when the COMMIT finds that what it looked at was stale (a row of
 * the cache, and the game has moved further still) or fails, the game is
 * still the other node's.  The version check makes a move two nodes race
 * for stored once: the other's conflicts, and is tried once more at once
 * on the fresh rows (a pending roll another node drew meanwhile, say),
 * for the same deadline.  A deadline no node
 * played (its node died, or was stopped) is taken over by cluster.c's
 * watch of overdue deadlines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "net/ludusd.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/util.h"

#define RETRY_MS	5000	/* after a store failure */

struct due {
	struct autoplay	*ap;
	struct event	*ev;
	int64_t		 at;		/* unix ms it fires at */
	int64_t		 deadline;	/* the game's that it plays */
	int		 again;		/* tried again after a conflict */
	char		 id[GAME_ID_MAX + 1];
};

struct fired {
	uint64_t	 req;		/* its move's request */
	char		 id[GAME_ID_MAX + 1];
};

struct autoplay {
	struct server	 *srv;
	struct idmap	 *dues;		/* id -> struct due */
	uint64_t	  played;	/* moves made, for the log */
	/* Games whose timer fired while the transaction was open: kept
	 * across passes. */
	struct fired	 *fired;
	size_t		  nfired, capfired;
};

static void
due_free(struct due *d)
{
	event_free(d->ev);
	free(d);
}

static void	due_cb(evutil_socket_t, short, void *);

static void
fired_add(struct autoplay *ap, const char *id, uint64_t req)
{
	struct fired	*f;

	if (ap->nfired == ap->capfired) {
		ap->capfired = ap->capfired == 0 ? 16 : ap->capfired * 2;
		ap->fired = xrealloc(ap->fired, ap->capfired *
		    sizeof(*ap->fired));
	}
	f = &ap->fired[ap->nfired++];
	f->req = req;
	snprintf(f->id, sizeof(f->id), "%s", id);
}

/* d fires at at_ms, and bot-delay from now at least: a game of bots that
 * people watch (the pages, a SUBSCRIBE) plays at a pace they can follow;
 * 0 plays at once. */
static void
due_arm(struct server *srv, struct due *d, int64_t at_ms)
{
	struct timeval	 tv;
	int64_t		 delay;

	d->at = at_ms;
	delay = at_ms - cmd_now_ms(&srv->env);
	if (delay < srv->cfg->bot_delay)
		delay = srv->cfg->bot_delay;
	tv.tv_sec = (time_t)(delay / 1000);
	tv.tv_usec = (suseconds_t)(delay % 1000) * 1000;
	/* libevent counts a timer from the time it cached when this turn of
	 * the loop began, which a COMMIT (this is its hook) may have taken
	 * a good part of bot-delay since: from now. */
	event_base_update_cache_time(srv->base);
	evtimer_add(d->ev, &tv);
}

/* The game's timer, made if it has none: NULL if it cannot be. */
static struct due *
due_get(struct server *srv, const char *game)
{
	struct autoplay	*ap = srv->autoplay;
	struct due	*d;

	if ((d = idmap_get(ap->dues, game)) != NULL)
		return d;
	d = xcalloc(1, sizeof(*d));
	d->ap = ap;
	snprintf(d->id, sizeof(d->id), "%s", game);
	if ((d->ev = evtimer_new(srv->base, due_cb, d)) == NULL) {
		log_warning("autoplay %s: cannot make a timer", game);
		free(d);
		return NULL;
	}
	idmap_put(ap->dues, d->id, d);
	return d;
}

void
autoplay_schedule(void *arg, const char *game, int64_t due_ms)
{
	struct server	 *srv = arg;
	struct autoplay	 *ap = srv->autoplay;
	struct due	 *d;

	if (ap == NULL)
		return;
	if (due_ms <= 0) {
		if ((d = idmap_get(ap->dues, game)) != NULL) {
			idmap_del(ap->dues, d->id);
			due_free(d);
		}
		return;
	}
	if ((d = due_get(srv, game)) == NULL)
		return;
	d->deadline = due_ms;
	d->again = 0;
	due_arm(srv, d, due_ms);
}

/*
 * The game's timer fires again at at_ms, for the deadline it was armed
 * for.  A game whose timer is gone is left alone: its timer went because
 * the game owes this node nothing (another node moved it on and armed its
 * own, or it is over), and neither a conflict of what it looked at (a row
 * of the cache older still than the store's) nor a COMMIT that failed
 * makes it owe something.  A timer made here would know no deadline, and
 * play whatever is due when it fires: a move a fraction of bot-delay
 * after the other node's.
 */
static int
due_again(struct server *srv, const char *game, int64_t at_ms, int again)
{
	struct due	*d;

	if ((d = idmap_get(srv->autoplay->dues, game)) == NULL)
		return 0;
	d->again = again;
	due_arm(srv, d, at_ms);
	return 1;
}

static void
due_cb(evutil_socket_t fd, short what, void *arg)
{
	struct due	*d = arg;
	struct server	*srv = d->ap->srv;
	struct move	 mv;
	struct cmd_result res;
	char		 id[GAME_ID_MAX + 1];
	int64_t		 now, next, want = d->deadline;
	int		 rc, again = d->again;

	(void)fd;
	(void)what;
	if (srv->stopping)
		return;	/* the next start re-arms it from the store */
	/* d may be freed by the schedule hook while the move commits. */
	memcpy(id, d->id, sizeof(id));
	now = cmd_now_ms(&srv->env);
	rc = cmd_autoplay_at(&srv->env, id, now, want, &mv, &next);
	cmd_txn_status(&srv->env, &res);
	if (res.writes > 0)
		fired_add(srv->autoplay, id, res.req);
	switch (rc) {
	case 1:
		/* The hook has armed the next one already. */
		srv->autoplay->played++;
		log_debug("autoplay %s: move %lld by %s: %s (%s)", id,
		    (long long)mv.seq, mv.player, mv.result,
		    mv.by == MOVE_BOT ? "bot" : "timeout");
		break;
	case 0:
		/* Moved on since the timer was armed: another node moved it
		 * and armed its own (or, if it dies, the watch of overdue
		 * deadlines will find it); so after a conflict tried again.
		 * Else not due yet: then. */
		if (again || next != want)
			autoplay_schedule(srv, id, 0);
		else
			(void)due_again(srv, id, next, 0);
		break;
	default:
		log_warning("autoplay %s: %s", id,
		    store_errmsg(srv->env.store));
		(void)due_again(srv, id, now + RETRY_MS, 0);
		break;
	}
	/* The move, its events and its next timer come with the COMMIT. */
	pass_after(srv, &res);
}

void
autoplay_pass_end(struct server *srv, int ok)
{
	struct autoplay	*ap = srv->autoplay;
	int64_t		 retry;
	size_t		 i, n = 0;

	if (ap == NULL)
		return;
	if (!ok && ap->nfired > 0) {
		retry = cmd_now_ms(&srv->env) + RETRY_MS;
		for (i = 0; i < ap->nfired; i++)
			n += (size_t)due_again(srv, ap->fired[i].id, retry, 0);
		if (n > 0)
			log_warning("autoplay: %zu game(s) tried again in "
			    "%d ms", n, RETRY_MS);
	}
	ap->nfired = 0;
}

void
autoplay_conflict(struct server *srv, uint64_t req)
{
	struct autoplay	*ap = srv->autoplay;
	struct due	*d;
	size_t		 i;

	for (i = 0; ap != NULL && i < ap->nfired; i++) {
		if (ap->fired[i].req != req)
			continue;
		/* Let be already (moved on, by what it saw), or tried again
		 * once already: left to the other node. */
		if ((d = idmap_get(ap->dues, ap->fired[i].id)) == NULL)
			return;
		if (d->again) {
			autoplay_schedule(srv, ap->fired[i].id, 0);
			return;
		}
		(void)due_again(srv, ap->fired[i].id, cmd_now_ms(&srv->env),
		    1);
		return;
	}
}

static void
due_at_start(void *arg, const char *game, int64_t due_ms)
{
	autoplay_schedule(arg, game, due_ms);
}

int
autoplay_init(struct server *srv)
{
	struct autoplay	*ap;

	ap = xcalloc(1, sizeof(*ap));
	ap->srv = srv;
	ap->dues = idmap_new();
	srv->autoplay = ap;
	srv->env.on_schedule = autoplay_schedule;
	srv->env.on_schedule_arg = srv;
	if (cmd_due_games(&srv->env, due_at_start, srv) == -1) {
		log_warning("cannot read the games' deadlines: %s",
		    store_errmsg(srv->env.store));
		return -1;
	}
	if (idmap_count(ap->dues) > 0)
		log_notice("%zu game(s) with turns to play by the server",
		    idmap_count(ap->dues));
	return 0;
}

void
autoplay_free(struct server *srv)
{
	struct autoplay	*ap = srv->autoplay;
	struct due	*d;
	size_t		 pos = 0;

	if (ap == NULL)
		return;
	while ((d = idmap_next(ap->dues, &pos)) != NULL)
		due_free(d);
	idmap_free(ap->dues);
	free(ap->fired);
	free(ap);
	srv->autoplay = NULL;
	srv->env.on_schedule = NULL;
}

size_t
autoplay_pending(const struct server *srv)
{
	return srv->autoplay != NULL ? idmap_count(srv->autoplay->dues) : 0;
}
