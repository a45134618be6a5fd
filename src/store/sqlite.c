/*
 * The SQLite backend of the store.
 *
 * A game is a row of games, a row of players per player, its token rows
 * and (Snake & Ladder) its jumps; moves are rows of history.  The schema
 * lives in sql/ and is compiled in (schema.c); on open the missing
 * migrations run, each in its own transaction, and every statement is
 * prepared once.  A statement is used as bind, step, reset.
 *
 * Each write (create, setup, turn) runs inside a savepoint, so that it is
 * all or nothing even when the caller has no transaction open; inside the
 * caller's BEGIN IMMEDIATE it only nests.  Group commit adds one level:
 * the caller's turns, each in a savepoint store_turn of the one
 * transaction (store_savepoint()); a write inside one opens no savepoint
 * of its own, the caller's rollback of the turn undoes it (write_own()).
 *
 * Loads may come from a cache of the games this store last read or wrote
 * (src/store/cache.c), kept equal to the rows: see "game cache" below.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "store/cache.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"

#define BUSY_TIMEOUT_MS	5000
#define MAX_TOKEN_ROWS	SNL_MAX_PLAYERS	/* >= 4 * 4 Ludo, >= 8 DandyLand */

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
	ST_DEADLINES,
	ST_META_INSERT,
	ST_META_SELECT,
	ST_PLAYER_INSERT,
	ST_PLAYER_SELECT,
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
	NSTMT
};

/* Every statement the store runs after open; prepared once, in order. */
static const char *const stmt_sql[NSTMT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_SAVEPOINT] = "SAVEPOINT store_write",
	[ST_RELEASE] = "RELEASE store_write",
	[ST_ROLLBACK_TO] = "ROLLBACK TO store_write",
	[ST_TURN_SAVEPOINT] = "SAVEPOINT store_turn",
	[ST_TURN_RELEASE] = "RELEASE store_turn",
	[ST_TURN_ROLLBACK_TO] = "ROLLBACK TO store_turn",
	[ST_GAME_INSERT] =
	    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
	    " created, updated, ludo_preset, six_bonus, capture_bonus,"
	    " three_sixes, board, has_deck, deck, seats, dice, turn_timeout,"
	    " deadline, roll, roll_player)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
	[ST_GAME_SELECT] =
	    "SELECT id, kind, nplayers, turn, winner, aux, moves, created,"
	    " updated, ludo_preset, six_bonus, capture_bonus, three_sixes,"
	    " board, has_deck, deck, seats, dice, turn_timeout, deadline,"
	    " roll, roll_player FROM games WHERE id = ?1",
	[ST_GAME_UPDATE] =
	    "UPDATE games SET turn = ?2, winner = ?3, aux = ?4, moves = ?5,"
	    " updated = ?6, deadline = ?8, roll = ?9, roll_player = ?10"
	    " WHERE id = ?1 AND moves = ?7",
	[ST_GAME_TOUCH] = "UPDATE games SET updated = ?2 WHERE id = ?1",
	[ST_GAME_OPTS] =
	    "UPDATE games SET deadline = ?2, roll = ?3, roll_player = ?4"
	    " WHERE id = ?1 AND moves = ?5",
	[ST_DEADLINES] =
	    "SELECT id, deadline FROM games WHERE deadline IS NOT NULL"
	    " ORDER BY deadline, id",
	[ST_META_INSERT] =
	    "INSERT INTO meta (key, value) VALUES (?1, ?2)"
	    " ON CONFLICT (key) DO NOTHING",
	[ST_META_SELECT] = "SELECT value FROM meta WHERE key = ?1",
	[ST_PLAYER_INSERT] =
	    "INSERT INTO players (game, idx, name, bot, seat)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_PLAYER_SELECT] =
	    "SELECT idx, name, bot, seat FROM players WHERE game = ?1"
	    " ORDER BY idx",
	[ST_TOKEN_INSERT] =
	    "INSERT INTO tokens (game, player, token, pos, points)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_TOKEN_SELECT] =
	    "SELECT player, token, pos, points FROM tokens WHERE game = ?1",
	[ST_TOKEN_UPDATE] =
	    "UPDATE tokens SET pos = ?4, points = ?5"
	    " WHERE game = ?1 AND player = ?2 AND token = ?3",
	[ST_JUMP_UPSERT] =
	    "INSERT INTO jumps (game, cell, target) VALUES (?1, ?2, ?3)"
	    " ON CONFLICT (game, cell) DO UPDATE SET target = excluded.target",
	[ST_JUMP_DELETE] = "DELETE FROM jumps WHERE game = ?1 AND cell = ?2",
	[ST_JUMP_SELECT] = "SELECT cell, target FROM jumps WHERE game = ?1",
	[ST_MOVE_INSERT] =
	    "INSERT INTO history (game, seq, player, action, result, at,"
	    " automatic) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_MOVE_SELECT] =
	    "SELECT seq, player, action, result, at, automatic FROM history"
	    " WHERE game = ?1 AND seq >= ?2 ORDER BY seq LIMIT ?3",
	[ST_LIST_ALL] =
	    "SELECT id, kind FROM games WHERE id > ?1 ORDER BY id LIMIT ?2",
	[ST_LIST_KIND] =
	    "SELECT id, kind FROM games WHERE kind = ?3 AND id > ?1"
	    " ORDER BY id LIMIT ?2",
	[ST_COUNT] = "SELECT kind, count(*) FROM games GROUP BY kind",
	[ST_PAGE_COUNT] = "PRAGMA page_count",
	[ST_PAGE_SIZE] = "PRAGMA page_size",
	[ST_DATA_VERSION] = "PRAGMA data_version",
};

/* Columns of ST_GAME_SELECT. */
enum {
	GC_ID, GC_KIND, GC_NPLAYERS, GC_TURN, GC_WINNER, GC_AUX, GC_MOVES,
	GC_CREATED, GC_UPDATED, GC_PRESET, GC_SIX_BONUS, GC_CAPTURE_BONUS,
	GC_THREE_SIXES, GC_BOARD, GC_HAS_DECK, GC_DECK, GC_SEATS, GC_DICE,
	GC_TIMEOUT, GC_DEADLINE, GC_ROLL, GC_ROLL_PLAYER
};

/* The meta row that holds the seat-hash key. */
#define META_SECRET	"seat-secret"

static const char *const sync_pragma[] = {
	[DURABILITY_FULL] = "PRAGMA synchronous = FULL",
	[DURABILITY_NORMAL] = "PRAGMA synchronous = NORMAL",
	[DURABILITY_OFF] = "PRAGMA synchronous = OFF",
};

struct sqlite_store {
	struct store	 store;		/* first: the handle callers hold */
	sqlite3		*db;
	sqlite3_stmt	*stmt[NSTMT];
	int		 txn;		/* the caller's BEGIN is open */
	int		 turns;		/* its store_turn savepoints open */
	struct game_cache *cache;	/* NULL: every load reads the rows */
	struct store_cache_stats stats;
	int64_t		 data_version;	/* at the last check */
	int64_t		 changes;	/* total changes the cache knows of */
	int		 synced;	/* checked in the open transaction */
	int		 check;		/* every hit read back and compared */
	uint64_t	 marks;		/* the last mark handed out */
	/* The marks of the open transaction and turn savepoint (0: none),
	 * and whether they wrote to a game. */
	uint64_t	 mark[CACHE_NMARKS];
	int		 wrote[CACHE_NMARKS];
	char		 err[256];
};

/* The columns of the games row that change during play. */
struct game_row {
	int	nplayers;
	int	turn;
	int	winner;
	int64_t	aux;
};

/* One row of tokens: a Ludo token 1-4, or token 0 for the other kinds. */
struct token_row {
	int	player;
	int	token;
	int	pos;
	int	points;
};

static const struct store_ops sqlite_ops;

static struct sqlite_store *
to_sqlite(struct store *st)
{
	return (struct sqlite_store *)st;
}

/* ------------------------------------------------------------ errors */

/* Keeps "<op>: <msg>" on one line: it may end up in a protocol reply. */
static int
set_err(struct sqlite_store *s, const char *op, const char *msg)
{
	char	*p;

	snprintf(s->err, sizeof(s->err), "%s: %s", op, msg);
	for (p = s->err; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return STORE_ERR;
}

static int
db_err(struct sqlite_store *s, const char *op)
{
	return set_err(s, op, sqlite3_errmsg(s->db));
}

/* -------------------------------------------------------- statements */

/*
 * Hands out a prepared statement.  One that is still stepping belongs to a
 * walk (history, list) whose callback called back into the store: using
 * it again would restart that walk, so it is refused.
 */
static sqlite3_stmt *
stmt_get(struct sqlite_store *s, enum stmt_id id, const char *op)
{
	if (sqlite3_stmt_busy(s->stmt[id])) {
		set_err(s, op,
		    "statement in use (store called from a callback)");
		return NULL;
	}
	return s->stmt[id];
}

static void
stmt_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Records the statement's error, then resets it. */
static int
stmt_err(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	db_err(s, op);
	stmt_done(st);
	return STORE_ERR;
}

/* Steps a statement that returns no rows; the extended code or 0. */
static int
stmt_run(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	int	 rc;

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		db_err(s, op);
		stmt_done(st);
		return rc == SQLITE_ROW ? SQLITE_ERROR : rc;
	}
	stmt_done(st);
	return 0;
}

