/*
 * test_daemon, the wire and the limits: pipelines, malformed and inline
 * input, QUIT, large replies to slow readers, HELLO, INFO and COMMAND,
 * maxclients, the output limit, the idle timeout and SIGHUP.  The
 * fixtures and main() are in test_daemon.c.
 */
#include <sys/types.h>

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

/* ---------------------------------------------------------- pipelining */

void
test_pipeline_thousand_in_order(void **state)
{
	redisContext		*c = hr_connect(D.port);
	struct snl_state	 snl, next;
	char			*buf = NULL, *cmd, want[64], arg[32];
	size_t			 len = 0;
	int			 i, n;
	redisReply		*r;

	(void)state;
	EXPECT(c, "OK", "SNL.CREATE", "pipe", "8");
	assert_int_equal(snl_init(&snl, 8), 0);
	/* Four kinds of request, RESP and inline, in one buffer. */
	for (i = 0; i < 1000; i++) {
		snprintf(arg, sizeof arg, "%d", i);
		switch (i % 4) {
		case 0:
			n = redisFormatCommand(&cmd, "ECHO msg-%d", i);
			break;
		case 1:
			n = redisFormatCommand(&cmd, "PING");
			break;
		case 2:
			n = redisFormatCommand(&cmd, "SNL.ROLL pipe %d",
			    i % 6 + 1);
			break;
		default:
			n = asprintf(&cmd, "ECHO \"inline %d\"\r\n", i);
			break;
		}
		assert_true(n > 0);
		buf = realloc(buf, len + (size_t)n);
		memcpy(buf + len, cmd, (size_t)n);
		len += (size_t)n;
		free(cmd);
	}
	/* One write: the daemon sees it all at once. */
	assert_true(write(c->fd, buf, len) == (ssize_t)len);
	free(buf);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(redisGetReply(c, (void **)&r), REDIS_OK);
		switch (i % 4) {
		case 0:
			snprintf(want, sizeof want, "msg-%d", i);
			break;
		case 1:
			snprintf(want, sizeof want, "PONG");
			break;
		case 2:
			td_snl_res(&snl, i % 6 + 1, &next, want, sizeof want);
			snl = next;
			break;
		default:
			snprintf(want, sizeof want, "inline %d", i);
			break;
		}
		if (r->str == NULL || strcmp(r->str, want) != 0)
			fail_msg("reply %d: expected '%s', got '%s'", i, want,
			    r->str != NULL ? r->str : "(none)");
		freeReplyObject(r);
	}
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/* ------------------------------------------------------- bad input */

/* Another client is served while one misbehaves. */
static void
still_served(redisContext *ok)
{
	EXPECT(ok, "PONG", "PING");
}

static void
bad_input(redisContext *ok, const char *input, size_t len,
    const char *prefix)
{
	struct rconn	 r;

	td_raw_open(&r);
	td_raw_send(&r, input, len);
	still_served(ok);
	rch_expect_err(&r, prefix);
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
}

