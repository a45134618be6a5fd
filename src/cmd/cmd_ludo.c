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

/* LUDO.CREATE id p1 p2 [p3 [p4]] [option=value ...]: the options may be
 * anywhere after the id, the other words are the players. */
enum { CREATE_ID, CREATE_PLAYERS };

/* rules=: the preset, applied first (CMD_OPT_FIRST): the flags below
 * override it whatever their order. */
static int
rules_option(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	(void)o;
	(void)len;
	if (ludo_rules_preset(&b->game.s.ludo.rules, v) == 0)
		return 0;
	reply_error(out, "BADARG",
	    "rules must be classic, interview or extended");
	return -1;
}

/* An option that switches one rule on or off: o->data is its field. */
static int
rule_flag(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	int	 on;

	(void)len;
	if ((on = cmd_opt_pair(o, v, out)) == -1)
		return -1;
	*((uint8_t *)&b->game.s.ludo.rules + o->data) = (uint8_t)on;
	return 0;
}

/* The n-th player (each checked as an id before). */
static int
add_player(struct cmd_parsed *p, const struct cmd_val *v, struct reply *out)
{
	struct game	*g = &p->build->game;
	int		 j;

	for (j = 0; j < v->n; j++)
		if (strcmp(g->players[j], v->s) == 0) {
			reply_error(out, "BADARG", "duplicate player '%s'",
			    v->s);
			return -1;
		}
	memcpy(g->players[v->n], v->s, v->len + 1);
	return 0;
}

static int
create_init(struct cmd_parsed *p, struct reply *out)
{
	(void)out;
	ludo_rules_preset(&p->build->game.s.ludo.rules, "classic");
	return 0;
}

static const struct cmd_arg create_args[] = {
	[CREATE_ID] = CMD_ARG_GAME,
	[CREATE_PLAYERS] = { .name = "player", .type = CMD_ARG_ID,
	    .flags = CMD_ARG_MULTIPLE, .what = "player",
	    .nmin = LUDO_MIN_PLAYERS, .nmax = LUDO_MAX_PLAYERS,
	    .counterr = "Ludo takes 2 to 4 players", .apply = add_player,
	    .doc = "p1 p2 [p3 [p4]]" },
};
#define RULE_FLAG(key, field) \
	{ key, "on|off", 0, rule_flag, offsetof(struct ludo_rules, field) }
static const struct cmd_opt create_opts[] = {
	{ "rules", "classic|interview|extended", CMD_OPT_FIRST, rules_option,
	    0 },
	RULE_FLAG("six-bonus", six_bonus),
	RULE_FLAG("capture-bonus", capture_bonus),
	RULE_FLAG("three-sixes", three_sixes),
	CMD_OPT_SEATS,
	CMD_OPT_DICE(0),
	CMD_OPT_BOTS("<player>:first|aggressive|expert,..."),
	CMD_OPT_TIMEOUT,
};
/* A NUL in any word is refused before anything else is read. */
static const struct cmd_spec create_spec = CMD_SPEC_OPTS(create_args,
    create_opts, CMD_OPTS_NUL_FIRST, create_init);

static void
ludo_create_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct game		*g = &p->build->game;
	struct ludo_rules	 rules = g->s.ludo.rules;

	if (ludo_init(&g->s.ludo, &rules, p->v[CREATE_PLAYERS].n) == -1) {
		reply_error(out, "BADARG", "invalid Ludo rules");
		return;
	}
	if (cmd_create_apply(env, p, out) == -1)
		return;
	cmd_create(env, out, g);
}

const struct cmd_def cmd_ludo_create_entry = { .name = "LUDO.CREATE",
    .spec = &create_spec, .flags = CMD_WRITE,
    .target = CMD_TARGET_CREATE(CREATE_ID, KIND_LUDO),
    .proc = ludo_create_cmd };

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

	/* A bad argument first, whatever the game's state: a name that is
	 * no player of the game is refused as such, finished game or not. */
	if ((player = game_player_index(old, pa->player)) == -1) {
		reply_error(out, "BADARG", "player '%s' is not in game '%s'",
		    pa->player, old->id);
		return TURN_NONE;
	}
	/* A finished game answers GAME_OVER to any player, seat or not. */
	if (old->s.ludo.winner == -1 &&
	    (cmd_move_allowed(pa->session, old, player, out) == -1 ||
	    check_server_dice(old, player, pa->dice, out) == -1))
		return TURN_NONE;
	res = kind_ludo_play(old, new, player, pa->dice, pa->token, mv);
	if (!ludo_result_stored(res)) {
		reply_status(out, ludo_result_str(res));
		return TURN_NONE;
	}
	return TURN_MOVE;
}

