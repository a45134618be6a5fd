/*
 * The PostgreSQL side of the test suites that run on both backends:
 * tests/lib/pgcluster run starts a throwaway cluster and sets
 * LUDUS_TEST_STORE to its URI; a suite run without it is SQLite's.
 * Plain libpq, nothing of cmocka: the daemon helpers use it too.
 */
#ifndef LUDUS_PG_HELPER_H
#define LUDUS_PG_HELPER_H

/* The suite's PostgreSQL URI, or NULL (SQLite). */
const char	*pg_test_uri(void);
/* Empties every table of the schema (none yet is empty too): 0, or -1
 * with the reason on stderr. */
int		 pg_test_empty(void);
/* Runs one statement: 0, or -1 with the reason on stderr. */
int		 pg_test_exec(const char *sql);

#endif /* LUDUS_PG_HELPER_H */
