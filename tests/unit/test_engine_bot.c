/*
 * test_engine, Ludo played at random: the invariants after every action
 * of thousands of seeded games, and the bots' choices.
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

/* ------------------------------------------------ Ludo: random games */

/* Invariants that hold after every action of a real game. */
static void
ludo_check_invariants(const struct ludo_state *st)
{
	int	finish = ludo_finish(&st->rules), last = ludo_last_track(
	    &st->rules);
	int	owner[LUDO_TRACK_CELLS];
	int	p, t, c;

	if (st->winner == -1) {
		assert_true(st->turn >= 0 && st->turn < st->nplayers);
	} else {
		assert_int_equal(st->turn, -1);
		for (t = 0; t < LUDO_TOKENS; t++)
			assert_int_equal(st->pos[st->winner][t], finish);
	}
	for (c = 0; c < LUDO_TRACK_CELLS; c++)
		owner[c] = -1;
	for (p = 0; p < st->nplayers; p++) {
		for (t = 0; t < LUDO_TOKENS; t++) {
			int pos = st->pos[p][t];

			assert_true(pos >= LUDO_YARD && pos <= finish);
			if (pos < 0 || pos > last)
				continue;
			c = (13 * p + pos) % 52;
			if (c % 13 == 0 || c % 13 == 8)
				continue;	/* safe: anyone may share */
			assert_true(owner[c] == -1 || owner[c] == p);
			owner[c] = p;
		}
	}
}

static int
ludo_count_yard(const struct ludo_state *st, int player)
{
	int	t, n = 0;

	for (t = 0; t < LUDO_TOKENS; t++)
		n += st->pos[player][t] == LUDO_YARD;
	return n;
}

/* Checks one result against what the snapshots before and after show. */
static void
ludo_check_step(const struct ludo_state *in, const struct ludo_state *out,
    int dice, int token, enum ludo_result res)
{
	int	player = in->turn, p, extra, captured = 0;

	for (p = 0; p < in->nplayers; p++)
		if (p != player)
			captured += ludo_count_yard(out, p) -
			    ludo_count_yard(in, p);
	assert_true(captured >= 0);
	if (res == LUDO_FORFEITED || res == LUDO_PASSED) {
		assert_memory_equal(out->pos, in->pos, sizeof(in->pos));
		assert_int_equal(out->turn, (player + 1) % in->nplayers);
		assert_int_equal(out->sixes, 0);
		return;
	}
	assert_true(res == LUDO_MOVED || res == LUDO_MOVED_AND_CAPTURED ||
	    res == LUDO_TOKEN_FINISHED || res == LUDO_PLAYER_WON);
	assert_true(out->pos[player][token - 1] > in->pos[player][token - 1]);
	assert_int_equal(res == LUDO_MOVED_AND_CAPTURED, captured > 0 &&
	    res != LUDO_TOKEN_FINISHED && res != LUDO_PLAYER_WON);
	if (res == LUDO_PLAYER_WON) {
		assert_int_equal(out->winner, player);
		return;
	}
	extra = (in->rules.six_bonus && dice == 6) ||
	    (in->rules.capture_bonus && captured > 0);
	assert_int_equal(out->turn, extra ? player :
	    (player + 1) % in->nplayers);
	assert_int_equal(out->sixes, extra && dice == 6 ? in->sixes + 1 : 0);
}

/* Plays one random game to the end; returns the number of actions. */
static int
ludo_random_game(const char *preset, int nplayers, uint64_t *seed)
{
	struct ludo_state	st, out;
	int			legal[LUDO_TOKENS];
	int			actions, dice, n, token;
	enum ludo_result	res;

	te_ludo_new(&st, preset, nplayers);
	for (actions = 0; st.winner == -1; actions++) {
		assert_true(actions < 20000);
		dice = te_rnd_dice(seed);
		n = ludo_legal(&st, dice, legal);
		token = n == 0 ? 0 : legal[te_rnd_int(seed, n)];
		if (te_rnd_int(seed, 16) == 0) {
			/* Now and then an action that must be refused. */
			int bad = n == 0 ? 1 + te_rnd_int(seed, 4) : 0;

			if (!(st.rules.three_sixes && st.sixes == 2 &&
			    dice == 6))
				te_ludo_expect_same(&st, st.turn, dice, bad,
				    LUDO_INVALID_MOVE);
			te_ludo_expect_same(&st, (st.turn + 1) % nplayers, dice,
			    token, LUDO_INVALID_MOVE);
		}
		res = ludo_play(&st, st.turn, dice, token, &out);
		if (st.rules.three_sixes && st.sixes == 2 && dice == 6)
			assert_int_equal(res, LUDO_FORFEITED);
		else if (n == 0)
			assert_int_equal(res, LUDO_PASSED);
		else
			assert_true(ludo_result_stored(res));
		ludo_check_step(&st, &out, dice, token, res);
		ludo_check_invariants(&out);
		st = out;
	}
	return actions;
}

void
test_ludo_play_random_games(void **unused)
{
	static const char *const presets[] = {
		"classic", "interview", "extended"
	};
	uint64_t	seed = 0x1234567887654321ULL;
	int		i, k;

	(void)unused;
	for (k = 0; k < 3; k++)
		for (i = 0; i < 1500; i++)
			ludo_random_game(presets[k], 2 + i % 3, &seed);
}

/* ---------------------------------------------------------------- bots */

