/*
 * A reply value as one line, for tests to compare: "+OK" "-ERR x" ":3"
 * "$abc" "(nil)", a list "[a b 3]", a push ">[move g 1 ...]", a map "%[k v
 * ...]" (shared by the black-box tests through rc_helper and the unit
 * tests of the command layer).
 */
#ifndef LUDUS_REPLY_FLAT_H
#define LUDUS_REPLY_FLAT_H

#include <stddef.h>

#include "util/reply.h"

void	reply_flat(const struct reply *, char *buf, size_t len);

#endif /* LUDUS_REPLY_FLAT_H */
