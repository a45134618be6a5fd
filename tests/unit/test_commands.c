/*
 * The command layer end to end on an in-memory store: every seed example
 * through the commands, bad input for every command, AT, HISTORY, REPLAY,
 * AUDIT, paging, and the transaction rules (nothing written for a move
 * that changes nothing, a failed COMMIT leaves the game as it was).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_txn.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"
#include "store_helper.h"

#define NOW	1700000000

struct fixture {
	struct store	*st;
	struct cmd_env	 env;
	int		 hooked;	/* on_move calls */
	struct move	 last;
	char		 last_game[GAME_ID_MAX + 1];
};

static int64_t	fake_time = NOW;

static int64_t
fake_now(void)
{
	return fake_time;
}

static void
on_move(void *arg, const char *game, const struct move *mv)
{
	struct fixture	*f = arg;

	f->hooked++;
	f->last = *mv;
	snprintf(f->last_game, sizeof(f->last_game), "%s", game);
}

static int
setup(void **state)
{
	struct fixture	*f = xcalloc(1, sizeof(*f));
	char		 err[256];

	test_store_empty();
	f->st = test_store_at(":memory:", DURABILITY_FULL, err, sizeof(err));
	if (f->st == NULL) {
		fprintf(stderr, "store: %s\n", err);
		free(f);
		return -1;
	}
	f->env.store = f->st;
	f->env.now = fake_now;
	f->env.on_move = on_move;
	f->env.on_move_arg = f;
	fake_time = NOW;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	cmd_txn_free(&f->env);
	store_close(f->st);
	free(f);
	return 0;
}

/* ------------------------------------------------------------ helpers */

/*
 * A reply as one string: +status, -error, :int, $bulk, _ for null, and an
 * array as *n followed by each element on its own line.
 */
static void
render(const struct reply *r, char **buf, size_t *len, size_t *cap)
{
	char	tmp[64];
	size_t	i, need;
	const char *s = tmp;

	switch (r->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
	case REPLY_BULK:
		tmp[0] = r->type == REPLY_STATUS ? '+' :
		    r->type == REPLY_ERROR ? '-' : '$';
		tmp[1] = '\0';
		need = *len + 2 + r->len + 1;
		if (need > *cap) {
			*cap = need * 2;
			*buf = xrealloc(*buf, *cap);
		}
		*len += (size_t)snprintf(*buf + *len, *cap - *len, "%s%s", tmp,
		    r->str);
		return;
	case REPLY_INT:
		snprintf(tmp, sizeof(tmp), ":%lld", r->integer);
		break;
	case REPLY_NULL:
		s = "_";
		break;
	case REPLY_ARRAY:
	case REPLY_MAP:
	case REPLY_PUSH:
		snprintf(tmp, sizeof(tmp), "*%zu", r->n);
		break;
	default:
		s = "?NONE";
		break;
	}
	need = *len + strlen(s) + 1;
	if (need > *cap) {
		*cap = need * 2;
		*buf = xrealloc(*buf, *cap);
	}
	*len += (size_t)snprintf(*buf + *len, *cap - *len, "%s", s);
	if (r->type == REPLY_ARRAY || r->type == REPLY_MAP ||
	    r->type == REPLY_PUSH)
		for (i = 0; i < r->n; i++) {
			need = *len + 2;
			if (need > *cap) {
				*cap = need * 2;
				*buf = xrealloc(*buf, *cap);
			}
			(*buf)[(*len)++] = '\n';
			(*buf)[*len] = '\0';
			render(&r->elem[i], buf, len, cap);
		}
}

/* Runs one inline command line into r: with cmd_run() when res is not
 * NULL, else with cmd_execute(). */
static void
exec_line(struct fixture *f, const char *line, struct reply *r,
    struct cmd_result *res)
{
	struct cmd_args	 args;
	int		 n;

	memset(&args, 0, sizeof(args));
	n = split_line(line, strlen(line), &args.argv, &args.argl);
	assert_true(n >= 0);
	args.argc = n;
	memset(r, 0, sizeof(*r));
	if (res != NULL)
		cmd_run(&f->env, &args, r, res);
	else
		cmd_execute(&f->env, &args, r);
	split_free(n, args.argv, args.argl);
}

/* Runs one inline command line; returns the rendered reply (caller frees). */
static char *
run(struct fixture *f, const char *line)
{
	struct reply	 r;
	char		*buf = NULL;
	size_t		 len = 0, cap = 0;

	exec_line(f, line, &r, NULL);
	buf = xstrdup("");
	cap = 1;
	render(&r, &buf, &len, &cap);
	reply_free(&r);
	return buf;
}

#define EXPECT(f, line, want) expect_line((f), (line), (want), __LINE__)

static void
expect_line(struct fixture *f, const char *line, const char *want, int at)
{
	char	*got = run(f, line);

	if (strcmp(got, want) != 0) {
		print_error("line %d: %s\n  got:  %s\n  want: %s\n", at, line,
		    got, want);
		free(got);
		fail();
	}
	free(got);
}

/* An error reply whose text starts with prefix ("-BADARG", ...). */
#define EXPECT_ERR(f, line, prefix) \
	expect_prefix((f), (line), (prefix), __LINE__)

static void
expect_prefix(struct fixture *f, const char *line, const char *prefix,
    int at)
{
	char	*got = run(f, line);

	if (strncmp(got, prefix, strlen(prefix)) != 0 ||
	    strchr(got, '\r') != NULL || strchr(got, '\n') != NULL) {
		print_error("line %d: %s\n  got:  %s\n  want: %s...\n", at,
		    line, got, prefix);
		free(got);
		fail();
	}
	free(got);
}

static int64_t
count_rows(struct fixture *f, const char *sql)
{
	return query_int(f->st, sql);
}

static void
exec_sql(struct fixture *f, const char *sql)
{
	test_exec(f->st, sql);
}

/* A small deterministic generator for the random games. */
static uint64_t	rng_state = 88172645463325252ULL;

static int
rnd(int n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (int)(rng_state % (uint64_t)n);
}

/* --------------------------------------------------------- the table */

static void
test_cmd_lookup_table(void **state)
{
	const struct cmd_def	*c, *prev = NULL;
	size_t			 i, own = 0;
	char			 lower[64];

	(void)state;
	for (i = 0; (c = cmd_at(i)) != NULL; i++) {
		if (prev != NULL)
			assert_true(strcmp(prev->name, c->name) < 0);
		assert_ptr_equal(cmd_lookup(c->name), c);
		assert_true(strlen(c->name) <= 15);	/* CMD_NAME_MAX */
		snprintf(lower, sizeof(lower), "%s", c->name);
		for (char *p = lower; *p != '\0'; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p + 32);
		assert_ptr_equal(cmd_lookup(lower), c);
		assert_non_null(c->usage);
		assert_true(strncmp(c->usage, c->name, strlen(c->name)) == 0);
		assert_true((c->flags & (CMD_WRITE | CMD_READONLY)) != 0);
		own += (c->flags & CMD_CONN) == 0;
		prev = c;
	}
	/* 19 + LUDO.ROLL, SEAT (seats, dice) + DBSIZE, EXISTS, SCAN, TYPE
	 * (the keyspace) + XLEN, XRANGE, XREAD, XREVRANGE (streams) */
	assert_int_equal(own, 29);
	assert_int_equal(i, 53);	/* and the 24 connection commands */
	assert_null(cmd_lookup("LUDO"));
	assert_null(cmd_lookup("LUDO.PLAYX"));
	assert_null(cmd_lookup(""));
	assert_non_null(cmd_lookup("lUdO.pLaY"));
	assert_null(cmd_lookup("LUDO.PLAY.LUDO.PLAY"));
	assert_null(cmd_lookup("LUDO.PLAY\xc0"));
	assert_null(cmd_lookup("\xff"));
}

static void
test_valid_id_cases(void **state)
{
	char	id[GAME_ID_MAX + 2];

	(void)state;
	assert_true(valid_id("game-1", 6));
	assert_true(valid_id("a", 1));
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	assert_true(valid_id(id, GAME_ID_MAX));
	assert_false(valid_id(id, GAME_ID_MAX + 1));
	assert_true(valid_id("0123456789abcdefghijklmnopqrstuvwxyz-", 37));
	assert_false(valid_id("", 0));
	assert_false(valid_id("Game", 4));
	assert_false(valid_id("a b", 3));
	assert_false(valid_id("a_b", 3));
	assert_false(valid_id("ab\0c", 4));
}

