/*
 * The parser of the declared arguments (src/cmd/cmd_args.c) on
 * declarations of the test's own: every argument type, ranges,
 * defaults, the tail, keyed words (of several words too), options,
 * repeats, subcommands (with their counts of words) and the excess
 * policies.  test_cmd_args has the table's declarations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

#include "args_helper.h"

static void
nothing(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	(void)env;
	(void)p;
	(void)out;
}

#define TEST_DEF(n, s) \
	{ .name = (n), .spec = &(s), .flags = CMD_READONLY, .proc = nothing }

/* What the option and apply hooks of the test's declarations did, in
 * order. */
static char	 applied[256];

static void
log_apply(const char *what, const char *v)
{
	size_t	 n = strlen(applied);

	snprintf(applied + n, sizeof(applied) - n, "%s%s=%s",
	    n > 0 ? " " : "", what, v);
}

static int
opt_log(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	(void)b;
	assert_int_equal(strlen(v), len);
	if (strcmp(v, "bad") == 0) {
		reply_error(out, "BADARG", "%s is bad", o->key);
		return -1;
	}
	log_apply(o->key, v);
	return 0;
}

static int
rest_log(struct cmd_parsed *p, const struct cmd_val *v, struct reply *out)
{
	char	 n[16];

	(void)p;
	(void)out;
	snprintf(n, sizeof(n), "#%d", v->n);
	log_apply(n, v->s);
	return 0;
}

static int
check_even(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	if (v->i % 2 == 0)
		return 0;
	reply_error(out, "BADARG", "%s must be even", a->name);
	return -1;
}


/* -------------------------------------------------------------- types */

static const struct cmd_arg types_args[] = {
	CMD_ARG_GAME,
	CMD_ARG_INT("n", -5, 5),
	CMD_ARG_STR("s"),
	{ .name = "even", .type = CMD_ARG_INT, .min = 0, .max = 100,
	  .check = check_even },
};
static const struct cmd_spec types_spec = CMD_SPEC(types_args, 0);
static const struct cmd_def types_def = TEST_DEF("T.TYPES", types_spec);

static void
test_types(void **state)
{
	(void)state;
	PARSE_AS(&types_def, "T.TYPES g-1 -5 anything 4", "ok");
	assert_string_equal(args_parsed.v[0].s, "g-1");
	assert_int_equal(args_parsed.v[0].at, 1);
	assert_int_equal(args_parsed.v[1].i, -5);
	assert_string_equal(args_parsed.v[2].s, "anything");
	assert_int_equal(args_parsed.v[3].i, 4);
	/* An id: 1-50 of a-z 0-9 -, no NUL. */
	PARSE_AS(&types_def, "T.TYPES G 0 s 0", "-BADARG invalid game id");
	PARSE_AS(&types_def, "T.TYPES \"\" 0 s 0", "-BADARG invalid game id");
	PARSE_AS(&types_def, "T.TYPES \"g\\x00\" 0 s 0",
	    "-BADARG invalid game id");
	PARSE_AS(&types_def, "T.TYPES "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 0 s 0",
	    "-BADARG invalid game id");
	/* An integer: plain decimal, in range, no NUL. */
	PARSE_AS(&types_def, "T.TYPES g 6 s 0",
	    "-BADARG n must be an integer from -5 to 5");
	PARSE_AS(&types_def, "T.TYPES g -6 s 0",
	    "-BADARG n must be an integer from -5 to 5");
	PARSE_AS(&types_def, "T.TYPES g 01 s 0",
	    "-BADARG n must be an integer from -5 to 5");
	PARSE_AS(&types_def, "T.TYPES g +1 s 0",
	    "-BADARG n must be an integer from -5 to 5");
	PARSE_AS(&types_def, "T.TYPES g \"1\\x00\" s 0",
	    "-BADARG n must be an integer from -5 to 5");
	PARSE_AS(&types_def, "T.TYPES g 99999999999999999999 s 0",
	    "-BADARG n must be an integer from -5 to 5");
	/* Any bytes, NUL included, with their length. */
	PARSE_AS(&types_def, "T.TYPES g 0 \"a\\x00b\" 0", "ok");
	assert_int_equal(args_parsed.v[2].len, 3);
	/* The check hook comes after the type's own check. */
	PARSE_AS(&types_def, "T.TYPES g 0 s 3", "-BADARG even must be even");
	PARSE_AS(&types_def, "T.TYPES g 0 s x",
	    "-BADARG even must be an integer from 0 to 100");
	/* In order: the first bad one wins. */
	PARSE_AS(&types_def, "T.TYPES G 9 s 3", "-BADARG invalid game id");
	PARSE_AS(&types_def, "T.TYPES g 9 s 3",
	    "-BADARG n must be an integer from -5 to 5");
}

