/*
 * The kinds' faces: the web's (the kind table's render_svg and
 * state_json), one SVG renderer (kind_<kind>_svg.c) and one JSON encoder
 * (kind_<kind>_json.c) per kind, and the terminal's (show_text), one
 * text renderer per kind (kind_<kind>_text.c); and what they share
 * (view.c).  Nobody outside src/game/ includes this: the layers go
 * through game_kinds[].
 */
#ifndef LUDUS_GAME_VIEW_H
#define LUDUS_GAME_VIEW_H

#include <stddef.h>

#include <jansson.h>

#include "game/game.h"
#include "util/reply.h"
#include "util/svg.h"

int	render_svg_ludo(const struct game *, struct svg *);
int	render_svg_snl(const struct game *, struct svg *);
int	render_svg_dandy(const struct game *, struct svg *);
int	json_state_ludo(const struct game *, json_t *obj);
int	json_state_snl(const struct game *, json_t *obj);
int	json_state_dandy(const struct game *, json_t *obj);

void	show_text_ludo(const struct reply *, const struct reply *, int,
	    struct svg *);
void	show_text_snl(const struct reply *, const struct reply *, int,
	    struct svg *);
void	show_text_dandy(const struct reply *, const struct reply *, int,
	    struct svg *);

/* One seat of the "players" array: {"name": name, "bot": its strategy
 * or null}. */
json_t	*json_seat(const struct game *, int i, const char *name);
/* A player's name, or null for index -1 (no turn, no winner). */
json_t	*json_name_or_null(const char *name, int index);

/*
 * What the text renderers share.  Each entry "a,b,c" of a STATE array
 * split into its fields (at most TEXT_FIELDS_MAX, the last one holding
 * the rest), handed to cb with their count; an integer field in [min,
 * max] into *out (0, or -1 if it is none); s in the SGR colour sgr
 * ("1;31") when color is set; n spaces; the colour of seat i.
 */
#define TEXT_FIELDS_MAX	4
void	text_each(const struct reply *state, void (*cb)(void *, char **f,
	    int n), void *arg);
int	text_int(const char *, int min, int max, int *out);
void	text_paint(struct svg *, int color, const char *sgr, const char *s);
void	text_spaces(struct svg *, int n);
/* "what:", then " Pn" (in its colour) for each of the n players whose
 * pos is at, or " none", and a newline. */
void	text_seats_at(struct svg *, int color, const char *what,
	    const int *pos, int n, int at);
const char *text_seat_sgr(int i);

#endif /* LUDUS_GAME_VIEW_H */
