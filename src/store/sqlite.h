/*
 * What the SQLite backend shows beyond store.h: its connection, for tests
 * that inject failures (sqlite3_commit_hook) or inspect the rows.
 */
#ifndef LUDUS_STORE_SQLITE_H
#define LUDUS_STORE_SQLITE_H

struct sqlite3;
struct store;

/* The connection of a store opened by store_sqlite_open(), else NULL. */
struct sqlite3	*store_sqlite_handle(struct store *);

#endif /* LUDUS_STORE_SQLITE_H */
