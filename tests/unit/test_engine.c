/*
 * Rules engine tests: every seed example byte for byte, the cases that
 * tell the Ludo presets apart, Snake & Ladder setup validation, and
 * property tests over thousands of seeded random games per kind.
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

#define LINE_MAX_LEN	128
#define STATE_LINES	(2 + LUDO_MAX_PLAYERS * LUDO_TOKENS)

/* ------------------------------------------------------------ helpers */

/* xorshift64: small, seeded, so every random test replays exactly. */
static uint64_t
rnd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
rnd_int(uint64_t *s, int n)
{
	return (int)(rnd_next(s) % (uint64_t)n);
}

static int
rnd_dice(uint64_t *s)
{
	return 1 + rnd_int(s, 6);
}

/* Seed 000's getGameState, built from a snapshot and the player names. */
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

static void
ludo_new(struct ludo_state *st, const char *preset, int nplayers)
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
static void
ludo_expect_same(const struct ludo_state *st, int player, int dice,
    int token, enum ludo_result want)
{
	struct ludo_state	out;

	memset(&out, 0x5a, sizeof(out));
	assert_int_equal(ludo_play(st, player, dice, token, &out), want);
	assert_memory_equal(&out, st, sizeof(out));
}

/* A game's snake/ladder result as seed 004 prints it. */
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
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
	ludo_expect_same(&st, 0, 3, 1, LUDO_INVALID_MOVE);
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
	ludo_new(&st, "interview", 2);
	st.pos[0][0] = 55;
	st.pos[0][1] = 10;
	ludo_expect_same(&st, 0, 3, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 2, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 57);
	assert_int_equal(out.turn, 1);
	/* A finished token cannot move again. */
	out.turn = 0;
	ludo_expect_same(&out, 0, 1, 1, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_classic_finishes_at_58(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 55;
	st.pos[0][1] = 10;
	ludo_expect_same(&st, 0, 4, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 2, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 57);
	assert_int_equal(ludo_play(&st, 0, 3, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 58);
	out.turn = 0;
	ludo_expect_same(&out, 0, 1, 1, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_extended_geometry(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Relative 51 is in the lane in extended, on the track in classic:
	 * blue's token at relative 38 stands on absolute 51. */
	ludo_new(&st, "extended", 2);
	st.pos[0][0] = 45;
	st.pos[1][0] = 38;
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out), LUDO_MOVED);
	assert_int_equal(out.pos[0][0], 51);
	assert_int_equal(out.pos[1][0], 38);
	assert_string_equal(ludo_location(&out.rules, 51), "HOME");

	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 45;
	st.pos[1][0] = 38;
	assert_int_equal(ludo_play(&st, 0, 6, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.pos[1][0], LUDO_YARD);

	/* Extended: relative 50 is still track and captures. */
	ludo_new(&st, "extended", 2);
	st.pos[0][0] = 47;
	st.pos[1][0] = 37;	/* (13 + 37) % 52 = 50 */
	assert_int_equal(ludo_play(&st, 0, 3, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.pos[1][0], LUDO_YARD);

	/* The lane ends at 55, the token finishes at 56. */
	ludo_new(&st, "extended", 2);
	st.pos[0][0] = 52;
	st.pos[0][1] = 0;
	ludo_expect_same(&st, 0, 5, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out), LUDO_TOKEN_FINISHED);
	assert_int_equal(out.pos[0][0], 56);
}

static void
test_ludo_play_capture_bonus(void **unused)
{
	struct ludo_state	st, out;

	(void)unused;
	/* Red 10 + 4 lands on absolute 14, blue's relative 1. */
	ludo_new(&st, "extended", 2);
	st.pos[0][0] = 10;
	st.pos[1][0] = 1;
	assert_int_equal(ludo_play(&st, 0, 4, 1, &out),
	    LUDO_MOVED_AND_CAPTURED);
	assert_int_equal(out.turn, 0);
	assert_int_equal(out.sixes, 0);

	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "extended", 2);
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
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 53;
	st.pos[0][1] = 54;
	st.pos[0][2] = 55;
	st.pos[0][3] = 58;
	assert_int_equal(ludo_legal(&st, 6, legal), 0);
	ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	assert_int_equal(ludo_play(&st, 0, 6, 0, &out), LUDO_PASSED);
	assert_int_equal(out.turn, 1);		/* even on a six */
	assert_int_equal(out.sixes, 0);

	/* A pass while a move exists is refused. */
	ludo_expect_same(&st, 0, 3, 0, LUDO_INVALID_MOVE);
}

static void
test_ludo_play_order_of_checks(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	ludo_new(&st, "classic", 3);
	ludo_expect_same(&st, 3, 6, 1, LUDO_NO_PLAYER);
	ludo_expect_same(&st, -1, 6, 1, LUDO_NO_PLAYER);
	ludo_expect_same(&st, 1, 6, 1, LUDO_INVALID_MOVE);
	ludo_expect_same(&st, 0, 0, 1, LUDO_INVALID_MOVE);
	ludo_expect_same(&st, 0, 7, 1, LUDO_INVALID_MOVE);
	ludo_expect_same(&st, 0, 6, 5, LUDO_INVALID_MOVE);
	ludo_expect_same(&st, 0, 6, -1, LUDO_INVALID_MOVE);

	/* GAME_OVER comes before the player and token checks. */
	st.winner = 1;
	st.turn = -1;
	ludo_expect_same(&st, 7, 9, 9, LUDO_GAME_OVER);
	ludo_expect_same(&st, 1, 6, 1, LUDO_GAME_OVER);
	ludo_expect_same(&st, 0, 6, 0, LUDO_GAME_OVER);
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
	ludo_new(&st, "classic", 2);
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
	ludo_expect_same(&st, 1, 3, 1, LUDO_GAME_OVER);
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
		ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 4);
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
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
	/* From the yard only a six, and onto 0, not 6. */
	ludo_expect_same(&st, 0, 5, 2, LUDO_INVALID_MOVE);
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
	ludo_new(&st, "classic", 2);
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
		ludo_new(&st, "classic", 2 + rnd_int(&seed, 3));
		for (k = rnd_int(&seed, 4); k >= 0; k--)
			b[rnd_int(&seed, (int)sizeof(st))] =
			    (unsigned char)rnd_next(&seed);
		res = ludo_play(&st, rnd_int(&seed, 6) - 1,
		    rnd_int(&seed, 9) - 1, rnd_int(&seed, 7) - 1, &out);
		assert_true(res >= LUDO_MOVED && res <= LUDO_NO_PLAYER);
		if (!ludo_result_stored((enum ludo_result)res))
			assert_memory_equal(&out, &st, sizeof(st));
		k = ludo_legal(&st, rnd_dice(&seed), legal);
		assert_true(k >= 0 && k <= LUDO_TOKENS);
	}
	/* Plainly broken snapshots are refused. */
	ludo_new(&st, "classic", 2);
	st.nplayers = 9;
	ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	ludo_new(&st, "classic", 2);
	st.turn = 2;
	ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	ludo_new(&st, "classic", 2);
	st.pos[1][2] = 59;
	ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
	ludo_new(&st, "classic", 2);
	st.rules.preset = 3;
	ludo_expect_same(&st, 0, 6, 1, LUDO_INVALID_MOVE);
}

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

	ludo_new(&st, preset, nplayers);
	for (actions = 0; st.winner == -1; actions++) {
		assert_true(actions < 20000);
		dice = rnd_dice(seed);
		n = ludo_legal(&st, dice, legal);
		token = n == 0 ? 0 : legal[rnd_int(seed, n)];
		if (rnd_int(seed, 16) == 0) {
			/* Now and then an action that must be refused. */
			int bad = n == 0 ? 1 + rnd_int(seed, 4) : 0;

			if (!(st.rules.three_sixes && st.sixes == 2 &&
			    dice == 6))
				ludo_expect_same(&st, st.turn, dice, bad,
				    LUDO_INVALID_MOVE);
			ludo_expect_same(&st, (st.turn + 1) % nplayers, dice,
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

static void
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

/* ---------------------------------------------------- Snake & Ladder */

static void
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

static void
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

static void
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

static void
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

static void
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

static void
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

static void
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

	assert_int_equal(snl_init(&st, 1 + rnd_int(seed, 6)), 0);
	/* At most five snakes: no six cells in a row can all be heads, so
	 * every game can still be won. */
	for (i = rnd_int(seed, 20); i > 0; i--) {
		int a = 1 + rnd_int(seed, 99), b = 1 + rnd_int(seed, 100);

		if (a > b && snakes < 5)
			snakes += snl_add_snake(&st, a, b, &why) == 0;
		else if (a < b)
			(void)snl_add_ladder(&st, a, b, &why);
	}
	for (rolls = 0; st.winner == -1; rolls++) {
		assert_true(rolls < 100000);
		mover = st.turn;
		assert_int_equal(snl_roll(&st, rnd_dice(seed), &out, &r), 0);
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

static void
test_snl_roll_random_games(void **unused)
{
	uint64_t	seed = 0xdeadbeefcafef00dULL;
	int		i;

	(void)unused;
	for (i = 0; i < 3000; i++)
		snl_random_game(&seed);
}

static void
test_snl_roll_garbage_snapshot(void **unused)
{
	struct snl_state	st, out;
	struct snl_result	r;
	uint64_t		seed = 42;
	unsigned char		*b = (unsigned char *)&st;
	int			i, k;

	(void)unused;
	for (i = 0; i < 20000; i++) {
		snl_init(&st, 1 + rnd_int(&seed, SNL_MAX_PLAYERS));
		for (k = rnd_int(&seed, 4); k >= 0; k--)
			b[rnd_int(&seed, (int)sizeof(st))] =
			    (unsigned char)rnd_next(&seed);
		if (snl_roll(&st, rnd_dice(&seed), &out, &r) == 0)
			assert_true(r.outcome == SNL_GAME_OVER ||
			    (r.pos >= 0 && r.pos <= 100));
	}
}

/* ----------------------------------------------------------- DandyLand */

static void
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
static void
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

static void
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

static void
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

static void
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
 * A second, deliberately naive model of seed 003: it walks one square at a
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

	nplayers = 1 + rnd_int(seed, DANDY_MAX_PLAYERS);
	blen = 1 + rnd_int(seed, DANDY_BOARD_MAX);
	/* A few letters per board, so that some cards match nothing. */
	k = 1 + rnd_int(seed, 9);
	for (i = 0; i < blen; i++)
		board[i] = (char)('a' + rnd_int(seed, k));
	board[blen] = '\0';
	dlen = rnd_int(seed, 4) == 0 ? rnd_int(seed, DANDY_DECK_MAX + 1) :
	    rnd_int(seed, 51);
	for (i = 0; i < dlen; i++)
		deck[i] = cards[rnd_int(seed, 18)];
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

static void
test_dandy_draw_random_games(void **unused)
{
	uint64_t	seed = 0x0123456789abcdefULL;
	int		i;

	(void)unused;
	for (i = 0; i < 3000; i++)
		dandy_random_game(&seed);
}

static void
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
		assert_int_equal(dandy_init(&st, 1 + rnd_int(&seed, 8),
		    "abcab", i % 2 ? "a1b2c3d" : NULL, &why), 0);
		for (k = rnd_int(&seed, 4); k >= 0; k--) {
			/* Mostly the small fields in front of the deck. */
			size_t off = rnd_int(&seed, 2) ?
			    (size_t)rnd_int(&seed, (int)offsetof(
			    struct dandy_state, deck)) :
			    (size_t)rnd_int(&seed, (int)sizeof(st));

			b[off] = (unsigned char)rnd_next(&seed);
		}
		if (dandy_draw(&st, i % 2 ? 0 : 'a', &out, &r) == 0)
			assert_true(r.game_over || (r.pos >= -1 &&
			    r.pos < st.board_len));
	}
}

/* ---------------------------------------------------------------- bots */

static void
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

static void
test_ludo_bot_choose_no_move(void **unused)
{
	struct ludo_state	st;
	int			s;

	(void)unused;
	ludo_new(&st, "classic", 2);
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

static void
test_ludo_bot_choose_first(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 58;
	st.pos[0][1] = 55;
	st.pos[0][2] = 10;
	assert_int_equal(ludo_bot_choose(&st, 3, BOT_FIRST), 2);
	assert_int_equal(ludo_bot_choose(&st, 4, BOT_FIRST), 3);
	assert_int_equal(ludo_bot_choose(&st, 6, BOT_FIRST), 3);
}

static void
test_ludo_bot_choose_aggressive(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	ludo_new(&st, "classic", 2);
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
	ludo_new(&st, "classic", 2);
	st.pos[0][1] = 30;
	st.pos[0][3] = 30;
	assert_int_equal(ludo_bot_choose(&st, 2, BOT_AGGRESSIVE), 2);
	assert_int_equal(ludo_bot_choose(&st, 2, BOT_FIRST), 2);
}

static void
test_ludo_bot_choose_expert_obvious(void **unused)
{
	struct ludo_state	st;

	(void)unused;
	/* A free capture beats a quiet move (the lower token). */
	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 30;
	st.pos[0][1] = 10;
	st.pos[1][0] = 40;	/* absolute 1 */
	st.pos[1][1] = 1;	/* absolute 14 = red's 10 + 4 */
	assert_int_equal(ludo_bot_choose(&st, 4, BOT_EXPERT), 2);
	/* Red's 20 is three squares ahead of blue's token on absolute 17:
	 * stepping onto the safe 21 beats the same step by token 1. */
	ludo_new(&st, "classic", 2);
	st.pos[0][0] = 2;
	st.pos[0][1] = 20;
	st.pos[1][0] = 4;	/* absolute 17 */
	assert_int_equal(ludo_bot_choose(&st, 1, BOT_FIRST), 1);
	assert_int_equal(ludo_bot_choose(&st, 1, BOT_EXPERT), 2);
}

/* Bots of every kind play whole games: always a legal token, always an end. */
static void
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
			ludo_new(&st, presets[k], 2 + g % 3);
			for (p = 0; p < st.nplayers; p++)
				seat[p] = (enum bot_strategy)rnd_int(&seed,
				    BOT_STRATEGIES);
			for (actions = 0; st.winner == -1; actions++) {
				assert_true(actions < 20000);
				dice = rnd_dice(&seed);
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
