/*
 * The command layer end to end on an in-memory store: every seed example
 * through the commands, bad input for every command, AT, HISTORY, REPLAY,
 * AUDIT, paging, and the transaction rules (nothing written for a move
 * that changes nothing, a failed COMMIT leaves the game as it was).
 * The games' own commands are in test_commands_games.c, transactions
 * and group commit in test_commands_txn.c.
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
#include "test_commands.h"

static int64_t	fake_time = NOW;

static int64_t
fake_now(void)
{
	return fake_time;
}

void
tc_on_move(void *arg, const char *game, const struct move *mv)
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
	f->env.on_move = tc_on_move;
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
void
tc_exec_line(struct fixture *f, const char *line, struct reply *r,
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

	tc_exec_line(f, line, &r, NULL);
	buf = xstrdup("");
	cap = 1;
	render(&r, &buf, &len, &cap);
	reply_free(&r);
	return buf;
}

void
tc_expect_line(struct fixture *f, const char *line, const char *want, int at)
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

void
tc_expect_prefix(struct fixture *f, const char *line, const char *prefix,
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

int64_t
tc_count_rows(struct fixture *f, const char *sql)
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
	char			 lower[64], usage[CMD_USAGE_MAX];

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
		assert_true(cmd_args_usage(c, usage, sizeof(usage)) <
		    sizeof(usage));
		assert_true(strncmp(usage, c->name, strlen(c->name)) == 0);
		assert_true((c->flags & (CMD_WRITE | CMD_READONLY)) != 0);
		own += c->proc != NULL && c->conn == NULL;
		prev = c;
	}
	/* 19 + LUDO.ROLL, SEAT, SEAT.EXCHANGE (seats, dice) + DBSIZE,
	 * EXISTS, SCAN, TYPE and MEMORY (the keyspace) + XINFO, XLEN,
	 * XRANGE, XREAD, XREVRANGE (streams) + GAME.DELETE + LEADERBOARD,
	 * MATCH.CANCEL, MATCH.JOIN, MATCH.LIST and the five PLAYER.* (the
	 * lobby) */
	assert_int_equal(own, 42);
	/* The other 27 of COMMAND COUNT's 69 are the daemon's own
	 * connection commands (test_docs). */
	assert_int_equal(i, 42);
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
	assert_int_equal(tc_count_rows(f, "SELECT count(*) FROM games"), 0);
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
	    "WHERE game = " SQL_GID("capture-game") " AND seq = 6");
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

	exec_sql(f, "UPDATE tokens SET pos = 5 WHERE game = " SQL_GID("b")
	    " AND player = 0 AND token = 2");
	EXPECT(f, "AUDIT", "*1\n$b");
	EXPECT(f, "AUDIT b", "*1\n$b");
	EXPECT(f, "AUDIT a", "*0");
	exec_sql(f, "UPDATE tokens SET pos = 7 WHERE game = " SQL_GID("c")
	    " AND player = 1");
	exec_sql(f, "UPDATE tokens SET points = 4 WHERE game = " SQL_GID("d")
	    " AND player = 0");
	EXPECT(f, "AUDIT", "*3\n$b\n$c\n$d");
	/* A deleted history row: the game no longer matches its history. */
	exec_sql(f, "DELETE FROM history WHERE game = " SQL_GID("a"));
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
		cmocka_unit_test_setup_teardown(test_delete_finished_and_forced,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_before,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_in_batch,
		    setup, teardown),
	};

	return STORE_RUN_TESTS(tests);
}
