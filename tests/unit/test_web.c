/*
 * The web side's pure functions: the markup buffer and its escaping, the
 * board of each kind as SVG (well-formed, every square, jump and piece
 * where the state puts it, every Ludo preset's lanes) and the game, its
 * moves and errors as JSON read back with jansson.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "game/kind.h"
#include "http/json.h"
#include "util/svg.h"

/* ------------------------------------------------------------ helpers */

/* Occurrences of needle in hay. */
static int
count(const char *hay, const char *needle)
{
	const char	*p = hay;
	int		 n = 0;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/*
 * A small XML well-formedness check, enough for what the renderers
 * write: every element closed in order, attribute values quoted, no raw
 * '<' or '&' outside markup and entities.  1 when well-formed.
 */
static int
well_formed(const char *s)
{
	char		 stack[64][32];
	int		 depth = 0;
	const char	*p = s, *e;
	size_t		 n;

	while (*p != '\0') {
		if (*p == '&') {
			if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) &&
			    strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&#39;", 5))
				return 0;
			p++;
			continue;
		}
		if (*p != '<') {
			p++;
			continue;
		}
		if ((e = strchr(p, '>')) == NULL)
			return 0;
		if (p[1] == '/') {
			n = (size_t)(e - p - 2);
			if (depth == 0 || n != strlen(stack[depth - 1]) ||
			    strncmp(p + 2, stack[--depth], n) != 0)
				return 0;
		} else {
			const char *q;
			int quotes = 0;

			for (q = p; q < e; q++) {
				if (*q == '"')
					quotes++;
				if (*q == '<' && q != p)
					return 0;
			}
			if (quotes % 2 != 0)
				return 0;
			if (e[-1] != '/') {
				n = strcspn(p + 1, " >/");
				if (depth == 64 || n >= 32)
					return 0;
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = '\0';
			}
		}
		p = e + 1;
	}
	return depth == 0;
}

static char *
render(const struct game *g)
{
	struct svg	 s;
	char		*out;

	svg_init(&s);
	assert_int_equal(game_kind_of(g)->render_svg(g, &s), 0);
	out = strdup(svg_str(&s));
	svg_free(&s);
	assert_true(well_formed(out));
	return out;
}

static void
ludo_game(struct game *g, const char *preset, int n)
{
	static const char *const names[] = { "red", "blue", "amy", "bo" };
	struct ludo_rules	 rules;
	int			 i;

	memset(g, 0, sizeof *g);
	strcpy(g->id, "g1");
	g->kind = KIND_LUDO;
	for (i = 0; i < n; i++)
		strcpy(g->players[i], names[i]);
	assert_int_equal(ludo_rules_preset(&rules, preset), 0);
	assert_int_equal(ludo_init(&g->s.ludo, &rules, n), 0);
}

static void
ludo_move(struct game *g, int player, int dice, int token)
{
	struct ludo_state	 next;

	assert_true(ludo_result_stored(ludo_play(&g->s.ludo, player, dice,
	    token, &next)));
	g->s.ludo = next;
	g->moves++;
}

static json_t *
game_json(const struct game *g)
{
	json_t	*j = json_game(g);
	char	*text;

	assert_non_null(j);
	/* What goes on the wire parses back. */
	text = json_text(j, NULL);
	json_decref(j);
	j = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(j);
	return j;
}

/* ------------------------------------------------------------- buffer */

static void
test_svg_esc_entities(void **unused)
{
	struct svg	 s;

	(void)unused;
	svg_init(&s);
	assert_string_equal(svg_str(&s), "");
	svg_esc(&s, "a<b>&\"c'\x01\td");
	assert_string_equal(svg_str(&s),
	    "a&lt;b&gt;&amp;&quot;c&#39;\xef\xbf\xbd\td");
	svg_free(&s);
}

static void
test_svg_printf_grows(void **unused)
{
	struct svg	 s;
	int		 i;

	(void)unused;
	svg_init(&s);
	for (i = 0; i < 2000; i++)
		svg_printf(&s, "<g n=\"%d\"/>", i);
	assert_int_equal(count(svg_str(&s), "<g "), 2000);
	assert_int_equal(s.len, strlen(svg_str(&s)));
	assert_true(well_formed(svg_str(&s)));
	svg_free(&s);
}

