/*
 * The store's cache of games: after every kind of write the next load is
 * answered from it exactly as the rows hold the game; whatever changes the
 * rows behind it (another connection, a write through the handle, a
 * savepoint or transaction undone) empties or drops it; its encoding
 * round-trips every game; the map evicts the least recently used.
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
#include "store/cache.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "store_helper.h"

/* ------------------------------------------------------- game cache */

static struct store_cache_stats
cache_stats(struct store *st)
{
	struct store_cache_stats cs;

	store_game_cache_stats(st, &cs);
	return cs;
}

/* A load of want that the cache answered (hit 1) or the rows (hit 0). */
static void
assert_cached(struct store *st, const struct game *want, int hit)
{
	struct store_cache_stats before = cache_stats(st), after;

	assert_loads_as(st, want);
	after = cache_stats(st);
	assert_int_equal(after.hits, before.hits + (hit != 0));
	assert_int_equal(after.misses, before.misses + (hit == 0));
}

/* The rows hold want, and the cache did not differ from them. */
static void
assert_rows(struct store *st, const struct game *want)
{
	struct game	 got;
	uint64_t	 mismatches = cache_stats(st).mismatches;

	assert_int_equal(store_load_game_stored(st, want->id, &got),
	    STORE_OK);
	assert_same_game(&got, want);
	assert_int_equal(cache_stats(st).mismatches, mismatches);
}

/* One turn, from *g, in the caller's transaction; *g is the new state. */
static void
turn_in_txn(struct store *st, struct game *g, uint32_t *seed)
{
	struct game	 old, new;
	struct move	 mv;

	assert_int_equal(store_load_game(st, g->id, &old), STORE_OK);
	assert_same_game(&old, g);
	assert_int_equal(random_move(&old, &new, &mv, seed), 1);
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	*g = new;
}

/* After a turn the next load is answered by the cache, exactly as the
 * rows hold the game, for every kind; and the caller gets a copy. */
static void
test_load_game_cache_after_turn(void **state)
{
	struct store	*st;
	struct game	 g[3], got;
	uint32_t	 seed = 21;
	int		 i, k;

	(void)state;
	st = open_mem();
	assert_int_equal(cache_stats(st).games, STORE_GAME_CACHE_DEFAULT);
	make_ludo(&g[0], "hit-ludo", "extended", 4);
	make_snl(&g[1], "hit-snl", 3);
	make_dandy(&g[2], "hit-dandy", 3, "abcdefghi", "a1b2c3d4e5f6g7h8i9");
	for (k = 0; k < 3; k++) {
		assert_int_equal(store_create_game(st, &g[k]), STORE_OK);
		assert_cached(st, &g[k], 0);	/* not put by create */
		for (i = 0; i < 12; i++) {
			assert_int_equal(store_begin(st), STORE_OK);
			turn_in_txn(st, &g[k], &seed);
			assert_int_equal(store_commit(st), STORE_OK);
			assert_cached(st, &g[k], 1);
			assert_rows(st, &g[k]);
		}
	}
	/* Inside a transaction too, and a rollback that wrote nothing
	 * keeps the entry. */
	assert_int_equal(store_begin(st), STORE_OK);
	assert_cached(st, &g[0], 1);
	store_rollback(st);
	assert_cached(st, &g[0], 1);
	assert_int_equal(cache_stats(st).used, 3);

	assert_int_equal(store_load_game(st, "hit-snl", &got), STORE_OK);
	got.s.snl.pos[0] = 99;
	got.moves = 1000;
	assert_cached(st, &g[1], 1);
	assert_int_equal(store_load_game(st, "nope", &got), STORE_NOTFOUND);
	assert_int_equal(cache_stats(st).flushes, 0);
	store_close(st);
}

/*
 * The cache holds what the rows hold, not what the caller passed: a
 * roll_player without a roll is not stored, a setup change writes the
 * jumps and the time.
 */
