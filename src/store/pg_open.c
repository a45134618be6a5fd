/*
 * The PostgreSQL backend: opening a database (the missing migrations of
 * sql/pg/, compiled in, each in its own transaction), registering this
 * node, closing, and the table of operations the store's core calls.
 *
 * Several nodes may start at once on a new database: each migration
 * runs holding a transaction-level advisory lock, so they take turns,
 * and each reads the version again under the lock (the one before it
 * may have done the work).  The version lives in ludus_schema, created
 * under the same lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "store/schema.h"
#include "util/util.h"

/* Any number, the same in every ludus: "ludus" in ASCII. */
#define MIGRATE_LOCK	"SELECT pg_advisory_xact_lock(465660605811)"
#define LOCK_TIMEOUT_MS	1000

/* Notices ("relation already exists, skipping") are nobody's business. */
static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static void
pg_close(struct store *st)
{
	struct pg_store	*s = to_pg(st);

	pg_drop(s);
	pg_feed_free(s);
	free(s->q);
	free(s->order);
	pg_set_free(s);
	free(s->whole);
	free(s->qlocks);
	free(s->arena);
	free(s->uri);
	free(s);
}

static int
exec_status(struct pg_store *s, PGconn *pc, const char *sql,
    ExecStatusType want, PGresult **out)
{
	PGresult	*r = PQexec(pc, sql);

	if (r == NULL || PQresultStatus(r) != want) {
		pg_err(s, "migrate", pc, r);
		PQclear(r);
		return STORE_ERR;
	}
	if (out != NULL)
		*out = r;
	else
		PQclear(r);
	return 0;
}

static int
schema_version(struct pg_store *s, PGconn *pc, int64_t *v)
{
	PGresult	*r;
	int		 rc = 0;

	if (exec_status(s, pc, "SELECT version FROM ludus_schema",
	    PGRES_TUPLES_OK, &r) != 0)
		return STORE_ERR;
	if (PQntuples(r) != 1 || pg_col_int(r, 0, 0, v) != 0)
		rc = store_set_err(&s->store, "migrate",
		    "ludus_schema must hold one version");
	PQclear(r);
	return rc;
}

/* One migration, or none when the schema is current (*done). */
static int
migrate_one(struct pg_store *s, PGconn *pc, int *done)
{
	char	 msg[128];
	int64_t	 v, after;

	*done = 0;
	if (exec_status(s, pc, "BEGIN", PGRES_COMMAND_OK, NULL) != 0 ||
	    exec_status(s, pc, MIGRATE_LOCK, PGRES_TUPLES_OK, NULL) != 0 ||
	    exec_status(s, pc, "CREATE TABLE IF NOT EXISTS ludus_schema"
	    " (version integer NOT NULL)", PGRES_COMMAND_OK, NULL) != 0 ||
	    exec_status(s, pc, "INSERT INTO ludus_schema (version) SELECT 0"
	    " WHERE NOT EXISTS (SELECT 1 FROM ludus_schema)",
	    PGRES_COMMAND_OK, NULL) != 0 || schema_version(s, pc, &v) != 0)
		return STORE_ERR;
	if (v < 0 || v > store_pg_migration_count) {
		snprintf(msg, sizeof(msg), "database schema version %lld is "
		    "newer than this program's (%d)", (long long)v,
		    store_pg_migration_count);
		return store_set_err(&s->store, "open", msg);
	}
	if (v == store_pg_migration_count) {
		*done = 1;
		return exec_status(s, pc, "COMMIT", PGRES_COMMAND_OK, NULL);
	}
	if (exec_status(s, pc, store_pg_migrations[v], PGRES_COMMAND_OK,
	    NULL) != 0 || schema_version(s, pc, &after) != 0)
		return STORE_ERR;
	if (after != v + 1)
		return store_set_err(&s->store, "migrate",
		    "a migration did not set its version");
	return exec_status(s, pc, "COMMIT", PGRES_COMMAND_OK, NULL);
}

