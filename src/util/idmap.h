/*
 * A map from a string key (a game id) to a pointer: the daemon's registries
 * of games (the watched games, the games with a timer) share it.  Open
 * addressing with linear probing in a table twice as large as the entries
 * at least, so a lookup reads a slot or two.
 *
 * The key is not copied: it must stay valid and unchanged while its entry
 * is in the map, which it does when it is the id inside the value itself.
 * The values are the caller's.
 */
#ifndef LUDUS_IDMAP_H
#define LUDUS_IDMAP_H

#include <stddef.h>

struct idmap;

struct idmap	*idmap_new(void);
/* Frees the map, not the values. */
void		 idmap_free(struct idmap *);
/* The value of key, or NULL. */
void		*idmap_get(const struct idmap *, const char *key);
/* Sets key's value (value is not NULL); a key already there gets the
 * new value and the new key pointer. */
void		 idmap_put(struct idmap *, const char *key, void *value);
/* Removes key; its value, or NULL when it was not there. */
void		*idmap_del(struct idmap *, const char *key);
size_t		 idmap_count(const struct idmap *);
/* Iterates: *pos starts at 0; each call returns another value, NULL past
 * the last.  The map must not change during the walk. */
void		*idmap_next(const struct idmap *, size_t *pos);

#endif /* LUDUS_IDMAP_H */
