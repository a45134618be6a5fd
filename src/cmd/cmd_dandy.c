/*
 * DandyLand commands: DANDY.CREATE, DANDY.DRAW, DANDY.SCORES, DANDY.STATE
 * and DANDY.PLAY, which scores a whole game given at once and stores
 * nothing (the rest is its kind, src/game/kind_dandy.c).  A game either
 * carries its deck (DRAW takes no card) or has none (every DRAW names its
 * card).  deck=shuffled[:N] has the server deal the deck (N cards, 50 by
 * default, each of the 18 kinds alike); it is stored like a given deck
 * and never shown, only drawn.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "game/kinds.h"
#include "util/util.h"

/* DANDY.PLAY scores at most 50 cards; a stored deck may hold more. */
#define PLAY_CARDS_MAX	50

#define SHUFFLED	"shuffled"
#define SHUFFLED_LEN	(sizeof(SHUFFLED) - 1)
#define SHUFFLED_CARDS	50	/* deck=shuffled */

/* A board: 1 to 36 letters a-i. */
static int
check_board(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (strlen(v->s) == v->len && dandy_valid_board(v->s))
		return 0;
	reply_error(out, "BADARG", "board must be 1 to %d letters a-i",
	    DANDY_BOARD_MAX);
	return -1;
}

/* A card string: a-i and 1-9, at most max of them. */
static int
valid_cards(const char *s, size_t len, size_t max)
{
	size_t	i;

	if (len > max || strlen(s) != len)
		return 0;
	for (i = 0; i < len; i++)
		if (!dandy_valid_card((unsigned char)s[i]))
			return 0;
	return 1;
}

static void
reply_bad_cards(struct reply *out, int max)
{
	reply_error(out, "BADARG", "cards must be at most %d of a-i and 1-9",
	    max);
}

/* deck=shuffled or deck=shuffled:N: deals N cards into deck; 1 if it
 * was that form, 0 if not, -1 with an error reply. */
static int
shuffled_deck(struct reply *out, const char *v, char *deck)
{
	const char	*errstr;
	int64_t		 n = SHUFFLED_CARDS;

	if (strncmp(v, SHUFFLED, SHUFFLED_LEN) != 0)
		return 0;
	if (v[SHUFFLED_LEN] == ':') {
		if (parse_int64(v + SHUFFLED_LEN + 1, 1, DANDY_DECK_MAX, &n,
		    &errstr) != 0) {
			reply_error(out, "BADARG", "deck=shuffled:N takes N "
			    "from 1 to %d", DANDY_DECK_MAX);
			return -1;
		}
	} else if (v[SHUFFLED_LEN] != '\0')
		return 0;
	cmd_random_deck(deck, (int)n);
	return 1;
}

/* deck=: a given deck, or one the server deals now. */
static int
deck_option(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	int	 rc;

	(void)o;
	if ((rc = shuffled_deck(out, v, b->dealt)) == -1)
		return -1;
	b->shuffled = rc == 1;
	if (rc == 1) {
		b->deck = b->dealt;
		return 0;
	}
	if (!valid_cards(v, len, DANDY_DECK_MAX)) {
		reply_bad_cards(out, DANDY_DECK_MAX);
		return -1;
	}
	b->deck = v;
	return 0;
}

/*
 * DANDY.CREATE id players board [option=value ...]: key=value words only
 * after the board (another word is one argument too many, as before
 * options existed), an unknown key a plain syntax error.  dice= is taken
 * for the kind to say why DandyLand has none.
 */
enum { CREATE_ID, CREATE_PLAYERS, CREATE_BOARD };
static const struct cmd_arg create_args[] = {
	[CREATE_ID] = CMD_ARG_GAME,
	[CREATE_PLAYERS] = CMD_ARG_INT("players", 1, DANDY_MAX_PLAYERS),
	[CREATE_BOARD] = CMD_ARG_CHECKED("board", check_board),
};
static const struct cmd_opt create_opts[] = {
	{ "deck", "<cards>|shuffled[:N]", 0, deck_option, 0 },
	CMD_OPT_SEATS,
	CMD_OPT_DICE(CMD_OPT_HIDDEN),
	CMD_OPT_BOTS("P<i>:<strategy>,..."),
	CMD_OPT_TIMEOUT,
};
static const struct cmd_spec create_spec = CMD_SPEC_OPTS(create_args,
    create_opts, CMD_OPTS_UNKNOWN_PLAIN, NULL);

static void
dandy_create_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct cmd_build	*b = p->build;
	struct game		*g = &b->game;
	const char		*why = NULL;

	if (dandy_init(&g->s.dandy, (int)p->v[CREATE_PLAYERS].i,
	    p->v[CREATE_BOARD].s, b->deck, &why) == -1) {
		reply_error(out, "BADARG", "%s", why != NULL ? why :
		    "invalid DandyLand game");
		return;
	}
	if (cmd_create_apply(env, p, out) == -1)
		return;
	g->opts.server_dice = b->shuffled != 0;
	cmd_create(env, out, g);
}

