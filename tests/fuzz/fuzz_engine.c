/*
 * Fuzzes the rules engine: an arbitrary snapshot and a sequence of
 * actions for one of the three games.  The engine promises (engine.h) to
 * take snapshots from anywhere, so besides "no crash" this checks what a
 * caller relies on:
 *
 *	- a result that changes nothing (INVALID_MOVE, GAME_OVER, a refused
 *	  roll or draw) leaves the output equal to the input, or untouched;
 *	- a result that changes something came from a valid snapshot and
 *	  gives a valid one (positions in range, turn and winner agree), and
 *	  changes only what the rules allow;
 *	- playing in place (out == in) gives the same as playing into a copy;
 *	- the bots only ever choose a legal token.
 *
 * Input: one header byte h, then the snapshot, then actions of four bytes
 * (op, a, b, c); missing bytes read as zero.  (h & 3) % 3 is the game:
 * Ludo, Snake & Ladder, DandyLand.  With bit 2 of h set the snapshot is
 * the raw bytes of the struct (so seeds of that form depend on the ABI);
 * without it, *_init builds it from a few parameter bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bot.h"
#include "engine/engine.h"
#include "fuzz.h"

/* Most actions per input: a game needs a few hundred at most. */
#define MAX_ACTIONS	2000

/* ludo.c's bound on a run of sixes (any more is a garbage snapshot). */
#define LUDO_SIXES_MAX	1000

struct input {
	const uint8_t	*p;
	size_t		 len;
	size_t		 pos;
};

static int
more(const struct input *in)
{
	return in->pos < in->len;
}

static uint8_t
byte(struct input *in)
{
	return in->pos < in->len ? in->p[in->pos++] : 0;
}

/* A signed byte: reaches the negative and the too-large values. */
static int
sbyte(struct input *in)
{
	return (int)(int8_t)byte(in);
}

/* Fills a struct from the input; what is missing stays zero. */
static void
raw(struct input *in, void *dst, size_t size)
{
	size_t	n = in->len - in->pos < size ? in->len - in->pos : size;

	memset(dst, 0, size);
	memcpy(dst, in->p + in->pos, n);
	in->pos += n;
}

/* ---------------------------------------------------------------- Ludo */

/*
 * The harness's own statement of what ludo.c accepts: the rules promise
 * that a move from such a snapshot gives another one.
 */
