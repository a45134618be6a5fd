/*
 * ludus-bench: a load generator for ludusd that is also a referee.
 *
 *	ludus-bench [-h host] [-p port] [-c connections] [-g games]
 *	    [-n turns] [-t seconds] [-k ludo|snl|dandy|mix] [-P pipeline]
 *	    [--seed S] [--prefix P] [--players N] [--deck N] [--random]
 *	    [--redis] [--create-only] [--create-option KEY=VALUE]
 *	    [--store-stats] [--walk] [--after-create CMD]
 *
 * It opens c connections, creates g games and plays random legal moves on
 * them from one libevent loop.  Each game is driven by exactly one
 * connection, so its moves reach the server in order; with -P > 1 a
 * connection keeps up to P commands in flight across its games.
 *
 * The program keeps its own engine copy of every game (bgame.c): the copy
 * chooses a legal move and predicts the server's reply, and every reply
 * is checked against the prediction.  A wrong reply under load is a
 * failure, not a figure: any mismatch or error reply is counted, the
 * first few are printed, and the exit status is 1.
 *
 * --redis sends the same moves to a redis-server holding the Redis
 * Functions of bench/redis/ludus.lua (FCALL ludo_play ... instead of
 * LUDO.PLAY ...), which must give the same replies: the same client and
 * the same checks on both sides of the same-work comparison.
 *
 * A game that ends is replaced by a new one (the creation is a request but
 * not a turn).  DandyLand games without a deck never end, so they are
 * replaced after DANDY_MOVES draws to keep creating games in the mix.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/util.h>

#include "bclient.h"
#include "bgame.h"
#include "bench_opts.h"
#include "hist.h"
#include "net/resp.h"
#include "util/util.h"

#define ERRORS_SHOWN	10
#define SETUP_WINDOW	64	/* creations in flight per connection */
#define STALL_SECONDS	30	/* no reply for this long: the server hangs */

/* One command in flight and the reply it must get. */
struct expect {
	struct bgame	*game;
	uint64_t	 sent_ns;
	int		 is_turn;
	int		 is_create;
	char		 want[WANT_LEN];
	char		 text[CMD_TEXT_LEN];
};

struct bench;

struct bconn {
	struct bench		*b;
	int			 idx;
	struct bufferevent	*bev;
	int			 connected;
	struct bgame		**games;
	int			 ngames;
	int			 next;		/* round robin over games */
	uint64_t		 rng;		/* --random */
	struct expect		*ring;		/* window entries */
	int			 window;
	int			 head;
	int			 count;
	int			 setup_done;
};

/* What INFO says of the store at one moment (--store-stats). */
struct store_stats {
	int64_t		size;
	int64_t		games;
	int64_t		turns;
};

enum bphase { B_SETUP = 0, B_RUN, B_DONE };

struct bench {
	struct opts		 o;
	struct event_base	*base;
	struct event		*tick;
	struct event		*deadline;
	struct addrinfo		*ai;
	struct bconn		*conns;
	struct bgame		*games;
	enum bphase		 phase;
	int			 stop;		/* send nothing more */
	int			 failed;	/* a connection broke */
	int			 setup_left;	/* connections still creating */
	uint64_t		 turns_sent;
	uint64_t		 turns_done;
	uint64_t		 requests_done;
	uint64_t		 creates_done;	/* while setting up */
	uint64_t		 errors;
	uint64_t		 t_setup;	/* connecting began */
	uint64_t		 t_created;	/* every game made, before
						   --after-create */
	uint64_t		 t_start;
	uint64_t		 t_end;
	uint64_t		 t_progress;	/* last reply, for the watchdog */
	struct hist		 lat;
	struct store_stats	 ss[3];		/* before, created, at the end */
};

