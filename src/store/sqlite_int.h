/*
 * The SQLite backend's private header, shared by its files:
 *
 *	sqlite_open.c	open (pragmas, migrations), close, the ops table
 *	sqlite_stmt.c	the statements (SQL, prepared once) and the bind,
 *			step and column helpers
 *	sqlite_txn.c	BEGIN, COMMIT, ROLLBACK, savepoints, and what the
 *			cache's coherence asks (data_version, changes)
 *	sqlite_games.c	the rows of games, players, tokens, jumps, history
 *	sqlite_read.c	history, lists, counts, deadlines, secret, size
 *	sqlite_ckpt.c	the checkpointer thread and the loop's WAL hook
 *	sqlite_backup.c	emptying a database, and the online backup
 *	sqlite_lobby.c	accounts, ratings, tickets, the seats accounts
 *			hold
 *	sqlite_retire.c	a game deleted, finished games, free pages back
 *
 * The backend binds and reads neutral rows (game/rows.h) and knows no
 * game kind.  A statement is used as get, bind, step, done: sql_stmt_get()
 * refuses one still stepping (a walk whose callback called back into the
 * store), sql_stmt_done() resets it and clears its bindings.
 */
#ifndef LUDUS_STORE_SQLITE_INT_H
#define LUDUS_STORE_SQLITE_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "store/backend.h"
#include "store/sqlite.h"

enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_SAVEPOINT,
	ST_RELEASE,
	ST_ROLLBACK_TO,
	ST_TURN_SAVEPOINT,
	ST_TURN_RELEASE,
	ST_TURN_ROLLBACK_TO,
	ST_GAME_INSERT,
	ST_GAME_SELECT,
	ST_GAME_UPDATE,
	ST_GAME_TOUCH,
	ST_GAME_OPTS,
	ST_GAME_GID,
	ST_DEADLINES,
	ST_META_INSERT,
	ST_META_SELECT,
	ST_PLAYER_INSERT,
	ST_PLAYER_SELECT,
	ST_PLAYER_SEAT,
	ST_TOKEN_INSERT,
	ST_TOKEN_SELECT,
	ST_TOKEN_UPDATE,
	ST_JUMP_UPSERT,
	ST_JUMP_DELETE,
	ST_JUMP_SELECT,
	ST_MOVE_INSERT,
	ST_MOVE_SELECT,
	ST_LIST_ALL,
	ST_LIST_KIND,
	ST_COUNT,
	ST_PAGE_COUNT,
	ST_PAGE_SIZE,
	ST_DATA_VERSION,
	/* The lobby's (sqlite_lobby.c). */
	ST_ACCOUNT_INSERT,
	ST_ACCOUNT_SELECT,
	ST_ACCOUNT_REKEY,
	ST_RATING_SELECT,
	ST_RATING_UPSERT,
	ST_LEADERBOARD,
	ST_TICKET_INSERT,
	ST_TICKET_COUNT,
	ST_TICKET_SELECT,
	ST_TICKET_CANCEL,
	ST_TICKET_TAKE,
	ST_TICKETS_WAITING,
	ST_QUEUES_ALL,
	ST_QUEUES_KIND,
	ST_SEAT_INSERT,
	ST_SEAT_SELECT,
	ST_ACCOUNT_GAMES,
	ST_ACCOUNT_EACH,
	ST_RATING_EACH,
	ST_TICKET_EACH,
	ST_SEAT_EACH,
	ST_TICKET_IMPORT,
	ST_GAME_DELETE,
	ST_FINISHED,
	ST_FINISHED_COUNT,
	ST_FREELIST,
	ST_RECLAIM,
	/* store_clear(), in this order (sqlite_backup.c). */
	ST_CLEAR_FIRST,
	ST_CLEAR_LAST = ST_CLEAR_FIRST + 9,
	NSTMT
};

/* The columns of a ticket (ST_TICKET_SELECT, ST_TICKETS_WAITING) and of
 * an account's game (ST_ACCOUNT_GAMES), in the order sqlite_lobby.c
 * reads them. */
#define SQLITE_TICKET_COLS \
	"id, account, kind, queue, players_min, players_max, rating, span," \
	" bots_after, joined, state, game, seat, ended"
