/*
 * The DandyLand board as SVG: its squares on a circle, clockwise from the
 * top, each with its letter and that letter's colour; the step from the
 * last square to the first (where a point is earned) marked; every
 * player's piece beside its square, or in the middle while off the
 * board; and a legend with the points.
 *
 * Pieces are <g class="piece"> with data-player, data-pos (DANDY.STATE's
 * square, 1-based, or OFF) and data-points; squares are
 * <g class="square"> with data-square and data-letter.
 */
#include <math.h>
#include <stdio.h>

#include "game/view.h"

#define SIZE		560
#define MID		(SIZE / 2.0)
#define RING		205.0		/* radius of the squares' centres */
#define LEGEND		84

static const char *const letter_fill[9] = {
	"#ef5350", "#ffa726", "#ffee58", "#66bb6a", "#26a69a", "#42a5f5",
	"#5c6bc0", "#ab47bc", "#ec407a"
};

struct pt {
	double	x, y;
};

static double
angle(int k, int len)
{
	return -M_PI / 2 + 2 * M_PI * k / len;
}

static struct pt
ring_pt(int k, int len, double r)
{
	struct pt	 p;

	p.x = MID + r * cos(angle(k, len));
	p.y = MID + r * sin(angle(k, len));
	return p;
}

/* The radius of a square: as big as the ring leaves room for. */
static double
square_r(int len)
{
	double	 r = M_PI * RING / len * 0.8;

	return r > 30 ? 30 : r;
}

/* The way pieces go: an arc a little after the top, clockwise. */
static void
draw_arrow(struct svg *out, double r)
{
	double		 a0 = -M_PI / 2 + 0.25, a1 = -M_PI / 2 + 0.85;
	struct pt	 p = { MID + r * cos(a0), MID + r * sin(a0) };
	struct pt	 q = { MID + r * cos(a1), MID + r * sin(a1) };
	double		 tx = -sin(a1), ty = cos(a1);	/* the tangent */

	svg_printf(out, "<path class=\"way\" d=\"M%.1f,%.1f A%.1f,%.1f 0 0 1 "
	    "%.1f,%.1f\" fill=\"none\" stroke=\"#999\" stroke-width=\"3\"/>"
	    "<polygon fill=\"#999\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>"
	    "\n", p.x, p.y, r, r, q.x, q.y, q.x + tx * 10, q.y + ty * 10,
	    q.x - ty * 7, q.y + tx * 7, q.x + ty * 7, q.y - tx * 7);
}

static void
draw_squares(struct svg *out, const struct dandy_state *st)
{
	double		 sr = square_r(st->board_len);
	struct pt	 p;
	char		 letter[2] = { 0, 0 };
	int		 k, li;

	svg_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
	    "fill=\"none\" stroke=\"#ccc\" stroke-width=\"%.1f\"/>\n", MID, MID,
	    RING, sr * 0.6);
	for (k = 0; k < st->board_len; k++) {
		p = ring_pt(k, st->board_len, RING);
		letter[0] = st->board[k];
		li = st->board[k] >= 'a' && st->board[k] <= 'i' ?
		    st->board[k] - 'a' : 0;
		svg_printf(out, "<g class=\"square\" data-square=\"%d\" "
		    "data-letter=\"", k + 1);
		svg_esc(out, letter);
		svg_printf(out, "\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
		    "fill=\"%s\" stroke=\"#333\" stroke-width=\"%d\"/>", p.x,
		    p.y, sr, letter_fill[li], k == 0 ? 4 : 1);
		svg_text(out, p.x, p.y, sr * 0.9, "middle", "#222", letter);
		svg_add(out, "</g>\n");
	}
	/* The first square, where a lap ends with a point. */
	p = ring_pt(0, st->board_len, RING - sr - 14);
	svg_text(out, p.x, p.y, 12, "middle", "#333", "1: lap +1");
	draw_arrow(out, RING - sr - 40);
}

/* ------------------------------------------------------------- pieces */

static void
draw_piece(struct svg *out, const struct dandy_state *st, int i,
    struct pt p, double r)
{
	const struct svg_colour	*col = svg_seat_colour(i);
	char			 name[16], num[8];