static void
test_load_game_cache_setup_and_opts(void **state)
{
	struct store	*st = open_mem();
	struct game	 g, old, want;
	struct move	 mv;
	uint32_t	 seed = 4;

	(void)state;
	make_ludo(&g, "opts", "classic", 3);
	g.opts.server_dice = 1;
	g.opts.timeout = 30;
	assert_int_equal(store_create_game(st, &g), STORE_OK);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "opts", &old), STORE_OK);
	g.opts.roll = 5;
	g.opts.roll_player = 2;
	g.opts.deadline = 1700000030000LL;
	assert_int_equal(store_save_opts(st, &g), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_cached(st, &g, 1);
	assert_rows(st, &g);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "opts", &old), STORE_OK);
	g.opts.roll = 0;
	g.opts.roll_player = 1;		/* not stored without a roll */
	g.opts.deadline = 0;
	assert_int_equal(store_save_opts(st, &g), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	want = g;
	want.opts.roll_player = 0;
	assert_cached(st, &want, 1);
	assert_rows(st, &want);

	/* A turn that leaves a roll_player behind, the same. */
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "opts", &old), STORE_OK);
	assert_int_equal(random_move(&old, &g, &mv, &seed), 1);
	g.opts.roll_player = 2;
	assert_int_equal(store_save_turn(st, &old, &g, &mv), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	want = g;
	want.opts.roll_player = 0;
	assert_cached(st, &want, 1);
	assert_rows(st, &want);

	/* Snake & Ladder setup: jumps added, retargeted and removed. */
	make_snl(&g, "setup", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, "setup", &old), STORE_OK);
	g = old;
	assert_int_equal(snl_add_ladder(&g.s.snl, 5, 25, NULL), 0);
	g.s.snl.jump[99] = 0;
	g.s.snl.jump[3] = 70;
	g.updated += 10;
	assert_int_equal(store_save_setup(st, &old, &g), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_cached(st, &g, 1);
	assert_rows(st, &g);
	store_close(st);
}

/* Another connection's commits, to a token row and to the games row, are
 * seen by the next load, outside a transaction and inside one. */
static void
test_load_game_cache_other_connection(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	struct game	 g;
	sqlite3		*other;
	char		 err[256];
	uint32_t	 seed = 8;
	int		 i;

	(void)state;
	tmpdir_make(&t, "test_store");
	st = store_sqlite_open(t.path, DURABILITY_NORMAL, err, sizeof(err));
	assert_non_null(st);
	make_ludo(&g, "shared", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	play_moves(st, &g, 6, &seed);
	assert_cached(st, &g, 1);
	assert_int_equal(sqlite3_open_v2(t.path, &other, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);

	assert_int_equal(sqlite3_exec(other, "UPDATE tokens SET pos = 7"
	    " WHERE game = " SQL_GID("shared") " AND player = 1 AND token = 3",
	    NULL, NULL,
	    NULL), SQLITE_OK);
	g.s.ludo.pos[1][2] = 7;
	assert_cached(st, &g, 0);
	assert_int_equal(cache_stats(st).flushes, 1);
	assert_cached(st, &g, 1);

	assert_int_equal(sqlite3_exec(other, "UPDATE games SET updated = 42,"
	    " turn = 1 - turn WHERE id = 'shared'", NULL, NULL, NULL),
	    SQLITE_OK);
	g.updated = 42;
	g.s.ludo.turn = 1 - g.s.ludo.turn;
	assert_int_equal(store_begin(st), STORE_OK);
	assert_cached(st, &g, 0);
	assert_cached(st, &g, 1);
	store_rollback(st);
	assert_int_equal(cache_stats(st).flushes, 2);

	/* Turns go on from the other writer's state, each seen by it. */
	for (i = 0; i < 4; i++) {
		assert_int_equal(store_begin(st), STORE_OK);
		turn_in_txn(st, &g, &seed);
		assert_int_equal(store_commit(st), STORE_OK);
		assert_int_equal(sql_int(other, "SELECT moves FROM games"),
		    g.moves);
	}
	assert_rows(st, &g);
	sqlite3_close(other);
	store_close(st);
	tmpdir_remove(&t);
}

/* SQL through the store's own connection is seen too, even inside the
 * transaction whose first load checked the other writers. */
static void
test_load_game_cache_handle_write(void **state)
{
	struct store	*st;
	sqlite3		*db;
	struct game	 g;

	(void)state;
	st = open_mem();
	db = store_sqlite_handle(st);
	make_dandy(&g, "handle", 2, "abcabc", NULL);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_cached(st, &g, 0);
	assert_int_equal(sqlite3_exec(db, "UPDATE tokens SET points = 3"
	    " WHERE game = " SQL_GID("handle") " AND player = 1", NULL, NULL,
	    NULL),
	    SQLITE_OK);
	g.s.dandy.points[1] = 3;
	assert_cached(st, &g, 0);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_cached(st, &g, 1);
	assert_int_equal(sqlite3_exec(db, "UPDATE tokens SET pos = 4"
	    " WHERE game = " SQL_GID("handle") " AND player = 0", NULL, NULL,
	    NULL),
	    SQLITE_OK);
	g.s.dandy.pos[0] = 4;
	assert_cached(st, &g, 0);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_cached(st, &g, 1);
	assert_int_equal(cache_stats(st).flushes, 2);
	store_close(st);
}

/* A turn savepoint rolled back after its save: the turns before it in
 * the transaction stay, its own is gone, from the cache as from the rows. */
static void
test_load_game_cache_savepoint_undone(void **state)
{
	struct store	*st;
	struct game	 a, b, a1, old;
	uint32_t	 seed = 13;

	(void)state;
	st = open_mem();
	make_dandy(&a, "sp-a", 2, "abc", "abcabcabcabc");
	make_ludo(&b, "sp-b", "classic", 2);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	assert_int_equal(store_create_game(st, &b), STORE_OK);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	turn_in_txn(st, &a, &seed);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	a1 = a;
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_cached(st, &a, 1);
	turn_in_txn(st, &a, &seed);
	turn_in_txn(st, &b, &seed);
	assert_cached(st, &a, 1);
	store_savepoint_rollback(st);
	a = a1;
	assert_cached(st, &a, 0);
	assert_rows(st, &a);
	make_ludo(&b, "sp-b", "classic", 2);
	assert_cached(st, &b, 0);
	/* A savepoint that wrote nothing keeps the entries. */
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, "sp-a", &old), STORE_OK);
	store_savepoint_rollback(st);
	assert_cached(st, &a, 1);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_cached(st, &a, 1);
	assert_rows(st, &a);
	assert_rows(st, &b);
	store_close(st);
}

