/*
 * DandyLand commands: DANDY.CREATE, DANDY.DRAW, DANDY.SCORES, DANDY.STATE,
 * DANDY.PLAY (seed 003's play(), stateless) and the DandyLand side of
 * REPLAY/AUDIT.  A game either carries its deck (DRAW takes no card) or
 * has none (every DRAW names its card).  deck=shuffled[:N] has the server
 * deal the deck (N cards, 50 by default, each of the 18 kinds alike); it
 * is stored like a given deck and never shown, only drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

/* Seed 003's play() takes at most 50 cards; a stored deck may hold more. */
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
dandy_create_options(struct reply *out, const struct cmd_args *args,
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
		if ((rc = create_option(out, mo, a)) == -1)
			return -1;
		if (rc == 0) {
			cmd_reply_syntax(out);
			return -1;
		}
	}
	return 0;
}

void
dandy_create_cmd(struct cmd_env *env, const struct cmd_args *args,
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
	create_opts_init(&mo);
	if (dandy_create_options(out, args, deckbuf, &deck, &shuffled,
	    &mo) == -1)
		goto done;
	if (dandy_init(&g->s.dandy, (int)n, args->argv[3], deck, &why) == -1) {
		reply_error(out, "BADARG", "%s", why != NULL ? why :
		    "invalid DandyLand game");
		goto done;
	}
	memcpy(g->id, args->argv[1], args->argl[1] + 1);
	g->kind = KIND_DANDY;
	if (create_apply(env, out, &mo, g) == -1)
		goto done;
	g->opts.server_dice = shuffled != 0;
	cmd_create_game(env, out, g);
done:
	free(deckbuf);
	free(g);
}

/* The reply text of a draw: "P<i> <pos|OFF> <points>", pos 1-based. */
static void
dandy_result_text(const struct dandy_result *r, char *buf, size_t len)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addc(&b, 'P');
	strbuf_addint(&b, r->player + 1);
	if (r->pos == DANDY_OFF)
		strbuf_add(&b, " OFF");
	else {
		strbuf_addc(&b, ' ');
		strbuf_addint(&b, r->pos + 1);
	}
	strbuf_addc(&b, ' ');
	strbuf_addint(&b, r->points);
}

int
dandy_apply_draw(const struct game *old, struct game *new, int card,
    struct move *mv)
{
	const struct dandy_state *st = &old->s.dandy;
	struct dandy_result	 r;
	int			 c = card;

	if (st->has_deck && st->drawn >= 0 && st->drawn < st->deck_len &&
	    st->drawn < DANDY_DECK_MAX)
		c = (unsigned char)st->deck[st->drawn];
	if (dandy_draw(st, card, &new->s.dandy, &r) == -1 || r.game_over)
		return -1;
	cmd_seat_name(mv->player, sizeof(mv->player), r.player);
	mv->action[0] = (char)c;
	mv->action[1] = '\0';
	dandy_result_text(&r, mv->result, sizeof(mv->result));
	return 0;
}

struct dandy_draw_arg {
	const char		 *card;	/* NULL: from the deck */
	const struct cmd_session *session;
};

static enum turn_outcome
dandy_draw_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct dandy_draw_arg	*da = arg;
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
	if (dandy_apply_draw(old, new, da->card != NULL ?
	    (unsigned char)da->card[0] : 0, mv) == -1) {
		reply_error(out, "BADARG", "invalid card");
		return TURN_NONE;
	}
	return TURN_MOVE;
}

void
dandy_draw_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct dandy_draw_arg	 da;
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
	    dandy_draw_step, &da);
}

