/*
 * `ludus watch` and `ludus show`.  Both only send ordinary commands
 * (GAME.WATCH, GAME.INFO, <KIND>.STATE) and read the same reply values
 * every command returns, so they work against any backend and need
 * nothing the protocol does not already say.  Boards are drawn from the
 * STATE strings alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "engine/engine.h"
#include "util/util.h"

#define ENTRY_MAX	128	/* one "key,value,..." state entry */
#define FIELDS_MAX	4

/* ----------------------------------------------------------- helpers */

/* The text of a scalar reply (integers printed into buf). */
static const char *
rtext(const struct reply *r, char *buf, size_t len)
{
	switch (r->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
	case REPLY_BULK:
		return r->str != NULL ? r->str : "";
	case REPLY_INT:
		snprintf(buf, len, "%lld", r->integer);
		return buf;
	case REPLY_NULL:
		return "(nil)";
	default:
		return "";
	}
}

/* Splits "a,b,c" into at most max fields, copied into buf. */
static int
split_fields(const struct reply *r, char *buf, size_t len, char **f, int max)
{
	char	 tmp[32], *p;
	int	 n = 0;

	snprintf(buf, len, "%s", rtext(r, tmp, sizeof tmp));
	p = buf;
	f[n++] = p;
	while (n < max && (p = strchr(p, ',')) != NULL) {
		*p++ = '\0';
		f[n++] = p;
	}
	return n;
}

/* The value of "key,value" in an array of such entries; NULL if absent. */
static const char *
find_key(const struct reply *arr, const char *key)
{
	size_t	 i, klen = strlen(key);

	if (arr->type != REPLY_ARRAY)
		return NULL;
	for (i = 0; i < arr->n; i++) {
		const struct reply *e = &arr->elem[i];
		if ((e->type == REPLY_STATUS || e->type == REPLY_BULK) &&
		    e->len > klen && strncmp(e->str, key, klen) == 0 &&
		    e->str[klen] == ',')
			return e->str + klen + 1;
	}
	return NULL;
}

static int
to_int(const char *s, int min, int max, int *out)
{
	const char	*errstr;
	int64_t		 v;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) == -1)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * Runs one command given as words.  0 with out set, or 1 once the failure
 * is printed: an error reply on stdout (as the CLI prints every error),
 * a lost connection on stderr.
 */
static int
run(struct backend *be, struct reply *out, int argc, const char *const *words)
{
	char	*argv[8];
	size_t	 argl[8];
	int	 i;

	for (i = 0; i < argc && i < 8; i++) {
		argv[i] = (char *)(uintptr_t)words[i];
		argl[i] = strlen(words[i]);
	}
	memset(out, 0, sizeof *out);
	if (be->exec(be, i, argv, argl, out) == -1) {
		fprintf(stderr, "ludus: %s\n", out->str != NULL ? out->str :
		    "connection lost");
		reply_free(out);
		return 1;
	}
	if (out->type == REPLY_ERROR) {
		printf("%s\n", out->str);
		reply_free(out);
		return 1;
	}
	return 0;
}

/* Prints s, in the SGR colour sgr when colours are on. */
static void
paint(int color, const char *sgr, const char *s)
{
	if (color && sgr != NULL)
		printf("\033[%sm%s\033[0m", sgr, s);
	else
		fputs(s, stdout);
}

static void
spaces(int n)
{
	while (n-- > 0)
		putchar(' ');
}

static const char *const player_sgr[] = {
	"1;31", "1;32", "1;33", "1;34", "1;35", "1;36", "1;91", "1;92"
};
#define PLAYER_SGR(i)	player_sgr[(i) % (int)(sizeof player_sgr / \
			    sizeof player_sgr[0])]

/* ------------------------------------------------------------- watch */

int
cli_print_move(const struct reply *r)
{
	char	 b[4][32];
	size_t	 i;

	if ((r->type != REPLY_ARRAY && r->type != REPLY_PUSH) || r->n < 6 ||
	    !strcaseeq(rtext(&r->elem[0], b[0], sizeof b[0]), "move"))
		return 0;
	for (i = 2; i < 6; i++)
		printf("%s%s", rtext(&r->elem[i], b[i - 2], sizeof b[0]),
		    i < 5 ? " " : "\n");
	fflush(stdout);
	return 1;
}

