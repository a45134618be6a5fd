/*
 * test_engine, Snake & Ladder and DandyLand: the seed examples, setup
 * validation, the deck's rules, and property tests over seeded random
 * games against a naive model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/bot.h"
#include "engine/engine.h"

#include "test_engine.h"

/* A game's snake/ladder result as the Snake & Ladder script prints it. */
static void
snl_format(const struct snl_result *r, char *buf, size_t len)
{
	switch (r->outcome) {
	case SNL_MOVED:
		snprintf(buf, len, "P%d %d", r->player + 1, r->pos);
		break;
	case SNL_WON:
		snprintf(buf, len, "P%d WINS", r->player + 1);
		break;
	default:
		snprintf(buf, len, "GAME_OVER");
		break;
	}
}

static void
snl_expect_roll(struct snl_state *st, int value, const char *want)
{
	struct snl_result	r;
	char			buf[LINE_MAX_LEN];

	assert_int_equal(snl_roll(st, value, st, &r), 0);
	snl_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* ---------------------------------------------------- Snake & Ladder */

void
test_snl_roll_seed_example1(void **unused)
{
	struct snl_state	st;
	const char		*why = NULL;

	(void)unused;
	assert_int_equal(snl_init(&st, 2), 0);
	assert_int_equal(snl_add_ladder(&st, 4, 98, &why), 0);
	assert_int_equal(snl_add_snake(&st, 99, 2, &why), 0);
	snl_expect_roll(&st, 4, "P1 98");
	snl_expect_roll(&st, 6, "P2 6");
	snl_expect_roll(&st, 2, "P1 WINS");
	snl_expect_roll(&st, 5, "GAME_OVER");
	snl_expect_roll(&st, 6, "GAME_OVER");
	assert_null(why);
}

void
test_snl_roll_seed_example2(void **unused)
{
	struct snl_state	st;
	const char		*why = NULL;

	(void)unused;
	assert_int_equal(snl_init(&st, 2), 0);
	assert_int_equal(snl_add_ladder(&st, 3, 100, &why), 0);
	snl_expect_roll(&st, 3, "P1 WINS");
	snl_expect_roll(&st, 1, "GAME_OVER");
	assert_int_equal(st.winner, 0);
	assert_int_equal(st.turn, -1);
}

void
test_snl_roll_overshoot(void **unused)
{
	struct snl_state	st, out;
	struct snl_result	r;

	(void)unused;
	assert_int_equal(snl_init(&st, 3), 0);
	st.pos[0] = 98;
	st.started = 1;
	assert_int_equal(snl_roll(&st, 3, &out, &r), 0);
	assert_int_equal(r.outcome, SNL_MOVED);
	assert_int_equal(r.player, 0);
	assert_int_equal(r.pos, 98);
	assert_int_equal(out.pos[0], 98);
	assert_int_equal(out.turn, 1);
	/* The last player passes back to P1. */
	out.turn = 2;
	assert_int_equal(snl_roll(&out, 1, &out, &r), 0);
	assert_int_equal(out.turn, 0);
	assert_int_equal(r.player, 2);
	assert_int_equal(r.pos, 1);
}

void
test_snl_roll_bad_value(void **unused)
{
	struct snl_state	st, out, before;
	struct snl_result	r;

	(void)unused;
	assert_int_equal(snl_init(&st, 1), 0);
	memset(&out, 0x33, sizeof(out));
	before = out;
	assert_int_equal(snl_roll(&st, 0, &out, &r), -1);
	assert_int_equal(snl_roll(&st, 7, &out, &r), -1);
	assert_memory_equal(&out, &before, sizeof(out));
	assert_int_equal(st.started, 0);
	/* A single player plays alone. */
	assert_int_equal(snl_roll(&st, 6, &out, &r), 0);
	assert_int_equal(out.turn, 0);
	assert_int_equal(out.started, 1);
}

void
test_snl_init_players(void **unused)
{
	struct snl_state	st;

	(void)unused;
	assert_int_equal(snl_init(&st, 0), -1);
	assert_int_equal(snl_init(&st, SNL_MAX_PLAYERS + 1), -1);
	assert_int_equal(snl_init(&st, SNL_MAX_PLAYERS), 0);
	assert_int_equal(st.turn, 0);
	assert_int_equal(st.winner, -1);
	assert_int_equal(st.pos[SNL_MAX_PLAYERS - 1], 0);
}

/* A refused jump sets a reason and leaves the state as it was. */
static void
snl_refused(struct snl_state *st, int ladder, int from, int to)
{
	struct snl_state	before = *st;
	const char		*why = NULL;
	int			rc;

	rc = ladder ? snl_add_ladder(st, from, to, &why) :
	    snl_add_snake(st, from, to, &why);
	assert_int_equal(rc, -1);
	assert_non_null(why);
	assert_true(strlen(why) > 0);
	assert_memory_equal(st, &before, sizeof(before));
}

void
test_snl_add_validation(void **unused)
{
	struct snl_state	st, out;
	struct snl_result	r;
	const char		*why;

	(void)unused;
	assert_int_equal(snl_init(&st, 2), 0);
	/* Cells out of range. */
	snl_refused(&st, 0, 100, 50);
	snl_refused(&st, 0, 0, 50);
	snl_refused(&st, 0, 50, 0);
	snl_refused(&st, 1, 0, 50);
	snl_refused(&st, 1, 99, 101);
	snl_refused(&st, 1, -3, 5);
	/* Direction. */
	snl_refused(&st, 0, 20, 30);
	snl_refused(&st, 0, 20, 20);
	snl_refused(&st, 1, 30, 20);
	snl_refused(&st, 1, 30, 30);

	assert_int_equal(snl_add_snake(&st, 40, 10, &why), 0);
	assert_int_equal(snl_add_ladder(&st, 20, 60, &why), 0);
	assert_int_equal(snl_add_ladder(&st, 99, 100, &why), 0);
	/* Two jumps on one cell. */
	snl_refused(&st, 1, 40, 70);
	snl_refused(&st, 0, 20, 5);
	/* Chains: a target on a trigger, a trigger on a target. */
	snl_refused(&st, 1, 5, 40);
	snl_refused(&st, 0, 50, 20);
	snl_refused(&st, 0, 60, 30);
	snl_refused(&st, 1, 10, 30);
	/* Two jumps may share a target. */
	assert_int_equal(snl_add_snake(&st, 45, 10, &why), 0);
	assert_int_equal(st.jump[45], 10);

	/* After the first roll the setup is closed. */
	assert_int_equal(snl_roll(&st, 2, &out, &r), 0);
	snl_refused(&out, 0, 80, 70);
	snl_refused(&out, 1, 70, 80);

	/* why may be NULL. */
	assert_int_equal(snl_add_snake(&st, 10, 20, NULL), -1);
}

void
test_snl_roll_jumps_once(void **unused)
{
	struct snl_state	st;
	const char		*why;

	(void)unused;
	assert_int_equal(snl_init(&st, 1), 0);
	assert_int_equal(snl_add_ladder(&st, 2, 30, &why), 0);
	assert_int_equal(snl_add_snake(&st, 35, 3, &why), 0);
	snl_expect_roll(&st, 2, "P1 30");
	snl_expect_roll(&st, 5, "P1 3");
	snl_expect_roll(&st, 1, "P1 4");
}

/* Rolls random dice until someone wins; checks invariants on the way. */
static void
snl_random_game(uint64_t *seed)
{
	struct snl_state	st, out;
	struct snl_result	r;
	const char		*why;
	int			i, n, rolls, snakes = 0, mover;

	assert_int_equal(snl_init(&st, 1 + te_rnd_int(seed, 6)), 0);
	/* At most five snakes: no six cells in a row can all be heads, so
	 * every game can still be won. */
	for (i = te_rnd_int(seed, 20); i > 0; i--) {
		int a = 1 + te_rnd_int(seed, 99), b = 1 + te_rnd_int(seed, 100);

		if (a > b && snakes < 5)
			snakes += snl_add_snake(&st, a, b, &why) == 0;
		else if (a < b)
			(void)snl_add_ladder(&st, a, b, &why);
	}
	for (rolls = 0; st.winner == -1; rolls++) {
		assert_true(rolls < 100000);
		mover = st.turn;
		assert_int_equal(snl_roll(&st, te_rnd_dice(seed), &out, &r), 0);
		assert_int_equal(r.player, mover);
		assert_int_equal(out.pos[mover], r.pos);
		assert_int_equal(st.jump[r.pos], 0);	/* never on a trigger */
		if (r.outcome == SNL_WON) {
			assert_int_equal(r.pos, 100);
			assert_int_equal(out.winner, mover);
			assert_int_equal(out.turn, -1);
		} else {
			assert_int_equal(r.outcome, SNL_MOVED);
			assert_true(r.pos < 100);
			assert_int_equal(out.turn, (mover + 1) % st.nplayers);
		}
		for (n = 0; n < st.nplayers; n++)
			if (n != mover)
				assert_int_equal(out.pos[n], st.pos[n]);
		st = out;
	}
	assert_int_equal(snl_roll(&st, 3, &out, &r), 0);
	assert_int_equal(r.outcome, SNL_GAME_OVER);
	assert_memory_equal(&out, &st, sizeof(st));
}

void
test_snl_roll_random_games(void **unused)
{
	uint64_t	seed = 0xdeadbeefcafef00dULL;
	int		i;

	(void)unused;
	for (i = 0; i < 3000; i++)
		snl_random_game(&seed);
}

void
test_snl_roll_garbage_snapshot(void **unused)
{
	struct snl_state	st, out;
	struct snl_result	r;
	uint64_t		seed = 42;
	unsigned char		*b = (unsigned char *)&st;
	int			i, k;

	(void)unused;
	for (i = 0; i < 20000; i++) {
		snl_init(&st, 1 + te_rnd_int(&seed, SNL_MAX_PLAYERS));
		for (k = te_rnd_int(&seed, 4); k >= 0; k--)
			b[te_rnd_int(&seed, (int)sizeof(st))] =
			    (unsigned char)te_rnd_next(&seed);
		if (snl_roll(&st, te_rnd_dice(&seed), &out, &r) == 0)
			assert_true(r.outcome == SNL_GAME_OVER ||
			    (r.pos >= 0 && r.pos <= 100));
	}
}

/* ----------------------------------------------------------- DandyLand */

void
test_dandy_play_seed_examples(void **unused)
{
	static const struct {
		int		 players;
		const char	*cards, *board;
		int		 want[DANDY_MAX_PLAYERS];
	} ex[] = {
		{ 2, "abab9abcaa", "abab", { 3, 1 } },
		{ 1, "7aaa", "abcde", { 4 } },
		{ 1, "af1f1fa", "abcde", { 3 } },
		{ 2, "1181a221aeeb1", "abcd", { 4, 1 } },
		{ 4, "9b8b2a11", "ab", { 5, 0, 3, 1 } },
		{ 8, "d53ab9e7b5decaacd59aeeeb", "abcdabcdabcd",
		    { 0, 1, 1, 1, 0, 1, 0, 1 } },
		{ 1, "4", "abcd", { 0 } },
	};
	int	points[DANDY_MAX_PLAYERS];
	size_t	i;

	(void)unused;
	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		memset(points, 0x7f, sizeof(points));
		assert_int_equal(dandy_play(ex[i].players, ex[i].cards,
		    ex[i].board, points), 0);
		assert_memory_equal(points, ex[i].want, sizeof(points));
	}
}

