/*
 * test_daemon, GAME.WATCH and durability: watchers over RESP3 and RESP2,
 * a watch resumed across a restart or behind a committing writer, AT
 * sent again after a dropped connection, the games intact after SIGTERM
 * and kill -9.  The fixtures and main() are in test_daemon.c.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <hiredis/hiredis.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "daemon_helper.h"
#include "hiredis_helper.h"
#include "rc_helper.h"
#include "rclient.h"
#include "test_daemon.h"

/* A watch confirmation or event read as the next reply: an array, its
 * strings joined with spaces ("move g 3 P1 a P1 2 0"). */
static void
expect_next(redisContext *c, const char *want)
{
	hr_check_joined(hr_next(c, want), want, HR_ARRAY, NULL);
}

static long long
game_moves(redisContext *c, const char *id)
{
	redisReply	*r = RUN(c, "GAME.INFO", id);
	long long	 moves = -1;
	size_t		 i;

	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	for (i = 0; i < r->elements; i++)
		if (strncmp(r->element[i]->str, "moves,", 6) == 0)
			moves = atoll(r->element[i]->str + 6);
	freeReplyObject(r);
	return moves;
}

/* ---------------------------------------------------------- GAME.WATCH */

void
test_resp3_push_while_playing(void **state)
{
	struct rconn	 r;
	redisContext	*b = hr_connect(D.port);
	struct reply	 rep;
	char		 got[1024];

	(void)state;
	td_raw_open(&r);
	td_raw_sends(&r, "HELLO 3\r\n");
	assert_true(rch_reply(&r, &rep));
	reply_flat(&rep, got, sizeof got);
	reply_free(&rep);
	assert_non_null(strstr(got, "%[$server $ludus $version "));
	assert_non_null(strstr(got, "$proto :3 $id :"));
	td_raw_sends(&r, "LUDO.CREATE p red blue\r\nGAME.WATCH p\r\n");
	rch_expect(&r, "+OK");
	rch_expect(&r, ">[$watch $p :1]");
	/* Its own move: the reply, then the event. */
	td_raw_sends(&r, "LUDO.PLAY p red 6 1\r\n");
	rch_expect(&r, "+MOVED");
	rch_expect(&r, ">[$move $p :1 $red $6:1 $MOVED]");
	/* Someone else's move arrives as a push too. */
	EXPECT(b, "MOVED", "LUDO.PLAY", "p", "red", "3", "1");
	rch_expect(&r, ">[$move $p :2 $red $3:1 $MOVED]");
	/* Still playing, still watching: RESP3 is no subscriber mode. */
	td_raw_sends(&r, "LUDO.PLAY p blue 4 0\r\nGAME.INFO nosuch\r\n");
	rch_expect(&r, "+PASSED");
	rch_expect(&r, ">[$move $p :3 $blue $4:0 $PASSED]");
	rch_expect_err(&r, "NOGAME");
	td_raw_sends(&r, "GAME.UNWATCH\r\nGAME.UNWATCH\r\n");
	rch_expect(&r, ">[$unwatch $p :0]");
	rch_expect(&r, ">[$unwatch (nil) :0]");
	EXPECT(b, "MOVED", "LUDO.PLAY", "p", "red", "2", "1");
	td_raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	redisFree(b);
}

/*
 * A client that sends its requests and then its FIN (printf ... | socat)
 * gets what one that stays would: each move's reply, then its event,
 * then the next reply, over GAME.WATCH and over SUBSCRIBE alike.  Ten
 * rounds, since the FIN may come in the requests' read or after it.
 */
void
test_half_close_keeps_own_events(void **state)
{
	redisContext	*b = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;
	char		 id[32], req[256], want[128];
	int		 i;

	(void)state;
	for (i = 0; i < 10; i++) {
		snprintf(id, sizeof id, "hc%d", i);
		EXPECT(b, "OK", "LUDO.CREATE", id, "red", "blue");
		td_raw_open(&r);
		if (i % 2 == 0)
			snprintf(req, sizeof req, "HELLO 3\r\nGAME.WATCH %s\r\n"
			    "LUDO.PLAY %s red 6 1\r\nPING\r\n", id, id);
		else
			snprintf(req, sizeof req, "HELLO 3\r\nSUBSCRIBE %s\r\n"
			    "LUDO.PLAY %s red 6 1\r\nPING\r\n", id, id);
		td_raw_sends(&r, req);
		assert_int_equal(shutdown(r.fd, SHUT_WR), 0);
		assert_true(rch_reply(&r, &rep));	/* HELLO's map */
		reply_free(&rep);
		if (i % 2 == 0)
			snprintf(want, sizeof want, ">[$watch $%s :1]", id);
		else
			snprintf(want, sizeof want, ">[$subscribe $%s :1]", id);
		rch_expect(&r, want);
		rch_expect(&r, "+MOVED");
		if (i % 2 == 0)
			snprintf(want, sizeof want,
			    ">[$move $%s :1 $red $6:1 $MOVED]", id);
		else
			snprintf(want, sizeof want,
			    ">[$message $%s $1,red,6:1,MOVED]", id);
		rch_expect(&r, want);
		rch_expect(&r, "+PONG");
		rch_expect_eof(&r);
		rc_close(&r);
	}
	redisFree(b);
}

