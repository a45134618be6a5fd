/*
 * The PostgreSQL backend's lobby rows (sql/pg/003_lobby.sql): accounts,
 * ratings, tickets, the seats accounts hold, and the lock that makes
 * one node at a time the matcher of a queue.
 *
 * The writes are queued in the transaction like a game's (pg_batch.c),
 * each keyed so that the queue, sorted, takes the rows' locks in one
 * order on every node (pg_int.h, PG_KEY_LOBBY); what each depends on is
 * checked in the statement itself, and a statement that finds it
 * changed returns no row: a conflict, and its request runs again.  A
 * read inside the transaction of a row the transaction writes cannot see
 * that write: it dooms its request instead, as a game's does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

#define DOUBLE_MAX	32		/* "%.17g" of any double */
#define IDS_DRAWN	32		/* ticket ids per round trip */

/* A statement of the lobby's: queued, or alone now (STORE_NOTFOUND when
 * it returned no row). */
static int
lobby_stmt(struct pg_store *s, const char *op, enum pg_stmt_id id, int n,
    const char *const *params, enum pg_qkind kind, const char *key,
    int64_t seq)
{
	struct pg_q	 q;

	if (!s->open)
		return pg_write_alone(s, op, id, n, params, kind);
	memset(&q, 0, sizeof(q));
	q.kind = (uint8_t)kind;
	q.seq = seq;
	str_copy(q.id, sizeof(q.id), key);
	return pg_queue(s, op, id, n, params, &q);
}

/* "!a" and the name: an account's rows (its own, its tickets' count). */
static const char *
account_key(char buf[PG_KEY_MAX], const char *name)
{
	snprintf(buf, PG_KEY_MAX, "%ca%s", PG_KEY_LOBBY, name);
	return buf;
}

static const char *
double_param(char buf[DOUBLE_MAX], double v)
{
	snprintf(buf, DOUBLE_MAX, "%.17g", v);
	return buf;
}

static int
col_double(const PGresult *r, int row, int col, double *v)
{
	char	*end;

	*v = 0;
	if (PQgetisnull(r, row, col))
		return -1;
	*v = strtod(PQgetvalue(r, row, col), &end);
	return *end == '\0' && isfinite(*v) ? 0 : -1;
}

static int
col_text(const PGresult *r, int row, int col, char *out, size_t len)
{
	size_t	 n;

	if (PQgetisnull(r, row, col) ||
	    (n = (size_t)PQgetlength(r, row, col)) >= len)
		return -1;
	memcpy(out, PQgetvalue(r, row, col), n);
	out[n] = '\0';
	return 0;
}

/* A read that the open transaction's writes would change. */
static int
doomed_read(struct pg_store *s, int written, const char *id)
{
	if (!s->open || !written)
		return 0;
	pg_doom(s, id);
	return 1;
}

static int
corrupt(struct pg_store *s, const char *op, const char *what)
{
	return store_set_err(&s->store, op, what);
}

/* ---------------------------------------------------------- accounts */

static int
account_read(struct store *st, const char *name, struct store_account *a)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1] = { name };
	char		 key[PG_KEY_MAX];
	PGresult	*r;
	int64_t		 v;
	int		 rc = 0;

	/* Doomed: what is returned is never used (run again). */
	if (doomed_read(s, pg_writes_game(s, account_key(key, name)), NULL))
		return STORE_NOTFOUND;
	if ((r = pg_rd_one(s, "account", PS_ACCOUNT_SELECT, 1, params)) ==
	    NULL)
		return STORE_ERR;
	if (PQntuples(r) == 0) {
		PQclear(r);
		return STORE_NOTFOUND;
	}
	if (col_text(r, 0, 0, a->name, sizeof(a->name)) != 0)
		rc = -1;
	if (!PQgetisnull(r, 0, 1)) {
		if (pg_col_bytea(r, 0, 1, a->key, STORE_KEY_HASH_LEN) !=
		    STORE_KEY_HASH_LEN)
			rc = -1;
		a->has_key = 1;
	}
	a->bot = -1;
	if (!PQgetisnull(r, 0, 2) && pg_col_int(r, 0, 2, &v) == 0)
		a->bot = (int)v;
	if (pg_col_int(r, 0, 3, &a->created) != 0)
		rc = -1;
	PQclear(r);
	return rc == 0 ? 0 : corrupt(s, "account", "corrupt account row");
}