/* The long walk-through, move by move, drawn from the deck and given. */
void
test_dandy_draw_walkthrough(void **unused)
{
	static const struct {
		int	player, pos, points, other_pos;
	} m[] = {
		{ 0, 0, 0, -1 },	/* M1: P1 'a' to the first a */
		{ 1, 1, 0, 0 },		/* M2: P2 'b' to the first b */
		{ 0, 2, 0, 1 },		/* M3: P1 'a' to the second a */
		{ 1, 3, 0, 2 },		/* M4: P2 'b' to the last square */
		{ 0, 3, 2, -1 },	/* M5: P1 '9', two points, bumps P2 */
		{ 1, 0, 0, 3 },		/* M6: P2 'a' enters at the first a */
		{ 0, 1, 3, 0 },		/* M7: P1 'b' past the start */
		{ 1, 3, 0, 1 },		/* M8: P2 'c' none: back to last */
		{ 0, 2, 3, 3 },		/* M9: P1 'a' */
		{ 1, 0, 1, 2 },		/* M10: P2 'a' crosses: a point */
	};
	static const char deck[] = "abab9abcaa";
	struct dandy_state	a, b;
	struct dandy_result	r;
	const char		*why;
	int			i;

	(void)unused;
	assert_int_equal(dandy_init(&a, 2, "abab", deck, &why), 0);
	assert_int_equal(dandy_init(&b, 2, "abab", NULL, &why), 0);
	for (i = 0; i < 10; i++) {
		assert_int_equal(a.turn, m[i].player);
		assert_int_equal(dandy_draw(&a, 0, &a, &r), 0);
		assert_int_equal(r.game_over, 0);
		assert_int_equal(r.player, m[i].player);
		assert_int_equal(r.pos, m[i].pos);
		assert_int_equal(r.points, m[i].points);
		assert_int_equal(a.pos[m[i].player], m[i].pos);
		assert_int_equal(a.pos[1 - m[i].player], m[i].other_pos);

		assert_int_equal(dandy_draw(&b, deck[i], &b, &r), 0);
		assert_int_equal(r.pos, m[i].pos);
		assert_int_equal(r.points, m[i].points);
		assert_memory_equal(b.pos, a.pos, sizeof(a.pos));
		assert_memory_equal(b.points, a.points, sizeof(a.points));
	}
	assert_int_equal(a.turn, -1);
	assert_int_equal(b.turn, 0);	/* no deck: never over */
	assert_int_equal(a.points[0], 3);
	assert_int_equal(a.points[1], 1);
}

