/*
 * The RESP parser over a libevent input buffer, as a connection reads
 * it: the parser wants contiguous bytes, and an evbuffer is a chain of
 * chunks.  It is first given the first chunk, and only if a request
 * straddles chunks is a bounded prefix pulled up into one piece, so a
 * long pipelined input is never copied over and over.
 */
#include <event2/buffer.h>

#include "net/resp.h"

/*
 * How many bytes the parser should see in one piece to make progress: the
 * whole bulk string it waits for, or a full inline line at most.
 */
static size_t
parse_hint(const struct resp_parser *p)
{
	if (p->in_multibulk)
		return (p->bulk_len >= 0 ? (size_t)p->bulk_len + 2 : 0) + 64;
	return p->lim.max_inline + 2;
}

enum resp_status
resp_parse_evbuffer(struct resp_parser *p, struct evbuffer *in,
    struct resp_request *req, const char **err, uint64_t *consumed)
{
	enum resp_status	 st;
	size_t			 len, contig, used, want;
	unsigned char		*data;

	for (;;) {
		len = evbuffer_get_length(in);
		if (len == 0)
			return RESP_INCOMPLETE;
		/* A bulk string still arriving: no need to look yet. */
		if (p->in_multibulk && p->bulk_len >= 0 &&
		    len < (size_t)p->bulk_len + 2)
			return RESP_INCOMPLETE;
		contig = evbuffer_get_contiguous_space(in);
		data = evbuffer_pullup(in, (ev_ssize_t)contig);
		used = 0;
		st = resp_parse(p, (const char *)data, contig, &used, req,
		    err);
		evbuffer_drain(in, used);
		*consumed += used;
		if (st != RESP_INCOMPLETE)
			return st;
		/*
		 * The parser saw all there was only if the chunk it was given
		 * was the whole input.  It may also have consumed that chunk
		 * to its last byte (a chunk that ends between two elements of
		 * a request): what follows, in the next chunk, it has not
		 * seen, whatever the input holds now.
		 */
		if (contig >= len)
			return RESP_INCOMPLETE;
		len = evbuffer_get_length(in);
		contig = evbuffer_get_contiguous_space(in);
		want = parse_hint(p);
		if (want < contig + 4096)
			want = contig + 4096;
		if (want > len)
			want = len;
		evbuffer_pullup(in, (ev_ssize_t)want);
	}
}
