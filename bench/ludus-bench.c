/*
 * ludus-bench: a load generator for ludusd that is also a referee.
 *
 *	ludus-bench [-h host] [-p port] [-c connections] [-g games]
 *	    [-n turns] [-t seconds] [-k ludo|snl|dandy|mix] [-P pipeline]
 *	    [--seed S] [--prefix P]
 *
 * It opens c connections, creates g games and plays random legal moves on
 * them from one libevent loop.  Each game is driven by exactly one
 * connection, so its moves reach the server in order; with -P > 1 a
 * connection keeps up to P commands in flight across its games.
 *
 * The program keeps its own engine copy of every game: the copy chooses a
 * legal move and predicts the server's reply, and every reply is checked
 * against the prediction.  A wrong reply under load is a failure, not a
 * figure: any mismatch or error reply is counted, the first few are
 * printed, and the exit status is 1.
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
#include <stdarg.h>
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

#include "engine/engine.h"
#include "net/resp.h"
#include "util/util.h"

#define ID_LEN		51	/* 50 characters, as the server allows */
#define PREFIX_MAX	30	/* leaves room for "l123456-4294967295" */
#define WANT_LEN	64	/* the longest status a move can return */
#define CMD_TEXT_LEN	96	/* the command, as printed in an error */
#define CMD_ARGS_MAX	8
#define CMD_BUF_LEN	512
#define ERRORS_SHOWN	10
#define SETUP_WINDOW	64	/* creations in flight per connection */
#define STALL_SECONDS	30	/* no reply for this long: the server hangs */
#define DANDY_MOVES	200	/* draws before a DandyLand game is replaced */
#define MOVES_MAX	20000	/* a Ludo/S&L game this long is abandoned */
#define SNL_JUMP_TRIES	20

enum kind { K_LUDO = 0, K_SNL, K_DANDY, K_MIX };

static const char *kind_names[] = { "ludo", "snl", "dandy", "mix" };

/* What a game sends next. */
enum gphase { G_CREATE = 0, G_SETUP, G_PLAY };

struct bgame {
	enum kind	 kind;
	int		 slot;
	unsigned	 gen;		/* games played in this slot so far */
	char		 id[ID_LEN];
	enum gphase	 phase;
	int		 setup_left;	/* Snake & Ladder jumps to send */
	int		 moves;		/* moves sent in the current game */
	uint64_t	 rng;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} st;
};

/* One command in flight and the reply it must get. */
struct expect {
	struct bgame	*game;
	uint64_t	 sent_ns;
	int		 is_turn;
	char		 want[WANT_LEN];
	char		 text[CMD_TEXT_LEN];
};

/* A command being built: its words and the reply predicted. */
struct cmd {
	int		 argc;
	const char	*argv[CMD_ARGS_MAX];
	char		 store[CMD_ARGS_MAX][ID_LEN + 8];
	int		 is_turn;
	char		 want[WANT_LEN];
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
	struct expect		*ring;		/* window entries */
	int			 window;
	int			 head;
	int			 count;
	int			 setup_done;
};

/*
 * A latency histogram in nanoseconds with 64 sub-buckets per power of
 * two (under 1.6% error): fixed size, so recording allocates nothing.
 */
#define HIST_LINEAR	128
#define HIST_SUB	64
#define HIST_BUCKETS	(HIST_LINEAR + (64 - 7) * HIST_SUB)

struct hist {
	uint64_t	count;
	uint64_t	b[HIST_BUCKETS];
};

struct opts {
	const char	*host;
	const char	*port;
	int		 conns;
	int		 games;
	int64_t		 turns;		/* 0 with -t */
	int		 seconds;	/* 0 with -n */
	enum kind	 kind;
	int		 pipeline;
	uint64_t	 seed;
	char		 prefix[PREFIX_MAX + 1];
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
	uint64_t		 errors;
	uint64_t		 t_start;
	uint64_t		 t_end;
	uint64_t		 t_progress;	/* last reply, for the watchdog */
	struct hist		 lat;
};

/* ------------------------------------------------------------- helpers */

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: small, fast, and reproducible from --seed. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int
rnd_int(uint64_t *s, int n)
{
	return (int)((rnd(s) >> 33) % (uint64_t)n);
}

static int
hist_bucket(uint64_t v)
{
	int	e;

	if (v < HIST_LINEAR)
		return (int)v;
	e = 63 - __builtin_clzll(v);	/* >= 7 */
	return HIST_LINEAR + (e - 7) * HIST_SUB +
	    (int)((v >> (e - 6)) & (HIST_SUB - 1));
}

