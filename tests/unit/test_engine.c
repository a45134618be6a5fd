/*
 * Rules engine tests: every seed example byte for byte, the cases that
 * tell the Ludo presets apart, Snake & Ladder setup validation, and
 * property tests over thousands of seeded random games per kind.
 * property tests over thousands of seeded random games per kind.
 * Snake & Ladder and DandyLand are in test_engine_snl_dandy.c, random
 * Ludo games and the bots in test_engine_bot.c.
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

#define STATE_LINES	(2 + LUDO_MAX_PLAYERS * LUDO_TOKENS)

/* ------------------------------------------------------------ helpers */

/* xorshift64: small, seeded, so every random test replays exactly. */
uint64_t
te_rnd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int
te_rnd_int(uint64_t *s, int n)
{
	return (int)(te_rnd_next(s) % (uint64_t)n);
}

int
te_rnd_dice(uint64_t *s)
{
	return 1 + te_rnd_int(s, 6);
}

/* The reference API's getGameState, built from a snapshot and the player names. */
static int
ludo_lines(const struct ludo_state *st, const char *const names[],
    char lines[STATE_LINES][LINE_MAX_LEN])
{
	int	n = 0, p, t;

	snprintf(lines[n++], LINE_MAX_LEN, "turn,%s",
	    st->turn == -1 ? "NONE" : names[st->turn]);
	snprintf(lines[n++], LINE_MAX_LEN, "winner,%s",
	    st->winner == -1 ? "NONE" : names[st->winner]);
	for (p = 0; p < st->nplayers; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			snprintf(lines[n++], LINE_MAX_LEN, "%s,%d,%s,%d",
			    names[p], t + 1,
			    ludo_location(&st->rules, st->pos[p][t]),
			    st->pos[p][t]);
	return n;
}

static void
assert_ludo_lines(const struct ludo_state *st, const char *const names[],
    const char *const want[], int nwant)
{
	char	lines[STATE_LINES][LINE_MAX_LEN];
	int	i, n;

	n = ludo_lines(st, names, lines);
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_string_equal(lines[i], want[i]);
}

void
te_ludo_new(struct ludo_state *st, const char *preset, int nplayers)
{
	struct ludo_rules	rules;

	assert_int_equal(ludo_rules_preset(&rules, preset), 0);
	assert_int_equal(ludo_init(st, &rules, nplayers), 0);
}

/* Plays one action and checks its status string. */
static void
ludo_expect(struct ludo_state *st, int player, int dice, int token,
    const char *want)
{
	struct ludo_state	out;

	assert_string_equal(ludo_result_str(
	    ludo_play(st, player, dice, token, &out)), want);
	*st = out;
}

/* An unchanged snapshot: the result must leave out equal to in. */
void
te_ludo_expect_same(const struct ludo_state *st, int player, int dice,
    int token, enum ludo_result want)
{
	struct ludo_state	out;

	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(ludo_play(st, player, dice, token, &out), want);
	assert_memory_equal(&out, st, sizeof(out));
}

/* ------------------------------------------------ Ludo: seed examples */

static void
test_ludo_play_seed_example1(void **unused)
{
	static const char *const names[] = { "red", "blue" };
	static const char *const want[] = {
		"turn,red", "winner,NONE", "red,1,TRACK,3", "red,2,YARD,-1",
		"red,3,YARD,-1", "red,4,YARD,-1", "blue,1,YARD,-1",
		"blue,2,YARD,-1", "blue,3,YARD,-1", "blue,4,YARD,-1"
	};
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	ludo_expect(&st, 0, 6, 1, "MOVED");
	assert_int_equal(st.turn, 0);	/* a six: red again */
	ludo_expect(&st, 0, 3, 1, "MOVED");
	ludo_expect(&st, 1, 4, 0, "PASSED");
	assert_ludo_lines(&st, names, want, 10);
}

static void
test_ludo_play_seed_example2(void **unused)
{
	static const char *const names[] = { "alpha", "beta" };
	static const char *const want[] = {
		"turn,alpha", "winner,NONE", "alpha,1,YARD,-1",
		"alpha,2,YARD,-1", "alpha,3,YARD,-1", "alpha,4,YARD,-1",
		"beta,1,TRACK,1", "beta,2,YARD,-1", "beta,3,YARD,-1",
		"beta,4,YARD,-1"
	};
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 2, 1, "MOVED");
	assert_int_equal(st.pos[0][0], 14);
	ludo_expect(&st, 1, 6, 1, "MOVED");
	ludo_expect(&st, 1, 1, 1, "MOVED_AND_CAPTURED");
	assert_ludo_lines(&st, names, want, 10);
}

