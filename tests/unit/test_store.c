/*
 * The SQLite store: round trips of every kind, only changed rows written,
 * history and listing, a failed commit, reopening a file, migrations, and
 * the cache of games, which must always load what the rows hold.
 * Snapshots come from the real engine.  History, listings and the
 * options of multiplayer games are in test_store_history.c; opening,
 * migrations and the schema's checks in test_store_open.c.
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

/* ----------------------------------------------------------- helpers */

/* ------------------------------------------------------- round trips */

static void
test_create_game_ludo(void **state)
{
	static const char *const presets[] = { "classic", "interview",
	    "extended" };
	struct store	*st = open_mem();
	struct game	 g;
	char		 id[16];
	int		 p, n;

	(void)state;
	for (p = 0; p < 3; p++)
		for (n = LUDO_MIN_PLAYERS; n <= LUDO_MAX_PLAYERS; n++) {
			snprintf(id, sizeof(id), "ludo-%d-%d", p, n);
			make_ludo(&g, id, presets[p], n);
			/* Overridden flags are kept too. */
			g.s.ludo.rules.six_bonus = (uint8_t)(n % 2);
			g.s.ludo.rules.capture_bonus = (uint8_t)(p == 1);
			assert_int_equal(store_create_game(st, &g), STORE_OK);
			assert_loads_as(st, &g);
		}
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens"),
	    4 * (2 + 3 + 4) * 3);
	store_close(st);
}

static void
test_create_game_snl(void **state)
{
	struct store	*st = open_mem();
	struct game	 g;

	(void)state;
	make_snl(&g, "snl", 5);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT count(*) FROM jumps"), 4);
	make_snl(&g, "snl-max", SNL_MAX_PLAYERS);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(snl_init(&g.s.snl, 1), 0);
	snprintf(g.id, sizeof(g.id), "snl-bare");
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	store_close(st);
}

static void
test_create_game_dandy(void **state)
{
	struct store	*st = open_mem();
	struct game	 g;
	char		 deck[DANDY_DECK_MAX + 1];
	int		 i;

	(void)state;
	make_dandy(&g, "dandy-deck", 3, "abcdefghi", "a1bb9");
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	make_dandy(&g, "dandy-free", 8, "i", NULL);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	make_dandy(&g, "dandy-empty", 1, "abc", "");
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	for (i = 0; i < DANDY_DECK_MAX; i++)
		deck[i] = "abcdefghi123456789"[i % 18];
	deck[DANDY_DECK_MAX] = '\0';
	make_dandy(&g, "dandy-big", 2, "abcdefghiabcdefghiabcdefghiabcdefghi",
	    deck);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	store_close(st);
}

/* A game saved in the middle of play loads back byte for byte. */
static void
test_create_game_midgame(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, next;
	struct move	 mv;
	uint32_t	 seed = 7;
	int		 i;

	(void)state;
	make_ludo(&g, "mid", "extended", 4);
	for (i = 0; i < 60 && random_move(&g, &next, &mv, &seed); i++)
		memcpy(&g, &next, sizeof(g));
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_loads_as(st, &g);
	store_close(st);
}

static void
test_create_game_exists(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, other;

	(void)state;
	make_ludo(&g, "taken", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_snl(&other, "taken", 3);
	assert_int_equal(store_create_game(st, &other), STORE_EXISTS);
	assert_non_null(strstr(store_errmsg(st), "exists"));
	/* Nothing of the second game was written. */
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"), 2);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens"), 8);
	assert_int_equal(query_int(st, "SELECT count(*) FROM jumps"), 0);
	store_close(st);
}

/* A row the schema refuses leaves nothing behind. */
static void
test_create_game_invalid(void **state)
{
	struct store	*st = open_mem();
	struct game	 g;

	(void)state;
	make_ludo(&g, "BAD ID", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "create_game: "));
	make_ludo(&g, "dup-players", "classic", 2);
	snprintf(g.players[1], sizeof(g.players[1]), "%s", g.players[0]);
	assert_int_equal(store_create_game(st, &g), STORE_ERR);
	assert_int_equal(store_load_game(st, "dup-players", &g),
	    STORE_NOTFOUND);
	game_base(&g, "nokind", KIND_NONE);
	assert_int_equal(store_create_game(st, &g), STORE_ERR);
	assert_int_equal(query_int(st, "SELECT count(*) FROM games"), 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"), 0);
	store_close(st);
}

