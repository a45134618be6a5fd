/*
 * bench/samecheck: the proof that the same-work baseline does the same
 * work.  It plays the same random commands on ludusd and on a
 * redis-server holding the Redis Functions of bench/redis/ludus.lua
 * (doc/benchmarks.md), one at a time, and stops at the first reply that
 * is not byte for byte the same on both.
 *
 *	samecheck [-h host] --ludus PORT --redis PORT [--commands N]
 *	    [--games N] [--seed S] [--prefix P]
 *
 * The commands are mostly legal moves (Ludo turns with manual dice,
 * DandyLand draws with and without a deck), whose replies the rules
 * engine also predicts, mixed with what a client gets wrong: moves the
 * rules refuse (INVALID_MOVE), finished games (GAME_OVER), players that
 * are not in the game, out-of-range arguments, the other kind's command,
 * missing games, taken ids, bad ids, wrong word counts, bad creates.
 * Once they are played it compares, game by game, the move counts and
 * the whole histories (HISTORY against XRANGE of the game's stream), and
 * the Redis hash of every game against the engine's copy of it.
 *
 * Exit status: 0 when everything agreed, 1 at the first difference
 * (printed), 2 on a usage or connection error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bclient.h"
#include "bgame.h"
#include "util/util.h"

#define SHOW_MAX	160	/* bytes of a reply shown in a difference */
#define DECK_MAX_HERE	60	/* short decks: games that end, often */
#define LUDUS		0
#define REDIS		1
#define TALLY_MAX	32	/* kinds of reply counted */

struct side {
	struct bclient	 c;
	struct bopts	 o;
	const char	*name;
};

/* A game ever created, for the final comparison of histories. */
struct made {
	char		 id[ID_LEN];
};

struct check {
	struct side	 s[2];
	const char	*host;
	const char	*port[2];
	int		 ncommands;
	int		 ngames;
	uint64_t	 seed;
	char		 prefix[PREFIX_MAX + 1];
	uint64_t	 rng;
	struct bgame	*games;
	struct made	*made;
	int		 nmade;
	int		 capmade;
	char		 over[2][ID_LEN];	/* a finished Ludo, DandyLand */
	int		 sent;
	int		 predicted;
	struct tally {
		char	 word[24];	/* a status, "P<i> ..." or an error code */
		int	 n;
	}		 tally[TALLY_MAX];
	int		 ntally;
};

/* ------------------------------------------------------------ helpers */

/* The reply's bytes with CR and LF shown, cut to SHOW_MAX. */
static void
show(const char *raw, size_t len, char *buf, size_t size)
{
	size_t	i, o = 0;

	for (i = 0; i < len && i < SHOW_MAX && o + 3 < size; i++) {
		if (raw[i] == '\r' || raw[i] == '\n') {
			buf[o++] = '\\';
			buf[o++] = raw[i] == '\r' ? 'r' : 'n';
		} else
			buf[o++] = raw[i];
	}
	buf[o] = '\0';
}

static int
differ(struct check *k, const struct cmd *c, const char *what,
    const char *a, size_t alen, const char *b, size_t blen)
{
	char	text[CMD_TEXT_LEN], sa[SHOW_MAX * 2 + 4], sb[SHOW_MAX * 2 + 4];

	cmd_text(c, text, sizeof(text));
	show(a, alen, sa, sizeof(sa));
	show(b, blen, sb, sizeof(sb));
	fprintf(stderr, "samecheck: %s, command %d: %s\n  %-8s %s\n"
	    "  %-8s %s\n", what, k->sent, text, k->s[LUDUS].name, sa,
	    k->s[REDIS].name, sb);
	return -1;
}

/*
 * Counts a reply by kind (its status, "P<i> <pos> <points>" for any
 * draw, "-CODE" for an error), to show what the check went through.
 */
