/*
 * Ludo rules, in three presets: classic, and the interview and extended
 * variants (lane lengths, bonus turns, the third six).
 *
 * Positions are relative to each player's entry square: -1 is the yard,
 * 0..last_track the common track, then the private home lane, and
 * "finish" the finished square.  Only a track position has an absolute
 * cell, (13 * player + pos) % 52, and only absolute cells can capture.
 *
 * Snapshots may come from a file or a fuzzer, so every entry point checks
 * the snapshot before it uses a field as an index.
 */
#include <stddef.h>
#include <string.h>

#include "engine/engine.h"

struct ludo_geometry {
	const char	*name;
	int		 last_track;
	int		 finish;
	uint8_t		 capture_bonus;
	uint8_t		 three_sixes;
};

/* Indexed by enum ludo_preset.  six_bonus is on in every preset. */
static const struct ludo_geometry presets[] = {
	{ "classic",	51, 58, 0, 0 },
	{ "interview",	51, 57, 0, 0 },
	{ "extended",	50, 56, 1, 1 },
};
#define NPRESETS	((int)(sizeof(presets) / sizeof(presets[0])))

static const char *const result_names[] = {
	"MOVED",
	"MOVED_AND_CAPTURED",
	"TOKEN_FINISHED",
	"PLAYER_WON",
	"PASSED",
	"FORFEITED",
	"INVALID_MOVE",
	"GAME_OVER",
	"NO_PLAYER",
};
#define NRESULTS	((int)(sizeof(result_names) / sizeof(result_names[0])))

/*
 * A run of sixes is bounded (a player's own tokens only move forward
 * during the run, about 45 moves at most); anything far above is garbage,
 * and refusing it keeps sixes + 1 from overflowing.
 */
#define LUDO_SIXES_MAX	1000

/* Safe absolute cells: each entry square and the star eight past it. */
static int
ludo_safe(int cell)
{
	return cell % LUDO_ENTRY_STEP == 0 || cell % LUDO_ENTRY_STEP == 8;
}

/* An unknown preset reads as classic; ludo_valid() refuses it anyway. */
static const struct ludo_geometry *
geometry(const struct ludo_rules *rules)
{
	if (rules == NULL || rules->preset >= NPRESETS)
		return &presets[LUDO_CLASSIC];
	return &presets[rules->preset];
}

int
ludo_rules_preset(struct ludo_rules *rules, const char *name)
{
	int	i;

	if (rules == NULL || name == NULL)
		return -1;
	for (i = 0; i < NPRESETS; i++) {
		if (strcmp(name, presets[i].name) != 0)
			continue;
		memset(rules, 0, sizeof(*rules));
		rules->preset = (uint8_t)i;
		rules->six_bonus = 1;
		rules->capture_bonus = presets[i].capture_bonus;
		rules->three_sixes = presets[i].three_sixes;
		return 0;
	}
	return -1;
}

/* NULL for an unknown preset. */
const char *
ludo_preset_name(int preset)
{
	if (preset < 0 || preset >= NPRESETS)
		return NULL;
	return presets[preset].name;
}

int
ludo_last_track(const struct ludo_rules *rules)
{
	return geometry(rules)->last_track;
}

int
ludo_finish(const struct ludo_rules *rules)
{
	return geometry(rules)->finish;
}

/* NULL for a position that no token can hold. */
const char *
ludo_location(const struct ludo_rules *rules, int pos)
{
	const struct ludo_geometry *g = geometry(rules);

	if (pos == LUDO_YARD)
		return "YARD";
	if (pos >= 0 && pos <= g->last_track)
		return "TRACK";
	if (pos > g->last_track && pos < g->finish)
		return "HOME";
	if (pos == g->finish)
		return "FINISHED";
	return NULL;
}

