/*
 * Names of the game kinds, shared by the store, the commands and the CLI.
 */
#include <string.h>

#include "game/game.h"

static const char *const kind_names[KIND_COUNT] = {
	[KIND_NONE] = "none",
	[KIND_LUDO] = "ludo",
	[KIND_SNL] = "snl",
	[KIND_DANDY] = "dandy",
};

const char *
game_kind_name(enum game_kind kind)
{
	if ((int)kind <= KIND_NONE || (int)kind >= KIND_COUNT)
		return "none";
	return kind_names[kind];
}

enum game_kind
game_kind_parse(const char *s)
{
	int	 k;

	for (k = KIND_LUDO; k < KIND_COUNT; k++)
		if (strcmp(s, kind_names[k]) == 0)
			return (enum game_kind)k;
	return KIND_NONE;
}

int
game_nplayers(const struct game *g)
{
	switch (g->kind) {
	case KIND_LUDO:
		return g->s.ludo.nplayers;
	case KIND_SNL:
		return g->s.snl.nplayers;
	case KIND_DANDY:
		return g->s.dandy.nplayers;
	default:
		return 0;
	}
}

int
game_turn(const struct game *g)
{
	int	 turn;

	switch (g->kind) {
	case KIND_LUDO:
		turn = g->s.ludo.turn;
		break;
	case KIND_SNL:
		turn = g->s.snl.turn;
		break;
	case KIND_DANDY:
		turn = g->s.dandy.turn;
		break;
	default:
		return -1;
	}
	return turn >= 0 && turn < game_nplayers(g) ? turn : -1;
}