/* ------------------------------------------- optional positionals */

static const struct cmd_arg opt_args[] = {
	CMD_ARG_GAME,
	CMD_ARG_INT_OPT("from", 1, 9, 1),
	CMD_ARG_INT_OPT("count", 1, 9, 7),
};
static const struct cmd_spec opt_arity = CMD_SPEC(opt_args,
    CMD_EXCESS_ARITY);
static const struct cmd_spec opt_syntax = CMD_SPEC(opt_args, 0);
static const struct cmd_spec opt_ignore = CMD_SPEC(opt_args,
    CMD_EXCESS_IGNORE);
static const struct cmd_def opt_arity_def = TEST_DEF("T.OPT", opt_arity);
static const struct cmd_def opt_syntax_def = TEST_DEF("T.OPT", opt_syntax);
static const struct cmd_def opt_ignore_def = TEST_DEF("T.OPT", opt_ignore);

static void
test_optional_and_excess(void **state)
{
	(void)state;
	PARSE_AS(&opt_arity_def, "T.OPT g", "ok");
	assert_int_equal(args_parsed.v[1].i, 1);	/* the defaults */
	assert_int_equal(args_parsed.v[1].at, 0);
	assert_int_equal(args_parsed.v[2].i, 7);
	PARSE_AS(&opt_arity_def, "T.OPT g 2", "ok");
	assert_int_equal(args_parsed.v[1].i, 2);
	assert_int_equal(args_parsed.v[2].i, 7);
	PARSE_AS(&opt_arity_def, "t.opt g 2 3", "ok");
	assert_int_equal(args_parsed.v[2].i, 3);
	/* A word too many: before anything else is read ... */
	PARSE_AS(&opt_arity_def, "T.OPT G 0 0 x",
	    "-ERR wrong number of arguments for 'T.OPT'");
	/* ... or once the positionals are read, as a syntax error ... */
	PARSE_AS(&opt_syntax_def, "T.OPT G 0 0 x", "-BADARG invalid game id");
	PARSE_AS(&opt_syntax_def, "T.OPT g 1 1 x", "-ERR syntax error");
	/* ... or taken and ignored. */
	PARSE_AS(&opt_ignore_def, "T.OPT g 1 1 x y", "ok");
	PARSE_AS(&opt_ignore_def, "T.OPT g 0", "-BADARG from must be an "
	    "integer from 1 to 9");
}

/* ---------------------------------------------------------- the tail */

static const struct cmd_arg tail_args[] = {
	CMD_ARG_GAME,
	CMD_ARG_INT_OPT("value", 1, 6, 0),
	CMD_ARG_AT,
};
static const struct cmd_spec tail_spec = CMD_SPEC(tail_args, 0);
static const struct cmd_def tail_def = TEST_DEF("T.TAIL", tail_spec);

static void
test_tail(void **state)
{
	(void)state;
	PARSE_AS(&tail_def, "T.TAIL g", "ok");
	assert_int_equal(args_parsed.v[1].i, 0);
	assert_int_equal(args_parsed.v[2].i, -1);	/* no AT */
	PARSE_AS(&tail_def, "T.TAIL g 3 AT 0", "ok");
	assert_int_equal(args_parsed.v[1].i, 3);
	assert_int_equal(args_parsed.v[2].i, 0);
	PARSE_AS(&tail_def, "T.TAIL g at 9223372036854775806", "ok");
	assert_int_equal(args_parsed.v[1].at, 0);
	assert_int_equal(args_parsed.v[2].i, INT64_MAX - 1);
	/* Its value is read first, then the count left, then the rest. */
	PARSE_AS(&tail_def, "T.TAIL G 9 At 9223372036854775807",
	    "-BADARG AT seq must be an integer from 0 to "
	    "9223372036854775806");
	PARSE_AS(&tail_def, "T.TAIL G 9 x AT 1", "-ERR syntax error");
	PARSE_AS(&tail_def, "T.TAIL G 9 AT 1", "-BADARG invalid game id");
	PARSE_AS(&tail_def, "T.TAIL g 9 AT 1",
	    "-BADARG value must be an integer from 1 to 6");
	/* Only when the words before it are at least the required ones:
	 * "AT" alone here is the value. */
	PARSE_AS(&tail_def, "T.TAIL g AT",
	    "-BADARG value must be an integer from 1 to 6");
	/* Taken once, from the end. */
	PARSE_AS(&tail_def, "T.TAIL g AT 1 AT 2", "-ERR syntax error");
	PARSE_AS(&tail_def, "T.TAIL g 1 AT", "-ERR syntax error");
}