static int
ludo_ok(const struct ludo_state *st)
{
	int	p, t, finish;

	if (st->rules.preset > LUDO_EXTENDED ||
	    st->nplayers < LUDO_MIN_PLAYERS || st->nplayers > LUDO_MAX_PLAYERS)
		return 0;
	if (st->winner == -1 ?
	    st->turn < 0 || st->turn >= st->nplayers :
	    st->winner < 0 || st->winner >= st->nplayers || st->turn != -1)
		return 0;
	if (st->sixes < 0 || st->sixes > LUDO_SIXES_MAX ||
	    (st->rules.three_sixes && st->sixes > 2))
		return 0;
	finish = ludo_finish(&st->rules);
	for (p = 0; p < st->nplayers; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (st->pos[p][t] < LUDO_YARD || st->pos[p][t] > finish)
				return 0;
	return 1;
}

/*
 * A snapshot the rules must play on.  At the bound of a run of sixes the
 * rules may either refuse the snapshot or stop counting (see
 * regress/engine/ludo-sixes-overflow); both are fine, so no claim there.
 */
static int
ludo_playable(const struct ludo_state *st)
{
	return ludo_ok(st) && st->winner == -1 && st->sixes < LUDO_SIXES_MAX;
}

static int
ludo_is_legal(const struct ludo_state *st, int dice, int token)
{
	int	legal[LUDO_TOKENS], n, i;

	n = ludo_legal(st, dice, legal);
	for (i = 0; i < n; i++)
		if (legal[i] == token)
			return 1;
	return 0;
}

/* Checks one ludo_play() from in to out with result r. */
static void
ludo_check(const struct ludo_state *in, int player, int dice, int token,
    enum ludo_result r, const struct ludo_state *out)
{
	const char	*s;
	int		 p, t, finish, captured = 0, moved = 0, bonus;

	s = ludo_result_str(r);
	FUZZ_CHECK(s != NULL);
	FUZZ_CHECK(ludo_result_parse(s) == (int)r);
	if (!ludo_result_stored(r)) {
		FUZZ_CHECK(r == LUDO_INVALID_MOVE || r == LUDO_GAME_OVER ||
		    r == LUDO_NO_PLAYER);
		FUZZ_CHECK(memcmp(in, out, sizeof(*in)) == 0);
		if (r == LUDO_GAME_OVER)
			FUZZ_CHECK(ludo_ok(in) && in->winner != -1);
		return;
	}
	/* A stored result: a real turn of the player to move. */
	FUZZ_CHECK(ludo_ok(in) && ludo_ok(out));
	FUZZ_CHECK(in->winner == -1 && player == in->turn);
	FUZZ_CHECK(dice >= 1 && dice <= 6);
	FUZZ_CHECK(memcmp(&in->rules, &out->rules, sizeof(in->rules)) == 0);
	FUZZ_CHECK(in->nplayers == out->nplayers);
	for (p = in->nplayers; p < LUDO_MAX_PLAYERS; p++)
		FUZZ_CHECK(memcmp(in->pos[p], out->pos[p],
		    sizeof(in->pos[p])) == 0);
	finish = ludo_finish(&in->rules);

	if (r == LUDO_PASSED || r == LUDO_FORFEITED) {
		FUZZ_CHECK(memcmp(in->pos, out->pos, sizeof(in->pos)) == 0);
		FUZZ_CHECK(out->turn == (player + 1) % in->nplayers);
		FUZZ_CHECK(out->winner == -1 && out->sixes == 0);
		if (r == LUDO_PASSED)
			FUZZ_CHECK(token == 0 && !ludo_is_legal(in, dice, 1) &&
			    !ludo_is_legal(in, dice, 2) &&
			    !ludo_is_legal(in, dice, 3) &&
			    !ludo_is_legal(in, dice, 4));
		else
			FUZZ_CHECK(in->rules.three_sixes && dice == 6 &&
			    in->sixes == 2);
		return;
	}

	/* A move: one token of the mover forward, opponents maybe home. */
	FUZZ_CHECK(token >= 1 && token <= LUDO_TOKENS);
	for (t = 0; t < LUDO_TOKENS; t++) {
		int from = in->pos[player][t], to = out->pos[player][t];

		if (t != token - 1) {
			FUZZ_CHECK(from == to);
			continue;
		}
		moved = 1;
		if (from == LUDO_YARD)
			FUZZ_CHECK(dice == 6 && to == 0);
		else
			FUZZ_CHECK(to == from + dice && to <= finish);
	}
	FUZZ_CHECK(moved);
	for (p = 0; p < in->nplayers; p++) {
		if (p == player)
			continue;
		for (t = 0; t < LUDO_TOKENS; t++) {
			if (in->pos[p][t] == out->pos[p][t])
				continue;
			/* Only a token on the common track is captured. */
			FUZZ_CHECK(out->pos[p][t] == LUDO_YARD);
			FUZZ_CHECK(in->pos[p][t] >= 0 &&
			    in->pos[p][t] <= ludo_last_track(&in->rules));
			captured++;
		}
	}
	switch (r) {
	case LUDO_PLAYER_WON:
		FUZZ_CHECK(out->winner == player && out->turn == -1 &&
		    out->sixes == 0);
		for (t = 0; t < LUDO_TOKENS; t++)
			FUZZ_CHECK(out->pos[player][t] == finish);
		break;
	case LUDO_TOKEN_FINISHED:
		FUZZ_CHECK(out->pos[player][token - 1] == finish);
		FUZZ_CHECK(out->winner == -1);
		break;
	case LUDO_MOVED_AND_CAPTURED:
		FUZZ_CHECK(captured > 0 && out->winner == -1);
		break;
	case LUDO_MOVED:
		FUZZ_CHECK(captured == 0 && out->winner == -1);
		break;
	default:
		FUZZ_CHECK(!"a stored result that is not a move");
	}
	if (out->winner != -1)
		return;
	/* Another roll for the mover, or the next player's turn. */
	bonus = (in->rules.six_bonus && dice == 6) ||
	    (in->rules.capture_bonus && captured > 0);
	/* (A run of sixes may stop counting at its bound, not go past it.) */
	if (bonus)
		FUZZ_CHECK(out->turn == player && out->sixes ==
		    (dice != 6 ? 0 : in->sixes < LUDO_SIXES_MAX ?
		    in->sixes + 1 : LUDO_SIXES_MAX));
	else
		FUZZ_CHECK(out->turn == (player + 1) % in->nplayers &&
		    out->sixes == 0);
}

/* Plays and checks; the state advances when the result was stored. */
static enum ludo_result
ludo_step(struct ludo_state *st, int player, int dice, int token)
{
	struct ludo_state	out, alias;
	enum ludo_result	r, ra;

	memset(&out, 0x5a, sizeof(out));
	r = ludo_play(st, player, dice, token, &out);
	ludo_check(st, player, dice, token, r, &out);
	/* In place must give the same. */
	memcpy(&alias, st, sizeof(alias));
	ra = ludo_play(&alias, player, dice, token, &alias);
	FUZZ_CHECK(ra == r && memcmp(&alias, &out, sizeof(out)) == 0);
	if (ludo_result_stored(r))
		memcpy(st, &out, sizeof(out));
	return r;
}

static void
ludo_check_legal(struct ludo_state *st, int dice)
{
	struct ludo_state	out;
	enum ludo_result	r;
	int			legal[LUDO_TOKENS], n, i, t;

	memset(legal, 0, sizeof(legal));
	n = ludo_legal(st, dice, legal);
	FUZZ_CHECK(n >= 0 && n <= LUDO_TOKENS);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(legal[i] >= 1 && legal[i] <= LUDO_TOKENS);
		FUZZ_CHECK(i == 0 || legal[i] > legal[i - 1]);
	}
	if (n > 0)
		FUZZ_CHECK(ludo_ok(st) && st->winner == -1 &&
		    dice >= 1 && dice <= 6);
	if (!ludo_playable(st) || dice < 1 || dice > 6)
		return;
	/* What ludo_legal says is exactly what ludo_play accepts. */
	for (t = 0; t <= LUDO_TOKENS; t++) {
		int is_legal = 0;

		for (i = 0; i < n; i++)
			is_legal |= legal[i] == t;
		r = ludo_play(st, st->turn, dice, t, &out);
		ludo_check(st, st->turn, dice, t, r, &out);
		if (r == LUDO_FORFEITED)
			continue;
		if (t == 0)
			FUZZ_CHECK((r == LUDO_PASSED) == (n == 0));
		else
			FUZZ_CHECK(ludo_result_stored(r) == is_legal);
	}
}

