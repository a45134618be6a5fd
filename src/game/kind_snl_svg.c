/*
 * The Snake & Ladder board as SVG: 10 x 10 cells numbered boustrophedon
 * (1 at the bottom left, each row turning back), the ladders and the
 * snakes drawn between their cells, every player's piece on its cell or,
 * before its first roll, on the start strip below the board, and a
 * legend.
 *
 * Pieces are <g class="piece"> with data-player and data-pos (SNL.STATE's
 * cell, 0 off the board); jumps are <g class="snake"> or
 * <g class="ladder"> with data-from and data-to.
 */
#include <math.h>
#include <stdio.h>

#include "game/view.h"

#define CELL		56
#define SIDE		10
#define BOARD		(SIDE * CELL)
#define START		44		/* the start strip's height */
#define KEY_W		120		/* one legend entry: "P64 100 won" fits */
#define KEY_H		24
#define KEYS_PER_ROW	(BOARD / KEY_W)

struct pt {
	double	x, y;			/* px */
};

/* The centre of cell c (1-100). */
static struct pt
cell_pt(int c)
{
	int		 row = (c - 1) / SIDE, col = (c - 1) % SIDE;
	struct pt	 p;

	if (row % 2 == 1)
		col = SIDE - 1 - col;
	p.x = (col + 0.5) * CELL;
	p.y = (SIDE - 1 - row + 0.5) * CELL;
	return p;
}

static void
draw_cells(struct svg *out)
{
	struct pt	 p;
	char		 num[8];
	int		 c;

	for (c = 1; c <= SNL_CELLS; c++) {
		p = cell_pt(c);
		svg_printf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#999\"/>",
		    p.x - CELL / 2.0, p.y - CELL / 2.0, CELL, CELL,
		    c == SNL_CELLS ? "#ffe08a" : ((c - 1) / SIDE + (c - 1) %
		    SIDE) % 2 == 0 ? "#fdf6e3" : "#e8f1e4");
		snprintf(num, sizeof num, "%d", c);
		svg_text(out, p.x - CELL / 2.0 + 4, p.y - CELL / 2.0 + 10, 11,
		    "start", "#666", num);
		svg_add(out, "\n");
	}
}

static void
draw_ladder(struct svg *out, int from, int to)
{
	struct pt	 a = cell_pt(from), b = cell_pt(to);
	double		 dx = b.x - a.x, dy = b.y - a.y;
	double		 len = sqrt(dx * dx + dy * dy), nx, ny;
	int		 i, rungs;

	nx = -dy / len * 9;
	ny = dx / len * 9;
	svg_printf(out, "<g class=\"ladder\" data-from=\"%d\" data-to=\"%d\" "
	    "stroke=\"#8d5a2b\" stroke-width=\"4\" stroke-linecap=\"round\">"
	    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
	    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
	    from, to, a.x + nx, a.y + ny, b.x + nx, b.y + ny, a.x - nx,
	    a.y - ny, b.x - nx, b.y - ny);
	rungs = (int)(len / 18);
	for (i = 1; i < rungs; i++)
		svg_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke-width=\"3\"/>",
		    a.x + dx * i / rungs + nx, a.y + dy * i / rungs + ny,
		    a.x + dx * i / rungs - nx, a.y + dy * i / rungs - ny);
	svg_add(out, "</g>\n");
}

/* A snake: a wavy body from head to tail (two S bends), the head a disc
 * with eyes. */
static void
draw_snake(struct svg *out, int head, int tail)
{
	struct pt	 a = cell_pt(head), b = cell_pt(tail);
	double		 dx = b.x - a.x, dy = b.y - a.y;
	double		 len = sqrt(dx * dx + dy * dy), nx, ny, w;

	w = len < 120 ? len / 4 : 30;
	nx = -dy / len * w;
	ny = dx / len * w;
	svg_printf(out, "<g class=\"snake\" data-from=\"%d\" data-to=\"%d\">"
	    "<path d=\"M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f "
	    "S%.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"#2e7d32\" "
	    "stroke-width=\"9\" stroke-linecap=\"round\" "
	    "stroke-opacity=\"0.85\"/>", head, tail,
	    a.x, a.y, a.x + dx / 4 + nx, a.y + dy / 4 + ny,
	    a.x + dx / 4 - nx, a.y + dy / 4 - ny, a.x + dx / 2,
	    a.y + dy / 2, b.x - dx / 4 + nx, b.y - dy / 4 + ny, b.x, b.y);
	svg_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"10\" "
	    "fill=\"#1b5e20\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
	    "fill=\"#fff\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
	    "fill=\"#fff\"/></g>\n", a.x, a.y, a.x - 4, a.y - 3, a.x + 4,
	    a.y - 3);
}

static void
draw_jumps(struct svg *out, const struct snl_state *st)
{
	int	 c;

	for (c = 1; c <= SNL_CELLS; c++)
		if (st->jump[c] > c)
			draw_ladder(out, c, st->jump[c]);
	for (c = 1; c <= SNL_CELLS; c++)
		if (st->jump[c] != 0 && st->jump[c] < c)
			draw_snake(out, c, st->jump[c]);
}