static void
test_ludo_play_seed_example3(void **unused)
{
	static const char *const names[] = { "sun", "moon" };
	static const char *const want[] = {
		"turn,moon", "winner,NONE", "sun,1,YARD,-1", "sun,2,YARD,-1",
		"sun,3,YARD,-1", "sun,4,YARD,-1", "moon,1,YARD,-1",
		"moon,2,YARD,-1", "moon,3,YARD,-1", "moon,4,YARD,-1"
	};
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	te_ludo_expect_same(&st, 0, 3, 1, LUDO_INVALID_MOVE);
	assert_int_equal(st.turn, 0);
	ludo_expect(&st, 0, 3, 0, "PASSED");
	assert_ludo_lines(&st, names, want, 10);
}

/* ---------------------------------------------- Ludo: presets and API */

static void
test_ludo_rules_preset_values(void **unused)
{
	struct ludo_rules	r;

	(void)unused;
	assert_int_equal(ludo_rules_preset(&r, "classic"), 0);
	assert_int_equal(r.preset, LUDO_CLASSIC);
	assert_true(r.six_bonus && !r.capture_bonus && !r.three_sixes);
	assert_int_equal(ludo_last_track(&r), 51);
	assert_int_equal(ludo_finish(&r), 58);

	assert_int_equal(ludo_rules_preset(&r, "interview"), 0);
	assert_int_equal(r.preset, LUDO_INTERVIEW);
	assert_true(r.six_bonus && !r.capture_bonus && !r.three_sixes);
	assert_int_equal(ludo_last_track(&r), 51);
	assert_int_equal(ludo_finish(&r), 57);

	assert_int_equal(ludo_rules_preset(&r, "extended"), 0);
	assert_int_equal(r.preset, LUDO_EXTENDED);
	assert_true(r.six_bonus && r.capture_bonus && r.three_sixes);
	assert_int_equal(ludo_last_track(&r), 50);
	assert_int_equal(ludo_finish(&r), 56);

	assert_int_equal(ludo_rules_preset(&r, "Classic"), -1);
	assert_int_equal(ludo_rules_preset(&r, ""), -1);
	assert_string_equal(ludo_preset_name(LUDO_CLASSIC), "classic");
	assert_string_equal(ludo_preset_name(LUDO_INTERVIEW), "interview");
	assert_string_equal(ludo_preset_name(LUDO_EXTENDED), "extended");
	assert_null(ludo_preset_name(3));
	assert_null(ludo_preset_name(-1));
}

static void
test_ludo_location_presets(void **unused)
{
	struct ludo_rules	c, i, e;

	(void)unused;
	ludo_rules_preset(&c, "classic");
	ludo_rules_preset(&i, "interview");
	ludo_rules_preset(&e, "extended");
	assert_string_equal(ludo_location(&c, -1), "YARD");
	assert_string_equal(ludo_location(&c, 0), "TRACK");
	assert_string_equal(ludo_location(&c, 51), "TRACK");
	assert_string_equal(ludo_location(&c, 52), "HOME");
	assert_string_equal(ludo_location(&c, 57), "HOME");
	assert_string_equal(ludo_location(&c, 58), "FINISHED");
	assert_null(ludo_location(&c, 59));
	assert_null(ludo_location(&c, -2));

	assert_string_equal(ludo_location(&i, 51), "TRACK");
	assert_string_equal(ludo_location(&i, 56), "HOME");
	assert_string_equal(ludo_location(&i, 57), "FINISHED");
	assert_null(ludo_location(&i, 58));

	assert_string_equal(ludo_location(&e, 50), "TRACK");
	assert_string_equal(ludo_location(&e, 51), "HOME");
	assert_string_equal(ludo_location(&e, 55), "HOME");
	assert_string_equal(ludo_location(&e, 56), "FINISHED");
	assert_null(ludo_location(&e, 57));
}

