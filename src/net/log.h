/*
 * ludusd's log: timestamped lines at four levels, to stderr or to a file
 * that SIGHUP reopens (so logrotate can move it away).
 */
#ifndef LUDUS_LOG_H
#define LUDUS_LOG_H

#include <stddef.h>

enum log_level {
	LL_DEBUG = 0,
	LL_INFO,
	LL_NOTICE,
	LL_WARNING
};

/* -1 if the name is not one of debug, info, notice, warning. */
int		 log_level_parse(const char *);
const char	*log_level_name(int);

/* path NULL or "" logs to stderr.  0, or -1 with a message in err. */
int	log_open(const char *path, int level, char *err, size_t errlen);
/* Opens the file again under its name; on failure the old one stays. */
int	log_reopen(void);
void	log_close(void);
int	log_enabled(int level);
void	log_msg(int level, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#define log_debug(...)		log_msg(LL_DEBUG, __VA_ARGS__)
#define log_info(...)		log_msg(LL_INFO, __VA_ARGS__)
#define log_notice(...)		log_msg(LL_NOTICE, __VA_ARGS__)
#define log_warning(...)	log_msg(LL_WARNING, __VA_ARGS__)

#endif /* LUDUS_LOG_H */
