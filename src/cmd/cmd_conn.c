/*
 * The arguments of the connection commands: the entries of the table
 * (CMD_CONN) that ludusd runs with its own handlers (src/net/conncmd.c,
 * one per value of enum cmd_conn), parsed by cmd_parse() like any other.
 * The handlers read the values by these indexes.
 */
#include <stdint.h>

#include "cmd/cmd_impl.h"

/* PING [message]: a word too many is the arity error, as in Redis. */
static const struct cmd_arg ping_args[] = { CMD_ARG_STR_OPT("message") };
const struct cmd_spec cmd_conn_ping_args = CMD_SPEC(ping_args,
    CMD_EXCESS_ARITY);

static const struct cmd_arg echo_args[] = { CMD_ARG_STR("message") };
const struct cmd_spec cmd_conn_echo_args = CMD_SPEC(echo_args, 0);

/* BACKUP path: the file the daemon's online backup makes. */
static const struct cmd_arg backup_args[] = { CMD_ARG_STR("path") };
const struct cmd_spec cmd_conn_backup_args = CMD_SPEC(backup_args, 0);

/* QUIT takes any words and ignores them, as Redis does. */
const struct cmd_spec cmd_conn_quit_args = { NULL, 0, NULL, 0,
    CMD_EXCESS_IGNORE, NULL, NULL };

/* DISCARD, EXEC, MULTI, RESET, TIME, UNWATCH: their arity is 1. */
const struct cmd_spec cmd_conn_none_args = { NULL, 0, NULL, 0, 0, NULL,
    NULL };

static const struct cmd_arg info_args[] = { CMD_ARG_STR_ANY("section") };
const struct cmd_spec cmd_conn_info_args = CMD_SPEC(info_args, 0);

/* ---------------------------------------------------------- the games */

static const struct cmd_arg game_unwatch_args[] = { CMD_ARG_STR_ANY("id") };
const struct cmd_spec cmd_conn_game_unwatch_args =
    CMD_SPEC(game_unwatch_args, 0);

/*
 * GAME.WATCH id [FROM seq]: 2 or 4 words, else the arity error; then
 * FROM, its value (a message of its own), and only then the id.  -1: no
 * FROM.
 */
static const struct cmd_arg game_watch_args[] = {
	CMD_ARG_GAME,
	{ .name = "seq", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_TAIL, .token = "FROM",
	  .min = 0, .max = INT64_MAX - 1, .def = -1,
	  .errcode = "BADARG", .err = "FROM seq must be an integer >= 0" },
};
const struct cmd_spec cmd_conn_game_watch_args = CMD_SPEC(game_watch_args,
    CMD_EXCESS_ARITY);

/* Pub/sub: channels are game ids, but any word is taken (pubsub.c). */
static const struct cmd_arg subscribe_args[] = {
	{ .name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	  .nmin = 1 },
};
const struct cmd_spec cmd_conn_subscribe_args = CMD_SPEC(subscribe_args, 0);

static const struct cmd_arg psubscribe_args[] = {
	{ .name = "pattern", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1 },
};
const struct cmd_spec cmd_conn_psubscribe_args = CMD_SPEC(psubscribe_args,
    0);

static const struct cmd_arg unsubscribe_args[] = { CMD_ARG_STR_ANY("id") };
const struct cmd_spec cmd_conn_unsubscribe_args = CMD_SPEC(unsubscribe_args,
    0);

static const struct cmd_arg punsubscribe_args[] = {
	CMD_ARG_STR_ANY("pattern")
};
const struct cmd_spec cmd_conn_punsubscribe_args =
    CMD_SPEC(punsubscribe_args, 0);

/* PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT */
static const struct cmd_arg pubsub_pattern = CMD_ARG_STR_OPT("pattern");
static const struct cmd_arg pubsub_channels = CMD_ARG_STR_ANY("channel");
static const struct cmd_alt pubsub_alts[] = {
	[CONN_PUBSUB_CHANNELS] = { "CHANNELS", &pubsub_pattern },
	[CONN_PUBSUB_NUMSUB] = { "NUMSUB", &pubsub_channels },
	[CONN_PUBSUB_NUMPAT] = { "NUMPAT", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg pubsub_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1, .alts = pubsub_alts },
};
const struct cmd_spec cmd_conn_pubsub_args = CMD_SPEC(pubsub_args, 0);

/* ------------------------------------------------------- transactions */

/* WATCH id [id ...]: a key that is no game id is taken, and never moves. */
static const struct cmd_arg watch_args[] = {
	{ .name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	  .nmin = 1 },
};
const struct cmd_spec cmd_conn_watch_args = CMD_SPEC(watch_args, 0);

/* ------------------------------------------------- who the client is */

/*
 * AUTH [username] password: one word or two (the handler refuses more,
 * as a syntax error, after the arity); the password is the last.
 */
static const struct cmd_arg auth_args[] = {
	{ .name = "password", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1,
	  .doc = "[username] password" },
};
const struct cmd_spec cmd_conn_auth_args = CMD_SPEC(auth_args, 0);

