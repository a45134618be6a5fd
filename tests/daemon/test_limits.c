/*
 * The protocol limits of ludusd, black box: each test starts the real
 * daemon with the limit it looks at (small where that makes the test
 * fast), drives it over loopback with tests/rclient.c, and checks that
 * the client over the limit gets what doc/protocol.md section 15 says
 * while another client keeps being served, and that the daemon's open
 * descriptors come back to where they were.  Figures (latencies, memory)
 * are printed as TAP comments and asserted only with wide margins: the
 * suite also runs under ASan on busy machines.  The teardown stops the
 * daemon with SIGTERM and requires exit status 0, so a leak or a
 * sanitizer report in the daemon fails the test that caused it.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/reply.h"
#include "util/util.h"
#include "rc_helper.h"

#define SLOW_MS		1000	/* "served promptly": a generous bound */
#define CLOSE_MS	1000	/* "closed within 100 ms", with margin */
#define WATCHDOG_S	600	/* the whole program, at most */
/*
 * Growth of the daemon's VmRSS allowed while it holds a client's unread
 * replies.  Under ASan freed memory sits in a quarantine (256 MB) and
 * RSS says little, so the bound there is only a sanity check.
 */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_GROWTH_KB	(1024 * 1024)
#else
#define RSS_GROWTH_KB	(8 * 1024)
#endif

static struct daemon	 D;
static int		 fd_base;	/* the daemon's fds before clients */

/* ----------------------------------------------------------- helpers */

static void
start(const char *const *extra)
{
	if (daemon_launch(&D, extra) == -1)
		fail_msg("ludusd does not start");
	fd_base = proc_fd_count(D.pid);
	assert_true(fd_base > 0);
}

static int
teardown(void **state)
{
	(void)state;
	return daemon_teardown(&D);
}

/* PING's round trip in milliseconds; fails unless PONG comes back. */
static int64_t
ping_ms(struct rconn *c)
{
	struct reply	 r = { 0 };
	int64_t		 t0 = rc_now_us();

	assert_int_equal(rc_call(c, &r, IO_MS, "PING", NULL), 1);
	assert_true(rc_is_status(&r, "PONG"));
	reply_free(&r);
	return (rc_now_us() - t0) / 1000;
}

static void
expect_error(struct rconn *c, const char *code)
{
	struct reply	 r = { 0 };

	assert_int_equal(rc_read(c, &r, IO_MS), 1);
	if (!rc_is_error(&r, code))
		fail_msg("expected -%s, got type %d '%s'", code, (int)r.type,
		    r.str != NULL ? r.str : "");
	reply_free(&r);
}

/* The connection ends (FIN or reset) within ms; the time it took. */
static int64_t
expect_close(struct rconn *c, int ms)
{
	struct reply	 r = { 0 };
	int64_t		 t0 = rc_now_ms();
	int		 rv;

	rv = rc_read(c, &r, ms);
	if (rv == 1)
		fail_msg("a reply after the error: type %d '%s'", (int)r.type,
		    r.str != NULL ? r.str : "");
	assert_int_equal(rv, 0);
	return rc_now_ms() - t0;
}

/*
 * A checker connection chk that made "long", a DandyLand game of moves
 * draws (large replies), and a reader x with a receive buffer of rcvbuf
 * bytes, slow to drain.
 */
static void
open_long_game(struct rconn *chk, int moves, struct rconn *x, int rcvbuf)
{
	rch_open(chk, D.port);
	rch_long_game(chk, "long", moves);
	assert_int_equal(rc_open_rcvbuf(x, D.port, rcvbuf), 0);
}

/* Waits until INFO shows n connected clients (the asking one included). */
static int
wait_clients(struct rconn *c, long long n, int ms)
{
	int64_t	 end = rc_now_ms() + ms;

	while (rch_info_field(c, "connected_clients") != n) {
		if (rc_now_ms() > end)
			return -1;
		rc_sleep_ms(10);
	}
	return 0;
}

/* ------------------------------------------------------ array headers */

/*
 * A negative array count (*-10) announces nothing, as in Redis: it gets
 * no reply and no close, and the requests after it are served.
 */
