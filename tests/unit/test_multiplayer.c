/*
 * Multiplayer (issue 4) through the command layer: secure seats, server
 * dice and decks, bots, turn deadlines, on a real SQLite store (a file
 * where a restart matters) and a fake clock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "cmd/cmd.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"
#include "store_helper.h"

#define T0_MS	1700000000000LL

struct fixture {
	struct store		*st;
	struct cmd_env		 env;
	struct cmd_session	*s1, *s2;
	char			 dir[64];
	char			 path[128];
	int			 moves;		/* on_move calls */
	int			 automatic;	/* of which by the server */
	char			 sched_game[GAME_ID_MAX + 1];
	int64_t			 sched_due;
	int			 scheds;
};

static int64_t	fake_ms = T0_MS;

static int64_t
now_ms(void)
{
	return fake_ms;
}

static int64_t
now_s(void)
{
	return fake_ms / 1000;
}

static void
on_move(void *arg, const char *game, const struct move *mv)
{
	struct fixture	*f = arg;

	(void)game;
	f->moves++;
	if (mv->by != MOVE_PLAYER)
		f->automatic++;
}

static void
on_schedule(void *arg, const char *game, int64_t due)
{
	struct fixture	*f = arg;

	snprintf(f->sched_game, sizeof(f->sched_game), "%s", game);
	f->sched_due = due;
	f->scheds++;
}

static void
fixture_open(struct fixture *f)
{
	char	 err[256];

	f->st = test_store_at(f->path, DURABILITY_FULL, err, sizeof(err));
	if (f->st == NULL)
		fail_msg("store: %s", err);
	f->env.store = f->st;
}

/* What a daemon restart does to the command layer: a new store on the
 * same file, new sessions (connections do not survive either). */
static void
restart(struct fixture *f)
{
	store_close(f->st);
	cmd_session_free(f->s1);
	cmd_session_free(f->s2);
	fixture_open(f);
	f->s1 = cmd_session_new();
	f->s2 = cmd_session_new();
}

static int
setup(void **state)
{
	struct fixture	*f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_multiplayer.XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/ludus.db", f->dir);
	test_store_empty();
	fake_ms = T0_MS;
	f->env.now = now_s;
	f->env.now_ms = now_ms;
	f->env.on_move = on_move;
	f->env.on_move_arg = f;
	f->env.on_schedule = on_schedule;
	f->env.on_schedule_arg = f;
	fixture_open(f);
	f->s1 = cmd_session_new();
	f->s2 = cmd_session_new();
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	store_close(f->st);
	cmd_session_free(f->s1);
	cmd_session_free(f->s2);
	db_remove(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* ------------------------------------------------------------ helpers */

/* A reply as one string: +status, -error, :int, $bulk, and an array as
 * *n then each element on its own line. */
static void
render(const struct reply *r, char **buf)
{
	char	*s = NULL, *e;
	size_t	 i;

	switch (r->type) {
	case REPLY_STATUS:
		xasprintf(&s, "%s+%s", *buf, r->str);
		break;
	case REPLY_ERROR:
		xasprintf(&s, "%s-%s", *buf, r->str);
		break;
	case REPLY_BULK:
		xasprintf(&s, "%s$%s", *buf, r->str);
		break;
	case REPLY_INT:
		xasprintf(&s, "%s:%lld", *buf, r->integer);
		break;
	case REPLY_ARRAY:
		xasprintf(&s, "%s*%zu", *buf, r->n);
		break;
	default:
		xasprintf(&s, "%s?", *buf);
		break;
	}
	free(*buf);
	*buf = s;
	if (r->type != REPLY_ARRAY)
		return;
	for (i = 0; i < r->n; i++) {
		xasprintf(&e, "%s\n", *buf);
		free(*buf);
		*buf = e;
		render(&r->elem[i], buf);
	}
}

/* Runs one inline command on a session (NULL: none); the rendered
 * reply, to free. */
static char *
run(struct fixture *f, struct cmd_session *sess, const char *line)
{
	struct cmd_args	 args;
	struct reply	 r;
	char		*buf = xstrdup("");
	int		 n;

	memset(&args, 0, sizeof(args));
	n = split_line(line, strlen(line), &args.argv, &args.argl);
	assert_true(n > 0);
	args.argc = n;
	args.session = sess;
	memset(&r, 0, sizeof(r));
	cmd_execute(&f->env, &args, &r);
	split_free(n, args.argv, args.argl);
	render(&r, &buf);
	reply_free(&r);
	return buf;
}

#define EXPECT(f, s, line, want) expect_line((f), (s), (line), (want), \
	__LINE__, 0)
#define EXPECT_PREFIX(f, s, line, want) expect_line((f), (s), (line), \
	(want), __LINE__, 1)

static void
expect_line(struct fixture *f, struct cmd_session *sess, const char *line,
    const char *want, int at, int prefix)
{
	char	*got = run(f, sess, line);
	int	 ok;

	ok = prefix ? strncmp(got, want, strlen(want)) == 0 :
	    strcmp(got, want) == 0;
	if (!ok) {
		print_error("line %d: %s\n  got:  %s\n  want: %s%s\n", at,
		    line, got, want, prefix ? "..." : "");
		free(got);
		fail();
	}
	free(got);
}