#define SQLITE_ACCOUNT_GAME_COLS \
	"g.id, g.kind, a.idx, ps.name, pt.name, g.nplayers, g.turn," \
	" g.winner, g.moves"

struct sqlite_ckpt;

/*
 * The rows of a game's children are keyed by its gid, not its id
 * (sql/008_int_keys.sql), and so is the games row's UPDATE.  The gid of
 * the game the open transaction last read, looked up or created is kept
 * here, so that the rest of a turn (its tokens, its history row) looks
 * nothing up; outside a transaction nothing is kept,
 * as another connection may delete the game and its gid be given to the
 * next one created.  Forgotten at every BEGIN, COMMIT, ROLLBACK, savepoint
 * undo, and delete of a game.
 */
struct sqlite_gid {
	int64_t		 gid;			/* 0: none kept */
	char		 id[GAME_ID_MAX + 1];
};

struct sqlite_store {
	struct store		 store;		/* first: the handle callers hold */
	sqlite3			*db;
	sqlite3_stmt		*stmt[NSTMT];
	struct sqlite_ckpt	*ckpt;		/* NULL: SQLite's own checkpoints */
	int			 incremental;	/* auto_vacuum = incremental */
	struct sqlite_gid	 last;		/* the game last read or written */
};

static inline struct sqlite_store *
to_sqlite(struct store *st)
{
	return (struct sqlite_store *)st;
}

/* ----------------------------------------------------- sqlite_open.c */

extern const struct store_ops	sqlite_ops;

/* ----------------------------------------------------- sqlite_stmt.c */

/* Prepares every statement (SQLITE_PREPARE_PERSISTENT), in order. */
int		 sql_prepare_all(struct sqlite_store *);
void		 sql_finalize_all(struct sqlite_store *);
/* The connection's message as "<op>: <msg>"; STORE_ERR. */
int		 sql_db_err(struct sqlite_store *, const char *op);
/* Records the statement's error, then resets it; STORE_ERR. */
int		 sql_stmt_err(struct sqlite_store *, sqlite3_stmt *,
		    const char *op);
/* Steps a statement that returns no rows; the extended code or 0. */
int		 sql_stmt_run(struct sqlite_store *, sqlite3_stmt *,
		    const char *op);
/* Runs a statement without parameters (transaction control). */
int		 sql_stmt_exec(struct sqlite_store *, enum stmt_id,
		    const char *op);
/* Steps a statement whose result is ignored (a rollback whose own
 * failure must not replace the message of what made the caller roll
 * back), unless it is stepping. */
void		 sql_stmt_quiet(struct sqlite_store *, enum stmt_id);
/* Copies a text column; -1 if it is NULL or does not fit. */
int		 sql_column_copy(sqlite3_stmt *, int, char *, size_t);

/*
 * Hands out a prepared statement.  One that is still stepping belongs to a
 * walk (history, list) whose callback called back into the store: using
 * it again would restart that walk, so it is refused.
 */
static inline sqlite3_stmt *
sql_stmt_get(struct sqlite_store *s, enum stmt_id id, const char *op)
{
	if (sqlite3_stmt_busy(s->stmt[id])) {
		store_set_err(&s->store, op,
		    "statement in use (store called from a callback)");
		return NULL;
	}
	return s->stmt[id];
}

/* Inline, as a turn binds a dozen values: resets a statement and clears
 * its bindings; the binds return non-zero on failure (bind_int_or_null
 * binds NULL for 0: no deadline, no pending roll; bind_id binds a game
 * id at 1). */
static inline void
sql_stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static inline int
sql_bind_int(sqlite3_stmt *st, int i, int64_t v)
{
	return sqlite3_bind_int64(st, i, v) != SQLITE_OK;
}

static inline int
sql_bind_int_or_null(sqlite3_stmt *st, int i, int64_t v)
{
	if (v == 0)
		return sqlite3_bind_null(st, i) != SQLITE_OK;
	return sql_bind_int(st, i, v);
}

static inline int
sql_bind_text(sqlite3_stmt *st, int i, const char *text, size_t max)
{
	return sqlite3_bind_text(st, i, text, (int)strnlen(text, max),
	    SQLITE_STATIC) != SQLITE_OK;
}

static inline int
sql_bind_id(sqlite3_stmt *st, const char *id)
{
	return sql_bind_text(st, 1, id, GAME_ID_MAX + 1);
}

