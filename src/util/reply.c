/*
 * Building reply values.  Elements of an aggregate live in one growable
 * array owned by their parent; reply_free walks the tree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "util/util.h"

static void
reply_set_str(struct reply *r, enum reply_type type, const char *s,
    size_t len)
{
	r->type = type;
	r->str = xstrndup(s, len);
	r->len = len;
}

void
reply_status(struct reply *r, const char *s)
{
	reply_set_str(r, REPLY_STATUS, s, strlen(s));
}

void
reply_error(struct reply *r, const char *code, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *p;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	r->type = REPLY_ERROR;
	r->len = (size_t)xasprintf(&r->str, "%s %s", code,
	    msg != NULL ? msg : "out of memory");
	free(msg);
	/* A CR or LF inside an argument echoed back would end the frame. */
	for (p = r->str; *p != '\0'; p++)
		if (*p == '\r' || *p == '\n')
			*p = ' ';
}

void
reply_int(struct reply *r, long long v)
{
	r->type = REPLY_INT;
	r->integer = v;
}

void
reply_bulk(struct reply *r, const char *s, size_t len)
{
	reply_set_str(r, REPLY_BULK, s, len);
}

void
reply_bulkf(struct reply *r, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&r->str, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "ludus: out of memory\n");
		abort();
	}
	r->type = REPLY_BULK;
	r->len = (size_t)n;
}

void
reply_null(struct reply *r)
{
	r->type = REPLY_NULL;
}

void
reply_array(struct reply *r)
{
	r->type = REPLY_ARRAY;
}

void
reply_map(struct reply *r)
{
	r->type = REPLY_MAP;
}

void
reply_push_type(struct reply *r)
{
	r->type = REPLY_PUSH;
}

struct reply *
reply_add(struct reply *r)
{
	struct reply	*e;

	if (r->n == r->cap) {
		r->cap = r->cap == 0 ? 8 : r->cap * 2;
		r->elem = xrealloc(r->elem, r->cap * sizeof *r->elem);
	}
	e = &r->elem[r->n++];
	memset(e, 0, sizeof *e);
	return e;
}

void
reply_add_pair(struct reply *r, const char *key, const char *fmt, ...)
{
	char	 buf[REPLY_PAIR_MAX + 1];
	size_t	 n;
	va_list	 ap;

	n = str_copy(buf, sizeof(buf), key);
	if (n + 1 < sizeof(buf)) {
		buf[n++] = ',';
		va_start(ap, fmt);
		vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
		va_end(ap);
	}
	reply_status(reply_add(r), buf);
}

void
reply_free(struct reply *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		reply_free(&r->elem[i]);
	free(r->elem);
	free(r->str);
	memset(r, 0, sizeof *r);
}

int
reply_is_error(const struct reply *r)
{
	return r->type == REPLY_ERROR;
}

const char *
reply_text(const struct reply *r, char *buf, size_t len)
{
	switch (r->type) {
	case REPLY_STATUS:
	case REPLY_ERROR:
	case REPLY_BULK:
		return r->str != NULL ? r->str : "";
	case REPLY_INT:
		snprintf(buf, len, "%lld", r->integer);
		return buf;
	case REPLY_NULL:
		return "(nil)";
	default:
		return "";
	}
}

const char *
reply_pair_value(const struct reply *arr, const char *key)
{
	size_t	 i, klen = strlen(key);

	if (arr->type != REPLY_ARRAY)
		return NULL;
	for (i = 0; i < arr->n; i++) {
		const struct reply *e = &arr->elem[i];
		if ((e->type == REPLY_STATUS || e->type == REPLY_BULK) &&
		    e->len > klen && strncmp(e->str, key, klen) == 0 &&
		    e->str[klen] == ',')
			return e->str + klen + 1;
	}
	return NULL;
}
