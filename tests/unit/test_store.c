/*
 * The SQLite store: round trips of every kind, only changed rows written,
 * history and listing, a failed commit, reopening a file, migrations, and
 * the cache of games, which must always load what the rows hold.
 * Snapshots come from the real engine.
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
	    " game = 'rows' AND player = 0 AND token = 1"), 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tokens WHERE"
	    " game = 'rows' AND pos = -1"), 15);
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

/* --------------------------------------------------------- history */

struct collect {
	struct move	moves[64];
	int		n;
	int		stop_at;	/* return 42 at this many, 0: never */
	struct store	*st;
};

static int
collect_move(void *arg, const struct move *mv)
{
	struct collect	*c = arg;

	assert_true(c->n < 64);
	c->moves[c->n++] = *mv;
	return c->stop_at != 0 && c->n == c->stop_at ? 42 : 0;
}

static void
test_history_paging(void **state)
{
	struct store	*st = open_mem();
	struct collect	 all, c;
	struct game	 g, other;
	uint32_t	 seed = 5;
	int		 i;

	(void)state;
	make_snl(&g, "hist", 3);
	make_snl(&other, "hist-other", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_create_game(st, &other), STORE_OK);
	play_moves(st, &g, 10, &seed);
	play_moves(st, &other, 4, &seed);

	memset(&all, 0, sizeof(all));
	assert_int_equal(store_history(st, "hist", 1, -1, collect_move, &all),
	    0);
	assert_int_equal(all.n, 10);
	for (i = 0; i < 10; i++) {
		assert_int_equal(all.moves[i].seq, i + 1);
		assert_int_equal(all.moves[i].player[0], 'P');
		assert_true(all.moves[i].action[0] >= '1' &&
		    all.moves[i].action[0] <= '6');
		assert_int_equal(all.moves[i].at, 1700000000 + i + 1);
	}

	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist", 4, 3, collect_move, &c), 0);
	assert_int_equal(c.n, 3);
	assert_memory_equal(c.moves, &all.moves[3], 3 * sizeof(struct move));

	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist", 9, 100, collect_move, &c),
	    0);
	assert_int_equal(c.n, 2);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist", 11, -1, collect_move, &c),
	    0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_history(st, "hist", 1, 0, collect_move, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_history(st, "nope", 1, -1, collect_move, &c),
	    0);
	assert_int_equal(c.n, 0);

	/* The callback's non-zero return stops the walk and comes back. */
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	assert_int_equal(store_history(st, "hist", 1, -1, collect_move, &c),
	    42);
	assert_int_equal(c.n, 2);
	/* ...and the statement is ready for the next walk. */
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist-other", 1, -1, collect_move,
	    &c), 0);
	assert_int_equal(c.n, 4);
	store_close(st);
}

static int
reenter_history(void *arg, const struct move *mv)
{
	struct collect	*c = arg;
	struct game	 g;

	(void)mv;
	c->n++;
	/* Other statements are fine from a callback, the walking one not. */
	assert_int_equal(store_load_game(c->st, "re", &g), STORE_OK);
	return store_history(c->st, "re", 1, -1, collect_move, c);
}

static void
test_history_reentry_refused(void **state)
{
	struct store	*st;
	struct collect	 c;
	struct game	 g;
	uint32_t	 seed = 8;

	(void)state;
	st = open_mem();
	make_snl(&g, "re", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	play_moves(st, &g, 3, &seed);
	memset(&c, 0, sizeof(c));
	c.st = st;
	assert_int_equal(store_history(st, "re", 1, -1, reenter_history, &c),
	    STORE_ERR);
	assert_int_equal(c.n, 1);
	assert_non_null(strstr(store_errmsg(st), "in use"));
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "re", 1, -1, collect_move, &c), 0);
	assert_int_equal(c.n, 3);
	store_close(st);
}

/* ------------------------------------------------------------ lists */

struct idlist {
	char		ids[32][GAME_ID_MAX + 1];
	enum game_kind	kinds[32];
	int		n;
};

static int
collect_id(void *arg, const char *id, enum game_kind kind)
{
	struct idlist	*l = arg;

	assert_true(l->n < 32);
	snprintf(l->ids[l->n], sizeof(l->ids[0]), "%s", id);
	l->kinds[l->n++] = kind;
	return 0;
}

static void
list(struct store *st, enum game_kind kind, const char *after, int64_t limit,
    struct idlist *l)
{
	memset(l, 0, sizeof(*l));
	assert_int_equal(store_list_games(st, kind, after, limit, collect_id,
	    l), 0);
}

