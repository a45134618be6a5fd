/*
 * The game cache's coherence: an entry decodes to a game exactly as a
 * load of the rows rebuilds it, byte for byte, or it is not there.  The
 * rows change under an entry in four ways, each followed here, for any
 * backend (through its in_txn, data_version and changes hooks):
 *
 *  - Another connection commits (a "ludus --db", sqlite3): the backend's
 *    data_version then reads differently, as it counts only the commits
 *    of other connections.  Inside the caller's transaction (it holds
 *    the write lock and its snapshot until it ends) one check covers the
 *    whole of it; outside, each load checks.  A change empties the
 *    cache.  A load that saw a commit half way (several statements) has
 *    moved the count already, so the next check drops what it put.
 *  - This connection writes behind the store (a test through
 *    store_sqlite_handle()): the backend's changes count moves by more
 *    than the store's own writes.  The cache is emptied.
 *  - The store writes a game: once the write has succeeded, its entry
 *    is decoded, gets the same changes as the rows, through the same
 *    functions a load uses (rows.c), and is put back (write-through).  A
 *    write that failed, or one outside the caller's transaction (where
 *    another writer may come between the check and the write), drops the
 *    entry instead.
 *  - A write is undone: whatever is put inside the caller's transaction
 *    carries its mark and its turn savepoint's.  Rolling back the
 *    savepoint, or the transaction (the caller's ROLLBACK, a failed
 *    COMMIT, or the backend's own after an I/O error, disk full or out
 *    of memory, seen as in_txn false inside the caller's transaction),
 *    drops the entries of what was undone, if it wrote to any game.
 *
 * The savepoint of each write needs nothing: an entry is changed only
 * after the write succeeded (a failed one drops it), and in a turn
 * savepoint, where the write has none, a failed write is undone by the
 * rollback of the turn, which drops the turn's entries.
 */
#include <stdint.h>
#include <string.h>

#include "store/core.h"

static void
cache_flush(struct store *st)
{
	if (game_cache_clear(st->cache) > 0)
		st->stats.flushes++;
}

void
cache_undo(struct store *st, enum cache_mark which)
{
	if (st->wrote[which])
		game_cache_drop(st->cache, which, st->mark[which]);
	st->wrote[which] = 0;
	st->mark[which] = 0;
}

void
cache_txn(struct store *st, int open)
{
	st->mark[CACHE_TXN] = open ? ++st->marks : 0;
	st->mark[CACHE_TURN] = 0;
	st->wrote[CACHE_TXN] = st->wrote[CACHE_TURN] = 0;
	st->synced = 0;
}

/*
 * A savepoint inside another (an EXEC's group, and each write in it) gets
 * a mark of its own, later than its outer one's, which is kept until it
 * ends: undone, it drops its entries alone (and those of the savepoints
 * it held), so that the group's earlier writes stay in the cache (an
 * optimistic store could not read them back before the COMMIT);
 * released, its entries are its outer one's, whose undo drops every mark
 * from its own on.  Past STORE_NEST levels a savepoint shares its outer
 * one's mark: undoing either drops the entries of both, more than needed
 * but never too few.  depth: the savepoints open outside this one.
 */
void
cache_turn_open(struct store *st, int depth)
{
	if (depth > STORE_NEST)
		return;
	if (depth > 0) {
		st->nest_mark[depth - 1] = st->mark[CACHE_TURN];
		st->nest_wrote[depth - 1] = st->wrote[CACHE_TURN];
	}
	st->mark[CACHE_TURN] = ++st->marks;
	st->wrote[CACHE_TURN] = 0;
}

/* Its writes are its outer savepoint's, or the transaction's now
 * (wrote[CACHE_TXN] is set).  depth: the savepoints still open. */
void
cache_turn_close(struct store *st, int depth)
{
	if (depth > STORE_NEST)
		return;
	if (depth > 0) {
		st->mark[CACHE_TURN] = st->nest_mark[depth - 1];
		st->wrote[CACHE_TURN] |= st->nest_wrote[depth - 1];
		return;
	}
	st->mark[CACHE_TURN] = 0;
	st->wrote[CACHE_TURN] = 0;
}

void
cache_turn_undone(struct store *st)
{
	if (st->wrote[CACHE_TURN])
		game_cache_drop_from(st->cache, CACHE_TURN,
		    st->mark[CACHE_TURN]);
}

const uint64_t *
cache_marks(struct store *st)
{
	static const uint64_t	 none[CACHE_NMARKS];

	return txn_live(st) ? st->mark : none;
}

int
cache_sync(struct store *st)
{
	int64_t	 v;

	if (st->cache == NULL)
		return -1;
	if (txn_lost(st)) {
		/* The backend rolled the caller's transaction back. */
		cache_undo(st, CACHE_TURN);
		cache_undo(st, CACHE_TXN);
	}
	if ((v = st->ops->changes(st)) != st->changes) {
		cache_flush(st);
		st->changes = v;
	}
	if (st->synced && txn_live(st))
		return 0;
	if (st->ops->data_version(st, &v) != 0) {
		cache_flush(st);
		st->synced = 0;
		return -1;
	}
	if (v != st->data_version)
		cache_flush(st);
	st->data_version = v;
	st->synced = 1;
	return 0;
}

/* The entries are checked while they can still be (in the caller's
 * transaction), and the write goes with it and with the turn savepoint
 * if they are undone. */
int64_t
cache_write_begin(struct store *st)
{
	if (txn_live(st))
		cache_sync(st);
	st->wrote[CACHE_TXN] = st->wrote[CACHE_TURN] = 1;
	return st->ops->changes(st);
}

/* Unless some were pending at the start: the next cache_sync() then
 * still sees those. */
