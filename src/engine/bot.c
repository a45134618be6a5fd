/*
 * Ludo bots.
 *
 * Every candidate move is played through ludo_play() itself, so a bot
 * never disagrees with the rules (captures, lanes, presets); the
 * strategies only differ in how they rank the resulting snapshots.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "engine/bot.h"

static const char *const strategy_names[BOT_STRATEGIES] = {
	"first",
	"aggressive",
	"expert",
};

/*
 * The expert's weights, in "track squares" of progress.  They were tuned
 * by seeded two- to four-player games against the aggressive bot (a large
 * "out" matters most: a token in the yard is worth far less than its
 * first square); bench/bots measures the result.
 */
struct expert_weights {
	int	out;		/* a token on the board rather than the yard */
	int	lane;		/* a token safe in its home lane */
	int	finished;	/* a finished token, on top of its progress */
	int	risk;		/* percent of a token's value lost to danger */
	int	threat;		/* percent of an opponent's loss we count */
	int	opp;		/* percent weight of the opponents' sum */
};

static const struct expert_weights expert_default = {
	.out = 45,
	.lane = 4,
	.finished = 8,
	.risk = 80,
	.threat = 100,
	.opp = 100,
};

/* The result of playing one candidate token. */
struct candidate {
	int			token;
	int			from, to;
	int			captured;	/* opposing tokens sent home */
	struct ludo_state	after;
};

static int
ludo_safe_cell(int cell)
{
	return cell % LUDO_ENTRY_STEP == 0 || cell % LUDO_ENTRY_STEP == 8;
}

static int
ludo_cell(int player, int pos)
{
	return (LUDO_ENTRY_STEP * player + pos) % LUDO_TRACK_CELLS;
}

static int
count_yard(const struct ludo_state *st, int player)
{
	int	t, n = 0;

	for (t = 0; t < LUDO_TOKENS; t++)
		n += st->pos[player][t] == LUDO_YARD;
	return n;
}

/* Plays every legal token; returns how many candidates there are. */
static int
candidates(const struct ludo_state *st, int dice,
    struct candidate c[LUDO_TOKENS])
{
	int	legal[LUDO_TOKENS];
	int	i, p, n, player = st->turn;

	n = ludo_legal(st, dice, legal);
	for (i = 0; i < n; i++) {
		c[i].token = legal[i];
		c[i].from = st->pos[player][legal[i] - 1];
		if (!ludo_result_stored(ludo_play(st, player, dice, legal[i],
		    &c[i].after)))
			return 0;	/* cannot happen: legal said so */
		c[i].to = c[i].after.pos[player][legal[i] - 1];
		c[i].captured = 0;
		for (p = 0; p < st->nplayers; p++)
			if (p != player)
				c[i].captured += count_yard(&c[i].after, p) -
				    count_yard(st, p);
	}
	return n;
}

/* The aggressive bot's score: a capture, then leaving the yard, then
 * the furthest landing square. */
static int
aggressive_score(const struct candidate *c)
{
	if (c->captured > 0)
		return 200 + c->captured;
	if (c->from == LUDO_YARD)
		return 100;
	return c->to;
}

/*
 * The chance, in percent, that the token of `owner` on absolute cell
 * `cell` is captured before its owner moves again: every opposing token
 * 1-6 squares behind it hits with one roll, 7-12 behind (or in a yard
 * whose exit is 1-6 behind) needs a six first.
 */
static int
danger(const struct ludo_state *st, int owner, int cell)
{
	int	last = ludo_last_track(&st->rules);
	int	escape = 100;	/* percent chance that nobody hits */
	int	p, t, d;

	for (p = 0; p < st->nplayers; p++) {
		int near = 0, far = 0, hit;

		if (p == owner)
			continue;
		for (t = 0; t < LUDO_TOKENS; t++) {
			int pos = st->pos[p][t];

			if (pos == LUDO_YARD) {
				d = (cell - ludo_cell(p, 0) +
				    LUDO_TRACK_CELLS) % LUDO_TRACK_CELLS;
				if (d >= 1 && d <= 6)
					far |= 1 << (d + 6);
				continue;
			}
			if (pos > last)
				continue;
			d = (cell - ludo_cell(p, pos) + LUDO_TRACK_CELLS) %
			    LUDO_TRACK_CELLS;
			if (d < 1 || d > 12 || pos + d > last)
				continue;
			if (d <= 6)
				near |= 1 << d;
			else
				far |= 1 << d;
		}
		hit = 0;
		for (d = 1; d <= 12; d++) {
			if (d <= 6 && (near & (1 << d)))
				hit += 100 / 6;
			else if (d > 6 && (far & (1 << d)))
				hit += 100 / 36;
		}
		if (hit > 100)
			hit = 100;
		escape = escape * (100 - hit) / 100;
	}
	return 100 - escape;
}

