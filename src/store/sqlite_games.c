/*
 * The SQLite backend's game rows: a game is a row of games, a row of
 * players per player, its token rows and its jumps (the cell rows);
 * moves are rows of history.  Neutral rows in, neutral rows out: the
 * kinds' columns are fields of the row like any other.
 */
#include <string.h>

#include "store/sqlite_int.h"

/* Columns of ST_GAME_SELECT. */
enum {
	GC_ID, GC_KIND, GC_NPLAYERS, GC_TURN, GC_WINNER, GC_AUX, GC_MOVES,
	GC_CREATED, GC_UPDATED, GC_PRESET, GC_SIX_BONUS, GC_CAPTURE_BONUS,
	GC_THREE_SIXES, GC_BOARD, GC_HAS_DECK, GC_DECK, GC_SEATS, GC_DICE,
	GC_TIMEOUT, GC_DEADLINE, GC_ROLL, GC_ROLL_PLAYER, GC_GID
};

/* ---------------------------------------------------------------- gid */

void
sql_gid_keep(struct sqlite_store *s, const char *id, size_t len, int64_t gid)
{
	if (sqlite3_get_autocommit(s->db) || len > GAME_ID_MAX || gid <= 0) {
		sql_gid_forget(s);
		return;
	}
	memcpy(s->last.id, id, len);
	s->last.id[len] = '\0';
	s->last.gid = gid;
}

void
sql_gid_forget(struct sqlite_store *s)
{
	s->last.gid = 0;
	s->last.id[0] = '\0';
}

/* id's gid, 0 for no such game; STORE_ERR with the message set.  The
 * autocommit test covers a transaction SQLite rolled back by itself. */
static int
gid_of(struct sqlite_store *s, const char *id, int64_t *gid, const char *op)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (s->last.gid != 0 && !sqlite3_get_autocommit(s->db) &&
	    strncmp(s->last.id, id, GAME_ID_MAX + 1) == 0) {
		*gid = s->last.gid;
		return 0;
	}
	if ((st = sql_stmt_get(s, ST_GAME_GID, op)) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, id))
		return sql_stmt_err(s, st, op);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sql_stmt_err(s, st, op);
	*gid = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sql_stmt_done(st);
	if (*gid != 0)
		sql_gid_keep(s, id, strnlen(id, GAME_ID_MAX + 1), *gid);
	return 0;
}

int
sql_bind_gid(struct sqlite_store *s, sqlite3_stmt *st, const char *id,
    const char *op)
{
	int64_t	 gid = 0;

	if (gid_of(s, id, &gid, op) != 0) {
		sql_stmt_done(st);
		return 1;
	}
	if ((gid != 0 ? sqlite3_bind_int64(st, 1, gid) :
	    sqlite3_bind_null(st, 1)) != SQLITE_OK) {
		sql_stmt_err(s, st, op);
		return 1;
	}
	return 0;
}

/* Binds deadline, roll, roll_player at i, i + 1, i + 2: NULL for 0,
 * and no roll_player without a roll. */
static int
bind_pending(sqlite3_stmt *st, int i, const struct row_game *r)
{
	return sql_bind_int_or_null(st, i, r->deadline) ||
	    sql_bind_int_or_null(st, i + 1, r->roll) ||
	    (r->roll != 0 && sql_bind_int(st, i + 2, r->roll_player));
}

/* The rules columns a kind sets (the others stay NULL). */
static int
bind_rules(sqlite3_stmt *st, const struct row_game *r)
{
	if ((r->cols & ROW_LUDO_RULES) && (sql_bind_int(st, 10,
	    r->ludo_preset) || sql_bind_int(st, 11, r->six_bonus) ||
	    sql_bind_int(st, 12, r->capture_bonus) ||
	    sql_bind_int(st, 13, r->three_sixes)))
		return 1;
	if ((r->cols & ROW_BOARD) && (sqlite3_bind_text(st, 14, r->board,
	    (int)r->board_len, SQLITE_STATIC) != SQLITE_OK ||
	    sql_bind_int(st, 15, r->has_deck)))
		return 1;
	if ((r->cols & ROW_DECK) && sqlite3_bind_text(st, 16, r->deck,
	    (int)r->deck_len, SQLITE_STATIC) != SQLITE_OK)
		return 1;
	return 0;
}

