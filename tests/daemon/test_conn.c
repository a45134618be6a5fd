/*
 * The connection commands Redis client libraries and admin tools send,
 * in the real ludusd, as a black box: CLIENT, SELECT, HELLO's AUTH and
 * SETNAME, CONFIG, TIME, RESET, the keyspace (DBSIZE, EXISTS, TYPE,
 * SCAN); the words each connection command takes, and what every
 * command shows of its words (COMMAND DOCS, COMMAND INFO); requirepass
 * and AUTH; protected mode; bot-delay.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>

#include "util/reply.h"
#include "batch_helper.h"
#include "daemon_helper.h"
#include "hiredis_helper.h"
#include "rc_helper.h"
#include "rclient.h"
#include "shown.h"

static struct daemon	 D;

static int
setup(void **state)
{
	static const char *const flags[] = { "--durability", "normal", NULL };

	(void)state;
	return daemon_launch(&D, flags);
}

static int
setup_password(void **state)
{
	static const char *const flags[] = { "--durability", "normal",
	    "--requirepass", "s3cret pass", NULL };

	(void)state;
	return daemon_launch(&D, flags);
}

static int
setup_slow_bots(void **state)
{
	static const char *const flags[] = { "--durability", "normal",
	    "--bot-delay", "600000", NULL };

	(void)state;
	return daemon_launch(&D, flags);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}


/* --------------------------------------------------------------- CLIENT */

static void
test_client_names_and_lists(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);
	redisReply	*r;
	char		 id[32], kill[64];

	(void)state;
	EXPECT(a, "(nil)", "CLIENT", "GETNAME");
	EXPECT(a, "+OK", "CLIENT", "SETNAME", "player-1");
	EXPECT(a, "$player-1", "CLIENT", "GETNAME");
	EXPECT(a, "-ERR Client names cannot contain spaces, newlines or "
	    "special characters.", "CLIENT", "SETNAME", "a b");
	EXPECT(a, "+OK", "CLIENT", "SETINFO", "LIB-NAME", "redis-py");
	EXPECT(a, "+OK", "CLIENT", "SETINFO", "lib-ver", "4.3.4");
	EXPECT(a, "-ERR Unrecognized option 'FOO'", "CLIENT", "SETINFO",
	    "FOO", "x");
	r = RUN(a, "CLIENT", "ID");
	assert_int_equal(r->type, REDIS_REPLY_INTEGER);
	snprintf(id, sizeof(id), "id=%lld ", r->integer);
	freeReplyObject(r);
	EXPECT_HAS(a, id, "CLIENT", "INFO");
	EXPECT_HAS(a, " name=player-1 ", "CLIENT", "INFO");
	EXPECT_HAS(a, " lib-name=redis-py lib-ver=4.3.4\n", "CLIENT", "INFO");
	EXPECT_HAS(a, " cmd=client ", "CLIENT", "INFO");
	EXPECT_HAS(b, " name=player-1 ", "CLIENT", "LIST");
	EXPECT_HAS(b, id, "CLIENT", "LIST", "TYPE", "normal");
	EXPECT(b, "$", "CLIENT", "LIST", "TYPE", "pubsub");
	EXPECT(b, "-ERR Unknown client type 'x'", "CLIENT", "LIST", "TYPE",
	    "x");
	EXPECT(b, "-ERR unknown subcommand or wrong number of arguments for "
	    "'FROB'. Try CLIENT HELP.", "CLIENT", "FROB");
	/* KILL by id: the other connection is closed. */
	EXPECT(b, ":0", "CLIENT", "KILL", "ID", "999999");
	EXPECT(b, "-ERR No such client", "CLIENT", "KILL", "1.2.3.4:5");
	snprintf(kill, sizeof(kill), "%s", id + 3);
	kill[strlen(kill) - 1] = '\0';
	EXPECT(b, ":1", "CLIENT", "KILL", "ID", kill);
	r = redisCommand(a, "PING");
	assert_true(r == NULL || r->type == REDIS_REPLY_ERROR);
	if (r != NULL)
		freeReplyObject(r);
	/* Itself, only with SKIPME no: answered, then closed. */
	r = RUN(b, "CLIENT", "ID");
	snprintf(kill, sizeof(kill), "%lld", r->integer);
	freeReplyObject(r);
	EXPECT(b, ":0", "CLIENT", "KILL", "ID", kill);
	EXPECT(b, ":1", "CLIENT", "KILL", "ID", kill, "SKIPME", "no");
	r = redisCommand(b, "PING");
	assert_true(r == NULL || r->type == REDIS_REPLY_ERROR);
	if (r != NULL)
		freeReplyObject(r);
	redisFree(a);
	redisFree(b);
}

