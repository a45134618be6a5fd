/*
 * The toy kind (toykind.h): its entry of the kind table, written as a
 * kind in src/game/ would be, with the shared helpers of the kinds'
 * faces (game/view.h).
 */
#include <stdio.h>
#include <string.h>

#include "game/view.h"
#include "toykind.h"

/* The state lives in the game's union of states, as a kind's does. */
_Static_assert(sizeof(struct toy_state) <= sizeof(((struct game *)0)->s),
    "the toy's state fits in struct game");

static void
toy_get(const struct game *g, struct toy_state *st)
{
	memcpy(st, &g->s, sizeof *st);
}

/* The count of players, the one to move and the winner. */
enum { TOY_N, TOY_TURN, TOY_WINNER };
static int
toy_int(const struct game *g, int which)
{
	struct toy_state st;

	toy_get(g, &st);
	return which == TOY_N ? st.n : which == TOY_TURN ? st.turn :
	    st.winner;
}

static int
toy_nplayers(const struct game *g)
{
	return toy_int(g, TOY_N);
}

static int
toy_turn(const struct game *g)
{
	return toy_int(g, TOY_TURN);
}

static int
toy_winner(const struct game *g)
{
	return toy_int(g, TOY_WINNER);
}

/* TOY.STATE: "Pn,square" for each player, then "goal,N". */
static void
toy_state_reply(const struct game *g, struct reply *r)
{
	struct toy_state st;
	char		 name[16];
	int		 i;

	toy_get(g, &st);
	reply_array(r);
	for (i = 0; i < st.n; i++) {
		game_seat_name(name, sizeof name, i);
		reply_add_pair(r, name, "%d", st.pos[i]);
	}
	reply_add_pair(r, "goal", "%d", st.goal);
}

struct toy_text {
	struct svg	*out;
	int		 color, goal;
};

/* A "Pn,square" entry as "P1 [###.......] 3". */
static void
toy_text_entry(void *arg, char **f, int n)
{
	struct toy_text	*t = arg;
	int		 p, pos, i;

	if (n != 2 || text_int(f[1], 0, 99, &pos) == -1)
		return;		/* the goal's entry, or none of ours */
	if (f[0][0] != 'P' || text_int(f[0] + 1, 1, TOY_MAX_PLAYERS, &p))
		return;
	text_paint(t->out, t->color, text_seat_sgr(p - 1), f[0]);
	svg_add(t->out, " [");
	for (i = 0; i < t->goal; i++)
		svg_add(t->out, i < pos ? "#" : ".");
	svg_printf(t->out, "] %d\n", pos);
}

/* The goal, then one line a player, from TOY.STATE alone. */
static void
toy_show_text(const struct reply *info, const struct reply *st, int color,
    struct svg *out)
{
	struct toy_text	 t = { out, color, 0 };

	(void)info;
	if (text_int(reply_pair_value(st, "goal"), 1, 99, &t.goal) == -1)
		t.goal = 0;
	svg_printf(out, "race to %d\n", t.goal);
	text_each(st, toy_text_entry, &t);
}

static int
toy_state_json(const struct game *g, json_t *obj)
{
	struct toy_state st;
	json_t		*players, *pos;
	char		 name[16];
	int		 i;

	if (g->kind != toy_register())
		return -1;
	toy_get(g, &st);
	players = json_array();
	pos = json_array();
	for (i = 0; i < st.n; i++) {
		game_seat_name(name, sizeof name, i);
		json_array_append_new(players, json_seat(g, i, name));
		json_array_append_new(pos, json_integer(st.pos[i]));
	}
	json_object_set_new(obj, "players", players);
	game_seat_name(name, sizeof name, st.turn);
	json_object_set_new(obj, "turn", json_name_or_null(name, st.turn));
	game_seat_name(name, sizeof name, st.winner);
	json_object_set_new(obj, "winner", json_name_or_null(name,
	    st.winner));
	json_object_set_new(obj, "state", json_pack("{s:o, s:i}",
	    "positions", pos, "goal", st.goal));
	return 0;
}

/* A row of squares, each player's piece on its square. */
static int
toy_render_svg(const struct game *g, struct svg *out)
{
	struct toy_state st;
	char		 name[16];
	int		 i;

	if (g->kind != toy_register())
		return -1;
	toy_get(g, &st);
	svg_begin(out, 40 * (st.goal + 1), 40 * (st.n + 1), "toy",
	    "A toy race");
	for (i = 0; i < st.n; i++) {
		game_seat_name(name, sizeof name, i);
		svg_printf(out, "<g class=\"piece\" data-player=\"%s\" "
		    "data-pos=\"%d\"><circle cx=\"%d\" cy=\"%d\" r=\"15\" "
		    "fill=\"%s\"/></g>", name, st.pos[i], 40 * st.pos[i] + 20,
		    40 * i + 20, svg_seat_colour(i)->fill);
	}
	svg_end(out);
	return 0;
}

/* The page asks for a step, by a button each. */
static const struct game_ask toy_ask_step = {
	"Your turn, {player}: how far?", "1 2 3", { 0 }, { 0 }
};

/* TOY.CREATE id n [goal=N], TOY.STEP id step: a create field of its
 * own (an option), its players by their count. */
static const struct game_api toy_api = {
	.create = "TOY.CREATE", .move = "TOY.STEP",
	.move_args = { { "step", 1, 0, &toy_ask_step } },
	.form_players = "3", .form_bots = "P3:first",
	.form_hint = "A toy race: a step is `1`, `2` or `3`.",
	.form = { { "goal", "Goal", "10", 1 } },
};

/* What a kind of the web, the CLI and the replies needs; the store's
 * hooks are left out (toykind.h). */
const struct game_kind_ops toy_kind = {
	.name = "toy", .title = "Toy",
	.min_players = 1, .max_players = TOY_MAX_PLAYERS,
	.nplayers = toy_nplayers, .turn = toy_turn, .winner = toy_winner,
	.no_dice = "a toy race has no dice",
	.state_reply = toy_state_reply, .state_cmd = "TOY.STATE",
	.render_svg = toy_render_svg, .state_json = toy_state_json,
	.api = &toy_api, .show_text = toy_show_text,
};

enum game_kind
toy_register(void)
{
	static enum game_kind kind = KIND_NONE;

	if (kind == KIND_NONE)
		kind = game_kind_add(&toy_kind);
	return kind;
}

void
toy_game(struct game *g, const char *id, int n, const int *pos, int goal,
    int turn, int winner, int64_t moves)
{
	struct toy_state st;
	int		 i;

	memset(g, 0, sizeof *g);
	memset(&st, 0, sizeof st);
	snprintf(g->id, sizeof g->id, "%s", id);
	g->kind = toy_register();
	g->moves = moves;
	g->created = g->updated = 1700000000;
	st.n = n;
	for (i = 0; i < n; i++)
		st.pos[i] = pos[i];
	st.goal = goal;
	st.turn = turn;
	st.winner = winner;
	memcpy(&g->s, &st, sizeof st);
}
