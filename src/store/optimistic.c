/*
 * The store's core for an optimistic backend (store.h, "Several
 * writers"; PostgreSQL): no lock is held from a load to its write, so
 * every snapshot the core hands out is checked against the games row it
 * came from, by the version in it (move count and stamp).
 *
 *  - A write (create, turn, setup, pending roll) is one statement of the
 *    backend, made only where the row still has the snapshot's version;
 *    it puts a new stamp there, which the cache entry gets too, so that a
 *    second turn computed on top of the first expects the first's stamp
 *    and conflicts with it if the first conflicted.
 *  - A load (load.c) inside the caller's transaction may come from the
 *    cache, whatever other nodes did meanwhile: a turn's write checks
 *    it; a turn that writes nothing (a refused move, a STALE AT) has
 *    what it loaded checked at the COMMIT instead (opt_turn_end()).
 *  - A conflict found at the COMMIT drops the game's cache entry and is
 *    handed to the caller (store_conflicts()), which runs the request
 *    again on the fresh rows.
 */
#include <stdlib.h>
#include <string.h>

#include "store/core.h"
#include "util/util.h"

int
store_optimistic(const struct store *st)
{
	return st != NULL && opt_mode(st);
}

void
store_request(struct store *st, uint64_t req)
{
	if (opt_mode(st))
		st->ops->request(st, req);
}

void
store_request_whole(struct store *st)
{
	if (opt_mode(st))
		st->ops->whole(st);
}

/* ------------------------------------------------------------ writes */

static int
lost(struct store *st, const char *op)
{
	return store_set_err(st, op,
	    "transaction rolled back by an earlier error");
}

/* The rows of a new game, as the backend's create takes them. */
struct new_rows {
	struct row_player	 pl[GAME_MAX_PLAYERS];
	char			 name[GAME_MAX_PLAYERS][PLAYER_NAME_MAX];
	struct row_token	 tk[GAME_TOKEN_ROWS];
	struct row_cell		 cl[GAME_CELL_ROWS];
	int			 np, nt, nc;
};

static void
new_rows_of(const struct game *g, int np, struct new_rows *n)
{
	int	 i;

	n->np = np;
	for (i = 0; i < np; i++)
		rows_player(g, i, &n->pl[i], n->name[i], sizeof(n->name[i]));
	n->nt = rows_tokens(g, n->tk);
	n->nc = rows_cell_changes(NULL, g, n->cl);
}

/*
 * A new game goes into the cache as a load of its rows would make it
 * (through the same functions), so that the turns that follow in the
 * same transaction need no round trip: a load here would not see it
 * before the COMMIT.
 */
static void
cache_created(struct store *st, const struct row_game *r, int64_t stamp,
    const struct new_rows *n)
{
	struct row_game	 rr = *r;
	struct game	 c;
	int		 i, bad;

	if (st->cache == NULL)
		return;
	memset(&c, 0, sizeof(c));
	rr.stamp = stamp;
	bad = rows_put_game(&c, &rr) != 0;
	for (i = 0; i < n->np && !bad; i++)
		bad = rows_put_player(&c, &n->pl[i], i) != 0;
	for (i = 0; i < n->nt && !bad; i++)
		bad = rows_put_token(&c, &n->tk[i]) != 0;
	for (i = 0; i < n->nc && !bad; i++)
		bad = rows_put_cell(&c, &n->cl[i]) != 0;
	if (bad)
		game_cache_remove(st->cache, c.id);
	else
		cache_put(st, &c, cache_marks(st));
}

int
opt_create_game(struct store *st, const struct game *g,
    const struct row_game *r, const struct move *moves,
    const struct store_match *m)
{
	struct new_rows	*n;
	int64_t		 changes, stamp = 0;
	int		 rc;

	if (txn_lost(st))
		return lost(st, "create_game");
	n = xcalloc(1, sizeof(*n));
	new_rows_of(g, r->nplayers, n);
	changes = cache_write_begin(st);
	if (m != NULL)
		rc = st->ops->lobby->match(st, r, n->pl, n->np, n->tk, n->nt,
		    n->cl, n->nc, m, &stamp);
	else
		rc = st->ops->create(st, r, n->pl, n->np, n->tk, n->nt, n->cl,
		    n->nc, &stamp);
	if (rc == 0 && moves != NULL && g->moves > 0)
		rc = st->ops->import_moves(st, g->id, stamp, moves, g->moves);
	cache_write_end(st, changes);
	if (rc == STORE_EXISTS)
		store_set_err(st, "create_game", "game exists");
	else if (rc == STORE_NOTFOUND)
		store_set_err(st, "match", "a ticket is no longer waiting");
	if (rc == 0)
		cache_created(st, r, stamp, n);
	else
		game_cache_remove(st->cache, g->id);
	free(n);
	return rc;
}

