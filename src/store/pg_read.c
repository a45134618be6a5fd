/*
 * The PostgreSQL backend's reads, each one round trip on the read
 * connection: committed rows only.  A game's rows come from its four
 * tables in one pipeline when its games row is asked for, and the
 * players, tokens and jumps the core asks for next are those.
 *
 * A read inside the caller's transaction cannot see what that
 * transaction writes (pg_int.h): a read of a game it writes, or a list
 * or count while it creates games, dooms the request, which is run again
 * once those writes are committed.
 */
#include <stdio.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

#define META_SECRET	"seat-secret"

/* Columns of PS_GAME (GAME_COLS). */
enum {
	GC_ID, GC_KIND, GC_NPLAYERS, GC_TURN, GC_WINNER, GC_AUX, GC_MOVES,
	GC_CREATED, GC_UPDATED, GC_PRESET, GC_SIX_BONUS, GC_CAPTURE_BONUS,
	GC_THREE_SIXES, GC_BOARD, GC_HAS_DECK, GC_DECK, GC_SEATS, GC_DICE,
	GC_TIMEOUT, GC_DEADLINE, GC_ROLL, GC_ROLL_PLAYER, GC_STAMP, GC_N
};

/* A read of the game's rows inside a transaction that writes it. */
static void
doom_if_written(struct pg_store *s, const char *id)
{
	if (s->open && pg_writes_game(s, id))
		pg_doom(s, id);
}

static int
corrupt(struct pg_store *s, const char *op, const char *what)
{
	return store_set_err(&s->store, op, what);
}

/* An int column into an int; -1 if it is none or out of range. */
static int
col_int(const PGresult *r, int row, int col, int *v)
{
	int64_t	 x;

	if (pg_col_int(r, row, col, &x) != 0 || x < INT32_MIN ||
	    x > INT32_MAX)
		return -1;
	*v = (int)x;
	return 0;
}

static int
text_col(const PGresult *r, int col, const char **p, size_t *len)
{
	if (PQgetisnull(r, 0, col)) {
		*p = NULL;
		*len = 0;
		return 0;
	}
	*p = PQgetvalue(r, 0, col);
	*len = (size_t)PQgetlength(r, 0, col);
	return 0;
}

static int
game_row_of(const PGresult *res, struct row_game *r)
{
	int	 bad = 0;

	memset(r, 0, sizeof(*r));
	text_col(res, GC_ID, &r->id, &r->id_len);
	text_col(res, GC_BOARD, &r->board, &r->board_len);
	text_col(res, GC_DECK, &r->deck, &r->deck_len);
	bad |= col_int(res, 0, GC_KIND, &r->kind);
	bad |= col_int(res, 0, GC_NPLAYERS, &r->nplayers);
	bad |= col_int(res, 0, GC_TURN, &r->turn);
	bad |= col_int(res, 0, GC_WINNER, &r->winner);
	bad |= pg_col_int(res, 0, GC_AUX, &r->aux);
	bad |= pg_col_int(res, 0, GC_MOVES, &r->moves);
	bad |= pg_col_int(res, 0, GC_CREATED, &r->created);
	bad |= pg_col_int(res, 0, GC_UPDATED, &r->updated);
	bad |= col_int(res, 0, GC_PRESET, &r->ludo_preset);
	bad |= col_int(res, 0, GC_SIX_BONUS, &r->six_bonus);
	bad |= col_int(res, 0, GC_CAPTURE_BONUS, &r->capture_bonus);
	bad |= col_int(res, 0, GC_THREE_SIXES, &r->three_sixes);
	bad |= col_int(res, 0, GC_HAS_DECK, &r->has_deck);
	bad |= col_int(res, 0, GC_SEATS, &r->seats);
	bad |= col_int(res, 0, GC_DICE, &r->dice);
	bad |= pg_col_int(res, 0, GC_TIMEOUT, &r->turn_timeout);
	bad |= pg_col_int(res, 0, GC_DEADLINE, &r->deadline);
	bad |= pg_col_int(res, 0, GC_ROLL, &r->roll);
	bad |= pg_col_int(res, 0, GC_ROLL_PLAYER, &r->roll_player);
	bad |= pg_col_int(res, 0, GC_STAMP, &r->stamp);
	return bad != 0 || r->id == NULL ? -1 : 0;
}

