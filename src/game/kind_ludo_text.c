/*
 * The Ludo board as text for a terminal (ludus show), from LUDO.STATE's
 * "player,token,LOCATION,position" entries alone: the 52 cells of the
 * track in four rows, each with the tokens on it, then each player's
 * tokens by place.
 */
#include <stdio.h>
#include <string.h>

#include "game/view.h"

enum { LOC_YARD, LOC_TRACK, LOC_HOME, LOC_FINISHED };

struct ludo_view {
	int	 n;
	char	 name[LUDO_MAX_PLAYERS][64];
	int	 loc[LUDO_MAX_PLAYERS][LUDO_TOKENS];
	int	 pos[LUDO_MAX_PLAYERS][LUDO_TOKENS];
};

static int
view_player(struct ludo_view *v, const char *name)
{
	int	 i;

	for (i = 0; i < v->n; i++)
		if (strcmp(v->name[i], name) == 0)
			return i;
	if (v->n == LUDO_MAX_PLAYERS)
		return -1;
	snprintf(v->name[v->n], sizeof v->name[0], "%s", name);
	return v->n++;
}

/* One "player,token,LOCATION,position" entry of LUDO.STATE. */
static void
view_entry(void *arg, char **f, int n)
{
	static const char *const locs[] = { "YARD", "TRACK", "HOME",
	    "FINISHED" };
	struct ludo_view *v = arg;
	int		 p, t, l, pos;

	if (n != 4 || text_int(f[1], 1, LUDO_TOKENS, &t) ||
	    text_int(f[3], -1, 99, &pos))
		return;
	for (l = 0; l < 4 && strcmp(f[2], locs[l]) != 0; l++)
		;
	if (l == 4 || (p = view_player(v, f[0])) == -1)
		return;
	v->loc[p][t - 1] = l;
	v->pos[p][t - 1] = pos;
}

static int
safe_cell(int cell)
{
	return cell % 13 == 0 || cell % 13 == 8;
}

/* The absolute track cell of a token, -1 when it is not on the track. */
static int
token_cell(const struct ludo_view *v, int p, int t)
{
	if (v->loc[p][t] != LOC_TRACK)
		return -1;
	return (LUDO_ENTRY_STEP * p + v->pos[p][t]) % LUDO_TRACK_CELLS;
}

/*
 * What one track cell shows in at most four columns: each token as
 * "A1", or if that is too long each player as "A" or "A3", or letters.
 */
static void
draw_cell(struct svg *out, const struct ludo_view *v, int cell, int color)
{
	char	 text[LUDO_MAX_PLAYERS * LUDO_TOKENS][16];
	int	 who[LUDO_MAX_PLAYERS * LUDO_TOKENS];
	int	 count[LUDO_MAX_PLAYERS] = { 0 };
	int	 n = 0, width = 0, p, t, i, style;

	for (p = 0; p < v->n; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (token_cell(v, p, t) == cell)
				count[p]++;
	for (style = 0; style < 3; style++) {
		n = width = 0;
		for (p = 0; p < v->n; p++) {
			if (count[p] == 0)
				continue;
			for (t = 0; t < LUDO_TOKENS; t++) {
				if (style == 0 && token_cell(v, p, t) != cell)
					continue;
				if (style == 0)
					snprintf(text[n], sizeof text[n],
					    "%c%d", 'A' + p, t + 1);
				else if (style == 1 && count[p] > 1)
					snprintf(text[n], sizeof text[n],
					    "%c%d", 'A' + p, count[p]);
				else
					snprintf(text[n], sizeof text[n],
					    "%c", 'A' + p);
				width += (int)strlen(text[n]);
				who[n++] = p;
				if (style > 0)
					break;
			}
		}
		if (width <= 4)
			break;
	}
	if (n == 0) {
		text_spaces(out, 3);
		text_paint(out, color, "2", ".");
		return;
	}
	text_spaces(out, 4 - width);
	for (i = 0; i < n; i++)
		text_paint(out, color, text_seat_sgr(who[i]), text[i]);
}

/* The tokens of player p at location l, as "1 3" or "-". */
static void
list_tokens(struct svg *out, const struct ludo_view *v, int p, int l,
    const char *what)
{
	int	 t, any = 0;

	svg_printf(out, " | %s", what);
	for (t = 0; t < LUDO_TOKENS; t++) {
		if (v->loc[p][t] != l)
			continue;
		any = 1;
		if (l == LOC_TRACK)
			svg_printf(out, " %d@cell %d", t + 1,
			    token_cell(v, p, t));
		else if (l == LOC_HOME)
			svg_printf(out, " %d@step %d", t + 1, v->pos[p][t]);
		else
			svg_printf(out, " %d", t + 1);
	}
	if (!any)
		svg_add(out, " -");
}

void
show_text_ludo(const struct reply *info, const struct reply *st, int color,
    struct svg *out)
{
	struct ludo_view v;
	char		 name[4];
	int		 row, c, cell, p;

	(void)info;
	memset(&v, 0, sizeof v);
	text_each(st, view_entry, &v);
	svg_add(out, "track (52 cells, * safe, the ring runs row after row "
	    "back to 0)\n");
	for (row = 0; row < 4; row++) {
		for (c = 0; c < 13; c++) {
			cell = row * 13 + c;
			svg_printf(out, "%4d", cell);
			if (safe_cell(cell))
				text_paint(out, color, "1", "*");
			else
				svg_add(out, " ");
		}
		svg_add(out, "\n");
		for (c = 0; c < 13; c++) {
			draw_cell(out, &v, row * 13 + c, color);
			svg_add(out, " ");
		}
		svg_add(out, "\n");
	}
	svg_add(out, "\n");
	for (p = 0; p < v.n; p++) {
		snprintf(name, sizeof name, "%c", 'A' + p);
		text_paint(out, color, text_seat_sgr(p), name);
		svg_printf(out, " %s (enters at %d)", v.name[p],
		    LUDO_ENTRY_STEP * p);
		list_tokens(out, &v, p, LOC_YARD, "yard");
		list_tokens(out, &v, p, LOC_TRACK, "track");
		list_tokens(out, &v, p, LOC_HOME, "home lane");
		list_tokens(out, &v, p, LOC_FINISHED, "finished");
		svg_add(out, "\n");
	}
}