static void
count(struct check *k, const struct reply *r)
{
	char	w[24];
	int	i;

	if (r->type == REPLY_STATUS && r->str[0] == 'P' && r->str[1] >= '1' &&
	    r->str[1] <= '9')
		snprintf(w, sizeof(w), "P<i> <pos> <points>");
	else if (r->type == REPLY_STATUS || r->type == REPLY_ERROR)
		snprintf(w, sizeof(w), "%s%.*s", r->type == REPLY_ERROR ? "-" :
		    "", (int)strcspn(r->str, " "), r->str);
	else
		snprintf(w, sizeof(w), "(type %d)", (int)r->type);
	for (i = 0; i < k->ntally; i++)
		if (strcmp(k->tally[i].word, w) == 0)
			break;
	if (i == k->ntally) {
		if (i == TALLY_MAX)
			return;
		snprintf(k->tally[k->ntally++].word, sizeof(w), "%s", w);
	}
	k->tally[i].n++;
}

/*
 * Sends one command to both sides and compares the replies byte for
 * byte, and ludusd's with the engine's prediction when there is one
 * (c->want not empty).  0, or -1 with the difference printed.
 */
static int
both(struct check *k, const struct cmd *c)
{
	struct reply	 r[2];
	const char	*raw[2];
	size_t		 len[2];
	char		 buf[CMD_BUF_LEN];
	int		 i, rc = 0;

	k->sent++;
	for (i = 0; i < 2; i++) {
		size_t n = cmd_encode(&k->s[i].o, c, buf, sizeof(buf));

		if (n == 0 || bclient_send_raw(&k->s[i].c, buf, n) == -1)
			return -1;
	}
	for (i = 0; i < 2; i++)
		if (bclient_recv(&k->s[i].c, &r[i], &raw[i], &len[i]) == -1)
			return -1;
	if (len[0] != len[1] || memcmp(raw[0], raw[1], len[0]) != 0)
		rc = differ(k, c, "replies differ", raw[0], len[0], raw[1],
		    len[1]);
	else if (c->want[0] != '\0' && (r[0].type != REPLY_STATUS ||
	    strcmp(r[0].str, c->want) != 0))
		rc = differ(k, c, "both differ from the engine", raw[0],
		    len[0], c->want, strlen(c->want));
	if (c->want[0] != '\0')
		k->predicted++;
	count(k, &r[0]);
	reply_free(&r[0]);
	reply_free(&r[1]);
	return rc;
}

/* A command whose reply only the two sides' agreement checks. */
static void
unpredicted(struct cmd *c, const char *name)
{
	cmd_start(c, name);
	c->want[0] = '\0';
}

static void
made_add(struct check *k, const char *id)
{
	if (k->nmade == k->capmade) {
		k->capmade = k->capmade ? k->capmade * 2 : 256;
		k->made = xrealloc(k->made, (size_t)k->capmade *
		    sizeof(*k->made));
	}
	snprintf(k->made[k->nmade++].id, ID_LEN, "%s", id);
}

/* ------------------------------------------------------ legal moves */

/* Whether the game on the servers is over (not only due for a new one). */
static int
game_over(const struct bgame *g)
{
	if (g->gen == 0)
		return 0;	/* not created yet */
	if (g->kind == K_LUDO)
		return g->st.ludo.winner >= 0;
	return g->st.dandy.turn == -1;
}

/*
 * The next command of a game as ludus-bench would send it; a DandyLand
 * game gets a short deck half of the time, so that decks run out.
 */
static int
legal(struct check *k, struct bgame *g, struct cmd *c)
{
	struct bopts	o = k->s[LUDUS].o;

	if (g->phase == G_CREATE && game_over(g))
		snprintf(k->over[g->kind == K_DANDY], ID_LEN, "%s", g->id);
	if (g->kind == K_DANDY && g->phase == G_CREATE)
		o.deck = rnd_int(&k->rng, 2) ? 1 + rnd_int(&k->rng,
		    DECK_MAX_HERE) : 0;
	if (!game_next(&o, g, c))
		return 0;
	if (c->is_create)
		made_add(k, g->id);
	return 1;
}

