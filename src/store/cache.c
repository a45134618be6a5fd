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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/cache.h"

struct slot {
	uint64_t	 marks[CACHE_NMARKS];
	uint32_t	 hash;
	uint32_t	 hnext;		/* next in the bucket */
	uint32_t	 prev, next;	/* the use list; next: the free list */
	uint16_t	 len;		/* bytes of data used */
	uint8_t		 data[GAME_CACHE_SLOT_DATA];	/* id length, id, ... */
};

_Static_assert(sizeof(struct slot) == GAME_CACHE_SLOT,
    "GAME_CACHE_SLOT_DATA does not fill a slot");
_Static_assert(GAME_ID_MAX <= UINT8_MAX && SNL_CELLS < UINT8_MAX &&
    GAME_MAX_PLAYERS <= UINT8_MAX, "lengths are encoded in a byte");

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
 * A game encoded: the id (its length, then its bytes), kind, the options'
 * bytes and a flags byte, then moves, created, updated, timeout and
 * deadline as varints; then the state of the kind, with its player count;
 * then the bots of its nplayers players if any has one, and their seat
 * hashes if the game has seats.  Integers are zigzag varints, so that any
 * value round-trips and small ones take a byte.  What is not encoded is
 * what the engine's init and a load of the rows leave: zero, and the
 * "off the board" of Ludo tokens and DandyLand players past nplayers.
 */

#define F_BOTS		0x01	/* the bots of the players follow */

/* The most a game takes: id, header and varints, the largest state of a
 * kind (DandyLand: board, deck, players), bots and seats. */
#define VARMAX		10
_Static_assert(1 + GAME_ID_MAX + 6 + 5 * VARMAX + 1 +
    5 * VARMAX + DANDY_BOARD_MAX + DANDY_DECK_MAX +
    2 * VARMAX * DANDY_MAX_PLAYERS +
    GAME_MAX_PLAYERS * (1 + SEAT_HASH_LEN) <= GAME_CACHE_ENCODED_MAX &&
    4 + 3 * VARMAX + LUDO_MAX_PLAYERS * (LUDO_TOKENS + 1 + GAME_ID_MAX) <=
    DANDY_DECK_MAX && 3 * VARMAX + SNL_MAX_PLAYERS + 1 +
    2 * (SNL_CELLS + 1) <= DANDY_DECK_MAX,
    "GAME_CACHE_ENCODED_MAX does not hold every game");

struct wr {
	uint8_t		*p, *end;
	int		 bad;		/* did not fit */
};

struct rd {
	const uint8_t	*p, *end;
	int		 bad;		/* ran out, or a value out of range */
};

static void
put_bytes(struct wr *w, const void *b, size_t n)
{
	if ((size_t)(w->end - w->p) < n) {
		w->bad = 1;
		return;
	}
	memcpy(w->p, b, n);
	w->p += n;
}

static void
put_u8(struct wr *w, unsigned v)
{
	if (w->p == w->end) {
		w->bad = 1;
		return;
	}
	*w->p++ = (uint8_t)v;
}

static void
put_var(struct wr *w, int64_t v)
{
	uint64_t	 u;

	u = ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
	while (u >= 0x80 && w->p != w->end) {
		*w->p++ = (uint8_t)(u | 0x80);
		u >>= 7;
	}
	put_u8(w, (unsigned)u);
}

static void
get_bytes(struct rd *r, void *b, size_t n)
{
	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return;
	}
	memcpy(b, r->p, n);
	r->p += n;
}

static unsigned
get_u8(struct rd *r)
{
	if (r->p == r->end) {
		r->bad = 1;
		return 0;
	}
	return *r->p++;
}

