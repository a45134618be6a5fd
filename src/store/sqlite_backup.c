/*
 * The SQLite backend's side of ludus copy: emptying a database (every
 * game's rows, the lobby's rows with the secret their keys are hashed
 * with) and the online backup of a file.
 */
#include <sqlite3.h>
#include <stdio.h>

#include "store/sqlite.h"
#include "store/sqlite_int.h"

/* Every table emptied in one transaction: the statements of
 * ST_CLEAR_FIRST to ST_CLEAR_LAST (sqlite_stmt.c says why that order). */
int
sqlite_clear(struct store *st)
{
	struct sqlite_store	*s = to_sqlite(st);
	int			 i;

	sql_gid_forget(s);
	if (sql_stmt_exec(s, ST_BEGIN, "clear") != 0)
		return STORE_ERR;
	for (i = ST_CLEAR_FIRST; i <= ST_CLEAR_LAST; i++)
		if (sql_stmt_exec(s, i, "clear") != 0)
			break;
	if (i > ST_CLEAR_LAST && sql_stmt_exec(s, ST_COMMIT, "clear") == 0)
		return 0;
	if (!sqlite3_get_autocommit(s->db))
		sql_stmt_quiet(s, ST_ROLLBACK);
	return STORE_ERR;
}

static int
backup_err(sqlite3 *db, const char *what, char *err, size_t len)
{
	snprintf(err, len, "%s: %s", what, db != NULL ? sqlite3_errmsg(db) :
	    "out of memory");
	return -1;
}

int
store_sqlite_backup(const char *from, const char *to, char *err,
    size_t errlen)
{
	sqlite3		*src = NULL, *dst = NULL;
	sqlite3_backup	*b;
	int		 rc = -1;

	if (sqlite3_open_v2(from, &src, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		backup_err(src, from, err, errlen);
		goto done;
	}
	sqlite3_busy_timeout(src, 5000);
	if (sqlite3_open_v2(to, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		backup_err(dst, to, err, errlen);
		goto done;
	}
	sqlite3_busy_timeout(dst, 5000);
	if ((b = sqlite3_backup_init(dst, "main", src, "main")) == NULL) {
		backup_err(dst, to, err, errlen);
		goto done;
	}
	/* -1: every page in one step, one read transaction of from. */
	if (sqlite3_backup_step(b, -1) != SQLITE_DONE) {
		sqlite3_backup_finish(b);
		backup_err(dst, "backup", err, errlen);
		goto done;
	}
	if (sqlite3_backup_finish(b) != SQLITE_OK) {
		backup_err(dst, "backup", err, errlen);
		goto done;
	}
	rc = 0;
done:
	sqlite3_close(src);
	sqlite3_close(dst);
	return rc;
}
