/*
 * Multiplayer through the command layer, the server's part: server dice
 * and decks, bots, turn deadlines, on test_multiplayer.c's fixture
 * (a real SQLite store, a fake clock).  main() is test_multiplayer.c's.
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

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"
#include "test_multiplayer.h"

/* ------------------------------------------------------- server dice */

void
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
	v = mp_run_int(f, NULL, "LUDO.ROLL g a");
	assert_true(v >= 1 && v <= 6);
	/* Asking again gives the same value. */
	assert_int_equal(mp_run_int(f, NULL, "LUDO.ROLL g a"), v);
	snprintf(want, sizeof(want), "*9\n+kind,ludo\n+players,2\n"
	    "+moves,0\n+turn,a\n+winner,NONE\n+created,1700000000\n"
	    "+updated,1700000000\n+dice,server\n+roll,%lld", v);
	EXPECT(f, NULL, "GAME.INFO g", want);
	/* It was committed on its own: a restart gives it back. */
	mp_restart(f);
	assert_int_equal(mp_run_int(f, NULL, "LUDO.ROLL g a"), v);
	/* Another value is refused and changes nothing. */
	other = v % 6 + 1;
	snprintf(line, sizeof(line), "LUDO.PLAY g a %lld 0", other);
	EXPECT_PREFIX(f, NULL, line, "-BADARG dice must be");
	EXPECT(f, NULL, "HISTORY g", "*0");
	assert_int_equal(mp_run_int(f, NULL, "LUDO.ROLL g a"), v);
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
void
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
		info = mp_run(f, NULL, "GAME.INFO g");
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
		v = mp_run_int(f, NULL, line);
		snprintf(line, sizeof(line), "LUDO.LEGAL g %lld", v);
		legal = mp_run(f, NULL, line);
		/* the last legal token, to differ from the bots' "first" */
		snprintf(line, sizeof(line), "LUDO.PLAY g %s %lld %s", who, v,
		    legal[1] == '0' ? "0" : strrchr(legal, ':') + 1);
		free(legal);
		res = mp_run(f, NULL, line);
		assert_true(res[0] == '+');
		assert_null(strstr(res, "INVALID"));
		free(res);
	}
	assert_true(n < 5000);
	mp_assert_replays(f, "LUDO", "g");
}

void
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
	got = mp_run(f, NULL, "SNL.ROLL s AT 0");
	assert_true(strncmp(got, "+P1 ", 4) == 0);
	EXPECT(f, NULL, "SNL.ROLL s AT 0", got);
	free(got);
	for (n = 1; n < 10000; n++) {
		got = mp_run(f, NULL, "SNL.ROLL s");
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
	mp_assert_replays(f, "SNL", "s");
}

void
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
		got = mp_run(f, NULL, "DANDY.DRAW d");
		assert_int_equal(got[0], '+');
		assert_int_equal(got[1], 'P');
		free(got);
	}
	EXPECT(f, NULL, "DANDY.DRAW d", "+GAME_OVER");
	EXPECT_PREFIX(f, NULL, "GAME.INFO d", "*10\n");
	got = mp_run(f, NULL, "GAME.INFO d");
	assert_non_null(strstr(got, "+cards-left,0"));
	free(got);
	/* Drawn cards are history, and replay. */
	got = mp_run(f, NULL, "HISTORY d");
	assert_true(strncmp(got, "*20\n", 4) == 0);
	free(got);
	mp_assert_replays(f, "DANDY", "d");

	/* The default deck is 50 cards; every kind of card is dealt. */
	EXPECT(f, NULL, "DANDY.CREATE e 1 ab deck=shuffled", "+OK");
	EXPECT_PREFIX(f, NULL, "GAME.INFO e", "*10\n");
	got = mp_run(f, NULL, "GAME.INFO e");
	assert_non_null(strstr(got, "+cards-left,50"));
	free(got);
	EXPECT(f, NULL, "DANDY.CREATE big 1 ab deck=shuffled:1024", "+OK");
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < 1024; n++) {
		got = mp_run(f, NULL, "DANDY.DRAW big");
		assert_int_equal(got[0], '+');
		free(got);
	}
	got = mp_run(f, NULL, "HISTORY big 1 10000");
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

