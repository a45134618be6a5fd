/*
 * What the web side draws and says of a game: the board as SVG and the
 * game as JSON (jansson), both pure functions of a const struct game.
 * Each kind has one renderer and one state encoder, in its own files
 * (svg_<kind>.c, json_<kind>.c); they are the kind table's render_svg and
 * state_json hooks once struct game_kind carries them.
 */
#ifndef LUDUS_WEB_WEB_H
#define LUDUS_WEB_WEB_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"
#include "web/svg.h"

/* ------------------------------------------------------ per-kind hooks */

/*
 * Appends the whole <svg> element of the board to out; 0, or -1 (nothing
 * added) when the game is not of the renderer's kind.
 */
int	render_svg_ludo(const struct game *, struct svg *);
int	render_svg_snl(const struct game *, struct svg *);
int	render_svg_dandy(const struct game *, struct svg *);

/*
 * Sets the kind's members of a game object: "players" (names, bots),
 * "turn", "winner" and "state"; 0, or -1 when the game is not of the
 * encoder's kind.
 */
int	json_state_ludo(const struct game *, json_t *obj);
int	json_state_snl(const struct game *, json_t *obj);
int	json_state_dandy(const struct game *, json_t *obj);

/* ------------------------------------------------------------ seat.c */

/* One seat of the "players" array: {"name": name, "bot": its strategy
 * or null}. */
json_t	*json_seat(const struct game *, int i, const char *name);
/* A player's name, or null for index -1 (no turn, no winner). */
json_t	*json_name_or_null(const char *name, int index);
/* "P<i+1>": the name of seat i of a Snake & Ladder or DandyLand game
 * (game_player_name() in the game room replaces it). */
void	 web_seat_name(char *buf, size_t len, int i);

/* -------------------------------------------------------- web_kind.c */

/* The kind's hooks, by g->kind; -1 for a kind without them. */
int	web_render_svg(const struct game *, struct svg *);
int	web_state_json(const struct game *, json_t *obj);
/* "Ludo", "Snake & Ladder", "DandyLand"; "?" for none. */
const char *web_kind_title(int kind);

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

#endif /* LUDUS_WEB_WEB_H */