/* Runs a statement without parameters (transaction control). */
static int
stmt_exec(struct sqlite_store *s, enum stmt_id id, const char *op)
{
	sqlite3_stmt	*st;

	if ((st = stmt_get(s, id, op)) == NULL)
		return STORE_ERR;
	return stmt_run(s, st, op) == 0 ? 0 : STORE_ERR;
}

static int
bind_int(sqlite3_stmt *st, int i, int64_t v)
{
	return sqlite3_bind_int64(st, i, v) != SQLITE_OK;
}

/* Binds v, or NULL for 0 (no deadline, no pending roll). */
static int
bind_int_or_null(sqlite3_stmt *st, int i, int64_t v)
{
	if (v == 0)
		return sqlite3_bind_null(st, i) != SQLITE_OK;
	return bind_int(st, i, v);
}

static int
bind_text(sqlite3_stmt *st, int i, const char *text, size_t max)
{
	return sqlite3_bind_text(st, i, text, (int)strnlen(text, max),
	    SQLITE_STATIC) != SQLITE_OK;
}

static int
bind_id(sqlite3_stmt *st, const char *id)
{
	return bind_text(st, 1, id, GAME_ID_MAX + 1);
}

/* Copies a text column; -1 if it is NULL or does not fit. */
static int
column_copy(sqlite3_stmt *st, int col, char *dst, size_t size)
{
	const unsigned char	*text;
	size_t			 len;

	text = sqlite3_column_text(st, col);
	len = (size_t)sqlite3_column_bytes(st, col);
	if (text == NULL || len >= size)
		return -1;
	memcpy(dst, text, len);
	dst[len] = '\0';
	return 0;
}

/* -------------------------------------------------------- savepoints */

/*
 * Inside a turn savepoint of the caller (group commit) a write opens no
 * savepoint of its own: a write that fails leaves its turn half-written,
 * and the caller, which must then roll the turn savepoint back
 * (store_savepoint() in store.h; cmd.c's write_abort() does), undoes it
 * with the rest of the turn.  That spares a SAVEPOINT and a RELEASE per
 * turn.  Outside one (a plain transaction, or none: the CLI's autocommit
 * writes) the write's own savepoint keeps it all or nothing.
 */
static int
write_own(const struct sqlite_store *s)
{
	return s->turns == 0;
}

/*
 * On some errors (out of memory, I/O, disk full) SQLite rolls the whole
 * transaction back by itself.  A write after that, in what the caller
 * still takes for its transaction, would run and commit on its own;
 * it is refused instead, so that nothing of the caller's batch is kept
 * and its COMMIT fails.
 */
static int
write_begin(struct sqlite_store *s, const char *op)
{
	if (s->txn && sqlite3_get_autocommit(s->db))
		return set_err(s, op,
		    "transaction rolled back by an earlier error");
	if (!write_own(s))
		return 0;
	return stmt_exec(s, ST_SAVEPOINT, op);
}

static int
write_end(struct sqlite_store *s, const char *op)
{
	if (!write_own(s))
		return 0;
	return stmt_exec(s, ST_RELEASE, op);
}

/* Undoes a failed write (in a turn savepoint: leaves that to the
 * caller); the message of the failure is kept. */
static int
write_abort(struct sqlite_store *s)
{
	sqlite3_stmt	*st;
	int		 i;
	enum stmt_id	 ids[2] = { ST_ROLLBACK_TO, ST_RELEASE };

	if (!write_own(s))
		return STORE_ERR;
	for (i = 0; i < 2; i++) {
		st = s->stmt[ids[i]];
		if (!sqlite3_stmt_busy(st)) {
			sqlite3_step(st);
			stmt_done(st);
		}
	}
	return STORE_ERR;
}

/* Binds deadline, roll, roll_player at i, i + 1, i + 2. */
static int
bind_pending(sqlite3_stmt *st, int i, const struct game_opts *o)
{
	return bind_int_or_null(st, i, o->deadline) ||
	    bind_int_or_null(st, i + 1, o->roll) ||
	    (o->roll != 0 && bind_int(st, i + 2, o->roll_player));
}

/* ------------------------------------------------- game <-> rows */

