/*
 * What the files of test_pg share: two stores on one database (two
 * nodes), set up and torn down for each test, and the conflicts a
 * COMMIT reported; the tests of test_pg_lobby.c for main()'s table in
 * test_pg.c.
 */
#ifndef LUDUS_TEST_PG_H
#define LUDUS_TEST_PG_H

#include <stdint.h>

struct store;

struct nodes {
	struct store	*a, *b;
};

int		 tp_setup(void **state);
int		 tp_teardown(void **state);
/* The requests the last COMMIT reported, as a bit mask of their
 * numbers (each must be STORE_REDO). */
uint64_t	 tp_conflicts(struct store *);
/* COMMIT, which must succeed and report exactly want. */
void		 tp_committed(struct store *, uint64_t want);

/* test_pg_lobby.c */
void	test_lobby_match_race(void **);
void	test_lobby_cancel_beats_match(void **);
void	test_lobby_cap_across_nodes(void **);
void	test_lobby_rating_race(void **);
void	test_lobby_read_own_write(void **);
void	test_lobby_queue_lock(void **);

#endif /* LUDUS_TEST_PG_H */