/* ------------------------------------------------------- keyed words */

static const struct cmd_arg keyed_args[] = {
	{ .name = "kind", .type = CMD_ARG_INT, .flags = CMD_ARG_OPTIONAL,
	  .min = 0, .max = 9, .def = -1 },
	CMD_ARG_KEY_ID("AFTER", "id", "game"),
	CMD_ARG_KEY_INT("LIMIT", "n", 1, 100, 10),
};
static const struct cmd_spec keyed_spec = CMD_SPEC(keyed_args, 0);
static const struct cmd_def keyed_def = TEST_DEF("T.KEY", keyed_spec);
static const struct cmd_spec keyed_named = { .args = keyed_args,
    .nargs = CMD_NARGS(keyed_args), .badword = "Syntax error in T option" };
static const struct cmd_def keyed_named_def = TEST_DEF("T.KEY", keyed_named);

static const struct cmd_arg nested_args[] = {
	{ .name = "v", .type = CMD_ARG_INT, .flags = CMD_ARG_OPTIONAL,
	  .min = 0, .max = 9, .def = -1 },
	{ .name = "name", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_NESTED,
	  .token = "NAME" },
};
static const struct cmd_spec nested_spec = CMD_SPEC(nested_args, 0);
static const struct cmd_def nested_def = TEST_DEF("T.NEST", nested_spec);

static void
test_keyed(void **state)
{
	(void)state;
	PARSE_AS(&keyed_def, "T.KEY", "ok");
	assert_int_equal(args_parsed.v[0].i, -1);
	assert_null(args_parsed.v[1].s);
	assert_int_equal(args_parsed.v[2].i, 10);
	PARSE_AS(&keyed_def, "T.KEY 3 limit 5 After x", "ok");
	assert_int_equal(args_parsed.v[0].i, 3);
	assert_string_equal(args_parsed.v[1].s, "x");
	assert_int_equal(args_parsed.v[2].i, 5);
	/* An optional positional yields to a token. */
	PARSE_AS(&keyed_def, "T.KEY LIMIT 5", "ok");
	assert_int_equal(args_parsed.v[0].at, 0);
	/* In order; a token with no value, or no token, is a syntax error. */
	PARSE_AS(&keyed_def, "T.KEY x LIMIT 0",
	    "-BADARG kind must be an integer from 0 to 9");
	PARSE_AS(&keyed_def, "T.KEY LIMIT 0 AFTER X",
	    "-BADARG LIMIT must be an integer from 1 to 100");
	PARSE_AS(&keyed_def, "T.KEY AFTER X LIMIT 0",
	    "-BADARG invalid game id");
	PARSE_AS(&keyed_def, "T.KEY LIMIT", "-ERR syntax error");
	PARSE_AS(&keyed_def, "T.KEY 1 2", "-ERR syntax error");
	PARSE_AS(&keyed_def, "T.KEY 1 SINCE 2", "-ERR syntax error");
	PARSE_AS(&keyed_named_def, "T.KEY 1 SINCE 2",
	    "-ERR Syntax error in T option 'SINCE'");
	PARSE_AS(&keyed_named_def, "T.KEY 1 LIMIT",
	    "-ERR Syntax error in T option 'LIMIT'");
	/* Once each: the second is refused before its value is read. */
	PARSE_AS(&keyed_def, "T.KEY LIMIT 1 limit 2",
	    "-ERR syntax error: option 'LIMIT' given twice");
	PARSE_AS(&keyed_def, "T.KEY LIMIT 1 LIMIT x",
	    "-ERR syntax error: option 'LIMIT' given twice");
	PARSE_AS(&keyed_def, "T.KEY AFTER a LIMIT 1 AFTER b",
	    "-ERR syntax error: option 'AFTER' given twice");
	/* A nested token only after the positionals: before, it is one. */
	PARSE_AS(&nested_def, "T.NEST 3 name me", "ok");
	assert_string_equal(args_parsed.v[1].s, "me");
	PARSE_AS(&nested_def, "T.NEST NAME me",
	    "-BADARG v must be an integer from 0 to 9");
	PARSE_AS(&nested_def, "T.NEST 3 me", "-ERR syntax error");
}