/* ------------------------------------------------------------- probes */

/*
 * A Ludo move with a random player (or one not in the game), dice and
 * token, often refused; predicted by the engine unless an argument is out
 * of range or the player unknown, and applied to the copy when stored.
 */
static void
ludo_probe(struct check *k, struct bgame *g, struct cmd *c)
{
	struct ludo_state	 next;
	const struct ludo_state	*st = &g->st.ludo;
	int			 p, dice, token;
	enum ludo_result	 res;

	p = rnd_int(&k->rng, 2) && st->turn >= 0 ? st->turn :
	    rnd_int(&k->rng, LUDO_MAX_PLAYERS + 1);
	/* Sixes often: bonus turns, and the extended rules' third six. */
	dice = rnd_int(&k->rng, 3) == 0 ? 6 : rnd_int(&k->rng, 10) ?
	    1 + rnd_int(&k->rng, 6) : 7 * rnd_int(&k->rng, 2);
	token = rnd_int(&k->rng, 10) ? rnd_int(&k->rng, 5) : 5;
	unpredicted(c, "LUDO.PLAY");
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "p%d", p + 1);
	cmd_arg(c, "%d", dice);
	cmd_arg(c, "%d", token);
	if (dice < 1 || dice > 6 || token > 4)
		return;
	res = ludo_play(st, p < st->nplayers ? p : -1, dice, token, &next);
	if (res == LUDO_NO_PLAYER)
		return;
	snprintf(c->want, sizeof(c->want), "%s", ludo_result_str(res));
	if (ludo_result_stored(res)) {
		g->st.ludo = next;
		g->moves++;
		if (next.winner >= 0)
			g->phase = G_CREATE;
	}
}

/*
 * A DandyLand draw, one time in ten with a card that does not exist and
 * one in ten with a card for a deck or none for a game without one;
 * predicted when valid.
 */
static void
dandy_probe(struct check *k, struct bgame *g, struct cmd *c)
{
	static const char	 bad[] = "j0zA";
	static const char	 all[] = "abcdefghi123456789";
	struct dandy_state	 cur, next;
	struct dandy_result	 r;
	int			 card = 0, v = rnd_int(&k->rng, 10);

	bdandy_expand(&g->st.dandy, &cur);
	unpredicted(c, "DANDY.DRAW");
	cmd_arg(c, "%s", g->id);
	if (v == 0)
		cmd_arg(c, "%c", bad[rnd_int(&k->rng, 4)]);
	else if (v == 1 && cur.has_deck)
		cmd_arg(c, "%c", all[rnd_int(&k->rng, 18)]);
	else if (v > 1 && !cur.has_deck) {
		card = all[rnd_int(&k->rng, 18)];
		cmd_arg(c, "%c", card);
	}
	if (v < 2 || dandy_draw(&cur, card, &next, &r) == -1)
		return;		/* an error reply */
	if (r.game_over) {
		snprintf(c->want, sizeof(c->want), "GAME_OVER");
		return;
	}
	dandy_want(&r, c->want, sizeof(c->want));
	bdandy_store(&g->st.dandy, &next);
	g->moves++;
	if (next.turn == -1)
		g->phase = G_CREATE;
}

/* The other kind's move on this game: WRONGTYPE. */
static void
wrongtype_probe(struct bgame *g, struct cmd *c)
{
	if (g->kind == K_DANDY) {
		unpredicted(c, "LUDO.PLAY");
		cmd_arg(c, "%s", g->id);
		cmd_arg(c, "p1");
		cmd_arg(c, "6");
		cmd_arg(c, "1");
	} else {
		unpredicted(c, "DANDY.DRAW");
		cmd_arg(c, "%s", g->id);
	}
}

