/*
 * A bounded map of game id -> struct game, least recently used out first:
 * the SQLite store's copies of the snapshots it last read or wrote, so
 * that a turn need not read back the rows the previous one wrote.
 *
 * Plain bookkeeping: it knows nothing of the database.  Whether an entry
 * is still what the rows hold is the store's to decide (src/store/sqlite.c),
 * and it marks each entry with the transaction and the turn savepoint
 * that last put it, so that it can drop the entries of one that is undone.
 *
 * All memory is taken in game_cache_new(); nothing after it allocates.
 */
#ifndef LUDUS_STORE_CACHE_H
#define LUDUS_STORE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum cache_mark {
	CACHE_TXN = 0,		/* the transaction that last put the entry */
	CACHE_TURN,		/* the turn savepoint that last put it */
	CACHE_NMARKS
};

struct game_cache;

/* Room for games entries (at least 1); NULL when out of memory. */
struct game_cache	*game_cache_new(size_t games);
void			 game_cache_free(struct game_cache *);

/* The functions below accept NULL, a cache that holds nothing. */
size_t		 game_cache_capacity(const struct game_cache *);
size_t		 game_cache_count(const struct game_cache *);
/* The entry of id, made the most recently used; NULL if none.  The
 * pointer is good until the next put, remove, drop or clear. */
struct game	*game_cache_get(struct game_cache *, const char *id);
/* Copies g in, replacing the entry of its id or, when full, the least
 * recently used one, and marks it; the entry. */
struct game	*game_cache_put(struct game_cache *, const struct game *g,
		    const uint64_t marks[CACHE_NMARKS]);
/* Sets the marks of an entry that game_cache_get() returned. */
void		 game_cache_mark(struct game_cache *, struct game *,
		    const uint64_t marks[CACHE_NMARKS]);
void		 game_cache_remove(struct game_cache *, const char *id);
/* Removes every entry whose marks[which] is mark (not 0); how many. */
size_t		 game_cache_drop(struct game_cache *, enum cache_mark which,
		    uint64_t mark);
/* Removes every entry; how many there were. */
size_t		 game_cache_clear(struct game_cache *);

#endif /* LUDUS_STORE_CACHE_H */
