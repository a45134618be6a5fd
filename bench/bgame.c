/*
 * The games of ludus-bench and bench/samecheck (see bgame.h): each game
 * is created with random parameters from its own random stream, plays
 * random legal moves, and keeps its own engine copy, which predicts the
 * reply of every move byte for byte.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgame.h"
#include "util/util.h"

#define SNL_JUMP_TRIES	20

const char *const kind_names[] = { "ludo", "snl", "dandy", "mix" };

/* The 18 kinds of DandyLand card. */
static const char cards[] = "abcdefghi123456789";
#define NCARDS	((int)sizeof(cards) - 1)

/* ------------------------------------------------------------ helpers */

/* xorshift64*: small, fast, and reproducible from --seed. */
uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

int
rnd_int(uint64_t *s, int n)
{
	return (int)((rnd(s) >> 33) % (uint64_t)n);
}

void
cmd_start(struct cmd *c, const char *name)
{
	c->argc = 1;
	c->argv[0] = name;
	c->used = 0;
	c->is_turn = 0;
	c->is_create = 0;
	snprintf(c->want, sizeof(c->want), "OK");
}

/* A word that does not fit is cut; the callers' words always fit. */
void
cmd_arg(struct cmd *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*p = c->store + c->used;
	size_t	 room = sizeof(c->store) - c->used;
	int	 n;

	if (c->argc >= CMD_ARGS_MAX || room == 0)
		abort();
	va_start(ap, fmt);
	n = vsnprintf(p, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		abort();
	c->argv[c->argc++] = p;
	c->used += (size_t)n + 1;
}

void
cmd_text(const struct cmd *c, char *buf, size_t len)
{
	size_t	off = 0;
	int	i;

	buf[0] = '\0';
	for (i = 0; i < c->argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i > 0 ? " " : "", c->argv[i]);
}

/* ----------------------------------------------------------- encoding */

/* A RESP request being written into a caller's buffer. */
struct enc {
	char	*buf;
	size_t	 len;
	size_t	 off;
	int	 full;
};

static void
enc_raw(struct enc *e, const char *s, size_t n)
{
	if (e->full || e->len - e->off < n) {
		e->full = 1;
		return;
	}
	memcpy(e->buf + e->off, s, n);
	e->off += n;
}

static void
enc_head(struct enc *e, char type, size_t n)
{
	char	tmp[32];
	int	k = snprintf(tmp, sizeof(tmp), "%c%zu\r\n", type, n);

	enc_raw(e, tmp, (size_t)k);
}

/* One bulk string made of a and b (b may be empty). */
static void
enc_bulk2(struct enc *e, const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b);

	enc_head(e, '$', la + lb);
	enc_raw(e, a, la);
	enc_raw(e, b, lb);
	enc_raw(e, "\r\n", 2);
}

/*
 * Each ludus command and its Redis Function.  A function takes two keys,
 * the game's hash (named by the game id) and a second one: the sorted
 * set of the kind's games for a create, the game's history stream
 * ("<id>:history") for a move; then the command's other words as they
 * are.  Game ids cannot hold ':', so no key of one game is another's.
 */
static const struct fcall {
	const char	*cmd;
	const char	*fn;
	const char	*key2;
	int		 suffix;	/* key2 follows the id */
} fcalls[] = {
	{ "LUDO.CREATE", "ludo_create", "games:ludo", 0 },
	{ "LUDO.PLAY", "ludo_play", ":history", 1 },
	{ "DANDY.CREATE", "dandy_create", "games:dandy", 0 },
	{ "DANDY.DRAW", "dandy_draw", ":history", 1 },
};
#define NFCALLS	(sizeof(fcalls) / sizeof(fcalls[0]))

