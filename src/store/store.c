/*
 * The store's public face: every call goes through the backend's ops, so
 * that the command layer never names SQLite (or anything else).
 */
#include <stddef.h>
#include <strings.h>

#include "store/store.h"

static const char *const durability_names[] = {
	[DURABILITY_FULL] = "full",
	[DURABILITY_NORMAL] = "normal",
	[DURABILITY_OFF] = "off",
};
#define NDURABILITY	(sizeof(durability_names) / sizeof(durability_names[0]))

const char *
durability_name(enum durability d)
{
	if ((unsigned int)d >= NDURABILITY)
		return "unknown";
	return durability_names[d];
}

int
durability_parse(const char *s)
{
	size_t	 i;

	if (s == NULL)
		return -1;
	for (i = 0; i < NDURABILITY; i++)
		if (strcasecmp(s, durability_names[i]) == 0)
			return (int)i;
	return -1;
}

void
store_close(struct store *st)
{
	if (st != NULL)
		st->ops->close(st);
}

int
store_begin(struct store *st)
{
	return st->ops->begin(st);
}

int
store_commit(struct store *st)
{
	return st->ops->commit(st);
}

void
store_rollback(struct store *st)
{
	st->ops->rollback(st);
}

int
store_savepoint(struct store *st)
{
	return st->ops->savepoint(st);
}

int
store_savepoint_release(struct store *st)
{
	return st->ops->release(st);
}

void
store_savepoint_rollback(struct store *st)
{
	st->ops->rollback_to(st);
}

int
store_create_game(struct store *st, const struct game *g)
{
	return st->ops->create_game(st, g);
}

int
store_load_game(struct store *st, const char *id, struct game *g)
{
	return st->ops->load_game(st, id, g);
}

int
store_load_game_stored(struct store *st, const char *id, struct game *g)
{
	return st->ops->load_stored(st, id, g);
}

int
store_save_setup(struct store *st, const struct game *old,
    const struct game *new)
{
	return st->ops->save_setup(st, old, new);
}

int
store_save_turn(struct store *st, const struct game *old,
    const struct game *new, const struct move *mv)
{
	return st->ops->save_turn(st, old, new, mv);
}

int
store_save_opts(struct store *st, const struct game *g)
{
	return st->ops->save_opts(st, g);
}

int
store_list_deadlines(struct store *st, store_deadline_cb cb, void *arg)
{
	return st->ops->list_deadlines(st, cb, arg);
}

int
store_secret(struct store *st, const uint8_t fresh[STORE_SECRET_LEN],
    uint8_t out[STORE_SECRET_LEN])
{
	return st->ops->secret(st, fresh, out);
}

int
store_history(struct store *st, const char *id, int64_t from, int64_t count,
    store_move_cb cb, void *arg)
{
	return st->ops->history(st, id, from, count, cb, arg);
}

int
store_list_games(struct store *st, enum game_kind kind, const char *after,
    int64_t limit, store_id_cb cb, void *arg)
{
	return st->ops->list_games(st, kind, after, limit, cb, arg);
}

int
store_count_games(struct store *st, int64_t counts[KIND_COUNT])
{
	return st->ops->count_games(st, counts);
}

int64_t
store_size(struct store *st)
{
	return st->ops->size(st);
}

int
store_set_game_cache(struct store *st, int64_t games)
{
	return st->ops->set_cache(st, games);
}

void
store_game_cache_stats(struct store *st, struct store_cache_stats *cs)
{
	st->ops->cache_stats(st, cs);
}

const char *
store_errmsg(struct store *st)
{
	if (st == NULL)
		return "no store";
	return st->ops->errmsg(st);
}
