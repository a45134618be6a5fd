/*
 * GAME.WATCH: which connections follow which game, and the one rule that
 * makes resume exact.  Also the one path of every event of a committed
 * move (watch_on_move(), the command layer's commit hook): HTTP's event
 * streams through the one call of srv->http_move, then, queued for the
 * reply of the command that made the move, GAME.WATCH's here, pub/sub's
 * messages (pubsub.c) and the XREAD BLOCKs it wakes (stream.c).
 *
 * Each watch remembers the seq of the next event it owes its client.  A
 * live event (a move just committed) is sent only when it is exactly that
 * one; anything further ahead means moves sit in the history table that
 * the client has not seen, and the backlog reader sends them from there,
 * in chunks, as the socket drains.  The event loop is single-threaded and
 * events are only generated after commit, so a move is either in the
 * history already read, or announced after: never lost, never sent twice.
 * With group commit (pass.c) "after commit" is after the pass's COMMIT,
 * and no history is read while its transaction is open: it would show
 * moves that may never commit (pass_pump() waits for the end of the
 * pass).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/idmap.h"
#include "util/util.h"

#define WATCH_CHUNK	256		/* history rows read at once */
#define WATCH_HIGH	(16 * 1024)	/* backlog sent while output is below */

struct wgame;

struct watch {
	TAILQ_ENTRY(watch)	 game_entry;
	TAILQ_ENTRY(watch)	 conn_entry;
	struct wgame		*game;
	struct conn		*conn;
	int64_t			 next;		/* seq of the next event */
	int			 catching_up;	/* history may hold more */
};

TAILQ_HEAD(watch_game_list, watch);

struct wgame {
	struct watch_game_list	 watchers;
	char			 id[GAME_ID_MAX + 1];
};

/* A committed move waiting for the reply of the command that made it. */
struct pending {
	char		 game[GAME_ID_MAX + 1];
	struct move	 mv;
	uint64_t	 ord;		/* its rank among the COMMIT's moves */
};

struct watch_registry {
	struct idmap	 *games;	/* id -> struct wgame */
	struct pending	 *pending;
	size_t		  npending;
	size_t		  cap;
	size_t		  sent;		/* pending[0..sent) delivered */
	uint64_t	  moves;	/* on_move calls since the flush */
};

/* ------------------------------------------------------- game registry */

struct watch_registry *
watch_registry_new(void)
{
	struct watch_registry	*reg;

	reg = xcalloc(1, sizeof *reg);
	reg->games = idmap_new();
	return reg;
}

void
watch_registry_free(struct watch_registry *reg)
{
	struct wgame	*g;
	size_t		 pos = 0;

	if (reg == NULL)
		return;
	/* Connections are freed first; this only catches leftovers. */
	while ((g = idmap_next(reg->games, &pos)) != NULL)
		free(g);
	idmap_free(reg->games);
	free(reg->pending);
	free(reg);
}

static struct wgame *
game_find(struct watch_registry *reg, const char *id)
{
	return idmap_get(reg->games, id);
}

static struct wgame *
game_get(struct watch_registry *reg, const char *id)
{
	struct wgame	*g;

	if ((g = game_find(reg, id)) != NULL)
		return g;
	g = xcalloc(1, sizeof *g);
	snprintf(g->id, sizeof g->id, "%s", id);
	TAILQ_INIT(&g->watchers);
	idmap_put(reg->games, g->id, g);
	return g;
}

static void
game_drop(struct watch_registry *reg, struct wgame *g)
{
	idmap_del(reg->games, g->id);
	free(g);
}

uint64_t
watch_games(const struct server *srv)
{
	return idmap_count(srv->watches->games);
}

void
watch_each_game(struct server *srv, follow_cb cb, void *arg)
{
	struct wgame	*g;
	struct watch	*w;
	size_t		 pos = 0;

	while ((g = idmap_next(srv->watches->games, &pos)) != NULL)
		TAILQ_FOREACH(w, &g->watchers, game_entry)
			cb(arg, g->id, w->next - 1);
	pubsub_each_game(srv, cb, arg);
	stream_each_game(srv, cb, arg);
	if (srv->http_each_game != NULL)
		srv->http_each_game(srv, cb, arg);
}

