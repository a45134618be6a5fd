/*
 * A game as the command layer and the store see it: identity, bookkeeping
 * and the engine snapshot of its kind.  Plain data, copied by value.
 */
#ifndef LUDUS_GAME_H
#define LUDUS_GAME_H

#include <stdint.h>

#include "engine/engine.h"

#define GAME_ID_MAX	50	/* game and Ludo player ids: 1-50 of a-z 0-9 - */
#define ACTION_MAX	15	/* "6:1", "4", "a" */
#define RESULT_MAX	63	/* "MOVED_AND_CAPTURED", "P12 3 4", ... */

enum game_kind {
	KIND_NONE = 0,
	KIND_LUDO = 1,
	KIND_SNL = 2,
	KIND_DANDY = 3
};
#define KIND_COUNT	4

struct game {
	char		id[GAME_ID_MAX + 1];
	enum game_kind	kind;
	int64_t		moves;		/* stored moves so far (the seq) */
	int64_t		created;	/* unix seconds */
	int64_t		updated;
	/* Ludo player ids in turn order; Snake & Ladder and DandyLand
	 * players are named P1..Pn and keep this empty. */
	char		players[LUDO_MAX_PLAYERS][GAME_ID_MAX + 1];
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} s;
};

/* One row of the move history. */
struct move {
	int64_t	seq;			/* 1-based */
	char	player[GAME_ID_MAX + 1];
	char	action[ACTION_MAX + 1];
	char	result[RESULT_MAX + 1];
	int64_t	at;			/* unix seconds */
};

const char	*game_kind_name(enum game_kind);	/* "ludo", "snl", "dandy" */
enum game_kind	 game_kind_parse(const char *);		/* KIND_NONE if unknown */
int		 game_nplayers(const struct game *);

#endif /* LUDUS_GAME_H */
