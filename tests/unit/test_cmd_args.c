/*
 * The table's declared arguments: each usage line they make is the one
 * users read, each arity agrees with them, COMMAND DOCS is what
 * redis-cli reads, and, command by command, which error wins when an
 * input has several.
 * Nothing here touches a store: the parser never does.
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
#include "shown.h"

/* Appends s to the string in buf. */
static void
append(char *buf, const char *s, size_t len)
{
	size_t	 n = strlen(buf);

	snprintf(buf + n, len - n, "%s", s);
}

/* ------------------------------------------------ the table declared */

static int
spec_words_min(const struct cmd_spec *s)
{
	int	 k, n = 1;

	for (k = 0; k < s->nargs; k++)
		if (s->args[k].flags & CMD_ARG_MULTIPLE)
			n += s->args[k].nmin;
		else if (!(s->args[k].flags & CMD_ARG_OPTIONAL))
			n++;
	return n;
}

static int
spec_fixed(const struct cmd_spec *s)
{
	int	 k;

	if (s->opts != NULL || (s->flags & CMD_EXCESS_IGNORE))
		return 0;
	for (k = 0; k < s->nargs; k++)
		if (s->args[k].flags & (CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE))
			return 0;
	return 1;
}

/* Positionals, then keyed words, then the tail; MULTIPLE only last. */
static void
check_spec(const struct cmd_def *d)
{
	const struct cmd_spec	*s = d->spec;
	int			 k, stage = 0, st, fl, optional = 0;

	assert_non_null(s);
	assert_true(s->nargs <= CMD_ARGS_MAX);
	assert_true(s->nopts <= 32);
	for (k = 0; k < s->nargs; k++) {
		fl = s->args[k].flags;
		st = (fl & CMD_ARG_TAIL) ? 2 : (fl & CMD_ARG_KEYED) ? 1 : 0;
		assert_true(st >= stage);
		stage = st;
		if (st > 0)
			assert_non_null(s->args[k].token);
		if (st == 0 && (fl & CMD_ARG_OPTIONAL))
			optional = 1;
		else if (st == 0)
			assert_false(optional);	/* required after optional */
		if (fl & CMD_ARG_MULTIPLE)	/* the last positional */
			assert_true(k + 1 == s->nargs ||
			    (s->args[k + 1].flags & (CMD_ARG_KEYED |
			    CMD_ARG_TAIL)) != 0);
	}
	/* A command takes keyed words or options, not both. */
	for (k = 0; k < s->nargs && s->opts != NULL; k++)
		assert_false(s->args[k].flags & CMD_ARG_KEYED);
}

/* The usage line and arity users read of each command
 * (tests/lib/commands.txt) are what its declarations make, and its
 * declarations are well formed. */
static void
test_table_declarations(void **state)
{
	const struct cmd_def	*d;
	const struct shown	*want;
	struct shown		*shown;
	char			 usage[CMD_USAGE_MAX];
	size_t			 i, n = shown_read(&shown);

	(void)state;
	for (i = 0; (d = cmd_at(i)) != NULL; i++) {
		check_spec(d);
		if ((want = shown_find(shown, n, d->name)) == NULL)
			fail_msg("%s is not in commands.txt", d->name);
		assert_true(cmd_args_usage(d, usage, sizeof(usage)) <
		    sizeof(usage));
		if (strcmp(usage, want->usage) != 0) {
			print_error("%s:\n  declared: %s\n  shown:    %s\n",
			    d->name, usage, want->usage);
			fail();
		}
		/* The arity is the one shown, and agrees with the
		 * arguments. */
		assert_int_equal(cmd_arity(d), want->arity);
		if (cmd_arity(d) > 0) {
			assert_true(spec_fixed(d->spec));
			assert_int_equal(cmd_arity(d), spec_words_min(d->spec));
		} else {
			assert_false(spec_fixed(d->spec));
			assert_int_equal(-cmd_arity(d),
			    spec_words_min(d->spec));
		}
		/* The command layer's handler, no other: the connection
		 * commands and what the daemon does around them are the
		 * daemon's (test_conn checks what they show); but for
		 * CMD_NO_MULTI, which the lobby's writes declare (an EXEC
		 * would not keep them whole with its games'), and
		 * PLAYER.LOGIN (it changes the connection). */
		assert_non_null(d->proc);
		assert_null(d->conn);
		assert_false(d->flags & (CMD_PUBSUB | CMD_BARRIER |
		    CMD_NO_QUEUE | CMD_NO_AUTH));
		assert_true(!(d->flags & CMD_NO_MULTI) ==
		    !((strncmp(d->name, "PLAYER.", 7) == 0 ||
		    strncmp(d->name, "MATCH.", 6) == 0) &&
		    ((d->flags & CMD_WRITE) ||
		    strcmp(d->name, "PLAYER.LOGIN") == 0)));
		assert_true(!(d->flags & CMD_WRITE) !=
		    !(d->flags & CMD_READONLY));
	}
	free(shown);
}

