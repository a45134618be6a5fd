/*
 * bench/bots: plays seeded two-player classic Ludo games between the bots
 * and prints how often each one wins.
 *
 *	bench/bots [games [seed]]	(defaults: 10000 games, seed 1)
 *
 * Each pairing plays `games` games; the seats alternate from one game to
 * the next so that moving first favours neither bot.  The dice come from
 * a seeded xorshift generator, so a run is exactly reproducible.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/bot.h"
#include "engine/engine.h"
#include "util/util.h"

#define ACTIONS_MAX	100000	/* a game longer than this is a bug */

struct pairing {
	enum bot_strategy	a, b;
};

static int
dice(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return 1 + (int)(*s % 6);
}

/* Plays one game; returns the winning seat, or -1 if it never ended. */
static int
play_game(const enum bot_strategy seat[2], uint64_t *seed, long *actions)
{
	struct ludo_state	st, out;
	struct ludo_rules	rules;
	int			n, d, token;

	if (ludo_rules_preset(&rules, "classic") != 0 ||
	    ludo_init(&st, &rules, 2) != 0)
		return -1;
	for (n = 0; n < ACTIONS_MAX && st.winner == -1; n++) {
		d = dice(seed);
		token = ludo_bot_choose(&st, d, seat[st.turn]);
		if (!ludo_result_stored(ludo_play(&st, st.turn, d, token,
		    &out))) {
			fprintf(stderr, "bots: %s chose an illegal token\n",
			    bot_strategy_name(seat[st.turn]));
			return -1;
		}
		st = out;
	}
	*actions += n;
	return st.winner;
}

static int
run_pairing(const struct pairing *pr, long games, uint64_t seed)
{
	enum bot_strategy	seat[2];
	long			i, wins_a = 0, wins_b = 0, actions = 0;
	int			w, a_seat;

	for (i = 0; i < games; i++) {
		a_seat = (int)(i % 2);
		seat[a_seat] = pr->a;
		seat[1 - a_seat] = pr->b;
		w = play_game(seat, &seed, &actions);
		if (w < 0)
			return -1;
		if (w == a_seat)
			wins_a++;
		else
			wins_b++;
	}
	printf("%-10s vs %-10s  %ld games  %s %.2f%%  %s %.2f%%  "
	    "(%.1f actions/game)\n", bot_strategy_name(pr->a),
	    bot_strategy_name(pr->b), games, bot_strategy_name(pr->a),
	    100.0 * (double)wins_a / (double)games, bot_strategy_name(pr->b),
	    100.0 * (double)wins_b / (double)games,
	    (double)actions / (double)games);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct pairing pairings[] = {
		{ BOT_EXPERT, BOT_AGGRESSIVE },
		{ BOT_EXPERT, BOT_FIRST },
		{ BOT_AGGRESSIVE, BOT_FIRST },
	};
	const char	*err;
	int64_t		 games = 10000, seed = 1;
	size_t		 i;

	if (argc > 3 ||
	    (argc > 1 && parse_int64(argv[1], 1, 100000000, &games,
	    &err) != 0) ||
	    (argc > 2 && parse_int64(argv[2], 1, INT64_MAX, &seed,
	    &err) != 0)) {
		fprintf(stderr, "usage: bots [games [seed]]\n");
		return 2;
	}
	for (i = 0; i < sizeof(pairings) / sizeof(pairings[0]); i++)
		if (run_pairing(&pairings[i], (long)games,
		    (uint64_t)seed) != 0)
			return 1;
	return 0;
}