static void
test_load_game_notfound(void **state)
{
	struct store	*st = open_mem();
	struct game	 g;
	char		 longid[80];

	(void)state;
	memset(&g, 0x55, sizeof(g));
	assert_int_equal(store_load_game(st, "nope", &g), STORE_NOTFOUND);
	memset(longid, 'a', sizeof(longid) - 1);
	longid[sizeof(longid) - 1] = '\0';
	assert_int_equal(store_load_game(st, longid, &g), STORE_NOTFOUND);
	store_close(st);
}

/* ----------------------------------------------------------- turns */

/* Every turn of many random games writes exactly the games row, the
 * token rows that changed and one history row (checked in store_turn),
 * and the stored game is the engine's after every move. */
static void
test_save_turn_random_games(void **state)
{
	static const char *const presets[] = { "classic", "interview",
	    "extended" };
	struct store	*st = open_mem();
	struct game	 g;
	uint32_t	 seed = 12345;
	char		 id[16];
	int64_t		 n;
	int		 i, moves;

	(void)state;
	for (i = 0; i < 24; i++) {
		snprintf(id, sizeof(id), "g%d", i);
		switch (i % 4) {
		case 0:
			make_ludo(&g, id, presets[i % 3], 2 + i % 3);
			break;
		case 1:
			make_snl(&g, id, 1 + i % 6);
			break;
		case 2:
			make_dandy(&g, id, 1 + i % 8, "abcdefghia", "a1b2c3"
			    "ihgfedcba987654321abcdefghi99999aaaaa");
			break;
		default:
			make_dandy(&g, id, 1 + i % 8, "cabbage", NULL);
			break;
		}
		assert_int_equal(store_create_game(st, &g), STORE_OK);
		for (moves = 0; moves < 3000 && store_turn(st, &g, &seed);
		    moves++)
			;
		assert_loads_as(st, &g);
		assert_true(moves > 0);
		n = 0;
		assert_int_equal(store_history(st, id, 1, -1, count_move, &n),
		    0);
		assert_int_equal(n, moves);
		assert_int_equal(g.moves, moves);
	}
	store_close(st);
}

/* A SQLITE_TRACE_STMT callback: counts the lookups of a gid by its id. */
static int
count_gid_lookups(unsigned type, void *arg, void *p, void *x)
{
	(void)type;
	(void)x;
	if (strstr(sqlite3_sql(p), "SELECT gid FROM games") != NULL)
		(*(int *)arg)++;
	return 0;
}

/*
 * Inside a transaction a turn looks its game's gid up once at most: the
 * games row a load reads gives it, and when the cache has the game the
 * UPDATE of its row looks it up (the index seek that an UPDATE by the id
 * made) and its tokens and history row are written by it.  Outside one,
 * a load looks the gid up for each child table, as another connection
 * may give the game's gid to another game between its statements.
 */
static void
test_turn_looks_up_no_gid(void **state)
{
	struct store	*st;
	struct game	 g, old, new;
	struct move	 mv;
	uint32_t	 seed = 3;
	int		 cache, n = 0;

	(void)state;
	st = open_mem();
	make_ludo(&g, "no-lookup", "classic", 4);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	sqlite3_trace_v2(store_sqlite_handle(st), SQLITE_TRACE_STMT,
	    count_gid_lookups, &n);
	for (cache = 1; cache >= 0; cache--) {
		assert_int_equal(store_set_game_cache(st, cache ? 100 : 0),
		    STORE_OK);
		/* Into the cache (or not) first. */
		assert_int_equal(store_load_game(st, g.id, &old), STORE_OK);
		n = 0;
		assert_int_equal(store_begin(st), STORE_OK);
		assert_int_equal(store_load_game(st, g.id, &old), STORE_OK);
		assert_int_equal(random_move(&old, &new, &mv, &seed), 1);
		assert_int_equal(store_save_turn(st, &old, &new, &mv),
		    STORE_OK);
		assert_int_equal(store_commit(st), STORE_OK);
		/* Once at most; none when the load read the row (a cache
		 * miss, as when the cache was emptied by a commit it could
		 * not tell from another connection's). */
		assert_true(n <= cache);
		n = 0;
		g = new;
	}
	/* Its players and its tokens (a Ludo game reads no cells). */
	assert_int_equal(store_load_game(st, g.id, &old), STORE_OK);
	assert_int_equal(n, 2);
	assert_same_game(&old, &g);
	sqlite3_trace_v2(store_sqlite_handle(st), 0, NULL, NULL);
	store_close(st);
}

