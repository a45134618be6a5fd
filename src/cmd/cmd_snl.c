/*
 * Snake & Ladder commands: SNL.CREATE, SNL.SNAKE, SNL.LADDER, SNL.ROLL
 * and SNL.STATE (the rest is its kind, src/game/kind_snl.c).  Players are
 * named P1..Pn; a jump is setup (no history row), a roll is a move.
 * A dice=server game rolls with SNL.ROLL id and no value.  Snakes and
 * ladders may also come with the create (snakes=99:2,... ladders=4:98,...),
 * for games whose first player is a bot: it rolls, and so closes the
 * setup, as soon as the game exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "game/kinds.h"
#include "util/util.h"

/* One "from:to" pair of snakes= or ladders=; 0, or -1 with a reply. */
static int
jump_pair(struct reply *out, struct snl_state *st, int snake,
    const char *p, size_t len)
{
	char		 buf[16], *colon;
	const char	*why = NULL, *errstr;
	int64_t		 from, to;
	int		 rc;

	if (len >= sizeof(buf))
		goto bad;
	memcpy(buf, p, len);
	buf[len] = '\0';
	if ((colon = strchr(buf, ':')) == NULL)
		goto bad;
	*colon = '\0';
	if (parse_int64(buf, 1, SNL_CELLS, &from, &errstr) != 0 ||
	    parse_int64(colon + 1, 1, SNL_CELLS, &to, &errstr) != 0)
		goto bad;
	if (snake)
		rc = snl_add_snake(st, (int)from, (int)to, &why);
	else
		rc = snl_add_ladder(st, (int)from, (int)to, &why);
	if (rc == -1) {
		reply_error(out, "BADARG", "%s", why != NULL ? why :
		    "invalid jump");
		return -1;
	}
	return 0;
bad:
	reply_error(out, "BADARG", "%s must be %s,...", snake ? "snakes" :
	    "ladders", snake ? "head:tail" : "bottom:top");
	return -1;
}

/* snakes= and ladders=: o->data is 1 for snakes.  Added to the board
 * being built as they come, so the engine's errors come in argv order. */
static int
jumps_option(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	const char	*comma;

	(void)len;
	for (;;) {
		comma = strchr(v, ',');
		len = comma != NULL ? (size_t)(comma - v) : strlen(v);
		if (jump_pair(out, &b->game.s.snl, (int)o->data, v, len) == -1)
			return -1;
		if (comma == NULL)
			return 0;
		v = comma + 1;
	}
}

/* SNL.CREATE id players [option=value ...]: key=value words only after
 * the players (another word is the arity error). */
enum { CREATE_ID, CREATE_PLAYERS };

static int
create_init(struct cmd_parsed *p, struct reply *out)
{
	if (snl_init(&p->build->game.s.snl, (int)p->v[CREATE_PLAYERS].i) ==
	    0)
		return 0;
	reply_error(out, "BADARG", "invalid number of players");
	return -1;
}

static const struct cmd_arg create_args[] = {
	[CREATE_ID] = CMD_ARG_GAME,
	[CREATE_PLAYERS] = CMD_ARG_INT("players", 1, SNL_MAX_PLAYERS),
};
static const struct cmd_opt create_opts[] = {
	CMD_OPT_SEATS,
	CMD_OPT_DICE(0),
	CMD_OPT_BOTS("P<i>:<strategy>,..."),
	CMD_OPT_TIMEOUT,
	{ "snakes", "<head>:<tail>,...", 0, jumps_option, 1 },
	{ "ladders", "<bottom>:<top>,...", 0, jumps_option, 0 },
};

static void
snl_create_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	if (cmd_create_apply(env, p, out) == -1)
		return;
	cmd_create(env, out, &p->build->game);
}

const struct cmd_def cmd_snl_create_entry = { .name = "SNL.CREATE",
    .spec = CMD_ARGS_OPTS(create_args, create_opts, 0, create_init),
    .flags = CMD_WRITE, .target = CMD_TARGET_CREATE(CREATE_ID, KIND_SNL),
    .proc = snl_create_cmd };

/* SNL.STATE id */
const struct cmd_def cmd_snl_state_entry = { .name = "SNL.STATE",
    .spec = &cmd_game_id_args, .flags = CMD_READONLY,
    .target = CMD_TARGET(0, KIND_SNL), .proc = cmd_game_state };

struct jump_arg {
	int			  snake;	/* 1 snake, 0 ladder */
	int			  from;
	int			  to;
	const struct cmd_session *session;
};