static void
test_list_games_paging(void **state)
{
	struct store	*st = open_mem();
	struct idlist	 l;
	struct game	 g;
	int64_t		 counts[KIND_COUNT];

	(void)state;
	/* Created out of order: listing sorts by id. */
	make_snl(&g, "c-snl", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_ludo(&g, "a-ludo", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_dandy(&g, "e-dandy", 2, "abc", NULL);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_ludo(&g, "b-ludo", "extended", 3);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_snl(&g, "d-snl", 1);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_ludo(&g, "f-ludo", "interview", 4);
	assert_int_equal(store_create_game(st, &g), STORE_OK);

	list(st, KIND_NONE, NULL, -1, &l);
	assert_int_equal(l.n, 6);
	assert_string_equal(l.ids[0], "a-ludo");
	assert_int_equal(l.kinds[0], KIND_LUDO);
	assert_string_equal(l.ids[2], "c-snl");
	assert_int_equal(l.kinds[2], KIND_SNL);
	assert_string_equal(l.ids[4], "e-dandy");
	assert_int_equal(l.kinds[4], KIND_DANDY);
	assert_string_equal(l.ids[5], "f-ludo");

	list(st, KIND_NONE, NULL, 4, &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.ids[3], "d-snl");
	list(st, KIND_NONE, "d-snl", 4, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.ids[0], "e-dandy");
	list(st, KIND_NONE, "f-ludo", 4, &l);
	assert_int_equal(l.n, 0);
	/* "after" need not be an existing id. */
	list(st, KIND_NONE, "b", 2, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.ids[0], "b-ludo");
	list(st, KIND_NONE, NULL, 0, &l);
	assert_int_equal(l.n, 0);

	list(st, KIND_LUDO, NULL, -1, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.ids[0], "a-ludo");
	assert_string_equal(l.ids[1], "b-ludo");
	assert_string_equal(l.ids[2], "f-ludo");
	list(st, KIND_LUDO, "a-ludo", 1, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ids[0], "b-ludo");
	list(st, KIND_SNL, "c-snl", -1, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ids[0], "d-snl");
	list(st, KIND_DANDY, NULL, -1, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.kinds[0], KIND_DANDY);

	assert_int_equal(store_count_games(st, counts), 0);
	assert_int_equal(counts[KIND_NONE], 6);
	assert_int_equal(counts[KIND_LUDO], 3);
	assert_int_equal(counts[KIND_SNL], 2);
	assert_int_equal(counts[KIND_DANDY], 1);
	assert_true(store_size(st) > 0);
	store_close(st);
}

/* ------------------------------------------------------- open/files */

static void
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
static void
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

static void
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
		    collect_move, &c), 0);
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

/* ---------------------------------------------------- multiplayer */

/* Options of every kind survive the round trip, each byte of them. */
static void
test_create_game_opts(void **state)
{
	struct store	*st = open_mem();
	struct game	 g[3];
	int		 i, p;

	(void)state;
	make_ludo(&g[0], "opts-ludo", "classic", 4);
	make_snl(&g[1], "opts-snl", SNL_MAX_PLAYERS);
	make_dandy(&g[2], "opts-dandy", 3, "abcd", "ab12");
	for (i = 0; i < 3; i++) {
		g[i].opts.secure = 1;
		g[i].opts.server_dice = 1;
		g[i].opts.timeout = 30 + i;
		g[i].opts.deadline = 1700000000123LL + i;
		for (p = 0; p < game_nplayers(&g[i]); p++)
			memset(g[i].opts.seat[p], 0x11 * (p % 15 + 1),
			    SEAT_HASH_LEN);
		g[i].opts.bot[game_nplayers(&g[i]) - 1] = 3;	/* expert */
		g[i].opts.bot[0] = 1;				/* first */
	}
	g[0].opts.roll = 6;
	g[0].opts.roll_player = 3;
	for (i = 0; i < 3; i++) {
		assert_int_equal(store_create_game(st, &g[i]), STORE_OK);
		assert_loads_as(st, &g[i]);
	}
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"
	    " WHERE length(seat) = 32"), 4 + SNL_MAX_PLAYERS + 3);
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"
	    " WHERE bot IS NOT NULL"), 6);
	/* An open game stores no seat at all. */
	make_ludo(&g[0], "opts-open", "classic", 2);
	assert_int_equal(store_create_game(st, &g[0]), STORE_OK);
	assert_loads_as(st, &g[0]);
	assert_int_equal(query_int(st, "SELECT count(*) FROM players"
	    " WHERE game = 'opts-open' AND seat IS NULL AND bot IS NULL"), 2);
	store_close(st);
}