static void
test_select_time_config(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;

	(void)state;
	EXPECT(c, "+OK", "SELECT", "0");
	EXPECT(c, "-ERR DB index is out of range (ludusd has one database: "
	    "0)", "SELECT", "1");
	EXPECT(c, "-ERR value is not an integer or out of range", "SELECT",
	    "x");
	r = RUN(c, "TIME");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 2);
	assert_true(strtoll(r->element[0]->str, NULL, 10) > 1700000000);
	assert_true(strtoll(r->element[1]->str, NULL, 10) < 1000000);
	freeReplyObject(r);
	/* What redis-benchmark reads, and the settings by pattern. */
	EXPECT(c, "[$save $]", "CONFIG", "GET", "save");
	EXPECT(c, "[$appendonly $no]", "CONFIG", "GET", "appendonly");
	EXPECT(c, "[$durability $normal]", "CONFIG", "GET", "DURABILITY");
	EXPECT(c, "[$batch-max-turns $256 $batch-max-usec $2000]", "CONFIG",
	    "GET", "batch-*");
	EXPECT(c, "[$bind $127.0.0.1 $databases $1]", "CONFIG", "GET", "bind",
	    "databases");
	/* The game cache by count and by the memory that count takes. */
	EXPECT(c, "[$cache-memory $8454200 $game-cache $16384]", "CONFIG",
	    "GET", "cache-memory", "game-cache");
	EXPECT(c, "[]", "CONFIG", "GET", "requirepass");
	EXPECT(c, "[]", "CONFIG", "GET", "nosuch");
	EXPECT(c, "-ERR CONFIG SET is not supported: ludusd reads its "
	    "configuration when it starts (ludusd.conf(5))", "CONFIG", "SET",
	    "timeout", "5");
	EXPECT(c, "+OK", "CONFIG", "RESETSTAT");
	EXPECT_HAS(c, "total_commands_processed:1\r\n", "INFO", "stats");
	redisFree(c);
}

/* The keyspace as redis-cli and admin tools see it. */
static void
test_keyspace(void **state)
{
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, ":0", "DBSIZE");
	EXPECT(c, "+OK", "LUDO.CREATE", "g1", "red", "blue");
	EXPECT(c, "+OK", "SNL.CREATE", "g2", "2");
	EXPECT(c, ":2", "DBSIZE");
	EXPECT(c, ":2", "EXISTS", "g1", "g2", "nope");
	EXPECT(c, "+stream", "TYPE", "g1");
	EXPECT(c, "+none", "TYPE", "nope");
	EXPECT(c, "[$0 [$g1 $g2]]", "SCAN", "0");
	EXPECT(c, "[$0 [$g2]]", "SCAN", "0", "TYPE", "snl");
	redisFree(c);
}

