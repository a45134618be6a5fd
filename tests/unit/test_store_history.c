/*
 * test_store, what the store gives back: history by pages, lists of
 * games, the options of multiplayer games, deadlines and secrets.
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

/* --------------------------------------------------------- history */

int
ts_collect(void *arg, const struct move *mv)
{
	struct collect	*c = arg;

	assert_true(c->n < 64);
	c->moves[c->n++] = *mv;
	return c->stop_at != 0 && c->n == c->stop_at ? 42 : 0;
}

void
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
	assert_int_equal(store_history(st, "hist", 1, -1, ts_collect, &all),
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
	assert_int_equal(store_history(st, "hist", 4, 3, ts_collect, &c), 0);
	assert_int_equal(c.n, 3);
	assert_memory_equal(c.moves, &all.moves[3], 3 * sizeof(struct move));

	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist", 9, 100, ts_collect, &c),
	    0);
	assert_int_equal(c.n, 2);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist", 11, -1, ts_collect, &c),
	    0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_history(st, "hist", 1, 0, ts_collect, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_history(st, "nope", 1, -1, ts_collect, &c),
	    0);
	assert_int_equal(c.n, 0);

	/* The callback's non-zero return stops the walk and comes back. */
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	assert_int_equal(store_history(st, "hist", 1, -1, ts_collect, &c),
	    42);
	assert_int_equal(c.n, 2);
	/* ...and the statement is ready for the next walk. */
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_history(st, "hist-other", 1, -1, ts_collect,
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
	return store_history(c->st, "re", 1, -1, ts_collect, c);
}

void
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
	assert_int_equal(store_history(st, "re", 1, -1, ts_collect, &c), 0);
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

void
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

/* ---------------------------------------------------- multiplayer */

/* Options of every kind survive the round trip, each byte of them. */
void
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
	    " WHERE game = " SQL_GID("opts-open")
	    " AND seat IS NULL AND bot IS NULL"), 2);
	store_close(st);
}

/* The pending roll and the deadline: saved alone (save_opts), carried
 * and cleared by a turn; the options fixed at creation never change. */
void
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
	assert_int_equal(store_history(st, "pending", 1, -1, ts_collect,
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

void
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
void
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
