/*
 * The RESP codec: request parsing (inline, multibulk, pipelined, in
 * pieces, malformed, over limits), reply encoding byte for byte in both
 * protocols, reply parsing, and random bytes that must never crash it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "net/resp.h"
#include "util/util.h"

/* ----------------------------------------------------------- helpers */

/* Appends bytes to a resp_buf (the codec's own appender is private). */
static void
resp_buf_add_test(struct resp_buf *b, const char *s, size_t n)
{
	if (b->data == NULL || b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 16;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
}

/* A caller's input buffer, as the daemon keeps one per connection. */
struct feed {
	struct resp_parser	 p;
	char			*in;
	size_t			 len;
	size_t			 cap;
};

static void
feed_init(struct feed *f, const struct resp_limits *lim)
{
	memset(f, 0, sizeof *f);
	resp_parser_init(&f->p, lim);
}

static void
feed_free(struct feed *f)
{
	resp_parser_free(&f->p);
	free(f->in);
}

static void
feed_add(struct feed *f, const char *s, size_t n)
{
	if (f->in == NULL || f->len + n > f->cap) {
		f->cap = (f->len + n) * 2 + 16;
		f->in = xrealloc(f->in, f->cap);
	}
	memcpy(f->in + f->len, s, n);
	f->len += n;
}

/* One call to resp_parse on what is buffered; drops what it used. */
static enum resp_status
feed_parse(struct feed *f, struct resp_request *req, const char **err)
{
	enum resp_status	 st;
	size_t			 used = 0;

	st = resp_parse(&f->p, f->in, f->len, &used, req, err);
	assert_true(used <= f->len);
	if (used > 0) {
		memmove(f->in, f->in + used, f->len - used);
		f->len -= used;
	}
	return st;
}

/*
 * Renders every request parsed from a stream as one line per request:
 * words joined by '|', with non-printable bytes as \xHH.  Stops at the
 * first error and appends "ERROR <msg>".
 */
static void
render(struct resp_buf *out, const struct resp_request *req)
{
	char	 tmp[8];
	size_t	 i;
	int	 a;

	for (a = 0; a < req->argc; a++) {
		if (a > 0)
			resp_buf_add_test(out, "|", 1);
		assert_int_equal(req->argv[a][req->argl[a]], '\0');
		for (i = 0; i < req->argl[a]; i++) {
			unsigned char c = (unsigned char)req->argv[a][i];
			if (c >= 0x20 && c < 0x7f && c != '|' && c != '\\')
				resp_buf_add_test(out, (char *)&c, 1);
			else {
				snprintf(tmp, sizeof tmp, "\\x%02x", c);
				resp_buf_add_test(out, tmp, 4);
			}
		}
	}
	resp_buf_add_test(out, req->is_inline ? " (inline)\n" : "\n",
	    req->is_inline ? 10 : 1);
}

/* Feeds src in chunks of the given size and collects what is parsed. */
static char *
parse_chunked(const char *src, size_t n, size_t chunk,
    const struct resp_limits *lim)
{
	struct feed		 f;
	struct resp_request	 req;
	struct resp_buf		 out = { NULL, 0, 0 };
	enum resp_status	 st;
	const char		*err;
	size_t			 off = 0, k;

	feed_init(&f, lim);
	for (;;) {
		for (;;) {
			st = feed_parse(&f, &req, &err);
			if (st != RESP_OK)
				break;
			render(&out, &req);
			resp_request_free(&req);
		}
		if (st == RESP_ERROR) {
			assert_non_null(err);
			resp_buf_add_test(&out, "ERROR ", 6);
			resp_buf_add_test(&out, err, strlen(err));
			resp_buf_add_test(&out, "\n", 1);
			break;
		}
		if (off == n)
			break;
		k = n - off < chunk ? n - off : chunk;
		feed_add(&f, src + off, k);
		off += k;
	}
	feed_free(&f);
	resp_buf_add_test(&out, "", 1);
	return out.data;
}

/* Parses a whole buffer at once and checks every chunking agrees. */
static void
assert_parses(const char *src, size_t n, const char *want,
    const struct resp_limits *lim)
{
	static const size_t	 chunks[] = { 1, 2, 3, 5, 7, 64, 1 << 20 };
	char			*got;
	size_t			 i;

	for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		got = parse_chunked(src, n, chunks[i], lim);
		if (strcmp(got, want) != 0)
			fail_msg("chunk %zu: got\n%s\nwant\n%s", chunks[i], got,
			    want);
		free(got);
	}
}

#define PARSES(s, want)	assert_parses((s), sizeof(s) - 1, (want), NULL)
#define LPARSES(s, want, lim) \
	assert_parses((s), sizeof(s) - 1, (want), (lim))
#define LPROTO_ERROR(s, want, lim) \
	assert_protocol_error((s), sizeof(s) - 1, (want), (lim))

/* The one request and status of a single resp_parse call. */
static enum resp_status
parse_once(const char *s, size_t n, size_t *used, struct resp_request *req,
    const char **err, const struct resp_limits *lim)
{
	struct resp_parser	 p;
	enum resp_status	 st;

	resp_parser_init(&p, lim);
	st = resp_parse(&p, s, n, used, req, err);
	resp_parser_free(&p);
	return st;
}