void
cache_write_end(struct store *st, int64_t before)
{
	if (st->changes == before)
		st->changes = st->ops->changes(st);
}

/* An encoding that loses a byte is a bug of the cache, counted and
 * dropped like a hit that differs from the rows. */
void
cache_put(struct store *st, const struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	struct game	 back;
	int		 rc;

	if ((rc = game_cache_put(st->cache, g, marks)) > 0)
		st->stats.oversize++;
	else if (rc == 0 && st->check &&
	    (game_cache_get(st->cache, g->id, &back) != 0 ||
	    memcmp(&back, g, sizeof(back)) != 0)) {
		st->stats.mismatches++;
		game_cache_remove(st->cache, g->id);
	}
}

/* ----------------------------------------------------- write-through */

/* The entry of a game whose write has just succeeded, decoded into *c to
 * be given the same changes and put back; -1, the entry dropped, when it
 * cannot be trusted, or if there is none. */
static int
cache_written(struct store *st, const struct game *g, struct game *c)
{
	if (!txn_live(st) || !st->synced) {
		game_cache_remove(st->cache, g->id);
		return -1;
	}
	if (game_cache_get(st->cache, g->id, c) != 0)
		return -1;
	/* The rows' kind is the entry's; a caller's snapshot of another
	 * kind wrote rows that mean something else to it. */
	if (c->kind != g->kind) {
		game_cache_remove(st->cache, g->id);
		return -1;
	}
	return 0;
}

/* The pending roll and deadline of o as the games row now holds them
 * (NULL for 0, and no roll_player without a roll). */
static int
cache_pending(struct game *c, const struct game_opts *o)
{
	return rows_put_pending(c, o->deadline, o->roll,
	    o->roll != 0 ? o->roll_player : 0);
}

void
cache_turn(struct store *st, const struct game *new,
    const struct row_game *r, const struct token_changes *tc)
{
	const struct game_kind_ops	*k = game_kind_of(new);
	struct game			 c;
	int				 i, bad;

	if (cache_written(st, new, &c) != 0)
		return;
	k->put_play(&c, r);
	c.moves = new->moves;
	c.updated = new->updated;
	c.stamp = r->stamp;
	bad = cache_pending(&c, &new->opts) != 0;
	for (i = 0; i < tc->n && !bad; i++)
		bad = rows_put_token(&c, &tc->row[i]) != 0;
	if (bad)
		game_cache_remove(st->cache, new->id);
	else
		cache_put(st, &c, st->mark);
}

void
cache_setup(struct store *st, const struct game *new,
    const struct row_cell *changes, int n)
{
	struct game	 c;
	int		 i, bad = 0;

	if (cache_written(st, new, &c) != 0)
		return;
	c.updated = new->updated;
	c.stamp = new->stamp;
	for (i = 0; i < n && !bad; i++)
		bad = rows_put_cell(&c, &changes[i]) != 0;
	if (bad)
		game_cache_remove(st->cache, new->id);
	else
		cache_put(st, &c, st->mark);
}

void
cache_opts(struct store *st, const struct game *g)
{
	struct game	 c;

	if (cache_written(st, g, &c) != 0)
		return;
	c.stamp = g->stamp;
	if (cache_pending(&c, &g->opts) != 0)
		game_cache_remove(st->cache, g->id);
	else
		cache_put(st, &c, st->mark);
}

void
cache_seat(struct store *st, const struct game *g, int seat, int64_t stamp)
{
	struct game	 c;

	if (cache_written(st, g, &c) != 0)
		return;
	c.stamp = stamp;
	memcpy(c.opts.seat[seat], g->opts.seat[seat], SEAT_HASH_LEN);
	cache_put(st, &c, st->mark);
}

/*
 * A new game's first turn would otherwise read all of its rows back,
 * the most expensive load there is, for what the create has just
 * written.  The entry is what a load of those rows makes (rows.c), put
 * only where a write-through may put one.
 */
void
cache_create(struct store *st, const struct game *g,
    const struct row_game *r, const struct row_cell *cells, int n)
{
	struct game	 c;

	if (st->cache == NULL || !txn_live(st) || !st->synced ||
	    rows_rebuild(&c, g, r, cells, n) != 0) {
		game_cache_remove(st->cache, g->id);
		return;
	}
	cache_put(st, &c, st->mark);
}

/* -------------------------------------------------------- the cache */

int
store_set_game_cache(struct store *st, int64_t games)
{
	struct game_cache	*c = NULL;

	if (games < 0 || games > STORE_GAME_CACHE_MAX)
		return store_set_err(st, "game_cache", "size out of range");
	if (games > 0 && (c = game_cache_new((size_t)games)) == NULL)
		return store_set_err(st, "game_cache", "out of memory");
	game_cache_free(st->cache);
	st->cache = c;
	st->stats.games = games;
	/* Empty: whatever happened before is no concern of it. */
	st->changes = st->ops->changes(st);
	st->synced = 0;
	return 0;
}

int64_t
store_game_cache_bytes(int64_t games)
{
	size_t	 size;

	if (games <= 0)
		return 0;
	if (games > STORE_GAME_CACHE_MAX ||
	    (size = game_cache_size((size_t)games)) == SIZE_MAX ||
	    size > INT64_MAX)
		return INT64_MAX;
	return (int64_t)size;
}

/* The size grows with the count (by a slot, and by the buckets at each
 * power of two): the largest count that fits, by bisection. */
int64_t
store_game_cache_games(int64_t bytes)
{
	int64_t	 lo = 0, hi = STORE_GAME_CACHE_MAX, mid;

	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (store_game_cache_bytes(mid) <= bytes)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void
store_game_cache_stats(struct store *st, struct store_cache_stats *cs)
{
	*cs = st->stats;
	cs->used = (int64_t)game_cache_count(st->cache);
}
