/*
 * What every layer asks of a game whatever its kind: the kind's entry
 * and name, the player count, whose turn it is, who won, and the names
 * of the players.  Each answer comes from the kind table.
 */
#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "util/util.h"

const char *
game_kind_name(enum game_kind kind)
{
	const struct game_kind_ops	*k = game_kind_get(kind);

	return k != NULL ? k->name : "none";
}

enum game_kind
game_kind_parse(const char *s)
{
	const struct game_kind_ops	*ops;
	int				 k;

	for (k = KIND_NONE + 1; k < game_kind_end(); k++)
		if ((ops = game_kind_get((enum game_kind)k)) != NULL &&
		    strcmp(s, ops->name) == 0)
			return (enum game_kind)k;
	return KIND_NONE;
}

const struct game_kind_ops *
game_kind_named(const char *s)
{
	return game_kind_get(game_kind_parse(s));
}

const char *
game_kind_list(char *buf, size_t len)
{
	struct strbuf	 b;
	int		 k, n = 0, last = 0;

	for (k = KIND_NONE + 1; k < game_kind_end(); k++)
		if (game_kind_get((enum game_kind)k) != NULL)
			last = k;
	strbuf_init(&b, buf, len);
	for (k = KIND_NONE + 1; k < game_kind_end(); k++) {
		if (game_kind_get((enum game_kind)k) == NULL)
			continue;
		if (n++ > 0)
			strbuf_add(&b, k == last ? " or " : ", ");
		strbuf_add(&b, game_kind_name((enum game_kind)k));
	}
	return buf;
}

int
game_nplayers(const struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	return k != NULL ? k->nplayers(g) : 0;
}

/* An index the state holds, -1 unless it is a player's. */
static int
player_or_none(const struct game *g, int i)
{
	return i >= 0 && i < game_nplayers(g) ? i : -1;
}

int
game_turn(const struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	return k != NULL ? player_or_none(g, k->turn(g)) : -1;
}

int
game_winner(const struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL || k->winner == NULL)
		return -1;
	return player_or_none(g, k->winner(g));
}

/* ----------------------------------------------------------- players */

const char *
game_player_name(const struct game *g, int i, char *buf, size_t len)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL || i < 0 || i >= k->nplayers(g))
		str_copy(buf, len, "NONE");
	else if (k->player_name != NULL)
		k->player_name(g, i, buf, len);
	else
		game_seat_name(buf, len, i);
	return buf;
}

int
game_player_index(const struct game *g, const char *name)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	const char		*errstr;
	int64_t			 i;

	if (k == NULL)
		return -1;
	if (k->player_index != NULL)
		return k->player_index(g, name);
	/* P1..Pn, without leading zeros or signs. */
	if (name[0] != 'P' || name[1] < '1' || name[1] > '9' ||
	    parse_int64(name + 1, 1, k->nplayers(g), &i, &errstr) != 0)
		return -1;
	return (int)i - 1;
}
