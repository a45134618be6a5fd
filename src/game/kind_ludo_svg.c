/*
 * The Ludo board as SVG: the cross of a 15 x 15 grid, its 52 track
 * squares with the safe ones starred, the four yards, the home lanes
 * (six squares in the classic preset, five in the others) and the
 * finish, with every token in its player's colour and a legend of the
 * players below.
 *
 * The geometry is drawn for seat 0 (the left arm, its yard top left) and
 * turned a quarter clockwise per seat, as the engine enters seat i on
 * the track 13 * i squares further on.  Absolute track square a is loop
 * square (a + 1) % 52 of the grid, so that seat 0's entry (a = 0) is the
 * second square of its arm, as on a printed board.  The sixth square of
 * a classic lane reaches into the centre; the finish of each seat is the
 * corner of the centre next to its lane's end.
 *
 * Every token is a <g class="token"> with data-player, data-token,
 * data-loc and data-pos (LUDO.STATE's values), so that a test or a
 * script reads the picture as it reads the state.
 */
#include <stdio.h>
#include <string.h>

#include "game/view.h"

#define CELL		40		/* px per grid square */
#define GRID		15
#define BOARD		(GRID * CELL)
#define LEGEND		80
#define NSEATS		4

static const int safe_squares[] = { 0, 8, 13, 21, 26, 34, 39, 47 };

struct pt {
	double	x, y;			/* in grid units, 0-15 */
};

/* A quarter turn clockwise about the centre, seat times. */
static struct pt
turn_pt(struct pt p, int seat)
{
	struct pt	q;
	int		i;

	for (i = 0; i < seat % NSEATS; i++) {
		q.x = GRID - p.y;
		q.y = p.x;
		p = q;
	}
	return p;
}

/* The centre of grid square (c, r) of seat 0's quarter, turned. */
static struct pt
cell_pt(double c, double r, int seat)
{
	struct pt	p = { c + 0.5, r + 0.5 };

	return turn_pt(p, seat);
}

/* The centre of loop square l (0-51): 13 squares per arm, seat 0's arm
 * going east along row 6, north up column 6, then the top end. */
static struct pt
loop_pt(int l)
{
	int	 k = l % 13;

	if (k < 6)
		return cell_pt(k, 6, l / 13);
	if (k < 12)
		return cell_pt(6, 11 - k, l / 13);
	return cell_pt(7, 0, l / 13);
}

static struct pt
square_pt(int abs)
{
	return loop_pt((abs + 1) % LUDO_TRACK_CELLS);
}

/* Square j (from 0) of a seat's home lane: up its arm's middle row, the
 * sixth into the centre. */
static struct pt
lane_pt(int seat, int j)
{
	return cell_pt(j < 5 ? 1 + j : 6, 7, seat);
}

static int
lane_len(const struct ludo_rules *r)
{
	return ludo_finish(r) - ludo_last_track(r) - 1;
}

/* ------------------------------------------------------------ colours */

struct seats {
	int			 n;	/* seats in play */
	const struct svg_colour	*col[NSEATS];
	const char		*tint[NSEATS];
};

static const char *const colour_names[NSEATS] = {
	"red", "green", "yellow", "blue"
};
static const char *const tints[NSEATS] = {
	"#f6c6c6", "#c6ebd2", "#fbeeb8", "#c5daf6"
};
#define UNUSED_TINT	"#e4e4e4"

/* A player named after a colour gets it; the others, in seat order, the
 * first colours no one took. */
static void
seats_colour(const struct game *g, struct seats *s)
{
	int	 taken[NSEATS] = { 0 }, named[NSEATS], i, c;

	s->n = g->s.ludo.nplayers < NSEATS ? g->s.ludo.nplayers : NSEATS;
	for (i = 0; i < NSEATS; i++) {
		named[i] = -1;
		for (c = 0; i < s->n && c < NSEATS; c++)
			if (strcmp(g->players[i], colour_names[c]) == 0 &&
			    !taken[c]) {
				named[i] = c;
				taken[c] = 1;
			}
	}
	for (i = 0; i < NSEATS; i++) {
		for (c = 0; named[i] == -1 && c < NSEATS; c++)
			if (!taken[(i + c) % NSEATS]) {
				named[i] = (i + c) % NSEATS;
				taken[named[i]] = 1;
			}
		s->col[i] = svg_seat_colour(named[i]);
		s->tint[i] = i < s->n ? tints[named[i]] : UNUSED_TINT;
	}
}

/* -------------------------------------------------------------- board */

static void
square(struct svg *out, struct pt p, const char *fill, const char *cls)
{
	svg_printf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" "
	    "width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#555\" "
	    "stroke-width=\"1\"/>\n", cls, (p.x - 0.5) * CELL,
	    (p.y - 0.5) * CELL, CELL, CELL, fill);
}

