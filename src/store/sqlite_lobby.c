/*
 * The SQLite backend's lobby rows: accounts, ratings, tickets and the
 * seats accounts hold (sql/006_lobby.sql).  SQLite's write lock makes
 * each check and the write it guards one: nothing another writer does
 * can come between them.
 */
#include <string.h>

#include "store/sqlite_int.h"

/* Steps a statement that reads nothing back: 0, the refusal its
 * constraint makes (a taken key: STORE_EXISTS), or STORE_ERR. */
static int
run_write(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	int	 rc;

	rc = sql_stmt_run(s, st, op);
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return STORE_EXISTS;
	return rc == 0 ? 0 : STORE_ERR;
}

/* 1 when the last statement changed a row. */
static int
changed(struct sqlite_store *s)
{
	return sqlite3_changes64(s->db) > 0;
}

static int
bind_blob(sqlite3_stmt *st, int i, const uint8_t *p, size_t len)
{
	return sqlite3_bind_blob(st, i, p, (int)len, SQLITE_STATIC) !=
	    SQLITE_OK;
}

/* ---------------------------------------------------------- accounts */

static int
account_insert(struct store *store, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN], int64_t created)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = sql_stmt_get(s, ST_ACCOUNT_INSERT, "account")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, name) || bind_blob(st, 2, key,
	    STORE_KEY_HASH_LEN) || sql_bind_int(st, 3, created))
		return sql_stmt_err(s, st, "account");
	if ((rc = run_write(s, st, "account")) == STORE_EXISTS)
		store_set_err(store, "account", "name taken");
	return rc;
}

static int
account_read(struct store *store, const char *name, struct store_account *a)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = sql_stmt_get(s, ST_ACCOUNT_SELECT, "account")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, name))
		return sql_stmt_err(s, st, "account");
	if ((rc = sqlite3_step(st)) == SQLITE_DONE) {
		sql_stmt_done(st);
		return STORE_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "account");
	if (sql_column_copy(st, 0, a->name, sizeof(a->name)) != 0)
		goto corrupt;
	if (sqlite3_column_type(st, 1) == SQLITE_BLOB) {
		if (sqlite3_column_bytes(st, 1) != STORE_KEY_HASH_LEN)
			goto corrupt;
		memcpy(a->key, sqlite3_column_blob(st, 1), STORE_KEY_HASH_LEN);
		a->has_key = 1;
	}
	a->bot = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
	    sqlite3_column_int(st, 2);
	a->created = sqlite3_column_int64(st, 3);
	sql_stmt_done(st);
	return 0;
corrupt:
	sql_stmt_done(st);
	return store_set_err(store, "account", "corrupt account row");
}

static int
account_rekey(struct store *store, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN],
    const uint8_t old[STORE_KEY_HASH_LEN])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_ACCOUNT_REKEY, "account_key")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, name) || bind_blob(st, 2, key,
	    STORE_KEY_HASH_LEN) || bind_blob(st, 3, old, STORE_KEY_HASH_LEN))
		return sql_stmt_err(s, st, "account_key");
	if (sql_stmt_run(s, st, "account_key") != 0)
		return STORE_ERR;
	return changed(s) ? 0 : STORE_NOTFOUND;
}

/* ----------------------------------------------------------- ratings */

static void
rating_row(sqlite3_stmt *st, int col, struct store_rating *r)
{
	r->rating = sqlite3_column_double(st, col);
	r->rd = sqlite3_column_double(st, col + 1);
	r->vol = sqlite3_column_double(st, col + 2);
	r->games = sqlite3_column_int64(st, col + 3);
	r->won = sqlite3_column_int64(st, col + 4);
	r->updated = sqlite3_column_int64(st, col + 5);
}

static int
rating_read(struct store *store, const char *account, enum game_kind kind,
    struct store_rating *r)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = sql_stmt_get(s, ST_RATING_SELECT, "rating")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, account) || sql_bind_int(st, 2, kind))
		return sql_stmt_err(s, st, "rating");
	if ((rc = sqlite3_step(st)) == SQLITE_DONE) {
		sql_stmt_done(st);
		return STORE_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "rating");
	rating_row(st, 0, r);
	sql_stmt_done(st);
	return 0;
}