static void
test_ludo_init_players(void **unused)
{
	struct ludo_state	st;
	int			p, t;

	(void)unused;
	assert_int_equal(ludo_init(&st, NULL, 1), -1);
	assert_int_equal(ludo_init(&st, NULL, 5), -1);
	assert_int_equal(ludo_init(&st, NULL, 4), 0);
	assert_int_equal(st.rules.preset, LUDO_CLASSIC);
	assert_int_equal(st.turn, 0);
	assert_int_equal(st.winner, -1);
	assert_int_equal(st.sixes, 0);
	for (p = 0; p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			assert_int_equal(st.pos[p][t], LUDO_YARD);
}

static void
test_ludo_result_str_roundtrip(void **unused)
{
	static const char *const names[] = {
		"MOVED", "MOVED_AND_CAPTURED", "TOKEN_FINISHED", "PLAYER_WON",
		"PASSED", "FORFEITED", "INVALID_MOVE", "GAME_OVER", "NO_PLAYER"
	};
	int	i;

	(void)unused;
	for (i = 0; i <= LUDO_NO_PLAYER; i++) {
		assert_string_equal(ludo_result_str((enum ludo_result)i),
		    names[i]);
		assert_int_equal(ludo_result_parse(names[i]), i);
		assert_int_equal(ludo_result_stored((enum ludo_result)i),
		    i <= LUDO_FORFEITED);
	}
	assert_null(ludo_result_str((enum ludo_result)(LUDO_NO_PLAYER + 1)));
	assert_int_equal(ludo_result_parse("moved"), -1);
	assert_int_equal(ludo_result_parse(""), -1);
	assert_int_equal(ludo_result_parse(NULL), -1);
}

static void
test_ludo_play_interview_finishes_at_57(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	te_ludo_new(&st, "interview", 2);
	st.pos[0][0] = 55;
	st.pos[0][1] = 10;
	te_ludo_expect_same(&st, 0, 3, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 2, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 57);
	assert_int_equal(out.turn, 1);
	/* A finished token cannot move again. */
	out.turn = 0;
	te_ludo_expect_same(&out, 0, 1, 1, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_classic_finishes_at_58(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 55;
	st.pos[0][1] = 10;
	te_ludo_expect_same(&st, 0, 4, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 2, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 57);
	assert_int_equal(ludo_play(&st, 0, 3, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 58);
	out.turn = 0;
	te_ludo_expect_same(&out, 0, 1, 1, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_extended_geometry(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Relative 51 is in the lane in extended, on the track in classic:
	 * blue's token at relative 38 stands on absolute 51. */
	te_ludo_new(&st, "extended", 2);
	st.pos[0][0] = 45;
	st.pos[1][0] = 38;
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 51);
	assert_int_equal(out.pos[1][0], 38);
	assert_string_equal(ludo_location(&out.rules, 51), "HOME");

	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 45;
	st.pos[1][0] = 38;
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.pos[1][0], LUDO_YARD);

	/* Extended: relative 50 is still track and captures. */
	te_ludo_new(&st, "extended", 2);
	st.pos[0][0] = 47;
	st.pos[1][0] = 37;	/* (13 + 37) % 52 = 50 */
	assert_int_equal(ludo_play(&st, 0, 3, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.pos[1][0], LUDO_YARD);

	/* The lane ends at 55, the token finishes at 56. */
	te_ludo_new(&st, "extended", 2);
	st.pos[0][0] = 52;
	st.pos[0][1] = 0;
	te_ludo_expect_same(&st, 0, 5, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 56);
}

static void
test_ludo_play_capture_bonus(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Red 10 + 4 lands on absolute 14, blue's relative 1. */
	te_ludo_new(&st, "extended", 2);
	st.pos[0][0] = 10;
	st.pos[1][0] = 1;
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.turn, 0);
	assert_int_equal(out.sixes, 0);

	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 10;
	st.pos[1][0] = 1;
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.turn, 1);

	/* In classic a capturing six keeps the turn through the six alone. */
	st.pos[0][0] = 8;
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.turn, 0);
	assert_int_equal(out.sixes, 1);
}

static void
test_ludo_play_third_six_forfeits(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	te_ludo_new(&st, "extended", 2);
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 6, 1, "MOVED");
	assert_int_equal(st.sixes, 2);
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out), LUDO_FORFEITED);
	assert_memory_equal(out.pos, st.pos, sizeof(st.pos));
	assert_int_equal(out.turn, 1);
	assert_int_equal(out.sixes, 0);
	/* Whatever token was asked for, even a pass or a finished one. */
	assert_int_equal(ludo_play(&st, 0, 6, 0, &out), LUDO_FORFEITED);
	assert_int_equal(ludo_play(&st, 0, 6, 4, &out), LUDO_FORFEITED);
	/* A non-six third roll is played as usual and resets the count. */
	assert_int_equal(ludo_play(&st, 0, 5, 1, &out), LUDO_MOVED);
	assert_int_equal(out.turn, 1);
	assert_int_equal(out.sixes, 0);

	/* Classic has no penalty: the third six moves and counts on. */
	te_ludo_new(&st, "classic", 2);
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 6, 1, "MOVED");
	ludo_expect(&st, 0, 6, 1, "MOVED");
	assert_int_equal(st.pos[0][0], 12);
	assert_int_equal(st.turn, 0);
	assert_int_equal(st.sixes, 3);
}

