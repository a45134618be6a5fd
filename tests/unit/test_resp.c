/*
 * The RESP codec: request parsing (inline, multibulk, pipelined, in
 * pieces, malformed, over limits), reply encoding byte for byte in both
 * protocols, reply parsing, and random bytes that must never crash it.
 * This file has the requests and main(); the replies and the random
 * bytes are in test_resp_reply.c.
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
#include "test_resp.h"

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
		cmocka_unit_test(test_resp_input_two_chunks),
		cmocka_unit_test(test_resp_input_two_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
