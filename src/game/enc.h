/*
 * The byte stream of the game cache's encoding (src/store/cache.c), for
 * the kinds' encode and decode hooks: bytes copied as they are, bounded
 * by the end of the buffer.  Inline: a cache hit decodes through these.
 */
#ifndef LUDUS_GAME_ENC_H
#define LUDUS_GAME_ENC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "game/game.h"

/* The most bytes a kind's encode() writes: the largest kind's state. */
#define GAME_ENC_KIND_MAX	sizeof(((struct game *)0)->s)

struct game_enc {
	uint8_t		*p, *end;
	int		 bad;		/* did not fit */
};

struct game_dec {
	const uint8_t	*p, *end;
	int		 bad;		/* ran out, or a length out of range */
};

static inline void
enc_bytes(struct game_enc *e, const void *b, size_t n)
{
	if ((size_t)(e->end - e->p) < n) {
		e->bad = 1;
		return;
	}
	memcpy(e->p, b, n);
	e->p += n;
}

static inline void
enc_u8(struct game_enc *e, unsigned v)
{
	if (e->p == e->end) {
		e->bad = 1;
		return;
	}
	*e->p++ = (uint8_t)v;
}

static inline void
dec_bytes(struct game_dec *d, void *b, size_t n)
{
	if ((size_t)(d->end - d->p) < n) {
		d->bad = 1;
		return;
	}
	memcpy(b, d->p, n);
	d->p += n;
}

static inline unsigned
dec_u8(struct game_dec *d)
{
	if (d->p == d->end) {
		d->bad = 1;
		return 0;
	}
	return *d->p++;
}

#endif /* LUDUS_GAME_ENC_H */
