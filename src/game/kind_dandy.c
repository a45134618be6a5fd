/*
 * DandyLand in the kind table: players P1..Pn who score (no winner), a
 * board and maybe a deck in the games row, one token row per player with
 * its points, its cache encoding, its replay and its STATE reply.  A
 * draw's result is "P<i> <pos|OFF> <points>", the position 1-based.
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
#define DANDY_INTS1	offsetof(struct dandy_state, board)
#define DANDY_INTS2	(offsetof(struct dandy_state, deck) - \
			    offsetof(struct dandy_state, has_deck))

_Static_assert(offsetof(struct dandy_state, board) == 2 * sizeof(int) &&
    offsetof(struct dandy_state, deck) -
    offsetof(struct dandy_state, has_deck) == 3 * sizeof(int),
    "the state's ints are not where the encoding takes them");
_Static_assert(DANDY_INTS1 + DANDY_BOARD_MAX + DANDY_INTS2 +
    DANDY_DECK_MAX + (1 + 2 * DANDY_MAX_PLAYERS) * sizeof(int) <=
    GAME_ENC_KIND_MAX, "DandyLand's encoding is too big");

static int
dandy_nplayers(const struct game *g)
{
	return g->s.dandy.nplayers;
}

static int
dandy_turn(const struct game *g)
{
	return g->s.dandy.turn;
}

/* -------------------------------------------------------------- rows */

static void
dandy_to_row(const struct game *g, struct row_game *r)
{
	const struct dandy_state *st = &g->s.dandy;

	r->nplayers = st->nplayers;
	r->turn = st->turn;
	r->winner = -1;
	r->aux = st->drawn;
	r->cols |= ROW_BOARD;
	r->board = st->board;
	r->board_len = strnlen(st->board, sizeof(st->board));
	r->has_deck = st->has_deck != 0;
	if (st->has_deck) {
		r->cols |= ROW_DECK;
		r->deck = st->deck;
		r->deck_len = (size_t)st->deck_len;
	}
}

static void
dandy_put_play(struct game *g, const struct row_game *r)
{
	g->s.dandy.turn = r->turn;
	g->s.dandy.drawn = (int)r->aux;
}

static int
dandy_from_row(struct game *g, const struct row_game *r)
{
	const char	*deck = NULL;

	if (r->has_deck != 0)
		deck = r->deck != NULL ? r->deck : "";
	if (dandy_init(&g->s.dandy, r->nplayers, r->board, deck, NULL) != 0)
		return -1;
	dandy_put_play(g, r);
	return 0;
}

static int
dandy_tokens(const struct game *g, struct row_token *rows)
{
	int	 p;

	for (p = 0; p < g->s.dandy.nplayers; p++)
		rows[p] = (struct row_token){ p, 0, g->s.dandy.pos[p],
		    g->s.dandy.points[p] };
	return p;
}

static int
dandy_token_put(struct game *g, const struct row_token *r)
{
	if (r->token != 0 || r->pos < DANDY_OFF ||
	    r->pos >= g->s.dandy.board_len || r->points < 0)
		return -1;
	g->s.dandy.pos[r->player] = r->pos;
	g->s.dandy.points[r->player] = r->points;
	return 0;
}

static int
dandy_same_rules(const struct game *a, const struct game *b)
{
	return a->s.dandy.has_deck == b->s.dandy.has_deck &&
	    a->s.dandy.deck_len == b->s.dandy.deck_len &&
	    strcmp(a->s.dandy.board, b->s.dandy.board) == 0 &&
	    memcmp(a->s.dandy.deck, b->s.dandy.deck,
	    (size_t)a->s.dandy.deck_len) == 0;
}

/* ------------------------------------------------------------- cache */

/* The board and the deck as long as they are, the players' rows as
 * many as there are. */
