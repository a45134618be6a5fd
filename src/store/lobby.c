/*
 * The lobby's rows for every backend (store.h, "the lobby"): accounts,
 * ratings, tickets, the seats accounts hold.  Each write runs in a
 * savepoint of its own (txn.c), so that it is all or nothing even when
 * the caller has no transaction open, and is counted as the store's
 * own change, which the game cache's coherence must not take for
 * another connection's (coherence.c).  A match is a create with more
 * rows (games.c, optimistic.c).
 */
#include <string.h>

#include "store/core.h"

/* The write of one lobby operation, around the backend's statement. */
struct lobby_write {
	int64_t		 changes;
	const char	*op;
};

static int
write_start(struct store *st, struct lobby_write *w, const char *op)
{
	w->op = op;
	if (txn_write_begin(st, op) != 0)
		return STORE_ERR;
	w->changes = cache_write_begin(st);
	return 0;
}

/* rc is the statement's: a refusal (EXISTS, NOTFOUND, LIMIT) or an
 * error undoes the write. */
static int
write_finish(struct store *st, struct lobby_write *w, int rc)
{
	cache_write_end(st, w->changes);
	if (rc != 0) {
		txn_write_abort(st);
		return rc;
	}
	return txn_write_end(st, w->op);
}

/* ---------------------------------------------------------- accounts */

int
store_account_create(struct store *st, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN], int64_t created)
{
	struct lobby_write	 w;

	if (write_start(st, &w, "account") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->account_insert(st, name,
	    key, created));
}

int
store_account_get(struct store *st, const char *name,
    struct store_account *out)
{
	memset(out, 0, sizeof(*out));
	out->bot = -1;
	return st->ops->lobby->account_read(st, name, out);
}

int
store_account_rekey(struct store *st, const char *name,
    const uint8_t key[STORE_KEY_HASH_LEN],
    const uint8_t old[STORE_KEY_HASH_LEN])
{
	struct lobby_write	 w;

	if (write_start(st, &w, "account_key") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->account_rekey(st, name,
	    key, old));
}

/* ----------------------------------------------------------- ratings */

int
store_rating_get(struct store *st, const char *account, enum game_kind kind,
    struct store_rating *out)
{
	return st->ops->lobby->rating_read(st, account, kind, out);
}

int
store_ratings_save(struct store *st, enum game_kind kind, int n,
    const char *const accounts[], const struct store_rating old[],
    const struct store_rating new[])
{
	struct lobby_write	 w;

	if (n <= 0)
		return 0;
	if (write_start(st, &w, "ratings") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->ratings_write(st, kind, n,
	    accounts, old, new));
}

int
store_leaderboard(struct store *st, enum game_kind kind, int64_t offset,
    int64_t limit, store_rating_cb cb, void *arg)
{
	return st->ops->lobby->leaderboard(st, kind, offset, limit, cb, arg);
}

/* ----------------------------------------------------------- tickets */

int
store_ticket_join(struct store *st, struct store_ticket *t,
    int64_t max_waiting)
{
	struct lobby_write	 w;

	if (t->players_min < 2 || t->players_max < t->players_min ||
	    t->players_max > GAME_MAX_PLAYERS || t->queue[0] == '\0')
		return store_set_err(st, "ticket", "not a valid ticket");
	t->state = TICKET_WAITING;
	t->game[0] = '\0';
	t->seat = -1;
	t->ended = 0;
	if (write_start(st, &w, "ticket") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->ticket_insert(st, t,
	    max_waiting));
}

int
store_ticket_get(struct store *st, int64_t id, struct store_ticket *out)
{
	memset(out, 0, sizeof(*out));
	out->seat = -1;
	out->bots_after = -1;
	return st->ops->lobby->ticket_read(st, id, out);
}

int
store_ticket_cancel(struct store *st, int64_t id, int64_t ended)
{
	struct lobby_write	 w;

	if (write_start(st, &w, "cancel") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->ticket_cancel(st, id,
	    ended));
}

int
store_tickets_waiting(struct store *st, const char *queue, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	return st->ops->lobby->tickets_waiting(st, queue, limit, cb, arg);
}

int
store_queues(struct store *st, enum game_kind kind, store_queue_cb cb,
    void *arg)
{
	return st->ops->lobby->queues(st, kind, cb, arg);
}

int
store_tickets_ended(struct store *st, size_t n, const int64_t ids[],
    store_ticket_cb cb, void *arg)
{
	if (n == 0)
		return 0;
	return st->ops->lobby->tickets_ended(st, n, ids, cb, arg);
}

/* ------------------------------------------------ seats and matches */

int
store_game_accounts(struct store *st, const char *game, store_seat_cb cb,
    void *arg)
{
	return st->ops->lobby->game_accounts(st, game, cb, arg);
}

int
store_account_games(struct store *st, const char *account,
    enum store_games_filter filter, const char *after, int64_t limit,
    store_account_game_cb cb, void *arg)
{
	return st->ops->lobby->account_games(st, account, filter, after,
	    limit, cb, arg);
}

/* ------------------------------------------------------- ludus copy */

int
store_each_account(struct store *st, store_account_cb cb, void *arg)
{
	return st->ops->lobby->each_account(st, cb, arg);
}

int
store_each_rating(struct store *st, store_each_rating_cb cb, void *arg)
{
	return st->ops->lobby->each_rating(st, cb, arg);
}

int
store_each_ticket(struct store *st, int64_t after, int64_t limit,
    store_ticket_cb cb, void *arg)
{
	return st->ops->lobby->each_ticket(st, after, limit, cb, arg);
}

int
store_each_seat(struct store *st, store_each_seat_cb cb, void *arg)
{
	return st->ops->lobby->each_seat(st, cb, arg);
}

int
store_ticket_import(struct store *st, const struct store_ticket *t)
{
	struct lobby_write	 w;

	if (write_start(st, &w, "ticket") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->ticket_import(st, t));
}

int
store_seat_import(struct store *st, const char *game, int idx,
    const char *account)
{
	struct lobby_write	 w;

	if (write_start(st, &w, "seat") != 0)
		return STORE_ERR;
	return write_finish(st, &w, st->ops->lobby->seat_import(st, game,
	    idx, account));
}

int
store_queue_lock(struct store *st, const char *queue)
{
	if (st->ops->lobby->queue_lock == NULL)
		return 1;
	return st->ops->lobby->queue_lock(st, queue);
}