/* The middle of a bucket, in nanoseconds. */
static double
hist_value(int i)
{
	int	e, sub;

	if (i < HIST_LINEAR)
		return i;
	e = 7 + (i - HIST_LINEAR) / HIST_SUB;
	sub = (i - HIST_LINEAR) % HIST_SUB;
	return ((double)(HIST_SUB + sub) + 0.5) * (double)(1ULL << (e - 6));
}

static void
hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_bucket(v)]++;
	h->count++;
}

/* The q-quantile (0 < q <= 1) in milliseconds; 0 when empty. */
static double
hist_quantile_ms(const struct hist *h, double q)
{
	uint64_t	want, seen = 0;
	int		i;

	if (h->count == 0)
		return 0;
	want = (uint64_t)(q * (double)h->count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= want)
			return hist_value(i) / 1e6;
	}
	return hist_value(HIST_BUCKETS - 1) / 1e6;
}

/* ---------------------------------------------------------- commands */

static void
cmd_start(struct cmd *c, const char *name)
{
	c->argc = 1;
	c->argv[0] = name;
	c->is_turn = 0;
	snprintf(c->want, sizeof(c->want), "OK");
}

static void
cmd_arg(struct cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
cmd_arg(struct cmd *c, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(c->store[c->argc], sizeof(c->store[c->argc]), fmt, ap);
	va_end(ap);
	c->argv[c->argc] = c->store[c->argc];
	c->argc++;
}

/* A fresh id for the game in this slot, then its creation. */
static void
game_new_id(struct bench *b, struct bgame *g)
{
	static const char letter[] = { 'l', 's', 'd' };

	snprintf(g->id, sizeof(g->id), "%s%c%d-%u", b->o.prefix,
	    letter[g->kind], g->slot, g->gen);
	g->gen++;
	g->moves = 0;
}

static void
ludo_create(struct bench *b, struct bgame *g, struct cmd *c)
{
	static const char *presets[] = { "classic", "interview", "extended" };
	struct ludo_rules	 rules;
	const char		*preset = presets[rnd_int(&g->rng, 3)];
	int			 i, n = 2 + rnd_int(&g->rng, 3);

	game_new_id(b, g);
	cmd_start(c, "LUDO.CREATE");
	cmd_arg(c, "%s", g->id);
	for (i = 0; i < n; i++)
		cmd_arg(c, "p%d", i + 1);
	cmd_arg(c, "rules=%s", preset);
	if (ludo_rules_preset(&rules, preset) == -1 ||
	    ludo_init(&g->st.ludo, &rules, n) == -1)
		abort();	/* the presets above exist */
	g->phase = G_PLAY;
}

static void
ludo_move(struct bgame *g, struct cmd *c)
{
	struct ludo_state	 next;
	int			 tokens[LUDO_TOKENS];
	int			 dice, n, token, player = g->st.ludo.turn;
	enum ludo_result	 res;
	const char		*s;

	dice = 1 + rnd_int(&g->rng, 6);
	n = ludo_legal(&g->st.ludo, dice, tokens);
	token = n > 0 ? tokens[rnd_int(&g->rng, n)] : 0;
	res = ludo_play(&g->st.ludo, player, dice, token, &next);
	s = ludo_result_str(res);
	cmd_start(c, "LUDO.PLAY");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "p%d", player + 1);
	cmd_arg(c, "%d", dice);
	cmd_arg(c, "%d", token);
	c->is_turn = 1;
	snprintf(c->want, sizeof(c->want), "%s", s != NULL ? s : "?");
	g->st.ludo = next;
	if (next.winner >= 0 || !ludo_result_stored(res))
		g->phase = G_CREATE;	/* over (or confused): a new game */
}

static void
snl_create(struct bench *b, struct bgame *g, struct cmd *c)
{
	int	n = 2 + rnd_int(&g->rng, 5);

	game_new_id(b, g);
	cmd_start(c, "SNL.CREATE");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%d", n);
	if (snl_init(&g->st.snl, n) == -1)
		abort();
	g->setup_left = 3 + rnd_int(&g->rng, 6);
	g->phase = G_SETUP;
}

/*
 * One snake or ladder the engine accepts on the current board (so the
 * server must answer OK); 0 when none was found in a few tries.
 */