/* Runs a command that must reply an integer; returns it. */
static long long
run_int(struct fixture *f, struct cmd_session *sess, const char *line)
{
	char		*got = run(f, sess, line);
	long long	 v;
	int		 ok = got[0] == ':';

	if (!ok)
		print_error("%s: got %s, want an integer\n", line, got);
	v = ok ? strtoll(got + 1, NULL, 10) : 0;
	free(got);
	if (!ok)
		fail();
	return v;
}

/* The seat keys of a secure create's reply, by player order. */
struct keys {
	char	name[8][GAME_ID_MAX + 1];
	char	key[8][64];
	int	n;
};

static void
create_secure(struct fixture *f, const char *line, struct keys *k)
{
	char	*got = run(f, NULL, line), *p, *line_end, *comma;

	memset(k, 0, sizeof(*k));
	if (got[0] != '*')
		fail_msg("%s: got %s", line, got);
	for (p = strchr(got, '\n'); p != NULL; p = line_end) {
		p++;
		line_end = strchr(p, '\n');
		if (line_end != NULL)
			*line_end = '\0';
		assert_int_equal(p[0], '$');
		comma = strchr(p, ',');
		assert_non_null(comma);
		*comma = '\0';
		assert_true(k->n < 8);
		snprintf(k->name[k->n], sizeof(k->name[0]), "%s", p + 1);
		snprintf(k->key[k->n], sizeof(k->key[0]), "%s", comma + 1);
		/* 128 random bits, in hex. */
		assert_int_equal(strlen(k->key[k->n]), 32);
		assert_int_equal(strspn(k->key[k->n], "0123456789abcdef"), 32);
		k->n++;
	}
	free(got);
}

static void
seat(struct fixture *f, struct cmd_session *sess, const char *game,
    const char *player, const char *key)
{
	char	 line[256];

	snprintf(line, sizeof(line), "SEAT %s %s %s", game, player, key);
	EXPECT(f, sess, line, "+OK");
}

/* REPLAY id equals the kind's STATE, and AUDIT finds nothing wrong. */
static void
assert_replays(struct fixture *f, const char *kind, const char *id)
{
	char	 line[128], *state, *replay;

	snprintf(line, sizeof(line), "%s.STATE %s", kind, id);
	state = run(f, NULL, line);
	snprintf(line, sizeof(line), "REPLAY %s", id);
	replay = run(f, NULL, line);
	assert_string_equal(replay, state);
	assert_true(state[0] == '*');
	free(state);
	free(replay);
	EXPECT(f, NULL, "AUDIT", "*0");
}

/* Drives a game with cmd_autoplay as the daemon would, at the fake
 * time; returns the moves played. */
static int
autoplay_all(struct fixture *f, const char *id, int max)
{
	struct move	 mv;
	int64_t		 next;
	int		 n = 0, rc;

	while ((rc = cmd_autoplay(&f->env, id, fake_ms, &mv, &next)) == 1) {
		assert_true(++n <= max);
		assert_true(mv.seq == n || mv.seq > 0);
	}
	assert_int_equal(rc, 0);
	return n;
}

