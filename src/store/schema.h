/*
 * The SQL migrations compiled in from sql/ by build-aux/sql2c.sh.
 * store_migrations[i] turns a database at user_version i into one at
 * i + 1 (it sets user_version itself); the array ends with NULL.
 */
#ifndef LUDUS_STORE_SCHEMA_H
#define LUDUS_STORE_SCHEMA_H

extern const char *const	store_migrations[];
extern const int		store_migration_count;
/* PostgreSQL's, from sql/pg/ (pg_schema.c): store_pg_migrations[i]
 * turns a database at ludus_schema.version i into one at i + 1. */
extern const char *const	store_pg_migrations[];
extern const int		store_pg_migration_count;

#endif /* LUDUS_STORE_SCHEMA_H */
