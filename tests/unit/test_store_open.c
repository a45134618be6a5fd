/*
 * test_store, opening a store: migrations, reopening a file, upgrades
 * of old databases, the schema's checks, a newer schema, a bad path,
 * the durability names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "game/game.h"
#include "store/backend.h"
#include "store/cache.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store_helper.h"
#include "test_store.h"

/* ------------------------------------------------------- open/files */

void
test_open_migrations(void **state)
{
	struct store	*st;

	(void)state;
	st = open_mem();
	assert_true(store_migration_count >= 1);
	assert_null(store_migrations[store_migration_count]);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	assert_int_equal(query_int(st, "PRAGMA foreign_keys"), 1);
	assert_int_equal(query_int(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE type = 'table' AND name IN ('games', 'players',"
	    " 'tokens', 'jumps', 'history')"), 5);
	assert_string_equal(st->ops->name, "sqlite");
	store_close(st);
	store_close(NULL);
}

/*
 * SQLite keeps no memory statistics (a global mutex around each of its
 * allocations): the first store of the process turned them off before
 * SQLite started.  The first test of this binary opens a store before
 * any other SQLite call; a first test that started SQLite itself would
 * make this one fail.
 */
void
test_open_no_memory_statistics(void **state)
{
	struct store	*st;
	struct game	 g;
	uint32_t	 seed = 4;

	(void)state;
	st = open_mem();
	make_ludo(&g, "stats", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	play_moves(st, &g, 3, &seed);
	assert_int_equal(sqlite3_memory_used(), 0);
	store_close(st);
}

void
test_open_file_reopen(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 games[3], snap;
	struct collect	 c;
	sqlite3_stmt	*stmt;
	uint32_t	 seed = 11;
	char		 err[256];
	int64_t		 size;
	int		 i;

	(void)state;
	tmpdir_make(&t, "test_store");
	st = store_sqlite_open(t.path, DURABILITY_NORMAL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(sqlite3_prepare_v2(store_sqlite_handle(st),
	    "PRAGMA journal_mode", -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	assert_int_equal(query_int(st, "PRAGMA synchronous"), 1);

	make_ludo(&games[0], "file-ludo", "extended", 4);
	make_snl(&games[1], "file-snl", 4);
	make_dandy(&games[2], "file-dandy", 5, "abcdef", "abcdef123456");
	for (i = 0; i < 3; i++) {
		assert_int_equal(store_create_game(st, &games[i]), STORE_OK);
		play_moves(st, &games[i], 6, &seed);
	}
	size = store_size(st);
	assert_true(size > 0);
	store_close(st);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "PRAGMA synchronous"), 2);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	for (i = 0; i < 3; i++) {
		assert_loads_as(st, &games[i]);
		memset(&c, 0, sizeof(c));
		assert_int_equal(store_history(st, games[i].id, 1, -1,
		    ts_collect, &c), 0);
		assert_int_equal(c.n, 6);
		/* and play goes on */
		play_moves(st, &games[i], 2, &seed);
	}
	assert_int_equal(store_load_game(st, "file-snl", &snap), STORE_OK);
	assert_same_game(&snap, &games[1]);
	store_close(st);

	st = store_sqlite_open(t.path, DURABILITY_OFF, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "PRAGMA synchronous"), 0);
	for (i = 0; i < 3; i++)
		assert_loads_as(st, &games[i]);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * A database made by migration 1 alone (the first release) upgrades on
 * open: its games load with every option at its default, their history
 * rows as moves of players, and play goes on.
 */
void
test_open_upgrade_v1(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g, want;
	struct collect	 c;
	sqlite3		*db;
	uint32_t	 seed = 9;
	char		 err[256];

	(void)state;
	tmpdir_make(&t, "test_store");
	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, store_migrations[0], NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
	    " created, updated, ludo_preset, six_bonus, capture_bonus,"
	    " three_sixes) VALUES ('old', 1, 2, 1, -1, 0, 1, 1700000000,"
	    " 1700000001, 0, 1, 0, 0);"
	    "INSERT INTO players VALUES ('old', 0, 'red'), ('old', 1, 'blue');"
	    "INSERT INTO tokens (game, player, token, pos) VALUES"
	    " ('old', 0, 1, -1), ('old', 0, 2, -1), ('old', 0, 3, -1),"
	    " ('old', 0, 4, -1), ('old', 1, 1, -1), ('old', 1, 2, -1),"
	    " ('old', 1, 3, -1), ('old', 1, 4, -1);"
	    "INSERT INTO history VALUES ('old', 1, 'red', '3:0', 'PASSED',"
	    " 1700000001);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	make_ludo(&want, "old", "classic", 2);
	memset(want.players, 0, sizeof(want.players));
	snprintf(want.players[0], sizeof(want.players[0]), "red");
	snprintf(want.players[1], sizeof(want.players[1]), "blue");
	want.s.ludo.turn = 1;
	want.moves = 1;
	want.updated = 1700000001;
	assert_int_equal(store_load_game(st, "old", &g), STORE_OK);
	assert_same_game(&g, &want);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "old", 1, -1, ts_collect, &c),
	    0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.moves[0].by, MOVE_PLAYER);
	play_moves(st, &want, 3, &seed);
	store_close(st);
	tmpdir_remove(&t);
}

/* The columns of each table, in the order of every migration; the
 * children's game is the id of migration 2, src's gid looked up. */
static const char *const upgrade_copy =
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,"
    " board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,"
    " roll_player) SELECT id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,"
    " board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,"
    " roll_player FROM src.games;"
    "INSERT INTO players SELECT g.id, p.idx, p.name, p.bot, p.seat"
    " FROM src.players p JOIN src.games g ON g.gid = p.game;"
    "INSERT INTO tokens SELECT g.id, t.player, t.token, t.pos, t.points"
    " FROM src.tokens t JOIN src.games g ON g.gid = t.game;"
    "INSERT INTO jumps SELECT g.id, j.cell, j.target"
    " FROM src.jumps j JOIN src.games g ON g.gid = j.game;"
    "INSERT INTO history SELECT g.id, h.seq, h.player, h.action, h.result,"
    " h.at, h.automatic FROM src.history h JOIN src.games g"
    " ON g.gid = h.game;"
    "INSERT INTO meta SELECT key, value FROM src.meta;";

/*
 * A database of migration 2 (the multiplayer release) with games of every
 * kind, their options and history, upgrades on open: games and history
 * are rebuilt (migration 3) and every row comes through as it was, the
 * foreign keys of players, tokens, jumps and history still hold and
 * cascade, the indexes are back, and play goes on.
 */
void
test_open_upgrade_v2(void **state)
{
	struct tmpdir	 src, t;
	struct store	*st;
	struct game	 g[4];
	sqlite3		*db;
	uint32_t	 seed = 17;
	uint8_t		 fresh[STORE_SECRET_LEN];
	uint8_t		 secret[STORE_SECRET_LEN];
	char		 err[256], sql[256];
	int64_t		 rows, autos;
	int		 i;

	(void)state;
	/* The rows, made by this store in a database of its own... */
	tmpdir_make(&src, "test_store");
	st = store_sqlite_open(src.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	make_ludo(&g[0], "up-ludo", "extended", 4);
	g[0].opts.secure = 1;
	g[0].opts.server_dice = 1;
	g[0].opts.timeout = 30;
	g[0].opts.bot[3] = 3;
	for (i = 0; i < 4; i++)
		memset(g[0].opts.seat[i], 0x21 + i, SEAT_HASH_LEN);
	make_snl(&g[1], "up-snl", 3);
	make_dandy(&g[2], "up-dandy", 3, "abcdefghi", "abcdefghi123456789");
	make_dandy(&g[3], "up-dandy-nodeck", 2, "abcabc", NULL);
	for (i = 0; i < 4; i++) {
		assert_int_equal(store_create_game(st, &g[i]), STORE_OK);
		play_moves(st, &g[i], 5, &seed);
	}
	g[0].opts.roll = 5;
	g[0].opts.roll_player = (uint8_t)g[0].s.ludo.turn;
	g[0].opts.deadline = 1700000000999LL;
	assert_int_equal(store_save_opts(st, &g[0]), STORE_OK);
	memset(fresh, 0x5a, sizeof(fresh));
	assert_int_equal(store_secret(st, fresh, secret), STORE_OK);
	store_close(st);

	/* ... copied into a database that migrations 1 and 2 made. */
	tmpdir_make(&t, "test_store");
	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	for (i = 0; i < 2; i++)
		assert_int_equal(sqlite3_exec(db, store_migrations[i], NULL,
		    NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "ATTACH '%s' AS src", src.path);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, upgrade_copy, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DETACH src;"
	    "UPDATE history SET automatic = seq % 3", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sql_int(db, "PRAGMA user_version"), 2);
	rows = sql_int(db, "SELECT count(*) FROM history");
	autos = sql_int(db, "SELECT sum(automatic * seq) FROM history");
	assert_int_equal(rows, 20);
	sqlite3_close(db);
	tmpdir_remove(&src);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	assert_int_equal(query_int(st, "PRAGMA foreign_keys"), 1);
	assert_int_equal(query_int(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE name LIKE '%new%'"), 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE type = 'index' AND name IN ('games_kind',"
	    " 'games_deadline')"), 2);
	for (i = 0; i < 4; i++)
		assert_loads_as(st, &g[i]);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), rows);
	assert_int_equal(query_int(st, "SELECT sum(automatic * seq)"
	    " FROM history"), autos);
	memset(fresh, 0x11, sizeof(fresh));
	assert_int_equal(store_secret(st, fresh, fresh), STORE_OK);
	assert_memory_equal(fresh, secret, sizeof(secret));
	assert_int_equal(query_int(st, "SELECT count(*) FROM games"
	    " INDEXED BY games_deadline WHERE deadline IS NOT NULL"), 1);

	/* The children's keys name the new games: checked, and cascaded. */
	db = store_sqlite_handle(st);
	assert_int_equal(sqlite3_exec(db, "INSERT INTO history (game, seq,"
	    " player, action, result, at) VALUES ((SELECT max(gid) + 1"
	    " FROM games), 1, 'p', 'a', 'b', 1)", NULL, NULL, NULL),
	    SQLITE_CONSTRAINT_FOREIGNKEY);
	assert_true(query_int(st, "SELECT count(*) FROM jumps"
	    " WHERE game = " SQL_GID("up-snl")) > 0);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM games"
	    " WHERE id = 'up-snl'", NULL, NULL, NULL), SQLITE_OK);
	/* No row is left naming a game that is not there. */
	assert_int_equal(query_int(st, "SELECT (SELECT count(*) FROM players"
	    " WHERE game NOT IN (SELECT gid FROM games)) + (SELECT count(*)"
	    " FROM tokens WHERE game NOT IN (SELECT gid FROM games)) +"
	    " (SELECT count(*) FROM jumps) + (SELECT count(*) FROM history"
	    " WHERE game NOT IN (SELECT gid FROM games))"), 0);

	/* and play goes on */
	g[0].opts.roll = 0;
	g[0].opts.roll_player = 0;
	g[0].opts.deadline = 0;
	assert_int_equal(store_save_opts(st, &g[0]), STORE_OK);
	for (i = 0; i < 4; i++)
		if (i != 1)
			play_moves(st, &g[i], 3, &seed);
	store_close(st);
	tmpdir_remove(&t);
}