/* One count from the store's database; ?1 is bound to param. */
static int
query_count(struct fixture *f, const char *sql, const char *param)
{
	sqlite3_stmt	*st;
	int		 n;

	assert_int_equal(sqlite3_prepare_v2(store_sqlite_handle(f->st), sql,
	    -1, &st, NULL), SQLITE_OK);
	if (param != NULL)
		assert_int_equal(sqlite3_bind_text(st, 1, param, -1,
		    SQLITE_STATIC), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* 1 when the bytes of s occur in the file. */
static int
file_contains(const char *path, const void *s, size_t len)
{
	FILE	*fp;
	char	*buf;
	long	 size;
	size_t	 i;
	int	 found = 0;

	if ((fp = fopen(path, "rb")) == NULL)
		return 0;
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = xmalloc((size_t)size + 1);
	assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	for (i = 0; i + len <= (size_t)size && !found; i++)
		found = memcmp(buf + i, s, len) == 0;
	free(buf);
	return found;
}

static int
hexval(int c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* ------------------------------------------------------------- seats */

static void
test_seat_stolen_id_cannot_move(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;
	char		 line[128];

	create_secure(f, "LUDO.CREATE g red blue seats=secure", &k);
	assert_int_equal(k.n, 2);
	assert_string_equal(k.name[0], "red");
	assert_string_equal(k.name[1], "blue");
	assert_string_not_equal(k.key[0], k.key[1]);

	/* Knowing the player id is not enough, with or without a session. */
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g red 6 1", "-NOSEAT");
	EXPECT_PREFIX(f, f->s2, "LUDO.PLAY g red 6 1", "-NOSEAT");
	/* A wrong key, a key of another seat, a short key: refused. */
	EXPECT_PREFIX(f, f->s2, "SEAT g red 00112233445566778899aabbccddeeff",
	    "-NOSEAT wrong key");
	snprintf(line, sizeof(line), "SEAT g red %s", k.key[1]);
	EXPECT_PREFIX(f, f->s2, line, "-NOSEAT wrong key");
	EXPECT_PREFIX(f, f->s2, "SEAT g red x", "-NOSEAT wrong key");
	EXPECT_PREFIX(f, f->s2, "LUDO.PLAY g red 6 1", "-NOSEAT");
	EXPECT(f, NULL, "GAME.INFO g",
	    "*8\n+kind,ludo\n+players,2\n+moves,0\n+turn,red\n"
	    "+winner,NONE\n+created,1700000000\n+updated,1700000000\n"
	    "+seats,secure");

	/* The right key binds the seat to this session only. */
	seat(f, f->s1, "g", "red", k.key[0]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 6 1", "+MOVED");
	EXPECT_PREFIX(f, f->s2, "LUDO.PLAY g red 3 1", "-NOSEAT");
	EXPECT_PREFIX(f, f->s1, "LUDO.PLAY g blue 3 0", "-NOSEAT");
	/* Reading stays open to everyone. */
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*10\n+turn,red");
	EXPECT(f, NULL, "HISTORY g", "*1\n+1,red,6:1,MOVED");
	/* A seat binds only where the key was given. */
	seat(f, f->s2, "g", "blue", k.key[1]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 2 1", "+MOVED");
	EXPECT(f, f->s2, "LUDO.PLAY g blue 3 0", "+PASSED");
	assert_replays(f, "LUDO", "g");
}

static void
test_seat_resumes_after_restart(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;

	create_secure(f, "LUDO.CREATE g red blue seats=secure", &k);
	seat(f, f->s1, "g", "red", k.key[0]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 5 0", "+PASSED");
	/* The connection drops, the daemon restarts: the new session has
	 * no seat until it shows the key again. */
	restart(f);
	EXPECT_PREFIX(f, f->s1, "LUDO.PLAY g blue 5 0", "-NOSEAT");
	seat(f, f->s1, "g", "blue", k.key[1]);
	EXPECT(f, f->s1, "LUDO.PLAY g blue 5 0", "+PASSED");
	seat(f, f->s2, "g", "red", k.key[0]);
	EXPECT(f, f->s2, "LUDO.PLAY g red 4 0", "+PASSED");
	/* One session may hold seats of several games. */
	create_secure(f, "LUDO.CREATE h a b c seats=secure", &k);
	assert_int_equal(k.n, 3);
	seat(f, f->s1, "h", "a", k.key[0]);
	EXPECT(f, f->s1, "LUDO.PLAY h a 1 0", "+PASSED");
	EXPECT(f, f->s1, "LUDO.PLAY g blue 5 0", "+PASSED");
}

static void
test_seat_keys_not_stored(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;
	unsigned char	 raw[16];
	char		 wal[160];
	int		 i, j;

	create_secure(f, "LUDO.CREATE g red blue green seats=secure", &k);
	assert_int_equal(k.n, 3);
	snprintf(wal, sizeof(wal), "%s-wal", f->path);
	for (i = 0; i < k.n; i++) {
		for (j = 0; j < 16; j++)
			raw[j] = (unsigned char)(hexval(k.key[i][2 * j]) * 16 +
			    hexval(k.key[i][2 * j + 1]));
		/* Neither the hex nor the bytes, in the file or its WAL. */
		assert_false(file_contains(f->path, k.key[i], 32));
		assert_false(file_contains(wal, k.key[i], 32));
		assert_false(file_contains(f->path, raw, sizeof(raw)));
		assert_false(file_contains(wal, raw, sizeof(raw)));
		/* Nor in any row of any table, as text or as bytes. */
		assert_int_equal(query_count(f, "SELECT (SELECT count(*) FROM"
		    " players WHERE instr(hex(seat), upper(?1)) OR"
		    " instr(name, ?1)) + (SELECT count(*) FROM meta WHERE"
		    " instr(hex(value), upper(?1))) + (SELECT count(*) FROM"
		    " history WHERE instr(action, ?1)) + (SELECT count(*)"
		    " FROM games WHERE instr(id, ?1))", k.key[i]), 0);
	}
	assert_true(file_contains(wal, "seat-secret", 11) ||
	    file_contains(f->path, "seat-secret", 11));
	/* What is stored is a 32-byte hash per seat, all different. */
	{
		sqlite3_stmt	*st;

		assert_int_equal(sqlite3_prepare_v2(store_sqlite_handle(f->st),
		    "SELECT count(DISTINCT seat), min(length(seat)),"
		    " max(length(seat)) FROM players WHERE game = 'g'", -1,
		    &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 3);
		assert_int_equal(sqlite3_column_int(st, 1), 32);
		assert_int_equal(sqlite3_column_int(st, 2), 32);
		sqlite3_finalize(st);
	}
	/* The keys still work after all that. */
	seat(f, f->s1, "g", "green", k.key[2]);
}

static void
test_seat_snl_dandy(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;

	create_secure(f, "SNL.CREATE s 2 seats=secure", &k);
	assert_int_equal(k.n, 2);
	assert_string_equal(k.name[0], "P1");
	assert_string_equal(k.name[1], "P2");
	/* Setting up the board needs a seat of the game. */
	EXPECT_PREFIX(f, f->s1, "SNL.LADDER s 4 98", "-NOSEAT");
	seat(f, f->s1, "s", "P1", k.key[0]);
	EXPECT(f, f->s1, "SNL.LADDER s 4 98", "+OK");
	/* A roll is for the player to move: only that seat may roll. */
	EXPECT(f, f->s1, "SNL.ROLL s 4", "+P1 98");
	EXPECT_PREFIX(f, f->s1, "SNL.ROLL s 3", "-NOSEAT");
	EXPECT_PREFIX(f, NULL, "SNL.ROLL s 3", "-NOSEAT");
	seat(f, f->s2, "s", "P2", k.key[1]);
	EXPECT(f, f->s2, "SNL.ROLL s 3", "+P2 3");
	EXPECT(f, f->s1, "SNL.ROLL s 2", "+P1 WINS");
	/* Over: nobody's turn, GAME_OVER for all, as before. */
	EXPECT(f, NULL, "SNL.ROLL s 2", "+GAME_OVER");
	EXPECT_PREFIX(f, f->s1, "SEAT s P3 00", "-BADARG");
	EXPECT_PREFIX(f, f->s1, "SEAT s p1 00", "-BADARG");

	create_secure(f, "DANDY.CREATE d 2 abcd deck=ab seats=secure", &k);
	assert_int_equal(k.n, 2);
	EXPECT_PREFIX(f, f->s1, "DANDY.DRAW d", "-NOSEAT");
	seat(f, f->s1, "d", "P1", k.key[0]);
	EXPECT(f, f->s1, "DANDY.DRAW d", "+P1 1 0");
	EXPECT_PREFIX(f, f->s1, "DANDY.DRAW d", "-NOSEAT");
	seat(f, f->s1, "d", "P2", k.key[1]);
	EXPECT(f, f->s1, "DANDY.DRAW d", "+P2 2 0");
	EXPECT(f, f->s1, "DANDY.DRAW d", "+GAME_OVER");
	assert_replays(f, "DANDY", "d");
}

static void
test_seat_refusals(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;
	char		 line[128];

	EXPECT(f, NULL, "LUDO.CREATE open a b", "+OK");
	EXPECT_PREFIX(f, f->s1, "SEAT open a 00", "-STATE");
	EXPECT_PREFIX(f, f->s1, "SEAT nope a 00", "-NOGAME");
	EXPECT_PREFIX(f, f->s1, "SEAT Bad a 00", "-BADARG");
	EXPECT_PREFIX(f, f->s1, "SEAT open", "-ERR wrong number");
	EXPECT_PREFIX(f, f->s1, "SEAT open zz 00", "-BADARG");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b seats=maybe", "-BADARG");
	create_secure(f, "LUDO.CREATE g a b seats=secure", &k);
	/* Without a session there is nowhere to keep a seat. */
	snprintf(line, sizeof(line), "SEAT g a %s", k.key[0]);
	EXPECT_PREFIX(f, NULL, line, "-STATE");
	/* A seat of one game is not a seat of another. */
	EXPECT(f, NULL, "LUDO.CREATE g2 a b seats=open", "+OK");
	seat(f, f->s1, "g", "a", k.key[0]);
	snprintf(line, sizeof(line), "SEAT g2 a %s", k.key[0]);
	EXPECT_PREFIX(f, f->s1, line, "-STATE");
	assert_true(cmd_session_holds(f->s1, "g", 0));
	assert_false(cmd_session_holds(f->s1, "g", 1));
	assert_false(cmd_session_holds(f->s1, "g2", 0));
	assert_true(cmd_session_holds(f->s1, "g", -1));
	assert_false(cmd_session_holds(NULL, "g", -1));
}

static void
test_seat_required_by_server(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;

	f->env.require_seats = 1;
	create_secure(f, "LUDO.CREATE g a b", &k);
	assert_int_equal(k.n, 2);
	create_secure(f, "SNL.CREATE s 3", &k);
	assert_int_equal(k.n, 3);
	create_secure(f, "DANDY.CREATE d 1 ab", &k);
	assert_int_equal(k.n, 1);
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE o a b seats=open",
	    "-BADARG this server requires seats=secure");
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g a 6 1", "-NOSEAT");
	f->env.require_seats = 0;
	EXPECT(f, NULL, "LUDO.CREATE o a b", "+OK");
}

/* ------------------------------------------------------- server dice */

static void
test_ludo_roll_pending(void **state)
{
	struct fixture	*f = *state;
	long long	 v, other;
	char		 line[128], want[256];

	EXPECT(f, NULL, "LUDO.CREATE g a b dice=server", "+OK");
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g a 6 1", "-STATE");
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL g b", "-STATE it is a's turn");
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL g zed", "-BADARG");
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL nope a", "-NOGAME");
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL g", "-ERR wrong number");
	v = run_int(f, NULL, "LUDO.ROLL g a");
	assert_true(v >= 1 && v <= 6);
	/* Asking again gives the same value. */
	assert_int_equal(run_int(f, NULL, "LUDO.ROLL g a"), v);
	snprintf(want, sizeof(want), "*9\n+kind,ludo\n+players,2\n"
	    "+moves,0\n+turn,a\n+winner,NONE\n+created,1700000000\n"
	    "+updated,1700000000\n+dice,server\n+roll,%lld", v);
	EXPECT(f, NULL, "GAME.INFO g", want);
	/* It was committed on its own: a restart gives it back. */
	restart(f);
	assert_int_equal(run_int(f, NULL, "LUDO.ROLL g a"), v);
	/* Another value is refused and changes nothing. */
	other = v % 6 + 1;
	snprintf(line, sizeof(line), "LUDO.PLAY g a %lld 0", other);
	EXPECT_PREFIX(f, NULL, line, "-BADARG dice must be");
	EXPECT(f, NULL, "HISTORY g", "*0");
	assert_int_equal(run_int(f, NULL, "LUDO.ROLL g a"), v);
	/* The roll is used by the move that plays it, and only once. */
	snprintf(line, sizeof(line), "LUDO.PLAY g a %lld %d", v,
	    v == 6 ? 1 : 0);
	EXPECT(f, NULL, line, v == 6 ? "+MOVED" : "+PASSED");
	snprintf(want, sizeof(want), "*1\n+1,a,%lld:%d,%s", v,
	    v == 6 ? 1 : 0, v == 6 ? "MOVED" : "PASSED");
	EXPECT(f, NULL, "HISTORY g", want);
	EXPECT_PREFIX(f, NULL, line, "-STATE");

	/* A manual game has no server roll. */
	EXPECT(f, NULL, "LUDO.CREATE m a b", "+OK");
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL m a", "-STATE");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b dice=loaded", "-BADARG");
}

/* A whole server-dice game played by people through ROLL and PLAY:
 * history replays it exactly. */
static void
test_ludo_server_dice_replay(void **state)
{
	struct fixture	*f = *state;
	char		 line[128], *legal, *res, *info;
	long long	 v;
	int		 n;
	const char	*players[] = { "a", "b", "c" };
	const char	*who;

	EXPECT(f, NULL, "LUDO.CREATE g a b c dice=server rules=extended",
	    "+OK");
	for (n = 0; n < 5000; n++) {
		info = run(f, NULL, "GAME.INFO g");
		if (strstr(info, "+winner,NONE") == NULL) {
			free(info);
			break;
		}
		who = NULL;
		for (int i = 0; i < 3; i++) {
			snprintf(line, sizeof(line), "+turn,%s\n",
			    players[i]);
			if (strstr(info, line) != NULL)
				who = players[i];
		}
		free(info);
		assert_non_null(who);
		snprintf(line, sizeof(line), "LUDO.ROLL g %s", who);
		v = run_int(f, NULL, line);
		snprintf(line, sizeof(line), "LUDO.LEGAL g %lld", v);
		legal = run(f, NULL, line);
		/* the last legal token, to differ from the bots' "first" */
		snprintf(line, sizeof(line), "LUDO.PLAY g %s %lld %s", who, v,
		    legal[1] == '0' ? "0" : strrchr(legal, ':') + 1);
		free(legal);
		res = run(f, NULL, line);
		assert_true(res[0] == '+');
		assert_null(strstr(res, "INVALID"));
		free(res);
	}
	assert_true(n < 5000);
	assert_replays(f, "LUDO", "g");
}

static void
test_snl_server_roll(void **state)
{
	struct fixture	*f = *state;
	char		*got;
	int		 n;

	EXPECT(f, NULL, "SNL.CREATE s 3 dice=server snakes=99:2,40:30"
	    " ladders=4:60,20:97", "+OK");
	EXPECT(f, NULL, "SNL.STATE s", "*9\n+turn,P1\n+winner,NONE\n"
	    "+P1,0\n+P2,0\n+P3,0\n+ladder,4,60\n+ladder,20,97\n"
	    "+snake,40,30\n+snake,99,2");
	EXPECT_PREFIX(f, NULL, "SNL.ROLL s 4", "-BADARG");
	/* A manual game still needs its value. */
	EXPECT(f, NULL, "SNL.CREATE m 2", "+OK");
	EXPECT(f, NULL, "SNL.ROLL m",
	    "-ERR wrong number of arguments for 'SNL.ROLL'");
	EXPECT(f, NULL, "SNL.ROLL nope",
	    "-ERR wrong number of arguments for 'SNL.ROLL'");
	EXPECT_PREFIX(f, NULL, "SNL.CREATE x 2 snakes=2:9", "-BADARG");
	EXPECT_PREFIX(f, NULL, "SNL.CREATE x 2 ladders=9", "-BADARG");
	EXPECT_PREFIX(f, NULL, "SNL.CREATE x 2 colour=red",
	    "-ERR syntax error");
	EXPECT_PREFIX(f, NULL, "SNL.CREATE x 2 extra",
	    "-ERR wrong number of arguments");
	/* AT with a server roll: the resend gets the stored result. */
	got = run(f, NULL, "SNL.ROLL s AT 0");
	assert_true(strncmp(got, "+P1 ", 4) == 0);
	EXPECT(f, NULL, "SNL.ROLL s AT 0", got);
	free(got);
	for (n = 1; n < 10000; n++) {
		got = run(f, NULL, "SNL.ROLL s");
		if (strcmp(got, "+GAME_OVER") == 0) {
			free(got);
			break;
		}
		assert_int_equal(got[0], '+');
		assert_int_equal(got[1], 'P');
		free(got);
	}
	assert_true(n < 10000);
	EXPECT_PREFIX(f, NULL, "SNL.STATE s", "*9\n+turn,NONE\n+winner,P");
	assert_replays(f, "SNL", "s");
}

static void
test_dandy_shuffled_deck(void **state)
{
	struct fixture	*f = *state;
	char		*got, *p, line[64];
	int		 n, seen[256];

	EXPECT(f, NULL, "DANDY.CREATE d 2 abcdefghi deck=shuffled:20", "+OK");
	/* The deck is the server's secret: STATE and GAME.INFO show only
	 * how many cards are left. */
	EXPECT(f, NULL, "DANDY.STATE d", "*3\n+turn,P1\n+P1,OFF,0\n+P2,OFF,0");
	EXPECT(f, NULL, "GAME.INFO d", "*10\n+kind,dandy\n+players,2\n"
	    "+moves,0\n+turn,P1\n+winner,NONE\n+created,1700000000\n"
	    "+updated,1700000000\n+board,abcdefghi\n+deck,shuffled\n"
	    "+cards-left,20");
	EXPECT_PREFIX(f, NULL, "DANDY.DRAW d a", "-BADARG");
	for (n = 0; n < 20; n++) {
		got = run(f, NULL, "DANDY.DRAW d");
		assert_int_equal(got[0], '+');
		assert_int_equal(got[1], 'P');
		free(got);
	}
	EXPECT(f, NULL, "DANDY.DRAW d", "+GAME_OVER");
	EXPECT_PREFIX(f, NULL, "GAME.INFO d", "*10\n");
	got = run(f, NULL, "GAME.INFO d");
	assert_non_null(strstr(got, "+cards-left,0"));
	free(got);
	/* Drawn cards are history, and replay. */
	got = run(f, NULL, "HISTORY d");
	assert_true(strncmp(got, "*20\n", 4) == 0);
	free(got);
	assert_replays(f, "DANDY", "d");

	/* The default deck is 50 cards; every kind of card is dealt. */
	EXPECT(f, NULL, "DANDY.CREATE e 1 ab deck=shuffled", "+OK");
	EXPECT_PREFIX(f, NULL, "GAME.INFO e", "*10\n");
	got = run(f, NULL, "GAME.INFO e");
	assert_non_null(strstr(got, "+cards-left,50"));
	free(got);
	EXPECT(f, NULL, "DANDY.CREATE big 1 ab deck=shuffled:1024", "+OK");
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < 1024; n++) {
		got = run(f, NULL, "DANDY.DRAW big");
		assert_int_equal(got[0], '+');
		free(got);
	}
	got = run(f, NULL, "HISTORY big 1 10000");
	for (p = got; (p = strstr(p, ",P1,")) != NULL; p += 4)
		seen[(unsigned char)p[4]]++;
	free(got);
	for (p = (char *)"abcdefghi123456789"; *p != '\0'; p++) {
		snprintf(line, sizeof(line), "card %c", *p);
		/* 1024 cards over 18 kinds: about 57 each. */
		if (seen[(unsigned char)*p] < 20)
			fail_msg("%s dealt %d times", line,
			    seen[(unsigned char)*p]);
	}
	EXPECT_PREFIX(f, NULL, "DANDY.CREATE x 1 ab deck=shuffled:0",
	    "-BADARG");
	EXPECT_PREFIX(f, NULL, "DANDY.CREATE x 1 ab deck=shuffled:1025",
	    "-BADARG");
	EXPECT_PREFIX(f, NULL, "DANDY.CREATE x 1 ab deck=shuffledx",
	    "-BADARG cards");
	EXPECT_PREFIX(f, NULL, "DANDY.CREATE x 1 ab dice=server", "-BADARG");
}

/* -------------------------------------------------------------- bots */

static void
test_bots_finish_every_kind(void **state)
{
	struct fixture	*f = *state;
	char		*got;
	int		 n;

	/* Created, the first bot is due at once. */
	EXPECT(f, NULL, "LUDO.CREATE g a b c d dice=server"
	    " bots=a:expert,b:aggressive,c:first,d:expert", "+OK");
	assert_string_equal(f->sched_game, "g");
	assert_int_equal(f->sched_due, fake_ms);
	n = autoplay_all(f, "g", 100000);
	assert_true(n > 20);
	assert_int_equal(f->moves, n);
	assert_int_equal(f->automatic, n);
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*18\n+turn,NONE\n+winner,");
	assert_int_equal(f->sched_due, 0);	/* nothing more to do */
	got = run(f, NULL, "HISTORY g 1 1");
	assert_non_null(strstr(got, ",bot"));
	free(got);
	assert_replays(f, "LUDO", "g");

	EXPECT(f, NULL, "SNL.CREATE s 3 dice=server bots=P1:first,P2:first,"
	    "P3:expert snakes=99:2,50:10 ladders=3:40", "+OK");
	n = autoplay_all(f, "s", 100000);
	assert_true(n > 10);
	EXPECT_PREFIX(f, NULL, "SNL.STATE s", "*8\n+turn,NONE\n+winner,P");
	assert_replays(f, "SNL", "s");

	EXPECT(f, NULL, "DANDY.CREATE d 3 abcdefghiabc deck=shuffled:60"
	    " bots=P1:first,P2:first,P3:first", "+OK");
	assert_int_equal(autoplay_all(f, "d", 1000), 60);
	EXPECT(f, NULL, "DANDY.DRAW d", "+GAME_OVER");
	assert_replays(f, "DANDY", "d");
	/* A given deck serves bots too. */
	EXPECT(f, NULL, "DANDY.CREATE e 1 ab deck=ab12 bots=P1:first", "+OK");
	assert_int_equal(autoplay_all(f, "e", 1000), 4);
	EXPECT(f, NULL, "AUDIT", "*0");
}

/* People and bots: the bot plays its turn at once, then waits. */
static void
test_bots_with_people(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;
	long long	 v;
	char		 line[64], *legal, *got;

	EXPECT(f, NULL, "LUDO.CREATE g me bot dice=server bots=bot:expert",
	    "+OK");
	/* The person's turn: nothing due, never (no timeout). */
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 0);
	assert_int_equal(next, 0);
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL g bot", "-STATE bot is a bot");
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g bot 1 0", "-STATE bot is a bot");
	do {
		v = run_int(f, NULL, "LUDO.ROLL g me");
		snprintf(line, sizeof(line), "LUDO.LEGAL g %lld", v);
		legal = run(f, NULL, line);
		/* "*n\n:t\n...": the first legal token, or a pass */
		snprintf(line, sizeof(line), "LUDO.PLAY g me %lld %c", v,
		    legal[1] == '0' ? '0' : legal[4]);
		free(legal);
		got = run(f, NULL, line);
		assert_int_equal(got[0], '+');
		assert_null(strstr(got, "INVALID"));
		free(got);
	} while (v == 6);
	/* Now the bot: due at once, one move per call. */
	assert_int_equal(f->sched_due, fake_ms);
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "bot");
	assert_int_equal(mv.by, MOVE_BOT);
	assert_true(next == 0 || next == fake_ms);
	autoplay_all(f, "g", 100);
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*10\n+turn,me");
}

static void
test_bots_refused(void **state)
{
	struct fixture	*f = *state;

	EXPECT(f, NULL, "LUDO.CREATE g a b bots=a:first",
	    "-BADARG a bot needs dice=server");
	EXPECT(f, NULL, "SNL.CREATE s 2 bots=P1:first",
	    "-BADARG a bot needs dice=server");
	EXPECT_PREFIX(f, NULL, "DANDY.CREATE d 2 ab bots=P1:first",
	    "-BADARG a bot needs a deck");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE g a b dice=server bots=a:genius",
	    "-BADARG bots: strategy");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE g a b dice=server bots=z:first",
	    "-BADARG bots: no player");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE g a b dice=server bots=a",
	    "-BADARG");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE g a b dice=server "
	    "bots=a:first,a:expert", "-BADARG bots: a given twice");
	EXPECT_PREFIX(f, NULL, "SNL.CREATE s 2 dice=server bots=P3:first",
	    "-BADARG bots: no player");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE g a b dice=server bots=",
	    "-BADARG");
	EXPECT(f, NULL, "GAMES", "*0");
	/* A secure game of bots gives no key for a bot's seat. */
	{
		struct keys	 k;

		create_secure(f, "LUDO.CREATE g a b seats=secure dice=server"
		    " bots=b:expert", &k);
		assert_int_equal(k.n, 1);
		assert_string_equal(k.name[0], "a");
	}
}

