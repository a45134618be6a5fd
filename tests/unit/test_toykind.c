/*
 * A kind that is not in the tree (tests/lib/toykind.c), added to the kind
 * table through its test hook (game_kind_add()), and what the layers
 * above make of it with no edit: the table's lists and lookups know it,
 * the HTTP API's JSON of a game and GET /api/kinds describe it, and the
 * CLI's `ludus show` (src/cli/show.c, linked in) asks it for its STATE
 * command and its board.  The page's part is tests/web/test_toykind.sh.
 *
 * `ludus show` runs against a backend that answers as a server with
 * that kind would (a server cannot: the store keeps the built-in kinds
 * alone): GAME.INFO's pairs from the game, the STATE command from the
 * kind's own state_reply.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli/show.h"
#include "game/game.h"
#include "http/json.h"
#include "toykind.h"

static const int toy_pos[] = { 3, 1, 0 };

/* P2 to move after four steps; 3 players on a race to 10. */
static void
the_game(struct game *g)
{
	toy_game(g, "t1", 3, toy_pos, 10, 1, -1, 4);
}

/* ------------------------------------------------------- the table */

static void
test_the_table_knows_it(void **state)
{
	enum game_kind	 k = toy_register();
	char		 list[128];

	(void)state;
	assert_true((int)k >= KIND_COUNT);
	assert_int_equal(toy_register(), k);	/* added once */
	assert_ptr_equal(game_kind_get(k), &toy_kind);
	assert_int_equal(game_kind_parse("toy"), k);
	assert_ptr_equal(game_kind_named("toy"), &toy_kind);
	assert_string_equal(game_kind_name(k), "toy");
	assert_int_equal(game_kind_end(), (int)k + 1);
	assert_string_equal(game_kind_list(list, sizeof list),
	    "ludo, snl, dandy or toy");
	/* The built-in kinds are where they were. */
	assert_int_equal(game_kind_parse("ludo"), KIND_LUDO);
	assert_string_equal(game_kind_get(KIND_DANDY)->name, "dandy");
	assert_null(game_kind_get((enum game_kind)game_kind_end()));
	assert_null(game_kind_named("chess"));
}

static void
test_game_questions_go_through_it(void **state)
{
	struct game	 g;
	char		 name[PLAYER_NAME_MAX];

	(void)state;
	the_game(&g);
	assert_int_equal(game_nplayers(&g), 3);
	assert_int_equal(game_turn(&g), 1);
	assert_int_equal(game_winner(&g), -1);
	assert_string_equal(game_player_name(&g, 2, name, sizeof name), "P3");
	assert_int_equal(game_player_index(&g, "P2"), 1);
}

/* ------------------------------------------------------- the HTTP API */

static void
test_json_of_a_game(void **state)
{
	struct game	 g;
	json_t		*j, *s;

	(void)state;
	the_game(&g);
	assert_non_null(j = json_game(&g));
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
	    "toy");
	assert_string_equal(json_string_value(json_object_get(j, "title")),
	    "Toy");
	assert_int_equal(json_integer_value(json_object_get(j, "moves")), 4);
	assert_int_equal(json_array_size(json_object_get(j, "players")), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "players"), 2), "name")), "P3");
	assert_string_equal(json_string_value(json_object_get(j, "turn")),
	    "P2");
	assert_true(json_is_null(json_object_get(j, "winner")));
	s = json_object_get(j, "state");
	assert_int_equal(json_integer_value(json_object_get(s, "goal")), 10);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(s,
	    "positions"), 0)), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    j, "options"), "seats")), "open");
	json_decref(j);
	/* A list's summary: no state, no options. */
	j = json_game_summary(&g);
	assert_null(json_object_get(j, "state"));
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
	    "toy");
	json_decref(j);
}

/* The kind of that name in GET /api/kinds. */
static json_t *
described(json_t *all, const char *name)
{
	json_t	*k;
	size_t	 i;

	json_array_foreach(json_object_get(all, "kinds"), i, k)
		if (strcmp(json_string_value(json_object_get(k, "name")),
		    name) == 0)
			return k;
	return NULL;
}