static void
test_negative_array_count_is_skipped(void **state)
{
	static const char	 in[] = "*-10\r\n*1\r\n$4\r\nPING\r\n"
				    "*-1\r\nECHO x\r\n";
	struct rconn		 c;
	struct reply		 r = { 0 };

	(void)state;
	start(NULL);
	rch_open(&c, D.port);
	assert_int_equal(rc_write(&c, in, sizeof in - 1), 0);
	assert_int_equal(rc_read(&c, &r, IO_MS), 1);
	if (!rc_is_status(&r, "PONG"))
		fail_msg("expected +PONG, got type %d '%s'", (int)r.type,
		    r.str != NULL ? r.str : "");
	reply_free(&r);
	assert_int_equal(rc_read(&c, &r, IO_MS), 1);
	assert_int_equal(r.type, REPLY_BULK);
	assert_string_equal(r.str, "x");
	reply_free(&r);
	rc_close(&c);
	rch_fds_back(&D, fd_base);
}

/* ------------------------------------------------------- inline lines */

/*
 * An inline line over proto-max-inline: one -LIMIT and a close, quickly,
 * while another client is served.
 */
static void
test_inline_over_limit_gets_limit_and_close(void **state)
{
	static const char *const extra[] = { "--proto-max-inline", "1kb",
	    "--durability", "off", NULL };
	struct rconn	 a, b;
	char		 line[2048];
	int64_t		 t0, t_err, t_close, lat;

	(void)state;
	start(extra);
	rch_open(&a, D.port);
	rch_open(&b, D.port);
	ping_ms(&b);
	memset(line, 'x', sizeof line);
	t0 = rc_now_ms();
	assert_int_equal(rc_write(&a, line, sizeof line), 0);
	expect_error(&a, "LIMIT");
	t_err = rc_now_ms() - t0;
	expect_close(&a, IO_MS);
	t_close = rc_now_ms() - t0;
	lat = ping_ms(&b);
	rc_note("1000-byte limit, 2048-byte line: -LIMIT after %lld ms, closed "
	    "after %lld ms; other client's PING %lld ms", (long long)t_err,
	    (long long)t_close, (long long)lat);
	assert_true(t_close < CLOSE_MS);
	rc_close(&a);
	rc_close(&b);
	rch_fds_back(&D, fd_base);
}

/*
 * Writes `total` bytes of line without a newline to a, `chunk` at a time
 * with `pause_ms` between chunks, until the daemon answers; b's PING
 * latency is measured after every chunk.  Returns the bytes sent.
 */
