/*
 * What the PostgreSQL backend shows beyond store.h.
 */
#ifndef LUDUS_STORE_PG_H
#define LUDUS_STORE_PG_H

#include <stdint.h>

struct store;

/*
 * How long a statement waits for a row lock another session holds
 * (lock_timeout) before the transaction fails: a turn of a game another
 * node is committing at that very moment waits for that COMMIT, which
 * takes a few milliseconds, unless that node stopped while its
 * transaction ran.  store_pg_open() sets 1000 ms; 0 (or less) is 1 ms.
 * No effect on other stores.
 */
void	store_pg_set_lock_timeout(struct store *, int ms);

/*
 * The COMMITs whose connection broke before their results came, and
 * whose outcome was then found out (committed: *stored, or not): for the
 * log.  0 for other stores.
 */
uint64_t store_pg_found_out(struct store *, uint64_t *stored);

#endif /* LUDUS_STORE_PG_H */
