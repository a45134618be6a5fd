/*
 * The store's game operations, for every backend: a game created, loaded
 * (from the cache or its rows) and saved as rows.  Each write (create,
 * setup, turn) runs inside a savepoint of its own (txn.c), so that it is
 * all or nothing even when the caller has no transaction open, writes
 * only the rows that changed, and then gives the cache the same changes
 * (coherence.c).
 */
#include <string.h>

#include "store/core.h"

/* ------------------------------------------------------------ create */

static int
insert_players(struct store *st, const struct game *g, int np)
{
	struct row_player	 r;
	char			 name[PLAYER_NAME_MAX];
	int			 i;

	for (i = 0; i < np; i++) {
		rows_player(g, i, &r, name, sizeof(name));
		if (st->ops->insert_player(st, g->id, &r) != 0)
			return STORE_ERR;
	}
	return 0;
}

static int
insert_tokens(struct store *st, const struct game *g)
{
	struct row_token	 rows[GAME_TOKEN_ROWS];
	int			 i, n;

	n = rows_tokens(g, rows);
	for (i = 0; i < n; i++)
		if (st->ops->insert_token(st, g->id, &rows[i]) != 0)
			return STORE_ERR;
	return 0;
}

/* The cell rows that differ between old (NULL: none) and new. */
static int
write_cells(struct store *st, const struct game *old,
    const struct game *new, struct row_cell *ch, int *nch, const char *op)
{
	int	 i;

	*nch = rows_cell_changes(old, new, ch);
	for (i = 0; i < *nch; i++)
		if (st->ops->write_cell(st, new->id, &ch[i], op) != 0)
			return STORE_ERR;
	return 0;
}

/* The history rows of a game copied whole (store_import_game()). */
static int
insert_moves(struct store *st, const struct game *g, const struct move *mv)
{
	int64_t	 i;

	for (i = 0; mv != NULL && i < g->moves; i++)
		if (st->ops->insert_move(st, g->id, &mv[i]) != 0)
			return STORE_ERR;
	return 0;
}

static int
create_rows(struct store *st, const struct game *g, const struct row_game *r,
    const struct move *moves)
{
	struct row_cell	 ch[GAME_CELL_ROWS];
	int		 rc, n;

	if (txn_write_begin(st, "create_game") != 0)
		return STORE_ERR;
	rc = st->ops->insert_game(st, r);
	if (rc == STORE_EXISTS)
		store_set_err(st, "create_game", "game exists");
	if (rc != 0 || (rc = insert_players(st, g, r->nplayers)) != 0 ||
	    (rc = insert_tokens(st, g)) != 0 ||
	    (rc = write_cells(st, NULL, g, ch, &n, "create_game")) != 0 ||
	    (rc = insert_moves(st, g, moves)) != 0) {
		txn_write_abort(st);
		return rc;
	}
	return txn_write_end(st, "create_game");
}

/* A new game is not put in the cache: that would take a second copy of
 * what a load makes of the rows, for one read per game saved.  (An
 * optimistic backend's does: a load cannot see it until the COMMIT.) */
static int
create_game(struct store *st, const struct game *g, const struct move *mv)
{
	struct row_game	 r;
	int64_t		 changes;
	int		 rc;

	if (rows_game(g, &r) != 0 || r.nplayers < 1 ||
	    r.nplayers > game_kind_of(g)->max_players)
		return store_set_err(st, "create_game", "not a valid game");
	if (st->ops->create != NULL)
		return opt_create_game(st, g, &r, mv);
	changes = cache_write_begin(st);
	rc = create_rows(st, g, &r, mv);
	cache_write_end(st, changes);
	game_cache_remove(st->cache, g->id);
	return rc;
}

int
store_create_game(struct store *st, const struct game *g)
{
	return create_game(st, g, NULL);
}

int
store_import_game(struct store *st, const struct game *g,
    const struct move *moves)
{
	int64_t	 i;

	for (i = 0; i < g->moves; i++)
		if (moves[i].seq != i + 1)
			return store_set_err(st, "import",
			    "history out of sequence");
	return create_game(st, g, moves);
}

/* -------------------------------------------------------------- load */

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

	if (st->ops->check != NULL)
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
	if (st->ops->check != NULL)
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

/* ------------------------------------------------------------- setup */

static int
touch_game(struct store *st, const struct game *g)
{
	int	 rc;

	rc = st->ops->touch_game(st, g->id, g->updated);
	if (rc == STORE_NOTFOUND)
		return store_set_err(st, "save_setup", "no such game");
	return rc == 0 ? 0 : STORE_ERR;
}