static void
ludo_check_bot(struct ludo_state *st, int strategy, int dice)
{
	int	legal[LUDO_TOKENS], n, token;

	n = ludo_legal(st, dice, legal);
	token = ludo_bot_choose(st, dice, (enum bot_strategy)strategy);
	if (token != 0)
		FUZZ_CHECK(ludo_is_legal(st, dice, token));
	if (strategy >= 0 && strategy < BOT_STRATEGIES)
		FUZZ_CHECK((token != 0) == (n > 0));
	else
		FUZZ_CHECK(token == 0);
	/* The bot's move is a move like any other. */
	if (ludo_playable(st) && dice >= 1 && dice <= 6 &&
	    (token != 0 || n == 0))
		FUZZ_CHECK(ludo_result_stored(ludo_step(st, st->turn, dice,
		    token)));
}

static void
fuzz_ludo(struct input *in, int rawsnap)
{
	struct ludo_state	st;
	struct ludo_rules	rules;
	int			n, op, a, b, c, i;

	if (rawsnap)
		raw(in, &st, sizeof(st));
	else {
		memset(&rules, 0, sizeof(rules));
		rules.preset = byte(in) % 4;	/* 3: unknown */
		c = byte(in);
		rules.six_bonus = c & 1;
		rules.capture_bonus = (c >> 1) & 1;
		rules.three_sixes = (c >> 2) & 1;
		n = byte(in) % 6;		/* 0, 1, 5: refused */
		if (ludo_init(&st, &rules, n) != 0) {
			FUZZ_CHECK(n < LUDO_MIN_PLAYERS ||
			    n > LUDO_MAX_PLAYERS ||
			    rules.preset > LUDO_EXTENDED);
			return;
		}
		FUZZ_CHECK(ludo_ok(&st) && st.turn == 0 && st.winner == -1);
	}
	for (i = 0; i < MAX_ACTIONS && more(in); i++) {
		op = byte(in);
		a = sbyte(in);
		b = sbyte(in);
		c = sbyte(in);
		switch (op % 5) {
		case 0:		/* anything at all */
			ludo_step(&st, a, b, c);
			break;
		case 1:		/* a plausible move */
			ludo_step(&st, st.turn, 1 + (b & 0xff) % 6,
			    (c & 0xff) % (LUDO_TOKENS + 1));
			break;
		case 2:
			ludo_check_legal(&st,
			    op & 0x80 ? b : 1 + (b & 0xff) % 6);
			break;
		case 3:
			ludo_check_bot(&st, (a & 0xff) % (BOT_STRATEGIES + 1),
			    op & 0x80 ? b : 1 + (b & 0xff) % 6);
			break;
		default:	/* a player who is not to move */
			ludo_step(&st, (int)(((unsigned)st.turn + 1u +
			    (unsigned)(a & 3)) % 4u),
			    1 + (b & 0xff) % 6, (c & 0xff) % 5);
			break;
		}
	}
}

