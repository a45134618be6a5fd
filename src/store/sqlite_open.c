/*
 * The SQLite backend: opening a database (its pragmas and the missing
 * migrations, each in its own transaction), closing it, and the table of
 * operations the store's core calls (store/backend.h).  The schema
 * lives in sql/ and is compiled in (schema.c); every statement is
 * prepared once (sqlite_stmt.c).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/schema.h"
#include "store/sqlite.h"
#include "store/sqlite_int.h"
#include "util/util.h"

#define BUSY_TIMEOUT_MS	5000

/*
 * The page size of a new database (an existing one keeps its own: SQLite
 * changes it only by a VACUUM, which WAL mode refuses).  A turn dirties
 * about three pages at random places (games, tokens, history), each one
 * WAL frame at every commit: 2 KiB halves the bytes a commit writes and
 * fsyncs, and the checksums SQLite computes over them, against 4 KiB.
 * 1 KiB would halve them again, but then a DandyLand games row with a
 * long deck (up to about 1.1 KB) no longer fits in its page and every
 * turn would rewrite its overflow pages; at 2 KiB every games row a
 * game can have fits.
 */
#define PAGE_SIZE_NEW	"2048"

/*
 * A new database keeps the bookkeeping an incremental vacuum needs, so
 * that the pages of deleted games can be given back to the file system
 * a step at a time (store_reclaim()) instead of by a VACUUM, which
 * rewrites the whole file under the write lock.  It can only be set
 * before the first table; a database made before keeps auto_vacuum
 * none (its free pages are reused, not given back).
 */
#define AUTO_VACUUM_NEW	"PRAGMA auto_vacuum = INCREMENTAL"

static const char *const sync_pragma[] = {
	[DURABILITY_FULL] = "PRAGMA synchronous = FULL",
	[DURABILITY_NORMAL] = "PRAGMA synchronous = NORMAL",
	[DURABILITY_OFF] = "PRAGMA synchronous = OFF",
};

/* The core has freed what is its own (the cache). */
static void
sqlite_close(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);

	sqlite_ckpt_stop(s);
	sql_finalize_all(s);
	sqlite3_close(s->db);
	free(s);
}

/* Runs one open-time statement and returns its first column as an
 * integer (0 if it returns no row). */
static int
open_int(struct sqlite_store *s, const char *sql, int64_t *v)
{
	sqlite3_stmt	*st;
	int		 rc;

	*v = 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_db_err(s, sql);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		sql_db_err(s, sql);
		sqlite3_finalize(st);
		return STORE_ERR;
	}
	sqlite3_finalize(st);
	return 0;
}

static int
open_journal(struct sqlite_store *s)
{
	sqlite3_stmt		*st;
	const unsigned char	*mode;
	int			 ok;

	if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st,
	    NULL) != SQLITE_OK)
		return sql_db_err(s, "journal_mode");
	if (sqlite3_step(st) != SQLITE_ROW) {
		sql_db_err(s, "journal_mode");
		sqlite3_finalize(st);
		return STORE_ERR;
	}
	/* An in-memory database cannot use WAL and says "memory". */
	mode = sqlite3_column_text(st, 0);
	ok = mode != NULL && (strcasecmp((const char *)mode, "wal") == 0 ||
	    strcasecmp((const char *)mode, "memory") == 0);
	if (!ok)
		store_set_err(&s->store, "journal_mode",
		    "cannot switch to WAL");
	sqlite3_finalize(st);
	return ok ? 0 : STORE_ERR;
}

/* A database written by a newer ludus is refused before anything of it
 * is touched. */
static int
check_version(struct sqlite_store *s, int64_t *version)
{
	char	 msg[128];

	if (open_int(s, "PRAGMA user_version", version) != 0)
		return STORE_ERR;
	if (*version < 0 || *version > store_migration_count) {
		snprintf(msg, sizeof(msg), "database schema version %lld is "
		    "newer than this program's (%d)", (long long)*version,
		    store_migration_count);
		return store_set_err(&s->store, "open", msg);
	}
	return 0;
}