static int
game_row(const struct game *g, struct game_row *r)
{
	switch (g->kind) {
	case KIND_LUDO:
		r->nplayers = g->s.ludo.nplayers;
		r->turn = g->s.ludo.turn;
		r->winner = g->s.ludo.winner;
		r->aux = g->s.ludo.sixes;
		break;
	case KIND_SNL:
		r->nplayers = g->s.snl.nplayers;
		r->turn = g->s.snl.turn;
		r->winner = g->s.snl.winner;
		r->aux = g->s.snl.started;
		break;
	case KIND_DANDY:
		r->nplayers = g->s.dandy.nplayers;
		r->turn = g->s.dandy.turn;
		r->winner = -1;
		r->aux = g->s.dandy.drawn;
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * The other way: lays the columns of the games row that play changes on a
 * game being loaded (whose kind and player count are set), as they read
 * back.  The write-through of the cache uses it too, so that an entry
 * gets exactly what a load of the rows would.
 */
static void
row_put(struct game *g, const struct game_row *r)
{
	switch (g->kind) {
	case KIND_LUDO:
		g->s.ludo.turn = r->turn;
		g->s.ludo.winner = r->winner;
		g->s.ludo.sixes = (int)r->aux;
		break;
	case KIND_SNL:
		g->s.snl.turn = r->turn;
		g->s.snl.winner = r->winner;
		g->s.snl.started = (int)r->aux;
		break;
	case KIND_DANDY:
		g->s.dandy.turn = r->turn;
		g->s.dandy.drawn = (int)r->aux;
		break;
	default:
		break;
	}
}

/* The pending roll and deadline as they read back (NULL as 0); -1 for
 * values no game has (the schema's checks keep them out, these keep a
 * damaged file from reaching the commands). */
static int
pending_put(struct game *g, int64_t deadline, int64_t roll, int64_t rp)
{
	if (deadline < 0 || roll < 0 || roll > 6 || rp < 0 ||
	    rp >= game_nplayers(g))
		return -1;
	g->opts.deadline = deadline;
	g->opts.roll = (uint8_t)roll;
	g->opts.roll_player = roll != 0 ? (uint8_t)rp : 0;
	return 0;
}

/* One jumps row; -1 if it cannot belong to a game. */
static int
jump_put(struct game *g, int cell, int target)
{
	if (cell < 1 || cell >= SNL_CELLS || target < 1 || target > SNL_CELLS)
		return -1;
	g->s.snl.jump[cell] = (uint8_t)target;
	return 0;
}

static int
max_players(enum game_kind kind)
{
	switch (kind) {
	case KIND_LUDO:
		return LUDO_MAX_PLAYERS;
	case KIND_SNL:
		return SNL_MAX_PLAYERS;
	case KIND_DANDY:
		return DANDY_MAX_PLAYERS;
	default:
		return 0;
	}
}

/* The token rows of a game, in (player, token) order; their count. */
static int
token_rows(const struct game *g, struct token_row rows[MAX_TOKEN_ROWS])
{
	int	 n = 0, p, t, np;

	np = game_nplayers(g);
	if (np < 1 || np > max_players(g->kind))
		return -1;
	for (p = 0; p < np; p++) {
		switch (g->kind) {
		case KIND_LUDO:
			for (t = 0; t < LUDO_TOKENS; t++)
				rows[n++] = (struct token_row){ p, t + 1,
				    g->s.ludo.pos[p][t], 0 };
			break;
		case KIND_SNL:
			rows[n++] = (struct token_row){ p, 0,
			    g->s.snl.pos[p], 0 };
			break;
		default:
			rows[n++] = (struct token_row){ p, 0,
			    g->s.dandy.pos[p], g->s.dandy.points[p] };
			break;
		}
	}
	return n;
}

/* The token rows a turn changes: worked out once, written by
 * update_tokens() and applied to the cache entry by cache_turn(). */
struct token_changes {
	int			 n;
	struct token_row	 row[MAX_TOKEN_ROWS];
};

/* The rows of new that differ from old's; -1 if they are not the same
 * game's rows. */
static int
token_changes(const struct game *old, const struct game *new,
    struct token_changes *tc)
{
	struct token_row	 a[MAX_TOKEN_ROWS], b[MAX_TOKEN_ROWS];
	int			 i, n;

	tc->n = 0;
	if ((n = token_rows(old, a)) < 0 || token_rows(new, b) != n)
		return -1;
	for (i = 0; i < n; i++)
		if (a[i].pos != b[i].pos || a[i].points != b[i].points)
			tc->row[tc->n++] = b[i];
	return 0;
}

/* Puts one token row into a loaded game; -1 if it cannot belong to it. */
static int
token_put(struct game *g, const struct token_row *r)
{
	if (r->player < 0 || r->player >= game_nplayers(g))
		return -1;
	switch (g->kind) {
	case KIND_LUDO:
		if (r->token < 1 || r->token > LUDO_TOKENS || r->pos < -1 ||
		    r->pos > INT8_MAX)
			return -1;
		g->s.ludo.pos[r->player][r->token - 1] = (int8_t)r->pos;
		return 0;
	case KIND_SNL:
		if (r->token != 0 || r->pos < 0 || r->pos > SNL_CELLS)
			return -1;
		g->s.snl.pos[r->player] = (uint8_t)r->pos;
		return 0;
	case KIND_DANDY:
		if (r->token != 0 || r->pos < DANDY_OFF ||
		    r->pos >= g->s.dandy.board_len || r->points < 0)
			return -1;
		g->s.dandy.pos[r->player] = r->pos;
		g->s.dandy.points[r->player] = r->points;
		return 0;
	default:
		return -1;
	}
}

/* The options fixed at creation. */
static int
same_opts(const struct game_opts *a, const struct game_opts *b)
{
	return a->secure == b->secure && a->server_dice == b->server_dice &&
	    a->timeout == b->timeout &&
	    memcmp(a->bot, b->bot, sizeof(a->bot)) == 0 &&
	    memcmp(a->seat, b->seat, sizeof(a->seat)) == 0;
}

/* The parts that no turn may change: rules, jumps, board and deck, and
 * the options fixed at creation. */
static int
same_rules(const struct game *a, const struct game *b)
{
	if (!same_opts(&a->opts, &b->opts))
		return 0;
	switch (a->kind) {
	case KIND_LUDO:
		return memcmp(&a->s.ludo.rules, &b->s.ludo.rules,
		    sizeof(a->s.ludo.rules)) == 0;
	case KIND_SNL:
		return memcmp(a->s.snl.jump, b->s.snl.jump,
		    sizeof(a->s.snl.jump)) == 0;
	case KIND_DANDY:
		return a->s.dandy.has_deck == b->s.dandy.has_deck &&
		    a->s.dandy.deck_len == b->s.dandy.deck_len &&
		    strcmp(a->s.dandy.board, b->s.dandy.board) == 0 &&
		    memcmp(a->s.dandy.deck, b->s.dandy.deck,
		    (size_t)a->s.dandy.deck_len) == 0;
	default:
		return 0;
	}
}

/* -------------------------------------------------------- game cache */

/*
 * An entry decodes to a game exactly as load_rows() rebuilds it from the
 * rows, byte for byte, or it is not there.  The rows change under an
 * entry in four ways, each followed here:
 *
 *  - Another connection commits (a "ludus --db", sqlite3): PRAGMA
 *    data_version then reads differently, as it counts only the commits of
 *    other connections.  Inside the caller's transaction (BEGIN IMMEDIATE:
 *    its snapshot and the write lock are held until it ends) one check
 *    covers the whole of it; outside, each load checks.  A change empties
 *    the cache.  A load that saw a commit half way (three statements)
 *    has moved the count already, so the next check drops what it put.
 *  - This connection writes behind the store (a test through
 *    store_sqlite_handle()): sqlite3_total_changes64() moves by more than
 *    the store's own writes.  The cache is emptied.
 *  - The store writes a game: once the write has succeeded, its entry
 *    is decoded, gets the same changes as the rows, through the same
 *    functions a load uses, and is put back (write-through).  A write
 *    that failed, or one outside the caller's transaction (where another
 *    writer may come between the check and the write), drops the entry
 *    instead.
 *  - A write is undone: whatever is put inside the caller's transaction
 *    carries its mark and its turn savepoint's.  Rolling back the
 *    savepoint, or the transaction (the caller's ROLLBACK, a failed
 *    COMMIT, or SQLite's own after an I/O error, disk full or out of
 *    memory, seen as autocommit inside the caller's transaction), drops
 *    the entries of what was undone, if it wrote to any game.
 *
 * The savepoint store_write of each write needs nothing: an entry is
 * changed only after the write succeeded (a failed one drops it), and
 * in a turn savepoint, where the write has none, a failed write is undone
 * by the rollback of the turn, which drops the turn's entries.
 */

/* The caller's transaction is open and SQLite has not rolled it back. */
static int
txn_live(struct sqlite_store *s)
{
	return s->txn && !sqlite3_get_autocommit(s->db);
}

static void
cache_flush(struct sqlite_store *s)
{
	if (game_cache_clear(s->cache) > 0)
		s->stats.flushes++;
}

/* Drops what the undone turn savepoint or transaction put, if it wrote. */
static void
cache_undo(struct sqlite_store *s, enum cache_mark which)
{
	if (s->wrote[which])
		game_cache_drop(s->cache, which, s->mark[which]);
	s->wrote[which] = 0;
	s->mark[which] = 0;
}

/* A new transaction (BEGIN) or the end of one (COMMIT, ROLLBACK). */
static void
cache_txn(struct sqlite_store *s, int open)
{
	s->mark[CACHE_TXN] = open ? ++s->marks : 0;
	s->mark[CACHE_TURN] = 0;
	s->wrote[CACHE_TXN] = s->wrote[CACHE_TURN] = 0;
	s->turns = 0;
	s->synced = 0;
}

/* The marks of an entry put now. */
static const uint64_t *
cache_marks(struct sqlite_store *s)
{
	static const uint64_t	 none[CACHE_NMARKS];

	return txn_live(s) ? s->mark : none;
}

static int
data_version(struct sqlite_store *s, int64_t *v)
{
	sqlite3_stmt	*st = s->stmt[ST_DATA_VERSION];
	int		 rc;

	if (sqlite3_stmt_busy(st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	stmt_done(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Makes the entries fit for this connection's next statements: 0, or -1
 * when that cannot be told (no cache, or the check failed: the cache is
 * then empty, and nothing read now may be put).
 */
static int
cache_sync(struct sqlite_store *s)
{
	int64_t	 v;

	if (s->cache == NULL)
		return -1;
	if (s->txn && sqlite3_get_autocommit(s->db)) {
		/* SQLite rolled the caller's transaction back by itself. */
		cache_undo(s, CACHE_TURN);
		cache_undo(s, CACHE_TXN);
	}
	if ((v = sqlite3_total_changes64(s->db)) != s->changes) {
		cache_flush(s);
		s->changes = v;
	}
	if (s->synced && txn_live(s))
		return 0;
	if (data_version(s, &v) != 0) {
		cache_flush(s);
		s->synced = 0;
		return -1;
	}
	if (v != s->data_version)
		cache_flush(s);
	s->data_version = v;
	s->synced = 1;
	return 0;
}

/* Before a write to a game: the entries are checked while they can still
 * be (in the caller's transaction), and its writes go with it and with
 * the turn savepoint if they are undone.  The changes count at the
 * start, for cache_write_end(). */
static int64_t
cache_write_begin(struct sqlite_store *s)
{
	if (txn_live(s))
		cache_sync(s);
	s->wrote[CACHE_TXN] = s->wrote[CACHE_TURN] = 1;
	return sqlite3_total_changes64(s->db);
}

/* The store's own changes are no one else's, unless some were pending at
 * the start: the next cache_sync() then still sees those. */
static void
cache_write_end(struct sqlite_store *s, int64_t before)
{
	if (s->changes == before)
		s->changes = sqlite3_total_changes64(s->db);
}

/*
 * Puts g with marks; a game too big for a slot is counted.  In the
 * checking mode the entry is read back at once: an encoding that loses a
 * byte is a bug of the cache, counted and dropped like a hit that differs
 * from the rows.
 */
static void
cache_put(struct sqlite_store *s, const struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	struct game	 back;
	int		 rc;

	if ((rc = game_cache_put(s->cache, g, marks)) > 0)
		s->stats.oversize++;
	else if (rc == 0 && s->check &&
	    (game_cache_get(s->cache, g->id, &back) != 0 ||
	    memcmp(&back, g, sizeof(back)) != 0)) {
		s->stats.mismatches++;
		game_cache_remove(s->cache, g->id);
	}
}

/* The entry of a game whose write has just succeeded, decoded into *c to
 * be given the same changes and put back; -1, the entry dropped, when it
 * cannot be trusted, or if there is none. */
static int
cache_written(struct sqlite_store *s, const struct game *g, struct game *c)
{
	if (!txn_live(s) || !s->synced) {
		game_cache_remove(s->cache, g->id);
		return -1;
	}
	if (game_cache_get(s->cache, g->id, c) != 0)
		return -1;
	/* The rows' kind is the entry's; a caller's snapshot of another
	 * kind wrote rows that mean something else to it. */
	if (c->kind != g->kind) {
		game_cache_remove(s->cache, g->id);
		return -1;
	}
	return 0;
}

/* The pending roll and deadline of o as the games row now holds them
 * (bind_pending() writes NULL for 0, and no roll_player without a roll). */
static int
cache_pending(struct game *c, const struct game_opts *o)
{
	return pending_put(c, o->deadline, o->roll,
	    o->roll != 0 ? o->roll_player : 0);
}

/* save_turn's rows: the games row and the token rows it wrote. */
static void
cache_turn(struct sqlite_store *s, const struct game *new,
    const struct token_changes *tc)
{
	struct game_row		 r;
	struct game		 c;
	int			 i, bad;

	if (cache_written(s, new, &c) != 0)
		return;
	game_row(new, &r);
	row_put(&c, &r);
	c.moves = new->moves;
	c.updated = new->updated;
	bad = cache_pending(&c, &new->opts) != 0;
	for (i = 0; i < tc->n && !bad; i++)
		bad = token_put(&c, &tc->row[i]) != 0;
	if (bad)
		game_cache_remove(s->cache, new->id);
	else
		cache_put(s, &c, s->mark);
}

/* save_setup's rows: the jumps it wrote or deleted, and updated. */
static void
cache_setup(struct sqlite_store *s, const struct game *old,
    const struct game *new)
{
	struct game	 c;
	int		 cell, bad = 0;

	if (cache_written(s, new, &c) != 0)
		return;
	c.updated = new->updated;
	for (cell = 1; new->kind == KIND_SNL && cell <= SNL_CELLS && !bad;
	    cell++) {
		if (old->s.snl.jump[cell] == new->s.snl.jump[cell])
			continue;
		if (new->s.snl.jump[cell] == 0)
			c.s.snl.jump[cell] = 0;	/* row deleted */
		else
			bad = jump_put(&c, cell, new->s.snl.jump[cell]) != 0;
	}
	if (bad)
		game_cache_remove(s->cache, new->id);
	else
		cache_put(s, &c, s->mark);
}

/* save_opts's columns. */
static void
cache_opts(struct sqlite_store *s, const struct game *g)
{
	struct game	 c;

	if (cache_written(s, g, &c) != 0)
		return;
	if (cache_pending(&c, &g->opts) != 0)
		game_cache_remove(s->cache, g->id);
	else
		cache_put(s, &c, s->mark);
}

/* ------------------------------------------------------------ create */

static int
insert_game_row(struct sqlite_store *s, const struct game *g,
    const struct game_row *r)
{
	sqlite3_stmt	*st;
	int		 bad, rc;

	if ((st = stmt_get(s, ST_GAME_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	bad = bind_id(st, g->id) || bind_int(st, 2, g->kind) ||
	    bind_int(st, 3, r->nplayers) || bind_int(st, 4, r->turn) ||
	    bind_int(st, 5, r->winner) || bind_int(st, 6, r->aux) ||
	    bind_int(st, 7, g->moves) || bind_int(st, 8, g->created) ||
	    bind_int(st, 9, g->updated) ||
	    bind_int(st, 17, g->opts.secure != 0) ||
	    bind_int(st, 18, g->opts.server_dice != 0) ||
	    bind_int(st, 19, g->opts.timeout) ||
	    bind_int_or_null(st, 20, g->opts.deadline) ||
	    bind_int_or_null(st, 21, g->opts.roll) ||
	    (g->opts.roll != 0 && bind_int(st, 22, g->opts.roll_player));
	if (!bad && g->kind == KIND_LUDO)
		bad = bind_int(st, 10, g->s.ludo.rules.preset) ||
		    bind_int(st, 11, g->s.ludo.rules.six_bonus) ||
		    bind_int(st, 12, g->s.ludo.rules.capture_bonus) ||
		    bind_int(st, 13, g->s.ludo.rules.three_sixes);
	if (!bad && g->kind == KIND_DANDY) {
		bad = bind_text(st, 14, g->s.dandy.board,
		    sizeof(g->s.dandy.board)) ||
		    bind_int(st, 15, g->s.dandy.has_deck != 0);
		if (!bad && g->s.dandy.has_deck)
			bad = sqlite3_bind_text(st, 16, g->s.dandy.deck,
			    g->s.dandy.deck_len, SQLITE_STATIC) != SQLITE_OK;
	}
	if (bad)
		return stmt_err(s, st, "create_game");
	rc = stmt_run(s, st, "create_game");
	/* games.id is the only key of the table. */
	if (rc == SQLITE_CONSTRAINT_PRIMARYKEY ||
	    rc == SQLITE_CONSTRAINT_UNIQUE) {
		set_err(s, "create_game", "game exists");
		return STORE_EXISTS;
	}
	return rc == 0 ? 0 : STORE_ERR;
}

static int
insert_players(struct sqlite_store *s, const struct game *g, int np)
{
	sqlite3_stmt	*st;
	char		 name[16];
	const char	*p;
	int		 i;

	if ((st = stmt_get(s, ST_PLAYER_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	for (i = 0; i < np; i++) {
		if (g->kind == KIND_LUDO)
			p = g->players[i];
		else {
			snprintf(name, sizeof(name), "P%d", i + 1);
			p = name;
		}
		if (bind_id(st, g->id) || bind_int(st, 2, i) ||
		    bind_text(st, 3, p, GAME_ID_MAX + 1) ||
		    (g->opts.bot[i] != 0 &&
		    bind_int(st, 4, g->opts.bot[i] - 1)) ||
		    (g->opts.secure && sqlite3_bind_blob(st, 5,
		    g->opts.seat[i], SEAT_HASH_LEN, SQLITE_STATIC) !=
		    SQLITE_OK))
			return stmt_err(s, st, "create_game");
		if (stmt_run(s, st, "create_game") != 0)
			return STORE_ERR;
	}
	return 0;
}

static int
insert_tokens(struct sqlite_store *s, const struct game *g)
{
	struct token_row	 rows[MAX_TOKEN_ROWS];
	sqlite3_stmt		*st;
	int			 i, n;

	n = token_rows(g, rows);
	if ((st = stmt_get(s, ST_TOKEN_INSERT, "create_game")) == NULL)
		return STORE_ERR;
	for (i = 0; i < n; i++) {
		if (bind_id(st, g->id) || bind_int(st, 2, rows[i].player) ||
		    bind_int(st, 3, rows[i].token) ||
		    bind_int(st, 4, rows[i].pos) ||
		    bind_int(st, 5, rows[i].points))
			return stmt_err(s, st, "create_game");
		if (stmt_run(s, st, "create_game") != 0)
			return STORE_ERR;
	}
	return 0;
}

/* Writes the jumps that differ between old (NULL: none) and new. */
static int
write_jumps(struct sqlite_store *s, const struct game *old,
    const struct game *new, const char *op)
{
	sqlite3_stmt	*st;
	int		 c, from, to;

	for (c = 1; c <= SNL_CELLS; c++) {
		from = old != NULL ? old->s.snl.jump[c] : 0;
		to = new->s.snl.jump[c];
		if (from == to)
			continue;
		st = stmt_get(s, to != 0 ? ST_JUMP_UPSERT : ST_JUMP_DELETE, op);
		if (st == NULL)
			return STORE_ERR;
		if (bind_id(st, new->id) || bind_int(st, 2, c) ||
		    (to != 0 && bind_int(st, 3, to)))
			return stmt_err(s, st, op);
		if (stmt_run(s, st, op) != 0)
			return STORE_ERR;
	}
	return 0;
}

static int
create_rows(struct sqlite_store *s, const struct game *g,
    const struct game_row *r)
{
	int	 rc;

	if (write_begin(s, "create_game") != 0)
		return STORE_ERR;
	if ((rc = insert_game_row(s, g, r)) != 0 ||
	    (rc = insert_players(s, g, r->nplayers)) != 0 ||
	    (rc = insert_tokens(s, g)) != 0 ||
	    (g->kind == KIND_SNL && (rc = write_jumps(s, NULL, g,
	    "create_game")) != 0)) {
		write_abort(s);
		return rc;
	}
	return write_end(s, "create_game");
}

/* A new game is not put in the cache: that would take a second copy of
 * what load_rows() makes of the rows, for one read per game saved. */
static int
sqlite_create_game(struct store *store, const struct game *g)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct game_row		 r;
	int64_t			 changes;
	int			 rc;

	if (game_row(g, &r) != 0 || r.nplayers < 1 ||
	    r.nplayers > max_players(g->kind))
		return set_err(s, "create_game", "not a valid game");
	changes = cache_write_begin(s);
	rc = create_rows(s, g, &r);
	cache_write_end(s, changes);
	game_cache_remove(s->cache, g->id);
	return rc;
}

/* -------------------------------------------------------------- load */

/* Rebuilds the kind's snapshot with the engine's own init, so that every
 * byte the rows do not hold is what the engine would have put there, then
 * lays the stored state over it. */
static int
load_state(struct game *g, sqlite3_stmt *st)
{
	struct ludo_rules	 rules;
	struct game_row		 r;
	const char		*board, *deck;
	int			 n;

	n = sqlite3_column_int(st, GC_NPLAYERS);
	r.nplayers = n;
	r.turn = sqlite3_column_int(st, GC_TURN);
	r.winner = sqlite3_column_int(st, GC_WINNER);
	r.aux = sqlite3_column_int(st, GC_AUX);
	switch (g->kind) {
	case KIND_LUDO:
		memset(&rules, 0, sizeof(rules));
		rules.preset = (uint8_t)sqlite3_column_int(st, GC_PRESET);
		rules.six_bonus = (uint8_t)sqlite3_column_int(st, GC_SIX_BONUS);
		rules.capture_bonus =
		    (uint8_t)sqlite3_column_int(st, GC_CAPTURE_BONUS);
		rules.three_sixes =
		    (uint8_t)sqlite3_column_int(st, GC_THREE_SIXES);
		if (ludo_init(&g->s.ludo, &rules, n) != 0)
			return -1;
		break;
	case KIND_SNL:
		if (snl_init(&g->s.snl, n) != 0)
			return -1;
		break;
	case KIND_DANDY:
		board = (const char *)sqlite3_column_text(st, GC_BOARD);
		deck = NULL;
		if (sqlite3_column_int(st, GC_HAS_DECK) != 0 &&
		    (deck = (const char *)sqlite3_column_text(st,
		    GC_DECK)) == NULL)
			deck = "";
		if (dandy_init(&g->s.dandy, n, board, deck, NULL) != 0)
			return -1;
		break;
	default:
		return -1;
	}
	row_put(g, &r);
	return 0;
}

/* The options of the games row; the schema's checks keep them in range,
 * these keep a damaged file from reaching the commands. */
static int
load_opts(struct game *g, sqlite3_stmt *st)
{
	struct game_opts	*o = &g->opts;

	o->secure = sqlite3_column_int(st, GC_SEATS) != 0;
	o->server_dice = sqlite3_column_int(st, GC_DICE) != 0;
	o->timeout = sqlite3_column_int64(st, GC_TIMEOUT);
	if (o->timeout < 0)
		return -1;
	return pending_put(g, sqlite3_column_int64(st, GC_DEADLINE),
	    sqlite3_column_int64(st, GC_ROLL),
	    sqlite3_column_int64(st, GC_ROLL_PLAYER));
}

static int
load_game_row(struct sqlite_store *s, const char *id, struct game *g)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = stmt_get(s, ST_GAME_SELECT, "load_game")) == NULL)
		return STORE_ERR;
	if (bind_id(st, id))
		return stmt_err(s, st, "load_game");
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		stmt_done(st);
		set_err(s, "load_game", "no such game");
		return STORE_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return stmt_err(s, st, "load_game");
	g->kind = (enum game_kind)sqlite3_column_int(st, GC_KIND);
	g->moves = sqlite3_column_int64(st, GC_MOVES);
	g->created = sqlite3_column_int64(st, GC_CREATED);
	g->updated = sqlite3_column_int64(st, GC_UPDATED);
	if (column_copy(st, GC_ID, g->id, sizeof(g->id)) != 0 ||
	    load_state(g, st) != 0 || load_opts(g, st) != 0) {
		stmt_done(st);
		return set_err(s, "load_game", "corrupt games row");
	}
	stmt_done(st);
	return 0;
}

/* One players row: a Ludo player's name, a bot, a seat hash. */
static int
load_player(struct game *g, sqlite3_stmt *st, int i)
{
	int64_t	 bot;

	if (g->kind == KIND_LUDO && (i >= LUDO_MAX_PLAYERS ||
	    column_copy(st, 1, g->players[i], sizeof(g->players[i])) != 0))
		return -1;
	if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
		bot = sqlite3_column_int64(st, 2);
		if (bot < 0 || bot > UINT8_MAX - 1)
			return -1;
		g->opts.bot[i] = (uint8_t)(bot + 1);
	}
	if (g->opts.secure) {
		if (sqlite3_column_type(st, 3) != SQLITE_BLOB ||
		    sqlite3_column_bytes(st, 3) != SEAT_HASH_LEN)
			return -1;
		memcpy(g->opts.seat[i], sqlite3_column_blob(st, 3),
		    SEAT_HASH_LEN);
	}
	return 0;
}

static int
load_players(struct sqlite_store *s, struct game *g)
{
	sqlite3_stmt	*st;
	int		 rc, i, n = 0;

	if ((st = stmt_get(s, ST_PLAYER_SELECT, "load_game")) == NULL)
		return STORE_ERR;
	if (bind_id(st, g->id))
		return stmt_err(s, st, "load_game");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		i = sqlite3_column_int(st, 0);
		if (i != n++ || i >= game_nplayers(g) ||
		    i >= GAME_MAX_PLAYERS || load_player(g, st, i) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "load_game");
	stmt_done(st);
	if (rc != SQLITE_DONE || n != game_nplayers(g))
		return set_err(s, "load_game", "corrupt players rows");
	return 0;
}

static int
load_tokens(struct sqlite_store *s, struct game *g)
{
	struct token_row	 r, rows[MAX_TOKEN_ROWS];
	sqlite3_stmt		*st;
	int			 rc, n = 0, want;

	want = token_rows(g, rows);
	if ((st = stmt_get(s, ST_TOKEN_SELECT, "load_game")) == NULL)
		return STORE_ERR;
	if (bind_id(st, g->id))
		return stmt_err(s, st, "load_game");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.player = sqlite3_column_int(st, 0);
		r.token = sqlite3_column_int(st, 1);
		r.pos = sqlite3_column_int(st, 2);
		r.points = sqlite3_column_int(st, 3);
		n++;
		if (token_put(g, &r) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "load_game");
	stmt_done(st);
	/* The primary key makes rows distinct, so the count proves that
	 * every token was loaded. */
	if (rc != SQLITE_DONE || n != want)
		return set_err(s, "load_game", "corrupt token rows");
	return 0;
}

static int
load_jumps(struct sqlite_store *s, struct game *g)
{
	sqlite3_stmt	*st;
	int		 rc, cell, target;

	if ((st = stmt_get(s, ST_JUMP_SELECT, "load_game")) == NULL)
		return STORE_ERR;
	if (bind_id(st, g->id))
		return stmt_err(s, st, "load_game");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cell = sqlite3_column_int(st, 0);
		target = sqlite3_column_int(st, 1);
		if (jump_put(g, cell, target) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "load_game");
	stmt_done(st);
	if (rc != SQLITE_DONE)
		return set_err(s, "load_game", "corrupt jumps rows");
	return 0;
}

/* The game as its rows hold it, every byte set. */
static int
load_rows(struct sqlite_store *s, const char *id, struct game *g)
{
	int	 rc;

	memset(g, 0, sizeof(*g));
	if (strlen(id) > GAME_ID_MAX) {
		set_err(s, "load_game", "no such game");
		return STORE_NOTFOUND;
	}
	if ((rc = load_game_row(s, id, g)) != 0)
		goto fail;
	if ((rc = load_players(s, g)) != 0 ||
	    (rc = load_tokens(s, g)) != 0 ||
	    (g->kind == KIND_SNL && (rc = load_jumps(s, g)) != 0))
		goto fail;
	return 0;
fail:
	memset(g, 0, sizeof(*g));
	return rc;
}

/* The check of a hit (store_sqlite_set_cache_check()): the rows are read
 * as well, into g that holds the hit, and answer. */
static int
load_checked(struct sqlite_store *s, const char *id, struct game *g)
{
	struct game	 c;
	int		 rc;

	c = *g;
	rc = load_rows(s, id, g);
	if (rc == STORE_NOTFOUND ||
	    (rc == 0 && memcmp(&c, g, sizeof(*g)) != 0)) {
		s->stats.mismatches++;
		game_cache_remove(s->cache, id);
		memset(g, 0, sizeof(*g));
		return set_err(s, "load_game",
		    "game cache differs from the stored rows");
	}
	return rc;
}

static int
sqlite_load_game(struct store *store, const char *id, struct game *g)
{
	struct sqlite_store	*s = to_sqlite(store);
	int			 rc, fit;

	if (s->cache == NULL)
		return load_rows(s, id, g);
	fit = cache_sync(s) == 0;
	/* Decoded into the caller's game, its to change. */
	if (game_cache_get(s->cache, id, g) == 0) {
		s->stats.hits++;
		return s->check ? load_checked(s, id, g) : 0;
	}
	s->stats.misses++;
	if ((rc = load_rows(s, id, g)) == 0 && fit)
		cache_put(s, g, cache_marks(s));
	return rc;
}

/* AUDIT's read: the rows, whatever the cache holds; an entry that
 * differs from them is a bug of the cache, dropped and counted. */
static int
sqlite_load_stored(struct store *store, const char *id, struct game *g)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct game		 c;
	int			 rc;

	rc = load_rows(s, id, g);
	/* Checked after the read: a commit it saw has emptied the cache. */
	if (cache_sync(s) != 0 || game_cache_get(s->cache, id, &c) != 0)
		return rc;
	if (rc == STORE_NOTFOUND ||
	    (rc == 0 && memcmp(&c, g, sizeof(*g)) != 0)) {
		s->stats.mismatches++;
		game_cache_remove(s->cache, id);
	}
	return rc;
}

/* ------------------------------------------------------------- setup */

static int
touch_game(struct sqlite_store *s, const struct game *g)
{
	sqlite3_stmt	*st;

	if ((st = stmt_get(s, ST_GAME_TOUCH, "save_setup")) == NULL)
		return STORE_ERR;
	if (bind_id(st, g->id) || bind_int(st, 2, g->updated))
		return stmt_err(s, st, "save_setup");
	if (stmt_run(s, st, "save_setup") != 0)
		return STORE_ERR;
	if (sqlite3_changes(s->db) != 1)
		return set_err(s, "save_setup", "no such game");
	return 0;
}

static int
sqlite_save_setup(struct store *store, const struct game *old,
    const struct game *new)
{
	struct sqlite_store	*s = to_sqlite(store);
	int64_t			 changes;
	int			 rc;

	if (strcmp(old->id, new->id) != 0 || old->kind != new->kind ||
	    old->moves != new->moves)
		return set_err(s, "save_setup", "not the same game");
	changes = cache_write_begin(s);
	if (write_begin(s, "save_setup") != 0)
		rc = STORE_ERR;
	else if ((new->kind == KIND_SNL &&
	    write_jumps(s, old, new, "save_setup") != 0) ||
	    touch_game(s, new) != 0)
		rc = write_abort(s);
	else
		rc = write_end(s, "save_setup");
	cache_write_end(s, changes);
	if (rc == 0)
		cache_setup(s, old, new);
	else
		game_cache_remove(s->cache, new->id);
	return rc;
}

/* -------------------------------------------------------------- turn */

static int
update_game_row(struct sqlite_store *s, const struct game *old,
    const struct game *new)
{
	struct game_row	 r;
	sqlite3_stmt	*st;

	game_row(new, &r);
	if ((st = stmt_get(s, ST_GAME_UPDATE, "save_turn")) == NULL)
		return STORE_ERR;
	if (bind_id(st, new->id) || bind_int(st, 2, r.turn) ||
	    bind_int(st, 3, r.winner) || bind_int(st, 4, r.aux) ||
	    bind_int(st, 5, new->moves) || bind_int(st, 6, new->updated) ||
	    bind_int(st, 7, old->moves) ||
	    bind_pending(st, 8, &new->opts))
		return stmt_err(s, st, "save_turn");
	if (stmt_run(s, st, "save_turn") != 0)
		return STORE_ERR;
	/* The moves guard catches a snapshot that went stale after it was
	 * loaded (no transaction, or another writer). */
	if (sqlite3_changes(s->db) != 1)
		return set_err(s, "save_turn",
		    "game missing or changed since it was loaded");
	return 0;
}

static int
update_tokens(struct sqlite_store *s, const char *id,
    const struct token_changes *tc)
{
	const struct token_row	*r;
	sqlite3_stmt		*st;
	int			 i;

	for (i = 0; i < tc->n; i++) {
		r = &tc->row[i];
		if ((st = stmt_get(s, ST_TOKEN_UPDATE, "save_turn")) == NULL)
			return STORE_ERR;
		if (bind_id(st, id) || bind_int(st, 2, r->player) ||
		    bind_int(st, 3, r->token) || bind_int(st, 4, r->pos) ||
		    bind_int(st, 5, r->points))
			return stmt_err(s, st, "save_turn");
		if (stmt_run(s, st, "save_turn") != 0)
			return STORE_ERR;
		if (sqlite3_changes(s->db) != 1)
			return set_err(s, "save_turn", "missing token row");
	}
	return 0;
}

static int
insert_move(struct sqlite_store *s, const char *id, const struct move *mv)
{
	sqlite3_stmt	*st;

	if ((st = stmt_get(s, ST_MOVE_INSERT, "save_turn")) == NULL)
		return STORE_ERR;
	if (bind_id(st, id) || bind_int(st, 2, mv->seq) ||
	    bind_text(st, 3, mv->player, sizeof(mv->player)) ||
	    bind_text(st, 4, mv->action, sizeof(mv->action)) ||
	    bind_text(st, 5, mv->result, sizeof(mv->result)) ||
	    bind_int(st, 6, mv->at) || bind_int(st, 7, mv->by))
		return stmt_err(s, st, "save_turn");
	return stmt_run(s, st, "save_turn") == 0 ? 0 : STORE_ERR;
}

static int
sqlite_save_turn(struct store *store, const struct game *old,
    const struct game *new, const struct move *mv)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct game_row		 ro, rn;
	struct token_changes	 tc;
	int64_t			 changes;
	int			 rc;

	if (strcmp(old->id, new->id) != 0 || old->kind != new->kind ||
	    game_row(old, &ro) != 0 || game_row(new, &rn) != 0 ||
	    ro.nplayers != rn.nplayers || !same_rules(old, new) ||
	    token_changes(old, new, &tc) != 0)
		return set_err(s, "save_turn", "not the same game");
	if (new->moves != old->moves + 1 || mv->seq != new->moves)
		return set_err(s, "save_turn", "move out of sequence");
	changes = cache_write_begin(s);
	if (write_begin(s, "save_turn") != 0)
		rc = STORE_ERR;
	else if (update_game_row(s, old, new) != 0 ||
	    update_tokens(s, new->id, &tc) != 0 ||
	    insert_move(s, new->id, mv) != 0)
		rc = write_abort(s);
	else
		rc = write_end(s, "save_turn");
	cache_write_end(s, changes);
	if (rc == 0)
		cache_turn(s, new, &tc);
	else
		game_cache_remove(s->cache, new->id);
	return rc;
}

/* ------------------------------------------------------- options */

/* One statement: all or nothing without a savepoint. */
static int
opts_row(struct sqlite_store *s, const struct game *g)
{
	sqlite3_stmt	*st;

	if ((st = stmt_get(s, ST_GAME_OPTS, "save_opts")) == NULL)
		return STORE_ERR;
	if (bind_id(st, g->id) || bind_pending(st, 2, &g->opts) ||
	    bind_int(st, 5, g->moves))
		return stmt_err(s, st, "save_opts");
	if (stmt_run(s, st, "save_opts") != 0)
		return STORE_ERR;
	if (sqlite3_changes(s->db) != 1)
		return set_err(s, "save_opts",
		    "game missing or changed since it was loaded");
	return 0;
}

static int
sqlite_save_opts(struct store *store, const struct game *g)
{
	struct sqlite_store	*s = to_sqlite(store);
	int64_t			 changes;
	int			 rc;

	if (g->opts.roll > 6 || (g->opts.roll != 0 &&
	    g->opts.roll_player >= game_nplayers(g)))
		return set_err(s, "save_opts", "invalid pending roll");
	changes = cache_write_begin(s);
	rc = opts_row(s, g);
	cache_write_end(s, changes);
	if (rc == 0)
		cache_opts(s, g);
	else
		game_cache_remove(s->cache, g->id);
	return rc;
}

static int
sqlite_list_deadlines(struct store *store, store_deadline_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = stmt_get(s, ST_DEADLINES, "list_deadlines")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int64(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "list_deadlines");
	stmt_done(st);
	return ret;
}

/* Reads the secret; 1 when there is none yet. */
static int
secret_read(struct sqlite_store *s, uint8_t out[STORE_SECRET_LEN])
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = stmt_get(s, ST_META_SELECT, "secret")) == NULL)
		return STORE_ERR;
	if (bind_text(st, 1, META_SECRET, sizeof(META_SECRET)))
		return stmt_err(s, st, "secret");
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		stmt_done(st);
		return 1;
	}
	if (rc != SQLITE_ROW)
		return stmt_err(s, st, "secret");
	if (sqlite3_column_type(st, 0) != SQLITE_BLOB ||
	    sqlite3_column_bytes(st, 0) != STORE_SECRET_LEN) {
		stmt_done(st);
		return set_err(s, "secret", "corrupt seat secret");
	}
	memcpy(out, sqlite3_column_blob(st, 0), STORE_SECRET_LEN);
	stmt_done(st);
	return 0;
}

/* The secret is made once per database; INSERT .. DO NOTHING keeps the
 * first one if two writers race. */
static int
secret_get(struct sqlite_store *s, const uint8_t *fresh, uint8_t *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = secret_read(s, out)) != 1)
		return rc;
	if (write_begin(s, "secret") != 0)
		return STORE_ERR;
	if ((st = stmt_get(s, ST_META_INSERT, "secret")) == NULL)
		return write_abort(s);
	if (bind_text(st, 1, META_SECRET, sizeof(META_SECRET)) ||
	    sqlite3_bind_blob(st, 2, fresh, STORE_SECRET_LEN,
	    SQLITE_STATIC) != SQLITE_OK) {
		stmt_err(s, st, "secret");
		return write_abort(s);
	}
	if (stmt_run(s, st, "secret") != 0 || secret_read(s, out) != 0)
		return write_abort(s);
	return write_end(s, "secret");
}

