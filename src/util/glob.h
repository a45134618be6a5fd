/*
 * Glob patterns as Redis matches them (PSUBSCRIBE, SCAN MATCH, CONFIG GET,
 * PUBSUB CHANNELS): `*` any run of bytes, `?` any one byte, `[abc]`,
 * `[a-z]` and `[^...]` a byte of a set (or not of it), and a backslash
 * taking the next byte literally.  Binary safe.
 */
#ifndef LUDUS_GLOB_H
#define LUDUS_GLOB_H

#include <stddef.h>

/* 1 when the whole of str matches the whole of pattern, else 0.  Linear
 * in the product of the lengths at worst: a star backtracks only to the
 * last star seen, never recursively. */
int	glob_match(const char *pattern, size_t plen, const char *str,
	    size_t slen);

#endif /* LUDUS_GLOB_H */
