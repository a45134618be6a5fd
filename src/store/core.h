/*
 * What the files of the store's core share and no backend needs: the
 * game <-> rows mapping (rows.c), the write's own savepoint (txn.c) and
 * the game cache's coherence protocol (coherence.c).
 */
#ifndef LUDUS_STORE_CORE_H
#define LUDUS_STORE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/backend.h"

/* The backend is optimistic (STORE_CAP_OPTIMISTIC, backend.h): its
 * writes are checked, not locked, and the core speaks that protocol. */
static inline int
opt_mode(const struct store *st)
{
	return (st->ops->caps & STORE_CAP_OPTIMISTIC) != 0;
}

/* The caller's transaction is open and the backend has not ended it. */
static inline int
txn_live(struct store *st)
{
	return st->txn && st->ops->in_txn(st);
}

/* The caller's transaction is open but the backend ended it by itself
 * (an I/O error, a full disk, out of memory). */
static inline int
txn_lost(struct store *st)
{
	return st->txn && !st->ops->in_txn(st);
}

/* ------------------------------------------------------------ rows.c */

/* The token rows a turn changes: worked out once, written by the turn
 * and applied to the cache entry by cache_turn(). */
struct token_changes {
	int			 n;
	struct row_token	 row[GAME_TOKEN_ROWS];
};

/* The games row of g (every column); -1 if g is of no kind. */
int	rows_game(const struct game *, struct row_game *);
/* Only the id, moves and pending columns (deadline, roll, roll_player). */
void	rows_pending(const struct game *, struct row_game *);
/* The players row of player i; its name goes in buf. */
void	rows_player(const struct game *, int i, struct row_player *,
	    char *buf, size_t len);
/* The token rows of g, their count; -1 if g has no valid player count. */
int	rows_tokens(const struct game *, struct row_token *);
/* The token rows of new that differ from old's; -1 if they are not the
 * same game's rows. */
int	rows_token_changes(const struct game *old, const struct game *new,
	    struct token_changes *);
/* The cell rows of g (0 for a kind without), and those that differ
 * between old (NULL: none) and new, by cell, a deleted one with target
 * 0; their count. */
int	rows_cells(const struct game *, struct row_cell *);
int	rows_cell_changes(const struct game *old, const struct game *new,
	    struct row_cell *);
/* The parts that no turn may change: rules, jumps, board and deck, and
 * the options fixed at creation. */
int	rows_same_rules(const struct game *, const struct game *);
/*
 * The way back, for a game being loaded (zeroed first) and for the
 * cache's write-through, so that an entry gets exactly what a load of
 * the rows would.  Each is 0, or -1 when the row cannot belong to the
 * game (a damaged file must not reach the commands).
 */
int	rows_put_game(struct game *, const struct row_game *);
int	rows_put_player(struct game *, const struct row_player *, int i);
int	rows_put_token(struct game *, const struct row_token *);
int	rows_put_cell(struct game *, const struct row_cell *);
int	rows_put_pending(struct game *, int64_t deadline, int64_t roll,
	    int64_t roll_player);
/* What a load would make of a new game's rows: r (zeroed, then
 * rows_game()), g's players and tokens, its n cells, put into c as a
 * load puts them; -1 as the puts. */
int	rows_rebuild(struct game *c, const struct game *g,
	    const struct row_game *r, const struct row_cell *cells, int n);

/* ------------------------------------------------------------ load.c */

/* The game as its rows hold it, every byte set (the cache not asked). */
int	games_load_rows(struct store *, const char *id, struct game *);

/* ------------------------------------------------------ optimistic.c */

/*
 * The core's side of an optimistic backend (store.h, "Several writers"),
 * beside its loads (load.c): the writes, each one statement of the
 * backend's checked against the version its snapshot was loaded with.
 * games.c hands them over when the backend has the ops.
 * opt_create_game() also serves store_import_game() (moves: the history
 * rows, or NULL) and store_match() (the match, or NULL).
 */
/* The open turn savepoint ends: kept (its write checked what it loaded)
 * or undone (what it loaded is checked instead). */
void	opt_turn_end(struct store *, int kept);
int	opt_create_game(struct store *, const struct game *,
	    const struct row_game *, const struct move *moves,
	    const struct store_match *);
int	opt_save_turn(struct store *, const struct game *old,
	    const struct game *new, struct row_game *,
	    const struct token_changes *, const struct move *);
int	opt_save_setup(struct store *, const struct game *old,
	    const struct game *new);
int	opt_save_opts(struct store *, const struct game *);
int	opt_save_seat(struct store *, const struct game *old,
	    const struct game *new, int seat);

/* ------------------------------------------------------------- txn.c */

/*
 * The savepoint of one write, so that it is all or nothing even when the
 * caller has no transaction open; inside the caller's turn savepoint
 * (group commit) a write opens none: a failed write leaves its turn
 * half-written, and the caller's rollback of the turn undoes it
 * (store.h).  txn_write_begin refuses a write in a transaction the
 * backend ended by itself, which would otherwise run and commit on its
 * own.  txn_write_abort returns STORE_ERR and keeps the message.
 */
int	txn_write_begin(struct store *, const char *op);
int	txn_write_end(struct store *, const char *op);
int	txn_write_abort(struct store *);

/* ------------------------------------------------------- coherence.c */

/* A transaction begins (1) or ends (0); a turn savepoint opens or ends
 * (depth: the savepoints open outside it) or is rolled back. */
void	cache_txn(struct store *, int open);
void	cache_turn_open(struct store *, int depth);
void	cache_turn_close(struct store *, int depth);
void	cache_turn_undone(struct store *);
/* Drops what the undone turn savepoint or transaction put, if it wrote. */
void	cache_undo(struct store *, enum cache_mark);
/* Makes the entries fit for the next statements: 0, or -1 when that
 * cannot be told (no cache, or the check failed). */
int	cache_sync(struct store *);
/* The marks of an entry put now. */
const uint64_t *cache_marks(struct store *);
/* Puts g (a game too big is counted; in the checking mode the entry is
 * read back at once). */
void	cache_put(struct store *, const struct game *,
	    const uint64_t marks[CACHE_NMARKS]);
/* Around a write to a game: the changes count at its start, and the
 * store's own changes taken as no one else's. */
int64_t	cache_write_begin(struct store *);
void	cache_write_end(struct store *, int64_t before);
/* The write-through of a write that has succeeded: the turn's games row
 * and token rows, a setup's cell changes, save_opts's columns. */
void	cache_turn(struct store *, const struct game *new,
	    const struct row_game *, const struct token_changes *);
void	cache_setup(struct store *, const struct game *new,
	    const struct row_cell *changes, int n);
void	cache_opts(struct store *, const struct game *);
/* A seat's hash as g has it, and the stamp its write put. */
void	cache_seat(struct store *, const struct game *g, int seat,
	    int64_t stamp);
/* A created game's entry, rebuilt from the rows written (r and its n
 * cells) as a load would. */
void	cache_create(struct store *, const struct game *,
	    const struct row_game *, const struct row_cell *cells, int n);

#endif /* LUDUS_STORE_CORE_H */