static size_t
encode_fcall(const struct cmd *c, struct enc *e)
{
	const struct fcall	*f = NULL;
	size_t			 i;
	int			 k;

	for (i = 0; i < NFCALLS; i++)
		if (strcmp(c->argv[0], fcalls[i].cmd) == 0)
			f = &fcalls[i];
	if (f == NULL || c->argc < 2)
		return 0;
	enc_head(e, '*', (size_t)c->argc + 3);
	enc_bulk2(e, "FCALL", "");
	enc_bulk2(e, f->fn, "");
	enc_bulk2(e, "2", "");
	enc_bulk2(e, c->argv[1], "");
	enc_bulk2(e, f->suffix ? c->argv[1] : f->key2, f->suffix ? f->key2 :
	    "");
	for (k = 2; k < c->argc; k++)
		enc_bulk2(e, c->argv[k], "");
	return e->full ? 0 : e->off;
}

size_t
cmd_encode(const struct bopts *o, const struct cmd *c, char *buf, size_t len)
{
	struct enc	e = { buf, len, 0, 0 };
	int		i;

	if (o->dialect == D_FCALL)
		return encode_fcall(c, &e);
	enc_head(&e, '*', (size_t)c->argc);
	for (i = 0; i < c->argc; i++)
		enc_bulk2(&e, c->argv[i], "");
	return e.full ? 0 : e.off;
}

/* -------------------------------------------------------------- games */

void
game_new_id(const struct bopts *o, struct bgame *g)
{
	static const char letter[] = { 'l', 's', 'd' };

	snprintf(g->id, sizeof(g->id), "%s%c%d-%u", o->prefix,
	    letter[g->kind], g->slot, g->gen);
	g->gen++;
	g->moves = 0;
}

void
game_free(struct bgame *g)
{
	if (g->kind == K_DANDY) {
		free(g->st.dandy.deck);
		g->st.dandy.deck = NULL;
	}
}

/* The players of a new game: --players, else 2 to 4 at random. */
static int
game_players(const struct bopts *o, struct bgame *g)
{
	return o->players > 0 ? o->players : 2 + rnd_int(&g->rng, 3);
}

static void
create_option(const struct bopts *o, struct cmd *c)
{
	if (o->create_option != NULL)
		cmd_arg(c, "%s", o->create_option);
}

