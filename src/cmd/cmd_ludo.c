/*
 * Ludo commands: LUDO.CREATE, LUDO.PLAY, LUDO.ROLL, LUDO.STATE and
 * LUDO.LEGAL (the rest of Ludo is its kind, src/game/kind_ludo.c).
 *
 * In a dice=server game LUDO.ROLL draws the die and keeps it with the
 * game (committed on its own) until the LUDO.PLAY that uses it, so asking
 * again, reconnecting or a restart all give the same value.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "game/kinds.h"
#include "util/util.h"

/* Options of LUDO.CREATE that switch one rule on or off. */
static const struct rule_flag {
	const char	*key;
	size_t		 off;
} rule_flags[] = {
	{ "six-bonus", offsetof(struct ludo_rules, six_bonus) },
	{ "capture-bonus", offsetof(struct ludo_rules, capture_bonus) },
	{ "three-sixes", offsetof(struct ludo_rules, three_sixes) },
};
#define NFLAGS	(sizeof(rule_flags) / sizeof(rule_flags[0]))

/* Applies one "key=value" option; the preset is applied before. */
static int
rule_option(struct reply *out, struct ludo_rules *rules, const char *arg)
{
	const char	*eq = strchr(arg, '=');
	const char	*val = eq + 1;
	size_t		 klen = (size_t)(eq - arg), i;
	uint8_t		*field;

	if (klen == 5 && strncmp(arg, "rules", 5) == 0)
		return 0;	/* handled first */
	for (i = 0; i < NFLAGS; i++) {
		if (strlen(rule_flags[i].key) != klen ||
		    strncmp(arg, rule_flags[i].key, klen) != 0)
			continue;
		field = (uint8_t *)rules + rule_flags[i].off;
		if (strcmp(val, "on") == 0)
			*field = 1;
		else if (strcmp(val, "off") == 0)
			*field = 0;
		else {
			reply_error(out, "BADARG", "%s must be on or off",
			    rule_flags[i].key);
			return -1;
		}
		return 0;
	}
	cmd_reply_option(out, arg);
	return -1;
}

/* Reads the options of LUDO.CREATE: the preset first, then overrides,
 * then the multiplayer options. */
static int
create_options(struct reply *out, const struct cmd_args *args,
    struct ludo_rules *rules, struct create_opts *mo)
{
	int	i, rc;

	ludo_rules_preset(rules, "classic");
	for (i = 2; i < args->argc; i++) {
		if (strlen(args->argv[i]) != args->argl[i]) {
			reply_error(out, "BADARG", "invalid argument");
			return -1;
		}
		if (strncmp(args->argv[i], "rules=", 6) != 0)
			continue;
		if (ludo_rules_preset(rules, args->argv[i] + 6) == -1) {
			reply_error(out, "BADARG",
			    "rules must be classic, interview or extended");
			return -1;
		}
	}
	for (i = 2; i < args->argc; i++) {
		if (strchr(args->argv[i], '=') == NULL)
			continue;
		if ((rc = cmd_create_option(out, mo, args->argv[i])) == -1 ||
		    (rc == 0 && rule_option(out, rules, args->argv[i]) == -1))
			return -1;
	}
	return 0;
}

void
cmd_ludo_create(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game		 g;
	struct ludo_rules	 rules;
	struct create_opts	 mo;
	int			 i, j, n = 0;

	cmd_create_opts_init(&mo);
	if (arg_id(out, args, 1, "game") == -1 ||
	    create_options(out, args, &rules, &mo) == -1)
		return;
	memset(&g, 0, sizeof(g));
	for (i = 2; i < args->argc; i++) {
		if (strchr(args->argv[i], '=') != NULL)
			continue;
		if (arg_id(out, args, i, "player") == -1)
			return;
		if (n == LUDO_MAX_PLAYERS) {
			reply_error(out, "BADARG", "Ludo takes 2 to 4 players");
			return;
		}
		for (j = 0; j < n; j++)
			if (strcmp(g.players[j], args->argv[i]) == 0) {
				reply_error(out, "BADARG",
				    "duplicate player '%s'", args->argv[i]);
				return;
			}
		memcpy(g.players[n++], args->argv[i], args->argl[i] + 1);
	}
	if (n < LUDO_MIN_PLAYERS) {
		reply_error(out, "BADARG", "Ludo takes 2 to 4 players");
		return;
	}
	if (ludo_init(&g.s.ludo, &rules, n) == -1) {
		reply_error(out, "BADARG", "invalid Ludo rules");
		return;
	}
	memcpy(g.id, args->argv[1], args->argl[1] + 1);
	g.kind = KIND_LUDO;
	if (cmd_create_apply(env, out, &mo, &g) == -1)
		return;
	cmd_create_game(env, out, &g);
}

struct play_arg {
	const char		 *player;
	int			  dice;
	int			  token;
	const struct cmd_session *session;
};

/* In a dice=server game, the dice of a move must be the roll drawn for
 * that player.  0, or -1 with the error set. */