void
test_watch_resp2_subscriber_mode(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port);

	(void)state;
	EXPECT(b, "OK", "LUDO.CREATE", "sub", "red", "blue");
	EXPECT_ERR(a, "NOGAME", "GAME.WATCH", "nosuch");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "Bad Id");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "sub", "FROM", "5");
	EXPECT_ERR(a, "BADARG", "GAME.WATCH", "sub", "FROM", "-1");
	EXPECT_ERR(a, "ERR", "GAME.WATCH", "sub", "SINCE", "0");
	EXPECT_JOINED(a, "watch sub 1", "GAME.WATCH", "sub");
	EXPECT_ERR(a, "ERR Can't execute 'LUDO.STATE'", "LUDO.STATE", "sub");
	EXPECT_ERR(a, "ERR Can't execute", "INFO");
	EXPECT_JOINED(a, "pong ", "PING");
	EXPECT_JOINED(a, "pong hi", "PING", "hi");
	EXPECT(b, "MOVED", "LUDO.PLAY", "sub", "red", "6", "2");
	expect_next(a, "move sub 1 red 6:2 MOVED");
	EXPECT(b, "INVALID_MOVE", "LUDO.PLAY", "sub", "blue", "6", "2");
	EXPECT(b, "MOVED", "LUDO.PLAY", "sub", "red", "1", "2");
	expect_next(a, "move sub 2 red 1:2 MOVED");
	EXPECT_JOINED(a, "unwatch sub 0", "GAME.UNWATCH", "sub");
	EXPECT_JOINED(a, "turn,blue winner,NONE red,1,YARD,-1 "
	    "red,2,TRACK,1 red,3,YARD,-1 red,4,YARD,-1 blue,1,YARD,-1 "
	    "blue,2,YARD,-1 blue,3,YARD,-1 blue,4,YARD,-1", "LUDO.STATE",
	    "sub");
	redisFree(a);
	redisFree(b);
}

static void
draw_and_record(redisContext *b, const char *id, struct dandy_state *st,
    char events[][96], int seq, int card)
{
	struct dandy_state	 next;
	char			 want[64], cs[2] = { (char)card, 0 };

	td_dandy_res(st, card, &next, want, sizeof want);
	snprintf(events[seq], 96, "move %s %d P%d %s %s", id, seq,
	    st->turn + 1, cs, want);
	*st = next;
	EXPECT(b, want, "DANDY.DRAW", id, cs);
}

void
test_watch_from_resume_across_restart(void **state)
{
	static const char *const extra[] = { "--durability", "normal", NULL };
	struct dandy_state	 st;
	char			 events[32][96];
	const char		*why;
	redisContext		*a, *b;
	int			 seq;

	(void)state;
	a = hr_connect(D.port);
	b = hr_connect(D.port);
	assert_int_equal(dandy_init(&st, 2, "abcd", NULL, &why), 0);
	EXPECT(b, "OK", "DANDY.CREATE", "w", "2", "abcd");
	EXPECT_JOINED(a, "watch w 1", "GAME.WATCH", "w");
	for (seq = 1; seq <= 5; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    td_cards[(seq * 7) % 18]);
	for (seq = 1; seq <= 5; seq++)
		expect_next(a, events[seq]);
	/* The watcher saw 5; the daemon restarts; moves go on without it. */
	redisFree(a);
	redisFree(b);
	assert_int_equal(daemon_restart(&D, extra), 0);
	b = hr_connect(D.port);
	for (seq = 6; seq <= 10; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    td_cards[(seq * 7) % 18]);
	a = hr_connect(D.port);
	EXPECT_JOINED(a, "watch w 1", "GAME.WATCH", "w", "FROM", "5");
	for (seq = 6; seq <= 10; seq++)
		expect_next(a, events[seq]);
	for (seq = 11; seq <= 15; seq++)
		draw_and_record(b, "w", &st, events, seq,
		    td_cards[(seq * 7) % 18]);
	for (seq = 11; seq <= 15; seq++)
		expect_next(a, events[seq]);
	/* Nothing more: the next reply is the PING's. */
	EXPECT_JOINED(a, "pong ", "PING");
	redisFree(a);
	redisFree(b);
}