/* Migrations run with foreign keys off; what a migration leaves must
 * still satisfy them before it commits. */
static int
check_foreign_keys(struct sqlite_store *s, const char *op)
{
	sqlite3_stmt	*st;
	const char	*table;
	char		 msg[128];
	int		 rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
	    NULL) != SQLITE_OK)
		return sql_db_err(s, op);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if ((table = (const char *)sqlite3_column_text(st, 0)) == NULL)
			table = "a table";
		snprintf(msg, sizeof(msg), "foreign key violated in %s",
		    table);
	} else if (rc != SQLITE_DONE)
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_set_err(&s->store, op, msg);
}

/* One migration, in its own transaction.  The version is read again
 * under the write lock: another process may have migrated meanwhile. */
static int
migrate_one(struct sqlite_store *s, int *done)
{
	int64_t	 v, after;
	char	 op[32];

	*done = 0;
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return sql_db_err(s, "migrate");
	if (check_version(s, &v) != 0)
		goto fail;
	if (v == store_migration_count) {
		*done = 1;
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	snprintf(op, sizeof(op), "migration %lld", (long long)v + 1);
	if (sqlite3_exec(s->db, store_migrations[v], NULL, NULL,
	    NULL) != SQLITE_OK) {
		sql_db_err(s, op);
		goto fail;
	}
	if (open_int(s, "PRAGMA user_version", &after) != 0)
		goto fail;
	if (after != v + 1) {
		store_set_err(&s->store, op, "did not set user_version");
		goto fail;
	}
	if (check_foreign_keys(s, op) != 0)
		goto fail;
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sql_db_err(s, op);
		goto fail;
	}
	return 0;
fail:
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return STORE_ERR;
}

/*
 * Foreign keys are off while migrations run, as SQLite's procedure for
 * rebuilding a table needs (migration 3): dropping games would cascade
 * into its children.  PRAGMA foreign_keys is a no-op inside a
 * transaction, hence here, before each migration's own.
 */
static int
migrate(struct sqlite_store *s, int64_t version)
{
	int64_t	 v;
	int	 done = version == store_migration_count;

	if (done)
		return 0;
	if (open_int(s, "PRAGMA foreign_keys = OFF", &v) != 0)
		return STORE_ERR;
	while (!done)
		if (migrate_one(s, &done) != 0)
			return STORE_ERR;
	return open_int(s, "PRAGMA foreign_keys = ON", &v);
}

/*
 * SQLite's process-wide settings, which it takes only before it starts
 * (the first sqlite3_open()): memory statistics off.  It keeps them
 * under a global mutex around every allocation, which a NOMUTEX
 * connection does not remove: 5% of a turn's instructions, for figures
 * nothing here reads (sqlite3_memory_used()).  Once per process, hence
 * the static: the store is opened from one thread (ludusd has no other,
 * the CLI neither).  A program that started SQLite itself before (a
 * test with its own allocator) keeps its settings: the call is refused
 * and changes nothing.
 */