/* ----------------------------------------------------------- options */

static const struct cmd_arg optw_args[] = {
	CMD_ARG_GAME,
	{ .name = "p", .type = CMD_ARG_ID, .flags = CMD_ARG_MULTIPLE,
	  .what = "player", .nmin = 1, .nmax = 2,
	  .counterr = "one or two players", .apply = rest_log },
};
static const struct cmd_opt optw_opts[] = {
	{ "first", "x", CMD_OPT_FIRST, opt_log, 0 },
	{ "a", "x", 0, opt_log, 0 },
	{ "b", "x", CMD_OPT_HIDDEN, opt_log, 0 },
	{ "c-d", "x", 0, opt_log, 0 },
};
static const struct cmd_spec optw_spec = CMD_SPEC_OPTS(optw_args, optw_opts,
    CMD_OPTS_NUL_FIRST, NULL);
static const struct cmd_def optw_def = TEST_DEF("T.OPTW", optw_spec);

static const struct cmd_arg opts_args[] = { CMD_ARG_GAME };
static const struct cmd_spec opts_spec = CMD_SPEC_OPTS(opts_args, optw_opts,
    0, NULL);
static const struct cmd_def opts_def = TEST_DEF("T.OPTS", opts_spec);
static const struct cmd_spec opts_plain = CMD_SPEC_OPTS(opts_args,
    optw_opts, CMD_OPTS_UNKNOWN_PLAIN, NULL);
static const struct cmd_def opts_plain_def = TEST_DEF("T.OPTS", opts_plain);

static void
test_options(void **state)
{
	(void)state;
	/* Applied in argv order, the FIRST ones before all; the other words
	 * are the MULTIPLE positional's, read after the options. */
	applied[0] = '\0';
	PARSE_AS(&optw_def, "T.OPTW g c-d=1 p1 a=2 first=3 p2 b=4", "ok");
	assert_string_equal(applied, "first=3 c-d=1 a=2 b=4 #0=p1 #1=p2");
	assert_int_equal(args_parsed.v[1].n, 2);
	assert_int_equal(args_parsed.v[1].at, 3);
	assert_non_null(args_parsed.build);
	/* A NUL anywhere first, then the FIRST options, the others, the
	 * players and their count. */
	PARSE_AS(&optw_def, "T.OPTW G \"a\\x00\" first=bad",
	    "-BADARG invalid game id");
	PARSE_AS(&optw_def, "T.OPTW g P@ a=bad first=bad \"a\\x00\"",
	    "-BADARG invalid argument");
	PARSE_AS(&optw_def, "T.OPTW g P@ a=bad first=bad",
	    "-BADARG first is bad");
	PARSE_AS(&optw_def, "T.OPTW g P@ zz=1 a=bad",
	    "-ERR syntax error: unknown option 'zz'");
	PARSE_AS(&optw_def, "T.OPTW g P@ a=bad zz=1", "-BADARG a is bad");
	PARSE_AS(&optw_def, "T.OPTW g P@ p3", "-BADARG invalid player id");
	PARSE_AS(&optw_def, "T.OPTW g p1 p2 P@", "-BADARG invalid player id");
	PARSE_AS(&optw_def, "T.OPTW g p1 p2 p3", "-BADARG one or two players");
	PARSE_AS(&optw_def, "T.OPTW g a=1 b=2", "-BADARG one or two players");
	/* The key is what comes before the first '='. */
	PARSE_AS(&optw_def, "T.OPTW g p a=b=c", "ok");
	PARSE_AS(&optw_def, "T.OPTW g p =x", "-ERR syntax error: unknown "
	    "option ''");
	PARSE_AS(&optw_def, "T.OPTW g p "
	    "abcdefghijklmnopqrstuvwxyz0123456789=1",
	    "-ERR syntax error: unknown option "
	    "'abcdefghijklmnopqrstuvwxyz012345'");
	/* Once each, FIRST ones included. */
	PARSE_AS(&optw_def, "T.OPTW g p a=1 a=1",
	    "-ERR syntax error: option 'a' given twice");
	PARSE_AS(&optw_def, "T.OPTW g p first=1 a=bad first=2",
	    "-ERR syntax error: option 'first' given twice");
	/* Without a MULTIPLE positional, a word that is not key=value (or
	 * holds a NUL) is one too many: the arity error, in argv order. */
	PARSE_AS(&opts_def, "T.OPTS g a=bad x", "-BADARG a is bad");
	PARSE_AS(&opts_def, "T.OPTS g x a=bad",
	    "-ERR wrong number of arguments for 'T.OPTS'");
	PARSE_AS(&opts_def, "T.OPTS g \"a=\\x00\"",
	    "-ERR wrong number of arguments for 'T.OPTS'");
	PARSE_AS(&opts_def, "T.OPTS g zz=1",
	    "-ERR syntax error: unknown option 'zz'");
	PARSE_AS(&opts_plain_def, "T.OPTS g zz=1", "-ERR syntax error");
	PARSE_AS(&opts_plain_def, "T.OPTS g", "ok");
}