/* A move on a game that does not exist, or under an invalid id. */
static void
noid_probe(struct check *k, struct bgame *g, struct cmd *c, int bad)
{
	unpredicted(c, g->kind == K_DANDY ? "DANDY.DRAW" : "LUDO.PLAY");
	if (bad)
		cmd_arg(c, "%s", rnd_int(&k->rng, 2) ? "Bad-Id" : "a_b");
	else
		cmd_arg(c, "%snone-%d", k->prefix, rnd_int(&k->rng, 1000));
	if (g->kind == K_DANDY)
		cmd_arg(c, "5");
	else {
		cmd_arg(c, "p1");
		cmd_arg(c, "6");
		cmd_arg(c, "1");
	}
}

/* A create of an id already taken: EXISTS. */
static void
exists_probe(struct bgame *g, struct cmd *c)
{
	unpredicted(c, g->kind == K_DANDY ? "DANDY.CREATE" : "LUDO.CREATE");
	cmd_arg(c, "%s", g->id);
	if (g->kind == K_DANDY) {
		cmd_arg(c, "2");
		cmd_arg(c, "abc");
	} else {
		cmd_arg(c, "x");
		cmd_arg(c, "y");
	}
}

/* Too few words, or too many. */
static void
arity_probe(struct check *k, struct bgame *g, struct cmd *c)
{
	int	v = rnd_int(&k->rng, 4);

	if (v == 0) {
		unpredicted(c, "LUDO.PLAY");
		cmd_arg(c, "%s", g->id);
		cmd_arg(c, "p1");
		cmd_arg(c, "6");
	} else if (v == 1) {
		unpredicted(c, "LUDO.PLAY");
		cmd_arg(c, "%s", g->id);
		cmd_arg(c, "p1");
		cmd_arg(c, "6");
		cmd_arg(c, "1");
		cmd_arg(c, "2");
	} else if (v == 2) {
		unpredicted(c, "DANDY.DRAW");
		cmd_arg(c, "%s", g->id);
		cmd_arg(c, "a");
		cmd_arg(c, "b");
	} else {
		unpredicted(c, rnd_int(&k->rng, 2) ? "LUDO.CREATE" :
		    "DANDY.CREATE");
		cmd_arg(c, "%snew", k->prefix);
		cmd_arg(c, "2");
	}
}

/* A create with something wrong in it, on a fresh id. */
static void
create_probe(struct check *k, struct cmd *c)
{
	static const char *const ludo[][3] = {
		{ "a", "a", "rules=classic" },
		{ "a", "b", "rules=fast" },
		{ "a", "b", "colour=red" },
		{ "a", "b", "six-bonus=yes" },
		{ "a", "B", "rules=classic" },
		{ "a", "rules=interview", "three-sixes=on" },
	};
	static const char *const dandy[][3] = {
		{ "9", "abc", "deck=abc" },
		{ "2", "abj", "deck=abc" },
		{ "2", "abc", "deck=abz" },
		{ "2", "abc", "colour=red" },
		{ "2", "abc", "extra" },
		{ "02", "abc", "deck=" },
	};
	const char *const *w;
	int		 i;

	if (rnd_int(&k->rng, 2)) {
		unpredicted(c, "LUDO.CREATE");
		w = ludo[rnd_int(&k->rng, 6)];
	} else {
		unpredicted(c, "DANDY.CREATE");
		w = dandy[rnd_int(&k->rng, 6)];
	}
	cmd_arg(c, "%sbad-%d", k->prefix, k->sent);
	for (i = 0; i < 3; i++)
		cmd_arg(c, "%s", w[i]);
}

/* A move on a game that is over: GAME_OVER on both. */
static int
over_probe(struct check *k, struct cmd *c)
{
	int	d = rnd_int(&k->rng, 2);

	if (k->over[d][0] == '\0')
		return 0;
	cmd_start(c, d ? "DANDY.DRAW" : "LUDO.PLAY");
	cmd_arg(c, "%s", k->over[d]);
	if (!d) {
		cmd_arg(c, "zz");
		cmd_arg(c, "3");
		cmd_arg(c, "0");
	}
	snprintf(c->want, sizeof(c->want), "GAME_OVER");
	return 1;
}

