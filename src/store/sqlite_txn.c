/*
 * The SQLite backend's transactions: BEGIN IMMEDIATE (the write lock for
 * the whole of it), COMMIT, ROLLBACK, the savepoints store_turn (a turn
 * of group commit) and store_write (a write's own), and what the game
 * cache's coherence asks of the connection.
 */
#include "store/sqlite_int.h"

/* The statements of each savepoint: SAVEPOINT, RELEASE, ROLLBACK TO. */
static const enum stmt_id sp_stmt[][3] = {
	[STORE_SP_TURN] = { ST_TURN_SAVEPOINT, ST_TURN_RELEASE,
	    ST_TURN_ROLLBACK_TO },
	[STORE_SP_WRITE] = { ST_SAVEPOINT, ST_RELEASE, ST_ROLLBACK_TO },
};

/*
 * The gid kept (sqlite_int.h) is the transaction's: forgotten at each
 * end and undo, committed or not, as another connection may then delete
 * the game and its gid be given to another.
 */
int
sqlite_begin(struct store *st)
{
	sql_gid_forget(to_sqlite(st));
	return sql_stmt_exec(to_sqlite(st), ST_BEGIN, "begin");
}

int
sqlite_commit(struct store *st)
{
	sql_gid_forget(to_sqlite(st));
	return sql_stmt_exec(to_sqlite(st), ST_COMMIT, "commit");
}

/* A failed COMMIT may have rolled back already: then nothing to do. */
void
sqlite_rollback(struct store *st)
{
	struct sqlite_store	*s = to_sqlite(st);

	sql_gid_forget(s);
	if (sqlite3_get_autocommit(s->db))
		return;
	sql_stmt_quiet(s, ST_ROLLBACK);
}

/* A savepoint outside a transaction begins one. */
int
sqlite_savepoint(struct store *st, enum store_sp sp, const char *op)
{
	struct sqlite_store	*s = to_sqlite(st);

	if (sqlite3_get_autocommit(s->db))
		sql_gid_forget(s);
	return sql_stmt_exec(s, sp_stmt[sp][0], op);
}

/* The RELEASE of a savepoint opened outside a transaction commits. */
int
sqlite_release(struct store *st, enum store_sp sp, const char *op)
{
	struct sqlite_store	*s = to_sqlite(st);
	int			 rc;

	rc = sql_stmt_exec(s, sp_stmt[sp][1], op);
	if (sqlite3_get_autocommit(s->db))
		sql_gid_forget(s);
	return rc;
}

/* ROLLBACK TO keeps the savepoint open: RELEASE ends it. */
void
sqlite_rollback_to(struct store *st, enum store_sp sp)
{
	struct sqlite_store	*s = to_sqlite(st);

	/* It may undo the game's creation. */
	sql_gid_forget(s);
	sql_stmt_quiet(s, sp_stmt[sp][2]);
	sql_stmt_quiet(s, sp_stmt[sp][1]);
}

/* SQLite rolls a transaction back by itself on some errors (out of
 * memory, I/O, disk full): the connection is then in autocommit. */
int
sqlite_in_txn(struct store *st)
{
	return !sqlite3_get_autocommit(to_sqlite(st)->db);
}

/* PRAGMA data_version moves only with the commits of other
 * connections. */
int
sqlite_data_version(struct store *st, int64_t *v)
{
	sqlite3_stmt	*stmt = to_sqlite(st)->stmt[ST_DATA_VERSION];
	int		 rc;

	if (sqlite3_stmt_busy(stmt))
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(stmt, 0);
	sql_stmt_done(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Every row changed through the connection, the store's or not; blob
 * I/O (sqlite3_blob_write()) is not counted. */
int64_t
sqlite_changes(struct store *st)
{
	return sqlite3_total_changes64(to_sqlite(st)->db);
}
