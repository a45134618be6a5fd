/*
 * The RESP codec's replies: encoding byte for byte in both protocols,
 * parsing replies, and random bytes that must never crash the parsers.
 * main() is test_resp.c's.
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

/* ------------------------------------------------------ encoder tests */

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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
void
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