static int
account_insert(struct store *st, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN], int64_t created)
{
	struct pg_store		*s = to_pg(st);
	struct store_account	 a;
	const char		*params[3];
	char			 k[PG_KEY_MAX], hex[2 * STORE_KEY_HASH_LEN + 3];
	char			 c[PG_INT_MAX];
	int			 rc;

	memset(&a, 0, sizeof(a));
	if ((rc = account_read(st, name, &a)) == 0) {
		store_set_err(st, "account", "name taken");
		return STORE_EXISTS;
	}
	if (rc == STORE_ERR)
		return STORE_ERR;
	params[0] = name;
	params[1] = pg_bytea(hex, key, STORE_KEY_HASH_LEN);
	params[2] = pg_int(c, created);
	rc = lobby_stmt(s, "account", PS_ACCOUNT_INSERT, 3, params, PQ_LOBBY,
	    account_key(k, name), 0);
	/* Alone: taken by another at this moment. */
	return rc == STORE_NOTFOUND ? STORE_EXISTS : rc;
}

static int
account_rekey(struct store *st, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN],
    const uint8_t old[STORE_KEY_HASH_LEN])
{
	struct pg_store	*s = to_pg(st);
	const char	*params[3];
	char		 k[PG_KEY_MAX], a[2 * STORE_KEY_HASH_LEN + 3];
	char		 b[2 * STORE_KEY_HASH_LEN + 3];

	params[0] = name;
	params[1] = pg_bytea(a, key, STORE_KEY_HASH_LEN);
	params[2] = pg_bytea(b, old, STORE_KEY_HASH_LEN);
	return lobby_stmt(s, "account_key", PS_ACCOUNT_REKEY, 3, params,
	    PQ_LOBBY, account_key(k, name), 0);
}

/* ----------------------------------------------------------- ratings */

static int
rating_row(const PGresult *r, int row, int col, struct store_rating *out)
{
	return col_double(r, row, col, &out->rating) != 0 ||
	    col_double(r, row, col + 1, &out->rd) != 0 ||
	    col_double(r, row, col + 2, &out->vol) != 0 ||
	    pg_col_int(r, row, col + 3, &out->games) != 0 ||
	    pg_col_int(r, row, col + 4, &out->won) != 0 ||
	    pg_col_int(r, row, col + 5, &out->updated) != 0 ? -1 : 0;
}

/* A read of ratings the transaction writes (a second game of the kind
 * ending in it) would compute the next on the wrong ones: doomed. */
static int
rating_read(struct store *st, const char *account, enum game_kind kind,
    struct store_rating *out)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[2];
	char		 k[PG_INT_MAX];
	PGresult	*r;
	int		 rc;

	if (doomed_read(s, pg_writes_seq(s, PS_RATINGS, kind), NULL))
		return STORE_NOTFOUND;
	params[0] = account;
	params[1] = pg_int(k, kind);
	if ((r = pg_rd_one(s, "rating", PS_RATING_SELECT, 2, params)) == NULL)
		return STORE_ERR;
	if (PQntuples(r) == 0) {
		PQclear(r);
		return STORE_NOTFOUND;
	}
	rc = rating_row(r, 0, 0, out);
	PQclear(r);
	return rc == 0 ? 0 : corrupt(s, "rating", "corrupt rating row");
}

