/*
 * Small helpers used everywhere: allocation that cannot fail (it aborts),
 * checked integer parsing, short strings built without printf, and the
 * inline-command splitter shared by the CLI and the network protocol.
 */
#ifndef LUDUS_UTIL_H
#define LUDUS_UTIL_H

#include <stddef.h>
#include <stdint.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Parses a whole decimal integer (optional '-', no spaces, no '+', no
 * leading zeros other than "0") within [min, max].  Returns 0 and sets *out,
 * or -1 with *errstr set to "invalid", "too small" or "too large".
 */
int	 parse_int64(const char *, int64_t min, int64_t max, int64_t *out,
	    const char **errstr);

/*
 * Splits one inline command line into words: blanks separate, double
 * quotes group (with \" \\ \n \r \t \xHH escapes inside), single quotes
 * group literally, "" is an empty word.  Returns the word count (0 for a
 * blank line) or -1 on unbalanced quotes.  On success *argvp and *arglp
 * are allocated (free with split_free); each word is NUL-ended.
 */
int	 split_line(const char *, size_t, char ***argvp, size_t **arglp);
void	 split_free(int, char **, size_t *);

int	 strcaseeq(const char *, const char *);	/* ASCII, 1 if equal */

/*
 * A short string built in a caller's fixed buffer without printf: a turn
 * formats its action, result and player name on every request, and
 * snprintf costs more than the rest of the command layer.  As with
 * snprintf the buffer always ends with a NUL (if size > 0), what does not
 * fit is cut, and len counts every byte asked for: len >= size means the
 * text was cut (strbuf_cut).
 */
struct strbuf {
	char	*buf;
	size_t	 size;
	size_t	 len;
};

void	 strbuf_init(struct strbuf *, char *buf, size_t size);
void	 strbuf_add(struct strbuf *, const char *);
void	 strbuf_addc(struct strbuf *, char);
void	 strbuf_addint(struct strbuf *, int64_t);	/* as "%lld" */
int	 strbuf_cut(const struct strbuf *);
/* snprintf(buf, size, "%s", s) without printf; the length of s. */
size_t	 str_copy(char *buf, size_t size, const char *s);

#endif /* LUDUS_UTIL_H */