static int
dandy_encode(struct game_enc *e, const struct game *g, int np)
{
	const struct dandy_state *st = &g->s.dandy;

	if (np > DANDY_MAX_PLAYERS || st->board_len < 0 ||
	    st->board_len > DANDY_BOARD_MAX || st->deck_len < 0 ||
	    st->deck_len > DANDY_DECK_MAX)
		return -1;
	enc_bytes(e, st, DANDY_INTS1);
	enc_bytes(e, st->board, (size_t)st->board_len);
	enc_bytes(e, &st->has_deck, DANDY_INTS2);
	enc_bytes(e, st->deck, (size_t)st->deck_len);
	enc_bytes(e, &st->turn, sizeof(st->turn));
	enc_bytes(e, st->pos, (size_t)np * sizeof(st->pos[0]));
	enc_bytes(e, st->points, (size_t)np * sizeof(st->points[0]));
	return 0;
}

/* The players past np are off the board, as dandy_init() leaves them. */
static void
dandy_decode(struct game_dec *d, struct game *g, int np)
{
	struct dandy_state	*st = &g->s.dandy;
	int			 i;

	if (np > DANDY_MAX_PLAYERS) {
		d->bad = 1;
		return;
	}
	dec_bytes(d, st, DANDY_INTS1);
	if (st->board_len < 0 || st->board_len > DANDY_BOARD_MAX) {
		d->bad = 1;
		return;
	}
	dec_bytes(d, st->board, (size_t)st->board_len);
	dec_bytes(d, &st->has_deck, DANDY_INTS2);
	if (st->deck_len < 0 || st->deck_len > DANDY_DECK_MAX) {
		d->bad = 1;
		return;
	}
	dec_bytes(d, st->deck, (size_t)st->deck_len);
	dec_bytes(d, &st->turn, sizeof(st->turn));
	for (i = np; i < DANDY_MAX_PLAYERS; i++)
		st->pos[i] = DANDY_OFF;
	dec_bytes(d, st->pos, (size_t)np * sizeof(st->pos[0]));
	dec_bytes(d, st->points, (size_t)np * sizeof(st->points[0]));
}

/* ------------------------------------------------------------- moves */

/* The reply text of a draw: "P<i> <pos|OFF> <points>", pos 1-based. */
static void
dandy_result_text(const struct dandy_result *r, char *buf, size_t len)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addc(&b, 'P');
	strbuf_addint(&b, r->player + 1);
	if (r->pos == DANDY_OFF)
		strbuf_add(&b, " OFF");
	else {
		strbuf_addc(&b, ' ');
		strbuf_addint(&b, r->pos + 1);
	}
	strbuf_addc(&b, ' ');
	strbuf_addint(&b, r->points);
}

int
kind_dandy_draw(const struct game *old, struct game *new, int card,
    struct move *mv)
{
	const struct dandy_state *st = &old->s.dandy;
	struct dandy_result	 r;
	int			 c = card;

	if (st->has_deck && st->drawn >= 0 && st->drawn < st->deck_len &&
	    st->drawn < DANDY_DECK_MAX)
		c = (unsigned char)st->deck[st->drawn];
	if (dandy_draw(st, card, &new->s.dandy, &r) == -1 || r.game_over)
		return -1;
	game_seat_name(mv->player, sizeof(mv->player), r.player);
	mv->action[0] = (char)c;
	mv->action[1] = '\0';
	dandy_result_text(&r, mv->result, sizeof(mv->result));
	return 0;
}

/* A bot plays from the deck: a client gives no card then. */
static int
dandy_bot_can_play(const struct game *g)
{
	return g->s.dandy.has_deck;
}

/*
 * A draw from the deck; a game without one (only a turn-timeout brings
 * the server here, bots need a deck) gets a card drawn by the server,
 * each of the 18 kinds alike, as a deck would.
 */
