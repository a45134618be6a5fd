/*
 * The store's public face, with what the other files of the core share:
 * the durability names, a store's setup and its error message, and the
 * reads that go to the backend as they are.  The transactions are in
 * txn.c, the games in games.c, the cache in coherence.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/core.h"
#include "util/util.h"

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

/*
 * The members of a table fit its caps: a locking backend has its row
 * writes and none of an optimistic one's, an optimistic backend the
 * reverse (backend.h).  The core calls what the caps say, unchecked.
 */
static int
ops_fit(const struct store_ops *o)
{
	int	 locking, optimistic;

	locking = (o->insert_game != NULL) + (o->insert_player != NULL) +
	    (o->insert_token != NULL) + (o->write_cell != NULL) +
	    (o->update_game != NULL) + (o->update_token != NULL) +
	    (o->insert_move != NULL) + (o->touch_game != NULL) +
	    (o->update_pending != NULL) + (o->update_seat != NULL);
	optimistic = (o->create != NULL) + (o->turn != NULL) +
	    (o->setup != NULL) + (o->pending != NULL) + (o->seat != NULL) +
	    (o->check != NULL) +
	    (o->version != NULL) + (o->request != NULL) +
	    (o->whole != NULL) + (o->conflicts != NULL) +
	    (o->import_moves != NULL) + (o->found_out != NULL) +
	    (o->outcome != NULL);
	if (o->lock_wait == NULL)
		return 0;
	if (o->caps & STORE_CAP_OPTIMISTIC)
		return locking == 0 && optimistic == 13;
	return locking == 10 && optimistic == 0;
}

void
store_init(struct store *st, const struct store_ops *ops)
{
	if (!ops_fit(ops)) {
		fprintf(stderr, "store: the %s backend's operations do not "
		    "fit its capabilities\n", ops->name);
		abort();
	}
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

void
store_set_lock_wait(struct store *st, int ms)
{
	if (st != NULL)
		st->ops->lock_wait(st, ms);
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

int
store_clear(struct store *st)
{
	if (st->txn)
		return store_set_err(st, "clear", "a transaction is open");
	game_cache_clear(st->cache);
	st->secret_known = 0;
	return st->ops->clear(st);
}

int
store_secret_read(struct store *st, uint8_t out[STORE_SECRET_LEN])
{
	return st->ops->secret_read(st, out);
}

/* ------------------------------------------- several nodes, generic */

/* The walks below stop the backend's with 1 and keep what the caller's
 * callback returned to stop (ret). */
struct since_walk {
	const char		*id;
	int64_t			 left;		/* < 0: no limit */
	store_game_move_cb	 cb;
	void			*arg;
	int			 ret;
};

static int
since_one(void *arg, const struct move *mv)
{
	struct since_walk	*w = arg;

	if (w->left == 0)
		return 1;
	if ((w->ret = w->cb(w->arg, w->id, mv)) != 0)
		return 1;
	if (w->left > 0)
		w->left--;
	return 0;
}

/* Without the backend's one query: one history walk per game. */
int
store_history_since(struct store *st, size_t n, const char *const ids[],
    const int64_t after[], int64_t limit, store_game_move_cb cb, void *arg)
{
	struct since_walk	 w = { NULL, limit, cb, arg, 0 };
	size_t			 i;

	if (st->ops->history_since != NULL)
		return st->ops->history_since(st, n, ids, after, limit, cb,
		    arg);
	for (i = 0; i < n && w.left != 0 && w.ret == 0; i++) {
		w.id = ids[i];
		if (st->ops->history(st, ids[i], after[i] + 1, -1, since_one,
		    &w) == STORE_ERR)
			return STORE_ERR;
	}
	return w.ret;
}

int
store_feed_send(struct store *st, size_t n, const char *const ids[],
    const int64_t after[], int64_t limit)
{
	if (st->ops->feed_send == NULL)
		return store_set_err(st, "feed", "this store has no feed");
	return st->ops->feed_send(st, n, ids, after, limit);
}

int
store_feed_wait(struct store *st, int *fd)
{
	*fd = -1;
	return st->ops->feed_wait != NULL ? st->ops->feed_wait(st, fd) : 0;
}

int
store_feed_step(struct store *st, store_game_move_cb cb, void *arg)
{
	if (st->ops->feed_step == NULL)
		return store_set_err(st, "feed", "this store has no feed");
	return st->ops->feed_step(st, cb, arg);
}

void
store_feed_cancel(struct store *st)
{
	if (st->ops->feed_cancel != NULL)
		st->ops->feed_cancel(st);
}

struct before_walk {
	int64_t			 before;
	int64_t			 left;
	store_deadline_cb	 cb;
	void			*arg;
	int			 ret;
};

/* list_deadlines is in deadline order: the first one past ends it. */
static int
before_one(void *arg, const char *id, int64_t deadline)
{
	struct before_walk	*w = arg;

	if (deadline >= w->before || w->left == 0)
		return 1;
	if ((w->ret = w->cb(w->arg, id, deadline)) != 0)
		return 1;
	if (w->left > 0)
		w->left--;
	return 0;
}

int
store_list_deadlines_before(struct store *st, int64_t before_ms,
    int64_t limit, store_deadline_cb cb, void *arg)
{
	struct before_walk	 w = { before_ms, limit, cb, arg, 0 };

	if (st->ops->deadlines_before != NULL)
		return st->ops->deadlines_before(st, before_ms, limit, cb,
		    arg);
	if (st->ops->list_deadlines(st, before_one, &w) == STORE_ERR)
		return STORE_ERR;
	return w.ret;
}