/* --------------------------------------------------------- deadlines */

static void
test_deadline_absent_player(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;
	char		*got;

	EXPECT(f, NULL, "LUDO.CREATE g a b turn-timeout=10", "+OK");
	assert_int_equal(f->sched_due, T0_MS + 10000);
	EXPECT_PREFIX(f, NULL, "GAME.INFO g", "*9\n");
	got = run(f, NULL, "GAME.INFO g");
	assert_non_null(strstr(got, "+turn-timeout,10\n+deadline,"
	    "1700000010000"));
	free(got);
	/* Not yet. */
	fake_ms = T0_MS + 9999;
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 0);
	assert_int_equal(next, T0_MS + 10000);
	/* A move in time starts the next turn's clock. */
	EXPECT(f, NULL, "LUDO.PLAY g a 3 0", "+PASSED");
	assert_int_equal(f->sched_due, T0_MS + 9999 + 10000);
	fake_ms = T0_MS + 19998;
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 0);
	/* b is away: played for at the deadline, with "first". */
	fake_ms = T0_MS + 19999;
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "b");
	assert_int_equal(mv.by, MOVE_TIMEOUT);
	assert_int_equal(next, fake_ms + 10000);
	assert_int_equal(f->automatic, 1);
	got = run(f, NULL, "HISTORY g 2");
	assert_non_null(strstr(got, ",timeout"));
	assert_true(strncmp(got, "*1\n+2,b,", 8) == 0);
	free(got);
	/* Once, not twice. */
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 0);
	assert_replays(f, "LUDO", "g");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b turn-timeout=-1",
	    "-BADARG turn-timeout");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b turn-timeout=604801",
	    "-BADARG turn-timeout");
}

