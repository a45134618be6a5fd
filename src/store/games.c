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

/* What a match adds to its game's rows: its tickets taken, the seats
 * of its accounts (STORE_NOTFOUND when a ticket no longer waits). */
static int
match_rows(struct store *st, const struct game *g,
    const struct store_match *m)
{
	int	 rc;

	if (m == NULL)
		return 0;
	rc = st->ops->lobby->match_rows(st, g->id, m);
	if (rc == STORE_NOTFOUND)
		store_set_err(st, "match", "a ticket is no longer waiting");
	return rc;
}

/* The new game's rows (and a match's); its cells into ch[0..*n), for
 * the cache. */
static int
create_rows(struct store *st, const struct game *g, const struct row_game *r,
    const struct move *moves, const struct store_match *m,
    struct row_cell *ch, int *n)
{
	int	 rc;

	if (txn_write_begin(st, "create_game") != 0)
		return STORE_ERR;
	rc = st->ops->insert_game(st, r);
	if (rc == STORE_EXISTS)
		store_set_err(st, "create_game", "game exists");
	if (rc != 0 || (rc = insert_players(st, g, r->nplayers)) != 0 ||
	    (rc = insert_tokens(st, g)) != 0 ||
	    (rc = write_cells(st, NULL, g, ch, n, "create_game")) != 0 ||
	    (rc = insert_moves(st, g, moves)) != 0 ||
	    (rc = match_rows(st, g, m)) != 0) {
		txn_write_abort(st);
		return rc;
	}
	return txn_write_end(st, "create_game");
}

/* The row is zeroed first, as a load reads the columns a kind leaves
 * out (NULL) back.  The new game goes into the cache as a load of its
 * rows would make it (cache_create()), so that its first turn reads
 * nothing back; an optimistic backend's does the same (optimistic.c). */
static int
create_game(struct store *st, const struct game *g, const struct move *mv,
    const struct store_match *m)
{
	struct row_game	 r;
	struct row_cell	 ch[GAME_CELL_ROWS];
	int64_t		 changes;
	int		 rc, n = 0;

	memset(&r, 0, sizeof(r));
	if (rows_game(g, &r) != 0 || r.nplayers < 1 ||
	    r.nplayers > game_kind_of(g)->max_players)
		return store_set_err(st, "create_game", "not a valid game");
	if (opt_mode(st))
		return opt_create_game(st, g, &r, mv, m);
	changes = cache_write_begin(st);
	rc = create_rows(st, g, &r, mv, m, ch, &n);
	cache_write_end(st, changes);
	if (rc == 0)
		cache_create(st, g, &r, ch, n);
	else
		game_cache_remove(st->cache, g->id);
	return rc;
}

int
store_create_game(struct store *st, const struct game *g)
{
	return create_game(st, g, NULL, NULL);
}

int
store_match(struct store *st, const struct game *g,
    const struct store_match *m)
{
	int	 i, np = game_nplayers(g);

	if (m->n < 1 || m->n > np)
		return store_set_err(st, "match", "not a valid match");
	for (i = 0; i < m->n; i++)
		if (m->seats[i] < 0 || m->seats[i] >= np ||
		    m->accounts[m->seats[i]] == NULL)
			return store_set_err(st, "match",
			    "a ticket's seat is not an account's");
	return create_game(st, g, NULL, m);
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
	return create_game(st, g, moves, NULL);
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
	if (opt_mode(st))
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
	if (opt_mode(st))
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
	if (opt_mode(st))
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

/* ------------------------------------------------------------- seats */

/* The one seat whose hash differs between old and new; -1 for none or
 * more than one. */
static int
seat_changed(const struct game *old, const struct game *new)
{
	int	 i, seat = -1;

	for (i = 0; i < game_nplayers(old) && i < GAME_MAX_PLAYERS; i++) {
		if (memcmp(old->opts.seat[i], new->opts.seat[i],
		    SEAT_HASH_LEN) == 0)
			continue;
		if (seat != -1)
			return -1;
		seat = i;
	}
	return seat;
}

int
store_save_seat(struct store *st, const struct game *old,
    const struct game *new)
{
	int64_t	 changes;
	int	 rc, seat;

	if (strcmp(old->id, new->id) != 0 || old->kind != new->kind ||
	    old->moves != new->moves || !old->opts.secure ||
	    !new->opts.secure)
		return store_set_err(st, "save_seat", "not the same game");
	if ((seat = seat_changed(old, new)) == -1)
		return store_set_err(st, "save_seat", "not one seat changed");
	if (opt_mode(st))
		return opt_save_seat(st, old, new, seat);
	/* One statement: all or nothing without a savepoint. */
	changes = cache_write_begin(st);
	rc = st->ops->update_seat(st, new->id, seat, new->opts.seat[seat],
	    old->opts.seat[seat]);
	cache_write_end(st, changes);
	if (rc == STORE_NOTFOUND)
		rc = store_set_err(st, "save_seat",
		    "game or seat changed since it was loaded");
	if (rc == 0)
		cache_seat(st, new, seat, new->stamp);
	else
		game_cache_remove(st->cache, new->id);
	return rc == 0 ? 0 : STORE_ERR;
}

/* ------------------------------------------------------------ secret */

/*
 * The secret is made once per database; the backend's insert keeps the
 * first one if two writers race.  Once read as stored, it is kept here:
 * it never changes after (but for store_clear()), and a login, a seat,
 * a match each need it.  One this store inserts is kept only once its
 * transaction has committed.
 */
static int
secret_get(struct store *st, const uint8_t *fresh, uint8_t *out)
{
	int	 rc;

	if (st->secret_known) {
		memcpy(out, st->secret, STORE_SECRET_LEN);
		return 0;
	}
	if ((rc = st->ops->secret_read(st, out)) == 0 && !st->secret_made) {
		memcpy(st->secret, out, STORE_SECRET_LEN);
		st->secret_known = 1;
	}
	if (rc != 1)
		return rc;
	if (txn_write_begin(st, "secret") != 0)
		return STORE_ERR;
	if (st->ops->secret_insert(st, fresh) != 0 ||
	    st->ops->secret_read(st, out) != 0)
		return txn_write_abort(st);
	st->secret_made = st->txn;
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