/* The meta row is no game's: the cache only counts the change as the
 * store's own. */
static int
sqlite_secret(struct store *store, const uint8_t *fresh, uint8_t *out)
{
	struct sqlite_store	*s = to_sqlite(store);
	int64_t			 changes;
	int			 rc;

	changes = sqlite3_total_changes64(s->db);
	rc = secret_get(s, fresh, out);
	cache_write_end(s, changes);
	return rc;
}

/* ------------------------------------------------------------- reads */

static int
sqlite_history(struct store *store, const char *id, int64_t from,
    int64_t count, store_move_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct move		 mv;
	sqlite3_stmt		*st;
	int			 rc, ret = 0;

	if ((st = stmt_get(s, ST_MOVE_SELECT, "history")) == NULL)
		return STORE_ERR;
	if (bind_id(st, id) || bind_int(st, 2, from) ||
	    bind_int(st, 3, count < 0 ? -1 : count))
		return stmt_err(s, st, "history");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&mv, 0, sizeof(mv));
		mv.seq = sqlite3_column_int64(st, 0);
		mv.at = sqlite3_column_int64(st, 4);
		mv.by = sqlite3_column_int(st, 5);
		if (column_copy(st, 1, mv.player, sizeof(mv.player)) != 0 ||
		    column_copy(st, 2, mv.action, sizeof(mv.action)) != 0 ||
		    column_copy(st, 3, mv.result, sizeof(mv.result)) != 0) {
			stmt_done(st);
			return set_err(s, "history", "corrupt history row");
		}
		if ((ret = cb(arg, &mv)) != 0)
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "history");
	stmt_done(st);
	return ret;
}