static void
test_render_wrong_kind(void **unused)
{
	struct game	 g;
	struct svg	 s;
	json_t		*obj = json_object();

	(void)unused;
	memset(&g, 0, sizeof g);
	g.kind = KIND_SNL;
	svg_init(&s);
	assert_int_equal(game_kinds[KIND_LUDO]->render_svg(&g, &s), -1);
	assert_int_equal(game_kinds[KIND_DANDY]->render_svg(&g, &s), -1);
	assert_int_equal(s.len, 0);
	assert_int_equal(game_kinds[KIND_LUDO]->state_json(&g, obj), -1);
	g.kind = KIND_NONE;
	assert_null(game_kind_of(&g));	/* no kind, no renderer */
	assert_null(json_game(&g));
	json_decref(obj);
	svg_free(&s);
}

/* --------------------------------------------------------------- Ludo */

static void
test_ludo_board_presets(void **unused)
{
	static const struct {
		const char	*preset;
		int		 lane;
	} presets[] = { { "classic", 6 }, { "interview", 5 },
	    { "extended", 5 } };
	struct game	 g;
	char		*svg;
	size_t		 i;

	(void)unused;
	for (i = 0; i < 3; i++) {
		ludo_game(&g, presets[i].preset, 4);
		svg = render(&g);
		assert_int_equal(count(svg, "class=\"sq"), 52);
		assert_int_equal(count(svg, "class=\"sq safe\""), 8);
		assert_int_equal(count(svg, "class=\"lane\""),
		    4 * presets[i].lane);
		assert_int_equal(count(svg, "class=\"finish\""), 4);
		assert_int_equal(count(svg, "class=\"yard"), 4);
		assert_int_equal(count(svg, "class=\"token\""), 16);
		assert_int_equal(count(svg, "data-loc=\"YARD\""), 16);
		assert_non_null(strstr(svg, presets[i].preset));
		free(svg);
	}
}

static void
test_ludo_tokens_follow_state(void **unused)
{
	struct game	 g;
	char		*svg;

	(void)unused;
	ludo_game(&g, "classic", 2);
	ludo_move(&g, 0, 6, 1);		/* red 1 out */
	ludo_move(&g, 0, 3, 1);		/* red 1 to 3 */
	ludo_move(&g, 1, 6, 2);		/* blue 2 out */
	svg = render(&g);
	assert_int_equal(count(svg, "class=\"token\""), 8);
	assert_non_null(strstr(svg, "data-player=\"red\" data-token=\"1\" "
	    "data-loc=\"TRACK\" data-pos=\"3\""));
	assert_non_null(strstr(svg, "data-player=\"blue\" data-token=\"2\" "
	    "data-loc=\"TRACK\" data-pos=\"0\""));
	assert_int_equal(count(svg, "data-loc=\"YARD\""), 6);
	/* The turn is blue's again after its six: its yard is outlined. */
	assert_int_equal(count(svg, "class=\"yard turn\""), 1);
	assert_non_null(strstr(svg, "blue 0/4 to move"));
	free(svg);
}

static void
test_ludo_home_and_finish(void **unused)
{
	struct game	 g;
	char		*svg;

	(void)unused;
	ludo_game(&g, "classic", 2);
	g.s.ludo.pos[0][0] = 57;		/* the sixth lane square */
	g.s.ludo.pos[0][1] = 58;		/* finished */
	g.s.ludo.pos[0][2] = 58;
	g.s.ludo.pos[1][3] = 10;
	svg = render(&g);
	assert_non_null(strstr(svg, "data-token=\"1\" data-loc=\"HOME\" "
	    "data-pos=\"57\""));
	assert_int_equal(count(svg, "data-loc=\"FINISHED\""), 2);
	assert_non_null(strstr(svg, "red 2/4"));
	free(svg);
}

static void
test_ludo_names_escaped(void **unused)
{
	struct game	 g;
	char		*svg;

	(void)unused;
	ludo_game(&g, "classic", 2);
	strcpy(g.players[1], "<b&\"x");
	svg = render(&g);
	assert_null(strstr(svg, "<b&"));
	assert_non_null(strstr(svg, "data-player=\"&lt;b&amp;&quot;x\""));
	free(svg);
}