/*
 * The four tables of a game, one round trip, in one snapshot (a read-only
 * REPEATABLE READ transaction around them).  A statement that fails
 * leaves that transaction aborted on the connection: it is dropped, and
 * made again for the next read.
 */
static int
load(struct pg_store *s, const char *id)
{
	static const enum pg_stmt_id q[6] = { PS_SNAP_BEGIN, PS_GAME,
	    PS_PLAYERS, PS_TOKENS, PS_JUMPS, PS_SNAP_END };
	const char	*params[1] = { id };
	PGresult	*res[6] = { NULL };
	int		 i;

	pg_load_forget(s);
	if (pg_rd_same(s, "load_game", q, 6, 1, params, res) != 0) {
		if (s->rd.pc != NULL &&
		    PQtransactionStatus(s->rd.pc) != PQTRANS_IDLE)
			pg_drop_rd(s);
		return STORE_ERR;
	}
	for (i = 0; i < 4; i++) {
		s->load[i] = res[i + 1];
		res[i + 1] = NULL;
	}
	pg_clear(res, 6);
	str_copy(s->load_id, sizeof(s->load_id), id);
	return 0;
}

int
pg_read_game(struct store *st, const char *id, store_row_game_cb cb,
    void *arg)
{
	struct pg_store	*s = to_pg(st);
	struct row_game	 r;

	doom_if_written(s, id);
	if (load(s, id) != 0)
		return STORE_ERR;
	if (PQntuples(s->load[0]) == 0)
		return STORE_NOTFOUND;
	if (PQnfields(s->load[0]) != GC_N || game_row_of(s->load[0], &r) != 0)
		return corrupt(s, "load_game", "corrupt games row");
	return cb(arg, &r);
}

/* The result of the game last loaded, or NULL. */
static const PGresult *
loaded(struct pg_store *s, const char *id, int which)
{
	if (strcmp(s->load_id, id) != 0 || s->load[which] == NULL) {
		store_set_err(&s->store, "load_game", "rows read out of order");
		return NULL;
	}
	return s->load[which];
}

