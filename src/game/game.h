/*
 * The game model: a game as the command layer and the store see it
 * (identity, bookkeeping, the options and the engine snapshot of its
 * kind; plain data, copied by value), a stored move, and what every
 * layer asks of a game whatever its kind, answered through the kind
 * table (game/kind.h).
 */
#ifndef LUDUS_GAME_H
#define LUDUS_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "game/kind.h"

#define GAME_ID_MAX	50	/* game and Ludo player ids: 1-50 of a-z 0-9 - */
#define ACTION_MAX	15	/* "6:1", "4", "a" */
#define RESULT_MAX	63	/* "MOVED_AND_CAPTURED", "P12 3 4", ... */
#define GAME_MAX_PLAYERS	SNL_MAX_PLAYERS	/* the most of any kind */
#define SEAT_HASH_LEN	32	/* keyed hash of a seat key, in bytes */

/*
 * The multiplayer options of a game.  All zero is a game of the plain
 * rules: open seats, dice and cards given by the clients, no bots, no
 * deadlines.  Only roll, roll_player and deadline change after
 * creation; the engine never sees any of it.
 */
struct game_opts {
	uint8_t		secure;		/* seats=secure: moves need the seat */
	uint8_t		server_dice;	/* dice=server; DandyLand: deck=shuffled */
	uint8_t		roll;		/* Ludo pending server roll 1-6, 0 none */
	uint8_t		roll_player;	/* whose roll it is */
	int64_t		timeout;	/* turn-timeout seconds, 0 none */
	int64_t		deadline;	/* unix ms the server plays the current
					   turn (bot or timeout), 0 never */
	uint8_t		bot[GAME_MAX_PLAYERS];	/* strategy + 1, 0 a person */
	uint8_t		seat[GAME_MAX_PLAYERS][SEAT_HASH_LEN];	/* secure */
};

struct game {
	char		id[GAME_ID_MAX + 1];
	enum game_kind	kind;
	int64_t		moves;		/* stored moves so far (the seq) */
	int64_t		created;	/* unix seconds */
	int64_t		updated;
	/* The store's version of the game's row: a store that several
	 * writers share puts a new one with every write and writes only
	 * where the row still has the one this snapshot was read with;
	 * 0 for a store that needs none (SQLite, one writer at a time). */
	int64_t		stamp;
	/* Ludo player ids in turn order; Snake & Ladder and DandyLand
	 * players are named P1..Pn and keep this empty. */
	char		players[LUDO_MAX_PLAYERS][GAME_ID_MAX + 1];
	struct game_opts opts;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} s;
};

/* Who made a stored move. */
enum move_by {
	MOVE_PLAYER = 0,	/* a client, for the player */
	MOVE_BOT = 1,		/* the server, for a bot player */
	MOVE_TIMEOUT = 2	/* the server, for a player out of time */
};

/* One row of the move history. */
struct move {
	int64_t	seq;			/* 1-based */
	char	player[GAME_ID_MAX + 1];
	char	action[ACTION_MAX + 1];
	char	result[RESULT_MAX + 1];
	int64_t	at;			/* unix seconds */
	int	by;			/* enum move_by */
};

/* The entry of a kind, NULL for KIND_NONE or a value no kind has.
 * Inline: every question about a game asks it first. */
static inline const struct game_kind_ops *
game_kind_get(enum game_kind kind)
{
	if ((int)kind > KIND_NONE && (int)kind < KIND_COUNT)
		return game_kinds[kind];
	if ((int)kind >= KIND_COUNT &&
	    (int)kind < KIND_COUNT + game_kinds_nadded)
		return game_kinds_added[kind - KIND_COUNT];
	return NULL;
}

static inline const struct game_kind_ops *
game_kind_of(const struct game *g)
{
	return game_kind_get(g->kind);
}

const char	*game_kind_name(enum game_kind);	/* "ludo"; "none" */
enum game_kind	 game_kind_parse(const char *);		/* KIND_NONE if unknown */
/* The entry of the kind of that name ("ludo"), NULL if none. */
const struct game_kind_ops *game_kind_named(const char *);
/* The kinds' names as a sentence: "ludo, snl or dandy". */
const char	*game_kind_list(char *buf, size_t len);

int		 game_nplayers(const struct game *);
/* The index of the player to move, -1 when the game is over. */
int		 game_turn(const struct game *);
/* The index of the winner, -1 while there is none (or never is). */
int		 game_winner(const struct game *);

/*
 * Player naming: Ludo players by their ids, the others P1..Pn.  The name
 * of player i into buf ("NONE" when out of range), and back (-1 if no
 * player has that name).
 */
#define PLAYER_NAME_MAX	(GAME_ID_MAX + 1)
const char	*game_player_name(const struct game *, int i, char *buf,
		    size_t len);
int		 game_player_index(const struct game *, const char *name);

/* ------------------------------------- shared by the kinds (common.c) */

/* "P<i+1>"; the same or "NONE" unless 0 <= i < n. */
void		 game_seat_name(char *buf, size_t len, int i);
const char	*game_seat_or_none(char *buf, size_t len, int i, int n);
/* For the kinds that roll dice: a bot can play a game with dice=server
 * (bot_can_play), and GAME.INFO's line of one (info_random). */
int		 game_server_dice(const struct game *);
void		 game_info_dice(const struct game *, struct reply *);

#endif /* LUDUS_GAME_H */