/* Ludo: a move out of the yard changes one token row; a pass none. */
static void
test_save_turn_changed_rows(void **state)
{
	struct store	*st;
	struct game	 g, old, new;
	struct move	 mv = { .seq = 1, .player = "player-0",
			    .action = "6:1", .result = "MOVED", .at = 5 };
	sqlite3		*db;
	int		 before;

	(void)state;
	st = open_mem();
	db = store_sqlite_handle(st);
	make_ludo(&g, "rows", "classic", 4);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_load_game(st, "rows", &old), STORE_OK);
	memcpy(&new, &old, sizeof(new));
	assert_int_equal(ludo_play(&old.s.ludo, 0, 6, 1, &new.s.ludo),
	    LUDO_MOVED);
	new.moves = 1;
	before = sqlite3_total_changes(db);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	assert_int_equal(sqlite3_total_changes(db) - before, 3);
	assert_int_equal(query_int(st, "SELECT pos FROM tokens WHERE"
	    " game = " SQL_GID("rows") " AND player = 0 AND token = 1"), 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens WHERE"
	    " game = " SQL_GID("rows") " AND pos = -1"), 15);
	assert_loads_as(st, &new);

	/* Player 0 rolled a six and moves again; a 3 with its token out
	 * moves it, then player 1 passes on a 3. */
	memcpy(&old, &new, sizeof(old));
	assert_int_equal(ludo_play(&old.s.ludo, 0, 3, 1, &new.s.ludo),
	    LUDO_MOVED);
	new.moves = 2;
	mv.seq = 2;
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	memcpy(&old, &new, sizeof(old));
	assert_int_equal(ludo_play(&old.s.ludo, 1, 3, 0, &new.s.ludo),
	    LUDO_PASSED);
	new.moves = 3;
	mv.seq = 3;
	before = sqlite3_total_changes(db);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	assert_int_equal(sqlite3_total_changes(db) - before, 2);
	assert_loads_as(st, &new);
	store_close(st);
}

/* A capture rewrites both tokens' rows and nothing else. */
static void
test_save_turn_capture(void **state)
{
	struct store	*st;
	struct game	 g, old, new;
	struct move	 mv = { .seq = 1, .player = "player-0",
			    .action = "2:1", .result = "MOVED_AND_CAPTURED",
			    .at = 5 };
	enum ludo_result res;
	int		 before;

	(void)state;
	st = open_mem();
	make_ludo(&g, "capture", "classic", 2);
	/* Player 0's token 1 at 14; player 1's token 1 at relative 3,
	 * absolute 16, not a safe square. */
	g.s.ludo.pos[0][0] = 14;
	g.s.ludo.pos[1][0] = 3;
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_load_game(st, "capture", &old), STORE_OK);
	memcpy(&new, &old, sizeof(new));
	res = ludo_play(&old.s.ludo, 0, 2, 1, &new.s.ludo);
	assert_int_equal(res, LUDO_MOVED_AND_CAPTURED);
	new.moves = 1;
	before = sqlite3_total_changes(store_sqlite_handle(st));
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	assert_int_equal(sqlite3_total_changes(store_sqlite_handle(st)) -
	    before, 4);
	assert_loads_as(st, &new);
	store_close(st);
}

