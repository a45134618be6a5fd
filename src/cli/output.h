/*
 * The ludus CLI's own pieces: rendering reply values the way redis-cli
 * does, and the Snake & Ladder script driver (--snl-script).
 */
#ifndef LUDUS_CLI_OUTPUT_H
#define LUDUS_CLI_OUTPUT_H

#include <stdio.h>

#include "util/reply.h"

enum output_mode {
	OUTPUT_RAW = 0,		/* stdout is not a terminal: bare text */
	OUTPUT_TTY		/* a terminal: "(integer) 3", "1) ..." */
};

/*
 * Writes one reply and its final newline.  RAW, as redis-cli --raw: a
 * string or error as its text, an integer as its digits, null as an empty
 * line, an array one element per line (nested ones flattened), a map one
 * "key value" per line.  TTY, as redis-cli on a terminal.
 */
void	output_reply(FILE *, const struct reply *, enum output_mode);

/*
 * Writes an event (a frame no command waited for: a GAME.WATCH move, a
 * pub/sub message) on one line, "(event) " then its words separated by
 * blanks, in both modes, so that neither a person nor a script takes it
 * for a reply: "(event) move game-1 3 blue 4:0 PASSED".
 */
void	output_event(FILE *, const struct reply *);

/*
 * Plays the --snl-script format (Q, numPlayers, then Q commands) from in
 * through the command layer on an in-memory store and prints one line per
 * roll to out.  Returns 0, or 1 after a message on err for malformed
 * input or a refused command.
 */
int	snl_script(FILE *in, FILE *out, FILE *err);

#endif /* LUDUS_CLI_OUTPUT_H */