int
pg_read_players(struct store *st, const char *id, store_row_player_cb cb,
    void *arg)
{
	struct pg_store		*s = to_pg(st);
	const PGresult		*res;
	struct row_player	 r;
	uint8_t			 seat[SEAT_HASH_LEN];
	int			 i, n, ret;

	if ((res = loaded(s, id, 1)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(res); i++) {
		memset(&r, 0, sizeof(r));
		if (col_int(res, i, 0, &r.idx) != 0 ||
		    pg_col_int(res, i, 2, &r.bot) != 0)
			return corrupt(s, "load_game", "corrupt players row");
		r.name = PQgetvalue(res, i, 1);
		r.name_len = (size_t)PQgetlength(res, i, 1);
		r.has_bot = !PQgetisnull(res, i, 2);
		if (!PQgetisnull(res, i, 3)) {
			n = pg_col_bytea(res, i, 3, seat, sizeof(seat));
			if (n < 0)
				return corrupt(s, "load_game",
				    "corrupt players row");
			r.seat = seat;
			r.seat_len = (size_t)n;
		}
		if ((ret = cb(arg, &r)) != 0)
			return ret;
	}
	return 0;
}

int
pg_read_tokens(struct store *st, const char *id, store_row_token_cb cb,
    void *arg)
{
	struct pg_store		*s = to_pg(st);
	const PGresult		*res;
	struct row_token	 r;
	int			 i, ret;

	if ((res = loaded(s, id, 2)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(res); i++) {
		if (col_int(res, i, 0, &r.player) != 0 ||
		    col_int(res, i, 1, &r.token) != 0 ||
		    col_int(res, i, 2, &r.pos) != 0 ||
		    col_int(res, i, 3, &r.points) != 0)
			return corrupt(s, "load_game", "corrupt token row");
		if ((ret = cb(arg, &r)) != 0)
			return ret;
	}
	return 0;
}

int
pg_read_cells(struct store *st, const char *id, store_row_cell_cb cb,
    void *arg)
{
	struct pg_store		*s = to_pg(st);
	const PGresult		*res;
	struct row_cell		 r;
	int			 i, ret;

	if ((res = loaded(s, id, 3)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(res); i++) {
		if (col_int(res, i, 0, &r.cell) != 0 ||
		    col_int(res, i, 1, &r.target) != 0)
			return corrupt(s, "load_game", "corrupt jumps row");
		if ((ret = cb(arg, &r)) != 0)
			return ret;
	}
	return 0;
}

int
pg_version(struct store *st, const char *id, int64_t *moves, int64_t *stamp)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1] = { id };
	PGresult	*r;
	int		 rc = STORE_NOTFOUND;

	if ((r = pg_rd_one(s, "load_game", PS_VERSION, 1, params)) == NULL)
		return STORE_ERR;
	if (PQntuples(r) == 1)
		rc = pg_col_int(r, 0, 0, moves) != 0 ||
		    pg_col_int(r, 0, 1, stamp) != 0 ?
		    corrupt(s, "load_game", "corrupt games row") : 0;
	PQclear(r);
	return rc;
}

/* ------------------------------------------------------------ secret */

/* Outside the caller's transaction, at once: the secret is the
 * database's, made once and never changed, whatever becomes of the
 * create that asked for it. */
int
pg_secret_read(struct store *st, uint8_t out[STORE_SECRET_LEN])
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1] = { META_SECRET };
	PGresult	*r;
	int		 rc = 1;

	if ((r = pg_rd_one(s, "secret", PS_META_SELECT, 1, params)) == NULL)
		return STORE_ERR;
	if (PQntuples(r) == 1)
		rc = pg_col_bytea(r, 0, 0, out, STORE_SECRET_LEN) ==
		    STORE_SECRET_LEN ? 0 :
		    corrupt(s, "secret", "corrupt seat secret");
	PQclear(r);
	return rc;
}

int
pg_secret_insert(struct store *st, const uint8_t fresh[STORE_SECRET_LEN])
{
	struct pg_store	*s = to_pg(st);
	char		 hex[2 * STORE_SECRET_LEN + 3];
	const char	*params[2];
	PGresult	*r;

	params[0] = META_SECRET;
	params[1] = pg_bytea(hex, fresh, STORE_SECRET_LEN);
	if ((r = pg_rd_one(s, "secret", PS_META_INSERT, 2, params)) == NULL)
		return STORE_ERR;
	PQclear(r);
	return 0;
}

/* --------------------------------------------------------- deadlines */

static int
deadlines_of(struct pg_store *s, PGresult *r, store_deadline_cb cb,
    void *arg)
{
	int64_t	 at;
	int	 i, ret = 0;

	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (pg_col_int(r, i, 1, &at) != 0) {
			ret = corrupt(s, "list_deadlines", "corrupt deadline");
			break;
		}
		ret = cb(arg, PQgetvalue(r, i, 0), at);
	}
	PQclear(r);
	return ret;
}

int
pg_list_deadlines(struct store *st, store_deadline_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	PGresult	*r;

	if ((r = pg_rd_one(s, "list_deadlines", PS_DEADLINES, 0, NULL)) ==
	    NULL)
		return STORE_ERR;
	return deadlines_of(s, r, cb, arg);
}

int
pg_deadlines_before(struct store *st, int64_t before, int64_t limit,
    store_deadline_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	char		 a[PG_INT_MAX], b[PG_INT_MAX];
	const char	*params[2];
	PGresult	*r;

	params[0] = pg_int(a, before);
	params[1] = limit < 0 ? NULL : pg_int(b, limit);
	if ((r = pg_rd_one(s, "list_deadlines", PS_DEADLINES_BEFORE, 2,
	    params)) == NULL)
		return STORE_ERR;
	return deadlines_of(s, r, cb, arg);
}

