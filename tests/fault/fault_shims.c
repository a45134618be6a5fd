/*
 * test_faults' fault shims: an allocator, installed before SQLite
 * initializes, and a VFS shim registered as the default VFS (the store
 * cannot choose one), whose xWrite/xSync fail on demand.  Both pass
 * everything through while disarmed.  The tests are test_faults.c's.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "fault_shims.h"

/* --------------------------------------------------------- allocator */

static sqlite3_mem_methods	real_mem;

struct oom_state	oom;

static int
oom_hit(void)
{
	long	 i;

	if (!oom.armed)
		return 0;
	i = oom.count++;
	if (i == oom.fail_at || (oom.persistent && i > oom.fail_at)) {
		oom.failed++;
		return 1;
	}
	return 0;
}

static void *
oom_malloc(int n)
{
	return oom_hit() ? NULL : real_mem.xMalloc(n);
}

static void *
oom_realloc(void *p, int n)
{
	/* A failed realloc leaves p allocated, as SQLite expects. */
	return oom_hit() ? NULL : real_mem.xRealloc(p, n);
}

static void
oom_free(void *p)
{
	real_mem.xFree(p);
}

static int
oom_size(void *p)
{
	return real_mem.xSize(p);
}

static int
oom_roundup(int n)
{
	return real_mem.xRoundup(n);
}

static int
oom_init(void *arg)
{
	return real_mem.xInit(arg);
}

static void
oom_shutdown(void *arg)
{
	real_mem.xShutdown(arg);
}

void
oom_arm(long fail_at, int persistent)
{
	oom.count = 0;
	oom.failed = 0;
	oom.fail_at = fail_at;
	oom.persistent = persistent;
	oom.armed = 1;
}

void
oom_disarm(void)
{
	oom.armed = 0;
}

/* Must run before anything initializes SQLite. */
void
oom_install(void)
{
	static sqlite3_mem_methods	 m;

	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_mem) != SQLITE_OK)
		abort();
	m = (sqlite3_mem_methods){ oom_malloc, oom_free, oom_realloc,
	    oom_size, oom_roundup, oom_init, oom_shutdown,
	    real_mem.pAppData };
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
		abort();
}

/* ---------------------------------------------------------- VFS shim */

static sqlite3_vfs	*real_vfs;
static sqlite3_vfs	 shim_vfs;

struct io_state		io;

/* The real file lives right after the shim's. */
struct shim_file {
	sqlite3_file	 base;
	sqlite3_file	*real;
};

static sqlite3_file *
real_file(sqlite3_file *f)
{
	return ((struct shim_file *)f)->real;
}

static int
io_hit(int op)
{
	if ((io.mask & op) == 0)
		return 0;
	if (io.count++ < io.after || (io.once && io.failed > 0))
		return 0;
	io.failed++;
	return 1;
}

void
io_arm(int mask, long after, int once)
{
	io.count = 0;
	io.failed = 0;
	io.after = after;
	io.once = once;
	io.mask = mask;
}

void
io_disarm(void)
{
	io.mask = 0;
}

static int
shim_close(sqlite3_file *f)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xClose(r);
}

static int
shim_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xRead(r, buf, n, off);
}

static int
shim_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	sqlite3_file	*r = real_file(f);

	if (io_hit(IO_WRITE))
		return SQLITE_IOERR_WRITE;
	return r->pMethods->xWrite(r, buf, n, off);
}

static int
shim_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xTruncate(r, size);
}

static int
shim_sync(sqlite3_file *f, int flags)
{
	sqlite3_file	*r = real_file(f);

	if (io_hit(IO_SYNC))
		return SQLITE_IOERR_FSYNC;
	return r->pMethods->xSync(r, flags);
}

static int
shim_file_size(sqlite3_file *f, sqlite3_int64 *size)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xFileSize(r, size);
}

static int
shim_lock(sqlite3_file *f, int lock)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xLock(r, lock);
}

static int
shim_unlock(sqlite3_file *f, int lock)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xUnlock(r, lock);
}

static int
shim_check_lock(sqlite3_file *f, int *out)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xCheckReservedLock(r, out);
}

static int
shim_file_control(sqlite3_file *f, int op, void *arg)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xFileControl(r, op, arg);
}

static int
shim_sector_size(sqlite3_file *f)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xSectorSize(r);
}

static int
shim_device(sqlite3_file *f)
{
	sqlite3_file	*r = real_file(f);

	return r->pMethods->xDeviceCharacteristics(r);
}

static int
shim_shm_map(sqlite3_file *f, int page, int size, int extend,
    void volatile **p)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion < 2)
		return SQLITE_IOERR_SHMMAP;
	return r->pMethods->xShmMap(r, page, size, extend, p);
}

static int
shim_shm_lock(sqlite3_file *f, int offset, int n, int flags)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion < 2)
		return SQLITE_IOERR_SHMLOCK;
	return r->pMethods->xShmLock(r, offset, n, flags);
}

static void
shim_shm_barrier(sqlite3_file *f)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion >= 2)
		r->pMethods->xShmBarrier(r);
}

static int
shim_shm_unmap(sqlite3_file *f, int del)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion < 2)
		return SQLITE_OK;
	return r->pMethods->xShmUnmap(r, del);
}

static int
shim_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion < 3) {
		*pp = NULL;
		return SQLITE_OK;
	}
	return r->pMethods->xFetch(r, off, n, pp);
}