static void
test_ludo_play_pass(void **unused)
{
	struct ludo_state	st, out;
	int			legal[LUDO_TOKENS];

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 53;
	st.pos[0][1] = 54;
	st.pos[0][2] = 55;
	st.pos[0][3] = 58;
	assert_int_equal(ludo_legal(&st, 6, legal), 0);
	te_ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 6, 0, &out), LUDO_PASSED);
	assert_int_equal(out.turn, 1);		/* even on a six */
	assert_int_equal(out.sixes, 0);

	/* A pass while a move exists is refused. */
	te_ludo_expect_same(&st, 0, 3, 0, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_order_of_checks(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	te_ludo_new(&st, "classic", 3);
	te_ludo_expect_same(&st, 3, 6, 1, LUDO_NO_PLAYER);
	te_ludo_expect_same(&st, -1, 6, 1, LUDO_NO_PLAYER);
	te_ludo_expect_same(&st, 1, 6, 1, LUDO_INVALID_MOVE);
	te_ludo_expect_same(&st, 0, 0, 1, LUDO_INVALID_MOVE);
	te_ludo_expect_same(&st, 0, 7, 1, LUDO_INVALID_MOVE);
	te_ludo_expect_same(&st, 0, 6, 5, LUDO_INVALID_MOVE);
	te_ludo_expect_same(&st, 0, 6, -1, LUDO_INVALID_MOVE);

	/* GAME_OVER comes before the player and token checks. */
	st.winner = 1;
	st.turn = -1;
	te_ludo_expect_same(&st, 7, 9, 9, LUDO_GAME_OVER);
	te_ludo_expect_same(&st, 1, 6, 1, LUDO_GAME_OVER);
	te_ludo_expect_same(&st, 0, 6, 0, LUDO_GAME_OVER);
}

static void
test_ludo_play_player_won(void **unused)
{
	static const char *const names[] = { "red", "blue" };
	static const char *const want[] = {
		"turn,NONE", "winner,red", "red,1,FINISHED,58",
		"red,2,FINISHED,58", "red,3,FINISHED,58", "red,4,FINISHED,58",
		"blue,1,TRACK,20", "blue,2,YARD,-1", "blue,3,YARD,-1",
		"blue,4,YARD,-1"
	};
	struct ludo_state	st;
	int			legal[LUDO_TOKENS];

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 58;
	st.pos[0][1] = 58;
	st.pos[0][2] = 52;
	st.pos[0][3] = 58;
	st.pos[1][0] = 20;
	ludo_expect(&st, 0, 6, 3, "PLAYER_WON");
	assert_int_equal(st.winner, 0);
	assert_int_equal(st.turn, -1);		/* even after a six */
	assert_ludo_lines(&st, names, want, 10);
	assert_int_equal(ludo_legal(&st, 6, legal), 0);
	te_ludo_expect_same(&st, 1, 3, 1, LUDO_GAME_OVER);
}

static void
test_ludo_play_safe_squares(void **unused)
{
	static const int safe[] = { 0, 8, 13, 21, 26, 34, 39, 47 };
	struct ludo_state	st, out;
	int			i, cell, res;

	(void)unused;
	/* Red lands on every absolute cell where blue (offset 13) stands. */
	for (cell = 0; cell < LUDO_TRACK_CELLS; cell++) {
		int is_safe = 0;

		for (i = 0; i < 8; i++)
			is_safe |= safe[i] == cell;
		te_ludo_new(&st, "classic", 2);
		st.pos[1][0] = (int8_t)((cell - 13 + 52) % 52);
		if (cell < 3)
			continue;	/* red cannot land there by moving */
		st.pos[0][0] = (int8_t)(cell - 3);
		res = ludo_play(&st, 0, 3, 1, &out);
		if (is_safe) {
			assert_int_equal(res, LUDO_MOVED);
			assert_int_equal(out.pos[1][0], st.pos[1][0]);
		} else {
			assert_int_equal(res, LUDO_MOVED_AND_CAPTURED);
			assert_int_equal(out.pos[1][0], LUDO_YARD);
		}
	}
	/* Entering onto one's own start never captures (it is safe). */
	te_ludo_new(&st, "classic", 2);
	st.pos[1][0] = 39;	/* absolute 0 */
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[1][0], 39);
}