static int
sqlite_list_games(struct store *store, enum game_kind kind,
    const char *after, int64_t limit, store_id_cb cb, void *arg)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 bad, rc, ret = 0;

	st = stmt_get(s, kind == KIND_NONE ? ST_LIST_ALL : ST_LIST_KIND,
	    "list_games");
	if (st == NULL)
		return STORE_ERR;
	/* Every id has at least one character, so "" lists them all. */
	bad = bind_text(st, 1, after != NULL ? after : "", GAME_ID_MAX + 1) ||
	    bind_int(st, 2, limit < 0 ? -1 : limit) ||
	    (kind != KIND_NONE && bind_int(st, 3, kind));
	if (bad)
		return stmt_err(s, st, "list_games");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((ret = cb(arg, (const char *)sqlite3_column_text(st, 0),
		    (enum game_kind)sqlite3_column_int(st, 1))) != 0)
			break;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return stmt_err(s, st, "list_games");
	stmt_done(st);
	return ret;
}

/* counts[KIND_NONE] gets the total. */
static int
sqlite_count_games(struct store *store, int64_t counts[KIND_COUNT])
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	int			 k, rc;

	for (k = 0; k < KIND_COUNT; k++)
		counts[k] = 0;
	if ((st = stmt_get(s, ST_COUNT, "count_games")) == NULL)
		return STORE_ERR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		k = sqlite3_column_int(st, 0);
		if (k > KIND_NONE && k < KIND_COUNT)
			counts[k] = sqlite3_column_int64(st, 1);
		counts[KIND_NONE] += sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE)
		return stmt_err(s, st, "count_games");
	stmt_done(st);
	return 0;
}

