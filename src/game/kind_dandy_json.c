/*
 * A DandyLand game's players, turn and state as JSON: the board (public),
 * each player's square (1-based as DANDY.STATE gives it, null off the
 * board) and points, and of a deck only its kind and the cards left:
 * the cards themselves are never shown.  DandyLand has no winner.
 */
#include "game/view.h"

static json_t *
deck_json(const struct game *g)
{
	const struct dandy_state *st = &g->s.dandy;

	if (!st->has_deck)
		return json_pack("{s:n, s:n}", "kind", "cards_left");
	return json_pack("{s:s, s:i}",
	    "kind", g->opts.server_dice ? "shuffled" : "given",
	    "cards_left", st->deck_len - st->drawn);
}

int
json_state_dandy(const struct game *g, json_t *obj)
{
	const struct dandy_state *st = &g->s.dandy;
	json_t			*players, *pos;
	char			 name[16];
	int			 n, i;

	if (g->kind != KIND_DANDY)
		return -1;
	n = st->nplayers < DANDY_MAX_PLAYERS ? st->nplayers :
	    DANDY_MAX_PLAYERS;
	players = json_array();
	pos = json_array();
	for (i = 0; i < n; i++) {
		game_seat_name(name, sizeof name, i);
		json_array_append_new(players, json_seat(g, i, name));
		json_array_append_new(pos, json_pack("{s:s, s:o, s:i}",
		    "player", name,
		    "position", st->pos[i] == DANDY_OFF ? json_null() :
		    json_integer(st->pos[i] + 1),
		    "points", st->points[i]));
	}
	json_object_set_new(obj, "players", players);
	game_seat_name(name, sizeof name, st->turn);
	json_object_set_new(obj, "turn", json_name_or_null(name,
	    st->turn < n ? st->turn : -1));
	json_object_set_new(obj, "winner", json_null());
	/* No dice: the server's randomness is the shuffled deck. */
	json_object_del(json_object_get(obj, "options"), "dice");
	json_object_set_new(obj, "state", json_pack("{s:s, s:o, s:o}",
	    "board", st->board, "positions", pos, "deck", deck_json(g)));
	return 0;
}

/* ------------------------------------------------------------ archives */

/* The deck itself, which the pages never show: an archive is a copy of
 * the store, and a game's replay needs its cards. */
int
json_rules_dandy(const struct game *g, json_t *obj)
{
	const struct dandy_state *st = &g->s.dandy;

	if (g->kind != KIND_DANDY)
		return -1;
	json_object_set_new(obj, "board", json_stringn(st->board,
	    (size_t)st->board_len));
	json_object_set_new(obj, "deck", st->has_deck ?
	    json_stringn(st->deck, (size_t)st->deck_len) : json_null());
	return 0;
}

int
json_rules_parse_dandy(struct game *g, const json_t *obj, int np,
    char *why, size_t len)
{
	const json_t	*deck = json_object_get(obj, "deck");
	const char	*board, *bad = "bad board or deck";

	board = json_string_value(json_object_get(obj, "board"));
	if (board == NULL || (!json_is_null(deck) && !json_is_string(deck))) {
		snprintf(why, len, "rules: a board (text) and a deck (text "
		    "or null)");
		return -1;
	}
	if (np < 1 || np > DANDY_MAX_PLAYERS) {
		snprintf(why, len, "a DandyLand game has 1 to %d players",
		    DANDY_MAX_PLAYERS);
		return -1;
	}
	if (dandy_init(&g->s.dandy, np, board, json_string_value(deck),
	    &bad) == -1) {
		snprintf(why, len, "rules: %s", bad);
		return -1;
	}
	return 0;
}