/* GAMES' kind and SCAN's type read as the kind table names them. */
static void
test_games_kinds_doc(void **state)
{
	char			 want[64] = "", line[CMD_USAGE_MAX], usage[128];
	int			 k;

	(void)state;
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++) {
		if (k > KIND_NONE + 1)
			append(want, "|", sizeof(want));
		append(want, game_kind_name((enum game_kind)k), sizeof(want));
	}
	snprintf(usage, sizeof(usage), "GAMES [%s] [AFTER id] [LIMIT n]",
	    want);
	(void)cmd_args_usage(cmd_lookup("GAMES"), line, sizeof(line));
	assert_string_equal(line, usage);
	snprintf(usage, sizeof(usage), " [TYPE stream|%s]", want);
	(void)cmd_args_usage(cmd_lookup("SCAN"), line, sizeof(line));
	assert_non_null(strstr(line, usage));
}

/* ---------------------------------------------------- COMMAND DOCS */

/* Levels of aggregates, the reply's own included. */
static int
depth(const struct reply *r)
{
	size_t	 i;
	int	 d, most = 0;

	if (r->type != REPLY_ARRAY && r->type != REPLY_MAP)
		return 0;
	for (i = 0; i < r->n; i++)
		if ((d = depth(&r->elem[i])) > most)
			most = d;
	return most + 1;
}

/* The value of key in a map reply, or NULL. */
static const struct reply *
field(const struct reply *m, const char *key)
{
	size_t	 i;

	assert_int_equal(m->type, REPLY_MAP);
	for (i = 0; i + 1 < m->n; i += 2) {
		assert_int_equal(m->elem[i].type, REPLY_BULK);
		if (strcmp(m->elem[i].str, key) == 0)
			return &m->elem[i + 1];
	}
	return NULL;
}

/* What redis-cli 7 asserts of every argument it reads. */
static void
check_doc_arg(const struct reply *a)
{
	const struct reply	*f;
	size_t			 i;

	assert_int_equal(field(a, "name")->type, REPLY_BULK);
	assert_int_equal(field(a, "type")->type, REPLY_BULK);
	if ((f = field(a, "token")) != NULL)
		assert_int_equal(f->type, REPLY_BULK);
	if ((f = field(a, "flags")) != NULL) {
		assert_int_equal(f->type, REPLY_ARRAY);
		for (i = 0; i < f->n; i++)
			assert_int_equal(f->elem[i].type, REPLY_STATUS);
	}
	if ((f = field(a, "arguments")) != NULL) {
		assert_int_equal(f->type, REPLY_ARRAY);
		for (i = 0; i < f->n; i++)
			check_doc_arg(&f->elem[i]);
	}
}

static void
check_doc(const struct reply *doc, const char *summary)
{
	const struct reply	*args, *subs;
	size_t			 i;

	if (summary != NULL)
		assert_string_equal(field(doc, "summary")->str, summary);
	assert_non_null(field(doc, "since"));
	assert_non_null(field(doc, "group"));
	args = field(doc, "arguments");
	assert_non_null(args);
	assert_int_equal(args->type, REPLY_ARRAY);
	for (i = 0; i < args->n; i++)
		check_doc_arg(&args->elem[i]);
	if ((subs = field(doc, "subcommands")) != NULL)
		for (i = 0; i + 1 < subs->n; i += 2)
			check_doc(&subs->elem[i + 1], NULL);
}