static void
test_cmd_execute_unknown_and_arity(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "NOPE 1 2", "-ERR unknown command 'NOPE'");
	EXPECT(f, "ludo.creat g a b", "-ERR unknown command 'ludo.creat'");
	EXPECT(f, "ludo.play g a 6",
	    "-ERR wrong number of arguments for 'LUDO.PLAY'");
	EXPECT(f, "LUDO.STATE",
	    "-ERR wrong number of arguments for 'LUDO.STATE'");
	EXPECT(f, "LUDO.STATE a b",
	    "-ERR wrong number of arguments for 'LUDO.STATE'");
	EXPECT(f, "LUDO.CREATE g a",
	    "-ERR wrong number of arguments for 'LUDO.CREATE'");
	EXPECT(f, "LUDO.LEGAL g",
	    "-ERR wrong number of arguments for 'LUDO.LEGAL'");
	EXPECT(f, "SNL.CREATE g",
	    "-ERR wrong number of arguments for 'SNL.CREATE'");
	EXPECT(f, "SNL.SNAKE g 5",
	    "-ERR wrong number of arguments for 'SNL.SNAKE'");
	EXPECT(f, "SNL.LADDER g 5 6 7",
	    "-ERR wrong number of arguments for 'SNL.LADDER'");
	EXPECT(f, "SNL.ROLL g",
	    "-ERR wrong number of arguments for 'SNL.ROLL'");
	EXPECT(f, "SNL.STATE",
	    "-ERR wrong number of arguments for 'SNL.STATE'");
	EXPECT(f, "DANDY.CREATE g 2",
	    "-ERR wrong number of arguments for 'DANDY.CREATE'");
	EXPECT(f, "DANDY.CREATE g 2 ab deck=a x",
	    "-ERR wrong number of arguments for 'DANDY.CREATE'");
	EXPECT(f, "DANDY.DRAW",
	    "-ERR wrong number of arguments for 'DANDY.DRAW'");
	EXPECT(f, "DANDY.SCORES",
	    "-ERR wrong number of arguments for 'DANDY.SCORES'");
	EXPECT(f, "DANDY.STATE g x",
	    "-ERR wrong number of arguments for 'DANDY.STATE'");
	EXPECT(f, "DANDY.PLAY 1 a",
	    "-ERR wrong number of arguments for 'DANDY.PLAY'");
	EXPECT(f, "GAME.INFO",
	    "-ERR wrong number of arguments for 'GAME.INFO'");
	EXPECT(f, "HISTORY", "-ERR wrong number of arguments for 'HISTORY'");
	EXPECT(f, "HISTORY g 1 2 3",
	    "-ERR wrong number of arguments for 'HISTORY'");
	EXPECT(f, "REPLAY", "-ERR wrong number of arguments for 'REPLAY'");
	EXPECT(f, "REPLAY g 1 2",
	    "-ERR wrong number of arguments for 'REPLAY'");
	EXPECT(f, "AUDIT g h", "-ERR wrong number of arguments for 'AUDIT'");
	/* CR/LF in an echoed argument cannot break a reply's framing. */
	EXPECT(f, "\"BAD\\r\\nCMD\"", "-ERR unknown command 'BAD  CMD'");
	/* Nothing was written by any of these. */
	assert_int_equal(f->env.commits, 0);
	assert_int_equal(count_rows(f, "SELECT count(*) FROM games"), 0);
}

/* Arguments are binary-safe: a NUL inside one never passes for its
 * prefix. */
static void
test_cmd_execute_embedded_nul(void **state)
{
	struct fixture	*f = *state;
	struct cmd_args	 args;
	struct reply	 r;
	char		 name[] = "GAMES\0x", kind[] = "ludo\0x";
	char		 id[] = "g\0x", six[] = "6\0";
	char		 state_cmd[] = "LUDO.STATE", legal[] = "LUDO.LEGAL";
	char		*argv[3];
	size_t		 argl[3];

	EXPECT(f, "LUDO.CREATE g a b", "+OK");
	memset(&args, 0, sizeof(args));
	args.argv = argv;
	args.argl = argl;

	argv[0] = name;
	argl[0] = sizeof(name) - 1;
	args.argc = 1;
	memset(&r, 0, sizeof(r));
	cmd_execute(&f->env, &args, &r);
	assert_int_equal(r.type, REPLY_ERROR);
	assert_string_equal(r.str, "ERR unknown command 'GAMES'");
	reply_free(&r);

	argv[0] = state_cmd;
	argl[0] = strlen(state_cmd);
	argv[1] = id;
	argl[1] = sizeof(id) - 1;
	args.argc = 2;
	cmd_execute(&f->env, &args, &r);
	assert_string_equal(r.str, "BADARG invalid game id");
	reply_free(&r);

	argv[0] = legal;
	argl[0] = strlen(legal);
	argv[1] = id;
	argl[1] = 1;
	argv[2] = six;
	argl[2] = sizeof(six) - 1;
	args.argc = 3;
	cmd_execute(&f->env, &args, &r);
	assert_string_equal(r.str,
	    "BADARG dice must be an integer from 1 to 6");
	reply_free(&r);

	argv[0] = name;
	argl[0] = 5;
	argv[1] = kind;
	argl[1] = sizeof(kind) - 1;
	args.argc = 2;
	cmd_execute(&f->env, &args, &r);
	assert_int_equal(r.type, REPLY_ERROR);
	assert_string_equal(r.str, "BADARG kind must be ludo, snl or dandy");
	reply_free(&r);
}

/* ---------------------------------------------------------------- Ludo */

static void
test_ludo_example1(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE game-1 red blue", "+OK");
	EXPECT(f, "LUDO.PLAY game-1 red 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY game-1 red 3 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY game-1 blue 4 0", "+PASSED");
	EXPECT(f, "LUDO.STATE game-1",
	    "*10\n+turn,red\n+winner,NONE\n+red,1,TRACK,3\n+red,2,YARD,-1\n"
	    "+red,3,YARD,-1\n+red,4,YARD,-1\n+blue,1,YARD,-1\n"
	    "+blue,2,YARD,-1\n+blue,3,YARD,-1\n+blue,4,YARD,-1");
	EXPECT(f, "HISTORY game-1",
	    "*3\n+1,red,6:1,MOVED\n+2,red,3:1,MOVED\n+3,blue,4:0,PASSED");
	assert_int_equal(f->env.turns, 3);
	assert_int_equal(f->env.commits, 4);
	assert_int_equal(f->hooked, 3);
}

static void
test_ludo_example2(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE capture-game alpha beta", "+OK");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 2 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game beta 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game beta 1 1", "+MOVED_AND_CAPTURED");
	EXPECT(f, "LUDO.STATE capture-game",
	    "*10\n+turn,alpha\n+winner,NONE\n+alpha,1,YARD,-1\n"
	    "+alpha,2,YARD,-1\n+alpha,3,YARD,-1\n+alpha,4,YARD,-1\n"
	    "+beta,1,TRACK,1\n+beta,2,YARD,-1\n+beta,3,YARD,-1\n"
	    "+beta,4,YARD,-1");
	EXPECT(f, "AUDIT", "*0");
}

static void
test_ludo_example3(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE pass-game sun moon", "+OK");
	EXPECT(f, "LUDO.PLAY pass-game sun 3 1", "+INVALID_MOVE");
	EXPECT(f, "LUDO.STATE pass-game",
	    "*10\n+turn,sun\n+winner,NONE\n+sun,1,YARD,-1\n+sun,2,YARD,-1\n"
	    "+sun,3,YARD,-1\n+sun,4,YARD,-1\n+moon,1,YARD,-1\n"
	    "+moon,2,YARD,-1\n+moon,3,YARD,-1\n+moon,4,YARD,-1");
	EXPECT(f, "LUDO.PLAY pass-game sun 3 0", "+PASSED");
	EXPECT(f, "LUDO.STATE pass-game",
	    "*10\n+turn,moon\n+winner,NONE\n+sun,1,YARD,-1\n+sun,2,YARD,-1\n"
	    "+sun,3,YARD,-1\n+sun,4,YARD,-1\n+moon,1,YARD,-1\n"
	    "+moon,2,YARD,-1\n+moon,3,YARD,-1\n+moon,4,YARD,-1");
	EXPECT(f, "HISTORY pass-game", "*1\n+1,sun,3:0,PASSED");
}