/* -------------------------------------------------------------- events */

/* ["move", game, seq, player, action, result]; a push frame in RESP3. */
static void
send_event(struct conn *c, const char *game, const struct move *mv)
{
	struct reply	 r = { 0 };

	reply_push_type(&r);
	reply_bulk(reply_add(&r), "move", 4);
	reply_bulk(reply_add(&r), game, strlen(game));
	reply_int(reply_add(&r), (long long)mv->seq);
	reply_bulk(reply_add(&r), mv->player, strlen(mv->player));
	reply_bulk(reply_add(&r), mv->action, strlen(mv->action));
	reply_bulk(reply_add(&r), mv->result, strlen(mv->result));
	conn_reply(c, &r);
	reply_free(&r);
}

struct pump_ctx {
	struct watch	*w;
	int64_t		 rows;
};

static int
pump_row(void *arg, const struct move *mv)
{
	struct pump_ctx	*ctx = arg;
	struct watch	*w = ctx->w;

	ctx->rows++;
	if (mv->seq < w->next)
		return 0;
	send_event(w->conn, w->game->id, mv);
	w->next = mv->seq + 1;
	return 0;
}

/* Sends history from w->next on while the client keeps up. */
static void
pump_one(struct server *srv, struct watch *w)
{
	struct conn	*c = w->conn;
	struct pump_ctx	 ctx;
	int		 rc;

	while (w->catching_up && c->state == CONN_OPEN &&
	    conn_pending(c) < WATCH_HIGH) {
		ctx.w = w;
		ctx.rows = 0;
		rc = store_history(srv->env.store, w->game->id, w->next,
		    WATCH_CHUNK, pump_row, &ctx);
		if (rc != STORE_OK) {
			/* The client resumes with GAME.WATCH FROM. */
			log_warning("store error reading the history of %s: "
			    "%s", w->game->id, store_errmsg(srv->env.store));
			conn_kill(c, "history unavailable for GAME.WATCH");
			return;
		}
		if (ctx.rows < WATCH_CHUNK)
			w->catching_up = 0;
	}
}

void
watch_pump(struct conn *c)
{
	struct watch	*w;

	TAILQ_FOREACH(w, &c->watches, conn_entry) {
		if (c->state != CONN_OPEN || conn_pending(c) >= WATCH_HIGH)
			return;
		if (w->catching_up)
			pump_one(c->srv, w);
	}
}

void
watch_on_move(void *arg, const char *game, const struct move *mv)
{
	struct server		*srv = arg;
	struct watch_registry	*reg = srv->watches;
	struct pending		*p;
	uint64_t		 ord = reg->moves++;

	/* HTTP: the event streams' share of every committed move. */
	if (srv->http_move != NULL)
		srv->http_move(srv, game, mv);
	/* RESP: GAME.WATCH's, pub/sub's and XREAD's, queued for their
	 * replies (deliver()). */
	if (game_find(reg, game) == NULL && !pubsub_wants(srv, game) &&
	    !stream_wants(srv, game))
		return;
	if (reg->npending == reg->cap) {
		reg->cap = reg->cap == 0 ? 4 : reg->cap * 2;
		reg->pending = xrealloc(reg->pending, reg->cap *
		    sizeof *reg->pending);
	}
	p = &reg->pending[reg->npending++];
	snprintf(p->game, sizeof p->game, "%s", game);
	p->mv = *mv;
	p->ord = ord;
}

static void
deliver_watchers(struct server *srv, struct wgame *g, const struct pending *p)
{
	struct watch	*w;

	TAILQ_FOREACH(w, &g->watchers, game_entry) {
		if (!conn_hears(w->conn) || p->mv.seq < w->next)
			continue;
		if (!w->catching_up && p->mv.seq == w->next) {
			send_event(w->conn, g->id, &p->mv);
			w->next++;
			continue;
		}
		/* Ahead of this watch: the history has it. */
		log_debug("%s: move %lld of %s while at %lld: from history",
		    w->conn->addr, (long long)p->mv.seq, g->id,
		    (long long)w->next);
		w->catching_up = 1;
		pump_one(srv, w);
	}
}

