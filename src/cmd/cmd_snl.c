/*
 * Snake & Ladder commands: SNL.CREATE, SNL.SNAKE, SNL.LADDER, SNL.ROLL,
 * SNL.STATE, and the Snake & Ladder side of REPLAY/AUDIT.  Players are
 * named P1..Pn; a jump is setup (no history row), a roll is a move.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

void
snl_create_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game	g;
	int64_t		n;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, SNL_MAX_PLAYERS, "players", &n) == -1)
		return;
	memset(&g, 0, sizeof(g));
	if (snl_init(&g.s.snl, (int)n) == -1) {
		reply_error(out, "BADARG", "invalid number of players");
		return;
	}
	memcpy(g.id, args->argv[1], args->argl[1] + 1);
	g.kind = KIND_SNL;
	cmd_create_game(env, out, &g);
}

struct snl_jump_arg {
	int	snake;		/* 1 snake, 0 ladder */
	int	from;
	int	to;
};

static enum turn_outcome
snl_jump_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct snl_jump_arg	*ja = arg;
	const char		*why = NULL;
	int			 rc;

	(void)mv;
	if (old->s.snl.started) {
		reply_error(out, "STATE", "game '%s' has started: no more %s",
		    old->id, ja->snake ? "snakes" : "ladders");
		return TURN_NONE;
	}
	if (ja->snake)
		rc = snl_add_snake(&new->s.snl, ja->from, ja->to, &why);
	else
		rc = snl_add_ladder(&new->s.snl, ja->from, ja->to, &why);
	if (rc == -1) {
		reply_error(out, "BADARG", "%s", why != NULL ? why :
		    "invalid jump");
		return TURN_NONE;
	}
	return TURN_SETUP;
}

static void
snl_jump_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out, int snake)
{
	struct snl_jump_arg	 ja;
	int64_t			 from, to;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, SNL_CELLS, snake ? "head" : "bottom",
	    &from) == -1 ||
	    arg_int(out, args, 3, 1, SNL_CELLS, snake ? "tail" : "top",
	    &to) == -1)
		return;
	ja.snake = snake;
	ja.from = (int)from;
	ja.to = (int)to;
	cmd_transact(env, out, args->argv[1], KIND_SNL, NULL, snl_jump_step,
	    &ja);
}

void
snl_snake_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	snl_jump_cmd(env, args, out, 1);
}

void
snl_ladder_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	snl_jump_cmd(env, args, out, 0);
}

/* The reply text of a roll: "P<i> <pos>" or "P<i> WINS". */
static void
snl_result_text(const struct snl_result *r, char *buf, size_t len)
{
	if (r->outcome == SNL_WON)
		snprintf(buf, len, "P%d WINS", r->player + 1);
	else
		snprintf(buf, len, "P%d %d", r->player + 1, r->pos);
}

static enum turn_outcome
snl_roll_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	const char		*action = arg;
	struct snl_result	 r;

	if (snl_roll(&old->s.snl, action[0] - '0', &new->s.snl, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER) {
		reply_status(out, "GAME_OVER");
		return TURN_NONE;
	}
	snprintf(mv->player, sizeof(mv->player), "P%d", r.player + 1);
	snprintf(mv->action, sizeof(mv->action), "%s", action);
	snl_result_text(&r, mv->result, sizeof(mv->result));
	return TURN_MOVE;
}

void
snl_roll_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct turn_req	 req;
	char		 action[ACTION_MAX + 1];
	int64_t		 value;
	int		 argc;

	if (arg_at(out, args, 3, 3, &argc, &req.at) == -1 ||
	    arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, 6, "value", &value) == -1)
		return;
	snprintf(action, sizeof(action), "%d", (int)value);
	req.player = NULL;	/* whoever's turn it was at seq */
	req.action = action;
	cmd_transact(env, out, args->argv[1], KIND_SNL, &req, snl_roll_step,
	    action);
}

void
snl_state_reply(const struct game *g, struct reply *out)
{
	const struct snl_state	*st = &g->s.snl;
	char			 buf[64];
	int			 i;

	reply_array(out);
	if (st->turn >= 0 && st->turn < st->nplayers)
		snprintf(buf, sizeof(buf), "turn,P%d", st->turn + 1);
	else
		snprintf(buf, sizeof(buf), "turn,NONE");
	reply_status(reply_add(out), buf);
	if (st->winner >= 0 && st->winner < st->nplayers)
		snprintf(buf, sizeof(buf), "winner,P%d", st->winner + 1);
	else
		snprintf(buf, sizeof(buf), "winner,NONE");
	reply_status(reply_add(out), buf);
	for (i = 0; i < st->nplayers && i < SNL_MAX_PLAYERS; i++) {
		snprintf(buf, sizeof(buf), "P%d,%d", i + 1, st->pos[i]);
		reply_status(reply_add(out), buf);
	}
	for (i = 1; i <= SNL_CELLS; i++) {
		if (st->jump[i] == 0)
			continue;
		snprintf(buf, sizeof(buf), "%s,%d,%d",
		    st->jump[i] < i ? "snake" : "ladder", i, st->jump[i]);
		reply_status(reply_add(out), buf);
	}
}

void
snl_state_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game	g;

	if (arg_id(out, args, 1, "game") == -1 ||
	    cmd_read_game(env, out, args->argv[1], KIND_SNL, &g) == -1)
		return;
	snl_state_reply(&g, out);
}

/* ------------------------------------------------------------ replay */

int
snl_replay_init(const struct game *g, struct game *out)
{
	if (snl_init(&out->s.snl, g->s.snl.nplayers) == -1)
		return -1;
	memcpy(out->s.snl.jump, g->s.snl.jump, sizeof(out->s.snl.jump));
	return 0;
}

int
snl_replay_move(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	struct snl_state	next;
	struct snl_result	r;
	char			player[16], result[RESULT_MAX + 1];
	const char		*a = mv->action;

	if (strlen(a) != 1 || a[0] < '1' || a[0] > '6') {
		snprintf(why, len, "bad action '%s'", a);
		return -1;
	}
	if (snl_roll(&g->s.snl, a[0] - '0', &next, &r) == -1 ||
	    r.outcome == SNL_GAME_OVER) {
		snprintf(why, len, "roll after the end of the game");
		return -1;
	}
	snprintf(player, sizeof(player), "P%d", r.player + 1);
	snl_result_text(&r, result, sizeof(result));
	if (strcmp(player, mv->player) != 0 ||
	    strcmp(result, mv->result) != 0) {
		snprintf(why, len, "%s rolled %s: %s, stored %s %s", player,
		    a, result, mv->player, mv->result);
		return -1;
	}
	g->s.snl = next;
	return 0;
}

int
snl_differs(const struct game *a, const struct game *b)
{
	const struct snl_state	*x = &a->s.snl, *y = &b->s.snl;

	if (x->nplayers != y->nplayers || x->turn != y->turn ||
	    x->winner != y->winner || x->started != y->started ||
	    x->nplayers < 0 || x->nplayers > SNL_MAX_PLAYERS)
		return 1;
	return memcmp(x->pos, y->pos, (size_t)x->nplayers) != 0 ||
	    memcmp(x->jump, y->jump, sizeof(x->jump)) != 0;
}