/* On a connection of its own, closed after. */
static int
migrate(struct pg_store *s)
{
	const char *const kw[] = { "connect_timeout", "application_name",
	    "dbname", NULL };
	const char *const val[] = { "10", "ludus-migrate", s->uri, NULL };
	PGconn	*pc;
	int	 done = 0, rc = 0;

	pc = PQconnectdbParams(kw, val, 1);
	if (pc == NULL || PQstatus(pc) != CONNECTION_OK) {
		pg_err(s, "open", pc, NULL);
		PQfinish(pc);
		return STORE_ERR;
	}
	PQsetNoticeProcessor(pc, quiet, NULL);
	while (!done && rc == 0)
		rc = migrate_one(s, pc, &done);
	PQfinish(pc);
	return rc;
}

/* This node's row of ludus_nodes (and the rows of nodes gone for a day
 * dropped), which its transactions mark. */
static int
register_node(struct pg_store *s)
{
	const char	*params[1];
	char		 v[PG_INT_MAX];
	PGresult	*r;

	s->node = pg_unique(s);
	params[0] = pg_int(v, s->node);
	if ((r = pg_rd_one(s, "open", PS_NODE_ADD, 1, params)) == NULL)
		return STORE_ERR;
	PQclear(r);
	if ((r = pg_rd_one(s, "open", PS_NODE_PRUNE, 0, NULL)) == NULL)
		return STORE_ERR;
	PQclear(r);
	return 0;
}

struct store *
store_pg_open(const char *uri, enum durability d, char *errbuf,
    size_t errlen)
{
	struct pg_store	*s;

	s = xcalloc(1, sizeof(*s));
	store_init(&s->store, &pg_ops);
	s->uri = xstrdup(uri);
	s->durability = d;
	s->lock_ms = LOCK_TIMEOUT_MS;
	if ((unsigned int)d > DURABILITY_OFF)
		store_set_err(&s->store, "open", "unknown durability");
	else if (migrate(s) == 0 && pg_ready(s, "open") == 0 &&
	    register_node(s) == 0 &&
	    store_set_game_cache(&s->store, STORE_GAME_CACHE_DEFAULT) == 0) {
		s->store.schema = store_pg_migration_count;
		return &s->store;
	}
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", store_errmsg(&s->store));
	store_close(&s->store);
	return NULL;
}

static void
pg_lock_wait(struct store *st, int ms)
{
	pg_set_lock(to_pg(st), ms);
}

static uint64_t
pg_found_out(struct store *st, uint64_t *stored)
{
	*stored = to_pg(st)->found_stored;
	return to_pg(st)->found;
}

const struct store_ops pg_ops = {
	.name = "postgresql",
	.caps = STORE_CAP_OPTIMISTIC,
	.lobby = &pg_lobby_ops,
	.close = pg_close,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.savepoint = pg_savepoint,
	.release = pg_release,
	.rollback_to = pg_rollback_to,
	.in_txn = pg_in_txn,
	.data_version = pg_data_version,
	.changes = pg_changes,
	.read_game = pg_read_game,
	.read_players = pg_read_players,
	.read_tokens = pg_read_tokens,
	.read_cells = pg_read_cells,
	.secret_read = pg_secret_read,
	.secret_insert = pg_secret_insert,
	.list_deadlines = pg_list_deadlines,
	.history = pg_history,
	.list_games = pg_list_games,
	.count_games = pg_count_games,
	.size = pg_size,
	.clear = pg_clear_all,
	.delete_game = pg_delete_game,
	.list_finished = pg_list_finished,
	.count_finished = pg_count_finished,
	.lock_wait = pg_lock_wait,
	.create = pg_create,
	.turn = pg_turn,
	.setup = pg_setup,
	.pending = pg_pending,
	.seat = pg_seat,
	.check = pg_check,
	.version = pg_version,
	.request = pg_request,
	.whole = pg_whole,
	.conflicts = pg_conflicts,
	.import_moves = pg_import_moves,
	.found_out = pg_found_out,
	.outcome = pg_outcome,
	.history_since = pg_history_since,
	.deadlines_before = pg_deadlines_before,
	.feed_send = pg_feed_send,
	.feed_wait = pg_feed_wait,
	.feed_step = pg_feed_step,
	.feed_cancel = pg_feed_cancel,
};