static void
assert_protocol_error(const char *s, size_t n, const char *want,
    const struct resp_limits *lim)
{
	struct resp_request	 req;
	const char		*err = NULL;
	size_t			 used;

	assert_int_equal(parse_once(s, n, &used, &req, &err, lim),
	    RESP_ERROR);
	assert_non_null(err);
	assert_string_equal(err, want);
	assert_null(strchr(err, '\r'));
	assert_null(strchr(err, '\n'));
	/* Every chunking reaches the same error. */
	{
		char *w;
		xasprintf(&w, "ERROR %s\n", want);
		assert_parses(s, n, w, lim);
		free(w);
	}
}

#define PROTO_ERROR(s, want) \
	assert_protocol_error((s), sizeof(s) - 1, (want), NULL)

static void
assert_encodes(const struct reply *r, int proto, const char *want,
    size_t wantlen)
{
	struct resp_buf	 b = { NULL, 0, 0 };

	resp_encode(&b, r, proto);
	assert_int_equal(b.len, wantlen);
	assert_memory_equal(b.data, want, wantlen);
	resp_buf_free(&b);
}

#define ENCODES(r, proto, s)	assert_encodes((r), (proto), (s), sizeof(s) - 1)

/* Structural equality of two reply trees. */
static void
assert_reply_equal(const struct reply *a, const struct reply *b)
{
	size_t	 i;

	assert_int_equal(a->type, b->type);
	switch (a->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
	case REPLY_BULK:
		assert_int_equal(a->len, b->len);
		assert_memory_equal(a->str, b->str, a->len);
		assert_int_equal(b->str[b->len], '\0');
		break;
	case REPLY_INT:
		assert_int_equal(a->integer, b->integer);
		break;
	case REPLY_ARRAY:
	case REPLY_MAP:
	case REPLY_PUSH:
		assert_int_equal(a->n, b->n);
		for (i = 0; i < a->n; i++)
			assert_reply_equal(&a->elem[i], &b->elem[i]);
		break;
	default:
		break;
	}
}

/* Parses s as one whole reply, checking every prefix is incomplete. */
static void
parse_reply_whole(const char *s, size_t n, struct reply *out)
{
	struct reply	 tmp;
	size_t		 used, k;

	for (k = 0; k < n; k++) {
		memset(&tmp, 0, sizeof tmp);
		assert_int_equal(resp_parse_reply(s, k, &used, &tmp),
		    RESP_INCOMPLETE);
		assert_int_equal(tmp.type, REPLY_NONE);
	}
	memset(out, 0, sizeof *out);
	assert_int_equal(resp_parse_reply(s, n, &used, out), RESP_OK);
	assert_int_equal(used, n);
}

#define PARSE_REPLY(s, out)	parse_reply_whole((s), sizeof(s) - 1, (out))

static void
assert_reply_malformed(const char *s, size_t n)
{
	struct reply	 r;
	size_t		 used;

	memset(&r, 0, sizeof r);
	assert_int_equal(resp_parse_reply(s, n, &used, &r), RESP_ERROR);
	assert_int_equal(r.type, REPLY_NONE);
}

#define REPLY_MALFORMED(s)	assert_reply_malformed((s), sizeof(s) - 1)

/* ------------------------------------------------------ request tests */

static void
test_resp_parse_inline(void **state)
{
	(void)state;
	PARSES("PING\r\n", "PING (inline)\n");
	PARSES("PING\n", "PING (inline)\n");
	PARSES("ludo.play  g1 red\t6 1\r\n", "ludo.play|g1|red|6|1 (inline)\n");
	PARSES("PING", "");
	PARSES("  PING  \r\n", "PING (inline)\n");
}

static void
test_resp_parse_inline_quotes(void **state)
{
	(void)state;
	PARSES("ECHO \"hello world\"\r\n", "ECHO|hello world (inline)\n");
	PARSES("ECHO \"\"\n", "ECHO| (inline)\n");
	PARSES("ECHO 'a \"b\"'\n", "ECHO|a \"b\" (inline)\n");
	PARSES("ECHO \"a\\x41\\n\\\"\"\n", "ECHO|aA\\x0a\" (inline)\n");
	PROTO_ERROR("ECHO \"abc\r\n", "unbalanced quotes in request");
	PROTO_ERROR("ECHO 'abc\n", "unbalanced quotes in request");
	PROTO_ERROR("ECHO \"a\"b\n", "unbalanced quotes in request");
}

static void
test_resp_parse_inline_blank_lines(void **state)
{
	(void)state;
	PARSES("\r\n\n   \r\n\t\nPING\r\n\r\n", "PING (inline)\n");
	PARSES("\n\n\n", "");
}

static void
test_resp_parse_multibulk(void **state)
{
	(void)state;
	PARSES("*1\r\n$4\r\nPING\r\n", "PING\n");
	PARSES("*3\r\n$10\r\nLUDO.STATE\r\n", "");	/* short bulk: waits */
	PARSES("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n", "SET|k|\n");
	PARSES("*2\r\n$4\r\nECHO\r\n$11\r\nhello world\r\n",
	    "ECHO|hello world\n");
	/* Leading zeros are not numbers (as in Redis's string2ll). */
	PROTO_ERROR("*01\r\n$4\r\nPING\r\n", "invalid multibulk length");
}