static void
test_hello_setname_and_reset(void **state)
{
	struct rconn	 r;
	struct reply	 rep;
	static const char req[] = "HELLO 3 SETNAME me\r\nCLIENT GETNAME\r\n"
	    "MULTI\r\nWATCH g\r\nRESET\r\nCLIENT GETNAME\r\nEXEC\r\n"
	    "HELLO 2 SETNAME \"a b\"\r\nPING\r\n";

	(void)state;
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, req, strlen(req)), 0);
	assert_int_equal(rch_reply(&r, &rep), 1);
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect(&r, "$me");
	rch_expect(&r, "+OK");
	rch_expect_err(&r, "ERR WATCH inside MULTI is not allowed");
	/* RESET: out of MULTI, RESP2 again, no name. */
	rch_expect(&r, "+RESET");
	rch_expect(&r, "(nil)");
	rch_expect_err(&r, "ERR EXEC without MULTI");
	rch_expect_err(&r, "ERR Client names cannot contain spaces");
	rch_expect(&r, "+PONG");
	rc_close(&r);
}

/* RESET in subscriber mode ends every subscription and watch. */
static void
test_reset_unsubscribes(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "+OK", "SNL.CREATE", "s", "2");
	EXPECT(a, "[$subscribe $s :1]", "SUBSCRIBE", "s");
	EXPECT(a, "[$watch $s :1]", "GAME.WATCH", "s");
	EXPECT(a, "+RESET", "RESET");
	EXPECT(b, "+P1 3", "SNL.ROLL", "s", "3");
	/* No event came: the next reply is the PING's, not in subscriber
	 * mode any more. */
	EXPECT(a, "+PONG", "PING");
	EXPECT(b, "[]", "PUBSUB", "CHANNELS");
	redisFree(a);
	redisFree(b);
}

/* ------------------------------------------------------------------ AUTH */

static void
test_no_password_auth(void **state)
{
	redisContext	*c = hr_connect(D.port);

	(void)state;
	EXPECT(c, "-ERR AUTH <password> called without any password "
	    "configured for the default user. Are you sure your configuration "
	    "is correct?", "AUTH", "x");
	EXPECT(c, "+OK", "AUTH", "default", "anything");
	EXPECT(c, "-WRONGPASS invalid username-password pair or user is "
	    "disabled.", "AUTH", "someone", "x");
	EXPECT(c, "-ERR syntax error", "AUTH", "a", "b", "c");
	redisFree(c);
}

static void
test_requirepass(void **state)
{
	static const char hello[] = "HELLO 3 AUTH default nope\r\n"
	    "HELLO 3 AUTH default \"s3cret pass\" SETNAME n\r\n"
	    "CLIENT GETNAME\r\n";
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;

	(void)state;
	/* The form of a request is checked first, as in Redis. */
	EXPECT(c, "-ERR unknown command 'NOSUCH'", "NOSUCH");
	EXPECT(c, "-ERR wrong number of arguments for 'LUDO.PLAY'",
	    "LUDO.PLAY", "g");
	EXPECT(c, "-NOAUTH Authentication required.", "PING");
	EXPECT(c, "-NOAUTH Authentication required.", "GAMES");
	EXPECT(c, "-NOAUTH Authentication required.", "SUBSCRIBE", "g");
	EXPECT_HAS(c, "-NOAUTH HELLO must be called with the client already "
	    "authenticated", "HELLO", "3");
	EXPECT(c, "-WRONGPASS invalid username-password pair or user is "
	    "disabled.", "AUTH", "s3cret");
	EXPECT(c, "-WRONGPASS invalid username-password pair or user is "
	    "disabled.", "AUTH", "s3cret pass ");
	EXPECT(c, "-WRONGPASS invalid username-password pair or user is "
	    "disabled.", "AUTH", "admin", "s3cret pass");
	EXPECT(c, "+OK", "AUTH", "s3cret pass");
	EXPECT(c, "+PONG", "PING");
	EXPECT(c, "+RESET", "RESET");
	EXPECT(c, "-NOAUTH Authentication required.", "PING");
	EXPECT(c, "+OK", "AUTH", "default", "s3cret pass");
	EXPECT(c, "+OK", "LUDO.CREATE", "g", "red", "blue");
	/* Seat keys still guard the players. */
	EXPECT(c, "-BADARG player 'green' is not in game 'g'", "LUDO.PLAY",
	    "g", "green", "6", "1");
	redisFree(c);
	/* HELLO AUTH, as node-redis sends it in RESP3. */
	rch_open(&r, D.port);
	assert_int_equal(rc_write(&r, hello, strlen(hello)), 0);
	rch_expect_err(&r, "WRONGPASS");
	assert_int_equal(rch_reply(&r, &rep), 1);
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect(&r, "$n");
	rc_close(&r);
}