void
test_malformed_input_closes_only_that_client(void **state)
{
	static const char garbage[] = "\"\x01\xfe\xff\x7f oops\r\n";
	static const char binary[] = "\x00\x01\xfe\xff\x7f\"x\r\nPING\r\n";
	redisContext	*ok = hr_connect(D.port);
	struct rconn	 r;
	char		*big;
	size_t		 i;

	(void)state;
	bad_input(ok, "*abc\r\n", 6, "ERR Protocol error: invalid multibulk");
	bad_input(ok, "*1\r\n$-5\r\n", 9, "ERR Protocol error: invalid bulk");
	bad_input(ok, "*1\r\n$99999999999\r\n", 19, "LIMIT ");
	bad_input(ok, "*1\r\n$9999999999999999999999\r\n", 29, "");
	bad_input(ok, "*9999999\r\n", 10, "LIMIT ");
	bad_input(ok, "*1\r\n$4\r\nPINGxx\r\n", 16, "ERR Protocol error:");
	bad_input(ok, "*2\r\n:4\r\n", 8, "ERR Protocol error: expected '$'");
	bad_input(ok, garbage, sizeof garbage - 1, "ERR Protocol error:");
	/* Binary bytes on a line are just an unknown command. */
	td_raw_open(&r);
	td_raw_send(&r, binary, sizeof binary - 1);
	rch_expect_err(&r, "ERR unknown command");
	rch_expect(&r, "+PONG");
	rc_close(&r);
	/* A line with no end is refused while it arrives. */
	big = malloc(70000);
	assert_non_null(big);
	memset(big, 'a', 70000);
	bad_input(ok, big, 70000, "LIMIT too big inline request");
	free(big);
	/* An HTTP request (a web page's: cross-protocol scripting) is
	 * closed before any of its lines runs, not served line by line;
	 * the other clients go on (tests/daemon/test_crossproto.sh has
	 * the attacks). */
	td_raw_open(&r);
	td_raw_sends(&r, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\nPING\r\n");
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
	/* Random bytes: errors or replies, never a crash. */
	td_raw_open(&r);
	big = malloc(4096);
	for (i = 0; i < 4096; i++)
		big[i] = (char)((i * 2654435761u) >> 13);
	td_raw_send(&r, big, 4096);
	free(big);
	rc_close(&r);
	still_served(ok);
	/* A huge bulk half sent does not stall anyone. */
	td_raw_open(&r);
	td_raw_sends(&r, "*1\r\n$100000000\r\n");
	big = calloc(1, 1 << 20);
	td_raw_send(&r, big, 1 << 20);
	free(big);
	still_served(ok);
	rc_close(&r);
	/* A request sent one byte at a time. */
	td_raw_open(&r);
	for (i = 0; i < 14; i++) {
		td_raw_send(&r, &"*1\r\n$4\r\nPING\r\n"[i], 1);
		usleep(1000);
	}
	rch_expect(&r, "+PONG");
	rc_close(&r);
	still_served(ok);
	redisFree(ok);
}

void
test_inline_commands(void **state)
{
	struct rconn	 r;

	(void)state;
	td_raw_open(&r);
	td_raw_sends(&r, "LUDO.CREATE \"inl\" red blue\r\n"
	    "ludo.play inl red 6 1\n\r\n  \r\nECHO \"a b\\tc\"\r\n"
	    "ECHO 'x y'\r\nECHO \"\"\r\nECHO \"unbalanced\r\n");
	rch_expect(&r, "+OK");
	rch_expect(&r, "+MOVED");
	rch_expect(&r, "$a b\tc");
	rch_expect(&r, "$x y");
	rch_expect(&r, "$");
	rch_expect_err(&r, "ERR Protocol error: unbalanced quotes");
	rch_expect_eof(&r);
	rc_close(&r);
}

void
test_quit_flushes_then_closes(void **state)
{
	struct rconn	 r;

	(void)state;
	td_raw_open(&r);
	td_raw_sends(&r, "PING\r\nECHO bye\r\nQUIT\r\nPING\r\n");
	rch_expect(&r, "+PONG");
	rch_expect(&r, "$bye");
	rch_expect(&r, "+OK");
	rch_expect_eof(&r);
	rc_close(&r);
}

/* ------------------------------------------------ slow readers, closes */

#define BIG_ECHO	(100 * 1000)	/* bytes: far over a 16 KB rcvbuf */

/* Sends a prepared pipeline from a thread while the test reads slowly:
 * the daemon stops reading while a megabyte of replies waits. */
struct sender {
	pthread_t	 tid;
	struct rconn	*r;
	const char	*buf;
	size_t		 len;
};

static void *
sender_main(void *arg)
{
	struct sender	*s = arg;

	td_raw_send(s->r, s->buf, s->len);
	return NULL;
}

static void
sender_start(struct sender *s, struct rconn *r, const char *buf, size_t len)
{
	s->r = r;
	s->buf = buf;
	s->len = len;
	assert_int_equal(pthread_create(&s->tid, NULL, sender_main, s), 0);
}

static void
append(char **buf, size_t *len, const void *p, size_t n)
{
	*buf = realloc(*buf, *len + n);
	assert_non_null(*buf);
	memcpy(*buf + *len, p, n);
	*len += n;
}

/* ECHO of n bytes: "<i>:" then the letter of i, so that a reply out of
 * place or cut short shows. */
static void
append_big_echo(char **buf, size_t *len, int i, size_t n)
{
	char	 head[64], *arg;
	int	 k;

	arg = malloc(n);
	assert_non_null(arg);
	memset(arg, 'a' + i % 26, n);
	k = snprintf(head, sizeof head, "%d:", i);
	memcpy(arg, head, (size_t)k);
	k = snprintf(head, sizeof head, "*2\r\n$4\r\nECHO\r\n$%zu\r\n", n);
	append(buf, len, head, (size_t)k);
	append(buf, len, arg, n);
	append(buf, len, "\r\n", 2);
	free(arg);
}

static void
check_big_echo(const struct reply *rep, int i, size_t n)
{
	char	 head[64];
	size_t	 j, k;

	assert_int_equal(rep->type, REPLY_BULK);
	assert_int_equal(rep->len, n);
	k = (size_t)snprintf(head, sizeof head, "%d:", i);
	if (memcmp(rep->str, head, k) != 0)
		fail_msg("big reply %d: starts with '%.8s'", i, rep->str);
	for (j = k; j < n; j++)
		if (rep->str[j] != 'a' + i % 26)
			fail_msg("big reply %d: byte %zu is '%c'", i, j,
			    rep->str[j]);
}

/*
 * Replies far bigger than the socket buffer, pipelined with moves (whose
 * replies wait for the group commit) to a client that reads slowly: every
 * one arrives complete and in order, the last one (QUIT's) too, then the
 * close.  10 MB is more than the kernel buffers hold (tcp_wmem's 4 MB at
 * most), so the daemon has writes the kernel takes only in part, and
 * stops and resumes reading the client.
 */
void
test_big_replies_reach_a_slow_reader_in_order(void **state)
{
	redisContext		*c = hr_connect(D.port);
	struct snl_state	 snl, next;
	struct rconn		 r;
	struct sender		 snd;
	struct reply		 rep;
	char			*buf = NULL, want[64], line[128];
	size_t			 len = 0;
	int			 i, k, n = 300;

	(void)state;
	EXPECT(c, "OK", "SNL.CREATE", "slow", "3");
	assert_int_equal(snl_init(&snl, 3), 0);
	for (i = 0; i < n; i++) {
		switch (i % 3) {
		case 0:
			append_big_echo(&buf, &len, i, BIG_ECHO + (size_t)i);
			break;
		case 1:
			k = snprintf(line, sizeof line, "SNL.ROLL slow %d\r\n",
			    i % 6 + 1);
			append(&buf, &len, line, (size_t)k);
			break;
		default:
			k = snprintf(line, sizeof line, "ECHO m-%d\r\n", i);
			append(&buf, &len, line, (size_t)k);
			break;
		}
	}
	append(&buf, &len, "QUIT\r\nPING\r\n", 12);
	assert_int_equal(rc_open_rcvbuf(&r, D.port, 16 * 1024), 0);
	sender_start(&snd, &r, buf, len);
	/* Let the output pile up before reading any of it. */
	rc_sleep_ms(300);
	for (i = 0; i < n; i++) {
		assert_true(rch_reply(&r, &rep));
		switch (i % 3) {
		case 0:
			check_big_echo(&rep, i, BIG_ECHO + (size_t)i);
			break;
		case 1:
			td_snl_res(&snl, i % 6 + 1, &next, want, sizeof want);
			snl = next;
			assert_int_equal(rep.type, REPLY_STATUS);
			if (strcmp(rep.str, want) != 0)
				fail_msg("reply %d: expected '%s', got '%s'",
				    i, want, rep.str);
			break;
		default:
			snprintf(want, sizeof want, "m-%d", i);
			assert_int_equal(rep.type, REPLY_BULK);
			assert_string_equal(rep.str, want);
			break;
		}
		reply_free(&rep);
		if (i % 4 == 0)
			rc_sleep_ms(5);
	}
	rch_expect(&r, "+OK");
	rch_expect_eof(&r);
	assert_int_equal(pthread_join(snd.tid, NULL), 0);
	rc_close(&r);
	free(buf);
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/*
 * A line over proto-max-inline behind a reply the client has not read
 * yet, bigger than the kernel buffers: the big reply, the next, the
 * -LIMIT, then the close, all delivered.
 */
void
test_limit_close_delivers_the_last_replies(void **state)
{
	redisContext	*c = hr_connect(D.port);
	struct rconn	 r;
	struct sender	 snd;
	char		*buf = NULL;
	size_t		 len = 0, n = 100 * 1024;
	struct reply	 rep;
	char		*line;

	(void)state;
	line = malloc(n);
	assert_non_null(line);
	memset(line, 'y', n);
	append_big_echo(&buf, &len, 7, 80 * BIG_ECHO);
	append(&buf, &len, "ECHO last\r\n", 11);
	append(&buf, &len, line, n);
	free(line);
	assert_int_equal(rc_open_rcvbuf(&r, D.port, 16 * 1024), 0);
	sender_start(&snd, &r, buf, len);
	rc_sleep_ms(300);
	assert_true(rch_reply(&r, &rep));
	check_big_echo(&rep, 7, 80 * BIG_ECHO);
	reply_free(&rep);
	rch_expect(&r, "$last");
	rch_expect_err(&r, "LIMIT");
	rch_expect_eof(&r);
	assert_int_equal(pthread_join(snd.tid, NULL), 0);
	rc_close(&r);
	free(buf);
	EXPECT(c, "PONG", "PING");
	redisFree(c);
}

/* ------------------------------------------------------- introspection */

void
test_hello_switches_protocol(void **state)
{
	struct rconn	 r;
	struct reply	 rep;
	char		 got[1024];

	(void)state;
	td_raw_open(&r);
	td_raw_sends(&r, "HELLO 4\r\nHELLO x\r\nHELLO 3 AUTH a b\r\nHELLO\r\n");
	rch_expect_err(&r, "NOPROTO unsupported protocol version");
	rch_expect_err(&r, "ERR Protocol version");
	/* HELLO takes AUTH now: a user that is not "default" is refused. */
	rch_expect_err(&r, "WRONGPASS invalid username-password pair");
	/* RESP2: the map is a flat array. */
	assert_true(rch_reply(&r, &rep));
	reply_flat(&rep, got, sizeof got);
	reply_free(&rep);
	assert_non_null(strstr(got, "[$server $ludus $version $"));
	assert_non_null(strstr(got, "$proto :2 $id :"));
	assert_non_null(strstr(got,
	    "$mode $standalone $role $master $modules []]"));
	td_raw_sends(&r, "HELLO 3 SETNAME me\r\nGAME.INFO nosuch\r\n"
	    "DANDY.PLAY 2 abab9abcaa abab\r\nHELLO 2\r\n");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_MAP);
	reply_free(&rep);
	rch_expect_err(&r, "NOGAME");
	rch_expect(&r, "[:3 :1]");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_ARRAY);
	reply_free(&rep);
	rc_close(&r);
}