static enum turn_outcome
jump_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct jump_arg	*ja = arg;
	const char		*why = NULL;
	int			 rc;

	(void)mv;
	/* The board of a secure game is its players' to set up. */
	if (old->opts.secure && !cmd_session_holds(ja->session, old->id, -1)) {
		reply_error(out, "NOSEAT", "setting up game '%s' needs one of "
		    "its seats (%s)", old->id, cmd_seat_how(ja->session));
		return TURN_NONE;
	}
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

/* SNL.SNAKE id head tail, SNL.LADDER id bottom top */
enum { JUMP_ID, JUMP_FROM, JUMP_TO };
static const struct cmd_arg snake_args[] = {
	[JUMP_ID] = CMD_ARG_GAME,
	[JUMP_FROM] = CMD_ARG_INT("head", 1, SNL_CELLS),
	[JUMP_TO] = CMD_ARG_INT("tail", 1, SNL_CELLS),
};
static const struct cmd_arg ladder_args[] = {
	[JUMP_ID] = CMD_ARG_GAME,
	[JUMP_FROM] = CMD_ARG_INT("bottom", 1, SNL_CELLS),
	[JUMP_TO] = CMD_ARG_INT("top", 1, SNL_CELLS),
};

extern const struct cmd_def cmd_snl_snake_entry;

/* Which of the two it is is the request's entry. */
static void
jump_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct jump_arg	 ja;

	ja.snake = p->def == &cmd_snl_snake_entry;
	ja.from = (int)p->v[JUMP_FROM].i;
	ja.to = (int)p->v[JUMP_TO].i;
	ja.session = p->args->session;
	cmd_transact(env, p, out, NULL, jump_step, &ja);
}

const struct cmd_def cmd_snl_snake_entry = { .name = "SNL.SNAKE",
    .spec = CMD_ARGS(snake_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(JUMP_ID, KIND_SNL), .proc = jump_cmd };

const struct cmd_def cmd_snl_ladder_entry = { .name = "SNL.LADDER",
    .spec = CMD_ARGS(ladder_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(JUMP_ID, KIND_SNL), .proc = jump_cmd };

struct roll_arg {
	int			  value;	/* 0: the server rolls */
	const struct cmd_session *session;
};

static enum turn_outcome
roll_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct roll_arg	*ra = arg;
	int			 turn = game_turn(old);

	if (old->opts.server_dice && ra->value != 0) {
		reply_error(out, "BADARG", "game '%s' rolls its own dice: "
		    "SNL.ROLL id with no value", old->id);
		return TURN_NONE;
	}
	if (turn >= 0 && cmd_move_allowed(ra->session, old, turn, out) == -1)
		return TURN_NONE;
	if (kind_snl_roll(old, new, ra->value != 0 ? ra->value :
	    cmd_random_die(), mv) == -1) {
		reply_status(out, "GAME_OVER");
		return TURN_NONE;
	}
	return TURN_MOVE;
}

/* SNL.ROLL id [value] [AT seq]; value 0: none given. */
enum { ROLL_ID, ROLL_VALUE, ROLL_AT };
static const struct cmd_arg roll_args[] = {
	[ROLL_ID] = CMD_ARG_GAME,
	[ROLL_VALUE] = CMD_ARG_INT_OPT("value", 1, 6, 0),
	[ROLL_AT] = CMD_ARG_AT,
};

/* "SNL.ROLL id" exists only for a dice=server game: for any other (or
 * none) it is a wrong number of arguments, as it always was.  The dice
 * mode never changes, so reading it outside the turn is safe. */
static int
roll_server_only(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct game	*g = xmalloc(sizeof(*g));
	int		 rc, ok;

	rc = store_load_game(env->store, cmd_target_id(p), g);
	ok = rc == STORE_OK && g->kind == p->def->target.kind &&
	    g->opts.server_dice;
	free(g);
	if (rc == STORE_ERR) {
		cmd_reply_store(env, out);
		return -1;
	}
	if (!ok) {
		cmd_reply_arity(out, p->def);
		return -1;
	}
	return 0;
}

static void
snl_roll_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct roll_arg	 ra;
	struct turn_req		 req;
	char			 action[ACTION_MAX + 1];
	int			 value = (int)p->v[ROLL_VALUE].i;

	if (value == 0 && roll_server_only(env, p, out) == -1)
		return;
	kind_snl_action(action, sizeof(action), value);
	ra.value = value;
	ra.session = p->args->session;
	req.player = NULL;	/* whoever's turn it was at seq */
	req.action = value != 0 ? action : NULL;	/* a server roll */
	req.at = p->v[ROLL_AT].i;
	cmd_transact(env, p, out, &req, roll_step, &ra);
}

const struct cmd_def cmd_snl_roll_entry = { .name = "SNL.ROLL",
    .spec = CMD_ARGS(roll_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(ROLL_ID, KIND_SNL), .proc = snl_roll_cmd };

