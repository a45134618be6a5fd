/*
 * Starting the real ludusd for black-box tests: a fresh temporary
 * directory holds the database, the log and the port file; the daemon
 * listens on a port the kernel picks (--port 0) and writes it to the port
 * file once it is ready, so tests never race for ports.  The daemon dies
 * with the test process (PR_SET_PDEATHSIG) even if the test crashes.
 */
#ifndef LUDUS_DAEMON_HELPER_H
#define LUDUS_DAEMON_HELPER_H

#include <sys/types.h>

#include <limits.h>

struct daemon {
	pid_t	 pid;		/* 0 when not running */
	int	 port;
	char	 dir[PATH_MAX - 64];
	char	 db[PATH_MAX];
	char	 log[PATH_MAX];
	char	 portfile[PATH_MAX];
	const char *const *flags;	/* of the last start, for restarts */
};

/* Makes the temporary directory (and empties the suite's PostgreSQL
 * database when it runs on one: LUDUS_TEST_STORE); 0 or -1. */
int	daemon_setup(struct daemon *);
/*
 * Starts src/ludusd (or $LUDUSD) on the directory's database (or the
 * suite's PostgreSQL database: --store LUDUS_TEST_STORE) with the
 * extra flags given (a NULL-terminated list, may be NULL; kept in flags)
 * and waits until it listens.  0, or -1 if it did not come up (its log is
 * printed).
 */
int	daemon_start(struct daemon *, const char *const *extra);
/*
 * The same on the store URI given (NULL: the directory's SQLite file),
 * whatever LUDUS_TEST_STORE says: a node of several behind a proxy, or a
 * program whose threads must not see the environment change.  The
 * daemon dies with the thread that started it (PR_SET_PDEATHSIG).
 */
int	daemon_start_store(struct daemon *, const char *store,
	    const char *const *extra);
/*
 * Sends sig (0: none, it is stopping already) and waits for the exit
 * (SIGKILL after 10 seconds).  Returns
 * the exit status, 128+n for a death by signal n, or -1.
 */
int	daemon_stop(struct daemon *, int sig);
/* Kills it if still running and removes the directory. */
void	daemon_cleanup(struct daemon *);
/*
 * daemon_setup() then daemon_start(); on failure the directory is
 * removed again.  0 or -1.
 */
int	daemon_launch(struct daemon *, const char *const *extra);
/*
 * Stops a running daemon with SIGTERM (continuing it first: a failed test
 * may have left it stopped) and returns its exit status as daemon_stop()
 * does, printing it and the log when it is not 0; 0 if it was not
 * running.  A daemon that leaks or trips a sanitizer exits non-zero.
 */
int	daemon_finish(struct daemon *);
/* daemon_finish() then daemon_cleanup(): the cmocka teardown, 0 or -1. */
int	daemon_teardown(struct daemon *);
/*
 * Stops it with SIGTERM, which must give exit status 0, and starts it
 * again on the same database with the flags given.  0 or -1 (what went
 * wrong is printed).
 */
int	daemon_restart(struct daemon *, const char *const *extra);
/* Prints the daemon's log to stderr (for failures). */
void	daemon_dump_log(const struct daemon *);

#endif /* LUDUS_DAEMON_HELPER_H */
