/*
 * The id map (idmap.h).  An empty slot has a NULL key.  A removal shifts
 * back the entries of the run that follows it, so that a lookup can stop
 * at the first empty slot: no tombstones, and a table that never fills.
 */
#include <stdlib.h>
#include <string.h>

#include "util/idmap.h"
#include "util/util.h"

#define IDMAP_MIN	64		/* slots, a power of two */

struct slot {
	const char	*key;		/* NULL: empty */
	void		*value;
	size_t		 hash;
};

struct idmap {
	struct slot	*slot;
	size_t		 cap;		/* a power of two */
	size_t		 n;
};

/* FNV-1a. */
static size_t
hash_key(const char *s)
{
	size_t	 h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct idmap *
idmap_new(void)
{
	struct idmap	*m = xcalloc(1, sizeof(*m));

	m->cap = IDMAP_MIN;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	return m;
}

void
idmap_free(struct idmap *m)
{
	if (m == NULL)
		return;
	free(m->slot);
	free(m);
}

/* The slot of key, or the empty slot where it would go. */
static size_t
slot_of(const struct idmap *m, const char *key, size_t h)
{
	size_t	 mask = m->cap - 1, i = h & mask;

	while (m->slot[i].key != NULL && (m->slot[i].hash != h ||
	    strcmp(m->slot[i].key, key) != 0))
		i = (i + 1) & mask;
	return i;
}

void *
idmap_get(const struct idmap *m, const char *key)
{
	const struct slot *s = &m->slot[slot_of(m, key, hash_key(key))];

	return s->key != NULL ? s->value : NULL;
}

static void
grow(struct idmap *m)
{
	struct slot	*old = m->slot;
	size_t		 n = m->cap, i;

	m->cap = n * 2;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	for (i = 0; i < n; i++)
		if (old[i].key != NULL)
			m->slot[slot_of(m, old[i].key, old[i].hash)] = old[i];
	free(old);
}

void
idmap_put(struct idmap *m, const char *key, void *value)
{
	size_t	 h = hash_key(key), i;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = slot_of(m, key, h);
	if (m->slot[i].key == NULL)
		m->n++;
	m->slot[i].key = key;
	m->slot[i].value = value;
	m->slot[i].hash = h;
}

void *
idmap_del(struct idmap *m, const char *key)
{
	size_t	 mask = m->cap - 1, i, j, home;
	void	*value;

	i = slot_of(m, key, hash_key(key));
	if (m->slot[i].key == NULL)
		return NULL;
	value = m->slot[i].value;
	/* An entry of the run after i moves into the hole unless its home
	 * slot lies after the hole (cyclically, up to where it is). */
	for (j = (i + 1) & mask; m->slot[j].key != NULL; j = (j + 1) & mask) {
		home = m->slot[j].hash & mask;
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		m->slot[i] = m->slot[j];
		i = j;
	}
	m->slot[i].key = NULL;
	m->n--;
	return value;
}

size_t
idmap_count(const struct idmap *m)
{
	return m->n;
}

void *
idmap_next(const struct idmap *m, size_t *pos)
{
	while (*pos < m->cap)
		if (m->slot[(*pos)++].key != NULL)
			return m->slot[*pos - 1].value;
	return NULL;
}
