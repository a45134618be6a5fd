/*
 * The matcher (match.h): the oldest waiting ticket first, its group
 * among the tickets compatible with it, largest player count first.
 *
 * Only tickets whose ratings lie in the anchor's window can join its
 * group, so the tickets are sorted by rating once and each anchor looks
 * at that slice alone: a queue of many tickets that are all out of each
 * other's reach costs n log n, not n squared.
 */
#include <math.h>
#include <string.h>

#include "lobby/match.h"

double
match_window(const struct match_ticket *t, const struct match_params *p,
    int64_t now_ms)
{
	int64_t	 waited = now_ms - t->joined_ms;

	if (waited < 0)
		waited = 0;
	return t->window + p->widen * ((double)waited / 1000.0);
}

int
match_compatible(const struct match_ticket *a, const struct match_ticket *b,
    const struct match_params *p, int64_t now_ms)
{
	double	 d = fabs(a->rating - b->rating);

	return strcmp(a->account, b->account) != 0 &&
	    d <= match_window(a, p, now_ms) && d <= match_window(b, p, now_ms);
}

/* ------------------------------------------------------------ sorting */

/* Heap sorts of indexes: by rating (t given) or by value (t NULL, which
 * for indexes into the tickets is their age). */
static int
before(const struct match_ticket *t, int a, int b)
{
	if (t == NULL)
		return a < b;
	if (t[a].rating != t[b].rating)
		return t[a].rating < t[b].rating;
	return a < b;
}

static void
sift(const struct match_ticket *t, int *v, int root, int n)
{
	int	 child, tmp;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && before(t, v[child], v[child + 1]))
			child++;
		if (!before(t, v[root], v[child]))
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void
sort_idx(const struct match_ticket *t, int *v, int n)
{
	int	 i, tmp;

	for (i = n / 2 - 1; i >= 0; i--)
		sift(t, v, i, n);
	for (i = n - 1; i > 0; i--) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		sift(t, v, 0, i);
	}
}

/* ------------------------------------------------------------ groups */

struct matcher {
	const struct match_ticket	*t;
	int				 n;
	const struct match_params	*p;
	int64_t				 now;
	int				*byrate;	/* n */
	int				*used;		/* n */
	int				*cand;		/* n */
	int				 ncand;
	int				*grp;		/* MATCH_PLAYERS_MAX */
};

static int
bots_due(const struct matcher *m, int i)
{
	const struct match_ticket	*t = &m->t[i];

	return t->bots_after_ms >= 0 &&
	    m->now - t->joined_ms >= t->bots_after_ms;
}

/* The first place in byrate whose rating is at least r. */
static int
rate_lower(const struct matcher *m, double r)
{
	int	 lo = 0, hi = m->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->t[m->byrate[mid]].rating < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The tickets that could share a game with anchor a (accepting one of
 * its player counts; with bots, only those that accept bots now), in
 * age order. */
static void
candidates(struct matcher *m, int a, int bots)
{
	const struct match_ticket	*ta = &m->t[a];
	double				 w = match_window(ta, m->p, m->now);
	int				 k, j;

	m->ncand = 0;
	for (k = rate_lower(m, ta->rating - w); k < m->n; k++) {
		j = m->byrate[k];
		if (m->t[j].rating > ta->rating + w)
			break;
		if (j == a || m->used[j] || m->t[j].min > ta->max ||
		    m->t[j].max < ta->min || (bots && !bots_due(m, j)) ||
		    !match_compatible(ta, &m->t[j], m->p, m->now))
			continue;
		m->cand[m->ncand++] = j;
	}
	sort_idx(NULL, m->cand, m->ncand);
}

/* The oldest candidates that accept s players and each other, with the
 * anchor first in grp[]: how many (at most s). */
static int
fill(struct matcher *m, int a, int s)
{
	int	 k, i, j, n = 1, ok;

	m->grp[0] = a;
	for (k = 0; k < m->ncand && n < s; k++) {
		j = m->cand[k];
		if (m->t[j].min > s || m->t[j].max < s)
			continue;
		for (i = 1, ok = 1; i < n && ok; i++)
			ok = match_compatible(&m->t[m->grp[i]], &m->t[j],
			    m->p, m->now);
		if (ok)
			m->grp[n++] = j;
	}
	return n;
}

static int
top(const struct match_ticket *t)
{
	return t->max < MATCH_PLAYERS_MAX ? t->max : MATCH_PLAYERS_MAX;
}

/* The anchor's group, largest count first, into grp[]: its size, with
 * *bots set to the seats bots take; 0 when it has none now. */
static int
group_of(struct matcher *m, int a, int *bots)
{
	const struct match_ticket	*ta = &m->t[a];
	int				 s, n, best = 0, bests = 0, lo, i;

	*bots = 0;
	candidates(m, a, 0);
	for (s = top(ta); s >= ta->min && s >= 2; s--)
		if (fill(m, a, s) == s)
			return s;
	if (!bots_due(m, a))
		return 0;
	candidates(m, a, 1);
	for (s = top(ta); s >= ta->min && s >= 2; s--)
		if ((n = fill(m, a, s)) > best) {
			best = n;
			bests = s;
		}
	if (best == 0)
		return 0;
	/* The largest group again, seated up to the fewest players its
	 * tickets all accept. */
	n = fill(m, a, bests);
	for (i = 0, lo = 2; i < n; i++)
		if (m->t[m->grp[i]].min > lo)
			lo = m->t[m->grp[i]].min;
	*bots = lo > n ? lo - n : 0;
	return n;
}

int
match_groups(const struct match_ticket *t, int n,
    const struct match_params *p, int64_t now_ms, struct match_group *groups,
    int maxgroups, int *members, int *work)
{
	struct matcher	 m;
	int		 a, i, s, bots, ng = 0, nm = 0;

	m.t = t;
	m.n = n;
	m.p = p;
	m.now = now_ms;
	m.byrate = work;
	m.used = work + n;
	m.cand = work + 2 * n;
	m.grp = work + 3 * n;
	for (i = 0; i < n; i++) {
		m.byrate[i] = i;
		m.used[i] = 0;
	}
	sort_idx(t, m.byrate, n);
	for (a = 0; a < n && ng < maxgroups; a++) {
		if (m.used[a] || (s = group_of(&m, a, &bots)) == 0)
			continue;
		if (s + bots < 2)
			continue;
		sort_idx(NULL, m.grp, s);
		groups[ng].first = nm;
		groups[ng].n = s;
		groups[ng].bots = bots;
		ng++;
		for (i = 0; i < s; i++) {
			m.used[m.grp[i]] = 1;
			members[nm++] = m.grp[i];
		}
	}
	return ng;
}