static void
test_api_kinds_describes_it(void **state)
{
	static const char *const order[] = { "ludo", "snl", "dandy", "toy" };
	json_t	*all, *k, *form, *field, *arg, *ask;
	size_t	 i;

	(void)state;
	toy_register();
	all = json_kinds();
	/* Every kind, in the table's order, the toy after the others. */
	assert_int_equal(json_array_size(json_object_get(all, "kinds")), 4);
	json_array_foreach(json_object_get(all, "kinds"), i, k)
		assert_string_equal(json_string_value(json_object_get(k,
		    "name")), order[i]);
	assert_non_null(k = described(all, "toy"));
	assert_string_equal(json_string_value(json_object_get(k, "title")),
	    "Toy");
	assert_int_equal(json_integer_value(json_object_get(k,
	    "max_players")), 4);
	assert_string_equal(json_string_value(json_object_get(k, "players")),
	    "count");
	assert_true(json_is_false(json_object_get(k, "dice")));
	assert_true(json_is_null(json_object_get(k, "seat")));
	assert_true(json_is_null(json_object_get(k, "roll")));
	form = json_object_get(k, "form");
	assert_string_equal(json_string_value(json_object_get(form,
	    "players")), "3");
	assert_string_equal(json_string_value(json_object_get(form, "bots")),
	    "P3:first");
	assert_int_equal(json_array_size(json_object_get(form, "fields")), 1);
	field = json_array_get(json_object_get(form, "fields"), 0);
	assert_string_equal(json_string_value(json_object_get(field, "name")),
	    "goal");
	assert_string_equal(json_string_value(json_object_get(field,
	    "value")), "10");
	assert_true(json_is_true(json_object_get(field, "option")));
	assert_int_equal(json_array_size(json_object_get(k, "move")), 1);
	arg = json_array_get(json_object_get(k, "move"), 0);
	assert_string_equal(json_string_value(json_object_get(arg, "name")),
	    "step");
	assert_true(json_is_true(json_object_get(arg, "integer")));
	ask = json_object_get(arg, "ask");
	assert_string_equal(json_string_value(json_object_get(ask, "prompt")),
	    "Your turn, {player}: how far?");
	assert_int_equal(json_array_size(json_object_get(ask, "choices")), 3);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    ask, "choices"), 2)), "3");
	assert_null(json_object_get(ask, "draw"));
	/* A built-in kind's, from the same table: Ludo names its players
	 * and its seat, and rolls apart from its move. */
	k = described(all, "ludo");
	assert_string_equal(json_string_value(json_object_get(k, "players")),
	    "names");
	assert_string_equal(json_string_value(json_object_get(k, "seat")),
	    "player");
	assert_int_equal(json_array_size(json_object_get(k, "roll")), 1);
	json_decref(all);
}

/* ------------------------------------------------- the CLI's show */

/* A backend that answers as a server with the toy kind would. */
struct toy_backend {
	struct backend	 be;
	struct game	 g;
	char		 asked[4][64];	/* the commands, "NAME id" */
	int		 nasked;
	const char	*kind;		/* the kind GAME.INFO says */
};

static int
toy_exec(struct backend *be, int argc, char **argv, size_t *argl,
    struct reply *out)
{
	struct toy_backend *tb = (struct toy_backend *)be;
	char		 name[PLAYER_NAME_MAX];
	const struct game *g = &tb->g;

	(void)argl;
	if (tb->nasked < 4)
		snprintf(tb->asked[tb->nasked++], sizeof tb->asked[0],
		    "%s %s", argv[0], argc > 1 ? argv[1] : "");
	if (argc != 2 || strcmp(argv[1], g->id) != 0)
		reply_error(out, "NOGAME", "no such game");
	else if (strcmp(argv[0], "GAME.INFO") == 0) {
		reply_array(out);
		reply_add_pair(out, "kind", "%s", tb->kind);
		reply_add_pair(out, "players", "%d", game_nplayers(g));
		reply_add_pair(out, "moves", "%lld", (long long)g->moves);
		reply_add_pair(out, "turn", "%s", game_player_name(g,
		    game_turn(g), name, sizeof name));
		reply_add_pair(out, "winner", "%s", game_player_name(g,
		    game_winner(g), name, sizeof name));
	} else if (strcmp(argv[0], "TOY.STATE") == 0)
		toy_kind.state_reply(g, out);
	else
		reply_error(out, "ERR", "unknown command '%s'", argv[0]);
	return 0;
}

