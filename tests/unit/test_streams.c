/*
 * The command layer's Redis views of the games (cmd_stream.c,
 * cmd_keys.c): a game's history as a stream (XRANGE, XREVRANGE, XLEN,
 * XREAD without its wait), ids parsed as Redis parses them and mapped
 * onto the seqs, and the keyspace (DBSIZE, EXISTS, TYPE, SCAN with its
 * stateless cursor), on an in-memory store.
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
#include "reply_flat.h"
#include "util/util.h"

static struct cmd_env	 env;

static int
setup(void **state)
{
	char	 err[256];

	(void)state;
	memset(&env, 0, sizeof(env));
	env.store = store_sqlite_open(":memory:", DURABILITY_FULL, err,
	    sizeof(err));
	return env.store != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	store_close(env.store);
	return 0;
}

/* Runs one inline line; its reply flat. */
static const char *
run(const char *line)
{
	static char	 got[16384];
	struct cmd_args	 a;
	struct reply	 r = { 0 };
	char		**argv;
	size_t		*argl;
	int		 argc;

	argc = split_line(line, strlen(line), &argv, &argl);
	assert_true(argc > 0);
	memset(&a, 0, sizeof(a));
	a.argc = argc;
	a.argv = argv;
	a.argl = argl;
	cmd_execute(&env, &a, &r);
	reply_flat(&r, got, sizeof(got));
	reply_free(&r);
	split_free(argc, argv, argl);
	return got;
}

#define EXPECT(line, want)	expect((line), (want), __LINE__)

static void
expect(const char *line, const char *want, int at)
{
	const char	*got = run(line);

	if (strcmp(got, want) != 0)
		fail_msg("line %d: %s\n  got:  %s\n  want: %s", at, line, got,
		    want);
}

/* Five draws of a DandyLand game, and a game with a bot's move. */
static void
games(void)
{
	EXPECT("DANDY.CREATE d 2 abcd", "+OK");
	EXPECT("DANDY.DRAW d a", "+P1 1 0");
	EXPECT("DANDY.DRAW d b", "+P2 2 0");
	EXPECT("DANDY.DRAW d c", "+P1 3 0");
	EXPECT("DANDY.DRAW d d", "+P2 4 0");
	EXPECT("DANDY.DRAW d a", "+P1 1 1");
}

#define E(s, p, a, r)	"[$" #s "-0 [$player $" p " $action $" a \
			" $result $" r "]]"
#define E1	E(1, "P1", "a", "P1 1 0")
#define E2	E(2, "P2", "b", "P2 2 0")
#define E3	E(3, "P1", "c", "P1 3 0")
#define E4	E(4, "P2", "d", "P2 4 0")
#define E5	E(5, "P1", "a", "P1 1 1")

static void
test_xrange_maps_ids_onto_seqs(void **state)
{
	(void)state;
	games();
	EXPECT("XLEN d", ":5");
	EXPECT("XRANGE d - +", "[" E1 " " E2 " " E3 " " E4 " " E5 "]");
	EXPECT("XRANGE d - + COUNT 2", "[" E1 " " E2 "]");
	EXPECT("XRANGE d 2 3", "[" E2 " " E3 "]");
	EXPECT("XRANGE d 2-0 3-0", "[" E2 " " E3 "]");
	/* 2-1 is after entry 2-0; 4-5 is after 4-0. */
	EXPECT("XRANGE d 2-1 4-5", "[" E3 " " E4 "]");
	/* An incomplete end is 4-<max>: (4 still takes 4-0. */
	EXPECT("XRANGE d (2 (4", "[" E3 " " E4 "]");
	EXPECT("XRANGE d (2 (4-0", "[" E3 "]");
	EXPECT("XRANGE d (2-0 (4-1", "[" E3 " " E4 "]");
	EXPECT("XRANGE d 4 +", "[" E4 " " E5 "]");
	EXPECT("XRANGE d 5 3", "[]");
	EXPECT("XRANGE d 6 +", "[]");
	EXPECT("XRANGE d 18446744073709551615 +", "[]");
	EXPECT("XRANGE d - + COUNT 0", "[]");
	EXPECT("XRANGE d - + COUNT -3", "[]");
	EXPECT("XREVRANGE d + -", "[" E5 " " E4 " " E3 " " E2 " " E1 "]");
	EXPECT("XREVRANGE d + - COUNT 2", "[" E5 " " E4 "]");
	EXPECT("XREVRANGE d 3 2", "[" E3 " " E2 "]");
	EXPECT("XREVRANGE d (4-0 - COUNT 1", "[" E3 "]");
	/* No game, no id: an empty stream, as a missing key in Redis. */
	EXPECT("XRANGE nope - +", "[]");
	EXPECT("XRANGE Bad_Id - +", "[]");
	EXPECT("XLEN nope", ":0");
}