static int
dandy_autoplay(const struct game *old, struct game *new, struct move *mv,
    int turn, int strategy, const struct game_random *rnd, char *why,
    size_t len)
{
	int	 card = old->s.dandy.has_deck ? 0 : rnd->card();

	(void)turn;
	(void)strategy;
	if (kind_dandy_draw(old, new, card, mv) != 0) {
		snprintf(why, len, "automatic draw refused");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- words */

/* "P1 drew c: to cell 6, 4 points", "P2 drew 5: off the board, 9
 * points". */
static void
dandy_move_words(const struct game *before, const struct game *after,
    const struct move *mv, char *buf, size_t len)
{
	const struct dandy_state *b = &before->s.dandy, *a = &after->s.dandy;
	int			 p = b->turn;

	if (p < 0 || p >= b->nplayers || p >= DANDY_MAX_PLAYERS)
		snprintf(buf, len, "%s drew %s", mv->player, mv->action);
	else if (a->pos[p] == DANDY_OFF)
		snprintf(buf, len, "%s drew %s: off the board, %d point%s",
		    mv->player, mv->action, a->points[p],
		    a->points[p] == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s drew %s: to cell %d, %d point%s",
		    mv->player, mv->action, a->pos[p] + 1, a->points[p],
		    a->points[p] == 1 ? "" : "s");
}

/* ------------------------------------------------------------ replay */

static int
dandy_replay_init(const struct game *g, struct game *out)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 board[DANDY_BOARD_MAX + 1];
	char			 deck[DANDY_DECK_MAX + 1];
	const char		*why;

	if (st->board_len < 1 || st->board_len > DANDY_BOARD_MAX ||
	    st->deck_len < 0 || st->deck_len > DANDY_DECK_MAX)
		return -1;
	memcpy(board, st->board, (size_t)st->board_len);
	board[st->board_len] = '\0';
	memcpy(deck, st->deck, (size_t)st->deck_len);
	deck[st->deck_len] = '\0';
	return dandy_init(&out->s.dandy, st->nplayers, board,
	    st->has_deck ? deck : NULL, &why);
}

static int
dandy_replay_step(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	const struct dandy_state *st = &g->s.dandy;
	struct dandy_state	 next;
	struct dandy_result	 r;
	char			 player[16], result[RESULT_MAX + 1];
	int			 card;

	if (strlen(mv->action) != 1) {
		snprintf(why, len, "bad action '%s'", mv->action);
		return -1;
	}
	card = (unsigned char)mv->action[0];
	if (st->has_deck) {
		if (st->drawn < 0 || st->drawn >= st->deck_len ||
		    st->deck[st->drawn] != card) {
			snprintf(why, len, "card '%s' is not the next in "
			    "the deck", mv->action);
			return -1;
		}
		card = 0;
	}
	if (dandy_draw(st, card, &next, &r) == -1 || r.game_over) {
		snprintf(why, len, "draw of '%s' refused", mv->action);
		return -1;
	}
	game_seat_name(player, sizeof(player), r.player);
	dandy_result_text(&r, result, sizeof(result));
	if (strcmp(player, mv->player) != 0 ||
	    strcmp(result, mv->result) != 0) {
		snprintf(why, len, "%s drew %s: %s, stored %s %s", player,
		    mv->action, result, mv->player, mv->result);
		return -1;
	}
	g->s.dandy = next;
	return 0;
}

static int
dandy_differs(const struct game *a, const struct game *b)
{
	const struct dandy_state *x = &a->s.dandy, *y = &b->s.dandy;
	int			 i;

	if (x->nplayers != y->nplayers || x->board_len != y->board_len ||
	    x->has_deck != y->has_deck || x->deck_len != y->deck_len ||
	    x->drawn != y->drawn || x->turn != y->turn ||
	    x->nplayers < 0 || x->nplayers > DANDY_MAX_PLAYERS ||
	    x->board_len < 0 || x->board_len > DANDY_BOARD_MAX ||
	    x->deck_len < 0 || x->deck_len > DANDY_DECK_MAX)
		return 1;
	if (memcmp(x->board, y->board, (size_t)x->board_len) != 0 ||
	    memcmp(x->deck, y->deck, (size_t)x->deck_len) != 0)
		return 1;
	for (i = 0; i < x->nplayers; i++)
		if (x->pos[i] != y->pos[i] || x->points[i] != y->points[i])
			return 1;
	return 0;
}

/* --------------------------------------------------- STATE, GAME.INFO */

static void
dandy_state_reply(const struct game *g, struct reply *out)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 buf[64];
	int			 i;

	reply_array(out);
	reply_add_pair(out, "turn", "%s", game_seat_or_none(buf, sizeof buf,
	    st->turn, st->nplayers));
	for (i = 0; i < st->nplayers && i < DANDY_MAX_PLAYERS; i++) {
		if (st->pos[i] == DANDY_OFF)
			snprintf(buf, sizeof(buf), "P%d,OFF,%d", i + 1,
			    st->points[i]);
		else
			snprintf(buf, sizeof(buf), "P%d,%d,%d", i + 1,
			    st->pos[i] + 1, st->points[i]);
		reply_status(reply_add(out), buf);
	}
}