/* A write's own outcome outside a transaction (STORE_NOTFOUND: the row
 * changed), or queued. */
static int
written(struct store *st, int rc, const char *op, const char *id)
{
	if (rc == STORE_NOTFOUND)
		rc = store_set_err(st, op,
		    "game missing or changed since it was loaded");
	if (rc != 0)
		game_cache_remove(st->cache, id);
	return rc;
}

int
opt_save_turn(struct store *st, const struct game *old,
    const struct game *new, struct row_game *rn,
    const struct token_changes *tc, const struct move *mv)
{
	int64_t	 changes, stamp = 0;
	int	 rc;

	if (txn_lost(st))
		return lost(st, "save_turn");
	changes = cache_write_begin(st);
	rc = st->ops->turn(st, rn, old->moves, old->stamp, tc->row, tc->n, mv,
	    &stamp);
	cache_write_end(st, changes);
	if ((rc = written(st, rc, "save_turn", new->id)) != 0)
		return rc;
	rn->stamp = stamp;
	cache_turn(st, new, rn, tc);
	return 0;
}

int
opt_save_setup(struct store *st, const struct game *old,
    const struct game *new)
{
	struct row_cell	 ch[GAME_CELL_ROWS];
	struct row_game	 r;
	struct game	*c;
	int64_t		 changes, stamp = 0;
	int		 rc, n;

	if (txn_lost(st))
		return lost(st, "save_setup");
	memset(&r, 0, sizeof(r));
	rows_pending(new, &r);
	r.updated = new->updated;
	n = rows_cell_changes(old, new, ch);
	changes = cache_write_begin(st);
	rc = st->ops->setup(st, &r, old->stamp, ch, n, &stamp);
	cache_write_end(st, changes);
	if ((rc = written(st, rc, "save_setup", new->id)) != 0)
		return rc;
	c = xmalloc(sizeof(*c));
	*c = *new;
	c->stamp = stamp;
	cache_setup(st, c, ch, n);
	free(c);
	return 0;
}

int
opt_save_opts(struct store *st, const struct game *g)
{
	struct row_game	 r;
	struct game	*c;
	int64_t		 changes, stamp = 0;
	int		 rc;

	if (txn_lost(st))
		return lost(st, "save_opts");
	memset(&r, 0, sizeof(r));
	rows_pending(g, &r);
	changes = cache_write_begin(st);
	rc = st->ops->pending(st, &r, g->moves, g->stamp, &stamp);
	cache_write_end(st, changes);
	if ((rc = written(st, rc, "save_opts", g->id)) != 0)
		return rc;
	c = xmalloc(sizeof(*c));
	*c = *g;
	c->stamp = stamp;
	cache_opts(st, c);
	free(c);
	return 0;
}

/* A seat's exchange is a write of its game like the others: checked by
 * the version, putting a new stamp, so that two nodes exchanging one
 * seat's key at once conflict and one of them is run again (and finds
 * the key spent). */
int
opt_save_seat(struct store *st, const struct game *old,
    const struct game *new, int seat)
{
	int64_t		 changes, stamp = 0;
	int		 rc;

	if (txn_lost(st))
		return lost(st, "save_seat");
	changes = cache_write_begin(st);
	rc = st->ops->seat(st, old->id, old->moves, old->stamp, seat,
	    new->opts.seat[seat], old->opts.seat[seat], &stamp);
	cache_write_end(st, changes);
	if ((rc = written(st, rc, "save_seat", new->id)) != 0)
		return rc;
	cache_seat(st, new, seat, stamp);
	return 0;
}

/* --------------------------------------------------------- conflicts */

struct conflict_walk {
	struct store		*st;
	store_conflict_cb	 cb;
	void			*arg;
	uint64_t		 last;
	int			 any;
};

/* Once per request (the backend reports them in request order). */
static void
conflict_one(void *arg, uint64_t req, const char *id,
    enum store_outcome how)
{
	struct conflict_walk	*w = arg;

	if (id != NULL)
		game_cache_remove(w->st->cache, id);
	if (w->any && req == w->last)
		return;
	w->any = 1;
	w->last = req;
	if (w->cb != NULL)
		w->cb(w->arg, req, how);
}

void
store_conflicts(struct store *st, store_conflict_cb cb, void *arg)
{
	struct conflict_walk	 w = { st, cb, arg, 0, 0 };

	if (opt_mode(st))
		st->ops->conflicts(st, conflict_one, &w);
}

uint64_t
store_found_out(struct store *st, uint64_t *stored)
{
	*stored = 0;
	if (st == NULL || !opt_mode(st))
		return 0;
	return st->ops->found_out(st, stored);
}
