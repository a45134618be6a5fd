/*
 * The SQLite backend's statements: every one it runs after open,
 * prepared once, and the helpers that bind, step and read them.
 */
#include <string.h>

#include "store/sqlite_int.h"

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
	    " roll, roll_player, gid FROM games WHERE id = ?1",
	[ST_GAME_UPDATE] =
	    "UPDATE games SET turn = ?2, winner = ?3, aux = ?4, moves = ?5,"
	    " updated = ?6, deadline = ?8, roll = ?9, roll_player = ?10"
	    " WHERE gid = ?1 AND moves = ?7",
	[ST_GAME_TOUCH] = "UPDATE games SET updated = ?2 WHERE gid = ?1",
	[ST_GAME_OPTS] =
	    "UPDATE games SET deadline = ?2, roll = ?3, roll_player = ?4"
	    " WHERE gid = ?1 AND moves = ?5",
	/*
	 * A game's child rows name it by its gid: ?1 of the statements
	 * that say "gid = ?1" or "game = ?1" (sql_bind_gid()).  Not an
	 * UPDATE ... RETURNING gid, which SQLite runs through an ephemeral
	 * table: two zeroed pages and their b-tree every turn, a fifth of
	 * a turn's instructions against this lookup's index seek.
	 */
	[ST_GAME_GID] = "SELECT gid FROM games WHERE id = ?1",
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
	/* Only on top of the hash it replaces. */
	[ST_PLAYER_SEAT] =
	    "UPDATE players SET seat = ?3 WHERE game = ?1 AND idx = ?2"
	    " AND seat = ?4",
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
	[ST_ACCOUNT_INSERT] =
	    "INSERT INTO accounts (name, key, created) VALUES (?1, ?2, ?3)",
	[ST_ACCOUNT_SELECT] =
	    "SELECT name, key, bot, created FROM accounts WHERE name = ?1",
	[ST_ACCOUNT_REKEY] =
	    "UPDATE accounts SET key = ?2 WHERE name = ?1 AND key = ?3",
	[ST_RATING_SELECT] =
	    "SELECT rating, rd, vol, games, won, updated FROM ratings"
	    " WHERE account = ?1 AND kind = ?2",
	/* Written only on top of the row it was computed from. */
	[ST_RATING_UPSERT] =
	    "INSERT INTO ratings (account, kind, rating, rd, vol, games, won,"
	    " updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
	    " ON CONFLICT (account, kind) DO UPDATE SET"
	    " rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
	    " games = excluded.games, won = excluded.won,"
	    " updated = excluded.updated WHERE ratings.games = ?9",
	[ST_LEADERBOARD] =
	    "SELECT account, rating, rd, vol, games, won, updated FROM ratings"
	    " WHERE kind = ?1 ORDER BY rating DESC, account"
	    " LIMIT ?3 OFFSET ?2",
	[ST_TICKET_INSERT] =
	    "INSERT INTO tickets (account, kind, queue, players_min,"
	    " players_max, rating, span, bots_after, joined)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[ST_TICKET_COUNT] =
	    "SELECT count(*) FROM tickets WHERE account = ?1 AND state = 0",
	[ST_TICKET_SELECT] =
	    "SELECT " SQLITE_TICKET_COLS " FROM tickets WHERE id = ?1",
	[ST_TICKET_CANCEL] =
	    "UPDATE tickets SET state = 2, ended = ?2"
	    " WHERE id = ?1 AND state = 0",
	[ST_TICKET_TAKE] =
	    "UPDATE tickets SET state = 1, game = ?2, seat = ?3, ended = ?4"
	    " WHERE id = ?1 AND state = 0",
	[ST_TICKETS_WAITING] =
	    "SELECT " SQLITE_TICKET_COLS " FROM tickets"
	    " WHERE queue = ?1 AND state = 0 ORDER BY joined, id LIMIT ?2",
	/* A queue's tickets are all of its kind. */
	[ST_QUEUES_ALL] =
	    "SELECT queue, min(kind), count(*), min(joined) FROM tickets"
	    " WHERE state = 0 GROUP BY queue ORDER BY queue",
	[ST_QUEUES_KIND] =
	    "SELECT queue, min(kind), count(*), min(joined) FROM tickets"
	    " WHERE state = 0 AND kind = ?1 GROUP BY queue ORDER BY queue",
	[ST_SEAT_INSERT] =
	    "INSERT INTO game_accounts (game, idx, account)"
	    " VALUES (?1, ?2, ?3)",
	[ST_SEAT_SELECT] =
	    "SELECT idx, account FROM game_accounts WHERE game = ?1"
	    " ORDER BY idx",
	[ST_ACCOUNT_GAMES] =
	    "SELECT " SQLITE_ACCOUNT_GAME_COLS " FROM game_accounts a"
	    " JOIN games g ON g.gid = a.game"
	    " JOIN players ps ON ps.game = a.game AND ps.idx = a.idx"
	    " LEFT JOIN players pt ON pt.game = g.gid AND pt.idx = g.turn"
	    " WHERE a.account = ?1 AND g.id > ?2"
	    " AND (?3 = 0 OR (?3 = 1) = (g.turn >= 0))"
	    " ORDER BY g.id, a.idx LIMIT ?4",
	/* ludus copy's walks and imports. */
	[ST_ACCOUNT_EACH] =
	    "SELECT name, key, bot, created FROM accounts"
	    " WHERE key IS NOT NULL ORDER BY name",
	[ST_RATING_EACH] =
	    "SELECT account, kind, rating, rd, vol, games, won, updated"
	    " FROM ratings ORDER BY account, kind",
	[ST_TICKET_EACH] =
	    "SELECT " SQLITE_TICKET_COLS " FROM tickets WHERE id > ?1"
	    " ORDER BY id LIMIT ?2",
	[ST_SEAT_EACH] =
	    "SELECT g.id, a.idx, a.account FROM game_accounts a"
	    " JOIN games g ON g.gid = a.game ORDER BY g.id, a.idx",
	[ST_TICKET_IMPORT] =
	    "INSERT INTO tickets (" SQLITE_TICKET_COLS ") VALUES (?1, ?2, ?3,"
	    " ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
	/* Its players, tokens, jumps and history go with it (ON DELETE
	 * CASCADE): one statement, all or nothing. */
	[ST_GAME_DELETE] = "DELETE FROM games WHERE id = ?1 AND moves = ?2",
	/* Both from the partial index games_finished. */
	[ST_FINISHED] =
	    "SELECT id, kind FROM games WHERE turn = -1 AND updated < ?1"
	    " ORDER BY updated, id LIMIT ?2",
	[ST_FINISHED_COUNT] = "SELECT count(*) FROM games WHERE turn = -1",
	[ST_FREELIST] = "PRAGMA freelist_count",
	/* One step of store_reclaim(): 512 KiB of 2 KiB pages, a write
	 * transaction of a millisecond or so. */
	[ST_RECLAIM] = "PRAGMA incremental_vacuum(" STORE_RECLAIM_STEP ")",
	/*
	 * Children before their parents, each table with a statement of
	 * its own (a DELETE of games alone would cascade, row by row).
	 * Under ASan this is no faster than the cascade, as measured
	 * (doc/testing.md, "Fuzzing"): with foreign keys on, each deleted
	 * row still seeks its children.  The accounts' keys are hashed
	 * with the secret in meta: they go with it (the bots' accounts,
	 * which have none, stay).
	 */
	[ST_CLEAR_FIRST] = "DELETE FROM game_accounts",
	[ST_CLEAR_FIRST + 1] = "DELETE FROM tokens",
	[ST_CLEAR_FIRST + 2] = "DELETE FROM jumps",
	[ST_CLEAR_FIRST + 3] = "DELETE FROM history",
	[ST_CLEAR_FIRST + 4] = "DELETE FROM players",
	[ST_CLEAR_FIRST + 5] = "DELETE FROM games",
	[ST_CLEAR_FIRST + 6] = "DELETE FROM meta",
	[ST_CLEAR_FIRST + 7] = "DELETE FROM tickets",
	[ST_CLEAR_FIRST + 8] = "DELETE FROM ratings",
	[ST_CLEAR_LAST] = "DELETE FROM accounts WHERE bot IS NULL",
};