static void
test_ludo_create_options(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE ext a b c d rules=extended", "+OK");
	/* Options may come anywhere after the id and override the preset. */
	EXPECT(f, "LUDO.CREATE ext2 six-bonus=off a rules=extended b", "+OK");
	EXPECT(f, "LUDO.CREATE inter a b rules=interview three-sixes=on "
	    "capture-bonus=on", "+OK");
	EXPECT(f, "GAME.INFO ext",
	    "*7\n+kind,ludo\n+players,4\n+moves,0\n+turn,a\n+winner,NONE\n"
	    "+created,1700000000\n+updated,1700000000");
	/* Extended: a third six in a row forfeits the turn. */
	EXPECT(f, "LUDO.PLAY ext a 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY ext a 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY ext a 6 1", "+FORFEITED");
	EXPECT(f, "LUDO.STATE ext",
	    "*18\n+turn,b\n+winner,NONE\n+a,1,TRACK,6\n+a,2,YARD,-1\n"
	    "+a,3,YARD,-1\n+a,4,YARD,-1\n+b,1,YARD,-1\n+b,2,YARD,-1\n"
	    "+b,3,YARD,-1\n+b,4,YARD,-1\n+c,1,YARD,-1\n+c,2,YARD,-1\n"
	    "+c,3,YARD,-1\n+c,4,YARD,-1\n+d,1,YARD,-1\n+d,2,YARD,-1\n"
	    "+d,3,YARD,-1\n+d,4,YARD,-1");
	/* six-bonus=off: a six passes the turn. */
	EXPECT(f, "LUDO.PLAY ext2 a 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY ext2 a 6 1", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY ext2 b 6 1", "+MOVED");

	EXPECT_ERR(f, "LUDO.CREATE x a b rules=fancy", "-BADARG rules");
	EXPECT_ERR(f, "LUDO.CREATE x a b six-bonus=yes", "-BADARG six-bonus");
	EXPECT_ERR(f, "LUDO.CREATE x a b colour=red", "-ERR syntax error");
	EXPECT_ERR(f, "LUDO.CREATE x a b =x", "-ERR syntax error");
	EXPECT(f, "LUDO.CREATE x a rules=classic",
	    "-BADARG Ludo takes 2 to 4 players");
	EXPECT(f, "LUDO.CREATE x a b c d e",
	    "-BADARG Ludo takes 2 to 4 players");
	EXPECT(f, "LUDO.CREATE x a b a", "-BADARG duplicate player 'a'");
	EXPECT(f, "LUDO.CREATE x a B", "-BADARG invalid player id");
	EXPECT(f, "LUDO.CREATE X a b", "-BADARG invalid game id");
	EXPECT(f, "LUDO.CREATE \"\" a b", "-BADARG invalid game id");
	EXPECT(f, "LUDO.CREATE x a \"\"", "-BADARG invalid player id");
	EXPECT(f, "LUDO.CREATE ext a b", "-EXISTS game 'ext' already exists");
	EXPECT(f, "GAMES", "*3\n$ext\n$ext2\n$inter");
}

static void
test_ludo_play_errors(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "LUDO.PLAY g red 0 1",
	    "-BADARG dice must be an integer from 1 to 6");
	EXPECT(f, "LUDO.PLAY g red 7 1",
	    "-BADARG dice must be an integer from 1 to 6");
	EXPECT_ERR(f, "LUDO.PLAY g red six 1", "-BADARG dice");
	EXPECT_ERR(f, "LUDO.PLAY g red 06 1", "-BADARG dice");
	EXPECT_ERR(f, "LUDO.PLAY g red +6 1", "-BADARG dice");
	EXPECT_ERR(f, "LUDO.PLAY g red 99999999999999999999 1", "-BADARG dice");
	EXPECT(f, "LUDO.PLAY g red 6 5",
	    "-BADARG token must be an integer from 0 to 4");
	EXPECT_ERR(f, "LUDO.PLAY g red 6 -1", "-BADARG token");
	EXPECT(f, "LUDO.PLAY g Red 6 1", "-BADARG invalid player id");
	EXPECT(f, "LUDO.PLAY g green 6 1",
	    "-BADARG player 'green' is not in game 'g'");
	EXPECT(f, "LUDO.PLAY G red 6 1", "-BADARG invalid game id");
	EXPECT(f, "LUDO.PLAY nope red 6 1", "-NOGAME no such game 'nope'");
	EXPECT(f, "LUDO.PLAY s red 6 1", "-WRONGTYPE game 's' is a snl game");
	EXPECT(f, "LUDO.PLAY g red 6 1 x", "-ERR syntax error");
	EXPECT(f, "LUDO.PLAY g red 6 1 AT", "-ERR syntax error");
	EXPECT(f, "LUDO.PLAY g red 6 1 AT x y", "-ERR syntax error");
	EXPECT_ERR(f, "LUDO.PLAY g red 6 1 AT -1", "-BADARG AT seq");
	EXPECT_ERR(f, "LUDO.PLAY g red 6 1 AT 1x", "-BADARG AT seq");
	EXPECT(f, "LUDO.PLAY g blue 6 1", "+INVALID_MOVE");
	EXPECT(f, "LUDO.STATE nope", "-NOGAME no such game 'nope'");
	EXPECT(f, "LUDO.STATE s", "-WRONGTYPE game 's' is a snl game");
	EXPECT(f, "LUDO.STATE bad_id", "-BADARG invalid game id");
	EXPECT(f, "LUDO.LEGAL g 0",
	    "-BADARG dice must be an integer from 1 to 6");
	EXPECT(f, "LUDO.LEGAL nope 6", "-NOGAME no such game 'nope'");
	EXPECT(f, "LUDO.LEGAL s 6", "-WRONGTYPE game 's' is a snl game");
	EXPECT(f, "LUDO.LEGAL g 3", "*0");
	EXPECT(f, "LUDO.LEGAL g 6", "*4\n:1\n:2\n:3\n:4");
	EXPECT(f, "LUDO.PLAY g red 6 1", "+MOVED");
	EXPECT(f, "LUDO.LEGAL g 3", "*1\n:1");
	EXPECT(f, "LUDO.LEGAL g 6", "*4\n:1\n:2\n:3\n:4");
	assert_int_equal(f->env.turns, 1);
}

/* Plays a Ludo game to its end: every token of red walks home while
 * blue passes; PLAYER_WON, then GAME_OVER before any player check. */
static void
test_ludo_play_to_the_end(void **state)
{
	struct fixture	*f = *state;
	char		 line[128];
	int		 t, left;

	EXPECT(f, "LUDO.CREATE w red blue rules=interview", "+OK");
	for (t = 1; t <= 4; t++) {
		snprintf(line, sizeof(line), "LUDO.PLAY w red 6 %d", t);
		EXPECT(f, line, "+MOVED");
		/* 0 -> 57 in sixes (6*9=54) then a 3; blue passes between. */
		for (left = 57; left > 0; left -= left >= 6 ? 6 : left) {
			int d = left >= 6 ? 6 : left;

			snprintf(line, sizeof(line), "LUDO.PLAY w red %d %d",
			    d, t);
			if (d == left && t == 4)
				EXPECT(f, line, "+PLAYER_WON");
			else if (d == left)
				EXPECT(f, line, "+TOKEN_FINISHED");
			else
				EXPECT(f, line, "+MOVED");
			if (d != 6 && !(d == left && t == 4))
				EXPECT(f, "LUDO.PLAY w blue 1 0", "+PASSED");
		}
	}
	EXPECT(f, "LUDO.PLAY w blue 6 1", "+GAME_OVER");
	EXPECT(f, "LUDO.PLAY w green 6 1", "+GAME_OVER");
	EXPECT(f, "LUDO.LEGAL w 6", "*0");
	EXPECT(f, "GAME.INFO w",
	    "*7\n+kind,ludo\n+players,2\n+moves,47\n+turn,NONE\n"
	    "+winner,red\n+created,1700000000\n+updated,1700000000");
	EXPECT(f, "LUDO.STATE w",
	    "*10\n+turn,NONE\n+winner,red\n+red,1,FINISHED,57\n"
	    "+red,2,FINISHED,57\n+red,3,FINISHED,57\n+red,4,FINISHED,57\n"
	    "+blue,1,YARD,-1\n+blue,2,YARD,-1\n+blue,3,YARD,-1\n"
	    "+blue,4,YARD,-1");
	EXPECT(f, "AUDIT w", "*0");
}

/* ------------------------------------------------------ Snake & Ladder */

static void
test_snl_example1(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "SNL.LADDER s 4 98", "+OK");
	EXPECT(f, "SNL.SNAKE s 99 2", "+OK");
	EXPECT(f, "SNL.ROLL s 4", "+P1 98");
	EXPECT(f, "SNL.ROLL s 6", "+P2 6");
	EXPECT(f, "SNL.ROLL s 2", "+P1 WINS");
	EXPECT(f, "SNL.ROLL s 5", "+GAME_OVER");
	EXPECT(f, "SNL.ROLL s 6", "+GAME_OVER");
	EXPECT(f, "SNL.STATE s",
	    "*6\n+turn,NONE\n+winner,P1\n+P1,100\n+P2,6\n+ladder,4,98\n"
	    "+snake,99,2");
	EXPECT(f, "HISTORY s", "*3\n+1,P1,4,P1 98\n+2,P2,6,P2 6\n"
	    "+3,P1,2,P1 WINS");
	/* Setup is not a move. */
	EXPECT(f, "GAME.INFO s",
	    "*7\n+kind,snl\n+players,2\n+moves,3\n+turn,NONE\n+winner,P1\n"
	    "+created,1700000000\n+updated,1700000000");
	assert_int_equal(f->env.turns, 3);
	assert_int_equal(f->hooked, 3);
}

static void
test_snl_example2(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE s2 2", "+OK");
	EXPECT(f, "SNL.LADDER s2 3 100", "+OK");
	EXPECT(f, "SNL.ROLL s2 3", "+P1 WINS");
	EXPECT(f, "SNL.ROLL s2 1", "+GAME_OVER");
	EXPECT(f, "REPLAY s2 0",
	    "*5\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0\n+ladder,3,100");
	EXPECT(f, "AUDIT", "*0");
}