/* ------------------------------------------------------ Snake & Ladder */

static int
snl_ok(const struct snl_state *st)
{
	int	i;

	if (st->nplayers < 1 || st->nplayers > SNL_MAX_PLAYERS)
		return 0;
	if (st->winner == -1 ?
	    st->turn < 0 || st->turn >= st->nplayers :
	    st->winner < 0 || st->winner >= st->nplayers || st->turn != -1)
		return 0;
	for (i = 0; i < st->nplayers; i++)
		if (st->pos[i] > SNL_CELLS)
			return 0;
	for (i = 0; i <= SNL_CELLS; i++)
		if (st->jump[i] > SNL_CELLS)
			return 0;
	return 1;
}

static void
snl_step(struct snl_state *st, int value)
{
	struct snl_state	out, alias, want;
	struct snl_result	res, resa;
	int			rc, p, to;

	memset(&out, 0x5a, sizeof(out));
	memset(&want, 0x5a, sizeof(want));
	memset(&res, 0x5a, sizeof(res));
	rc = snl_roll(st, value, &out, &res);
	memcpy(&alias, st, sizeof(alias));
	memset(&resa, 0x5a, sizeof(resa));
	FUZZ_CHECK(snl_roll(&alias, value, &alias, &resa) == rc);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1);
		FUZZ_CHECK(value < 1 || value > 6 || !snl_ok(st));
		/* Refused: the output is not touched. */
		FUZZ_CHECK(memcmp(&out, &want, sizeof(out)) == 0);
		FUZZ_CHECK(memcmp(&alias, st, sizeof(alias)) == 0);
		return;
	}
	FUZZ_CHECK(memcmp(&alias, &out, sizeof(out)) == 0 &&
	    memcmp(&res, &resa, sizeof(res)) == 0);
	FUZZ_CHECK(value >= 1 && value <= 6 && snl_ok(st) && snl_ok(&out));
	if (res.outcome == SNL_GAME_OVER) {
		FUZZ_CHECK(st->winner != -1);
		FUZZ_CHECK(memcmp(st, &out, sizeof(out)) == 0);
		return;
	}
	FUZZ_CHECK(res.outcome == SNL_MOVED || res.outcome == SNL_WON);
	p = res.player;
	FUZZ_CHECK(st->winner == -1 && p == st->turn);
	/* The exact rule: overshoot stays, a jump fires once. */
	to = st->pos[p] + value;
	if (to > SNL_CELLS)
		to = st->pos[p];
	else if (st->jump[to] != 0)
		to = st->jump[to];
	FUZZ_CHECK(res.pos == to && out.pos[p] == to);
	FUZZ_CHECK(out.started == 1);
	FUZZ_CHECK(memcmp(out.jump, st->jump, sizeof(out.jump)) == 0);
	memcpy(&want, st, sizeof(want));
	want.pos[p] = (uint8_t)to;
	want.started = 1;
	if (to == SNL_CELLS) {
		FUZZ_CHECK(res.outcome == SNL_WON);
		want.winner = p;
		want.turn = -1;
	} else {
		FUZZ_CHECK(res.outcome == SNL_MOVED);
		want.turn = (p + 1) % st->nplayers;
	}
	FUZZ_CHECK(memcmp(&want, &out, sizeof(out)) == 0);
	memcpy(st, &out, sizeof(out));
}

static void
snl_jump(struct snl_state *st, int ladder, int from, int to)
{
	struct snl_state	 before;
	const char		*why = NULL;
	int			 rc, i;

	memcpy(&before, st, sizeof(before));
	rc = ladder ? snl_add_ladder(st, from, to, &why) :
	    snl_add_snake(st, from, to, &why);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1 && why != NULL);
		FUZZ_CHECK(memcmp(&before, st, sizeof(before)) == 0);
		return;
	}
	FUZZ_CHECK(!before.started);
	FUZZ_CHECK(from >= 1 && from < SNL_CELLS && to >= 1 &&
	    to <= SNL_CELLS);
	FUZZ_CHECK(ladder ? to > from : to < from);
	FUZZ_CHECK(before.jump[from] == 0 && before.jump[to] == 0);
	/* No chain: nothing ended on the new start. */
	for (i = 1; i < SNL_CELLS; i++)
		FUZZ_CHECK(before.jump[i] != from);
	before.jump[from] = (uint8_t)to;
	FUZZ_CHECK(memcmp(&before, st, sizeof(before)) == 0);
}

