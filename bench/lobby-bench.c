/*
 * lobby-bench: the matchmaker under load.
 *
 *	lobby-bench [-p port[,port...]] [-n tickets] [-P players]
 *	    [-c connections] [-w window]
 *
 * Against running ludusd nodes (one port each; several on one
 * PostgreSQL), n accounts (10000) are made, then each joins one ticket
 * of a Ludo queue of P players (4): c connections per node (4), each
 * with its share of the accounts, pipelining w logins and joins at once
 * (32), the nodes taken in turn.  Every node is watched with PSUBSCRIBE
 * player:*, so that each match is seen as it is made (the message of the
 * account's channel, sent after the COMMIT that made it) wherever it is
 * made.  Printed: the tickets joined a second (from the first join sent
 * to the last reply), and, for each game, the time from the reply to the
 * join of its last ticket (the moment it could be matched) to the first
 * message of its match: p50, p99, max.  Every ticket must be matched
 * into one game of P of them, and every game must be made: anything else
 * is a failure (exit 1), not a figure.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "rclient.h"
#include "util/reply.h"
#include "util/util.h"

#define MAX_NODES	8
#define IO_MS		60000
#define MATCHED_MS	120000

struct acct {
	char		 name[16];
	char		 key[40];
	int64_t		 ticket;
	int64_t		 acked_ns;	/* its join's reply */
	char		 game[64];	/* matched into, by the messages */
	int64_t		 matched_ns;
};

static int		 ports[MAX_NODES], nnodes;
static int		 ntickets = 10000, players = 4, conns = 4, window = 32;
static struct acct	*A;
static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static int		 matched, stopping, failed;

static int64_t
now_ns(void)
{
	return rc_now_us() * 1000;
}

static void
fail(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	fprintf(stderr, "lobby-bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	failed = 1;
}

/* ------------------------------------------------------------ accounts */

static int
make_accounts(void)
{
	struct rconn	 c;
	struct reply	 r;
	char		*out = NULL;
	size_t		 len = 0, cap = 0;
	const char	*argv[2];
	int		 i, j, batch = 1000;

	if (rc_open(&c, ports[0]) != 0)
		return -1;
	for (i = 0; i < ntickets; i += batch) {
		len = 0;
		for (j = i; j < i + batch && j < ntickets; j++) {
			snprintf(A[j].name, sizeof(A[j].name), "b%d", j);
			argv[0] = "PLAYER.CREATE";
			argv[1] = A[j].name;
			rc_encode(&out, &len, &cap, 2, argv);
		}
		if (rc_write(&c, out, len) != 0)
			return -1;
		for (j = i; j < i + batch && j < ntickets; j++) {
			memset(&r, 0, sizeof(r));
			if (rc_read(&c, &r, IO_MS) != 1 ||
			    r.type != REPLY_BULK || r.len != 32) {
				fail("PLAYER.CREATE %s: %s", A[j].name,
				    r.str != NULL ? r.str : "no reply");
				reply_free(&r);
				return -1;
			}
			memcpy(A[j].key, r.str, 33);
			reply_free(&r);
		}
	}
	free(out);
	rc_close(&c);
	return 0;
}

/* ---------------------------------------------------- the listeners */

struct listener {
	pthread_t	 th;
	struct rconn	 c;
};

/* A match message as it came: the accounts are found from the tickets
 * once every join has its reply. */
struct seen {
	int64_t		 ticket;
	int64_t		 t;
	char		 game[64];
};

static struct seen	*seen;
static size_t		 nseen, capseen;

/* "matched,TICKET,GAME,SEAT" */
static void
on_message(const char *msg, int64_t t)
{
	const char	*p = msg + 8, *q;
	struct seen	*m;

	if (strncmp(msg, "matched,", 8) != 0 || (q = strchr(p, ',')) == NULL)
		return;
	pthread_mutex_lock(&mu);
	if (nseen == capseen) {
		capseen = capseen == 0 ? 1024 : 2 * capseen;
		seen = xrealloc(seen, capseen * sizeof(*seen));
	}
	m = &seen[nseen++];
	m->ticket = strtoll(p, NULL, 10);
	m->t = t;
	snprintf(m->game, sizeof(m->game), "%.*s", (int)strcspn(q + 1, ","),
	    q + 1);
	matched++;
	pthread_mutex_unlock(&mu);
}

static int
by_ticket(const void *a, const void *b)
{
	const struct acct	*x = *(const struct acct *const *)a;
	const struct acct	*y = *(const struct acct *const *)b;

	return x->ticket < y->ticket ? -1 : x->ticket > y->ticket;
}

/* Each message into the account of its ticket; 0, or -1 when a ticket
 * is none of ours or is matched twice. */
static int
place_messages(void)
{
	struct acct	**v = xcalloc((size_t)ntickets, sizeof(*v));
	struct acct	 key, *kp = &key, **hit;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < (size_t)ntickets; i++)
		v[i] = &A[i];
	qsort(v, (size_t)ntickets, sizeof(*v), by_ticket);
	for (i = 0; i < nseen; i++) {
		key.ticket = seen[i].ticket;
		hit = bsearch(&kp, v, (size_t)ntickets, sizeof(*v), by_ticket);
		if (hit == NULL || (*hit)->matched_ns != 0) {
			fail("ticket %lld: %s", (long long)seen[i].ticket,
			    hit == NULL ? "none of ours" : "matched twice");
			rc = -1;
			continue;
		}
		(*hit)->matched_ns = seen[i].t;
		memcpy((*hit)->game, seen[i].game, sizeof(seen[i].game));
	}
	free(v);
	return rc;
}