void
test_bot_strategy_parse_names(void **unused)
{
	static const char *const names[] = { "first", "aggressive", "expert" };
	int	i;

	(void)unused;
	for (i = 0; i < BOT_STRATEGIES; i++) {
		assert_string_equal(bot_strategy_name(i), names[i]);
		assert_int_equal(bot_strategy_parse(names[i]), i);
	}
	assert_int_equal(BOT_FIRST, 0);
	assert_int_equal(BOT_AGGRESSIVE, 1);
	assert_int_equal(BOT_EXPERT, 2);
	assert_null(bot_strategy_name(BOT_STRATEGIES));
	assert_null(bot_strategy_name(-1));
	assert_int_equal(bot_strategy_parse("Expert"), -1);
	assert_int_equal(bot_strategy_parse(""), -1);
	assert_int_equal(bot_strategy_parse(NULL), -1);
}

void
test_ludo_bot_choose_no_move(void **unused)
{
	struct ludo_state	st;
	int			s;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	for (s = 0; s < BOT_STRATEGIES; s++) {
		/* All in the yard and no six: pass. */
		assert_int_equal(ludo_bot_choose(&st, 3, s), 0);
		assert_int_equal(ludo_bot_choose(&st, 0, s), 0);
		assert_int_equal(ludo_bot_choose(&st, 7, s), 0);
		assert_int_not_equal(ludo_bot_choose(&st, 6, s), 0);
	}
	assert_int_equal(ludo_bot_choose(&st, 6, (enum bot_strategy)3), 0);
	assert_int_equal(ludo_bot_choose(&st, 6, (enum bot_strategy)-1), 0);
	st.winner = 0;
	st.turn = -1;
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_EXPERT), 0);
}

void
test_ludo_bot_choose_first(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 58;
	st.pos[0][1] = 55;
	st.pos[0][2] = 10;
	assert_int_equal(ludo_bot_choose(&st, 3, BOT_FIRST), 2);
	assert_int_equal(ludo_bot_choose(&st, 4, BOT_FIRST), 3);
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_FIRST), 3);
}

void
test_ludo_bot_choose_aggressive(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 8;
	st.pos[0][2] = 40;
	st.pos[0][3] = 20;
	st.pos[1][0] = 1;	/* absolute 14 = red's 8 + 6 */
	/* A capture first ... */
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_AGGRESSIVE), 1);
	/* ... then leaving the yard ... */
	st.pos[1][0] = LUDO_YARD;
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_AGGRESSIVE), 2);
	/* ... then the token that lands furthest. */
	assert_int_equal(ludo_bot_choose(&st, 3, BOT_AGGRESSIVE), 3);
	/* More captures are better than fewer. */
	st.pos[1][0] = 1;
	st.pos[1][1] = 17;	/* absolute 30 = red's 24 + 6 */
	st.pos[1][2] = 17;
	st.pos[0][3] = 24;
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_AGGRESSIVE), 4);
	/* Ties go to the lowest token. */
	te_ludo_new(&st, "classic", 2);
	st.pos[0][1] = 30;
	st.pos[0][3] = 30;
	assert_int_equal(ludo_bot_choose(&st, 2, BOT_AGGRESSIVE), 2);
	assert_int_equal(ludo_bot_choose(&st, 2, BOT_FIRST), 2);
}

void
test_ludo_bot_choose_expert_obvious(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	/* A free capture beats a quiet move (the lower token). */
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 30;
	st.pos[0][1] = 10;
	st.pos[1][0] = 40;	/* absolute 1 */
	st.pos[1][1] = 1;	/* absolute 14 = red's 10 + 4 */
	assert_int_equal(ludo_bot_choose(&st, 4, BOT_EXPERT), 2);
	/* Red's 20 is three squares ahead of blue's token on absolute 17:
	 * stepping onto the safe 21 beats the same step by token 1. */
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 2;
	st.pos[0][1] = 20;
	st.pos[1][0] = 4;	/* absolute 17 */
	assert_int_equal(ludo_bot_choose(&st, 1, BOT_FIRST), 1);
	assert_int_equal(ludo_bot_choose(&st, 1, BOT_EXPERT), 2);
}

/* Bots of every kind play whole games: always a legal token, always an end. */
void
test_ludo_bot_choose_random_games(void **unused)
{
	static const char *const presets[] = {
		"classic", "interview", "extended"
	};
	struct ludo_state	st, out;
	uint64_t		seed = 0x5eed5eed5eedULL;
	enum bot_strategy	seat[LUDO_MAX_PLAYERS];
	int			legal[LUDO_TOKENS];
	int			g, k, p, n, i, dice, token, actions, found;

	(void)unused;
	for (k = 0; k < 3; k++) {
		for (g = 0; g < 150; g++) {
			te_ludo_new(&st, presets[k], 2 + g % 3);
			for (p = 0; p < st.nplayers; p++)
				seat[p] = (enum bot_strategy)te_rnd_int(&seed,
				    BOT_STRATEGIES);
			for (actions = 0; st.winner == -1; actions++) {
				assert_true(actions < 20000);
				dice = te_rnd_dice(&seed);
				n = ludo_legal(&st, dice, legal);
				token = ludo_bot_choose(&st, dice,
				    seat[st.turn]);
				found = n == 0 && token == 0;
				for (i = 0; i < n; i++)
					found |= legal[i] == token;
				assert_true(found);
				assert_true(ludo_result_stored(ludo_play(&st,
				    st.turn, dice, token, &out)));
				ludo_check_invariants(&out);
				st = out;
			}
		}
	}
}