static void
test_resp_parse_multibulk_empty_skipped(void **state)
{
	(void)state;
	PARSES("*0\r\n*-1\r\n*1\r\n$4\r\nPING\r\n", "PING\n");
	PARSES("*0\r\n", "");
	PARSES("*-1\r\n", "");
	/* Any negative count is skipped, as Redis does (*-10 in its tests). */
	PARSES("*-2\r\n*-10\r\n*1\r\n$4\r\nPING\r\n", "PING\n");
	PARSES("*-9223372036854775808\r\n", "");
	PROTO_ERROR("*-9223372036854775809\r\n", "invalid multibulk length");
}

static void
test_resp_parse_binary_safe(void **state)
{
	static const char	 s[] = "*2\r\n$4\r\nECHO\r\n$5\r\na\0\r\nb\r\n";
	struct resp_request	 req;
	const char		*err;
	size_t			 used;

	(void)state;
	assert_int_equal(parse_once(s, sizeof s - 1, &used, &req, &err, NULL),
	    RESP_OK);
	assert_int_equal(used, sizeof s - 1);
	assert_int_equal(req.argc, 2);
	assert_false(req.is_inline);
	assert_int_equal(req.argl[1], 5);
	assert_memory_equal(req.argv[1], "a\0\r\nb", 6);	/* and NUL */
	resp_request_free(&req);
	assert_parses(s, sizeof s - 1, "ECHO|a\\x00\\x0d\\x0ab\n", NULL);
}

static void
test_resp_parse_pipelined(void **state)
{
	static const char s[] =
	    "PING\r\n"
	    "*2\r\n$4\r\nECHO\r\n$1\r\nx\r\n"
	    "ECHO \"a b\"\n"
	    "*0\r\n"
	    "\r\n"
	    "*1\r\n$4\r\nQUIT\r\n"
	    "GAMES ludo\r\n";
	struct resp_parser	 p;
	struct resp_request	 req;
	const char		*err;
	size_t			 used, pos = 0;
	int			 count = 0;

	(void)state;
	PARSES(
	    "PING\r\n"
	    "*2\r\n$4\r\nECHO\r\n$1\r\nx\r\n"
	    "ECHO \"a b\"\n"
	    "*0\r\n"
	    "\r\n"
	    "*1\r\n$4\r\nQUIT\r\n"
	    "GAMES ludo\r\n",
	    "PING (inline)\nECHO|x\nECHO|a b (inline)\nQUIT\n"
	    "GAMES|ludo (inline)\n");
	/* One call, one request: the rest stays for the next call. */
	resp_parser_init(&p, NULL);
	while (resp_parse(&p, s + pos, sizeof s - 1 - pos, &used, &req,
	    &err) == RESP_OK) {
		assert_true(used > 0);
		pos += used;
		count++;
		resp_request_free(&req);
	}
	assert_int_equal(count, 5);
	assert_int_equal(pos, sizeof s - 1);
	resp_parser_free(&p);
}

/* Header numbers are read in place with parse_int64()'s rules. */
static void
test_resp_parse_header_numbers(void **state)
{
	(void)state;
	PARSES("*1\r\n$0\r\n\r\n", "\n");
	PARSES("*-1\r\n*1\r\n$4\r\nPING\r\n", "PING\n");
	PARSES("*1\r\n$10\r\n0123456789\r\n", "0123456789\n");
	PROTO_ERROR("*-0\r\n", "invalid multibulk length");
	PROTO_ERROR("*-\r\n", "invalid multibulk length");
	PROTO_ERROR("*1\r\n$00\r\n\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$-0\r\n\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$01\r\na\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$1\0\r\na\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$1 \r\na\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$-9223372036854775808\r\n",
	    "invalid bulk length");
	PROTO_ERROR("*1\r\n$-9223372036854775809\r\n",
	    "invalid bulk length");
	PROTO_ERROR("*1\r\n$9223372036854775807\r\n",
	    "LIMIT bulk too large");
	PROTO_ERROR("*1\r\n$9223372036854775808\r\n",
	    "LIMIT bulk too large");
}

/* However many elements (one go reads up to 16), each is the same. */
static void
test_resp_parse_many_elements(void **state)
{
	char			 src[1024], want[1024];
	struct resp_request	 req;
	const char		*err;
	size_t			 n, w, used;
	int			 argc, i;

	(void)state;
	for (argc = 1; argc <= 20; argc++) {
		n = (size_t)snprintf(src, sizeof src, "*%d\r\n", argc);
		w = 0;
		for (i = 0; i < argc; i++) {
			n += (size_t)snprintf(src + n, sizeof src - n,
			    "$%d\r\n%.*s\r\n", i, i, "abcdefghijklmnopqrst");
			w += (size_t)snprintf(want + w, sizeof want - w,
			    "%s%.*s", i > 0 ? "|" : "", i,
			    "abcdefghijklmnopqrst");
		}
		snprintf(want + w, sizeof want - w, "\n");
		assert_parses(src, n, want, NULL);
		assert_int_equal(parse_once(src, n, &used, &req, &err, NULL),
		    RESP_OK);
		assert_int_equal(used, n);
		assert_int_equal(req.argc, argc);
		for (i = 0; i < argc; i++) {
			assert_int_equal(req.argl[i], (size_t)i);
			assert_memory_equal(req.argv[i],
			    "abcdefghijklmnopqrst", (size_t)i);
			assert_int_equal(req.argv[i][i], '\0');
		}
		resp_request_free(&req);
	}
}

