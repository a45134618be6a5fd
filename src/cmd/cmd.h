/*
 * The command layer: one static table of commands (name, handler, arity,
 * flags), looked up case-insensitively; arity and argument syntax are
 * checked before the handler's work, and every state-changing command is
 * one store transaction.  Handlers build struct reply values only.
 */
#ifndef LUDUS_CMD_H
#define LUDUS_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/reply.h"
#include "game.h"
#include "store/store.h"

/* Called after a move has committed, once per stored move, in order. */
typedef void (*cmd_move_hook)(void *arg, const char *game,
    const struct move *);

/* What all clients share: the store, the clock, the commit hook, counters. */
struct cmd_env {
	struct store	*store;
	int64_t		(*now)(void);	/* unix seconds; NULL: time(2) */
	cmd_move_hook	 on_move;
	void		*on_move_arg;
	uint64_t	 turns;		/* moves committed */
	uint64_t	 commits;	/* transactions committed */
	uint64_t	 store_errors;
};

#define CMD_WRITE	0x01	/* may change state: runs in a transaction */
#define CMD_READONLY	0x02
#define CMD_CONN	0x04	/* connection command (handled by ludusd) */

/* Per-connection state the commands may consult (seats held, ...);
 * NULL for the embedded CLI and most tests.  Defined by a later issue. */
struct cmd_session;

struct cmd_args {
	int		  argc;
	char		**argv;		/* NUL-ended; argv[0] is the name */
	size_t		 *argl;		/* lengths (args may hold NULs) */
	struct cmd_session *session;	/* may be NULL */
};

struct cmd_def {
	const char	*name;
	void		(*proc)(struct cmd_env *, const struct cmd_args *,
			    struct reply *);
	int		 arity;		/* argc incl. name; -N: at least N */
	int		 flags;
	const char	*usage;
};

/* Finds a command (case-insensitive); NULL if none. */
const struct cmd_def	*cmd_lookup(const char *);
/* Iterates the table (for COMMAND and --help); NULL past the end. */
const struct cmd_def	*cmd_at(size_t);
/* Looks up, checks arity and runs; unknown command or wrong arity become
 * -ERR replies.  out must be REPLY_NONE. */
void	cmd_execute(struct cmd_env *, const struct cmd_args *, struct reply *);
/* Convenience for C callers and tests: a NULL-terminated list of words. */
void	cmd_executev(struct cmd_env *, struct reply *, const char *, ...);

/* Syntax checks shared by the handlers. */
int	valid_id(const char *, size_t);	/* 1-50 of a-z 0-9 - */

#endif /* LUDUS_CMD_H */
