/*
 * DandyLand commands: DANDY.CREATE, DANDY.DRAW, DANDY.SCORES, DANDY.STATE
 * and DANDY.PLAY, which scores a whole game given at once and stores
 * nothing (the rest is its kind, src/game/kind_dandy.c).  A game either carries its deck (DRAW takes no card) or
 * has none (every DRAW names its card).  deck=shuffled[:N] has the server
 * deal the deck (N cards, 50 by default, each of the 18 kinds alike); it
 * is stored like a given deck and never shown, only drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "game/kinds.h"
#include "util/util.h"

/* DANDY.PLAY scores at most 50 cards; a stored deck may hold more. */
#define PLAY_CARDS_MAX	50

#define DECK_PREFIX	"deck="
#define DECK_PREFIX_LEN	(sizeof(DECK_PREFIX) - 1)
#define SHUFFLED	"shuffled"
#define SHUFFLED_LEN	(sizeof(SHUFFLED) - 1)
#define SHUFFLED_CARDS	50	/* deck=shuffled */

static int
arg_board(struct reply *out, const struct cmd_args *args, int i)
{
	if (strlen(args->argv[i]) == args->argl[i] &&
	    dandy_valid_board(args->argv[i]))
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

/* The deck= option: a given deck or a shuffled one.  0, or -1. */
static int
deck_option(struct reply *out, const char *v, size_t len, char *deck,
    const char **deckp, int *shuffled)
{
	int	 rc;

	if ((rc = shuffled_deck(out, v, deck)) == -1)
		return -1;
	*shuffled = rc == 1;
	if (rc == 1) {
		*deckp = deck;
		return 0;
	}
	if (!valid_cards(v, len, DANDY_DECK_MAX)) {
		reply_bad_cards(out, DANDY_DECK_MAX);
		return -1;
	}
	*deckp = v;
	return 0;
}

/* The options after the board: key=value only (another word is one
 * argument too many, as before options existed). */
static int
create_options(struct reply *out, const struct cmd_args *args,
    char *deck, const char **deckp, int *shuffled, struct create_opts *mo)
{
	const char	*a;
	int		 i, rc;

	for (i = 4; i < args->argc; i++) {
		a = args->argv[i];
		if (strlen(a) != args->argl[i] || strchr(a, '=') == NULL) {
			cmd_reply_arity(out, args);
			return -1;
		}
		if (strncmp(a, DECK_PREFIX, DECK_PREFIX_LEN) == 0) {
			if (deck_option(out, a + DECK_PREFIX_LEN,
			    args->argl[i] - DECK_PREFIX_LEN, deck, deckp,
			    shuffled) == -1)
				return -1;
			continue;
		}
		if ((rc = cmd_create_option(out, mo, a)) == -1)
			return -1;
		if (rc == 0) {
			cmd_reply_syntax(out);
			return -1;
		}
	}
	return 0;
}

void
cmd_dandy_create(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game		*g;
	struct create_opts	 mo;
	char			*deckbuf;
	const char		*deck = NULL, *why = NULL;
	int64_t			 n;
	int			 shuffled = 0;

	if (arg_id(out, args, 1, "game") == -1 ||
	    arg_int(out, args, 2, 1, DANDY_MAX_PLAYERS, "players", &n) == -1 ||
	    arg_board(out, args, 3) == -1)
		return;
	g = xcalloc(1, sizeof(*g));
	deckbuf = xmalloc(DANDY_DECK_MAX + 1);
	cmd_create_opts_init(&mo);
	if (create_options(out, args, deckbuf, &deck, &shuffled,
	    &mo) == -1)
		goto done;
	if (dandy_init(&g->s.dandy, (int)n, args->argv[3], deck, &why) == -1) {
		reply_error(out, "BADARG", "%s", why != NULL ? why :
		    "invalid DandyLand game");
		goto done;
	}
	memcpy(g->id, args->argv[1], args->argl[1] + 1);
	g->kind = KIND_DANDY;
	if (cmd_create_apply(env, out, &mo, g) == -1)
		goto done;
	g->opts.server_dice = shuffled != 0;
	cmd_create_game(env, out, g);
done:
	free(deckbuf);
	free(g);
}

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

void
cmd_dandy_draw(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct draw_arg	 da;
	struct turn_req		 req;
	const char		*card = NULL;
	int			 argc;

	if (arg_at(out, args, 2, 3, &argc, &req.at) == -1 ||
	    arg_id(out, args, 1, "game") == -1)
		return;
	if (argc == 3) {
		if (args->argl[2] != 1 ||
		    !dandy_valid_card((unsigned char)args->argv[2][0])) {
			reply_error(out, "BADARG",
			    "card must be one of a-i or 1-9");
			return;
		}
		card = args->argv[2];
	}
	req.player = NULL;	/* whoever's turn it was at seq */
	req.action = card;	/* a deck card is implicit too */
	da.card = card;
	da.session = args->session;
	cmd_transact(env, out, args->argv[1], KIND_DANDY, &req,
	    draw_step, &da);
}

void
cmd_dandy_state(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	cmd_state_of(env, args, out, KIND_DANDY);
}

void
cmd_dandy_scores(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct game	g;
	int		i;

	if (arg_id(out, args, 1, "game") == -1 ||
	    cmd_read_game(env, out, args->argv[1], KIND_DANDY, &g) == -1)
		return;
	reply_array(out);
	for (i = 0; i < g.s.dandy.nplayers && i < DANDY_MAX_PLAYERS; i++)
		reply_int(reply_add(out), g.s.dandy.points[i]);
}

void
cmd_dandy_play(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	int	points[DANDY_MAX_PLAYERS];
	int64_t	n;
	int	i;

	(void)env;
	if (arg_int(out, args, 1, 1, DANDY_MAX_PLAYERS, "players", &n) == -1)
		return;
	if (!valid_cards(args->argv[2], args->argl[2], PLAY_CARDS_MAX)) {
		reply_bad_cards(out, PLAY_CARDS_MAX);
		return;
	}
	if (arg_board(out, args, 3) == -1)
		return;
	if (dandy_play((int)n, args->argv[2], args->argv[3], points) == -1) {
		reply_error(out, "BADARG", "invalid DandyLand game");
		return;
	}
	reply_array(out);
	for (i = 0; i < n; i++)
		reply_int(reply_add(out), points[i]);
}
