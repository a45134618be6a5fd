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

static int
jumps_option(struct reply *out, struct snl_state *st, int snake,
    const char *v)
{
	const char	*comma;
	size_t		 len;

	for (;;) {
		comma = strchr(v, ',');
		len = comma != NULL ? (size_t)(comma - v) : strlen(v);
		if (jump_pair(out, st, snake, v, len) == -1)
			return -1;
		if (comma == NULL)
			return 0;
		v = comma + 1;
	}
}

/* The options of SNL.CREATE, after the players: key=value only. */
static int
create_options(struct reply *out, const struct cmd_args *args,
    struct snl_state *st, struct create_opts *mo)
{
	const char	*a;
	int		 i, rc;

	for (i = 3; i < args->argc; i++) {
		a = args->argv[i];
		if (strlen(a) != args->argl[i] || strchr(a, '=') == NULL) {
			cmd_reply_arity(out, args);
			return -1;
		}
		if ((rc = cmd_create_option(out, mo, a)) == -1)
			return -1;
		if (rc == 1)
			continue;
		if (strncmp(a, "snakes=", 7) == 0)
			rc = jumps_option(out, st, 1, a + 7);
		else if (strncmp(a, "ladders=", 8) == 0)
			rc = jumps_option(out, st, 0, a + 8);
		else {
			cmd_reply_option(out, a);
			return -1;
		}
		if (rc == -1)
			return -1;
	}
	return 0;
}

void
cmd_snl_create(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game		g;
	struct create_opts	mo;
	int64_t			n;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, SNL_MAX_PLAYERS, "players", &n) == -1)
		return;
	memset(&g, 0, sizeof(g));
	if (snl_init(&g.s.snl, (int)n) == -1) {
		reply_error(out, "BADARG", "invalid number of players");
		return;
	}
	cmd_create_opts_init(&mo);
	if (create_options(out, args, &g.s.snl, &mo) == -1)
		return;
	memcpy(g.id, args->argv[1], args->argl[1] + 1);
	g.kind = KIND_SNL;
	if (cmd_create_apply(env, out, &mo, &g) == -1)
		return;
	cmd_create_game(env, out, &g);
}

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
		    "its seats (SEAT id player key)", old->id);
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

static void
jump_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out, int snake)
{
	struct jump_arg	 ja;
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
	ja.session = args->session;
	cmd_transact(env, out, args->argv[1], KIND_SNL, NULL, jump_step,
	    &ja);
}

void
cmd_snl_snake(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	jump_cmd(env, args, out, 1);
}

void
cmd_snl_ladder(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	jump_cmd(env, args, out, 0);
}

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

/* "SNL.ROLL id" exists only for a dice=server game: for any other (or
 * none) it is a wrong number of arguments, as it always was.  The dice
 * mode never changes, so reading it outside the turn is safe. */
static int
roll_server_only(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game	*g = xmalloc(sizeof(*g));
	int		 rc, ok;

	rc = store_load_game(env->store, args->argv[1], g);
	ok = rc == STORE_OK && g->kind == KIND_SNL && g->opts.server_dice;
	free(g);
	if (rc == STORE_ERR) {
		cmd_reply_store(env, out);
		return -1;
	}
	if (!ok) {
		cmd_reply_arity(out, args);
		return -1;
	}
	return 0;
}

void
cmd_snl_roll(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct roll_arg	 ra;
	struct turn_req		 req;
	char			 action[ACTION_MAX + 1];
	int64_t			 value = 0;
	int			 argc;

	if (arg_at(out, args, 2, 3, &argc, &req.at) == -1 ||
	    arg_id(out, args, 1, "game") == -1 ||
	    (argc == 3 && arg_int(out, args, 2, 1, 6, "value", &value) == -1) ||
	    (argc == 2 && roll_server_only(env, args, out) == -1))
		return;
	kind_snl_action(action, sizeof(action), (int)value);
	ra.value = (int)value;
	ra.session = args->session;
	req.player = NULL;	/* whoever's turn it was at seq */
	req.action = value != 0 ? action : NULL;	/* a server roll */
	cmd_transact(env, out, args->argv[1], KIND_SNL, &req, roll_step,
	    &ra);
}

void
cmd_snl_state(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	cmd_state_of(env, args, out, KIND_SNL);
}
