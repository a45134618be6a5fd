/*
 * What the black-box tests of several nodes share (fault_helper.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/reply.h"
#include "fault_helper.h"

int	 fault_failures;

int
fault_rnd(uint64_t *state, int n)
{
	uint64_t	 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (int)((z ^ (z >> 31)) % (uint64_t)n);
}

void
fault_fail(const char *fmt, ...)
{
	va_list	 ap;

	fault_failures++;
	printf("# FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

const char *
fault_text(const struct reply *r)
{
	return r->str != NULL ? r->str : "(none)";
}
