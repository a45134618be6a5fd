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