static int
pragma_value(struct sqlite_store *s, enum stmt_id id, int64_t *v)
{
	sqlite3_stmt	*st;

	if ((st = stmt_get(s, id, "size")) == NULL)
		return -1;
	if (sqlite3_step(st) != SQLITE_ROW)
		return stmt_err(s, st, "size");
	*v = sqlite3_column_int64(st, 0);
	stmt_done(st);
	return 0;
}

/* The database's logical size, page_count * page_size: pages still in the
 * WAL count, the WAL file itself (until a checkpoint) does not. */
static int64_t
sqlite_size(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);
	int64_t			 pages, size;

	if (pragma_value(s, ST_PAGE_COUNT, &pages) != 0 ||
	    pragma_value(s, ST_PAGE_SIZE, &size) != 0)
		return -1;
	return pages * size;
}

static const char *
sqlite_errmsg(struct store *store)
{
	return to_sqlite(store)->err;
}

/* ------------------------------------------------------ transactions */

static int
sqlite_begin(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);

	if (stmt_exec(s, ST_BEGIN, "begin") != 0)
		return STORE_ERR;
	s->txn = 1;
	cache_txn(s, 1);
	return 0;
}

static void
sqlite_rollback(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st = s->stmt[ST_ROLLBACK];

	cache_undo(s, CACHE_TURN);
	cache_undo(s, CACHE_TXN);
	cache_txn(s, 0);
	s->txn = 0;
	/* "No transaction" is not an error: a failed COMMIT may have
	 * rolled back already. */
	if (sqlite3_get_autocommit(s->db) || sqlite3_stmt_busy(st))
		return;
	sqlite3_step(st);
	stmt_done(st);
}

