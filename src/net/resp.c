/*
 * RESP as pure functions over bytes.  Nothing here reads a socket, keeps a
 * global or aborts on bad input: the daemon feeds whatever arrived, the
 * client feeds whatever it read, and a fuzzer can feed anything at all.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/resp.h"
#include "util/util.h"

/*
 * A multibulk or bulk header is a sign and at most 19 digits; a header line
 * longer than this with no newline yet can never become valid, so it is
 * refused before the client can make us buffer more of it.
 */
#define HEADER_MAX	32

/* Nesting allowed in a reply: ours are at most three deep. */
#define REPLY_DEPTH_MAX	64

/* A bulk reply the client will accept (the server's own limit). */
#define REPLY_BULK_MAX	RESP_DEFAULT_MAX_BULK

/* ------------------------------------------------------ request parser */

void
resp_parser_init(struct resp_parser *p, const struct resp_limits *lim)
{
	memset(p, 0, sizeof *p);
	if (lim != NULL)
		p->lim = *lim;
	else {
		p->lim.max_inline = RESP_DEFAULT_MAX_INLINE;
		p->lim.max_args = RESP_DEFAULT_MAX_ARGS;
		p->lim.max_bulk = RESP_DEFAULT_MAX_BULK;
	}
	p->bulk_len = -1;
}

/* Frees the argument vector of a multibulk request built here. */
static void
free_multibulk(struct resp_request *req)
{
	int	 i;

	for (i = 0; i < req->argc; i++)
		free(req->argv[i]);
	free(req->argv);
	free(req->argl);
}

/* argl follows argv in the block of a request. */
_Static_assert(sizeof(char *) % _Alignof(size_t) == 0,
    "argl after argv would be misaligned");

/*
 * A request handed to the caller is one allocation: argv, argl, then the
 * NUL-ended strings.  A command is half a dozen short words, and one
 * malloc and one free for all of them cost less than the parsing.
 */
static void
request_pack(struct resp_request *req, int argc, const char *const *s,
    const size_t *l, int is_inline)
{
	size_t	 head, total, i;
	char	*block, *d;

	memset(req, 0, sizeof *req);
	req->is_inline = is_inline;
	if (argc == 0)
		return;
	head = (size_t)argc * (sizeof(char *) + sizeof(size_t));
	total = head;
	for (i = 0; i < (size_t)argc; i++)
		total += l[i] + 1;
	block = xmalloc(total);
	req->argv = (char **)(void *)block;
	req->argl = (size_t *)(void *)(block + (size_t)argc * sizeof(char *));
	d = block + head;
	for (i = 0; i < (size_t)argc; i++) {
		memcpy(d, s[i], l[i]);
		d[l[i]] = '\0';
		req->argv[i] = d;
		req->argl[i] = l[i];
		d += l[i] + 1;
	}
	req->argc = argc;
}

void
resp_request_free(struct resp_request *req)
{
	free(req->argv);	/* the whole block: request_pack() */
	memset(req, 0, sizeof *req);
}

/* Forgets any half-built request: after an error, or when one is done. */
static void
parser_reset(struct resp_parser *p)
{
	p->in_multibulk = 0;
	p->want_args = 0;
	p->bulk_len = -1;
	memset(&p->req, 0, sizeof p->req);
	p->cap = 0;
}

void
resp_parser_free(struct resp_parser *p)
{
	free_multibulk(&p->req);
	parser_reset(p);
}

/*
 * Finds a header line "<c><number>\r\n" at buf[0..len) and parses the
 * number.  Returns 1 with *num and *hlen (bytes including CRLF), 0 when
 * the line is not complete yet, -1 when it is not a number in [min, max]
 * (*toolarge set when it is a number above max).  The number is read in
 * place, by the rules of parse_int64() (no sign but '-', no leading
 * zeros), with min <= 0 <= max: every request has several headers.
 */