static void *
listen_run(void *arg)
{
	struct listener	*l = arg;
	struct reply	 r;
	int		 rc;

	for (;;) {
		memset(&r, 0, sizeof(r));
		rc = rc_read(&l->c, &r, 200);
		if (rc == 1 && r.type == REPLY_ARRAY && r.n == 4 &&
		    r.elem[3].type == REPLY_BULK)
			on_message(r.elem[3].str, now_ns());
		reply_free(&r);
		if (rc == 0)
			break;
		pthread_mutex_lock(&mu);
		rc = stopping;
		pthread_mutex_unlock(&mu);
		if (rc)
			break;
	}
	return NULL;
}

static int
listen_start(struct listener *l, int port)
{
	struct reply	 r;

	memset(&r, 0, sizeof(r));
	if (rc_open(&l->c, port) != 0 ||
	    rc_call(&l->c, &r, IO_MS, "PSUBSCRIBE", "player:*", NULL) != 1) {
		reply_free(&r);
		return -1;
	}
	reply_free(&r);
	return pthread_create(&l->th, NULL, listen_run, l) == 0 ? 0 : -1;
}

/* ------------------------------------------------------- the joiners */

struct joiner {
	pthread_t	 th;
	int		 port;
	int		 from, to;	/* its accounts */
};

static void
send_pair(char **out, size_t *len, size_t *cap, const struct acct *a,
    const char *players_opt)
{
	const char	*argv[4];

	argv[0] = "PLAYER.LOGIN";
	argv[1] = a->name;
	argv[2] = a->key;
	rc_encode(out, len, cap, 3, argv);
	argv[0] = "MATCH.JOIN";
	argv[1] = "ludo";
	argv[2] = players_opt;
	rc_encode(out, len, cap, 3, argv);
}

static void *
join_run(void *arg)
{
	struct joiner	*j = arg;
	struct rconn	 c;
	struct reply	 r;
	char		*out = NULL, popt[24];
	size_t		 len, cap = 0;
	int		 sent = j->from, got = j->from, k;

	snprintf(popt, sizeof(popt), "players=%d", players);
	if (rc_open(&c, j->port) != 0) {
		fail("connect to %d: %s", j->port, strerror(errno));
		return NULL;
	}
	while (got < j->to && !failed) {
		for (len = 0; sent < j->to && sent - got < window; sent++)
			send_pair(&out, &len, &cap, &A[sent], popt);
		if (len > 0 && rc_write(&c, out, len) != 0) {
			fail("write to %d", j->port);
			break;
		}
		for (k = 0; k < 2; k++) {
			memset(&r, 0, sizeof(r));
			if (rc_read(&c, &r, IO_MS) != 1 || (k == 1 &&
			    r.type != REPLY_INT)) {
				fail("%s's %s: %s", A[got].name, k == 0 ?
				    "login" : "join", r.str != NULL ? r.str :
				    "no reply");
				reply_free(&r);
				goto done;
			}
			if (k == 1) {
				A[got].acked_ns = now_ns();
				A[got].ticket = r.integer;
			}
			reply_free(&r);
		}
		got++;
	}
done:
	free(out);
	rc_close(&c);
	return NULL;
}

/* ------------------------------------------------------------ figures */

static int
by_game(const void *a, const void *b)
{
	const struct acct	*x = *(const struct acct *const *)a;
	const struct acct	*y = *(const struct acct *const *)b;

	return strcmp(x->game, y->game);
}