/* Rows that both schema versions are given, and whether they pass. */
static const struct {
	const char	*sql;
	int		 ok;
} check_cases[] = {
	{ "UPDATE games SET kind = 4 WHERE id = 'l'", 0 },
	{ "UPDATE games SET kind = 1.5 WHERE id = 'l'", 0 },
	{ "UPDATE games SET ludo_preset = 2 WHERE id = 'l'", 1 },
	{ "UPDATE games SET ludo_preset = '1' WHERE id = 'l'", 1 },
	{ "UPDATE games SET ludo_preset = 3 WHERE id = 'l'", 0 },
	{ "UPDATE games SET ludo_preset = 0.5 WHERE id = 'l'", 0 },
	{ "UPDATE games SET ludo_preset = NULL WHERE id = 'l'", 0 },
	{ "UPDATE games SET aux = 1 WHERE id = 's'", 1 },
	{ "UPDATE games SET aux = 2 WHERE id = 's'", 0 },
	{ "UPDATE games SET nplayers = 65 WHERE id = 's'", 0 },
	{ "UPDATE games SET board = 'ab' WHERE id = 's'", 0 },
	{ "UPDATE games SET aux = 4, turn = 1 WHERE id = 'd'", 1 },
	{ "UPDATE games SET aux = 5 WHERE id = 'd'", 0 },
	{ "UPDATE games SET winner = 0 WHERE id = 'd'", 0 },
	{ "UPDATE games SET winner = 0 WHERE id = 'e'", 0 },
	{ "UPDATE games SET aux = 1000 WHERE id = 'e'", 1 },
	{ "UPDATE games SET deck = 'ab1x' WHERE id = 'd'", 0 },
	{ "UPDATE games SET deck = 'ab1' WHERE id = 'd'", 1 },
	{ "UPDATE games SET deck = 'ab1', aux = 4 WHERE id = 'd'", 0 },
	{ "UPDATE games SET deck = NULL WHERE id = 'd'", 0 },
	{ "UPDATE games SET has_deck = 0 WHERE id = 'd'", 0 },
	{ "UPDATE games SET has_deck = 0, deck = NULL, aux = 9"
	    " WHERE id = 'd'", 1 },
	{ "UPDATE games SET has_deck = 1, deck = 'abc' WHERE id = 'e'", 1 },
	{ "UPDATE games SET has_deck = NULL WHERE id = 'e'", 0 },
	{ "UPDATE games SET board = 'abz' WHERE id = 'e'", 0 },
	{ "UPDATE games SET nplayers = 9, turn = 0 WHERE id = 'e'", 0 },
	{ "UPDATE games SET six_bonus = 1 WHERE id = 'e'", 0 },
	{ "UPDATE history SET automatic = 2", 1 },
	{ "UPDATE history SET automatic = '1'", 1 },
	{ "UPDATE history SET automatic = 3", 0 },
	{ "UPDATE history SET automatic = -1", 0 },
	{ "UPDATE history SET automatic = 1.5", 0 },
	{ "UPDATE history SET automatic = '1x'", 0 },
};

