/*
 * The PostgreSQL backend's writes of a game (store/backend.h, "an
 * optimistic backend"): each one statement of pg_stmt.c, checked against
 * the version (moves, stamp) of the snapshot it was computed from, and
 * putting a new stamp.  Inside the caller's transaction it is queued
 * (pg_batch.c) and its outcome comes with the COMMIT; outside one, it is
 * a transaction of its own, run now.
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

/* A text of the rows (pointer and length) as a parameter. */
static const char *
text_param(char *buf, size_t size, const char *p, size_t len)
{
	if (p == NULL)
		return NULL;
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return buf;
}

/* Queued in the transaction, or run alone now (kind: how its result
 * reads; base: the stamp it expects, stamp: the one it puts). */
static int
write_stmt(struct pg_store *s, const char *op, enum pg_stmt_id id, int n,
    const char *const *params, enum pg_qkind kind, const char *game,
    int64_t seq, int64_t base, int64_t stamp)
{
	struct pg_q	 q;

	if (!s->open)
		return pg_write_alone(s, op, id, n, params, kind);
	memset(&q, 0, sizeof(q));
	q.kind = (uint8_t)kind;
	q.seq = seq;
	q.base = base;
	q.stamp = stamp;
	str_copy(q.id, sizeof(q.id), game);
	return pg_queue(s, op, id, n, params, &q);
}

/* ------------------------------------------------------------ create */

/* 1 when a game of that id is committed, 0 when not, -1 (STORE_ERR). */
static int
pg_exists(struct pg_store *s, const char *id)
{
	const char	*params[1] = { id };
	PGresult	*r;
	int		 rc;

	if ((r = pg_rd_one(s, "create_game", PS_EXISTS, 1, params)) == NULL)
		return STORE_ERR;
	rc = PQntuples(r) > 0;
	PQclear(r);
	return rc;
}

struct create_arrays {
	struct pg_buf	 idx, name, bot, seat;
	struct pg_buf	 tp, tt, tpos, tpts;
	struct pg_buf	 cell, target;
};

static void
arrays_free(struct create_arrays *a)
{
	pg_buf_free(&a->idx);
	pg_buf_free(&a->name);
	pg_buf_free(&a->bot);
	pg_buf_free(&a->seat);
	pg_buf_free(&a->tp);
	pg_buf_free(&a->tt);
	pg_buf_free(&a->tpos);
	pg_buf_free(&a->tpts);
	pg_buf_free(&a->cell);
	pg_buf_free(&a->target);
}

static void
players_params(struct create_arrays *a, const struct row_player *p, int np,
    const char **params)
{
	int	 i;

	pg_buf_start(&a->idx);
	pg_buf_start(&a->name);
	pg_buf_start(&a->bot);
	pg_buf_start(&a->seat);
	for (i = 0; i < np; i++) {
		pg_buf_int(&a->idx, p[i].idx);
		pg_buf_text(&a->name, p[i].name, p[i].name_len);
		if (p[i].has_bot)
			pg_buf_int(&a->bot, p[i].bot);
		else
			pg_buf_null(&a->bot);
		if (p[i].seat != NULL)
			pg_buf_bytea(&a->seat, p[i].seat, p[i].seat_len);
		else
			pg_buf_null(&a->seat);
	}
	params[23] = pg_buf_end(&a->idx);
	params[24] = pg_buf_end(&a->name);
	params[25] = pg_buf_end(&a->bot);
	params[26] = pg_buf_end(&a->seat);
}

/* Token rows as four arrays: player, token, pos, points. */
static void
tokens_params(struct pg_buf b[4], const struct row_token *t, int nt,
    const char **params)
{
	int	 i;

	for (i = 0; i < 4; i++)
		pg_buf_start(&b[i]);
	for (i = 0; i < nt; i++) {
		pg_buf_int(&b[0], t[i].player);
		pg_buf_int(&b[1], t[i].token);
		pg_buf_int(&b[2], t[i].pos);
		pg_buf_int(&b[3], t[i].points);
	}
	for (i = 0; i < 4; i++)
		params[i] = pg_buf_end(&b[i]);
}