/* An argument's map as "name:type[:token][:flags...]". */
static void
arg_line(const struct reply *a, char *buf, size_t len)
{
	const struct reply	*f;
	size_t			 i;

	snprintf(buf, len, "%s:%s", field(a, "name")->str,
	    field(a, "type")->str);
	if ((f = field(a, "token")) != NULL) {
		append(buf, ":", len);
		append(buf, f->str, len);
	}
	for (i = 0; (f = field(a, "flags")) != NULL && i < f->n; i++) {
		append(buf, ":", len);
		append(buf, f->elem[i].str, len);
	}
}

static void
test_command_docs(void **state)
{
	const struct cmd_def	*d;
	const struct reply	*args, *block;
	struct shown		*shown;
	struct reply		 doc;
	char			 line[128];
	static const char	*play[] = { "id:string", "player:string",
				    "dice:integer", "token:integer",
				    "seq:integer:AT:optional" };
	size_t			 i, n = shown_read(&shown);

	(void)state;
	for (i = 0; (d = cmd_at(i)) != NULL; i++) {
		memset(&doc, 0, sizeof(doc));
		cmd_args_docs(d, &doc);
		check_doc(&doc, shown_find(shown, n, d->name)->usage);
		/* COMMAND DOCS' map and the name's entry hold it: hiredis
		 * 0.14 reads eight levels at most. */
		assert_true(1 + depth(&doc) <= 8);
		reply_free(&doc);
	}
	memset(&doc, 0, sizeof(doc));
	cmd_args_docs(cmd_lookup("LUDO.PLAY"), &doc);
	args = field(&doc, "arguments");
	assert_int_equal(args->n, 5);
	for (i = 0; i < 5; i++) {
		arg_line(&args->elem[i], line, sizeof(line));
		assert_string_equal(line, play[i]);
	}
	reply_free(&doc);
	/* Optional positionals in a row nest, as the usage has them. */
	memset(&doc, 0, sizeof(doc));
	cmd_args_docs(cmd_lookup("HISTORY"), &doc);
	args = field(&doc, "arguments");
	assert_int_equal(args->n, 2);
	arg_line(&args->elem[1], line, sizeof(line));
	assert_string_equal(line, "from:block:optional");
	block = field(&args->elem[1], "arguments");
	assert_int_equal(block->n, 2);
	arg_line(&block->elem[0], line, sizeof(line));
	assert_string_equal(line, "from:integer");
	arg_line(&block->elem[1], line, sizeof(line));
	assert_string_equal(line, "count:integer:optional");
	reply_free(&doc);
	/* Options are named as the usage shows them. */
	memset(&doc, 0, sizeof(doc));
	cmd_args_docs(cmd_lookup("DANDY.CREATE"), &doc);
	args = field(&doc, "arguments");
	assert_int_equal(args->n, 3 + 4);	/* dice= is hidden */
	arg_line(&args->elem[3], line, sizeof(line));
	assert_string_equal(line, "deck=<cards>|shuffled[:N]:string:optional");
	reply_free(&doc);
	free(shown);
}

/* ------------------------------------------ each command's order */