static void
ludo_create(const struct bopts *o, struct bgame *g, struct cmd *c)
{
	static const char *presets[] = { "classic", "interview", "extended" };
	struct ludo_rules	 rules;
	const char		*preset = presets[rnd_int(&g->rng, 3)];
	int			 i, n = game_players(o, g);

	game_new_id(o, g);
	cmd_start(c, "LUDO.CREATE");
	c->is_create = 1;
	cmd_arg(c, "%s", g->id);
	for (i = 0; i < n; i++)
		cmd_arg(c, "p%d", i + 1);
	cmd_arg(c, "rules=%s", preset);
	create_option(o, c);
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
snl_create(const struct bopts *o, struct bgame *g, struct cmd *c)
{
	int	n = o->players > 0 ? o->players : 2 + rnd_int(&g->rng, 5);

	game_new_id(o, g);
	cmd_start(c, "SNL.CREATE");
	c->is_create = 1;
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%d", n);
	create_option(o, c);
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

/* ---------------------------------------------------------- DandyLand */

void
bdandy_expand(const struct bdandy *d, struct dandy_state *st)
{
	int	i;

	memset(st, 0, sizeof(*st));
	st->nplayers = d->nplayers;
	st->board_len = d->board_len;
	memcpy(st->board, d->board, sizeof(d->board));
	st->has_deck = d->deck != NULL;
	if (d->deck != NULL) {
		st->deck_len = d->deck_len;
		memcpy(st->deck, d->deck, (size_t)d->deck_len);
	}
	st->drawn = d->drawn;
	st->turn = d->turn;
	for (i = 0; i < DANDY_MAX_PLAYERS; i++) {
		st->pos[i] = d->pos[i];
		st->points[i] = d->points[i];
	}
}

/* The deck never changes after creation: only the counters are kept. */
void
bdandy_store(struct bdandy *d, const struct dandy_state *st)
{
	int	i;

	d->nplayers = (int8_t)st->nplayers;
	d->board_len = (int8_t)st->board_len;
	memcpy(d->board, st->board, sizeof(d->board));
	d->drawn = (int16_t)st->drawn;
	d->turn = (int8_t)st->turn;
	for (i = 0; i < DANDY_MAX_PLAYERS; i++) {
		d->pos[i] = (int8_t)st->pos[i];
		d->points[i] = st->points[i];
	}
}

void
dandy_want(const struct dandy_result *r, char *buf, size_t len)
{
	if (r->pos == DANDY_OFF)
		snprintf(buf, len, "P%d OFF %d", r->player + 1, r->points);
	else
		snprintf(buf, len, "P%d %d %d", r->player + 1, r->pos + 1,
		    r->points);
}

/* A deck of --deck random cards, owned by the game. */
static char *
dandy_deal(const struct bopts *o, struct bgame *g)
{
	char	*deck;
	int	 i;

	if (o->deck <= 0)
		return NULL;
	deck = xmalloc((size_t)o->deck + 1);
	for (i = 0; i < o->deck; i++)
		deck[i] = cards[rnd_int(&g->rng, NCARDS)];
	deck[o->deck] = '\0';
	return deck;
}

static void
dandy_create(const struct bopts *o, struct bgame *g, struct cmd *c)
{
	struct dandy_state	 st;
	char			 board[DANDY_BOARD_MAX + 1];
	const char		*why;
	int			 i, len = 5 + rnd_int(&g->rng,
				    DANDY_BOARD_MAX - 4);
	int			 n = game_players(o, g);

	for (i = 0; i < len; i++)
		board[i] = (char)('a' + rnd_int(&g->rng, 9));
	board[len] = '\0';
	game_free(g);
	g->st.dandy.deck = dandy_deal(o, g);
	game_new_id(o, g);
	cmd_start(c, "DANDY.CREATE");
	c->is_create = 1;
	cmd_arg(c, "%s", g->id);
	cmd_arg(c, "%d", n);
	cmd_arg(c, "%s", board);
	if (g->st.dandy.deck != NULL)
		cmd_arg(c, "deck=%s", g->st.dandy.deck);
	create_option(o, c);
	if (dandy_init(&st, n, board, g->st.dandy.deck, &why) == -1)
		abort();	/* a valid board, deck and player count */
	g->st.dandy.deck_len = (int16_t)st.deck_len;
	bdandy_store(&g->st.dandy, &st);
	g->phase = G_PLAY;
}

static void
dandy_move(struct bgame *g, struct cmd *c)
{
	struct dandy_state	 cur, next;
	struct dandy_result	 r;
	int			 card = 0;

	bdandy_expand(&g->st.dandy, &cur);
	cmd_start(c, "DANDY.DRAW");
	cmd_arg(c, "%s", g->id);
	if (!cur.has_deck) {
		card = cards[rnd_int(&g->rng, NCARDS)];
		cmd_arg(c, "%c", card);
	}
	c->is_turn = 1;
	if (dandy_draw(&cur, card, &next, &r) == -1 || r.game_over) {
		snprintf(c->want, sizeof(c->want), "GAME_OVER");
		g->phase = G_CREATE;
		return;
	}
	dandy_want(&r, c->want, sizeof(c->want));
	bdandy_store(&g->st.dandy, &next);
	if (next.turn == -1 || (!next.has_deck && g->moves + 1 >= DANDY_MOVES))
		g->phase = G_CREATE;
}

int
game_next(const struct bopts *o, struct bgame *g, struct cmd *c)
{
	if (g->phase == G_CREATE) {
		if (g->kind == K_LUDO)
			ludo_create(o, g, c);
		else if (g->kind == K_SNL)
			snl_create(o, g, c);
		else
			dandy_create(o, g, c);
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
