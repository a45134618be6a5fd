/*
 * The dispatch: the one table of commands, the lookup, and the run of a
 * request (the unknown name, the arity and the arguments are refused
 * here, before any handler runs).  Nothing else lives here, so that the
 * handlers, which this file names, use helpers (cmd.c, cmd_args.c,
 * cmd_txn.c) that never name it.
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
 * ones only read; CMD_CONN ones ludusd runs (enum cmd_conn, their
 * arguments in cmd_conn.c), a RESP2 subscriber may send the CMD_PUBSUB
 * ones, and ludusd may deliver a CMD_STREAM one's answer its own way.
 * Each entry's arguments are declared next to its handler; its arity and
 * its usage line are what they make (cmd_arity(), cmd_args_usage()).
 * Sorted by name (ASCII, upper case) for the binary search in
 * cmd_lookup(); a test checks the order.
 */
#define ENTRY(name, proc, fl, args) \
	{ name, proc, fl, &(args), CMD_CONN_COUNT }
#define CONN_ENTRY(name, fl, args, id) \
	{ name, NULL, CMD_CONN | CMD_READONLY | (fl), &(args), id }
static const struct cmd_def cmd_table[] = {
	ENTRY("AUDIT", cmd_audit, CMD_READONLY, cmd_audit_args),
	CONN_ENTRY("AUTH", CMD_NO_AUTH | CMD_NO_MULTI, cmd_conn_auth_args,
	    CONN_AUTH),
	CONN_ENTRY("CLIENT", 0, cmd_conn_client_args, CONN_CLIENT),
	CONN_ENTRY("COMMAND", 0, cmd_conn_command_args, CONN_COMMAND),
	CONN_ENTRY("CONFIG", 0, cmd_conn_config_args, CONN_CONFIG),
	ENTRY("DANDY.CREATE", cmd_dandy_create, CMD_WRITE,
	    cmd_dandy_create_args),
	ENTRY("DANDY.DRAW", cmd_dandy_draw, CMD_WRITE, cmd_dandy_draw_args),
	ENTRY("DANDY.PLAY", cmd_dandy_play, CMD_READONLY, cmd_dandy_play_args),
	ENTRY("DANDY.SCORES", cmd_dandy_scores, CMD_READONLY,
	    cmd_game_id_args),
	ENTRY("DANDY.STATE", cmd_dandy_state, CMD_READONLY, cmd_game_id_args),
	ENTRY("DBSIZE", cmd_dbsize, CMD_READONLY, cmd_dbsize_args),
	CONN_ENTRY("DISCARD", CMD_NO_QUEUE, cmd_conn_none_args, CONN_DISCARD),
	CONN_ENTRY("ECHO", 0, cmd_conn_echo_args, CONN_ECHO),
	CONN_ENTRY("EXEC", CMD_NO_QUEUE, cmd_conn_none_args, CONN_EXEC),
	ENTRY("EXISTS", cmd_exists, CMD_READONLY, cmd_exists_args),
	ENTRY("GAME.INFO", cmd_game_info, CMD_READONLY, cmd_game_id_args),
	CONN_ENTRY("GAME.UNWATCH", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_game_unwatch_args, CONN_GAME_UNWATCH),
	CONN_ENTRY("GAME.WATCH", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_game_watch_args, CONN_GAME_WATCH),
	ENTRY("GAMES", cmd_games, CMD_READONLY, cmd_games_args),
	CONN_ENTRY("HELLO", CMD_NO_AUTH | CMD_NO_MULTI, cmd_conn_hello_args,
	    CONN_HELLO),
	ENTRY("HISTORY", cmd_history, CMD_READONLY, cmd_history_args),
	CONN_ENTRY("INFO", CMD_BARRIER | CMD_NO_MULTI, cmd_conn_info_args,
	    CONN_INFO),
	ENTRY("LUDO.CREATE", cmd_ludo_create, CMD_WRITE, cmd_ludo_create_args),
	ENTRY("LUDO.LEGAL", cmd_ludo_legal, CMD_READONLY, cmd_ludo_legal_args),
	ENTRY("LUDO.PLAY", cmd_ludo_play, CMD_WRITE, cmd_ludo_play_args),
	ENTRY("LUDO.ROLL", cmd_ludo_roll, CMD_WRITE, cmd_ludo_roll_args),
	ENTRY("LUDO.STATE", cmd_ludo_state, CMD_READONLY, cmd_game_id_args),
	CONN_ENTRY("MULTI", CMD_NO_QUEUE, cmd_conn_none_args, CONN_MULTI),
	CONN_ENTRY("PING", CMD_PUBSUB, cmd_conn_ping_args, CONN_PING),
	CONN_ENTRY("PSUBSCRIBE", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_psubscribe_args, CONN_PSUBSCRIBE),
	CONN_ENTRY("PUBSUB", 0, cmd_conn_pubsub_args, CONN_PUBSUB),
	CONN_ENTRY("PUNSUBSCRIBE", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_punsubscribe_args, CONN_PUNSUBSCRIBE),
	CONN_ENTRY("QUIT", CMD_PUBSUB | CMD_NO_QUEUE | CMD_NO_AUTH,
	    cmd_conn_quit_args, CONN_QUIT),
	ENTRY("REPLAY", cmd_replay, CMD_READONLY, cmd_replay_args),
	CONN_ENTRY("RESET",
	    CMD_PUBSUB | CMD_NO_QUEUE | CMD_NO_AUTH | CMD_BARRIER,
	    cmd_conn_none_args, CONN_RESET),
	ENTRY("SCAN", cmd_scan, CMD_READONLY, cmd_scan_args),
	ENTRY("SEAT", cmd_seat, CMD_READONLY, cmd_seat_args),
	CONN_ENTRY("SELECT", 0, cmd_conn_select_args, CONN_SELECT),
	ENTRY("SNL.CREATE", cmd_snl_create, CMD_WRITE, cmd_snl_create_args),
	ENTRY("SNL.LADDER", cmd_snl_ladder, CMD_WRITE, cmd_snl_ladder_args),
	ENTRY("SNL.ROLL", cmd_snl_roll, CMD_WRITE, cmd_snl_roll_args),
	ENTRY("SNL.SNAKE", cmd_snl_snake, CMD_WRITE, cmd_snl_snake_args),
	ENTRY("SNL.STATE", cmd_snl_state, CMD_READONLY, cmd_game_id_args),
	CONN_ENTRY("SUBSCRIBE", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_subscribe_args, CONN_SUBSCRIBE),
	CONN_ENTRY("TIME", 0, cmd_conn_none_args, CONN_TIME),
	ENTRY("TYPE", cmd_type, CMD_READONLY, cmd_key_args),
	CONN_ENTRY("UNSUBSCRIBE", CMD_PUBSUB | CMD_SUBSCRIPTION,
	    cmd_conn_unsubscribe_args, CONN_UNSUBSCRIBE),
	CONN_ENTRY("UNWATCH", 0, cmd_conn_none_args, CONN_UNWATCH),
	CONN_ENTRY("WATCH", CMD_BARRIER | CMD_NO_QUEUE, cmd_conn_watch_args,
	    CONN_WATCH),
	ENTRY("XLEN", cmd_xlen, CMD_READONLY, cmd_key_args),
	ENTRY("XRANGE", cmd_xrange, CMD_READONLY | CMD_STREAM,
	    cmd_xrange_args),
	ENTRY("XREAD", cmd_xread, CMD_READONLY | CMD_STREAM, cmd_xread_args),
	ENTRY("XREVRANGE", cmd_xrevrange, CMD_READONLY | CMD_STREAM,
	    cmd_xrevrange_args),
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
cmd_find(const struct cmd_args *args)
{
	if (args->argc < 1 || strlen(args->argv[0]) != args->argl[0])
		return NULL;
	return cmd_lookup(args->argv[0]);
}

const struct cmd_def *
cmd_at(size_t i)
{
	return i < CMD_COUNT ? &cmd_table[i] : NULL;
}

int
cmd_arity_ok(const struct cmd_def *d, int argc)
{
	int	 arity = cmd_arity(d);

	return arity >= 0 ? argc == arity : argc >= -arity;
}

/*
 * The run of a request whose entry is found: the name (a connection
 * command is no command here: the embedded CLI has no connection), the
 * arity, the arguments, then the handler.  A create's game is built
 * here, on the stack, while its options are read.
 */
void
cmd_run_def(struct cmd_env *env, const struct cmd_def *cmd,
    const struct cmd_args *args, struct reply *out, struct cmd_result *res)
{
	struct cmd_parsed	 p;
	struct cmd_build	 build;

	if (cmd == NULL || (cmd->flags & CMD_CONN)) {
		reply_error(out, "ERR", "unknown command '%.64s'",
		    args->argc > 0 ? args->argv[0] : "");
		out->rejected = 1;
	} else if (!cmd_arity_ok(cmd, args->argc))
		cmd_reply_arity(out, cmd);
	else if (cmd_parse(cmd, args, &p, &build, out) == 0) {
		(void)cmd_txn_request(env);
		cmd->proc(env, &p, out);
	}
	/* Anything but a refusal of the request's form may have read what
	 * the open transaction wrote. */
	cmd_txn_status(env, res);
	res->wait = res->writes > 0 && !out->rejected;
}

void
cmd_run(struct cmd_env *env, const struct cmd_args *args, struct reply *out,
    struct cmd_result *res)
{
	cmd_run_def(env, cmd_find(args), args, out, res);
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