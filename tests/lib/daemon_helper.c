/*
 * See daemon_helper.h.  Plain POSIX, nothing of cmocka: the helper only
 * reports failures, the tests decide what they mean.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon_helper.h"
#include "pg_helper.h"

#define START_TIMEOUT_MS	20000	/* sanitizer builds start slowly */
#define STOP_TIMEOUT_MS		10000

static void
sleep_ms(int ms)
{
	struct timespec	 ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* The daemon runs in its directory: its path must be absolute. */
static const char *
ludusd_path(char *buf, size_t len)
{
	const char	*env;
	char		 rel[PATH_MAX];

	if ((env = getenv("LUDUSD")) != NULL && *env != '\0')
		snprintf(rel, sizeof rel, "%s", env);
	else if ((env = getenv("top_builddir")) != NULL && *env != '\0')
		snprintf(rel, sizeof rel, "%.*s/src/ludusd", PATH_MAX - 16,
		    env);
	else
		snprintf(rel, sizeof rel, "src/ludusd");
	if (len < PATH_MAX || realpath(rel, buf) == NULL)
		snprintf(buf, len, "%s", rel);
	return buf;
}

int
daemon_setup(struct daemon *d)
{
	const char	*tmp = getenv("TMPDIR");

	memset(d, 0, sizeof *d);
	snprintf(d->dir, sizeof d->dir, "%s/ludusd-test.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(d->dir) == NULL) {
		fprintf(stderr, "mkdtemp %s: %s\n", d->dir, strerror(errno));
		return -1;
	}
	snprintf(d->db, sizeof d->db, "%s/test.db", d->dir);
	snprintf(d->log, sizeof d->log, "%s/ludusd.log", d->dir);
	snprintf(d->portfile, sizeof d->portfile, "%s/port", d->dir);
	/* On PostgreSQL the suite's one database, emptied for each. */
	return pg_test_empty();
}

static int
read_port(const char *path)
{
	FILE	*f;
	int	 port = -1;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fscanf(f, "%d", &port) != 1)
		port = -1;
	fclose(f);
	return port;
}

static void
child_exec(const struct daemon *d, const char *bin, const char *store,
    const char *const *extra)
{
	const char	*argv[64];
	int		 n = 0, fd;

#ifdef __linux__
	/* Die with the test, whatever happens to it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	argv[n++] = bin;
	if (store != NULL) {
		argv[n++] = "--store";
		argv[n++] = store;
	} else {
		argv[n++] = "--db";
		argv[n++] = d->db;
	}
	argv[n++] = "--port";
	argv[n++] = "0";
	argv[n++] = "--portfile";
	argv[n++] = d->portfile;
	argv[n++] = "--loglevel";
	argv[n++] = "info";
	argv[n++] = "--shutdown-timeout";
	argv[n++] = "3";
	while (extra != NULL && *extra != NULL && n < 62)
		argv[n++] = *extra++;
	argv[n] = NULL;
	/* The log takes stderr too: sanitizer reports land there. */
	if ((fd = open(d->log, O_WRONLY | O_CREAT | O_APPEND, 0644)) != -1) {
		dup2(fd, STDERR_FILENO);
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	if (chdir(d->dir) == -1)
		_exit(126);
	execv(bin, (char *const *)argv);
	fprintf(stderr, "exec %s: %s\n", bin, strerror(errno));
	_exit(127);
}

int
daemon_start(struct daemon *d, const char *const *extra)
{
	return daemon_start_store(d, pg_test_uri(), extra);
}

int
daemon_start_store(struct daemon *d, const char *store,
    const char *const *extra)
{
	char		 path[PATH_MAX];
	const char	*bin = ludusd_path(path, sizeof path);
	int		 waited, status;
	pid_t		 pid;

	d->flags = extra;
	unlink(d->portfile);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0)
		child_exec(d, bin, store, extra);
	d->pid = pid;
	for (waited = 0; waited < START_TIMEOUT_MS; waited += 5) {
		if ((d->port = read_port(d->portfile)) > 0)
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			d->pid = 0;
			fprintf(stderr, "ludusd exited at start (status %d)\n",
			    status);
			daemon_dump_log(d);
			return -1;
		}
		sleep_ms(5);
	}
	fprintf(stderr, "ludusd did not start in time\n");
	daemon_dump_log(d);
	daemon_stop(d, SIGKILL);
	return -1;
}

int
daemon_stop(struct daemon *d, int sig)
{
	int	 status, waited;

	if (d->pid <= 0)
		return -1;
	if (sig != 0)
		kill(d->pid, sig);
	for (waited = 0; waited < STOP_TIMEOUT_MS; waited += 5) {
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			if (WIFEXITED(status))
				return WEXITSTATUS(status);
			return 128 + WTERMSIG(status);
		}
		sleep_ms(5);
	}
	fprintf(stderr, "ludusd did not stop in time: killed\n");
	daemon_dump_log(d);
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &status, 0);
	d->pid = 0;
	return -1;
}

static void
remove_dir(const char *path)
{
	DIR		*dir;
	struct dirent	*de;
	char		 p[PATH_MAX + 256];

	if ((dir = opendir(path)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", path, de->d_name);
		unlink(p);
	}
	closedir(dir);
	rmdir(path);
}

void
daemon_cleanup(struct daemon *d)
{
	if (d->pid > 0)
		daemon_stop(d, SIGKILL);
	if (d->dir[0] != '\0' && getenv("LUDUSD_TEST_KEEP") == NULL)
		remove_dir(d->dir);
	d->dir[0] = '\0';
}

int
daemon_launch(struct daemon *d, const char *const *extra)
{
	if (daemon_setup(d) == -1)
		return -1;
	if (daemon_start(d, extra) == -1) {
		daemon_cleanup(d);
		return -1;
	}
	return 0;
}

int
daemon_finish(struct daemon *d)
{
	int	 rc;

	if (d->pid <= 0)
		return 0;
	kill(d->pid, SIGCONT);
	if ((rc = daemon_stop(d, SIGTERM)) != 0) {
		fprintf(stderr, "ludusd exited with %d\n", rc);
		daemon_dump_log(d);
	}
	return rc;
}

int
daemon_teardown(struct daemon *d)
{
	int	 rc = daemon_finish(d);

	daemon_cleanup(d);
	return rc == 0 ? 0 : -1;
}

int
daemon_restart(struct daemon *d, const char *const *extra)
{
	if (d->pid <= 0) {
		fprintf(stderr, "ludusd is not running\n");
		return -1;
	}
	if (daemon_finish(d) != 0)
		return -1;
	if (daemon_start(d, extra) == -1) {
		fprintf(stderr, "ludusd does not restart\n");
		return -1;
	}
	return 0;
}

void
daemon_dump_log(const struct daemon *d)
{
	char	 buf[4096];
	size_t	 n;
	FILE	*f;

	if ((f = fopen(d->log, "r")) == NULL)
		return;
	fprintf(stderr, "---- %s\n", d->log);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stderr);
	fprintf(stderr, "----\n");
	fclose(f);
}
