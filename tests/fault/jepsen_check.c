/*
 * The checker of tests/fault/jepsen, part one: the stored truth and the
 * draws against it.
 *
 * The truth is read from PostgreSQL directly (libpq, never through a
 * node), in one snapshot: every game's history rows, games row and
 * tokens.  The engine,
 * linked in, replays each history from the game's creation: every row
 * must be the rules' result of its card (a legal history), seqs 1..n
 * without a gap, and the stored state the replay's last (what AUDIT
 * checks).  The replay keeps the state after each prefix, for the reads.
 *
 * The draws.  The clients never have two draws of one card of one game in
 * flight at once (jepsen_client.c), so for each (game, card) the draws
 * form a sequence of windows that do not overlap, and the rows of that
 * card, in seq order, were committed in the same order (a game's moves
 * commit in seq order).  An explanation of the rows is then a monotone
 * assignment: each draw takes a run of consecutive rows, in order.  A
 * draw answered with its result must take exactly one row with that
 * result (with AT k, the row k + 1; or it finds the row k + 1 stored
 * already, as a resend does); a draw answered with an error takes none;
 * an unknown one takes none or one (with AT k, only row k + 1); a row no
 * draw takes is a phantom.  A dynamic program finds the assignment with
 * the fewest violations, each counted by its kind: lost (acknowledged,
 * no row), duplicated (one request, several rows), error-applied (an
 * error reply, a row), contradicted (a reply that is not the row's).  An
 * explanation of no violation exists exactly when the figures are all
 * zero, so nothing correct is ever flagged; and the unknown draws are
 * resolved by the same explanation (stored or not).
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "fault_helper.h"
#include "jepsen.h"

#define RUN_MAX		6	/* rows one draw may take */
#define COST		10	/* a violation */
#define COST_PHANTOM	11	/* a row nobody asked for */
#define INF		(1 << 29)

struct tgame	*truth;

/* ------------------------------------------------------------ states */

void
jstate_of(struct jstate *j, const struct dandy_state *st)
{
	int	 i;

	memset(j, 0, sizeof(*j));
	j->turn = (int8_t)st->turn;
	j->np = (int8_t)st->nplayers;
	for (i = 0; i < st->nplayers; i++) {
		j->pos[i] = (int8_t)st->pos[i];
		j->points[i] = st->points[i];
	}
}

int
jstate_eq(const struct jstate *a, const struct jstate *b)
{
	int	 i;

	if (a->turn != b->turn || a->np != b->np)
		return 0;
	for (i = 0; i < a->np; i++)
		if (a->pos[i] != b->pos[i] || a->points[i] != b->points[i])
			return 0;
	return 1;
}

static const struct jgame *
truth_game(int k)
{
	return k < jo.games ? &J.game[k] : &J.bot[k - jo.games];
}

static int
truth_index(const char *id)
{
	int	 k;

	for (k = 0; k < TRUTH_GAMES; k++)
		if (strcmp(truth_game(k)->id, id) == 0)
			return k;
	return -1;
}

/* ------------------------------------------------------------ reading */

static PGresult *
query(PGconn *pc, const char *sql, const char *ids)
{
	const char	*v[1] = { ids };
	PGresult	*r = PQexecParams(pc, sql, 1, NULL, v, NULL, NULL, 0);

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		fault_fail("truth: %s", PQresultErrorMessage(r));
		PQclear(r);
		return NULL;
	}
	return r;
}

static void
add_row(struct tgame *t, int64_t seq, const char *player,
    const char *action, const char *result)
{
	struct trow	*w;
	char		 line[128];

	if (seq != t->n + 1)
		t->gaps++;
	t->row = xrealloc(t->row, (size_t)(t->n + 1) * sizeof(*t->row));
	w = &t->row[t->n++];
	snprintf(w->player, sizeof(w->player), "%s", player);
	w->card = action[0] != '\0' && action[1] == '\0' ? action[0] : '?';
	snprintf(w->result, sizeof(w->result), "%s", result);
	snprintf(line, sizeof(line), "%lld,%s,%s,%s", (long long)seq, player,
	    action, result);
	w->hash = line_hash(LINE_HASH_INIT, line);
}

