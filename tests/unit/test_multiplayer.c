/*
 * Multiplayer options through the command layer: secure seats, server
 * dice and decks, bots, turn deadlines, on a real SQLite store (a file
 * where a restart matters) and a fake clock.  This file has the fixture,
 * the helpers, the seats and main(); test_multiplayer_play.c the server
 * dice, bots and deadlines.
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
#include "test_multiplayer.h"

int64_t		mp_fake_ms = T0_MS;

static int64_t
now_ms(void)
{
	return mp_fake_ms;
}

static int64_t
now_s(void)
{
	return mp_fake_ms / 1000;
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

void
mp_on_schedule(void *arg, const char *game, int64_t due)
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
void
mp_restart(struct fixture *f)
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
	mp_fake_ms = T0_MS;
	f->env.now = now_s;
	f->env.now_ms = now_ms;
	f->env.on_move = on_move;
	f->env.on_move_arg = f;
	f->env.on_schedule = mp_on_schedule;
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
char *
mp_run(struct fixture *f, struct cmd_session *sess, const char *line)
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

void
mp_expect_line(struct fixture *f, struct cmd_session *sess, const char *line,
    const char *want, int at, int prefix)
{
	char	*got = mp_run(f, sess, line);
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
long long
mp_run_int(struct fixture *f, struct cmd_session *sess, const char *line)
{
	char		*got = mp_run(f, sess, line);
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

void
mp_create_secure(struct fixture *f, const char *line, struct keys *k)
{
	char	*got = mp_run(f, NULL, line), *p, *line_end, *comma;

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

void
mp_seat(struct fixture *f, struct cmd_session *sess, const char *game,
    const char *player, const char *key)
{
	char	 line[256];

	snprintf(line, sizeof(line), "SEAT %s %s %s", game, player, key);
	EXPECT(f, sess, line, "+OK");
}

/* REPLAY id equals the kind's STATE, and AUDIT finds nothing wrong. */
void
mp_assert_replays(struct fixture *f, const char *kind, const char *id)
{
	char	 line[128], *state, *replay;

	snprintf(line, sizeof(line), "%s.STATE %s", kind, id);
	state = mp_run(f, NULL, line);
	snprintf(line, sizeof(line), "REPLAY %s", id);
	replay = mp_run(f, NULL, line);
	assert_string_equal(replay, state);
	assert_true(state[0] == '*');
	free(state);
	free(replay);
	EXPECT(f, NULL, "AUDIT", "*0");
}

/* Drives a game with cmd_autoplay as the daemon would, at the fake
 * time; returns the moves played. */