/* -------------------------------------------------------- subcommand */

static const struct cmd_arg sub_rest = CMD_ARG_STR_ANY("name");
static const struct cmd_alt sub_alts[] = {
	{ "ONE", NULL },
	{ "MANY", &sub_rest },
	{ NULL, NULL }
};
static const struct cmd_arg sub_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_OPTIONAL, .alts = sub_alts },
};
static const struct cmd_spec sub_spec = CMD_SPEC(sub_args, 0);
static const struct cmd_def sub_def = TEST_DEF("T.SUB", sub_spec);

static void
test_subcommand(void **state)
{
	(void)state;
	PARSE_AS(&sub_def, "T.SUB", "ok");
	assert_int_equal(args_parsed.v[0].i, -1);
	PARSE_AS(&sub_def, "T.SUB one", "ok");
	assert_int_equal(args_parsed.v[0].i, 0);
	PARSE_AS(&sub_def, "T.SUB Many a b", "ok");
	assert_int_equal(args_parsed.v[0].i, 1);
	assert_int_equal(args_parsed.v[0].n, 2);
	assert_string_equal(cmd_word(&args_parsed, 0, 0), "a");
	assert_string_equal(cmd_word(&args_parsed, 0, 1), "b");
	assert_int_equal(cmd_word_len(&args_parsed, 0, 1), 1);
	/* The subcommand's word is named, even for the words after it. */
	PARSE_AS(&sub_def, "T.SUB two", "-ERR unknown subcommand or wrong "
	    "number of arguments for 'two'. Try ONE or MANY.");
	PARSE_AS(&sub_def, "T.SUB one x", "-ERR unknown subcommand or wrong "
	    "number of arguments for 'one'. Try ONE or MANY.");
}

/* Alternatives that take a count of words, and a refusal that points to
 * a HELP. */
static const struct cmd_arg cnt_one = CMD_ARG_STR("name");
static const struct cmd_arg cnt_opt = CMD_ARG_STR_OPT("pattern");
static const struct cmd_arg cnt_two = {
	.name = "pair", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 2, .nmax = 2 };
static const struct cmd_alt cnt_alts[] = {
	{ "ONE", &cnt_one },
	{ "OPT", &cnt_opt },
	{ "TWO", &cnt_two },
	{ NULL, NULL }
};
static const struct cmd_arg cnt_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1, .alts = cnt_alts,
	  .err = "T HELP" },
};
static const struct cmd_spec cnt_spec = CMD_SPEC(cnt_args, 0);
static const struct cmd_def cnt_def = TEST_DEF("T.CNT", cnt_spec);

static void
test_subcommand_counts(void **state)
{
	(void)state;
	PARSE_AS(&cnt_def, "T.CNT one x", "ok");
	assert_int_equal(args_parsed.v[0].i, 0);
	assert_string_equal(cmd_word(&args_parsed, 0, 0), "x");
	PARSE_AS(&cnt_def, "T.CNT opt", "ok");
	assert_int_equal(args_parsed.v[0].n, 0);
	PARSE_AS(&cnt_def, "T.CNT opt p", "ok");
	PARSE_AS(&cnt_def, "T.CNT two a b", "ok");
	assert_int_equal(args_parsed.v[0].n, 2);
	assert_string_equal(cmd_word(&args_parsed, 0, 1), "b");
	PARSE_AS(&cnt_def, "T.CNT one", "-ERR unknown subcommand or wrong "
	    "number of arguments for 'one'. Try T HELP.");
	PARSE_AS(&cnt_def, "T.CNT one x y", "-ERR unknown subcommand or "
	    "wrong number of arguments for 'one'. Try T HELP.");
	PARSE_AS(&cnt_def, "T.CNT opt p q", "-ERR unknown subcommand or "
	    "wrong number of arguments for 'opt'. Try T HELP.");
	PARSE_AS(&cnt_def, "T.CNT two a", "-ERR unknown subcommand or wrong "
	    "number of arguments for 'two'. Try T HELP.");
	PARSE_AS(&cnt_def, "T.CNT three", "-ERR unknown subcommand or wrong "
	    "number of arguments for 'three'. Try T HELP.");
}

