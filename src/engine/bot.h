/*
 * Ludo bots: pick the token to play for the player to move.  Pure like
 * the rest of the engine (no I/O, no allocation, no globals), and
 * deterministic: the same snapshot and dice always give the same token.
 */
#ifndef LUDUS_BOT_H
#define LUDUS_BOT_H

#include "engine/engine.h"

enum bot_strategy {
	BOT_FIRST = 0,		/* the lowest legal token */
	BOT_AGGRESSIVE,		/* capture, leave the yard, lead */
	BOT_EXPERT		/* weighs progress against being captured */
};
#define BOT_STRATEGIES	3

/*
 * The token (1-4) the player to move should play with this dice value,
 * or 0 (a pass) when no token can move, the game is over or the dice or
 * the strategy are out of range.  The token is always in ludo_legal().
 */
int		 ludo_bot_choose(const struct ludo_state *, int dice,
		    enum bot_strategy);
/* "first", "aggressive", "expert"; -1 if unknown. */
int		 bot_strategy_parse(const char *);
/* The name of a strategy, NULL if unknown. */
const char	*bot_strategy_name(int);

#endif /* LUDUS_BOT_H */
