/*
 * The SQLite backend's other reads: history, the lists and counts of
 * games, the deadlines, the database's size, and the seat-hash secret
 * (a meta row, read and written here).
 */
#include <string.h>

#include "store/sqlite_int.h"

/* The meta row that holds the seat-hash key. */
#define META_SECRET	"seat-secret"

int
sqlite_secret_read(struct store *store, uint8_t out[STORE_SECRET_LEN])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = sql_stmt_get(s, ST_META_SELECT, "secret")) == NULL)
		return STORE_ERR;
	if (sql_bind_text(st, 1, META_SECRET, sizeof(META_SECRET)))
		return sql_stmt_err(s, st, "secret");
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sql_stmt_done(st);
		return 1;
	}
	if (rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "secret");
	if (sqlite3_column_type(st, 0) != SQLITE_BLOB ||
	    sqlite3_column_bytes(st, 0) != STORE_SECRET_LEN) {
		sql_stmt_done(st);
		return store_set_err(store, "secret", "corrupt seat secret");
	}
	memcpy(out, sqlite3_column_blob(st, 0), STORE_SECRET_LEN);
	sql_stmt_done(st);
	return 0;
}

/* INSERT .. DO NOTHING keeps the first one if two writers race. */
int
sqlite_secret_insert(struct store *store,
    const uint8_t fresh[STORE_SECRET_LEN])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	if ((st = sql_stmt_get(s, ST_META_INSERT, "secret")) == NULL)
		return STORE_ERR;
	if (sql_bind_text(st, 1, META_SECRET, sizeof(META_SECRET)) ||
	    sqlite3_bind_blob(st, 2, fresh, STORE_SECRET_LEN,
	    SQLITE_STATIC) != SQLITE_OK)
		return sql_stmt_err(s, st, "secret");
	return sql_stmt_run(s, st, "secret") == 0 ? 0 : STORE_ERR;
}

int
sqlite_list_deadlines(struct store *store, store_deadline_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_DEADLINES, "list_deadlines")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int64(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "list_deadlines");
	sql_stmt_done(st);
	return ret;
}

int
sqlite_history(struct store *store, const char *id, int64_t from,
    int64_t count, store_move_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct move		 mv;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_MOVE_SELECT, "history")) == NULL)
		return STORE_ERR;
	if (sql_bind_gid(s, st, id, "history"))
		return STORE_ERR;
	if (sql_bind_int(st, 2, from) ||
	    sql_bind_int(st, 3, count < 0 ? -1 : count))
		return sql_stmt_err(s, st, "history");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&mv, 0, sizeof(mv));
		mv.seq = sqlite3_column_int64(st, 0);
		mv.at = sqlite3_column_int64(st, 4);
		mv.by = sqlite3_column_int(st, 5);
		if (sql_column_copy(st, 1, mv.player, sizeof(mv.player)) != 0 ||
		    sql_column_copy(st, 2, mv.action, sizeof(mv.action)) != 0 ||
		    sql_column_copy(st, 3, mv.result, sizeof(mv.result)) != 0) {
			sql_stmt_done(st);
			return store_set_err(store, "history",
			    "corrupt history row");
		}
		if ((ret = cb(arg, &mv)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "history");
	sql_stmt_done(st);
	return ret;
}

int
sqlite_list_games(struct store *store, enum game_kind kind,
    const char *after, int64_t limit, store_id_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 bad, rc, ret = 0;

	st = sql_stmt_get(s, kind == KIND_NONE ? ST_LIST_ALL : ST_LIST_KIND,
	    "list_games");
	if (st == NULL)
		return STORE_ERR;
	/* Every id has at least one character, so "" lists them all. */
	bad = sql_bind_text(st, 1, after != NULL ? after : "",
	    GAME_ID_MAX + 1) || sql_bind_int(st, 2, limit < 0 ? -1 : limit) ||
	    (kind != KIND_NONE && sql_bind_int(st, 3, kind));
	if (bad)
		return sql_stmt_err(s, st, "list_games");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    (enum game_kind)sqlite3_column_int(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "list_games");
	sql_stmt_done(st);
	return ret;
}

/* counts[KIND_NONE] gets the total. */
int
sqlite_count_games(struct store *store, int64_t counts[KIND_COUNT])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 k, rc;

	for (k = 0; k < KIND_COUNT; k++)
		counts[k] = 0;
	if ((st = sql_stmt_get(s, ST_COUNT, "count_games")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		k = sqlite3_column_int(st, 0);
		if (k > KIND_NONE && k < KIND_COUNT)
			counts[k] = sqlite3_column_int64(st, 1);
		counts[KIND_NONE] += sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE)
		return sql_stmt_err(s, st, "count_games");
	sql_stmt_done(st);
	return 0;
}

static int
pragma_value(struct sqlite_store *s, enum stmt_id id, int64_t *v)
{
	sqlite3_stmt	*st;

	if ((st = sql_stmt_get(s, id, "size")) == NULL)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		return sql_stmt_err(s, st, "size");
	*v = sqlite3_column_int64(st, 0);
	sql_stmt_done(st);
	return 0;
}

/* The database's logical size, page_count * page_size: pages still in the
 * WAL count, the WAL file itself (until a checkpoint) does not. */
int64_t
sqlite_size(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);
	int64_t			 pages, size;

	if (pragma_value(s, ST_PAGE_COUNT, &pages) != 0 ||
	    pragma_value(s, ST_PAGE_SIZE, &size) != 0)
		return -1;
	return pages * size;
}