static int
check_server_dice(const struct game *g, int player, int dice,
    struct reply *out)
{
	const struct game_opts	*o = &g->opts;

	if (!o->server_dice)
		return 0;
	if (o->roll == 0 || o->roll_player != player) {
		reply_error(out, "STATE", "game '%s' rolls its own dice: "
		    "LUDO.ROLL %s %s first", g->id, g->id,
		    g->players[player]);
		return -1;
	}
	if (dice != o->roll) {
		reply_error(out, "BADARG", "dice must be %d, the server's "
		    "roll", o->roll);
		return -1;
	}
	return 0;
}

static enum turn_outcome
play_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct play_arg	*pa = arg;
	enum ludo_result	 res;
	int			 player;

	player = game_player_index(old, pa->player);
	/* A finished game answers GAME_OVER to anyone, seat or not. */
	if (old->s.ludo.winner == -1 && player != -1 &&
	    (cmd_move_allowed(pa->session, old, player, out) == -1 ||
	    check_server_dice(old, player, pa->dice, out) == -1))
		return TURN_NONE;
	res = kind_ludo_play(old, new, player, pa->dice, pa->token, mv);
	if (res == LUDO_NO_PLAYER) {
		reply_error(out, "BADARG", "player '%s' is not in game '%s'",
		    pa->player, old->id);
		return TURN_NONE;
	}
	if (!ludo_result_stored(res)) {
		reply_status(out, ludo_result_str(res));
		return TURN_NONE;
	}
	return TURN_MOVE;
}

void
cmd_ludo_play(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct play_arg	 pa;
	struct turn_req		 req;
	char			 action[ACTION_MAX + 1];
	int64_t			 dice, token;
	int			 argc;

	if (arg_at(out, args, 5, 5, &argc, &req.at) == -1 ||
	    arg_id(out, args, 1, "game") == -1 ||
	    arg_id(out, args, 2, "player") == -1 ||
	    arg_int(out, args, 3, 1, 6, "dice", &dice) == -1 ||
	    arg_int(out, args, 4, 0, LUDO_TOKENS, "token", &token) == -1)
		return;
	kind_ludo_action(action, sizeof(action), (int)dice, (int)token);
	pa.player = args->argv[2];
	pa.dice = (int)dice;
	pa.token = (int)token;
	pa.session = args->session;
	req.player = pa.player;
	req.action = action;
	cmd_transact(env, out, args->argv[1], KIND_LUDO, &req, play_step,
	    &pa);
}

struct roll_arg {
	const char		 *player;
	const struct cmd_session *session;
};

static enum turn_outcome
roll_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct roll_arg	*ra = arg;
	const struct ludo_state	*st = &old->s.ludo;
	int			 player;

	(void)mv;
	if (!old->opts.server_dice) {
		reply_error(out, "STATE", "game '%s' has manual dice: give "
		    "them to LUDO.PLAY", old->id);
		return TURN_NONE;
	}
	if (st->winner != -1 || st->turn < 0 || st->turn >= st->nplayers) {
		reply_error(out, "STATE", "game '%s' is over", old->id);
		return TURN_NONE;
	}
	if ((player = game_player_index(old, ra->player)) == -1) {
		reply_error(out, "BADARG", "player '%s' is not in game '%s'",
		    ra->player, old->id);
		return TURN_NONE;
	}
	if (cmd_move_allowed(ra->session, old, player, out) == -1)
		return TURN_NONE;
	if (player != st->turn) {
		reply_error(out, "STATE", "it is %s's turn, not %s's",
		    old->players[st->turn], ra->player);
		return TURN_NONE;
	}
	/* Drawn already: the same value until a move uses it. */
	if (old->opts.roll != 0 && old->opts.roll_player == player) {
		reply_int(out, old->opts.roll);
		return TURN_NONE;
	}
	new->opts.roll = (uint8_t)cmd_random_die();
	new->opts.roll_player = (uint8_t)player;
	reply_int(out, new->opts.roll);
	return TURN_OPTS;
}

void
cmd_ludo_roll(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct roll_arg	 ra;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_id(out, args, 2, "player") == -1)
		return;
	ra.player = args->argv[2];
	ra.session = args->session;
	cmd_transact(env, out, args->argv[1], KIND_LUDO, NULL, roll_step,
	    &ra);
}

void
cmd_ludo_state(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	cmd_state_of(env, args, out, KIND_LUDO);
}

void
cmd_ludo_legal(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game	g;
	int		tokens[LUDO_TOKENS];
	int64_t		dice;
	int		i, n;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, 6, "dice", &dice) == -1 ||
	    cmd_read_game(env, out, args->argv[1], KIND_LUDO, &g) == -1)
		return;
	n = ludo_legal(&g.s.ludo, (int)dice, tokens);
	reply_array(out);
	for (i = 0; i < n; i++)
		reply_int(reply_add(out), tokens[i]);
}
