/*
 * RESP, the Redis protocol, as pure functions over bytes (no sockets, no
 * event loop): the request parser the daemon runs on every connection
 * (RESP arrays of bulk strings and inline commands), the reply encoder
 * (RESP2 and RESP3), and the reply parser the client uses.  Being pure is
 * what lets the fuzzer feed raw bytes straight in.
 */
#ifndef LUDUS_RESP_H
#define LUDUS_RESP_H

#include <stddef.h>
#include <stdint.h>

#include "util/reply.h"

/* Limits a request must stay within; over one is a protocol error. */
struct resp_limits {
	size_t		max_inline;	/* bytes in one inline line (64 KiB) */
	int64_t		max_args;	/* elements in one multibulk (1M) */
	int64_t		max_bulk;	/* bytes in one bulk string (512 MiB) */
};

#define RESP_DEFAULT_MAX_INLINE	(64 * 1024)
#define RESP_DEFAULT_MAX_ARGS	(1024 * 1024)
#define RESP_DEFAULT_MAX_BULK	(512LL * 1024 * 1024)

/* One parsed request; argv[i] is NUL-ended, argl[i] its length. */
struct resp_request {
	int		  argc;
	char		**argv;
	size_t		 *argl;
	int		  is_inline;
};

/*
 * Parser state across calls: a multibulk request arrives in pieces and is
 * kept here until whole, so bytes are looked at once.
 */
struct resp_parser {
	struct resp_limits	 lim;
	int			 in_multibulk;	/* header seen */
	int64_t			 want_args;	/* elements announced */
	int64_t			 bulk_len;	/* -1: expecting a $ header */
	struct resp_request	 req;		/* being filled */
	int			 cap;
};

enum resp_status {
	RESP_ERROR = -1,	/* protocol error: reply, then close */
	RESP_INCOMPLETE = 0,	/* need more bytes */
	RESP_OK = 1		/* one request in *req */
};

void	resp_parser_init(struct resp_parser *, const struct resp_limits *);
/* Frees any half-built request. */
void	resp_parser_free(struct resp_parser *);
/*
 * Consumes bytes from buf[0..len) and sets *used to how many it consumed
 * (the caller drops them from its input).  RESP_OK: *req holds one
 * request, now owned by the caller (resp_request_free).  RESP_INCOMPLETE:
 * call again with more bytes (and the unconsumed rest).  RESP_ERROR: *err
 * is a static message without CR/LF for "-ERR Protocol error: <err>"; a
 * limit exceeded sets *err starting with "LIMIT " (reply "-LIMIT ...").
 * Blank inline lines are skipped.
 */
enum resp_status resp_parse(struct resp_parser *, const char *buf,
		    size_t len, size_t *used, struct resp_request *req,
		    const char **err);
void	resp_request_free(struct resp_request *);
struct evbuffer;
/*
 * resp_parse() over a libevent input buffer (resp_input.c): what it
 * consumes is drained from in and added to *consumed.
 */
enum resp_status resp_parse_evbuffer(struct resp_parser *,
		    struct evbuffer *in, struct resp_request *req,
		    const char **err, uint64_t *consumed);

/* A growable byte buffer the encoder appends to. */
struct resp_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

void	resp_buf_free(struct resp_buf *);
/* Appends the reply in protocol 2 or 3 (3: maps, nulls, push frames). */
void	resp_encode(struct resp_buf *, const struct reply *, int proto);

/*
 * The client side: parses one reply (RESP2 or RESP3) from buf[0..len) into
 * *out (must be REPLY_NONE).  RESP_OK with *used set, RESP_INCOMPLETE, or
 * RESP_ERROR on malformed input.  Attribute frames are skipped; doubles,
 * booleans, big numbers and verbatim strings become bulk/int replies.
 */
enum resp_status resp_parse_reply(const char *buf, size_t len, size_t *used,
		    struct reply *out);

#endif /* LUDUS_RESP_H */