static void
test_order_ludo(void **state)
{
	struct ludo_rules	*r = &args_build.game.s.ludo.rules;

	(void)state;
	/* LUDO.PLAY: the tail, the count, then id, player, dice, token. */
	PARSE("LUDO.PLAY BAD! a 9 9 AT x", "-BADARG AT seq must be an "
	    "integer from 0 to 9223372036854775806");
	PARSE("LUDO.PLAY BAD! a 9 9 x", "-ERR syntax error");
	PARSE("LUDO.PLAY BAD! a 9 AT 1", "-ERR syntax error");
	PARSE("LUDO.PLAY BAD! B@D 9 9", "-BADARG invalid game id");
	PARSE("LUDO.PLAY g B@D 9 9", "-BADARG invalid player id");
	PARSE("LUDO.PLAY g a 9 9", "-BADARG dice must be an integer from 1 "
	    "to 6");
	PARSE("LUDO.PLAY g a 6 9", "-BADARG token must be an integer from 0 "
	    "to 4");
	PARSE("ludo.play g a 6 0 at 4", "ok");
	assert_int_equal(args_parsed.v[4].i, 4);
	PARSE("LUDO.PLAY g a 6 1", "ok");
	assert_int_equal(args_parsed.v[4].i, -1);
	/* LUDO.CREATE: the id, every word for a NUL, every rules=, the
	 * other options in order, then the players. */
	PARSE("LUDO.CREATE BAD! B@D rules=x \"a\\x00\"",
	    "-BADARG invalid game id");
	PARSE("LUDO.CREATE g B@D six-bonus=x rules=x \"a\\x00\"",
	    "-BADARG invalid argument");
	PARSE("LUDO.CREATE g B@D six-bonus=x rules=x",
	    "-BADARG rules must be classic, interview or extended");
	PARSE("LUDO.CREATE g B@D zz=1 six-bonus=x",
	    "-ERR syntax error: unknown option 'zz'");
	PARSE("LUDO.CREATE g B@D six-bonus=x zz=1",
	    "-BADARG six-bonus must be on or off");
	PARSE("LUDO.CREATE g B@D seats=x dice=x",
	    "-BADARG seats must be secure or open");
	PARSE("LUDO.CREATE g B@D dice=x seats=x",
	    "-BADARG dice must be server or manual");
	PARSE("LUDO.CREATE g B@D turn-timeout=604801", "-BADARG turn-timeout "
	    "must be an integer from 0 to 604800 (seconds)");
	PARSE("LUDO.CREATE g B@D bots=", "-BADARG bots must be "
	    "player:strategy,...");
	PARSE("LUDO.CREATE g B@D a", "-BADARG invalid player id");
	PARSE("LUDO.CREATE g a b c d B@D", "-BADARG invalid player id");
	PARSE("LUDO.CREATE g a b c d e", "-BADARG Ludo takes 2 to 4 players");
	PARSE("LUDO.CREATE g a b a", "-BADARG duplicate player 'a'");
	PARSE("LUDO.CREATE g a rules=classic",
	    "-BADARG Ludo takes 2 to 4 players");
	PARSE("LUDO.CREATE g a", "-ERR wrong number of arguments for "
	    "'LUDO.CREATE'");
	/* A repeated option is refused (once it applied silently). */
	PARSE("LUDO.CREATE g a b rules=classic rules=extended",
	    "-ERR syntax error: option 'rules' given twice");
	PARSE("LUDO.CREATE g a b three-sixes=on three-sixes=on",
	    "-ERR syntax error: option 'three-sixes' given twice");
	PARSE("LUDO.CREATE g a b bots=a:first bots=b:first",
	    "-ERR syntax error: option 'bots' given twice");
	/* The preset first, whatever the order; the flags override it. */
	PARSE("LUDO.CREATE g six-bonus=off red rules=extended blue", "ok");
	assert_int_equal(args_parsed.v[1].n, 2);
	assert_string_equal(args_build.game.players[0], "red");
	assert_string_equal(args_build.game.players[1], "blue");
	assert_int_equal(r->preset, LUDO_EXTENDED);
	assert_int_equal(r->six_bonus, 0);
	assert_int_equal(r->capture_bonus, 1);
	PARSE("LUDO.CREATE g a b dice=server seats=secure turn-timeout=5 "
	    "bots=b:expert", "ok");
	assert_int_equal(args_build.opts.server_dice, 1);
	assert_int_equal(args_build.opts.seats, 1);
	assert_int_equal(args_build.opts.timeout, 5);
	assert_string_equal(args_build.opts.bots, "b:expert");
	PARSE("LUDO.CREATE g a b", "ok");
	assert_int_equal(r->preset, LUDO_CLASSIC);
	assert_int_equal(args_build.opts.seats, -1);
	/* The others: the id, then the rest in order. */
	PARSE("LUDO.ROLL BAD! B@D", "-BADARG invalid game id");
	PARSE("LUDO.ROLL g B@D", "-BADARG invalid player id");
	PARSE("LUDO.LEGAL BAD! 0", "-BADARG invalid game id");
	PARSE("LUDO.LEGAL g 0", "-BADARG dice must be an integer from 1 to "
	    "6");
	PARSE("LUDO.STATE BAD!", "-BADARG invalid game id");
	PARSE("LUDO.STATE g", "ok");
}

