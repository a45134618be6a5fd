/*
 * The two CLI verbs that are more than one command: `ludus watch`, which
 * prints a game's moves as they commit, and `ludus show`, which draws a
 * game's board in the terminal.  Both work over any backend.
 */
#ifndef LUDUS_CLI_SHOW_H
#define LUDUS_CLI_SHOW_H

#include "cli/backend.h"

/*
 * Sends WATCH game [FROM fromseq] (fromseq NULL: from now) and prints one
 * line "seq player action result" per move event, flushed as it arrives,
 * until the connection closes.  Returns 0 then, or 1 when WATCH itself
 * failed (its error printed on stdout, a lost connection on stderr).
 */
int	cli_watch(struct backend *, const char *game, const char *fromseq);

/*
 * Draws the board of a game from GAME.INFO and the kind's STATE: the Ludo
 * track, the 10x10 Snake & Ladder grid or the DandyLand ring, with ANSI
 * colours when color is non-zero.  Returns 0, or 1 on an error (printed
 * as for cli_watch).
 */
int	cli_show(struct backend *, const char *game, int color);

#endif /* LUDUS_CLI_SHOW_H */
