/*
 * The game cache: a hash table of slots chained by bucket, and a doubly
 * linked list of the same slots, most recently used first, whose tail is
 * the one a full cache gives up.  The slots and the buckets all live in
 * the one block of game_cache_new(), zeroed and untouched until used:
 * memory the cache does not fill costs no RAM.  Links are slot indexes
 * plus one (0: none), half the size of pointers.
 *
 * A struct game is about 3.6 KB, sized for the largest game of any kind
 * (64 seat hashes, four Ludo names, a 1024-card deck), while a typical
 * one uses a few hundred bytes of it at most.  A slot holds only those:
 * the encoding below, which decode() turns back into the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/enc.h"
#include "store/cache.h"

struct slot {
	uint64_t	 marks[CACHE_NMARKS];
	uint32_t	 hash;
	uint32_t	 hnext;		/* next in the bucket */
	uint32_t	 prev, next;	/* the use list; next: the free list */
	uint16_t	 len;		/* bytes of data used */
	uint8_t		 data[GAME_CACHE_SLOT_DATA];	/* encode()'s */
};

_Static_assert(sizeof(struct slot) == GAME_CACHE_SLOT,
    "GAME_CACHE_SLOT_DATA does not fill a slot");

struct game_cache {
	uint32_t	*bucket;
	size_t		 mask;		/* buckets - 1 (a power of two) */
	size_t		 capacity;
	size_t		 count;
	uint32_t	 head;		/* most recently used */
	uint32_t	 tail;		/* least recently used */
	uint32_t	 free;		/* removed slots */
	size_t		 fresh;		/* slots never used yet: from here */
	struct slot	 slot[];	/* capacity of them, then the buckets */
};

#define SLOT(c, i)	(&(c)->slot[(i) - 1])

/* ----------------------------------------------------------- encoding */

/*
 * A game encoded: a fixed head (the 64-bit fields, the options' bytes,
 * the player count and the id's length), the id, then the kind's own
 * (its encode hook, src/game/kind_*.c: the state, and Ludo's players'
 * names), the bots of the nplayers players if any has one, and their
 * seat hashes if the game has seats.  Fields are copied as they are, so
 * that any value round-trips and a turn's decode and encode are a few
 * copies; only what varies in length is cut to what the game uses.  What
 * is not encoded is what the engine's init and a load of the rows leave:
 * zero, and the "off the board" of DandyLand players past nplayers.
 */

#define F_BOTS		0x01	/* the bots of the players follow */
#define F_STAMP		0x02	/* the row's stamp follows the id (only a
				   store with several writers has one) */

struct head {
	int64_t		 moves, created, updated, timeout, deadline;
	uint8_t		 kind, secure, server_dice, roll, roll_player;
	uint8_t		 flags, nplayers, idlen;
};

/* Where the id is, for find(). */
#define ID_LEN(d)	((d)[offsetof(struct head, idlen)])
#define ID(d)		((d) + sizeof(struct head))

/* The most a game takes: head, stamp and id, the largest state of a
 * kind, bots and seats. */
_Static_assert(sizeof(struct head) == 48, "struct head has padding");
_Static_assert(sizeof(struct head) + 8 + GAME_ID_MAX + GAME_ENC_KIND_MAX +
    GAME_MAX_PLAYERS * (1 + SEAT_HASH_LEN) <= GAME_CACHE_ENCODED_MAX,
    "GAME_CACHE_ENCODED_MAX does not hold every game");
/* Every Ludo game is cached, seats and stamp and all (kind_ludo.c
 * encodes its state and the players' names whole). */
_Static_assert(sizeof(struct head) + 8 + GAME_ID_MAX +
    sizeof(struct ludo_state) + LUDO_MAX_PLAYERS * (GAME_ID_MAX + 1 + 1 +
    SEAT_HASH_LEN) <= GAME_CACHE_SLOT_DATA, "a Ludo game does not fit a slot");
_Static_assert(GAME_ID_MAX <= UINT8_MAX && GAME_MAX_PLAYERS <= UINT8_MAX,
    "lengths are encoded in a byte");

/* g's encoding in buf: its length, 0 if it does not fit in cap bytes or
 * is no game a load makes. */