/* The one path of a committed move's events: GAME.WATCH's, the messages
 * of pub/sub, then the XREADs it wakes. */
static void
deliver(struct server *srv, const struct pending *p)
{
	struct wgame	*g;

	if ((g = game_find(srv->watches, p->game)) != NULL)
		deliver_watchers(srv, g, p);
	pubsub_deliver(srv, p->game, &p->mv);
	stream_deliver(srv, p->game, &p->mv);
}

void
watch_flush_upto(struct server *srv, uint64_t limit)
{
	struct watch_registry	*reg = srv->watches;

	while (reg->sent < reg->npending &&
	    reg->pending[reg->sent].ord < limit)
		deliver(srv, &reg->pending[reg->sent++]);
}

void
watch_flush(struct server *srv)
{
	struct watch_registry	*reg = srv->watches;

	watch_flush_upto(srv, UINT64_MAX);
	reg->npending = 0;
	reg->sent = 0;
	reg->moves = 0;
}

/* -------------------------------------------- GAME.WATCH, GAME.UNWATCH */

static struct watch *
watch_find(struct conn *c, const char *id)
{
	struct watch	*w;

	TAILQ_FOREACH(w, &c->watches, conn_entry)
		if (strcmp(w->game->id, id) == 0)
			return w;
	return NULL;
}

int
watch_add(struct conn *c, const char *id, int64_t from, struct reply *err)
{
	struct server	*srv = c->srv;
	struct game	 g;
	struct watch	*w;
	int		 rc;

	rc = store_load_game(srv->env.store, id, &g);
	if (rc == STORE_NOTFOUND) {
		reply_error(err, "NOGAME", "no such game '%s'", id);
		return -1;
	}
	if (rc != STORE_OK) {
		srv->env.store_errors++;
		log_warning("store error loading %s for GAME.WATCH: %s", id,
		    store_errmsg(srv->env.store));
		reply_error(err, "STORE", "%s", store_errmsg(srv->env.store));
		return -1;
	}
	if (from > g.moves) {
		reply_error(err, "BADARG", "FROM %lld is beyond the %lld "
		    "moves of '%s'", (long long)from, (long long)g.moves, id);
		return -1;
	}
	if ((w = watch_find(c, id)) == NULL) {
		/* A game more counts against max-subscriptions (quota.c). */
		if (quota_subscribe(c, 1, err) == -1)
			return -1;
		w = xcalloc(1, sizeof *w);
		w->conn = c;
		w->game = game_get(srv->watches, id);
		w->next = g.moves + 1;
		TAILQ_INSERT_TAIL(&w->game->watchers, w, game_entry);
		TAILQ_INSERT_TAIL(&c->watches, w, conn_entry);
		c->nwatch++;
	}
	/* GAME.WATCH again with FROM restarts from there, as asked. */
	if (from >= 0) {
		w->next = from + 1;
		w->catching_up = from < g.moves;
	}
	return 0;
}

static void
watch_unlink(struct conn *c, struct watch *w)
{
	struct wgame	*g = w->game;

	TAILQ_REMOVE(&g->watchers, w, game_entry);
	TAILQ_REMOVE(&c->watches, w, conn_entry);
	c->nwatch--;
	if (TAILQ_EMPTY(&g->watchers))
		game_drop(c->srv->watches, g);
	free(w);
}

int
watch_remove(struct conn *c, const char *id)
{
	struct watch	*w;

	if ((w = watch_find(c, id)) == NULL)
		return 0;
	watch_unlink(c, w);
	return 1;
}

void
watch_remove_all(struct conn *c, void (*cb)(struct conn *, const char *))
{
	struct watch	*w;
	char		 id[GAME_ID_MAX + 1];

	while ((w = TAILQ_FIRST(&c->watches)) != NULL) {
		snprintf(id, sizeof id, "%s", w->game->id);
		watch_unlink(c, w);
		if (cb != NULL)
			cb(c, id);
	}
}