static void
cells_params(struct pg_buf *cell, struct pg_buf *target,
    const struct row_cell *c, int nc, const char **params)
{
	int	 i;

	pg_buf_start(cell);
	pg_buf_start(target);
	for (i = 0; i < nc; i++) {
		pg_buf_int(cell, c[i].cell);
		pg_buf_int(target, c[i].target);
	}
	params[0] = pg_buf_end(cell);
	params[1] = pg_buf_end(target);
}

/* The games row's columns, $1-$23, as the insert of PS_CREATE has them. */
struct game_params {
	char	 id[GAME_ID_MAX + 1];
	char	 n[20][PG_INT_MAX];
	char	 board[64];
	char	 deck[2048];
};

static void
game_params(struct game_params *g, const struct row_game *r, int64_t stamp,
    const char **p)
{
	int	 rules = r->cols & ROW_LUDO_RULES, board = r->cols & ROW_BOARD;

	p[0] = text_param(g->id, sizeof(g->id), r->id, r->id_len);
	p[1] = pg_int(g->n[0], r->kind);
	p[2] = pg_int(g->n[1], r->nplayers);
	p[3] = pg_int(g->n[2], r->turn);
	p[4] = pg_int(g->n[3], r->winner);
	p[5] = pg_int(g->n[4], r->aux);
	p[6] = pg_int(g->n[5], r->moves);
	p[7] = pg_int(g->n[6], r->created);
	p[8] = pg_int(g->n[7], r->updated);
	p[9] = rules ? pg_int(g->n[8], r->ludo_preset) : NULL;
	p[10] = rules ? pg_int(g->n[9], r->six_bonus) : NULL;
	p[11] = rules ? pg_int(g->n[10], r->capture_bonus) : NULL;
	p[12] = rules ? pg_int(g->n[11], r->three_sixes) : NULL;
	p[13] = board ? text_param(g->board, sizeof(g->board), r->board,
	    r->board_len) : NULL;
	p[14] = board ? pg_int(g->n[12], r->has_deck) : NULL;
	p[15] = r->cols & ROW_DECK ? text_param(g->deck, sizeof(g->deck),
	    r->deck, r->deck_len) : NULL;
	p[16] = pg_int(g->n[13], r->seats);
	p[17] = pg_int(g->n[14], r->dice);
	p[18] = pg_int(g->n[15], r->turn_timeout);
	p[19] = pg_int_or_null(g->n[16], r->deadline);
	p[20] = pg_int_or_null(g->n[17], r->roll);
	p[21] = r->roll != 0 ? pg_int(g->n[18], r->roll_player) : NULL;
	p[22] = pg_int(g->n[19], stamp);
}

/* A match's parameters after the create's, $34-$39 (PS_MATCH). */
struct match_params {
	struct pg_buf	 tid, tseat, sidx, sacct;
	char		 n[2][PG_INT_MAX];
};

static void
match_params(struct match_params *mp, const struct store_match *m,
    const char **params)
{
	int	 i;

	pg_buf_start(&mp->tid);
	pg_buf_start(&mp->tseat);
	pg_buf_start(&mp->sidx);
	pg_buf_start(&mp->sacct);
	for (i = 0; i < m->n; i++) {
		pg_buf_int(&mp->tid, m->tickets[i]);
		pg_buf_int(&mp->tseat, m->seats[i]);
	}
	for (i = 0; i < GAME_MAX_PLAYERS; i++)
		if (m->accounts[i] != NULL) {
			pg_buf_int(&mp->sidx, i);
			pg_buf_text(&mp->sacct, m->accounts[i],
			    strlen(m->accounts[i]));
		}
	params[33] = pg_buf_end(&mp->tid);
	params[34] = pg_buf_end(&mp->tseat);
	params[35] = pg_int(mp->n[0], m->n);
	params[36] = pg_buf_end(&mp->sidx);
	params[37] = pg_buf_end(&mp->sacct);
	params[38] = pg_int(mp->n[1], m->ended);
}

