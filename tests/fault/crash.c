/*
 * crash: kill -9 ludusd at random moments while games are played, and
 * check that no acknowledged turn is lost and none is half applied.
 *
 *	tests/crash [--cycles N] [--durability full|normal|off|both]
 *	    [--connections C] [--seed S] [--verbose] [--self-test]
 *
 * The driver starts the real daemon on a fresh database, opens C
 * connections and plays random legal games of all three kinds on them,
 * each game on one connection, every move pipelined with "AT seq".  The
 * rules engine (linked in) chooses the moves and predicts every reply;
 * every reply read is an acknowledgement and is recorded.  In each cycle,
 * after a random number of rounds, the daemon is killed with SIGKILL at a
 * random moment of a round (before, during or after the processing of the
 * pipelines); the replies the kernel still delivers are read, and the
 * rest of the requests are "in flight": the driver does not know whether
 * they were applied.  Then, for every cycle:
 *
 *  - the database, as the killed process left it, opened read-only with
 *    SQLite: PRAGMA integrity_check must be "ok";
 *  - the daemon is restarted on it; every acknowledged move must be in
 *    HISTORY, at its seq, exactly as acknowledged (else it counts as
 *    lost); moves past those must be a prefix of the in-flight ones; the
 *    game's move count (GAME.INFO) must equal its history, and AUDIT must
 *    find the stored state equal to the replay of the history (else it
 *    counts as half applied);
 *  - every in-flight request is sent again, with the same AT seq: each
 *    move must get the reply the engine predicts (the stored result if
 *    it had been applied before the kill), never STALE, and afterwards
 *    the history must hold every move exactly once.
 *
 * At the end every game is checked again after a clean restart.  Output
 * is TAP, one test per durability; the totals are printed as
 * "cycles=.. acknowledged=.. lost=0 half_applied=0 resent_applied_once=..".
 * Without options: 20 cycles at durability full, then 20 at normal (the
 * form make check runs).  --self-test deletes the newest history row of
 * the database after each kill, as a store losing its last commit would:
 * the run must then fail, which shows that the checks can fail.
 * doc/testing.md, "Crash safety", has the long form and its figures.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "rclient.h"

#define IO_TIMEOUT_MS	30000	/* no reply this long: the daemon hangs */
#define DRAIN_MS	5000	/* reading what a killed daemon had sent */
#define SLOTS		3	/* games played at once per connection */
#define MAX_PIPELINE	32	/* requests per connection per round */
#define MAX_ROUNDS	4	/* rounds in a cycle before the kill */
#define MAX_MOVES	3000	/* a game this long is abandoned */
#define DANDY_MOVES	150	/* draws before a deckless game is replaced */
#define MAX_JUMPS	6
#define HIST_PAGE	10000	/* HISTORY's largest count */
#define SAMPLE_OLD	2	/* old games re-checked per cycle */

enum gkind { GK_LUDO = 0, GK_SNL, GK_DANDY };

struct hmove {
	char	 player[16];
	char	 action[16];
	char	 result[48];
};

struct jump {
	int	 from, to;
	int	 snake;
	int	 acked;
	int	 present;	/* seen in SNL.STATE after a kill */
};

struct cgame {
	char		 id[24];
	enum gkind	 kind;
	int		 conn;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} st;			/* after every request sent */
	int		 nplayers;
	struct hmove	*mv;	/* every move sent, mv[i] is seq i + 1 */
	size_t		 nmv, capmv;
	size_t		 acked;	/* moves acknowledged (a prefix) */
	int		 created_acked;
	int		 existed;	/* found after a kill, before resend */
	struct jump	 jumps[MAX_JUMPS];
	int		 njumps;
	int		 done;	/* no more moves will be sent */
	int		 cycle;	/* last cycle with a request */
};

enum optype { OP_CREATE, OP_JUMP, OP_MOVE };

struct op {
	enum optype	 type;
	int		 game;
	size_t		 idx;	/* OP_MOVE: move index; OP_JUMP: jump index */
	char		*req;
	size_t		 reqlen;
};

struct cconn {
	struct rconn	 rc;
	int		 slot[SLOTS];	/* game index, -1 none */
	struct op	*ops;		/* this cycle's requests */
	size_t		 nops, capops;
	size_t		 nacked;	/* ops acknowledged (a prefix) */
};

struct totals {
	uint64_t	 cycles;
	uint64_t	 acknowledged;	/* moves */
	uint64_t	 inflight;	/* moves unacknowledged at a kill */
	uint64_t	 applied_before;	/* of those, found applied */
	uint64_t	 resent_once;	/* resent and then found once */
	uint64_t	 lost;
	uint64_t	 half_applied;
	uint64_t	 stale;
	uint64_t	 mismatches;
	uint64_t	 integrity;	/* integrity_check failures */
	uint64_t	 kills_inflight;	/* kills with requests open */
	uint64_t	 games;
};

static struct {
	int		 cycles;
	int		 nconns;
	uint64_t	 seed;
	int		 verbose;
	int		 sabotage;	/* --self-test: the run must fail */
} opt = { 20, 4, 0, 0, 0 };

static struct daemon	 D;
static struct cgame	*games;
static size_t		 ngames, capgames;
static struct cconn	*conns;
static struct totals	 T;
static uint64_t		 rng;
static int		 cur_cycle;
static int64_t		 round_us = 5000;	/* how long a round takes */
static char		 failure[512];		/* first fatal error */

/* ------------------------------------------------------------- helpers */