static void
test_order_snl(void **state)
{
	(void)state;
	/* SNL.CREATE: id, players, then each word key=value in order (else
	 * the arity error), jumps onto the board as they come. */
	PARSE("SNL.CREATE BAD! 0 x", "-BADARG invalid game id");
	PARSE("SNL.CREATE g 65 x", "-BADARG players must be an integer from "
	    "1 to 64");
	PARSE("SNL.CREATE g 2 x seats=x",
	    "-ERR wrong number of arguments for 'SNL.CREATE'");
	PARSE("SNL.CREATE g 2 seats=x x",
	    "-BADARG seats must be secure or open");
	PARSE("SNL.CREATE g 2 snakes=10:20 seats=x",
	    "-BADARG a snake's tail must be below its head");
	PARSE("SNL.CREATE g 2 seats=x snakes=10:20",
	    "-BADARG seats must be secure or open");
	PARSE("SNL.CREATE g 2 snakes=x", "-BADARG snakes must be "
	    "head:tail,...");
	PARSE("SNL.CREATE g 2 ladders=4:98,98:100 snakes=x",
	    "-BADARG another snake or ladder ends on that cell (chain)");
	PARSE("SNL.CREATE g 2 zz=1 seats=x",
	    "-ERR syntax error: unknown option 'zz'");
	PARSE("SNL.CREATE g 2 snakes=99:2 snakes=50:3",
	    "-ERR syntax error: option 'snakes' given twice");
	PARSE("SNL.CREATE g 3 snakes=99:2,50:3 ladders=4:98", "ok");
	assert_int_equal(args_build.game.s.snl.nplayers, 3);
	assert_int_equal(args_build.game.s.snl.jump[99], 2);
	assert_int_equal(args_build.game.s.snl.jump[50], 3);
	assert_int_equal(args_build.game.s.snl.jump[4], 98);
	/* SNL.ROLL: the tail, the count, the id, the value. */
	PARSE("SNL.ROLL BAD! 9 AT x", "-BADARG AT seq must be an integer from "
	    "0 to 9223372036854775806");
	PARSE("SNL.ROLL BAD! 9 x", "-ERR syntax error");
	PARSE("SNL.ROLL BAD! 9", "-BADARG invalid game id");
	PARSE("SNL.ROLL g 9", "-BADARG value must be an integer from 1 to 6");
	PARSE("SNL.ROLL g AT", "-BADARG value must be an integer from 1 to 6");
	PARSE("SNL.ROLL g AT 2", "ok");
	/* No value: a server roll. */
	assert_int_equal(args_parsed.v[1].i, 0);
	assert_int_equal(args_parsed.v[2].i, 2);
	PARSE("SNL.SNAKE BAD! 0 0", "-BADARG invalid game id");
	PARSE("SNL.SNAKE g 0 0", "-BADARG head must be an integer from 1 to "
	    "100");
	PARSE("SNL.SNAKE g 1 101", "-BADARG tail must be an integer from 1 "
	    "to 100");
	PARSE("SNL.LADDER g 0 0", "-BADARG bottom must be an integer from 1 "
	    "to 100");
	PARSE("SNL.LADDER g 1 0", "-BADARG top must be an integer from 1 to "
	    "100");
	PARSE("SNL.STATE BAD!", "-BADARG invalid game id");
}

