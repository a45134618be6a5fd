/*
 * Fuzzes the RESP codec on raw bytes, both ways the bytes arrive:
 *
 * Requests, as the daemon parses them: resp_parse() in a loop over a
 * buffer that the input fills a chunk at a time, dropping what each call
 * consumed, with small limits so that every limit is reached.  Checked:
 * parsing in chunks gives exactly the requests (and the error) that
 * parsing everything at once gives; every request is well formed (NUL-
 * ended arguments within the limits) and, written back as a RESP array,
 * parses to the same arguments.
 *
 * Replies, as the client parses them: resp_parse_reply() in a loop.  Each
 * reply is written again with resp_encode() in RESP2 and RESP3 and parsed
 * back: it must give the same value (up to what the encoding normalizes:
 * CR/LF in a status line, RESP3 types in RESP2) and encode to the same
 * bytes again.  A reply cut short must read as incomplete, not as an
 * error or as another reply.
 *
 * Input: byte 0 picks the limits, byte 1 the chunk size (0: all at once),
 * the rest is the bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "net/resp.h"
#include "util/reply.h"
#include "util/util.h"

/* What one run of the request parser did, to compare two runs. */
struct trace {
	uint8_t	*data;
	size_t	 len;
	size_t	 cap;
};

static void
trace_add(struct trace *t, const void *p, size_t n)
{
	if (t->cap - t->len < n) {
		while (t->cap - t->len < n)
			t->cap = t->cap == 0 ? 256 : t->cap * 2;
		t->data = xrealloc(t->data, t->cap);
	}
	memcpy(t->data + t->len, p, n);
	t->len += n;
}

static void
trace_num(struct trace *t, char tag, size_t n)
{
	trace_add(t, &tag, 1);
	trace_add(t, &n, sizeof(n));
}

static int
has_crlf(const char *s, size_t n)
{
	return memchr(s, '\r', n) != NULL || memchr(s, '\n', n) != NULL;
}

/* ------------------------------------------------------------ requests */

/* Writes a request as a RESP array and checks it parses back the same. */
static void
request_roundtrip(const struct resp_request *req)
{
	struct resp_parser	 p;
	struct resp_request	 back;
	struct trace		 b = { NULL, 0, 0 };
	const char		*err;
	char			 hdr[32];
	size_t			 used;
	int			 i, n;

	n = snprintf(hdr, sizeof(hdr), "*%d\r\n", req->argc);
	trace_add(&b, hdr, (size_t)n);
	for (i = 0; i < req->argc; i++) {
		n = snprintf(hdr, sizeof(hdr), "$%zu\r\n", req->argl[i]);
		trace_add(&b, hdr, (size_t)n);
		trace_add(&b, req->argv[i], req->argl[i]);
		trace_add(&b, "\r\n", 2);
	}
	resp_parser_init(&p, NULL);
	FUZZ_CHECK(resp_parse(&p, (const char *)b.data, b.len, &used, &back,
	    &err) == RESP_OK);
	FUZZ_CHECK(used == b.len && !back.is_inline);
	FUZZ_CHECK(back.argc == req->argc);
	for (i = 0; i < req->argc; i++)
		FUZZ_CHECK(back.argl[i] == req->argl[i] &&
		    memcmp(back.argv[i], req->argv[i], req->argl[i]) == 0);
	resp_request_free(&back);
	resp_parser_free(&p);
	free(b.data);
}

static void
request_check(const struct resp_request *req, const struct resp_limits *lim)
{
	size_t	total = 0;
	int	i;

	FUZZ_CHECK(req->argc >= 1);
	FUZZ_CHECK(req->argv != NULL && req->argl != NULL);
	for (i = 0; i < req->argc; i++) {
		FUZZ_CHECK(req->argv[i] != NULL);
		FUZZ_CHECK(req->argv[i][req->argl[i]] == '\0');
		if (!req->is_inline)
			FUZZ_CHECK((int64_t)req->argl[i] <= lim->max_bulk);
		total += req->argl[i];
	}
	if (req->is_inline)
		FUZZ_CHECK(total <= lim->max_inline);
	else
		FUZZ_CHECK(req->argc <= lim->max_args);
	request_roundtrip(req);
}

/*
 * Feeds data to one parser `chunk` bytes at a time (0: all at once), as
 * a connection would receive it, and records what came out in t.
 */
static void
run_requests(const char *data, size_t len, const struct resp_limits *lim,
    size_t chunk, struct trace *t)
{
	struct resp_parser	 p;
	struct resp_request	 req;
	enum resp_status	 st;
	const char		*err;
	size_t			 have = 0, start = 0, used, i;

	resp_parser_init(&p, lim);
	while (have < len) {
		/* More bytes arrive... */
		have = chunk == 0 || len - have < chunk ? len : have + chunk;
		/* ...and the connection parses all it can. */
		for (;;) {
			used = (size_t)-1;
			st = resp_parse(&p, data + start, have - start, &used,
			    &req, &err);
			FUZZ_CHECK(used <= have - start);
			start += used;
			if (st == RESP_INCOMPLETE) {
				FUZZ_CHECK(req.argc == 0 && req.argv == NULL);
				break;
			}
			if (st == RESP_ERROR) {
				FUZZ_CHECK(err != NULL &&
				    !has_crlf(err, strlen(err)));
				FUZZ_CHECK(req.argc == 0 && req.argv == NULL);
				trace_num(t, 'E', strlen(err));
				trace_add(t, err, strlen(err));
				/* The daemon replies and closes. */
				goto out;
			}
			FUZZ_CHECK(st == RESP_OK && used > 0);
			request_check(&req, lim);
			trace_num(t, req.is_inline ? 'I' : 'M',
			    (size_t)req.argc);
			for (i = 0; i < (size_t)req.argc; i++) {
				trace_num(t, 'a', req.argl[i]);
				trace_add(t, req.argv[i], req.argl[i]);
			}
			resp_request_free(&req);
			FUZZ_CHECK(req.argc == 0 && req.argv == NULL);
		}
	}
	/* What is left waits for more bytes, whatever the chunking. */
	trace_num(t, 'L', len - start);
out:
	resp_parser_free(&p);
}