/*
 * One command on game g: legal six times in ten, else one of the probes.
 * 0 when the game had nothing to send this time.
 */
static int
next_command(struct check *k, struct bgame *g, struct cmd *c)
{
	int	v = rnd_int(&k->rng, 100);

	if (v < 60 || g->phase != G_PLAY)
		return legal(k, g, c);
	if (v < 75) {
		if (g->kind == K_LUDO)
			ludo_probe(k, g, c);
		else
			dandy_probe(k, g, c);
	} else if (v < 79)
		wrongtype_probe(g, c);
	else if (v < 83)
		noid_probe(k, g, c, 0);
	else if (v < 86)
		noid_probe(k, g, c, 1);
	else if (v < 89)
		exists_probe(g, c);
	else if (v < 92)
		arity_probe(k, g, c);
	else if (v < 95)
		create_probe(k, c);
	else
		return over_probe(k, c) || legal(k, g, c);
	return 1;
}

/* --------------------------------------------------- the final check */

/* GAME.INFO's "moves,N" and the Redis hash's moves; 0 or -1. */
static int
same_moves(struct check *k, const char *id)
{
	const char	*info[] = { "GAME.INFO", id };
	const char	*hget[] = { "HGET", id, "moves" };
	struct reply	 a, b;
	const char	*m = NULL;
	size_t		 i;
	int		 rc = -1;

	if (bclient_call(&k->s[LUDUS].c, 2, info, &a) == -1)
		return -1;
	if (bclient_call(&k->s[REDIS].c, 3, hget, &b) == -1) {
		reply_free(&a);
		return -1;
	}
	for (i = 0; a.type == REPLY_ARRAY && i < a.n; i++)
		if (a.elem[i].str != NULL &&
		    strncmp(a.elem[i].str, "moves,", 6) == 0)
			m = a.elem[i].str + 6;
	if (m != NULL && b.type == REPLY_BULK && strcmp(m, b.str) == 0)
		rc = 0;
	else
		fprintf(stderr, "samecheck: game %s: ludusd has %s moves, "
		    "Redis %s\n", id, m != NULL ? m : "?", b.type ==
		    REPLY_BULK ? b.str : "?");
	reply_free(&a);
	reply_free(&b);
	return rc;
}

/* One stream entry as a HISTORY line, "seq,player,action,result". */
static void
entry_line(const struct reply *e, char *buf, size_t len)
{
	static const char *const order[] = { "seq", "player", "action",
	    "result" };
	const struct reply	*f;
	size_t			 i, j, off = 0;

	buf[0] = '\0';
	if (e->type != REPLY_ARRAY || e->n != 2)
		return;
	f = &e->elem[1];
	for (j = 0; j < 4; j++)
		for (i = 0; i + 1 < f->n; i += 2)
			if (f->elem[i].str != NULL && f->elem[i + 1].str !=
			    NULL && strcmp(f->elem[i].str, order[j]) == 0)
				off += (size_t)snprintf(buf + off, off < len ?
				    len - off : 0, "%s%s", j ? "," : "",
				    f->elem[i + 1].str);
}

/* HISTORY against the game's stream, entry by entry; 0 or -1. */
static int
same_history(struct check *k, const char *id)
{
	char		 key[ID_LEN + 16], line[256];
	const char	*hist[] = { "HISTORY", id, "1", "10000" };
	const char	*xr[] = { "XRANGE", key, "-", "+" };
	struct reply	 a, b;
	size_t		 i;
	int		 rc = 0;

	snprintf(key, sizeof(key), "%s:history", id);
	if (bclient_call(&k->s[LUDUS].c, 4, hist, &a) == -1)
		return -1;
	if (bclient_call(&k->s[REDIS].c, 4, xr, &b) == -1) {
		reply_free(&a);
		return -1;
	}
	if (a.type != REPLY_ARRAY || b.type != REPLY_ARRAY || a.n != b.n)
		rc = -1;
	for (i = 0; rc == 0 && i < a.n; i++) {
		entry_line(&b.elem[i], line, sizeof(line));
		if (a.elem[i].str == NULL || strcmp(a.elem[i].str, line) != 0)
			rc = -1;
	}
	/* The loop stops one past the entry that differs: a seq. */
	if (rc == -1)
		fprintf(stderr, "samecheck: game %s: HISTORY (%zu moves) and "
		    "the stream %s (%zu entries) differ at move %zu\n", id,
		    a.n, key, b.n, i);
	reply_free(&a);
	reply_free(&b);
	return rc;
}