static int
refuse_commit(void *arg)
{
	(void)arg;
	return 1;
}

/*
 * The whole transaction undone: by the caller, by a failed COMMIT, and by
 * SQLite itself (a ROLLBACK behind the store's back stands for the one
 * after an I/O error, disk full or out of memory).  A game the
 * transaction did not write stays cached: an undo is not another writer.
 */
static void
test_load_game_cache_transaction_undone(void **state)
{
	struct tmpdir	 t;
	struct store	*st;
	sqlite3		*db;
	struct game	 g, was, by;
	char		 err[256];
	uint32_t	 seed = 77;

	(void)state;
	tmpdir_make(&t, "test_store");
	st = store_sqlite_open(t.path, DURABILITY_NORMAL, err, sizeof(err));
	assert_non_null(st);
	db = store_sqlite_handle(st);
	make_ludo(&g, "undo", "extended", 3);
	make_snl(&by, "bystander", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_int_equal(store_create_game(st, &by), STORE_OK);
	play_moves(st, &g, 4, &seed);
	assert_cached(st, &by, 0);
	was = g;

	assert_int_equal(store_begin(st), STORE_OK);
	turn_in_txn(st, &g, &seed);
	assert_cached(st, &g, 1);
	store_rollback(st);
	g = was;
	assert_cached(st, &g, 0);
	assert_cached(st, &by, 1);

	assert_int_equal(store_begin(st), STORE_OK);
	turn_in_txn(st, &g, &seed);
	sqlite3_commit_hook(db, refuse_commit, NULL);
	assert_int_equal(store_commit(st), STORE_ERR);
	sqlite3_commit_hook(db, NULL, NULL);
	g = was;
	assert_cached(st, &g, 0);
	assert_cached(st, &by, 1);

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	turn_in_txn(st, &g, &seed);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	assert_int_equal(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	g = was;
	assert_cached(st, &g, 0);		/* the caller's txn is gone */
	assert_cached(st, &g, 1);
	assert_int_equal(store_commit(st), STORE_ERR);
	store_rollback(st);
	assert_cached(st, &g, 1);
	assert_cached(st, &by, 1);
	assert_rows(st, &g);
	assert_int_equal(cache_stats(st).flushes, 0);
	store_close(st);
	tmpdir_remove(&t);
}

/* One entry for two games: each load evicts the other's, and every load
 * is still right. */
static void
test_set_game_cache_capacity_one(void **state)
{
	struct store	*st = open_mem();
	struct game	 a, b;
	uint32_t	 seed = 3;
	int		 i;

	(void)state;
	assert_int_equal(store_set_game_cache(st, 1), STORE_OK);
	assert_int_equal(cache_stats(st).games, 1);
	make_snl(&a, "one-a", 2);
	make_ludo(&b, "one-b", "classic", 4);
	assert_int_equal(store_create_game(st, &a), STORE_OK);
	assert_int_equal(store_create_game(st, &b), STORE_OK);
	for (i = 0; i < 10; i++) {
		assert_int_equal(store_begin(st), STORE_OK);
		turn_in_txn(st, &a, &seed);
		turn_in_txn(st, &b, &seed);
		assert_int_equal(store_commit(st), STORE_OK);
		assert_cached(st, &a, 0);
		assert_cached(st, &b, 0);
		assert_cached(st, &b, 1);
		assert_int_equal(cache_stats(st).used, 1);
	}
	assert_int_equal(cache_stats(st).hits, 10);
	assert_rows(st, &a);
	assert_rows(st, &b);
	store_close(st);
}

/* No cache: every load reads the rows, nothing is counted; the size is
 * checked, and a new cache starts empty. */
static void
test_set_game_cache_disabled(void **state)
{
	struct store	*st;
	struct game	 g;
	uint32_t	 seed = 5;

	(void)state;
	st = open_mem();
	make_ludo(&g, "bare", "classic", 2);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_cached(st, &g, 0);
	assert_int_equal(store_set_game_cache(st, 0), STORE_OK);
	assert_int_equal(cache_stats(st).games, 0);
	play_moves(st, &g, 5, &seed);
	assert_loads_as(st, &g);
	assert_rows(st, &g);
	assert_int_equal(cache_stats(st).hits, 0);
	assert_int_equal(cache_stats(st).misses, 1);
	assert_int_equal(cache_stats(st).used, 0);

	assert_int_equal(store_set_game_cache(st, -1), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "range"));
	assert_int_equal(store_set_game_cache(st, STORE_GAME_CACHE_MAX + 1),
	    STORE_ERR);
	assert_int_equal(cache_stats(st).games, 0);
	assert_int_equal(store_set_game_cache(st, 16), STORE_OK);
	assert_cached(st, &g, 0);
	assert_cached(st, &g, 1);
	store_close(st);
}

/*
 * AUDIT's read goes to the rows even when the cache holds the game.  The
 * one change the cache cannot see, blob I/O through the store's own
 * connection, makes them differ: the plain load answers from the cache,
 * the stored one from the rows, and drops and counts the entry.
 */
static void
test_load_game_stored_reads_rows(void **state)
{
	struct store	*st;
	sqlite3		*db;
	sqlite3_blob	*blob;
	struct game	 g, changed, got;

	(void)state;
	st = open_mem();
	db = store_sqlite_handle(st);
	store_sqlite_set_cache_check(st, 0);	/* whatever the environment */
	make_dandy(&g, "blob", 2, "abcd", NULL);
	assert_int_equal(store_create_game(st, &g), STORE_OK);
	assert_cached(st, &g, 0);
	assert_rows(st, &g);			/* equal: nothing counted */
	assert_cached(st, &g, 1);

	assert_int_equal(sqlite3_blob_open(db, "main", "games", "board",
	    sql_int(db, "SELECT rowid FROM games WHERE id = 'blob'"), 1,
	    &blob), SQLITE_OK);
	assert_int_equal(sqlite3_blob_write(blob, "d", 1, 0), SQLITE_OK);
	sqlite3_blob_close(blob);
	make_dandy(&changed, "blob", 2, "dbcd", NULL);

	assert_cached(st, &g, 1);		/* unseen by the cache */
	assert_int_equal(store_load_game_stored(st, "blob", &got), STORE_OK);
	assert_same_game(&got, &changed);
	assert_int_equal(cache_stats(st).mismatches, 1);
	assert_cached(st, &changed, 0);		/* the entry was dropped */

	/* The checking mode finds the same at the load itself. */
	store_sqlite_set_cache_check(st, 1);
	assert_cached(st, &changed, 1);
	assert_int_equal(sqlite3_blob_open(db, "main", "games", "board",
	    sql_int(db, "SELECT rowid FROM games WHERE id = 'blob'"), 1,
	    &blob), SQLITE_OK);
	assert_int_equal(sqlite3_blob_write(blob, "a", 1, 0), SQLITE_OK);
	sqlite3_blob_close(blob);
	assert_int_equal(store_load_game(st, "blob", &got), STORE_ERR);
	assert_non_null(strstr(store_errmsg(st), "differs"));
	assert_int_equal(cache_stats(st).mismatches, 2);
	assert_cached(st, &g, 0);
	store_sqlite_set_cache_check(st, 0);
	assert_int_equal(store_load_game_stored(st, "nope", &got),
	    STORE_NOTFOUND);
	store_close(st);
}

/* -------------------------------------------- game cache: the entries */

static const uint64_t	 no_marks[CACHE_NMARKS];

/* Multiplayer options on every player: server dice, a timeout and a
 * deadline, seat hashes if secure, a bot on some players if bots. */
static void
random_opts(struct game *g, uint32_t *seed, int secure, int bots)
{
	int	 p, i;

	g->opts.secure = (uint8_t)(secure != 0);
	g->opts.server_dice = 1;
	g->opts.timeout = 30;
	g->opts.deadline = 1700000000123LL;
	for (p = 0; p < game_nplayers(g); p++) {
		for (i = 0; secure && i < SEAT_HASH_LEN; i++)
			g->opts.seat[p][i] = (uint8_t)xorshift32(seed);
		if (bots && xorshift32(seed) % 2 == 0)
			g->opts.bot[p] = (uint8_t)(1 + xorshift32(seed) % 3);
	}
}

/* A DandyLand deck of n random cards. */
static void
random_deck(char *deck, int n, uint32_t *seed)
{
	static const char	 cards[] = "abcdefghi123456789";
	int			 i;

	for (i = 0; i < n; i++)
		deck[i] = cards[xorshift32(seed) % (sizeof(cards) - 1)];
	deck[n] = '\0';
}

/* A Snake & Ladder board with as many jumps as the rules let in. */
static void
make_snl_jumps(struct game *g, const char *id, int n, uint32_t *seed)
{
	int	 a, b, k;

	game_base(g, id, KIND_SNL);
	assert_int_equal(snl_init(&g->s.snl, n), 0);
	for (k = 0; k < 2000; k++) {
		a = 1 + (int)(xorshift32(seed) % 99);
		b = 1 + (int)(xorshift32(seed) % 99);
		if (a > b)
			(void)snl_add_snake(&g->s.snl, a, b, NULL);
		else if (a < b)
			(void)snl_add_ladder(&g->s.snl, a, b, NULL);
	}
}

static int
count_jumps(const struct game *g)
{
	int	 c, n = 0;

	for (c = 0; c <= SNL_CELLS; c++)
		n += g->s.snl.jump[c] != 0;
	return n;
}

/*
 * g encodes, and decodes to itself byte for byte (over a game full of
 * other bytes); one byte less or more is no game; in a cache it is an
 * entry that decodes the same, or, too big for a slot, none.  Its
 * encoding's length.
 */
static size_t
assert_round_trip(const struct game *g)
{
	uint8_t			 buf[GAME_CACHE_ENCODED_MAX + 1];
	struct game		 back;
	struct game_cache	*c;
	size_t			 n;
	int			 rc;

	n = game_cache_encode(g, buf, GAME_CACHE_ENCODED_MAX);
	assert_true(n > 0);
	memset(&back, 0xa5, sizeof(back));
	assert_int_equal(game_cache_decode(buf, n, &back), 0);
	assert_same_game(&back, g);
	assert_int_equal(game_cache_decode(buf, n - 1, &back), -1);
	assert_int_equal(game_cache_decode(buf, n + 1, &back), -1);
	assert_int_equal(game_cache_encode(g, buf, n - 1), 0);
	assert_int_equal(game_cache_encode(g, buf, n), n);

	assert_non_null(c = game_cache_new(2));
	rc = game_cache_put(c, g, no_marks);
	assert_int_equal(rc, n <= GAME_CACHE_SLOT_DATA ? 0 : 1);
	memset(&back, 0x5a, sizeof(back));
	assert_int_equal(game_cache_get(c, g->id, &back), rc == 0 ? 0 : -1);
	if (rc == 0)
		assert_same_game(&back, g);
	assert_int_equal(game_cache_count(c), rc == 0);
	game_cache_free(c);
	return n;
}

/* Round trips of g after each of its moves, to the end or max; the
 * longest encoding. */
static size_t
assert_round_trips(struct game *g, int max, uint32_t *seed)
{
	struct game	 next;
	struct move	 mv;
	size_t		 n, most;
	int		 i;

	most = assert_round_trip(g);
	for (i = 0; i < max && random_move(g, &next, &mv, seed); i++) {
		*g = next;
		/* What the command layer sets between turns. */
		if (g->opts.server_dice) {
			g->opts.roll = (uint8_t)(1 + i % 6);
			g->opts.roll_player = (uint8_t)(i % game_nplayers(g));
			g->opts.deadline += 1000;
		}
		if ((n = assert_round_trip(g)) > most)
			most = n;
	}
	return most;
}

/*
 * Every kind encodes and decodes exactly, through whole games: Ludo of
 * 2-4 players with seats, bots and the longest names, which always fits
 * a slot; Snake & Ladder of 64 players on a board full of jumps, which
 * fits without seats; DandyLand with and without a 1024-card deck.
 */
static void
test_game_cache_encode_every_kind(void **state)
{
	static const char *const presets[] = {
		"classic", "interview", "extended"
	};
	char		 id[GAME_ID_MAX + 1], deck[DANDY_DECK_MAX + 1];
	struct game	 g;
	uint32_t	 seed = 77;
	size_t		 n;
	int		 np, k, p;

	(void)state;
	memset(id, 'x', GAME_ID_MAX);
	id[GAME_ID_MAX] = '\0';
	for (np = LUDO_MIN_PLAYERS; np <= LUDO_MAX_PLAYERS; np++)
		for (k = 0; k < 3; k++) {
			make_ludo(&g, id, presets[k], np);
			for (p = 0; p < np; p++)
				memset(g.players[p], 'a' + p, GAME_ID_MAX);
			random_opts(&g, &seed, 1, 1);
			n = assert_round_trips(&g, 2000, &seed);
			assert_true(n <= GAME_CACHE_SLOT_DATA);
			make_ludo(&g, "open", presets[k], np);
			assert_round_trips(&g, 300, &seed);
		}

	make_snl_jumps(&g, "snl-64", SNL_MAX_PLAYERS, &seed);
	assert_true(count_jumps(&g) >= 20);
	random_opts(&g, &seed, 0, 1);
	assert_true(assert_round_trips(&g, 1000, &seed) <=
	    GAME_CACHE_SLOT_DATA);
	make_snl_jumps(&g, "snl-64-seats", SNL_MAX_PLAYERS, &seed);
	random_opts(&g, &seed, 1, 1);
	assert_true(assert_round_trips(&g, 100, &seed) >
	    SNL_MAX_PLAYERS * SEAT_HASH_LEN);
	make_snl(&g, "snl-2", 2);
	assert_round_trips(&g, 1000, &seed);

	/* The benchmark's game: about a hundred bytes. */
	make_dandy(&g, "g-000000000042", 2, "abcdefghi", NULL);
	assert_true(assert_round_trips(&g, 1000, &seed) <= 128);
	make_dandy(&g, "dandy-8", 8, "abcdefghiabcdefghiabcdefghiabcdefghi",
	    NULL);
	random_opts(&g, &seed, 1, 1);
	assert_round_trips(&g, 1000, &seed);
	random_deck(deck, DANDY_DECK_MAX, &seed);
	make_dandy(&g, "deck-1024", 8, "abcdefghi", deck);
	random_opts(&g, &seed, 1, 1);
	assert_true(assert_round_trips(&g, DANDY_DECK_MAX + 1, &seed) >
	    DANDY_DECK_MAX);
	assert_int_equal(g.s.dandy.turn, -1);		/* played out */
	random_deck(deck, 200, &seed);
	make_dandy(&g, "deck-200", 3, "abc", deck);
	assert_true(assert_round_trips(&g, 300, &seed) <=
	    GAME_CACHE_SLOT_DATA);
	make_dandy(&g, "deck-0", 3, "abc", "");
	assert_round_trips(&g, 10, &seed);

	/* Any value of an integer comes back. */
	make_dandy(&g, "extremes", 2, "a", NULL);
	g.moves = INT64_MAX;
	g.created = INT64_MIN;
	g.updated = -1;
	g.opts.timeout = INT64_MAX;
	g.opts.deadline = INT64_MIN;
	g.s.dandy.drawn = INT32_MIN;
	g.s.dandy.points[1] = INT32_MAX;
	assert_round_trip(&g);
}

/* What no load makes is not encoded (nor cached), and what encode()
 * did not write does not decode. */
static void
test_game_cache_encode_refused(void **state)
{
	uint8_t			 buf[GAME_CACHE_ENCODED_MAX];
	struct game		 g, back;
	struct game_cache	*c;
	size_t			 n;

	(void)state;
	assert_non_null(c = game_cache_new(4));
	make_dandy(&g, "bad", 2, "abc", NULL);
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	g.s.dandy.deck_len = DANDY_DECK_MAX + 1;
	assert_int_equal(game_cache_encode(&g, buf, sizeof(buf)), 0);
	assert_int_equal(game_cache_put(c, &g, no_marks), 1);
	assert_int_equal(game_cache_get(c, "bad", &back), -1);	/* removed */
	make_dandy(&g, "bad", 2, "abc", NULL);
	g.s.dandy.nplayers = DANDY_MAX_PLAYERS + 1;
	assert_int_equal(game_cache_encode(&g, buf, sizeof(buf)), 0);
	make_ludo(&g, "bad", "classic", 2);
	memset(g.id, 'i', sizeof(g.id));
	assert_int_equal(game_cache_encode(&g, buf, sizeof(buf)), 0);
	assert_int_equal(game_cache_put(c, &g, no_marks), 1);
	make_ludo(&g, "bad", "classic", 2);
	g.kind = KIND_NONE;
	assert_int_equal(game_cache_encode(&g, buf, sizeof(buf)), 0);
	assert_int_equal(game_cache_count(c), 0);
	assert_int_equal(game_cache_put(NULL, &g, no_marks), -1);
	assert_int_equal(game_cache_get(NULL, "bad", &back), -1);

	make_ludo(&g, "ok", "classic", 3);
	n = game_cache_encode(&g, buf, sizeof(buf));
	assert_int_equal(game_cache_decode(buf, 0, &back), -1);
	memset(buf, 0xff, n);
	assert_int_equal(game_cache_decode(buf, n, &back), -1);
	memset(buf, 0, n);
	assert_int_equal(game_cache_decode(buf, n, &back), -1);
	game_cache_free(c);
}

/*
 * A game too big for a slot is not cached, counted, and leaves no entry
 * of its id behind; every load reads its rows, turns included, and the
 * games that fit are cached as before.
 */
static void
test_game_cache_oversize(void **state)
{
	struct store	*st;
	struct game	 big, small;
	char		 deck[DANDY_DECK_MAX + 1];
	uint32_t	 seed = 5;
	int		 i;

	(void)state;
	st = open_mem();
	random_deck(deck, DANDY_DECK_MAX, &seed);
	make_dandy(&big, "big", 2, "abcdefghi", deck);
	make_dandy(&small, "small", 2, "abcdefghi", NULL);
	assert_int_equal(store_create_game(st, &big), STORE_OK);
	assert_int_equal(store_create_game(st, &small), STORE_OK);
	assert_cached(st, &big, 0);
	assert_cached(st, &big, 0);
	assert_int_equal(cache_stats(st).oversize, 2);
	assert_int_equal(cache_stats(st).used, 0);
	for (i = 0; i < 5; i++) {
		assert_int_equal(store_begin(st), STORE_OK);
		turn_in_txn(st, &big, &seed);
		turn_in_txn(st, &small, &seed);
		assert_int_equal(store_commit(st), STORE_OK);
		assert_cached(st, &big, 0);
		assert_cached(st, &small, 1);
		assert_rows(st, &big);
	}
	assert_int_equal(cache_stats(st).oversize, 2 + 2 * 5);
	assert_int_equal(cache_stats(st).used, 1);
	assert_int_equal(cache_stats(st).mismatches, 0);
	store_close(st);
}

/* The i-th game of many: the three kinds in turn, of several sizes. */
static void
nth_game(struct game *g, int i)
{
	char		 id[32], deck[128];
	uint32_t	 seed = (uint32_t)i + 1;

	snprintf(id, sizeof(id), "g-%d", i);
	switch (i % 3) {
	case 0:
		make_ludo(g, id, "classic", 2 + i % 3);
		break;
	case 1:
		make_snl_jumps(g, id, 1 + i % 64, &seed);
		break;
	default:
		random_deck(deck, i % 100, &seed);
		make_dandy(g, id, 1 + i % 8, "abcdefghi", deck);
		break;
	}
	g->moves = i;
}

static void
assert_entry(struct game_cache *c, const struct game *want)
{
	struct game	 got;

	assert_int_equal(game_cache_get(c, want->id, &got), 0);
	assert_same_game(&got, want);
}

/* The map itself: least recently used out first, marks, removal, and
 * slots reused by games of other sizes. */
static void
test_game_cache_lru(void **state)
{
	static const uint64_t	 m1[CACHE_NMARKS] = { 5, 0 };
	static const uint64_t	 m2[CACHE_NMARKS] = { 5, 7 };
	struct game_cache	*c;
	struct game		 g, got, want[1000];
	char			 id[16], deck[300];
	uint32_t		 seed = 9;
	int			 i;

	(void)state;
	assert_null(game_cache_new(0));
	assert_int_equal(game_cache_get(NULL, "x", &got), -1);
	assert_int_equal(game_cache_count(NULL), 0);
	assert_int_equal(game_cache_clear(NULL), 0);
	c = game_cache_new(3);
	assert_non_null(c);
	assert_int_equal(game_cache_capacity(c), 3);
	make_ludo(&g, "a", "classic", 2);
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	snprintf(g.id, sizeof(g.id), "b");
	assert_int_equal(game_cache_put(c, &g, m1), 0);
	snprintf(g.id, sizeof(g.id), "c");
	assert_int_equal(game_cache_put(c, &g, m2), 0);
	assert_int_equal(game_cache_get(c, "a", &got), 0); /* b the oldest */
	snprintf(g.id, sizeof(g.id), "d");
	g.moves = 9;
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	assert_int_equal(game_cache_get(c, "b", &got), -1);
	assert_int_equal(game_cache_count(c), 3);
	assert_entry(c, &g);
	/* Put again: replaced in place. */
	g.moves = 10;
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	assert_int_equal(game_cache_count(c), 3);
	assert_entry(c, &g);

	assert_int_equal(game_cache_drop(c, CACHE_TURN, 0), 0);
	assert_int_equal(game_cache_drop(c, CACHE_TURN, 7), 1);
	assert_int_equal(game_cache_get(c, "c", &got), -1);
	/* A put again takes the new marks. */
	assert_int_equal(game_cache_get(c, "a", &got), 0);
	assert_int_equal(game_cache_put(c, &got, m1), 0);
	assert_int_equal(game_cache_drop(c, CACHE_TXN, 5), 1);
	assert_int_equal(game_cache_get(c, "a", &got), -1);
	game_cache_remove(c, "d");
	game_cache_remove(c, "d");
	assert_int_equal(game_cache_count(c), 0);
	/* The same id, a shorter encoding in the same slot. */
	random_deck(deck, 250, &seed);
	make_dandy(&g, "e", 2, "abcdefghi", deck);
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	make_dandy(&g, "e", 2, "abcdefghi", "a1");
	assert_int_equal(game_cache_put(c, &g, no_marks), 0);
	assert_entry(c, &g);
	assert_int_equal(game_cache_count(c), 1);
	game_cache_free(c);

	/* Many ids through a small cache, of every kind and size: the last
	 * ones stay, each as it was put. */
	c = game_cache_new(64);
	for (i = 0; i < 1000; i++) {
		nth_game(&want[i], i);
		assert_int_equal(game_cache_put(c, &want[i], no_marks), 0);
		if (i % 7 == 0)		/* freed slots are taken again */
			game_cache_remove(c, want[i / 2].id);
	}
	assert_int_equal(game_cache_count(c), 64);
	for (i = 0; i < 1000; i++) {
		snprintf(id, sizeof(id), "g-%d", i);
		if (i < 1000 - 64)
			assert_int_equal(game_cache_get(c, id, &got), -1);
		else
			assert_entry(c, &want[i]);
	}
	assert_int_equal(game_cache_clear(c), 64);
	assert_int_equal(game_cache_get(c, "g-999", &got), -1);
	for (i = 0; i < 64; i++)
		assert_int_equal(game_cache_put(c, &want[i], no_marks), 0);
	for (i = 0; i < 64; i++)
		assert_entry(c, &want[i]);
	game_cache_free(c);
}


int
main(void)
{
	const struct CMUnitTest tests[] = {
		SQLITE_TEST(test_load_game_cache_after_turn),
		cmocka_unit_test(test_load_game_cache_setup_and_opts),
		cmocka_unit_test(test_load_game_cache_other_connection),
		SQLITE_TEST(test_load_game_cache_handle_write),
		SQLITE_TEST(test_load_game_cache_savepoint_undone),
		cmocka_unit_test(test_load_game_cache_transaction_undone),
		cmocka_unit_test(test_set_game_cache_capacity_one),
		SQLITE_TEST(test_set_game_cache_disabled),
		SQLITE_TEST(test_load_game_stored_reads_rows),
		cmocka_unit_test(test_game_cache_encode_every_kind),
		cmocka_unit_test(test_game_cache_encode_refused),
		SQLITE_TEST(test_game_cache_oversize),
		cmocka_unit_test(test_game_cache_lru),
	};

	return STORE_RUN_TESTS(tests);
}