/* The pending roll and the deadline: saved alone (save_opts), carried
 * and cleared by a turn; the options fixed at creation never change. */
static void
test_save_opts_pending_roll(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, next, stale;
	struct move	 mv;
	struct collect	 c;
	uint32_t	 seed = 3;

	(void)state;
	make_ludo(&g, "pending", "classic", 2);
	g.opts.server_dice = 1;
	g.opts.timeout = 10;
	assert_int_equal(store_create_game(st, &g), STORE_OK);

	g.opts.roll = 4;
	g.opts.roll_player = 0;
	g.opts.deadline = 1700000010000LL;
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_save_opts(st, &g), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(query_int(st, "SELECT roll FROM games"), 4);

	/* A stale snapshot (another move meanwhile) is refused. */
	stale = g;
	stale.moves = 5;
	assert_int_equal(store_save_opts(st, &stale), STORE_ERR);
	/* So is a roll for a player the game does not have. */
	stale = g;
	stale.opts.roll_player = 2;
	assert_int_equal(store_save_opts(st, &stale), STORE_ERR);
	assert_loads_as(st, &g);

	/* A turn clears the roll (as the command layer does) and moves the
	 * deadline; the history row keeps who made the move. */
	assert_int_equal(random_move(&g, &next, &mv, &seed), 1);
	next.opts.roll = 0;
	next.opts.roll_player = 0;
	next.opts.deadline = 1700000020000LL;
	mv.by = MOVE_TIMEOUT;
	assert_int_equal(store_save_turn(st, &g, &next, &mv), STORE_OK);
	assert_loads_as(st, &next);
	assert_int_equal(query_int(st, "SELECT roll IS NULL AND"
	    " roll_player IS NULL FROM games"), 1);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "pending", 1, -1, collect_move,
	    &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.moves[0].by, MOVE_TIMEOUT);

	/* Seats, dice, bots, timeout: fixed at creation. */
	g = next;
	assert_int_equal(random_move(&g, &next, &mv, &seed), 1);
	next.opts.bot[1] = 1;
	assert_int_equal(store_save_turn(st, &g, &next, &mv), STORE_ERR);
	next.opts.bot[1] = 0;
	next.opts.timeout = 0;
	assert_int_equal(store_save_turn(st, &g, &next, &mv), STORE_ERR);
	assert_loads_as(st, &g);
	store_close(st);
}

struct deadlines {
	char	ids[8][GAME_ID_MAX + 1];
	int64_t	at[8];
	int	n;
};

static int
collect_deadline(void *arg, const char *id, int64_t at)
{
	struct deadlines *d = arg;

	assert_true(d->n < 8);
	snprintf(d->ids[d->n], sizeof(d->ids[0]), "%s", id);
	d->at[d->n++] = at;
	return 0;
}