/* Inconsistent turns are refused and write nothing. */
static void
test_save_turn_refused(void **state)
{
	struct store	*st;
	struct game	 g, old, new;
	struct move	 mv = { .seq = 1, .player = "P1", .action = "4",
			    .result = "P1 4", .at = 5 };
	struct snl_result sr;
	int		 before;

	(void)state;
	st = open_mem();
	make_snl(&g, "refused", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_load_game(st, "refused", &old), STORE_OK);
	memcpy(&new, &old, sizeof(new));
	assert_int_equal(snl_roll(&old.s.snl, 4, &new.s.snl, &sr), 0);
	before = sqlite3_total_changes(store_sqlite_handle(st));
	/* moves not advanced */
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "save_turn: "));
	/* seq not matching */
	new.moves = 1;
	mv.seq = 2;
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	mv.seq = 1;
	/* a jump changed during a turn */
	new.s.snl.jump[10] = 20;
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	new.s.snl.jump[10] = 0;
	/* a stale snapshot: the stored game already has a move */
	old.moves = 5;
	new.moves = 6;
	mv.seq = 6;
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	assert_int_equal(sqlite3_total_changes(store_sqlite_handle(st)),
	    before);
	/* A history row the schema refuses undoes the whole turn, even
	 * without a transaction around it. */
	old.moves = 0;
	new.moves = 1;
	mv.seq = 1;
	mv.result[0] = '\0';
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "move_result"));
	assert_loads_as(st, &old);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 0);
	store_close(st);
}

static int
fail_commit(void *arg)
{
	(void)arg;
	return 1;
}

/* A turn whose COMMIT fails leaves the game exactly as before. */
static void
test_commit_failure_rolls_back(void **state)
{
	struct store	*st;
	struct game	 g, before, old, new;
	struct move	 mv;
	uint32_t	 seed = 99;
	sqlite3		*db;

	(void)state;
	st = open_mem();
	db = store_sqlite_handle(st);
	make_ludo(&g, "fragile", "classic", 3);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	play_moves(st, &g, 20, &seed);
	memcpy(&before, &g, sizeof(before));

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "fragile", &old), STORE_OK);
	assert_int_equal(random_move(&old, &new, &mv, &seed), 1);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	sqlite3_commit_hook(db, fail_commit, NULL);
	assert_int_equal(store_commit(st), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "commit: "));
	sqlite3_commit_hook(db, NULL, NULL);
	store_rollback(st);		/* harmless: nothing is open */
	assert_int_not_equal(sqlite3_get_autocommit(db), 0);

	assert_loads_as(st, &before);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 20);
	assert_int_equal(query_int(st, "SELECT max(seq) FROM history"), 20);

	/* The same move goes through once the failure is gone. */
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_loads_as(st, &new);
	store_close(st);
}

/* One turn in a savepoint of the caller's transaction: in, or undone. */
static void
savepoint_turn(struct store *st, const char *id, uint32_t *seed, int keep,
    struct game *after)
{
	struct game	 old;
	struct move	 mv;

	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, id, &old), STORE_OK);
	assert_int_equal(random_move(&old, after, &mv, seed), 1);
	assert_int_equal(store_save_turn(st, &old, after, &mv), STORE_OK);
	if (keep)
		assert_int_equal(store_savepoint_release(st), STORE_OK);
	else {
		store_savepoint_rollback(st);
		*after = old;
	}
}

/*
 * Group commit: three turns of two games in one transaction, the second
 * undone alone; a later turn sees the earlier ones; one COMMIT keeps the
 * rest, and nothing is visible to another connection before it.
 */