static int
header_number(const char *buf, size_t len, int64_t min, int64_t max,
    int64_t *num, size_t *hlen, int *toolarge)
{
	const char	*nl;
	size_t		 n, i, end;
	uint64_t	 v = 0, limit, d;
	int		 neg;

	*toolarge = 0;
	nl = memchr(buf, '\n', len < HEADER_MAX ? len : HEADER_MAX);
	if (nl == NULL)
		return len < HEADER_MAX ? 0 : -1;
	n = (size_t)(nl - buf);
	if (n < 2 || buf[n - 1] != '\r')
		return -1;
	/* The digits between the type byte and the CR. */
	i = 1;
	end = n - 1;
	neg = buf[i] == '-';
	if (neg)
		i++;
	if (i == end || (buf[i] == '0' && (neg || i + 1 != end)))
		return -1;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < end; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -1;
		d = (uint64_t)(buf[i] - '0');
		if (v > (limit - d) / 10) {
			*toolarge = !neg;
			return -1;
		}
		v = v * 10 + d;
	}
	if (neg) {
		if (v > (uint64_t)0 - (uint64_t)min)
			return -1;
		*num = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)max) {
			*toolarge = 1;
			return -1;
		}
		*num = (int64_t)v;
	}
	*hlen = n + 1;
	return 1;
}

/*
 * The message for a multibulk element that is not a bulk string; Redis
 * names the byte it got.  Per thread so the parser stays reentrant; it
 * stays valid until the next call that fails this way.
 */
static const char *
expected_dollar(unsigned char c)
{
	static _Thread_local char msg[40];

	if (c >= 0x20 && c < 0x7f)
		snprintf(msg, sizeof msg, "expected '$', got '%c'", c);
	else
		snprintf(msg, sizeof msg, "expected '$', got '\\x%02x'", c);
	return msg;
}

/*
 * Parses one inline line if a whole one is there.  A blank line gives a
 * request with argc 0, which the caller skips.
 */
static enum resp_status
parse_inline(struct resp_parser *p, const char *buf, size_t len,
    size_t *used, struct resp_request *req, const char **err)
{
	const char	*nl;
	size_t		 linelen;
	char		**argv;
	size_t		 *argl;
	int		  argc;

	nl = memchr(buf, '\n', len);
	if (nl == NULL) {
		/* Refuse a line as soon as it is too long, not at its end. */
		if (len > p->lim.max_inline) {
			*err = "LIMIT too big inline request";
			return RESP_ERROR;
		}
		return RESP_INCOMPLETE;
	}
	linelen = (size_t)(nl - buf);
	*used = linelen + 1;
	if (linelen > p->lim.max_inline) {
		*err = "LIMIT too big inline request";
		return RESP_ERROR;
	}
	if (linelen > 0 && buf[linelen - 1] == '\r')
		linelen--;
	if ((argc = split_line(buf, linelen, &argv, &argl)) == -1) {
		*err = "unbalanced quotes in request";
		return RESP_ERROR;
	}
	request_pack(req, argc, (const char *const *)argv, argl, 1);
	split_free(argc, argv, argl);
	return RESP_OK;
}

/*
 * Reads a "*<n>\r\n" header.  The empty *0 and any negative count (*-1,
 * *-10) announce nothing and are skipped, as Redis's processMultibulkBuffer
 * skips them: a count is an error only when it is not a number.
 */
static enum resp_status
parse_multibulk_header(struct resp_parser *p, const char *buf, size_t len,
    size_t *used, const char **err)
{
	int64_t	 n, max;
	size_t	 hlen;
	int	 r, toolarge;

	max = p->lim.max_args < INT_MAX ? p->lim.max_args : INT_MAX;
	r = header_number(buf, len, INT64_MIN, max, &n, &hlen, &toolarge);
	if (r == 0)
		return RESP_INCOMPLETE;
	if (r == -1) {
		*err = toolarge ? "LIMIT too many arguments in request" :
		    "invalid multibulk length";
		return RESP_ERROR;
	}
	*used = hlen;
	if (n > 0) {
		p->in_multibulk = 1;
		p->want_args = n;
		p->bulk_len = -1;
	}
	return RESP_OK;
}