void
test_dandy_draw_deck_rules(void **unused)
{
	struct dandy_state	st, out;
	struct dandy_result	r;
	const char		*why;

	(void)unused;
	/* A deck game refuses given cards; a deckless one needs them. */
	assert_int_equal(dandy_init(&st, 1, "ab", "a", &why), 0);
	assert_int_equal(dandy_draw(&st, 'a', &out, &r), -1);
	assert_int_equal(dandy_draw(&st, 0, &out, &r), 0);
	assert_int_equal(out.turn, -1);
	assert_int_equal(out.drawn, 1);
	st = out;
	memset(&r, 0, sizeof(r));
	assert_int_equal(dandy_draw(&st, 0, &out, &r), 0);
	assert_int_equal(r.game_over, 1);
	assert_memory_equal(&out, &st, sizeof(st));

	assert_int_equal(dandy_init(&st, 1, "ab", NULL, &why), 0);
	assert_int_equal(dandy_draw(&st, 0, &out, &r), -1);
	assert_int_equal(dandy_draw(&st, 'j', &out, &r), -1);
	assert_int_equal(dandy_draw(&st, '0', &out, &r), -1);
	assert_int_equal(dandy_draw(&st, '9', &out, &r), 0);
	assert_int_equal(r.game_over, 0);

	/* An empty deck is over at once. */
	assert_int_equal(dandy_init(&st, 3, "ab", "", &why), 0);
	assert_int_equal(st.turn, -1);
	assert_int_equal(dandy_draw(&st, 0, &out, &r), 0);
	assert_int_equal(r.game_over, 1);
}

