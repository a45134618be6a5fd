/*
 * The kinds as GET /api/kinds describes them, from the kind table alone:
 * each kind's name and title, its players, what the page's create form
 * asks of it and how the page asks a player for a move
 * (struct game_api, struct game_ask in game/kind.h).  The page
 * (web/ludus.js, web/create.js) knows no kind: a kind added to the table
 * is described here with no edit.  Pure: a function of the table.
 */
#include <string.h>

#include "game/game.h"
#include "http/json.h"

/* Sets key to s, or to null when s is NULL. */
static void
set_str(json_t *obj, const char *key, const char *s)
{
	json_object_set_new(obj, key, s != NULL ? json_string(s) :
	    json_null());
}

/* "1 2 3" as ["1", "2", "3"]. */
static json_t *
words_json(const char *s)
{
	json_t		*arr = json_array();
	size_t		 n;

	while (*s != '\0') {
		s += strspn(s, " ");
		if ((n = strcspn(s, " ")) > 0)
			json_array_append_new(arr, json_stringn(s, n));
		s += n;
	}
	return arr;
}

/* Sets key to s when the kind set it. */
static void
set_some(json_t *obj, const char *key, const char *s)
{
	if (s != NULL)
		json_object_set_new(obj, key, json_string(s));
}

/* How the page asks for an argument: the members the kind sets. */
static json_t *
ask_json(const struct game_ask *a)
{
	json_t	*obj = json_object();

	set_some(obj, "prompt", a->prompt);
	if (a->choices != NULL)
		json_object_set_new(obj, "choices", words_json(a->choices));
	set_some(obj, "board", a->board.values);
	set_some(obj, "by", a->board.by);
	set_some(obj, "none", a->board.none);
	set_some(obj, "none_label", a->board.none_label);
	set_some(obj, "none_prompt", a->board.none_prompt);
	/* A draw's unless is always said: its NULL is JSON's null. */
	if (a->draw.when != NULL) {
		json_object_set_new(obj, "draw", json_string(a->draw.when));
		set_str(obj, "unless", a->draw.unless);
	}
	set_some(obj, "held", a->draw.held);
	set_some(obj, "draw_label", a->draw.label);
	set_some(obj, "draw_prompt", a->draw.prompt);
	return obj;
}

/* A command's arguments, in order: name, integer, optional, ask. */
static json_t *
args_json(const struct game_arg *args)
{
	json_t	*arr = json_array(), *arg;
	int	 i;

	for (i = 0; i < GAME_API_ARGS && args[i].name != NULL; i++) {
		arg = json_pack("{s:s, s:b, s:b}", "name", args[i].name,
		    "integer", args[i].integer, "optional", args[i].optional);
		if (args[i].ask != NULL)
			json_object_set_new(arg, "ask", ask_json(args[i].ask));
		json_array_append_new(arr, arg);
	}
	return arr;
}

/* The create form: the players' first value, bots, hint, the fields. */
static json_t *
form_json(const struct game_api *api)
{
	json_t	*fields = json_array(), *obj;
	int	 i;

	for (i = 0; i < GAME_API_ARGS && api->form[i].name != NULL; i++) {
		obj = json_pack("{s:s, s:s, s:s, s:b, s:b}",
		    "name", api->form[i].name, "label", api->form[i].label,
		    "value", api->form[i].value != NULL ? api->form[i].value :
		    "", "option", api->form[i].option, "implied",
		    api->form[i].implied);
		if (api->form[i].choices != NULL)
			json_object_set_new(obj, "choices",
			    words_json(api->form[i].choices));
		json_array_append_new(fields, obj);
	}
	obj = json_object();
	set_str(obj, "players", api->form_players);
	set_str(obj, "bots", api->form_bots);
	set_str(obj, "hint", api->form_hint);
	json_object_set_new(obj, "fields", fields);
	return obj;
}

json_t *
json_kind(const struct game_kind_ops *k)
{
	const struct game_api	*api = k->api;
	json_t			*obj;

	/* players: the create takes their names where the kind names its
	 * players, else their count (src/http/http_write.c). */
	obj = json_pack("{s:s, s:s, s:i, s:i, s:s, s:b}",
	    "name", k->name, "title", k->title,
	    "min_players", k->min_players, "max_players", k->max_players,
	    "players", k->player_name != NULL ? "names" : "count",
	    "dice", k->no_dice == NULL);
	/* No writes over HTTP: nothing for the page to ask. */
	if (api == NULL) {
		json_object_set_new(obj, "form", json_null());
		json_object_set_new(obj, "seat", json_null());
		json_object_set_new(obj, "move", json_null());
		json_object_set_new(obj, "roll", json_null());
		return obj;
	}
	json_object_set_new(obj, "form", form_json(api));
	set_str(obj, "seat", api->seat_arg);
	json_object_set_new(obj, "move", args_json(api->move_args));
	json_object_set_new(obj, "roll", api->roll != NULL ?
	    args_json(api->roll_args) : json_null());
	return obj;
}

json_t *
json_kinds(void)
{
	const struct game_kind_ops	*k;
	json_t				*arr = json_array();
	int				 i;

	for (i = KIND_NONE + 1; i < game_kind_end(); i++)
		if ((k = game_kind_get((enum game_kind)i)) != NULL)
			json_array_append_new(arr, json_kind(k));
	return json_pack("{s:o}", "kinds", arr);
}