/* ------------------------------------------------------- protected mode */

/*
 * No password and an address beyond loopback: ludusd refuses to start,
 * before it binds anything, and says how to go on.  (It is not started
 * with a password on such an address: tests listen on loopback only.)
 */
static void
test_protected_mode_refuses_to_start(void **state)
{
	static const char *const open_bind[] = { "--bind", "127.0.0.1",
	    "0.0.0.0", NULL };
	static const char *const named[] = { "--bind", "localhost",
	    "--protected-mode", "yes", NULL };

	(void)state;
	assert_int_equal(daemon_stop(&D, SIGTERM), 0);
	assert_int_equal(daemon_start(&D, open_bind), -1);
	assert_true(bh_log_has(&D, "refusing to listen on 0.0.0.0:"));
	assert_true(bh_log_has(&D, "protected mode is on and no password "
	    "is set"));
	assert_true(bh_log_has(&D, "--requirepass PASSWORD"));
	assert_true(bh_log_has(&D, "protected-mode no"));
	/* Loopback addresses, by name too, are fine. */
	assert_int_equal(daemon_start(&D, named), 0);
}

/* ------------------------------------------------------------ bot-delay */

/*
 * A bot's move waits bot-delay after the move before: with ten minutes,
 * a game whose first player is a bot has not moved by the time the
 * server has answered several other requests, and it is armed.
 */
static void
test_bot_delay_holds_the_bot(void **state)
{
	redisContext	*c = hr_connect(D.port);
	int		 i;

	(void)state;
	EXPECT(c, "+OK", "SNL.CREATE", "b", "2", "bots=P1:first",
	    "dice=server");
	for (i = 0; i < 20; i++)
		EXPECT(c, "+PONG", "PING");
	EXPECT(c, "[]", "HISTORY", "b");
	EXPECT_HAS(c, "games_autoplay:1\r\n", "INFO", "games");
	redisFree(c);
}

/* ---------------------------------------------- the commands' words */

/*
 * The connection commands' arguments are declared by the daemon, each in
 * the entry of its command: which error wins when a request has several
 * (the request's count first, then the words in the parser's order, then
 * the handler), and what the words it takes do.
 */