/* ----------------------------------------------------------- history */

/* A history row of r from column c on (seq, player, action, result, at,
 * automatic). */
static int
move_of(const PGresult *r, int row, int c, struct move *mv)
{
	int64_t	 by;

	memset(mv, 0, sizeof(*mv));
	if (pg_col_int(r, row, c, &mv->seq) != 0 ||
	    pg_col_int(r, row, c + 4, &mv->at) != 0 ||
	    pg_col_int(r, row, c + 5, &by) != 0 ||
	    (size_t)PQgetlength(r, row, c + 1) >= sizeof(mv->player) ||
	    (size_t)PQgetlength(r, row, c + 2) >= sizeof(mv->action) ||
	    (size_t)PQgetlength(r, row, c + 3) >= sizeof(mv->result))
		return -1;
	mv->by = (int)by;
	str_copy(mv->player, sizeof(mv->player), PQgetvalue(r, row, c + 1));
	str_copy(mv->action, sizeof(mv->action), PQgetvalue(r, row, c + 2));
	str_copy(mv->result, sizeof(mv->result), PQgetvalue(r, row, c + 3));
	return 0;
}

int
pg_history(struct store *st, const char *id, int64_t from, int64_t count,
    store_move_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	char		 a[PG_INT_MAX], b[PG_INT_MAX];
	const char	*params[3];
	struct move	 mv;
	PGresult	*r;
	int		 i, ret = 0;

	doom_if_written(s, id);
	params[0] = id;
	params[1] = pg_int(a, from);
	params[2] = count < 0 ? NULL : pg_int(b, count);
	if ((r = pg_rd_one(s, "history", PS_HISTORY, 3, params)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (move_of(r, i, 0, &mv) != 0) {
			ret = corrupt(s, "history", "corrupt history row");
			break;
		}
		ret = cb(arg, &mv);
	}
	PQclear(r);
	return ret;
}

void
pg_since_args(struct pg_buf *gb, struct pg_buf *ab, size_t n,
    const char *const *ids, const int64_t *after)
{
	size_t	 i;

	pg_buf_start(gb);
	pg_buf_start(ab);
	for (i = 0; i < n; i++) {
		pg_buf_text(gb, ids[i], strlen(ids[i]));
		pg_buf_int(ab, after[i]);
	}
}

int
pg_history_since(struct store *st, size_t n, const char *const *ids,
    const int64_t *after, int64_t limit, store_game_move_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	struct pg_buf	 gb = { NULL, 0, 0 }, ab = { NULL, 0, 0 };
	char		 l[PG_INT_MAX];
	const char	*params[3];
	PGresult	*r;
	int		 ret;

	pg_since_args(&gb, &ab, n, ids, after);
	params[0] = pg_buf_end(&gb);
	params[1] = pg_buf_end(&ab);
	params[2] = limit < 0 ? NULL : pg_int(l, limit);
	r = pg_rd_one(s, "history", PS_SINCE, 3, params);
	pg_buf_free(&gb);
	pg_buf_free(&ab);
	if (r == NULL)
		return STORE_ERR;
	ret = pg_since_walk(s, r, cb, arg);
	PQclear(r);
	return ret;
}

int
pg_since_walk(struct pg_store *s, const PGresult *r, store_game_move_cb cb,
    void *arg)
{
	struct move	 mv;
	int		 k, ret = 0;

	for (k = 0; k < PQntuples(r) && ret == 0; k++) {
		if (move_of(r, k, 1, &mv) != 0)
			return corrupt(s, "history", "corrupt history row");
		ret = cb(arg, PQgetvalue(r, k, 0), &mv);
	}
	return ret;
}

/* ----------------------------------------------------- lists, counts */

int
pg_list_games(struct store *st, enum game_kind kind, const char *after,
    int64_t limit, store_id_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	char		 a[PG_INT_MAX], b[PG_INT_MAX];
	const char	*params[3];
	int64_t		 k;
	PGresult	*r;
	int		 i, ret = 0;

	doom_if_written(s, NULL);
	/* Every id has at least one character, so "" lists them all. */
	params[0] = after != NULL ? after : "";
	params[1] = limit < 0 ? NULL : pg_int(a, limit);
	params[2] = pg_int(b, kind);
	r = pg_rd_one(s, "list_games", kind == KIND_NONE ? PS_LIST_ALL :
	    PS_LIST_KIND, kind == KIND_NONE ? 2 : 3, params);
	if (r == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (pg_col_int(r, i, 1, &k) != 0) {
			ret = corrupt(s, "list_games", "corrupt games row");
			break;
		}
		ret = cb(arg, PQgetvalue(r, i, 0), (enum game_kind)k);
	}
	PQclear(r);
	return ret;
}

int
pg_count_games(struct store *st, int64_t counts[KIND_COUNT])
{
	struct pg_store	*s = to_pg(st);
	PGresult	*r;
	int64_t		 k, n;
	int		 i;

	for (i = 0; i < KIND_COUNT; i++)
		counts[i] = 0;
	doom_if_written(s, NULL);
	if ((r = pg_rd_one(s, "count_games", PS_COUNT, 0, NULL)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r); i++) {
		if (pg_col_int(r, i, 0, &k) != 0 ||
		    pg_col_int(r, i, 1, &n) != 0)
			continue;
		if (k > KIND_NONE && k < KIND_COUNT)
			counts[k] = n;
		counts[KIND_NONE] += n;
	}
	PQclear(r);
	return 0;
}

int
pg_list_finished(struct store *st, int64_t before, int64_t limit,
    store_id_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	char		 a[PG_INT_MAX], b[PG_INT_MAX];
	const char	*params[2];
	int64_t		 k;
	PGresult	*r;
	int		 i, ret = 0;

	doom_if_written(s, NULL);
	params[0] = pg_int(a, before);
	params[1] = limit < 0 ? NULL : pg_int(b, limit);
	if ((r = pg_rd_one(s, "list_finished", PS_FINISHED, 2, params)) ==
	    NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (pg_col_int(r, i, 1, &k) != 0) {
			ret = corrupt(s, "list_finished", "corrupt games row");
			break;
		}
		ret = cb(arg, PQgetvalue(r, i, 0), (enum game_kind)k);
	}
	PQclear(r);
	return ret;
}

int
pg_count_finished(struct store *st, int64_t *n)
{
	struct pg_store	*s = to_pg(st);
	PGresult	*r;
	int		 rc = 0;

	*n = 0;
	doom_if_written(s, NULL);
	if ((r = pg_rd_one(s, "count_finished", PS_FINISHED_COUNT, 0,
	    NULL)) == NULL)
		return STORE_ERR;
	if (PQntuples(r) != 1 || pg_col_int(r, 0, 0, n) != 0)
		rc = corrupt(s, "count_finished", "no count");
	PQclear(r);
	return rc;
}

int64_t
pg_size(struct store *st)
{
	struct pg_store	*s = to_pg(st);
	PGresult	*r;
	int64_t		 v = -1;

	if ((r = pg_rd_one(s, "size", PS_SIZE, 0, NULL)) == NULL)
		return -1;
	if (PQntuples(r) != 1 || pg_col_int(r, 0, 0, &v) != 0)
		v = -1;
	PQclear(r);
	return v;
}

int
pg_clear_all(struct store *st)
{
	struct pg_store	*s = to_pg(st);
	PGresult	*r;

	if ((r = pg_rd_one(s, "clear", PS_CLEAR, 0, NULL)) == NULL)
		return STORE_ERR;
	PQclear(r);
	/* The accounts' keys are hashed with the secret in meta: they go
	 * with it (the bots' accounts, which have none, stay). */
	if ((r = pg_rd_one(s, "clear", PS_CLEAR_ACCOUNTS, 0, NULL)) == NULL)
		return STORE_ERR;
	PQclear(r);
	return 0;
}
