/*
 * The rules engine: pure functions from (snapshot, action) to
 * (new snapshot, result).  No I/O, no allocation, no globals: the same
 * code runs in the daemon, the CLI, the replay/audit path and the fuzzers.
 *
 * Every play function takes a const input snapshot and writes a complete
 * output snapshot; when the result changes nothing (INVALID_MOVE,
 * GAME_OVER) the output equals the input.
 */
#ifndef LUDUS_ENGINE_H
#define LUDUS_ENGINE_H

#include <stdint.h>

/* ---------------------------------------------------------------- Ludo */

#define LUDO_MIN_PLAYERS	2
#define LUDO_MAX_PLAYERS	4
#define LUDO_TOKENS		4
#define LUDO_YARD		(-1)
#define LUDO_TRACK_CELLS	52
#define LUDO_ENTRY_STEP		13	/* player i enters at 13 * i */

enum ludo_preset {
	LUDO_CLASSIC = 0,	/* lane 52-57, finished 58 */
	LUDO_INTERVIEW,		/* lane 52-56, finished 57 */
	LUDO_EXTENDED		/* track 0-50, lane 51-55, home 56 */
};

struct ludo_rules {
	uint8_t	preset;		/* enum ludo_preset */
	uint8_t	six_bonus;	/* a move made with a six grants another turn */
	uint8_t	capture_bonus;	/* a capture grants another turn */
	uint8_t	three_sixes;	/* a third six in a row forfeits the turn */
};

struct ludo_state {
	struct ludo_rules rules;
	int	nplayers;
	int	turn;		/* index of the player to move, -1 when over */
	int	winner;		/* index of the winner, -1 while none */
	int	sixes;		/* sixes rolled in a row in the current turn */
	int8_t	pos[LUDO_MAX_PLAYERS][LUDO_TOKENS];	/* relative, -1 yard */
};

enum ludo_result {
	LUDO_MOVED = 0,
	LUDO_MOVED_AND_CAPTURED,
	LUDO_TOKEN_FINISHED,
	LUDO_PLAYER_WON,
	LUDO_PASSED,
	LUDO_FORFEITED,		/* extended: third six in a row, not played */
	LUDO_INVALID_MOVE,
	LUDO_GAME_OVER,
	LUDO_NO_PLAYER		/* player index out of range: a caller error */
};

/* Fills rules from a preset name ("classic", ...); -1 if unknown. */
int		 ludo_rules_preset(struct ludo_rules *, const char *);
const char	*ludo_preset_name(int);
int		 ludo_last_track(const struct ludo_rules *);	/* 51 or 50 */
int		 ludo_finish(const struct ludo_rules *);	/* 58, 57, 56 */
/* "YARD", "TRACK", "HOME" or "FINISHED" for a relative position. */
const char	*ludo_location(const struct ludo_rules *, int);

/* 0, or -1 when nplayers is out of range. */
int		 ludo_init(struct ludo_state *, const struct ludo_rules *,
		    int nplayers);
/* token is 1-4, or 0 for a pass; dice 1-6 (anything else: INVALID_MOVE). */
enum ludo_result ludo_play(const struct ludo_state *, int player, int dice,
		    int token, struct ludo_state *out);
/* Tokens (1-4, ascending) the current player may move; returns the count. */
int		 ludo_legal(const struct ludo_state *, int dice,
		    int tokens[LUDO_TOKENS]);
/* The exact status string of a result ("MOVED", "PLAYER_WON", ...). */
const char	*ludo_result_str(enum ludo_result);
/* Non-zero when the result changed the snapshot (and so is stored). */
int		 ludo_result_stored(enum ludo_result);
/* Parses a status string back; -1 if unknown. */
int		 ludo_result_parse(const char *);

/* ----------------------------------------------------- Snake & Ladder */

#define SNL_MAX_PLAYERS		64
#define SNL_CELLS		100

struct snl_state {
	int	nplayers;
	int	turn;		/* index, -1 when over */
	int	winner;		/* index, -1 while none */
	int	started;	/* a roll has been made: setup is closed */
	uint8_t	pos[SNL_MAX_PLAYERS];	/* 0 = off-board start */
	uint8_t	jump[SNL_CELLS + 1];	/* jump[c] = destination, 0 none */
};

enum snl_outcome {
	SNL_MOVED = 0,		/* "P<i> <pos>" (overshoot included) */
	SNL_WON,		/* "P<i> WINS" */
	SNL_GAME_OVER		/* "GAME_OVER", nothing changed */
};

struct snl_result {
	enum snl_outcome outcome;
	int	player;		/* index of the player who rolled */
	int	pos;		/* position after the roll */
};

/* 0, or -1 when nplayers is out of range (1..SNL_MAX_PLAYERS). */
int	snl_init(struct snl_state *, int nplayers);
/*
 * Adds a snake (head > tail) or a ladder (bottom < top) after validating
 * the setup rules; on error returns -1 and sets *why to a static message.
 * "started" games refuse every jump.
 */
int	snl_add_snake(struct snl_state *, int head, int tail, const char **why);
int	snl_add_ladder(struct snl_state *, int bottom, int top,
	    const char **why);
/* value must be 1-6 (else -1 and out untouched); returns 0. */
int	snl_roll(const struct snl_state *, int value, struct snl_state *out,
	    struct snl_result *);

/* ----------------------------------------------------------- DandyLand */

#define DANDY_MAX_PLAYERS	8
#define DANDY_BOARD_MAX		36
#define DANDY_DECK_MAX		1024
#define DANDY_OFF		(-1)

struct dandy_state {
	int	nplayers;
	int	board_len;
	char	board[DANDY_BOARD_MAX + 1];	/* letters a-i, NUL-ended */
	int	has_deck;	/* 1: cards come from deck[], 0: from DRAW */
	int	deck_len;
	int	drawn;		/* cards used so far (index of the next one) */
	char	deck[DANDY_DECK_MAX + 1];
	int	turn;		/* index, -1 when a deck is used up */
	int	pos[DANDY_MAX_PLAYERS];		/* 0-based, -1 off the board */
	int	points[DANDY_MAX_PLAYERS];
};

struct dandy_result {
	int	game_over;	/* deck used up: nothing changed */
	int	player;		/* index of the player who drew */
	int	pos;		/* 0-based, -1 off */
	int	points;
};

int	dandy_valid_board(const char *);	/* 1 when 1-36 of a-i */
int	dandy_valid_card(int);			/* 1 for a-i, 1-9 */
/* 0, or -1 with *why set; deck NULL for a game whose cards are given. */
int	dandy_init(struct dandy_state *, int nplayers, const char *board,
	    const char *deck, const char **why);
/* card 0 draws from the deck; a given card must be valid (else -1). */
int	dandy_draw(const struct dandy_state *, int card,
	    struct dandy_state *out, struct dandy_result *);
/* The stateless DandyLand game (DANDY.PLAY): points per player of the
 * cards drawn in turn; -1 on invalid input. */
int	dandy_play(int players, const char *cards, const char *board,
	    int points[DANDY_MAX_PLAYERS]);

#endif /* LUDUS_ENGINE_H */