void
test_info_fields(void **state)
{
	static const char *const fields[] = { "# Server\r\n",
	    "ludus_version:" PACKAGE_VERSION "\r\n", "uptime_in_seconds:",
	    "# Clients\r\n", "connected_clients:1\r\n", "maxclients:",
	    "# Stats\r\n", "turns_committed:1\r\n", "commits:2\r\n",
	    "total_net_input_bytes:", "total_net_output_bytes:",
	    "# Persistence\r\n", "durability:normal\r\n", "store_size:",
	    "store_errors:0\r\n", "# Games\r\n", "games_ludo:1\r\n",
	    "games_snl:0\r\n", "games_dandy:0\r\n", "games_total:1\r\n" };
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	size_t		 i;

	(void)state;
	EXPECT(c, "OK", "LUDO.CREATE", "inf", "red", "blue");
	EXPECT(c, "MOVED", "LUDO.PLAY", "inf", "red", "6", "1");
	r = RUN(c, "INFO");
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	for (i = 0; i < NELEM(fields); i++)
		if (strstr(r->str, fields[i]) == NULL)
			fail_msg("INFO lacks '%s':\n%s", fields[i], r->str);
	freeReplyObject(r);
	r = RUN(c, "INFO", "games");
	assert_int_equal(r->type, REDIS_REPLY_STRING);
	assert_true(strncmp(r->str, "# Games\r\n", 9) == 0);
	assert_null(strstr(r->str, "# Server"));
	freeReplyObject(r);
	redisFree(c);
}

