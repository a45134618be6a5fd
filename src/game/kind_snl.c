/*
 * Snake & Ladder in the kind table: players P1..Pn, one token row per
 * player and one cell row per jump, its cache encoding, its replay and
 * its STATE reply.  A roll's result is "P<i> <pos>" or "P<i> WINS".
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "game/enc.h"
#include "game/game.h"
#include "game/kinds.h"
#include "game/rows.h"
#include "game/view.h"
#include "util/reply.h"
#include "util/util.h"

/* The fixed ints of the state, copied as one by the cache encoding. */
#define SNL_INTS	offsetof(struct snl_state, pos)

_Static_assert(offsetof(struct snl_state, pos) == 4 * sizeof(int),
    "the state's ints are not where the encoding takes them");
_Static_assert(SNL_CELLS < UINT8_MAX, "cells are encoded in a byte");
_Static_assert(SNL_INTS + SNL_MAX_PLAYERS + 1 + 2 * (SNL_CELLS + 1) <=
    GAME_ENC_KIND_MAX, "Snake & Ladder's encoding is too big");

static int
snl_nplayers(const struct game *g)
{
	return g->s.snl.nplayers;
}

static int
snl_turn(const struct game *g)
{
	return g->s.snl.turn;
}

static int
snl_winner(const struct game *g)
{
	return g->s.snl.winner;
}

/* -------------------------------------------------------------- rows */

static void
snl_to_row(const struct game *g, struct row_game *r)
{
	r->nplayers = g->s.snl.nplayers;
	r->turn = g->s.snl.turn;
	r->winner = g->s.snl.winner;
	r->aux = g->s.snl.started;
}

static void
snl_put_play(struct game *g, const struct row_game *r)
{
	g->s.snl.turn = r->turn;
	g->s.snl.winner = r->winner;
	g->s.snl.started = (int)r->aux;
}

static int
snl_from_row(struct game *g, const struct row_game *r)
{
	if (snl_init(&g->s.snl, r->nplayers) != 0)
		return -1;
	snl_put_play(g, r);
	return 0;
}

static int
snl_tokens(const struct game *g, struct row_token *rows)
{
	int	 p;

	for (p = 0; p < g->s.snl.nplayers; p++)
		rows[p] = (struct row_token){ p, 0, g->s.snl.pos[p], 0 };
	return p;
}

static int
snl_token_put(struct game *g, const struct row_token *r)
{
	if (r->token != 0 || r->pos < 0 || r->pos > SNL_CELLS)
		return -1;
	g->s.snl.pos[r->player] = (uint8_t)r->pos;
	return 0;
}

static int
snl_cells(const struct game *g, struct row_cell *rows)
{
	int	 c, n = 0;

	for (c = 1; c <= SNL_CELLS; c++)
		if (g->s.snl.jump[c] != 0)
			rows[n++] = (struct row_cell){ c, g->s.snl.jump[c] };
	return n;
}

static int
snl_cell_put(struct game *g, const struct row_cell *r)
{
	if (r->target == 0) {
		if (r->cell < 1 || r->cell > SNL_CELLS)
			return -1;
		g->s.snl.jump[r->cell] = 0;
		return 0;
	}
	if (r->cell < 1 || r->cell >= SNL_CELLS || r->target < 1 ||
	    r->target > SNL_CELLS)
		return -1;
	g->s.snl.jump[r->cell] = (uint8_t)r->target;
	return 0;
}

static int
snl_same_rules(const struct game *a, const struct game *b)
{
	return memcmp(a->s.snl.jump, b->s.snl.jump,
	    sizeof(a->s.snl.jump)) == 0;
}

/* ------------------------------------------------------------- cache */

/* The jumps as (cell, destination) pairs: a board has a few. */
static int
snl_encode(struct game_enc *e, const struct game *g, int np)
{
	const struct snl_state	*st = &g->s.snl;
	int			 c, n = 0;

	enc_bytes(e, st, SNL_INTS);
	enc_bytes(e, st->pos, (size_t)np);
	for (c = 0; c <= SNL_CELLS; c++)
		n += st->jump[c] != 0;
	enc_u8(e, (unsigned)n);
	for (c = 0; c <= SNL_CELLS && !e->bad; c++)
		if (st->jump[c] != 0) {
			enc_u8(e, (unsigned)c);
			enc_u8(e, st->jump[c]);
		}
	return 0;
}

