/*
 * The kind table (src/game/kind.h): every entry complete, named and
 * found by its name, and the model's answers through it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "game/game.h"

/* Every kind has the hooks every layer calls without asking. */
static void
test_kind_entries_complete(void **state)
{
	const struct game_kind_ops	*k;
	int				 i;

	(void)state;
	assert_null(game_kinds[KIND_NONE]);
	assert_null(game_kind_get(KIND_NONE));
	assert_null(game_kind_get((enum game_kind)KIND_COUNT));
	for (i = KIND_NONE + 1; i < KIND_COUNT; i++) {
		k = game_kinds[i];
		assert_non_null(k);
		assert_ptr_equal(game_kind_get((enum game_kind)i), k);
		assert_non_null(k->name);
		assert_non_null(k->title);
		assert_true(k->min_players >= 1);
		assert_true(k->max_players >= k->min_players);
		assert_true(k->max_players <= GAME_MAX_PLAYERS);
		assert_int_equal(game_kind_parse(k->name), i);
		assert_string_equal(game_kind_name((enum game_kind)i),
		    k->name);
		assert_non_null(k->nplayers);
		assert_non_null(k->turn);
		assert_true((k->player_name == NULL) ==
		    (k->player_index == NULL));
		assert_non_null(k->to_row);
		assert_non_null(k->from_row);
		assert_non_null(k->put_play);
		assert_non_null(k->tokens);
		assert_non_null(k->token_put);
		assert_true((k->cells == NULL) == (k->cell_put == NULL));
		assert_non_null(k->same_rules);
		assert_non_null(k->encode);
		assert_non_null(k->decode);
		assert_non_null(k->replay_init);
		assert_non_null(k->replay_step);
		assert_non_null(k->differs);
		assert_non_null(k->bot_can_play);
		assert_non_null(k->bot_needs);
		assert_non_null(k->autoplay);
		assert_non_null(k->state_reply);
		assert_non_null(k->info_random);
	}
}

static void
test_kind_names(void **state)
{
	char	 buf[64];

	(void)state;
	assert_string_equal(game_kind_list(buf, sizeof(buf)),
	    "ludo, snl or dandy");
	assert_int_equal(game_kind_parse("chess"), KIND_NONE);
	assert_string_equal(game_kind_name(KIND_NONE), "none");
	assert_string_equal(game_kind_name((enum game_kind)99), "none");
}

/* Ludo names its players by id, the other kinds P1..Pn. */
static void
test_player_naming(void **state)
{
	struct ludo_rules	 rules;
	struct game		 g;
	char			 buf[PLAYER_NAME_MAX];

	(void)state;
	memset(&g, 0, sizeof(g));
	g.kind = KIND_LUDO;
	assert_int_equal(ludo_rules_preset(&rules, "classic"), 0);
	assert_int_equal(ludo_init(&g.s.ludo, &rules, 2), 0);
	strcpy(g.players[0], "red");
	strcpy(g.players[1], "blue");
	assert_int_equal(game_nplayers(&g), 2);
	assert_int_equal(game_turn(&g), 0);
	assert_int_equal(game_winner(&g), -1);
	assert_string_equal(game_player_name(&g, 1, buf, sizeof(buf)),
	    "blue");
	assert_string_equal(game_player_name(&g, 2, buf, sizeof(buf)),
	    "NONE");
	assert_int_equal(game_player_index(&g, "blue"), 1);
	assert_int_equal(game_player_index(&g, "P1"), -1);

	memset(&g, 0, sizeof(g));
	g.kind = KIND_SNL;
	assert_int_equal(snl_init(&g.s.snl, 12), 0);
	assert_string_equal(game_player_name(&g, 11, buf, sizeof(buf)),
	    "P12");
	assert_string_equal(game_player_name(&g, -1, buf, sizeof(buf)),
	    "NONE");
	assert_int_equal(game_player_index(&g, "P12"), 11);
	assert_int_equal(game_player_index(&g, "P13"), -1);
	assert_int_equal(game_player_index(&g, "P01"), -1);

	memset(&g, 0, sizeof(g));
	g.kind = KIND_DANDY;
	assert_int_equal(dandy_init(&g.s.dandy, 3, "abc", NULL, NULL), 0);
	assert_int_equal(game_winner(&g), -1);
	assert_int_equal(game_player_index(&g, "P3"), 2);

	memset(&g, 0, sizeof(g));
	assert_int_equal(game_nplayers(&g), 0);
	assert_int_equal(game_turn(&g), -1);
	assert_int_equal(game_player_index(&g, "P1"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_entries_complete),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_player_naming),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