/* A token row's key and columns, at 1-5 of its INSERT and its UPDATE;
 * the statement reset on failure. */
static int
bind_token(struct sqlite_store *s, sqlite3_stmt *st, const char *id,
    const struct row_token *r, const char *op)
{
	if (sql_bind_gid(s, st, id, op))
		return 1;
	if (sql_bind_int(st, 2, r->player) || sql_bind_int(st, 3, r->token) ||
	    sql_bind_int(st, 4, r->pos) || sql_bind_int(st, 5, r->points)) {
		sql_stmt_err(s, st, op);
		return 1;
	}
	return 0;
}

int
sqlite_insert_game(struct store *store, const struct row_game *r)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 bad, rc;

	if ((st = sql_stmt_get(s, ST_GAME_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	bad = sqlite3_bind_text(st, 1, r->id, (int)r->id_len,
	    SQLITE_STATIC) != SQLITE_OK || sql_bind_int(st, 2, r->kind) ||
	    sql_bind_int(st, 3, r->nplayers) || sql_bind_int(st, 4, r->turn) ||
	    sql_bind_int(st, 5, r->winner) || sql_bind_int(st, 6, r->aux) ||
	    sql_bind_int(st, 7, r->moves) || sql_bind_int(st, 8, r->created) ||
	    sql_bind_int(st, 9, r->updated) ||
	    sql_bind_int(st, 17, r->seats) || sql_bind_int(st, 18, r->dice) ||
	    sql_bind_int(st, 19, r->turn_timeout) ||
	    bind_pending(st, 20, r) || bind_rules(st, r);
	if (bad)
		return sql_stmt_err(s, st, "create_game");
	rc = sql_stmt_run(s, st, "create_game");
	/* games.id is the only key of the table the caller gives. */
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY ||
	    rc == SQLITE_CONSTRAINT_UNIQUE)
		return STORE_EXISTS;
	if (rc != 0)
		return STORE_ERR;
	/* Its players, tokens and cells come next, by this gid. */
	sql_gid_keep(s, r->id, r->id_len, sqlite3_last_insert_rowid(s->db));
	return 0;
}

int
sqlite_insert_player(struct store *store, const char *id,
    const struct row_player *r)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_PLAYER_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, "create_game"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, r->idx) ||
	    sqlite3_bind_text(st, 3, r->name, (int)r->name_len,
	    SQLITE_STATIC) != SQLITE_OK ||
	    (r->has_bot && sql_bind_int(st, 4, r->bot)) ||
	    (r->seat != NULL && sqlite3_bind_blob(st, 5, r->seat,
	    (int)r->seat_len, SQLITE_STATIC) != SQLITE_OK))
		return sql_stmt_err(s, st, "create_game");
	return sql_stmt_run(s, st, "create_game") == 0 ? 0 : STORE_ERR;
}

int
sqlite_insert_token(struct store *store, const char *id,
    const struct row_token *r)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_TOKEN_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	if (bind_token(s, st, id, r, "create_game"))
		return STORE_ERR;
	return sql_stmt_run(s, st, "create_game") == 0 ? 0 : STORE_ERR;
}

int
sqlite_write_cell(struct store *store, const char *id,
    const struct row_cell *r, const char *op)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	st = sql_stmt_get(s, r->target != 0 ? ST_JUMP_UPSERT : ST_JUMP_DELETE,
	    op);
	if (st == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, op))
		return STORE_ERR;
	if (sql_bind_int(st, 2, r->cell) ||
	    (r->target != 0 && sql_bind_int(st, 3, r->target)))
		return sql_stmt_err(s, st, op);
	return sql_stmt_run(s, st, op) == 0 ? 0 : STORE_ERR;
}

/* --------------------------------------------------------------- read */

/* The statement of a walk of a child table, the game's gid bound; NULL
 * with the message set. */
