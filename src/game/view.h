/*
 * The kinds' web face (the kind table's render_svg and state_json): one
 * SVG renderer (kind_<kind>_svg.c) and one JSON encoder
 * (kind_<kind>_json.c) per kind, and what they share (view.c).  Nobody
 * outside src/game/ includes this: the layers go through game_kinds[].
 */
#ifndef LUDUS_GAME_VIEW_H
#define LUDUS_GAME_VIEW_H

#include <stddef.h>

#include <jansson.h>

#include "game/game.h"
#include "util/svg.h"

int	render_svg_ludo(const struct game *, struct svg *);
int	render_svg_snl(const struct game *, struct svg *);
int	render_svg_dandy(const struct game *, struct svg *);
int	json_state_ludo(const struct game *, json_t *obj);
int	json_state_snl(const struct game *, json_t *obj);
int	json_state_dandy(const struct game *, json_t *obj);
/* The kind table's rules_json and rules_parse (archives). */
int	json_rules_ludo(const struct game *, json_t *obj);
int	json_rules_snl(const struct game *, json_t *obj);
int	json_rules_dandy(const struct game *, json_t *obj);
int	json_rules_parse_ludo(struct game *, const json_t *obj, int np,
	    char *why, size_t len);
int	json_rules_parse_snl(struct game *, const json_t *obj, int np,
	    char *why, size_t len);
int	json_rules_parse_dandy(struct game *, const json_t *obj, int np,
	    char *why, size_t len);

/* One seat of the "players" array: {"name": name, "bot": its strategy
 * or null}. */
json_t	*json_seat(const struct game *, int i, const char *name);
/* A player's name, or null for index -1 (no turn, no winner). */
json_t	*json_name_or_null(const char *name, int index);

#endif /* LUDUS_GAME_VIEW_H */