/* Replays game k's rows: the prefixes' states, and what does not hold. */
static void
replay(int k)
{
	const struct jgame	*jg = truth_game(k);
	struct tgame		*t = &truth[k];
	struct dandy_state	 st;
	struct dandy_result	 res;
	char			 want[48], pl[16];
	int64_t			 i;

	t->pre = xcalloc((size_t)t->n + 1, sizeof(*t->pre));
	if (dandy_init(&st, jg->np, jg->board, jg->deck[0] ? jg->deck : NULL,
	    NULL) != 0) {
		t->illegal++;
		return;
	}
	jstate_of(&t->pre[0], &st);
	for (i = 0; i < t->n; i++) {
		if (dandy_draw(&st, jg->deck[0] ? 0 : t->row[i].card, &st,
		    &res) != 0 || res.game_over) {
			t->illegal++;
			fault_fail("%s: move %lld (%c) does not replay", jg->id,
			    (long long)i + 1, t->row[i].card);
			break;
		}
		if (res.pos == DANDY_OFF)
			snprintf(want, sizeof(want), "P%d OFF %d",
			    res.player + 1, res.points);
		else
			snprintf(want, sizeof(want), "P%d %d %d",
			    res.player + 1, res.pos + 1, res.points);
		snprintf(pl, sizeof(pl), "P%d", res.player + 1);
		if (strcmp(want, t->row[i].result) != 0 ||
		    strcmp(pl, t->row[i].player) != 0 ||
		    (jg->deck[0] && jg->deck[i] != t->row[i].card)) {
			if (t->illegal++ == 0)
				fault_fail("%s: move %lld is %s,%c,%s; the rules "
				    "give %s,%s", jg->id, (long long)i + 1,
				    t->row[i].player, t->row[i].card,
				    t->row[i].result, pl, want);
		}
		jstate_of(&t->pre[i + 1], &st);
	}
	if (t->illegal == 0 && (!t->found || t->moves != t->n ||
	    !jstate_eq(&t->stored, &t->pre[t->n]))) {
		t->unlike++;
		fault_fail("%s: the stored state is not its history's (%lld "
		    "moves stored, %lld rows)", jg->id, (long long)t->moves,
		    (long long)t->n);
	}
}