void
test_dandy_draw_moves(void **unused)
{
	struct dandy_state	st;
	struct dandy_result	r;
	const char		*why;

	(void)unused;
	assert_int_equal(dandy_init(&st, 2, "abc", NULL, &why), 0);
	/* P1: off the board and no such letter: stay off. */
	assert_int_equal(dandy_draw(&st, 'i', &st, &r), 0);
	assert_int_equal(r.pos, DANDY_OFF);
	/* P2: entering counts as the first step, '1' is the first square. */
	assert_int_equal(dandy_draw(&st, '1', &st, &r), 0);
	assert_int_equal(r.pos, 0);
	/* P1: a letter from off searches from the first square itself;
	 * P2 is bumped off. */
	assert_int_equal(dandy_draw(&st, 'a', &st, &r), 0);
	assert_int_equal(r.pos, 0);
	assert_int_equal(st.pos[1], DANDY_OFF);
	/* P2 enters on 'c'. */
	assert_int_equal(dandy_draw(&st, 'c', &st, &r), 0);
	assert_int_equal(r.pos, 2);
	/* P1 stands on the only 'a': a full lap, and a point. */
	assert_int_equal(dandy_draw(&st, 'a', &st, &r), 0);
	assert_int_equal(r.player, 0);
	assert_int_equal(r.pos, 0);
	assert_int_equal(r.points, 1);
	/* P2 from the last square to the first: a point, P1 bumped. */
	assert_int_equal(dandy_draw(&st, 'a', &st, &r), 0);
	assert_int_equal(r.pos, 0);
	assert_int_equal(r.points, 1);
	assert_int_equal(st.pos[0], DANDY_OFF);
	/* P1 '9' from off: enter (1), then 8 more on 3 squares, 2 laps. */
	assert_int_equal(dandy_draw(&st, '9', &st, &r), 0);
	assert_int_equal(r.pos, 2);
	assert_int_equal(r.points, 3);
	assert_int_equal(st.pos[1], 0);
	/* P2: no such letter, back one from the first square to the last;
	 * no point won or lost, and P1 is bumped. */
	assert_int_equal(dandy_draw(&st, 'h', &st, &r), 0);
	assert_int_equal(r.pos, 2);
	assert_int_equal(r.points, 1);
	assert_int_equal(st.pos[0], DANDY_OFF);
	/* P1 '2' from off: the first square, then one more. */
	assert_int_equal(dandy_draw(&st, '2', &st, &r), 0);
	assert_int_equal(r.pos, 1);
	assert_int_equal(r.points, 3);
}