static void
star(struct svg *out, struct pt p)
{
	static const double k[10][2] = {
		{ 0, -1 }, { .22, -.31 }, { .95, -.31 }, { .36, .12 },
		{ .59, .81 }, { 0, .38 }, { -.59, .81 }, { -.36, .12 },
		{ -.95, -.31 }, { -.22, -.31 }
	};
	int	 i;

	svg_add(out, "<polygon class=\"safe\" fill=\"none\" stroke=\"#777\" "
	    "stroke-width=\"1.5\" points=\"");
	for (i = 0; i < 10; i++)
		svg_printf(out, "%s%.1f,%.1f", i > 0 ? " " : "",
		    p.x * CELL + k[i][0] * CELL * 0.34,
		    p.y * CELL + k[i][1] * CELL * 0.34);
	svg_add(out, "\"/>\n");
}

static int
is_safe(int abs)
{
	size_t	 i;

	for (i = 0; i < sizeof safe_squares / sizeof safe_squares[0]; i++)
		if (safe_squares[i] == abs)
			return 1;
	return 0;
}

static void
draw_track(struct svg *out, const struct seats *s)
{
	int	 a, seat;

	for (a = 0; a < LUDO_TRACK_CELLS; a++) {
		seat = a / LUDO_ENTRY_STEP;
		square(out, square_pt(a), a % LUDO_ENTRY_STEP == 0 &&
		    seat < s->n ? s->tint[seat] : "#ffffff",
		    is_safe(a) ? "sq safe" : "sq");
		if (is_safe(a))
			star(out, square_pt(a));
	}
}

/* A rectangle of seat 0's quarter (grid units), turned. */
static void
quarter_rect(struct svg *out, int seat, double x0, double y0, double x1,
    double y1, const char *fill, const char *extra)
{
	struct pt	a = turn_pt((struct pt){ x0, y0 }, seat);
	struct pt	b = turn_pt((struct pt){ x1, y1 }, seat);

	svg_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\" fill=\"%s\" %s/>\n",
	    (a.x < b.x ? a.x : b.x) * CELL, (a.y < b.y ? a.y : b.y) * CELL,
	    (a.x < b.x ? b.x - a.x : a.x - b.x) * CELL,
	    (a.y < b.y ? b.y - a.y : a.y - b.y) * CELL, fill, extra);
}

/* Where token t (0-3) of a seat waits in its yard. */
static struct pt
yard_pt(int seat, int t)
{
	struct pt	p = { 1.9 + 2.2 * (t % 2), 1.9 + 2.2 * (t / 2) };

	return turn_pt(p, seat);
}

static void
draw_yard(struct svg *out, const struct seats *s, int seat, int turn)
{
	struct pt	p;
	int		t;

	quarter_rect(out, seat, 0, 0, 6, 6, seat < s->n ?
	    s->col[seat]->fill : "#bdbdbd", turn ? "class=\"yard turn\" "
	    "stroke=\"#111\" stroke-width=\"5\"" : "class=\"yard\" "
	    "stroke=\"#555\" stroke-width=\"1\"");
	quarter_rect(out, seat, 0.8, 0.8, 5.2, 5.2, "#ffffff",
	    "stroke=\"#555\" stroke-width=\"1\"");
	for (t = 0; t < LUDO_TOKENS; t++) {
		p = yard_pt(seat, t);
		svg_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
		    "fill=\"%s\" stroke=\"#999\"/>\n", p.x * CELL, p.y * CELL,
		    CELL * 0.45, s->tint[seat]);
	}
}

static void
draw_lane(struct svg *out, const struct seats *s, int seat, int len)
{
	struct pt	p;
	int		j;

	for (j = 0; j < len; j++)
		square(out, lane_pt(seat, j), s->tint[seat], "lane");
	/* The finish: the centre's corner at the lane's end. */
	p = cell_pt(6, 6, seat);
	square(out, p, seat < s->n ? s->col[seat]->fill : "#bdbdbd",
	    "finish");
}

static void
draw_board(struct svg *out, const struct game *g, const struct seats *s)
{
	const struct ludo_state	*st = &g->s.ludo;
	int			 seat;

	svg_printf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"#fafafa\" stroke=\"#333\" stroke-width=\"2\"/>\n",
	    BOARD, BOARD + LEGEND);
	quarter_rect(out, 0, 6, 6, 9, 9, "#eeeeee", "stroke=\"#555\"");
	for (seat = 0; seat < NSEATS; seat++) {
		draw_yard(out, s, seat, seat < s->n && st->turn == seat);
		draw_lane(out, s, seat, lane_len(&st->rules));
	}
	draw_track(out, s);
	svg_text(out, 7.5 * CELL, 7.5 * CELL, 12, "middle", "#555", "HOME");
}

/* ------------------------------------------------------------- tokens */

struct spot {
	struct pt	 p;		/* centre before stacking */
	int		 key;		/* tokens with one key share a square */
};