static void
test_snl_setup_errors(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE s 3", "+OK");
	EXPECT(f, "DANDY.CREATE d 2 ab", "+OK");
	EXPECT(f, "SNL.CREATE t 0",
	    "-BADARG players must be an integer from 1 to 64");
	EXPECT_ERR(f, "SNL.CREATE t 65", "-BADARG players");
	EXPECT_ERR(f, "SNL.CREATE t x", "-BADARG players");
	EXPECT(f, "SNL.CREATE s 2", "-EXISTS game 's' already exists");
	EXPECT(f, "SNL.CREATE T 2", "-BADARG invalid game id");
	EXPECT_ERR(f, "SNL.SNAKE s 10 20", "-BADARG");	/* tail > head */
	EXPECT_ERR(f, "SNL.LADDER s 20 10", "-BADARG");	/* top < bottom */
	EXPECT_ERR(f, "SNL.SNAKE s 100 5", "-BADARG");	/* head on 100 */
	EXPECT_ERR(f, "SNL.SNAKE s 0 5", "-BADARG head");
	EXPECT_ERR(f, "SNL.LADDER s 5 101", "-BADARG top");
	EXPECT(f, "SNL.LADDER s 5 50", "+OK");
	EXPECT_ERR(f, "SNL.SNAKE s 5 2", "-BADARG");	/* cell taken */
	EXPECT_ERR(f, "SNL.SNAKE s 60 5", "-BADARG");	/* chain */
	EXPECT_ERR(f, "SNL.SNAKE s 50 40", "-BADARG");	/* chain */
	EXPECT(f, "SNL.SNAKE s 60 40", "+OK");
	EXPECT(f, "SNL.SNAKE nope 60 40", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.SNAKE d 60 40", "-WRONGTYPE game 'd' is a dandy game");
	EXPECT(f, "SNL.ROLL s 0",
	    "-BADARG value must be an integer from 1 to 6");
	EXPECT_ERR(f, "SNL.ROLL s 7", "-BADARG value");
	EXPECT(f, "SNL.ROLL d 1", "-WRONGTYPE game 'd' is a dandy game");
	EXPECT(f, "SNL.ROLL nope 1", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.ROLL s 1 2", "-ERR syntax error");
	EXPECT(f, "SNL.STATE d", "-WRONGTYPE game 'd' is a dandy game");
	EXPECT(f, "SNL.STATE s",
	    "*7\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0\n+P3,0\n+ladder,5,50\n"
	    "+snake,60,40");
	EXPECT(f, "SNL.ROLL s 5", "+P1 50");
	EXPECT_ERR(f, "SNL.SNAKE s 70 30", "-STATE");
	EXPECT_ERR(f, "SNL.LADDER s 30 70", "-STATE");
	EXPECT(f, "SNL.STATE s",
	    "*7\n+turn,P2\n+winner,NONE\n+P1,50\n+P2,0\n+P3,0\n+ladder,5,50\n"
	    "+snake,60,40");
	assert_int_equal(f->env.turns, 1);
}

/* ----------------------------------------------------------- DandyLand */

static void
test_dandy_play_examples(void **state)
{
	struct fixture	*f = *state;
	struct reply	 r;

	EXPECT(f, "DANDY.PLAY 2 abab9abcaa abab", "*2\n:3\n:1");
	EXPECT(f, "DANDY.PLAY 1 7aaa abcde", "*1\n:4");
	EXPECT(f, "DANDY.PLAY 1 af1f1fa abcde", "*1\n:3");
	EXPECT(f, "DANDY.PLAY 2 1181a221aeeb1 abcd", "*2\n:4\n:1");
	EXPECT(f, "DANDY.PLAY 4 9b8b2a11 ab", "*4\n:5\n:0\n:3\n:1");
	EXPECT(f, "DANDY.PLAY 8 d53ab9e7b5decaacd59aeeeb abcdabcdabcd",
	    "*8\n:0\n:1\n:1\n:1\n:0\n:1\n:0\n:1");
	EXPECT(f, "DANDY.PLAY 1 4 abcd", "*1\n:0");
	EXPECT(f, "DANDY.PLAY 3 \"\" abcd", "*3\n:0\n:0\n:0");

	/* The same through cmd_executev, with an empty card argument. */
	memset(&r, 0, sizeof(r));
	cmd_executev(&f->env, &r, "dandy.play", "2", "", "ab", NULL);
	assert_int_equal(r.type, REPLY_ARRAY);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.elem[0].type, REPLY_INT);
	assert_int_equal(r.elem[0].integer, 0);
	reply_free(&r);

	EXPECT_ERR(f, "DANDY.PLAY 0 a ab", "-BADARG players");
	EXPECT_ERR(f, "DANDY.PLAY 9 a ab", "-BADARG players");
	EXPECT_ERR(f, "DANDY.PLAY 2 aj ab", "-BADARG cards");
	EXPECT_ERR(f, "DANDY.PLAY 2 a0 ab", "-BADARG cards");
	EXPECT_ERR(f, "DANDY.PLAY 2 "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ab",
	    "-BADARG cards must be at most 50");
	EXPECT_ERR(f, "DANDY.PLAY 2 a \"\"", "-BADARG board");
	EXPECT_ERR(f, "DANDY.PLAY 2 a abj", "-BADARG board");
	EXPECT_ERR(f, "DANDY.PLAY 2 a "
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "-BADARG board");
	/* Nothing stored. */
	assert_int_equal(count_rows(f, "SELECT count(*) FROM games"), 0);
}

static const char *const main_draws[] = {
	"+P1 1 0", "+P2 2 0", "+P1 3 0", "+P2 4 0", "+P1 4 2",
	"+P2 1 0", "+P1 2 3", "+P2 4 0", "+P1 3 3", "+P2 1 1",
};

static void
test_dandy_draw_deck(void **state)
{
	struct fixture	*f = *state;
	size_t		 i;

	EXPECT(f, "DANDY.CREATE d 2 abab deck=abab9abcaa", "+OK");
	EXPECT(f, "DANDY.STATE d", "*3\n+turn,P1\n+P1,OFF,0\n+P2,OFF,0");
	EXPECT(f, "DANDY.DRAW d a",
	    "-BADARG game 'd' draws from its deck: give no card");
	for (i = 0; i < sizeof(main_draws) / sizeof(main_draws[0]); i++)
		EXPECT(f, "DANDY.DRAW d", main_draws[i]);
	EXPECT(f, "DANDY.DRAW d", "+GAME_OVER");
	EXPECT(f, "DANDY.SCORES d", "*2\n:3\n:1");
	EXPECT(f, "DANDY.STATE d", "*3\n+turn,NONE\n+P1,3,3\n+P2,1,1");
	EXPECT(f, "HISTORY d 5 2", "*2\n+5,P1,9,P1 4 2\n+6,P2,a,P2 1 0");
	EXPECT(f, "REPLAY d 5", "*3\n+turn,P2\n+P1,4,2\n+P2,OFF,0");
	EXPECT(f, "GAME.INFO d",
	    "*8\n+kind,dandy\n+players,2\n+moves,10\n+turn,NONE\n"
	    "+winner,NONE\n+created,1700000000\n+updated,1700000000\n"
	    "+board,abab");
	/* An empty deck is over at once. */
	EXPECT(f, "DANDY.CREATE e 1 abcd deck=", "+OK");
	EXPECT(f, "DANDY.DRAW e", "+GAME_OVER");
	EXPECT(f, "DANDY.STATE e", "*2\n+turn,NONE\n+P1,OFF,0");
	EXPECT(f, "AUDIT", "*0");
}

static void
test_dandy_draw_no_deck(void **state)
{
	struct fixture	*f = *state;
	const char	*cards = "abab9abcaa";
	char		 line[64];
	size_t		 i;

	EXPECT(f, "DANDY.CREATE d 2 abab", "+OK");
	EXPECT(f, "DANDY.DRAW d", "-BADARG game 'd' has no deck: a card is "
	    "required");
	for (i = 0; i < strlen(cards); i++) {
		snprintf(line, sizeof(line), "DANDY.DRAW d %c", cards[i]);
		EXPECT(f, line, main_draws[i]);
	}
	EXPECT(f, "DANDY.SCORES d", "*2\n:3\n:1");
	/* A game without a deck never runs out. */
	EXPECT(f, "DANDY.DRAW d 1", "+P1 4 3");
	EXPECT(f, "DANDY.STATE d", "*3\n+turn,P2\n+P1,4,3\n+P2,1,1");
	EXPECT(f, "AUDIT d", "*0");
}

static void
test_dandy_errors(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE l a b", "+OK");
	EXPECT(f, "DANDY.CREATE d 2 ab", "+OK");
	EXPECT_ERR(f, "DANDY.CREATE x 0 ab", "-BADARG players");
	EXPECT_ERR(f, "DANDY.CREATE x 9 ab", "-BADARG players");
	EXPECT_ERR(f, "DANDY.CREATE x 2 abz", "-BADARG board");
	EXPECT_ERR(f, "DANDY.CREATE x 2 \"\"", "-BADARG board");
	EXPECT_ERR(f, "DANDY.CREATE x 2 ab deck=abz", "-BADARG cards");
	EXPECT_ERR(f, "DANDY.CREATE x 2 ab dek=ab", "-ERR syntax error");
	EXPECT_ERR(f, "DANDY.CREATE X 2 ab", "-BADARG invalid game id");
	EXPECT(f, "DANDY.CREATE d 2 ab", "-EXISTS game 'd' already exists");
	EXPECT(f, "DANDY.CREATE l 2 ab", "-EXISTS game 'l' already exists");
	EXPECT_ERR(f, "DANDY.DRAW d j", "-BADARG card");
	EXPECT_ERR(f, "DANDY.DRAW d 0", "-BADARG card");
	EXPECT_ERR(f, "DANDY.DRAW d ab", "-BADARG card");
	EXPECT(f, "DANDY.DRAW d a b", "-ERR syntax error");
	EXPECT(f, "DANDY.DRAW l a", "-WRONGTYPE game 'l' is a ludo game");
	EXPECT(f, "DANDY.DRAW nope a", "-NOGAME no such game 'nope'");
	EXPECT(f, "DANDY.SCORES l", "-WRONGTYPE game 'l' is a ludo game");
	EXPECT(f, "DANDY.SCORES nope", "-NOGAME no such game 'nope'");
	EXPECT(f, "DANDY.STATE l", "-WRONGTYPE game 'l' is a ludo game");
	EXPECT(f, "DANDY.STATE Nope", "-BADARG invalid game id");
	EXPECT(f, "DANDY.SCORES d", "*2\n:0\n:0");
	assert_int_equal(f->env.turns, 0);
}

/* ------------------------------------------------------------------ AT */

static void
test_at_semantics(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "LUDO.PLAY g red 6 1 AT 0", "+MOVED");
	assert_int_equal(f->hooked, 1);
	/* The same move resent: its stored result, nothing applied. */
	EXPECT(f, "LUDO.PLAY g red 6 1 at 0", "+MOVED");
	assert_int_equal(f->hooked, 1);
	assert_int_equal(f->env.turns, 1);
	EXPECT(f, "GAME.INFO g",
	    "*7\n+kind,ludo\n+players,2\n+moves,1\n+turn,red\n+winner,NONE\n"
	    "+created,1700000000\n+updated,1700000000");
	/* A different move at an old seq, or a seq from the future. */
	EXPECT(f, "LUDO.PLAY g red 6 2 AT 0",
	    "-STALE game 'g' has 1 moves, not 0");
	EXPECT(f, "LUDO.PLAY g blue 6 1 AT 0",
	    "-STALE game 'g' has 1 moves, not 0");
	EXPECT(f, "LUDO.PLAY g red 6 1 AT 5",
	    "-STALE game 'g' has 1 moves, not 5");
	EXPECT(f, "LUDO.PLAY g red 3 1 AT 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY g blue 2 0 AT 2", "+PASSED");
	EXPECT(f, "LUDO.PLAY g red 3 1 AT 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY g red 6 1 AT 0", "+MOVED");
	/* An AT move that changes nothing is not stored. */
	EXPECT(f, "LUDO.PLAY g blue 2 0 AT 3", "+INVALID_MOVE");
	EXPECT(f, "HISTORY g", "*3\n+1,red,6:1,MOVED\n+2,red,3:1,MOVED\n"
	    "+3,blue,2:0,PASSED");
	assert_int_equal(f->hooked, 3);

	/* Snake & Ladder: the roller is implicit, the value must match. */
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "SNL.ROLL s 3 AT 0", "+P1 3");
	EXPECT(f, "SNL.ROLL s 3 AT 0", "+P1 3");
	EXPECT(f, "SNL.ROLL s 4 AT 0", "-STALE game 's' has 1 moves, not 0");
	EXPECT(f, "SNL.ROLL s 4 AT 1", "+P2 4");
	EXPECT(f, "SNL.STATE s", "*4\n+turn,P1\n+winner,NONE\n+P1,3\n+P2,4");

	/* DandyLand: a deck card is implicit, a given card must match. */
	EXPECT(f, "DANDY.CREATE d 2 abcd deck=b3", "+OK");
	EXPECT(f, "DANDY.DRAW d AT 0", "+P1 2 0");
	EXPECT(f, "DANDY.DRAW d at 0", "+P1 2 0");
	EXPECT(f, "DANDY.DRAW d AT 1", "+P2 3 0");
	EXPECT(f, "DANDY.DRAW d AT 2", "+GAME_OVER");
	EXPECT(f, "DANDY.DRAW d AT 3", "-STALE game 'd' has 2 moves, not 3");
	EXPECT(f, "DANDY.CREATE n 1 abcd", "+OK");
	EXPECT(f, "DANDY.DRAW n c AT 0", "+P1 3 0");
	EXPECT(f, "DANDY.DRAW n c AT 0", "+P1 3 0");
	EXPECT(f, "DANDY.DRAW n d AT 0", "-STALE game 'n' has 1 moves, not 0");
	EXPECT(f, "DANDY.STATE n", "*2\n+turn,P1\n+P1,3,0");
	EXPECT(f, "AUDIT", "*0");
}