/*
 * A long backlog sent while new moves commit.  The watcher (RESP3) sends
 * GAME.WATCH FROM 0 and its own moves in one write: the daemon sends the first
 * part of the history, then commits those moves while the rest of the
 * history is still unsent, so their events must come from the history
 * reader, after the older ones.  Then another client adds moves while the
 * watcher still reads nothing.  Every seq arrives exactly once, in order,
 * and the watcher's own replies arrive in request order among them.
 */
void
test_watch_backlog_while_committing(void **state)
{
	enum { BEFORE = 1500, OWN = 50, AFTER = 300 };
	enum { TOTAL = BEFORE + OWN + AFTER };
	struct dandy_state	 st, next;
	struct rconn		 r;
	struct reply		 rep;
	redisContext		*b = hr_connect(D.port);
	redisReply		*rr;
	char			 want[64], cs[2] = { 0, 0 }, got[256];
	char			 (*events)[128], (*results)[64], *req = NULL;
	const char		*why;
	size_t			 len = 0;
	int			 i, seq, own, tries;

	(void)state;
	events = calloc(TOTAL + 1, sizeof *events);
	results = calloc(TOTAL + 1, sizeof *results);
	assert_true(events != NULL && results != NULL);
	assert_int_equal(dandy_init(&st, 3, "abcdefghi", NULL, &why), 0);
	EXPECT(b, "OK", "DANDY.CREATE", "big", "3", "abcdefghi");
	for (i = 1; i <= TOTAL; i++) {
		cs[0] = td_cards[(i * 5) % 18];
		td_dandy_res(&st, cs[0], &next, results[i], sizeof results[i]);
		snprintf(events[i], 128, ">[$move $big :%d $P%d $%s $%s]", i,
		    st.turn + 1, cs, results[i]);
		st = next;
	}
	for (i = 1; i <= BEFORE; i++) {
		cs[0] = td_cards[(i * 5) % 18];
		redisAppendCommand(b, "DANDY.DRAW big %s", cs);
	}
	for (i = 1; i <= BEFORE; i++) {
		assert_int_equal(redisGetReply(b, (void **)&rr), REDIS_OK);
		freeReplyObject(rr);
	}
	/* One write: HELLO, GAME.WATCH, and the watcher's own moves. */
	td_raw_open(&r);
	req = strdup("HELLO 3\r\nGAME.WATCH big FROM 0\r\n");
	len = strlen(req);
	for (i = BEFORE + 1; i <= BEFORE + OWN; i++) {
		req = realloc(req, len + 32);
		len += (size_t)snprintf(req + len, 32, "DANDY.DRAW big %c\r\n",
		    td_cards[(i * 5) % 18]);
	}
	td_raw_send(&r, req, len);
	free(req);
	for (tries = 0; tries < 2000 && game_moves(b, "big") < BEFORE + OWN;
	    tries++)
		usleep(5000);
	assert_int_equal(game_moves(b, "big"), BEFORE + OWN);
	/* Moves of another client, the watcher still not reading. */
	for (i = BEFORE + OWN + 1; i <= TOTAL; i++) {
		cs[0] = td_cards[(i * 5) % 18];
		redisAppendCommand(b, "DANDY.DRAW big %s", cs);
	}
	for (i = BEFORE + OWN + 1; i <= TOTAL; i++) {
		assert_int_equal(redisGetReply(b, (void **)&rr), REDIS_OK);
		freeReplyObject(rr);
	}
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect(&r, ">[$watch $big :1]");
	for (seq = 1, own = BEFORE + 1; seq <= TOTAL || own <= BEFORE + OWN;) {
		assert_true(rch_reply(&r, &rep));
		reply_flat(&rep, got, sizeof got);
		if (rep.type == REPLY_PUSH) {
			if (seq > TOTAL || strcmp(got, events[seq]) != 0)
				fail_msg("event %d: expected '%s', got '%s'",
				    seq, seq <= TOTAL ? events[seq] : "none",
				    got);
			seq++;
		} else {
			snprintf(want, sizeof want, "+%s", results[own]);
			if (own > BEFORE + OWN || strcmp(got, want) != 0)
				fail_msg("reply %d: expected '%s', got '%s'",
				    own, want, got);
			own++;
		}
		reply_free(&rep);
	}
	/* No duplicate after the last one. */
	td_raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	free(events);
	free(results);
	redisFree(b);
}