/* Appends a complete bulk string to the request being built. */
static void
add_arg(struct resp_parser *p, const char *s, size_t len)
{
	struct resp_request	*req = &p->req;
	char			*a;

	if (req->argc == p->cap) {
		/* Grow as elements arrive: a huge count alone costs nothing. */
		p->cap = p->cap == 0 ? 8 : p->cap * 2;
		if (p->cap > p->want_args)
			p->cap = (int)p->want_args;
		req->argv = xrealloc(req->argv, (size_t)p->cap *
		    sizeof *req->argv);
		req->argl = xrealloc(req->argl, (size_t)p->cap *
		    sizeof *req->argl);
	}
	a = xmalloc(len + 1);
	memcpy(a, s, len);
	a[len] = '\0';
	req->argv[req->argc] = a;
	req->argl[req->argc] = len;
	req->argc++;
}

/* Requests of up to this many elements are read in one go if whole. */
#define WHOLE_ARGS	16

/*
 * The common case: the whole multibulk (a command) is in buf.  Packs it
 * into *req straight from buf and returns 1 with *used; 0 leaves it to
 * the element by element path of parse_bulks(): not all there yet, too
 * many elements, or something wrong, which that path reports.
 */
static int
parse_whole(const struct resp_parser *p, const char *buf, size_t len,
    size_t *used, struct resp_request *req)
{
	const char	*s[WHOLE_ARGS];
	size_t		 l[WHOLE_ARGS], pos = 0, hlen;
	int64_t		 n;
	int		 i, toolarge;

	if (p->want_args > WHOLE_ARGS)
		return 0;
	for (i = 0; i < p->want_args; i++) {
		if (pos == len || buf[pos] != '$' ||
		    header_number(buf + pos, len - pos, 0, p->lim.max_bulk,
		    &n, &hlen, &toolarge) != 1)
			return 0;
		pos += hlen;
		if (len - pos < 2 || (size_t)n > len - pos - 2 ||
		    buf[pos + (size_t)n] != '\r' ||
		    buf[pos + (size_t)n + 1] != '\n')
			return 0;
		s[i] = buf + pos;
		l[i] = (size_t)n;
		pos += (size_t)n + 2;
	}
	request_pack(req, i, s, l, 0);
	*used = pos;
	return 1;
}

/*
 * Consumes as many whole bulk strings of the current multibulk as buf
 * holds.  RESP_OK once the last one is in, with the request in *req.
 */
static enum resp_status
parse_bulks(struct resp_parser *p, const char *buf, size_t len,
    size_t *used, struct resp_request *req, const char **err)
{
	size_t	 pos = 0, hlen, need;
	int64_t	 n;
	int	 r, toolarge;

	if (p->req.argc == 0 && p->bulk_len < 0 &&
	    parse_whole(p, buf, len, used, req))
		return RESP_OK;
	while (p->req.argc < p->want_args) {
		if (p->bulk_len < 0) {
			if (pos == len)
				break;
			if (buf[pos] != '$') {
				*err = expected_dollar((unsigned char)buf[pos]);
				goto fail;
			}
			r = header_number(buf + pos, len - pos, 0,
			    p->lim.max_bulk, &n, &hlen, &toolarge);
			if (r == 0)
				break;
			if (r == -1) {
				*err = toolarge ? "LIMIT bulk too large" :
				    "invalid bulk length";
				goto fail;
			}
			p->bulk_len = n;
			pos += hlen;
		}
		/* The payload stays in the caller's buffer until whole. */
		need = (size_t)p->bulk_len + 2;
		if (len - pos < need)
			break;
		if (buf[pos + need - 2] != '\r' || buf[pos + need - 1] != '\n') {
			*err = "expected CRLF after bulk string";
			goto fail;
		}
		add_arg(p, buf + pos, (size_t)p->bulk_len);
		pos += need;
		p->bulk_len = -1;
	}
	*used = pos;
	if (p->req.argc < p->want_args)
		return RESP_INCOMPLETE;
	/* Arrived in pieces: the caller still gets one block. */
	request_pack(req, p->req.argc, (const char *const *)p->req.argv,
	    p->req.argl, 0);
	free_multibulk(&p->req);
	return RESP_OK;
fail:
	*used = pos;
	return RESP_ERROR;
}