/* ludus watch's events: the moves, and an error the server sends. */
static void
watch_event(void *arg, const struct reply *ev)
{
	(void)arg;
	if (ev->type == REPLY_ERROR) {
		printf("%s\n", ev->str);
		fflush(stdout);
	} else
		(void)cli_print_move(ev);
}

int
cli_watch(struct backend *be, const char *game, const char *fromseq)
{
	const char	*words[] = { "GAME.WATCH", game, "FROM", fromseq };
	struct reply	 r;

	be->on_event = watch_event;
	be->event_arg = NULL;
	if (run(be, &r, fromseq != NULL ? 4 : 2, words) != 0)
		return 1;
	reply_free(&r);
	if (be->event_fd(be) == -1)
		return 1;	/* nothing can come: not a network backend */
	/* Only an interrupt or a lost connection ends it. */
	memset(&r, 0, sizeof r);
	while (be->pump(be, -1, &r) == 0)
		;
	fprintf(stderr, "ludus: watch %s: %s\n", game,
	    r.str != NULL ? r.str : "connection lost");
	reply_free(&r);
	return 1;
}

/* -------------------------------------------------------------- Ludo */

enum { LOC_YARD, LOC_TRACK, LOC_HOME, LOC_FINISHED };

struct ludo_view {
	int	 n;
	char	 name[LUDO_MAX_PLAYERS][64];
	int	 loc[LUDO_MAX_PLAYERS][LUDO_TOKENS];
	int	 pos[LUDO_MAX_PLAYERS][LUDO_TOKENS];
};

static int
show_ludo_player(struct ludo_view *v, const char *name)
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

/* Reads "player,token,LOCATION,position" entries from LUDO.STATE. */
static void
show_ludo_read(const struct reply *st, struct ludo_view *v)
{
	static const char *const locs[] = { "YARD", "TRACK", "HOME",
	    "FINISHED" };
	char	 buf[ENTRY_MAX], *f[FIELDS_MAX];
	size_t	 i;
	int	 p, t, l, pos;

	memset(v, 0, sizeof *v);
	for (i = 0; i < st->n; i++) {
		if (split_fields(&st->elem[i], buf, sizeof buf, f,
		    FIELDS_MAX) != 4 || to_int(f[1], 1, LUDO_TOKENS, &t) ||
		    to_int(f[3], -1, 99, &pos))
			continue;
		for (l = 0; l < 4 && strcmp(f[2], locs[l]) != 0; l++)
			;
		if (l == 4 || (p = show_ludo_player(v, f[0])) == -1)
			continue;
		v->loc[p][t - 1] = l;
		v->pos[p][t - 1] = pos;
	}
}

static int
show_ludo_safe(int cell)
{
	return cell % 13 == 0 || cell % 13 == 8;
}