/* The rows of a game at migration 3: a Ludo game whose players have a
 * bot and seat hashes, and its tokens. */
static const char *const upgrade_v3_rows =
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus,"
    " three_sixes, seats) VALUES ('v3', 1, 2, 0, -1, 0, 0, 1, 1, 0, 1, 0,"
    " 0, 1);"
    "INSERT INTO players (game, idx, name, bot, seat) VALUES"
    " ('v3', 0, 'ann', NULL, zeroblob(32)), ('v3', 1, 'bob', 2,"
    " randomblob(32));"
    "INSERT INTO tokens (game, player, token, pos) VALUES ('v3', 0, 1, -1),"
    " ('v3', 0, 2, 5), ('v3', 1, 1, -1), ('v3', 1, 2, 17);";

/* The players of every game by its id, whether they name it by the id
 * (before migration 8) or the gid, which is the rowid of games. */
static const char *const players_digest =
    "SELECT group_concat(gname || idx || name || coalesce(bot, '-') ||"
    " coalesce(hex(seat), '-'), ',') FROM (SELECT g.id AS gname, p.*"
    " FROM players p JOIN games g ON p.game = g.id OR p.game = g.rowid"
    " ORDER BY g.id, p.idx)";

static void
assert_refused(sqlite3 *db, const char *sql, const char *msg)
{
	assert_int_not_equal(sqlite3_exec(db, sql, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_non_null(strstr(sqlite3_errmsg(db), msg));
}

/*
 * Migration 4 rebuilds players without the UNIQUE (game, name) index:
 * the rows come through, the rule still holds (as triggers, with the
 * index's message), and the tokens' key still names the players.
 */
void
test_open_upgrade_v3(void **state)
{
	static const char	 dup[] =
	    "UNIQUE constraint failed: players.game, players.name";
	struct tmpdir		 t;
	struct store		*st;
	sqlite3			*db;
	sqlite3_stmt		*stmt;
	char			 err[256], before[512];
	int			 i;

	(void)state;
	tmpdir_make(&t, "test_store");
	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	for (i = 0; i < 3; i++)
		assert_int_equal(sqlite3_exec(db, store_migrations[i], NULL,
		    NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, upgrade_v3_rows, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, players_digest, -1, &stmt,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	snprintf(before, sizeof(before), "%s", sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	sqlite3_close(db);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	db = store_sqlite_handle(st);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	assert_int_equal(query_int(st, "SELECT count(*) FROM sqlite_master"
	    " WHERE name LIKE '%new%' OR name LIKE 'sqlite_autoindex_players%'"),
	    0);
	assert_int_equal(sqlite3_prepare_v2(db, players_digest, -1, &stmt,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
	    before);
	sqlite3_finalize(stmt);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens"), 4);

	/* The rule, on insert and on update; other games may share names. */
	assert_refused(db, "INSERT INTO players (game, idx, name) VALUES"
	    " (" SQL_GID("v3") ", 2, 'ann')", dup);
	assert_refused(db, "UPDATE players SET name = 'ann' WHERE idx = 1",
	    dup);
	assert_int_equal(sqlite3_exec(db, "UPDATE players SET name = 'ann'"
	    " WHERE idx = 0", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE players SET name = 'cy'"
	    " WHERE idx = 1", NULL, NULL, NULL), SQLITE_OK);
	/* Keys: a token needs its player, a game's delete cascades. */
	assert_int_equal(sqlite3_exec(db, "INSERT INTO tokens (game, player,"
	    " token, pos) VALUES (" SQL_GID("v3") ", 3, 1, -1)", NULL, NULL,
	    NULL),
	    SQLITE_CONSTRAINT_FOREIGNKEY);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM games WHERE id = 'v3'",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(query_int(st, "SELECT (SELECT count(*) FROM players)"
	    " + (SELECT count(*) FROM tokens)"), 0);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * Migration 7 keeps migration 4's rule at a cost that does not grow with
 * the square of the players: a partial UNIQUE index of the fifth seat on,
 * triggers for the first four.  A game of six players and one of two,
 * made at migration 6, come through; then every pair of seats (both
 * below four, both from four on, one of each, either way round) is
 * refused on insert and on update with the index's message, a player
 * may keep or change its own name, another game may share names, and
 * only the seats from the fifth on are in the index.
 */
#define BIG	SQL_GID("big")
#define TWO	SQL_GID("two")

void
test_open_upgrade_v6(void **state)
{
	static const char	 dup[] =
	    "UNIQUE constraint failed: players.game, players.name";
	static const char	 rows[] =
	    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
	    " created, updated) VALUES ('big', 2, 6, 0, -1, 0, 0, 1, 1),"
	    " ('two', 2, 2, 0, -1, 0, 0, 1, 1);"
	    "INSERT INTO players (game, idx, name) VALUES ('big', 0, 'p0'),"
	    " ('big', 1, 'p1'), ('big', 2, 'p2'), ('big', 3, 'p3'),"
	    " ('big', 4, 'p4'), ('big', 5, 'p5'), ('two', 0, 'p0'),"
	    " ('two', 1, 'p4');";
	static const char *const refused[] = {
		/* Insert: below four against below four, and so on. */
		"INSERT INTO players (game, idx, name)"
		" VALUES (" TWO ", 2, 'p0')",
		"INSERT INTO players (game, idx, name)"
		" VALUES (" BIG ", 6, 'p5')",
		"INSERT INTO players (game, idx, name)"
		" VALUES (" BIG ", 6, 'p1')",
		"UPDATE players SET idx = 63 WHERE game = " BIG " AND idx = 5;"
		" INSERT INTO players (game, idx, name)"
		" VALUES (" BIG ", 5, 'p3')",
		/* Update of a name, a seat, a game. */
		"UPDATE players SET name = 'p2' WHERE game = " BIG
		" AND idx = 0",
		"UPDATE players SET name = 'p5' WHERE game = " BIG
		" AND idx = 4",
		"UPDATE players SET name = 'p0' WHERE game = " BIG
		" AND idx = 5",
		"UPDATE players SET name = 'p4' WHERE game = " BIG
		" AND idx = 1",
		"UPDATE players SET idx = 9 WHERE game = " TWO " AND idx = 1;"
		" UPDATE players SET game = " BIG " WHERE game = " TWO
		" AND idx = 9",
		"UPDATE players SET game = " BIG ", idx = 7 WHERE game = " TWO
		" AND idx = 0",
	};
	struct tmpdir		 t;
	struct store		*st;
	sqlite3			*db;
	sqlite3_stmt		*stmt;
	char			 err[256], before[512];
	size_t			 i;

	(void)state;
	tmpdir_make(&t, "test_store");
	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	for (i = 0; i < 6; i++)
		assert_int_equal(sqlite3_exec(db, store_migrations[i], NULL,
		    NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, rows, NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, players_digest, -1, &stmt,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	snprintf(before, sizeof(before), "%s", sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	sqlite3_close(db);

	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	db = store_sqlite_handle(st);
	assert_int_equal(query_int(st, "PRAGMA user_version"),
	    store_migration_count);
	assert_int_equal(sqlite3_prepare_v2(db, players_digest, -1, &stmt,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
	    before);
	sqlite3_finalize(stmt);
	/* Only big's seats 4 and 5 are in the index. */
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"
	    " INDEXED BY players_name WHERE game = " BIG " AND idx >= 4"), 2);
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"
	    " INDEXED BY players_name WHERE game = " TWO " AND idx >= 4"), 0);

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(sqlite3_exec(db, "SAVEPOINT t", NULL, NULL,
		    NULL), SQLITE_OK);
		assert_refused(db, refused[i], dup);
		assert_int_equal(sqlite3_exec(db, "ROLLBACK TO t; RELEASE t",
		    NULL, NULL, NULL), SQLITE_OK);
	}
	assert_int_equal(sqlite3_prepare_v2(db, players_digest, -1, &stmt,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
	    before);
	sqlite3_finalize(stmt);

	/* Its own name again, a new one, a seat moved across the fourth,
	 * other games' names. */
	assert_int_equal(sqlite3_exec(db,
	    "UPDATE players SET name = 'p4' WHERE game = " BIG " AND idx = 4;"
	    " UPDATE players SET name = 'p1' WHERE game = " BIG " AND idx = 1;"
	    " UPDATE players SET name = 'q0' WHERE game = " BIG " AND idx = 0;"
	    " UPDATE players SET idx = 40 WHERE game = " BIG " AND idx = 3;"
	    " UPDATE players SET idx = 3 WHERE game = " BIG " AND idx = 5;"
	    " INSERT INTO players (game, idx, name) VALUES (" BIG ", 5, 'p0');"
	    " INSERT INTO players (game, idx, name) VALUES (" TWO ", 2, 'p1'),"
	    " (" TWO ", 8, 'p5')", NULL, NULL, NULL), SQLITE_OK);
	assert_refused(db, "INSERT INTO players (game, idx, name) VALUES"
	    " (" BIG ", 6, 'p3')", dup);
	assert_refused(db, "INSERT INTO players (game, idx, name) VALUES"
	    " (" BIG ", 2, 'p5')", dup);
	store_close(st);
	tmpdir_remove(&t);
}

static const char *const check_rows =
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes)"
    " VALUES ('l', 1, 2, 0, -1, 0, 1, 1, 1, 0, 1, 0, 0);"
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated) VALUES ('s', 2, 2, 0, -1, 0, 0, 1, 1);"
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, board, has_deck, deck)"
    " VALUES ('d', 3, 2, 0, -1, 0, 0, 1, 1, 'abcd', 1, 'ab12');"
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, board, has_deck)"
    " VALUES ('e', 3, 2, 0, -1, 0, 0, 1, 1, 'abcd', 0);"
    "INSERT INTO history (game, seq, player, action, result, at)"
    " VALUES ((SELECT rowid FROM games WHERE id = 'l'), 1, 'p', '3:1',"
    " 'MOVED', 1);";

/*
 * Migration 3 rewrote CHECKs for speed, not meaning: every row above is
 * refused or let through by the current schema exactly as by the schema
 * of migration 2.
 */
void
test_schema_checks_unchanged(void **state)
{
	struct store	*st;
	sqlite3		*db[2];
	size_t		 i;
	int		 k, rc;

	(void)state;
	st = open_mem();
	assert_int_equal(sqlite3_open(":memory:", &db[0]), SQLITE_OK);
	for (k = 0; k < 2; k++)
		assert_int_equal(sqlite3_exec(db[0], store_migrations[k],
		    NULL, NULL, NULL), SQLITE_OK);
	db[1] = store_sqlite_handle(st);
	for (k = 0; k < 2; k++)
		assert_int_equal(sqlite3_exec(db[k], check_rows, NULL, NULL,
		    NULL), SQLITE_OK);
	for (i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]); i++)
		for (k = 0; k < 2; k++) {
			assert_int_equal(sqlite3_exec(db[k], "SAVEPOINT c",
			    NULL, NULL, NULL), SQLITE_OK);
			/* The store's connection has extended codes. */
			rc = sqlite3_exec(db[k], check_cases[i].sql, NULL,
			    NULL, NULL) & 0xff;
			if (rc != (check_cases[i].ok ? SQLITE_OK :
			    SQLITE_CONSTRAINT))
				fail_msg("schema %s: %s: %s",
				    k == 0 ? "2" : "now", check_cases[i].sql,
				    sqlite3_errmsg(db[k]));
			assert_int_equal(sqlite3_exec(db[k],
			    "ROLLBACK TO c; RELEASE c", NULL, NULL, NULL),
			    SQLITE_OK);
		}
	sqlite3_close(db[0]);
	store_close(st);
}

