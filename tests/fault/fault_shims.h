/*
 * test_faults' fault shims (fault_shims.c): an SQLite allocator and a
 * VFS that pass everything through while disarmed, and fail on demand.
 */
#ifndef LUDUS_FAULT_SHIMS_H
#define LUDUS_FAULT_SHIMS_H

/* The allocator's state: what fails, and what did since armed. */
struct oom_state {
	int	armed;
	int	persistent;	/* all from fail_at on fail */
	long	fail_at;	/* the (first) one to refuse */
	long	count;		/* allocations since armed */
	long	failed;		/* allocations refused since armed */
};

#define IO_WRITE	0x1
#define IO_SYNC		0x2

/* The VFS shim's state, as the allocator's. */
struct io_state {
	int	mask;		/* what fails: IO_WRITE, IO_SYNC */
	int	once;		/* only one fails */
	long	after;		/* let through first */
	long	count;		/* matching operations since armed */
	long	failed;
};

extern struct oom_state	oom;
extern struct io_state	io;

/* Allocation fail_at (from 0) fails, and every later one if persistent. */
void	oom_arm(long, int);
void	oom_disarm(void);
/* Must run before anything initializes SQLite. */
void	oom_install(void);
/* After the first "after" matching writes or syncs, fail (once or all). */
void	io_arm(int, long, int);
void	io_disarm(void);
/* Registers the shim as the default VFS. */
void	shim_install(void);
/* A failed assertion must not leave a fault armed for the next test. */
int	faults_clear(void **);

#endif