/* The absolute track cell of a token, -1 when it is not on the track. */
static int
show_ludo_cell(const struct ludo_view *v, int p, int t)
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
show_ludo_draw_cell(const struct ludo_view *v, int cell, int color)
{
	char	 text[LUDO_MAX_PLAYERS * LUDO_TOKENS][16];
	int	 who[LUDO_MAX_PLAYERS * LUDO_TOKENS];
	int	 count[LUDO_MAX_PLAYERS] = { 0 };
	int	 n = 0, width = 0, p, t, i, style;

	for (p = 0; p < v->n; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (show_ludo_cell(v, p, t) == cell)
				count[p]++;
	for (style = 0; style < 3; style++) {
		n = width = 0;
		for (p = 0; p < v->n; p++) {
			if (count[p] == 0)
				continue;
			for (t = 0; t < LUDO_TOKENS; t++) {
				if (style == 0 && show_ludo_cell(v, p, t) != cell)
					continue;
				if (style == 0)
					snprintf(text[n], sizeof text[n], "%c%d", 'A' + p,
					    t + 1);
				else if (style == 1 && count[p] > 1)
					snprintf(text[n], sizeof text[n], "%c%d", 'A' + p,
					    count[p]);
				else
					snprintf(text[n], sizeof text[n], "%c", 'A' + p);
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
		spaces(3);
		paint(color, "2", ".");
		return;
	}
	spaces(4 - width);
	for (i = 0; i < n; i++)
		paint(color, PLAYER_SGR(who[i]), text[i]);
}

/* The tokens of player p at location l, as "1 3" or "-". */
static void
show_ludo_list(const struct ludo_view *v, int p, int l, const char *what)
{
	int	 t, any = 0;

	printf(" | %s", what);
	for (t = 0; t < LUDO_TOKENS; t++) {
		if (v->loc[p][t] != l)
			continue;
		any = 1;
		if (l == LOC_TRACK)
			printf(" %d@cell %d", t + 1, show_ludo_cell(v, p, t));
		else if (l == LOC_HOME)
			printf(" %d@step %d", t + 1, v->pos[p][t]);
		else
			printf(" %d", t + 1);
	}
	if (!any)
		printf(" -");
}

static void
show_ludo_draw(const struct reply *st, int color)
{
	struct ludo_view v;
	char		 name[4];
	int		 row, c, cell, p;

	show_ludo_read(st, &v);
	printf("track (52 cells, * safe, the ring runs row after row back to "
	    "0)\n");
	for (row = 0; row < 4; row++) {
		for (c = 0; c < 13; c++) {
			cell = row * 13 + c;
			printf("%4d", cell);
			if (show_ludo_safe(cell))
				paint(color, "1", "*");
			else
				putchar(' ');
		}
		putchar('\n');
		for (c = 0; c < 13; c++) {
			show_ludo_draw_cell(&v, row * 13 + c, color);
			putchar(' ');
		}
		putchar('\n');
	}
	putchar('\n');
	for (p = 0; p < v.n; p++) {
		snprintf(name, sizeof name, "%c", 'A' + p);
		paint(color, PLAYER_SGR(p), name);
		printf(" %s (enters at %d)", v.name[p], LUDO_ENTRY_STEP * p);
		show_ludo_list(&v, p, LOC_YARD, "yard");
		show_ludo_list(&v, p, LOC_TRACK, "track");
		show_ludo_list(&v, p, LOC_HOME, "home lane");
		show_ludo_list(&v, p, LOC_FINISHED, "finished");
		putchar('\n');
	}
}

/* ---------------------------------------------------- Snake & Ladder */

#define SNL_COLS	10
#define SNL_CELL_W	7

struct snl_view {
	int	 n;
	int	 pos[SNL_MAX_PLAYERS];
	int	 jump[SNL_CELLS + 1];
};

static void
show_snl_read(const struct reply *st, struct snl_view *v)
{
	char	 buf[ENTRY_MAX], *f[FIELDS_MAX];
	size_t	 i;
	int	 nf, a, b;

	memset(v, 0, sizeof *v);
	for (i = 0; i < st->n; i++) {
		nf = split_fields(&st->elem[i], buf, sizeof buf, f, FIELDS_MAX);
		if (nf == 3 && (strcmp(f[0], "snake") == 0 ||
		    strcmp(f[0], "ladder") == 0) &&
		    to_int(f[1], 1, SNL_CELLS, &a) == 0 &&
		    to_int(f[2], 1, SNL_CELLS, &b) == 0)
			v->jump[a] = b;
		else if (nf == 2 && f[0][0] == 'P' &&
		    to_int(f[0] + 1, 1, SNL_MAX_PLAYERS, &a) == 0 &&
		    to_int(f[1], 0, SNL_CELLS, &b) == 0) {
			v->pos[a - 1] = b;
			if (a > v->n)
				v->n = a;
		}
	}
}

/* The cell at a grid row (0 = bottom) and column: 1 bottom-left,
 * rows alternating direction, 100 top-left. */
static int
show_snl_cell(int row, int col)
{
	return row * SNL_COLS + (row % 2 == 0 ? col + 1 : SNL_COLS - col);
}

static void
show_snl_draw_jump(const struct snl_view *v, int cell, int color)
{
	char	 num[16], mark[16];

	snprintf(num, sizeof num, "%3d", cell);
	paint(color, "2", num);
	if (v->jump[cell] == 0) {
		spaces(SNL_CELL_W - 3);
		return;
	}
	snprintf(mark, sizeof mark, "%c%d", v->jump[cell] > cell ? '^' : 'v',
	    v->jump[cell]);
	paint(color, v->jump[cell] > cell ? "32" : "31", mark);
	spaces(SNL_CELL_W - 3 - (int)strlen(mark));
}

/* The players on a cell: "P1 P2", or "P1 +3" when they do not fit. */
static void
show_snl_draw_players(const struct snl_view *v, int cell, int color)
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
		spaces(SNL_CELL_W);
		return;
	}
	if (width <= SNL_CELL_W) {
		for (p = first; p < v->n; p++) {
			if (v->pos[p] != cell)
				continue;
			if (p != first)
				putchar(' ');
			snprintf(w, sizeof w, "P%d", p + 1);
			paint(color, PLAYER_SGR(p), w);
		}
		spaces(SNL_CELL_W - width);
		return;
	}
	snprintf(w, sizeof w, "P%d", first + 1);
	paint(color, PLAYER_SGR(first), w);
	width = (int)strlen(w);
	width += printf(" +%d", n - 1);
	spaces(SNL_CELL_W - width);
}

static void
show_snl_rule(void)
{
	int	 c;

	for (c = 0; c < SNL_COLS; c++)
		printf("%s%s", "-------", c < SNL_COLS - 1 ? "+" : "\n");
}

static void
show_snl_list_jumps(const struct snl_view *v, int ladders, int color)
{
	char	 buf[16];
	int	 c, any = 0;

	printf("%s:", ladders ? "ladders" : "snakes");
	for (c = 1; c <= SNL_CELLS; c++) {
		if (v->jump[c] == 0 || (v->jump[c] > c) != ladders)
			continue;
		snprintf(buf, sizeof buf, "%d->%d", c, v->jump[c]);
		putchar(' ');
		paint(color, ladders ? "32" : "31", buf);
		any = 1;
	}
	printf("%s\n", any ? "" : " none");
}

static void
show_snl_draw(const struct reply *st, int color)
{
	struct snl_view	 v;
	char		 w[16];
	int		 row, col, p, any = 0;

	show_snl_read(st, &v);
	show_snl_rule();
	for (row = SNL_COLS - 1; row >= 0; row--) {
		for (col = 0; col < SNL_COLS; col++) {
			show_snl_draw_jump(&v, show_snl_cell(row, col), color);
			putchar(col < SNL_COLS - 1 ? '|' : '\n');
		}
		for (col = 0; col < SNL_COLS; col++) {
			show_snl_draw_players(&v, show_snl_cell(row, col), color);
			putchar(col < SNL_COLS - 1 ? '|' : '\n');
		}
		show_snl_rule();
	}
	printf("start:");
	for (p = 0; p < v.n; p++) {
		if (v.pos[p] != 0)
			continue;
		snprintf(w, sizeof w, " P%d", p + 1);
		paint(color, PLAYER_SGR(p), w);
		any = 1;
	}
	printf("%s\n", any ? "" : " none");
	show_snl_list_jumps(&v, 0, color);
	show_snl_list_jumps(&v, 1, color);
}

/* --------------------------------------------------------- DandyLand */

#define DANDY_CELL_W	4

struct dandy_view {
	int	 n;
	int	 pos[DANDY_MAX_PLAYERS];	/* 1-based, 0 off */
	int	 points[DANDY_MAX_PLAYERS];
};

static void
show_dandy_read(const struct reply *st, struct dandy_view *v)
{
	char	 buf[ENTRY_MAX], *f[FIELDS_MAX];
	size_t	 i;
	int	 p, pos, pts;

	memset(v, 0, sizeof *v);
	for (i = 0; i < st->n; i++) {
		if (split_fields(&st->elem[i], buf, sizeof buf, f,
		    FIELDS_MAX) != 3 || f[0][0] != 'P' ||
		    to_int(f[0] + 1, 1, DANDY_MAX_PLAYERS, &p) == -1 ||
		    to_int(f[2], 0, INT32_MAX, &pts) == -1)
			continue;
		if (strcmp(f[1], "OFF") == 0)
			pos = 0;
		else if (to_int(f[1], 1, DANDY_BOARD_MAX, &pos) == -1)
			continue;
		v->pos[p - 1] = pos;
		v->points[p - 1] = pts;
		if (p > v->n)
			v->n = p;
	}
}

/*
 * Where square k (0-based) of an n-square ring sits on a grid: along the
 * top left to right, down the right side, back along the bottom and up
 * the left side.  Sets the grid size; map[row][col] is k, or -1.
 */
static void
show_dandy_layout(int n, int map[DANDY_BOARD_MAX][DANDY_BOARD_MAX], int *rowsp,
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
show_dandy_draw_square(const struct dandy_view *v, const char *board, int k,
    int line, int color)
{
	char	 w[16];
	int	 p;

	if (k < 0) {
		spaces(DANDY_CELL_W + 1);
		return;
	}
	if (line == 0) {
		snprintf(w, sizeof w, "%2d", k + 1);
		paint(color, "2", w);
		snprintf(w, sizeof w, ":%c", board[k]);
		fputs(w, stdout);
		spaces(DANDY_CELL_W - 4 + 1);
		return;
	}
	/* A move onto an occupied square bumps: one player at most. */
	for (p = 0; p < v->n; p++)
		if (v->pos[p] == k + 1)
			break;
	if (p == v->n) {
		spaces(DANDY_CELL_W + 1);
		return;
	}
	snprintf(w, sizeof w, " P%d", p + 1);
	paint(color, PLAYER_SGR(p), w);
	spaces(DANDY_CELL_W + 1 - (int)strlen(w));
}

static void
show_dandy_draw(const struct reply *info, const struct reply *st, int color)
{
	static int	 map[DANDY_BOARD_MAX][DANDY_BOARD_MAX];
	struct dandy_view v;
	const char	*board;
	char		 w[16];
	int		 n, rows, cols, r, c, p, line, any = 0;

	show_dandy_read(st, &v);
	if ((board = find_key(info, "board")) == NULL)
		board = find_key(st, "board");
	n = board != NULL ? (int)strlen(board) : 0;
	if (n >= 1 && n <= DANDY_BOARD_MAX) {
		printf("ring of %d squares, entered at 1; a point for each "
		    "pass from %d to 1\n", n, n);
		show_dandy_layout(n, map, &rows, &cols);
		for (r = 0; r < rows; r++)
			for (line = 0; line < 2; line++) {
				for (c = 0; c < cols; c++)
					show_dandy_draw_square(&v, board,
					    map[r][c], line, color);
				putchar('\n');
			}
	} else {
		/* Not every server says the board; positions still help. */
		printf("(the board layout is not known)\n");
		for (p = 0; p < v.n; p++)
			if (v.pos[p] != 0)
				printf("P%d on square %d\n", p + 1, v.pos[p]);
	}
	printf("off the board:");
	for (p = 0; p < v.n; p++) {
		if (v.pos[p] != 0)
			continue;
		snprintf(w, sizeof w, " P%d", p + 1);
		paint(color, PLAYER_SGR(p), w);
		any = 1;
	}
	printf("%s\npoints:", any ? "" : " none");
	for (p = 0; p < v.n; p++) {
		snprintf(w, sizeof w, " P%d", p + 1);
		paint(color, PLAYER_SGR(p), w);
		printf(" %d%s", v.points[p], p < v.n - 1 ? "," : "");
	}
	putchar('\n');
}

/* -------------------------------------------------------------- show */

int
cli_show(struct backend *be, const char *game, int color)
{
	static const char *const kinds[][3] = {
		{ "ludo", "LUDO.STATE", "Ludo" },
		{ "snl", "SNL.STATE", "Snake & Ladder" },
		{ "dandy", "DANDY.STATE", "DandyLand" },
	};
	const char	*info_cmd[] = { "GAME.INFO", game }, *state_cmd[2];
	const char	*kind, *v;
	struct reply	 info, st;
	size_t		 k;

	if (run(be, &info, 2, info_cmd) != 0)
		return 1;
	if ((kind = find_key(&info, "kind")) == NULL)
		kind = "?";
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (strcmp(kind, kinds[k][0]) == 0)
			break;
	if (k == sizeof kinds / sizeof kinds[0]) {
		fprintf(stderr, "ludus: game '%s' is of unknown kind '%s'\n",
		    game, kind);
		reply_free(&info);
		return 1;
	}
	state_cmd[0] = kinds[k][1];
	state_cmd[1] = game;
	if (run(be, &st, 2, state_cmd) != 0) {
		reply_free(&info);
		return 1;
	}
	paint(color, "1", kinds[k][2]);
	printf(" %s:", game);
	if ((v = find_key(&info, "players")) != NULL)
		printf(" %s players,", v);
	if ((v = find_key(&info, "moves")) != NULL)
		printf(" %s moves,", v);
	printf(" turn %s", (v = find_key(&info, "turn")) != NULL ? v : "?");
	if ((v = find_key(&info, "winner")) != NULL && strcmp(v, "NONE") != 0)
		printf(", winner %s", v);
	printf("\n\n");
	if (st.type == REPLY_ARRAY) {
		if (k == 0)
			show_ludo_draw(&st, color);
		else if (k == 1)
			show_snl_draw(&st, color);
		else
			show_dandy_draw(&info, &st, color);
	}
	fflush(stdout);
	reply_free(&info);
	reply_free(&st);
	return 0;
}