static void
test_connection_words(void **state)
{
	redisContext	*c = hr_connect(D.port), *w = hr_connect(D.port);
	redisReply	*r;

	(void)state;
	/* GAME.WATCH id [FROM seq]: 2 or 4 words, FROM's value, the id. */
	EXPECT(c, "-ERR wrong number of arguments for 'GAME.WATCH'",
	    "GAME.WATCH", "a", "b");
	EXPECT(c, "-ERR wrong number of arguments for 'GAME.WATCH'",
	    "GAME.WATCH", "a", "b", "c", "d");
	EXPECT(c, "-ERR syntax error", "GAME.WATCH", "BAD!", "SINCE", "x");
	EXPECT(c, "-BADARG FROM seq must be an integer >= 0", "GAME.WATCH",
	    "BAD!", "FROM", "-1");
	EXPECT(c, "-BADARG invalid game id", "GAME.WATCH", "BAD!", "from",
	    "1");
	EXPECT(c, "+OK", "SNL.CREATE", "s", "2");
	EXPECT(c, "+P1 3", "SNL.ROLL", "s", "3");
	EXPECT(c, "+P2 4", "SNL.ROLL", "s", "4");
	EXPECT(w, "[$watch $s :1]", "GAME.WATCH", "s", "FROM", "1");
	expect_next(w, "[$move $s :2 $P2 $4 ", 1);
	EXPECT(w, "[$unwatch $s :0]", "GAME.UNWATCH");
	/* HELLO [2|3 [AUTH username password] [SETNAME name]]: the version
	 * first, even when it reads AUTH or SETNAME. */
	EXPECT(c, "-ERR Protocol version is not an integer or out of range",
	    "HELLO", "SETNAME", "x");
	EXPECT(c, "-ERR Protocol version is not an integer or out of range",
	    "HELLO", "2147483648");
	EXPECT(c, "-ERR Protocol version is not an integer or out of range",
	    "HELLO", "AUTH", "u", "p");
	EXPECT(c, "-NOPROTO unsupported protocol version", "HELLO", "4",
	    "FOO");
	EXPECT(c, "-ERR Syntax error in HELLO option 'FOO'", "HELLO", "3",
	    "FOO");
	EXPECT(c, "-ERR Syntax error in HELLO option 'SETNAME'", "HELLO",
	    "3", "SETNAME");
	EXPECT(c, "-ERR Syntax error in HELLO option 'b'", "HELLO", "3",
	    "SETNAME", "a", "b");
	EXPECT(c, "-ERR syntax error: option 'SETNAME' given twice", "HELLO",
	    "3", "SETNAME", "a", "setname", "b");
	EXPECT(c, "-ERR Syntax error in HELLO option 'AUTH'", "HELLO", "3",
	    "AUTH", "u");
	/* AUTH's two words are read: no such user. */
	EXPECT(c, "-WRONGPASS invalid username-password pair or user is "
	    "disabled.", "HELLO", "3", "AUTH", "u", "p", "SETNAME", "n");
	EXPECT_HAS(c, "$proto :2 ", "HELLO", "2", "setname", "me");
	EXPECT(c, "$me", "CLIENT", "GETNAME");
	EXPECT_HAS(c, "$proto :2 ", "HELLO");
	/* The others, each with its count and its words. */
	EXPECT(c, "-ERR wrong number of arguments for 'PING'", "PING", "a",
	    "b");
	r = redisCommandArgv(c, 2, (const char *[]){ "PING", "a\0b" },
	    (const size_t[]){ 4, 3 });
	assert_non_null(r);
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	assert_int_equal(r->len, 3);
	freeReplyObject(r);
	EXPECT(c, "-ERR wrong number of arguments for 'ECHO'", "ECHO");
	EXPECT_HAS(c, "# Games\r\n", "INFO", "server", "Games");
	EXPECT_HAS(c, "# Server\r\n", "INFO", "server", "Games");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'COUNT'. Try COUNT, DOCS, INFO or LIST.", "COMMAND", "COUNT",
	    "x");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'frob'. Try COUNT, DOCS, INFO or LIST.", "COMMAND", "frob");
	r = RUN(c, "COMMAND", "docs", "ludo.play", "watch");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 4);
	assert_string_equal(r->element[0]->str, "ludo.play");
	assert_string_equal(r->element[2]->str, "watch");
	freeReplyObject(r);
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'setname'. Try CLIENT HELP.", "CLIENT", "setname");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'SETNAME'. Try CLIENT HELP.", "CLIENT", "SETNAME", "a", "b");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'KILL'. Try CLIENT HELP.", "CLIENT", "KILL");
	EXPECT(c, "+OK", "CLIENT", "setinfo", "LIB-NAME", "x");
	EXPECT_HAS(c, " lib-name=x ", "CLIENT", "INFO");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'GET'. Try CONFIG HELP.", "CONFIG", "GET");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'RESETSTAT'. Try CONFIG HELP.", "CONFIG", "RESETSTAT", "x");
	EXPECT(c, "-ERR CONFIG SET is not supported: ludusd reads its "
	    "configuration when it starts (ludusd.conf(5))", "CONFIG", "set",
	    "a", "b");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'CHANNELS'. Try CHANNELS, NUMSUB or NUMPAT.", "PUBSUB",
	    "CHANNELS", "a", "b");
	EXPECT(c, "-ERR unknown subcommand or wrong number of arguments for "
	    "'NUMPAT'. Try CHANNELS, NUMSUB or NUMPAT.", "PUBSUB", "NUMPAT",
	    "x");
	EXPECT(c, "[]", "PUBSUB", "numsub");
	EXPECT(c, "-ERR value is not an integer or out of range", "SELECT",
	    "x");
	EXPECT(c, "-ERR DB index is out of range (ludusd has one database: "
	    "0)", "SELECT", "-3");
	EXPECT(c, "-ERR wrong number of arguments for 'AUTH'", "AUTH");
	EXPECT(c, "-ERR wrong number of arguments for 'WATCH'", "WATCH");
	EXPECT(c, "-ERR wrong number of arguments for 'UNWATCH'", "UNWATCH",
	    "x");
	EXPECT(c, "+OK", "QUIT", "a", "b", "c");
	redisFree(c);
	redisFree(w);
}