static int
ratings_write(struct store *st, enum game_kind kind, int n,
    const char *const accounts[], const struct store_rating old[],
    const struct store_rating new[])
{
	struct pg_store	*s = to_pg(st);
	struct pg_buf	 b[8];
	const char	*params[10];
	char		 d[DOUBLE_MAX], k[PG_INT_MAX], c[PG_INT_MAX];
	char		 key[PG_KEY_MAX];
	int		 i, rc;

	for (i = 0; i < 8; i++) {
		memset(&b[i], 0, sizeof(b[i]));
		pg_buf_start(&b[i]);
	}
	for (i = 0; i < n; i++) {
		pg_buf_text(&b[0], accounts[i], strlen(accounts[i]));
		double_param(d, new[i].rating);
		pg_buf_text(&b[1], d, strlen(d));
		double_param(d, new[i].rd);
		pg_buf_text(&b[2], d, strlen(d));
		double_param(d, new[i].vol);
		pg_buf_text(&b[3], d, strlen(d));
		pg_buf_int(&b[4], new[i].games);
		pg_buf_int(&b[5], new[i].won);
		pg_buf_int(&b[6], new[i].updated);
		pg_buf_int(&b[7], old[i].games);
	}
	params[0] = pg_int(k, kind);
	for (i = 0; i < 8; i++)
		params[i + 1] = pg_buf_end(&b[i]);
	params[9] = pg_int(c, n);
	snprintf(key, sizeof(key), "%cr%d", PG_KEY_LOBBY, (int)kind);
	rc = lobby_stmt(s, "ratings", PS_RATINGS, 10, params, PQ_RATINGS, key,
	    kind);
	for (i = 0; i < 8; i++)
		pg_buf_free(&b[i]);
	return rc;
}

static int
leaderboard(struct store *st, enum game_kind kind, int64_t offset,
    int64_t limit, store_rating_cb cb, void *arg)
{
	struct pg_store		*s = to_pg(st);
	struct store_rating	 rt;
	const char		*params[3];
	char			 a[PG_INT_MAX], b[PG_INT_MAX], c[PG_INT_MAX];
	char			 name[GAME_ID_MAX + 1];
	PGresult		*r;
	int			 i, ret = 0;

	params[0] = pg_int(a, kind);
	params[1] = pg_int(b, offset);
	params[2] = limit < 0 ? NULL : pg_int(c, limit);
	if ((r = pg_rd_one(s, "leaderboard", PS_LEADERBOARD, 3, params)) ==
	    NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (col_text(r, i, 0, name, sizeof(name)) != 0 ||
		    rating_row(r, i, 1, &rt) != 0) {
			PQclear(r);
			return corrupt(s, "leaderboard", "corrupt rating row");
		}
		ret = cb(arg, offset + i + 1, name, &rt);
	}
	PQclear(r);
	return ret;
}

/* ----------------------------------------------------------- tickets */

/* PG_TICKET_COLS of row i into t: 0, or -1. */
static int
ticket_row(const PGresult *r, int i, struct store_ticket *t)
{
	int64_t	 v;
	int	 bad = 0;

	memset(t, 0, sizeof(*t));
	bad |= pg_col_int(r, i, 0, &t->id);
	bad |= col_text(r, i, 1, t->account, sizeof(t->account));
	bad |= pg_col_int(r, i, 2, &v);
	t->kind = (enum game_kind)v;
	bad |= col_text(r, i, 3, t->queue, sizeof(t->queue));
	bad |= pg_col_int(r, i, 4, &v);
	t->players_min = (int)v;
	bad |= pg_col_int(r, i, 5, &v);
	t->players_max = (int)v;
	bad |= col_double(r, i, 6, &t->rating);
	bad |= col_double(r, i, 7, &t->span);
	t->bots_after = -1;
	if (!PQgetisnull(r, i, 8))
		bad |= pg_col_int(r, i, 8, &t->bots_after);
	bad |= pg_col_int(r, i, 9, &t->joined);
	bad |= pg_col_int(r, i, 10, &v);
	t->state = (enum store_ticket_state)v;
	t->seat = -1;
	if (!PQgetisnull(r, i, 11)) {
		bad |= col_text(r, i, 11, t->game, sizeof(t->game));
		bad |= pg_col_int(r, i, 12, &v);
		t->seat = (int)v;
	}
	bad |= pg_col_int(r, i, 13, &t->ended);
	return bad ? -1 : 0;
}

/* The next ticket id: drawn from the sequence IDS_DRAWN at a time (the
 * ids are unique; a ticket's age is its joined time, not its id). */
static int
next_id(struct pg_store *s, int64_t *id)
{
	const char	*params[1];
	char		 n[PG_INT_MAX];
	PGresult	*r;
	int		 i, k;

	if (s->nids == 0) {
		params[0] = pg_int(n, IDS_DRAWN);
		if ((r = pg_rd_one(s, "ticket", PS_TICKET_IDS, 1, params)) ==
		    NULL)
			return STORE_ERR;
		for (i = PQntuples(r) - 1, k = 0; i >= 0 && k < IDS_DRAWN;
		    i--)
			if (pg_col_int(r, i, 0, &s->ids[k]) == 0)
				k++;
		PQclear(r);
		s->nids = k;
		if (k == 0)
			return corrupt(s, "ticket", "no ticket id drawn");
	}
	*id = s->ids[--s->nids];
	return 0;
}

