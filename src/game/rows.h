/*
 * A game as rows, the same for every store backend: the games row, one
 * players row per player, its token rows (a Ludo token, or the one piece
 * of a Snake & Ladder or DandyLand player) and its cell rows (Snake &
 * Ladder's jumps); moves are struct move (game/game.h).  The kinds map
 * their state to and from these (struct game_kind_ops); a backend binds and
 * reads them and knows no kind.
 *
 * Texts are pointer and length.  On a load the backend hands out rows
 * whose texts point into its own memory, valid until its callback
 * returns, and NUL-ended; a NULL text is a NULL pointer and a NULL
 * integer reads as 0.
 */
#ifndef LUDUS_GAME_ROWS_H
#define LUDUS_GAME_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define GAME_TOKEN_ROWS	SNL_MAX_PLAYERS	/* >= 4 * 4 Ludo, >= 8 DandyLand */
#define GAME_CELL_ROWS	SNL_CELLS	/* one per cell at most */

/* Columns of the games row that a kind may leave NULL, as bits of
 * row_game.cols: the rules, written once when the game is created. */
#define ROW_LUDO_RULES	0x01	/* ludo_preset, six_bonus, capture_bonus,
				   three_sixes */
#define ROW_BOARD	0x02	/* board, has_deck */
#define ROW_DECK	0x04	/* deck */

struct row_game {
	const char	*id;
	size_t		 id_len;
	int		 kind;		/* enum game_kind */
	/* What play changes (turn, winner: -1 for none; aux: the kind's
	 * one counter) and the bookkeeping. */
	int		 nplayers;
	int		 turn;
	int		 winner;
	int64_t		 aux;
	int64_t		 moves;
	int64_t		 created;
	int64_t		 updated;
	int64_t		 stamp;		/* struct game's; 0 without */
	/* The kinds' rules columns, NULL (and unset) unless their bit is
	 * in cols (a load leaves cols 0 and reads NULL as above). */
	unsigned	 cols;
	int		 ludo_preset;
	int		 six_bonus;
	int		 capture_bonus;
	int		 three_sixes;
	const char	*board;
	size_t		 board_len;
	int		 has_deck;
	const char	*deck;
	size_t		 deck_len;
	/* The options (struct game_opts): deadline and roll are NULL for
	 * 0, roll_player is NULL without a roll. */
	int		 seats;
	int		 dice;
	int64_t		 turn_timeout;
	int64_t		 deadline;
	int64_t		 roll;
	int64_t		 roll_player;
};

struct row_player {
	int		 idx;		/* 0-based, in turn order */
	const char	*name;
	size_t		 name_len;
	int		 has_bot;	/* else bot is NULL */
	int64_t		 bot;		/* strategy */
	const uint8_t	*seat;		/* NULL: none (or not a blob) */
	size_t		 seat_len;
};

struct row_token {
	int	 player;
	int	 token;		/* a Ludo token 1-4, or 0 */
	int	 pos;
	int	 points;
};

struct row_cell {
	int	 cell;
	int	 target;	/* 0 only in a change: the row deleted */
};

#endif /* LUDUS_GAME_ROWS_H */