/* ---------------------------------------------- HISTORY REPLAY AUDIT */

static void
test_history_paging(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE s 3", "+OK");
	EXPECT(f, "HISTORY s", "*0");
	EXPECT(f, "SNL.ROLL s 1", "+P1 1");
	EXPECT(f, "SNL.ROLL s 2", "+P2 2");
	EXPECT(f, "SNL.ROLL s 3", "+P3 3");
	EXPECT(f, "SNL.ROLL s 4", "+P1 5");
	EXPECT(f, "HISTORY s 2",
	    "*3\n+2,P2,2,P2 2\n+3,P3,3,P3 3\n+4,P1,4,P1 5");
	EXPECT(f, "HISTORY s 2 1", "*1\n+2,P2,2,P2 2");
	EXPECT(f, "HISTORY s 5", "*0");
	EXPECT_ERR(f, "HISTORY s 0", "-BADARG from");
	EXPECT_ERR(f, "HISTORY s 1 0", "-BADARG count");
	EXPECT_ERR(f, "HISTORY s 1 10001", "-BADARG count");
	EXPECT_ERR(f, "HISTORY s x", "-BADARG from");
	EXPECT(f, "HISTORY nope", "-NOGAME no such game 'nope'");
	EXPECT(f, "HISTORY No", "-BADARG invalid game id");
}

static void
test_replay_states(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE capture-game alpha beta", "+OK");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game alpha 2 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game beta 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY capture-game beta 1 1", "+MOVED_AND_CAPTURED");
	EXPECT(f, "REPLAY capture-game 0",
	    "*10\n+turn,alpha\n+winner,NONE\n+alpha,1,YARD,-1\n"
	    "+alpha,2,YARD,-1\n+alpha,3,YARD,-1\n+alpha,4,YARD,-1\n"
	    "+beta,1,YARD,-1\n+beta,2,YARD,-1\n+beta,3,YARD,-1\n"
	    "+beta,4,YARD,-1");
	EXPECT(f, "REPLAY capture-game 4",
	    "*10\n+turn,beta\n+winner,NONE\n+alpha,1,TRACK,14\n"
	    "+alpha,2,YARD,-1\n+alpha,3,YARD,-1\n+alpha,4,YARD,-1\n"
	    "+beta,1,YARD,-1\n+beta,2,YARD,-1\n+beta,3,YARD,-1\n"
	    "+beta,4,YARD,-1");
	EXPECT(f, "REPLAY capture-game",
	    "*10\n+turn,alpha\n+winner,NONE\n+alpha,1,YARD,-1\n"
	    "+alpha,2,YARD,-1\n+alpha,3,YARD,-1\n+alpha,4,YARD,-1\n"
	    "+beta,1,TRACK,1\n+beta,2,YARD,-1\n+beta,3,YARD,-1\n"
	    "+beta,4,YARD,-1");
	EXPECT(f, "REPLAY capture-game 7",
	    "-BADARG game 'capture-game' has only 6 moves");
	EXPECT_ERR(f, "REPLAY capture-game -1", "-BADARG seq");
	EXPECT(f, "REPLAY nope", "-NOGAME no such game 'nope'");

	/* A history row that does not replay. */
	exec_sql(f, "UPDATE history SET result = 'MOVED' "
	    "WHERE game = 'capture-game' AND seq = 6");
	EXPECT_ERR(f, "REPLAY capture-game",
	    "-STATE history of 'capture-game' does not replay: move 6");
	EXPECT(f, "REPLAY capture-game 5",
	    "*10\n+turn,beta\n+winner,NONE\n+alpha,1,TRACK,14\n"
	    "+alpha,2,YARD,-1\n+alpha,3,YARD,-1\n+alpha,4,YARD,-1\n"
	    "+beta,1,TRACK,0\n+beta,2,YARD,-1\n+beta,3,YARD,-1\n"
	    "+beta,4,YARD,-1");
	EXPECT(f, "AUDIT", "*1\n$capture-game");
}

