/*
 * Glob matching (glob.h).  Every token but `*` matches exactly one byte,
 * so the classic greedy walk is exact: on a mismatch after a star, the
 * star takes one more byte and the rest is tried again from there.
 * Redis's quirks are kept: a range may be written backwards (`[z-a]`), a
 * set with no closing bracket is a set of what follows, and a backslash
 * at the very end is a literal backslash.
 */
#include "util/glob.h"

/* Does byte c belong to the set starting after '[' at *p?  *p ends past
 * its ']' (or at the end of a set that has none). */
static int
set_match(const char *pat, size_t plen, size_t *p, unsigned char c)
{
	size_t		 i = *p;
	int		 not = 0, match = 0;
	unsigned char	 lo, hi, t;

	if (i < plen && pat[i] == '^') {
		not = 1;
		i++;
	}
	while (i < plen && pat[i] != ']') {
		if (pat[i] == '\\' && i + 1 < plen) {
			match |= (unsigned char)pat[i + 1] == c;
			i += 2;
		} else if (i + 2 < plen && pat[i + 1] == '-') {
			lo = (unsigned char)pat[i];
			hi = (unsigned char)pat[i + 2];
			if (lo > hi) {
				t = lo;
				lo = hi;
				hi = t;
			}
			match |= c >= lo && c <= hi;
			i += 3;
		} else
			match |= (unsigned char)pat[i++] == c;
	}
	*p = i < plen ? i + 1 : i;
	return match != not;
}

/* Does byte c match the token at *p (not a star)?  *p ends past it. */
static int
token_match(const char *pat, size_t plen, size_t *p, unsigned char c)
{
	size_t	 i = *p;

	switch (pat[i]) {
	case '?':
		*p = i + 1;
		return 1;
	case '[':
		*p = i + 1;
		return set_match(pat, plen, p, c);
	case '\\':
		if (i + 1 < plen)
			i++;
		/* FALLTHROUGH */
	default:
		*p = i + 1;
		return (unsigned char)pat[i] == c;
	}
}

int
glob_match(const char *pat, size_t plen, const char *str, size_t slen)
{
	size_t	 p = 0, s = 0, star_p = 0, star_s = 0, np;
	int	 star = 0;

	while (s < slen) {
		if (p < plen && pat[p] == '*') {
			while (p < plen && pat[p] == '*')
				p++;
			if (p == plen)
				return 1;
			star = 1;
			star_p = p;
			star_s = s;
			continue;
		}
		np = p;
		if (p < plen && token_match(pat, plen, &np,
		    (unsigned char)str[s])) {
			p = np;
			s++;
			continue;
		}
		if (!star)
			return 0;
		p = star_p;
		s = ++star_s;
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}
