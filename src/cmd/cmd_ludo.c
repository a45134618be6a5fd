/*
 * Ludo commands: LUDO.CREATE, LUDO.PLAY, LUDO.ROLL, LUDO.STATE,
 * LUDO.LEGAL, and the Ludo side of REPLAY/AUDIT.
 *
 * In a dice=server game LUDO.ROLL draws the die and keeps it with the
 * game (committed on its own) until the LUDO.PLAY that uses it, so asking
 * again, reconnecting or a restart all give the same value.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

/* Options of LUDO.CREATE that switch one rule on or off. */
static const struct ludo_flag {
	const char	*key;
	size_t		 off;
} ludo_flags[] = {
	{ "six-bonus", offsetof(struct ludo_rules, six_bonus) },
	{ "capture-bonus", offsetof(struct ludo_rules, capture_bonus) },
	{ "three-sixes", offsetof(struct ludo_rules, three_sixes) },
};
#define NFLAGS	(sizeof(ludo_flags) / sizeof(ludo_flags[0]))

/* The player's index in the game, or -1. */
static int
ludo_player_index(const struct game *g, const char *name)
{
	int	i;

	for (i = 0; i < g->s.ludo.nplayers && i < LUDO_MAX_PLAYERS; i++)
		if (strcmp(g->players[i], name) == 0)
			return i;
	return -1;
}

/* Applies one "key=value" option; the preset is applied before. */
static int
ludo_option(struct reply *out, struct ludo_rules *rules, const char *arg)
{
	const char	*eq = strchr(arg, '=');
	const char	*val = eq + 1;
	size_t		 klen = (size_t)(eq - arg), i;
	uint8_t		*field;

	if (klen == 5 && strncmp(arg, "rules", 5) == 0)
		return 0;	/* handled first */
	for (i = 0; i < NFLAGS; i++) {
		if (strlen(ludo_flags[i].key) != klen ||
		    strncmp(arg, ludo_flags[i].key, klen) != 0)
			continue;
		field = (uint8_t *)rules + ludo_flags[i].off;
		if (strcmp(val, "on") == 0)
			*field = 1;
		else if (strcmp(val, "off") == 0)
			*field = 0;
		else {
			reply_error(out, "BADARG", "%s must be on or off",
			    ludo_flags[i].key);
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
ludo_options(struct reply *out, const struct cmd_args *args,
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
		if ((rc = create_option(out, mo, args->argv[i])) == -1 ||
		    (rc == 0 && ludo_option(out, rules, args->argv[i]) == -1))
			return -1;
	}
	return 0;
}

void
ludo_create_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game		 g;
	struct ludo_rules	 rules;
	struct create_opts	 mo;
	int			 i, j, n = 0;

	create_opts_init(&mo);
	if (arg_id(out, args, 1, "game") == -1 ||
	    ludo_options(out, args, &rules, &mo) == -1)
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
	if (create_apply(env, out, &mo, &g) == -1)
		return;
	cmd_create_game(env, out, &g);
}

/* The action of a move as stored: "<dice>:<token>". */
static void
ludo_action(char *buf, size_t len, int dice, int token)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addint(&b, dice);
	strbuf_addc(&b, ':');
	strbuf_addint(&b, token);
}

enum ludo_result
ludo_apply_play(const struct game *old, struct game *new, int player,
    int dice, int token, struct move *mv)
{
	enum ludo_result	 res;

	res = ludo_play(&old->s.ludo, player, dice, token, &new->s.ludo);
	if (ludo_result_stored(res)) {
		str_copy(mv->player, sizeof(mv->player), old->players[player]);
		ludo_action(mv->action, sizeof(mv->action), dice, token);
		str_copy(mv->result, sizeof(mv->result), ludo_result_str(res));
	}
	return res;
}

struct ludo_play_arg {
	const char		 *player;
	int			  dice;
	int			  token;
	const struct cmd_session *session;
};

/* In a dice=server game, the dice of a move must be the roll drawn for
 * that player.  0, or -1 with the error set. */