static void
fuzz_requests(const char *data, size_t len, const struct resp_limits *lim,
    size_t chunk)
{
	struct trace	whole = { NULL, 0, 0 }, pieces = { NULL, 0, 0 };

	run_requests(data, len, lim, 0, &whole);
	if (chunk != 0 && chunk < len) {
		run_requests(data, len, lim, chunk, &pieces);
		FUZZ_CHECK(whole.len == pieces.len &&
		    memcmp(whole.data, pieces.data, whole.len) == 0);
	}
	free(whole.data);
	free(pieces.data);
}

/* ------------------------------------------------------------- replies */

/* A status or error line as the encoder writes it. */
static int
same_line(const struct reply *a, const struct reply *b)
{
	const char	*s = a->str != NULL ? a->str : "";
	size_t		 n = a->str != NULL ? a->len : 0, i;

	if (a->type == REPLY_ERROR && n == 0) {
		s = "ERR";
		n = 3;
	}
	if (b->len != n)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i] == '\r' || s[i] == '\n' ? ' ' : s[i];

		if (b->str[i] != c)
			return 0;
	}
	return 1;
}

/* b is a parsed back from its encoding in proto. */
static void
reply_same(const struct reply *a, const struct reply *b, int proto)
{
	enum reply_type	 want = a->type;
	size_t		 i;

	if (proto < 3 && (want == REPLY_MAP || want == REPLY_PUSH))
		want = REPLY_ARRAY;
	FUZZ_CHECK(b->type == want);
	switch (a->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
		FUZZ_CHECK(same_line(a, b));
		FUZZ_CHECK(!has_crlf(b->str, b->len));
		break;
	case REPLY_INT:
		FUZZ_CHECK(a->integer == b->integer);
		break;
	case REPLY_BULK:
		FUZZ_CHECK(a->len == b->len &&
		    memcmp(a->str, b->str, a->len) == 0);
		break;
	case REPLY_NULL:
		break;
	case REPLY_MAP:
	case REPLY_ARRAY:
	case REPLY_PUSH:
		FUZZ_CHECK(a->n == b->n);
		for (i = 0; i < a->n; i++)
			reply_same(&a->elem[i], &b->elem[i], proto);
		break;
	default:
		FUZZ_CHECK(!"a parsed reply of no known type");
	}
}

static void
reply_roundtrip(const struct reply *r, int proto)
{
	struct resp_buf	 b1 = { NULL, 0, 0 }, b2 = { NULL, 0, 0 };
	struct reply	 back;
	size_t		 used;

	resp_encode(&b1, r, proto);
	memset(&back, 0, sizeof(back));
	FUZZ_CHECK(resp_parse_reply(b1.data, b1.len, &used, &back) ==
	    RESP_OK);
	FUZZ_CHECK(used == b1.len);
	reply_same(r, &back, proto);
	/* Once normalized, encoding is a fixed point. */
	resp_encode(&b2, &back, proto);
	FUZZ_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
	reply_free(&back);
	resp_buf_free(&b1);
	resp_buf_free(&b2);
}

/* A prefix of a whole reply is incomplete, never an error or a reply. */
static void
reply_prefix(const char *data, size_t n)
{
	struct reply	r;
	size_t		used;

	memset(&r, 0, sizeof(r));
	FUZZ_CHECK(resp_parse_reply(data, n, &used, &r) == RESP_INCOMPLETE);
	FUZZ_CHECK(r.type == REPLY_NONE && used == 0);
}

static void
fuzz_replies(const char *data, size_t len)
{
	struct reply		r;
	enum resp_status	st;
	size_t			pos = 0, used;

	while (pos < len) {
		memset(&r, 0, sizeof(r));
		used = (size_t)-1;
		st = resp_parse_reply(data + pos, len - pos, &used, &r);
		if (st != RESP_OK) {
			FUZZ_CHECK(st == RESP_INCOMPLETE || st == RESP_ERROR);
			FUZZ_CHECK(r.type == REPLY_NONE && used == 0);
			break;
		}
		FUZZ_CHECK(used > 0 && used <= len - pos);
		FUZZ_CHECK(r.type != REPLY_NONE);
		reply_prefix(data + pos, used - 1);
		reply_prefix(data + pos, used / 2);
		reply_roundtrip(&r, 2);
		reply_roundtrip(&r, 3);
		reply_free(&r);
		pos += used;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t	max_inline[] = { 8, 64, 1024,
				    RESP_DEFAULT_MAX_INLINE };
	static const int64_t	max_args[] = { 3, 16, 1024,
				    RESP_DEFAULT_MAX_ARGS };
	static const int64_t	max_bulk[] = { 8, 256, 65536,
				    RESP_DEFAULT_MAX_BULK };
	struct resp_limits	lim;
	size_t			chunk;

	if (size < 2)
		return 0;
	lim.max_inline = max_inline[data[0] & 3];
	lim.max_args = max_args[(data[0] >> 2) & 3];
	lim.max_bulk = max_bulk[(data[0] >> 4) & 3];
	chunk = data[1];
	data += 2;
	size -= 2;
	fuzz_requests((const char *)data, size, &lim, chunk);
	fuzz_replies((const char *)data, size);
	return 0;
}