static int
ratings_write(struct store *store, enum game_kind kind, int n,
    const char *const accounts[], const struct store_rating old[],
    const struct store_rating new[])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 i;

	for (i = 0; i < n; i++) {
		if ((st = sql_stmt_get(s, ST_RATING_UPSERT, "ratings")) == NULL)
			return STORE_ERR;
		if (sql_bind_id(st, accounts[i]) || sql_bind_int(st, 2, kind) ||
		    sqlite3_bind_double(st, 3, new[i].rating) != SQLITE_OK ||
		    sqlite3_bind_double(st, 4, new[i].rd) != SQLITE_OK ||
		    sqlite3_bind_double(st, 5, new[i].vol) != SQLITE_OK ||
		    sql_bind_int(st, 6, new[i].games) ||
		    sql_bind_int(st, 7, new[i].won) ||
		    sql_bind_int(st, 8, new[i].updated) ||
		    sql_bind_int(st, 9, old[i].games))
			return sql_stmt_err(s, st, "ratings");
		if (sql_stmt_run(s, st, "ratings") != 0)
			return STORE_ERR;
		if (!changed(s))
			return store_set_err(store, "ratings",
			    "a rating changed since it was read");
	}
	return 0;
}

static int
leaderboard(struct store *store, enum game_kind kind, int64_t offset,
    int64_t limit, store_rating_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct store_rating	 r;
	sqlite3_stmt		*st;
	int64_t			 rank = offset;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_LEADERBOARD, "leaderboard")) == NULL)
		return STORE_ERR;
	if (sql_bind_int(st, 1, kind) || sql_bind_int(st, 2, offset) ||
	    sql_bind_int(st, 3, limit < 0 ? -1 : limit))
		return sql_stmt_err(s, st, "leaderboard");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rating_row(st, 1, &r);
		if ((ret = cb(arg, ++rank,
		    (const char *)sqlite3_column_text(st, 0), &r)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "leaderboard");
	sql_stmt_done(st);
	return ret;
}

/* ----------------------------------------------------------- tickets */

/* SQLITE_TICKET_COLS into t: 0, or -1 for a row no ticket has. */
static int
ticket_row(sqlite3_stmt *st, struct store_ticket *t)
{
	t->id = sqlite3_column_int64(st, 0);
	if (sql_column_copy(st, 1, t->account, sizeof(t->account)) != 0 ||
	    sql_column_copy(st, 3, t->queue, sizeof(t->queue)) != 0)
		return -1;
	t->kind = (enum game_kind)sqlite3_column_int(st, 2);
	t->players_min = sqlite3_column_int(st, 4);
	t->players_max = sqlite3_column_int(st, 5);
	t->rating = sqlite3_column_double(st, 6);
	t->span = sqlite3_column_double(st, 7);
	t->bots_after = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 :
	    sqlite3_column_int64(st, 8);
	t->joined = sqlite3_column_int64(st, 9);
	t->state = (enum store_ticket_state)sqlite3_column_int(st, 10);
	t->game[0] = '\0';
	t->seat = -1;
	if (sqlite3_column_type(st, 11) != SQLITE_NULL) {
		if (sql_column_copy(st, 11, t->game, sizeof(t->game)) != 0)
			return -1;
		t->seat = sqlite3_column_int(st, 12);
	}
	t->ended = sqlite3_column_int64(st, 13);
	return 0;
}

/* A new ticket's columns, account to joined, from the i-th parameter on
 * (a join's and an import's). */