/* What a token is worth to its owner, in squares of progress. */
static int
token_value(const struct ludo_state *st, int pos,
    const struct expert_weights *w)
{
	int	last = ludo_last_track(&st->rules);
	int	finish = ludo_finish(&st->rules);

	if (pos == LUDO_YARD)
		return 0;
	if (pos == finish)
		return pos + w->out + w->lane + w->finished;
	if (pos > last)
		return pos + w->out + w->lane;
	return pos + w->out;
}

/* A player's total token value, less what is at risk (in percent). */
static int
player_value(const struct ludo_state *st, int player, int risk,
    const struct expert_weights *w)
{
	int	last = ludo_last_track(&st->rules);
	int	t, total = 0;

	for (t = 0; t < LUDO_TOKENS; t++) {
		int pos = st->pos[player][t];
		int v = token_value(st, pos, w) * 100;

		if (pos >= 0 && pos <= last &&
		    !ludo_safe_cell(ludo_cell(player, pos)))
			v -= v / 100 * danger(st, player,
			    ludo_cell(player, pos)) * risk / 100;
		total += v;
	}
	return total;
}

/* The mover's view of a snapshot: its tokens against everyone else's. */
static int
expert_eval(const struct ludo_state *st, int me,
    const struct expert_weights *w)
{
	int	p, score, opp = 0;

	if (st->winner == me)
		return 1 << 28;
	score = player_value(st, me, w->risk, w);
	for (p = 0; p < st->nplayers; p++)
		if (p != me)
			opp += player_value(st, p, w->threat, w);
	/* Against several opponents, hurting one of them helps less. */
	return score - opp / 100 * w->opp / (2 * st->nplayers - 3);
}

/*
 * The expert's value of the snapshot after a move.  When the move earns
 * another roll, the next roll is the mover's, so the snapshot is worth
 * the average over that roll of the best follow-up (one level only).
 */
static int
expert_value(const struct ludo_state *st, int me, int depth,
    const struct expert_weights *w)
{
	struct candidate	c[LUDO_TOKENS];
	int			d, i, n, best, v, sum = 0;

	if (depth == 0 || st->turn != me)
		return expert_eval(st, me, w);
	for (d = 1; d <= 6; d++) {
		n = candidates(st, d, c);
		best = n == 0 ? expert_eval(st, me, w) : INT_MIN;
		for (i = 0; i < n; i++)
			if ((v = expert_eval(&c[i].after, me, w)) > best)
				best = v;
		sum += best / 6;
	}
	return sum;
}

static int
choose(const struct ludo_state *st, int dice, enum bot_strategy strategy,
    const struct expert_weights *w)
{
	struct candidate	c[LUDO_TOKENS];
	int			i, n, best = 0, score, best_score = 0;

	n = candidates(st, dice, c);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		switch (strategy) {
		case BOT_AGGRESSIVE:
			score = aggressive_score(&c[i]);
			break;
		case BOT_EXPERT:
			score = expert_value(&c[i].after, st->turn, 1, w);
			break;
		default:
			score = 0;	/* first: ties keep the lowest */
			break;
		}
		/* Strictly better only: ties go to the lowest token. */
		if (i == 0 || score > best_score) {
			best = i;
			best_score = score;
		}
	}
	return c[best].token;
}

int
ludo_bot_choose(const struct ludo_state *st, int dice,
    enum bot_strategy strategy)
{
	if ((int)strategy < 0 || (int)strategy >= BOT_STRATEGIES)
		return 0;
	return choose(st, dice, strategy, &expert_default);
}

int
bot_strategy_parse(const char *s)
{
	int	i;

	if (s == NULL)
		return -1;
	for (i = 0; i < BOT_STRATEGIES; i++)
		if (strcmp(s, strategy_names[i]) == 0)
			return i;
	return -1;
}

const char *
bot_strategy_name(int strategy)
{
	if (strategy < 0 || strategy >= BOT_STRATEGIES)
		return NULL;
	return strategy_names[strategy];
}
