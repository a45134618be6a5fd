/*
 * The bench tools' latency histogram (see hist.h).
 */
#include "hist.h"

static int
hist_bucket(uint64_t v)
{
	int	e;

	if (v < HIST_LINEAR)
		return (int)v;
	e = 63 - __builtin_clzll(v);	/* >= 7 */
	return HIST_LINEAR + (e - 7) * HIST_SUB +
	    (int)((v >> (e - 6)) & (HIST_SUB - 1));
}

/* The middle of a bucket, in nanoseconds. */
static double
hist_value(int i)
{
	int	e, sub;

	if (i < HIST_LINEAR)
		return i;
	e = 7 + (i - HIST_LINEAR) / HIST_SUB;
	sub = (i - HIST_LINEAR) % HIST_SUB;
	return ((double)(HIST_SUB + sub) + 0.5) * (double)(1ULL << (e - 6));
}

void
hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_bucket(v)]++;
	h->count++;
}

double
hist_quantile_ms(const struct hist *h, double q)
{
	uint64_t	want, seen = 0;
	int		i;

	if (h->count == 0)
		return 0;
	want = (uint64_t)(q * (double)h->count + 0.999999);
	if (want < 1)
		want = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= want)
			return hist_value(i) / 1e6;
	}
	return hist_value(HIST_BUCKETS - 1) / 1e6;
}