static int
shim_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	sqlite3_file	*r = real_file(f);

	if (r->pMethods->iVersion < 3)
		return SQLITE_OK;
	return r->pMethods->xUnfetch(r, off, p);
}

static const sqlite3_io_methods shim_io = {
	.iVersion = 3,
	.xClose = shim_close,
	.xRead = shim_read,
	.xWrite = shim_write,
	.xTruncate = shim_truncate,
	.xSync = shim_sync,
	.xFileSize = shim_file_size,
	.xLock = shim_lock,
	.xUnlock = shim_unlock,
	.xCheckReservedLock = shim_check_lock,
	.xFileControl = shim_file_control,
	.xSectorSize = shim_sector_size,
	.xDeviceCharacteristics = shim_device,
	.xShmMap = shim_shm_map,
	.xShmLock = shim_shm_lock,
	.xShmBarrier = shim_shm_barrier,
	.xShmUnmap = shim_shm_unmap,
	.xFetch = shim_fetch,
	.xUnfetch = shim_unfetch,
};

static int
shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
    int *out_flags)
{
	struct shim_file	*sf = (struct shim_file *)f;
	int			 rc;

	(void)vfs;
	sf->base.pMethods = NULL;
	sf->real = (sqlite3_file *)(sf + 1);
	rc = real_vfs->xOpen(real_vfs, name, sf->real, flags, out_flags);
	/* SQLite closes a file whose pMethods is set, even after an error. */
	if (sf->real->pMethods != NULL)
		sf->base.pMethods = &shim_io;
	return rc;
}

static int
shim_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	(void)vfs;
	return real_vfs->xDelete(real_vfs, name, sync);
}

static int
shim_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	(void)vfs;
	return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int
shim_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static void *
shim_dlopen(sqlite3_vfs *vfs, const char *name)
{
	(void)vfs;
	return real_vfs->xDlOpen(real_vfs, name);
}

static void
shim_dlerror(sqlite3_vfs *vfs, int n, char *msg)
{
	(void)vfs;
	real_vfs->xDlError(real_vfs, n, msg);
}

typedef void (*sym_fn)(void);

static sym_fn
shim_dlsym(sqlite3_vfs *vfs, void *h, const char *sym)
{
	(void)vfs;
	return real_vfs->xDlSym(real_vfs, h, sym);
}

static void
shim_dlclose(sqlite3_vfs *vfs, void *h)
{
	(void)vfs;
	real_vfs->xDlClose(real_vfs, h);
}

static int
shim_randomness(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	return real_vfs->xRandomness(real_vfs, n, out);
}

static int
shim_sleep(sqlite3_vfs *vfs, int us)
{
	(void)vfs;
	return real_vfs->xSleep(real_vfs, us);
}

static int
shim_current_time(sqlite3_vfs *vfs, double *t)
{
	(void)vfs;
	return real_vfs->xCurrentTime(real_vfs, t);
}

static int
shim_last_error(sqlite3_vfs *vfs, int n, char *msg)
{
	(void)vfs;
	return real_vfs->xGetLastError(real_vfs, n, msg);
}

static int
shim_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *t)
{
	(void)vfs;
	return real_vfs->xCurrentTimeInt64(real_vfs, t);
}

static int
shim_set_syscall(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr p)
{
	(void)vfs;
	return real_vfs->xSetSystemCall(real_vfs, name, p);
}

static sqlite3_syscall_ptr
shim_get_syscall(sqlite3_vfs *vfs, const char *name)
{
	(void)vfs;
	return real_vfs->xGetSystemCall(real_vfs, name);
}

static const char *
shim_next_syscall(sqlite3_vfs *vfs, const char *name)
{
	(void)vfs;
	return real_vfs->xNextSystemCall(real_vfs, name);
}

/* Wraps the default VFS and takes its place: store_sqlite_open() opens
 * with the default one. */
void
shim_install(void)
{
	if ((real_vfs = sqlite3_vfs_find(NULL)) == NULL ||
	    real_vfs->iVersion < 3)
		abort();
	shim_vfs = (sqlite3_vfs){
		.iVersion = 3,
		.szOsFile = (int)sizeof(struct shim_file) + real_vfs->szOsFile,
		.mxPathname = real_vfs->mxPathname,
		.zName = "ludus-faults",
		.xOpen = shim_open,
		.xDelete = shim_delete,
		.xAccess = shim_access,
		.xFullPathname = shim_full_pathname,
		.xDlOpen = shim_dlopen,
		.xDlError = shim_dlerror,
		.xDlSym = shim_dlsym,
		.xDlClose = shim_dlclose,
		.xRandomness = shim_randomness,
		.xSleep = shim_sleep,
		.xCurrentTime = shim_current_time,
		.xGetLastError = shim_last_error,
		.xCurrentTimeInt64 = shim_current_time64,
		.xSetSystemCall = shim_set_syscall,
		.xGetSystemCall = shim_get_syscall,
		.xNextSystemCall = shim_next_syscall,
	};
	if (sqlite3_vfs_register(&shim_vfs, 1) != SQLITE_OK)
		abort();
}

/* A failed assertion must not leave a fault armed for the next test. */
int
faults_clear(void **state)
{
	(void)state;
	oom_disarm();
	io_disarm();
	return 0;
}