void
test_dandy_init_validation(void **unused)
{
	struct dandy_state	st;
	const char		*why;
	char			big[DANDY_DECK_MAX + 2];
	int			points[DANDY_MAX_PLAYERS];

	(void)unused;
	why = NULL;
	assert_int_equal(dandy_init(&st, 0, "ab", NULL, &why), -1);
	assert_non_null(why);
	assert_int_equal(dandy_init(&st, 9, "ab", NULL, &why), -1);
	assert_int_equal(dandy_init(&st, 1, "", NULL, &why), -1);
	assert_int_equal(dandy_init(&st, 1, "abj", NULL, &why), -1);
	assert_int_equal(dandy_init(&st, 1,
	    "abcdefghiabcdefghiabcdefghiabcdefghia", NULL, &why), -1);
	assert_int_equal(dandy_init(&st, 1,
	    "abcdefghiabcdefghiabcdefghiabcdefghi", NULL, &why), 0);
	assert_int_equal(dandy_init(&st, 1, "ab", "a0", &why), -1);
	assert_int_equal(dandy_init(&st, 1, "ab", "A", &why), -1);
	memset(big, 'a', sizeof(big));
	big[DANDY_DECK_MAX + 1] = '\0';
	assert_int_equal(dandy_init(&st, 1, "ab", big, &why), -1);
	big[DANDY_DECK_MAX] = '\0';
	assert_int_equal(dandy_init(&st, 1, "ab", big, &why), 0);

	assert_true(dandy_valid_board("abcdefghi"));
	assert_false(dandy_valid_board(""));
	assert_false(dandy_valid_board(NULL));
	assert_false(dandy_valid_board("aBc"));
	assert_true(dandy_valid_card('a') && dandy_valid_card('i'));
	assert_true(dandy_valid_card('1') && dandy_valid_card('9'));
	assert_false(dandy_valid_card('j') || dandy_valid_card('0') ||
	    dandy_valid_card(0) || dandy_valid_card('A'));

	assert_int_equal(dandy_play(0, "a", "ab", points), -1);
	assert_int_equal(dandy_play(9, "a", "ab", points), -1);
	assert_int_equal(dandy_play(1, "a", "", points), -1);
	assert_int_equal(dandy_play(1, "x", "ab", points), -1);
	big[51] = '\0';
	assert_int_equal(dandy_play(1, big, "ab", points), -1);
	big[50] = '\0';
	assert_int_equal(dandy_play(1, big, "ab", points), 0);
	assert_int_equal(dandy_play(3, "", "ab", points), 0);
	assert_int_equal(points[0] + points[1] + points[2], 0);
}

/*
 * A second, deliberately naive model of DandyLand's rules: it walks one square at a
 * time, so the engine's arithmetic shortcuts are checked against it.
 */
struct naive_dandy {
	int	pos[DANDY_MAX_PLAYERS], points[DANDY_MAX_PLAYERS];
};

static void
naive_step(const char *board, int n, int *pos, int *points)
{
	if (*pos == -1)
		*pos = 0;
	else if (*pos == n - 1) {
		*pos = 0;
		(*points)++;
	} else
		(*pos)++;
	(void)board;
}