static void
test_resp_parse_consumes_elements(void **state)
{
	static const char	 s[] = "*3\r\n$4\r\nECHO\r\n$5\r\nhel";
	struct resp_parser	 p;
	struct resp_request	 req;
	const char		*err;
	size_t			 used;

	(void)state;
	resp_parser_init(&p, NULL);
	/* The header and the first whole bulk are consumed, not rescanned. */
	assert_int_equal(resp_parse(&p, s, sizeof s - 1, &used, &req, &err),
	    RESP_INCOMPLETE);
	assert_int_equal(used, 4 + 10 + 4);
	assert_int_equal(p.req.argc, 1);
	assert_int_equal(p.bulk_len, 5);
	/* Resume with the unconsumed rest plus what arrived meanwhile. */
	assert_int_equal(resp_parse(&p, "hello\r\n$1\r\n!\r\n", 14, &used,
	    &req, &err), RESP_OK);
	assert_int_equal(used, 14);
	assert_int_equal(req.argc, 3);
	assert_string_equal(req.argv[0], "ECHO");
	assert_string_equal(req.argv[1], "hello");
	assert_string_equal(req.argv[2], "!");
	resp_request_free(&req);
	/* A freed parser with a half request leaks nothing (ASan checks). */
	assert_int_equal(resp_parse(&p, "*2\r\n$1\r\na\r\n", 11, &used, &req,
	    &err), RESP_INCOMPLETE);
	resp_parser_free(&p);
}

static void
test_resp_parse_byte_by_byte(void **state)
{
	static const char	 s[] =
	    "*3\r\n$11\r\nLUDO.CREATE\r\n$2\r\ng1\r\n$3\r\nr\0d\r\n"
	    "snl.roll g2 4\r\n"
	    "*1\r\n$0\r\n\r\n"
	    "\n"
	    "ECHO \"x y\" 'z'\n";
	struct feed		 f;
	struct resp_request	 req;
	struct resp_buf		 whole = { NULL, 0, 0 }, bytes = { NULL, 0, 0 };
	const char		*err;
	size_t			 i, used, pos = 0;

	(void)state;
	/* All at once. */
	{
		struct resp_parser p;

		resp_parser_init(&p, NULL);
		while (resp_parse(&p, s + pos, sizeof s - 1 - pos, &used,
		    &req, &err) == RESP_OK) {
			pos += used;
			render(&whole, &req);
			resp_request_free(&req);
		}
		resp_parser_free(&p);
	}
	/* One byte at a time, parsing after each. */
	feed_init(&f, NULL);
	for (i = 0; i < sizeof s - 1; i++) {
		feed_add(&f, s + i, 1);
		while (feed_parse(&f, &req, &err) == RESP_OK) {
			render(&bytes, &req);
			resp_request_free(&req);
		}
	}
	assert_int_equal(f.len, 0);
	feed_free(&f);
	assert_int_equal(whole.len, bytes.len);
	assert_memory_equal(whole.data, bytes.data, whole.len);
	resp_buf_add_test(&whole, "", 1);
	assert_string_equal(whole.data,
	    "LUDO.CREATE|g1|r\\x00d\n"
	    "snl.roll|g2|4 (inline)\n"
	    "\n"
	    "ECHO|x y|z (inline)\n");
	resp_buf_free(&whole);
	resp_buf_free(&bytes);
}

static void
test_resp_parse_bad_multibulk_length(void **state)
{
	(void)state;
	PROTO_ERROR("*x\r\n", "invalid multibulk length");
	PROTO_ERROR("*\r\n", "invalid multibulk length");
	PROTO_ERROR("*1x\r\n", "invalid multibulk length");
	PROTO_ERROR("*+1\r\n", "invalid multibulk length");
	PROTO_ERROR("*1\n$4\r\nPING\r\n", "invalid multibulk length");
	PROTO_ERROR("* 1\r\n", "invalid multibulk length");
	/* A header that cannot be a number is refused before its end. */
	PROTO_ERROR("*1111111111111111111111111111111111111111",
	    "invalid multibulk length");
}

static void
test_resp_parse_expected_dollar(void **state)
{
	(void)state;
	PROTO_ERROR("*1\r\nPING\r\n", "expected '$', got 'P'");
	PROTO_ERROR("*2\r\n$1\r\na\r\n:1\r\n", "expected '$', got ':'");
	/* A control byte is named, never echoed raw into the reply. */
	PROTO_ERROR("*1\r\n\r\n", "expected '$', got '\\x0d'");
	PROTO_ERROR("*1\r\n\n", "expected '$', got '\\x0a'");
	assert_protocol_error("*1\r\n\0", 5, "expected '$', got '\\x00'",
	    NULL);
}

static void
test_resp_parse_bad_bulk_length(void **state)
{
	(void)state;
	PROTO_ERROR("*1\r\n$-1\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$-5\r\nabc\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$x\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$3\nabc\r\n", "invalid bulk length");
	PROTO_ERROR("*1\r\n$99999999999999999999999999999999999999",
	    "invalid bulk length");
}

