/*
 * The two CLI verbs that are more than one command: `ludus watch`, which
 * prints a game's moves as they commit, and `ludus show`, which draws a
 * game's board in the terminal.  Both work over any backend.
 */
#ifndef LUDUS_CLI_SHOW_H
#define LUDUS_CLI_SHOW_H

#include "cli/backend.h"

/*
 * Sends GAME.WATCH game [FROM fromseq] (fromseq NULL: from now) and prints one
 * line "seq player action result" per move event, flushed as it arrives,
 * until the connection is lost, which it reports on stderr.  Returns 1
 * then, or when GAME.WATCH itself failed (its error printed on stdout).  It
 * sets the backend's on_event.
 */
int	cli_watch(struct backend *, const char *game, const char *fromseq);

/*
 * Prints a move event as cli_watch does and returns 1; 0, printing
 * nothing, if the frame is not one.
 */
int	cli_print_move(const struct reply *);

/*
 * Draws the board of a game from GAME.INFO and the kind's STATE, as the
 * kind table's show_text draws it (the Ludo track, the 10x10 Snake &
 * Ladder grid, the DandyLand ring), with ANSI colours when color is
 * non-zero.  Returns 0, or 1 on an error (printed as for cli_watch).
 */
int	cli_show(struct backend *, const char *game, int color);

#endif /* LUDUS_CLI_SHOW_H */