/* SELECT index: an integer (else Redis's message); only 0 is a database. */
static const struct cmd_arg select_args[] = {
	{ .name = "index", .type = CMD_ARG_INT, .min = INT64_MIN,
	  .max = INT64_MAX, .errcode = "ERR",
	  .err = "value is not an integer or out of range" },
};
const struct cmd_spec cmd_conn_select_args = CMD_SPEC(select_args, 0);

/*
 * CLIENT's subcommands, with the words each takes; a wrong one, or a
 * wrong count of words, points to CLIENT HELP, as Redis does.  LIST's
 * words and KILL's filters are read by the handler.
 */
static const struct cmd_arg client_kill = {
	.name = "filter", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 1, .doc = "filter ..." };
static const struct cmd_arg client_list = {
	.name = "type", .type = CMD_ARG_STRING,
	.flags = CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE,
	.doc = "TYPE normal|pubsub" };
static const struct cmd_arg client_onoff = CMD_ARG_STR("on|off");
static const struct cmd_arg client_setinfo = {
	.name = "attribute", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 2, .nmax = 2, .doc = "LIB-NAME|LIB-VER value" };
static const struct cmd_arg client_name = CMD_ARG_STR("name");
static const struct cmd_alt client_alts[] = {
	[CONN_CLIENT_GETNAME] = { "GETNAME", NULL },
	[CONN_CLIENT_HELP] = { "HELP", NULL },
	[CONN_CLIENT_ID] = { "ID", NULL },
	[CONN_CLIENT_INFO] = { "INFO", NULL },
	[CONN_CLIENT_KILL] = { "KILL", &client_kill },
	[CONN_CLIENT_LIST] = { "LIST", &client_list },
	[CONN_CLIENT_NO_EVICT] = { "NO-EVICT", &client_onoff },
	[CONN_CLIENT_NO_TOUCH] = { "NO-TOUCH", &client_onoff },
	[CONN_CLIENT_SETINFO] = { "SETINFO", &client_setinfo },
	[CONN_CLIENT_SETNAME] = { "SETNAME", &client_name },
	{ NULL, NULL }
};
static const struct cmd_arg client_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1, .alts = client_alts,
	  .err = "CLIENT HELP" },
};
const struct cmd_spec cmd_conn_client_args = CMD_SPEC(client_args, 0);

/*
 * CONFIG GET pattern [pattern ...] | RESETSTAT; SET and REWRITE are
 * known, to be refused with why (ludusd reads its configuration once).
 */
static const struct cmd_arg config_patterns = {
	.name = "pattern", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 1 };
static const struct cmd_arg config_values = {
	.name = "parameter", .type = CMD_ARG_STRING,
	.flags = CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE,
	.doc = "parameter value ..." };
static const struct cmd_alt config_alts[] = {
	[CONN_CONFIG_GET] = { "GET", &config_patterns },
	[CONN_CONFIG_RESETSTAT] = { "RESETSTAT", NULL },
	[CONN_CONFIG_REWRITE] = { "REWRITE", NULL },
	[CONN_CONFIG_SET] = { "SET", &config_values },
	{ NULL, NULL }
};
static const struct cmd_arg config_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1, .alts = config_alts,
	  .err = "CONFIG HELP" },
};
const struct cmd_spec cmd_conn_config_args = CMD_SPEC(config_args, 0);

/* A protocol version: an integer (else Redis's message), then 2 or 3. */
static int
hello_proto(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->i == 2 || v->i == 3)
		return 0;
	reply_error(out, "NOPROTO", "unsupported protocol version");
	return -1;
}

/*
 * HELLO [protover [AUTH username password] [SETNAME name]]: the first
 * word is the version, even when it reads AUTH or SETNAME; -1: no
 * version, the protocol stays.
 */
static const struct cmd_arg hello_args[] = {
	[CONN_HELLO_PROTO] = { .name = "protover", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL, .min = 0, .max = INT32_MAX, .def = -1,
	  .errcode = "ERR",
	  .err = "Protocol version is not an integer or out of range",
	  .check = hello_proto, .doc = "2|3" },
	[CONN_HELLO_AUTH] = { .name = "auth", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_NESTED,
	  .token = "AUTH", .nmax = 2, .doc = "AUTH username password" },
	[CONN_HELLO_SETNAME] = { .name = "name", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_NESTED,
	  .token = "SETNAME" },
};
const struct cmd_spec cmd_conn_hello_args = { hello_args,
    CMD_NARGS(hello_args), NULL, 0, 0, "Syntax error in HELLO option",
    NULL };

/* COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST]: the value
 * is the alternative's index, CONN_COMMAND_*. */
static const struct cmd_arg command_names = CMD_ARG_STR_ANY("name");
static const struct cmd_alt command_alts[] = {
	[CONN_COMMAND_COUNT] = { "COUNT", NULL },
	[CONN_COMMAND_DOCS] = { "DOCS", &command_names },
	[CONN_COMMAND_INFO] = { "INFO", &command_names },
	[CONN_COMMAND_LIST] = { "LIST", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg command_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_OPTIONAL, .alts = command_alts },
};
const struct cmd_spec cmd_conn_command_args = CMD_SPEC(command_args, 0);
