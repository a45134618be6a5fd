/*
 * What the fuzz harnesses share: the libFuzzer entry point, which the
 * plain replay driver (driver.c) calls too, and a check that aborts with
 * a message, so that a broken invariant is a crash libFuzzer records and
 * `make check` reports.
 */
#ifndef LUDUS_FUZZ_H
#define LUDUS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

#endif /* LUDUS_FUZZ_H */