static void
test_resp_parse_missing_crlf(void **state)
{
	(void)state;
	PROTO_ERROR("*1\r\n$3\r\nabcXY", "expected CRLF after bulk string");
	PROTO_ERROR("*1\r\n$3\r\nabc\n\r", "expected CRLF after bulk string");
	PROTO_ERROR("*1\r\n$3\r\nabcd\r\n", "expected CRLF after bulk string");
	PARSES("*1\r\n$3\r\nabc\r", "");	/* not yet known */
}

static void
test_resp_parse_limit_inline(void **state)
{
	struct resp_limits	 lim = { 16, 8, 32 };
	char			 big[200];

	(void)state;
	/* At the limit without a newline: still waiting. */
	LPARSES("0123456789abcdef", "", &lim);
	LPARSES("0123456789abcdef\n", "0123456789abcdef (inline)\n", &lim);
	/* One byte over, no newline yet: refused now. */
	LPROTO_ERROR("0123456789abcdefg", "LIMIT too big inline request",
	    &lim);
	LPROTO_ERROR("0123456789abcdefg\n", "LIMIT too big inline request",
	    &lim);
	/* Default limit: 64 KiB. */
	{
		char *huge = xmalloc(RESP_DEFAULT_MAX_INLINE + 1);
		struct resp_request req;
		const char *err;
		size_t used;

		memset(huge, 'a', RESP_DEFAULT_MAX_INLINE + 1);
		assert_int_equal(parse_once(huge, RESP_DEFAULT_MAX_INLINE,
		    &used, &req, &err, NULL), RESP_INCOMPLETE);
		assert_int_equal(parse_once(huge, RESP_DEFAULT_MAX_INLINE + 1,
		    &used, &req, &err, NULL), RESP_ERROR);
		assert_string_equal(err, "LIMIT too big inline request");
		free(huge);
	}
	memset(big, 'x', sizeof big);
	assert_protocol_error(big, sizeof big, "LIMIT too big inline request",
	    &lim);
}

static void
test_resp_parse_limit_args(void **state)
{
	struct resp_limits	 lim = { 16, 3, 32 };

	(void)state;
	LPARSES("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", "a|b|c\n",
	    &lim);
	LPROTO_ERROR("*4\r\n", "LIMIT too many arguments in request", &lim);
	PROTO_ERROR("*1048577\r\n", "LIMIT too many arguments in request");
	PROTO_ERROR("*9223372036854775808\r\n",
	    "LIMIT too many arguments in request");
	/* A big count alone allocates nothing and waits. */
	PARSES("*1048576\r\n$1\r\na\r\n", "");
}

static void
test_resp_parse_limit_bulk(void **state)
{
	struct resp_limits	 lim = { 16, 3, 4 };

	(void)state;
	LPARSES("*1\r\n$4\r\nabcd\r\n", "abcd\n", &lim);
	LPROTO_ERROR("*1\r\n$5\r\n", "LIMIT bulk too large", &lim);
	PROTO_ERROR("*1\r\n$536870913\r\n", "LIMIT bulk too large");
	PARSES("*1\r\n$536870912\r\n", "");	/* allowed: waits */
}

static void
test_resp_parse_resets_after_error(void **state)
{
	struct resp_parser	 p;
	struct resp_request	 req;
	const char		*err;
	size_t			 used;

	(void)state;
	resp_parser_init(&p, NULL);
	assert_int_equal(resp_parse(&p, "*2\r\n$1\r\na\r\n$x\r\n", 15, &used,
	    &req, &err), RESP_ERROR);
	assert_string_equal(err, "invalid bulk length");
	assert_int_equal(p.in_multibulk, 0);
	assert_int_equal(p.req.argc, 0);
	assert_int_equal(resp_parse(&p, "PING\n", 5, &used, &req, &err),
	    RESP_OK);
	assert_string_equal(req.argv[0], "PING");
	resp_request_free(&req);
	resp_parser_free(&p);
}

/* ------------------------------------------------------ encoder tests */

static void
test_resp_encode_scalars(void **state)
{
	struct reply	 r;
	int		 proto;

	(void)state;
	for (proto = 2; proto <= 3; proto++) {
		memset(&r, 0, sizeof r);
		reply_status(&r, "OK");
		ENCODES(&r, proto, "+OK\r\n");
		reply_free(&r);
		reply_status(&r, "P1 WINS");
		ENCODES(&r, proto, "+P1 WINS\r\n");
		reply_free(&r);
		reply_error(&r, "NOGAME", "no such game '%s'", "g\r\n1");
		ENCODES(&r, proto, "-NOGAME no such game 'g  1'\r\n");
		reply_free(&r);
		reply_int(&r, 42);
		ENCODES(&r, proto, ":42\r\n");
		reply_int(&r, -9223372036854775807LL - 1);
		ENCODES(&r, proto, ":-9223372036854775808\r\n");
		reply_bulk(&r, "a\0\r\nb", 5);
		ENCODES(&r, proto, "$5\r\na\0\r\nb\r\n");
		reply_free(&r);
		reply_bulk(&r, "", 0);
		ENCODES(&r, proto, "$0\r\n\r\n");
		reply_free(&r);
		/* Defensive: CR/LF in a status never reach the wire. */
		r.type = REPLY_STATUS;
		r.str = xstrdup("a\r\nb");
		r.len = 4;
		ENCODES(&r, proto, "+a  b\r\n");
		reply_free(&r);
		/* A handler that forgot to reply still yields one reply. */
		ENCODES(&r, proto, "-ERR internal error: empty reply\r\n");
	}
	reply_null(&r);
	ENCODES(&r, 2, "$-1\r\n");
	ENCODES(&r, 3, "_\r\n");
}

