/*
 * SQLite's allocator for the command fuzzer: blocks of a few size
 * classes, kept on free lists when SQLite frees them and handed out
 * again, instead of ASan's malloc.  SQLite mallocs and frees its pages,
 * records and statements' scratch by the thousand in an input; through
 * ASan each call records two stack traces, fills the block and passes
 * libFuzzer's malloc hooks, a quarter of the harness's time.
 *
 * What ASan still sees: a block's bytes past what SQLite asked for, a
 * block's header and a free block are poisoned, so an overflow of a
 * SQLite block, or a read through a pointer to a freed one (a column's
 * text kept past its statement's reset), is reported as a use of
 * poisoned memory.  A freed block waits behind POOL_DELAY others of its
 * class before it is reused, ASan's quarantine in small.  What it no
 * longer says is where such a block was allocated and freed.
 *
 * One thread: the store's connection and the harness's are the only
 * users (no checkpointer runs on an in-memory database).
 *
 * Only under ASan: without it libc's malloc is fast already, and a tool
 * such as valgrind should see SQLite's allocations as they are.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "fuzz.h"
#include "sqlite_pool.h"

/* The pool's own branches are no coverage worth fuzzing for. */
#if defined(__clang__) && __clang_major__ >= 13
#define NOCOV	__attribute__((no_sanitize("coverage")))
#else
#define NOCOV
#endif

#ifdef SQLITE_POOL_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))

#define POOL_MIN_SHIFT	5		/* 32 bytes, header included */
#define POOL_MAX_SHIFT	17		/* 128 KiB; larger: malloc() */
#define POOL_CLASSES	(POOL_MAX_SHIFT - POOL_MIN_SHIFT + 1)
#define POOL_CHUNK	(1024 * 1024)	/* carved into blocks of a class */
#define POOL_DELAY	64		/* free blocks before one is reused */
#define POOL_HDR	16		/* keeps SQLite's 8-byte alignment */

/* Before each block: its class (or -1: malloc()'s) and what was asked. */
struct pool_hdr {
	int32_t		 cls;
	int32_t		 pad;
	uint64_t	 size;
};

struct pool_free {
	struct pool_free	*next;
};

struct pool_class {
	struct pool_free	*head, *tail;	/* oldest first */
	size_t			 nfree;
	char			*chunk;		/* being carved */
	size_t			 left;
};

static struct pool_class	classes[POOL_CLASSES];
/* Every chunk, through its first word: LeakSanitizer's root for them. */
static void			*chunks;

NOCOV static int
class_of(uint64_t n)
{
	int	c = POOL_MIN_SHIFT;

	n += POOL_HDR;
	while (c <= POOL_MAX_SHIFT && ((uint64_t)1 << c) < n)
		c++;
	return c <= POOL_MAX_SHIFT ? c - POOL_MIN_SHIFT : -1;
}

NOCOV static char *
class_take(int c)
{
	struct pool_class	*pc = &classes[c];
	struct pool_free	*f;
	size_t			 bs = (size_t)1 << (c + POOL_MIN_SHIFT);
	char			*b;

	if (pc->nfree > POOL_DELAY) {
		f = pc->head;
		UNPOISON(f, sizeof(*f));
		pc->head = f->next;
		if (pc->head == NULL)
			pc->tail = NULL;
		pc->nfree--;
		return (char *)f;
	}
	if (pc->left < bs) {
		/* The rest of a chunk, if any, stays unused. */
		if ((pc->chunk = malloc(POOL_CHUNK)) == NULL)
			return NULL;
		memcpy(pc->chunk, &chunks, sizeof(chunks));
		chunks = pc->chunk;
		pc->chunk += POOL_HDR;
		POISON(pc->chunk, POOL_CHUNK - POOL_HDR);
		pc->left = POOL_CHUNK - POOL_HDR;
	}
	b = pc->chunk;
	pc->chunk += bs;
	pc->left -= bs;
	return b;
}

