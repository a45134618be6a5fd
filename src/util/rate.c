/*
 * The generic cell rate algorithm: see rate.h.
 */
#include <stddef.h>

#include "util/rate.h"

int
rate_take(struct rate *r, int64_t now, int64_t interval, int64_t burst,
    int64_t *wait)
{
	int64_t	 tau = (burst - 1) * interval;	/* the tolerance */
	int64_t	 tat = r->tat > now ? r->tat : now;

	if (tat - tau > now) {
		if (wait != NULL)
			*wait = tat - tau - now;
		return 0;
	}
	r->tat = tat + interval;
	if (wait != NULL)
		*wait = 0;
	return 1;
}

void
rate_give_back(struct rate *r, int64_t interval)
{
	r->tat -= interval;
}

int
rate_idle(const struct rate *r, int64_t now)
{
	return r->tat <= now;
}