static void
test_audit_tampered(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "LUDO.CREATE a red blue", "+OK");
	EXPECT(f, "LUDO.CREATE b red blue", "+OK");
	EXPECT(f, "SNL.CREATE c 2", "+OK");
	EXPECT(f, "DANDY.CREATE d 2 abcd deck=1234", "+OK");
	EXPECT(f, "LUDO.PLAY a red 6 1", "+MOVED");
	EXPECT(f, "LUDO.PLAY b red 6 2", "+MOVED");
	EXPECT(f, "SNL.ROLL c 5", "+P1 5");
	EXPECT(f, "DANDY.DRAW d", "+P1 1 0");
	EXPECT(f, "AUDIT", "*0");

	exec_sql(f, "UPDATE tokens SET pos = 5 WHERE game = 'b' AND "
	    "player = 0 AND token = 2");
	EXPECT(f, "AUDIT", "*1\n$b");
	EXPECT(f, "AUDIT b", "*1\n$b");
	EXPECT(f, "AUDIT a", "*0");
	exec_sql(f, "UPDATE tokens SET pos = 7 WHERE game = 'c' AND "
	    "player = 1");
	exec_sql(f, "UPDATE tokens SET points = 4 WHERE game = 'd' AND "
	    "player = 0");
	EXPECT(f, "AUDIT", "*3\n$b\n$c\n$d");
	/* A deleted history row: the game no longer matches its history. */
	exec_sql(f, "DELETE FROM history WHERE game = 'a'");
	EXPECT(f, "AUDIT a", "*1\n$a");
	EXPECT(f, "AUDIT nope", "-NOGAME no such game 'nope'");
	EXPECT(f, "AUDIT No", "-BADARG invalid game id");
}

/* Many random games of every kind, then AUDIT: stored state always equals
 * the replayed history, and REPLAY equals STATE. */
static void
test_audit_random_games(void **state)
{
	struct fixture	*f = *state;
	struct reply	 r;
	char		 line[128], player[GAME_ID_MAX + 1];
	char		*a, *b;
	int		 g, m, d, n;
	static const char *const presets[] = { "classic", "interview",
	    "extended" };

	for (g = 0; g < 6; g++) {
		snprintf(line, sizeof(line), "LUDO.CREATE l%d p0 p1 p2 p3 "
		    "rules=%s", g, presets[g % 3]);
		EXPECT(f, line, "+OK");
		for (m = 0; m < 4000; m++) {
			memset(&r, 0, sizeof(r));
			snprintf(line, sizeof(line), "l%d", g);
			cmd_executev(&f->env, &r, "LUDO.STATE", line, NULL);
			assert_int_equal(r.type, REPLY_ARRAY);
			if (strcmp(r.elem[0].str, "turn,NONE") == 0) {
				reply_free(&r);
				break;
			}
			snprintf(player, sizeof(player), "%s",
			    r.elem[0].str + 5);
			reply_free(&r);
			d = 1 + rnd(6);
			snprintf(line, sizeof(line), "LUDO.LEGAL l%d %d", g, d);
			memset(&r, 0, sizeof(r));
			{
				char	gid[16], dice[4];

				snprintf(gid, sizeof(gid), "l%d", g);
				snprintf(dice, sizeof(dice), "%d", d);
				cmd_executev(&f->env, &r, "LUDO.LEGAL", gid,
				    dice, NULL);
				n = (int)r.n;
				snprintf(line, sizeof(line),
				    "LUDO.PLAY %s %s %d %lld", gid, player, d,
				    n == 0 ? 0 : r.elem[rnd(n)].integer);
				reply_free(&r);
			}
			a = run(f, line);
			assert_true(a[0] == '+');
			assert_string_not_equal(a, "+INVALID_MOVE");
			free(a);
		}
		snprintf(line, sizeof(line), "LUDO.STATE l%d", g);
		a = run(f, line);
		snprintf(line, sizeof(line), "REPLAY l%d", g);
		b = run(f, line);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	for (g = 0; g < 10; g++) {
		snprintf(line, sizeof(line), "SNL.CREATE s%d %d", g, 1 + g);
		EXPECT(f, line, "+OK");
		snprintf(line, sizeof(line), "SNL.LADDER s%d 7 60", g);
		EXPECT(f, line, "+OK");
		snprintf(line, sizeof(line), "SNL.SNAKE s%d 97 3", g);
		EXPECT(f, line, "+OK");
		for (m = 0; m < 3000; m++) {
			snprintf(line, sizeof(line), "SNL.ROLL s%d %d", g,
			    1 + rnd(6));
			a = run(f, line);
			d = strcmp(a, "+GAME_OVER") == 0;
			free(a);
			if (d)
				break;
		}
		assert_true(m < 3000);
	}
	for (g = 0; g < 10; g++) {
		snprintf(line, sizeof(line), "DANDY.CREATE d%d %d abcdabefgi",
		    g, 1 + g % 8);
		EXPECT(f, line, "+OK");
		for (m = 0; m < 60; m++) {
			snprintf(line, sizeof(line), "DANDY.DRAW d%d %c", g,
			    "abcdefghi123456789"[rnd(18)]);
			a = run(f, line);
			assert_true(a[0] == '+');
			free(a);
		}
	}
	EXPECT(f, "AUDIT", "*0");
}

/* --------------------------------------------------- GAMES, GAME.INFO */

static void
test_games_paging(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "GAMES", "*0");
	EXPECT(f, "LUDO.CREATE g3 a b", "+OK");
	EXPECT(f, "SNL.CREATE g1 2", "+OK");
	EXPECT(f, "DANDY.CREATE g2 2 ab", "+OK");
	EXPECT(f, "LUDO.CREATE g0 a b", "+OK");
	EXPECT(f, "SNL.CREATE a1 1", "+OK");
	EXPECT(f, "GAMES", "*5\n$a1\n$g0\n$g1\n$g2\n$g3");
	EXPECT(f, "GAMES ludo", "*2\n$g0\n$g3");
	EXPECT(f, "games SNL", "*2\n$a1\n$g1");
	EXPECT(f, "GAMES dandy", "*1\n$g2");
	EXPECT(f, "GAMES LIMIT 2", "*2\n$a1\n$g0");
	EXPECT(f, "GAMES after g0 limit 2", "*2\n$g1\n$g2");
	EXPECT(f, "GAMES AFTER g3", "*0");
	EXPECT(f, "GAMES AFTER a", "*5\n$a1\n$g0\n$g1\n$g2\n$g3");
	EXPECT(f, "GAMES snl AFTER a1", "*1\n$g1");
	EXPECT(f, "GAMES ludo LIMIT 1 AFTER g0", "*1\n$g3");
	EXPECT_ERR(f, "GAMES chess", "-BADARG kind");
	EXPECT_ERR(f, "GAMES LIMIT 0", "-BADARG LIMIT");
	EXPECT_ERR(f, "GAMES LIMIT 10001", "-BADARG LIMIT");
	EXPECT_ERR(f, "GAMES LIMIT x", "-BADARG LIMIT");
	EXPECT(f, "GAMES AFTER G", "-BADARG invalid game id");
	EXPECT(f, "GAMES LIMIT", "-ERR syntax error");
	EXPECT(f, "GAMES ludo snl", "-ERR syntax error");
	EXPECT(f, "GAMES ludo LIMIT 1 LIMIT", "-ERR syntax error");
}

static void
test_game_info_fields(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, "SNL.CREATE s 3", "+OK");
	fake_time = NOW + 10;
	EXPECT(f, "SNL.ROLL s 2", "+P1 2");
	EXPECT(f, "GAME.INFO s",
	    "*7\n+kind,snl\n+players,3\n+moves,1\n+turn,P2\n+winner,NONE\n"
	    "+created,1700000000\n+updated,1700000010");
	EXPECT(f, "GAME.INFO nope", "-NOGAME no such game 'nope'");
	EXPECT(f, "GAME.INFO bad/id", "-BADARG invalid game id");
	assert_int_equal(f->last.at, NOW + 10);
	assert_int_equal(f->last.seq, 1);
	assert_string_equal(f->last_game, "s");
	assert_string_equal(f->last.player, "P1");
	assert_string_equal(f->last.action, "2");
	assert_string_equal(f->last.result, "P1 2");
}

/* ------------------------------------------------------ transactions */

static void
test_invalid_move_writes_nothing(void **state)
{
	struct fixture	*f = *state;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 changes;
	uint64_t	 commits;

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "LUDO.PLAY g red 6 1", "+MOVED");
	changes = sqlite3_total_changes(db);
	commits = f->env.commits;
	EXPECT(f, "LUDO.PLAY g red 6 2", "+MOVED");
	assert_int_not_equal(sqlite3_total_changes(db), changes);
	changes = sqlite3_total_changes(db);
	commits = f->env.commits;
	EXPECT(f, "LUDO.PLAY g blue 6 1", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g red 5 3", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g red 2 0", "+INVALID_MOVE");
	EXPECT(f, "LUDO.PLAY g green 2 0", "-BADARG player 'green' is not in "
	    "game 'g'");
	assert_int_equal(sqlite3_total_changes(db), changes);
	assert_int_equal(f->env.commits, commits);
	assert_int_equal(count_rows(f, "SELECT count(*) FROM history"), 2);
	assert_int_equal(count_rows(f, "SELECT moves FROM games"), 2);
	assert_int_equal(f->hooked, 2);
	assert_int_equal(sqlite3_get_autocommit(db), 1);	/* no open tx */
}

