/*
 * A game <-> its rows, the same for every backend: the bookkeeping and
 * options columns here, the kind's columns and rows through the kind
 * table.  A load rebuilds the kind's snapshot with the engine's own init
 * (from_row), so that every byte the rows do not hold is what the engine
 * would have put there, then lays the stored state over it.
 */
#include <string.h>

#include "store/core.h"

int
rows_game(const struct game *g, struct row_game *r)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL)
		return -1;
	/* Not zeroed: a turn fills two of these, and the columns a kind
	 * leaves out are the ones cols does not name. */
	r->cols = 0;
	r->kind = g->kind;
	r->created = g->created;
	r->updated = g->updated;
	r->stamp = g->stamp;
	r->seats = g->opts.secure != 0;
	r->dice = g->opts.server_dice != 0;
	r->turn_timeout = g->opts.timeout;
	rows_pending(g, r);
	k->to_row(g, r);
	return 0;
}

void
rows_pending(const struct game *g, struct row_game *r)
{
	r->id = g->id;
	r->id_len = strnlen(g->id, sizeof(g->id));
	r->moves = g->moves;
	r->deadline = g->opts.deadline;
	r->roll = g->opts.roll;
	r->roll_player = g->opts.roll != 0 ? g->opts.roll_player : 0;
}

void
rows_player(const struct game *g, int i, struct row_player *r, char *buf,
    size_t len)
{
	r->idx = i;
	r->name = game_player_name(g, i, buf, len);
	r->name_len = strlen(buf);
	r->has_bot = g->opts.bot[i] != 0;
	r->bot = r->has_bot ? g->opts.bot[i] - 1 : 0;
	r->seat = g->opts.secure ? g->opts.seat[i] : NULL;
	r->seat_len = g->opts.secure ? SEAT_HASH_LEN : 0;
}

int
rows_tokens(const struct game *g, struct row_token *rows)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	int				 np = game_nplayers(g);

	if (k == NULL || np < 1 || np > k->max_players)
		return -1;
	return k->tokens(g, rows);
}

int
rows_token_changes(const struct game *old, const struct game *new,
    struct token_changes *tc)
{
	struct row_token	 a[GAME_TOKEN_ROWS], b[GAME_TOKEN_ROWS];
	int			 i, n;

	tc->n = 0;
	if ((n = rows_tokens(old, a)) < 0 || rows_tokens(new, b) != n)
		return -1;
	for (i = 0; i < n; i++)
		if (a[i].pos != b[i].pos || a[i].points != b[i].points)
			tc->row[tc->n++] = b[i];
	return 0;
}

int
rows_cells(const struct game *g, struct row_cell *rows)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	return k != NULL && k->cells != NULL ? k->cells(g, rows) : 0;
}

/* Both lists are by cell: a merge. */
int
rows_cell_changes(const struct game *old, const struct game *new,
    struct row_cell *out)
{
	struct row_cell	 a[GAME_CELL_ROWS], b[GAME_CELL_ROWS];
	int		 i = 0, j = 0, n = 0, na, nb;

	na = old != NULL ? rows_cells(old, a) : 0;
	nb = rows_cells(new, b);
	while (i < na || j < nb) {
		if (j == nb || (i < na && a[i].cell < b[j].cell))
			out[n++] = (struct row_cell){ a[i++].cell, 0 };
		else if (i == na || b[j].cell < a[i].cell)
			out[n++] = b[j++];
		else {
			if (a[i].target != b[j].target)
				out[n++] = b[j];
			i++;
			j++;
		}
	}
	return n;
}

/* The options fixed at creation. */
static int
same_opts(const struct game_opts *a, const struct game_opts *b)
{
	return a->secure == b->secure && a->server_dice == b->server_dice &&
	    a->timeout == b->timeout &&
	    memcmp(a->bot, b->bot, sizeof(a->bot)) == 0 &&
	    memcmp(a->seat, b->seat, sizeof(a->seat)) == 0;
}