static size_t
encode(const struct game *g, uint8_t *buf, size_t cap)
{
	const struct game_opts	*o = &g->opts;
	const struct game_kind_ops *k = game_kind_of(g);
	struct game_enc		 w = { buf, buf + cap, 0 };
	struct head		 h;
	size_t			 idlen;
	int			 np, i, rc;

	np = game_nplayers(g);
	if (k == NULL || np < 1 || np > GAME_MAX_PLAYERS ||
	    (idlen = strnlen(g->id, sizeof(g->id))) > GAME_ID_MAX)
		return 0;
	h.moves = g->moves;
	h.created = g->created;
	h.updated = g->updated;
	h.timeout = o->timeout;
	h.deadline = o->deadline;
	h.kind = (uint8_t)g->kind;
	h.secure = o->secure;
	h.server_dice = o->server_dice;
	h.roll = o->roll;
	h.roll_player = o->roll_player;
	h.flags = g->stamp != 0 ? F_STAMP : 0;
	for (i = 0; i < np; i++)
		if (o->bot[i] != 0)
			h.flags |= F_BOTS;
	h.nplayers = (uint8_t)np;
	h.idlen = (uint8_t)idlen;
	enc_bytes(&w, &h, sizeof(h));
	enc_bytes(&w, g->id, idlen);
	if (h.flags & F_STAMP)
		enc_bytes(&w, &g->stamp, sizeof(g->stamp));
	rc = k->encode(&w, g, np);
	if (h.flags & F_BOTS)
		enc_bytes(&w, o->bot, (size_t)np);
	if (o->secure)
		enc_bytes(&w, o->seat, (size_t)np * SEAT_HASH_LEN);
	return rc != 0 || w.bad ? 0 : (size_t)(w.p - buf);
}

/* The game encode() wrote, every byte set; -1 if it is not one. */
static int
decode(const uint8_t *buf, size_t len, struct game *g)
{
	const struct game_kind_ops *k;
	struct game_opts	*o = &g->opts;
	struct game_dec		 r = { buf, buf + len, 0 };
	struct head		 h;
	int			 np;

	dec_bytes(&r, &h, sizeof(h));
	np = h.nplayers;
	if (r.bad || h.idlen > GAME_ID_MAX || np < 1 ||
	    np > GAME_MAX_PLAYERS)
		return -1;
	memset(g, 0, sizeof(*g));
	g->moves = h.moves;
	g->created = h.created;
	g->updated = h.updated;
	o->timeout = h.timeout;
	o->deadline = h.deadline;
	g->kind = (enum game_kind)h.kind;
	o->secure = h.secure;
	o->server_dice = h.server_dice;
	o->roll = h.roll;
	o->roll_player = h.roll_player;
	dec_bytes(&r, g->id, h.idlen);
	if (h.flags & F_STAMP)
		dec_bytes(&r, &g->stamp, sizeof(g->stamp));
	if ((k = game_kind_of(g)) == NULL)
		return -1;
	k->decode(&r, g, np);
	if (h.flags & F_BOTS)
		dec_bytes(&r, o->bot, (size_t)np);
	if (o->secure)
		dec_bytes(&r, o->seat, (size_t)np * SEAT_HASH_LEN);
	return r.bad || r.p != r.end || game_nplayers(g) != np ? -1 : 0;
}

size_t
game_cache_encode(const struct game *g, uint8_t *buf, size_t len)
{
	return encode(g, buf, len);
}

int
game_cache_decode(const uint8_t *buf, size_t len, struct game *g)
{
	return decode(buf, len, g);
}

/* -------------------------------------------------------------- map */

/* FNV-1a: ids are short and the table is a power of two. */
static uint32_t
hash_id(const uint8_t *id, size_t len)
{
	uint32_t	 h = 2166136261u;

	while (len-- > 0)
		h = (h ^ *id++) * 16777619u;
	return h;
}

/* At most one entry per bucket on average: a power of two. */
static size_t
buckets_for(size_t games)
{
	size_t	 nbucket = 1;

	while (nbucket < games)
		nbucket *= 2;
	return nbucket;
}

size_t
game_cache_size(size_t games)
{
	/* Bounded so that links fit and neither the bucket count nor the
	 * size overflows (fewer than two buckets per entry). */
	if (games < 1 || games >= UINT32_MAX || games > (SIZE_MAX / 4 -
	    sizeof(struct game_cache)) / (sizeof(struct slot) +
	    2 * sizeof(uint32_t)))
		return SIZE_MAX;
	return sizeof(struct game_cache) + games * sizeof(struct slot) +
	    buckets_for(games) * sizeof(uint32_t);
}