/* The deadline is stored: a restart in the middle of the wait neither
 * forgets nor resets it. */
static void
test_deadline_survives_restart(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;
	long long	 v;
	char		 line[64];

	EXPECT(f, NULL, "LUDO.CREATE g a b dice=server turn-timeout=5", "+OK");
	EXPECT(f, NULL, "SNL.CREATE s 2 turn-timeout=7", "+OK");
	EXPECT(f, NULL, "LUDO.CREATE plain a b", "+OK");
	/* a rolls, then goes away. */
	v = run_int(f, NULL, "LUDO.ROLL g a");
	fake_ms = T0_MS + 3000;
	restart(f);
	fake_ms = T0_MS + 4000;
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 0);
	assert_int_equal(next, T0_MS + 5000);
	/* What a daemon re-arms at start: both deadlines, as set. */
	f->scheds = 0;
	assert_int_equal(cmd_due_games(&f->env, on_schedule, f), 0);
	assert_int_equal(f->scheds, 2);
	assert_string_equal(f->sched_game, "s");
	assert_int_equal(f->sched_due, T0_MS + 7000);
	fake_ms = T0_MS + 5000;
	assert_int_equal(cmd_autoplay(&f->env, "g", fake_ms, &mv, &next), 1);
	/* The roll a drew is the one played for a. */
	snprintf(line, sizeof(line), "%lld:", v);
	assert_true(strncmp(mv.action, line, strlen(line)) == 0);
	assert_string_equal(mv.player, "a");
	fake_ms = T0_MS + 7000;
	assert_int_equal(cmd_autoplay(&f->env, "s", fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "P1");
	assert_int_equal(mv.by, MOVE_TIMEOUT);
	assert_replays(f, "SNL", "s");
	assert_replays(f, "LUDO", "g");
}

