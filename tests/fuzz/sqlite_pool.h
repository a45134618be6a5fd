/*
 * SQLite's allocator for the command fuzzer (sqlite_pool.c): size
 * classes on free lists in place of ASan's malloc, with what ASan
 * would catch in SQLite's blocks still poisoned.
 */
#ifndef LUDUS_FUZZ_SQLITE_POOL_H
#define LUDUS_FUZZ_SQLITE_POOL_H

/* SQLITE_POOL_ASAN: built with ASan, where the pool is installed. */
#if defined(__SANITIZE_ADDRESS__)
#define SQLITE_POOL_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQLITE_POOL_ASAN	1
#endif
#endif

/* Before SQLite starts (its first sqlite3_open()); nothing without
 * ASan. */
void	sqlite_pool_install(void);

#endif /* LUDUS_FUZZ_SQLITE_POOL_H */
