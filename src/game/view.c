/*
 * What every kind's JSON encoder shares: a seat, and a name that may be
 * none.
 */
#include <stdio.h>

#include "engine/bot.h"
#include "game/view.h"

json_t *
json_seat(const struct game *g, int i, const char *name)
{
	const char	*bot = NULL;

	if (i >= 0 && i < GAME_MAX_PLAYERS && g->opts.bot[i] != 0)
		bot = bot_strategy_name(g->opts.bot[i] - 1);
	return json_pack("{s:s, s:o}", "name", name, "bot",
	    bot != NULL ? json_string(bot) : json_null());
}

json_t *
json_name_or_null(const char *name, int index)
{
	return index >= 0 && name != NULL ? json_string(name) : json_null();
}
