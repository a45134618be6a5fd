/*
 * Running commands and printing what comes back, for the one-shot mode
 * and for the session on stdin (a REPL when stdin and stdout are
 * terminals).  Events (GAME.WATCH's moves, pub/sub messages) are printed
 * as they arrive, with output_event, distinct from replies: while a
 * reply is awaited, and in a session also while stdin is idle.
 */
#ifndef LUDUS_CLI_SESSION_H
#define LUDUS_CLI_SESSION_H

#include <stdio.h>

#include "cli/backend.h"
#include "cli/output.h"

/*
 * Runs one command and prints every frame of its reply; *was_error is set
 * if one is an error.  0, or -1 when the backend failed (said on stderr).
 */
int	cli_run_command(struct backend *, int argc, char **argv,
	    size_t *argl, enum output_mode, int *was_error);

/*
 * Prints the events the commands run so far have caused (a backlog of
 * GAME.WATCH ... FROM, the event of one's own move): a PING's reply comes
 * after them.  Nothing to do when nothing is watched.  0 or -1 as above.
 */
int	cli_flush_events(struct backend *);

/*
 * Reads commands from stdin, one per line, until its end (or quit/exit
 * at a prompt).  prompt NULL: not interactive; help prints the usage
 * for `help` at a prompt.  Besides commands, `show id` draws a board and
 * `watch id [FROM seq]` prints a game's moves until the next line, which
 * then runs.  The exit status: 0, or 1 after a line with unbalanced
 * quotes or a lost connection (which ends the session).
 */
int	cli_session(struct backend *, enum output_mode, const char *prompt,
	    void (*help)(FILE *));

/* The printer of events outside a session (one-shot commands). */
void	cli_print_event(void *, const struct reply *);

#endif /* LUDUS_CLI_SESSION_H */