int
mp_autoplay_all(struct fixture *f, const char *id, int max)
{
	struct move	 mv;
	int64_t		 next;
	int		 n = 0, rc;

	while ((rc = cmd_autoplay(&f->env, id, mp_fake_ms, &mv, &next)) == 1) {
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

	mp_create_secure(f, "LUDO.CREATE g red blue seats=secure", &k);
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
	mp_seat(f, f->s1, "g", "red", k.key[0]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 6 1", "+MOVED");
	EXPECT_PREFIX(f, f->s2, "LUDO.PLAY g red 3 1", "-NOSEAT");
	EXPECT_PREFIX(f, f->s1, "LUDO.PLAY g blue 3 0", "-NOSEAT");
	/* Reading stays open to everyone. */
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*10\n+turn,red");
	EXPECT(f, NULL, "HISTORY g", "*1\n+1,red,6:1,MOVED");
	/* A seat binds only where the key was given. */
	mp_seat(f, f->s2, "g", "blue", k.key[1]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 2 1", "+MOVED");
	EXPECT(f, f->s2, "LUDO.PLAY g blue 3 0", "+PASSED");
	mp_assert_replays(f, "LUDO", "g");
}

static void
test_seat_resumes_after_restart(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;

	mp_create_secure(f, "LUDO.CREATE g red blue seats=secure", &k);
	mp_seat(f, f->s1, "g", "red", k.key[0]);
	EXPECT(f, f->s1, "LUDO.PLAY g red 5 0", "+PASSED");
	/* The connection drops, the daemon restarts: the new session has
	 * no seat until it shows the key again. */
	mp_restart(f);
	EXPECT_PREFIX(f, f->s1, "LUDO.PLAY g blue 5 0", "-NOSEAT");
	mp_seat(f, f->s1, "g", "blue", k.key[1]);
	EXPECT(f, f->s1, "LUDO.PLAY g blue 5 0", "+PASSED");
	mp_seat(f, f->s2, "g", "red", k.key[0]);
	EXPECT(f, f->s2, "LUDO.PLAY g red 4 0", "+PASSED");
	/* One session may hold seats of several games. */
	mp_create_secure(f, "LUDO.CREATE h a b c seats=secure", &k);
	assert_int_equal(k.n, 3);
	mp_seat(f, f->s1, "h", "a", k.key[0]);
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

	mp_create_secure(f, "LUDO.CREATE g red blue green seats=secure", &k);
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
		    " max(length(seat)) FROM players WHERE game = "
		    SQL_GID("g"), -1,
		    &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 3);
		assert_int_equal(sqlite3_column_int(st, 1), 32);
		assert_int_equal(sqlite3_column_int(st, 2), 32);
		sqlite3_finalize(st);
	}
	/* The keys still work after all that. */
	mp_seat(f, f->s1, "g", "green", k.key[2]);
}

static void
test_seat_snl_dandy(void **state)
{
	struct fixture	*f = *state;
	struct keys	 k;

	mp_create_secure(f, "SNL.CREATE s 2 seats=secure", &k);
	assert_int_equal(k.n, 2);
	assert_string_equal(k.name[0], "P1");
	assert_string_equal(k.name[1], "P2");
	/* Setting up the board needs a seat of the game. */
	EXPECT_PREFIX(f, f->s1, "SNL.LADDER s 4 98", "-NOSEAT");
	mp_seat(f, f->s1, "s", "P1", k.key[0]);
	EXPECT(f, f->s1, "SNL.LADDER s 4 98", "+OK");
	/* A roll is for the player to move: only that seat may roll. */
	EXPECT(f, f->s1, "SNL.ROLL s 4", "+P1 98");
	EXPECT_PREFIX(f, f->s1, "SNL.ROLL s 3", "-NOSEAT");
	EXPECT_PREFIX(f, NULL, "SNL.ROLL s 3", "-NOSEAT");
	mp_seat(f, f->s2, "s", "P2", k.key[1]);
	EXPECT(f, f->s2, "SNL.ROLL s 3", "+P2 3");
	EXPECT(f, f->s1, "SNL.ROLL s 2", "+P1 WINS");
	/* Over: nobody's turn, GAME_OVER for all, as before. */
	EXPECT(f, NULL, "SNL.ROLL s 2", "+GAME_OVER");
	EXPECT_PREFIX(f, f->s1, "SEAT s P3 00", "-BADARG");
	EXPECT_PREFIX(f, f->s1, "SEAT s p1 00", "-BADARG");

	mp_create_secure(f, "DANDY.CREATE d 2 abcd deck=ab seats=secure", &k);
	assert_int_equal(k.n, 2);
	EXPECT_PREFIX(f, f->s1, "DANDY.DRAW d", "-NOSEAT");
	mp_seat(f, f->s1, "d", "P1", k.key[0]);
	EXPECT(f, f->s1, "DANDY.DRAW d", "+P1 1 0");
	EXPECT_PREFIX(f, f->s1, "DANDY.DRAW d", "-NOSEAT");
	mp_seat(f, f->s1, "d", "P2", k.key[1]);
	EXPECT(f, f->s1, "DANDY.DRAW d", "+P2 2 0");
	EXPECT(f, f->s1, "DANDY.DRAW d", "+GAME_OVER");
	mp_assert_replays(f, "DANDY", "d");
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
	mp_create_secure(f, "LUDO.CREATE g a b seats=secure", &k);
	/* Without a session there is nowhere to keep a seat. */
	snprintf(line, sizeof(line), "SEAT g a %s", k.key[0]);
	EXPECT_PREFIX(f, NULL, line, "-STATE");
	/* A seat of one game is not a seat of another. */
	EXPECT(f, NULL, "LUDO.CREATE g2 a b seats=open", "+OK");
	mp_seat(f, f->s1, "g", "a", k.key[0]);
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
	mp_create_secure(f, "LUDO.CREATE g a b", &k);
	assert_int_equal(k.n, 2);
	mp_create_secure(f, "SNL.CREATE s 3", &k);
	assert_int_equal(k.n, 3);
	mp_create_secure(f, "DANDY.CREATE d 1 ab", &k);
	assert_int_equal(k.n, 1);
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE o a b seats=open",
	    "-BADARG this server requires seats=secure");
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g a 6 1", "-NOSEAT");
	f->env.require_seats = 0;
	EXPECT(f, NULL, "LUDO.CREATE o a b", "+OK");
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