static sqlite3_stmt *
walk_start(struct sqlite_store *s, enum stmt_id id, const char *game)
{
	sqlite3_stmt	*st;

	if ((st = sql_stmt_get(s, id, "load_game")) == NULL)
		return NULL;
	if (sql_bind_gid(s, st, game, "load_game"))
		return NULL;
	return st;
}

/* After the last step of a walk: 0 or what its callback returned. */
static int
walk_end(struct sqlite_store *s, sqlite3_stmt *st, int rc, int ret)
{
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "load_game");
	sql_stmt_done(st);
	return ret;
}

static void
game_row_of(sqlite3_stmt *st, struct row_game *r)
{
	memset(r, 0, sizeof(*r));
	r->id = (const char *)sqlite3_column_text(st, GC_ID);
	r->id_len = (size_t)sqlite3_column_bytes(st, GC_ID);
	r->kind = sqlite3_column_int(st, GC_KIND);
	r->nplayers = sqlite3_column_int(st, GC_NPLAYERS);
	r->turn = sqlite3_column_int(st, GC_TURN);
	r->winner = sqlite3_column_int(st, GC_WINNER);
	r->aux = sqlite3_column_int(st, GC_AUX);
	r->moves = sqlite3_column_int64(st, GC_MOVES);
	r->created = sqlite3_column_int64(st, GC_CREATED);
	r->updated = sqlite3_column_int64(st, GC_UPDATED);
	r->ludo_preset = sqlite3_column_int(st, GC_PRESET);
	r->six_bonus = sqlite3_column_int(st, GC_SIX_BONUS);
	r->capture_bonus = sqlite3_column_int(st, GC_CAPTURE_BONUS);
	r->three_sixes = sqlite3_column_int(st, GC_THREE_SIXES);
	r->board = (const char *)sqlite3_column_text(st, GC_BOARD);
	r->has_deck = sqlite3_column_int(st, GC_HAS_DECK);
	r->deck = (const char *)sqlite3_column_text(st, GC_DECK);
	r->seats = sqlite3_column_int(st, GC_SEATS);
	r->dice = sqlite3_column_int(st, GC_DICE);
	r->turn_timeout = sqlite3_column_int64(st, GC_TIMEOUT);
	r->deadline = sqlite3_column_int64(st, GC_DEADLINE);
	r->roll = sqlite3_column_int64(st, GC_ROLL);
	r->roll_player = sqlite3_column_int64(st, GC_ROLL_PLAYER);
}

int
sqlite_read_game(struct store *store, const char *id, store_row_game_cb cb,
    void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct row_game		 r;
	sqlite3_stmt		*st;
	int			 rc, ret;

	if ((st = sql_stmt_get(s, ST_GAME_SELECT, "load_game")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, id))
		return sql_stmt_err(s, st, "load_game");
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sql_stmt_done(st);
		return STORE_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "load_game");
	game_row_of(st, &r);
	/* Its players, tokens and cells are read next, by this gid. */
	sql_gid_keep(s, r.id, r.id_len, sqlite3_column_int64(st, GC_GID));
	ret = cb(arg, &r);
	sql_stmt_done(st);
	return ret;
}

int
sqlite_read_players(struct store *store, const char *id,
    store_row_player_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct row_player	 r;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = walk_start(s, ST_PLAYER_SELECT, id)) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.idx = sqlite3_column_int(st, 0);
		r.name = (const char *)sqlite3_column_text(st, 1);
		r.name_len = (size_t)sqlite3_column_bytes(st, 1);
		r.has_bot = sqlite3_column_type(st, 2) != SQLITE_NULL;
		r.bot = sqlite3_column_int64(st, 2);
		r.seat = NULL;
		r.seat_len = 0;
		if (sqlite3_column_type(st, 3) == SQLITE_BLOB) {
			r.seat = sqlite3_column_blob(st, 3);
			r.seat_len = (size_t)sqlite3_column_bytes(st, 3);
		}
		if ((ret = cb(arg, &r)) != 0)
			break;
	}
	return walk_end(s, st, rc, ret);
}

