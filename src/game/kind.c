/*
 * The kind table: every game kind's entry, indexed by its enum
 * game_kind value (the number the store keeps in games.kind).
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