static void
test_savepoint_turns_share_commit(void **state)
{
	struct tmpdir	 t;
	struct store	*st, *other;
	struct game	 a, b, a1, b1, a2;
	char		 err[256];
	uint32_t	 seed = 17;

	(void)state;
	tmpdir_make(&t, "test_store");
	test_store_empty();
	st = test_store_at(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	other = test_store_at(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(other);
	make_dandy(&a, "sa", 2, "abc", "abcabcabc");
	make_ludo(&b, "sb", "classic", 2);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	assert_int_equal(store_create_game(st, &b), STORE_OK);

	/* No savepoint without the caller's transaction. */
	assert_int_equal(store_savepoint(st), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "no transaction"));

	assert_int_equal(store_begin(st), STORE_OK);
	savepoint_turn(st, "sa", &seed, 1, &a1);
	savepoint_turn(st, "sb", &seed, 0, &b1);	/* undone alone */
	assert_same_game(&b1, &b);
	savepoint_turn(st, "sa", &seed, 1, &a2);	/* sees a1 */
	assert_int_equal(a2.moves, 2);
	assert_loads_as(st, &a2);
	assert_loads_as(other, &a);			/* not committed */
	assert_int_equal(store_commit(st), STORE_OK);
	assert_loads_as(other, &a2);
	assert_loads_as(other, &b);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 2);
	store_close(other);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * When the database has rolled the transaction back by itself (out of
 * memory, I/O error, disk full: simulated here with a ROLLBACK behind the
 * store's back), a new savepoint would start a transaction of its own and
 * the batch's COMMIT would keep the turns after the loss: refused, and the
 * COMMIT fails, so nothing of the batch is kept.
 */
static void
test_savepoint_after_lost_transaction(void **state)
{
	struct store	*st;
	struct game	 g, g1, old, new;
	struct move	 mv;
	uint32_t	 seed = 5;
	sqlite3		*db;

	(void)state;
	st = open_mem();
	db = store_sqlite_handle(st);
	make_dandy(&g, "lost", 2, "abc", "abcabcabc");
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_begin(st), STORE_OK);
	savepoint_turn(st, "lost", &seed, 1, &g1);
	assert_int_equal(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(store_savepoint(st), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "rolled back"));
	/* A write outside any savepoint is refused the same way. */
	assert_int_equal(store_load_game(st, "lost", &old), STORE_OK);
	assert_int_equal(random_move(&old, &new, &mv, &seed), 1);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_ERR);
	assert_int_equal(store_savepoint_release(st), STORE_ERR);
	store_savepoint_rollback(st);		/* harmless */
	assert_int_equal(store_commit(st), STORE_ERR);
	store_rollback(st);
	assert_int_not_equal(sqlite3_get_autocommit(db), 0);
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 0);
	store_close(st);
}

/* The moves count of the games row, as this connection sees it. */
static int64_t
row_moves(struct store *st, const char *id)
{
	sqlite3_stmt	*q;
	int64_t		 v;

	assert_int_equal(sqlite3_prepare_v2(store_sqlite_handle(st),
	    "SELECT moves FROM games WHERE id = ?", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* Loads id both ways, from the cache and from the rows, as want. */
static void
assert_game_is(struct store *st, const struct game *want)
{
	struct game	 got;

	assert_loads_as(st, want);
	assert_int_equal(store_load_game_stored(st, want->id, &got),
	    STORE_OK);
	assert_same_game(&got, want);
}

/*
 * Inside the caller's turn savepoint a write opens no savepoint of its
 * own: one that fails halfway (here the history row, after the games and
 * token rows) stays half-written until the caller rolls the turn
 * savepoint back, which leaves nothing of it, in the rows or the cache,
 * and keeps the turns before it.  In a plain transaction the failed
 * write still undoes itself.
 */
static void
test_save_turn_failed_in_savepoint(void **state)
{
	struct store	*st;
	struct game	 g, g1, old, new, new2;
	struct move	 mv, bad;
	uint32_t	 seed = 23;

	(void)state;
	st = open_mem();
	make_ludo(&g, "halfway", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_begin(st), STORE_OK);
	savepoint_turn(st, "halfway", &seed, 1, &g1);	/* kept */

	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, "halfway", &old), STORE_OK);
	assert_same_game(&old, &g1);
	assert_int_equal(random_move(&old, &new, &mv, &seed), 1);
	bad = mv;
	bad.result[0] = '\0';		/* the schema refuses the row */
	assert_int_equal(store_save_turn(st, &old, &new, &bad), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "move_result"));
	assert_int_equal(row_moves(st, "halfway"), 2);	/* half-written */
	store_savepoint_rollback(st);
	assert_int_equal(row_moves(st, "halfway"), 1);
	assert_game_is(st, &g1);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 1);

	/* The batch goes on: the same move, well formed, is kept. */
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_game_is(st, &new);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 2);

	/* No turn savepoint: the write undoes itself. */
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(random_move(&new, &new2, &mv, &seed), 1);
	mv.result[0] = '\0';
	assert_int_equal(store_save_turn(st, &new, &new2, &mv), STORE_ERR);
	assert_int_equal(row_moves(st, "halfway"), 2);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_game_is(st, &new);
	assert_int_equal(query_int(st, "SELECT count(*) FROM history"), 2);
	store_close(st);
}

