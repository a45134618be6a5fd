/*
 * Snake & Ladder rules on a 10x10 board of 100 cells.
 *
 * Players start off the board at 0 and need exactly 100.  A jump (snake
 * or ladder) fires once, on the exact landing cell; the setup checks
 * below guarantee that a jump never lands on another trigger, so jumps
 * cannot chain and every position a player holds is a plain cell.
 */
#include <stddef.h>
#include <string.h>

#include "engine/engine.h"

int
snl_init(struct snl_state *st, int nplayers)
{
	if (st == NULL || nplayers < 1 || nplayers > SNL_MAX_PLAYERS)
		return -1;
	memset(st, 0, sizeof(*st));
	st->nplayers = nplayers;
	st->turn = 0;
	st->winner = -1;
	return 0;
}

static int
snl_valid(const struct snl_state *st)
{
	int	i;

	if (st == NULL || st->nplayers < 1 || st->nplayers > SNL_MAX_PLAYERS)
		return 0;
	if (st->winner == -1) {
		if (st->turn < 0 || st->turn >= st->nplayers)
			return 0;
	} else if (st->winner < 0 || st->winner >= st->nplayers ||
	    st->turn != -1)
		return 0;
	for (i = 0; i < st->nplayers; i++)
		if (st->pos[i] > SNL_CELLS)
			return 0;
	for (i = 0; i <= SNL_CELLS; i++)
		if (st->jump[i] > SNL_CELLS)
			return 0;
	return 1;
}

/* Whether some jump already ends on cell c. */
static int
snl_is_target(const struct snl_state *st, int c)
{
	int	i;

	for (i = 1; i < SNL_CELLS; i++)
		if (st->jump[i] == c)
			return 1;
	return 0;
}

/*
 * The checks shared by snakes and ladders, in the order a user would want
 * to hear them; bad_dir is the caller's message when the jump points the
 * wrong way (NULL when it does not).  Returns NULL when the jump is fine.
 */
static const char *
snl_check_jump(const struct snl_state *st, int from, int to,
    const char *bad_dir)
{
	if (st->started)
		return "the game has started: no more snakes or ladders";
	if (from < 1 || from >= SNL_CELLS)
		return "a snake head or ladder bottom must be on cells 1-99";
	if (to < 1 || to > SNL_CELLS)
		return "a snake tail or ladder top must be on cells 1-100";
	if (bad_dir != NULL)
		return bad_dir;
	if (st->jump[from] != 0)
		return "that cell already has a snake or ladder";
	if (st->jump[to] != 0)
		return "it would end on another snake or ladder (chain)";
	if (snl_is_target(st, from))
		return "another snake or ladder ends on that cell (chain)";
	return NULL;
}

static int
snl_add(struct snl_state *st, int from, int to, const char *bad_dir,
    const char **why)
{
	const char	*err;

	err = st == NULL ? "no game" : snl_check_jump(st, from, to, bad_dir);
	if (err != NULL) {
		if (why != NULL)
			*why = err;
		return -1;
	}
	st->jump[from] = (uint8_t)to;
	return 0;
}

int
snl_add_snake(struct snl_state *st, int head, int tail, const char **why)
{
	return snl_add(st, head, tail,
	    tail < head ? NULL : "a snake's tail must be below its head", why);
}

int
snl_add_ladder(struct snl_state *st, int bottom, int top, const char **why)
{
	return snl_add(st, bottom, top,
	    top > bottom ? NULL : "a ladder's top must be above its bottom",
	    why);
}

int
snl_roll(const struct snl_state *in, int value, struct snl_state *out,
    struct snl_result *res)
{
	struct snl_result	 r;
	int			 p;

	if (value < 1 || value > 6 || out == NULL || !snl_valid(in))
		return -1;
	if (out != in)
		memcpy(out, in, sizeof(*out));
	if (in->winner != -1) {
		r.outcome = SNL_GAME_OVER;
		r.player = -1;
		r.pos = -1;
	} else {
		r.player = in->turn;
		p = in->pos[r.player] + value;
		if (p > SNL_CELLS)
			p = in->pos[r.player];	/* overshoot: stay */
		else if (in->jump[p] != 0)
			p = in->jump[p];	/* once: targets are plain */
		out->pos[r.player] = (uint8_t)p;
		out->started = 1;
		r.pos = p;
		if (p == SNL_CELLS) {
			r.outcome = SNL_WON;
			out->winner = r.player;
			out->turn = -1;
		} else {
			r.outcome = SNL_MOVED;
			out->turn = (r.player + 1) % out->nplayers;
		}
	}
	if (res != NULL)
		*res = r;
	return 0;
}