static void
naive_draw(struct naive_dandy *g, int nplayers, const char *board,
    int player, int card)
{
	int	n = (int)strlen(board), *pos = &g->pos[player], i, k;

	if (card >= '1' && card <= '9') {
		for (k = card - '0'; k > 0; k--)
			naive_step(board, n, pos, &g->points[player]);
	} else if (strchr(board, card) == NULL) {
		if (*pos != -1)
			*pos = *pos == 0 ? n - 1 : *pos - 1;
	} else {
		do
			naive_step(board, n, pos, &g->points[player]);
		while (board[*pos] != card);
	}
	for (i = 0; i < nplayers; i++)
		if (i != player && *pos != -1 && g->pos[i] == *pos)
			g->pos[i] = -1;
}

static void
dandy_random_game(uint64_t *seed)
{
	static const char cards[] = "abcdefghi123456789";
	struct dandy_state	st, out;
	struct dandy_result	r;
	struct naive_dandy	g;
	char			board[DANDY_BOARD_MAX + 1];
	char			deck[DANDY_DECK_MAX + 1];
	const char		*why;
	int			nplayers, blen, dlen, i, k, points[8];

	nplayers = 1 + te_rnd_int(seed, DANDY_MAX_PLAYERS);
	blen = 1 + te_rnd_int(seed, DANDY_BOARD_MAX);
	/* A few letters per board, so that some cards match nothing. */
	k = 1 + te_rnd_int(seed, 9);
	for (i = 0; i < blen; i++)
		board[i] = (char)('a' + te_rnd_int(seed, k));
	board[blen] = '\0';
	dlen = te_rnd_int(seed, 4) == 0 ? te_rnd_int(seed, DANDY_DECK_MAX + 1) :
	    te_rnd_int(seed, 51);
	for (i = 0; i < dlen; i++)
		deck[i] = cards[te_rnd_int(seed, 18)];
	deck[dlen] = '\0';

	assert_int_equal(dandy_init(&st, nplayers, board, deck, &why), 0);
	for (i = 0; i < DANDY_MAX_PLAYERS; i++)
		g.pos[i] = -1, g.points[i] = 0;
	for (i = 0; i < dlen; i++) {
		int player = i % nplayers;

		assert_int_equal(st.turn, player);
		assert_int_equal(dandy_draw(&st, 0, &out, &r), 0);
		naive_draw(&g, nplayers, board, player, deck[i]);
		assert_int_equal(r.player, player);
		assert_int_equal(r.pos, g.pos[player]);
		for (k = 0; k < nplayers; k++) {
			assert_int_equal(out.pos[k], g.pos[k]);
			assert_int_equal(out.points[k], g.points[k]);
			assert_true(out.points[k] >= st.points[k]);
			/* At most one player per square. */
			if (k != player && out.pos[k] != -1)
				assert_int_not_equal(out.pos[k],
				    out.pos[player]);
		}
		st = out;
	}
	assert_int_equal(st.turn, -1);
	assert_int_equal(dandy_draw(&st, 0, &out, &r), 0);
	assert_int_equal(r.game_over, 1);
	if (dlen <= 50) {
		assert_int_equal(dandy_play(nplayers, deck, board, points), 0);
		assert_memory_equal(points, g.points,
		    (size_t)nplayers * sizeof(int));
	}
}

void
test_dandy_draw_random_games(void **unused)
{
	uint64_t	seed = 0x0123456789abcdefULL;
	int		i;

	(void)unused;
	for (i = 0; i < 3000; i++)
		dandy_random_game(&seed);
}

void
test_dandy_draw_garbage_snapshot(void **unused)
{
	struct dandy_state	st, out;
	struct dandy_result	r;
	uint64_t		seed = 7;
	unsigned char		*b = (unsigned char *)&st;
	const char		*why;
	int			i, k;

	(void)unused;
	for (i = 0; i < 20000; i++) {
		assert_int_equal(dandy_init(&st, 1 + te_rnd_int(&seed, 8),
		    "abcab", i % 2 ? "a1b2c3d" : NULL, &why), 0);
		for (k = te_rnd_int(&seed, 4); k >= 0; k--) {
			/* Mostly the small fields in front of the deck. */
			size_t off = te_rnd_int(&seed, 2) ?
			    (size_t)te_rnd_int(&seed, (int)offsetof(
			    struct dandy_state, deck)) :
			    (size_t)te_rnd_int(&seed, (int)sizeof(st));

			b[off] = (unsigned char)te_rnd_next(&seed);
		}
		if (dandy_draw(&st, i % 2 ? 0 : 'a', &out, &r) == 0)
			assert_true(r.game_over || (r.pos >= -1 &&
			    r.pos < st.board_len));
	}
}