static void
test_rollback_discards_turn(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, old, new;
	struct move	 mv;
	uint32_t	 seed = 3;

	(void)state;
	make_dandy(&g, "undo", 2, "abc", "abcabc");
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_begin(st), STORE_OK);
	/* A second BEGIN inside a transaction is an error, not a crash. */
	assert_int_equal(store_begin(st), STORE_ERR);
	assert_int_equal(store_load_game(st, "undo", &old), STORE_OK);
	assert_int_equal(random_move(&old, &new, &mv, &seed), 1);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	store_rollback(st);
	assert_loads_as(st, &g);
	store_rollback(st);
	store_close(st);
}

/* ----------------------------------------------------------- setup */

static void
test_save_setup_jumps(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, old;

	(void)state;
	make_snl(&g, "setup", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	memcpy(&old, &g, sizeof(old));
	assert_int_equal(snl_add_ladder(&g.s.snl, 5, 25, NULL), 0);
	assert_int_equal(snl_add_snake(&g.s.snl, 80, 7, NULL), 0);
	g.updated = old.updated + 10;
	assert_int_equal(store_save_setup(st, &old, &g), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT count(*) FROM jumps"), 6);

	/* The store also follows removed and retargeted jumps. */
	memcpy(&old, &g, sizeof(old));
	g.s.snl.jump[99] = 0;
	g.s.snl.jump[3] = 70;
	assert_int_equal(store_save_setup(st, &old, &g), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT count(*) FROM jumps"), 5);

	/* A jump the schema refuses leaves the setup as it was. */
	memcpy(&old, &g, sizeof(old));
	g.s.snl.jump[12] = 12;
	assert_int_equal(store_save_setup(st, &old, &g), STORE_ERR);
	assert_loads_as(st, &old);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_game_ludo),
		cmocka_unit_test(test_create_game_snl),
		cmocka_unit_test(test_create_game_dandy),
		cmocka_unit_test(test_create_game_midgame),
		cmocka_unit_test(test_create_game_exists),
		cmocka_unit_test(test_create_game_invalid),
		cmocka_unit_test(test_load_game_notfound),
		cmocka_unit_test(test_save_turn_random_games),
		SQLITE_TEST(test_save_turn_changed_rows),
		SQLITE_TEST(test_turn_looks_up_no_gid),
		SQLITE_TEST(test_save_turn_capture),
		SQLITE_TEST(test_save_turn_refused),
		SQLITE_TEST(test_commit_failure_rolls_back),
		cmocka_unit_test(test_rollback_discards_turn),
		cmocka_unit_test(test_savepoint_turns_share_commit),
		SQLITE_TEST(test_savepoint_after_lost_transaction),
		SQLITE_TEST(test_save_turn_failed_in_savepoint),
		cmocka_unit_test(test_save_setup_jumps),
		cmocka_unit_test(test_history_paging),
		SQLITE_TEST(test_history_reentry_refused),
		cmocka_unit_test(test_list_games_paging),
		SQLITE_TEST(test_open_migrations),
		SQLITE_TEST(test_open_no_memory_statistics),
		SQLITE_TEST(test_open_file_reopen),
		SQLITE_TEST(test_open_newer_version),
		cmocka_unit_test(test_create_game_opts),
		cmocka_unit_test(test_save_opts_pending_roll),
		cmocka_unit_test(test_list_deadlines_order),
		cmocka_unit_test(test_secret_once),
		SQLITE_TEST(test_open_upgrade_v1),
		SQLITE_TEST(test_open_upgrade_v2),
		SQLITE_TEST(test_open_upgrade_v3),
		SQLITE_TEST(test_open_upgrade_v6),
		SQLITE_TEST(test_schema_checks_unchanged),
		SQLITE_TEST(test_open_bad_path),
		cmocka_unit_test(test_durability_names),
		cmocka_unit_test(test_lobby_accounts),
		cmocka_unit_test(test_lobby_tickets),
		cmocka_unit_test(test_lobby_match),
		cmocka_unit_test(test_lobby_ratings),
		cmocka_unit_test(test_lobby_in_transaction),
		cmocka_unit_test(test_lobby_copy),
		cmocka_unit_test(test_delete_game),
		cmocka_unit_test(test_delete_game_stale),
		SQLITE_TEST(test_delete_game_gid_reused),
		cmocka_unit_test(test_delete_game_in_transaction),
		cmocka_unit_test(test_list_finished),
		cmocka_unit_test(test_schema_version),
		SQLITE_TEST(test_reclaim_shrinks_file),
	};

	return STORE_RUN_TESTS(tests);
}
