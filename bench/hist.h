/*
 * A latency histogram in nanoseconds with 64 sub-buckets per power of
 * two (under 1.6% error): fixed size, so recording a sample allocates
 * nothing and costs a few instructions.
 */
#ifndef BENCH_HIST_H
#define BENCH_HIST_H

#include <stdint.h>

#define HIST_LINEAR	128
#define HIST_SUB	64
#define HIST_BUCKETS	(HIST_LINEAR + (64 - 7) * HIST_SUB)

struct hist {
	uint64_t	count;
	uint64_t	b[HIST_BUCKETS];
};

void	hist_add(struct hist *, uint64_t ns);
/* The q-quantile (0 < q <= 1) in milliseconds; 0 when empty. */
double	hist_quantile_ms(const struct hist *, double q);

#endif /* BENCH_HIST_H */