static int
bind_ticket(sqlite3_stmt *st, int i, const struct store_ticket *t)
{
	return sql_bind_text(st, i, t->account, sizeof(t->account)) ||
	    sql_bind_int(st, i + 1, t->kind) ||
	    sql_bind_text(st, i + 2, t->queue, sizeof(t->queue)) ||
	    sql_bind_int(st, i + 3, t->players_min) ||
	    sql_bind_int(st, i + 4, t->players_max) ||
	    sqlite3_bind_double(st, i + 5, t->rating) != SQLITE_OK ||
	    sqlite3_bind_double(st, i + 6, t->span) != SQLITE_OK ||
	    (t->bots_after >= 0 && sql_bind_int(st, i + 7, t->bots_after)) ||
	    sql_bind_int(st, i + 8, t->joined);
}

static int
ticket_insert(struct store *store, struct store_ticket *t,
    int64_t max_waiting)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct store_rating	 r;
	sqlite3_stmt		*st;
	int64_t			 waiting;
	int			 rc;

	if ((rc = rating_read(store, t->account, t->kind, &r)) == STORE_ERR)
		return STORE_ERR;
	if (rc == 0)
		t->rating = r.rating;
	if (max_waiting > 0) {
		if ((st = sql_stmt_get(s, ST_TICKET_COUNT, "ticket")) == NULL)
			return STORE_ERR;
		if (sql_bind_id(st, t->account))
			return sql_stmt_err(s, st, "ticket");
		if (sqlite3_step(st) != SQLITE_ROW)
			return sql_stmt_err(s, st, "ticket");
		waiting = sqlite3_column_int64(st, 0);
		sql_stmt_done(st);
		if (waiting >= max_waiting)
			return STORE_LIMIT;
	}
	if ((st = sql_stmt_get(s, ST_TICKET_INSERT, "ticket")) == NULL)
		return STORE_ERR;
	if (bind_ticket(st, 1, t) != 0)
		return sql_stmt_err(s, st, "ticket");
	if ((rc = sql_stmt_run(s, st, "ticket")) != 0)
		return STORE_ERR;
	t->id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int
ticket_read(struct store *store, int64_t id, struct store_ticket *t)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = sql_stmt_get(s, ST_TICKET_SELECT, "ticket")) == NULL)
		return STORE_ERR;
	if (sql_bind_int(st, 1, id))
		return sql_stmt_err(s, st, "ticket");
	if ((rc = sqlite3_step(st)) == SQLITE_DONE) {
		sql_stmt_done(st);
		return STORE_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "ticket");
	rc = ticket_row(st, t);
	sql_stmt_done(st);
	return rc == 0 ? 0 : store_set_err(store, "ticket",
	    "corrupt ticket row");
}

static int
ticket_cancel(struct store *store, int64_t id, int64_t ended)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_TICKET_CANCEL, "cancel")) == NULL)
		return STORE_ERR;
	if (sql_bind_int(st, 1, id) || sql_bind_int(st, 2, ended))
		return sql_stmt_err(s, st, "cancel");
	if (sql_stmt_run(s, st, "cancel") != 0)
		return STORE_ERR;
	return changed(s) ? 0 : STORE_NOTFOUND;
}

/* Walks the tickets a stepping statement gives. */
static int
ticket_walk(struct sqlite_store *s, sqlite3_stmt *st, const char *op,
    store_ticket_cb cb, void *arg)
{
	struct store_ticket	 t;
	int			 rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&t, 0, sizeof(t));
		if (ticket_row(st, &t) != 0) {
			sql_stmt_done(st);
			return store_set_err(&s->store, op,
			    "corrupt ticket row");
		}
		if ((ret = cb(arg, &t)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, op);
	sql_stmt_done(st);
	return ret;
}

static int
tickets_waiting(struct store *store, const char *queue, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_TICKETS_WAITING, "tickets")) == NULL)
		return STORE_ERR;
	if (sql_bind_text(st, 1, queue, STORE_QUEUE_MAX + 1) ||
	    sql_bind_int(st, 2, limit < 0 ? -1 : limit))
		return sql_stmt_err(s, st, "tickets");
	return ticket_walk(s, st, "tickets", cb, arg);
}