static void
configure_sqlite(void)
{
	static int	 configured;

	if (configured)
		return;
	configured = 1;
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int
open_db(struct sqlite_store *s, const char *path, enum durability d)
{
	int64_t	 version, fk, av;

	if ((unsigned int)d >= sizeof(sync_pragma) / sizeof(sync_pragma[0]))
		return store_set_err(&s->store, "open", "unknown durability");
	configure_sqlite();
	/*
	 * One connection, used by one thread: SQLite's per-call mutexes
	 * (Debian builds it fully thread-safe) are pure cost, 4-10% of the
	 * daemon's CPU in profiles.
	 */
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		if (s->db == NULL)
			return store_set_err(&s->store, "open",
			    "out of memory");
		return sql_db_err(s, "open");
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (open_int(s, "PRAGMA page_size = " PAGE_SIZE_NEW, &fk) != 0 ||
	    check_version(s, &version) != 0 ||
	    (version == 0 && open_int(s, AUTO_VACUUM_NEW, &fk) != 0) ||
	    open_journal(s) != 0 ||
	    open_int(s, sync_pragma[d], &fk) != 0 ||
	    open_int(s, "PRAGMA foreign_keys = ON", &fk) != 0 ||
	    open_int(s, "PRAGMA foreign_keys", &fk) != 0)
		return STORE_ERR;
	if (fk != 1)
		return store_set_err(&s->store, "open",
		    "SQLite lacks foreign keys");
	if (migrate(s, version) != 0 ||
	    open_int(s, "PRAGMA auto_vacuum", &av) != 0 ||
	    sql_prepare_all(s) != 0 || sqlite_ckpt_start(s, d) != 0)
		return STORE_ERR;
	s->incremental = av == 2;
	s->store.schema = store_migration_count;
	return 0;
}

struct store *
store_sqlite_open(const char *path, enum durability d, char *errbuf,
    size_t errlen)
{
	struct sqlite_store	*s;

	s = xcalloc(1, sizeof(*s));
	store_init(&s->store, &sqlite_ops);
	if (open_db(s, path, d) != 0 ||
	    store_set_game_cache(&s->store, STORE_GAME_CACHE_DEFAULT) != 0) {
		if (errbuf != NULL && errlen > 0)
			snprintf(errbuf, errlen, "%s: %s", path,
			    store_errmsg(&s->store));
		store_close(&s->store);
		return NULL;
	}
	return &s->store;
}

struct sqlite3 *
store_sqlite_handle(struct store *store)
{
	if (store == NULL || store->ops != &sqlite_ops)
		return NULL;
	return to_sqlite(store)->db;
}

/* sqlite3_busy_timeout() with ms <= 0 removes the handler. */
static void
sqlite_lock_wait(struct store *store, int ms)
{
	sqlite3_busy_timeout(to_sqlite(store)->db, ms > 0 ? ms : 0);
}

void
store_sqlite_set_busy_timeout(struct store *store, int ms)
{
	if (store_sqlite_handle(store) != NULL)
		sqlite_lock_wait(store, ms);
}

void
store_sqlite_ckpt_stats(struct store *store,
    struct store_sqlite_ckpt_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (store_sqlite_handle(store) != NULL)
		sqlite_ckpt_stats(to_sqlite(store), out);
}

void
store_sqlite_set_cache_check(struct store *store, int on)
{
	if (store_sqlite_handle(store) != NULL)
		store->check = on != 0;
}

const struct store_ops sqlite_ops = {
	.name = "sqlite",
	.lobby = &sqlite_lobby_ops,
	.close = sqlite_close,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.savepoint = sqlite_savepoint,
	.release = sqlite_release,
	.rollback_to = sqlite_rollback_to,
	.in_txn = sqlite_in_txn,
	.data_version = sqlite_data_version,
	.changes = sqlite_changes,
	.insert_game = sqlite_insert_game,
	.insert_player = sqlite_insert_player,
	.insert_token = sqlite_insert_token,
	.write_cell = sqlite_write_cell,
	.read_game = sqlite_read_game,
	.read_players = sqlite_read_players,
	.read_tokens = sqlite_read_tokens,
	.read_cells = sqlite_read_cells,
	.update_game = sqlite_update_game,
	.update_token = sqlite_update_token,
	.insert_move = sqlite_insert_move,
	.touch_game = sqlite_touch_game,
	.update_pending = sqlite_update_pending,
	.update_seat = sqlite_update_seat,
	.secret_read = sqlite_secret_read,
	.secret_insert = sqlite_secret_insert,
	.list_deadlines = sqlite_list_deadlines,
	.history = sqlite_history,
	.list_games = sqlite_list_games,
	.count_games = sqlite_count_games,
	.size = sqlite_size,
	.clear = sqlite_clear,
	.delete_game = sqlite_delete_game,
	.list_finished = sqlite_list_finished,
	.count_finished = sqlite_count_finished,
	.reclaim = sqlite_reclaim,
	.lock_wait = sqlite_lock_wait,
};
