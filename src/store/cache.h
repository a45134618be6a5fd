/*
 * A bounded map of game id -> game snapshot, least recently used out
 * first: the store's copies of the snapshots it last read or wrote, so
 * that a turn need not read back the rows the previous one wrote.
 *
 * An entry holds the game encoded in a slot of GAME_CACHE_SLOT bytes:
 * only what the game uses (its players, its seats if it has any, the
 * state of its kind as the kind encodes it, its deck as long as it is).
 * A game whose encoding does not fit is not cached.  What
 * game_cache_get() decodes is byte for byte the game that was put,
 * provided every byte the game does not use is as the engine's init and
 * a load of the rows leave it: zero, or the init's "off the board"
 * (every game the store reads or writes).
 *
 * Plain bookkeeping: it knows nothing of the database.  Whether an entry
 * is still what the rows hold is the store core's to decide
 * (src/store/coherence.c), and it marks each entry with the transaction
 * and the turn savepoint that last put it, so that it can drop the
 * entries of one that is undone.
 *
 * All memory is taken in game_cache_new(); nothing after it allocates.
 */
#ifndef LUDUS_STORE_CACHE_H
#define LUDUS_STORE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

/* Bytes of memory per entry (a slot), and of a game's encoding in it. */
#define GAME_CACHE_SLOT		512
#define GAME_CACHE_SLOT_DATA	(GAME_CACHE_SLOT - 34)

enum cache_mark {
	CACHE_TXN = 0,		/* the transaction that last put the entry */
	CACHE_TURN,		/* the turn savepoint that last put it */
	CACHE_NMARKS
};

struct game_cache;

/* Room for games entries (at least 1); NULL when out of memory. */
struct game_cache	*game_cache_new(size_t games);
void			 game_cache_free(struct game_cache *);

/* The bytes game_cache_new(games) allocates (its slots and buckets);
 * SIZE_MAX if it would refuse the count. */
size_t			 game_cache_size(size_t games);

/* The functions below accept NULL, a cache that holds nothing. */
size_t		 game_cache_capacity(const struct game_cache *);
size_t		 game_cache_count(const struct game_cache *);
/* Decodes the entry of id into *g and makes it the most recently used:
 * 0; -1 if there is none (g is then no game: untouched, or zeroed if the
 * entry did not decode and was dropped). */
int		 game_cache_get(struct game_cache *, const char *id,
		    struct game *g);
/*
 * Encodes g in, replacing the entry of its id or, when full, the least
 * recently used one, and marks it: 0.  1 when g does not fit a slot (or
 * cannot be encoded): it is not cached, and an entry of its id is
 * removed.  -1 for a NULL cache.
 */
int		 game_cache_put(struct game_cache *, const struct game *g,
		    const uint64_t marks[CACHE_NMARKS]);
void		 game_cache_remove(struct game_cache *, const char *id);
/* Removes every entry whose marks[which] is mark (not 0); how many. */
size_t		 game_cache_drop(struct game_cache *, enum cache_mark which,
		    uint64_t mark);
/* ... whose marks[which] is mark or later (marks only grow: a savepoint
 * and those nested in it). */
size_t		 game_cache_drop_from(struct game_cache *,
		    enum cache_mark which, uint64_t mark);
/* Removes every entry; how many there were. */
size_t		 game_cache_clear(struct game_cache *);

/*
 * The encoding of an entry, for tests and sizing: g's into buf, its
 * length (against GAME_CACHE_SLOT_DATA), 0 if it does not fit in len
 * bytes or g is no game a load makes; GAME_CACHE_ENCODED_MAX always
 * holds one.  And back: -1 if buf holds no game.
 */
#define GAME_CACHE_ENCODED_MAX	4096
size_t		 game_cache_encode(const struct game *g, uint8_t *buf,
		    size_t len);
int		 game_cache_decode(const uint8_t *buf, size_t len,
		    struct game *g);

#endif /* LUDUS_STORE_CACHE_H */