static void
test_xrange_errors_as_redis_words_them(void **state)
{
	(void)state;
	games();
	EXPECT("XRANGE d x +",
	    "-ERR Invalid stream ID specified as stream command argument");
	EXPECT("XRANGE d 1-x +",
	    "-ERR Invalid stream ID specified as stream command argument");
	EXPECT("XRANGE d 18446744073709551616 +",
	    "-ERR Invalid stream ID specified as stream command argument");
	EXPECT("XRANGE d (+ +",
	    "-ERR Invalid stream ID specified as stream command argument");
	EXPECT("XRANGE d (18446744073709551615-18446744073709551615 +",
	    "-ERR invalid start ID for the interval");
	EXPECT("XRANGE d - (0-0", "-ERR invalid end ID for the interval");
	EXPECT("XRANGE d - + COUNT x",
	    "-ERR value is not an integer or out of range");
	EXPECT("XRANGE d - + LIMIT 1", "-ERR syntax error");
	EXPECT("XRANGE d - + COUNT", "-ERR syntax error");
	EXPECT("XRANGE d -", "-ERR wrong number of arguments for 'XRANGE'");
}

static void
test_xread_now(void **state)
{
	(void)state;
	games();
	EXPECT("SNL.CREATE s 2", "+OK");
	EXPECT("SNL.ROLL s 4", "+P1 4");
	EXPECT("XREAD STREAMS d 3", "[[$d [" E4 " " E5 "]]]");
	EXPECT("XREAD COUNT 1 STREAMS d s nope 3 0 0",
	    "[[$d [" E4 "]] [$s [[$1-0 [$player $P1 $action $4 "
	    "$result $P1 4]]]]]");
	EXPECT("XREAD STREAMS d 3-7", "[[$d [" E4 " " E5 "]]]");
	/* Nothing after the ids, or "$" now: null. */
	EXPECT("XREAD STREAMS d 5", "(nil)");
	EXPECT("XREAD STREAMS d $", "(nil)");
	EXPECT("XREAD BLOCK 10 STREAMS d $", "(nil)");
	EXPECT("XREAD COUNT 0 STREAMS d 0", "[[$d [" E1 " " E2 " " E3 " "
	    E4 " " E5 "]]]");
}

static void
test_xread_errors_as_redis_words_them(void **state)
{
	(void)state;
	EXPECT("XREAD STREAMS d", "-ERR wrong number of arguments for "
	    "'XREAD'");
	EXPECT("XREAD STREAMS d e 1", "-ERR Unbalanced XREAD list of streams: "
	    "for each stream key an ID or '$' must be specified.");
	EXPECT("XREAD FOO STREAMS d 0", "-ERR syntax error");
	EXPECT("XREAD COUNT 1 STREAMS", "-ERR syntax error");
	EXPECT("XREAD COUNT x STREAMS d 0",
	    "-ERR value is not an integer or out of range");
	EXPECT("XREAD BLOCK -1 STREAMS d 0", "-ERR timeout is negative");
	EXPECT("XREAD BLOCK x STREAMS d 0",
	    "-ERR timeout is not an integer or out of range");
	EXPECT("XREAD STREAMS d +",
	    "-ERR Invalid stream ID specified as stream command argument");
	EXPECT("XREAD STREAMS d -",
	    "-ERR Invalid stream ID specified as stream command argument");
}

/* A move the server made has the field by. */
static void
test_stream_entry_of_a_bot_move(void **state)
{
	struct move	 mv;
	int64_t		 next;

	(void)state;
	EXPECT("SNL.CREATE s 2 bots=P2:first dice=server", "+OK");
	assert_int_equal(run("SNL.ROLL s")[0], '+');
	assert_int_equal(cmd_autoplay(&env, "s", cmd_now_ms(&env), &mv,
	    &next), 1);
	assert_non_null(strstr(run("XRANGE s 2 2"), " $by $bot]]]"));
	assert_null(strstr(run("XRANGE s 1 1"), "$by"));
}

static void
test_move_line_as_history_prints_it(void **state)
{
	struct move	 mv = { .seq = 12, .player = "b", .action = "3:2",
			    .result = "MOVED" };
	char		 buf[CMD_MOVE_LINE_MAX];

	(void)state;
	cmd_move_line(&mv, buf, sizeof(buf));
	assert_string_equal(buf, "12,b,3:2,MOVED");
	mv.by = MOVE_BOT;
	cmd_move_line(&mv, buf, sizeof(buf));
	assert_string_equal(buf, "12,b,3:2,MOVED,bot");
	mv.by = MOVE_TIMEOUT;
	cmd_move_line(&mv, buf, sizeof(buf));
	assert_string_equal(buf, "12,b,3:2,MOVED,timeout");
	/* Cut to fit, like snprintf. */
	assert_int_equal(cmd_move_line(&mv, buf, 5), 4);
	assert_string_equal(buf, "12,b");
}

/* ------------------------------------------------------------ keyspace */