/* ----------------------------------------------------- sqlite_games.c */

/* Keeps id's gid (inside a transaction only); forgets it. */
void		 sql_gid_keep(struct sqlite_store *, const char *, size_t,
		    int64_t);
void		 sql_gid_forget(struct sqlite_store *);
/* Binds the gid of game id at 1: the one kept, or looked up (NULL when
 * there is no such game: a read finds no rows, a write fails); non-zero
 * with the message set on failure, the statement reset. */
int		 sql_bind_gid(struct sqlite_store *, sqlite3_stmt *,
		    const char *, const char *);

/* ------------------------------------------------------ sqlite_txn.c */

int		 sqlite_begin(struct store *);
int		 sqlite_commit(struct store *);
void		 sqlite_rollback(struct store *);
int		 sqlite_savepoint(struct store *, enum store_sp, const char *);
int		 sqlite_release(struct store *, enum store_sp, const char *);
void		 sqlite_rollback_to(struct store *, enum store_sp);
int		 sqlite_in_txn(struct store *);
int		 sqlite_data_version(struct store *, int64_t *);
int64_t		 sqlite_changes(struct store *);

/* ------------------------------------------------------ sqlite_ckpt.c */

/* Starts the checkpointer of a database file (in memory: nothing), or
 * STORE_ERR; stop joins it, before the loop's connection closes. */
int	sqlite_ckpt_start(struct sqlite_store *, enum durability);
void	sqlite_ckpt_stop(struct sqlite_store *);
void	sqlite_ckpt_stats(struct sqlite_store *,
	    struct store_sqlite_ckpt_stats *);

/* ---------------------------------------------------- sqlite_games.c */

int	sqlite_insert_game(struct store *, const struct row_game *);
int	sqlite_insert_player(struct store *, const char *,
	    const struct row_player *);
int	sqlite_insert_token(struct store *, const char *,
	    const struct row_token *);
int	sqlite_write_cell(struct store *, const char *,
	    const struct row_cell *, const char *);
int	sqlite_read_game(struct store *, const char *, store_row_game_cb,
	    void *);
int	sqlite_read_players(struct store *, const char *,
	    store_row_player_cb, void *);
int	sqlite_read_tokens(struct store *, const char *, store_row_token_cb,
	    void *);
int	sqlite_read_cells(struct store *, const char *, store_row_cell_cb,
	    void *);
int	sqlite_update_game(struct store *, const struct row_game *, int64_t);
int	sqlite_update_token(struct store *, const char *,
	    const struct row_token *);
int	sqlite_insert_move(struct store *, const char *, const struct move *);
int	sqlite_touch_game(struct store *, const char *, int64_t);
int	sqlite_update_pending(struct store *, const struct row_game *,
	    int64_t);
int	sqlite_update_seat(struct store *, const char *, int,
	    const uint8_t[SEAT_HASH_LEN], const uint8_t[SEAT_HASH_LEN]);

/* ----------------------------------------------------- sqlite_read.c */

int	sqlite_secret_read(struct store *, uint8_t[STORE_SECRET_LEN]);
int	sqlite_secret_insert(struct store *,
	    const uint8_t[STORE_SECRET_LEN]);
int	sqlite_list_deadlines(struct store *, store_deadline_cb, void *);
int	sqlite_history(struct store *, const char *, int64_t, int64_t,
	    store_move_cb, void *);
int	sqlite_list_games(struct store *, enum game_kind, const char *,
	    int64_t, store_id_cb, void *);
int	sqlite_count_games(struct store *, int64_t[KIND_COUNT]);
int64_t	sqlite_size(struct store *);

/* ---------------------------------------------------- sqlite_lobby.c */

extern const struct store_lobby_ops	sqlite_lobby_ops;

/* --------------------------------------------------- sqlite_backup.c */

int	sqlite_clear(struct store *);

/* --------------------------------------------------- sqlite_retire.c */

int	sqlite_delete_game(struct store *, const char *, int64_t, int64_t);
int	sqlite_list_finished(struct store *, int64_t, int64_t, store_id_cb,
	    void *);
int	sqlite_count_finished(struct store *, int64_t *);
int	sqlite_reclaim(struct store *, int64_t *);

#endif /* LUDUS_STORE_SQLITE_INT_H */
