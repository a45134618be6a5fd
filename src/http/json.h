/*
 * What the web side says of a game: the game as JSON (jansson), a pure
 * function of a const struct game whose kind's members come from the
 * kind table's state_json (the kinds' web face, src/game/view.h, where
 * their render_svg draws the board too), the JSON of errors, and the
 * kinds as the page is told them.
 */
#ifndef LUDUS_HTTP_JSON_H
#define LUDUS_HTTP_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game/game.h"

/* ------------------------------------------------------------ json.c */

/* Makes jansson allocate with xmalloc (which aborts on out of memory),
 * so that no encoder has a NULL to handle.  Once, before any JSON. */
void	 web_json_init(void);
/* The game as GET /api/games/ID gives it: identity, counters, options,
 * and the kind's players, turn, winner and state. */
json_t	*json_game(const struct game *);
/* The game as a list gives it: no state, no options. */
json_t	*json_game_summary(const struct game *);
/* One history row: seq, player, action, result, at, by. */
json_t	*json_move(const struct move *);
/* {"error": code, "message": printf(fmt)} */
json_t	*json_error(const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* The HTTP status of an error code word (RESP's and the HTTP side's). */
int	 web_error_status(const char *code);
/* Compact text with a final newline; the caller frees it. */
char	*json_text(const json_t *, size_t *len);

/* ------------------------------------------------------- json_kind.c */

/* A kind as GET /api/kinds describes it: name, title, players, what the
 * page's create form asks of it and how the page asks a player for its
 * moves; and {"kinds": [every kind, in the table's order]}. */
json_t	*json_kind(const struct game_kind_ops *);
json_t	*json_kinds(void);

#endif /* LUDUS_HTTP_JSON_H */
