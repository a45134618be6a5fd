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
 * Each entry's arguments are declared next to its handler; its usage is
 * what they make (a test checks both that and the arity).
 * Sorted by name (ASCII, upper case) for the binary search in
 * cmd_lookup(); a test checks the order.
 */
#define ENTRY(name, proc, arity, fl, usage, args) \
	{ name, proc, arity, fl, usage, &(args), CMD_CONN_COUNT }
#define CONN_ENTRY(name, arity, fl, usage, args, id) \
	{ name, NULL, arity, CMD_CONN | CMD_READONLY | (fl), usage, &(args), \
	  id }
static const struct cmd_def cmd_table[] = {
	ENTRY("AUDIT", cmd_audit, -1, CMD_READONLY, "AUDIT [id]",
	    cmd_audit_args),
	CONN_ENTRY("AUTH", -2, 0, "AUTH [username] password",
	    cmd_conn_auth_args, CONN_AUTH),
	CONN_ENTRY("BACKUP", 2, 0, "BACKUP path", cmd_conn_backup_args,
	    CONN_BACKUP),
	CONN_ENTRY("CLIENT", -2, 0,
	    "CLIENT GETNAME | HELP | ID | INFO | KILL filter ..."
	    " | LIST [TYPE normal|pubsub] | NO-EVICT on|off | NO-TOUCH on|off"
	    " | SETINFO LIB-NAME|LIB-VER value | SETNAME name",
	    cmd_conn_client_args, CONN_CLIENT),
	CONN_ENTRY("COMMAND", -1, 0,
	    "COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST]",
	    cmd_conn_command_args, CONN_COMMAND),
	CONN_ENTRY("CONFIG", -2, 0,
	    "CONFIG GET pattern [pattern ...] | RESETSTAT | REWRITE"
	    " | SET [parameter value ...]", cmd_conn_config_args,
	    CONN_CONFIG),
	ENTRY("DANDY.CREATE", cmd_dandy_create, -4, CMD_WRITE,
	    "DANDY.CREATE id players board [deck=<cards>|shuffled[:N]]"
	    " [seats=secure|open] [bots=P<i>:<strategy>,...]"
	    " [turn-timeout=<seconds>]", cmd_dandy_create_args),
	ENTRY("DANDY.DRAW", cmd_dandy_draw, -2, CMD_WRITE,
	    "DANDY.DRAW id [card] [AT seq]", cmd_dandy_draw_args),
	ENTRY("DANDY.PLAY", cmd_dandy_play, 4, CMD_READONLY,
	    "DANDY.PLAY players cards board", cmd_dandy_play_args),
	ENTRY("DANDY.SCORES", cmd_dandy_scores, 2, CMD_READONLY,
	    "DANDY.SCORES id", cmd_game_id_args),
	ENTRY("DANDY.STATE", cmd_dandy_state, 2, CMD_READONLY,
	    "DANDY.STATE id", cmd_game_id_args),
	ENTRY("DBSIZE", cmd_dbsize, 1, CMD_READONLY, "DBSIZE",
	    cmd_dbsize_args),
	CONN_ENTRY("DISCARD", 1, 0, "DISCARD", cmd_conn_none_args,
	    CONN_DISCARD),
	CONN_ENTRY("ECHO", 2, 0, "ECHO message", cmd_conn_echo_args, CONN_ECHO),
	CONN_ENTRY("EXEC", 1, 0, "EXEC", cmd_conn_none_args, CONN_EXEC),
	ENTRY("EXISTS", cmd_exists, -2, CMD_READONLY, "EXISTS id [id ...]",
	    cmd_exists_args),
	ENTRY("GAME.DELETE", cmd_game_delete, -2, CMD_WRITE,
	    "GAME.DELETE id [FORCE]", cmd_game_delete_args),
	ENTRY("GAME.INFO", cmd_game_info, 2, CMD_READONLY, "GAME.INFO id",
	    cmd_game_id_args),
	CONN_ENTRY("GAME.UNWATCH", -1, CMD_PUBSUB, "GAME.UNWATCH [id ...]",
	    cmd_conn_game_unwatch_args, CONN_GAME_UNWATCH),
	CONN_ENTRY("GAME.WATCH", -2, CMD_PUBSUB, "GAME.WATCH id [FROM seq]",
	    cmd_conn_game_watch_args, CONN_GAME_WATCH),
	ENTRY("GAMES", cmd_games, -1, CMD_READONLY,
	    "GAMES [ludo|snl|dandy] [AFTER id] [LIMIT n]", cmd_games_args),
	CONN_ENTRY("HELLO", -1, 0,
	    "HELLO [2|3 [AUTH username password] [SETNAME name]]",
	    cmd_conn_hello_args, CONN_HELLO),
	ENTRY("HISTORY", cmd_history, -2, CMD_READONLY,
	    "HISTORY id [from [count]]", cmd_history_args),
	CONN_ENTRY("INFO", -1, 0, "INFO [section ...]", cmd_conn_info_args,
	    CONN_INFO),
	ENTRY("LUDO.CREATE", cmd_ludo_create, -4, CMD_WRITE,
	    "LUDO.CREATE id p1 p2 [p3 [p4]] [rules=classic|interview|extended]"
	    " [six-bonus=on|off] [capture-bonus=on|off] [three-sixes=on|off]"
	    " [seats=secure|open] [dice=server|manual]"
	    " [bots=<player>:first|aggressive|expert,...]"
	    " [turn-timeout=<seconds>]", cmd_ludo_create_args),
	ENTRY("LUDO.LEGAL", cmd_ludo_legal, 3, CMD_READONLY,
	    "LUDO.LEGAL id dice", cmd_ludo_legal_args),
	ENTRY("LUDO.PLAY", cmd_ludo_play, -5, CMD_WRITE,
	    "LUDO.PLAY id player dice token [AT seq]", cmd_ludo_play_args),
	ENTRY("LUDO.ROLL", cmd_ludo_roll, 3, CMD_WRITE, "LUDO.ROLL id player",
	    cmd_ludo_roll_args),
	ENTRY("LUDO.STATE", cmd_ludo_state, 2, CMD_READONLY, "LUDO.STATE id",
	    cmd_game_id_args),
	CONN_ENTRY("MULTI", 1, 0, "MULTI", cmd_conn_none_args, CONN_MULTI),
	CONN_ENTRY("PING", -1, CMD_PUBSUB, "PING [message]",
	    cmd_conn_ping_args, CONN_PING),
	CONN_ENTRY("PSUBSCRIBE", -2, CMD_PUBSUB,
	    "PSUBSCRIBE pattern [pattern ...]", cmd_conn_psubscribe_args,
	    CONN_PSUBSCRIBE),
	CONN_ENTRY("PUBSUB", -2, 0,
	    "PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT",
	    cmd_conn_pubsub_args, CONN_PUBSUB),
	CONN_ENTRY("PUNSUBSCRIBE", -1, CMD_PUBSUB,
	    "PUNSUBSCRIBE [pattern ...]", cmd_conn_punsubscribe_args,
	    CONN_PUNSUBSCRIBE),
	CONN_ENTRY("QUIT", -1, CMD_PUBSUB, "QUIT", cmd_conn_quit_args,
	    CONN_QUIT),
	ENTRY("REPLAY", cmd_replay, -2, CMD_READONLY, "REPLAY id [seq]",
	    cmd_replay_args),
	CONN_ENTRY("RESET", 1, CMD_PUBSUB, "RESET", cmd_conn_none_args,
	    CONN_RESET),
	ENTRY("SCAN", cmd_scan, -2, CMD_READONLY,
	    "SCAN cursor [MATCH pattern] [COUNT n]"
	    " [TYPE stream|ludo|snl|dandy]",
	    cmd_scan_args),
	ENTRY("SEAT", cmd_seat, 4, CMD_READONLY, "SEAT id player key",
	    cmd_seat_args),
	CONN_ENTRY("SELECT", 2, 0, "SELECT index", cmd_conn_select_args,
	    CONN_SELECT),
	ENTRY("SNL.CREATE", cmd_snl_create, -3, CMD_WRITE,
	    "SNL.CREATE id players [seats=secure|open] [dice=server|manual]"
	    " [bots=P<i>:<strategy>,...] [turn-timeout=<seconds>]"
	    " [snakes=<head>:<tail>,...] [ladders=<bottom>:<top>,...]",
	    cmd_snl_create_args),
	ENTRY("SNL.LADDER", cmd_snl_ladder, 4, CMD_WRITE,
	    "SNL.LADDER id bottom top", cmd_snl_ladder_args),
	ENTRY("SNL.ROLL", cmd_snl_roll, -2, CMD_WRITE,
	    "SNL.ROLL id [value] [AT seq]", cmd_snl_roll_args),
	ENTRY("SNL.SNAKE", cmd_snl_snake, 4, CMD_WRITE,
	    "SNL.SNAKE id head tail", cmd_snl_snake_args),
	ENTRY("SNL.STATE", cmd_snl_state, 2, CMD_READONLY, "SNL.STATE id",
	    cmd_game_id_args),
	CONN_ENTRY("SUBSCRIBE", -2, CMD_PUBSUB, "SUBSCRIBE id [id ...]",
	    cmd_conn_subscribe_args, CONN_SUBSCRIBE),
	CONN_ENTRY("TIME", 1, 0, "TIME", cmd_conn_none_args, CONN_TIME),
	ENTRY("TYPE", cmd_type, 2, CMD_READONLY, "TYPE id", cmd_key_args),
	CONN_ENTRY("UNSUBSCRIBE", -1, CMD_PUBSUB, "UNSUBSCRIBE [id ...]",
	    cmd_conn_unsubscribe_args, CONN_UNSUBSCRIBE),
	CONN_ENTRY("UNWATCH", 1, 0, "UNWATCH", cmd_conn_none_args,
	    CONN_UNWATCH),
	CONN_ENTRY("WATCH", -2, 0, "WATCH id [id ...]", cmd_conn_watch_args,
	    CONN_WATCH),
	ENTRY("XLEN", cmd_xlen, 2, CMD_READONLY, "XLEN id", cmd_key_args),
	ENTRY("XRANGE", cmd_xrange, -4, CMD_READONLY | CMD_STREAM,
	    "XRANGE id start end [COUNT n]", cmd_xrange_args),
	ENTRY("XREAD", cmd_xread, -4, CMD_READONLY | CMD_STREAM,
	    "XREAD [COUNT n] [BLOCK ms] STREAMS id [id ...] last-id"
	    " [last-id ...]", cmd_xread_args),
	ENTRY("XREVRANGE", cmd_xrevrange, -4, CMD_READONLY | CMD_STREAM,
	    "XREVRANGE id end start [COUNT n]", cmd_xrevrange_args),
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
	return d->arity >= 0 ? argc == d->arity : argc >= -d->arity;
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