enum resp_status
resp_parse(struct resp_parser *p, const char *buf, size_t len, size_t *used,
    struct resp_request *req, const char **err)
{
	enum resp_status	 st;
	size_t			 pos = 0, n;

	memset(req, 0, sizeof *req);
	*err = NULL;
	for (;;) {
		n = 0;
		if (p->in_multibulk) {
			st = parse_bulks(p, buf + pos, len - pos, &n, req,
			    err);
			pos += n;
			if (st == RESP_OK)
				parser_reset(p);
			break;
		}
		if (pos == len) {
			st = RESP_INCOMPLETE;
			break;
		}
		if (buf[pos] == '*') {
			st = parse_multibulk_header(p, buf + pos, len - pos,
			    &n, err);
			pos += n;
			if (st != RESP_OK)
				break;
			continue;	/* the bulks, or the next request */
		}
		st = parse_inline(p, buf + pos, len - pos, &n, req, err);
		pos += n;
		if (st == RESP_OK && req->argc == 0) {
			resp_request_free(req);
			continue;	/* a blank line */
		}
		break;
	}
	if (st == RESP_ERROR)
		resp_parser_free(p);
	*used = pos;
	return st;
}

/* ------------------------------------------------------------- encoder */

void
resp_buf_free(struct resp_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static void
buf_reserve(struct resp_buf *b, size_t more)
{
	size_t	 cap;

	if (b->cap - b->len >= more)
		return;
	cap = b->cap == 0 ? 256 : b->cap;
	while (cap - b->len < more)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

static void
buf_add(struct resp_buf *b, const void *s, size_t len)
{
	buf_reserve(b, len);
	memcpy(b->data + b->len, s, len);
	b->len += len;
}

/* A type byte, a number and CRLF: "*3\r\n", ":42\r\n", "$-1\r\n". */
static void
buf_header(struct resp_buf *b, char type, long long n)
{
	char	 tmp[32];
	int	 len;

	len = snprintf(tmp, sizeof tmp, "%c%lld\r\n", type, n);
	buf_add(b, tmp, (size_t)len);
}

/* A simple string or error line: CR and LF would end it early. */
static void
buf_line(struct resp_buf *b, char type, const char *s, size_t len)
{
	size_t	 i;

	buf_reserve(b, len + 3);
	b->data[b->len++] = type;
	for (i = 0; i < len; i++) {
		char c = s[i];
		b->data[b->len++] = c == '\r' || c == '\n' ? ' ' : c;
	}
	b->data[b->len++] = '\r';
	b->data[b->len++] = '\n';
}

void
resp_encode(struct resp_buf *b, const struct reply *r, int proto)
{
	static const char	 empty_reply[] = "ERR internal error: empty reply";
	size_t	 i;

	switch (r->type) {
	case REPLY_STATUS:
		buf_line(b, '+', r->str != NULL ? r->str : "",
		    r->str != NULL ? r->len : 0);
		break;
	case REPLY_ERROR:
		if (r->str == NULL || r->len == 0)
			buf_line(b, '-', "ERR", 3);
		else
			buf_line(b, '-', r->str, r->len);
		break;
	case REPLY_INT:
		buf_header(b, ':', r->integer);
		break;
	case REPLY_BULK:
		buf_header(b, '$', (long long)r->len);
		if (r->len > 0)
			buf_add(b, r->str, r->len);
		buf_add(b, "\r\n", 2);
		break;
	case REPLY_NULL:
		if (proto >= 3)
			buf_add(b, "_\r\n", 3);
		else
			buf_add(b, "$-1\r\n", 5);
		break;
	case REPLY_MAP:
		if (proto < 3) {
			/* RESP2 has no map: key, value, ... flat. */
			buf_header(b, '*', (long long)r->n);
			for (i = 0; i < r->n; i++)
				resp_encode(b, &r->elem[i], proto);
			break;
		}
		buf_header(b, '%', (long long)(r->n + 1) / 2);
		for (i = 0; i < r->n; i++)
			resp_encode(b, &r->elem[i], proto);
		/* A key without a value would desync the client. */
		if (r->n % 2 != 0)
			buf_add(b, "_\r\n", 3);
		break;
	case REPLY_ARRAY:
	case REPLY_PUSH:
		buf_header(b, r->type == REPLY_PUSH && proto >= 3 ? '>' : '*',
		    (long long)r->n);
		for (i = 0; i < r->n; i++)
			resp_encode(b, &r->elem[i], proto);
		break;
	case REPLY_NONE:
	default:
		/* A handler that set nothing still owes one reply. */
		buf_line(b, '-', empty_reply, sizeof empty_reply - 1);
		break;
	}
}

/* -------------------------------------------------------- reply parser */

/*
 * The reply parser walks the bytes twice: first without building anything
 * (out NULL) to learn whether the whole reply is there, then, only when it
 * is, to build the tree.  A reply arriving in many reads so costs no
 * allocation until it is complete.
 */
struct rcursor {
	const char	*buf;
	size_t		 len;
	size_t		 pos;
};

/* Finds the CRLF-ended line at the cursor; 1, 0 (incomplete) or -1. */
static int
rline(struct rcursor *c, const char **s, size_t *n)
{
	const char	*nl;

	nl = memchr(c->buf + c->pos, '\n', c->len - c->pos);
	if (nl == NULL)
		return 0;
	*s = c->buf + c->pos;
	*n = (size_t)(nl - *s);
	if (*n == 0 || (*s)[*n - 1] != '\r')
		return -1;
	(*n)--;
	c->pos += *n + 2;
	return 1;
}

/* Parses a header number in [min, max] from a line. */
static int
rnumber(const char *s, size_t n, int64_t min, int64_t max, int64_t *v)
{
	const char	*errstr;
	char		 tmp[HEADER_MAX + 1];

	if (n > HEADER_MAX)
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return parse_int64(tmp, min, max, v, &errstr);
}

static void
rset_str(struct reply *out, enum reply_type type, const char *s, size_t n)
{
	if (out == NULL)
		return;
	out->type = type;
	out->str = xstrndup(s, n);
	out->len = n;
}

static int	rvalue(struct rcursor *, struct reply *, int);

/* A length-prefixed string ($, =, !): 1, 0 or -1. */
static int
rblob(struct rcursor *c, const char *line, size_t n, char type,
    struct reply *out)
{
	int64_t		 len;
	const char	*s;

	if (type == '$' && n == 2 && line[0] == '-' && line[1] == '1') {
		if (out != NULL)
			out->type = REPLY_NULL;
		return 1;
	}
	if (rnumber(line, n, 0, REPLY_BULK_MAX, &len) == -1)
		return -1;
	if (c->len - c->pos < (size_t)len + 2)
		return 0;
	s = c->buf + c->pos;
	if (s[len] != '\r' || s[len + 1] != '\n')
		return -1;
	c->pos += (size_t)len + 2;
	if (type == '=') {
		/* Verbatim: "txt:" then the text; the format is dropped. */
		if (len < 4 || s[3] != ':')
			return -1;
		s += 4;
		len -= 4;
	}
	rset_str(out, type == '!' ? REPLY_ERROR : REPLY_BULK, s, (size_t)len);
	return 1;
}

/* An aggregate of count elements (pairs for maps and attributes). */
static int
raggregate(struct rcursor *c, const char *line, size_t n, char type,
    struct reply *out, int depth)
{
	int64_t		 count, i;
	struct reply	*e;
	int		 r;

	if (type == '*' && n == 2 && line[0] == '-' && line[1] == '1') {
		if (out != NULL)
			out->type = REPLY_NULL;
		return 1;
	}
	if (rnumber(line, n, 0, INT64_MAX / 2, &count) == -1)
		return -1;
	if (type == '%' || type == '|')
		count *= 2;
	/* Each element takes three bytes at least: no need to look. */
	if ((uint64_t)count > (c->len - c->pos) / 3)
		return 0;
	if (out != NULL)
		out->type = type == '%' ? REPLY_MAP : type == '>' ?
		    REPLY_PUSH : REPLY_ARRAY;
	for (i = 0; i < count; i++) {
		e = out != NULL && type != '|' ? reply_add(out) : NULL;
		if ((r = rvalue(c, e, depth + 1)) != 1)
			return r;
	}
	return 1;
}

/* Parses one value at the cursor into out (NULL: only check). */
static int
rvalue(struct rcursor *c, struct reply *out, int depth)
{
	const char	*line;
	size_t		 n;
	int64_t		 v;
	char		 type;
	int		 r;

	if (depth > REPLY_DEPTH_MAX)
		return -1;
	if (c->pos == c->len)
		return 0;
	type = c->buf[c->pos++];
	if ((r = rline(c, &line, &n)) != 1)
		return r;
	switch (type) {
	case '+':
		rset_str(out, REPLY_STATUS, line, n);
		return 1;
	case '-':
		rset_str(out, REPLY_ERROR, line, n);
		return 1;
	case ':':
		if (rnumber(line, n, INT64_MIN, INT64_MAX, &v) == -1)
			return -1;
		if (out != NULL) {
			out->type = REPLY_INT;
			out->integer = v;
		}
		return 1;
	case '#':
		if (n != 1 || (line[0] != 't' && line[0] != 'f'))
			return -1;
		if (out != NULL) {
			out->type = REPLY_INT;
			out->integer = line[0] == 't';
		}
		return 1;
	case ',':
	case '(':
		/* Doubles and big numbers are kept as their text. */
		if (n == 0)
			return -1;
		rset_str(out, REPLY_BULK, line, n);
		return 1;
	case '_':
		if (n != 0)
			return -1;
		if (out != NULL)
			out->type = REPLY_NULL;
		return 1;
	case '$':
	case '=':
	case '!':
		return rblob(c, line, n, type, out);
	case '*':
	case '%':
	case '~':
	case '>':
		return raggregate(c, line, n, type, out, depth);
	case '|':
		/* Attributes describe the reply that follows: skip them. */
		if ((r = raggregate(c, line, n, type, NULL, depth)) != 1)
			return r;
		return rvalue(c, out, depth + 1);
	default:
		return -1;
	}
}

enum resp_status
resp_parse_reply(const char *buf, size_t len, size_t *used, struct reply *out)
{
	struct rcursor	 c;
	int		 r;

	*used = 0;
	c.buf = buf;
	c.len = len;
	c.pos = 0;
	if ((r = rvalue(&c, NULL, 0)) != 1)
		return r == 0 ? RESP_INCOMPLETE : RESP_ERROR;
	c.pos = 0;
	if (rvalue(&c, out, 0) != 1) {
		/* Cannot happen: the same bytes passed the first walk. */
		reply_free(out);
		return RESP_ERROR;
	}
	*used = c.pos;
	return RESP_OK;
}
