/*
 * The dispatch: the one table of commands, the lookup, and the run of a
 * request (the unknown name and the arity are refused here, before any
 * handler runs).  Nothing else lives here, so that the handlers, which
 * this file names, use helpers (cmd.c, cmd_txn.c) that never name it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_txn.h"
#include "util/util.h"

/*
 * Flags: CMD_WRITE commands run as one store transaction; CMD_READONLY
 * ones only read.  Sorted by name (ASCII, upper case) for the binary
 * search in cmd_lookup(); a test checks the order.
 */
static const struct cmd_def cmd_table[] = {
	{ "AUDIT", cmd_audit, -1, CMD_READONLY, "AUDIT [id]" },
	{ "DANDY.CREATE", cmd_dandy_create, -4, CMD_WRITE,
	    "DANDY.CREATE id players board [deck=<cards>|shuffled[:N]]"
	    " [seats=secure|open] [bots=P<i>:<strategy>,...]"
	    " [turn-timeout=<seconds>]" },
	{ "DANDY.DRAW", cmd_dandy_draw, -2, CMD_WRITE,
	    "DANDY.DRAW id [card] [AT seq]" },
	{ "DANDY.PLAY", cmd_dandy_play, 4, CMD_READONLY,
	    "DANDY.PLAY players cards board" },
	{ "DANDY.SCORES", cmd_dandy_scores, 2, CMD_READONLY,
	    "DANDY.SCORES id" },
	{ "DANDY.STATE", cmd_dandy_state, 2, CMD_READONLY,
	    "DANDY.STATE id" },
	{ "GAME.INFO", cmd_game_info, 2, CMD_READONLY, "GAME.INFO id" },
	{ "GAMES", cmd_games, -1, CMD_READONLY,
	    "GAMES [ludo|snl|dandy] [AFTER id] [LIMIT n]" },
	{ "HISTORY", cmd_history, -2, CMD_READONLY,
	    "HISTORY id [from [count]]" },
	{ "LUDO.CREATE", cmd_ludo_create, -4, CMD_WRITE,
	    "LUDO.CREATE id p1 p2 [p3 [p4]] [rules=classic|interview|extended]"
	    " [six-bonus=on|off] [capture-bonus=on|off] [three-sixes=on|off]"
	    " [seats=secure|open] [dice=server|manual]"
	    " [bots=<player>:first|aggressive|expert,...]"
	    " [turn-timeout=<seconds>]" },
	{ "LUDO.LEGAL", cmd_ludo_legal, 3, CMD_READONLY,
	    "LUDO.LEGAL id dice" },
	{ "LUDO.PLAY", cmd_ludo_play, -5, CMD_WRITE,
	    "LUDO.PLAY id player dice token [AT seq]" },
	{ "LUDO.ROLL", cmd_ludo_roll, 3, CMD_WRITE, "LUDO.ROLL id player" },
	{ "LUDO.STATE", cmd_ludo_state, 2, CMD_READONLY, "LUDO.STATE id" },
	{ "REPLAY", cmd_replay, -2, CMD_READONLY, "REPLAY id [seq]" },
	{ "SEAT", cmd_seat, 4, CMD_READONLY, "SEAT id player key" },
	{ "SNL.CREATE", cmd_snl_create, -3, CMD_WRITE,
	    "SNL.CREATE id players [seats=secure|open] [dice=server|manual]"
	    " [bots=P<i>:<strategy>,...] [turn-timeout=<seconds>]"
	    " [snakes=<head>:<tail>,...] [ladders=<bottom>:<top>,...]" },
	{ "SNL.LADDER", cmd_snl_ladder, 4, CMD_WRITE,
	    "SNL.LADDER id bottom top" },
	{ "SNL.ROLL", cmd_snl_roll, -2, CMD_WRITE,
	    "SNL.ROLL id [value] [AT seq]" },
	{ "SNL.SNAKE", cmd_snl_snake, 4, CMD_WRITE, "SNL.SNAKE id head tail" },
	{ "SNL.STATE", cmd_snl_state, 2, CMD_READONLY, "SNL.STATE id" },
};
#define CMD_COUNT	(sizeof(cmd_table) / sizeof(cmd_table[0]))

/* The name is upper-cased once, then searched with strcmp(): every
 * request looks its command up. */
const struct cmd_def *
cmd_lookup(const char *name)
{
	char	up[CMD_NAME_MAX + 1];
	size_t	lo = 0, hi = CMD_COUNT, mid;
	int	c;

	if (name == NULL || cmd_name_upper(up, sizeof(up), name) == -1)
		return NULL;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(up, cmd_table[mid].name);
		if (c == 0)
			return &cmd_table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct cmd_def *
cmd_at(size_t i)
{
	return i < CMD_COUNT ? &cmd_table[i] : NULL;
}

void
cmd_run(struct cmd_env *env, const struct cmd_args *args, struct reply *out,
    struct cmd_result *res)
{
	const struct cmd_def	*cmd = NULL;

	/* A name with a NUL inside cannot be a command. */
	if (args->argc > 0 && strlen(args->argv[0]) == args->argl[0])
		cmd = cmd_lookup(args->argv[0]);
	if (cmd == NULL) {
		reply_error(out, "ERR", "unknown command '%.64s'",
		    args->argc > 0 ? args->argv[0] : "");
		out->rejected = 1;
	} else if ((cmd->arity > 0 && args->argc != cmd->arity) ||
	    (cmd->arity < 0 && args->argc < -cmd->arity)) {
		reply_error(out, "ERR", "wrong number of arguments for '%s'",
		    cmd->name);
		out->rejected = 1;
	} else {
		(void)cmd_txn_request(env);
		cmd->proc(env, args, out);
	}
	/* Anything but a refusal of the request's form may have read what
	 * the open transaction wrote. */
	cmd_txn_status(env, res);
	res->wait = res->writes > 0 && !out->rejected;
}

void
cmd_execute(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct cmd_result	 res;

	cmd_run(env, args, out, &res);
}

void
cmd_executev(struct cmd_env *env, struct reply *out, const char *first, ...)
{
	struct cmd_args	 args;
	va_list		 ap;
	const char	*s;
	int		 n = 0, i;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *))
		n++;
	va_end(ap);

	memset(&args, 0, sizeof(args));
	args.argc = n;
	args.argv = xcalloc((size_t)n + 1, sizeof(*args.argv));
	args.argl = xcalloc((size_t)n + 1, sizeof(*args.argl));
	va_start(ap, first);
	for (i = 0, s = first; i < n; i++, s = va_arg(ap, const char *)) {
		args.argv[i] = (char *)s;	/* handlers never write argv */
		args.argl[i] = strlen(s);
	}
	va_end(ap);
	cmd_execute(env, &args, out);
	free(args.argv);
	free(args.argl);
}