static void
test_ludo_play_multiple_capture(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Absolute 30 is relative 17 for blue, 4 for green, 43 for yellow. */
	te_ludo_new(&st, "classic", 4);
	st.pos[0][0] = 25;
	st.pos[0][1] = 30;	/* red's own token stays put */
	st.pos[1][0] = 17;
	st.pos[1][2] = 17;
	st.pos[2][3] = 4;
	st.pos[3][1] = 43;
	st.pos[3][2] = 44;	/* absolute 31: untouched */
	assert_int_equal(ludo_play(&st, 0, 5, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.pos[0][0], 30);
	assert_int_equal(out.pos[0][1], 30);
	assert_int_equal(out.pos[1][0], LUDO_YARD);
	assert_int_equal(out.pos[1][2], LUDO_YARD);
	assert_int_equal(out.pos[2][3], LUDO_YARD);
	assert_int_equal(out.pos[3][1], LUDO_YARD);
	assert_int_equal(out.pos[3][2], 44);
	assert_int_equal(out.turn, 1);
}

static void
test_ludo_play_home_lane_not_captured(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Blue's relative 53 would be absolute 14 if it were on the track. */
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 10;
	st.pos[1][0] = 53;
	st.pos[1][1] = 58;
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[1][0], 53);
	assert_int_equal(out.pos[1][1], 58);
	/* Nor does a lane move capture a track token on "the same" cell. */
	st.turn = 1;
	st.pos[1][0] = 50;
	st.pos[0][0] = 14;	/* absolute 14 */
	assert_int_equal(ludo_play(&st, 1, 3, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[1][0], 53);
	assert_int_equal(out.pos[0][0], 14);
}

static void
test_ludo_play_moves(void **unused)
{
	struct ludo_state	st, out;
	int			legal[LUDO_TOKENS];

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	/* From the yard only a six, and onto 0, not 6. */
	te_ludo_expect_same(&st, 0, 5, 2, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_legal(&st, 6, legal), 4);
	assert_int_equal(legal[0], 1);
	assert_int_equal(legal[3], 4);
	assert_int_equal(ludo_play(&st, 0, 6, 2, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][1], 0);

	/* Own tokens stack; opponents do not block. */
	st.pos[0][0] = 10;
	st.pos[0][1] = 14;
	st.pos[1][0] = 0;	/* absolute 13, safe, passed over */
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 14);
	assert_int_equal(out.pos[0][1], 14);
	assert_int_equal(out.pos[1][0], 0);
	assert_int_equal(ludo_legal(&st, 5, legal), 2);
	assert_int_equal(legal[0], 1);
	assert_int_equal(legal[1], 2);

	/* in and out may be the same snapshot. */
	out = st;
	assert_int_equal(ludo_play(&out, 0, 4, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 14);
	assert_int_equal(out.turn, 1);
}

static void
test_ludo_legal_bad_dice(void **unused)
{
	struct ludo_state	st;
	int			legal[LUDO_TOKENS];

	(void)unused;
	te_ludo_new(&st, "classic", 2);
	st.pos[0][0] = 5;
	assert_int_equal(ludo_legal(&st, 0, legal), 0);
	assert_int_equal(ludo_legal(&st, 7, legal), 0);
	assert_int_equal(ludo_legal(&st, 1, legal), 1);
	/* The current player's tokens, not player 0's. */
	st.turn = 1;
	assert_int_equal(ludo_legal(&st, 1, legal), 0);
}

/* Garbage snapshots: never a crash (run under ASan), never a change. */
static void
test_ludo_play_garbage_snapshot(void **unused)
{
	struct ludo_state	st, out;
	uint64_t		seed = 0x9e3779b97f4a7c15ULL;
	unsigned char		*b = (unsigned char *)&st;
	int			i, k, legal[LUDO_TOKENS], res;

	(void)unused;
	for (i = 0; i < 20000; i++) {
		te_ludo_new(&st, "classic", 2 + te_rnd_int(&seed, 3));
		for (k = te_rnd_int(&seed, 4); k >= 0; k--)
			b[te_rnd_int(&seed, (int)sizeof(st))] =
			    (unsigned char)te_rnd_next(&seed);
		res = ludo_play(&st, te_rnd_int(&seed, 6) - 1,
		    te_rnd_int(&seed, 9) - 1, te_rnd_int(&seed, 7) - 1, &out);
		assert_true(res >= LUDO_MOVED && res <= LUDO_NO_PLAYER);
		if (!ludo_result_stored((enum ludo_result)res))
			assert_memory_equal(&out, &st, sizeof(st));
		k = ludo_legal(&st, te_rnd_dice(&seed), legal);
		assert_true(k >= 0 && k <= LUDO_TOKENS);
	}
	/* Plainly broken snapshots are refused. */
	te_ludo_new(&st, "classic", 2);
	st.nplayers = 9;
	te_ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	te_ludo_new(&st, "classic", 2);
	st.turn = 2;
	te_ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	te_ludo_new(&st, "classic", 2);
	st.pos[1][2] = 59;
	te_ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	te_ludo_new(&st, "classic", 2);
	st.rules.preset = 3;
	te_ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ludo_play_seed_example1),
		cmocka_unit_test(test_ludo_play_seed_example2),
		cmocka_unit_test(test_ludo_play_seed_example3),
		cmocka_unit_test(test_ludo_rules_preset_values),
		cmocka_unit_test(test_ludo_location_presets),
		cmocka_unit_test(test_ludo_init_players),
		cmocka_unit_test(test_ludo_result_str_roundtrip),
		cmocka_unit_test(test_ludo_play_interview_finishes_at_57),
		cmocka_unit_test(test_ludo_play_classic_finishes_at_58),
		cmocka_unit_test(test_ludo_play_extended_geometry),
		cmocka_unit_test(test_ludo_play_capture_bonus),
		cmocka_unit_test(test_ludo_play_third_six_forfeits),
		cmocka_unit_test(test_ludo_play_pass),
		cmocka_unit_test(test_ludo_play_order_of_checks),
		cmocka_unit_test(test_ludo_play_player_won),
		cmocka_unit_test(test_ludo_play_safe_squares),
		cmocka_unit_test(test_ludo_play_multiple_capture),
		cmocka_unit_test(test_ludo_play_home_lane_not_captured),
		cmocka_unit_test(test_ludo_play_moves),
		cmocka_unit_test(test_ludo_legal_bad_dice),
		cmocka_unit_test(test_ludo_play_garbage_snapshot),
		cmocka_unit_test(test_ludo_play_random_games),
		cmocka_unit_test(test_snl_roll_seed_example1),
		cmocka_unit_test(test_snl_roll_seed_example2),
		cmocka_unit_test(test_snl_roll_overshoot),
		cmocka_unit_test(test_snl_roll_bad_value),
		cmocka_unit_test(test_snl_init_players),
		cmocka_unit_test(test_snl_add_validation),
		cmocka_unit_test(test_snl_roll_jumps_once),
		cmocka_unit_test(test_snl_roll_random_games),
		cmocka_unit_test(test_snl_roll_garbage_snapshot),
		cmocka_unit_test(test_dandy_play_seed_examples),
		cmocka_unit_test(test_dandy_draw_walkthrough),
		cmocka_unit_test(test_dandy_draw_deck_rules),
		cmocka_unit_test(test_dandy_draw_moves),
		cmocka_unit_test(test_dandy_init_validation),
		cmocka_unit_test(test_dandy_draw_random_games),
		cmocka_unit_test(test_dandy_draw_garbage_snapshot),
		cmocka_unit_test(test_bot_strategy_parse_names),
		cmocka_unit_test(test_ludo_bot_choose_no_move),
		cmocka_unit_test(test_ludo_bot_choose_first),
		cmocka_unit_test(test_ludo_bot_choose_aggressive),
		cmocka_unit_test(test_ludo_bot_choose_expert_obvious),
		cmocka_unit_test(test_ludo_bot_choose_random_games),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
