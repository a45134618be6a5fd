/*
 * Replies as redis-cli prints them, so that a user (or a script written
 * for redis-cli) sees the same thing from `ludus` and `redis-cli`:
 * bare text when stdout is a pipe, the "(integer) 3" / "1) \"x\"" style on
 * a terminal.  A reply is formatted into a buffer, then written at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "util/util.h"

struct obuf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static void
ob_add(struct obuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
ob_str(struct obuf *b, const char *s)
{
	ob_add(b, s, strlen(s));
}

static void
ob_int(struct obuf *b, long long v)
{
	char	tmp[32];

	snprintf(tmp, sizeof(tmp), "%lld", v);
	ob_str(b, tmp);
}

/* -------------------------------------------------------------- raw */

static void
format_raw(struct obuf *b, const struct reply *r)
{
	size_t	i;

	switch (r->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
	case REPLY_BULK:
		ob_add(b, r->str != NULL ? r->str : "", r->len);
		break;
	case REPLY_INT:
		ob_int(b, r->integer);
		break;
	case REPLY_MAP:
		for (i = 0; i + 1 < r->n; i += 2) {
			if (i > 0)
				ob_str(b, "\n");
			format_raw(b, &r->elem[i]);
			ob_str(b, " ");
			format_raw(b, &r->elem[i + 1]);
		}
		break;
	case REPLY_ARRAY:
	case REPLY_PUSH:
		for (i = 0; i < r->n; i++) {
			if (i > 0)
				ob_str(b, "\n");
			format_raw(b, &r->elem[i]);
		}
		break;
	default:
		break;	/* null: nothing, then the newline */
	}
}

/* -------------------------------------------------------------- tty */

/* A bulk string quoted with escapes, as redis-cli's sdscatrepr. */
static void
format_repr(struct obuf *b, const char *s, size_t len)
{
	char	tmp[8];
	size_t	i;

	ob_str(b, "\"");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '\\':
		case '"':
			tmp[0] = '\\';
			tmp[1] = (char)c;
			ob_add(b, tmp, 2);
			break;
		case '\n':
			ob_str(b, "\\n");
			break;
		case '\r':
			ob_str(b, "\\r");
			break;
		case '\t':
			ob_str(b, "\\t");
			break;
		case '\a':
			ob_str(b, "\\a");
			break;
		case '\b':
			ob_str(b, "\\b");
			break;
		default:
			if (c >= 0x20 && c < 0x7f)
				ob_add(b, (const char *)&c, 1);
			else {
				snprintf(tmp, sizeof(tmp), "\\x%02x", c);
				ob_str(b, tmp);
			}
		}
	}
	ob_str(b, "\"");
}

static void format_tty(struct obuf *, const struct reply *, const char *);

/*
 * An aggregate: "1) first" then, for the others, the parent's prefix and
 * the index; nested aggregates indent by the width of the index.  Map
 * entries print as "1# key => value".
 */
static void
format_tty_aggregate(struct obuf *b, const struct reply *r,
    const char *prefix)
{
	size_t	 count = r->type == REPLY_MAP ? r->n / 2 : r->n, i, w = 0;
	char	*sub, head[32];
	char	 sep = r->type == REPLY_MAP ? '#' : ')';

	if (count == 0) {
		ob_str(b, r->type == REPLY_MAP ? "(empty hash)\n" :
		    r->type == REPLY_PUSH ? "(empty push)\n" :
		    "(empty array)\n");
		return;
	}
	for (i = count; i > 0; i /= 10)
		w++;
	sub = xmalloc(strlen(prefix) + w + 3);
	snprintf(sub, strlen(prefix) + w + 3, "%s%*s", prefix, (int)w + 2, "");
	for (i = 0; i < count; i++) {
		if (i > 0)
			ob_str(b, prefix);
		snprintf(head, sizeof(head), "%*zu%c ", (int)w, i + 1, sep);
		ob_str(b, head);
		if (r->type != REPLY_MAP) {
			format_tty(b, &r->elem[i], sub);
			continue;
		}
		format_tty(b, &r->elem[2 * i], sub);
		b->len--;	/* the key's newline */
		ob_str(b, " => ");
		format_tty(b, &r->elem[2 * i + 1], sub);
	}
	free(sub);
}

static void
format_tty(struct obuf *b, const struct reply *r, const char *prefix)
{
	switch (r->type) {
	case REPLY_ERROR:
		ob_str(b, "(error) ");
		ob_add(b, r->str != NULL ? r->str : "", r->len);
		break;
	case REPLY_STATUS:
		ob_add(b, r->str != NULL ? r->str : "", r->len);
		break;
	case REPLY_INT:
		ob_str(b, "(integer) ");
		ob_int(b, r->integer);
		break;
	case REPLY_BULK:
		format_repr(b, r->str != NULL ? r->str : "", r->len);
		break;
	case REPLY_NULL:
		ob_str(b, "(nil)");
		break;
	case REPLY_ARRAY:
	case REPLY_MAP:
	case REPLY_PUSH:
		format_tty_aggregate(b, r, prefix);
		return;		/* each line has its newline */
	default:
		ob_str(b, "(no reply)");
		break;
	}
	ob_str(b, "\n");
}

void
output_reply(FILE *fp, const struct reply *r, enum output_mode mode)
{
	struct obuf	b = { NULL, 0, 0 };

	ob_add(&b, "", 0);
	if (mode == OUTPUT_TTY)
		format_tty(&b, r, "");
	else {
		format_raw(&b, r);
		ob_str(&b, "\n");
	}
	fwrite(b.p, 1, b.len, fp);
	free(b.p);
}

/* ------------------------------------------------------------ events */

/* An event's words on one line: nested elements flattened, nulls shown. */
static void
format_event(struct obuf *b, const struct reply *r)
{
	size_t	 i;

	switch (r->type) {
	case REPLY_ARRAY:
	case REPLY_MAP:
	case REPLY_PUSH:
		for (i = 0; i < r->n; i++) {
			if (i > 0)
				ob_str(b, " ");
			format_event(b, &r->elem[i]);
		}
		break;
	case REPLY_NULL:
		ob_str(b, "(nil)");
		break;
	default:
		format_raw(b, r);
		break;
	}
}

void
output_event(FILE *fp, const struct reply *r)
{
	struct obuf	b = { NULL, 0, 0 };

	ob_str(&b, "(event) ");
	format_event(&b, r);
	ob_str(&b, "\n");
	fwrite(b.p, 1, b.len, fp);
	free(b.p);
}