void
test_command_describes_every_command(void **state)
{
	redisContext	*c = hr_connect(D.port);
	redisReply	*r;
	long long	 count;
	size_t		 i;
	int		 seen_play = 0, seen_watch = 0;

	(void)state;
	r = RUN(c, "COMMAND", "COUNT");
	assert_int_equal(r->type, REDIS_REPLY_INTEGER);
	count = r->integer;
	freeReplyObject(r);
	assert_true(count >= 27);
	r = RUN(c, "COMMAND");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, count);
	for (i = 0; i < r->elements; i++) {
		const redisReply *e = r->element[i];

		/* What redis-cli checks before it trusts an entry. */
		assert_int_equal(e->type, REDIS_REPLY_ARRAY);
		assert_true(e->elements >= 4);
		assert_int_equal(e->element[0]->type, REDIS_REPLY_STRING);
		assert_int_equal(e->element[1]->type, REDIS_REPLY_INTEGER);
		assert_int_equal(e->element[3]->type, REDIS_REPLY_INTEGER);
		seen_play |= strcmp(e->element[0]->str, "ludo.play") == 0;
		seen_watch |= strcmp(e->element[0]->str, "game.watch") == 0;
	}
	assert_true(seen_play && seen_watch);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "INFO", "LUDO.PLAY", "nosuch");
	assert_int_equal(r->elements, 2);
	assert_string_equal(r->element[0]->element[0]->str, "ludo.play");
	assert_int_equal(r->element[1]->type, REDIS_REPLY_NIL);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "DOCS");
	assert_int_equal(r->type, REDIS_REPLY_ARRAY);
	assert_int_equal(r->elements, 2 * count);
	freeReplyObject(r);
	r = RUN(c, "COMMAND", "LIST");
	assert_int_equal(r->elements, count);
	freeReplyObject(r);
	EXPECT_ERR(c, "ERR unknown subcommand", "COMMAND", "FROB");
	EXPECT_ERR(c, "ERR wrong number of arguments for 'ECHO'", "ECHO");
	EXPECT_ERR(c, "ERR unknown command", "FROB");
	redisFree(c);
}