/* The text written to a file descriptor by a run of cli_show. */
struct captured {
	char	 path[32];
	int	 fd, saved, which;
};

static void
capture(struct captured *c, int which)
{
	snprintf(c->path, sizeof c->path, "/tmp/test_toykind.XXXXXX");
	assert_true((c->fd = mkstemp(c->path)) != -1);
	c->which = which;
	c->saved = dup(which);
	dup2(c->fd, which);
}

static char *
captured(struct captured *c)
{
	char	*buf;
	FILE	*f;
	long	 n;

	dup2(c->saved, c->which);
	close(c->saved);
	close(c->fd);
	assert_non_null(f = fopen(c->path, "r"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	unlink(c->path);
	return buf;
}

/* cli_show's stdout, its stderr in *err (when not NULL), its status. */
static char *
show(struct toy_backend *tb, int color, int *status, char **err)
{
	struct captured	 out, errs;

	fflush(stdout);
	fflush(stderr);
	capture(&out, STDOUT_FILENO);
	capture(&errs, STDERR_FILENO);
	*status = cli_show(&tb->be, "t1", color);
	fflush(stdout);
	fflush(stderr);
	if (err != NULL)
		*err = captured(&errs);
	else
		free(captured(&errs));
	return captured(&out);
}

static void
toy_backend_init(struct toy_backend *tb, const char *kind)
{
	memset(tb, 0, sizeof *tb);
	tb->be.exec = toy_exec;
	tb->kind = kind;
	the_game(&tb->g);
}

static void
test_ludus_show_draws_it(void **state)
{
	struct toy_backend tb;
	char		*out;
	int		 status;

	(void)state;
	toy_backend_init(&tb, "toy");
	out = show(&tb, 0, &status, NULL);
	assert_int_equal(status, 0);
	assert_string_equal(out, "Toy t1: 3 players, 4 moves, turn P2\n\n"
	    "race to 10\n"
	    "P1 [###.......] 3\n"
	    "P2 [#.........] 1\n"
	    "P3 [..........] 0\n");
	free(out);
	/* It asked the kind's own STATE command, named by the table. */
	assert_int_equal(tb.nasked, 2);
	assert_string_equal(tb.asked[0], "GAME.INFO t1");
	assert_string_equal(tb.asked[1], "TOY.STATE t1");
	/* In colour: the title bold, each player in its seat's colour. */
	tb.nasked = 0;
	out = show(&tb, 1, &status, NULL);
	assert_int_equal(status, 0);
	assert_true(strstr(out, "\033[1mToy\033[0m t1:") == out);
	assert_true(strstr(out, "\n\033[1;32mP2\033[0m [#") != NULL);
	free(out);
}

static void
test_ludus_show_of_a_kind_it_does_not_know(void **state)
{
	struct toy_backend tb;
	char		*out, *err;
	int		 status;

	(void)state;
	toy_backend_init(&tb, "chess");
	out = show(&tb, 0, &status, &err);
	assert_int_equal(status, 1);
	assert_string_equal(out, "");
	assert_string_equal(err, "ludus: game 't1' is of unknown kind "
	    "'chess'\n");
	assert_int_equal(tb.nasked, 1);		/* no STATE asked */
	free(out);
	free(err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_table_knows_it),
		cmocka_unit_test(test_game_questions_go_through_it),
		cmocka_unit_test(test_json_of_a_game),
		cmocka_unit_test(test_api_kinds_describes_it),
		cmocka_unit_test(test_ludus_show_draws_it),
		cmocka_unit_test(test_ludus_show_of_a_kind_it_does_not_know),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
