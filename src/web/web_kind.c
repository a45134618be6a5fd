/*
 * The web hooks of each kind, by g->kind.  This table is the one place
 * of the web side that names the kinds: it goes away when struct
 * game_kind carries render_svg, state_json and the title, and callers
 * use game_kinds[g->kind] instead.
 */
#include "web/web.h"

struct web_kind {
	const char	*title;
	int		(*render_svg)(const struct game *, struct svg *);
	int		(*state_json)(const struct game *, json_t *);
};

/* LEAD: replace with the kind table's render_svg/state_json/title. */
static const struct web_kind web_kinds[KIND_COUNT] = {
	[KIND_LUDO] = { "Ludo", render_svg_ludo, json_state_ludo },
	[KIND_SNL] = { "Snake & Ladder", render_svg_snl, json_state_snl },
	[KIND_DANDY] = { "DandyLand", render_svg_dandy, json_state_dandy },
};

static const struct web_kind *
web_kind(int kind)
{
	if (kind <= KIND_NONE || kind >= KIND_COUNT ||
	    web_kinds[kind].render_svg == NULL)
		return NULL;
	return &web_kinds[kind];
}

int
web_render_svg(const struct game *g, struct svg *out)
{
	const struct web_kind	*k = web_kind(g->kind);

	return k != NULL ? k->render_svg(g, out) : -1;
}

int
web_state_json(const struct game *g, json_t *obj)
{
	const struct web_kind	*k = web_kind(g->kind);

	return k != NULL ? k->state_json(g, obj) : -1;
}

const char *
web_kind_title(int kind)
{
	const struct web_kind	*k = web_kind(kind);

	return k != NULL ? k->title : "?";
}