/* The account's rating of the kind (0, or STORE_NOTFOUND for none) and
 * its waiting tickets: one statement, one round trip. */
static int
join_reads(struct pg_store *s, const struct store_ticket *t,
    struct store_rating *rt, int64_t *waiting)
{
	const char	*params[2];
	char		 k[PG_INT_MAX];
	PGresult	*r;
	int		 rc;

	params[0] = t->account;
	params[1] = pg_int(k, t->kind);
	if ((r = pg_rd_one(s, "ticket", PS_JOIN_READ, 2, params)) == NULL)
		return STORE_ERR;
	rc = PQntuples(r) == 1 ? pg_col_int(r, 0, 0, waiting) : -1;
	if (rc == 0 && !PQgetisnull(r, 0, 1))
		rc = rating_row(r, 0, 1, rt);
	else if (rc == 0)
		rc = STORE_NOTFOUND;
	PQclear(r);
	return rc < 0 ? corrupt(s, "ticket", "corrupt rating or count") : rc;
}

/* The committed count is asked first, for a clear refusal; the insert's
 * own count, under the account's lock, is what holds against the
 * others of this transaction and other nodes' at once. */
/* A ticket's columns, id to joined, as parameters $1..$10 (a join's and
 * an import's), in n[0..5] and d[0..1]. */
static void
ticket_params(const char *params[], char n[][PG_INT_MAX],
    char d[][DOUBLE_MAX], const struct store_ticket *t)
{
	params[0] = pg_int(n[0], t->id);
	params[1] = t->account;
	params[2] = pg_int(n[1], t->kind);
	params[3] = t->queue;
	params[4] = pg_int(n[2], t->players_min);
	params[5] = pg_int(n[3], t->players_max);
	params[6] = double_param(d[0], t->rating);
	params[7] = double_param(d[1], t->span);
	params[8] = t->bots_after >= 0 ? pg_int(n[4], t->bots_after) : NULL;
	params[9] = pg_int(n[5], t->joined);
}

static int
ticket_insert(struct store *st, struct store_ticket *t, int64_t max_waiting)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[11];
	char		 n[8][PG_INT_MAX], d[2][DOUBLE_MAX], key[PG_KEY_MAX];
	struct store_rating rt;
	int64_t		 waiting;
	int		 rc;

	if ((rc = join_reads(s, t, &rt, &waiting)) == STORE_ERR)
		return STORE_ERR;
	if (rc == 0)
		t->rating = rt.rating;
	if (max_waiting > 0 && waiting >= max_waiting)
		return STORE_LIMIT;
	if (next_id(s, &t->id) != 0)
		return STORE_ERR;
	account_key(key, t->account);
	params[0] = t->account;
	if (lobby_stmt(s, "ticket", PS_ACCOUNT_LOCK, 1, params, PQ_LOCK, key,
	    0) == STORE_ERR)
		return STORE_ERR;
	ticket_params(params, n, d, t);
	params[10] = pg_int(n[6], max_waiting);
	rc = lobby_stmt(s, "ticket", PS_TICKET_INSERT, 11, params, PQ_LOBBY,
	    key, t->id);
	return rc == STORE_NOTFOUND ? STORE_LIMIT : rc;
}

static int
ticket_read(struct store *st, int64_t id, struct store_ticket *t)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1];
	char		 n[PG_INT_MAX];
	PGresult	*r;
	int		 rc;

	if (doomed_read(s, pg_writes_seq(s, PS_TICKET_INSERT, id) ||
	    pg_writes_seq(s, PS_TICKET_CANCEL, id), NULL))
		return STORE_NOTFOUND;
	params[0] = pg_int(n, id);
	if ((r = pg_rd_one(s, "ticket", PS_TICKET_SELECT, 1, params)) == NULL)
		return STORE_ERR;
	if (PQntuples(r) == 0) {
		PQclear(r);
		return STORE_NOTFOUND;
	}
	rc = ticket_row(r, 0, t);
	PQclear(r);
	return rc == 0 ? 0 : corrupt(s, "ticket", "corrupt ticket row");
}