static void
test_resp_encode_aggregates(void **state)
{
	struct reply	 r, *e;

	(void)state;
	memset(&r, 0, sizeof r);
	reply_array(&r);
	ENCODES(&r, 2, "*0\r\n");
	ENCODES(&r, 3, "*0\r\n");
	reply_status(reply_add(&r), "turn,red");
	reply_int(reply_add(&r), 3);
	e = reply_add(&r);
	reply_array(e);
	reply_null(reply_add(e));
	reply_bulk(reply_add(e), "x", 1);
	ENCODES(&r, 2, "*3\r\n+turn,red\r\n:3\r\n*2\r\n$-1\r\n$1\r\nx\r\n");
	ENCODES(&r, 3, "*3\r\n+turn,red\r\n:3\r\n*2\r\n_\r\n$1\r\nx\r\n");
	reply_free(&r);

	reply_map(&r);
	reply_bulk(reply_add(&r), "server", 6);
	reply_bulk(reply_add(&r), "ludusd", 6);
	reply_bulk(reply_add(&r), "proto", 5);
	reply_int(reply_add(&r), 3);
	ENCODES(&r, 2, "*4\r\n$6\r\nserver\r\n$6\r\nludusd\r\n"
	    "$5\r\nproto\r\n:3\r\n");
	ENCODES(&r, 3, "%2\r\n$6\r\nserver\r\n$6\r\nludusd\r\n"
	    "$5\r\nproto\r\n:3\r\n");
	/* A key without its value is padded so framing holds. */
	reply_bulk(reply_add(&r), "k", 1);
	ENCODES(&r, 3, "%3\r\n$6\r\nserver\r\n$6\r\nludusd\r\n"
	    "$5\r\nproto\r\n:3\r\n$1\r\nk\r\n_\r\n");
	reply_free(&r);

	reply_push_type(&r);
	reply_bulk(reply_add(&r), "move", 4);
	reply_bulk(reply_add(&r), "g1", 2);
	reply_int(reply_add(&r), 7);
	ENCODES(&r, 2, "*3\r\n$4\r\nmove\r\n$2\r\ng1\r\n:7\r\n");
	ENCODES(&r, 3, ">3\r\n$4\r\nmove\r\n$2\r\ng1\r\n:7\r\n");
	reply_free(&r);
}

static void
test_resp_encode_appends(void **state)
{
	struct resp_buf	 b = { NULL, 0, 0 };
	struct reply	 r;
	int		 i;

	(void)state;
	memset(&r, 0, sizeof r);
	reply_bulk(&r, "0123456789", 10);
	/* Growth past the first allocation keeps earlier bytes. */
	for (i = 0; i < 100; i++)
		resp_encode(&b, &r, 2);
	assert_int_equal(b.len, 100 * 17);
	for (i = 0; i < 100; i++)
		assert_memory_equal(b.data + i * 17, "$10\r\n0123456789\r\n",
		    17);
	reply_free(&r);
	resp_buf_free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
}

/* -------------------------------------------------- reply parser tests */

static void
test_resp_parse_reply_resp2(void **state)
{
	struct reply	 r;

	(void)state;
	PARSE_REPLY("+OK\r\n", &r);
	assert_int_equal(r.type, REPLY_STATUS);
	assert_string_equal(r.str, "OK");
	reply_free(&r);
	PARSE_REPLY("-ERR unknown command 'x'\r\n", &r);
	assert_int_equal(r.type, REPLY_ERROR);
	assert_string_equal(r.str, "ERR unknown command 'x'");
	reply_free(&r);
	PARSE_REPLY(":-12\r\n", &r);
	assert_int_equal(r.type, REPLY_INT);
	assert_int_equal(r.integer, -12);
	PARSE_REPLY("$3\r\na\nb\r\n", &r);
	assert_int_equal(r.type, REPLY_BULK);
	assert_int_equal(r.len, 3);
	assert_memory_equal(r.str, "a\nb", 4);
	reply_free(&r);
	PARSE_REPLY("$0\r\n\r\n", &r);
	assert_int_equal(r.len, 0);
	assert_string_equal(r.str, "");
	reply_free(&r);
	PARSE_REPLY("$-1\r\n", &r);
	assert_int_equal(r.type, REPLY_NULL);
	PARSE_REPLY("*-1\r\n", &r);
	assert_int_equal(r.type, REPLY_NULL);
	PARSE_REPLY("*0\r\n", &r);
	assert_int_equal(r.type, REPLY_ARRAY);
	assert_int_equal(r.n, 0);
	PARSE_REPLY("*2\r\n*1\r\n:1\r\n+x\r\n", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.elem[0].type, REPLY_ARRAY);
	assert_int_equal(r.elem[0].elem[0].integer, 1);
	assert_string_equal(r.elem[1].str, "x");
	reply_free(&r);
}