void
dandy_state_reply(const struct game *g, struct reply *out)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 buf[64];
	int			 i;

	reply_array(out);
	cmd_add_pair(out, "turn", cmd_player_name(g, st->turn, buf,
	    sizeof buf));
	for (i = 0; i < st->nplayers && i < DANDY_MAX_PLAYERS; i++) {
		if (st->pos[i] == DANDY_OFF)
			snprintf(buf, sizeof(buf), "P%d,OFF,%d", i + 1,
			    st->points[i]);
		else
			snprintf(buf, sizeof(buf), "P%d,%d,%d", i + 1,
			    st->pos[i] + 1, st->points[i]);
		reply_status(reply_add(out), buf);
	}
}

void
dandy_state_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	cmd_state_of(env, args, out, KIND_DANDY);
}

void
dandy_scores_cmd(struct cmd_env *env, const struct cmd_args *args,
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
dandy_play_cmd(struct cmd_env *env, const struct cmd_args *args,
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

/* ------------------------------------------------------------ replay */

int
dandy_replay_init(const struct game *g, struct game *out)
{
	const struct dandy_state *st = &g->s.dandy;
	char			 board[DANDY_BOARD_MAX + 1];
	char			 deck[DANDY_DECK_MAX + 1];
	const char		*why;

	if (st->board_len < 1 || st->board_len > DANDY_BOARD_MAX ||
	    st->deck_len < 0 || st->deck_len > DANDY_DECK_MAX)
		return -1;
	memcpy(board, st->board, (size_t)st->board_len);
	board[st->board_len] = '\0';
	memcpy(deck, st->deck, (size_t)st->deck_len);
	deck[st->deck_len] = '\0';
	return dandy_init(&out->s.dandy, st->nplayers, board,
	    st->has_deck ? deck : NULL, &why);
}

int
dandy_replay_move(struct game *g, const struct move *mv, char *why,
    size_t len)
{
	const struct dandy_state *st = &g->s.dandy;
	struct dandy_state	 next;
	struct dandy_result	 r;
	char			 player[16], result[RESULT_MAX + 1];
	int			 card;

	if (strlen(mv->action) != 1) {
		snprintf(why, len, "bad action '%s'", mv->action);
		return -1;
	}
	card = (unsigned char)mv->action[0];
	if (st->has_deck) {
		if (st->drawn < 0 || st->drawn >= st->deck_len ||
		    st->deck[st->drawn] != card) {
			snprintf(why, len, "card '%s' is not the next in "
			    "the deck", mv->action);
			return -1;
		}
		card = 0;
	}
	if (dandy_draw(st, card, &next, &r) == -1 || r.game_over) {
		snprintf(why, len, "draw of '%s' refused", mv->action);
		return -1;
	}
	cmd_seat_name(player, sizeof(player), r.player);
	dandy_result_text(&r, result, sizeof(result));
	if (strcmp(player, mv->player) != 0 ||
	    strcmp(result, mv->result) != 0) {
		snprintf(why, len, "%s drew %s: %s, stored %s %s", player,
		    mv->action, result, mv->player, mv->result);
		return -1;
	}
	g->s.dandy = next;
	return 0;
}

int
dandy_differs(const struct game *a, const struct game *b)
{
	const struct dandy_state *x = &a->s.dandy, *y = &b->s.dandy;
	int			 i;

	if (x->nplayers != y->nplayers || x->board_len != y->board_len ||
	    x->has_deck != y->has_deck || x->deck_len != y->deck_len ||
	    x->drawn != y->drawn || x->turn != y->turn ||
	    x->nplayers < 0 || x->nplayers > DANDY_MAX_PLAYERS ||
	    x->board_len < 0 || x->board_len > DANDY_BOARD_MAX ||
	    x->deck_len < 0 || x->deck_len > DANDY_DECK_MAX)
		return 1;
	if (memcmp(x->board, y->board, (size_t)x->board_len) != 0 ||
	    memcmp(x->deck, y->deck, (size_t)x->deck_len) != 0)
		return 1;
	for (i = 0; i < x->nplayers; i++)
		if (x->pos[i] != y->pos[i] || x->points[i] != y->points[i])
			return 1;
	return 0;
}