/* The Redis hash of a game against the engine's copy; 0 or -1. */
static int
same_state(struct check *k, const struct bgame *g)
{
	const char	*argv[2 + 4 + 16] = { "HMGET", g->id };
	char		 f[16][16], want[16 + 4][16];
	struct reply	 r;
	int		 argc = 2, i, p, t, n, rc = 0;

	if (g->kind == K_LUDO) {
		const struct ludo_state *st = &g->st.ludo;

		argv[argc++] = "turn";
		snprintf(want[0], 16, "%d", st->turn);
		argv[argc++] = "winner";
		snprintf(want[1], 16, "%d", st->winner);
		argv[argc++] = "sixes";
		snprintf(want[2], 16, "%d", st->sixes);
		for (p = 0, n = 3; p < st->nplayers; p++)
			for (t = 0; t < LUDO_TOKENS; t++, n++) {
				snprintf(f[n - 3], sizeof(f[0]), "t%d%d",
				    p + 1, t + 1);
				argv[argc++] = f[n - 3];
				snprintf(want[n], 16, "%d", st->pos[p][t]);
			}
	} else {
		const struct bdandy *d = &g->st.dandy;

		argv[argc++] = "turn";
		snprintf(want[0], 16, "%d", d->turn);
		argv[argc++] = "drawn";
		snprintf(want[1], 16, "%d", d->drawn);
		for (p = 0, n = 2; p < d->nplayers; p++, n += 2) {
			snprintf(f[n - 2], sizeof(f[0]), "pos%d", p + 1);
			snprintf(f[n - 1], sizeof(f[0]), "points%d", p + 1);
			argv[argc++] = f[n - 2];
			argv[argc++] = f[n - 1];
			snprintf(want[n], 16, "%d", d->pos[p]);
			snprintf(want[n + 1], 16, "%d", d->points[p]);
		}
	}
	if (bclient_call(&k->s[REDIS].c, argc, argv, &r) == -1)
		return -1;
	for (i = 0; i < argc - 2; i++) {
		const struct reply *v = r.type == REPLY_ARRAY &&
		    (size_t)i < r.n ? &r.elem[i] : NULL;

		if (v == NULL || v->str == NULL || strcmp(v->str, want[i])) {
			fprintf(stderr, "samecheck: game %s: Redis has %s=%s, "
			    "the engine %s\n", g->id, argv[i + 2],
			    v != NULL && v->str != NULL ? v->str : "nil",
			    want[i]);
			rc = -1;
			break;
		}
	}
	reply_free(&r);
	return rc;
}

static int
final_check(struct check *k)
{
	int	i;

	for (i = 0; i < k->nmade; i++)
		if (same_moves(k, k->made[i].id) == -1 ||
		    same_history(k, k->made[i].id) == -1)
			return -1;
	for (i = 0; i < k->ngames; i++)
		if (same_state(k, &k->games[i]) == -1)
			return -1;
	return 0;
}

/* ------------------------------------------------------------- driver */