NOCOV static void *
pool_malloc(int n)
{
	struct pool_hdr	*h;
	int		 c;

	if (n <= 0)
		return NULL;
	c = class_of((uint64_t)n);
	h = c >= 0 ? (struct pool_hdr *)class_take(c) :
	    malloc(POOL_HDR + (size_t)n);
	if (h == NULL)
		return NULL;
	UNPOISON(h, POOL_HDR);
	h->cls = c;
	h->size = (uint64_t)n;
	POISON(h, POOL_HDR);
	UNPOISON((char *)h + POOL_HDR, (size_t)n);
	return (char *)h + POOL_HDR;
}

NOCOV static struct pool_hdr *
header(void *p, int *cls, uint64_t *size)
{
	struct pool_hdr	*h = (struct pool_hdr *)((char *)p - POOL_HDR);

	UNPOISON(h, POOL_HDR);
	*cls = h->cls;
	*size = h->size;
	POISON(h, POOL_HDR);
	FUZZ_CHECK(*cls >= -1 && *cls < POOL_CLASSES);
	return h;
}

NOCOV static void
pool_free(void *p)
{
	struct pool_class	*pc;
	struct pool_free	*f;
	uint64_t		 size;
	int			 c;

	if (p == NULL)
		return;
	f = (struct pool_free *)header(p, &c, &size);
	if (c < 0) {
		UNPOISON(f, POOL_HDR);
		free(f);
		return;
	}
	/* The link is in the header; the block's slack is poisoned since
	 * it was handed out. */
	pc = &classes[c];
	POISON((char *)f + POOL_HDR, (size_t)size);
	UNPOISON(f, sizeof(*f));
	f->next = NULL;
	POISON(f, sizeof(*f));
	if (pc->tail != NULL) {
		UNPOISON(pc->tail, sizeof(*f));
		pc->tail->next = f;
		POISON(pc->tail, sizeof(*f));
	} else
		pc->head = f;
	pc->tail = f;
	pc->nfree++;
}

NOCOV static int
pool_size(void *p)
{
	uint64_t	size;
	int		c;

	if (p == NULL)
		return 0;
	(void)header(p, &c, &size);
	return (int)size;
}

NOCOV static void *
pool_realloc(void *p, int n)
{
	struct pool_hdr	*h;
	void		*q;
	uint64_t	 size;
	int		 c;

	if (p == NULL)
		return pool_malloc(n);
	h = header(p, &c, &size);
	if (c >= 0 && class_of((uint64_t)n) == c) {
		/* Same block: only what ASan lets SQLite touch changes. */
		POISON(p, ((size_t)1 << (c + POOL_MIN_SHIFT)) - POOL_HDR);
		UNPOISON(h, POOL_HDR);
		h->size = (uint64_t)n;
		POISON(h, POOL_HDR);
		UNPOISON(p, (size_t)n);
		return p;
	}
	if ((q = pool_malloc(n)) == NULL)
		return NULL;
	memcpy(q, p, size < (uint64_t)n ? (size_t)size : (size_t)n);
	pool_free(p);
	return q;
}

/* SQLite asks for sizes rounded so; what it gets is what it asked. */
NOCOV static int
pool_roundup(int n)
{
	return (n + 7) & ~7;
}

NOCOV static int
pool_init(void *arg)
{
	(void)arg;
	return SQLITE_OK;
}

NOCOV static void
pool_shutdown(void *arg)
{
	(void)arg;
}

void
sqlite_pool_install(void)
{
	static const sqlite3_mem_methods	m = {
		pool_malloc, pool_free, pool_realloc, pool_size,
		pool_roundup, pool_init, pool_shutdown, NULL,
	};

	FUZZ_CHECK(sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK);
}

#else /* !SQLITE_POOL_ASAN */

void
sqlite_pool_install(void)
{
}

#endif /* SQLITE_POOL_ASAN */
