/*
 * Ludo in the kind table: its players named by their ids, its rows (the
 * games row's rules columns, four token rows per player), its cache
 * encoding, its replay and its STATE reply.
 */
#include <stdio.h>
#include <string.h>

#include "engine/bot.h"
#include "game/enc.h"
#include "game/game.h"
#include "game/kinds.h"
#include "game/rows.h"
#include "game/view.h"
#include "util/reply.h"
#include "util/util.h"

static int
ludo_nplayers(const struct game *g)
{
	return g->s.ludo.nplayers;
}

static int
ludo_turn(const struct game *g)
{
	return g->s.ludo.turn;
}

static int
ludo_winner(const struct game *g)
{
	return g->s.ludo.winner;
}

static void
ludo_player_name(const struct game *g, int i, char *buf, size_t len)
{
	str_copy(buf, len, i < LUDO_MAX_PLAYERS ? g->players[i] : "NONE");
}

/* The name of player i, "NONE" unless there is one. */
static const char *
ludo_name_or_none(const struct game *g, int i, char *buf, size_t len)
{
	if (i < 0 || i >= g->s.ludo.nplayers)
		str_copy(buf, len, "NONE");
	else
		ludo_player_name(g, i, buf, len);
	return buf;
}

static int
ludo_player_index(const struct game *g, const char *name)
{
	int	 i;

	for (i = 0; i < g->s.ludo.nplayers && i < LUDO_MAX_PLAYERS; i++)
		if (strcmp(g->players[i], name) == 0)
			return i;
	return -1;
}

/* -------------------------------------------------------------- rows */

static void
ludo_to_row(const struct game *g, struct row_game *r)
{
	const struct ludo_state	*st = &g->s.ludo;

	r->nplayers = st->nplayers;
	r->turn = st->turn;
	r->winner = st->winner;
	r->aux = st->sixes;
	r->cols |= ROW_LUDO_RULES;
	r->ludo_preset = st->rules.preset;
	r->six_bonus = st->rules.six_bonus;
	r->capture_bonus = st->rules.capture_bonus;
	r->three_sixes = st->rules.three_sixes;
}

static void
ludo_put_play(struct game *g, const struct row_game *r)
{
	g->s.ludo.turn = r->turn;
	g->s.ludo.winner = r->winner;
	g->s.ludo.sixes = (int)r->aux;
}

static int
ludo_from_row(struct game *g, const struct row_game *r)
{
	struct ludo_rules	 rules;

	memset(&rules, 0, sizeof(rules));
	rules.preset = (uint8_t)r->ludo_preset;
	rules.six_bonus = (uint8_t)r->six_bonus;
	rules.capture_bonus = (uint8_t)r->capture_bonus;
	rules.three_sixes = (uint8_t)r->three_sixes;
	if (ludo_init(&g->s.ludo, &rules, r->nplayers) != 0)
		return -1;
	ludo_put_play(g, r);
	return 0;
}

static int
ludo_player_put(struct game *g, int i, const char *name, size_t len)
{
	if (i >= LUDO_MAX_PLAYERS || name == NULL ||
	    len >= sizeof(g->players[i]))
		return -1;
	memcpy(g->players[i], name, len);
	g->players[i][len] = '\0';
	return 0;
}

static int
ludo_tokens(const struct game *g, struct row_token *rows)
{
	int	 n = 0, p, t;

	for (p = 0; p < g->s.ludo.nplayers; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			rows[n++] = (struct row_token){ p, t + 1,
			    g->s.ludo.pos[p][t], 0 };
	return n;
}

static int
ludo_token_put(struct game *g, const struct row_token *r)
{
	if (r->token < 1 || r->token > LUDO_TOKENS || r->pos < -1 ||
	    r->pos > INT8_MAX)
		return -1;
	g->s.ludo.pos[r->player][r->token - 1] = (int8_t)r->pos;
	return 0;
}

static int
ludo_same_rules(const struct game *a, const struct game *b)
{
	return memcmp(&a->s.ludo.rules, &b->s.ludo.rules,
	    sizeof(a->s.ludo.rules)) == 0;
}

/* ------------------------------------------------------------- cache */

_Static_assert(sizeof(struct ludo_state) + LUDO_MAX_PLAYERS *
    (GAME_ID_MAX + 1) <= GAME_ENC_KIND_MAX, "Ludo's encoding is too big");

/*
 * The state whole, as it is small and its unused rows are not zero, and
 * the players' names whole: one copy where cutting each to its length
 * took four, and the largest Ludo game still fits a cache slot.
 */
static int
ludo_encode(struct game_enc *e, const struct game *g, int np)
{
	if (np > LUDO_MAX_PLAYERS)
		return -1;
	enc_bytes(e, &g->s.ludo, sizeof(g->s.ludo));
	enc_bytes(e, g->players, (size_t)np * sizeof(g->players[0]));
	return 0;
}

static void
ludo_decode(struct game_dec *d, struct game *g, int np)
{
	if (np > LUDO_MAX_PLAYERS) {
		d->bad = 1;
		return;
	}
	dec_bytes(d, &g->s.ludo, sizeof(g->s.ludo));
	dec_bytes(d, g->players, (size_t)np * sizeof(g->players[0]));
}

/* ------------------------------------------------------------- moves */

void
kind_ludo_action(char *buf, size_t len, int dice, int token)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addint(&b, dice);
	strbuf_addc(&b, ':');
	strbuf_addint(&b, token);
}

