/*
 * The store's core for retiring games, every backend: a game deleted
 * with all its rows, the finished games listed and counted (from an
 * index of them, sql/005_finished.sql), the free pages given back, and
 * the schema's version.
 */
#include <stdint.h>

#include "store/core.h"
#include "store/schema.h"

int
store_delete_game(struct store *st, const struct game *g)
{
	int64_t	 changes;
	int	 rc;

	if (st->ops->delete_game == NULL)
		return store_set_err(st, "delete_game", "not supported");
	if (txn_lost(st))
		return store_set_err(st, "delete_game",
		    "transaction rolled back by an earlier error");
	changes = cache_write_begin(st);
	/* One statement (its cascade included) is all or nothing: no
	 * savepoint of its own is needed. */
	rc = st->ops->delete_game(st, g->id, g->moves, g->stamp);
	cache_write_end(st, changes);
	/* Whatever came of it: a load after a delete undone reads the
	 * rows again, one after a delete kept finds none. */
	game_cache_remove(st->cache, g->id);
	if (rc == STORE_NOTFOUND)
		store_set_err(st, "delete_game",
		    "game missing or changed since it was loaded");
	return rc;
}

int
store_list_finished(struct store *st, int64_t before, int64_t limit,
    store_id_cb cb, void *arg)
{
	if (st->ops->list_finished == NULL)
		return store_set_err(st, "list_finished", "not supported");
	return st->ops->list_finished(st, before, limit, cb, arg);
}

int
store_count_finished(struct store *st, int64_t *n)
{
	*n = 0;
	if (st->ops->count_finished == NULL)
		return store_set_err(st, "count_finished", "not supported");
	return st->ops->count_finished(st, n);
}

int
store_count_in_play(struct store *st, int64_t *n)
{
	int64_t	 all[KIND_COUNT], done;

	*n = 0;
	if (st->ops->count_games(st, all) != 0 ||
	    store_count_finished(st, &done) != 0)
		return STORE_ERR;
	*n = all[KIND_NONE] - done;
	return 0;
}

int
store_reclaim(struct store *st, int64_t *left)
{
	*left = 0;
	if (st->ops->reclaim == NULL)
		return 0;
	if (st->txn)
		return store_set_err(st, "reclaim", "inside a transaction");
	return st->ops->reclaim(st, left);
}

int64_t
store_schema_version(const struct store *st)
{
	return st->schema;
}

int
store_schema_latest(int pg)
{
	return pg ? store_pg_migration_count : store_migration_count;
}