static void
match_params_free(struct match_params *mp)
{
	pg_buf_free(&mp->tid);
	pg_buf_free(&mp->tseat);
	pg_buf_free(&mp->sidx);
	pg_buf_free(&mp->sacct);
}

/*
 * A taken id is found on the read connection (committed games are never
 * deleted); one being created by another node at this moment, or by an
 * earlier request of this transaction, makes the INSERT do nothing: a
 * conflict, and the request run again finds it taken.  A match is the
 * same create with its tickets (m), which makes nothing either when a
 * ticket is no longer waiting.
 */
static int
create_or_match(struct store *st, const struct row_game *r,
    const struct row_player *pl, int np, const struct row_token *tk, int nt,
    const struct row_cell *cl, int nc, const struct store_match *m,
    int64_t *stamp_out)
{
	struct pg_store		*s = to_pg(st);
	struct create_arrays	 a;
	struct match_params	 mp;
	struct game_params	*g;
	const char		*params[39];
	struct pg_buf		 tb[4];
	int			 rc;

	/* A match's id is the matchmaker's, drawn at random: a round trip
	 * per game to look for it would cost the matcher more than the
	 * conflict it never meets (its INSERT then makes nothing). */
	if (m == NULL && (rc = pg_exists(s, r->id)) != 0)
		return rc == 1 ? STORE_EXISTS : STORE_ERR;
	memset(&a, 0, sizeof(a));
	memset(&mp, 0, sizeof(mp));
	memset(tb, 0, sizeof(tb));
	g = xmalloc(sizeof(*g));
	*stamp_out = pg_unique(s);
	game_params(g, r, *stamp_out, params);
	players_params(&a, pl, np, params);
	tokens_params(tb, tk, nt, params + 27);
	cells_params(&a.cell, &a.target, cl, nc, params + 31);
	if (m != NULL) {
		match_params(&mp, m, params);
		rc = write_stmt(s, "match", PS_MATCH, 39, params, PQ_CREATE,
		    g->id, 0, 0, *stamp_out);
	} else
		rc = write_stmt(s, "create_game", PS_CREATE, 33, params,
		    PQ_CREATE, g->id, 0, 0, *stamp_out);
	arrays_free(&a);
	match_params_free(&mp);
	pg_buf_free(&tb[0]);
	pg_buf_free(&tb[1]);
	pg_buf_free(&tb[2]);
	pg_buf_free(&tb[3]);
	free(g);
	return rc == STORE_NOTFOUND && m == NULL ? STORE_EXISTS : rc;
}

int
pg_create(struct store *st, const struct row_game *r,
    const struct row_player *pl, int np, const struct row_token *tk, int nt,
    const struct row_cell *cl, int nc, int64_t *stamp_out)
{
	return create_or_match(st, r, pl, np, tk, nt, cl, nc, NULL,
	    stamp_out);
}

int
pg_match(struct store *st, const struct row_game *r,
    const struct row_player *pl, int np, const struct row_token *tk, int nt,
    const struct row_cell *cl, int nc, const struct store_match *m,
    int64_t *stamp_out)
{
	return create_or_match(st, r, pl, np, tk, nt, cl, nc, m, stamp_out);
}

/* -------------------------------------------------------------- turn */

struct turn_params {
	char	 id[GAME_ID_MAX + 1];
	char	 n[15][PG_INT_MAX];
};

