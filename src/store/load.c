/*
 * The store's loads of a game, for every backend: from the cache or the
 * rows, every byte as a load of the rows makes it.
 *
 * An optimistic backend (store.h, "Several writers"; PostgreSQL) holds no
 * lock from a load to its write, so what a load hands out is checked
 * against the games row it came from, by its version (move count and
 * stamp): inside the caller's transaction an entry of the cache is taken
 * as it is, and the turn's write, or a check at the COMMIT for a turn
 * that writes nothing and for a read, finds it stale if it is; outside
 * any transaction the row's version is read first (one round trip), and
 * the entry taken only if it is still that one, so that a read on any
 * node sees every move committed before it was sent.
 */
#include <string.h>

#include "store/core.h"

static int	opt_load_game(struct store *, const char *, struct game *);
static void	opt_seen(struct store *, int, const struct game *);

static int
put_game(void *arg, const struct row_game *r)
{
	return rows_put_game(arg, r) != 0;
}

static int
load_game_row(struct store *st, const char *id, struct game *g)
{
	int	 rc;

	rc = st->ops->read_game(st, id, put_game, g);
	if (rc == STORE_NOTFOUND) {
		store_set_err(st, "load_game", "no such game");
		return STORE_NOTFOUND;
	}
	if (rc == STORE_ERR)
		return STORE_ERR;
	if (rc != 0)
		return store_set_err(st, "load_game", "corrupt games row");
	return 0;
}

/* The players rows must be 0..nplayers-1, each in its place. */
struct load_walk {
	struct game	*g;
	int		 n;
};

static int
put_player(void *arg, const struct row_player *r)
{
	struct load_walk	*w = arg;
	int			 i = r->idx;

	if (i != w->n++ || i >= game_nplayers(w->g) ||
	    i >= GAME_MAX_PLAYERS || rows_put_player(w->g, r, i) != 0)
		return 1;
	return 0;
}

static int
put_token(void *arg, const struct row_token *r)
{
	struct load_walk	*w = arg;

	w->n++;
	return rows_put_token(w->g, r) != 0;
}

/* A stored cell row always has a target: 0 is "no row". */
static int
put_cell(void *arg, const struct row_cell *r)
{
	return r->target == 0 || rows_put_cell(arg, r) != 0;
}

static int
load_players(struct store *st, struct game *g)
{
	struct load_walk	 w = { g, 0 };
	int			 rc;

	rc = st->ops->read_players(st, g->id, put_player, &w);
	if (rc == STORE_ERR)
		return STORE_ERR;
	if (rc != 0 || w.n != game_nplayers(g))
		return store_set_err(st, "load_game", "corrupt players rows");
	return 0;
}

/* The backend's keys make rows distinct, so the count proves that every
 * token was loaded. */
static int
load_tokens(struct store *st, struct game *g)
{
	struct row_token	 rows[GAME_TOKEN_ROWS];
	struct load_walk	 w = { g, 0 };
	int			 rc, want;

	want = rows_tokens(g, rows);
	rc = st->ops->read_tokens(st, g->id, put_token, &w);
	if (rc == STORE_ERR)
		return STORE_ERR;
	if (rc != 0 || w.n != want)
		return store_set_err(st, "load_game", "corrupt token rows");
	return 0;
}

static int
load_cells(struct store *st, struct game *g)
{
	int	 rc;

	if (game_kind_of(g)->cells == NULL)
		return 0;
	rc = st->ops->read_cells(st, g->id, put_cell, g);
	if (rc == STORE_ERR)
		return STORE_ERR;
	if (rc != 0)
		return store_set_err(st, "load_game", "corrupt jumps rows");
	return 0;
}

/* The game as its rows hold it, every byte set. */
int
games_load_rows(struct store *st, const char *id, struct game *g)
{
	int	 rc;

	memset(g, 0, sizeof(*g));
	if (strlen(id) > GAME_ID_MAX) {
		store_set_err(st, "load_game", "no such game");
		return STORE_NOTFOUND;
	}
	if ((rc = load_game_row(st, id, g)) != 0 ||
	    (rc = load_players(st, g)) != 0 ||
	    (rc = load_tokens(st, g)) != 0 || (rc = load_cells(st, g)) != 0) {
		memset(g, 0, sizeof(*g));
		return rc;
	}
	return 0;
}

/* The check of a hit (store_sqlite_set_cache_check()): the rows are read
 * as well, into g that holds the hit, and answer. */
static int
load_checked(struct store *st, const char *id, struct game *g)
{
	struct game	 c;
	int		 rc;

	c = *g;
	rc = games_load_rows(st, id, g);
	if (rc == STORE_NOTFOUND ||
	    (rc == 0 && memcmp(&c, g, sizeof(*g)) != 0)) {
		st->stats.mismatches++;
		game_cache_remove(st->cache, id);
		memset(g, 0, sizeof(*g));
		return store_set_err(st, "load_game",
		    "game cache differs from the stored rows");
	}
	return rc;
}

