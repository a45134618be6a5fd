/*
 * The Snake & Ladder board as text for a terminal (ludus show), from
 * SNL.STATE's entries alone ("Pn,cell", "snake,from,to",
 * "ladder,from,to"): the 10 x 10 grid, each cell with its number, its
 * jump and the players on it, then who is at the start and the jumps.
 */
#include <stdio.h>
#include <string.h>

#include "game/view.h"

#define COLS	10
#define CELL_W	7

struct snl_view {
	int	 n;
	int	 pos[SNL_MAX_PLAYERS];
	int	 jump[SNL_CELLS + 1];
};

/* One entry of SNL.STATE: a jump, or a player's cell. */
static void
view_entry(void *arg, char **f, int nf)
{
	struct snl_view	*v = arg;
	int		 a, b;

	if (nf == 3 && (strcmp(f[0], "snake") == 0 ||
	    strcmp(f[0], "ladder") == 0) &&
	    text_int(f[1], 1, SNL_CELLS, &a) == 0 &&
	    text_int(f[2], 1, SNL_CELLS, &b) == 0)
		v->jump[a] = b;
	else if (nf == 2 && f[0][0] == 'P' &&
	    text_int(f[0] + 1, 1, SNL_MAX_PLAYERS, &a) == 0 &&
	    text_int(f[1], 0, SNL_CELLS, &b) == 0) {
		v->pos[a - 1] = b;
		if (a > v->n)
			v->n = a;
	}
}

/* The cell at a grid row (0 = bottom) and column: 1 bottom-left,
 * rows alternating direction, 100 top-left. */
static int
grid_cell(int row, int col)
{
	return row * COLS + (row % 2 == 0 ? col + 1 : COLS - col);
}

static void
draw_jump(struct svg *out, const struct snl_view *v, int cell, int color)
{
	char	 num[16], mark[16];

	snprintf(num, sizeof num, "%3d", cell);
	text_paint(out, color, "2", num);
	if (v->jump[cell] == 0) {
		text_spaces(out, CELL_W - 3);
		return;
	}
	snprintf(mark, sizeof mark, "%c%d", v->jump[cell] > cell ? '^' : 'v',
	    v->jump[cell]);
	text_paint(out, color, v->jump[cell] > cell ? "32" : "31", mark);
	text_spaces(out, CELL_W - 3 - (int)strlen(mark));
}

/* The players on a cell: "P1 P2", or "P1 +3" when they do not fit. */
static void
draw_players(struct svg *out, const struct snl_view *v, int cell, int color)
{
	char	 w[16];
	int	 p, n = 0, width = 0, first = -1;

	for (p = 0; p < v->n; p++) {
		if (v->pos[p] != cell)
			continue;
		if (first == -1)
			first = p;
		width += snprintf(w, sizeof w, "P%d", p + 1) + (n > 0);
		n++;
	}
	if (n == 0) {
		text_spaces(out, CELL_W);
		return;
	}
	if (width <= CELL_W) {
		for (p = first; p < v->n; p++) {
			if (v->pos[p] != cell)
				continue;
			if (p != first)
				svg_add(out, " ");
			snprintf(w, sizeof w, "P%d", p + 1);
			text_paint(out, color, text_seat_sgr(p), w);
		}
		text_spaces(out, CELL_W - width);
		return;
	}
	snprintf(w, sizeof w, "P%d", first + 1);
	text_paint(out, color, text_seat_sgr(first), w);
	width = (int)strlen(w);
	width += snprintf(w, sizeof w, " +%d", n - 1);
	svg_add(out, w);
	text_spaces(out, CELL_W - width);
}

static void
draw_rule(struct svg *out)
{
	int	 c;

	for (c = 0; c < COLS; c++)
		svg_printf(out, "%s%s", "-------", c < COLS - 1 ? "+" : "\n");
}

static void
list_jumps(struct svg *out, const struct snl_view *v, int ladders, int color)
{
	char	 buf[16];
	int	 c, any = 0;

	svg_printf(out, "%s:", ladders ? "ladders" : "snakes");
	for (c = 1; c <= SNL_CELLS; c++) {
		if (v->jump[c] == 0 || (v->jump[c] > c) != ladders)
			continue;
		snprintf(buf, sizeof buf, "%d->%d", c, v->jump[c]);
		svg_add(out, " ");
		text_paint(out, color, ladders ? "32" : "31", buf);
		any = 1;
	}
	svg_printf(out, "%s\n", any ? "" : " none");
}

void
show_text_snl(const struct reply *info, const struct reply *st, int color,
    struct svg *out)
{
	struct snl_view	 v;
	int		 row, col;

	(void)info;
	memset(&v, 0, sizeof v);
	text_each(st, view_entry, &v);
	draw_rule(out);
	for (row = COLS - 1; row >= 0; row--) {
		for (col = 0; col < COLS; col++) {
			draw_jump(out, &v, grid_cell(row, col), color);
			svg_add(out, col < COLS - 1 ? "|" : "\n");
		}
		for (col = 0; col < COLS; col++) {
			draw_players(out, &v, grid_cell(row, col), color);
			svg_add(out, col < COLS - 1 ? "|" : "\n");
		}
		draw_rule(out);
	}
	text_seats_at(out, color, "start", v.pos, v.n, 0);
	list_jumps(out, &v, 0, color);
	list_jumps(out, &v, 1, color);
}