int
sql_prepare_all(struct sqlite_store *s)
{
	int	 i;

	for (i = 0; i < NSTMT; i++)
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL) != SQLITE_OK)
			return sql_db_err(s, "prepare");
	return 0;
}

void
sql_finalize_all(struct sqlite_store *s)
{
	int	 i;

	for (i = 0; i < NSTMT; i++) {
		sqlite3_finalize(s->stmt[i]);
		s->stmt[i] = NULL;
	}
}

int
sql_db_err(struct sqlite_store *s, const char *op)
{
	return store_set_err(&s->store, op, sqlite3_errmsg(s->db));
}

int
sql_stmt_err(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	sql_db_err(s, op);
	sql_stmt_done(st);
	return STORE_ERR;
}

int
sql_stmt_run(struct sqlite_store *s, sqlite3_stmt *st, const char *op)
{
	int	 rc;

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		sql_db_err(s, op);
		sql_stmt_done(st);
		return rc == SQLITE_ROW ? SQLITE_ERROR : rc;
	}
	sql_stmt_done(st);
	return 0;
}

int
sql_stmt_exec(struct sqlite_store *s, enum stmt_id id, const char *op)
{
	sqlite3_stmt	*st;

	if ((st = sql_stmt_get(s, id, op)) == NULL)
		return STORE_ERR;
	return sql_stmt_run(s, st, op) == 0 ? 0 : STORE_ERR;
}

void
sql_stmt_quiet(struct sqlite_store *s, enum stmt_id id)
{
	sqlite3_stmt	*st = s->stmt[id];

	if (!sqlite3_stmt_busy(st)) {
		sqlite3_step(st);
		sql_stmt_done(st);
	}
}

int
sql_column_copy(sqlite3_stmt *st, int col, char *dst, size_t size)
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