static size_t
feed_line(struct rconn *a, struct rconn *b, size_t total, size_t chunk,
    int pause_ms, int64_t *maxlat)
{
	struct pollfd	 pfd = { a->fd, POLLIN | POLLOUT, 0 };
	char		*buf = xcalloc(1, chunk);
	size_t		 sent = 0, n;
	ssize_t		 w;
	int64_t		 lat;

	memset(buf, 'a', chunk);
	*maxlat = 0;
	while (sent < total) {
		pfd.revents = 0;
		if (poll(&pfd, 1, IO_MS) != 1)
			fail_msg("line: the socket is stuck");
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
			break;		/* the daemon answered */
		n = total - sent < chunk ? total - sent : chunk;
		w = send(a->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (w == -1)
			break;
		sent += (size_t)w;
		lat = ping_ms(b);
		if (lat > *maxlat)
			*maxlat = lat;
		if (pause_ms > 0)
			rc_sleep_ms(pause_ms);
	}
	free(buf);
	return sent;
}

/* A 1 MiB line without a newline at the default 64 KiB limit. */
static void
test_megabyte_line_does_not_hang(void **state)
{
	static const char *const extra[] = { "--durability", "off", NULL };
	struct rconn	 a, b;
	size_t		 sent;
	int64_t		 maxlat;

	(void)state;
	start(extra);
	rch_open(&a, D.port);
	rch_open(&b, D.port);
	sent = feed_line(&a, &b, 1024 * 1024, 64 * 1024, 0, &maxlat);
	expect_error(&a, "LIMIT");
	expect_close(&a, IO_MS);
	rc_note("1 MiB line: -LIMIT and close after %zu bytes sent; other "
	    "client's worst PING %lld ms", sent, (long long)maxlat);
	assert_true(maxlat < SLOW_MS);
	ping_ms(&b);
	rc_close(&a);
	rc_close(&b);
	rch_fds_back(&D, fd_base);
}

/* 200 KiB trickled 2 KiB per 10 ms: cut at the limit, nobody waits. */
static void
test_trickled_line_is_cut_at_the_limit(void **state)
{
	static const char *const extra[] = { "--durability", "off", NULL };
	struct rconn	 a, b;
	size_t		 sent;
	int64_t		 maxlat, t0 = rc_now_ms();

	(void)state;
	start(extra);
	rch_open(&a, D.port);
	rch_open(&b, D.port);
	sent = feed_line(&a, &b, 200 * 1024, 2 * 1024, 10, &maxlat);
	expect_error(&a, "LIMIT");
	expect_close(&a, IO_MS);
	rc_note("trickled line: -LIMIT after %zu bytes, %lld ms; other "
	    "client's worst PING %lld ms", sent, (long long)(rc_now_ms() -
	    t0), (long long)maxlat);
	assert_true(sent >= 64 * 1024 && sent < 200 * 1024);
	assert_true(maxlat < SLOW_MS);
	rc_close(&a);
	rc_close(&b);
	rch_fds_back(&D, fd_base);
}

/* A 200 KiB bulk argument trickled in: legal, served, nobody waits. */
static void
test_trickled_bulk_is_served(void **state)
{
	static const char *const extra[] = { "--durability", "off", NULL };
	static const char head[] = "*2\r\n$4\r\nECHO\r\n$204800\r\n";
	struct rconn	 a, b;
	struct reply	 r = { 0 };
	char		 chunk[2048];
	size_t		 sent, i;
	int64_t		 lat, maxlat = 0, t0 = rc_now_ms();

	(void)state;
	start(extra);
	rch_open(&a, D.port);
	rch_open(&b, D.port);
	assert_int_equal(rc_write(&a, head, sizeof head - 1), 0);
	for (sent = 0; sent < 204800; sent += sizeof chunk) {
		for (i = 0; i < sizeof chunk; i++)
			chunk[i] = (char)('a' + (sent + i) % 26);
		assert_int_equal(rc_write(&a, chunk, sizeof chunk), 0);
		if ((lat = ping_ms(&b)) > maxlat)
			maxlat = lat;
		rc_sleep_ms(2);
	}
	assert_int_equal(rc_write(&a, "\r\n", 2), 0);
	assert_int_equal(rc_read(&a, &r, IO_MS), 1);
	assert_int_equal(r.type, REPLY_BULK);
	assert_int_equal(r.len, 204800);
	for (i = 0; i < r.len; i++)
		if (r.str[i] != (char)('a' + i % 26))
			fail_msg("ECHO byte %zu differs", i);
	reply_free(&r);
	rc_note("200 KiB bulk trickled in %lld ms and echoed; other client's "
	    "worst PING %lld ms", (long long)(rc_now_ms() - t0),
	    (long long)maxlat);
	assert_true(maxlat < SLOW_MS);
	ping_ms(&a);
	rc_close(&a);
	rc_close(&b);
	rch_fds_back(&D, fd_base);
}

/* ---------------------------------------------------------- maxclients */

static void
test_maxclients_refuses_the_next(void **state)
{
	static const char *const extra[] = { "--maxclients", "5", NULL };
	struct rconn	 c[5], extra_c;
	int64_t		 t0, t_close;
	int		 i;

	(void)state;
	start(extra);
	for (i = 0; i < 5; i++) {
		rch_open(&c[i], D.port);
		ping_ms(&c[i]);
	}
	t0 = rc_now_ms();
	rch_open(&extra_c, D.port);
	/* Redis's words, which redis-py turns into a ConnectionError. */
	expect_error(&extra_c, "ERR max number of clients reached");
	expect_close(&extra_c, IO_MS);
	t_close = rc_now_ms() - t0;
	rc_close(&extra_c);
	rc_note("maxclients 5: the 6th got -ERR and was closed after %lld ms",
	    (long long)t_close);
	assert_true(t_close < CLOSE_MS);
	for (i = 0; i < 5; i++)
		ping_ms(&c[i]);
	/* One leaves: a newcomer is served once the daemon has seen it. */
	rc_close(&c[4]);
	assert_int_equal(wait_clients(&c[0], 4, IO_MS), 0);
	rch_open(&c[4], D.port);
	ping_ms(&c[4]);
	assert_int_equal(rch_info_field(&c[0], "rejected_connections") >= 1, 1);
	for (i = 0; i < 5; i++)
		rc_close(&c[i]);
	rch_fds_back(&D, fd_base);
}

/* -------------------------------------------------------- output cap */

/*
 * Pipelines n HISTORY requests of a long game on a connection with a small
 * receive buffer that never reads, and samples the daemon's memory while
 * it serves them.  Returns the largest growth of VmRSS in KiB; *dropped
 * is set when the daemon dropped the connection.
 */
static long
flood_history(struct rconn *x, struct rconn *chk, const char *id, int n,
    int *dropped)
{
	const char	*argv[] = { "HISTORY", id, "1", "10000" };
	char		*buf = NULL;
	size_t		 len = 0, cap = 0;
	long		 rss0, rss, grow = 0;
	int64_t		 end, still = 0;
	int		 i, queued, last = -1;

	rss0 = proc_rss_kb(D.pid);
	for (i = 0; i < n; i++)
		rc_encode(&buf, &len, &cap, 4, argv);
	/* It fails only if the daemon has dropped x already. */
	(void)rc_write(x, buf, len);
	free(buf);
	*dropped = 0;
	/*
	 * Until dropped, or until nothing more arrives for x for 500 ms (its
	 * receive queue is full: the daemon is holding the rest).
	 */
	for (end = rc_now_ms() + IO_MS; rc_now_ms() < end; ) {
		rc_sleep_ms(20);
		if ((rss = proc_rss_kb(D.pid) - rss0) > grow)
			grow = rss;
		if (rch_info_field(chk, "connected_clients") == 1) {
			*dropped = 1;
			break;
		}
		if (ioctl(x->fd, FIONREAD, &queued) == -1)
			fail_msg("FIONREAD: %s", strerror(errno));
		if (queued != last) {
			last = queued;
			still = rc_now_ms();
		} else if (rc_now_ms() - still > 500)
			break;
	}
	if ((rss = proc_rss_kb(D.pid) - rss0) > grow)
		grow = rss;
	return grow;
}

/* A client that asks for much and never reads is dropped at the cap. */
static void
test_output_cap_drops_a_client_that_never_reads(void **state)
{
	static const char *const extra[] = { "--client-output-limit", "512kb",
	    "--durability", "off", NULL };
	struct rconn	 x, chk;
	long		 grow;
	int		 dropped;
	int64_t		 t0;

	(void)state;
	start(extra);
	open_long_game(&chk, 2000, &x, 64 * 1024);
	ping_ms(&x);
	t0 = rc_now_ms();
	grow = flood_history(&x, &chk, "long", 5000, &dropped);
	rc_note("5000 HISTORY requests of 2000 rows (about 200 MB of replies) "
	    "unread: dropped=%d after %lld ms, daemon VmRSS grew by at most "
	    "%ld KiB", dropped, (long long)(rc_now_ms() - t0), grow);
	assert_true(dropped);
	assert_true(grow < RSS_GROWTH_KB);
	rc_close(&x);
	ping_ms(&chk);
	rc_close(&chk);
	rch_fds_back(&D, fd_base);
}

/*
 * Under the default cap the same client is only paused: memory stays
 * bounded, and once it reads it gets every reply.
 */
static void
test_slow_reader_is_paused_not_dropped(void **state)
{
	static const char *const extra[] = { "--durability", "off", NULL };
	struct rconn	 x, chk;
	struct reply	 r = { 0 };
	long		 grow;
	int		 dropped, i, n = 400;

	(void)state;
	start(extra);
	open_long_game(&chk, 2000, &x, 64 * 1024);
	ping_ms(&x);
	grow = flood_history(&x, &chk, "long", n, &dropped);
	rc_note("%d HISTORY requests (about %d MB) unread at the default cap: "
	    "dropped=%d, daemon VmRSS grew by at most %ld KiB", n, n * 40 /
	    1000, dropped, grow);
	assert_false(dropped);
	assert_true(grow < RSS_GROWTH_KB);
	ping_ms(&chk);
	for (i = 0; i < n; i++) {
		assert_int_equal(rc_read(&x, &r, IO_MS), 1);
		assert_int_equal(r.type, REPLY_ARRAY);
		assert_int_equal(r.n, 2000);
		reply_free(&r);
	}
	ping_ms(&x);
	rc_close(&x);
	rc_close(&chk);
	rch_fds_back(&D, fd_base);
}

/*
 * An honest slow reader of a GAME.WATCH backlog larger than the output cap is
 * never cut off: the backlog is sent in chunks as the socket drains.
 */
static void
test_watch_backlog_streams_to_a_slow_reader(void **state)
{
	static const char *const extra[] = { "--client-output-limit", "256kb",
	    "--durability", "off", NULL };
	struct rconn	 w, chk;
	struct reply	 r = { 0 };
	long long	 next = 1;
	int64_t		 t0;
	int		 f;

	(void)state;
	start(extra);
	open_long_game(&chk, 5000, &w, 16 * 1024);
	t0 = rc_now_ms();
	assert_int_equal(rc_send(&w, "GAME.WATCH", "long", "FROM", "0", NULL), 0);
	assert_int_equal(rc_read(&w, &r, IO_MS), 1);
	assert_int_equal(r.type, REPLY_ARRAY);
	assert_string_equal(r.elem[0].str, "watch");
	reply_free(&r);
	while (next <= 5000) {
		while (next <= 5000 && rc_parse_buffered(&w, &r)) {
			assert_int_equal(r.type, REPLY_ARRAY);
			assert_int_equal(r.n, 6);
			assert_string_equal(r.elem[0].str, "move");
			assert_int_equal(r.elem[2].integer, next);
			next++;
			reply_free(&r);
		}
		if (next > 5000)
			break;
		rc_sleep_ms(2);
		if ((f = rc_fill(&w, IO_MS)) <= 0)
			fail_msg("GAME.WATCH backlog: %s at move %lld", f == 0 ?
			    "dropped" : "stalled", next);
	}
	rc_note("GAME.WATCH FROM 0 of 5000 moves (about 350 KB) read slowly through "
	    "a 16 KB buffer with a 256 KB output cap: all received in %lld "
	    "ms", (long long)(rc_now_ms() - t0));
	assert_int_equal(rc_call(&w, &r, IO_MS, "PING", NULL), 1);
	assert_int_equal(r.type, REPLY_ARRAY);
	reply_free(&r);
	rc_close(&w);
	rc_close(&chk);
	rch_fds_back(&D, fd_base);
}

/* ------------------------------------------------------- idle timeout */

static void
test_idle_timeout_closes_idle_clients(void **state)
{
	static const char *const extra[] = { "--timeout", "1", NULL };
	struct rconn	 c[4];		/* idle, half line, half bulk, busy */
	const char	*what[3] = { "idle", "half an inline line",
	    "half a bulk string" };
	int64_t		 t0, closed[3] = { -1, -1, -1 }, next_ping;
	int		 i;

	(void)state;
	start(extra);
	for (i = 0; i < 4; i++)
		rch_open(&c[i], D.port);
	ping_ms(&c[0]);
	assert_int_equal(rc_write(&c[1], "PING", 4), 0);
	assert_int_equal(rc_write(&c[2], "*1\r\n$4\r\nPI", 11), 0);
	t0 = rc_now_ms();
	next_ping = t0;
	/* The busy client must outlive the timeout twice over. */
	while (rc_now_ms() - t0 < 8000 && (rc_now_ms() - t0 < 2500 ||
	    closed[0] < 0 || closed[1] < 0 || closed[2] < 0)) {
		if (rc_now_ms() >= next_ping) {
			ping_ms(&c[3]);
			next_ping += 250;
		}
		for (i = 0; i < 3; i++) {
			struct pollfd pfd = { c[i].fd, POLLIN, 0 };

			if (closed[i] < 0 && poll(&pfd, 1, 0) == 1) {
				assert_int_equal(rc_fill(&c[i], 0), 0);
				closed[i] = rc_now_ms() - t0;
			}
		}
		rc_sleep_ms(5);
	}
	for (i = 0; i < 3; i++) {
		rc_note("timeout 1: %s client closed after %lld ms", what[i],
		    (long long)closed[i]);
		assert_true(closed[i] >= 500 && closed[i] <= 8000);
	}
	ping_ms(&c[3]);		/* the busy one is still served */
	for (i = 0; i < 4; i++)
		rc_close(&c[i]);
	rch_fds_back(&D, fd_base);
}

/* ------------------------------------------------------------ fairness */

#define FLOOD	100000

struct flood {
	struct rconn	*c;
	size_t		 want;		/* reply bytes expected */
	size_t		 got;
	volatile int	 done;
	int		 err;
};

static void *
flood_reader(void *arg)
{
	struct flood	*f = arg;
	char		 buf[65536];
	ssize_t		 n;

	while (f->got < f->want) {
		struct pollfd pfd = { f->c->fd, POLLIN, 0 };

		if (poll(&pfd, 1, IO_MS) != 1) {
			f->err = ETIMEDOUT;
			break;
		}
		if ((n = recv(f->c->fd, buf, sizeof buf, 0)) <= 0) {
			f->err = n == 0 ? EPIPE : errno;
			break;
		}
		f->got += (size_t)n;
	}
	f->done = 1;
	return NULL;
}

static void *
flood_writer(void *arg)
{
	static const char ping[] = "*1\r\n$4\r\nPING\r\n";
	struct flood	*f = arg;
	size_t		 len = (sizeof ping - 1) * FLOOD, i;
	char		*buf = malloc(len);

	if (buf == NULL) {
		f->err = ENOMEM;
		return NULL;
	}
	for (i = 0; i < FLOOD; i++)
		memcpy(buf + i * (sizeof ping - 1), ping, sizeof ping - 1);
	if (rc_write(f->c, buf, len) == -1)
		f->err = errno;
	free(buf);
	return NULL;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* 100,000 pipelined PINGs on one connection do not starve another. */
static void
test_flood_does_not_starve_others(void **state)
{
	static const char *const extra[] = { "--durability", "off", NULL };
	struct rconn	 fc, probe;
	struct flood	 f;
	pthread_t	 rt, wt;
	int64_t		 lat[20000], t0;
	size_t		 n = 0;

	(void)state;
	start(extra);
	rch_open(&fc, D.port);
	rch_open(&probe, D.port);
	ping_ms(&probe);
	memset(&f, 0, sizeof f);
	f.c = &fc;
	f.want = (size_t)FLOOD * strlen("+PONG\r\n");
	t0 = rc_now_ms();
	assert_int_equal(pthread_create(&rt, NULL, flood_reader, &f), 0);
	assert_int_equal(pthread_create(&wt, NULL, flood_writer, &f), 0);
	while (!f.done && n < sizeof lat / sizeof lat[0]) {
		int64_t us = rc_now_us();
		struct reply r = { 0 };

		assert_int_equal(rc_call(&probe, &r, IO_MS, "PING", NULL), 1);
		assert_true(rc_is_status(&r, "PONG"));
		reply_free(&r);
		lat[n++] = rc_now_us() - us;
		rc_sleep_ms(2);
	}
	pthread_join(wt, NULL);
	pthread_join(rt, NULL);
	assert_int_equal(f.err, 0);
	assert_int_equal(f.got, f.want);
	qsort(lat, n, sizeof lat[0], cmp_i64);
	rc_note("100000 pipelined PINGs served in %lld ms; %zu probe PINGs "
	    "meanwhile: median %.2f ms, p99 %.2f ms, max %.2f ms",
	    (long long)(rc_now_ms() - t0), n,
	    n > 0 ? (double)lat[n / 2] / 1000 : 0.0,
	    n > 0 ? (double)lat[n * 99 / 100] / 1000 : 0.0,
	    n > 0 ? (double)lat[n - 1] / 1000 : 0.0);
	assert_true(n > 0);
	assert_true(lat[n - 1] < SLOW_MS * 1000);
	rc_close(&fc);
	rc_close(&probe);
	rch_fds_back(&D, fd_base);
}

/* -------------------------------------------------- backlogs, fairness */

/* Reads a backlog as fast as it comes, counting one mark per entry. */
struct drain {
	struct rconn	*c;
	const char	*mark;
	long		 want;		/* entries */
	long		 got;		/* atomic: entries read so far */
	size_t		 bytes;		/* read in all */
	int		 err;
};

static void *
drain_main(void *arg)
{
	struct drain	*d = arg;
	size_t		 ml = strlen(d->mark), keep = 0, i;
	char		*buf = malloc(256 * 1024 + 64);
	ssize_t		 n;
	long		 got = 0;

	while (buf != NULL && got < d->want) {
		struct pollfd pfd = { d->c->fd, POLLIN, 0 };

		if (poll(&pfd, 1, IO_MS) != 1 ||
		    (n = recv(d->c->fd, buf + keep, 256 * 1024, 0)) <= 0) {
			d->err = EPIPE;
			break;
		}
		d->bytes += (size_t)n;
		n += (ssize_t)keep;
		for (i = 0; i + ml <= (size_t)n; i++)
			got += memcmp(buf + i, d->mark, ml) == 0;
		/* A mark across two reads is counted once, in the second. */
		keep = (size_t)n < ml - 1 ? (size_t)n : ml - 1;
		memmove(buf, buf + n - (ssize_t)keep, keep);
		__atomic_store_n(&d->got, got, __ATOMIC_RELEASE);
	}
	free(buf);
	return NULL;
}

/*
 * One client reads a long backlog as fast as the daemon writes it; once
 * its first entries have come, another client asks INFO.  INFO must be
 * served while the backlog is still being written: its
 * total_net_output_bytes (what the daemon had queued by then) is below
 * the backlog's size.  A daemon that wrote a whole backlog before it
 * read another request (a flush that ran again without polling) fails
 * this whatever the machine's speed, and a fair one passes unless the
 * test stalls for as long as the whole backlog takes.
 */
static void
backlog_is_interleaved(const char *const *request, int argc,
    const char *mark, long entries)
{
	struct rconn	 w, p;
	struct drain	 d;
	pthread_t	 t;
	char		*buf = NULL;
	size_t		 len = 0, cap = 0;
	long long	 base, then;
	int64_t		 end;

	start((const char *const []){ "--durability", "off", NULL });
	rch_open(&w, D.port);
	rch_open(&p, D.port);
	rch_long_game(&w, "long", (int)entries);
	base = rch_info_field(&p, "total_net_output_bytes");
	memset(&d, 0, sizeof d);
	d.c = &w;
	d.mark = mark;
	d.want = entries;
	rc_encode(&buf, &len, &cap, argc, request);
	assert_int_equal(rc_write(&w, buf, len), 0);
	free(buf);
	assert_int_equal(pthread_create(&t, NULL, drain_main, &d), 0);
	end = rc_now_ms() + IO_MS;
	while (__atomic_load_n(&d.got, __ATOMIC_ACQUIRE) < 16 &&
	    rc_now_ms() < end)
		rc_sleep_ms(1);
	then = rch_info_field(&p, "total_net_output_bytes");
	pthread_join(t, NULL);
	assert_int_equal(d.err, 0);
	assert_int_equal(d.got, entries);
	rc_note("%s of %ld entries: INFO served after %lld of its %zu bytes",
	    request[0], entries, then - base, d.bytes);
	assert_true(then - base < (long long)d.bytes);
	rc_close(&w);
	rc_close(&p);
	rch_fds_back(&D, fd_base);
}

static void
test_watch_backlog_does_not_hold_up_others(void **state)
{
	static const char *const req[] = { "GAME.WATCH", "long", "FROM", "0" };

	(void)state;
	backlog_is_interleaved(req, 4, "\r\nmove\r\n", 100000);
}

static void
test_long_xrange_does_not_hold_up_others(void **state)
{
	static const char *const req[] = { "XRANGE", "long", "-", "+" };

	(void)state;
	backlog_is_interleaved(req, 4, "-0\r\n*6\r\n", 100000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_negative_array_count_is_skipped,
		    teardown),
		cmocka_unit_test_teardown(
		    test_inline_over_limit_gets_limit_and_close, teardown),
		cmocka_unit_test_teardown(test_megabyte_line_does_not_hang,
		    teardown),
		cmocka_unit_test_teardown(
		    test_trickled_line_is_cut_at_the_limit, teardown),
		cmocka_unit_test_teardown(test_trickled_bulk_is_served,
		    teardown),
		cmocka_unit_test_teardown(test_maxclients_refuses_the_next,
		    teardown),
		cmocka_unit_test_teardown(
		    test_output_cap_drops_a_client_that_never_reads, teardown),
		cmocka_unit_test_teardown(
		    test_slow_reader_is_paused_not_dropped, teardown),
		cmocka_unit_test_teardown(
		    test_watch_backlog_streams_to_a_slow_reader, teardown),
		cmocka_unit_test_teardown(
		    test_idle_timeout_closes_idle_clients, teardown),
		cmocka_unit_test_teardown(test_flood_does_not_starve_others,
		    teardown),
		cmocka_unit_test_teardown(
		    test_watch_backlog_does_not_hold_up_others, teardown),
		cmocka_unit_test_teardown(
		    test_long_xrange_does_not_hold_up_others, teardown),
	};

	signal(SIGPIPE, SIG_IGN);
	alarm(WATCHDOG_S);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