int
rows_same_rules(const struct game *a, const struct game *b)
{
	const struct game_kind_ops	*k = game_kind_of(a);

	return k != NULL && same_opts(&a->opts, &b->opts) &&
	    k->same_rules(a, b);
}

/* ------------------------------------------------------------- back */

/* A text column into a buffer; -1 if it is NULL or does not fit. */
static int
text_copy(char *dst, size_t size, const char *text, size_t len)
{
	if (text == NULL || len >= size)
		return -1;
	memcpy(dst, text, len);
	dst[len] = '\0';
	return 0;
}

/* The schema's checks keep the options in range, these keep a damaged
 * file from reaching the commands. */
int
rows_put_game(struct game *g, const struct row_game *r)
{
	const struct game_kind_ops	*k;
	struct game_opts		*o = &g->opts;

	g->kind = (enum game_kind)r->kind;
	g->moves = r->moves;
	g->created = r->created;
	g->updated = r->updated;
	g->stamp = r->stamp;
	if (text_copy(g->id, sizeof(g->id), r->id, r->id_len) != 0 ||
	    (k = game_kind_of(g)) == NULL || k->from_row(g, r) != 0)
		return -1;
	o->secure = r->seats != 0;
	o->server_dice = r->dice != 0;
	o->timeout = r->turn_timeout;
	if (o->timeout < 0)
		return -1;
	return rows_put_pending(g, r->deadline, r->roll, r->roll_player);
}

/* A Ludo player's name, a bot, a seat hash. */
int
rows_put_player(struct game *g, const struct row_player *r, int i)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL || (k->player_put != NULL &&
	    k->player_put(g, i, r->name, r->name_len) != 0))
		return -1;
	if (r->has_bot) {
		if (r->bot < 0 || r->bot > UINT8_MAX - 1)
			return -1;
		g->opts.bot[i] = (uint8_t)(r->bot + 1);
	}
	if (g->opts.secure) {
		if (r->seat == NULL || r->seat_len != SEAT_HASH_LEN)
			return -1;
		memcpy(g->opts.seat[i], r->seat, SEAT_HASH_LEN);
	}
	return 0;
}

int
rows_put_token(struct game *g, const struct row_token *r)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL || r->player < 0 || r->player >= game_nplayers(g))
		return -1;
	return k->token_put(g, r);
}

int
rows_put_cell(struct game *g, const struct row_cell *r)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k == NULL || k->cell_put == NULL)
		return -1;
	return k->cell_put(g, r);
}

/* NULL reads as 0; no roll_player without a roll. */
int
rows_put_pending(struct game *g, int64_t deadline, int64_t roll, int64_t rp)
{
	if (deadline < 0 || roll < 0 || roll > 6 || rp < 0 ||
	    rp >= game_nplayers(g))
		return -1;
	g->opts.deadline = deadline;
	g->opts.roll = (uint8_t)roll;
	g->opts.roll_player = roll != 0 ? (uint8_t)rp : 0;
	return 0;
}

int
rows_rebuild(struct game *c, const struct game *g, const struct row_game *r,
    const struct row_cell *cells, int n)
{
	struct row_token	 tokens[GAME_TOKEN_ROWS];
	struct row_player	 p;
	char			 name[PLAYER_NAME_MAX];
	int			 i, nt;

	memset(c, 0, sizeof(*c));
	if (rows_put_game(c, r) != 0 || game_nplayers(c) != r->nplayers)
		return -1;
	for (i = 0; i < r->nplayers; i++) {
		rows_player(g, i, &p, name, sizeof(name));
		if (rows_put_player(c, &p, i) != 0)
			return -1;
	}
	if ((nt = rows_tokens(g, tokens)) < 0)
		return -1;
	for (i = 0; i < nt; i++)
		if (rows_put_token(c, &tokens[i]) != 0)
			return -1;
	for (i = 0; i < n; i++)
		if (rows_put_cell(c, &cells[i]) != 0)
			return -1;
	return 0;
}