/*
 * A turn of a batch.  SAVEPOINT outside a transaction would open one of
 * its own, which the batch's COMMIT would then commit although the turns
 * before it were lost with the transaction SQLite rolled back: refused.
 */
static int
sqlite_savepoint(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);

	if (!s->txn)
		return set_err(s, "savepoint", "no transaction open");
	if (sqlite3_get_autocommit(s->db))
		return set_err(s, "savepoint",
		    "transaction rolled back by an earlier error");
	if (stmt_exec(s, ST_TURN_SAVEPOINT, "savepoint") != 0)
		return STORE_ERR;
	/* A savepoint inside another shares its mark: undoing either drops
	 * the entries of both, more than needed but never too few. */
	if (s->turns++ == 0) {
		s->mark[CACHE_TURN] = ++s->marks;
		s->wrote[CACHE_TURN] = 0;
	}
	return 0;
}

/* The innermost turn savepoint has ended. */
static void
turn_end(struct sqlite_store *s)
{
	if (s->turns > 0 && --s->turns == 0) {
		s->mark[CACHE_TURN] = 0;
		s->wrote[CACHE_TURN] = 0;
	}
}

static int
sqlite_release(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);

	if (s->txn && sqlite3_get_autocommit(s->db))
		return set_err(s, "release",
		    "transaction rolled back by an earlier error");
	if (stmt_exec(s, ST_TURN_RELEASE, "release") != 0)
		return STORE_ERR;
	/* Its writes are the transaction's now (wrote[CACHE_TXN] is set). */
	turn_end(s);
	return 0;
}

/* The failed turn's message is kept: it is what the caller replies. */
static void
sqlite_rollback_to(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);
	sqlite3_stmt		*st;
	enum stmt_id		 ids[2] = { ST_TURN_ROLLBACK_TO,
				    ST_TURN_RELEASE };
	int			 i;

	/* An outer savepoint keeps its mark and what it wrote. */
	if (s->wrote[CACHE_TURN])
		game_cache_drop(s->cache, CACHE_TURN, s->mark[CACHE_TURN]);
	turn_end(s);
	if (sqlite3_get_autocommit(s->db)) {
		/* The whole transaction is gone. */
		cache_undo(s, CACHE_TXN);
		return;
	}
	for (i = 0; i < 2; i++) {
		st = s->stmt[ids[i]];
		if (!sqlite3_stmt_busy(st)) {
			sqlite3_step(st);
			stmt_done(st);
		}
	}
}

static int
sqlite_commit(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);

	if (stmt_exec(s, ST_COMMIT, "commit") == 0) {
		s->txn = 0;
		cache_txn(s, 0);
		return 0;
	}
	/* SQLITE_BUSY and friends leave the transaction open. */
	sqlite_rollback(store);
	return STORE_ERR;
}

/* -------------------------------------------------------- cache size */

static int
sqlite_set_cache(struct store *store, int64_t games)
{
	struct sqlite_store	*s = to_sqlite(store);
	struct game_cache	*c = NULL;

	if (games < 0 || games > STORE_GAME_CACHE_MAX)
		return set_err(s, "game_cache", "size out of range");
	if (games > 0 && (c = game_cache_new((size_t)games)) == NULL)
		return set_err(s, "game_cache", "out of memory");
	game_cache_free(s->cache);
	s->cache = c;
	s->stats.games = games;
	/* Empty: whatever happened before is no concern of it. */
	s->changes = sqlite3_total_changes64(s->db);
	s->synced = 0;
	return 0;
}

