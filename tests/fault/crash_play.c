/*
 * crash's play (see crash.c): random legal games of all three kinds, each
 * move pipelined with "AT seq" and predicted by the engine, and the
 * replies read as acknowledgements, before and after the kill.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "rclient.h"
#include "crash.h"

/* ------------------------------------------------------------- helpers */

uint64_t
cr_rnd64(void)
{
	uint64_t	 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int
cr_rnd(int n)
{
	return n <= 1 ? 0 : (int)(cr_rnd64() % (uint64_t)n);
}

/* Records the first fatal error; the run stops at the next check. */
void
cr_fatal_msg(const char *fmt, ...)
{
	va_list	 ap;

	if (failure[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof failure, fmt, ap);
	va_end(ap);
	fprintf(stderr, "crash: cycle %d: %s\n", cur_cycle, failure);
}

void
cr_diag(const char *fmt, ...)
{
	va_list	 ap;

	if (!opt.verbose)
		return;
	va_start(ap, fmt);
	rc_vnote(fmt, ap);
	va_end(ap);
}

const char *
cr_reply_text(const struct reply *r)
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
const char *
cr_req_text(const struct op *o)
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
int
cr_call(struct rconn *c, struct reply *r, const char *a0, const char *a1,
    const char *a2, const char *a3)
{
	int	 rv;

	memset(r, 0, sizeof *r);
	rv = rc_call(c, r, IO_TIMEOUT_MS, a0, a1, a2, a3, (const char *)NULL);
	if (rv != 1) {
		cr_fatal_msg("%s %s: %s", a0, a1 != NULL ? a1 : "",
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
	const char		*preset = presets[cr_rnd(3)];
	int			 n = 2 + cr_rnd(3), i, argc = 0;

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

	g->nplayers = 1 + cr_rnd(4);
	if (snl_init(&g->st.snl, g->nplayers) == -1)
		abort();
	snprintf(n, sizeof n, "%d", g->nplayers);
	argv[0] = "SNL.CREATE";
	argv[1] = g->id;
	argv[2] = n;
	op_add(cc, OP_CREATE, (int)(g - games), 0, 3, argv);
	tries = cr_rnd(MAX_JUMPS + 1);
	for (i = 0; i < tries; i++) {
		snake = cr_rnd(2);
		from = 2 + cr_rnd(97);
		if (snake) {
			to = 1 + cr_rnd(from - 1);
			rv = snl_add_snake(&g->st.snl, from, to, &why);
		} else {
			to = from + 1 + cr_rnd(100 - from);
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

	g->nplayers = 1 + cr_rnd(DANDY_MAX_PLAYERS);
	blen = 1 + cr_rnd(DANDY_BOARD_MAX);
	for (i = 0; i < blen; i++)
		board[i] = (char)('a' + cr_rnd(9));
	board[blen] = '\0';
	dlen = cr_rnd(2) ? 1 + cr_rnd(300) : 0;
	memcpy(deck, "deck=", 5);
	for (i = 0; i < dlen; i++)
		deck[5 + i] = cards[cr_rnd(18)];
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
		dice = 1 + cr_rnd(6);
		n = ludo_legal(&g->st.ludo, dice, toks);
		token = n > 0 ? toks[cr_rnd(n)] : 0;
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
	int			 v = 1 + cr_rnd(6);

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

	card = st->has_deck ? 0 : cards[cr_rnd(18)];
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
void
cr_gen_pipeline(int ci, int k)
{
	struct cconn	*cc = &conns[ci];
	int		 s, n;

	for (n = 0; n < k; ) {
		s = cr_rnd(SLOTS);
		if (cc->slot[s] == -1 || games[cc->slot[s]].done) {
			switch (cr_rnd(3)) {
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
			cr_fatal_msg("%s: move %zu acknowledged after %zu",
			    g->id, o->idx + 1, g->acked);
		g->acked = o->idx + 1;
		T.acknowledged++;
		break;
	}
	cc->nacked++;
	return;
mismatch:
	T.mismatches++;
	cr_fatal_msg("%s: request %s got %s", g->id, cr_req_text(o),
	    cr_reply_text(r));
	cc->nacked++;
}

void
cr_send_round(int ci)
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
		cr_fatal_msg("connection %d: write: %s", ci, strerror(errno));
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
void
cr_read_round(void)
{
	int	 ci, f;

	for (ci = 0; ci < opt.nconns && failure[0] == '\0'; ci++) {
		struct cconn *cc = &conns[ci];

		parse_acks(cc);
		while (cc->nacked < cc->nops && failure[0] == '\0') {
			if ((f = rc_fill(&cc->rc, IO_TIMEOUT_MS)) <= 0) {
				cr_fatal_msg("connection %d: %s", ci, f == 0 ?
				    "closed by the daemon" :
				    "no reply in time");
				return;
			}
			parse_acks(cc);
		}
	}
}

/* Reads until about `want` replies of the round have come, in total. */
void
cr_read_some(size_t want)
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
void
cr_drain_after_kill(void)
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
				cr_fatal_msg("connection %d: no end of stream "
				    "after the kill", ci);
				break;
			}
		}
		rc_close(&cc->rc);
	}
}