	game_seat_name(name, sizeof name, i);
	snprintf(num, sizeof num, "%d", i + 1);
	svg_printf(out, "<g class=\"piece\" data-player=\"%s\" ", name);
	if (st->pos[i] == DANDY_OFF)
		svg_add(out, "data-pos=\"OFF\"");
	else
		svg_printf(out, "data-pos=\"%d\"", st->pos[i] + 1);
	svg_printf(out, " data-points=\"%d\"><circle cx=\"%.1f\" cy=\"%.1f\" "
	    "r=\"%.1f\" fill=\"%s\" stroke=\"#111\" stroke-width=\"2\"/>",
	    st->points[i], p.x, p.y, r, col->fill);
	svg_text(out, p.x, p.y, r * 1.1, "middle", col->ink, num);
	svg_add(out, "</g>\n");
}

/* On the board, a piece stands outside its square (pieces sharing one,
 * which bumping prevents, stack outwards); off it, in the middle. */
static void
draw_pieces(struct svg *out, const struct dandy_state *st, int n)
{
	double		 sr = square_r(st->board_len);
	int		 i, j, k, noff = 0, row;
	struct pt	 p;

	for (i = 0; i < n; i++)
		noff += st->pos[i] == DANDY_OFF;
	row = noff < 4 ? noff : 4;
	for (i = 0, noff = 0; i < n; i++) {
		if (st->pos[i] == DANDY_OFF) {
			p.x = MID + ((noff % 4) - (row - 1) / 2.0) * 50;
			p.y = MID + 10 + (noff / 4) * 44;
			noff++;
			draw_piece(out, st, i, p, 16);
			continue;
		}
		for (j = k = 0; j < i; j++)
			k += st->pos[j] == st->pos[i];
		p = ring_pt(st->pos[i] % st->board_len, st->board_len,
		    RING + sr + 14 + k * 26);
		draw_piece(out, st, i, p, 12);
	}
	if (noff > 0)
		svg_text(out, MID, MID - 28, 14, "middle", "#555",
		    "off the board");
}

/* ------------------------------------------------------------- legend */

static void
draw_legend(struct svg *out, const struct game *g, int n)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 buf[64];
	double			 x, y = SIZE + 20;
	int			 i;

	if (st->has_deck)
		snprintf(buf, sizeof buf, "%lld move%s, %d card%s left",
		    (long long)g->moves, g->moves == 1 ? "" : "s",
		    st->deck_len - st->drawn,
		    st->deck_len - st->drawn == 1 ? "" : "s");
	else
		snprintf(buf, sizeof buf, "%lld move%s", (long long)g->moves,
		    g->moves == 1 ? "" : "s");
	svg_text(out, 12, y, 15, "start", "#222", buf);
	for (i = 0; i < n; i++) {
		x = 10 + (i % 4) * (SIZE / 4);
		svg_printf(out, "<circle class=\"key\" cx=\"%.1f\" cy=\"%.1f\" "
		    "r=\"8\" fill=\"%s\" stroke=\"#111\"/>", x + 8,
		    y + 28 + (i / 4) * 22.0, svg_seat_colour(i)->fill);
		snprintf(buf, sizeof buf, "P%d %d point%s%s", i + 1,
		    st->points[i], st->points[i] == 1 ? "" : "s",
		    st->turn == i ? " \xe2\x97\x80" : "");
		svg_text(out, x + 22, y + 28 + (i / 4) * 22.0, 13, "start",
		    "#222", buf);
		svg_add(out, "\n");
	}
}

int
render_svg_dandy(const struct game *g, struct svg *out)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 title[GAME_ID_MAX + 64];
	int			 n;

	if (g->kind != KIND_DANDY || st->board_len < 1 ||
	    st->board_len > DANDY_BOARD_MAX)
		return -1;
	n = st->nplayers < DANDY_MAX_PLAYERS ? st->nplayers :
	    DANDY_MAX_PLAYERS;
	snprintf(title, sizeof title, "DandyLand game %s after %lld moves",
	    g->id, (long long)g->moves);
	svg_begin(out, SIZE, SIZE + LEGEND, "dandy", title);
	svg_printf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fafafa\" stroke=\"#333\" stroke-width=\"2\"/>\n", SIZE,
	    SIZE + LEGEND);
	draw_squares(out, st);
	draw_pieces(out, st, n);
	draw_legend(out, g, n);
	svg_end(out);
	return 0;
}