/* --------------------------------------------------------------- limits */

void
test_maxclients_refuses_the_next(void **state)
{
	redisContext	*a = hr_connect(D.port), *b = hr_connect(D.port), *c;
	struct rconn	 r;
	int		 tries;

	(void)state;
	still_served(a);
	still_served(b);
	td_raw_open(&r);
	rch_expect_err(&r, "ERR max number of clients reached");
	rch_expect_eof(&r);
	rc_close(&r);
	redisFree(a);
	/* Once one has gone, a new one is welcome again. */
	for (tries = 0; tries < 500; tries++) {
		redisReply *rep;

		c = hr_connect(D.port);
		rep = redisCommand(c, "PING");
		if (rep != NULL && rep->type == REDIS_REPLY_STATUS) {
			freeReplyObject(rep);
			redisFree(c);
			break;
		}
		if (rep != NULL)
			freeReplyObject(rep);
		redisFree(c);
		usleep(10000);
	}
	assert_true(tries < 500);
	redisFree(b);
}

/* A reply bigger than client-output-limit costs the client its
 * connection, and nobody else anything. */
void
test_output_limit_drops_the_client(void **state)
{
	redisContext	*ok = hr_connect(D.port);
	struct rconn	 r;
	struct reply	 rep;
	char		*big, *req;
	size_t		 n = 200 * 1024;

	(void)state;
	big = malloc(n);
	req = malloc(n + 64);
	assert_true(big != NULL && req != NULL);
	memset(big, 'x', n);
	td_raw_open(&r);
	snprintf(req, 64, "*2\r\n$4\r\nECHO\r\n$%d\r\n", 50 * 1024);
	td_raw_sends(&r, req);
	td_raw_send(&r, big, 50 * 1024);
	td_raw_sends(&r, "\r\n");
	assert_true(rch_reply(&r, &rep));
	assert_int_equal(rep.type, REPLY_BULK);
	assert_int_equal(rep.len, 50 * 1024);
	reply_free(&rep);
	rc_close(&r);
	td_raw_open(&r);
	snprintf(req, 64, "*2\r\n$4\r\nECHO\r\n$%zu\r\n", n);
	td_raw_sends(&r, req);
	td_raw_send(&r, big, n);
	td_raw_sends(&r, "\r\n");
	rch_expect_eof(&r);
	rc_close(&r);
	still_served(ok);
	free(big);
	free(req);
	redisFree(ok);
}

