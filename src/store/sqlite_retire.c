/*
 * The SQLite backend's side of retiring games: a game deleted (its rows
 * cascade), the finished games from their partial index, and the free
 * pages given back by an incremental vacuum.
 */
#include <sqlite3.h>

#include "store/sqlite_int.h"

/* The stamp is an optimistic store's: the write lock is SQLite's check. */
int
sqlite_delete_game(struct store *store, const char *id, int64_t moves,
    int64_t stamp)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;

	(void)stamp;
	/* Its gid may be given to the next game created. */
	sql_gid_forget(s);
	if ((st = sql_stmt_get(s, ST_GAME_DELETE, "delete_game")) == NULL)
		return STORE_ERR;
	if (sql_bind_id(st, id) || sql_bind_int(st, 2, moves))
		return sql_stmt_err(s, st, "delete_game");
	if (sql_stmt_run(s, st, "delete_game") != 0)
		return STORE_ERR;
	return sqlite3_changes(s->db) > 0 ? 0 : STORE_NOTFOUND;
}

int
sqlite_list_finished(struct store *store, int64_t before, int64_t limit,
    store_id_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = sql_stmt_get(s, ST_FINISHED, "list_finished")) == NULL)
		return STORE_ERR;
	if (sql_bind_int(st, 1, before) ||
	    sql_bind_int(st, 2, limit < 0 ? -1 : limit))
		return sql_stmt_err(s, st, "list_finished");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    (enum game_kind)sqlite3_column_int(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_stmt_err(s, st, "list_finished");
	sql_stmt_done(st);
	return ret;
}

static int
one_int(struct sqlite_store *s, enum stmt_id id, const char *op,
    int64_t *v)
{
	sqlite3_stmt	*st;

	if ((st = sql_stmt_get(s, id, op)) == NULL)
		return STORE_ERR;
	if (sqlite3_step(st) != SQLITE_ROW)
		return sql_stmt_err(s, st, op);
	*v = sqlite3_column_int64(st, 0);
	sql_stmt_done(st);
	return 0;
}

int
sqlite_count_finished(struct store *store, int64_t *n)
{
	return one_int(to_sqlite(store), ST_FINISHED_COUNT, "count_finished",
	    n);
}

/*
 * PRAGMA incremental_vacuum(N) moves up to N pages from the end of the
 * file into free pages nearer its start and truncates the file: one
 * short write transaction whose cost is N pages, so that a caller giving
 * a large file back step by step never holds the write lock long.  A
 * database made without auto_vacuum = incremental (before the store set
 * it) gives nothing back this way: it says 0 left, and a VACUUM while no
 * one writes is what converts it (doc/benchmarks.md).
 */
int
sqlite_reclaim(struct store *store, int64_t *left)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc;

	*left = 0;
	if (!s->incremental)
		return 0;
	if (one_int(s, ST_FREELIST, "reclaim", left) != 0)
		return STORE_ERR;
	if (*left == 0)
		return 0;
	if ((st = sql_stmt_get(s, ST_RECLAIM, "reclaim")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE)
		return sql_stmt_err(s, st, "reclaim");
	sql_stmt_done(st);
	return one_int(s, ST_FREELIST, "reclaim", left);
}