static void
test_order_dandy(void **state)
{
	(void)state;
	/* DANDY.CREATE: id, players, board, then each word key=value in
	 * order (else the arity error), an unknown key a plain syntax
	 * error. */
	PARSE("DANDY.CREATE BAD! 9 zz x", "-BADARG invalid game id");
	PARSE("DANDY.CREATE g 9 zz x", "-BADARG players must be an integer "
	    "from 1 to 8");
	PARSE("DANDY.CREATE g 2 zz x", "-BADARG board must be 1 to 36 "
	    "letters a-i");
	PARSE("DANDY.CREATE g 2 ab x deck=zz",
	    "-ERR wrong number of arguments for 'DANDY.CREATE'");
	PARSE("DANDY.CREATE g 2 ab deck=zz x", "-BADARG cards must be at "
	    "most 1024 of a-i and 1-9");
	PARSE("DANDY.CREATE g 2 ab deck=shuffled:0", "-BADARG deck=shuffled:N "
	    "takes N from 1 to 1024");
	PARSE("DANDY.CREATE g 2 ab zz=1 deck=zz", "-ERR syntax error");
	PARSE("DANDY.CREATE g 2 ab deck=a deck=b",
	    "-ERR syntax error: option 'deck' given twice");
	PARSE("DANDY.CREATE g 2 ab deck=ab9", "ok");
	assert_string_equal(args_build.deck, "ab9");
	assert_int_equal(args_build.shuffled, 0);
	PARSE("DANDY.CREATE g 2 ab deck=shuffled:3 dice=server", "ok");
	assert_int_equal(args_build.shuffled, 1);
	assert_int_equal(strlen(args_build.deck), 3);
	/* Taken, for the kind to refuse with its reason. */
	assert_int_equal(args_build.opts.server_dice, 1);
	PARSE("DANDY.CREATE g 2 ab", "ok");
	assert_null(args_build.deck);
	/* DANDY.DRAW: the tail, the count, the id, the card. */
	PARSE("DANDY.DRAW BAD! zz AT x", "-BADARG AT seq must be an integer "
	    "from 0 to 9223372036854775806");
	PARSE("DANDY.DRAW BAD! zz", "-BADARG invalid game id");
	PARSE("DANDY.DRAW g zz", "-BADARG card must be one of a-i or 1-9");
	PARSE("DANDY.DRAW g \"\\x00\"", "-BADARG card must be one of a-i or "
	    "1-9");
	PARSE("DANDY.DRAW g", "ok");
	assert_null(args_parsed.v[1].s);
	/* DANDY.PLAY: players, cards, board. */
	PARSE("DANDY.PLAY 9 zz zz", "-BADARG players must be an integer from "
	    "1 to 8");
	PARSE("DANDY.PLAY 2 zz zz", "-BADARG cards must be at most 50 of a-i "
	    "and 1-9");
	PARSE("DANDY.PLAY 2 ab zz", "-BADARG board must be 1 to 36 letters "
	    "a-i");
	PARSE("DANDY.PLAY 2 \"\" ab", "ok");
	PARSE("DANDY.SCORES BAD!", "-BADARG invalid game id");
	PARSE("DANDY.STATE BAD!", "-BADARG invalid game id");
}

static void
test_order_games(void **state)
{
	(void)state;
	/* GAMES: the kind unless the first word is a token, then the keyed
	 * words in order. */
	PARSE("GAMES chess LIMIT x", "-BADARG kind must be ludo, snl or "
	    "dandy");
	PARSE("GAMES \"ludo\\x00\"", "-BADARG kind must be ludo, snl or "
	    "dandy");
	PARSE("GAMES LIMIT 0 AFTER BAD!", "-BADARG LIMIT must be an integer "
	    "from 1 to 10000");
	PARSE("GAMES AFTER BAD! LIMIT 0", "-BADARG invalid game id");
	PARSE("GAMES AFTER", "-ERR syntax error");
	PARSE("GAMES ludo snl", "-ERR syntax error");
	PARSE("GAMES LIMIT 5 FROM 1", "-ERR syntax error");
	PARSE("GAMES LIMIT 1 LIMIT 2",
	    "-ERR syntax error: option 'LIMIT' given twice");
	PARSE("GAMES SNL after g limit 5", "ok");
	assert_int_equal(args_parsed.v[0].i, KIND_SNL);
	assert_string_equal(args_parsed.v[1].s, "g");
	assert_int_equal(args_parsed.v[2].i, 5);
	PARSE("GAMES", "ok");
	assert_int_equal(args_parsed.v[0].i, KIND_NONE);
	assert_null(args_parsed.v[1].s);
	assert_int_equal(args_parsed.v[2].i, CMD_LIST_DEFAULT);
	/* HISTORY, REPLAY, AUDIT: a word too many before anything. */
	PARSE("HISTORY BAD! x y z", "-ERR wrong number of arguments for "
	    "'HISTORY'");
	PARSE("HISTORY BAD! 0", "-BADARG invalid game id");
	PARSE("HISTORY g 0", "-BADARG from must be an integer from 1 to "
	    "4611686018427387903");
	PARSE("HISTORY g 1 10001", "-BADARG count must be an integer from 1 "
	    "to 10000");
	PARSE("HISTORY g", "ok");
	assert_int_equal(args_parsed.v[1].i, 1);
	assert_int_equal(args_parsed.v[2].i, CMD_LIST_DEFAULT);
	PARSE("REPLAY BAD! x y", "-ERR wrong number of arguments for "
	    "'REPLAY'");
	PARSE("REPLAY g -1", "-BADARG seq must be an integer from 0 to "
	    "4611686018427387903");
	PARSE("REPLAY g", "ok");
	assert_int_equal(args_parsed.v[1].i, -1);
	PARSE("AUDIT BAD! x", "-ERR wrong number of arguments for 'AUDIT'");
	PARSE("AUDIT BAD!", "-BADARG invalid game id");
	PARSE("AUDIT", "ok");
	assert_null(args_parsed.v[0].s);
	PARSE("GAME.INFO BAD!", "-BADARG invalid game id");
	/* SEAT: only the id is the parser's; the player and the key are
	 * read against the game. */
	PARSE("SEAT BAD! \"\\x00\" \"\\x00\"", "-BADARG invalid game id");
	PARSE("SEAT g anything \"k\\x00y\"", "ok");
	assert_int_equal(args_parsed.v[2].len, 3);
}

