/*
 * A Snake & Ladder game's players, turn, winner and state as JSON: each
 * player's cell (0 off the board, as SNL.STATE gives it), the snakes and
 * ladders, and whether the setup is closed.
 */
#include "game/view.h"

static void
jumps_json(const struct snl_state *st, json_t *snakes, json_t *ladders)
{
	int	 c;

	for (c = 1; c <= SNL_CELLS; c++) {
		if (st->jump[c] == 0)
			continue;
		if (st->jump[c] < c)
			json_array_append_new(snakes, json_pack("{s:i, s:i}",
			    "head", c, "tail", st->jump[c]));
		else
			json_array_append_new(ladders, json_pack("{s:i, s:i}",
			    "bottom", c, "top", st->jump[c]));
	}
}

int
json_state_snl(const struct game *g, json_t *obj)
{
	const struct snl_state	*st = &g->s.snl;
	json_t			*players, *pos, *snakes, *ladders;
	char			 name[16];
	int			 n, i;

	if (g->kind != KIND_SNL)
		return -1;
	n = st->nplayers < SNL_MAX_PLAYERS ? st->nplayers : SNL_MAX_PLAYERS;
	players = json_array();
	pos = json_array();
	for (i = 0; i < n; i++) {
		game_seat_name(name, sizeof name, i);
		json_array_append_new(players, json_seat(g, i, name));
		json_array_append_new(pos, json_pack("{s:s, s:i}",
		    "player", name, "position", st->pos[i]));
	}
	snakes = json_array();
	ladders = json_array();
	jumps_json(st, snakes, ladders);
	json_object_set_new(obj, "players", players);
	game_seat_name(name, sizeof name, st->turn);
	json_object_set_new(obj, "turn", json_name_or_null(name,
	    st->turn < n ? st->turn : -1));
	game_seat_name(name, sizeof name, st->winner);
	json_object_set_new(obj, "winner", json_name_or_null(name,
	    st->winner < n ? st->winner : -1));
	json_object_set_new(obj, "state", json_pack("{s:i, s:b, s:o, s:o, "
	    "s:o}", "cells", SNL_CELLS, "started", st->started,
	    "positions", pos, "snakes", snakes, "ladders", ladders));
	return 0;
}

/* ------------------------------------------------------------ archives */

int
json_rules_snl(const struct game *g, json_t *obj)
{
	json_t	*snakes, *ladders;

	if (g->kind != KIND_SNL)
		return -1;
	snakes = json_array();
	ladders = json_array();
	jumps_json(&g->s.snl, snakes, ladders);
	json_object_set_new(obj, "snakes", snakes);
	json_object_set_new(obj, "ladders", ladders);
	return 0;
}

/* The jumps of one list ("snakes": head, tail; "ladders": bottom, top),
 * each added as SNL.SNAKE and SNL.LADDER add them, with their checks. */
static int
jumps_parse(struct snl_state *st, const json_t *obj, const char *list,
    const char *from, const char *to, char *why, size_t len)
{
	const json_t	*a = json_object_get(obj, list), *j;
	const char	*bad;
	json_int_t	 f, t;
	size_t		 i;

	if (!json_is_array(a)) {
		snprintf(why, len, "rules: %s must be a list", list);
		return -1;
	}
	json_array_foreach(a, i, j) {
		if (!json_is_integer(json_object_get(j, from)) ||
		    !json_is_integer(json_object_get(j, to))) {
			snprintf(why, len, "rules: %s[%zu] needs integers %s "
			    "and %s", list, i, from, to);
			return -1;
		}
		f = json_integer_value(json_object_get(j, from));
		t = json_integer_value(json_object_get(j, to));
		if (f < 1 || f > SNL_CELLS || t < 1 || t > SNL_CELLS) {
			snprintf(why, len, "rules: %s[%zu] is off the board",
			    list, i);
			return -1;
		}
		if ((list[0] == 's' ? snl_add_snake(st, (int)f, (int)t, &bad) :
		    snl_add_ladder(st, (int)f, (int)t, &bad)) == -1) {
			snprintf(why, len, "rules: %s[%zu]: %s", list, i, bad);
			return -1;
		}
	}
	return 0;
}

int
json_rules_parse_snl(struct game *g, const json_t *obj, int np, char *why,
    size_t len)
{
	if (snl_init(&g->s.snl, np) == -1) {
		snprintf(why, len, "a Snake & Ladder game has 1 to %d players",
		    SNL_MAX_PLAYERS);
		return -1;
	}
	return jumps_parse(&g->s.snl, obj, "snakes", "head", "tail", why,
	    len) == -1 || jumps_parse(&g->s.snl, obj, "ladders", "bottom",
	    "top", why, len) == -1 ? -1 : 0;
}
