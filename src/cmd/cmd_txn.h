/*
 * The command layer's half of group commit: the transaction that the
 * writes of a daemon's pass share (cmd_txn.c).  The daemon (the network
 * layer's pass, src/net/pass.c) makes one with cmd_txn_new(), puts it in
 * env->txn and, when its pass ends, commits it; it learns where the
 * transaction stands from the result of each command (struct cmd_result,
 * cmd_run()) and asks nothing else.
 *
 * With env->txn set, the first write opens a transaction (BEGIN
 * IMMEDIATE) and every write, until cmd_txn_commit(), runs in a savepoint
 * of it: a write that fails for its own reasons (a constraint, NOGAME, a
 * refused move) is rolled back alone and replied at once; the others'
 * replies are final only once the transaction has committed.  Reads see
 * its writes.  The events of its moves (env->on_move, env->on_schedule)
 * and the counters wait for the COMMIT.
 */
#ifndef LUDUS_CMD_TXN_H
#define LUDUS_CMD_TXN_H

#include "cmd/cmd.h"

/* Kept across transactions: nothing is allocated per write once its
 * buffers have grown. */
struct cmd_txn	*cmd_txn_new(void);
/* Rolls back a transaction still open (commit it first to keep it) and
 * frees env->txn. */
void	cmd_txn_free(struct cmd_env *);
/*
 * Ends the open transaction.  When it wrote something: COMMIT, then counts
 * it (commits, turns, batch_max) and calls on_move and on_schedule for its
 * moves, in order, as a write outside a transaction does at once; 0.  When
 * the COMMIT fails (or the database had rolled the transaction back by
 * itself): nothing of it is kept, no hook is called, the counters do not
 * move but store_errors and batch_failures; -1, and store_errmsg() says
 * why.  When no write changed anything: ROLLBACK, 0.  None open: 0.
 *
 * When the store is finding out what became of the COMMIT (its connection
 * broke, store.h's STORE_PENDING): 1, and nothing of it is told yet.  The
 * caller answers none of its requests and calls cmd_txn_outcome() every
 * so often until that says 0 (it committed: counted and its hooks called,
 * as above) or -1 (it did not, or that could not be told: as a failed
 * COMMIT), not 1; last makes that call the last try.  Meanwhile
 * cmd_txn_pending() is 1 and no write can begin.
 */
int	cmd_txn_commit(struct cmd_env *);
int	cmd_txn_outcome(struct cmd_env *, int last);
int	cmd_txn_pending(const struct cmd_env *);
/*
 * A group (MULTI/EXEC): the commands run between cmd_txn_group_begin()
 * and cmd_txn_group_end() share one savepoint of the open transaction
 * (which the begin opens if none is), each write still in a savepoint of
 * its own inside it.  A write that fails for its own reasons (a refused
 * move, BADARG, STALE) is undone alone, as outside a group; the group as
 * a whole is kept, and later committed or lost with the rest of the
 * transaction, or undone at its end: when keep is 0, or when the store
 * failed anywhere inside it (a read included: env->store_errors moved).
 * The begin fails (-1, store_errmsg() says why, store_errors counted)
 * when no transaction can be opened; it needs env->txn and no group open.
 * The end returns 0 when the group was kept, -1 when it was undone: its
 * moves are then no longer announced at the COMMIT.  The caller must not
 * end the transaction (cmd_txn_commit()) between the two.
 *
 * The group is one request (the last numbered, cmd_txn_request(), or a
 * new one if none is), kept whole by an optimistic store
 * (store_request_whole()): if any of its writes or reads conflicts at the
 * COMMIT, none of it is stored and env->on_conflict is told of the
 * group's request once.
 */
int	cmd_txn_group_begin(struct cmd_env *);
int	cmd_txn_group_end(struct cmd_env *, int keep);
/* A request begins: its number in the open or next transaction (1 for a
 * write of its own), told to the store (store_request()).  cmd_run()
 * numbers each command; the daemon numbers an EXEC itself, before it
 * reads its WATCHed games.  Inside a group every command is the group's
 * request: the number does not move. */
uint64_t cmd_txn_request(struct cmd_env *);
/* Where the transaction stands now, as cmd_run() tells it after a
 * command (wait is 0): for a write made outside a command (cmd_autoplay),
 * and for the tests. */
void	cmd_txn_status(const struct cmd_env *, struct cmd_result *);

#endif /* LUDUS_CMD_TXN_H */