static int
ticket_cancel(struct store *st, int64_t id, int64_t ended)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[2];
	char		 a[PG_INT_MAX], b[PG_INT_MAX], key[PG_KEY_MAX];

	params[0] = pg_int(a, id);
	params[1] = pg_int(b, ended);
	snprintf(key, sizeof(key), "%ct%020lld", PG_KEY_LOBBY, (long long)id);
	return lobby_stmt(s, "cancel", PS_TICKET_CANCEL, 2, params, PQ_LOBBY,
	    key, id);
}

static int
ticket_rows(struct pg_store *s, PGresult *r, const char *op,
    store_ticket_cb cb, void *arg)
{
	struct store_ticket	 t;
	int			 i, ret = 0;

	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (ticket_row(r, i, &t) != 0) {
			PQclear(r);
			return corrupt(s, op, "corrupt ticket row");
		}
		ret = cb(arg, &t);
	}
	PQclear(r);
	return ret;
}

static int
tickets_waiting(struct store *st, const char *queue, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[2];
	char		 n[PG_INT_MAX];
	PGresult	*r;

	params[0] = queue;
	params[1] = limit < 0 ? NULL : pg_int(n, limit);
	if ((r = pg_rd_one(s, "tickets", PS_TICKETS_WAITING, 2, params)) ==
	    NULL)
		return STORE_ERR;
	return ticket_rows(s, r, "tickets", cb, arg);
}

static int
queues(struct store *st, enum game_kind kind, store_queue_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1];
	char		 k[PG_INT_MAX], name[STORE_QUEUE_MAX + 1];
	PGresult	*r;
	int64_t		 v, count, oldest;
	int		 i, ret = 0;

	params[0] = pg_int(k, kind);
	r = pg_rd_one(s, "queues", kind == KIND_NONE ? PS_QUEUES_ALL :
	    PS_QUEUES_KIND, kind == KIND_NONE ? 0 : 1, params);
	if (r == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (col_text(r, i, 0, name, sizeof(name)) != 0 ||
		    pg_col_int(r, i, 1, &v) != 0 ||
		    pg_col_int(r, i, 2, &count) != 0 ||
		    pg_col_int(r, i, 3, &oldest) != 0) {
			PQclear(r);
			return corrupt(s, "queues", "corrupt ticket row");
		}
		ret = cb(arg, name, (enum game_kind)v, count, oldest);
	}
	PQclear(r);
	return ret;
}

static int
tickets_ended(struct store *st, size_t n, const int64_t ids[],
    store_ticket_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	struct pg_buf	 b = { NULL, 0, 0 };
	const char	*params[1];
	PGresult	*r;
	size_t		 i;

	pg_buf_start(&b);
	for (i = 0; i < n; i++)
		pg_buf_int(&b, ids[i]);
	params[0] = pg_buf_end(&b);
	r = pg_rd_one(s, "tickets", PS_TICKETS_ENDED, 1, params);
	pg_buf_free(&b);
	if (r == NULL)
		return STORE_ERR;
	return ticket_rows(s, r, "tickets", cb, arg);
}

/* ---------------------------------------------------- seats, queues */

static int
game_accounts(struct store *st, const char *game, store_seat_cb cb,
    void *arg)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1] = { game };
	char		 name[GAME_ID_MAX + 1];
	PGresult	*r;
	int64_t		 idx;
	int		 i, ret = 0;

	/* Its rows are written with the game, once: only a create in this
	 * transaction hides them. */
	if (doomed_read(s, pg_creates_game(s, game), game))
		return 0;
	if ((r = pg_rd_one(s, "seats", PS_SEAT_SELECT, 1, params)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (pg_col_int(r, i, 0, &idx) != 0 ||
		    col_text(r, i, 1, name, sizeof(name)) != 0) {
			PQclear(r);
			return corrupt(s, "seats", "corrupt seat row");
		}
		ret = cb(arg, (int)idx, name);
	}
	PQclear(r);
	return ret;
}

