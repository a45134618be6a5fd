/*
 * A fourth kind of game that lives in the test tree alone, to show that
 * the layers above the kind table need no edit for a new kind: the CLI's
 * `ludus show`, the HTTP API's JSON and GET /api/kinds, and the page's
 * script (tests/unit/test_toykind.c, tests/web/test_toykind.sh).
 *
 * A race: 1-4 players (P1..Pn, by their count), each in turn steps 1, 2
 * or 3 (TOY.STEP id step); the first to reach the goal (goal=N at the
 * create, 10 by default) wins.  What the store would need (rows, the
 * cache, replay) is left out: the store keeps the built-in kinds alone.
 */
#ifndef LUDUS_TESTS_TOYKIND_H
#define LUDUS_TESTS_TOYKIND_H

#include "game/game.h"

#define TOY_MAX_PLAYERS	4

struct toy_state {
	int	 n;
	int	 pos[TOY_MAX_PLAYERS];
	int	 goal;
	int	 turn;		/* -1: over */
	int	 winner;	/* -1: none yet */
};

extern const struct game_kind_ops toy_kind;

/* Adds the toy kind to the kind table (once): its enum game_kind. */
enum game_kind	toy_register(void);
/* A toy game of n players, each at the given square, player turn to
 * move (-1 with winner set when over). */
void	toy_game(struct game *, const char *id, int n, const int *pos,
	    int goal, int turn, int winner, int64_t moves);

#endif /* LUDUS_TESTS_TOYKIND_H */
