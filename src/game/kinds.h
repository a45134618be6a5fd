/*
 * The kinds' entries of the kind table, and what each kind's command
 * file (src/cmd/cmd_<kind>.c) uses of its kind's code.  Nobody else
 * includes this: the layers go through game_kinds[] (game/kind.h).
 */
#ifndef LUDUS_GAME_KINDS_H
#define LUDUS_GAME_KINDS_H

#include <stddef.h>

#include "game/game.h"

extern const struct game_kind_ops	kind_ludo;
extern const struct game_kind_ops	kind_snl;
extern const struct game_kind_ops	kind_dandy;

/*
 * One move of each kind applied to new (a copy of old) with its history
 * row filled in.  Ludo returns the engine's result (only a stored one
 * fills mv); Snake & Ladder and DandyLand return 0, or -1 when the value
 * or card is refused or the game is over.  A DandyLand card of 0 draws
 * from the deck.
 */
enum ludo_result kind_ludo_play(const struct game *old, struct game *new,
		    int player, int dice, int token, struct move *mv);
int		 kind_snl_roll(const struct game *old, struct game *new,
		    int value, struct move *mv);
int		 kind_dandy_draw(const struct game *old, struct game *new,
		    int card, struct move *mv);

/* The action of a move as history stores it: "<dice>:<token>", or the
 * value of a roll. */
void		 kind_ludo_action(char *buf, size_t len, int dice, int token);
void		 kind_snl_action(char *buf, size_t len, int value);

#endif /* LUDUS_GAME_KINDS_H */