static int
refuse_commit(void *arg)
{
	(*(int *)arg)++;
	return 1;
}

static void
test_commit_failure_rolls_back(void **state)
{
	struct fixture	*f = *state;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 calls = 0;
	const char	*before =
	    "*10\n+turn,red\n+winner,NONE\n+red,1,TRACK,0\n+red,2,YARD,-1\n"
	    "+red,3,YARD,-1\n+red,4,YARD,-1\n+blue,1,YARD,-1\n"
	    "+blue,2,YARD,-1\n+blue,3,YARD,-1\n+blue,4,YARD,-1";

	EXPECT(f, "LUDO.CREATE g red blue", "+OK");
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "LUDO.PLAY g red 6 1", "+MOVED");
	EXPECT(f, "LUDO.STATE g", before);

	sqlite3_commit_hook(db, refuse_commit, &calls);
	EXPECT_ERR(f, "LUDO.PLAY g red 6 1", "-STORE");
	EXPECT_ERR(f, "SNL.LADDER s 3 50", "-STORE");
	EXPECT_ERR(f, "LUDO.CREATE h a b", "-STORE");
	sqlite3_commit_hook(db, NULL, NULL);
	assert_true(calls >= 3);
	assert_int_equal(f->env.store_errors, 3);
	assert_int_equal(f->hooked, 1);
	assert_int_equal(f->env.turns, 1);
	assert_int_equal(sqlite3_get_autocommit(db), 1);

	EXPECT(f, "LUDO.STATE g", before);
	EXPECT(f, "HISTORY g", "*1\n+1,red,6:1,MOVED");
	EXPECT(f, "SNL.STATE s", "*4\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0");
	EXPECT(f, "GAME.INFO h", "-NOGAME no such game 'h'");
	EXPECT(f, "AUDIT", "*0");
	/* And the store works again afterwards. */
	EXPECT(f, "LUDO.PLAY g red 6 1 AT 1", "+MOVED");
	EXPECT(f, "LUDO.CREATE h a b", "+OK");
	assert_int_equal(f->hooked, 2);
}

static void
test_on_move_once_per_move(void **state)
{
	struct fixture	*f = *state;

	f->env.on_move = on_move;
	EXPECT(f, "SNL.CREATE s 1", "+OK");
	EXPECT(f, "SNL.LADDER s 2 99", "+OK");
	assert_int_equal(f->hooked, 0);
	EXPECT(f, "SNL.ROLL s 2", "+P1 99");
	EXPECT(f, "SNL.ROLL s 2", "+P1 99");	/* overshoot */
	EXPECT(f, "SNL.ROLL s 1", "+P1 WINS");
	EXPECT(f, "SNL.ROLL s 1", "+GAME_OVER");
	EXPECT(f, "SNL.ROLL s 1 AT 2", "+P1 WINS");
	assert_int_equal(f->hooked, 3);
	assert_string_equal(f->last.result, "P1 WINS");
	assert_int_equal(f->last.seq, 3);
	/* No hook set: moves still commit. */
	f->env.on_move = NULL;
	EXPECT(f, "SNL.CREATE t 1", "+OK");
	EXPECT(f, "SNL.ROLL t 1", "+P1 1");
	assert_int_equal(f->hooked, 3);
	assert_int_equal(f->env.turns, 4);
}

/* ------------------------------------------------------ group commit */

static int	scheduled;	/* on_schedule calls */

static void
on_schedule(void *arg, const char *game, int64_t due)
{
	(void)arg;
	(void)game;
	(void)due;
	scheduled++;
}

static int
fail_commit(void *arg)
{
	(void)arg;
	return 1;
}

/* Where the open transaction stands (cmd_txn_status). */
static struct cmd_result
txn_status(struct fixture *f)
{
	struct cmd_result	 res;

	cmd_txn_status(&f->env, &res);
	return res;
}

static void
sql(struct fixture *f, const char *text)
{
	assert_int_equal(sqlite3_exec(store_sqlite_handle(f->st), text, NULL,
	    NULL, NULL), SQLITE_OK);
}

/*
 * Several turns in one batch: each sees the ones before it, one that the
 * database refuses (a trigger stands for a CHECK on its history row) is
 * rolled back alone and replied -STORE at once, and the others, their
 * hooks and their counters all come with the one COMMIT.
 */
static void
test_batch_turn_fails_alone(void **state)
{
	struct fixture	*f = *state;
	uint64_t	 commits;

	f->env.txn = cmd_txn_new();
	EXPECT(f, "SNL.CREATE s1 2", "+OK");
	EXPECT(f, "SNL.CREATE s2 2", "+OK");
	EXPECT(f, "SNL.CREATE s3 2", "+OK");
	EXPECT(f, "SNL.CREATE s3 2", "-EXISTS game 's3' already exists");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->env.commits, 1);
	assert_int_equal(f->env.batch_max, 3);
	sql(f, "CREATE TEMP TRIGGER poison BEFORE INSERT ON history"
	    " WHEN NEW.game = 's2' BEGIN SELECT RAISE(ABORT, 'poisoned'); END");

	commits = f->env.commits;
	EXPECT(f, "SNL.ROLL s1 3", "+P1 3");
	EXPECT(f, "SNL.ROLL s2 3", "-STORE save_turn: poisoned");
	EXPECT(f, "SNL.ROLL s1 4", "+P2 4");
	EXPECT(f, "SNL.ROLL s3 5", "+P1 5");
	/* A read inside the batch sees its writes. */
	EXPECT(f, "SNL.STATE s1", "*4\n+turn,P1\n+winner,NONE\n+P1,3\n+P2,4");
	assert_true(txn_status(f).writes > 0);
	assert_int_equal(txn_status(f).writes, 4);
	assert_int_equal(txn_status(f).moves, 3);
	/* Nothing is announced or counted before the COMMIT. */
	assert_int_equal(f->hooked, 0);
	assert_int_equal(f->env.turns, 0);
	assert_int_equal(f->env.commits, commits);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_false(txn_status(f).writes > 0);
	assert_int_equal(f->hooked, 3);
	assert_string_equal(f->last_game, "s3");
	assert_int_equal(f->env.turns, 3);
	assert_int_equal(f->env.commits, commits + 1);
	assert_int_equal(f->env.batch_max, 3);
	assert_int_equal(f->env.batch_failures, 0);

	sql(f, "DROP TRIGGER poison");
	EXPECT(f, "SNL.STATE s2", "*4\n+turn,P1\n+winner,NONE\n+P1,0\n+P2,0");
	EXPECT(f, "HISTORY s2", "*0");
	EXPECT(f, "SNL.ROLL s2 3", "+P1 3");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT(f, "HISTORY s1", "*2\n+1,P1,3,P1 3\n+2,P2,4,P2 4");
}

/*
 * A COMMIT that fails takes the whole batch: turns of three games of three
 * kinds, none kept, no hook called, no counter moved but the failures.
 * The same turns then go through.
 */
static void
test_batch_commit_failure(void **state)
{
	struct fixture	*f = *state;
	uint64_t	 commits, errors;
	sqlite3		*db = store_sqlite_handle(f->st);
	int		 i;

	f->env.txn = cmd_txn_new();
	f->env.on_schedule = on_schedule;
	scheduled = 0;
	EXPECT(f, "LUDO.CREATE l red blue turn-timeout=60", "+OK");
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "DANDY.CREATE d 2 abab", "+OK");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(scheduled, 1);		/* l's deadline */
	scheduled = 0;
	commits = f->env.commits;
	errors = f->env.store_errors;

	for (i = 0; i < 2; i++) {
		EXPECT(f, "LUDO.PLAY l red 6 1", "+MOVED");
		EXPECT(f, "SNL.ROLL s 2", "+P1 2");
		EXPECT(f, "DANDY.DRAW d a", "+P1 1 0");
		EXPECT(f, "LUDO.PLAY l red 6 1", "+MOVED");
		if (i == 1)
			break;
		sqlite3_commit_hook(db, fail_commit, NULL);
		assert_int_equal(cmd_txn_commit(&f->env), -1);
		sqlite3_commit_hook(db, NULL, NULL);
		assert_non_null(strstr(store_errmsg(f->st), "commit"));
		assert_false(txn_status(f).writes > 0);
		assert_int_equal(f->hooked, 0);
		assert_int_equal(scheduled, 0);
		assert_int_equal(f->env.turns, 0);
		assert_int_equal(f->env.commits, commits);
		assert_int_equal(f->env.batch_failures, 1);
		assert_int_equal(f->env.store_errors, errors + 1);
		EXPECT(f, "GAME.INFO s", "*7\n+kind,snl\n+players,2\n"
		    "+moves,0\n+turn,P1\n+winner,NONE\n+created,1700000000\n"
		    "+updated,1700000000");
		EXPECT(f, "HISTORY l", "*0");
		EXPECT(f, "HISTORY d", "*0");
		EXPECT(f, "DANDY.STATE d", "*3\n+turn,P1\n+P1,OFF,0\n"
		    "+P2,OFF,0");
	}
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 4);
	assert_int_equal(scheduled, 2);
	assert_int_equal(f->env.turns, 4);
	assert_int_equal(f->env.commits, commits + 1);
	EXPECT(f, "HISTORY s 1 1", "*1\n+1,P1,2,P1 2");
}