static void
test_resp_parse_reply_resp3(void **state)
{
	struct reply	 r;

	(void)state;
	PARSE_REPLY("_\r\n", &r);
	assert_int_equal(r.type, REPLY_NULL);
	PARSE_REPLY(",3.25\r\n", &r);
	assert_int_equal(r.type, REPLY_BULK);
	assert_string_equal(r.str, "3.25");
	reply_free(&r);
	PARSE_REPLY("#t\r\n", &r);
	assert_int_equal(r.type, REPLY_INT);
	assert_int_equal(r.integer, 1);
	PARSE_REPLY("#f\r\n", &r);
	assert_int_equal(r.integer, 0);
	PARSE_REPLY("(3492890328409238509324850943850943825024385\r\n", &r);
	assert_string_equal(r.str,
	    "3492890328409238509324850943850943825024385");
	reply_free(&r);
	PARSE_REPLY("=15\r\ntxt:Some string\r\n", &r);
	assert_int_equal(r.type, REPLY_BULK);
	assert_string_equal(r.str, "Some string");
	reply_free(&r);
	PARSE_REPLY("!21\r\nSYNTAX invalid syntax\r\n", &r);
	assert_int_equal(r.type, REPLY_ERROR);
	assert_string_equal(r.str, "SYNTAX invalid syntax");
	reply_free(&r);
	PARSE_REPLY("%1\r\n+proto\r\n:3\r\n", &r);
	assert_int_equal(r.type, REPLY_MAP);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.elem[0].str, "proto");
	assert_int_equal(r.elem[1].integer, 3);
	reply_free(&r);
	PARSE_REPLY("~2\r\n:1\r\n:2\r\n", &r);
	assert_int_equal(r.type, REPLY_ARRAY);
	assert_int_equal(r.n, 2);
	reply_free(&r);
	PARSE_REPLY(">2\r\n$4\r\nmove\r\n:1\r\n", &r);
	assert_int_equal(r.type, REPLY_PUSH);
	assert_int_equal(r.n, 2);
	reply_free(&r);
	/* Attributes are skipped, at the top and inside aggregates. */
	PARSE_REPLY("|1\r\n+ttl\r\n*1\r\n:3\r\n:5\r\n", &r);
	assert_int_equal(r.type, REPLY_INT);
	assert_int_equal(r.integer, 5);
	PARSE_REPLY("*2\r\n|1\r\n+a\r\n+b\r\n:1\r\n:2\r\n", &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.elem[0].integer, 1);
	assert_int_equal(r.elem[1].integer, 2);
	reply_free(&r);
}

static void
test_resp_parse_reply_pipelined(void **state)
{
	static const char	 s[] = "+OK\r\n:1\r\n$1\r\nx\r\n+PA";
	struct reply		 r;
	size_t			 used, pos = 0;
	int			 n = 0;

	(void)state;
	for (;;) {
		memset(&r, 0, sizeof r);
		if (resp_parse_reply(s + pos, sizeof s - 1 - pos, &used, &r) !=
		    RESP_OK)
			break;
		pos += used;
		n++;
		reply_free(&r);
	}
	assert_int_equal(n, 3);
	assert_int_equal(pos, sizeof s - 1 - 3);
}

static void
test_resp_parse_reply_malformed(void **state)
{
	char	*deep;
	size_t	 i;

	(void)state;
	REPLY_MALFORMED("?\r\n");
	REPLY_MALFORMED("+OK\n");
	REPLY_MALFORMED(":x\r\n");
	REPLY_MALFORMED(":\r\n");
	REPLY_MALFORMED(":99999999999999999999\r\n");
	REPLY_MALFORMED("$-2\r\n");
	REPLY_MALFORMED("$x\r\n");
	REPLY_MALFORMED("$3\r\nabcd\r\n");
	REPLY_MALFORMED("*-2\r\n");
	REPLY_MALFORMED("*1\r\n?\r\n");
	REPLY_MALFORMED("_x\r\n");
	REPLY_MALFORMED("#x\r\n");
	REPLY_MALFORMED(",\r\n");
	REPLY_MALFORMED("=3\r\nabc\r\n");
	REPLY_MALFORMED("%x\r\n");
	REPLY_MALFORMED("\r\n");
	/* Nesting beyond any real reply is refused, not recursed into. */
	deep = xmalloc(4 * 10000 + 5);
	for (i = 0; i < 10000; i++)
		memcpy(deep + 4 * i, "*1\r\n", 4);
	memcpy(deep + 4 * i, ":1\r\n", 4);
	assert_reply_malformed(deep, 4 * 10000 + 4);
	free(deep);
}

/* Builds one reply of every type, nested. */
static void
build_everything(struct reply *r)
{
	struct reply	*a, *m, *p;

	memset(r, 0, sizeof *r);
	reply_array(r);
	reply_status(reply_add(r), "MOVED_AND_CAPTURED");
	reply_error(reply_add(r), "STALE", "game g1 has %d moves", 4);
	reply_int(reply_add(r), -7);
	reply_bulk(reply_add(r), "bin\0\r\n", 6);
	reply_bulk(reply_add(r), "", 0);
	reply_null(reply_add(r));
	a = reply_add(r);
	reply_array(a);
	reply_array(reply_add(a));
	m = reply_add(r);
	reply_map(m);
	reply_bulk(reply_add(m), "kind", 4);
	reply_bulk(reply_add(m), "ludo", 4);
	reply_bulk(reply_add(m), "moves", 5);
	reply_int(reply_add(m), 12);
	p = reply_add(r);
	reply_push_type(p);
	reply_bulk(reply_add(p), "move", 4);
	reply_int(reply_add(p), 1);
}

