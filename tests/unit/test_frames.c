/*
 * The ludus CLI's split of frames into replies and events (src/cli/
 * frames.c): frames are written as the server sends them, parsed with
 * the client's reply parser, and fed in the order they would arrive.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli/frames.h"
#include "net/resp.h"

#define R	FRAME_REPLY
#define E	FRAME_EVENT

/* Sends the words of cmd (a blank-separated line). */
static void
sent(struct frames *f, const char *cmd)
{
	char	 buf[256], *argv[16], *p;
	int	 argc = 0;

	snprintf(buf, sizeof buf, "%s", cmd);
	for (p = strtok(buf, " "); p != NULL && argc < 16;
	    p = strtok(NULL, " "))
		argv[argc++] = p;
	frames_sent(f, argc, argv);
}

/* Classifies one frame given as RESP bytes. */
static enum frame_kind
got(struct frames *f, const char *resp)
{
	struct reply		 r;
	enum frame_kind		 k;
	size_t			 used;

	memset(&r, 0, sizeof r);
	assert_int_equal(resp_parse_reply(resp, strlen(resp), &used, &r),
	    RESP_OK);
	assert_int_equal(used, strlen(resp));
	k = frames_classify(f, &r);
	reply_free(&r);
	return k;
}

#define WATCH2(g, n)	"*3\r\n$5\r\nwatch\r\n$1\r\n" g "\r\n:" #n "\r\n"
#define UNWATCH2(g, n)	"*3\r\n$7\r\nunwatch\r\n$1\r\n" g "\r\n:" #n "\r\n"
#define UNWATCH3(g, n)	">3\r\n$7\r\nunwatch\r\n$1\r\n" g "\r\n:" #n "\r\n"
#define WATCH3(g, n)	">3\r\n$5\r\nwatch\r\n$1\r\n" g "\r\n:" #n "\r\n"
#define MOVE2(g)	"*6\r\n$4\r\nmove\r\n$1\r\n" g "\r\n:1\r\n$1\r\na\r\n" \
			"$3\r\n6:1\r\n$5\r\nMOVED\r\n"
#define MOVE3(g)	">6\r\n$4\r\nmove\r\n$1\r\n" g "\r\n:1\r\n$1\r\na\r\n" \
			"$3\r\n6:1\r\n$5\r\nMOVED\r\n"

static void
test_frames_plain_replies(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	sent(&f, "LUDO.PLAY g a 6 1");
	assert_int_equal(got(&f, "+MOVED\r\n"), R);
	assert_false(frames_owed(&f));
	/* Not subscribed: an array that starts with "move" is a reply
	 * (GAMES listing a game called move). */
	sent(&f, "GAMES");
	assert_int_equal(got(&f, "*6\r\n$4\r\nmove\r\n$1\r\nb\r\n$1\r\nc\r\n"
	    "$1\r\nd\r\n$1\r\ne\r\n$1\r\nf\r\n"), R);
	/* Nothing owed: whatever comes is shown as it comes. */
	assert_int_equal(got(&f, "+OK\r\n"), E);
}

static void
test_frames_resp2_watch(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	sent(&f, "GAME.WATCH g FROM 0");
	assert_int_equal(got(&f, WATCH2("g", 1)), R);
	assert_int_equal(f.subs, 1);
	assert_false(frames_owed(&f));
	assert_int_equal(got(&f, MOVE2("g")), E);
	/* PING in subscriber mode: its [pong, ""] is its reply, and an
	 * event before it is still an event. */
	sent(&f, "PING");
	assert_int_equal(got(&f, MOVE2("g")), E);
	assert_int_equal(got(&f, "*2\r\n$4\r\npong\r\n$0\r\n\r\n"), R);
	sent(&f, "GAME.UNWATCH");
	assert_int_equal(got(&f, UNWATCH2("g", 0)), R);
	assert_int_equal(f.subs, 0);
	assert_false(frames_owed(&f));
}

static void
test_frames_resp3_watch_and_play(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	/* GAME.WATCH's reply is a push frame, and it is the reply. */
	sent(&f, "GAME.WATCH g");
	assert_int_equal(got(&f, WATCH3("g", 1)), R);
	assert_false(frames_owed(&f));
	sent(&f, "LUDO.PLAY g a 6 1");
	assert_int_equal(got(&f, MOVE3("g")), E);
	assert_true(frames_owed(&f));
	assert_int_equal(got(&f, "+MOVED\r\n"), R);
	assert_int_equal(got(&f, MOVE3("g")), E);
	/* A push that is no confirmation is an event even unsubscribed. */
	f.subs = 0;
	sent(&f, "PING");
	assert_int_equal(got(&f, ">2\r\n$10\r\ninvalidate\r\n_\r\n"), E);
	assert_int_equal(got(&f, "+PONG\r\n"), R);
}

static void
test_frames_unwatch_all_takes_one_frame_each(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	sent(&f, "GAME.WATCH a");
	assert_int_equal(got(&f, WATCH3("a", 1)), R);
	sent(&f, "GAME.WATCH b");
	assert_int_equal(got(&f, WATCH3("b", 2)), R);
	sent(&f, "game.unwatch");
	assert_int_equal(got(&f, UNWATCH3("a", 1)), R);
	assert_true(frames_owed(&f));
	assert_int_equal(got(&f, MOVE3("b")), E);
	assert_int_equal(got(&f, UNWATCH3("b", 0)), R);
	assert_false(frames_owed(&f));
	/* Nothing watched: one frame, a null name and 0. */
	sent(&f, "GAME.UNWATCH");
	assert_int_equal(got(&f, "*3\r\n$7\r\nunwatch\r\n$-1\r\n:0\r\n"), R);
	assert_false(frames_owed(&f));
}

static void
test_frames_one_confirmation_per_name(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	sent(&f, "SUBSCRIBE a b");
	assert_int_equal(got(&f, "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n"),
	    R);
	assert_true(frames_owed(&f));
	assert_int_equal(got(&f, "*3\r\n$7\r\nmessage\r\n$1\r\na\r\n$1\r\nx\r\n"),
	    E);
	assert_int_equal(got(&f, "*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n"),
	    R);
	assert_false(frames_owed(&f));
	sent(&f, "GAME.UNWATCH a b");
	assert_int_equal(got(&f, UNWATCH2("a", 1)), R);
	assert_int_equal(got(&f, UNWATCH2("b", 0)), R);
	assert_false(frames_owed(&f));
}

static void
test_frames_an_error_ends_the_reply(void **state)
{
	struct frames	 f = { 0, 0 };

	(void)state;
	sent(&f, "SUBSCRIBE a b c");
	assert_int_equal(got(&f, "-ERR unknown command 'SUBSCRIBE'\r\n"), R);
	assert_false(frames_owed(&f));
	sent(&f, "GAME.WATCH nope");
	assert_int_equal(got(&f, "-NOGAME no such game 'nope'\r\n"), R);
	assert_int_equal(f.subs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_plain_replies),
		cmocka_unit_test(test_frames_resp2_watch),
		cmocka_unit_test(test_frames_resp3_watch_and_play),
		cmocka_unit_test(test_frames_unwatch_all_takes_one_frame_each),
		cmocka_unit_test(test_frames_one_confirmation_per_name),
		cmocka_unit_test(test_frames_an_error_ends_the_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
