/*
 * bench/idle: what an idle client costs ludusd in memory.
 *
 *	idle -p port (--pid PID | --pidfile FILE) [-n connections]
 *	    [--settle seconds]
 *
 * It warms the daemon up with a few requests, reads its VmRSS, then opens
 * n connections to 127.0.0.1:port and sends PING on each, waiting for
 * +PONG, so every connection has been accepted and has served a request
 * (its buffers and parser have been used at least once).  It then leaves
 * them idle for a short settle and reads VmRSS again; then it pings every
 * connection once more (a connection the daemon dropped fails the run)
 * and reads VmRSS a third time.  The cost per connection is the larger
 * of the two idle readings, less the first, over n.
 *
 * VmRSS counts the daemon's user-space memory only; the kernel's socket
 * buffers are not in it, so /proc/net/sockstat is printed beside it.
 *
 * Output, last line:
 *	idle connections=N rss_before_kib=.. rss_after_kib=.. per_conn_bytes=..
 *	target_per_conn_bytes=4096 holds=yes|no
 * Exit status 0 when the measure was taken (whether the target holds or
 * not), 1 when a connection failed, 2 on a usage error.
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define TARGET_PER_CONN	4096	/* bytes of RSS an idle client may cost */
#define BATCH		64	/* connects before their replies are read */
#define WARMUP_PINGS	16
#define IO_TIMEOUT	10	/* seconds without a reply: a failure */
#define EXTRA_FDS	64	/* stdio, the warm-up socket, slack */

static const char ping[] = "*1\r\n$4\r\nPING\r\n";
static const char pong[] = "+PONG\r\n";

struct opts {
	int	 port;
	long	 pid;
	int	 n;
	int	 settle;
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: idle -p port (--pid PID | --pidfile FILE) [-n connections]\n"
	    "            [--settle seconds]\n"
	    "\n"
	    "Opens n idle connections to ludusd on 127.0.0.1 (each served one\n"
	    "PING) and prints what they cost in the daemon's VmRSS.\n"
	    "\n"
	    "  -p port          ludusd's port\n"
	    "  --pid PID        ludusd's process id\n"
	    "  --pidfile FILE   ... or the file holding it\n"
	    "  -n n             connections (10000)\n"
	    "  --settle s       seconds idle before measuring (2)\n");
}

/* ------------------------------------------------------------- helpers */

static int
opt_int(const char *arg, int64_t min, int64_t max, const char *what,
    int64_t *out)
{
	const char	*errstr;

	if (parse_int64(arg, min, max, out, &errstr) == -1) {
		fprintf(stderr, "idle: %s: %s (%lld-%lld)\n", what, errstr,
		    (long long)min, (long long)max);
		return -1;
	}
	return 0;
}

static int
read_pidfile(const char *path, long *pid)
{
	char	 buf[32];
	FILE	*f;
	size_t	 len;
	int64_t	 v;

	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "idle: %s: %s\n", path, strerror(errno));
		return -1;
	}
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	if (opt_int(buf, 1, INT32_MAX, path, &v) == -1)
		return -1;
	*pid = (long)v;
	return 0;
}

/* The value in kB of one "Key:   123 kB" line of /proc/PID/status. */
static long
status_kib(long pid, const char *key)
{
	char	 path[64], line[256];
	FILE	*f;
	size_t	 klen = strlen(key);
	long	 v = -1;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		char		*p = line + klen, *end;
		int64_t		 x;
		const char	*errstr;

		if (strncmp(line, key, klen) != 0 || *p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		end = p + strspn(p, "0123456789");
		*end = '\0';
		if (parse_int64(p, 0, INT64_MAX, &x, &errstr) == 0)
			v = (long)x;
		break;
	}
	fclose(f);
	return v;
}