void
test_bots_finish_every_kind(void **state)
{
	struct fixture	*f = *state;
	char		*got;
	int		 n;

	/* Created, the first bot is due at once. */
	EXPECT(f, NULL, "LUDO.CREATE g a b c d dice=server"
	    " bots=a:expert,b:aggressive,c:first,d:expert", "+OK");
	assert_string_equal(f->sched_game, "g");
	assert_int_equal(f->sched_due, mp_fake_ms);
	n = mp_autoplay_all(f, "g", 100000);
	assert_true(n > 20);
	assert_int_equal(f->moves, n);
	assert_int_equal(f->automatic, n);
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*18\n+turn,NONE\n+winner,");
	assert_int_equal(f->sched_due, 0);	/* nothing more to do */
	got = mp_run(f, NULL, "HISTORY g 1 1");
	assert_non_null(strstr(got, ",bot"));
	free(got);
	mp_assert_replays(f, "LUDO", "g");

	EXPECT(f, NULL, "SNL.CREATE s 3 dice=server bots=P1:first,P2:first,"
	    "P3:expert snakes=99:2,50:10 ladders=3:40", "+OK");
	n = mp_autoplay_all(f, "s", 100000);
	assert_true(n > 10);
	EXPECT_PREFIX(f, NULL, "SNL.STATE s", "*8\n+turn,NONE\n+winner,P");
	mp_assert_replays(f, "SNL", "s");

	EXPECT(f, NULL, "DANDY.CREATE d 3 abcdefghiabc deck=shuffled:60"
	    " bots=P1:first,P2:first,P3:first", "+OK");
	assert_int_equal(mp_autoplay_all(f, "d", 1000), 60);
	EXPECT(f, NULL, "DANDY.DRAW d", "+GAME_OVER");
	mp_assert_replays(f, "DANDY", "d");
	/* A given deck serves bots too. */
	EXPECT(f, NULL, "DANDY.CREATE e 1 ab deck=ab12 bots=P1:first", "+OK");
	assert_int_equal(mp_autoplay_all(f, "e", 1000), 4);
	EXPECT(f, NULL, "AUDIT", "*0");
}

/* People and bots: the bot plays its turn at once, then waits. */
void
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
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 0);
	assert_int_equal(next, 0);
	EXPECT_PREFIX(f, NULL, "LUDO.ROLL g bot", "-STATE bot is a bot");
	EXPECT_PREFIX(f, NULL, "LUDO.PLAY g bot 1 0", "-STATE bot is a bot");
	do {
		v = mp_run_int(f, NULL, "LUDO.ROLL g me");
		snprintf(line, sizeof(line), "LUDO.LEGAL g %lld", v);
		legal = mp_run(f, NULL, line);
		/* "*n\n:t\n...": the first legal token, or a pass */
		snprintf(line, sizeof(line), "LUDO.PLAY g me %lld %c", v,
		    legal[1] == '0' ? '0' : legal[4]);
		free(legal);
		got = mp_run(f, NULL, line);
		assert_int_equal(got[0], '+');
		assert_null(strstr(got, "INVALID"));
		free(got);
	} while (v == 6);
	/* Now the bot: due at once, one move per call. */
	assert_int_equal(f->sched_due, mp_fake_ms);
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "bot");
	assert_int_equal(mv.by, MOVE_BOT);
	assert_true(next == 0 || next == mp_fake_ms);
	mp_autoplay_all(f, "g", 100);
	EXPECT_PREFIX(f, NULL, "LUDO.STATE g", "*10\n+turn,me");
}

void
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

		mp_create_secure(f, "LUDO.CREATE g a b seats=secure dice=server"
		    " bots=b:expert", &k);
		assert_int_equal(k.n, 1);
		assert_string_equal(k.name[0], "a");
	}
}

/* --------------------------------------------------------- deadlines */