/* What a RESP2 round trip makes of a tree: maps and pushes flatten. */
static void
as_resp2(struct reply *r)
{
	size_t	 i;

	if (r->type == REPLY_MAP || r->type == REPLY_PUSH)
		r->type = REPLY_ARRAY;
	for (i = 0; i < r->n; i++)
		as_resp2(&r->elem[i]);
}

static void
test_resp_parse_reply_round_trip(void **state)
{
	struct reply	 orig, back;
	struct resp_buf	 b = { NULL, 0, 0 };
	int		 proto;

	(void)state;
	for (proto = 3; proto >= 2; proto--) {
		build_everything(&orig);
		resp_encode(&b, &orig, proto);
		parse_reply_whole(b.data, b.len, &back);
		if (proto == 2)
			as_resp2(&orig);
		assert_reply_equal(&orig, &back);
		reply_free(&orig);
		reply_free(&back);
		resp_buf_free(&b);
	}
}

/* ------------------------------------------------------ random bytes */

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Random buffers, mostly made of protocol bytes so they get deep into the
 * parsers.  Nothing is checked but sanity: the run is for ASan and UBSan.
 */
static void
test_resp_random_bytes(void **state)
{
	static const char	 alpha[] = "*$+-:_,#(=%~>|!\r\n\r\n0123456789-1 \"'x\\";
	struct resp_limits	 lim = { 24, 6, 12 };
	struct resp_parser	 p;
	struct resp_request	 req;
	struct reply		 r;
	const char		*err;
	char			 buf[96];
	uint64_t		 seed = 0x9e3779b97f4a7c15ULL;
	size_t			 len, i, used, pos;
	int			 iter, ok = 0;
	enum resp_status	 st;

	(void)state;
	for (iter = 0; iter < 20000; iter++) {
		len = (size_t)(xorshift(&seed) % sizeof buf);
		for (i = 0; i < len; i++) {
			uint64_t x = xorshift(&seed);
			buf[i] = x % 4 == 0 ? (char)(x >> 8) :
			    alpha[(x >> 8) % (sizeof alpha - 1)];
		}
		resp_parser_init(&p, iter % 2 ? &lim : NULL);
		pos = 0;
		do {
			st = resp_parse(&p, buf + pos, len - pos, &used, &req,
			    &err);
			assert_true(used <= len - pos);
			pos += used;
			if (st == RESP_OK) {
				assert_true(req.argc > 0);
				for (i = 0; i < (size_t)req.argc; i++)
					assert_int_equal(
					    req.argv[i][req.argl[i]], '\0');
				resp_request_free(&req);
				ok++;
			} else if (st == RESP_ERROR) {
				assert_non_null(err);
				assert_null(strpbrk(err, "\r\n"));
			}
		} while (st == RESP_OK);
		resp_parser_free(&p);
		pos = 0;
		for (;;) {
			memset(&r, 0, sizeof r);
			st = resp_parse_reply(buf + pos, len - pos, &used, &r);
			if (st != RESP_OK) {
				assert_int_equal(r.type, REPLY_NONE);
				break;
			}
			assert_true(used > 0 && used <= len - pos);
			pos += used;
			reply_free(&r);
		}
	}
	assert_true(ok > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resp_parse_inline),
		cmocka_unit_test(test_resp_parse_inline_quotes),
		cmocka_unit_test(test_resp_parse_inline_blank_lines),
		cmocka_unit_test(test_resp_parse_multibulk),
		cmocka_unit_test(test_resp_parse_multibulk_empty_skipped),
		cmocka_unit_test(test_resp_parse_binary_safe),
		cmocka_unit_test(test_resp_parse_pipelined),
		cmocka_unit_test(test_resp_parse_consumes_elements),
		cmocka_unit_test(test_resp_parse_header_numbers),
		cmocka_unit_test(test_resp_parse_many_elements),
		cmocka_unit_test(test_resp_parse_byte_by_byte),
		cmocka_unit_test(test_resp_parse_bad_multibulk_length),
		cmocka_unit_test(test_resp_parse_expected_dollar),
		cmocka_unit_test(test_resp_parse_bad_bulk_length),
		cmocka_unit_test(test_resp_parse_missing_crlf),
		cmocka_unit_test(test_resp_parse_limit_inline),
		cmocka_unit_test(test_resp_parse_limit_args),
		cmocka_unit_test(test_resp_parse_limit_bulk),
		cmocka_unit_test(test_resp_parse_resets_after_error),
		cmocka_unit_test(test_resp_encode_scalars),
		cmocka_unit_test(test_resp_encode_aggregates),
		cmocka_unit_test(test_resp_encode_appends),
		cmocka_unit_test(test_resp_parse_reply_resp2),
		cmocka_unit_test(test_resp_parse_reply_resp3),
		cmocka_unit_test(test_resp_parse_reply_pipelined),
		cmocka_unit_test(test_resp_parse_reply_malformed),
		cmocka_unit_test(test_resp_parse_reply_round_trip),
		cmocka_unit_test(test_resp_random_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
