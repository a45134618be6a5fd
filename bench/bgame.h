/*
 * The games of ludus-bench and bench/samecheck: random games, their
 * moves, and the reply each move must get as the rules engine
 * (src/engine/) predicts it; and each command encoded for ludusd or, with
 * the same arguments and the same expected reply, for the Redis Functions
 * of bench/redis/ludus.lua (the same-work baseline, doc/benchmarks.md).
 */
#ifndef BENCH_BGAME_H
#define BENCH_BGAME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define ID_LEN		51	/* 50 characters, as the server allows */
#define PREFIX_MAX	30	/* leaves room for "l123456-4294967295" */
#define WANT_LEN	64	/* the longest status a move can return */
#define CMD_TEXT_LEN	96	/* the command, as printed in an error */
#define CMD_ARGS_MAX	10
#define CMD_STORE	1280	/* the words of one command: a 1,024-card deck */
#define CMD_BUF_LEN	1536	/* one command encoded */
#define DANDY_MOVES	200	/* draws before a deckless game is replaced */
#define MOVES_MAX	20000	/* a Ludo/S&L game this long is abandoned */

enum kind { K_LUDO = 0, K_SNL, K_DANDY, K_MIX };

extern const char *const kind_names[];	/* indexed by enum kind */

/* Who the commands are for: ludusd, or the Redis Functions (FCALL). */
enum dialect { D_LUDUS = 0, D_FCALL };

/* What every game of a run is made with. */
struct bopts {
	enum dialect	 dialect;
	int		 deck;		/* DandyLand: cards dealt, 0 none */
	int		 players;	/* 0: 2 to 4 at random per game */
	const char	*create_option;	/* "key=value" added to creates */
	char		 prefix[PREFIX_MAX + 1];
};

/*
 * A DandyLand game as ludus-bench keeps it: struct dandy_state holds a
 * 1,025-byte deck, which a million games cannot each afford, so the
 * copy keeps the deck apart (NULL: no deck) and is expanded to the
 * engine's struct around each draw.
 */
struct bdandy {
	char	 board[DANDY_BOARD_MAX + 1];
	char	*deck;			/* owned; NUL-ended */
	int16_t	 deck_len;
	int16_t	 drawn;
	int8_t	 nplayers;
	int8_t	 board_len;
	int8_t	 turn;
	int8_t	 pos[DANDY_MAX_PLAYERS];
	int32_t	 points[DANDY_MAX_PLAYERS];
};

/* What a game sends next. */
enum gphase { G_CREATE = 0, G_SETUP, G_PLAY };

struct bgame {
	enum kind	 kind;
	int		 slot;
	unsigned	 gen;		/* games played in this slot so far */
	char		 id[ID_LEN];
	enum gphase	 phase;
	int		 setup_left;	/* Snake & Ladder jumps to send */
	int		 moves;		/* moves sent in the current game */
	uint64_t	 rng;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct bdandy		dandy;
	} st;
};

/* A command being built: its words and the reply predicted. */
struct cmd {
	int		 argc;
	const char	*argv[CMD_ARGS_MAX];
	char		 store[CMD_STORE];
	size_t		 used;
	int		 is_turn;
	int		 is_create;
	char		 want[WANT_LEN];
};

uint64_t	 rnd(uint64_t *);
int		 rnd_int(uint64_t *, int);

void		 cmd_start(struct cmd *, const char *);
void		 cmd_arg(struct cmd *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* The command in one line, truncated, for messages. */
void		 cmd_text(const struct cmd *, char *, size_t);
/*
 * The command as RESP in the run's dialect; 0 when it does not fit or
 * has no Redis Function (Snake & Ladder).
 */
size_t		 cmd_encode(const struct bopts *, const struct cmd *, char *,
		    size_t);

/*
 * The next command of a game, predicted reply included, and the game's
 * copy advanced past it; 0 when it has nothing to send (a game whose
 * setup just ended: its first move waits for the next call).
 */
int		 game_next(const struct bopts *, struct bgame *, struct cmd *);
/* A fresh id for the game in this slot (before its creation). */
void		 game_new_id(const struct bopts *, struct bgame *);
/* Frees what the game owns (a DandyLand deck). */
void		 game_free(struct bgame *);

void		 bdandy_expand(const struct bdandy *, struct dandy_state *);
void		 bdandy_store(struct bdandy *, const struct dandy_state *);
/* "P<i> <pos|OFF> <points>", the reply of a draw. */
void		 dandy_want(const struct dandy_result *, char *, size_t);

#endif /* BENCH_BGAME_H */