int
pg_turn(struct store *st, const struct row_game *r, int64_t moves,
    int64_t stamp, const struct row_token *tk, int nt, const struct move *mv,
    int64_t *stamp_out)
{
	struct pg_store		*s = to_pg(st);
	struct turn_params	 t;
	struct pg_buf		 tb[4];
	const char		*p[23];
	int			 rc, i;

	memset(tb, 0, sizeof(tb));
	*stamp_out = pg_unique(s);
	p[0] = text_param(t.id, sizeof(t.id), r->id, r->id_len);
	p[1] = pg_int(t.n[0], moves);
	p[2] = pg_int(t.n[1], stamp);
	p[3] = pg_int(t.n[2], r->turn);
	p[4] = pg_int(t.n[3], r->winner);
	p[5] = pg_int(t.n[4], r->aux);
	p[6] = pg_int(t.n[5], r->moves);
	p[7] = pg_int(t.n[6], r->updated);
	p[8] = pg_int_or_null(t.n[7], r->deadline);
	p[9] = pg_int_or_null(t.n[8], r->roll);
	p[10] = r->roll != 0 ? pg_int(t.n[9], r->roll_player) : NULL;
	p[11] = pg_int(t.n[10], *stamp_out);
	tokens_params(tb, tk, nt, p + 12);
	p[16] = mv->player;
	p[17] = mv->action;
	p[18] = mv->result;
	p[19] = pg_int(t.n[11], mv->at);
	p[20] = pg_int(t.n[12], mv->by);
	/* A turn alone is its own transaction: any number of its own. */
	p[21] = pg_int(t.n[13], s->open ? s->txn : pg_unique(s));
	p[22] = pg_int(t.n[14], nt);
	rc = write_stmt(s, "save_turn", PS_TURN, 23, p, PQ_TURN, t.id,
	    r->moves, stamp, *stamp_out);
	for (i = 0; i < 4; i++)
		pg_buf_free(&tb[i]);
	return rc;
}

/* ----------------------------------------------------- setup, pending */

int
pg_setup(struct store *st, const struct row_game *r, int64_t stamp,
    const struct row_cell *cl, int nc, int64_t *stamp_out)
{
	struct pg_store	*s = to_pg(st);
	struct pg_buf	 cell = { NULL, 0, 0 }, target = { NULL, 0, 0 };
	char		 id[GAME_ID_MAX + 1], n[4][PG_INT_MAX];
	const char	*p[7];
	int		 rc;

	*stamp_out = pg_unique(s);
	p[0] = text_param(id, sizeof(id), r->id, r->id_len);
	p[1] = pg_int(n[0], r->moves);
	p[2] = pg_int(n[1], stamp);
	p[3] = pg_int(n[2], r->updated);
	p[4] = pg_int(n[3], *stamp_out);
	cells_params(&cell, &target, cl, nc, p + 5);
	rc = write_stmt(s, "save_setup", PS_SETUP, 7, p, PQ_SETUP, id, 0,
	    stamp, *stamp_out);
	pg_buf_free(&cell);
	pg_buf_free(&target);
	return rc;
}

int
pg_pending(struct store *st, const struct row_game *r, int64_t moves,
    int64_t stamp, int64_t *stamp_out)
{
	struct pg_store	*s = to_pg(st);
	char		 id[GAME_ID_MAX + 1], n[6][PG_INT_MAX];
	const char	*p[7];

	*stamp_out = pg_unique(s);
	p[0] = text_param(id, sizeof(id), r->id, r->id_len);
	p[1] = pg_int(n[0], moves);
	p[2] = pg_int(n[1], stamp);
	p[3] = pg_int_or_null(n[2], r->deadline);
	p[4] = pg_int_or_null(n[3], r->roll);
	p[5] = r->roll != 0 ? pg_int(n[4], r->roll_player) : NULL;
	p[6] = pg_int(n[5], *stamp_out);
	return write_stmt(s, "save_opts", PS_PENDING, 7, p, PQ_PENDING, id, 0,
	    stamp, *stamp_out);
}

/* Found out after a lost COMMIT, and counted, as a setup is: by the
 * stamp it puts. */
