/*
 * A tiny blocking RESP client for the black-box tests that must not
 * depend on hiredis (the crash driver, the limits and the daemon fault
 * tests): requests are encoded as RESP arrays, replies parsed with the
 * project's own reply parser (src/net/resp.c), every wait bounded by a
 * timeout so that a hung daemon fails a test instead of hanging it.
 * Also what the tests read of the daemon process in /proc, and their TAP
 * comments.
 */
#ifndef LUDUS_RCLIENT_H
#define LUDUS_RCLIENT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "util/reply.h"

struct rconn {
	int	 fd;		/* -1 when closed */
	char	*buf;		/* bytes read and not parsed yet */
	size_t	 len;
	size_t	 cap;
	int	 eof;		/* the peer closed (or reset) */
	int	 err;		/* with eof: recv's errno, 0 for a FIN */
};

/* Milliseconds of a monotonic clock. */
int64_t	 rc_now_ms(void);
/* Microseconds of a monotonic clock. */
int64_t	 rc_now_us(void);
void	 rc_sleep_ms(int);

/* Connects to 127.0.0.1:port (blocking socket, TCP_NODELAY); 0 or -1. */
int	 rc_open(struct rconn *, int port);
/* The same with a fixed receive buffer (SO_RCVBUF, before connecting). */
int	 rc_open_rcvbuf(struct rconn *, int port, int rcvbuf);
void	 rc_close(struct rconn *);
/* Closes with SO_LINGER 0: the kernel sends a reset, not a FIN. */
void	 rc_reset(struct rconn *);

/* Appends one request (a RESP array of the argv strings) to *out. */
void	 rc_encode(char **out, size_t *len, size_t *cap, int argc,
	    const char *const *argv);
/* Sends all bytes (blocking, no SIGPIPE); 0, or -1 with errno set. */
int	 rc_write(struct rconn *, const void *, size_t);
/* Encodes and sends one request; the arguments end with NULL. */
int	 rc_send(struct rconn *, const char *arg, ...)
	    __attribute__((sentinel));

/*
 * Reads one reply into *r (REPLY_NONE on entry), waiting up to timeout_ms
 * for bytes.  1: a reply; 0: the connection ended first; -1: timeout, a
 * socket error or a malformed reply.
 */
int	 rc_read(struct rconn *, struct reply *, int timeout_ms);
/* Parses a reply already buffered, without reading: 1 or 0. */
int	 rc_parse_buffered(struct rconn *, struct reply *);
/*
 * Reads whatever arrives within timeout_ms (at least one read); the
 * bytes are buffered.  >0 bytes read, 0 end of stream, -1 timeout/error.
 */
int	 rc_fill(struct rconn *, int timeout_ms);

/* Sends a request and reads its reply: 1, 0 or -1 as rc_read. */
int	 rc_call(struct rconn *, struct reply *, int timeout_ms,
	    const char *arg, ...) __attribute__((sentinel));

/* The open descriptors of a process (/proc/PID/fd), or -1. */
int	 proc_fd_count(int pid);
/* Its resident set (VmRSS of /proc/PID/status) in KiB, or -1. */
long	 proc_rss_kb(int pid);

/* Reply checks. */
int	 rc_is_status(const struct reply *, const char *);
int	 rc_is_error(const struct reply *, const char *code);

/* A TAP comment ("# ..." and a newline) on stdout, flushed. */
void	 rc_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	 rc_vnote(const char *fmt, va_list)
	    __attribute__((format(printf, 1, 0)));

#endif /* LUDUS_RCLIENT_H */