const struct cmd_def cmd_dandy_create_entry = { .name = "DANDY.CREATE",
    .spec = &create_spec, .flags = CMD_WRITE,
    .target = CMD_TARGET_CREATE(CREATE_ID, KIND_DANDY),
    .proc = dandy_create_cmd };

/* DANDY.STATE id */
const struct cmd_def cmd_dandy_state_entry = { .name = "DANDY.STATE",
    .spec = &cmd_game_id_args, .flags = CMD_READONLY,
    .target = CMD_TARGET(0, KIND_DANDY), .proc = cmd_game_state };

struct draw_arg {
	const char		 *card;	/* NULL: from the deck */
	const struct cmd_session *session;
};

static enum turn_outcome
draw_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct draw_arg	*da = arg;
	const struct dandy_state *st = &old->s.dandy;
	int			 turn = game_turn(old);

	if (st->has_deck && da->card != NULL) {
		reply_error(out, "BADARG",
		    "game '%s' draws from its deck: give no card", old->id);
		return TURN_NONE;
	}
	if (!st->has_deck && da->card == NULL) {
		reply_error(out, "BADARG",
		    "game '%s' has no deck: a card is required", old->id);
		return TURN_NONE;
	}
	if (turn < 0) {
		reply_status(out, "GAME_OVER");	/* deck used up */
		return TURN_NONE;
	}
	if (cmd_move_allowed(da->session, old, turn, out) == -1)
		return TURN_NONE;
	if (kind_dandy_draw(old, new, da->card != NULL ?
	    (unsigned char)da->card[0] : 0, mv) == -1) {
		reply_error(out, "BADARG", "invalid card");
		return TURN_NONE;
	}
	return TURN_MOVE;
}

/* A card: one of a-i, 1-9. */
static int
check_card(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->len == 1 && dandy_valid_card((unsigned char)v->s[0]))
		return 0;
	reply_error(out, "BADARG", "card must be one of a-i or 1-9");
	return -1;
}

/* DANDY.DRAW id [card] [AT seq] */
enum { DRAW_ID, DRAW_CARD, DRAW_AT };
static const struct cmd_arg draw_args[] = {
	[DRAW_ID] = CMD_ARG_GAME,
	[DRAW_CARD] = CMD_ARG_CHECKED_OPT("card", check_card),
	[DRAW_AT] = CMD_ARG_AT,
};

static void
dandy_draw_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct draw_arg	 da;
	struct turn_req		 req;

	da.card = p->v[DRAW_CARD].s;	/* NULL: from the deck */
	da.session = p->args->session;
	req.player = NULL;	/* whoever's turn it was at seq */
	req.action = da.card;	/* a deck card is implicit too */
	req.at = p->v[DRAW_AT].i;
	cmd_transact(env, p, out, &req, draw_step, &da);
}

const struct cmd_def cmd_dandy_draw_entry = { .name = "DANDY.DRAW",
    .spec = CMD_ARGS(draw_args, 0), .flags = CMD_WRITE,
    .target = CMD_TARGET(DRAW_ID, KIND_DANDY), .proc = dandy_draw_cmd };

/* DANDY.SCORES id */
static void
dandy_scores_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct dandy_state *st = &p->game->s.dandy;
	int			 i;

	(void)env;
	reply_array(out);
	for (i = 0; i < st->nplayers && i < DANDY_MAX_PLAYERS; i++)
		reply_int(reply_add(out), st->points[i]);
}

const struct cmd_def cmd_dandy_scores_entry = { .name = "DANDY.SCORES",
    .spec = &cmd_game_id_args, .flags = CMD_READONLY,
    .target = CMD_TARGET(0, KIND_DANDY), .proc = dandy_scores_cmd };

/* DANDY.PLAY players cards board: at most 50 cards, "" for none. */
static int
check_cards(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (valid_cards(v->s, v->len, PLAY_CARDS_MAX))
		return 0;
	reply_bad_cards(out, PLAY_CARDS_MAX);
	return -1;
}

enum { PLAY_PLAYERS, PLAY_CARDS, PLAY_BOARD };
static const struct cmd_arg play_args[] = {
	[PLAY_PLAYERS] = CMD_ARG_INT("players", 1, DANDY_MAX_PLAYERS),
	[PLAY_CARDS] = CMD_ARG_CHECKED("cards", check_cards),
	[PLAY_BOARD] = CMD_ARG_CHECKED("board", check_board),
};

static void
dandy_play_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	int	points[DANDY_MAX_PLAYERS];
	int	i, n = (int)p->v[PLAY_PLAYERS].i;

	(void)env;
	if (dandy_play(n, p->v[PLAY_CARDS].s, p->v[PLAY_BOARD].s,
	    points) == -1) {
		reply_error(out, "BADARG", "invalid DandyLand game");
		return;
	}
	reply_array(out);
	for (i = 0; i < n; i++)
		reply_int(reply_add(out), points[i]);
}

const struct cmd_def cmd_dandy_play_entry = { .name = "DANDY.PLAY",
    .spec = CMD_ARGS(play_args, 0), .flags = CMD_READONLY,
    .proc = dandy_play_cmd };