/* The streams and the keyspace of Redis's own APIs: what the parser
 * reads, which error wins (test_streams has the rest of the bounds).
 * The connection commands are the daemon's, and so are their tests
 * (test_conn). */
static void
test_order_redis_apis(void **state)
{
	(void)state;
	/* The streams and the keyspace: COUNT before the bounds. */
	PARSE("XRANGE d x + COUNT y", "-ERR value is not an integer or out of "
	    "range");
	PARSE("XRANGE d - + LIMIT 1", "-ERR syntax error");
	PARSE("XRANGE d - + COUNT 1 COUNT 2",
	    "-ERR syntax error: option 'COUNT' given twice");
	PARSE("XREAD BLOCK -1 STREAMS d 0", "-ERR timeout is negative");
	PARSE("XREAD BLOCK x COUNT y STREAMS d 0", "-ERR timeout is not an "
	    "integer or out of range");
	PARSE("XREAD FOO STREAMS d 0", "-ERR syntax error");
	PARSE("XREAD COUNT 1 STREAMS", "-ERR syntax error");
	/* Then what the words ask together, read with them once: the keys
	 * and their ids, the bounds. */
	PARSE("XREAD COUNT 2 STREAMS d e 1", "-ERR Unbalanced XREAD list of "
	    "streams: for each stream key an ID or '$' must be specified.");
	PARSE("XREAD COUNT 2 STREAMS d e 1 x", "-ERR Invalid stream ID "
	    "specified as stream command argument");
	PARSE("XREAD COUNT 2 STREAMS d e 1 $", "ok");
	assert_int_equal(args_parsed.v[2].n, 4);
	assert_true(args_parsed.stream.read);
	assert_int_equal(args_parsed.stream.xread.nkeys, 2);
	assert_int_equal(args_parsed.stream.xread.count, 2);
	assert_int_equal(args_parsed.stream.xread.block_ms, -1);
	assert_string_equal(args_parsed.stream.xread.ids[1], "$");
	PARSE("XRANGE d x + COUNT 1", "-ERR Invalid stream ID specified as "
	    "stream command argument");
	PARSE("XREVRANGE d + (5 COUNT 3", "ok");
	assert_false(args_parsed.stream.read);
	assert_true(args_parsed.stream.range.rev);
	assert_int_equal(args_parsed.stream.range.lo, 6);
	assert_int_equal(args_parsed.stream.range.count, 3);
	PARSE("SCAN x COUNT y", "-ERR invalid cursor");
	PARSE("SCAN 9100000000000000000", "-ERR invalid cursor");
	PARSE("SCAN 0 COUNT 0", "-ERR syntax error");
	PARSE("SCAN 0 MATCH", "-ERR syntax error");
	PARSE("SCAN 0 type ludo match g*", "ok");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_declarations),
		cmocka_unit_test(test_games_kinds_doc),
		cmocka_unit_test(test_command_docs),
		cmocka_unit_test_teardown(test_order_ludo, args_teardown),
		cmocka_unit_test_teardown(test_order_snl, args_teardown),
		cmocka_unit_test_teardown(test_order_dandy, args_teardown),
		cmocka_unit_test_teardown(test_order_games, args_teardown),
		cmocka_unit_test_teardown(test_order_redis_apis, args_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