/* cmd_run() of one inline line; what its result says, the reply dropped. */
#define EXPECT_RESULT(f, line, wait, writes, moves) \
	expect_result((f), (line), (wait), (writes), (moves), __LINE__)

static void
expect_result(struct fixture *f, const char *line, int wait, size_t writes,
    uint64_t moves, int at)
{
	struct cmd_result	 res;
	struct reply		 r;

	exec_line(f, line, &r, &res);
	reply_free(&r);
	if (res.wait != wait || res.writes != writes || res.moves != moves) {
		print_error("line %d: %s\n  got:  wait %d writes %zu moves %llu"
		    "\n  want: wait %d writes %zu moves %llu\n", at, line,
		    res.wait, res.writes, (unsigned long long)res.moves, wait,
		    writes, (unsigned long long)moves);
		fail();
	}
}

/*
 * What cmd_run() tells the daemon: a reply waits for the commit when it
 * came from the store while the transaction was open (a write's, a read's,
 * a refused move's), never when the request was refused for its form; and
 * how many of the transaction's writes it holds and of its moves precede
 * the reply.
 */
static void
test_batch_result(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	EXPECT_RESULT(f, "SNL.STATE nope", 0, 0, 0);	/* none open */
	EXPECT_RESULT(f, "SNL.CREATE s 2", 1, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 3", 1, 2, 1);
	EXPECT_RESULT(f, "SNL.STATE s", 1, 2, 1);	/* it saw the roll */
	EXPECT_RESULT(f, "SNL.ROLL nope 3", 1, 3, 1);
	EXPECT_RESULT(f, "NOSUCH x", 0, 3, 1);
	EXPECT_RESULT(f, "SNL.STATE", 0, 3, 1);		/* arity */
	EXPECT_RESULT(f, "HISTORY s 1 2 3", 0, 3, 1);	/* the handler's */
	EXPECT_RESULT(f, "GAMES LIMIT", 0, 3, 1);	/* syntax */
	EXPECT_RESULT(f, "SNL.CREATE t 2 color=red", 0, 3, 1);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT_RESULT(f, "SNL.STATE s", 0, 0, 0);
}

/*
 * What the parser refuses never waits for a commit (it read nothing),
 * BADARG included; an option or keyword given twice is one such refusal,
 * and writes nothing.
 */
static void
test_parser_refusals(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	EXPECT_RESULT(f, "SNL.CREATE s 2", 1, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 9", 0, 1, 0);	/* BADARG value */
	EXPECT_RESULT(f, "SNL.ROLL s 3 AT x", 0, 1, 0);
	EXPECT_RESULT(f, "LUDO.PLAY BAD a 6 1", 0, 1, 0);
	EXPECT_RESULT(f, "SNL.CREATE t 2 seats=secure seats=open", 0, 1, 0);
	EXPECT_RESULT(f, "GAMES LIMIT 1 LIMIT 2", 0, 1, 0);
	EXPECT_RESULT(f, "SNL.ROLL s 3", 1, 2, 1);	/* a move waits */
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	EXPECT(f, "LUDO.CREATE g a b rules=classic rules=extended",
	    "-ERR syntax error: option 'rules' given twice");
	EXPECT(f, "LUDO.CREATE g a b six-bonus=on seats=open six-bonus=off",
	    "-ERR syntax error: option 'six-bonus' given twice");
	EXPECT(f, "DANDY.CREATE d 2 ab deck=shuffled deck=abc",
	    "-ERR syntax error: option 'deck' given twice");
	EXPECT(f, "SNL.CREATE t 2 snakes=99:2 snakes=98:3",
	    "-ERR syntax error: option 'snakes' given twice");
	EXPECT(f, "GAMES AFTER a AFTER b",
	    "-ERR syntax error: option 'AFTER' given twice");
	assert_int_equal(count_rows(f, "SELECT count(*) FROM games"), 1);
	/* The connection commands are the daemon's, not this layer's. */
	EXPECT(f, "PING", "-ERR unknown command 'PING'");
	EXPECT(f, "watch s", "-ERR unknown command 'watch'");
	EXPECT(f, "COMMAND DOCS", "-ERR unknown command 'COMMAND'");
}

/*
 * A group (MULTI/EXEC's): its writes are kept together and announced at
 * the COMMIT, or undone together, their events with them: when told so,
 * and when the store failed inside, a failed read included.
 */
static void
test_group_kept_or_undone_whole(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	assert_int_equal(cmd_txn_group_end(&f->env, 1), -1);	/* none */
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	assert_int_equal(cmd_txn_group_begin(&f->env), -1);	/* nested */
	EXPECT(f, "SNL.CREATE s 2", "+OK");
	EXPECT(f, "SNL.ROLL s 3", "+P1 3");
	EXPECT(f, "SNL.ROLL nope 3", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.ROLL s 4", "+P2 4");
	assert_int_equal(cmd_txn_group_end(&f->env, 1), 0);
	assert_int_equal(txn_status(f).moves, 2);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 2);

	/* Undone when asked: no row, no event. */
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	EXPECT(f, "SNL.ROLL s 5", "+P1 8");
	assert_int_equal(cmd_txn_group_end(&f->env, 0), -1);
	assert_int_equal(txn_status(f).moves, 0);
	EXPECT(f, "SNL.ROLL s 6", "+P1 9");
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 3);
	EXPECT(f, "HISTORY s", "*3\n+1,P1,3,P1 3\n+2,P2,4,P2 4\n"
	    "+3,P1,6,P1 9");

	/* Undone by a store failure inside, the moves before it too: the
	 * failure is an SQLite trigger's (test_pg has PostgreSQL's groups). */
	if (test_on_pg())
		return;
	sql(f, "CREATE TEMP TRIGGER poison BEFORE INSERT ON history"
	    " WHEN NEW.game = 'p' BEGIN SELECT RAISE(ABORT, 'poisoned'); END");
	EXPECT(f, "SNL.CREATE p 1", "+OK");
	assert_int_equal(cmd_txn_group_begin(&f->env), 0);
	EXPECT(f, "SNL.ROLL s 1", "+P2 5");
	EXPECT(f, "SNL.ROLL p 1", "-STORE save_turn: poisoned");
	EXPECT(f, "SNL.ROLL s 1", "+P1 10");
	assert_int_equal(cmd_txn_group_end(&f->env, 1), -1);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->hooked, 3);
	EXPECT(f, "HISTORY s 4", "*0");
	EXPECT(f, "GAMES snl", "*2\n$p\n$s");
}

/* A batch of reads and refused writes has nothing to commit. */
static void
test_batch_nothing_written(void **state)
{
	struct fixture	*f = *state;

	f->env.txn = cmd_txn_new();
	assert_int_equal(cmd_txn_commit(&f->env), 0);	/* none open */
	EXPECT(f, "SNL.ROLL nope 1", "-NOGAME no such game 'nope'");
	EXPECT(f, "SNL.STATE nope", "-NOGAME no such game 'nope'");
	assert_true(txn_status(f).writes > 0);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_false(txn_status(f).writes > 0);
	assert_int_equal(f->env.commits, 0);
	assert_int_equal(f->env.batches, 0);
	/* Freeing an open batch rolls it back. */
	EXPECT(f, "SNL.CREATE s 1", "+OK");
	cmd_txn_free(&f->env);
	assert_null(f->env.txn);
	EXPECT(f, "SNL.STATE s", "-NOGAME no such game 's'");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd_lookup_table),
		cmocka_unit_test(test_valid_id_cases),
		cmocka_unit_test_setup_teardown(
		    test_cmd_execute_unknown_and_arity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmd_execute_embedded_nul,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ludo_example1, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ludo_example2, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ludo_example3, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ludo_create_options,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ludo_play_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ludo_play_to_the_end,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_snl_example1, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_snl_example2, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_snl_setup_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dandy_play_examples,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_dandy_draw_deck, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dandy_draw_no_deck, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dandy_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_at_semantics, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_history_paging, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_replay_states, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_audit_tampered, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_audit_random_games, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_games_paging, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_game_info_fields, setup,
		    teardown),
		SQLITE_TEST_ST(test_invalid_move_writes_nothing, setup, teardown),
		SQLITE_TEST_ST(test_commit_failure_rolls_back, setup, teardown),
		SQLITE_TEST_ST(test_batch_turn_fails_alone,
		    setup, teardown),
		SQLITE_TEST_ST(test_batch_commit_failure,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_kept_or_undone_whole,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch_nothing_written,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_parser_refusals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_batch_result,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_on_move_once_per_move,
		    setup, teardown),
	};

	return STORE_RUN_TESTS(tests);
}