static int
run(struct check *k)
{
	struct cmd	c;
	int		i;

	k->games = xcalloc((size_t)k->ngames, sizeof(*k->games));
	for (i = 0; i < k->ngames; i++) {
		struct bgame *g = &k->games[i];

		g->slot = i;
		g->kind = i % 2 ? K_DANDY : K_LUDO;
		g->rng = k->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i + 1;
		if (legal(k, g, &c) && both(k, &c) == -1)
			return -1;
	}
	while (k->sent < k->ncommands) {
		struct bgame *g = &k->games[rnd_int(&k->rng, k->ngames)];

		if (next_command(k, g, &c) && both(k, &c) == -1)
			return -1;
	}
	return final_check(k);
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: samecheck [-h host] --ludus PORT --redis PORT "
	    "[--commands N]\n"
	    "                 [--games N] [--seed S] [--prefix P]\n");
}

static int
num(const char *arg, int64_t max, const char *what, int64_t *v)
{
	const char	*errstr;

	if (parse_int64(arg, 1, max, v, &errstr) == 0)
		return 0;
	fprintf(stderr, "samecheck: %s: %s\n", what, errstr);
	return -1;
}

static int
parse_opts(struct check *k, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ludus", required_argument, NULL, 'L' },
		{ "redis", required_argument, NULL, 'R' },
		{ "commands", required_argument, NULL, 'n' },
		{ "games", required_argument, NULL, 'g' },
		{ "seed", required_argument, NULL, 'S' },
		{ "prefix", required_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 }
	};
	int64_t	v;
	int	ch;

	while ((ch = getopt_long(argc, argv, "h:", longopts, NULL)) != -1) {
		if (ch == 'h')
			k->host = optarg;
		else if (ch == 'L' || ch == 'R') {
			if (num(optarg, 65535, "port", &v) == -1)
				return -1;
			k->port[ch == 'R'] = optarg;
		} else if (ch == 'n' || ch == 'g') {
			if (num(optarg, 10000000, "count", &v) == -1)
				return -1;
			*(ch == 'n' ? &k->ncommands : &k->ngames) = (int)v;
		} else if (ch == 'S') {
			if (num(optarg, INT64_MAX, "seed", &v) == -1)
				return -1;
			k->seed = (uint64_t)v;
		} else if (ch == 'X' && strlen(optarg) <= 20 &&
		    strspn(optarg, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
		    strlen(optarg))
			snprintf(k->prefix, sizeof(k->prefix), "%s", optarg);
		else
			return -1;
	}
	return optind == argc && k->port[0] != NULL && k->port[1] != NULL ?
	    0 : -1;
}

int
main(int argc, char **argv)
{
	struct check	k;
	int		i, rc;

	memset(&k, 0, sizeof(k));
	k.host = "127.0.0.1";
	k.ncommands = 5000;
	k.ngames = 12;	/* few games: Ludo games get to their end */
	k.seed = 1;
	snprintf(k.prefix, sizeof(k.prefix), "chk%06x-",
	    (unsigned)(((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 12)) &
	    0xffffff));
	if (parse_opts(&k, argc, argv) == -1) {
		usage(stderr);
		return 2;
	}
	k.rng = ~k.seed * 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < 2; i++) {
		k.s[i].name = i == LUDUS ? "ludusd" : "Redis";
		k.s[i].o.dialect = i == LUDUS ? D_LUDUS : D_FCALL;
		snprintf(k.s[i].o.prefix, sizeof(k.s[i].o.prefix), "%s",
		    k.prefix);
		if (bclient_connect(&k.s[i].c, k.host, k.port[i]) == -1)
			return 2;
	}
	rc = run(&k) == 0 ? 0 : 1;
	if (rc == 0) {
		printf("samecheck: %d commands (%d predicted by the engine) on "
		    "%d games: every reply byte-identical; move counts, "
		    "histories and states identical\nsamecheck: replies:",
		    k.sent, k.predicted, k.nmade);
		for (i = 0; i < k.ntally; i++)
			printf("%s %s %d", i ? "," : "", k.tally[i].word,
			    k.tally[i].n);
		printf("\n");
	}
	for (i = 0; i < 2; i++)
		bclient_close(&k.s[i].c);
	for (i = 0; k.games != NULL && i < k.ngames; i++)
		game_free(&k.games[i]);
	free(k.games);
	free(k.made);
	return rc;
}
