/*
 * The log.  Each line is formatted whole and written with one write(2) on
 * an O_APPEND descriptor, so lines never interleave and a file renamed by
 * logrotate keeps receiving complete lines until SIGHUP reopens the name.
 */
#include <sys/time.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/log.h"
#include "util/util.h"

static const char *const level_names[] = {
	"debug", "info", "notice", "warning"
};

static int	 log_fd = STDERR_FILENO;
static char	*log_path;		/* NULL: stderr */
static int	 log_level = LL_NOTICE;

int
log_level_parse(const char *s)
{
	size_t	 i;

	for (i = 0; i < sizeof level_names / sizeof level_names[0]; i++)
		if (strcaseeq(s, level_names[i]))
			return (int)i;
	return -1;
}

const char *
log_level_name(int level)
{
	if (level < LL_DEBUG || level > LL_WARNING)
		return "?";
	return level_names[level];
}

static int
open_file(const char *path, char *err, size_t errlen)
{
	int	 fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1 && err != NULL)
		snprintf(err, errlen, "cannot open log file %s: %s", path,
		    strerror(errno));
	return fd;
}

int
log_open(const char *path, int level, char *err, size_t errlen)
{
	int	 fd = STDERR_FILENO;

	if (path != NULL && *path != '\0' &&
	    (fd = open_file(path, err, errlen)) == -1)
		return -1;
	log_close();
	log_fd = fd;
	log_path = fd == STDERR_FILENO ? NULL : xstrdup(path);
	log_level = level;
	return 0;
}

int
log_reopen(void)
{
	char	 err[256];
	int	 fd;

	if (log_path == NULL)
		return 0;
	if ((fd = open_file(log_path, err, sizeof err)) == -1) {
		log_warning("%s", err);
		return -1;
	}
	close(log_fd);
	log_fd = fd;
	return 0;
}

void
log_close(void)
{
	if (log_fd != STDERR_FILENO)
		close(log_fd);
	log_fd = STDERR_FILENO;
	free(log_path);
	log_path = NULL;
}

int
log_enabled(int level)
{
	return level >= log_level;
}

void
log_msg(int level, const char *fmt, ...)
{
	char		 line[1024], stamp[32];
	struct timeval	 tv;
	struct tm	 tm;
	va_list		 ap;
	size_t		 n, i;
	int		 r;

	if (!log_enabled(level))
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
	r = snprintf(line, sizeof line, "%s.%03d [%ld] %s: ", stamp,
	    (int)(tv.tv_usec / 1000), (long)getpid(), log_level_name(level));
	n = r > 0 && (size_t)r < sizeof line ? (size_t)r : 0;
	va_start(ap, fmt);
	r = vsnprintf(line + n, sizeof line - n, fmt, ap);
	va_end(ap);
	if (r > 0)
		n += (size_t)r < sizeof line - n ? (size_t)r :
		    sizeof line - n - 1;
	/* One line per message, whatever the text held. */
	for (i = 0; i < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	if (n >= sizeof line - 1)
		n = sizeof line - 2;
	line[n++] = '\n';
	while (write(log_fd, line, n) == -1 && errno == EINTR)
		;
}
