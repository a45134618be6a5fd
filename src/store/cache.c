/*
 * The game cache: a hash table of entries chained by bucket, and a doubly
 * linked list of the same entries, most recently used first, whose tail
 * is the one a full cache gives up.  The entries and the buckets all live
 * in the one block of game_cache_new(), zeroed and untouched until used:
 * memory the cache does not fill costs no RAM.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/cache.h"

struct entry {
	struct game	 game;		/* first: a game's address is ours */
	uint64_t	 marks[CACHE_NMARKS];
	uint32_t	 hash;
	struct entry	*hnext;		/* next in the bucket */
	struct entry	*prev, *next;	/* the use list; next: the free list */
};

struct game_cache {
	struct entry	**bucket;
	size_t		  mask;		/* buckets - 1 (a power of two) */
	size_t		  capacity;
	size_t		  count;
	struct entry	 *head;		/* most recently used */
	struct entry	 *tail;		/* least recently used */
	struct entry	 *free;		/* removed entries */
	size_t		  fresh;	/* entries never used yet: from here */
	struct entry	  entry[];	/* capacity of them, then the buckets */
};

/* FNV-1a: ids are short and the table is a power of two. */
static uint32_t
hash_id(const char *id)
{
	uint32_t	 h = 2166136261u;

	while (*id != '\0')
		h = (h ^ (unsigned char)*id++) * 16777619u;
	return h;
}

struct game_cache *
game_cache_new(size_t games)
{
	struct game_cache	*c;
	size_t			 nbucket = 1;

	/* Bounded so that neither the bucket count nor the size overflows
	 * (fewer than two buckets per entry). */
	if (games < 1 || games > (SIZE_MAX / 4 - sizeof(*c)) /
	    (sizeof(struct entry) + 2 * sizeof(struct entry *)))
		return NULL;
	/* At most one entry per bucket on average. */
	while (nbucket < games)
		nbucket *= 2;
	c = calloc(1, sizeof(*c) + games * sizeof(struct entry) +
	    nbucket * sizeof(struct entry *));
	if (c == NULL)
		return NULL;
	c->bucket = (struct entry **)(void *)(c->entry + games);
	c->mask = nbucket - 1;
	c->capacity = games;
	return c;
}

void
game_cache_free(struct game_cache *c)
{
	free(c);
}

size_t
game_cache_capacity(const struct game_cache *c)
{
	return c != NULL ? c->capacity : 0;
}

size_t
game_cache_count(const struct game_cache *c)
{
	return c != NULL ? c->count : 0;
}

/* The link that points at id's entry, or the NULL that ends its bucket. */
static struct entry **
find(struct game_cache *c, const char *id, uint32_t h)
{
	struct entry	**pp;

	for (pp = &c->bucket[h & c->mask]; *pp != NULL; pp = &(*pp)->hnext)
		if ((*pp)->hash == h && strcmp((*pp)->game.id, id) == 0)
			break;
	return pp;
}

static void
unlink_use(struct game_cache *c, struct entry *e)
{
	if (e->prev != NULL)
		e->prev->next = e->next;
	else
		c->head = e->next;
	if (e->next != NULL)
		e->next->prev = e->prev;
	else
		c->tail = e->prev;
	e->prev = e->next = NULL;
}

static void
push_use(struct game_cache *c, struct entry *e)
{
	e->prev = NULL;
	e->next = c->head;
	if (c->head != NULL)
		c->head->prev = e;
	else
		c->tail = e;
	c->head = e;
}

static void
touch(struct game_cache *c, struct entry *e)
{
	if (c->head != e) {
		unlink_use(c, e);
		push_use(c, e);
	}
}

static void
remove_entry(struct game_cache *c, struct entry *e)
{
	struct entry	**pp;

	pp = find(c, e->game.id, e->hash);
	*pp = e->hnext;
	e->hnext = NULL;
	unlink_use(c, e);
	e->next = c->free;
	c->free = e;
	c->count--;
}

struct game *
game_cache_get(struct game_cache *c, const char *id)
{
	struct entry	*e;

	if (c == NULL || (e = *find(c, id, hash_id(id))) == NULL)
		return NULL;
	touch(c, e);
	return &e->game;
}

struct game *
game_cache_put(struct game_cache *c, const struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	struct entry	*e;
	uint32_t	 h;

	if (c == NULL)
		return NULL;
	h = hash_id(g->id);
	if ((e = *find(c, g->id, h)) != NULL)
		touch(c, e);
	else {
		/* Full: the least recently used goes to the free list. */
		if (c->free == NULL && c->fresh == c->capacity)
			remove_entry(c, c->tail);
		if (c->free != NULL) {
			e = c->free;
			c->free = e->next;
		} else
			e = &c->entry[c->fresh++];
		e->hash = h;
		e->hnext = c->bucket[h & c->mask];
		c->bucket[h & c->mask] = e;
		push_use(c, e);
		c->count++;
	}
	memcpy(&e->game, g, sizeof(e->game));
	memcpy(e->marks, marks, sizeof(e->marks));
	return &e->game;
}

void
game_cache_mark(struct game_cache *c, struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	struct entry	*e = (struct entry *)(void *)g;

	(void)c;
	memcpy(e->marks, marks, sizeof(e->marks));
}

void
game_cache_remove(struct game_cache *c, const char *id)
{
	struct entry	*e;

	if (c != NULL && (e = *find(c, id, hash_id(id))) != NULL)
		remove_entry(c, e);
}

size_t
game_cache_drop(struct game_cache *c, enum cache_mark which, uint64_t mark)
{
	struct entry	*e, *next;
	size_t		 n = 0;

	if (c == NULL || mark == 0)
		return 0;
	for (e = c->head; e != NULL; e = next) {
		next = e->next;
		if (e->marks[which] == mark) {
			remove_entry(c, e);
			n++;
		}
	}
	return n;
}

size_t
game_cache_clear(struct game_cache *c)
{
	size_t	 n;

	if (c == NULL)
		return 0;
	n = c->count;
	while (c->head != NULL)
		remove_entry(c, c->head);
	return n;
}
