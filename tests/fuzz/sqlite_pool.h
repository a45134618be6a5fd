/*
 * SQLite's allocator for the command fuzzer (sqlite_pool.c): size
 * classes on free lists in place of ASan's malloc, with what ASan
 * would catch in SQLite's blocks still poisoned.
 */
#ifndef LUDUS_FUZZ_SQLITE_POOL_H
#define LUDUS_FUZZ_SQLITE_POOL_H

/* Before SQLite starts (its first sqlite3_open()); nothing without
 * ASan. */
void	sqlite_pool_install(void);

#endif /* LUDUS_FUZZ_SQLITE_POOL_H */