/* ------------------------------------------------------------- helpers */

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* --store-stats: INFO read on a connection of its own; -1 on failure. */
static int
store_stats_read(const struct bench *b, struct store_stats *s)
{
	struct bclient	c;

	if (bclient_connect(&c, b->o.host, b->o.port) == -1)
		return -1;
	s->size = bclient_info_field(&c, "store_size");
	s->games = bclient_info_field(&c, "games_total");
	s->turns = bclient_info_field(&c, "turns_committed");
	bclient_close(&c);
	if (s->size < 0 || s->games < 0 || s->turns < 0) {
		fprintf(stderr, "ludus-bench: INFO has no store_size, "
		    "games_total or turns_committed\n");
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- transport */

static void
conn_send(struct bconn *cn, struct bgame *g, const struct cmd *c)
{
	struct expect	*e;
	char		 buf[CMD_BUF_LEN];
	size_t		 len;

	len = cmd_encode(&cn->b->o.g, c, buf, sizeof(buf));
	if (len == 0)
		abort();	/* the options refuse what cannot be encoded */
	e = &cn->ring[(cn->head + cn->count) % cn->window];
	cn->count++;
	e->game = g;
	e->is_turn = c->is_turn;
	e->is_create = c->is_create;
	memcpy(e->want, c->want, sizeof(e->want));
	cmd_text(c, e->text, sizeof(e->text));
	e->sent_ns = now_ns();
	evbuffer_add(bufferevent_get_output(cn->bev), buf, len);
}

/* The next game of this connection that still has setup to send. */
static struct bgame *
conn_setup_game(struct bconn *cn)
{
	int	i;

	for (i = 0; i < cn->ngames; i++) {
		struct bgame *g = cn->games[(cn->next + i) % cn->ngames];

		if (g->phase != G_PLAY) {
			cn->next = (cn->next + i) % cn->ngames;
			return g;
		}
	}
	return NULL;
}

/* The game of the next turn: round robin, or at random (--random). */
static struct bgame *
conn_play_game(struct bconn *cn)
{
	struct bgame	*g;

	if (cn->b->o.random)
		return cn->games[rnd_int(&cn->rng, cn->ngames)];
	g = cn->games[cn->next];
	cn->next = (cn->next + 1) % cn->ngames;
	return g;
}

static void	bench_start_run(struct bench *);
static void	bench_check_done(struct bench *);
static void	bench_set_windows(struct bench *);

/* Sends commands until the window is full or there is nothing to send. */
static void
conn_fill(struct bconn *cn)
{
	struct bench	*b = cn->b;
	struct bgame	*g;
	struct cmd	 c;

	if (!cn->connected || b->stop || b->phase == B_DONE)
		return;
	while (cn->count < cn->window) {
		if (b->phase == B_SETUP) {
			if ((g = conn_setup_game(cn)) == NULL)
				break;
		} else
			g = conn_play_game(cn);
		if (!game_next(&b->o.g, g, &c))
			continue;
		conn_send(cn, g, &c);
		if (c.is_turn && ++b->turns_sent >= (uint64_t)b->o.turns &&
		    b->o.turns > 0) {
			b->stop = 1;
			break;
		}
	}
	if (b->phase == B_SETUP && cn->count == 0 && !cn->setup_done) {
		cn->setup_done = 1;
		if (--b->setup_left == 0)
			bench_start_run(b);
	}
}

static void
report_error(struct bench *b, const struct expect *e, const char *got)
{
	if (b->errors++ < ERRORS_SHOWN)
		fprintf(stderr, "ludus-bench: %s: got '%s', want '%s'\n",
		    e->text, got, e->want);
	else if (b->errors == ERRORS_SHOWN + 1)
		fprintf(stderr, "ludus-bench: more errors not shown\n");
}

/* Checks one reply against the oldest command in flight. */
static void
conn_reply(struct bconn *cn, const struct reply *r, uint64_t now)
{
	struct bench	*b = cn->b;
	struct expect	*e;
	char		 got[WANT_LEN + 16];

	if (cn->count == 0) {
		report_error(b, &(struct expect){ .text = "(nothing sent)",
		    .want = "no reply" }, r->str != NULL ? r->str : "?");
		return;
	}
	e = &cn->ring[cn->head];
	cn->head = (cn->head + 1) % cn->window;
	cn->count--;
	if (b->phase == B_RUN) {
		hist_add(&b->lat, now - e->sent_ns);
		b->requests_done++;
		if (e->is_turn)
			b->turns_done++;
	} else if (e->is_create)
		b->creates_done++;
	if (r->type == REPLY_STATUS && strcmp(r->str, e->want) == 0)
		return;
	if (r->type == REPLY_STATUS)
		snprintf(got, sizeof(got), "%s", r->str);
	else if (r->type == REPLY_ERROR)
		snprintf(got, sizeof(got), "-%s", r->str);
	else
		snprintf(got, sizeof(got), "(reply of type %d)", (int)r->type);
	report_error(b, e, got);
	/* The copy no longer matches the server: start that slot afresh. */
	e->game->phase = G_CREATE;
}

static void
conn_fail(struct bconn *cn, const char *why)
{
	struct bench	*b = cn->b;

	fprintf(stderr, "ludus-bench: connection %d: %s\n", cn->idx, why);
	b->errors++;
	b->failed = 1;
	b->phase = B_DONE;
	b->t_end = now_ns();
	event_base_loopbreak(b->base);
}

static void
conn_read_cb(struct bufferevent *bev, void *arg)
{
	struct bconn	*cn = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	size_t		 len, used, off = 0;
	const char	*p;
	struct reply	 r;
	uint64_t	 now = now_ns();

	len = evbuffer_get_length(in);
	if (len == 0)
		return;
	p = (const char *)evbuffer_pullup(in, -1);
	for (;;) {
		memset(&r, 0, sizeof(r));
		switch (resp_parse_reply(p + off, len - off, &used, &r)) {
		case RESP_OK:
			conn_reply(cn, &r, now);
			reply_free(&r);
			off += used;
			continue;
		case RESP_INCOMPLETE:
			break;
		default:
			reply_free(&r);
			conn_fail(cn, "malformed reply");
			return;
		}
		break;
	}
	evbuffer_drain(in, off);
	cn->b->t_progress = now;
	conn_fill(cn);
	bench_check_done(cn->b);
}

static void
conn_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct bconn	*cn = arg;
	int		 one = 1;
	char		 why[128];

	if (what & BEV_EVENT_CONNECTED) {
		setsockopt(bufferevent_getfd(bev), IPPROTO_TCP, TCP_NODELAY,
		    &one, sizeof(one));
		cn->connected = 1;
		conn_fill(cn);
		return;
	}
	if (what & BEV_EVENT_EOF)
		snprintf(why, sizeof(why), "closed by the server");
	else
		snprintf(why, sizeof(why), "%s",
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	conn_fail(cn, why);
}

/* ------------------------------------------------------------- driver */

/*
 * --after-create: a command run once the games exist and before the
 * first turn (a profiler switched on, /proc read), so that a
 * measurement can leave the creates out.  The clock of the turns starts
 * after it; that of the creates stops before it.
 */
static int
run_after_create(const struct bench *b)
{
	int	rc;

	if (b->o.after_create == NULL)
		return 0;
	fflush(stdout);
	rc = system(b->o.after_create);
	if (rc != 0) {
		fprintf(stderr, "ludus-bench: --after-create exited %d\n", rc);
		return -1;
	}
	return 0;
}

static void
bench_start_run(struct bench *b)
{
	int	i;

	b->t_created = now_ns();
	if (run_after_create(b) == -1) {
		conn_fail(&b->conns[0], "--after-create failed");
		return;
	}
	b->t_start = b->t_progress = now_ns();
	if (b->o.store_stats && store_stats_read(b, &b->ss[1]) == -1) {
		conn_fail(&b->conns[0], "INFO failed");
		return;
	}
	if (b->o.create_only) {
		b->phase = B_DONE;
		b->t_end = b->t_start;
		event_base_loopbreak(b->base);
		return;
	}
	b->phase = B_RUN;
	bench_set_windows(b);
	if (b->o.seconds > 0) {
		struct timeval tv = { b->o.seconds, 0 };

		evtimer_add(b->deadline, &tv);
	}
	for (i = 0; i < b->o.conns; i++) {
		b->conns[i].next = 0;
		conn_fill(&b->conns[i]);
	}
}

static void
bench_check_done(struct bench *b)
{
	int	i;

	if (b->phase != B_RUN || !b->stop)
		return;
	for (i = 0; i < b->o.conns; i++)
		if (b->conns[i].count > 0)
			return;
	b->phase = B_DONE;
	b->t_end = b->t_progress;
	event_base_loopbreak(b->base);
}

static void
deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bench	*b = arg;

	(void)fd;
	(void)what;
	b->stop = 1;
	bench_check_done(b);
}

/* Once a second: a server that stops answering fails the run. */
static void
tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct bench	*b = arg;
	uint64_t	 now = now_ns();
	int		 i, waiting = 0;

	(void)fd;
	(void)what;
	for (i = 0; i < b->o.conns; i++)
		waiting += b->conns[i].count;
	if (waiting == 0 || b->t_progress == 0) {
		if (b->t_progress == 0)
			b->t_progress = now;
		return;
	}
	if (now - b->t_progress > STALL_SECONDS * 1000000000ULL) {
		fprintf(stderr, "ludus-bench: no reply for %d seconds "
		    "(%d requests waiting)\n", STALL_SECONDS, waiting);
		conn_fail(&b->conns[0], "server stalled");
	}
}