static void
snl_decode(struct game_dec *d, struct game *g, int np)
{
	struct snl_state	*st = &g->s.snl;
	unsigned		 c, n;

	dec_bytes(d, st, SNL_INTS);
	dec_bytes(d, st->pos, (size_t)np);
	for (n = dec_u8(d); n > 0 && !d->bad; n--) {
		if ((c = dec_u8(d)) > SNL_CELLS)
			d->bad = 1;
		else
			st->jump[c] = (uint8_t)dec_u8(d);
	}
}

/* ------------------------------------------------------------- moves */

/* The reply text of a roll: "P<i> <pos>" or "P<i> WINS". */
static void
snl_result_text(const struct snl_result *r, char *buf, size_t len)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addc(&b, 'P');
	strbuf_addint(&b, r->player + 1);
	if (r->outcome == SNL_WON)
		strbuf_add(&b, " WINS");
	else {
		strbuf_addc(&b, ' ');
		strbuf_addint(&b, r->pos);
	}
}

void
kind_snl_action(char *buf, size_t len, int value)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addint(&b, value);
}

int
kind_snl_roll(const struct game *old, struct game *new, int value,
    struct move *mv)
{
	struct snl_result	 r;

	if (snl_roll(&old->s.snl, value, &new->s.snl, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER)
		return -1;
	game_seat_name(mv->player, sizeof(mv->player), r.player);
	kind_snl_action(mv->action, sizeof(mv->action), value);
	snl_result_text(&r, mv->result, sizeof(mv->result));
	return 0;
}

static int
snl_autoplay(const struct game *old, struct game *new, struct move *mv,
    int turn, int strategy, const struct game_random *rnd, char *why,
    size_t len)
{
	(void)turn;
	(void)strategy;
	if (kind_snl_roll(old, new, rnd->die(), mv) != 0) {
		snprintf(why, len, "automatic roll refused");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- words */

/* "P2 rolled 4: 14 -> 18, ladder to 31", "P1 rolled 5: 97, stays (99
 * and more need the exact roll)", "P3 rolled 2: 98 -> 100, wins". */
static void
snl_move_words(const struct game *before, const struct game *after,
    const struct move *mv, char *buf, size_t len)
{
	const struct snl_state	*b = &before->s.snl, *a = &after->s.snl;
	int			 p = b->turn, roll = mv->action[0] - '0';
	int			 from, to, land;

	if (p < 0 || p >= b->nplayers || p >= SNL_MAX_PLAYERS) {
		snprintf(buf, len, "%s rolled %d", mv->player, roll);
		return;
	}
	from = b->pos[p];
	to = a->pos[p];
	land = from + roll;
	if (a->winner == p)
		snprintf(buf, len, "%s rolled %d: %d -> %d, wins", mv->player,
		    roll, from, SNL_CELLS);
	else if (land > SNL_CELLS || to == from)
		snprintf(buf, len, "%s rolled %d: %d, stays (%d needs exactly "
		    "%d)", mv->player, roll, from, from, SNL_CELLS - from);
	else if (to != land)
		snprintf(buf, len, "%s rolled %d: %d -> %d, %s to %d",
		    mv->player, roll, from, land, to > land ? "ladder" :
		    "snake", to);
	else
		snprintf(buf, len, "%s rolled %d: %d -> %d", mv->player, roll,
		    from, to);
}

/* ------------------------------------------------------------ replay */

static int
snl_replay_init(const struct game *g, struct game *out)
{
	if (snl_init(&out->s.snl, g->s.snl.nplayers) == -1)
		return -1;
	memcpy(out->s.snl.jump, g->s.snl.jump, sizeof(out->s.snl.jump));
	return 0;
}

static int
snl_replay_step(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	struct snl_state	next;
	struct snl_result	r;
	char			player[16], result[RESULT_MAX + 1];
	const char		*a = mv->action;

	if (strlen(a) != 1 || a[0] < '1' || a[0] > '6') {
		snprintf(why, len, "bad action '%s'", a);
		return -1;
	}
	if (snl_roll(&g->s.snl, a[0] - '0', &next, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER) {
		snprintf(why, len, "roll after the end of the game");
		return -1;
	}
	game_seat_name(player, sizeof(player), r.player);
	snl_result_text(&r, result, sizeof(result));
	if (strcmp(player, mv->player) != 0 ||
	    strcmp(result, mv->result) != 0) {
		snprintf(why, len, "%s rolled %s: %s, stored %s %s", player,
		    a, result, mv->player, mv->result);
		return -1;
	}
	g->s.snl = next;
	return 0;
}

static int
snl_differs(const struct game *a, const struct game *b)
{
	const struct snl_state	*x = &a->s.snl, *y = &b->s.snl;

	if (x->nplayers != y->nplayers || x->turn != y->turn ||
	    x->winner != y->winner || x->started != y->started ||
	    x->nplayers < 0 || x->nplayers > SNL_MAX_PLAYERS)
		return 1;
	return memcmp(x->pos, y->pos, (size_t)x->nplayers) != 0 ||
	    memcmp(x->jump, y->jump, sizeof(x->jump)) != 0;
}

/* ------------------------------------------------------------- STATE */

static void
snl_state_reply(const struct game *g, struct reply *out)
{
	const struct snl_state	*st = &g->s.snl;
	char			 buf[64];
	int			 i;

	reply_array(out);
	reply_add_pair(out, "turn", "%s", game_seat_or_none(buf, sizeof buf,
	    st->turn, st->nplayers));
	reply_add_pair(out, "winner", "%s", game_seat_or_none(buf,
	    sizeof buf, st->winner, st->nplayers));
	for (i = 0; i < st->nplayers && i < SNL_MAX_PLAYERS; i++) {
		snprintf(buf, sizeof(buf), "P%d,%d", i + 1, st->pos[i]);
		reply_status(reply_add(out), buf);
	}
	for (i = 1; i <= SNL_CELLS; i++) {
		if (st->jump[i] == 0)
			continue;
		snprintf(buf, sizeof(buf), "%s,%d,%d",
		    st->jump[i] < i ? "snake" : "ladder", i, st->jump[i]);
		reply_status(reply_add(out), buf);
	}
}

/* The page asks for the value rolled, or with the server's dice for
 * the roll alone. */
static const struct game_ask snl_ask_roll = {
	.prompt = "Your turn, {player}: what did you roll?",
	.choices = "1 2 3 4 5 6",
	.draw = { "options.dice", "manual", NULL, "Roll",
	    "Your turn, {player}: roll." },
};

/* SNL.CREATE id n, SNL.ROLL id [value] (none: the server's dice). */
static const struct game_api snl_api = {
	.create = "SNL.CREATE",
	.move = "SNL.ROLL",
	.move_args = { { "roll", 1, 1, &snl_ask_roll } },
	.form_players = "2",
	.form_bots = "P2:first",
	.form_hint = "Snake & Ladder players are counted: `3` makes P1, P2 "
	    "and P3; a bot is `P2:first` (bots need the server's dice).  "
	    "Snakes are `head:tail` and "
	    "ladders `foot:top` pairs, comma-separated (`97:78,62:19`); "
	    "empty, the board has none.",
	.form = { { "snakes", "Snakes", "97:78,62:19,48:26,36:6", 1, NULL, 0 },
	    { "ladders", "Ladders", "3:38,28:84,51:67,71:91", 1, NULL, 0 } },
};

const struct game_kind_ops kind_snl = {
	.name = "snl",
	.title = "Snake & Ladder",
	.min_players = 1,
	.max_players = SNL_MAX_PLAYERS,
	.nplayers = snl_nplayers,
	.turn = snl_turn,
	.winner = snl_winner,
	.to_row = snl_to_row,
	.from_row = snl_from_row,
	.put_play = snl_put_play,
	.tokens = snl_tokens,
	.token_put = snl_token_put,
	.cells = snl_cells,
	.cell_put = snl_cell_put,
	.same_rules = snl_same_rules,
	.encode = snl_encode,
	.decode = snl_decode,
	.replay_init = snl_replay_init,
	.replay_step = snl_replay_step,
	.differs = snl_differs,
	.bot_can_play = game_server_dice,
	.bot_needs = "a bot needs dice=server",
	.autoplay = snl_autoplay,
	.state_reply = snl_state_reply,
	.state_cmd = "SNL.STATE",
	.info_random = game_info_dice,
	.render_svg = render_svg_snl,
	.move_words = snl_move_words,
	.state_json = json_state_snl,
	.rules_json = json_rules_snl,
	.rules_parse = json_rules_parse_snl,
	.api = &snl_api,
	.show_text = show_text_snl,
};