/* The "TCP:" line of /proc/net/sockstat, without its newline. */
static void
sockstat_tcp(char *out, size_t size)
{
	char	 line[256];
	FILE	*f;

	snprintf(out, size, "?");
	if ((f = fopen("/proc/net/sockstat", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "TCP:", 4) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%.*s", (int)(size - 1), line + 5);
			break;
		}
	fclose(f);
}

static void
sleep_ms(long ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static int
raise_nofile(int n)
{
	struct rlimit	rl;
	rlim_t		want = (rlim_t)n + EXTRA_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		fprintf(stderr, "idle: getrlimit: %s\n", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur >= want)
		return 0;
	rl.rlim_cur = want;
	/* Raising the hard limit works for root; otherwise say so. */
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		rl.rlim_max = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		fprintf(stderr, "idle: cannot raise the open files limit to "
		    "%llu (%s): try ulimit -n\n", (unsigned long long)want,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- sockets */

static int
connect_one(int port)
{
	struct sockaddr_in	 sin;
	struct timeval		 tv = { IO_TIMEOUT, 0 };
	int			 fd, one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		fprintf(stderr, "idle: socket: %s\n", strerror(errno));
		return -1;
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1) {
		fprintf(stderr, "idle: connect 127.0.0.1:%d: %s\n", port,
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int
send_ping(int fd)
{
	size_t	off = 0;
	ssize_t	w;

	while (off < sizeof(ping) - 1) {
		w = write(fd, ping + off, sizeof(ping) - 1 - off);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "idle: write: %s\n",
			    w == 0 ? "nothing written" : strerror(errno));
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
}

/* Reads exactly "+PONG\r\n". */
static int
read_pong(int fd)
{
	char	buf[sizeof(pong)];
	size_t	off = 0;
	ssize_t	r;

	while (off < sizeof(pong) - 1) {
		r = read(fd, buf + off, sizeof(pong) - 1 - off);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "idle: reading PONG: %s\n",
			    r == 0 ? "connection closed by ludusd" :
			    errno == EAGAIN ? "timed out" : strerror(errno));
			return -1;
		}
		off += (size_t)r;
		if (memcmp(buf, pong, off) != 0) {
			buf[off] = '\0';
			fprintf(stderr, "idle: PING answered '%.*s'\n",
			    (int)strcspn(buf, "\r\n"), buf);
			return -1;
		}
	}
	return 0;
}

/*
 * PING on fds[from..to) first, then read every reply: a batch shares its
 * round trips, and stays far below the listen backlog.
 */
static int
ping_range(const int *fds, int from, int to)
{
	int	i;

	for (i = from; i < to; i++)
		if (send_ping(fds[i]) == -1)
			return -1;
	for (i = from; i < to; i++)
		if (read_pong(fds[i]) == -1)
			return -1;
	return 0;
}

static int
warm_up(int port)
{
	int	fd, i, rc = 0;

	if ((fd = connect_one(port)) == -1)
		return -1;
	for (i = 0; i < WARMUP_PINGS && rc == 0; i++)
		rc = send_ping(fd) == -1 || read_pong(fd) == -1 ? -1 : 0;
	close(fd);
	return rc;
}

/* ---------------------------------------------------------------- main */

static int
parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'P' },
		{ "pidfile", required_argument, NULL, 'F' },
		{ "settle", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t	v;
	int	ch;

	o->port = 0;
	o->pid = 0;
	o->n = 10000;
	o->settle = 2;
	while ((ch = getopt_long(argc, argv, "p:n:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			if (opt_int(optarg, 1, 65535, "port", &v) == -1)
				return -1;
			o->port = (int)v;
			break;
		case 'n':
			if (opt_int(optarg, 1, 1000000, "connections",
			    &v) == -1)
				return -1;
			o->n = (int)v;
			break;
		case 's':
			if (opt_int(optarg, 0, 600, "settle", &v) == -1)
				return -1;
			o->settle = (int)v;
			break;
		case 'P':
			if (opt_int(optarg, 1, INT32_MAX, "pid", &v) == -1)
				return -1;
			o->pid = (long)v;
			break;
		case 'F':
			if (read_pidfile(optarg, &o->pid) == -1)
				return -1;
			break;
		case 'H':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || o->port == 0 || o->pid == 0) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* Opens and pings o->n connections into fds; -1 at the first failure. */
static int
open_all(const struct opts *o, int *fds, int *opened)
{
	int	i, end;

	for (i = 0; i < o->n; i = end) {
		end = i + BATCH < o->n ? i + BATCH : o->n;
		for (*opened = i; *opened < end; (*opened)++)
			if ((fds[*opened] = connect_one(o->port)) == -1)
				return -1;
		if (ping_range(fds, i, end) == -1) {
			fprintf(stderr, "idle: after %d connections\n", i);
			return -1;
		}
	}
	return 0;
}

/* One reading of the daemon's memory and of the kernel's TCP sockets. */
struct sample {
	long	 rss;
	long	 anon;
	char	 sock[128];
};

static int
sample(long pid, struct sample *sm)
{
	sm->rss = status_kib(pid, "VmRSS");
	sm->anon = status_kib(pid, "RssAnon");
	sockstat_tcp(sm->sock, sizeof(sm->sock));
	if (sm->rss < 0) {
		fprintf(stderr, "idle: cannot read /proc/%ld/status\n", pid);
		return -1;
	}
	return 0;
}

/* Pings every connection again: one lost makes the figure wrong. */
static int
ping_all(const int *fds, int n)
{
	int	i;

	for (i = 0; i < n; i += BATCH)
		if (ping_range(fds, i, i + BATCH < n ? i + BATCH : n) == -1) {
			fprintf(stderr, "idle: a connection was lost while "
			    "idle\n");
			return -1;
		}
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct sample	 before, idle1, idle2;
	long		 after;
	double		 per_conn;
	int		*fds, opened = 0, i, rc = 1;

	if (parse_opts(&o, argc, argv) == -1)
		return 2;
	if (raise_nofile(o.n) == -1 || warm_up(o.port) == -1)
		return 1;
	sleep_ms(200);
	if (sample(o.pid, &before) == -1)
		return 1;

	fds = xcalloc((size_t)o.n, sizeof(*fds));
	if (open_all(&o, fds, &opened) == -1)
		goto out;
	sleep_ms((long)o.settle * 1000);
	if (sample(o.pid, &idle1) == -1)
		goto out;
	/*
	 * A second request on every connection, and a second reading: the
	 * allocator may keep what a connection's first request left behind,
	 * so the figure is the larger of the two.
	 */
	if (ping_all(fds, o.n) == -1)
		goto out;
	sleep_ms((long)o.settle * 1000);
	if (sample(o.pid, &idle2) == -1)
		goto out;
	rc = 0;

	after = idle1.rss > idle2.rss ? idle1.rss : idle2.rss;
	per_conn = (double)(after - before.rss) * 1024.0 / o.n;
	printf("idle detail rss_kib before=%ld idle=%ld idle_after_2nd_ping=%ld"
	    "\n", before.rss, idle1.rss, idle2.rss);
	printf("idle detail rss_anon_kib before=%ld idle=%ld "
	    "idle_after_2nd_ping=%ld\n", before.anon, idle1.anon, idle2.anon);
	printf("idle detail sockstat TCP before: %s\n", before.sock);
	printf("idle detail sockstat TCP idle:   %s\n", idle1.sock);
	printf("idle connections=%d rss_before_kib=%ld rss_after_kib=%ld "
	    "per_conn_bytes=%.0f target_per_conn_bytes=%d holds=%s\n",
	    o.n, before.rss, after, per_conn, TARGET_PER_CONN,
	    per_conn <= TARGET_PER_CONN ? "yes" : "no");
	fflush(stdout);
out:
	for (i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
	return rc;
}