void
test_deadline_absent_player(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;
	char		*got;

	EXPECT(f, NULL, "LUDO.CREATE g a b turn-timeout=10", "+OK");
	assert_int_equal(f->sched_due, T0_MS + 10000);
	EXPECT_PREFIX(f, NULL, "GAME.INFO g", "*9\n");
	got = mp_run(f, NULL, "GAME.INFO g");
	assert_non_null(strstr(got, "+turn-timeout,10\n+deadline,"
	    "1700000010000"));
	free(got);
	/* Not yet. */
	mp_fake_ms = T0_MS + 9999;
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 0);
	assert_int_equal(next, T0_MS + 10000);
	/* A move in time starts the next turn's clock. */
	EXPECT(f, NULL, "LUDO.PLAY g a 3 0", "+PASSED");
	assert_int_equal(f->sched_due, T0_MS + 9999 + 10000);
	mp_fake_ms = T0_MS + 19998;
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 0);
	/* b is away: played for at the deadline, with "first". */
	mp_fake_ms = T0_MS + 19999;
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "b");
	assert_int_equal(mv.by, MOVE_TIMEOUT);
	assert_int_equal(next, mp_fake_ms + 10000);
	assert_int_equal(f->automatic, 1);
	got = mp_run(f, NULL, "HISTORY g 2");
	assert_non_null(strstr(got, ",timeout"));
	assert_true(strncmp(got, "*1\n+2,b,", 8) == 0);
	free(got);
	/* Once, not twice. */
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 0);
	mp_assert_replays(f, "LUDO", "g");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b turn-timeout=-1",
	    "-BADARG turn-timeout");
	EXPECT_PREFIX(f, NULL, "LUDO.CREATE x a b turn-timeout=604801",
	    "-BADARG turn-timeout");
}

/* The deadline is stored: a restart in the middle of the wait neither
 * forgets nor resets it. */
void
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
	v = mp_run_int(f, NULL, "LUDO.ROLL g a");
	mp_fake_ms = T0_MS + 3000;
	mp_restart(f);
	mp_fake_ms = T0_MS + 4000;
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 0);
	assert_int_equal(next, T0_MS + 5000);
	/* What a daemon re-arms at start: both deadlines, as set. */
	f->scheds = 0;
	assert_int_equal(cmd_due_games(&f->env, mp_on_schedule, f), 0);
	assert_int_equal(f->scheds, 2);
	assert_string_equal(f->sched_game, "s");
	assert_int_equal(f->sched_due, T0_MS + 7000);
	mp_fake_ms = T0_MS + 5000;
	assert_int_equal(cmd_autoplay(&f->env, "g", mp_fake_ms, &mv, &next), 1);
	/* The roll a drew is the one played for a. */
	snprintf(line, sizeof(line), "%lld:", v);
	assert_true(strncmp(mv.action, line, strlen(line)) == 0);
	assert_string_equal(mv.player, "a");
	mp_fake_ms = T0_MS + 7000;
	assert_int_equal(cmd_autoplay(&f->env, "s", mp_fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "P1");
	assert_int_equal(mv.by, MOVE_TIMEOUT);
	mp_assert_replays(f, "SNL", "s");
	mp_assert_replays(f, "LUDO", "g");
}

/* DandyLand without a deck: the server draws the absent player's card. */
void
test_deadline_dandy_without_deck(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;

	EXPECT(f, NULL, "DANDY.CREATE d 2 abcdefghi turn-timeout=1", "+OK");
	EXPECT(f, NULL, "DANDY.DRAW d b", "+P1 2 0");
	mp_fake_ms += 1000;
	assert_int_equal(cmd_autoplay(&f->env, "d", mp_fake_ms, &mv, &next), 1);
	assert_string_equal(mv.player, "P2");
	assert_int_equal(strlen(mv.action), 1);
	assert_non_null(strchr("abcdefghi123456789", mv.action[0]));
	assert_int_equal(next, mp_fake_ms + 1000);
	mp_assert_replays(f, "DANDY", "d");
}

/* A finished game owes nothing: its deadline is gone. */
void
test_deadline_cleared_when_over(void **state)
{
	struct fixture	*f = *state;
	struct move	 mv;
	int64_t		 next;

	EXPECT(f, NULL, "SNL.CREATE s 1 turn-timeout=60", "+OK");
	EXPECT(f, NULL, "SNL.LADDER s 3 100", "+OK");
	EXPECT(f, NULL, "SNL.ROLL s 3", "+P1 WINS");
	assert_int_equal(f->sched_due, 0);
	mp_fake_ms += 3600 * 1000;
	assert_int_equal(cmd_autoplay(&f->env, "s", mp_fake_ms, &mv, &next), 0);
	assert_int_equal(next, 0);
	f->scheds = 0;
	assert_int_equal(cmd_due_games(&f->env, mp_on_schedule, f), 0);
	assert_int_equal(f->scheds, 0);
	/* A game that is gone (deleted since its timer was set) owes no
	 * move: nothing to play, never again. */
	next = 1;
	assert_int_equal(cmd_autoplay(&f->env, "nope", mp_fake_ms, &mv, &next),
	    0);
	assert_int_equal(next, 0);
}