/* A command's name as COMMAND LIST has it, upper-cased. */
static const char *
upper(const redisReply *r)
{
	static char	 buf[32];
	size_t		 i;

	for (i = 0; i < r->len && i + 1 < sizeof(buf); i++)
		buf[i] = r->str[i] >= 'a' && r->str[i] <= 'z' ?
		    (char)(r->str[i] - 'a' + 'A') : r->str[i];
	buf[i] = '\0';
	return buf;
}

/* The value of key in a COMMAND DOCS doc (RESP2: pairs in an array). */
static const redisReply *
doc_field(const redisReply *doc, const char *key)
{
	size_t	 i;

	assert_int_equal(doc->type, REDIS_REPLY_ARRAY);
	for (i = 0; i + 1 < doc->elements; i += 2)
		if (strcmp(doc->element[i]->str, key) == 0)
			return doc->element[i + 1];
	fail_msg("no '%s' in the doc", key);
	return NULL;
}

/*
 * What clients read of every command, through the daemon: its usage line
 * (COMMAND DOCS' summary, which its declared arguments make) and its
 * arity (COMMAND INFO), as tests/lib/commands.txt has them, and the
 * order COMMAND lists them in.
 */
static void
test_command_docs_shown(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r, *list;
	const redisReply *subs;
	struct shown	*shown;
	size_t		 i, runs = 1, n = shown_read(&shown);

	(void)state;
	for (i = 0; i < n; i++) {
		r = RUN(c, "COMMAND", "DOCS", shown[i].name);
		assert_int_equal(r->elements, 2);
		assert_string_equal(doc_field(r->element[1], "summary")->str,
		    shown[i].usage);
		freeReplyObject(r);
		r = RUN(c, "COMMAND", "INFO", shown[i].name);
		assert_int_equal(r->element[0]->element[1]->integer,
		    shown[i].arity);
		freeReplyObject(r);
	}
	/* Every command, the daemon's connection commands first, then the
	 * command layer's, each in the order of its table: by name. */
	list = RUN(c, "COMMAND", "LIST");
	assert_int_equal(list->elements, n);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(list->element[i - 1]->str,
		    list->element[i]->str) > 0)
			runs++;
		assert_non_null(shown_find(shown, n, upper(list->element[i])));
	}
	assert_int_equal(runs, 2);
	freeReplyObject(list);
	/* A subcommand has a doc of its own, its summary its usage. */
	r = RUN(c, "COMMAND", "DOCS", "COMMAND");
	subs = doc_field(r->element[1], "subcommands");
	assert_int_equal(subs->elements, 2 * 4);
	assert_string_equal(subs->element[2]->str, "command|docs");
	assert_string_equal(doc_field(subs->element[3], "summary")->str,
	    "COMMAND DOCS [name ...]");
	freeReplyObject(r);
	free(shown);
	redisFree(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_client_names_and_lists,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_time_config,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_keyspace, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_connection_words, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_command_docs_shown, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hello_setname_and_reset,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_unsubscribes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_password_auth, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_requirepass,
		    setup_password, teardown),
		cmocka_unit_test_setup_teardown(
		    test_protected_mode_refuses_to_start, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bot_delay_holds_the_bot,
		    setup_slow_bots, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