static int64_t
get_var(struct rd *r)
{
	uint64_t	 u = 0;
	unsigned	 b, shift = 0;

	do {
		if (r->p == r->end || shift > 63) {
			r->bad = 1;
			return 0;
		}
		b = *r->p++;
		u |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* An int field: what put_var() wrote of one is in range. */
static int
get_int(struct rd *r, int lo, int hi)
{
	int64_t	 v = get_var(r);

	if (v < lo || v > hi) {
		r->bad = 1;
		return 0;
	}
	return (int)v;
}

/* A string of at most GAME_ID_MAX bytes, its length first; -1 if longer
 * (not one a load makes). */
static int
put_name(struct wr *w, const char *s, size_t size)
{
	size_t	 n = strnlen(s, size);

	if (n > GAME_ID_MAX)
		return -1;
	put_u8(w, (unsigned)n);
	put_bytes(w, s, n);
	return 0;
}

static void
get_name(struct rd *r, char *s)
{
	size_t	 n = get_u8(r);

	if (n > GAME_ID_MAX)
		r->bad = 1;
	else
		get_bytes(r, s, n);
}

static int
enc_ludo(struct wr *w, const struct game *g, int np)
{
	const struct ludo_state	*st = &g->s.ludo;
	int			 i;

	if (np > LUDO_MAX_PLAYERS)
		return -1;
	put_bytes(w, &st->rules, sizeof(st->rules));
	put_var(w, st->turn);
	put_var(w, st->winner);
	put_var(w, st->sixes);
	put_bytes(w, st->pos, (size_t)np * LUDO_TOKENS);
	for (i = 0; i < np; i++)
		if (put_name(w, g->players[i], sizeof(g->players[i])) != 0)
			return -1;
	return 0;
}

static void
dec_ludo(struct rd *r, struct game *g, int np)
{
	struct ludo_state	*st = &g->s.ludo;
	int			 i;

	if (np > LUDO_MAX_PLAYERS) {
		r->bad = 1;
		return;
	}
	st->nplayers = np;
	get_bytes(r, &st->rules, sizeof(st->rules));
	st->turn = get_int(r, INT32_MIN, INT32_MAX);
	st->winner = get_int(r, INT32_MIN, INT32_MAX);
	st->sixes = get_int(r, INT32_MIN, INT32_MAX);
	memset(st->pos, LUDO_YARD, sizeof(st->pos));
	get_bytes(r, st->pos, (size_t)np * LUDO_TOKENS);
	for (i = 0; i < np; i++)
		get_name(r, g->players[i]);
}

/* The jumps as (cell, destination) pairs: a board has a few. */
static int
enc_snl(struct wr *w, const struct game *g, int np)
{
	const struct snl_state	*st = &g->s.snl;
	int			 c, n = 0;

	put_var(w, st->turn);
	put_var(w, st->winner);
	put_var(w, st->started);
	put_bytes(w, st->pos, (size_t)np);
	for (c = 0; c <= SNL_CELLS; c++)
		n += st->jump[c] != 0;
	put_u8(w, (unsigned)n);
	for (c = 0; c <= SNL_CELLS && !w->bad; c++)
		if (st->jump[c] != 0) {
			put_u8(w, (unsigned)c);
			put_u8(w, st->jump[c]);
		}
	return 0;
}

static void
dec_snl(struct rd *r, struct game *g, int np)
{
	struct snl_state	*st = &g->s.snl;
	unsigned		 c, n;

	st->nplayers = np;
	st->turn = get_int(r, INT32_MIN, INT32_MAX);
	st->winner = get_int(r, INT32_MIN, INT32_MAX);
	st->started = get_int(r, INT32_MIN, INT32_MAX);
	get_bytes(r, st->pos, (size_t)np);
	for (n = get_u8(r); n > 0 && !r->bad; n--) {
		if ((c = get_u8(r)) > SNL_CELLS)
			r->bad = 1;
		else
			st->jump[c] = (uint8_t)get_u8(r);
	}
}

/* The board and the deck as long as they are. */
static int
enc_dandy(struct wr *w, const struct game *g, int np)
{
	const struct dandy_state *st = &g->s.dandy;
	int			 i;

	if (np > DANDY_MAX_PLAYERS || st->board_len < 0 ||
	    st->board_len > DANDY_BOARD_MAX || st->deck_len < 0 ||
	    st->deck_len > DANDY_DECK_MAX)
		return -1;
	put_var(w, st->board_len);
	put_bytes(w, st->board, (size_t)st->board_len);
	put_var(w, st->has_deck);
	put_var(w, st->deck_len);
	put_var(w, st->drawn);
	put_bytes(w, st->deck, (size_t)st->deck_len);
	put_var(w, st->turn);
	for (i = 0; i < np; i++) {
		put_var(w, st->pos[i]);
		put_var(w, st->points[i]);
	}
	return 0;
}

static void
dec_dandy(struct rd *r, struct game *g, int np)
{
	struct dandy_state	*st = &g->s.dandy;
	int			 i;

	if (np > DANDY_MAX_PLAYERS) {
		r->bad = 1;
		return;
	}
	st->nplayers = np;
	st->board_len = get_int(r, 0, DANDY_BOARD_MAX);
	get_bytes(r, st->board, (size_t)st->board_len);
	st->has_deck = get_int(r, INT32_MIN, INT32_MAX);
	st->deck_len = get_int(r, 0, DANDY_DECK_MAX);
	st->drawn = get_int(r, INT32_MIN, INT32_MAX);
	get_bytes(r, st->deck, (size_t)st->deck_len);
	st->turn = get_int(r, INT32_MIN, INT32_MAX);
	for (i = 0; i < DANDY_MAX_PLAYERS; i++)
		st->pos[i] = DANDY_OFF;
	for (i = 0; i < np; i++) {
		st->pos[i] = get_int(r, INT32_MIN, INT32_MAX);
		st->points[i] = get_int(r, INT32_MIN, INT32_MAX);
	}
}

/* g's encoding in buf: its length, 0 if it does not fit in cap bytes or
 * is no game a load makes. */
static size_t
encode(const struct game *g, uint8_t *buf, size_t cap)
{
	const struct game_opts	*o = &g->opts;
	struct wr		 w = { buf, buf + cap, 0 };
	int			 np, i, rc;
	unsigned		 flags = 0;

	np = game_nplayers(g);
	if (np < 1 || np > GAME_MAX_PLAYERS ||
	    put_name(&w, g->id, sizeof(g->id)) != 0)
		return 0;
	for (i = 0; i < np; i++)
		if (o->bot[i] != 0)
			flags |= F_BOTS;
	put_u8(&w, (unsigned)g->kind);
	put_u8(&w, o->secure);
	put_u8(&w, o->server_dice);
	put_u8(&w, o->roll);
	put_u8(&w, o->roll_player);
	put_u8(&w, flags);
	put_var(&w, g->moves);
	put_var(&w, g->created);
	put_var(&w, g->updated);
	put_var(&w, o->timeout);
	put_var(&w, o->deadline);
	put_u8(&w, (unsigned)np);
	switch (g->kind) {
	case KIND_LUDO:
		rc = enc_ludo(&w, g, np);
		break;
	case KIND_SNL:
		rc = enc_snl(&w, g, np);
		break;
	case KIND_DANDY:
		rc = enc_dandy(&w, g, np);
		break;
	default:
		return 0;
	}
	if (flags & F_BOTS)
		put_bytes(&w, o->bot, (size_t)np);
	if (o->secure)
		put_bytes(&w, o->seat, (size_t)np * SEAT_HASH_LEN);
	return rc != 0 || w.bad ? 0 : (size_t)(w.p - buf);
}

/* The game encode() wrote, every byte set; -1 if it is not one. */
static int
decode(const uint8_t *buf, size_t len, struct game *g)
{
	struct game_opts	*o = &g->opts;
	struct rd		 r = { buf, buf + len, 0 };
	unsigned		 flags;
	int			 np;

	memset(g, 0, sizeof(*g));
	get_name(&r, g->id);
	g->kind = (enum game_kind)get_u8(&r);
	o->secure = (uint8_t)get_u8(&r);
	o->server_dice = (uint8_t)get_u8(&r);
	o->roll = (uint8_t)get_u8(&r);
	o->roll_player = (uint8_t)get_u8(&r);
	flags = get_u8(&r);
	g->moves = get_var(&r);
	g->created = get_var(&r);
	g->updated = get_var(&r);
	o->timeout = get_var(&r);
	o->deadline = get_var(&r);
	np = (int)get_u8(&r);
	if (np < 1 || np > GAME_MAX_PLAYERS)
		return -1;
	switch (g->kind) {
	case KIND_LUDO:
		dec_ludo(&r, g, np);
		break;
	case KIND_SNL:
		dec_snl(&r, g, np);
		break;
	case KIND_DANDY:
		dec_dandy(&r, g, np);
		break;
	default:
		return -1;
	}
	if (flags & F_BOTS)
		get_bytes(&r, o->bot, (size_t)np);
	if (o->secure)
		get_bytes(&r, o->seat, (size_t)np * SEAT_HASH_LEN);
	return r.bad || r.p != r.end ? -1 : 0;
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

struct game_cache *
game_cache_new(size_t games)
{
	struct game_cache	*c;
	size_t			 nbucket = 1;

	/* Bounded so that links fit and neither the bucket count nor the
	 * size overflows (fewer than two buckets per entry). */
	if (games < 1 || games >= UINT32_MAX || games > (SIZE_MAX / 4 -
	    sizeof(*c)) / (sizeof(struct slot) + 2 * sizeof(uint32_t)))
		return NULL;
	/* At most one entry per bucket on average. */
	while (nbucket < games)
		nbucket *= 2;
	c = calloc(1, sizeof(*c) + games * sizeof(struct slot) +
	    nbucket * sizeof(uint32_t));
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
		if (e->hash == h && e->data[0] == len &&
		    memcmp(e->data + 1, id, len) == 0)
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

	pp = find(c, e->data + 1, e->data[0], e->hash);
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

int
game_cache_put(struct game_cache *c, const struct game *g,
    const uint64_t marks[CACHE_NMARKS])
{
	uint8_t		 buf[GAME_CACHE_SLOT_DATA];
	struct slot	*e;
	size_t		 len;
	uint32_t	 h, i;

	if (c == NULL)
		return -1;
	if ((len = encode(g, buf, sizeof(buf))) == 0) {
		game_cache_remove(c, g->id);
		return 1;
	}
	h = hash_id(buf + 1, buf[0]);
	if ((i = *find(c, buf + 1, buf[0], h)) != 0)
		touch(c, i);
	else {
		/* Full: the least recently used goes to the free list. */
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
	}
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

size_t
game_cache_drop(struct game_cache *c, enum cache_mark which, uint64_t mark)
{
	uint32_t	 i, next;
	size_t		 n = 0;

	if (c == NULL || mark == 0)
		return 0;
	for (i = c->head; i != 0; i = next) {
		next = SLOT(c, i)->next;
		if (SLOT(c, i)->marks[which] == mark) {
			remove_slot(c, i);
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
	while (c->head != 0)
		remove_slot(c, c->head);
	return n;
}
