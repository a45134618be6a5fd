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

/* QUIT takes any words and ignores them, as Redis does. */
const struct cmd_spec cmd_conn_quit_args = { NULL, 0, NULL, 0,
    CMD_EXCESS_IGNORE, NULL, NULL };

static const struct cmd_arg info_args[] = { CMD_ARG_STR_ANY("section") };
const struct cmd_spec cmd_conn_info_args = CMD_SPEC(info_args, 0);

static const struct cmd_arg unwatch_args[] = { CMD_ARG_STR_ANY("id") };
const struct cmd_spec cmd_conn_unwatch_args = CMD_SPEC(unwatch_args, 0);

/*
 * WATCH id [FROM seq]: 2 or 4 words, else the arity error; then FROM,
 * its value (a message of its own), and only then the id.  -1: no FROM.
 */
static const struct cmd_arg watch_args[] = {
	CMD_ARG_GAME,
	{ .name = "seq", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_TAIL, .token = "FROM",
	  .min = 0, .max = INT64_MAX - 1, .def = -1,
	  .errcode = "BADARG", .err = "FROM seq must be an integer >= 0" },
};
const struct cmd_spec cmd_conn_watch_args = CMD_SPEC(watch_args,
    CMD_EXCESS_ARITY);

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
 * HELLO [protover [SETNAME name]]: the first word is the version, even
 * when it reads SETNAME; a name is accepted (and ignored) for the clients
 * that always send one; -1: no version, the protocol stays.
 */
static const struct cmd_arg hello_args[] = {
	{ .name = "protover", .type = CMD_ARG_INT, .flags = CMD_ARG_OPTIONAL,
	  .min = 0, .max = INT32_MAX, .def = -1, .errcode = "ERR",
	  .err = "Protocol version is not an integer or out of range",
	  .check = hello_proto, .doc = "2|3" },
	{ .name = "name", .type = CMD_ARG_STRING,
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