static void
test_dbsize_exists_type(void **state)
{
	(void)state;
	EXPECT("DBSIZE", ":0");
	EXPECT("LUDO.CREATE l red blue", "+OK");
	EXPECT("SNL.CREATE s 1", "+OK");
	EXPECT("DANDY.CREATE d 1 ab", "+OK");
	EXPECT("DBSIZE", ":3");
	EXPECT("EXISTS l", ":1");
	EXPECT("EXISTS l l s nope Bad_Id", ":3");
	EXPECT("TYPE d", "+stream");
	EXPECT("TYPE nope", "+none");
	EXPECT("TYPE Bad_Id", "+none");
	EXPECT("DBSIZE x", "-ERR wrong number of arguments for 'DBSIZE'");
	EXPECT("TYPE", "-ERR wrong number of arguments for 'TYPE'");
}

/* Pages through every game with SCAN, as redis-cli --scan does; returns
 * the ids seen, space-separated, and the number of calls. */
static int
scan_all(const char *opts, char *seen, size_t len)
{
	char	 line[256], cursor[32] = "0", *p;
	int	 calls = 0;

	seen[0] = '\0';
	do {
		snprintf(line, sizeof(line), "SCAN %s %s", cursor, opts);
		p = (char *)run(line);
		assert_true(p[0] == '[' && p[1] == '$');
		calls++;
		snprintf(cursor, sizeof(cursor), "%.*s",
		    (int)strcspn(p + 2, " "), p + 2);
		p = strchr(p, ' ') + 1;		/* "[ids...]]" */
		assert_true(p[0] == '[');
		for (p++; *p != ']'; ) {
			assert_true(*p == '$');
			snprintf(seen + strlen(seen), len - strlen(seen),
			    "%s%.*s", seen[0] != '\0' ? " " : "",
			    (int)strcspn(p + 1, " ]"), p + 1);
			p += 1 + strcspn(p + 1, " ]");
			if (*p == ' ')
				p++;
		}
		assert_true(calls < 100);
	} while (strcmp(cursor, "0") != 0);
	return calls;
}

static void
test_scan_pages_through_every_game_once(void **state)
{
	static const char *const ids[] = { "a", "b", "c", "g-1", "g-2",
	    "g-3", "tournament-2026-1", "tournament-2026-2",
	    "tournament-2026-3", "tournament-2026b", "z" };
	char		 line[128], seen[1024];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		snprintf(line, sizeof(line), "SNL.CREATE %s 1", ids[i]);
		EXPECT(line, "+OK");
	}
	EXPECT("DANDY.CREATE d 1 ab", "+OK");
	assert_true(scan_all("COUNT 2", seen, sizeof(seen)) > 2);
	assert_string_equal(seen, "a b c d g-1 g-2 g-3 tournament-2026-1 "
	    "tournament-2026-2 tournament-2026-3 tournament-2026b z");
	/* Ids sharing their first 12 characters come in one page. */
	EXPECT("SCAN 0 COUNT 6 MATCH t*", "[$4301235980276984832 []]");
	EXPECT("SCAN 4301235980276984832 COUNT 1",
	    "[$4301401196378247680 [$g-3]]");
	EXPECT("SCAN 4301401196378247680 COUNT 1", "[$7564382964647473438 "
	    "[$tournament-2026-1 $tournament-2026-2 $tournament-2026-3 "
	    "$tournament-2026b]]");
	EXPECT("SCAN 7564382964647473438 COUNT 1",
	    "[$8827165858271442944 [$z]]");
	EXPECT("SCAN 8827165858271442944 COUNT 1", "[$0 []]");
	scan_all("COUNT 1 MATCH g-*", seen, sizeof(seen));
	assert_string_equal(seen, "g-1 g-2 g-3");
	scan_all("TYPE dandy", seen, sizeof(seen));
	assert_string_equal(seen, "d");
	scan_all("TYPE stream MATCH [ab]", seen, sizeof(seen));
	assert_string_equal(seen, "a b");
	EXPECT("SCAN 0 TYPE hash", "[$0 []]");
	/* COUNT 10 by default, and the ids that share the tenth's start. */
	EXPECT("SCAN 0", "[$7564382964647473438 [$a $b $c $d $g-1 $g-2 $g-3 "
	    "$tournament-2026-1 $tournament-2026-2 $tournament-2026-3 "
	    "$tournament-2026b]]");
}

static void
test_scan_errors_as_redis_words_them(void **state)
{
	(void)state;
	EXPECT("SCAN x", "-ERR invalid cursor");
	EXPECT("SCAN -1", "-ERR invalid cursor");
	EXPECT("SCAN 9065737908494995456", "-ERR invalid cursor");
	EXPECT("SCAN 0 COUNT 0", "-ERR syntax error");
	EXPECT("SCAN 0 COUNT x", "-ERR value is not an integer or out of "
	    "range");
	EXPECT("SCAN 0 MATCH", "-ERR syntax error");
	EXPECT("SCAN 0 FOO bar", "-ERR syntax error");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_xrange_maps_ids_onto_seqs, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_xrange_errors_as_redis_words_them, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xread_now, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_xread_errors_as_redis_words_them, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_stream_entry_of_a_bot_move, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_move_line_as_history_prints_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dbsize_exists_type,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_scan_pages_through_every_game_once, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_scan_errors_as_redis_words_them, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