static int
snl_jump(struct bgame *g, struct cmd *c)
{
	struct snl_state	 tmp;
	const char		*why;
	int			 i, lo, hi, snake, rc;

	for (i = 0; i < SNL_JUMP_TRIES; i++) {
		lo = 2 + rnd_int(&g->rng, SNL_CELLS - 2);
		hi = lo + 1 + rnd_int(&g->rng, SNL_CELLS - lo);
		snake = rnd_int(&g->rng, 2);
		tmp = g->st.snl;
		rc = snake ? snl_add_snake(&tmp, hi, lo, &why) :
		    snl_add_ladder(&tmp, lo, hi, &why);
		if (rc == -1)
			continue;
		cmd_start(c, snake ? "SNL.SNAKE" : "SNL.LADDER");
		cmd_arg(c, "%s", g->id);
		cmd_arg(c, "%d", snake ? hi : lo);
		cmd_arg(c, "%d", snake ? lo : hi);
		g->st.snl = tmp;
		return 1;
	}
	return 0;
}

static void
snl_move(struct bgame *g, struct cmd *c)
{
	struct snl_state	next;
	struct snl_result	r;
	int			v = 1 + rnd_int(&g->rng, 6);

	cmd_start(c, "SNL.ROLL");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%d", v);
	c->is_turn = 1;
	if (snl_roll(&g->st.snl, v, &next, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER) {
		snprintf(c->want, sizeof(c->want), "GAME_OVER");
		g->phase = G_CREATE;
		return;
	}
	if (r.outcome == SNL_WON) {
		snprintf(c->want, sizeof(c->want), "P%d WINS", r.player + 1);
		g->phase = G_CREATE;
	} else
		snprintf(c->want, sizeof(c->want), "P%d %d", r.player + 1,
		    r.pos);
	g->st.snl = next;
}

static void
dandy_create(struct bench *b, struct bgame *g, struct cmd *c)
{
	char		 board[DANDY_BOARD_MAX + 1];
	const char	*why;
	int		 i, len = 5 + rnd_int(&g->rng, DANDY_BOARD_MAX - 4);
	int		 n = 2 + rnd_int(&g->rng, 3);

	for (i = 0; i < len; i++)
		board[i] = (char)('a' + rnd_int(&g->rng, 9));
	board[len] = '\0';
	game_new_id(b, g);
	cmd_start(c, "DANDY.CREATE");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%d", n);
	cmd_arg(c, "%s", board);
	if (dandy_init(&g->st.dandy, n, board, NULL, &why) == -1)
		abort();	/* a valid board and player count */
	g->phase = G_PLAY;
}

static void
dandy_move(struct bgame *g, struct cmd *c)
{
	static const char	 cards[] = "abcdefghi123456789";
	struct dandy_state	 next;
	struct dandy_result	 r;
	int			 card;

	card = cards[rnd_int(&g->rng, (int)sizeof(cards) - 1)];
	cmd_start(c, "DANDY.DRAW");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%c", card);
	c->is_turn = 1;
	if (dandy_draw(&g->st.dandy, card, &next, &r) == -1 || r.game_over) {
		snprintf(c->want, sizeof(c->want), "GAME_OVER");
		g->phase = G_CREATE;
		return;
	}
	if (r.pos == DANDY_OFF)
		snprintf(c->want, sizeof(c->want), "P%d OFF %d",
		    r.player + 1, r.points);
	else
		snprintf(c->want, sizeof(c->want), "P%d %d %d", r.player + 1,
		    r.pos + 1, r.points);
	g->st.dandy = next;
	if (g->moves + 1 >= DANDY_MOVES)
		g->phase = G_CREATE;
}

/*
 * The next command of a game, predicted reply included; 0 when it has
 * nothing to send (a game whose setup just ended: its first move waits
 * for the next call, so the setup phase never sends a move).
 */
static int
game_next(struct bench *b, struct bgame *g, struct cmd *c)
{
	if (g->phase == G_CREATE) {
		if (g->kind == K_LUDO)
			ludo_create(b, g, c);
		else if (g->kind == K_SNL)
			snl_create(b, g, c);
		else
			dandy_create(b, g, c);
		return 1;
	}
	if (g->phase == G_SETUP) {
		if (g->setup_left > 0) {
			g->setup_left--;
			if (snl_jump(g, c))
				return 1;
		}
		g->setup_left = 0;
		g->phase = G_PLAY;
		return 0;
	}
	if (g->kind == K_LUDO)
		ludo_move(g, c);
	else if (g->kind == K_SNL)
		snl_move(g, c);
	else
		dandy_move(g, c);
	if (++g->moves >= MOVES_MAX)
		g->phase = G_CREATE;
	return 1;
}

/* ---------------------------------------------------------- transport */

/* Encodes the command as a RESP array of bulk strings into buf. */
static size_t
cmd_encode(const struct cmd *c, char *buf, size_t len)
{
	size_t	off;
	int	i, n;

	n = snprintf(buf, len, "*%d\r\n", c->argc);
	off = (size_t)n;
	for (i = 0; i < c->argc && off < len; i++) {
		n = snprintf(buf + off, len - off, "$%zu\r\n%s\r\n",
		    strlen(c->argv[i]), c->argv[i]);
		off += (size_t)n;
	}
	return off < len ? off : len;
}

static void
cmd_text(const struct cmd *c, char *buf, size_t len)
{
	size_t	off = 0;
	int	i;

	buf[0] = '\0';
	for (i = 0; i < c->argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i > 0 ? " " : "", c->argv[i]);
}

static void
conn_send(struct bconn *cn, struct bgame *g, const struct cmd *c)
{
	struct expect	*e;
	char		 buf[CMD_BUF_LEN];
	size_t		 len;

	e = &cn->ring[(cn->head + cn->count) % cn->window];
	cn->count++;
	e->game = g;
	e->is_turn = c->is_turn;
	memcpy(e->want, c->want, sizeof(e->want));
	cmd_text(c, e->text, sizeof(e->text));
	len = cmd_encode(c, buf, sizeof(buf));
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
		} else {
			g = cn->games[cn->next];
			cn->next = (cn->next + 1) % cn->ngames;
		}
		if (!game_next(b, g, &c))
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
	}
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