void
test_idle_timeout_spares_watchers(void **state)
{
	redisContext	*w = hr_connect(D.port);
	struct rconn	 r;

	(void)state;
	EXPECT(w, "OK", "LUDO.CREATE", "idle", "red", "blue");
	EXPECT_JOINED(w, "watch idle 1", "GAME.WATCH", "idle");
	td_raw_open(&r);
	td_raw_sends(&r, "PING\r\n");
	rch_expect(&r, "+PONG");
	rch_expect_eof(&r);	/* within HR_TIMEOUT_MS; timeout is 1s */
	rc_close(&r);
	sleep(1);
	EXPECT_JOINED(w, "pong ", "PING");
	redisFree(w);
}

void
test_sighup_reopens_log(void **state)
{
	char		 path[PATH_MAX + 16], moved[PATH_MAX + 32];
	const char	*extra[] = { "--logfile", path, NULL };
	FILE		*f;
	char		 line[512];
	int		 tries, found = 0;

	(void)state;
	snprintf(path, sizeof path, "%s/hup.log", D.dir);
	snprintf(moved, sizeof moved, "%s/hup.log.1", D.dir);
	assert_int_equal(daemon_restart(&D, extra), 0);
	assert_int_equal(rename(path, moved), 0);
	kill(D.pid, SIGHUP);
	for (tries = 0; tries < 500 && !found; tries++) {
		usleep(10000);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL)
			found |= strstr(line, "reopened") != NULL;
		fclose(f);
	}
	assert_true(found);
	assert_int_equal(daemon_stop(&D, SIGTERM), 0);
	/* The stop went to the new file. */
	f = fopen(path, "r");
	assert_non_null(f);
	found = 0;
	while (fgets(line, sizeof line, f) != NULL)
		found |= strstr(line, "stopped") != NULL;
	fclose(f);
	assert_true(found);
}
