/*
 * DandyLand rules: a ring board of lettered squares, cards that move a
 * player to the next square of a letter, points for each lap.
 *
 * The board is a ring of squares named a-i.  A player earns a point each
 * time a forward move carries it from the last square to the first; a
 * player off the board enters at the first square, which counts as one
 * step and is not a crossing.  Whoever already stands on the landing
 * square is bumped off the board.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "engine/engine.h"

#define DANDY_CARDS_MAX	50	/* the stateless play() scores 0-50 cards */

static int
dandy_letter(int c)
{
	return c >= 'a' && c <= 'i';
}

int
dandy_valid_card(int c)
{
	return dandy_letter(c) || (c >= '1' && c <= '9');
}

/* The length of a valid board, or 0. */
static int
dandy_board_len(const char *board)
{
	int	n;

	if (board == NULL)
		return 0;
	for (n = 0; n <= DANDY_BOARD_MAX && board[n] != '\0'; n++)
		if (!dandy_letter((unsigned char)board[n]))
			return 0;
	return n <= DANDY_BOARD_MAX ? n : 0;
}

int
dandy_valid_board(const char *board)
{
	return dandy_board_len(board) > 0;
}

/* The length of a valid run of at most max cards, or -1. */
static int
dandy_cards_len(const char *cards, int max)
{
	int	n;

	for (n = 0; n <= max && cards[n] != '\0'; n++)
		if (!dandy_valid_card((unsigned char)cards[n]))
			return -1;
	return n <= max ? n : -1;
}

int
dandy_init(struct dandy_state *st, int nplayers, const char *board,
    const char *deck, const char **why)
{
	const char	*err = NULL;
	int		 blen, dlen = 0, i;

	blen = dandy_board_len(board);
	if (st == NULL)
		err = "no game";
	else if (nplayers < 1 || nplayers > DANDY_MAX_PLAYERS)
		err = "players must be 1-8";
	else if (blen == 0)
		err = "the board must be 1-36 squares of a-i";
	else if (deck != NULL &&
	    (dlen = dandy_cards_len(deck, DANDY_DECK_MAX)) < 0)
		err = "the deck must be at most 1024 cards of a-i and 1-9";
	if (err != NULL) {
		if (why != NULL)
			*why = err;
		return -1;
	}

	memset(st, 0, sizeof(*st));
	st->nplayers = nplayers;
	st->board_len = blen;
	memcpy(st->board, board, (size_t)blen);
	if (deck != NULL) {
		st->has_deck = 1;
		st->deck_len = dlen;
		memcpy(st->deck, deck, (size_t)dlen);
	}
	/* An empty deck is a game that is over before it starts. */
	st->turn = st->has_deck && dlen == 0 ? -1 : 0;
	for (i = 0; i < DANDY_MAX_PLAYERS; i++)
		st->pos[i] = DANDY_OFF;
	return 0;
}

static int
dandy_valid(const struct dandy_state *st)
{
	int	i, over;

	if (st == NULL || st->nplayers < 1 ||
	    st->nplayers > DANDY_MAX_PLAYERS)
		return 0;
	if (st->board_len < 1 || st->board_len > DANDY_BOARD_MAX ||
	    dandy_board_len(st->board) != st->board_len)
		return 0;
	if (st->has_deck != 0 && st->has_deck != 1)
		return 0;
	if (st->has_deck) {
		if (st->deck_len < 0 || st->deck_len > DANDY_DECK_MAX ||
		    st->drawn < 0 || st->drawn > st->deck_len)
			return 0;
		for (i = st->drawn; i < st->deck_len; i++)
			if (!dandy_valid_card((unsigned char)st->deck[i]))
				return 0;
	}
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
dandy_earn(struct dandy_state *st, int player, int crossings)
{
	if (st->points[player] > INT_MAX - crossings)
		st->points[player] = INT_MAX;	/* a garbage snapshot */
	else
		st->points[player] += crossings;
}

/* Moves the player to move by one card; returns the landing square. */
static int
dandy_move(struct dandy_state *st, int player, int card)
{
	int	n = st->board_len, from = st->pos[player], k;

	if (!dandy_letter(card)) {
		k = card - '0';
		if (from == DANDY_OFF) {
			/* Entering square 0 is the first of the k steps. */
			dandy_earn(st, player, (k - 1) / n);
			return (k - 1) % n;
		}
		dandy_earn(st, player, (from + k) / n);
		return (from + k) % n;
	}
	if (from == DANDY_OFF) {
		for (k = 0; k < n; k++)
			if (st->board[k] == card)
				return k;
		return DANDY_OFF;
	}
	/* Search from the next square; the square itself is a full lap. */
	for (k = 1; k <= n; k++) {
		if (st->board[(from + k) % n] == card) {
			dandy_earn(st, player, (from + k) / n);
			return (from + k) % n;
		}
	}
	return from == 0 ? n - 1 : from - 1;	/* no such square: back one */
}

int
dandy_draw(const struct dandy_state *in, int card, struct dandy_state *out,
    struct dandy_result *res)
{
	struct dandy_result	 r;
	int			 i, player;

	if (out == NULL || !dandy_valid(in))
		return -1;
	if (in->has_deck ? card != 0 : !dandy_valid_card(card))
		return -1;
	if (out != in)
		memcpy(out, in, sizeof(*out));
	memset(&r, 0, sizeof(r));
	if (in->turn == -1) {
		r.game_over = 1;
		r.player = -1;
		r.pos = DANDY_OFF;
	} else {
		if (in->has_deck)
			card = (unsigned char)in->deck[out->drawn++];
		player = in->turn;
		out->pos[player] = dandy_move(out, player, card);
		for (i = 0; i < out->nplayers; i++)
			if (i != player && out->pos[player] != DANDY_OFF &&
			    out->pos[i] == out->pos[player])
				out->pos[i] = DANDY_OFF;
		out->turn = (player + 1) % out->nplayers;
		if (out->has_deck && out->drawn == out->deck_len)
			out->turn = -1;
		r.player = player;
		r.pos = out->pos[player];
		r.points = out->points[player];
	}
	if (res != NULL)
		*res = r;
	return 0;
}

int
dandy_play(int players, const char *cards, const char *board,
    int points[DANDY_MAX_PLAYERS])
{
	struct dandy_state	st;
	int			i;

	if (cards == NULL || points == NULL ||
	    dandy_cards_len(cards, DANDY_CARDS_MAX) < 0 ||
	    dandy_init(&st, players, board, cards, NULL) != 0)
		return -1;
	while (st.turn != -1)
		if (dandy_draw(&st, 0, &st, NULL) != 0)
			return -1;
	for (i = 0; i < DANDY_MAX_PLAYERS; i++)
		points[i] = i < players ? st.points[i] : 0;
	return 0;
}