struct game_cache *
game_cache_new(size_t games)
{
	struct game_cache	*c;
	size_t			 size, nbucket;

	if ((size = game_cache_size(games)) == SIZE_MAX)
		return NULL;
	nbucket = buckets_for(games);
	c = calloc(1, size);
	if (c == NULL)
		return NULL;
	c->bucket = (uint32_t *)(void *)(c->slot + games);
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

/* The link that holds id's slot, or the 0 that ends its bucket. */
static uint32_t *
find(struct game_cache *c, const uint8_t *id, size_t len, uint32_t h)
{
	uint32_t	*pp;
	struct slot	*e;

	for (pp = &c->bucket[h & c->mask]; *pp != 0; pp = &e->hnext) {
		e = SLOT(c, *pp);
		if (e->hash == h && ID_LEN(e->data) == len &&
		    memcmp(ID(e->data), id, len) == 0)
			break;
	}
	return pp;
}

/* The slot of a caller's id, 0 if none. */
static uint32_t
lookup(struct game_cache *c, const char *id)
{
	size_t	 len;

	if (c == NULL || (len = strnlen(id, GAME_ID_MAX + 1)) > GAME_ID_MAX)
		return 0;
	return *find(c, (const uint8_t *)id, len,
	    hash_id((const uint8_t *)id, len));
}

static void
unlink_use(struct game_cache *c, uint32_t i)
{
	struct slot	*e = SLOT(c, i);

	if (e->prev != 0)
		SLOT(c, e->prev)->next = e->next;
	else
		c->head = e->next;
	if (e->next != 0)
		SLOT(c, e->next)->prev = e->prev;
	else
		c->tail = e->prev;
	e->prev = e->next = 0;
}

static void
push_use(struct game_cache *c, uint32_t i)
{
	struct slot	*e = SLOT(c, i);

	e->prev = 0;
	e->next = c->head;
	if (c->head != 0)
		SLOT(c, c->head)->prev = i;
	else
		c->tail = i;
	c->head = i;
}

static void
touch(struct game_cache *c, uint32_t i)
{
	if (c->head != i) {
		unlink_use(c, i);
		push_use(c, i);
	}
}

static void
remove_slot(struct game_cache *c, uint32_t i)
{
	struct slot	*e = SLOT(c, i);
	uint32_t	*pp;

	pp = find(c, ID(e->data), ID_LEN(e->data), e->hash);
	*pp = e->hnext;
	e->hnext = 0;
	unlink_use(c, i);
	e->next = c->free;
	c->free = i;
	c->count--;
}

int
game_cache_get(struct game_cache *c, const char *id, struct game *g)
{
	struct slot	*e;
	uint32_t	 i;

	if ((i = lookup(c, id)) == 0)
		return -1;
	e = SLOT(c, i);
	if (decode(e->data, e->len, g) != 0) {
		/* Not what encode() wrote: the slot was damaged. */
		memset(g, 0, sizeof(*g));
		remove_slot(c, i);
		return -1;
	}
	touch(c, i);
	return 0;
}

/* The slot of an encoded game's id: a new one, taken from the free
 * list, the never used or the least recently used, if it has none. */
static uint32_t
slot_for(struct game_cache *c, const uint8_t *buf)
{
	struct slot	*e;
	uint32_t	 h, i;

	h = hash_id(ID(buf), ID_LEN(buf));
	if ((i = *find(c, ID(buf), ID_LEN(buf), h)) != 0) {
		touch(c, i);
		return i;
	}
	if (c->free == 0 && c->fresh == c->capacity)
		remove_slot(c, c->tail);
	if (c->free != 0) {
		i = c->free;
		c->free = SLOT(c, i)->next;
	} else
		i = (uint32_t)++c->fresh;
	e = SLOT(c, i);
	e->hash = h;
	e->hnext = c->bucket[h & c->mask];
	c->bucket[h & c->mask] = i;
	push_use(c, i);
	c->count++;
	return i;
}

int
game_cache_put(struct game_cache *c, const struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	uint8_t		 buf[GAME_CACHE_SLOT_DATA];
	struct slot	*e;
	size_t		 len;
	uint32_t	 i;

	if (c == NULL)
		return -1;
	if ((len = encode(g, buf, sizeof(buf))) == 0) {
		game_cache_remove(c, g->id);
		return 1;
	}
	/* A write-through puts back the entry it has just got: no need to
	 * look it up again. */
	i = c->head;
	if (i == 0 || ID_LEN(SLOT(c, i)->data) != ID_LEN(buf) ||
	    memcmp(ID(SLOT(c, i)->data), ID(buf), ID_LEN(buf)) != 0)
		i = slot_for(c, buf);
	e = SLOT(c, i);
	memcpy(e->data, buf, len);
	e->len = (uint16_t)len;
	memcpy(e->marks, marks, sizeof(e->marks));
	return 0;
}

void
game_cache_remove(struct game_cache *c, const char *id)
{
	uint32_t	 i;

	if ((i = lookup(c, id)) != 0)
		remove_slot(c, i);
}

static size_t
drop(struct game_cache *c, enum cache_mark which, uint64_t mark, int later)
{
	uint32_t	 i, next;
	uint64_t	 m;
	size_t		 n = 0;

	if (c == NULL || mark == 0)
		return 0;
	for (i = c->head; i != 0; i = next) {
		next = SLOT(c, i)->next;
		m = SLOT(c, i)->marks[which];
		if (m == mark || (later && m > mark)) {
			remove_slot(c, i);
			n++;
		}
	}
	return n;
}

size_t
game_cache_drop(struct game_cache *c, enum cache_mark which, uint64_t mark)
{
	return drop(c, which, mark, 0);
}

size_t
game_cache_drop_from(struct game_cache *c, enum cache_mark which,
    uint64_t mark)
{
	return drop(c, which, mark, 1);
}

size_t
game_cache_clear(struct game_cache *c)
{
	size_t	 n;

	if (c == NULL)
		return 0;
	n = c->count;
	while (c->head != 0)
		remove_slot(c, c->head);
	return n;
}