static void
test_ludo_json(void **unused)
{
	struct game	 g;
	json_t		*j, *tok;

	(void)unused;
	ludo_game(&g, "extended", 3);
	ludo_move(&g, 0, 6, 1);
	g.opts.bot[2] = 3;			/* expert */
	j = game_json(&g);
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
	    "ludo");
	assert_int_equal(json_integer_value(json_object_get(j, "moves")), 1);
	assert_string_equal(json_string_value(json_object_get(j, "turn")),
	    "red");
	assert_true(json_is_null(json_object_get(j, "winner")));
	assert_int_equal(json_array_size(json_object_get(j, "players")), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(j, "players"), 2), "bot")), "expert");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    json_object_get(j, "state"), "rules"), "preset")), "extended");
	tok = json_array_get(json_object_get(json_object_get(j, "state"),
	    "tokens"), 0);
	assert_string_equal(json_string_value(json_object_get(tok,
	    "location")), "TRACK");
	assert_int_equal(json_integer_value(json_object_get(tok,
	    "position")), 0);
	assert_int_equal(json_integer_value(json_object_get(tok, "square")),
	    0);
	tok = json_array_get(json_object_get(json_object_get(j, "state"),
	    "tokens"), 4);			/* blue 1, in its yard */
	assert_int_equal(json_integer_value(json_object_get(tok,
	    "position")), -1);
	assert_true(json_is_null(json_object_get(tok, "square")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    j, "options"), "seats")), "open");
	json_decref(j);
}

/* ---------------------------------------------------- Snake & Ladder */

static void
snl_game(struct game *g, int n)
{
	const char	*why;

	memset(g, 0, sizeof *g);
	strcpy(g->id, "s1");
	g->kind = KIND_SNL;
	assert_int_equal(snl_init(&g->s.snl, n), 0);
	assert_int_equal(snl_add_ladder(&g->s.snl, 3, 38, &why), 0);
	assert_int_equal(snl_add_ladder(&g->s.snl, 28, 84, &why), 0);
	assert_int_equal(snl_add_snake(&g->s.snl, 97, 78, &why), 0);
}

static void
test_snl_board(void **unused)
{
	struct game		 g;
	struct snl_state	 next;
	struct snl_result	 res;
	char			*svg;

	(void)unused;
	snl_game(&g, 3);
	assert_int_equal(snl_roll(&g.s.snl, 3, &next, &res), 0);	/* P1 */
	g.s.snl = next;
	assert_int_equal(snl_roll(&g.s.snl, 5, &next, &res), 0);	/* P2 */
	g.s.snl = next;
	g.moves = 2;
	svg = render(&g);
	assert_int_equal(count(svg, "class=\"cell\""), 100);
	assert_int_equal(count(svg, "class=\"ladder\""), 2);
	assert_int_equal(count(svg, "class=\"snake\""), 1);
	assert_non_null(strstr(svg, "data-from=\"97\" data-to=\"78\""));
	assert_non_null(strstr(svg, "data-player=\"P1\" data-pos=\"38\""));
	assert_non_null(strstr(svg, "data-player=\"P2\" data-pos=\"5\""));
	assert_non_null(strstr(svg, "data-player=\"P3\" data-pos=\"0\""));
	free(svg);
}

static void
test_snl_many_players(void **unused)
{
	struct game	 g;
	char		*svg;
	int		 i;

	(void)unused;
	snl_game(&g, SNL_MAX_PLAYERS);
	for (i = 0; i < 20; i++)
		g.s.snl.pos[i] = 50;		/* a crowd on one cell */
	svg = render(&g);
	assert_int_equal(count(svg, "class=\"piece\""), SNL_MAX_PLAYERS);
	assert_int_equal(count(svg, "data-pos=\"50\""), 20);
	free(svg);
}

static void
test_snl_json(void **unused)
{
	struct game	 g;
	json_t		*j, *st;

	(void)unused;
	snl_game(&g, 2);
	g.s.snl.winner = 1;
	g.s.snl.turn = -1;
	j = game_json(&g);
	st = json_object_get(j, "state");
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
	    "snl");
	assert_string_equal(json_string_value(json_object_get(j, "winner")),
	    "P2");
	assert_true(json_is_null(json_object_get(j, "turn")));
	assert_int_equal(json_array_size(json_object_get(st, "ladders")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(st, "snakes"), 0), "tail")), 78);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(st, "positions"), 1), "position")), 0);
	json_decref(j);
}

/* ---------------------------------------------------------- DandyLand */

static void
dandy_game(struct game *g, const char *deck)
{
	const char	*why;

	memset(g, 0, sizeof *g);
	strcpy(g->id, "d1");
	g->kind = KIND_DANDY;
	assert_int_equal(dandy_init(&g->s.dandy, 3, "abcdefghi", deck, &why),
	    0);
}