/* LUDO.PLAY id player dice token [AT seq] */
enum { PLAY_ID, PLAY_PLAYER, PLAY_DICE, PLAY_TOKEN, PLAY_AT };
static const struct cmd_arg play_args[] = {
	[PLAY_ID] = CMD_ARG_GAME,
	[PLAY_PLAYER] = CMD_ARG_ID("player", "player"),
	[PLAY_DICE] = CMD_ARG_INT("dice", 1, 6),
	[PLAY_TOKEN] = CMD_ARG_INT("token", 0, LUDO_TOKENS),
	[PLAY_AT] = CMD_ARG_AT,
};

static void
ludo_play_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct play_arg	 pa;
	struct turn_req		 req;
	char			 action[ACTION_MAX + 1];

	pa.player = p->v[PLAY_PLAYER].s;
	pa.dice = (int)p->v[PLAY_DICE].i;
	pa.token = (int)p->v[PLAY_TOKEN].i;
	pa.session = p->args->session;
	kind_ludo_action(action, sizeof(action), pa.dice, pa.token);
	req.player = pa.player;
	req.action = action;
	req.at = p->v[PLAY_AT].i;
	cmd_transact(env, p, out, &req, play_step, &pa);
}

const struct cmd_def cmd_ludo_play_entry = { .name = "LUDO.PLAY",
    .spec = CMD_ARGS(play_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(PLAY_ID, KIND_LUDO), .proc = ludo_play_cmd };

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
	/* The arguments first, then the game's state. */
	if ((player = game_player_index(old, ra->player)) == -1) {
		reply_error(out, "BADARG", "player '%s' is not in game '%s'",
		    ra->player, old->id);
		return TURN_NONE;
	}
	if (!old->opts.server_dice) {
		reply_error(out, "STATE", "game '%s' has manual dice: give "
		    "them to LUDO.PLAY", old->id);
		return TURN_NONE;
	}
	if (st->winner != -1 || st->turn < 0 || st->turn >= st->nplayers) {
		reply_error(out, "STATE", "game '%s' is over", old->id);
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

/* LUDO.ROLL id player */
enum { ROLL_ID, ROLL_PLAYER };
static const struct cmd_arg roll_args[] = {
	[ROLL_ID] = CMD_ARG_GAME,
	[ROLL_PLAYER] = CMD_ARG_ID("player", "player"),
};

static void
ludo_roll_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct roll_arg	 ra;

	ra.player = p->v[ROLL_PLAYER].s;
	ra.session = p->args->session;
	cmd_transact(env, p, out, NULL, roll_step, &ra);
}

const struct cmd_def cmd_ludo_roll_entry = { .name = "LUDO.ROLL",
    .spec = CMD_ARGS(roll_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(ROLL_ID, KIND_LUDO), .proc = ludo_roll_cmd };

/* LUDO.LEGAL id dice */
enum { LEGAL_ID, LEGAL_DICE };
static const struct cmd_arg legal_args[] = {
	[LEGAL_ID] = CMD_ARG_GAME,
	[LEGAL_DICE] = CMD_ARG_INT("dice", 1, 6),
};

static void
ludo_legal_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	int		tokens[LUDO_TOKENS];
	int		i, n;

	(void)env;
	n = ludo_legal(&p->game->s.ludo, (int)p->v[LEGAL_DICE].i, tokens);
	reply_array(out);
	for (i = 0; i < n; i++)
		reply_int(reply_add(out), tokens[i]);
}

const struct cmd_def cmd_ludo_legal_entry = { .name = "LUDO.LEGAL",
    .spec = CMD_ARGS(legal_args, 0), .flags = CMD_READONLY,
    .target = CMD_TARGET(LEGAL_ID, KIND_LUDO), .proc = ludo_legal_cmd };

/* LUDO.STATE id */
const struct cmd_def cmd_ludo_state_entry = { .name = "LUDO.STATE",
    .spec = &cmd_game_id_args, .flags = CMD_READONLY,
    .target = CMD_TARGET(0, KIND_LUDO), .proc = cmd_game_state };