enum ludo_result
kind_ludo_play(const struct game *old, struct game *new, int player,
    int dice, int token, struct move *mv)
{
	enum ludo_result	 res;

	res = ludo_play(&old->s.ludo, player, dice, token, &new->s.ludo);
	if (ludo_result_stored(res)) {
		str_copy(mv->player, sizeof(mv->player), old->players[player]);
		kind_ludo_action(mv->action, sizeof(mv->action), dice, token);
		str_copy(mv->result, sizeof(mv->result), ludo_result_str(res));
	}
	return res;
}

/* The roll already drawn for this player if there is one (an absent
 * player may have rolled before leaving), else a fresh one; the strategy
 * picks the token, or a pass when none can move. */
static int
ludo_autoplay(const struct game *old, struct game *new, struct move *mv,
    int turn, int strategy, const struct game_random *rnd, char *why,
    size_t len)
{
	enum ludo_result	 res;
	int			 dice, token;

	if (old->opts.roll != 0 && old->opts.roll_player == turn)
		dice = old->opts.roll;
	else
		dice = rnd->die();
	token = ludo_bot_choose(&old->s.ludo, dice,
	    (enum bot_strategy)strategy);
	res = kind_ludo_play(old, new, turn, dice, token, mv);
	if (!ludo_result_stored(res)) {
		snprintf(why, len, "automatic move refused: %s",
		    ludo_result_str(res));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- words */

/*
 * "red rolled 6: token 1 leaves the yard", "red rolled 3: token 1,
 * step 1 -> 4, captures blue's", "blue rolled 5: no token can move".
 */
static void
ludo_move_words(const struct game *before, const struct game *after,
    const struct move *mv, char *buf, size_t len)
{
	const struct ludo_state	*b = &before->s.ludo, *a = &after->s.ludo;
	const char		*r = mv->result;
	char			 victim[GAME_ID_MAX + 1];
	int			 p, t, q, u, from, to, n;

	p = ludo_player_index(before, mv->player);
	/* kind_ludo_action()'s "dice:token", token 0 for none. */
	t = mv->action[1] == ':' ? mv->action[2] - '1' : -1;
	n = snprintf(buf, len, "%s rolled %c: ", mv->player, mv->action[0]);
	if (n < 0 || (size_t)n >= len)
		return;
	buf += n;
	len -= (size_t)n;
	if (strcmp(r, ludo_result_str(LUDO_PASSED)) == 0 || p < 0 || t < 0 ||
	    t >= LUDO_TOKENS) {
		snprintf(buf, len, strcmp(r, ludo_result_str(LUDO_FORFEITED))
		    == 0 ? "a third six, the turn is lost" :
		    "no token can move, the turn passes");
		return;
	}
	from = b->pos[p][t];
	to = a->pos[p][t];
	victim[0] = '\0';
	for (q = 0; q < b->nplayers && q < LUDO_MAX_PLAYERS; q++)
		for (u = 0; u < LUDO_TOKENS; u++)
			if (q != p && b->pos[q][u] >= 0 && a->pos[q][u] < 0)
				ludo_player_name(after, q, victim,
				    sizeof victim);
	if (from < 0)
		n = snprintf(buf, len, "token %d leaves the yard", t + 1);
	else if (to >= ludo_finish(&b->rules))
		n = snprintf(buf, len, "token %d reaches the end", t + 1);
	else
		n = snprintf(buf, len, "token %d, step %d -> %d", t + 1, from,
		    to);
	if (n < 0 || (size_t)n >= len)
		return;
	if (victim[0] != '\0')
		snprintf(buf + n, len - (size_t)n, ", captures %s's token",
		    victim);
	else if (strcmp(r, ludo_result_str(LUDO_PLAYER_WON)) == 0)
		snprintf(buf + n, len - (size_t)n, ": %s wins", mv->player);
}

/* ------------------------------------------------------------ replay */

static int
ludo_replay_init(const struct game *g, struct game *out)
{
	return ludo_init(&out->s.ludo, &g->s.ludo.rules, g->s.ludo.nplayers);
}

static int
ludo_replay_step(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	const char		*a = mv->action;
	struct ludo_state	 next;
	enum ludo_result	 res;
	int			 player;

	if (strlen(a) != 3 || a[0] < '1' || a[0] > '6' || a[1] != ':' ||
	    a[2] < '0' || a[2] > '4') {
		snprintf(why, len, "bad action '%s'", a);
		return -1;
	}
	player = ludo_player_index(g, mv->player);
	if (player == -1) {
		snprintf(why, len, "unknown player '%s'", mv->player);
		return -1;
	}
	res = ludo_play(&g->s.ludo, player, a[0] - '0', a[2] - '0', &next);
	if (!ludo_result_stored(res) ||
	    strcmp(ludo_result_str(res), mv->result) != 0) {
		snprintf(why, len, "result %s, stored %s",
		    ludo_result_str(res) != NULL ? ludo_result_str(res) : "?",
		    mv->result);
		return -1;
	}
	g->s.ludo = next;
	return 0;
}

static int
ludo_differs(const struct game *a, const struct game *b)
{
	const struct ludo_state	*x = &a->s.ludo, *y = &b->s.ludo;
	int			 p, t;

	if (x->nplayers != y->nplayers || x->turn != y->turn ||
	    x->winner != y->winner || x->sixes != y->sixes ||
	    memcmp(&x->rules, &y->rules, sizeof(x->rules)) != 0)
		return 1;
	for (p = 0; p < x->nplayers && p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (x->pos[p][t] != y->pos[p][t])
				return 1;
	return 0;
}

/* ------------------------------------------------------------- STATE */

static void
ludo_state_reply(const struct game *g, struct reply *out)
{
	const struct ludo_state	*st = &g->s.ludo;
	char			 buf[GAME_ID_MAX + 32];
	const char		*loc;
	int			 p, t;

	reply_array(out);
	reply_add_pair(out, "turn", "%s", ludo_name_or_none(g, st->turn, buf,
	    sizeof buf));
	reply_add_pair(out, "winner", "%s", ludo_name_or_none(g, st->winner,
	    buf, sizeof buf));
	for (p = 0; p < st->nplayers && p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++) {
			loc = ludo_location(&st->rules, st->pos[p][t]);
			snprintf(buf, sizeof(buf), "%s,%d,%s,%d",
			    g->players[p], t + 1, loc != NULL ? loc : "?",
			    st->pos[p][t]);
			reply_status(reply_add(out), buf);
		}
}

/* The page asks for the die (the server's, once LUDO.ROLL drew it, or
 * one the player picks), then for one of the tokens it lets move (the
 * board's, state.legal of the game's JSON), or a pass. */
static const struct game_ask ludo_ask_dice = {
	.prompt = "Your turn, {player}: pick the die.",
	.choices = "1 2 3 4 5 6",
	.draw = { "options.dice", "manual", "options.roll", "Roll",
	    "Your turn, {player}: roll." },
};
static const struct game_ask ludo_ask_token = {
	.prompt = "A {dice}: click a token to move it.",
	.board = { "state.legal", "dice", "0", "Pass",
	    "A {dice}: no token can move." },
};

/* LUDO.CREATE id red blue ..., LUDO.PLAY id player dice token,
 * LUDO.ROLL id player. */
static const struct game_api ludo_api = {
	.create = "LUDO.CREATE",
	.move = "LUDO.PLAY",
	.move_args = { { "player", 0, 0, NULL },
	    { "dice", 1, 0, &ludo_ask_dice },
	    { "token", 1, 0, &ludo_ask_token } },
	.seat_arg = "player",
	.roll = "LUDO.ROLL",
	.roll_args = { { "player", 0, 0, NULL } },
	.form_players = "red blue",
	.form_bots = "blue:expert",
	.form_hint = "Ludo players are names; a bot is `name:first`, "
	    "`name:aggressive` or `name:expert` (bots need the server's "
	    "dice).",
	.form = { { "rules", "Rules", "classic", 1,
	    "classic interview extended", 1 } },
};

const struct game_kind_ops kind_ludo = {
	.name = "ludo",
	.title = "Ludo",
	.min_players = LUDO_MIN_PLAYERS,
	.max_players = LUDO_MAX_PLAYERS,
	.nplayers = ludo_nplayers,
	.turn = ludo_turn,
	.winner = ludo_winner,
	.player_name = ludo_player_name,
	.player_index = ludo_player_index,
	.to_row = ludo_to_row,
	.from_row = ludo_from_row,
	.put_play = ludo_put_play,
	.player_put = ludo_player_put,
	.tokens = ludo_tokens,
	.token_put = ludo_token_put,
	.same_rules = ludo_same_rules,
	.encode = ludo_encode,
	.decode = ludo_decode,
	.replay_init = ludo_replay_init,
	.replay_step = ludo_replay_step,
	.differs = ludo_differs,
	.bot_can_play = game_server_dice,
	.bot_needs = "a bot needs dice=server",
	.autoplay = ludo_autoplay,
	.state_reply = ludo_state_reply,
	.state_cmd = "LUDO.STATE",
	.info_random = game_info_dice,
	.render_svg = render_svg_ludo,
	.move_words = ludo_move_words,
	.state_json = json_state_ludo,
	.rules_json = json_rules_ludo,
	.rules_parse = json_rules_parse_ludo,
	.api = &ludo_api,
	.show_text = show_text_ludo,
};