int
pg_seat(struct store *st, const char *id, int64_t moves, int64_t stamp,
    int idx, const uint8_t key[SEAT_HASH_LEN],
    const uint8_t old[SEAT_HASH_LEN], int64_t *stamp_out)
{
	struct pg_store	*s = to_pg(st);
	char		 n[4][PG_INT_MAX], k[2 * SEAT_HASH_LEN + 3];
	char		 o[2 * SEAT_HASH_LEN + 3];
	const char	*p[7];

	*stamp_out = pg_unique(s);
	p[0] = id;
	p[1] = pg_int(n[0], moves);
	p[2] = pg_int(n[1], stamp);
	p[3] = pg_int(n[2], *stamp_out);
	p[4] = pg_int(n[3], idx);
	p[5] = pg_bytea(k, key, SEAT_HASH_LEN);
	p[6] = pg_bytea(o, old, SEAT_HASH_LEN);
	return write_stmt(s, "save_seat", PS_SEAT, 7, p, PQ_SETUP, id, 0,
	    stamp, *stamp_out);
}

/* Only inside the caller's transaction: a read outside one has read the
 * row's version already. */
int
pg_check(struct store *st, const char *id, int64_t moves, int64_t stamp)
{
	struct pg_store	*s = to_pg(st);
	char		 n[2][PG_INT_MAX];
	const char	*p[3];

	if (!s->open)
		return 0;
	p[0] = id;
	p[1] = pg_int(n[0], moves);
	p[2] = pg_int(n[1], stamp);
	return write_stmt(s, "check", PS_CHECK, 3, p, PQ_CHECK, id, 0, stamp,
	    0);
}

/* ------------------------------------------------------------ import */

int
pg_import_moves(struct store *st, const char *id, int64_t stamp,
    const struct move *mv, int64_t n)
{
	struct pg_store	*s = to_pg(st);
	struct pg_buf	 b[6];
	char		 v[PG_INT_MAX];
	const char	*p[8];
	int64_t		 i;
	int		 rc, k;

	memset(b, 0, sizeof(b));
	for (k = 0; k < 6; k++)
		pg_buf_start(&b[k]);
	for (i = 0; i < n; i++) {
		pg_buf_int(&b[0], mv[i].seq);
		pg_buf_text(&b[1], mv[i].player, strlen(mv[i].player));
		pg_buf_text(&b[2], mv[i].action, strlen(mv[i].action));
		pg_buf_text(&b[3], mv[i].result, strlen(mv[i].result));
		pg_buf_int(&b[4], mv[i].at);
		pg_buf_int(&b[5], mv[i].by);
	}
	p[0] = id;
	p[1] = pg_int(v, stamp);
	for (k = 0; k < 6; k++)
		p[2 + k] = pg_buf_end(&b[k]);
	rc = write_stmt(s, "import", PS_IMPORT, 8, p, PQ_IMPORT, id, 0, stamp,
	    stamp);
	for (k = 0; k < 6; k++)
		pg_buf_free(&b[k]);
	/* An INSERT ... SELECT that found the game gone is no conflict of
	 * a copy's: the copy is the only writer. */
	return rc == STORE_NOTFOUND ? 0 : rc;
}

/* ------------------------------------------------------------ delete */

/* Puts no stamp: a delete's outcome lost with the connection cannot be
 * found out (the row is gone either way), and is reported so. */
int
pg_delete_game(struct store *st, const char *id, int64_t moves,
    int64_t stamp)
{
	struct pg_store	*s = to_pg(st);
	char		 n[2][PG_INT_MAX];
	const char	*p[3];

	p[0] = id;
	p[1] = pg_int(n[0], moves);
	p[2] = pg_int(n[1], stamp);
	return write_stmt(s, "delete_game", PS_DELETE, 3, p, PQ_DELETE, id, 0,
	    stamp, 0);
}