int
sqlite_read_tokens(struct store *store, const char *id,
    store_row_token_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct row_token	 r;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = walk_start(s, ST_TOKEN_SELECT, id)) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.player = sqlite3_column_int(st, 0);
		r.token = sqlite3_column_int(st, 1);
		r.pos = sqlite3_column_int(st, 2);
		r.points = sqlite3_column_int(st, 3);
		if ((ret = cb(arg, &r)) != 0)
			break;
	}
	return walk_end(s, st, rc, ret);
}

int
sqlite_read_cells(struct store *store, const char *id, store_row_cell_cb cb,
    void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct row_cell		 r;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = walk_start(s, ST_JUMP_SELECT, id)) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.cell = sqlite3_column_int(st, 0);
		r.target = sqlite3_column_int(st, 1);
		if ((ret = cb(arg, &r)) != 0)
			break;
	}
	return walk_end(s, st, rc, ret);
}

/* -------------------------------------------------------------- write */

/* An UPDATE: 0, STORE_NOTFOUND when it matched no row, or STORE_ERR. */
static int
update_run(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	if (sql_stmt_run(s, st, op) != 0)
		return STORE_ERR;
	return sqlite3_changes(s->db) == 1 ? 0 : STORE_NOTFOUND;
}

int
sqlite_update_game(struct store *store, const struct row_game *r,
    int64_t moves)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_GAME_UPDATE, "save_turn")) == NULL)
		return STORE_ERR;
	/* Its gid is then kept for the turn's tokens and history row. */
	if (sql_bind_gid(s, st, r->id, "save_turn"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, r->turn) ||
	    sql_bind_int(st, 3, r->winner) || sql_bind_int(st, 4, r->aux) ||
	    sql_bind_int(st, 5, r->moves) || sql_bind_int(st, 6, r->updated) ||
	    sql_bind_int(st, 7, moves) || bind_pending(st, 8, r))
		return sql_stmt_err(s, st, "save_turn");
	return update_run(s, st, "save_turn");
}

int
sqlite_update_token(struct store *store, const char *id,
    const struct row_token *r)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_TOKEN_UPDATE, "save_turn")) == NULL)
		return STORE_ERR;
	if (bind_token(s, st, id, r, "save_turn"))
		return STORE_ERR;
	return update_run(s, st, "save_turn");
}

int
sqlite_insert_move(struct store *store, const char *id,
    const struct move *mv)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_MOVE_INSERT, "save_turn")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, "save_turn"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, mv->seq) ||
	    sql_bind_text(st, 3, mv->player, sizeof(mv->player)) ||
	    sql_bind_text(st, 4, mv->action, sizeof(mv->action)) ||
	    sql_bind_text(st, 5, mv->result, sizeof(mv->result)) ||
	    sql_bind_int(st, 6, mv->at) || sql_bind_int(st, 7, mv->by))
		return sql_stmt_err(s, st, "save_turn");
	return sql_stmt_run(s, st, "save_turn") == 0 ? 0 : STORE_ERR;
}

int
sqlite_touch_game(struct store *store, const char *id, int64_t updated)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_GAME_TOUCH, "save_setup")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, "save_setup"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, updated))
		return sql_stmt_err(s, st, "save_setup");
	return update_run(s, st, "save_setup");
}

int
sqlite_update_pending(struct store *store, const struct row_game *r,
    int64_t moves)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_GAME_OPTS, "save_opts")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, r->id, "save_opts"))
		return STORE_ERR;
	if (bind_pending(st, 2, r) || sql_bind_int(st, 5, moves))
		return sql_stmt_err(s, st, "save_opts");
	return update_run(s, st, "save_opts");
}

int
sqlite_update_seat(struct store *store, const char *id, int idx,
    const uint8_t key[SEAT_HASH_LEN], const uint8_t old[SEAT_HASH_LEN])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_PLAYER_SEAT, "save_seat")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, "save_seat"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, idx) ||
	    sqlite3_bind_blob(st, 3, key, SEAT_HASH_LEN, SQLITE_STATIC) !=
	    SQLITE_OK ||
	    sqlite3_bind_blob(st, 4, old, SEAT_HASH_LEN, SQLITE_STATIC) !=
	    SQLITE_OK)
		return sql_stmt_err(s, st, "save_seat");
	return update_run(s, st, "save_seat");
}