static uint64_t
rnd64(void)
{
	uint64_t	 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int
rnd(int n)
{
	return n <= 1 ? 0 : (int)(rnd64() % (uint64_t)n);
}

static void
fatal_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Records the first fatal error; the run stops at the next check. */
static void
fatal_msg(const char *fmt, ...)
{
	va_list	 ap;

	if (failure[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof failure, fmt, ap);
	va_end(ap);
	fprintf(stderr, "crash: cycle %d: %s\n", cur_cycle, failure);
}

static void
diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
diag(const char *fmt, ...)
{
	va_list	 ap;

	if (!opt.verbose)
		return;
	va_start(ap, fmt);
	rc_vnote(fmt, ap);
	va_end(ap);
}

static const char *
reply_text(const struct reply *r)
{
	static char	 buf[160];

	switch (r->type) {
	case REPLY_STATUS:
		snprintf(buf, sizeof buf, "+%s", r->str);
		break;
	case REPLY_ERROR:
		snprintf(buf, sizeof buf, "-%s", r->str);
		break;
	case REPLY_INT:
		snprintf(buf, sizeof buf, ":%lld", r->integer);
		break;
	case REPLY_BULK:
		snprintf(buf, sizeof buf, "$%.100s", r->str);
		break;
	case REPLY_ARRAY:
		snprintf(buf, sizeof buf, "array of %zu", r->n);
		break;
	default:
		snprintf(buf, sizeof buf, "reply type %d", (int)r->type);
		break;
	}
	return buf;
}

/* The words of an encoded request, for messages (a static buffer). */
static const char *
req_text(const struct op *o)
{
	static char	 buf[200];
	const char	*p = o->req, *end = o->req + o->reqlen, *nl;
	size_t		 n = 0, w;

	while (p < end && (nl = memchr(p, '\r', (size_t)(end - p))) != NULL) {
		w = (size_t)(nl - p);
		if (*p != '*' && *p != '$' && n + w + 2 < sizeof buf) {
			if (n > 0)
				buf[n++] = ' ';
			memcpy(buf + n, p, w);
			n += w;
		}
		p = nl + 2;
	}
	buf[n] = '\0';
	return buf;
}

/* A call on a fresh or idle connection; 0, or -1 (a fatal error set). */
static int
call(struct rconn *c, struct reply *r, const char *a0, const char *a1,
    const char *a2, const char *a3)
{
	int	 rv;

	memset(r, 0, sizeof *r);
	rv = rc_call(c, r, IO_TIMEOUT_MS, a0, a1, a2, a3, (const char *)NULL);
	if (rv != 1) {
		fatal_msg("%s %s: %s", a0, a1 != NULL ? a1 : "",
		    rv == 0 ? "connection closed" : "no reply in time");
		reply_free(r);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- games */

static struct cgame *
game_new(int conn, enum gkind kind)
{
	struct cgame	*g;

	if (ngames == capgames) {
		capgames = capgames == 0 ? 256 : capgames * 2;
		games = xrealloc(games, capgames * sizeof *games);
	}
	g = &games[ngames];
	memset(g, 0, sizeof *g);
	snprintf(g->id, sizeof g->id, "%c%zu", "lsd"[kind], ngames);
	g->kind = kind;
	g->conn = conn;
	g->cycle = cur_cycle;
	ngames++;
	T.games++;
	return g;
}

static struct hmove *
move_add(struct cgame *g)
{
	if (g->nmv == g->capmv) {
		g->capmv = g->capmv == 0 ? 64 : g->capmv * 2;
		g->mv = xrealloc(g->mv, g->capmv * sizeof *g->mv);
	}
	memset(&g->mv[g->nmv], 0, sizeof g->mv[g->nmv]);
	return &g->mv[g->nmv++];
}

static void
op_add(struct cconn *cc, enum optype type, int game, size_t idx, int argc,
    const char *const *argv)
{
	struct op	*o;
	size_t		 cap = 0;

	if (cc->nops == cc->capops) {
		cc->capops = cc->capops == 0 ? 64 : cc->capops * 2;
		cc->ops = xrealloc(cc->ops, cc->capops * sizeof *cc->ops);
	}
	o = &cc->ops[cc->nops++];
	memset(o, 0, sizeof *o);
	o->type = type;
	o->game = game;
	o->idx = idx;
	rc_encode(&o->req, &o->reqlen, &cap, argc, argv);
}

static const char *const ludo_names[LUDO_MAX_PLAYERS] = {
	"red", "blue", "green", "yellow"
};

static void
create_ludo(struct cconn *cc, int ci)
{
	static const char *const presets[] = {
		"classic", "interview", "extended"
	};
	struct cgame		*g = game_new(ci, GK_LUDO);
	struct ludo_rules	 rules;
	const char		*argv[8];
	char			 rulearg[32];
	const char		*preset = presets[rnd(3)];
	int			 n = 2 + rnd(3), i, argc = 0;

	if (ludo_rules_preset(&rules, preset) == -1 ||
	    ludo_init(&g->st.ludo, &rules, n) == -1)
		abort();
	g->nplayers = n;
	argv[argc++] = "LUDO.CREATE";
	argv[argc++] = g->id;
	for (i = 0; i < n; i++)
		argv[argc++] = ludo_names[i];
	snprintf(rulearg, sizeof rulearg, "rules=%s", preset);
	argv[argc++] = rulearg;
	op_add(cc, OP_CREATE, (int)(g - games), 0, argc, argv);
}

static void
create_snl(struct cconn *cc, int ci)
{
	struct cgame	*g = game_new(ci, GK_SNL);
	const char	*argv[4], *why;
	char		 n[16], a[16], b[16];
	int		 i, tries, from, to, snake, rv;

	g->nplayers = 1 + rnd(4);
	if (snl_init(&g->st.snl, g->nplayers) == -1)
		abort();
	snprintf(n, sizeof n, "%d", g->nplayers);
	argv[0] = "SNL.CREATE";
	argv[1] = g->id;
	argv[2] = n;
	op_add(cc, OP_CREATE, (int)(g - games), 0, 3, argv);
	tries = rnd(MAX_JUMPS + 1);
	for (i = 0; i < tries; i++) {
		snake = rnd(2);
		from = 2 + rnd(97);
		if (snake) {
			to = 1 + rnd(from - 1);
			rv = snl_add_snake(&g->st.snl, from, to, &why);
		} else {
			to = from + 1 + rnd(100 - from);
			rv = snl_add_ladder(&g->st.snl, from, to, &why);
		}
		if (rv == -1)
			continue;
		g->jumps[g->njumps].from = from;
		g->jumps[g->njumps].to = to;
		g->jumps[g->njumps].snake = snake;
		snprintf(a, sizeof a, "%d", from);
		snprintf(b, sizeof b, "%d", to);
		argv[0] = snake ? "SNL.SNAKE" : "SNL.LADDER";
		argv[2] = a;
		argv[3] = b;
		op_add(cc, OP_JUMP, (int)(g - games), (size_t)g->njumps, 4,
		    argv);
		g->njumps++;
	}
}

static void
create_dandy(struct cconn *cc, int ci)
{
	static const char cards[] = "abcdefghi123456789";
	struct cgame	*g = game_new(ci, GK_DANDY);
	const char	*argv[5], *why;
	char		 n[16], board[DANDY_BOARD_MAX + 1];
	char		 deck[DANDY_DECK_MAX + 8];
	int		 i, blen, dlen, argc = 0;

	g->nplayers = 1 + rnd(DANDY_MAX_PLAYERS);
	blen = 1 + rnd(DANDY_BOARD_MAX);
	for (i = 0; i < blen; i++)
		board[i] = (char)('a' + rnd(9));
	board[blen] = '\0';
	dlen = rnd(2) ? 1 + rnd(300) : 0;
	memcpy(deck, "deck=", 5);
	for (i = 0; i < dlen; i++)
		deck[5 + i] = cards[rnd(18)];
	deck[5 + dlen] = '\0';
	if (dandy_init(&g->st.dandy, g->nplayers, board,
	    dlen > 0 ? deck + 5 : NULL, &why) == -1)
		abort();
	snprintf(n, sizeof n, "%d", g->nplayers);
	argv[argc++] = "DANDY.CREATE";
	argv[argc++] = g->id;
	argv[argc++] = n;
	argv[argc++] = board;
	if (dlen > 0)
		argv[argc++] = deck;
	op_add(cc, OP_CREATE, (int)(g - games), 0, argc, argv);
}

/* One random legal Ludo move; 0, or -1 if none is found (abandon). */
static int
move_ludo(struct cgame *g, struct hmove *m, char *dicebuf, char *tokbuf)
{
	struct ludo_state	 out;
	enum ludo_result	 res;
	int			 toks[LUDO_TOKENS], n, tries, dice, token, p;

	p = g->st.ludo.turn;
	for (tries = 0; tries < 64; tries++) {
		dice = 1 + rnd(6);
		n = ludo_legal(&g->st.ludo, dice, toks);
		token = n > 0 ? toks[rnd(n)] : 0;
		res = ludo_play(&g->st.ludo, p, dice, token, &out);
		if (!ludo_result_stored(res))
			continue;
		snprintf(m->player, sizeof m->player, "%s", ludo_names[p]);
		snprintf(m->action, sizeof m->action, "%d:%d", dice, token);
		snprintf(m->result, sizeof m->result, "%s",
		    ludo_result_str(res));
		snprintf(dicebuf, 16, "%d", dice);
		snprintf(tokbuf, 16, "%d", token);
		g->st.ludo = out;
		if (out.winner >= 0)
			g->done = 1;
		return 0;
	}
	return -1;
}

static void
move_snl(struct cgame *g, struct hmove *m, char *valbuf)
{
	struct snl_state	 out;
	struct snl_result	 r;
	int			 v = 1 + rnd(6);

	if (snl_roll(&g->st.snl, v, &out, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER)
		abort();
	snprintf(m->player, sizeof m->player, "P%d", r.player + 1);
	snprintf(m->action, sizeof m->action, "%d", v);
	if (r.outcome == SNL_WON)
		snprintf(m->result, sizeof m->result, "P%d WINS",
		    r.player + 1);
	else
		snprintf(m->result, sizeof m->result, "P%d %d",
		    r.player + 1, r.pos);
	snprintf(valbuf, 16, "%d", v);
	g->st.snl = out;
	if (out.winner >= 0)
		g->done = 1;
}

static void
move_dandy(struct cgame *g, struct hmove *m, char *cardbuf)
{
	static const char cards[] = "abcdefghi123456789";
	struct dandy_state	*st = &g->st.dandy, out;
	struct dandy_result	 r;
	int			 card;

	card = st->has_deck ? 0 : cards[rnd(18)];
	snprintf(m->action, sizeof m->action, "%c",
	    st->has_deck ? st->deck[st->drawn] : card);
	if (dandy_draw(st, card, &out, &r) == -1 || r.game_over)
		abort();
	snprintf(m->player, sizeof m->player, "P%d", r.player + 1);
	if (r.pos == DANDY_OFF)
		snprintf(m->result, sizeof m->result, "P%d OFF %d",
		    r.player + 1, r.points);
	else
		snprintf(m->result, sizeof m->result, "P%d %d %d",
		    r.player + 1, r.pos + 1, r.points);
	snprintf(cardbuf, 16, "%c", card);
	*st = out;
	if (st->has_deck ? st->turn == -1 : g->nmv >= DANDY_MOVES)
		g->done = 1;
}

/* Queues the next move of g; 0, or -1 when g has none to make. */
static int
gen_move(struct cconn *cc, struct cgame *g)
{
	struct hmove	*m;
	const char	*argv[8];
	char		 a[16], b[16], at[24];
	int		 argc = 0;

	if (g->nmv >= MAX_MOVES)
		g->done = 1;
	if (g->done)
		return -1;
	snprintf(at, sizeof at, "%zu", g->nmv);
	m = move_add(g);
	switch (g->kind) {
	case GK_LUDO:
		if (move_ludo(g, m, a, b) == -1) {
			g->nmv--;
			g->done = 1;
			return -1;
		}
		argv[argc++] = "LUDO.PLAY";
		argv[argc++] = g->id;
		argv[argc++] = m->player;
		argv[argc++] = a;
		argv[argc++] = b;
		break;
	case GK_SNL:
		move_snl(g, m, a);
		argv[argc++] = "SNL.ROLL";
		argv[argc++] = g->id;
		argv[argc++] = a;
		break;
	case GK_DANDY:
		move_dandy(g, m, a);
		argv[argc++] = "DANDY.DRAW";
		argv[argc++] = g->id;
		if (!g->st.dandy.has_deck)
			argv[argc++] = a;
		break;
	}
	argv[argc++] = "AT";
	argv[argc++] = at;
	g->cycle = cur_cycle;
	op_add(cc, OP_MOVE, (int)(g - games), g->nmv - 1, argc, argv);
	return 0;
}

/* Queues k requests on connection ci: moves, and games to replace. */
static void
gen_pipeline(int ci, int k)
{
	struct cconn	*cc = &conns[ci];
	int		 s, n;

	for (n = 0; n < k; ) {
		s = rnd(SLOTS);
		if (cc->slot[s] == -1 || games[cc->slot[s]].done) {
			switch (rnd(3)) {
			case 0:
				create_ludo(cc, ci);
				break;
			case 1:
				create_snl(cc, ci);
				break;
			default:
				create_dandy(cc, ci);
				break;
			}
			cc->slot[s] = (int)ngames - 1;
			n++;
			continue;
		}
		if (gen_move(cc, &games[cc->slot[s]]) == 0)
			n++;
	}
}

/* ---------------------------------------------------------- the replies */

/* Checks a reply against the op it answers and records the ack. */
static void
ack(struct cconn *cc, const struct reply *r)
{
	struct op	*o = &cc->ops[cc->nacked];
	struct cgame	*g = &games[o->game];

	switch (o->type) {
	case OP_CREATE:
		if (!rc_is_status(r, "OK"))
			goto mismatch;
		g->created_acked = 1;
		break;
	case OP_JUMP:
		if (!rc_is_status(r, "OK"))
			goto mismatch;
		g->jumps[o->idx].acked = 1;
		break;
	case OP_MOVE:
		if (!rc_is_status(r, g->mv[o->idx].result))
			goto mismatch;
		if (o->idx != g->acked)
			fatal_msg("%s: move %zu acknowledged after %zu",
			    g->id, o->idx + 1, g->acked);
		g->acked = o->idx + 1;
		T.acknowledged++;
		break;
	}
	cc->nacked++;
	return;
mismatch:
	T.mismatches++;
	fatal_msg("%s: request %s got %s", g->id, req_text(o), reply_text(r));
	cc->nacked++;
}

static void
send_round(int ci)
{
	struct cconn	*cc = &conns[ci];
	char		*buf = NULL;
	size_t		 len = 0, cap = 0, i;

	for (i = cc->nacked; i < cc->nops; i++) {
		if (cap < len + cc->ops[i].reqlen) {
			cap = (len + cc->ops[i].reqlen) * 2;
			buf = xrealloc(buf, cap);
		}
		memcpy(buf + len, cc->ops[i].req, cc->ops[i].reqlen);
		len += cc->ops[i].reqlen;
	}
	if (len > 0 && rc_write(&cc->rc, buf, len) == -1)
		fatal_msg("connection %d: write: %s", ci, strerror(errno));
	free(buf);
}

/* Parses the replies buffered on a connection. */
static void
parse_acks(struct cconn *cc)
{
	struct reply	 r;

	while (cc->nacked < cc->nops) {
		memset(&r, 0, sizeof r);
		if (!rc_parse_buffered(&cc->rc, &r))
			break;
		ack(cc, &r);
		reply_free(&r);
	}
}

/* Reads until every request of the round is answered. */
static void
read_round(void)
{
	int	 ci, f;

	for (ci = 0; ci < opt.nconns && failure[0] == '\0'; ci++) {
		struct cconn *cc = &conns[ci];

		parse_acks(cc);
		while (cc->nacked < cc->nops && failure[0] == '\0') {
			if ((f = rc_fill(&cc->rc, IO_TIMEOUT_MS)) <= 0) {
				fatal_msg("connection %d: %s", ci, f == 0 ?
				    "closed by the daemon" :
				    "no reply in time");
				return;
			}
			parse_acks(cc);
		}
	}
}

/* Reads until about `want` replies of the round have come, in total. */
static void
read_some(size_t want)
{
	size_t	 got;
	int	 ci;

	for (;;) {
		got = 0;
		for (ci = 0; ci < opt.nconns; ci++) {
			parse_acks(&conns[ci]);
			got += conns[ci].nacked;
		}
		if (got >= want)
			return;
		for (ci = 0; ci < opt.nconns; ci++)
			if (conns[ci].nacked < conns[ci].nops) {
				if (rc_fill(&conns[ci].rc, IO_TIMEOUT_MS) <= 0)
					return;
				break;
			}
		if (ci == opt.nconns)
			return;
	}
}

/* After the kill: what the kernel still delivers is acknowledged. */
static void
drain_after_kill(void)
{
	int	 ci, f;

	for (ci = 0; ci < opt.nconns; ci++) {
		struct cconn *cc = &conns[ci];

		for (;;) {
			parse_acks(cc);
			if (cc->nacked == cc->nops)
				break;
			if ((f = rc_fill(&cc->rc, DRAIN_MS)) == 0)
				break;
			if (f < 0) {
				fatal_msg("connection %d: no end of stream "
				    "after the kill", ci);
				break;
			}
		}
		rc_close(&cc->rc);
	}
}

/* ------------------------------------------------------- the database */

/* PRAGMA integrity_check on the database as the killed daemon left it. */
static void
check_integrity(void)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*st = NULL;
	const char	*txt;
	int		 rc, rows = 0, ok = 0;

	rc = sqlite3_open_v2(D.db, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st,
		    NULL);
	while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		txt = (const char *)sqlite3_column_text(st, 0);
		rows++;
		if (rows == 1 && txt != NULL && strcmp(txt, "ok") == 0)
			ok = 1;
		else
			fprintf(stderr, "crash: integrity_check: %s\n",
			    txt != NULL ? txt : "(null)");
	}
	if (rc != SQLITE_OK)
		fprintf(stderr, "crash: integrity_check: %s\n",
		    db != NULL ? sqlite3_errmsg(db) : "cannot open");
	if (rc != SQLITE_OK || !ok || rows != 1) {
		T.integrity++;
		fatal_msg("PRAGMA integrity_check failed");
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * --self-test: deletes the newest history row, as a store that lost the
 * last commit would, to show that the checks catch it (the run fails).
 */
static void
sabotage(void)
{
	static const char sql[] = "DELETE FROM history WHERE (game, seq) = "
	    "(SELECT game, max(seq) FROM history WHERE game = "
	    "(SELECT game FROM history ORDER BY at DESC LIMIT 1))";
	sqlite3	*db = NULL;

	if (sqlite3_open_v2(D.db, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK || sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fprintf(stderr, "crash: --self-test: %s\n",
		    db != NULL ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_close(db);
}

/* ---------------------------------------------------------- verifying */

/* GAME.INFO's moves, -1 for NOGAME, -2 on a failure. */
static long long
info_moves(struct rconn *c, const struct cgame *g)
{
	struct reply	 r;
	long long	 moves = -2;
	size_t		 i;
	int64_t		 v;
	const char	*errstr;

	if (call(c, &r, "GAME.INFO", g->id, NULL, NULL) == -1)
		return -2;
	if (rc_is_error(&r, "NOGAME"))
		moves = -1;
	else if (r.type == REPLY_ARRAY) {
		for (i = 0; i < r.n; i++)
			if (r.elem[i].type == REPLY_STATUS &&
			    strncmp(r.elem[i].str, "moves,", 6) == 0 &&
			    parse_int64(r.elem[i].str + 6, 0, INT64_MAX, &v,
			    &errstr) == 0)
				moves = v;
	}
	if (moves == -2)
		fatal_msg("GAME.INFO %s: %s", g->id, reply_text(&r));
	reply_free(&r);
	return moves;
}

/*
 * Reads the whole history of g and compares it with the moves sent:
 * returns how many rows there are (-1 on a failure) and sets *agree to
 * the length of the prefix equal to the moves sent.
 */
static long long
history(struct rconn *c, const struct cgame *g, size_t *agree)
{
	struct reply	 r;
	char		 from[24], want[128];
	size_t		 n = 0, i;
	int		 prefix = 1;

	*agree = 0;
	for (;;) {
		snprintf(from, sizeof from, "%zu", n + 1);
		if (call(c, &r, "HISTORY", g->id, from, "10000") == -1)
			return -1;
		if (r.type != REPLY_ARRAY) {
			fatal_msg("HISTORY %s: %s", g->id, reply_text(&r));
			reply_free(&r);
			return -1;
		}
		for (i = 0; i < r.n; i++, n++) {
			if (!prefix)
				continue;
			if (n >= g->nmv) {
				prefix = 0;
				continue;
			}
			snprintf(want, sizeof want, "%zu,%s,%s,%s", n + 1,
			    g->mv[n].player, g->mv[n].action,
			    g->mv[n].result);
			if (r.elem[i].type != REPLY_STATUS ||
			    strcmp(r.elem[i].str, want) != 0) {
				if (opt.verbose)
					fprintf(stderr, "crash: %s: row %zu "
					    "is %s, sent %s\n", g->id, n + 1,
					    reply_text(&r.elem[i]), want);
				prefix = 0;
				continue;
			}
			*agree = n + 1;
		}
		i = r.n;
		reply_free(&r);
		if (i < HIST_PAGE)
			break;
	}
	return (long long)n;
}

/* AUDIT id: 1 when the stored state is the replay of the history. */
static int
audit(struct rconn *c, const struct cgame *g)
{
	struct reply	 r;
	int		 ok;

	if (call(c, &r, "AUDIT", g->id, NULL, NULL) == -1)
		return 0;
	ok = r.type == REPLY_ARRAY && r.n == 0;
	if (!ok && opt.verbose)
		fprintf(stderr, "crash: AUDIT %s: %s\n", g->id,
		    reply_text(&r));
	reply_free(&r);
	return ok;
}

/* Marks the jumps SNL.STATE shows; -1 on a failure. */
static int
snl_jumps(struct rconn *c, struct cgame *g)
{
	struct reply	 r;
	size_t		 i;
	int		 j, a, b, found = 0, snake;

	for (j = 0; j < g->njumps; j++)
		g->jumps[j].present = 0;
	if (call(c, &r, "SNL.STATE", g->id, NULL, NULL) == -1)
		return -1;
	if (r.type != REPLY_ARRAY) {
		fatal_msg("SNL.STATE %s: %s", g->id, reply_text(&r));
		reply_free(&r);
		return -1;
	}
	for (i = 0; i < r.n; i++) {
		const char *s = r.elem[i].str;

		if (r.elem[i].type != REPLY_STATUS)
			continue;
		if (sscanf(s, "snake,%d,%d", &a, &b) == 2)
			snake = 1;
		else if (sscanf(s, "ladder,%d,%d", &a, &b) == 2)
			snake = 0;
		else
			continue;
		found++;
		for (j = 0; j < g->njumps; j++)
			if (g->jumps[j].from == a && g->jumps[j].to == b &&
			    g->jumps[j].snake == snake)
				g->jumps[j].present = 1;
	}
	reply_free(&r);
	return found;
}

/*
 * After the restart, before anything is resent: the acknowledged part of
 * the game must be there, and whatever is past it must be a prefix of
 * what was in flight.
 */
static void
verify_after_kill(struct rconn *c, struct cgame *g)
{
	long long	 moves, rows;
	size_t		 agree;
	int		 j, found, gap = 0;

	moves = info_moves(c, g);
	if (moves == -2)
		return;
	g->existed = moves >= 0;
	if (!g->existed) {
		if (g->created_acked) {
			fatal_msg("%s: acknowledged creation lost", g->id);
			T.lost += g->acked > 0 ? g->acked : 1;
		}
		return;
	}
	if ((rows = history(c, g, &agree)) < 0)
		return;
	if (agree < g->acked) {
		T.lost += g->acked - agree;
		fatal_msg("%s: %zu acknowledged moves, history agrees on %zu",
		    g->id, g->acked, agree);
	}
	if ((size_t)rows != agree) {
		T.half_applied++;
		fatal_msg("%s: history has %lld rows, only %zu were sent as "
		    "such", g->id, rows, agree);
	}
	if (moves != rows) {
		T.half_applied++;
		fatal_msg("%s: GAME.INFO says %lld moves, history has %lld",
		    g->id, moves, rows);
	}
	if (!audit(c, g)) {
		T.half_applied++;
		fatal_msg("%s: AUDIT: stored state is not the replay of the "
		    "history", g->id);
	}
	if (rows > (long long)g->acked)
		T.applied_before += (uint64_t)rows - g->acked;
	if (g->kind == GK_SNL && g->njumps > 0) {
		if ((found = snl_jumps(c, g)) < 0)
			return;
		for (j = 0; j < g->njumps; j++) {
			if (g->jumps[j].acked && !g->jumps[j].present) {
				T.lost++;
				fatal_msg("%s: acknowledged jump %d lost",
				    g->id, j);
			}
			if (!g->jumps[j].present)
				gap = 1;
			else if (gap) {
				T.half_applied++;
				fatal_msg("%s: jump %d applied after a missing "
				    "one", g->id, j);
			}
		}
	}
}

/* After the resend: everything sent is there, exactly once. */
static void
verify_complete(struct rconn *c, struct cgame *g, uint64_t resent)
{
	long long	 moves, rows;
	size_t		 agree;
	int		 j;

	moves = info_moves(c, g);
	if (moves == -2)
		return;
	if (moves < 0) {
		fatal_msg("%s: no such game after the resend", g->id);
		return;
	}
	if ((rows = history(c, g, &agree)) < 0)
		return;
	if (agree != g->nmv || rows != (long long)g->nmv ||
	    moves != rows) {
		fatal_msg("%s: %zu moves sent, history has %lld rows (%zu "
		    "agree), GAME.INFO %lld", g->id, g->nmv, rows, agree,
		    moves);
		if (rows > (long long)g->nmv)
			T.half_applied++;
		return;
	}
	if (!audit(c, g)) {
		T.half_applied++;
		fatal_msg("%s: AUDIT failed after the resend", g->id);
		return;
	}
	if (g->kind == GK_SNL && g->njumps > 0) {
		if (snl_jumps(c, g) != g->njumps) {
			fatal_msg("%s: SNL.STATE jumps differ", g->id);
			return;
		}
		for (j = 0; j < g->njumps; j++)
			if (!g->jumps[j].present)
				fatal_msg("%s: jump %d missing", g->id, j);
	}
	T.resent_once += resent;
	g->acked = g->nmv;
	g->created_acked = 1;
	for (j = 0; j < g->njumps; j++)
		g->jumps[j].acked = 1;
}

/* ------------------------------------------------------------ a cycle */

static int
connect_all(void)
{
	int	 ci;

	for (ci = 0; ci < opt.nconns; ci++) {
		if (rc_open(&conns[ci].rc, D.port) == -1) {
			fatal_msg("connect: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void
ops_clear(void)
{
	size_t	 i;
	int	 ci;

	for (ci = 0; ci < opt.nconns; ci++) {
		for (i = 0; i < conns[ci].nops; i++)
			free(conns[ci].ops[i].req);
		conns[ci].nops = conns[ci].nacked = 0;
	}
}

/*
 * Resends the unacknowledged requests of each connection, pipelined and
 * in order, on a new connection, and checks each reply.
 */
static void
resend(void)
{
	struct reply	 r;
	struct op	*o;
	struct cgame	*g;
	char		*buf = NULL;
	size_t		 len, cap = 0, i, nsent;
	int		 ci;

	for (ci = 0; ci < opt.nconns && failure[0] == '\0'; ci++) {
		struct cconn *cc = &conns[ci];

		len = 0;
		nsent = 0;
		for (i = cc->nacked; i < cc->nops; i++) {
			o = &cc->ops[i];
			g = &games[o->game];
			if (o->type == OP_JUMP && g->jumps[o->idx].present)
				continue;
			if (cap < len + o->reqlen) {
				cap = (len + o->reqlen) * 2;
				buf = xrealloc(buf, cap);
			}
			memcpy(buf + len, o->req, o->reqlen);
			len += o->reqlen;
			nsent++;
		}
		if (nsent == 0)
			continue;
		if (rc_write(&cc->rc, buf, len) == -1) {
			fatal_msg("resend: write: %s", strerror(errno));
			break;
		}
		for (i = cc->nacked; i < cc->nops && failure[0] == '\0'; i++) {
			o = &cc->ops[i];
			g = &games[o->game];
			if (o->type == OP_JUMP && g->jumps[o->idx].present)
				continue;
			memset(&r, 0, sizeof r);
			if (rc_read(&cc->rc, &r, IO_TIMEOUT_MS) != 1) {
				fatal_msg("resend: no reply in time");
				break;
			}
			if (o->type == OP_MOVE && rc_is_error(&r, "STALE")) {
				T.stale++;
				fatal_msg("%s: resent move %zu got %s", g->id,
				    o->idx + 1, reply_text(&r));
			} else if (o->type == OP_MOVE ? !rc_is_status(&r,
			    g->mv[o->idx].result) : o->type == OP_CREATE &&
			    g->existed ? !rc_is_error(&r, "EXISTS") :
			    !rc_is_status(&r, "OK")) {
				T.mismatches++;
				fatal_msg("%s: resent %s got %s", g->id,
				    req_text(o), reply_text(&r));
			}
			reply_free(&r);
		}
	}
	free(buf);
}

/* Games with requests in this cycle, and a few old ones. */
static void
verify_cycle(struct rconn *c, int phase)
{
	size_t		 i, k;
	uint64_t	*resent;
	int		 ci;

	resent = xcalloc(ngames > 0 ? ngames : 1, sizeof *resent);
	for (ci = 0; ci < opt.nconns; ci++)
		for (k = conns[ci].nacked; k < conns[ci].nops; k++)
			if (conns[ci].ops[k].type == OP_MOVE)
				resent[conns[ci].ops[k].game]++;
	for (i = 0; i < ngames && failure[0] == '\0'; i++) {
		if (games[i].cycle != cur_cycle)
			continue;
		if (phase == 0) {
			T.inflight += resent[i];
			verify_after_kill(c, &games[i]);
		} else
			verify_complete(c, &games[i], resent[i]);
	}
	if (phase == 1 && ngames > 0)
		for (k = 0; k < SAMPLE_OLD && failure[0] == '\0'; k++) {
			i = (size_t)rnd((int)ngames);
			if (games[i].cycle != cur_cycle)
				verify_complete(c, &games[i], 0);
		}
	free(resent);
}

/* Waits a random time within the processing of the round, then kills. */
static void
kill_phase(void)
{
	size_t	 total = 0;
	int	 ci, mode = rnd(4);

	for (ci = 0; ci < opt.nconns; ci++)
		total += conns[ci].nops - conns[ci].nacked;
	switch (mode) {
	case 0:				/* at once */
		break;
	case 1:
	case 2: {			/* somewhere in the round */
		int64_t us = round_us + round_us / 4;

		if (us > 0) {
			int64_t end = rc_now_us() + (int64_t)(rnd64() %
			    (uint64_t)us);

			while (rc_now_us() < end)
				usleep(50);
		}
		break;
	}
	default: {			/* after some replies */
		size_t acked = 0;

		for (ci = 0; ci < opt.nconns; ci++)
			acked += conns[ci].nacked;
		read_some(acked + (size_t)rnd((int)total + 1));
		break;
	}
	}
	daemon_stop(&D, SIGKILL);
	drain_after_kill();
	for (ci = 0; ci < opt.nconns; ci++)
		if (conns[ci].nacked < conns[ci].nops) {
			T.kills_inflight++;
			break;
		}
}

static void
cycle(const char *const *extra)
{
	struct rconn	 chk;
	int64_t		 t0;
	int		 rounds = 1 + rnd(MAX_ROUNDS), r, ci;

	for (r = 0; r < rounds && failure[0] == '\0'; r++) {
		t0 = rc_now_us();
		for (ci = 0; ci < opt.nconns; ci++) {
			gen_pipeline(ci, 1 + rnd(MAX_PIPELINE));
			send_round(ci);
		}
		if (r < rounds - 1) {
			read_round();
			round_us = (round_us + (rc_now_us() - t0)) / 2;
		}
	}
	if (failure[0] != '\0')
		return;
	kill_phase();
	check_integrity();
	if (opt.sabotage)
		sabotage();
	if (daemon_start(&D, extra) == -1) {
		fatal_msg("the daemon does not restart");
		return;
	}
	if (rc_open(&chk, D.port) == -1) {
		fatal_msg("connect: %s", strerror(errno));
		return;
	}
	verify_cycle(&chk, 0);
	if (failure[0] == '\0' && connect_all() == 0) {
		resend();
		verify_cycle(&chk, 1);
	}
	rc_close(&chk);
	ops_clear();
	T.cycles++;
	diag("cycle %d: acknowledged=%" PRIu64 " inflight=%" PRIu64
	    " applied_before_kill=%" PRIu64, cur_cycle, T.acknowledged,
	    T.inflight, T.applied_before);
}

/* The end: a clean stop and restart, then every game checked. */
static void
final_check(const char *const *extra)
{
	struct rconn	 c;
	struct reply	 r;
	size_t		 i;
	int		 rc;

	for (i = 0; i < (size_t)opt.nconns; i++)
		rc_close(&conns[i].rc);
	if ((rc = daemon_finish(&D)) != 0) {
		fatal_msg("ludusd exited with %d on SIGTERM", rc);
		return;
	}
	check_integrity();
	if (daemon_start(&D, extra) == -1 || rc_open(&c, D.port) == -1) {
		fatal_msg("the daemon does not restart");
		return;
	}
	cur_cycle = -1;
	for (i = 0; i < ngames && failure[0] == '\0'; i++)
		verify_complete(&c, &games[i], 0);
	if (failure[0] == '\0' && call(&c, &r, "AUDIT", NULL, NULL,
	    NULL) == 0) {
		if (r.type != REPLY_ARRAY || r.n != 0) {
			T.half_applied++;
			fatal_msg("AUDIT of every game: %s", reply_text(&r));
		}
		reply_free(&r);
	}
	rc_close(&c);
	if ((rc = daemon_finish(&D)) != 0)
		fatal_msg("ludusd exited with %d on SIGTERM", rc);
}

static void
reset_run(void)
{
	size_t	 i;
	int	 ci;

	for (i = 0; i < ngames; i++)
		free(games[i].mv);
	free(games);
	games = NULL;
	ngames = capgames = 0;
	if (conns != NULL) {
		ops_clear();
		for (ci = 0; ci < opt.nconns; ci++) {
			rc_close(&conns[ci].rc);
			free(conns[ci].ops);
		}
		free(conns);
	}
	conns = xcalloc((size_t)opt.nconns, sizeof *conns);
	for (ci = 0; ci < opt.nconns; ci++) {
		conns[ci].rc.fd = -1;
		memset(conns[ci].slot, -1, sizeof conns[ci].slot);
	}
	memset(&T, 0, sizeof T);
	failure[0] = '\0';
}

/* One run at one durability: 0 when everything held. */
static int
run(const char *durability, int tapno)
{
	const char *const extra[] = { "--durability", durability, NULL };
	int64_t		 t0 = rc_now_ms();
	int		 ok;

	reset_run();
	rng = opt.seed ^ (uint64_t)tapno * 0x51ed27a1ULL;
	if (daemon_launch(&D, extra) == -1) {
		printf("not ok %d - durability %s: the daemon does not "
		    "start\n", tapno, durability);
		return -1;
	}
	if (connect_all() == 0)
		for (cur_cycle = 1; cur_cycle <= opt.cycles &&
		    failure[0] == '\0'; cur_cycle++)
			cycle(extra);
	if (failure[0] == '\0')
		final_check(extra);
	if (failure[0] != '\0')
		daemon_dump_log(&D);
	daemon_cleanup(&D);
	ok = failure[0] == '\0' && T.lost == 0 && T.half_applied == 0 &&
	    T.stale == 0 && T.mismatches == 0 && T.integrity == 0;
	printf("# durability=%s cycles=%" PRIu64 " acknowledged=%" PRIu64
	    " lost=%" PRIu64 " half_applied=%" PRIu64
	    " resent_applied_once=%" PRIu64 "\n", durability, T.cycles,
	    T.acknowledged, T.lost, T.half_applied, T.resent_once);
	printf("# games=%" PRIu64 " inflight_at_kill=%" PRIu64
	    " applied_before_kill=%" PRIu64 " kills_with_requests_in_flight=%"
	    PRIu64 " stale=%" PRIu64 " mismatches=%" PRIu64
	    " integrity_failures=%" PRIu64 " seconds=%.1f\n", T.games,
	    T.inflight, T.applied_before, T.kills_inflight, T.stale,
	    T.mismatches, T.integrity, (double)(rc_now_ms() - t0) / 1000.0);
	printf("%s %d - kill -9 at durability %s: %" PRIu64 " cycles, %"
	    PRIu64 " acknowledged, lost %" PRIu64 ", half applied %" PRIu64
	    "%s%s\n", ok ? "ok" : "not ok", tapno, durability, T.cycles,
	    T.acknowledged, T.lost, T.half_applied,
	    failure[0] != '\0' ? ": " : "", failure);
	fflush(stdout);
	return ok ? 0 : -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: crash [--cycles N] [--durability "
	    "full|normal|off|both] [--connections C] [--seed S] "
	    "[--verbose] [--self-test]\n");
	exit(2);
}

static int64_t
num_arg(const char *s, int64_t min, int64_t max)
{
	const char	*errstr;
	int64_t		 v;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) == -1)
		usage();
	return v;
}

int
main(int argc, char **argv)
{
	const char	*durs[2] = { "full", "normal" };
	int		 ndurs = 2, i, fails = 0;

	opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cycles") == 0)
			opt.cycles = (int)num_arg(argv[++i], 1, 10000000);
		else if (strcmp(argv[i], "--connections") == 0)
			opt.nconns = (int)num_arg(argv[++i], 1, 256);
		else if (strcmp(argv[i], "--seed") == 0)
			opt.seed = (uint64_t)num_arg(argv[++i], 0, INT64_MAX);
		else if (strcmp(argv[i], "--durability") == 0) {
			if (++i >= argc)
				usage();
			if (strcmp(argv[i], "both") == 0)
				ndurs = 2;
			else if (strcmp(argv[i], "full") == 0 ||
			    strcmp(argv[i], "normal") == 0 ||
			    strcmp(argv[i], "off") == 0) {
				durs[0] = argv[i];
				ndurs = 1;
			} else
				usage();
		} else if (strcmp(argv[i], "--verbose") == 0)
			opt.verbose = 1;
		else if (strcmp(argv[i], "--self-test") == 0)
			opt.sabotage = 1;
		else
			usage();
	}
	signal(SIGPIPE, SIG_IGN);
	printf("1..%d\n# seed=%" PRIu64 " connections=%d cycles=%d\n", ndurs,
	    opt.seed, opt.nconns, opt.cycles);
	fflush(stdout);
	for (i = 0; i < ndurs; i++)
		if (run(durs[i], i + 1) == -1)
			fails++;
	reset_run();
	free(conns);
	return fails == 0 ? 0 : 1;
}