static void
fuzz_snl(struct input *in, int rawsnap)
{
	struct snl_state	st;
	int			n, op, a, b, i;

	if (rawsnap)
		raw(in, &st, sizeof(st));
	else {
		/* 0 and 65 are refused. */
		n = byte(in) % (SNL_MAX_PLAYERS + 2);
		if (snl_init(&st, n) != 0) {
			FUZZ_CHECK(n < 1 || n > SNL_MAX_PLAYERS);
			return;
		}
		FUZZ_CHECK(snl_ok(&st));
	}
	for (i = 0; i < MAX_ACTIONS && more(in); i++) {
		op = byte(in);
		a = sbyte(in);
		b = sbyte(in);
		(void)byte(in);
		switch (op % 4) {
		case 0:
			snl_step(&st, a);
			break;
		case 1:
			snl_step(&st, 1 + (a & 0xff) % 6);
			break;
		case 2:
			snl_jump(&st, 0, a, b);
			break;
		default:
			snl_jump(&st, 1, a, b);
			break;
		}
	}
}

/* ----------------------------------------------------------- DandyLand */

static const char cards[] = "abcdefghi123456789";

static int
dandy_ok(const struct dandy_state *st)
{
	int	i, over;

	if (st->nplayers < 1 || st->nplayers > DANDY_MAX_PLAYERS ||
	    st->board_len < 1 || st->board_len > DANDY_BOARD_MAX)
		return 0;
	for (i = 0; i < st->board_len; i++)
		if (st->board[i] < 'a' || st->board[i] > 'i')
			return 0;
	if (st->board[st->board_len] != '\0')
		return 0;
	if (st->has_deck != 0 && st->has_deck != 1)
		return 0;
	if (st->has_deck && (st->deck_len < 0 ||
	    st->deck_len > DANDY_DECK_MAX || st->drawn < 0 ||
	    st->drawn > st->deck_len))
		return 0;
	over = st->has_deck && st->drawn == st->deck_len;
	if (over ? st->turn != -1 : st->turn < 0 || st->turn >= st->nplayers)
		return 0;
	for (i = 0; i < st->nplayers; i++)
		if (st->pos[i] < DANDY_OFF || st->pos[i] >= st->board_len ||
		    st->points[i] < 0)
			return 0;
	return 1;
}

static void
dandy_step(struct dandy_state *st, int card)
{
	struct dandy_state	out, alias, want;
	struct dandy_result	res, resa;
	int			rc, p, i, next;

	memset(&out, 0x5a, sizeof(out));
	memset(&want, 0x5a, sizeof(want));
	rc = dandy_draw(st, card, &out, &res);
	memcpy(&alias, st, sizeof(alias));
	FUZZ_CHECK(dandy_draw(&alias, card, &alias, &resa) == rc);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1);
		FUZZ_CHECK(memcmp(&out, &want, sizeof(out)) == 0);
		FUZZ_CHECK(memcmp(&alias, st, sizeof(alias)) == 0);
		return;
	}
	FUZZ_CHECK(memcmp(&alias, &out, sizeof(out)) == 0 &&
	    memcmp(&res, &resa, sizeof(res)) == 0);
	FUZZ_CHECK(dandy_ok(st) && dandy_ok(&out));
	FUZZ_CHECK(st->has_deck ? card == 0 : dandy_valid_card(card));
	if (res.game_over) {
		FUZZ_CHECK(st->turn == -1);
		FUZZ_CHECK(memcmp(st, &out, sizeof(out)) == 0);
		return;
	}
	p = res.player;
	FUZZ_CHECK(p == st->turn && st->turn != -1);
	FUZZ_CHECK(res.pos == out.pos[p] && res.points == out.points[p]);
	FUZZ_CHECK(out.points[p] >= st->points[p]);
	FUZZ_CHECK(out.nplayers == st->nplayers &&
	    out.board_len == st->board_len &&
	    memcmp(out.board, st->board, sizeof(out.board)) == 0 &&
	    out.has_deck == st->has_deck && out.deck_len == st->deck_len &&
	    memcmp(out.deck, st->deck, sizeof(out.deck)) == 0);
	FUZZ_CHECK(out.drawn == st->drawn + (st->has_deck ? 1 : 0));
	for (i = 0; i < st->nplayers; i++) {
		if (i == p)
			continue;
		FUZZ_CHECK(out.points[i] == st->points[i]);
		/* Someone else moves only when bumped off the landing. */
		if (out.pos[i] != st->pos[i])
			FUZZ_CHECK(out.pos[i] == DANDY_OFF &&
			    st->pos[i] == out.pos[p]);
		else if (out.pos[p] != DANDY_OFF)
			FUZZ_CHECK(out.pos[i] != out.pos[p]);
	}
	next = (p + 1) % st->nplayers;
	if (out.has_deck && out.drawn == out.deck_len)
		next = -1;
	FUZZ_CHECK(out.turn == next);
	memcpy(st, &out, sizeof(out));
}

