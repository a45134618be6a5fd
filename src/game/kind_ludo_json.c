/*
 * A Ludo game's players, turn, winner and state as JSON: the rules of its
 * preset, and every token with its location and position as LUDO.STATE
 * gives them (relative to its player, -1 in the yard), plus the absolute
 * square (0-51) of a token on the common track, and the tokens the player
 * to move may move with each die.
 */
#include "game/view.h"

static json_t *
rules_json(const struct ludo_rules *r)
{
	const char	*preset = ludo_preset_name(r->preset);

	return json_pack("{s:s, s:b, s:b, s:b, s:i, s:i}",
	    "preset", preset != NULL ? preset : "?",
	    "six_bonus", r->six_bonus,
	    "capture_bonus", r->capture_bonus,
	    "three_sixes", r->three_sixes,
	    "last_track", ludo_last_track(r),
	    "finish", ludo_finish(r));
}

static json_t *
token_json(const struct game *g, int p, int t)
{
	const struct ludo_state	*st = &g->s.ludo;
	const char		*loc;
	int			 pos = st->pos[p][t];

	loc = ludo_location(&st->rules, pos);
	return json_pack("{s:s, s:i, s:s, s:i, s:o}",
	    "player", g->players[p],
	    "token", t + 1,
	    "location", loc != NULL ? loc : "?",
	    "position", pos,
	    "square", pos >= 0 && pos <= ludo_last_track(&st->rules) ?
	    json_integer((LUDO_ENTRY_STEP * p + pos) % LUDO_TRACK_CELLS) :
	    json_null());
}

/* The tokens the player to move may move with each die, {"1": [..],
 * .., "6": [..]} (an empty list: only a pass), as LUDO.LEGAL gives them;
 * null once the game is over.  The pages let a player click only these. */
static json_t *
legal_json(const struct ludo_state *st)
{
	json_t	*legal, *tokens;
	int	 moves[LUDO_TOKENS], dice, n, i;
	char	 key[2];

	if (st->winner >= 0 || st->turn < 0 || st->turn >= st->nplayers)
		return json_null();
	legal = json_object();
	for (dice = 1; dice <= 6; dice++) {
		tokens = json_array();
		n = ludo_legal(st, dice, moves);
		for (i = 0; i < n; i++)
			json_array_append_new(tokens, json_integer(moves[i]));
		key[0] = (char)('0' + dice);
		key[1] = '\0';
		json_object_set_new(legal, key, tokens);
	}
	return legal;
}

int
json_state_ludo(const struct game *g, json_t *obj)
{
	const struct ludo_state	*st = &g->s.ludo;
	json_t			*players, *tokens;
	int			 n, p, t;

	if (g->kind != KIND_LUDO)
		return -1;
	n = st->nplayers < LUDO_MAX_PLAYERS ? st->nplayers : LUDO_MAX_PLAYERS;
	players = json_array();
	tokens = json_array();
	for (p = 0; p < n; p++) {
		json_array_append_new(players, json_seat(g, p, g->players[p]));
		for (t = 0; t < LUDO_TOKENS; t++)
			json_array_append_new(tokens, token_json(g, p, t));
	}
	json_object_set_new(obj, "players", players);
	json_object_set_new(obj, "turn", json_name_or_null(st->turn >= 0 &&
	    st->turn < n ? g->players[st->turn] : NULL, st->turn));
	json_object_set_new(obj, "winner", json_name_or_null(st->winner >= 0 &&
	    st->winner < n ? g->players[st->winner] : NULL, st->winner));
	json_object_set_new(obj, "state", json_pack("{s:o, s:i, s:o, s:o}",
	    "rules", rules_json(&st->rules),
	    "sixes", st->sixes,
	    "tokens", tokens,
	    "legal", legal_json(st)));
	return 0;
}

/* ------------------------------------------------------------ archives */

int
json_rules_ludo(const struct game *g, json_t *obj)
{
	const struct ludo_rules	*r = &g->s.ludo.rules;
	const char		*preset = ludo_preset_name(r->preset);

	if (g->kind != KIND_LUDO || preset == NULL)
		return -1;
	json_object_set_new(obj, "preset", json_string(preset));
	json_object_set_new(obj, "six_bonus", json_boolean(r->six_bonus));
	json_object_set_new(obj, "capture_bonus",
	    json_boolean(r->capture_bonus));
	json_object_set_new(obj, "three_sixes", json_boolean(r->three_sixes));
	return 0;
}

/* A flag of the rules: a JSON boolean, which must be there. */
static int
flag(const json_t *obj, const char *name, uint8_t *out, char *why,
    size_t len)
{
	json_t	*v = json_object_get(obj, name);

	if (!json_is_boolean(v)) {
		snprintf(why, len, "rules: %s must be true or false", name);
		return -1;
	}
	*out = json_is_true(v) ? 1 : 0;
	return 0;
}

int
json_rules_parse_ludo(struct game *g, const json_t *obj, int np, char *why,
    size_t len)
{
	struct ludo_rules	 r;
	const char		*preset;

	preset = json_string_value(json_object_get(obj, "preset"));
	if (preset == NULL || ludo_rules_preset(&r, preset) == -1) {
		snprintf(why, len, "rules: unknown preset");
		return -1;
	}
	if (flag(obj, "six_bonus", &r.six_bonus, why, len) == -1 ||
	    flag(obj, "capture_bonus", &r.capture_bonus, why, len) == -1 ||
	    flag(obj, "three_sixes", &r.three_sixes, why, len) == -1)
		return -1;
	if (np < 2 || np > LUDO_MAX_PLAYERS ||
	    ludo_init(&g->s.ludo, &r, np) == -1) {
		snprintf(why, len, "a Ludo game has 2 to %d players",
		    LUDO_MAX_PLAYERS);
		return -1;
	}
	return 0;
}