static int
queues(struct store *store, enum game_kind kind, store_queue_cb cb,
    void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	st = sql_stmt_get(s, kind == KIND_NONE ? ST_QUEUES_ALL :
	    ST_QUEUES_KIND, "queues");
	if (st == NULL)
		return STORE_ERR;
	if (kind != KIND_NONE && sql_bind_int(st, 1, kind))
		return sql_stmt_err(s, st, "queues");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    (enum game_kind)sqlite3_column_int(st, 1),
		    sqlite3_column_int64(st, 2),
		    sqlite3_column_int64(st, 3))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "queues");
	sql_stmt_done(st);
	return ret;
}

/* One node: each ticket looked up (this serves tests and one-off
 * callers; no other node matches behind this one's back). */
static int
tickets_ended(struct store *store, size_t n, const int64_t ids[],
    store_ticket_cb cb, void *arg)
{
	struct store_ticket	 t;
	size_t			 i;
	int			 rc;

	for (i = 0; i < n; i++) {
		memset(&t, 0, sizeof(t));
		if ((rc = ticket_read(store, ids[i], &t)) == STORE_NOTFOUND)
			continue;
		if (rc != 0)
			return STORE_ERR;
		if (t.state != TICKET_WAITING && (rc = cb(arg, &t)) != 0)
			return rc;
	}
	return 0;
}

/* ---------------------------------------------- matches and seats */

static int
match_rows(struct store *store, const char *game, const struct store_match *m)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 i, rc;

	for (i = 0; i < m->n; i++) {
		if ((st = sql_stmt_get(s, ST_TICKET_TAKE, "match")) == NULL)
			return STORE_ERR;
		if (sql_bind_int(st, 1, m->tickets[i]) ||
		    sql_bind_text(st, 2, game, GAME_ID_MAX + 1) ||
		    sql_bind_int(st, 3, m->seats[i]) ||
		    sql_bind_int(st, 4, m->ended))
			return sql_stmt_err(s, st, "match");
		if (sql_stmt_run(s, st, "match") != 0)
			return STORE_ERR;
		if (!changed(s))
			return STORE_NOTFOUND;
	}
	for (i = 0; i < GAME_MAX_PLAYERS; i++) {
		if (m->accounts[i] == NULL)
			continue;
		if ((st = sql_stmt_get(s, ST_SEAT_INSERT, "match")) == NULL)
			return STORE_ERR;
		if (sql_bind_gid(s, st, game, "match"))
			return STORE_ERR;
		if (sql_bind_int(st, 2, i) ||
		    sql_bind_text(st, 3, m->accounts[i], GAME_ID_MAX + 1))
			return sql_stmt_err(s, st, "match");
		if ((rc = sql_stmt_run(s, st, "match")) != 0)
			return STORE_ERR;
	}
	return 0;
}

static int
game_accounts(struct store *store, const char *game, store_seat_cb cb,
    void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_SEAT_SELECT, "seats")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, game, "seats"))
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, sqlite3_column_int(st, 0),
		    (const char *)sqlite3_column_text(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "seats");
	sql_stmt_done(st);
	return ret;
}

static int
account_games(struct store *store, const char *account,
    enum store_games_filter filter, const char *after, int64_t limit,
    store_account_game_cb cb, void *arg)
{
	struct sqlite_store		*s = to_sqlite(store);
	struct store_account_game	 g;
	sqlite3_stmt			*st;
	int				 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_ACCOUNT_GAMES, "games")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, account) || sql_bind_text(st, 2,
	    after != NULL ? after : "", GAME_ID_MAX + 1) ||
	    sql_bind_int(st, 3, filter) ||
	    sql_bind_int(st, 4, limit < 0 ? -1 : limit))
		return sql_stmt_err(s, st, "games");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&g, 0, sizeof(g));
		if (sql_column_copy(st, 0, g.game, sizeof(g.game)) != 0 ||
		    sql_column_copy(st, 3, g.seat_name,
		    sizeof(g.seat_name)) != 0) {
			sql_stmt_done(st);
			return store_set_err(store, "games",
			    "corrupt seat row");
		}
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			(void)sql_column_copy(st, 4, g.turn_name,
			    sizeof(g.turn_name));
		g.kind = (enum game_kind)sqlite3_column_int(st, 1);
		g.seat = sqlite3_column_int(st, 2);
		g.nplayers = sqlite3_column_int(st, 5);
		g.turn = sqlite3_column_int(st, 6);
		g.winner = sqlite3_column_int(st, 7);
		g.moves = sqlite3_column_int64(st, 8);
		if ((ret = cb(arg, &g)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "games");
	sql_stmt_done(st);
	return ret;
}