/* A database from a newer ludus is refused and left untouched. */
void
test_open_newer_version(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	char		 err[256], sql[64];

	(void)state;
	tmpdir_make(&t, "test_store");
	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
	    store_migration_count + 1);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	err[0] = '\0';
	st = store_sqlite_open(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_null(st);
	assert_non_null(strstr(err, "newer"));

	assert_int_equal(sqlite3_open(t.path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1,
	    &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
	    "delete");
	sqlite3_finalize(stmt);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM"
	    " sqlite_master", -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(stmt, 0), 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	tmpdir_remove(&t);
}

void
test_open_bad_path(void **state)
{
	char	 err[256];

	(void)state;
	err[0] = '\0';
	assert_null(store_sqlite_open("/nonexistent-dir/x/ludus.db",
	    DURABILITY_FULL, err, sizeof(err)));
	assert_true(err[0] != '\0');
	assert_null(store_sqlite_open(":memory:", (enum durability)7, err,
	    sizeof(err)));
	assert_non_null(strstr(err, "durability"));
}

void
test_durability_names(void **state)
{
	(void)state;
	assert_string_equal(durability_name(DURABILITY_FULL), "full");
	assert_string_equal(durability_name(DURABILITY_NORMAL), "normal");
	assert_string_equal(durability_name(DURABILITY_OFF), "off");
	assert_int_equal(durability_parse("full"), DURABILITY_FULL);
	assert_int_equal(durability_parse("NORMAL"), DURABILITY_NORMAL);
	assert_int_equal(durability_parse("off"), DURABILITY_OFF);
	assert_int_equal(durability_parse("fast"), -1);
	assert_int_equal(durability_parse(""), -1);
}