static void
test_dandy_board(void **unused)
{
	struct game		 g;
	struct dandy_state	 next;
	struct dandy_result	 res;
	char			*svg;

	(void)unused;
	dandy_game(&g, NULL);
	assert_int_equal(dandy_draw(&g.s.dandy, 'c', &next, &res), 0);
	g.s.dandy = next;
	g.moves = 1;
	svg = render(&g);
	assert_int_equal(count(svg, "class=\"square\""), 9);
	assert_non_null(strstr(svg, "data-square=\"3\" data-letter=\"c\""));
	assert_non_null(strstr(svg, "data-player=\"P1\" data-pos=\"3\" "
	    "data-points=\"0\""));
	assert_int_equal(count(svg, "data-pos=\"OFF\""), 2);
	assert_non_null(strstr(svg, "P2 0 points"));
	free(svg);
}

static void
test_dandy_json_hides_deck(void **unused)
{
	struct game	 g;
	json_t		*j, *deck;
	char		*text;

	(void)unused;
	dandy_game(&g, "ihgfedcba");
	g.opts.server_dice = 1;
	j = json_game(&g);
	text = json_text(j, NULL);
	/* The cards are never shown: not as the deck, not in any order. */
	assert_null(strstr(text, "ihgfedcba"));
	deck = json_object_get(json_object_get(j, "state"), "deck");
	assert_string_equal(json_string_value(json_object_get(deck, "kind")),
	    "shuffled");
	assert_int_equal(json_integer_value(json_object_get(deck,
	    "cards_left")), 9);
	assert_null(json_object_get(json_object_get(j, "options"), "dice"));
	assert_true(json_is_null(json_object_get(j, "winner")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    j, "state"), "board")), "abcdefghi");
	free(text);
	json_decref(j);
}

/* ------------------------------------------------------- moves, errors */

static void
test_json_move_and_summary(void **unused)
{
	struct move	 mv = { 7, "P2", "5", "P2 31", 1700000000, MOVE_TIMEOUT };
	struct game	 g;
	json_t		*j;

	(void)unused;
	j = json_move(&mv);
	assert_int_equal(json_integer_value(json_object_get(j, "seq")), 7);
	assert_string_equal(json_string_value(json_object_get(j, "result")),
	    "P2 31");
	assert_string_equal(json_string_value(json_object_get(j, "by")),
	    "timeout");
	json_decref(j);
	ludo_game(&g, "classic", 2);
	j = json_game_summary(&g);
	assert_null(json_object_get(j, "state"));
	assert_non_null(json_object_get(j, "players"));
	json_decref(j);
}

static void
test_json_error_status(void **unused)
{
	json_t	*j;

	(void)unused;
	j = json_error("NOGAME", "no such game '%s'", "x\r\ny");
	assert_string_equal(json_string_value(json_object_get(j, "error")),
	    "NOGAME");
	assert_string_equal(json_string_value(json_object_get(j, "message")),
	    "no such game 'x  y'");
	json_decref(j);
	assert_int_equal(web_error_status("NOGAME"), 404);
	assert_int_equal(web_error_status("BADARG"), 400);
	assert_int_equal(web_error_status("STATE"), 409);
	assert_int_equal(web_error_status("STALE"), 409);
	assert_int_equal(web_error_status("NOSEAT"), 403);
	assert_int_equal(web_error_status("STORE"), 503);
	assert_int_equal(web_error_status("HOST"), 421);
	/* The lobby's: an account's token missing or wrong, an account or
	 * a ticket that is none (or another account's). */
	assert_int_equal(web_error_status("NOLOGIN"), 401);
	assert_int_equal(web_error_status("WRONGKEY"), 401);
	assert_int_equal(web_error_status("NOACCOUNT"), 404);
	assert_int_equal(web_error_status("NOTICKET"), 404);
	assert_int_equal(web_error_status("what"), 500);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg_esc_entities),
		cmocka_unit_test(test_svg_printf_grows),
		cmocka_unit_test(test_render_wrong_kind),
		cmocka_unit_test(test_ludo_board_presets),
		cmocka_unit_test(test_ludo_tokens_follow_state),
		cmocka_unit_test(test_ludo_home_and_finish),
		cmocka_unit_test(test_ludo_names_escaped),
		cmocka_unit_test(test_ludo_json),
		cmocka_unit_test(test_snl_board),
		cmocka_unit_test(test_snl_many_players),
		cmocka_unit_test(test_snl_json),
		cmocka_unit_test(test_dandy_board),
		cmocka_unit_test(test_dandy_json_hides_deck),
		cmocka_unit_test(test_json_move_and_summary),
		cmocka_unit_test(test_json_error_status),
	};

	web_json_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