/* ------------------------------------------------------- ludus copy */

static int
each_account(struct store *store, store_account_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct store_account	 a;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_ACCOUNT_EACH, "accounts")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&a, 0, sizeof(a));
		a.bot = -1;
		if (sql_column_copy(st, 0, a.name, sizeof(a.name)) != 0 ||
		    sqlite3_column_bytes(st, 1) != STORE_KEY_HASH_LEN) {
			sql_stmt_done(st);
			return store_set_err(store, "accounts",
			    "corrupt account row");
		}
		memcpy(a.key, sqlite3_column_blob(st, 1), STORE_KEY_HASH_LEN);
		a.has_key = 1;
		a.created = sqlite3_column_int64(st, 3);
		if ((ret = cb(arg, &a)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "accounts");
	sql_stmt_done(st);
	return ret;
}

static int
each_rating(struct store *store, store_each_rating_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct store_rating	 r;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_RATING_EACH, "ratings")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rating_row(st, 2, &r);
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    (enum game_kind)sqlite3_column_int(st, 1), &r)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "ratings");
	sql_stmt_done(st);
	return ret;
}

static int
each_ticket(struct store *store, int64_t after, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_TICKET_EACH, "tickets")) == NULL)
		return STORE_ERR;
	if (sql_bind_int(st, 1, after) || sql_bind_int(st, 2, limit < 0 ? -1 :
	    limit))
		return sql_stmt_err(s, st, "tickets");
	return ticket_walk(s, st, "tickets", cb, arg);
}

static int
each_seat(struct store *store, store_each_seat_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_SEAT_EACH, "seats")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int(st, 1),
		    (const char *)sqlite3_column_text(st, 2))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "seats");
	sql_stmt_done(st);
	return ret;
}

static int
ticket_import(struct store *store, const struct store_ticket *t)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 bad;

	if ((st = sql_stmt_get(s, ST_TICKET_IMPORT, "ticket")) == NULL)
		return STORE_ERR;
	bad = sql_bind_int(st, 1, t->id) || bind_ticket(st, 2, t) ||
	    sql_bind_int(st, 11, t->state) ||
	    (t->seat >= 0 && (sql_bind_text(st, 12, t->game,
	    sizeof(t->game)) || sql_bind_int(st, 13, t->seat))) ||
	    (t->ended != 0 && sql_bind_int(st, 14, t->ended));
	if (bad)
		return sql_stmt_err(s, st, "ticket");
	return run_write(s, st, "ticket") == 0 ? 0 : STORE_ERR;
}

static int
seat_import(struct store *store, const char *game, int idx,
    const char *account)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_SEAT_INSERT, "seat")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, game, "seat"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, idx) ||
	    sql_bind_text(st, 3, account, GAME_ID_MAX + 1))
		return sql_stmt_err(s, st, "seat");
	return run_write(s, st, "seat") == 0 ? 0 : STORE_ERR;
}

const struct store_lobby_ops sqlite_lobby_ops = {
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
	.match_rows = match_rows,
	.game_accounts = game_accounts,
	.account_games = account_games,
	.each_account = each_account,
	.each_rating = each_rating,
	.each_ticket = each_ticket,
	.each_seat = each_seat,
	.ticket_import = ticket_import,
	.seat_import = seat_import,
};
