/*
 * The store's public face, with what the other files of the core share:
 * the durability names, a store's setup and its error message, and the
 * reads that go to the backend as they are.  The transactions are in
 * txn.c, the games in games.c, the cache in coherence.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "store/core.h"

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
store_init(struct store *st, const struct store_ops *ops)
{
	st->ops = ops;
	/* Lets a whole test suite run with every hit checked. */
	st->check = getenv("LUDUS_GAME_CACHE_CHECK") != NULL;
}

int
store_set_err(struct store *st, const char *op, const char *msg)
{
	char	*p;

	snprintf(st->err, sizeof(st->err), "%s: %s", op, msg);
	for (p = st->err; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return STORE_ERR;
}

const char *
store_errmsg(struct store *st)
{
	if (st == NULL)
		return "no store";
	return st->err;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	game_cache_free(st->cache);
	st->cache = NULL;
	st->ops->close(st);
}

/* ------------------------------------------------------------- reads */

int
store_list_deadlines(struct store *st, store_deadline_cb cb, void *arg)
{
	return st->ops->list_deadlines(st, cb, arg);
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