/* A token of two words, and one that takes every word left. */
static const struct cmd_arg words_args[] = {
	{ .name = "n", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "COUNT",
	  .min = 0, .max = 9, .def = -1 },
	{ .name = "auth", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "AUTH",
	  .nmax = 2 },
	{ .name = "rest", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_KEYED | CMD_ARG_MULTIPLE, .token = "ALL",
	  .nmin = 2 },
};
static const struct cmd_spec words_spec = CMD_SPEC(words_args, 0);
static const struct cmd_def words_def = TEST_DEF("T.WORDS", words_spec);

static void
test_keyed_words(void **state)
{
	(void)state;
	PARSE_AS(&words_def, "T.WORDS AUTH u p COUNT 3 ALL a b c", "ok");
	assert_int_equal(args_parsed.v[0].i, 3);
	assert_int_equal(args_parsed.v[1].n, 2);
	assert_string_equal(cmd_word(&args_parsed, 1, 0), "u");
	assert_string_equal(cmd_word(&args_parsed, 1, 1), "p");
	assert_int_equal(args_parsed.v[2].n, 3);
	assert_string_equal(cmd_word(&args_parsed, 2, 0), "a");
	assert_string_equal(cmd_word(&args_parsed, 2, 2), "c");
	/* ALL takes the tokens after it too, as words. */
	PARSE_AS(&words_def, "T.WORDS ALL COUNT x", "ok");
	assert_int_equal(args_parsed.v[0].i, -1);
	assert_int_equal(args_parsed.v[2].n, 2);
	/* Absent: the handler decides. */
	PARSE_AS(&words_def, "T.WORDS COUNT 1", "ok");
	assert_int_equal(args_parsed.v[2].at, 0);
	/* Too few words after a token: a syntax error, in order. */
	PARSE_AS(&words_def, "T.WORDS AUTH u", "-ERR syntax error");
	PARSE_AS(&words_def, "T.WORDS COUNT x ALL", "-BADARG COUNT must be "
	    "an integer from 0 to 9");
	PARSE_AS(&words_def, "T.WORDS COUNT 1 ALL", "-ERR syntax error");
	PARSE_AS(&words_def, "T.WORDS AUTH u p AUTH v q",
	    "-ERR syntax error: option 'AUTH' given twice");
}

/* The arity each declaration makes (COMMAND's, and the count checked
 * before the parser runs): exactly N words, or at least N (-N). */
static void
test_arity(void **state)
{
	static const struct {
		const struct cmd_def	*d;
		int			 arity;
	} want[] = {
		{ &types_def, 5 }, { &opt_arity_def, -2 },
		{ &opt_syntax_def, -2 }, { &opt_ignore_def, -2 },
		{ &tail_def, -2 }, { &keyed_def, -1 }, { &keyed_named_def, -1 },
		{ &nested_def, -1 }, { &optw_def, -3 }, { &opts_def, -2 },
		{ &opts_plain_def, -2 }, { &sub_def, -1 }, { &cnt_def, -2 },
		{ &words_def, -3 },
	};
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(cmd_arity(want[i].d), want[i].arity);
		assert_true(cmd_arity_ok(want[i].d, abs(want[i].arity)));
		assert_false(cmd_arity_ok(want[i].d, abs(want[i].arity) - 1));
		assert_int_equal(cmd_arity_ok(want[i].d,
		    abs(want[i].arity) + 1), want[i].arity < 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arity),
		cmocka_unit_test_teardown(test_types, args_teardown),
		cmocka_unit_test_teardown(test_optional_and_excess,
		    args_teardown),
		cmocka_unit_test_teardown(test_tail, args_teardown),
		cmocka_unit_test_teardown(test_keyed, args_teardown),
		cmocka_unit_test_teardown(test_options, args_teardown),
		cmocka_unit_test_teardown(test_subcommand, args_teardown),
		cmocka_unit_test_teardown(test_subcommand_counts,
		    args_teardown),
		cmocka_unit_test_teardown(test_keyed_words, args_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
