/*
 * The kind table: every game kind's entry, indexed by its enum
 * game_kind value (the number the store keeps in games.kind), and the
 * kinds a test adds after them.
 */
#include <stddef.h>

#include "game/kind.h"
#include "game/kinds.h"

const struct game_kind_ops *const game_kinds[KIND_COUNT] = {
	[KIND_NONE] = NULL,
	[KIND_LUDO] = &kind_ludo,
	[KIND_SNL] = &kind_snl,
	[KIND_DANDY] = &kind_dandy,
};

const struct game_kind_ops *game_kinds_added[KIND_ADDED_MAX];
int	 game_kinds_nadded;

enum game_kind
game_kind_add(const struct game_kind_ops *ops)
{
	if (game_kinds_nadded == KIND_ADDED_MAX)
		return KIND_NONE;
	game_kinds_added[game_kinds_nadded] = ops;
	return (enum game_kind)(KIND_COUNT + game_kinds_nadded++);
}

int
game_kind_end(void)
{
	return KIND_COUNT + game_kinds_nadded;
}