static void
sqlite_cache_stats(struct store *store, struct store_cache_stats *cs)
{
	struct sqlite_store	*s = to_sqlite(store);

	*cs = s->stats;
	cs->used = (int64_t)game_cache_count(s->cache);
}

/* -------------------------------------------------------- open/close */

static void
sqlite_close(struct store *store)
{
	struct sqlite_store	*s = to_sqlite(store);
	int			 i;

	for (i = 0; i < NSTMT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close(s->db);
	game_cache_free(s->cache);
	free(s);
}

/* Runs one open-time statement and returns its first column as an
 * integer (0 if it returns no row). */
static int
open_int(struct sqlite_store *s, const char *sql, int64_t *v)
{
	sqlite3_stmt	*st;
	int		 rc;

	*v = 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(s, sql);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		db_err(s, sql);
		sqlite3_finalize(st);
		return STORE_ERR;
	}
	sqlite3_finalize(st);
	return 0;
}

static int
open_journal(struct sqlite_store *s)
{
	sqlite3_stmt		*st;
	const unsigned char	*mode;
	int			 ok;

	if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st,
	    NULL) != SQLITE_OK)
		return db_err(s, "journal_mode");
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_err(s, "journal_mode");
		sqlite3_finalize(st);
		return STORE_ERR;
	}
	/* An in-memory database cannot use WAL and says "memory". */
	mode = sqlite3_column_text(st, 0);
	ok = mode != NULL && (strcasecmp((const char *)mode, "wal") == 0 ||
	    strcasecmp((const char *)mode, "memory") == 0);
	if (!ok)
		set_err(s, "journal_mode", "cannot switch to WAL");
	sqlite3_finalize(st);
	return ok ? 0 : STORE_ERR;
}

/* A database written by a newer ludus is refused before anything of it
 * is touched. */
static int
check_version(struct sqlite_store *s, int64_t *version)
{
	char	 msg[128];

	if (open_int(s, "PRAGMA user_version", version) != 0)
		return STORE_ERR;
	if (*version < 0 || *version > store_migration_count) {
		snprintf(msg, sizeof(msg), "database schema version %lld is "
		    "newer than this program's (%d)", (long long)*version,
		    store_migration_count);
		return set_err(s, "open", msg);
	}
	return 0;
}

/* Migrations run with foreign keys off; what a migration leaves must
 * still satisfy them before it commits. */
static int
check_foreign_keys(struct sqlite_store *s, const char *op)
{
	sqlite3_stmt	*st;
	const char	*table;
	char		 msg[128];
	int		 rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
	    NULL) != SQLITE_OK)
		return db_err(s, op);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if ((table = (const char *)sqlite3_column_text(st, 0)) == NULL)
			table = "a table";
		snprintf(msg, sizeof(msg), "foreign key violated in %s",
		    table);
	} else if (rc != SQLITE_DONE)
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : set_err(s, op, msg);
}

/* One migration, in its own transaction.  The version is read again
 * under the write lock: another process may have migrated meanwhile. */
static int
migrate_one(struct sqlite_store *s, int *done)
{
	int64_t	 v, after;
	char	 op[32];

	*done = 0;
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_err(s, "migrate");
	if (check_version(s, &v) != 0)
		goto fail;
	if (v == store_migration_count) {
		*done = 1;
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return 0;
	}
	snprintf(op, sizeof(op), "migration %lld", (long long)v + 1);
	if (sqlite3_exec(s->db, store_migrations[v], NULL, NULL,
	    NULL) != SQLITE_OK) {
		db_err(s, op);
		goto fail;
	}
	if (open_int(s, "PRAGMA user_version", &after) != 0)
		goto fail;
	if (after != v + 1) {
		set_err(s, op, "did not set user_version");
		goto fail;
	}
	if (check_foreign_keys(s, op) != 0)
		goto fail;
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_err(s, op);
		goto fail;
	}
	return 0;
fail:
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return STORE_ERR;
}

/*
 * Foreign keys are off while migrations run, as SQLite's procedure for
 * rebuilding a table needs (migration 3): dropping games would cascade
 * into its children.  PRAGMA foreign_keys is a no-op inside a
 * transaction, hence here, before each migration's own.
 */
static int
migrate(struct sqlite_store *s, int64_t version)
{
	int64_t	 v;
	int	 done = version == store_migration_count;

	if (done)
		return 0;
	if (open_int(s, "PRAGMA foreign_keys = OFF", &v) != 0)
		return STORE_ERR;
	while (!done)
		if (migrate_one(s, &done) != 0)
			return STORE_ERR;
	return open_int(s, "PRAGMA foreign_keys = ON", &v);
}

static int
prepare_all(struct sqlite_store *s)
{
	int	 i;

	for (i = 0; i < NSTMT; i++)
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL) != SQLITE_OK)
			return db_err(s, "prepare");
	return 0;
}

/*
 * SQLite's process-wide settings, which it takes only before it starts
 * (the first sqlite3_open()): memory statistics off.  It keeps them
 * under a global mutex around every allocation, which a NOMUTEX
 * connection does not remove: 5% of a turn's instructions, for figures
 * nothing here reads (sqlite3_memory_used()).  Once per process, hence
 * the static: the store is opened from one thread (ludusd has no other,
 * the CLI neither).  A program that started SQLite itself before (a
 * test with its own allocator) keeps its settings: the call is refused
 * and changes nothing.
 */
static void
configure_sqlite(void)
{
	static int	 configured;

	if (configured)
		return;
	configured = 1;
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

static int
open_db(struct sqlite_store *s, const char *path, enum durability d)
{
	int64_t	 version, fk;

	if ((unsigned int)d >= sizeof(sync_pragma) / sizeof(sync_pragma[0]))
		return set_err(s, "open", "unknown durability");
	configure_sqlite();
	/*
	 * One connection, used by one thread: SQLite's per-call mutexes
	 * (Debian builds it fully thread-safe) are pure cost, 4-10% of the
	 * daemon's CPU in profiles.
	 */
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		if (s->db == NULL)
			return set_err(s, "open", "out of memory");
		return db_err(s, "open");
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (check_version(s, &version) != 0 || open_journal(s) != 0 ||
	    open_int(s, sync_pragma[d], &fk) != 0 ||
	    open_int(s, "PRAGMA foreign_keys = ON", &fk) != 0 ||
	    open_int(s, "PRAGMA foreign_keys", &fk) != 0)
		return STORE_ERR;
	if (fk != 1)
		return set_err(s, "open", "SQLite lacks foreign keys");
	if (migrate(s, version) != 0 || prepare_all(s) != 0)
		return STORE_ERR;
	/* Nothing is cached yet: the changes so far are no concern. */
	s->changes = sqlite3_total_changes64(s->db);
	return 0;
}

struct store *
store_sqlite_open(const char *path, enum durability d, char *errbuf,
    size_t errlen)
{
	struct sqlite_store	*s;

	s = xcalloc(1, sizeof(*s));
	s->store.ops = &sqlite_ops;
	if (open_db(s, path, d) != 0 ||
	    sqlite_set_cache(&s->store, STORE_GAME_CACHE_DEFAULT) != 0) {
		if (errbuf != NULL && errlen > 0)
			snprintf(errbuf, errlen, "%s: %s", path, s->err);
		sqlite_close(&s->store);
		return NULL;
	}
	/* Lets a whole test suite run with every hit checked. */
	s->check = getenv("LUDUS_GAME_CACHE_CHECK") != NULL;
	return &s->store;
}

struct sqlite3 *
store_sqlite_handle(struct store *store)
{
	if (store == NULL || store->ops != &sqlite_ops)
		return NULL;
	return to_sqlite(store)->db;
}

void
store_sqlite_set_busy_timeout(struct store *store, int ms)
{
	sqlite3	*db;

	/* sqlite3_busy_timeout() with ms <= 0 removes the handler. */
	if ((db = store_sqlite_handle(store)) != NULL)
		sqlite3_busy_timeout(db, ms > 0 ? ms : 0);
}

void
store_sqlite_set_cache_check(struct store *store, int on)
{
	if (store_sqlite_handle(store) != NULL)
		to_sqlite(store)->check = on != 0;
}

static const struct store_ops sqlite_ops = {
	.name = "sqlite",
	.close = sqlite_close,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.savepoint = sqlite_savepoint,
	.release = sqlite_release,
	.rollback_to = sqlite_rollback_to,
	.create_game = sqlite_create_game,
	.load_game = sqlite_load_game,
	.load_stored = sqlite_load_stored,
	.save_setup = sqlite_save_setup,
	.save_turn = sqlite_save_turn,
	.save_opts = sqlite_save_opts,
	.list_deadlines = sqlite_list_deadlines,
	.secret = sqlite_secret,
	.history = sqlite_history,
	.list_games = sqlite_list_games,
	.count_games = sqlite_count_games,
	.size = sqlite_size,
	.set_cache = sqlite_set_cache,
	.cache_stats = sqlite_cache_stats,
	.errmsg = sqlite_errmsg,
};