/* DandyLand's whole-game play() agrees with the same game drawn card by card. */
static void
dandy_check_play(int players, const char *deck, const char *board)
{
	struct dandy_state	st;
	int			points[DANDY_MAX_PLAYERS];
	int			rc, i, guard = 0;

	memset(points, 0x5a, sizeof(points));
	rc = dandy_play(players, deck, board, points);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1);
		return;
	}
	FUZZ_CHECK(strlen(deck) <= 50);
	FUZZ_CHECK(dandy_init(&st, players, board, deck, NULL) == 0);
	while (st.turn != -1 && guard++ <= DANDY_DECK_MAX)
		dandy_step(&st, 0);
	FUZZ_CHECK(st.turn == -1);
	for (i = 0; i < DANDY_MAX_PLAYERS; i++)
		FUZZ_CHECK(points[i] == (i < players ? st.points[i] : 0));
}

/* A string from the input: mostly letters the rules know, some not. */
static void
text(struct input *in, char *dst, size_t n, int alphabet)
{
	size_t	i;
	uint8_t	c;

	for (i = 0; i < n; i++) {
		c = byte(in);
		if (c & 0x80)
			dst[i] = (char)(c & 0x7f);	/* NUL included */
		else
			dst[i] = cards[c % (alphabet ? 18 : 9)];
	}
	dst[n] = '\0';
}

static void
fuzz_dandy(struct input *in, int rawsnap)
{
	struct dandy_state	 st;
	char			 board[64], deck[DANDY_DECK_MAX + 64];
	const char		*why = NULL;
	int			 n, op, a, b, c, i, hasdeck;
	size_t			 blen, dlen;

	if (rawsnap)
		raw(in, &st, sizeof(st));
	else {
		/* 0 or 9 players, or a board over 36, are refused. */
		n = byte(in) % (DANDY_MAX_PLAYERS + 2);
		blen = byte(in) % 40;
		text(in, board, blen, 0);
		hasdeck = byte(in);
		dlen = (size_t)byte(in) << 8;
		dlen = (dlen | byte(in)) % (DANDY_DECK_MAX + 40);
		text(in, deck, dlen, 1);
		if (dandy_init(&st, n, board, hasdeck & 1 ? deck : NULL,
		    &why) != 0) {
			FUZZ_CHECK(why != NULL);
			return;
		}
		FUZZ_CHECK(dandy_ok(&st));
		if (hasdeck & 2)
			dandy_check_play(n, deck, board);
	}
	for (i = 0; i < MAX_ACTIONS && more(in); i++) {
		op = byte(in);
		a = sbyte(in);
		b = byte(in);
		c = byte(in);
		switch (op % 3) {
		case 0:		/* anything */
			dandy_step(&st, a);
			break;
		case 1:		/* what the game expects */
			dandy_step(&st, st.has_deck ? 0 :
			    (unsigned char)cards[b % 18]);
			break;
		default:	/* a short game on this board */
			if (!dandy_ok(&st))
				break;
			text(in, deck, (size_t)c % 56, 1);
			dandy_check_play(b % 10, deck, st.board);
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input	in = { data, size, 0 };
	uint8_t		h;

	if (size == 0)
		return 0;
	h = byte(&in);
	switch ((h & 3) % 3) {
	case 0:
		fuzz_ludo(&in, (h >> 2) & 1);
		break;
	case 1:
		fuzz_snl(&in, (h >> 2) & 1);
		break;
	default:
		fuzz_dandy(&in, (h >> 2) & 1);
		break;
	}
	return 0;
}
