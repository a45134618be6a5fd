/*
 * test_commands, each game's commands: the seed examples of Ludo, Snake &
 * Ladder and DandyLand through the commands, their options, and bad
 * input for each.
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

/* ---------------------------------------------------------------- Ludo */

void
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

void
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

void
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

void
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

void
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
void
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
	/* A name that is no player is a bad argument, over or not. */
	EXPECT_ERR(f, "LUDO.PLAY w green 6 1",
	    "-BADARG player 'green' is not in game 'w'");
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

void
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

void
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

void
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

void
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
	assert_int_equal(tc_count_rows(f, "SELECT count(*) FROM games"), 0);
}

static const char *const main_draws[] = {
	"+P1 1 0", "+P2 2 0", "+P1 3 0", "+P2 4 0", "+P1 4 2",
	"+P2 1 0", "+P1 2 3", "+P2 4 0", "+P1 3 3", "+P2 1 1",
};

void
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

void
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

void
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