static void
bench_start_run(struct bench *b)
{
	int	i;

	b->phase = B_RUN;
	bench_set_windows(b);
	b->t_start = b->t_progress = now_ns();
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
bench_report(const struct bench *b)
{
	double	secs, tps, p50, p99, p999;

	/* A run that failed while creating its games never started. */
	secs = b->t_start > 0 && b->t_end > b->t_start ?
	    (double)(b->t_end - b->t_start) / 1e9 : 0;
	tps = secs > 0 ? (double)b->turns_done / secs : 0;
	p50 = hist_quantile_ms(&b->lat, 0.50);
	p99 = hist_quantile_ms(&b->lat, 0.99);
	p999 = hist_quantile_ms(&b->lat, 0.999);
	printf("kind         %s\n", kind_names[b->o.kind]);
	printf("connections  %d (pipeline %d)\n", b->o.conns, b->o.pipeline);
	printf("games        %d\n", b->o.games);
	printf("turns        %" PRIu64 "\n", b->turns_done);
	printf("requests     %" PRIu64 "\n", b->requests_done);
	printf("seconds      %.3f\n", secs);
	printf("turns/s      %.1f\n", tps);
	printf("latency ms   p50 %.3f  p99 %.3f  p99.9 %.3f\n", p50, p99, p999);
	printf("errors       %" PRIu64 "\n", b->errors);
	printf("ludus-bench turns=%" PRIu64 " secs=%.3f turns_per_s=%.1f "
	    "p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f errors=%" PRIu64 "\n",
	    b->turns_done, secs, tps, p50, p99, p999, b->errors);
	fflush(stdout);
}

/* ------------------------------------------------------------ options */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: ludus-bench [-h host] [-p port] [-c connections] "
	    "[-g games]\n"
	    "           [-n turns] [-t seconds] [-k ludo|snl|dandy|mix] "
	    "[-P pipeline]\n"
	    "           [--seed S] [--prefix P]\n"
	    "\n"
	    "Plays random legal moves against ludusd and checks every reply\n"
	    "against its own engine copy of each game.\n"
	    "\n"
	    "  -h host        server address (127.0.0.1)\n"
	    "  -p port        server port (7420)\n"
	    "  -c n           connections (50)\n"
	    "  -g n           games, each driven by one connection "
	    "(= connections)\n"
	    "  -n n           turns to play (100000 without -t)\n"
	    "  -t seconds     play for this long (with -n: whichever "
	    "comes first)\n"
	    "  -k kind        ludo, snl, dandy or mix (ludo)\n"
	    "  -P n           commands in flight per connection (1)\n"
	    "  --seed S       random seed (1); the same seed plays the same "
	    "games\n"
	    "  --prefix P     game id prefix (random per run)\n"
	    "\n"
	    "Exit status: 0, or 1 when any reply was wrong or an error.\n");
}