int
ludo_init(struct ludo_state *st, const struct ludo_rules *rules,
    int nplayers)
{
	int	p, t;

	if (st == NULL || nplayers < LUDO_MIN_PLAYERS ||
	    nplayers > LUDO_MAX_PLAYERS)
		return -1;
	if (rules != NULL && rules->preset >= NPRESETS)
		return -1;
	/* Zero the padding too, so that snapshots compare with memcmp. */
	memset(st, 0, sizeof(*st));
	if (rules != NULL)
		st->rules = *rules;
	else
		ludo_rules_preset(&st->rules, "classic");
	st->nplayers = nplayers;
	st->turn = 0;
	st->winner = -1;
	st->sixes = 0;
	for (p = 0; p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			st->pos[p][t] = LUDO_YARD;
	return 0;
}

/*
 * Whether a snapshot is one the rules could have produced, as far as
 * indexing is concerned: every field used as an index or a bound is in
 * range and turn/winner agree.  Unused player rows are never read.
 */
static int
ludo_valid(const struct ludo_state *st)
{
	int	p, t, finish;

	if (st == NULL || st->rules.preset >= NPRESETS)
		return 0;
	if (st->nplayers < LUDO_MIN_PLAYERS || st->nplayers > LUDO_MAX_PLAYERS)
		return 0;
	if (st->winner == -1) {
		if (st->turn < 0 || st->turn >= st->nplayers)
			return 0;
	} else if (st->winner < 0 || st->winner >= st->nplayers ||
	    st->turn != -1)
		return 0;
	if (st->sixes < 0 || st->sixes > LUDO_SIXES_MAX ||
	    (st->rules.three_sixes && st->sixes > 2))
		return 0;
	finish = ludo_finish(&st->rules);
	for (p = 0; p < st->nplayers; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (st->pos[p][t] < LUDO_YARD ||
			    st->pos[p][t] > finish)
				return 0;
	return 1;
}

/* Where token t (0-based) of the player to move would go, or -1. */
static int
ludo_target(const struct ludo_state *st, int t, int dice)
{
	int	from = st->pos[st->turn][t];
	int	finish = ludo_finish(&st->rules);

	if (from == LUDO_YARD)
		return dice == 6 ? 0 : -1;
	if (from + dice > finish)	/* also refuses a finished token */
		return -1;
	return from + dice;
}

int
ludo_legal(const struct ludo_state *st, int dice, int tokens[LUDO_TOKENS])
{
	int	t, n = 0;

	if (!ludo_valid(st) || st->winner != -1 || dice < 1 || dice > 6)
		return 0;
	for (t = 0; t < LUDO_TOKENS; t++)
		if (ludo_target(st, t, dice) != -1)
			tokens[n++] = t + 1;
	return n;
}

/* Sends every opposing token on the mover's landing cell home; counts them. */
static int
ludo_capture(struct ludo_state *st, int player, int pos)
{
	int	last = ludo_last_track(&st->rules);
	int	cell, p, t, n = 0;

	if (pos < 0 || pos > last)
		return 0;	/* home lane and finish are private */
	cell = (LUDO_ENTRY_STEP * player + pos) % LUDO_TRACK_CELLS;
	if (ludo_safe(cell))
		return 0;
	for (p = 0; p < st->nplayers; p++) {
		if (p == player)
			continue;
		for (t = 0; t < LUDO_TOKENS; t++) {
			int other = st->pos[p][t];

			if (other >= 0 && other <= last &&
			    (LUDO_ENTRY_STEP * p + other) % LUDO_TRACK_CELLS ==
			    cell) {
				st->pos[p][t] = LUDO_YARD;
				n++;
			}
		}
	}
	return n;
}

static void
ludo_next_turn(struct ludo_state *st)
{
	st->turn = (st->turn + 1) % st->nplayers;
	st->sixes = 0;
}

static int
ludo_all_finished(const struct ludo_state *st, int player)
{
	int	t, finish = ludo_finish(&st->rules);

	for (t = 0; t < LUDO_TOKENS; t++)
		if (st->pos[player][t] != finish)
			return 0;
	return 1;
}

/* Plays a legal token (1-4) for the player to move; out holds a copy of in. */
static enum ludo_result
ludo_apply(struct ludo_state *out, int dice, int token)
{
	int			 player = out->turn;
	int			 to, captured;
	enum ludo_result	 res;

	to = ludo_target(out, token - 1, dice);
	out->pos[player][token - 1] = (int8_t)to;
	captured = ludo_capture(out, player, to);

	if (ludo_all_finished(out, player)) {
		out->winner = player;
		out->turn = -1;
		out->sixes = 0;
		return LUDO_PLAYER_WON;
	}
	if (to == ludo_finish(&out->rules))
		res = LUDO_TOKEN_FINISHED;
	else if (captured > 0)
		res = LUDO_MOVED_AND_CAPTURED;
	else
		res = LUDO_MOVED;

	if ((out->rules.six_bonus && dice == 6) ||
	    (out->rules.capture_bonus && captured > 0))
		/* Saturates: a garbage count at the bound must stay valid. */
		out->sixes = dice != 6 ? 0 : out->sixes < LUDO_SIXES_MAX ?
		    out->sixes + 1 : LUDO_SIXES_MAX;
	else
		ludo_next_turn(out);
	return res;
}

enum ludo_result
ludo_play(const struct ludo_state *in, int player, int dice, int token,
    struct ludo_state *out)
{
	int	legal[LUDO_TOKENS];
	int	i, n;

	if (in == NULL || out == NULL)
		return LUDO_INVALID_MOVE;
	if (out != in)
		memcpy(out, in, sizeof(*out));
	if (!ludo_valid(in))
		return LUDO_INVALID_MOVE;
	if (in->winner != -1)
		return LUDO_GAME_OVER;
	if (player < 0 || player >= in->nplayers)
		return LUDO_NO_PLAYER;
	if (player != in->turn || dice < 1 || dice > 6 ||
	    token < 0 || token > LUDO_TOKENS)
		return LUDO_INVALID_MOVE;

	/* The third six is not played at all, whatever was asked. */
	if (in->rules.three_sixes && dice == 6 && in->sixes == 2) {
		ludo_next_turn(out);
		return LUDO_FORFEITED;
	}

	n = ludo_legal(in, dice, legal);
	if (token == 0) {
		if (n != 0)
			return LUDO_INVALID_MOVE;
		/* A six grants another turn only after a move. */
		ludo_next_turn(out);
		return LUDO_PASSED;
	}
	for (i = 0; i < n; i++)
		if (legal[i] == token)
			return ludo_apply(out, dice, token);
	return LUDO_INVALID_MOVE;
}

/* NULL for a value outside the enum. */
const char *
ludo_result_str(enum ludo_result res)
{
	if ((int)res < 0 || (int)res >= NRESULTS)
		return NULL;
	return result_names[res];
}

int
ludo_result_stored(enum ludo_result res)
{
	switch (res) {
	case LUDO_MOVED:
	case LUDO_MOVED_AND_CAPTURED:
	case LUDO_TOKEN_FINISHED:
	case LUDO_PLAYER_WON:
	case LUDO_PASSED:
	case LUDO_FORFEITED:
		return 1;
	default:
		return 0;
	}
}

int
ludo_result_parse(const char *s)
{
	int	i;

	if (s == NULL)
		return -1;
	for (i = 0; i < NRESULTS; i++)
		if (strcmp(s, result_names[i]) == 0)
			return i;
	return -1;
}