static int
account_games(struct store *st, const char *account,
    enum store_games_filter filter, const char *after, int64_t limit,
    store_account_game_cb cb, void *arg)
{
	struct pg_store			*s = to_pg(st);
	struct store_account_game	 g;
	const char			*params[4];
	char				 f[PG_INT_MAX], l[PG_INT_MAX];
	PGresult			*r;
	int64_t				 v[6];
	int				 i, k, ret = 0, bad;

	params[0] = account;
	params[1] = after != NULL ? after : "";
	params[2] = pg_int(f, filter);
	params[3] = limit < 0 ? NULL : pg_int(l, limit);
	if ((r = pg_rd_one(s, "games", PS_ACCOUNT_GAMES, 4, params)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		memset(&g, 0, sizeof(g));
		bad = col_text(r, i, 0, g.game, sizeof(g.game)) != 0 ||
		    col_text(r, i, 3, g.seat_name, sizeof(g.seat_name)) != 0;
		if (!PQgetisnull(r, i, 4))
			(void)col_text(r, i, 4, g.turn_name,
			    sizeof(g.turn_name));
		for (k = 0; k < 6; k++)
			bad |= pg_col_int(r, i, k < 2 ? k + 1 : k + 3,
			    &v[k]) != 0;
		if (bad) {
			PQclear(r);
			return corrupt(s, "games", "corrupt seat row");
		}
		g.kind = (enum game_kind)v[0];
		g.seat = (int)v[1];
		g.nplayers = (int)v[2];
		g.turn = (int)v[3];
		g.winner = (int)v[4];
		g.moves = v[5];
		ret = cb(arg, &g);
	}
	PQclear(r);
	return ret;
}

/* FNV-1a: the queue's lock, the second key of its advisory lock. */
static uint32_t
queue_hash(const char *q)
{
	uint32_t	 h = 2166136261u;

	for (; *q != '\0'; q++) {
		h ^= (uint8_t)*q;
		h *= 16777619u;
	}
	return h;
}

/*
 * A session's advisory lock, on the read connection, taken once and
 * held while that connection lives: this node is the queue's matcher
 * until it dies (its connection closes and the server lets the lock go,
 * to the next node that asks) or its connection breaks (then it asks
 * again, and may find another node has it).
 */
static int
queue_lock(struct store *st, const char *queue)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[1];
	char		 n[PG_INT_MAX];
	uint32_t	 h = queue_hash(queue);
	PGresult	*r;
	size_t		 i;
	int		 held;

	for (i = 0; i < s->nqlocks; i++)
		if (s->qlocks[i].hash == h) {
			if (s->qlocks[i].epoch == s->reconnects)
				return 1;
			break;
		}
	params[0] = pg_int(n, (int32_t)h);
	if ((r = pg_rd_one(s, "queue_lock", PS_QUEUE_LOCK, 1, params)) == NULL)
		return -1;
	held = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	PQclear(r);
	if (!held)
		return 0;
	if (i == s->nqlocks) {
		if (s->nqlocks == s->capqlocks) {
			s->capqlocks = s->capqlocks == 0 ? 8 : 2 * s->capqlocks;
			s->qlocks = xrealloc(s->qlocks, s->capqlocks *
			    sizeof(*s->qlocks));
		}
		s->qlocks[s->nqlocks++].hash = h;
	}
	s->qlocks[i].epoch = s->reconnects;
	return 1;
}

/* ------------------------------------------------------- ludus copy */