int
store_load_game(struct store *st, const char *id, struct game *g)
{
	int	 rc, fit;

	if (opt_mode(st))
		return opt_load_game(st, id, g);
	if (st->cache == NULL)
		return games_load_rows(st, id, g);
	fit = cache_sync(st) == 0;
	/* Decoded into the caller's game, its to change. */
	if (game_cache_get(st->cache, id, g) == 0) {
		st->stats.hits++;
		return st->check ? load_checked(st, id, g) : 0;
	}
	st->stats.misses++;
	if ((rc = games_load_rows(st, id, g)) == 0 && fit)
		cache_put(st, g, cache_marks(st));
	return rc;
}

/* AUDIT's read: the rows, whatever the cache holds; an entry that
 * differs from them is a bug of the cache, dropped and counted. */
int
store_load_game_stored(struct store *st, const char *id, struct game *g)
{
	struct game	 c;
	int		 rc;

	rc = games_load_rows(st, id, g);
	if (opt_mode(st))
		opt_seen(st, rc, g);
	/* Checked after the read: a commit it saw has emptied the cache. */
	if (cache_sync(st) != 0 || game_cache_get(st->cache, id, &c) != 0)
		return rc;
	/* Another writer's later version is no bug of this one's cache. */
	if (rc == 0 && c.stamp != g->stamp)
		game_cache_remove(st->cache, id);
	else if (rc == STORE_NOTFOUND ||
	    (rc == 0 && memcmp(&c, g, sizeof(*g)) != 0)) {
		st->stats.mismatches++;
		game_cache_remove(st->cache, id);
	}
	return rc;
}

/* ------------------------------------------------- several writers */

/* A hit outside the caller's transaction is good while the row still
 * has its version; a read that fails makes the load read the rows, and
 * fail there with its message. */
static int
hit_current(struct store *st, const struct game *g)
{
	int64_t	 moves, stamp;

	return st->ops->version(st, g->id, &moves, &stamp) == 0 &&
	    moves == g->moves && stamp == g->stamp;
}

/*
 * The checking mode (LUDUS_GAME_CACHE_CHECK): the rows are read as well.
 * An entry is a bug only if it differs from rows of its own version: a
 * write of this transaction not yet committed, or of another node, has
 * another stamp, and the version checks deal with those.
 */
static int
hit_checked(struct store *st, const char *id, struct game *g)
{
	struct game	 c;
	int64_t		 moves, stamp;
	int		 rc;

	/* The version first: a read of the rows of a game this transaction
	 * writes would make its request run again. */
	if ((rc = st->ops->version(st, id, &moves, &stamp)) == STORE_ERR)
		return rc;
	/* Not committed yet (created in this transaction), or another
	 * version: nothing the rows can say of this entry. */
	if (rc == STORE_NOTFOUND || stamp != g->stamp)
		return 0;
	c = *g;
	if ((rc = games_load_rows(st, id, g)) == STORE_ERR)
		return rc;
	if (rc == 0 && g->stamp != c.stamp) {
		*g = c;
		return 0;
	}
	if (rc == STORE_NOTFOUND || memcmp(&c, g, sizeof(*g)) != 0) {
		st->stats.mismatches++;
		game_cache_remove(st->cache, id);
		memset(g, 0, sizeof(*g));
		return store_set_err(st, "load_game",
		    "game cache differs from the stored rows");
	}
	return 0;
}

static int
opt_load_game(struct store *st, const char *id, struct game *g)
{
	int	 rc, fit;

	fit = st->cache != NULL && cache_sync(st) == 0;
	if (fit && game_cache_get(st->cache, id, g) == 0) {
		if (txn_live(st) || hit_current(st, g)) {
			st->stats.hits++;
			rc = st->check ? hit_checked(st, id, g) : 0;
			opt_seen(st, rc, g);
			return rc;
		}
		game_cache_remove(st->cache, id);
	}
	if (st->cache != NULL)
		st->stats.misses++;
	rc = games_load_rows(st, id, g);
	if (rc == 0 && fit)
		cache_put(st, g, cache_marks(st));
	opt_seen(st, rc, g);
	return rc;
}

/* A load inside the caller's transaction (rc: its result): what it saw
 * is checked at the COMMIT, or by the open turn's write. */
static void
opt_seen(struct store *st, int rc, const struct game *g)
{
	if (!txn_live(st))
		return;
	if (st->turns > 0) {
		st->seen.set = rc == 0;
		if (rc == 0) {
			memcpy(st->seen.id, g->id, sizeof(st->seen.id));
			st->seen.moves = g->moves;
			st->seen.stamp = g->stamp;
		}
		return;
	}
	/* A queueing failure loses the transaction: its COMMIT says so. */
	if (rc == 0)
		(void)st->ops->check(st, g->id, g->moves, g->stamp);
}

void
opt_turn_end(struct store *st, int kept)
{
	if (!kept && st->seen.set && txn_live(st))
		(void)st->ops->check(st, st->seen.id, st->seen.moves,
		    st->seen.stamp);
	st->seen.set = 0;
}

