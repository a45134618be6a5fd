/*
 * The DandyLand board as text for a terminal (ludus show), from
 * DANDY.STATE's "Pn,square,points" entries and the board that GAME.INFO
 * (or the state) gives: the ring of squares laid around a rectangle,
 * each with its letter and the player on it, then who is off the board
 * and the points.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "game/view.h"

#define SQUARE_W	4

struct dandy_view {
	int	 n;
	int	 pos[DANDY_MAX_PLAYERS];	/* 1-based, 0 off */
	int	 points[DANDY_MAX_PLAYERS];
};

/* One "Pn,square,points" entry of DANDY.STATE (square OFF: 0). */
static void
view_entry(void *arg, char **f, int n)
{
	struct dandy_view *v = arg;
	int		 p, pos, pts;

	if (n != 3 || f[0][0] != 'P' ||
	    text_int(f[0] + 1, 1, DANDY_MAX_PLAYERS, &p) == -1 ||
	    text_int(f[2], 0, INT32_MAX, &pts) == -1)
		return;
	if (strcmp(f[1], "OFF") == 0)
		pos = 0;
	else if (text_int(f[1], 1, DANDY_BOARD_MAX, &pos) == -1)
		return;
	v->pos[p - 1] = pos;
	v->points[p - 1] = pts;
	if (p > v->n)
		v->n = p;
}

/*
 * Where square k (0-based) of an n-square ring sits on a grid: along the
 * top left to right, down the right side, back along the bottom and up
 * the left side.  Sets the grid size; map[row][col] is k, or -1.
 */
static void
ring_layout(int n, int map[DANDY_BOARD_MAX][DANDY_BOARD_MAX], int *rowsp,
    int *colsp)
{
	int	 side, top, bottom, rows, k, r, c;

	side = n >= 6 ? (n - 2) / 4 : 0;
	top = (n - 2 * side + 1) / 2;
	bottom = n - 2 * side - top;
	rows = 1 + side + (bottom > 0);
	for (r = 0; r < rows; r++)
		for (c = 0; c < top; c++)
			map[r][c] = -1;
	k = 0;
	for (c = 0; c < top; c++)
		map[0][c] = k++;
	for (r = 1; r <= side; r++)
		map[r][top - 1] = k++;
	for (c = top - 1; c > top - 1 - bottom; c--)
		map[rows - 1][c] = k++;
	for (r = side; r >= 1; r--)
		map[r][0] = k++;
	*rowsp = rows;
	*colsp = top;
}

static void
draw_square(struct svg *out, const struct dandy_view *v, const char *board,
    int k, int line, int color)
{
	char	 w[16];
	int	 p;

	if (k < 0) {
		text_spaces(out, SQUARE_W + 1);
		return;
	}
	if (line == 0) {
		snprintf(w, sizeof w, "%2d", k + 1);
		text_paint(out, color, "2", w);
		snprintf(w, sizeof w, ":%c", board[k]);
		svg_add(out, w);
		text_spaces(out, SQUARE_W - 4 + 1);
		return;
	}
	/* A move onto an occupied square bumps: one player at most. */
	for (p = 0; p < v->n; p++)
		if (v->pos[p] == k + 1)
			break;
	if (p == v->n) {
		text_spaces(out, SQUARE_W + 1);
		return;
	}
	snprintf(w, sizeof w, " P%d", p + 1);
	text_paint(out, color, text_seat_sgr(p), w);
	text_spaces(out, SQUARE_W + 1 - (int)strlen(w));
}

void
show_text_dandy(const struct reply *info, const struct reply *st, int color,
    struct svg *out)
{
	int		 map[DANDY_BOARD_MAX][DANDY_BOARD_MAX];
	struct dandy_view v;
	const char	*board;
	char		 w[16];
	int		 n, rows, cols, r, c, p, line;

	memset(&v, 0, sizeof v);
	text_each(st, view_entry, &v);
	if ((board = reply_pair_value(info, "board")) == NULL)
		board = reply_pair_value(st, "board");
	n = board != NULL ? (int)strlen(board) : 0;
	if (n >= 1 && n <= DANDY_BOARD_MAX) {
		svg_printf(out, "ring of %d squares, entered at 1; a point for "
		    "each pass from %d to 1\n", n, n);
		ring_layout(n, map, &rows, &cols);
		for (r = 0; r < rows; r++)
			for (line = 0; line < 2; line++) {
				for (c = 0; c < cols; c++)
					draw_square(out, &v, board, map[r][c],
					    line, color);
				svg_add(out, "\n");
			}
	} else {
		/* Not every server says the board; positions still help. */
		svg_add(out, "(the board layout is not known)\n");
		for (p = 0; p < v.n; p++)
			if (v.pos[p] != 0)
				svg_printf(out, "P%d on square %d\n", p + 1,
				    v.pos[p]);
	}
	text_seats_at(out, color, "off the board", v.pos, v.n, 0);
	svg_add(out, "points:");
	for (p = 0; p < v.n; p++) {
		snprintf(w, sizeof w, " P%d", p + 1);
		text_paint(out, color, text_seat_sgr(p), w);
		svg_printf(out, " %d%s", v.points[p], p < v.n - 1 ? "," : "");
	}
	svg_add(out, "\n");
}