static int
each_account(struct store *st, store_account_cb cb, void *arg)
{
	struct pg_store		*s = to_pg(st);
	struct store_account	 a;
	PGresult		*r;
	int			 i, ret = 0;

	if ((r = pg_rd_one(s, "accounts", PS_ACCOUNT_EACH, 0, NULL)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		memset(&a, 0, sizeof(a));
		a.bot = -1;
		a.has_key = 1;
		if (col_text(r, i, 0, a.name, sizeof(a.name)) != 0 ||
		    pg_col_bytea(r, i, 1, a.key, STORE_KEY_HASH_LEN) !=
		    STORE_KEY_HASH_LEN || pg_col_int(r, i, 3, &a.created) != 0) {
			PQclear(r);
			return corrupt(s, "accounts", "corrupt account row");
		}
		ret = cb(arg, &a);
	}
	PQclear(r);
	return ret;
}

static int
each_rating(struct store *st, store_each_rating_cb cb, void *arg)
{
	struct pg_store		*s = to_pg(st);
	struct store_rating	 rt;
	char			 name[GAME_ID_MAX + 1];
	PGresult		*r;
	int64_t			 kind;
	int			 i, ret = 0;

	if ((r = pg_rd_one(s, "ratings", PS_RATING_EACH, 0, NULL)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (col_text(r, i, 0, name, sizeof(name)) != 0 ||
		    pg_col_int(r, i, 1, &kind) != 0 ||
		    rating_row(r, i, 2, &rt) != 0) {
			PQclear(r);
			return corrupt(s, "ratings", "corrupt rating row");
		}
		ret = cb(arg, name, (enum game_kind)kind, &rt);
	}
	PQclear(r);
	return ret;
}

static int
each_ticket(struct store *st, int64_t after, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[2];
	char		 a[PG_INT_MAX], l[PG_INT_MAX];
	PGresult	*r;

	params[0] = pg_int(a, after);
	params[1] = limit < 0 ? NULL : pg_int(l, limit);
	if ((r = pg_rd_one(s, "tickets", PS_TICKET_EACH, 2, params)) == NULL)
		return STORE_ERR;
	return ticket_rows(s, r, "tickets", cb, arg);
}

static int
each_seat(struct store *st, store_each_seat_cb cb, void *arg)
{
	struct pg_store	*s = to_pg(st);
	char		 game[GAME_ID_MAX + 1], name[GAME_ID_MAX + 1];
	PGresult	*r;
	int64_t		 idx;
	int		 i, ret = 0;

	if ((r = pg_rd_one(s, "seats", PS_SEAT_EACH, 0, NULL)) == NULL)
		return STORE_ERR;
	for (i = 0; i < PQntuples(r) && ret == 0; i++) {
		if (col_text(r, i, 0, game, sizeof(game)) != 0 ||
		    pg_col_int(r, i, 1, &idx) != 0 ||
		    col_text(r, i, 2, name, sizeof(name)) != 0) {
			PQclear(r);
			return corrupt(s, "seats", "corrupt seat row");
		}
		ret = cb(arg, game, (int)idx, name);
	}
	PQclear(r);
	return ret;
}

static int
ticket_import(struct store *st, const struct store_ticket *t)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[14];
	char		 n[10][PG_INT_MAX], d[2][DOUBLE_MAX], key[PG_KEY_MAX];

	ticket_params(params, n, d, t);
	params[10] = pg_int(n[6], t->state);
	params[11] = t->seat >= 0 ? t->game : NULL;
	params[12] = t->seat >= 0 ? pg_int(n[7], t->seat) : NULL;
	params[13] = t->ended != 0 ? pg_int(n[8], t->ended) : NULL;
	snprintf(key, sizeof(key), "%ct%020lld", PG_KEY_LOBBY,
	    (long long)t->id);
	return lobby_stmt(s, "ticket", PS_TICKET_IMPORT, 14, params,
	    PQ_LOBBY, key, t->id);
}

static int
seat_import(struct store *st, const char *game, int idx,
    const char *account)
{
	struct pg_store	*s = to_pg(st);
	const char	*params[3];
	char		 n[PG_INT_MAX];

	params[0] = game;
	params[1] = pg_int(n, idx);
	params[2] = account;
	/* Keyed with its game: its row follows the game's. */
	return lobby_stmt(s, "seat", PS_SEAT_IMPORT, 3, params, PQ_LOBBY, game,
	    0);
}

const struct store_lobby_ops pg_lobby_ops = {
	.account_insert = account_insert,
	.account_read = account_read,
	.account_rekey = account_rekey,
	.rating_read = rating_read,
	.ratings_write = ratings_write,
	.leaderboard = leaderboard,
	.ticket_insert = ticket_insert,
	.ticket_read = ticket_read,
	.ticket_cancel = ticket_cancel,
	.tickets_waiting = tickets_waiting,
	.queues = queues,
	.tickets_ended = tickets_ended,
	.match = pg_match,
	.game_accounts = game_accounts,
	.account_games = account_games,
	.queue_lock = queue_lock,
	.each_account = each_account,
	.each_rating = each_rating,
	.each_ticket = each_ticket,
	.each_seat = each_seat,
	.ticket_import = ticket_import,
	.seat_import = seat_import,
};