static void
test_list_deadlines_order(void **state)
{
	struct store	*st = open_mem();
	struct deadlines d;
	struct game	 g;

	(void)state;
	make_snl(&g, "late", 2);
	g.opts.deadline = 3000;
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_snl(&g, "none", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_dandy(&g, "early", 2, "ab", NULL);
	g.opts.deadline = 1000;
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	make_ludo(&g, "middle", "classic", 2);
	g.opts.deadline = 2000;
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	memset(&d, 0, sizeof(d));
	assert_int_equal(store_list_deadlines(st, collect_deadline, &d), 0);
	assert_int_equal(d.n, 3);
	assert_string_equal(d.ids[0], "early");
	assert_string_equal(d.ids[1], "middle");
	assert_string_equal(d.ids[2], "late");
	assert_int_equal(d.at[0], 1000);
	assert_int_equal(d.at[2], 3000);
	store_close(st);
}

/* The seat secret is made once per database and kept across opens. */
static void
test_secret_once(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	uint8_t		 a[STORE_SECRET_LEN], b[STORE_SECRET_LEN];
	uint8_t		 out[STORE_SECRET_LEN];
	char		 err[256];

	(void)state;
	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	tmpdir_make(&t, "test_store");
	test_store_empty();
	st = test_store_at(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(store_secret(st, a, out), STORE_OK);
	assert_memory_equal(out, a, sizeof(a));
	assert_int_equal(store_secret(st, b, out), STORE_OK);
	assert_memory_equal(out, a, sizeof(a));
	store_close(st);
	st = test_store_at(t.path, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	assert_int_equal(store_secret(st, b, out), STORE_OK);
	assert_memory_equal(out, a, sizeof(a));
	assert_int_equal(query_int(st, "SELECT count(*) FROM meta"), 1);
	store_close(st);
	tmpdir_remove(&t);
}

/*
 * A database made by migration 1 alone (the first release) upgrades on
 * open: its games load with every option at its default, their history
 * rows as moves of players, and play goes on.
 */
static void
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
	assert_int_equal(store_history(st, "old", 1, -1, collect_move, &c),
	    0);
	assert_int_equal(c.n, 1);
	assert_int_equal(c.moves[0].by, MOVE_PLAYER);
	play_moves(st, &want, 3, &seed);
	store_close(st);
	tmpdir_remove(&t);
}

/* The columns of each table, in the order of every migration. */
static const char *const upgrade_copy =
    "INSERT INTO games (id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,"
    " board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,"
    " roll_player) SELECT id, kind, nplayers, turn, winner, aux, moves,"
    " created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,"
    " board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,"
    " roll_player FROM src.games;"
    "INSERT INTO players SELECT game, idx, name, bot, seat FROM src.players;"
    "INSERT INTO tokens SELECT game, player, token, pos, points"
    " FROM src.tokens;"
    "INSERT INTO jumps SELECT game, cell, target FROM src.jumps;"
    "INSERT INTO history SELECT game, seq, player, action, result, at,"
    " automatic FROM src.history;"
    "INSERT INTO meta SELECT key, value FROM src.meta;";

/*
 * A database of migration 2 (the multiplayer release) with games of every
 * kind, their options and history, upgrades on open: games and history
 * are rebuilt (migration 3) and every row comes through as it was, the
 * foreign keys of players, tokens, jumps and history still hold and
 * cascade, the indexes are back, and play goes on.
 */
static void
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
	    " player, action, result, at) VALUES ('nope', 1, 'p', 'a', 'b',"
	    " 1)", NULL, NULL, NULL), SQLITE_CONSTRAINT_FOREIGNKEY);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM games"
	    " WHERE id = 'up-snl'", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(query_int(st, "SELECT (SELECT count(*) FROM players"
	    " WHERE game = 'up-snl') + (SELECT count(*) FROM tokens"
	    " WHERE game = 'up-snl') + (SELECT count(*) FROM jumps"
	    " WHERE game = 'up-snl') + (SELECT count(*) FROM history"
	    " WHERE game = 'up-snl')"), 0);

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

static const char *const players_digest =
    "SELECT group_concat(game || idx || name || coalesce(bot, '-') ||"
    " coalesce(hex(seat), '-'), ',') FROM (SELECT * FROM players"
    " ORDER BY game, idx)";

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
static void
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
	    " ('v3', 2, 'ann')", dup);
	assert_refused(db, "UPDATE players SET name = 'ann' WHERE idx = 1",
	    dup);
	assert_int_equal(sqlite3_exec(db, "UPDATE players SET name = 'ann'"
	    " WHERE idx = 0", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "UPDATE players SET name = 'cy'"
	    " WHERE idx = 1", NULL, NULL, NULL), SQLITE_OK);
	/* Keys: a token needs its player, a game's delete cascades. */
	assert_int_equal(sqlite3_exec(db, "INSERT INTO tokens (game, player,"
	    " token, pos) VALUES ('v3', 3, 1, -1)", NULL, NULL, NULL),
	    SQLITE_CONSTRAINT_FOREIGNKEY);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM games WHERE id = 'v3'",
	    NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(query_int(st, "SELECT (SELECT count(*) FROM players)"
	    " + (SELECT count(*) FROM tokens)"), 0);
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
    " VALUES ('l', 1, 'p', '3:1', 'MOVED', 1);";

/*
 * Migration 3 rewrote CHECKs for speed, not meaning: every row above is
 * refused or let through by the current schema exactly as by the schema
 * of migration 2.
 */
static void
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
static void
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

static void
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

static void
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
		SQLITE_TEST(test_schema_checks_unchanged),
		SQLITE_TEST(test_open_bad_path),
		cmocka_unit_test(test_durability_names),
	};

	return STORE_RUN_TESTS(tests);
}