static struct spot
token_spot(const struct ludo_state *st, int seat, int t)
{
	int		 pos = st->pos[seat][t], last;
	struct spot	 sp;

	last = ludo_last_track(&st->rules);
	if (pos == LUDO_YARD) {
		sp.p = yard_pt(seat, t);
		sp.key = 1000 + seat * LUDO_TOKENS + t;
	} else if (pos <= last) {
		sp.p = square_pt((LUDO_ENTRY_STEP * seat + pos) %
		    LUDO_TRACK_CELLS);
		sp.key = (LUDO_ENTRY_STEP * seat + pos) % LUDO_TRACK_CELLS;
	} else if (pos < ludo_finish(&st->rules)) {
		sp.p = lane_pt(seat, pos - last - 1);
		sp.key = 100 + seat * 10 + pos - last - 1;
	} else {
		sp.p = cell_pt(6, 6, seat);
		sp.key = 200 + seat;
	}
	return sp;
}

static void
draw_token(struct svg *out, const struct game *g, const struct seats *s,
    int seat, int t, struct pt p, double r)
{
	const struct ludo_state	*st = &g->s.ludo;
	const char		*loc = ludo_location(&st->rules,
				    st->pos[seat][t]);
	char			 num[4];

	svg_add(out, "<g class=\"token\" data-player=\"");
	svg_esc(out, g->players[seat]);
	svg_printf(out, "\" data-token=\"%d\" data-loc=\"%s\" "
	    "data-pos=\"%d\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
	    "fill=\"%s\" stroke=\"#111\" stroke-width=\"2\"/>", t + 1,
	    loc != NULL ? loc : "?", st->pos[seat][t], p.x * CELL,
	    p.y * CELL, r, s->col[seat]->fill);
	snprintf(num, sizeof num, "%d", t + 1);
	svg_text(out, p.x * CELL, p.y * CELL, r * 1.1, "middle",
	    s->col[seat]->ink, num);
	svg_add(out, "</g>\n");
}

/* Tokens sharing a square sit side by side, in a grid of the square. */
static void
draw_tokens(struct svg *out, const struct game *g, const struct seats *s)
{
	struct spot	 sp[NSEATS * LUDO_TOKENS];
	int		 n = s->n * LUDO_TOKENS, i, j, k, cnt, side;
	double		 step;
	struct pt	 p;

	for (i = 0; i < n; i++)
		sp[i] = token_spot(&g->s.ludo, i / LUDO_TOKENS,
		    i % LUDO_TOKENS);
	for (i = 0; i < n; i++) {
		for (j = cnt = k = 0; j < n; j++)
			if (sp[j].key == sp[i].key) {
				cnt++;
				if (j < i)
					k++;
			}
		side = cnt <= 1 ? 1 : cnt <= 4 ? 2 : cnt <= 9 ? 3 : 4;
		step = 0.9 / side;
		p.x = sp[i].p.x + ((k % side) - (side - 1) / 2.0) * step;
		p.y = sp[i].p.y + ((k / side) - ((cnt - 1) / side) / 2.0) *
		    step;
		draw_token(out, g, s, i / LUDO_TOKENS, i % LUDO_TOKENS, p,
		    CELL * (side == 1 ? 0.36 : step * 0.45));
	}
}

/* ------------------------------------------------------------- legend */

static void
draw_legend(struct svg *out, const struct game *g, const struct seats *s)
{
	const struct ludo_state	*st = &g->s.ludo;
	char			 buf[GAME_ID_MAX + 48];
	int			 i, t, home;
	double			 x, y = BOARD + 24;

	snprintf(buf, sizeof buf, "%s rules, %lld move%s",
	    ludo_preset_name(st->rules.preset) != NULL ?
	    ludo_preset_name(st->rules.preset) : "?", (long long)g->moves,
	    g->moves == 1 ? "" : "s");
	svg_text(out, 12, y, 15, "start", "#222", buf);
	for (i = 0; i < s->n; i++) {
		x = 12 + i * (BOARD / NSEATS);
		for (t = home = 0; t < LUDO_TOKENS; t++)
			home += st->pos[i][t] == ludo_finish(&st->rules);
		svg_printf(out, "<circle class=\"key\" cx=\"%.1f\" "
		    "cy=\"%.1f\" r=\"9\" fill=\"%s\" stroke=\"#111\"/>\n",
		    x + 9, y + 32, s->col[i]->fill);
		snprintf(buf, sizeof buf, "%.16s%s %d/4%s", g->players[i],
		    strlen(g->players[i]) > 16 ? "\xe2\x80\xa6" : "", home,
		    st->winner == i ? " won" : st->turn == i ? " to move" :
		    "");
		svg_text(out, x + 24, y + 32, 13, "start", "#222", buf);
	}
}

int
render_svg_ludo(const struct game *g, struct svg *out)
{
	struct seats	 s;
	char		 title[GAME_ID_MAX + 64];

	if (g->kind != KIND_LUDO)
		return -1;
	seats_colour(g, &s);
	snprintf(title, sizeof title, "Ludo game %s after %lld moves", g->id,
	    (long long)g->moves);
	svg_begin(out, BOARD, BOARD + LEGEND, "ludo", title);
	draw_board(out, g, &s);
	draw_tokens(out, g, &s);
	draw_legend(out, g, &s);
	svg_end(out);
	return 0;
}