static int
opt_int(const char *arg, int64_t min, int64_t max, const char *what,
    int64_t *out)
{
	const char	*errstr;

	if (parse_int64(arg, min, max, out, &errstr) == -1) {
		fprintf(stderr, "ludus-bench: %s: %s (%lld-%lld)\n", what,
		    errstr, (long long)min, (long long)max);
		return -1;
	}
	return 0;
}

static int
opt_prefix(struct opts *o, const char *arg)
{
	size_t	i, len = strlen(arg);

	if (len > PREFIX_MAX)
		goto bad;
	for (i = 0; i < len; i++)
		if (!((arg[i] >= 'a' && arg[i] <= 'z') ||
		    (arg[i] >= '0' && arg[i] <= '9') || arg[i] == '-'))
			goto bad;
	memcpy(o->prefix, arg, len + 1);
	return 0;
bad:
	fprintf(stderr, "ludus-bench: prefix: at most %d of a-z 0-9 -\n",
	    PREFIX_MAX);
	return -1;
}

static int
opt_kind(struct opts *o, const char *arg)
{
	int	i;

	for (i = 0; i <= K_MIX; i++)
		if (strcmp(arg, kind_names[i]) == 0) {
			o->kind = (enum kind)i;
			return 0;
		}
	fprintf(stderr, "ludus-bench: kind must be ludo, snl, dandy or mix\n");
	return -1;
}

/* One short option; -1 on a bad value. */
static int
opt_one(struct opts *o, int ch, const char *arg)
{
	int64_t	v;

	switch (ch) {
	case 'h':
		o->host = arg;
		return 0;
	case 'p':
		if (opt_int(arg, 1, 65535, "port", &v) == -1)
			return -1;
		o->port = arg;
		return 0;
	case 'c':
	case 'g':
		if (opt_int(arg, 1, 100000, ch == 'c' ? "connections" :
		    "games", &v) == -1)
			return -1;
		*(ch == 'c' ? &o->conns : &o->games) = (int)v;
		return 0;
	case 'n':
		return opt_int(arg, 1, INT64_MAX / 2, "turns", &o->turns);
	case 't':
		if (opt_int(arg, 1, 86400, "seconds", &v) == -1)
			return -1;
		o->seconds = (int)v;
		return 0;
	case 'k':
		return opt_kind(o, arg);
	case 'P':
		if (opt_int(arg, 1, 10000, "pipeline", &v) == -1)
			return -1;
		o->pipeline = (int)v;
		return 0;
	case 'S':
		if (opt_int(arg, 0, INT64_MAX, "seed", &v) == -1)
			return -1;
		o->seed = (uint64_t)v;
		return 0;
	case 'X':
		return opt_prefix(o, arg);
	}
	return -1;
}

static int
parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "prefix", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	int	ch;

	o->host = "127.0.0.1";
	o->port = "7420";
	o->conns = 50;
	o->games = 0;
	o->turns = -1;		/* not given */
	o->kind = K_LUDO;
	o->pipeline = 1;
	o->seed = 1;
	snprintf(o->prefix, sizeof(o->prefix), "b%06x-",
	    (unsigned)(((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 12)) &
	    0xffffff));
	while ((ch = getopt_long(argc, argv, "h:p:c:g:n:t:k:P:", longopts,
	    NULL)) != -1) {
		if (ch == 'H') {
			usage(stdout);
			exit(0);
		}
		if (ch == '?' || opt_one(o, ch, optarg) == -1) {
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	if (o->turns == -1)
		o->turns = o->seconds > 0 ? 0 : 100000;
	if (o->games == 0)
		o->games = o->conns;
	if (o->conns > o->games) {
		fprintf(stderr, "ludus-bench: %d connections for %d games: "
		    "using %d connections\n", o->conns, o->games, o->games);
		o->conns = o->games;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct bench	b;

	memset(&b, 0, sizeof(b));
	if (parse_opts(&b.o, argc, argv) == -1)
		return 2;
	if (bench_resolve(&b) == -1)
		return 2;
	if ((b.base = event_base_new()) == NULL) {
		fprintf(stderr, "ludus-bench: event_base_new failed\n");
		return 2;
	}
	bench_setup(&b);
	if (bench_connect(&b) == -1)
		return 2;
	event_base_dispatch(b.base);
	if (b.failed && b.phase != B_DONE)
		b.t_end = now_ns();
	bench_report(&b);
	return b.errors > 0 || b.failed ? 1 : 0;
}