static int
bench_resolve(struct bench *b)
{
	struct addrinfo	hints;
	int		rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(b->o.host, b->o.port, &hints, &b->ai)) != 0) {
		fprintf(stderr, "ludus-bench: %s:%s: %s\n", b->o.host,
		    b->o.port, gai_strerror(rc));
		return -1;
	}
	return 0;
}

static void
bench_setup(struct bench *b)
{
	struct timeval	 sec = { 1, 0 };
	int		 i, window, per;

	window = b->o.pipeline > SETUP_WINDOW ? b->o.pipeline : SETUP_WINDOW;
	b->games = xcalloc((size_t)b->o.games, sizeof(*b->games));
	b->conns = xcalloc((size_t)b->o.conns, sizeof(*b->conns));
	per = (b->o.games + b->o.conns - 1) / b->o.conns;
	for (i = 0; i < b->o.games; i++) {
		struct bgame *g = &b->games[i];

		g->slot = i;
		g->rng = b->o.seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i + 1;
		g->kind = b->o.kind == K_MIX ? (enum kind)(i % 3) : b->o.kind;
		g->phase = G_CREATE;
	}
	for (i = 0; i < b->o.conns; i++) {
		struct bconn *cn = &b->conns[i];

		cn->b = b;
		cn->idx = i;
		cn->games = xcalloc((size_t)per, sizeof(*cn->games));
		cn->ring = xcalloc((size_t)window, sizeof(*cn->ring));
		cn->window = window;
		cn->rng = ~b->o.seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i + 1;
	}
	for (i = 0; i < b->o.games; i++) {
		struct bconn *cn = &b->conns[i % b->o.conns];

		cn->games[cn->ngames++] = &b->games[i];
	}
	b->setup_left = b->o.conns;
	b->tick = event_new(b->base, -1, EV_PERSIST, tick_cb, b);
	b->deadline = evtimer_new(b->base, deadline_cb, b);
	event_add(b->tick, &sec);
}