/* ------------------------------------------------------------- pieces */

static void
draw_piece(struct svg *out, int i, int pos, struct pt p, double r)
{
	const struct svg_colour	*col = svg_seat_colour(i);
	char			 name[16], num[8];

	game_seat_name(name, sizeof name, i);
	snprintf(num, sizeof num, "%d", i + 1);
	svg_printf(out, "<g class=\"piece\" data-player=\"%s\" "
	    "data-pos=\"%d\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
	    "fill=\"%s\" stroke=\"#111\" stroke-width=\"1.5\"/>", name, pos,
	    p.x, p.y, r, col->fill);
	svg_text(out, p.x, p.y, r * (i < 9 ? 1.1 : 0.9), "middle", col->ink,
	    num);
	svg_add(out, "</g>\n");
}

/*
 * In seat order: a piece on a cell shares it with the others there, in a
 * grid; one not yet on the board lines up on the start strip, closer
 * the more there are.
 */
static void
draw_pieces(struct svg *out, const struct snl_state *st, int n)
{
	int		 i, j, k, cnt, side, noff = 0, off = 0;
	double		 step, gap;
	struct pt	 p, c;

	for (i = 0; i < n; i++)
		noff += st->pos[i] == 0;
	gap = noff > 0 && (BOARD - 80.0) / noff < 28 ? (BOARD - 80.0) / noff :
	    28;
	for (i = 0; i < n; i++) {
		if (st->pos[i] == 0) {
			p.x = 18 + gap * off++;
			p.y = BOARD + START / 2.0;
			draw_piece(out, i, 0, p, gap * 0.45);
			continue;
		}
		for (j = cnt = k = 0; j < n; j++)
			if (st->pos[j] == st->pos[i]) {
				cnt++;
				k += j < i;
			}
		side = cnt <= 1 ? 1 : cnt <= 4 ? 2 : cnt <= 9 ? 3 :
		    cnt <= 16 ? 4 : 8;
		step = CELL * 0.8 / side;
		c = cell_pt(st->pos[i]);
		p.x = c.x + ((k % side) - (side - 1) / 2.0) * step;
		p.y = c.y + ((k / side) - ((cnt - 1) / side) / 2.0) * step +
		    4;
		draw_piece(out, i, st->pos[i], p, side == 1 ? CELL * 0.28 :
		    step * 0.45);
	}
}

/* ------------------------------------------------------------- legend */

static void
draw_legend(struct svg *out, const struct game *g, int n, double y)
{
	const struct snl_state	*st = &g->s.snl;
	char			 buf[48];
	double			 x, ky;
	int			 i;

	snprintf(buf, sizeof buf, "%lld move%s%s", (long long)g->moves,
	    g->moves == 1 ? "" : "s", st->winner >= 0 ? ", game over" : "");
	svg_text(out, 12, y, 15, "start", "#222", buf);
	for (i = 0; i < n; i++) {
		x = 8 + (i % KEYS_PER_ROW) * KEY_W;
		ky = y + 26 + (i / KEYS_PER_ROW) * KEY_H;
		svg_printf(out, "<circle class=\"key\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"7\" fill=\"%s\" stroke=\"#111\"/>", x + 7, ky,
		    svg_seat_colour(i)->fill);
		snprintf(buf, sizeof buf, "P%d %d%s", i + 1, st->pos[i],
		    st->winner == i ? " won" : st->turn == i ? " \xe2\x97\x80" :
		    "");
		svg_text(out, x + 18, ky, 12, "start", "#222", buf);
		svg_add(out, "\n");
	}
}

int
render_svg_snl(const struct game *g, struct svg *out)
{
	const struct snl_state	*st = &g->s.snl;
	char			 title[GAME_ID_MAX + 64];
	int			 n, h;

	if (g->kind != KIND_SNL)
		return -1;
	n = st->nplayers < SNL_MAX_PLAYERS ? st->nplayers : SNL_MAX_PLAYERS;
	h = BOARD + START + 34 + ((n + KEYS_PER_ROW - 1) / KEYS_PER_ROW) *
	    KEY_H;
	snprintf(title, sizeof title, "Snake & Ladder game %s after %lld "
	    "moves", g->id, (long long)g->moves);
	svg_begin(out, BOARD, h, "snl", title);
	svg_printf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fafafa\" stroke=\"#333\" stroke-width=\"2\"/>\n", BOARD,
	    h);
	draw_cells(out);
	draw_jumps(out, st);
	svg_printf(out, "<rect class=\"start\" x=\"2\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"#eeeeee\" stroke=\"#999\"/>\n", BOARD + 2,
	    BOARD - 4, START - 4);
	svg_text(out, BOARD - 10, BOARD + START / 2.0, 12, "end", "#777",
	    "start");
	draw_pieces(out, st, n);
	draw_legend(out, g, n, BOARD + START + 14);
	svg_end(out);
	return 0;
}