static int
ludo_server_dice(const struct game *g, int player, int dice,
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
ludo_play_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct ludo_play_arg	*pa = arg;
	enum ludo_result	 res;
	int			 player;

	player = ludo_player_index(old, pa->player);
	/* A finished game answers GAME_OVER to anyone, as the seed does. */
	if (old->s.ludo.winner == -1 && player != -1 &&
	    (cmd_move_allowed(pa->session, old, player, out) == -1 ||
	    ludo_server_dice(old, player, pa->dice, out) == -1))
		return TURN_NONE;
	res = ludo_apply_play(old, new, player, pa->dice, pa->token, mv);
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
ludo_play_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct ludo_play_arg	 pa;
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
	ludo_action(action, sizeof(action), (int)dice, (int)token);
	pa.player = args->argv[2];
	pa.dice = (int)dice;
	pa.token = (int)token;
	pa.session = args->session;
	req.player = pa.player;
	req.action = action;
	cmd_transact(env, out, args->argv[1], KIND_LUDO, &req, ludo_play_step,
	    &pa);
}

struct ludo_roll_arg {
	const char		 *player;
	const struct cmd_session *session;
};

static enum turn_outcome
ludo_roll_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct ludo_roll_arg	*ra = arg;
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
	if ((player = ludo_player_index(old, ra->player)) == -1) {
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
ludo_roll_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct ludo_roll_arg	 ra;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_id(out, args, 2, "player") == -1)
		return;
	ra.player = args->argv[2];
	ra.session = args->session;
	cmd_transact(env, out, args->argv[1], KIND_LUDO, NULL, ludo_roll_step,
	    &ra);
}

void
ludo_state_reply(const struct game *g, struct reply *out)
{
	const struct ludo_state	*st = &g->s.ludo;
	char			 buf[GAME_ID_MAX + 32];
	const char		*loc;
	int			 p, t;

	reply_array(out);
	cmd_add_pair(out, "turn", cmd_player_name(g, st->turn, buf,
	    sizeof buf));
	cmd_add_pair(out, "winner", cmd_player_name(g, st->winner, buf,
	    sizeof buf));
	for (p = 0; p < st->nplayers && p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++) {
			loc = ludo_location(&st->rules, st->pos[p][t]);
			snprintf(buf, sizeof(buf), "%s,%d,%s,%d",
			    g->players[p], t + 1, loc != NULL ? loc : "?",
			    st->pos[p][t]);
			reply_status(reply_add(out), buf);
		}
}

void
ludo_state_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	cmd_state_of(env, args, out, KIND_LUDO);
}

void
ludo_legal_cmd(struct cmd_env *env, const struct cmd_args *args,
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

/* ------------------------------------------------------------ replay */

int
ludo_replay_init(const struct game *g, struct game *out)
{
	return ludo_init(&out->s.ludo, &g->s.ludo.rules, g->s.ludo.nplayers);
}

int
ludo_replay_move(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	const char		*a = mv->action;
	struct ludo_state	 next;
	enum ludo_result	 res;
	int			 player;

	if (strlen(a) != 3 || a[0] < '1' || a[0] > '6' || a[1] != ':' ||
	    a[2] < '0' || a[2] > '4') {
		snprintf(why, len, "bad action '%s'", a);
		return -1;
	}
	player = ludo_player_index(g, mv->player);
	if (player == -1) {
		snprintf(why, len, "unknown player '%s'", mv->player);
		return -1;
	}
	res = ludo_play(&g->s.ludo, player, a[0] - '0', a[2] - '0', &next);
	if (!ludo_result_stored(res) ||
	    strcmp(ludo_result_str(res), mv->result) != 0) {
		snprintf(why, len, "result %s, stored %s",
		    ludo_result_str(res) != NULL ? ludo_result_str(res) : "?",
		    mv->result);
		return -1;
	}
	g->s.ludo = next;
	return 0;
}

int
ludo_differs(const struct game *a, const struct game *b)
{
	const struct ludo_state	*x = &a->s.ludo, *y = &b->s.ludo;
	int			 p, t;

	if (x->nplayers != y->nplayers || x->turn != y->turn ||
	    x->winner != y->winner || x->sixes != y->sixes ||
	    memcmp(&x->rules, &y->rules, sizeof(x->rules)) != 0)
		return 1;
	for (p = 0; p < x->nplayers && p < LUDO_MAX_PLAYERS; p++)
		for (t = 0; t < LUDO_TOKENS; t++)
			if (x->pos[p][t] != y->pos[p][t])
				return 1;
	return 0;
}
