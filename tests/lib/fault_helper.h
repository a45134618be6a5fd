/*
 * What the black-box tests of several nodes share (tests/fault/multinode
 * and pgfaults): a seeded generator, the TAP failure notes and their
 * count, a reply's text for a message.
 */
#ifndef LUDUS_FAULT_HELPER_H
#define LUDUS_FAULT_HELPER_H

#include <stdint.h>

struct reply;

/* The failures noted so far (fault_fail()). */
extern int	 fault_failures;

/* A number in [0, n) from the generator's state (splitmix64). */
int		 fault_rnd(uint64_t *state, int n);
/* "# FAIL: ..." on stdout, counted. */
void		 fault_fail(const char *fmt, ...)
		    __attribute__((format(printf, 1, 2)));
/* A reply's string, or "(none)". */
const char	*fault_text(const struct reply *);

#endif /* LUDUS_FAULT_HELPER_H */
