/*
 * Allocation that cannot fail, checked integer parsing, short strings
 * without printf and the inline command splitter.  Allocation failure is not something a request can
 * recover from, so, as in tmux, it aborts and callers never check.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void __attribute__((noreturn))
out_of_memory(size_t size)
{
	fprintf(stderr, "ludus: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		out_of_memory(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		out_of_memory(n * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void	*p;

	if ((p = realloc(ptr, size == 0 ? 1 : size)) == NULL)
		out_of_memory(size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t len)
{
	char	*p;

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory(0);
	return n;
}

int
parse_int64(const char *s, int64_t min, int64_t max, int64_t *out,
    const char **errstr)
{
	const char	*p = s;
	int		 neg = 0;
	uint64_t	 v = 0, limit;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	/* Digits only, and no leading zeros: "007" is not a number here. */
	if (!isdigit((unsigned char)*p) || (p[0] == '0' && p[1] != '\0') ||
	    (neg && p[0] == '0'))
		goto invalid;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p))
			goto invalid;
		if (v > (limit - (uint64_t)(*p - '0')) / 10) {
			*errstr = neg ? "too small" : "too large";
			return -1;
		}
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (neg) {
		int64_t r = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
		    -(int64_t)v;
		if (r < min) {
			*errstr = "too small";
			return -1;
		}
		*out = r;
	} else {
		if ((int64_t)v > max) {
			*errstr = "too large";
			return -1;
		}
		if ((int64_t)v < min) {
			*errstr = "too small";
			return -1;
		}
		*out = (int64_t)v;
	}
	return 0;
invalid:
	*errstr = "invalid";
	return -1;
}

/* ASCII only, whatever the locale: command and option names. */
static int
ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
strcaseeq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (*a != *b && ascii_lower((unsigned char)*a) !=
		    ascii_lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

void
strbuf_init(struct strbuf *b, char *buf, size_t size)
{
	b->buf = buf;
	b->size = size;
	b->len = 0;
	if (size > 0)
		buf[0] = '\0';
}

/* Appends n bytes, cut to what fits, and moves the NUL. */
static void
strbuf_addn(struct strbuf *b, const char *s, size_t n)
{
	size_t	 room;

	if (b->len < b->size) {
		room = b->size - 1 - b->len;
		if (n < room)
			room = n;
		memcpy(b->buf + b->len, s, room);
		b->buf[b->len + room] = '\0';
	}
	b->len += n;
}

void
strbuf_add(struct strbuf *b, const char *s)
{
	strbuf_addn(b, s, strlen(s));
}

void
strbuf_addc(struct strbuf *b, char c)
{
	strbuf_addn(b, &c, 1);
}

void
strbuf_addint(struct strbuf *b, int64_t v)
{
	char		 tmp[24];
	size_t		 i = sizeof(tmp);
	uint64_t	 u;

	/* The magnitude in unsigned arithmetic: INT64_MIN has no positive. */
	u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--i] = '-';
	strbuf_addn(b, tmp + i, sizeof(tmp) - i);
}

int
strbuf_cut(const struct strbuf *b)
{
	return b->len >= b->size;
}

size_t
str_copy(char *buf, size_t size, const char *s)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, size);
	strbuf_add(&b, s);
	return b.len;
}

/* A word being collected by split_line. */
struct word {
	char	*buf;
	size_t	 len;
	size_t	 cap;
};

static void
word_put(struct word *w, char c)
{
	if (w->len + 1 >= w->cap) {
		w->cap = w->cap == 0 ? 16 : w->cap * 2;
		w->buf = xrealloc(w->buf, w->cap);
	}
	w->buf[w->len++] = c;
	w->buf[w->len] = '\0';
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Reads one quoted word starting after the opening quote at *ip.  Double
 * quotes know the escapes redis-cli knows; single quotes only \'.  The
 * closing quote must be followed by a blank or the end, as in Redis.
 */
static int
split_quoted(const char *s, size_t len, size_t *ip, char q, struct word *w)
{
	size_t	 i = *ip;
	int	 h, l;

	for (;;) {
		if (i >= len)
			return -1;
		if (s[i] == q) {
			i++;
			if (i < len && !isspace((unsigned char)s[i]))
				return -1;
			*ip = i;
			return 0;
		}
		if (s[i] == '\\' && i + 1 < len) {
			char e = s[i + 1];
			if (q == '\'') {
				if (e == '\'') {
					word_put(w, '\'');
					i += 2;
					continue;
				}
			} else if (e == 'x' && i + 3 < len &&
			    (h = hexval((unsigned char)s[i + 2])) >= 0 &&
			    (l = hexval((unsigned char)s[i + 3])) >= 0) {
				word_put(w, (char)(h * 16 + l));
				i += 4;
				continue;
			} else {
				switch (e) {
				case 'n': word_put(w, '\n'); break;
				case 'r': word_put(w, '\r'); break;
				case 't': word_put(w, '\t'); break;
				case 'b': word_put(w, '\b'); break;
				case 'a': word_put(w, '\a'); break;
				default: word_put(w, e); break;
				}
				i += 2;
				continue;
			}
		}
		word_put(w, s[i]);
		i++;
	}
}

int
split_line(const char *s, size_t len, char ***argvp, size_t **arglp)
{
	char	**argv = NULL;
	size_t	 *argl = NULL;
	int	  argc = 0, cap = 0;
	size_t	  i = 0;
	struct word w;

	for (;;) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len)
			break;
		memset(&w, 0, sizeof w);
		word_put(&w, 'x');	/* make "" a real, empty word */
		w.len = 0;
		w.buf[0] = '\0';
		if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];
			if (split_quoted(s, len, &i, q, &w) == -1) {
				free(w.buf);
				split_free(argc, argv, argl);
				return -1;
			}
		} else {
			while (i < len && !isspace((unsigned char)s[i]))
				word_put(&w, s[i++]);
		}
		if (argc == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			argv = xrealloc(argv, (size_t)cap * sizeof *argv);
			argl = xrealloc(argl, (size_t)cap * sizeof *argl);
		}
		argv[argc] = w.buf;
		argl[argc] = w.len;
		argc++;
	}
	*argvp = argv;
	*arglp = argl;
	return argc;
}

void
split_free(int argc, char **argv, size_t *argl)
{
	int	 i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	free(argl);
}