int
store_save_setup(struct store *st, const struct game *old,
    const struct game *new)
{
	struct row_cell	 ch[GAME_CELL_ROWS];
	int64_t		 changes;
	int		 rc, n = 0;

	if (strcmp(old->id, new->id) != 0 || old->kind != new->kind ||
	    old->moves != new->moves)
		return store_set_err(st, "save_setup", "not the same game");
	if (st->ops->setup != NULL)
		return opt_save_setup(st, old, new);
	changes = cache_write_begin(st);
	if (txn_write_begin(st, "save_setup") != 0)
		rc = STORE_ERR;
	else if (write_cells(st, old, new, ch, &n, "save_setup") != 0 ||
	    touch_game(st, new) != 0)
		rc = txn_write_abort(st);
	else
		rc = txn_write_end(st, "save_setup");
	cache_write_end(st, changes);
	if (rc == 0)
		cache_setup(st, new, ch, n);
	else
		game_cache_remove(st->cache, new->id);
	return rc;
}

/* -------------------------------------------------------------- turn */

/* The version check is the UPDATE's: it catches a snapshot that went
 * stale after it was loaded (no transaction, or another writer). */
static int
update_game_row(struct store *st, const struct game *old,
    const struct row_game *r)
{
	int	 rc;

	rc = st->ops->update_game(st, r, old->moves);
	if (rc == STORE_NOTFOUND)
		return store_set_err(st, "save_turn",
		    "game missing or changed since it was loaded");
	return rc == 0 ? 0 : STORE_ERR;
}

static int
update_tokens(struct store *st, const char *id,
    const struct token_changes *tc)
{
	int	 i, rc;

	for (i = 0; i < tc->n; i++) {
		rc = st->ops->update_token(st, id, &tc->row[i]);
		if (rc == STORE_NOTFOUND)
			return store_set_err(st, "save_turn",
			    "missing token row");
		if (rc != 0)
			return STORE_ERR;
	}
	return 0;
}

int
store_save_turn(struct store *st, const struct game *old,
    const struct game *new, const struct move *mv)
{
	struct row_game		 rn;
	struct token_changes	 tc;
	int64_t			 changes;
	int			 rc;

	if (strcmp(old->id, new->id) != 0 || old->kind != new->kind ||
	    rows_game(new, &rn) != 0 || game_nplayers(old) != rn.nplayers ||
	    !rows_same_rules(old, new) ||
	    rows_token_changes(old, new, &tc) != 0)
		return store_set_err(st, "save_turn", "not the same game");
	if (new->moves != old->moves + 1 || mv->seq != new->moves)
		return store_set_err(st, "save_turn", "move out of sequence");
	if (st->ops->turn != NULL)
		return opt_save_turn(st, old, new, &rn, &tc, mv);
	changes = cache_write_begin(st);
	if (txn_write_begin(st, "save_turn") != 0)
		rc = STORE_ERR;
	else if (update_game_row(st, old, &rn) != 0 ||
	    update_tokens(st, new->id, &tc) != 0 ||
	    st->ops->insert_move(st, new->id, mv) != 0)
		rc = txn_write_abort(st);
	else
		rc = txn_write_end(st, "save_turn");
	cache_write_end(st, changes);
	if (rc == 0)
		cache_turn(st, new, &rn, &tc);
	else
		game_cache_remove(st->cache, new->id);
	return rc;
}

/* ----------------------------------------------------------- options */

/* One statement: all or nothing without a savepoint. */
static int
opts_row(struct store *st, const struct game *g)
{
	struct row_game	 r;
	int		 rc;

	memset(&r, 0, sizeof(r));
	rows_pending(g, &r);
	rc = st->ops->update_pending(st, &r, g->moves);
	if (rc == STORE_NOTFOUND)
		return store_set_err(st, "save_opts",
		    "game missing or changed since it was loaded");
	return rc == 0 ? 0 : STORE_ERR;
}

int
store_save_opts(struct store *st, const struct game *g)
{
	int64_t	 changes;
	int	 rc;

	if (g->opts.roll > 6 || (g->opts.roll != 0 &&
	    g->opts.roll_player >= game_nplayers(g)))
		return store_set_err(st, "save_opts", "invalid pending roll");
	if (st->ops->pending != NULL)
		return opt_save_opts(st, g);
	changes = cache_write_begin(st);
	rc = opts_row(st, g);
	cache_write_end(st, changes);
	if (rc == 0)
		cache_opts(st, g);
	else
		game_cache_remove(st->cache, g->id);
	return rc;
}

/* ------------------------------------------------------------ secret */

/* The secret is made once per database; the backend's insert keeps the
 * first one if two writers race. */
static int
secret_get(struct store *st, const uint8_t *fresh, uint8_t *out)
{
	int	 rc;

	if ((rc = st->ops->secret_read(st, out)) != 1)
		return rc;
	if (txn_write_begin(st, "secret") != 0)
		return STORE_ERR;
	if (st->ops->secret_insert(st, fresh) != 0 ||
	    st->ops->secret_read(st, out) != 0)
		return txn_write_abort(st);
	return txn_write_end(st, "secret");
}

/* The meta row is no game's: the cache only counts the change as the
 * store's own. */
int
store_secret(struct store *st, const uint8_t fresh[STORE_SECRET_LEN],
    uint8_t out[STORE_SECRET_LEN])
{
	int64_t	 changes;
	int	 rc;

	changes = st->ops->changes(st);
	rc = secret_get(st, fresh, out);
	cache_write_end(st, changes);
	return rc;
}