/* The board is public (the deck is not): clients draw it. */
static void
dandy_info(const struct game *g, struct reply *out)
{
	reply_add_pair(out, "board", "%s", g->s.dandy.board);
}

/* A shuffled deck: the count of cards left, never the cards. */
static void
dandy_info_random(const struct game *g, struct reply *out)
{
	const struct dandy_state *st = &g->s.dandy;

	reply_add_pair(out, "deck", "%s", "shuffled");
	reply_add_pair(out, "cards-left", "%d", st->deck_len - st->drawn);
}

/* The page asks for the card drawn, or with a deck (state.deck.kind of
 * the game's JSON) for the draw alone. */
static const struct game_ask dandy_ask_card = {
	.prompt = "Your turn, {player}: which card?",
	.choices = "a b c d e f g h i 1 2 3 4 5 6 7 8 9",
	.draw = { "state.deck.kind", NULL, NULL, "Draw",
	    "Your turn, {player}: draw." },
};

/* DANDY.CREATE id n board, DANDY.DRAW id [card] (none: the deck's). */
/* DandyLand has no winner: the players rank by their points, those
 * with as many sharing a place. */
static void
dandy_places(const struct game *g, int place[])
{
	const struct dandy_state	*d = &g->s.dandy;
	int				 i, j;

	for (i = 0; i < d->nplayers && i < DANDY_MAX_PLAYERS; i++) {
		place[i] = 0;
		for (j = 0; j < d->nplayers && j < DANDY_MAX_PLAYERS; j++)
			if (d->points[j] > d->points[i])
				place[i]++;
	}
}

static const struct game_api dandy_api = {
	.create = "DANDY.CREATE",
	.create_args = { { "board", 0, 0, NULL } },
	.move = "DANDY.DRAW",
	.move_args = { { "card", 0, 1, &dandy_ask_card } },
	.form_players = "2",
	.form_bots = "P2:first",
	.form_hint = "DandyLand players are counted: `2` makes P1 and P2; a "
	    "bot is `P2:first` (bots need the deck).  The board is 1 to 36 "
	    "letters of `a-i`; the deck `shuffled`, or empty for cards "
	    "given by the players.",
	.form = { { "board", "Board", "abcdefghiabcdefghi", 0, NULL, 0 },
	    { "deck", "Deck", "shuffled", 1, NULL, 0 } },
};

const struct game_kind_ops kind_dandy = {
	.name = "dandy",
	.title = "DandyLand",
	.min_players = 1,
	.max_players = DANDY_MAX_PLAYERS,
	.nplayers = dandy_nplayers,
	.turn = dandy_turn,
	.to_row = dandy_to_row,
	.from_row = dandy_from_row,
	.put_play = dandy_put_play,
	.tokens = dandy_tokens,
	.token_put = dandy_token_put,
	.same_rules = dandy_same_rules,
	.encode = dandy_encode,
	.decode = dandy_decode,
	.replay_init = dandy_replay_init,
	.replay_step = dandy_replay_step,
	.differs = dandy_differs,
	.bot_can_play = dandy_bot_can_play,
	.places = dandy_places,
	.bot_needs = "a bot needs a deck (deck=<cards> or deck=shuffled)",
	.no_dice = "DandyLand has no dice: deck=shuffled deals a server deck",
	.autoplay = dandy_autoplay,
	.state_reply = dandy_state_reply,
	.state_cmd = "DANDY.STATE",
	.info = dandy_info,
	.info_random = dandy_info_random,
	.render_svg = render_svg_dandy,
	.move_words = dandy_move_words,
	.state_json = json_state_dandy,
	.rules_json = json_rules_dandy,
	.rules_parse = json_rules_parse_dandy,
	.api = &dandy_api,
	.show_text = show_text_dandy,
};