/* Each game's last ticket acknowledged to its first message. */
static void
figures(int64_t t0, int64_t t1)
{
	struct acct	**v = xcalloc((size_t)ntickets, sizeof(*v));
	struct hist	*h = xcalloc(1, sizeof(*h));
	int64_t		 last, first, lat, max = 0;
	int		 i, k, games = 0, bad = 0;

	for (i = 0; i < ntickets; i++)
		v[i] = &A[i];
	qsort(v, (size_t)ntickets, sizeof(*v), by_game);
	for (i = 0; i < ntickets; i = k) {
		last = 0;
		first = INT64_MAX;
		for (k = i; k < ntickets && strcmp(v[k]->game, v[i]->game) ==
		    0; k++) {
			if (v[k]->acked_ns > last)
				last = v[k]->acked_ns;
			if (v[k]->matched_ns < first)
				first = v[k]->matched_ns;
		}
		if (k - i != players)
			bad++;
		lat = first > last ? first - last : 0;
		if (lat > max)
			max = lat;
		hist_add(h, (uint64_t)lat);
		games++;
	}
	if (bad > 0)
		fail("%d of %d games had not %d tickets", bad, games,
		    players);
	printf("tickets %d, nodes %d, games %d of %d players\n", ntickets,
	    nnodes, games, players);
	printf("joined: %.0f tickets/s (%.2f s, %d connections)\n",
	    ntickets / ((double)(t1 - t0) / 1e9), (double)(t1 - t0) / 1e9,
	    nnodes * conns);
	printf("last ticket to match: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, "
	    "max %.2f ms\n", hist_quantile_ms(h, 0.5),
	    hist_quantile_ms(h, 0.9), hist_quantile_ms(h, 0.99),
	    (double)max / 1e6);
	free(v);
	free(h);
}

static int
number(const char *s, int lo, int hi)
{
	const char	*err;
	int64_t		 v;

	if (parse_int64(s, lo, hi, &v, &err) != 0) {
		fprintf(stderr, "lobby-bench: '%s': %s\n", s, err);
		exit(2);
	}
	return (int)v;
}

static int
parse_ports(const char *s)
{
	char	 buf[256], *p, *save = NULL;

	str_copy(buf, sizeof(buf), s);
	for (p = strtok_r(buf, ",", &save); p != NULL && nnodes < MAX_NODES;
	    p = strtok_r(NULL, ",", &save))
		ports[nnodes++] = number(p, 1, 65535);
	return nnodes > 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct listener	 ls[MAX_NODES];
	struct joiner	*js;
	int64_t		 t0, t1, t;
	int		 ch, i, nj, done;

	while ((ch = getopt(argc, argv, "p:n:P:c:w:")) != -1) {
		switch (ch) {
		case 'p':
			if (parse_ports(optarg) != 0)
				goto usage;
			break;
		case 'n':
			ntickets = number(optarg, 2, 1000000);
			break;
		case 'P':
			players = number(optarg, 2, 4);
			break;
		case 'c':
			conns = number(optarg, 1, 256);
			break;
		case 'w':
			window = number(optarg, 1, 10000);
			break;
		default:
			goto usage;
		}
	}
	if (nnodes == 0)
		ports[nnodes++] = 7420;
	if (ntickets < players || players < 2 || players > 4 || conns < 1 ||
	    window < 1 || ntickets % players != 0)
		goto usage;
	A = xcalloc((size_t)ntickets, sizeof(*A));
	if (make_accounts() != 0) {
		fail("cannot make the accounts");
		return 1;
	}
	for (i = 0; i < nnodes; i++)
		if (listen_start(&ls[i], ports[i]) != 0) {
			fail("cannot subscribe on %d", ports[i]);
			return 1;
		}
	nj = nnodes * conns;
	js = xcalloc((size_t)nj, sizeof(*js));
	t0 = now_ns();
	for (i = 0; i < nj; i++) {
		js[i].port = ports[i % nnodes];
		js[i].from = (int)((int64_t)ntickets * i / nj);
		js[i].to = (int)((int64_t)ntickets * (i + 1) / nj);
		pthread_create(&js[i].th, NULL, join_run, &js[i]);
	}
	for (i = 0; i < nj; i++)
		pthread_join(js[i].th, NULL);
	t1 = now_ns();
	for (t = now_ns(), done = 0; !done && !failed;) {
		pthread_mutex_lock(&mu);
		done = matched == ntickets;
		pthread_mutex_unlock(&mu);
		if (!done && now_ns() - t > (int64_t)MATCHED_MS * 1000000) {
			fail("%d of %d tickets matched in %d ms", matched,
			    ntickets, MATCHED_MS);
			break;
		}
		if (!done)
			rc_sleep_ms(20);
	}
	pthread_mutex_lock(&mu);
	stopping = 1;
	pthread_mutex_unlock(&mu);
	for (i = 0; i < nnodes; i++) {
		pthread_join(ls[i].th, NULL);
		rc_close(&ls[i].c);
	}
	if (!failed && place_messages() == 0)
		figures(t0, t1);
	free(js);
	free(seen);
	free(A);
	return failed ? 1 : 0;
usage:
	fprintf(stderr, "usage: lobby-bench [-p port[,port...]] [-n tickets] "
	    "[-P players] [-c connections] [-w window]\n");
	return 2;
}
