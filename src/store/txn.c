/*
 * The caller's transaction and its turn savepoints (store_begin() ...
 * store_savepoint_rollback(), store.h), and the savepoint each write
 * opens of its own (txn_write_*): the state every backend shares, the
 * statements the backend's.  The game cache is told of each begin, end
 * and undo (coherence.c).
 */
#include <time.h>

#include "store/core.h"

int
store_begin(struct store *st)
{
	if (st->ops->begin(st) != 0)
		return STORE_ERR;
	st->txn = 1;
	st->turns = 0;
	cache_txn(st, 1);
	return 0;
}

/* The caller's transaction is over, and whatever it put in the cache
 * forgotten (keep: not, it committed). */
static void
txn_over(struct store *st, int keep)
{
	st->secret_made = 0;
	if (!keep) {
		cache_undo(st, CACHE_TURN);
		cache_undo(st, CACHE_TXN);
	}
	cache_txn(st, 0);
	st->txn = 0;
	st->turns = 0;
}

void
store_rollback(struct store *st)
{
	txn_over(st, 0);
	/* "No transaction" is not an error: a failed COMMIT may have
	 * rolled back already. */
	st->ops->rollback(st);
}

int
store_commit(struct store *st)
{
	int	 rc;

	if ((rc = st->ops->commit(st)) == 0) {
		txn_over(st, 1);
		return 0;
	}
	/* Committed or not: the cache keeps nothing of it, and the
	 * backend's COMMIT is over (not rolled back, which would forget
	 * what it must find out). */
	if (rc == STORE_PENDING) {
		txn_over(st, 0);
		return STORE_PENDING;
	}
	/* SQLITE_BUSY and friends leave the transaction open. */
	store_rollback(st);
	return STORE_ERR;
}

int
store_commit_outcome(struct store *st, int last)
{
	if (!opt_mode(st))
		return store_set_err(st, "commit", "no outcome to find out");
	return st->ops->outcome(st, last);
}

int
store_commit_wait(struct store *st)
{
	const struct timespec	 pause = { 0, 200 * 1000 * 1000 };
	int			 rc;

	if ((rc = store_commit(st)) != STORE_PENDING)
		return rc;
	while ((rc = store_commit_outcome(st, 0)) == STORE_PENDING)
		(void)nanosleep(&pause, NULL);
	return rc;
}

/*
 * A turn of a batch.  A savepoint outside a transaction would open one
 * of its own, which the batch's COMMIT would then commit although the
 * turns before it were lost with the transaction the backend rolled
 * back: refused.
 */
int
store_savepoint(struct store *st)
{
	if (!st->txn)
		return store_set_err(st, "savepoint", "no transaction open");
	if (txn_lost(st))
		return store_set_err(st, "savepoint",
		    "transaction rolled back by an earlier error");
	if (st->ops->savepoint(st, STORE_SP_TURN, "savepoint") != 0)
		return STORE_ERR;
	cache_turn_open(st, st->turns++);
	st->seen.set = 0;
	return 0;
}

/* The innermost turn savepoint has ended. */
static void
turn_end(struct store *st)
{
	if (st->turns > 0)
		cache_turn_close(st, --st->turns);
}

int
store_savepoint_release(struct store *st)
{
	if (txn_lost(st))
		return store_set_err(st, "release",
		    "transaction rolled back by an earlier error");
	if (st->ops->release(st, STORE_SP_TURN, "release") != 0)
		return STORE_ERR;
	/* Its writes are the transaction's now. */
	turn_end(st);
	if (opt_mode(st))
		opt_turn_end(st, 1);
	return 0;
}

/* The failed turn's message is kept: it is what the caller replies. */
void
store_savepoint_rollback(struct store *st)
{
	cache_turn_undone(st);
	turn_end(st);
	if (!st->ops->in_txn(st)) {
		/* The whole transaction is gone. */
		cache_undo(st, CACHE_TXN);
		return;
	}
	st->ops->rollback_to(st, STORE_SP_TURN);
	/* What the undone turn read is checked instead of its write. */
	if (opt_mode(st))
		opt_turn_end(st, 0);
}

/* ----------------------------------------------------- a write's own */

static int
write_own(const struct store *st)
{
	return st->turns == 0;
}

int
txn_write_begin(struct store *st, const char *op)
{
	if (txn_lost(st))
		return store_set_err(st, op,
		    "transaction rolled back by an earlier error");
	if (!write_own(st))
		return 0;
	return st->ops->savepoint(st, STORE_SP_WRITE, op);
}

int
txn_write_end(struct store *st, const char *op)
{
	if (!write_own(st))
		return 0;
	return st->ops->release(st, STORE_SP_WRITE, op);
}

int
txn_write_abort(struct store *st)
{
	if (write_own(st))
		st->ops->rollback_to(st, STORE_SP_WRITE);
	return STORE_ERR;
}