/* ---------------------------------------------------------- durability */

void
test_at_resend_after_dropped_connection(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	int		 tries;
	static const char *const hist1[] = { "1,red,6:1,MOVED" };
	static const char *const hist2[] = { "1,red,6:1,MOVED",
	    "2,red,3:1,MOVED" };

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "at", "red", "blue");
	/* A move whose reply the client never reads. */
	td_raw_open(&r);
	td_raw_sends(&r, "LUDO.PLAY at red 6 1 AT 0\r\n");
	rc_close(&r);
	for (tries = 0; game_moves(c, "at") != 1 && tries < 1000; tries++)
		usleep(10000);
	assert_int_equal(game_moves(c, "at"), 1);
	/* The resend on a new connection: the stored result, once. */
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "6", "1", "AT", "0");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "6", "1", "AT", "0");
	EXPECT_LINES(c, hist1, "HISTORY", "at");
	/* Another move claiming the same place is stale. */
	EXPECT_ERR(c, "STALE", "LUDO.PLAY", "at", "red", "5", "1", "AT", "0");
	EXPECT_ERR(c, "STALE", "LUDO.PLAY", "at", "red", "3", "1", "AT", "2");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "3", "1", "AT", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "at", "red", "3", "1", "AT", "1");
	EXPECT_LINES(c, hist2, "HISTORY", "at");
	redisFree(c);
}

/* Every STATE and HISTORY reply of the games, as one string. */
static char *
snapshot(redisContext *c, const char *const *games, const char *const *kinds)
{
	char		*s = NULL, *t, cmd[32];
	redisReply	*r;
	size_t		 i, j;

	s = strdup("");
	for (i = 0; games[i] != NULL; i++) {
		snprintf(cmd, sizeof cmd, "%s.STATE", kinds[i]);
		for (j = 0; j < 2; j++) {
			r = j == 0 ? RUN(c, cmd, games[i]) :
			    RUN(c, "HISTORY", games[i], "1", "10000");
			assert_int_equal(r->type, REDIS_REPLY_ARRAY);
			assert_true(asprintf(&t, "%s%s:\n%s\n", s, games[i],
			    hr_joined(r)) > 0);
			free(s);
			s = t;
			freeReplyObject(r);
		}
	}
	return s;
}

void
test_state_intact_after_sigterm(void **state)
{
	static const char *const games[] = { "t-ludo", "t-snl", "t-dandy",
	    NULL };
	static const char *const kinds[] = { "LUDO", "SNL", "DANDY" };
	redisContext	*c = hr_connect(D.port);
	char		*before, *after;
	redisReply	*r;

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "t-ludo", "a", "b", "c",
	    "rules=extended");
	EXPECT(c, "MOVED", "LUDO.PLAY", "t-ludo", "a", "6", "1");
	EXPECT(c, "MOVED", "LUDO.PLAY", "t-ludo", "a", "5", "1");
	EXPECT(c, "PASSED", "LUDO.PLAY", "t-ludo", "b", "5", "0");
	EXPECT(c, "OK", "SNL.CREATE", "t-snl", "3");
	EXPECT(c, "OK", "SNL.LADDER", "t-snl", "2", "60");
	EXPECT(c, "P1 60", "SNL.ROLL", "t-snl", "2");
	EXPECT(c, "P2 5", "SNL.ROLL", "t-snl", "5");
	EXPECT(c, "OK", "DANDY.CREATE", "t-dandy", "2", "abcd",
	    "deck=ab12cd");
	EXPECT(c, "P1 1 0", "DANDY.DRAW", "t-dandy");
	EXPECT(c, "P2 2 0", "DANDY.DRAW", "t-dandy");
	before = snapshot(c, games, kinds);
	redisFree(c);
	assert_int_equal(daemon_restart(&D, NULL), 0);
	c = hr_connect(D.port);
	after = snapshot(c, games, kinds);
	assert_string_equal(before, after);
	r = RUN(c, "AUDIT");
	assert_int_equal(r->elements, 0);
	freeReplyObject(r);
	free(before);
	free(after);
	redisFree(c);
}

/*
 * SIGTERM while a client has a pipeline in flight: every request the
 * daemon ran got its reply, so the moves acknowledged are exactly the
 * moves stored.
 */
