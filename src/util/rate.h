/*
 * A rate limit in one 64-bit word: the generic cell rate algorithm
 * (GCRA, the leaky bucket as a virtual scheduler).  A limit of "burst
 * events at once, then one every interval" keeps only the time at which
 * the bucket would next be empty (the theoretical arrival time); an
 * event is within the limit when that time is at most (burst - 1)
 * intervals ahead of now.  Pure: the caller gives the time, in any unit
 * (the daemon uses microseconds of a monotonic clock), so the rule is
 * tested without a clock.
 */
#ifndef LUDUS_RATE_H
#define LUDUS_RATE_H

#include <stdint.h>

struct rate {
	int64_t	 tat;		/* 0: never used, a full burst */
};

/*
 * An event at now: 1 when it is within the limit (it is counted), 0
 * when it is not (nothing changes), with *wait (NULL: not wanted) the
 * time until one would be.  interval >= 0 and burst >= 1.
 */
int	rate_take(struct rate *, int64_t now, int64_t interval, int64_t burst,
	    int64_t *wait);
/* Gives back one event that rate_take() counted (what it was for did not
 * happen). */
void	rate_give_back(struct rate *, int64_t interval);
/* 1 when the limit has its whole burst again at now: a limiter in that
 * state may be forgotten (a new one is the same). */
int	rate_idle(const struct rate *, int64_t now);

#endif /* LUDUS_RATE_H */