/* DandyLand without a deck: the server draws the absent player's card. */
static void
test_deadline_dandy_without_deck(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;

	EXPECT(f, NULL, "DANDY.CREATE d 2 abcdefghi turn-timeout=1", "+OK");
	EXPECT(f, NULL, "DANDY.DRAW d b", "+P1 2 0");
	fake_ms += 1000;
	assert_int_equal(cmd_autoplay(&f->env, "d", fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "P2");
	assert_int_equal(strlen(mv.action), 1);
	assert_non_null(strchr("abcdefghi123456789", mv.action[0]));
	assert_int_equal(next, fake_ms + 1000);
	assert_replays(f, "DANDY", "d");
}

/* A finished game owes nothing: its deadline is gone. */
static void
test_deadline_cleared_when_over(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;

	EXPECT(f, NULL, "SNL.CREATE s 1 turn-timeout=60", "+OK");
	EXPECT(f, NULL, "SNL.LADDER s 3 100", "+OK");
	EXPECT(f, NULL, "SNL.ROLL s 3", "+P1 WINS");
	assert_int_equal(f->sched_due, 0);
	fake_ms += 3600 * 1000;
	assert_int_equal(cmd_autoplay(&f->env, "s", fake_ms, &mv, &next), 0);
	assert_int_equal(next, 0);
	f->scheds = 0;
	assert_int_equal(cmd_due_games(&f->env, on_schedule, f), 0);
	assert_int_equal(f->scheds, 0);
	assert_int_equal(cmd_autoplay(&f->env, "nope", fake_ms, &mv, &next),
	    -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(x)	cmocka_unit_test_setup_teardown(x, setup, teardown)
		T(test_seat_stolen_id_cannot_move),
		T(test_seat_resumes_after_restart),
		SQLITE_TEST_ST(test_seat_keys_not_stored, setup, teardown),
		T(test_seat_snl_dandy),
		T(test_seat_refusals),
		T(test_seat_required_by_server),
		T(test_ludo_roll_pending),
		T(test_ludo_server_dice_replay),
		T(test_snl_server_roll),
		T(test_dandy_shuffled_deck),
		T(test_bots_finish_every_kind),
		T(test_bots_with_people),
		T(test_bots_refused),
		T(test_deadline_absent_player),
		T(test_deadline_survives_restart),
		T(test_deadline_dandy_without_deck),
		T(test_deadline_cleared_when_over),
#undef T
	};

	return STORE_RUN_TESTS(tests);
}