int
truth_load(void)
{
	PGconn		*pc;
	PGresult	*r;
	char		*ids;
	size_t		 len = 2;
	int		 k, i, rc = -1;
	struct tgame	*t;

	truth_free();
	truth = xcalloc((size_t)TRUTH_GAMES, sizeof(*truth));
	ids = xmalloc((size_t)TRUTH_GAMES * 20 + 4);
	strcpy(ids, "{");
	for (k = 0; k < TRUTH_GAMES; k++)
		len += (size_t)sprintf(ids + len - 1, "%s%s", k ? "," : "",
		    truth_game(k)->id);
	strcat(ids, "}");
	pc = jpg_connect();
	if (PQstatus(pc) != CONNECTION_OK) {
		fault_fail("truth: %s", PQerrorMessage(pc));
		goto out;
	}
	/* One snapshot for the three reads: the bots may still play. */
	PQclear(PQexec(pc, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
	if ((r = query(pc, "SELECT id, moves, turn, nplayers FROM games "
	    "WHERE id = ANY($1::text[])", ids)) == NULL)
		goto out;
	for (i = 0; i < PQntuples(r); i++) {
		if ((k = truth_index(PQgetvalue(r, i, 0))) < 0)
			continue;
		t = &truth[k];
		t->found = 1;
		t->moves = jpg_int(r, i, 1);
		t->stored.turn = (int8_t)jpg_int(r, i, 2);
		t->stored.np = (int8_t)jpg_int(r, i, 3);
	}
	PQclear(r);
	if ((r = query(pc, "SELECT game, player, pos, points FROM tokens "
	    "WHERE game = ANY($1::text[]) AND token = 0", ids)) == NULL)
		goto out;
	for (i = 0; i < PQntuples(r); i++) {
		int64_t	 p = jpg_int(r, i, 1);

		if ((k = truth_index(PQgetvalue(r, i, 0))) < 0 || p < 0 ||
		    p >= DANDY_MAX_PLAYERS)
			continue;
		truth[k].stored.pos[p] = (int8_t)jpg_int(r, i, 2);
		truth[k].stored.points[p] = (int32_t)jpg_int(r, i, 3);
	}
	PQclear(r);
	if ((r = query(pc, "SELECT game, seq, player, action, result FROM "
	    "history WHERE game = ANY($1::text[]) ORDER BY game, seq",
	    ids)) == NULL)
		goto out;
	for (i = 0; i < PQntuples(r); i++)
		if ((k = truth_index(PQgetvalue(r, i, 0))) >= 0)
			add_row(&truth[k], jpg_int(r, i, 1),
			    PQgetvalue(r, i, 2), PQgetvalue(r, i, 3),
			    PQgetvalue(r, i, 4));
	PQclear(r);
	PQclear(PQexec(pc, "COMMIT"));
	for (k = 0; k < TRUTH_GAMES; k++)
		replay(k);
	rc = 0;
out:
	PQfinish(pc);
	free(ids);
	return rc;
}

void
truth_free(void)
{
	int	 k;

	if (truth == NULL)
		return;
	for (k = 0; k < TRUTH_GAMES; k++) {
		free(truth[k].row);
		free(truth[k].pre);
	}
	free(truth);
	truth = NULL;
}

/* ------------------------------------------------------------- draws */

static int
is_draw(const struct op *o)
{
	return o->type == OP_DRAW || o->type == OP_DRAW_AT ||
	    o->type == OP_PIPE;
}

static int
card_index(char c)
{
	return c >= 'a' && c <= 'i' ? c - 'a' : c >= '1' && c <= '9' ?
	    9 + c - '1' : -1;
}

/* The rows of one card of one game, as seqs (1-based). */
struct stream {
	int64_t		*seq;
	size_t		 n, cap;
	struct op	**op;
	size_t		 nop, capop;
};

/* What draw o costs taking rows [j, j + r) of the stream (r may be 0),
 * and its verdict so. */
static int
cost_of(const struct op *o, const struct stream *s, const struct tgame *t,
    size_t j, int r, int8_t *verdict)
{
	const struct trow	*w;
	int			 at = o->at >= 0, match = 0, ok;
	size_t			 q;

	if (r >= 2) {
		/* The extra rows, and the one its answer names if any. */
		int	 one, best = INF;

		for (q = j; q < j + (size_t)r; q++)
			if ((one = cost_of(o, s, t, q, 1, verdict)) < best)
				best = one;
		*verdict = V_DUPLICATED;
		return COST * (r - 1) + best;
	}
	if (r == 1) {
		w = &t->row[s->seq[j] - 1];
		switch (o->outcome) {
		case OUT_OK:
			ok = strcmp(w->result, o->u.reply) == 0 &&
			    (!at || s->seq[j] == o->at + 1);
			*verdict = ok ? V_GOOD : V_CONTRADICTED;
			return ok ? 0 : COST;
		case OUT_FAIL:
			*verdict = V_ERR_APPLIED;
			return COST;
		default:
			ok = !at || s->seq[j] == o->at + 1;
			*verdict = ok ? V_APPLIED : V_CONTRADICTED;
			return ok ? 0 : COST;
		}
	}
	switch (o->outcome) {
	case OUT_FAIL:
		*verdict = V_GOOD;
		return 0;
	case OUT_OK:
		if (!at) {
			*verdict = V_LOST;
			return COST;
		}
		/* With AT k, the row k + 1 stored before: a resend's answer. */
		for (q = 0; q < j; q++)
			if (s->seq[q] == o->at + 1)
				match = strcmp(t->row[s->seq[q] - 1].result,
				    o->u.reply) == 0 ? 1 : -1;
		*verdict = match > 0 ? V_GOOD : match < 0 ? V_CONTRADICTED :
		    V_LOST;
		return match > 0 ? 0 : COST;
	default:
		/* Unknown, nothing taken: with AT k, stored if row k + 1
		 * is this card's (taken by an earlier send of it). */
		*verdict = V_NOT_APPLIED;
		if (at)
			for (q = 0; q < j; q++)
				if (s->seq[q] == o->at + 1)
					*verdict = V_APPLIED;
		return 0;
	}
}

static void
count_verdict(struct op *o, struct figures *fg)
{
	int	 told = o->outcome == OUT_TOLD, lostr = o->outcome == OUT_LOST;

	switch (o->verdict) {
	case V_LOST:
		fg->lost++;
		break;
	case V_DUPLICATED:
		fg->duplicated++;
		break;
	case V_ERR_APPLIED:
		fg->err_applied++;
		break;
	case V_CONTRADICTED:
		fg->contradicted++;
		break;
	case V_APPLIED:
		fg->told_applied += told;
		fg->lost_applied += lostr;
		break;
	case V_NOT_APPLIED:
		fg->told_not += told;
		fg->lost_not += lostr;
		break;
	case V_UNRESOLVED:
		fg->told_unresolved += told;
		fg->lost_unresolved += lostr;
		break;
	default:
		break;
	}
}

/* JEPSEN_DEBUG: a stream with a violation, whole, on stderr. */
static void
dump_stream(const struct stream *s, const struct tgame *t, const char *id)
{
	size_t	 i;
	int	 bad = 0;

	for (i = 0; i < s->nop; i++)
		bad |= s->op[i]->verdict >= V_LOST;
	if (!bad)
		return;
	fprintf(stderr, "---- %s, card %c\n", id, s->op[0]->card);
	for (i = 0; i < s->nop; i++) {
		const struct op *o = s->op[i];

		fprintf(stderr, "op %zu: %.3f-%.3f node %d client %d type %d "
		    "at %lld outcome %d %s verdict %d seq %lld\n", i,
		    (o->t0 - J.t_start) / 1e6, (o->t1 - J.t_start) / 1e6,
		    o->node, o->client, o->type, (long long)o->at, o->outcome,
		    o->outcome == OUT_OK ? o->u.reply : err_text(o->err),
		    o->verdict, (long long)o->seq);
	}
	for (i = 0; i < s->n; i++)
		fprintf(stderr, "row %lld: %s %s\n", (long long)s->seq[i],
		    t->row[s->seq[i] - 1].player, t->row[s->seq[i] - 1].result);
}

static void
note_violation(const struct op *o, const char *id, const struct stream *s,
    size_t j, int r, const struct figures *fg)
{
	if (fg->lost + fg->duplicated + fg->err_applied + fg->contradicted > 12)
		return;
	fault_fail("%s: %s of %c%s%s%s: %s (rows %lld..%lld of that card)", id,
	    o->type == OP_DRAW_AT ? "a draw with AT" : o->type == OP_PIPE ?
	    "a pipelined draw" : "a draw", o->card,
	    o->outcome == OUT_OK ? " answered " : o->outcome == OUT_FAIL ?
	    " answered -" : ", unknown", o->outcome == OUT_OK ? o->u.reply :
	    "", o->outcome == OUT_FAIL ? err_text(o->err) : "",
	    o->verdict == V_LOST ? "lost" : o->verdict == V_DUPLICATED ?
	    "stored more than once" : o->verdict == V_ERR_APPLIED ?
	    "stored after an error" : "contradicted",
	    r > 0 ? (long long)s->seq[j] : 0,
	    r > 0 ? (long long)s->seq[j + (size_t)r - 1] : 0);
}

/*
 * The dynamic program over one stream: fw[i][j] is the least cost of
 * explaining rows [0, j) by ops [0, i), bw[i][j] that of rows [j, m) by
 * ops [i, n).  The walk back from fw[n][m] gives each op's verdict; an
 * unknown draw without AT is stored (or not) when every explanation of
 * least cost says so, and unresolved when two of them disagree.
 */
static void
match_stream(struct stream *s, const struct tgame *t, const char *id,
    struct figures *fg)
{
	size_t		 n = s->nop, m = s->n, i, j, w = m + 1;
	int		*fw = xmalloc((n + 1) * w * sizeof(int));
	int		*bw = xmalloc((n + 1) * w * sizeof(int));
	int8_t		*how = xmalloc((n + 1) * w), v;
	int		 r, c, best[2], opt;
	struct op	*o;

	for (i = 0; i < (n + 1) * w; i++)
		fw[i] = bw[i] = INF;
	fw[0] = 0;
	/* how: -1 a phantom row; r >= 0 the op took r rows. */
	for (i = 0; i <= n; i++)
		for (j = 0; j <= m; j++) {
			int	 here = fw[i * w + j];

			if (here >= INF)
				continue;
			if (j < m && here + COST_PHANTOM < fw[i * w + j + 1]) {
				fw[i * w + j + 1] = here + COST_PHANTOM;
				how[i * w + j + 1] = -1;
			}
			for (r = 0; i < n && r <= RUN_MAX && j + (size_t)r <= m;
			    r++) {
				c = here + cost_of(s->op[i], s, t, j, r, &v);
				if (c < fw[(i + 1) * w + j + (size_t)r]) {
					fw[(i + 1) * w + j + (size_t)r] = c;
					how[(i + 1) * w + j + (size_t)r] =
					    (int8_t)r;
				}
			}
		}
	for (i = n + 1; i-- > 0;)
		for (j = w; j-- > 0;) {
			int	 b = j < m ? COST_PHANTOM + bw[i * w + j + 1] :
			    i == n ? 0 : INF;

			for (r = 0; i < n && r <= RUN_MAX && j + (size_t)r <= m;
			    r++) {
				c = cost_of(s->op[i], s, t, j, r, &v) +
				    bw[(i + 1) * w + j + (size_t)r];
				if (c < b)
					b = c;
			}
			bw[i * w + j] = b;
		}
	opt = fw[n * w + m];
	for (i = n, j = m; i > 0 || j > 0;) {
		r = how[i * w + j];
		if (i == 0 || r < 0) {
			if (fg->phantom++ < 5)
				fault_fail("%s: move %lld (%s) was asked by no "
				    "request", id, (long long)s->seq[j - 1],
				    t->row[s->seq[j - 1] - 1].result);
			j--;
			continue;
		}
		i--;
		j -= (size_t)r;
		o = s->op[i];
		(void)cost_of(o, s, t, j, r, &o->verdict);
		o->seq = r > 0 ? s->seq[j] : 0;
		o->took = r > 0;
		if (o->at >= 0 && (o->verdict == V_GOOD ||
		    o->verdict == V_APPLIED || o->verdict == V_NOT_APPLIED)) {
			/* With AT k the move is (game, k + 1, card): stored
			 * when row k + 1 is this card, by whichever send. */
			if (o->at < t->n && t->row[o->at].card == o->card) {
				o->seq = o->at + 1;
				if (o->outcome != OUT_OK &&
				    o->outcome != OUT_FAIL)
					o->verdict = V_APPLIED;
			} else if (o->outcome != OUT_OK &&
			    o->outcome != OUT_FAIL) {
				o->verdict = V_NOT_APPLIED;
			}
		}
		count_verdict(o, fg);
		if (o->verdict >= V_LOST)
			note_violation(o, id, s, j, r, fg);
	}
	/* The unknown draws without AT: what every best explanation says. */
	for (i = 0; i < n; i++) {
		o = s->op[i];
		if (o->at >= 0 || (o->verdict != V_APPLIED &&
		    o->verdict != V_NOT_APPLIED))
			continue;
		best[0] = best[1] = INF;
		for (j = 0; j <= m; j++)
			for (r = 0; r <= 1 && j + (size_t)r <= m; r++)
				if (fw[i * w + j] < INF &&
				    bw[(i + 1) * w + j + (size_t)r] < INF) {
					c = fw[i * w + j] + cost_of(o, s, t, j,
					    r, &v) + bw[(i + 1) * w + j +
					    (size_t)r];
					if (c < best[r])
						best[r] = c;
				}
		if (best[0] == opt && best[1] == opt) {
			if (o->verdict == V_APPLIED) {
				fg->told_applied -= o->outcome == OUT_TOLD;
				fg->lost_applied -= o->outcome == OUT_LOST;
			} else {
				fg->told_not -= o->outcome == OUT_TOLD;
				fg->lost_not -= o->outcome == OUT_LOST;
			}
			o->verdict = V_UNRESOLVED;
			count_verdict(o, fg);
		}
	}
	if (getenv("JEPSEN_DEBUG") != NULL)
		dump_stream(s, t, id);
	free(fw);
	free(bw);
	free(how);
}

void
check_draws(struct oplog *log, struct figures *fg)
{
	struct stream	*st;
	size_t		 k, ns = (size_t)jo.games * J_CARDS;
	int		 g, c;
	int64_t		 q;

	st = xcalloc(ns, sizeof(*st));
	for (g = 0; g < jo.games; g++)
		for (q = 0; q < truth[g].n; q++) {
			struct stream *s;

			if ((c = card_index(truth[g].row[q].card)) < 0)
				continue;
			s = &st[(size_t)g * J_CARDS + (size_t)c];
			s->seq = jgrow(s->seq, &s->cap, s->n, 16,
			    sizeof(*s->seq));
			s->seq[s->n++] = q + 1;
		}
	/* The log is sorted by invocation: each stream's ops in order. */
	for (k = 0; k < log->n; k++) {
		struct op	*o = &log->op[k];
		struct stream	*s;

		if (!is_draw(o) || (c = card_index(o->card)) < 0)
			continue;
		s = &st[(size_t)o->game * J_CARDS + (size_t)c];
		s->op = jgrow(s->op, &s->capop, s->nop, 16, sizeof(*s->op));
		s->op[s->nop++] = o;
		if (o->outcome == OUT_LOST)
			fg->unknown_lost++;
		else if (o->outcome == OUT_TOLD)
			fg->unknown_told++;
	}
	for (k = 0; k < ns; k++) {
		g = (int)(k / J_CARDS);
		if (st[k].n > 0 || st[k].nop > 0)
			match_stream(&st[k], &truth[g], J.game[g].id, fg);
		free(st[k].seq);
		free(st[k].op);
	}
	free(st);
	for (g = 0; g < TRUTH_GAMES; g++) {
		fg->rows += (uint64_t)truth[g].n;
		fg->gaps += (uint64_t)truth[g].gaps;
		fg->illegal += (uint64_t)truth[g].illegal;
		fg->audit += (uint64_t)truth[g].unlike;
	}
}