void
test_sigterm_flushes_in_flight_replies(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	int		 i, acked = 0;

	(void)state;
	EXPECT(c, "OK", "DANDY.CREATE", "fl", "2", "abcdef");
	for (i = 0; i < 400; i++)
		assert_int_equal(redisAppendCommand(c, "DANDY.DRAW fl %b",
		    &td_cards[i % 18], (size_t)1), REDIS_OK);
	/* Send it all, then stop the daemon under it. */
	for (i = 0; ; i++) {
		int done = 0;

		assert_int_equal(redisBufferWrite(c, &done), REDIS_OK);
		if (done)
			break;
	}
	kill(D.pid, SIGTERM);
	while (redisGetReply(c, (void **)&r) == REDIS_OK && r != NULL) {
		assert_int_equal(r->type, REDIS_REPLY_STATUS);
		acked++;
		freeReplyObject(r);
	}
	redisFree(c);
	/* It is stopping already: wait, do not signal again. */
	assert_int_equal(daemon_stop(&D, 0), 0);
	assert_int_equal(daemon_start(&D, NULL), 0);
	c = hr_connect(D.port);
	assert_int_equal(game_moves(c, "fl"), acked);
	print_message("# %d of 400 moves acknowledged and stored\n", acked);
	redisFree(c);
}

#define K9_THREADS	4

struct k9_arg {
	int		 idx;
	int		 acked;
	char		 results[4096][64];
};

static void *
k9_thread(void *arg)
{
	struct k9_arg		*a = arg;
	struct dandy_state	 st, next;
	redisContext		*c;
	redisReply		*r;
	const char		*why;
	char			 id[32], want[64], cs[2] = { 0, 0 };
	int			 i;

	snprintf(id, sizeof id, "k9-%d", a->idx);
	dandy_init(&st, 2, "abcdefgh", NULL, &why);
	if ((c = redisConnect("127.0.0.1", D.port)) == NULL || c->err)
		return NULL;
	for (i = 1; i < 4096; i++) {
		cs[0] = td_cards[(i * (a->idx + 3)) % 18];
		td_dandy_res(&st, cs[0], &next, want, sizeof want);
		st = next;
		r = redisCommand(c, "DANDY.DRAW %s %s", id, cs);
		if (r == NULL)
			break;
		if (r->type == REDIS_REPLY_STATUS &&
		    strcmp(r->str, want) == 0) {
			snprintf(a->results[i], 128, "%d,P%d,%s,%s", i,
			    (i - 1) % 2 + 1, cs, want);
			__atomic_store_n(&a->acked, i, __ATOMIC_RELEASE);
		}
		freeReplyObject(r);
		if (a->acked != i)
			break;
	}
	redisFree(c);
	return NULL;
}

void
test_kill9_keeps_acknowledged_moves(void **state)
{
	static struct k9_arg	 args[K9_THREADS];
	pthread_t		 th[K9_THREADS];
	redisContext		*c;
	redisReply		*r;
	char			 id[32];
	int			 i, j;

	(void)state;
	c = hr_connect(D.port);
	for (i = 0; i < K9_THREADS; i++) {
		snprintf(id, sizeof id, "k9-%d", i);
		EXPECT(c, "OK", "DANDY.CREATE", id, "2", "abcdefgh");
	}
	redisFree(c);
	for (i = 0; i < K9_THREADS; i++) {
		memset(&args[i], 0, sizeof args[i]);
		args[i].idx = i;
		assert_int_equal(pthread_create(&th[i], NULL, k9_thread,
		    &args[i]), 0);
	}
	/* Kill it once every client has had some moves acknowledged. */
	for (j = 0; j < 2000; j++) {
		for (i = 0; i < K9_THREADS; i++)
			if (__atomic_load_n(&args[i].acked,
			    __ATOMIC_ACQUIRE) < 20)
				break;
		if (i == K9_THREADS)
			break;
		usleep(5000);
	}
	assert_int_equal(daemon_stop(&D, SIGKILL), 128 + SIGKILL);
	for (i = 0; i < K9_THREADS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(daemon_start(&D, NULL), 0);
	c = hr_connect(D.port);
	for (i = 0; i < K9_THREADS; i++) {
		snprintf(id, sizeof id, "k9-%d", i);
		assert_true(args[i].acked > 0);
		r = RUN(c, "HISTORY", id, "1", "10000");
		/* Every acknowledged move, and at most one more whose
		 * reply was lost in the kill. */
		assert_true((int)r->elements >= args[i].acked);
		assert_true((int)r->elements <= args[i].acked + 1);
		for (j = 1; j <= args[i].acked; j++)
			assert_string_equal(r->element[j - 1]->str,
			    args[i].results[j]);
		freeReplyObject(r);
	}
	r = RUN(c, "AUDIT");
	assert_int_equal(r->elements, 0);
	freeReplyObject(r);
	redisFree(c);
}