static int
bench_connect(struct bench *b)
{
	int	i;

	b->t_setup = now_ns();
	for (i = 0; i < b->o.conns; i++) {
		struct bconn *cn = &b->conns[i];

		cn->bev = bufferevent_socket_new(b->base, -1,
		    BEV_OPT_CLOSE_ON_FREE);
		if (cn->bev == NULL)
			return -1;
		bufferevent_setcb(cn->bev, conn_read_cb, NULL, conn_event_cb,
		    cn);
		bufferevent_enable(cn->bev, EV_READ | EV_WRITE);
		if (bufferevent_socket_connect(cn->bev, b->ai->ai_addr,
		    (int)b->ai->ai_addrlen) == -1) {
			fprintf(stderr, "ludus-bench: connect %s:%s: %s\n",
			    b->o.host, b->o.port, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Once the pipeline is filled, a connection's window is the pipeline
 * depth (the setup window is only for creating games quickly).
 */
static void
bench_set_windows(struct bench *b)
{
	int	i;

	for (i = 0; i < b->o.conns; i++) {
		b->conns[i].window = b->o.pipeline;
		b->conns[i].head = 0;	/* nothing is in flight here */
	}
}

static void
bench_free(struct bench *b)
{
	int	i;

	for (i = 0; i < b->o.games; i++)
		game_free(&b->games[i]);
	for (i = 0; i < b->o.conns; i++) {
		if (b->conns[i].bev != NULL)
			bufferevent_free(b->conns[i].bev);
		free(b->conns[i].games);
		free(b->conns[i].ring);
	}
	free(b->conns);
	free(b->games);
	if (b->tick != NULL)
		event_free(b->tick);
	if (b->deadline != NULL)
		event_free(b->deadline);
	if (b->ai != NULL)
		freeaddrinfo(b->ai);
	event_base_free(b->base);
}

/* ------------------------------------------------------------- report */

/*
 * Bytes of store per game created and per stored move played; a move's
 * share leaves out the games the run created to replace finished ones.
 */
static void
report_store(const struct bench *b, double *per_game, double *per_move)
{
	const struct store_stats *s = b->ss;
	int64_t			  games = s[1].games - s[0].games;
	int64_t			  moves = s[2].turns - s[1].turns;
	double			  rest;

	*per_game = games > 0 ? (double)(s[1].size - s[0].size) /
	    (double)games : 0;
	rest = (double)(s[2].size - s[1].size) -
	    (double)(s[2].games - s[1].games) * *per_game;
	*per_move = moves > 0 ? rest / (double)moves : 0;
	printf("store        %" PRId64 " bytes before, %" PRId64 " after "
	    "%" PRId64 " games (%.1f per game), %" PRId64 " after %" PRId64
	    " moves (%.1f per move)\n", s[0].size, s[1].size, games,
	    *per_game, s[2].size, moves, *per_move);
}

static void
bench_report(const struct bench *b)
{
	double	secs, tps, p50, p99, p999, csecs, cps, pg = 0, pm = 0;

	/* A run that failed while creating its games never started. */
	secs = b->t_start > 0 && b->t_end > b->t_start ?
	    (double)(b->t_end - b->t_start) / 1e9 : 0;
	tps = secs > 0 ? (double)b->turns_done / secs : 0;
	csecs = b->t_created > b->t_setup ?
	    (double)(b->t_created - b->t_setup) / 1e9 : 0;
	cps = csecs > 0 ? (double)b->creates_done / csecs : 0;
	p50 = hist_quantile_ms(&b->lat, 0.50);
	p99 = hist_quantile_ms(&b->lat, 0.99);
	p999 = hist_quantile_ms(&b->lat, 0.999);
	printf("kind         %s%s\n", kind_names[b->o.kind],
	    b->o.g.dialect == D_FCALL ? " (Redis Functions)" : "");
	printf("connections  %d (pipeline %d)\n", b->o.conns, b->o.pipeline);
	printf("games        %d%s\n", b->o.games, b->o.random ?
	    " (turns at random)" : "");
	printf("creates      %" PRIu64 " in %.3f s (%.1f/s)\n",
	    b->creates_done, csecs, cps);
	printf("turns        %" PRIu64 "\n", b->turns_done);
	printf("requests     %" PRIu64 "\n", b->requests_done);
	printf("seconds      %.3f\n", secs);
	printf("turns/s      %.1f\n", tps);
	printf("latency ms   p50 %.3f  p99 %.3f  p99.9 %.3f\n", p50, p99, p999);
	printf("errors       %" PRIu64 "\n", b->errors);
	if (b->o.store_stats && !b->failed)
		report_store(b, &pg, &pm);
	printf("ludus-bench turns=%" PRIu64 " secs=%.3f turns_per_s=%.1f "
	    "p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f errors=%" PRIu64
	    " creates=%" PRIu64 " create_secs=%.3f creates_per_s=%.1f",
	    b->turns_done, secs, tps, p50, p99, p999, b->errors,
	    b->creates_done, csecs, cps);
	if (b->o.store_stats)
		printf(" store_bytes=%" PRId64 " bytes_per_game=%.1f "
		    "bytes_per_move=%.1f", b->ss[2].size, pg, pm);
	printf("\n");
	fflush(stdout);
}

/* ---------------------------------------------------------- --walk */

static int
walk_games(const struct opts *o)
{
	struct bclient	 c;
	uint64_t	 t0, ids;
	int		 pages, rc;
	double		 s;

	if (bclient_connect(&c, o->host, o->port) == -1)
		return 2;
	t0 = now_ns();
	rc = bclient_walk_games(&c, &ids, &pages);
	s = (double)(now_ns() - t0) / 1e9;
	bclient_close(&c);
	if (rc == -1)
		return 1;
	printf("ludus-bench walk ids=%" PRIu64 " pages=%d secs=%.3f "
	    "ids_per_s=%.0f\n", ids, pages, s, s > 0 ? (double)ids / s : 0);
	return 0;
}

int
main(int argc, char **argv)
{
	struct bench	b;
	int		rc;

	memset(&b, 0, sizeof(b));
	if (bench_opts_parse(&b.o, argc, argv) == -1)
		return 2;
	if (b.o.walk)
		return walk_games(&b.o);
	if (bench_resolve(&b) == -1)
		return 2;
	if ((b.base = event_base_new()) == NULL) {
		fprintf(stderr, "ludus-bench: event_base_new failed\n");
		return 2;
	}
	if (b.o.store_stats && store_stats_read(&b, &b.ss[0]) == -1)
		return 2;
	bench_setup(&b);
	if (bench_connect(&b) == -1)
		return 2;
	event_base_dispatch(b.base);
	if (b.failed && b.phase != B_DONE)
		b.t_end = now_ns();
	if (b.o.store_stats && !b.failed &&
	    store_stats_read(&b, &b.ss[2]) == -1)
		b.failed = 1;
	bench_report(&b);
	rc = b.errors > 0 || b.failed ? 1 : 0;
	bench_free(&b);
	return rc;
}
