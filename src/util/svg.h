/*
 * Markup built in memory: a growable text buffer for SVG (and the HTML
 * pages around it), with XML escaping, plus the few drawing helpers the
 * board renderers share.  Pure: no I/O, and allocation aborts on out of
 * memory (util.h), so nothing here fails.
 *
 * Text that comes from a game (player ids, letters, names) goes through
 * svg_esc() or svg_text(); svg_printf() is for markup the caller wrote,
 * with numbers and constant strings only.
 */
#ifndef LUDUS_UTIL_SVG_H
#define LUDUS_UTIL_SVG_H

#include <stddef.h>

struct svg {
	char	*buf;		/* NUL-ended once anything was added */
	size_t	 len;
	size_t	 cap;
};

void	 svg_init(struct svg *);
void	 svg_free(struct svg *);
/* Appends markup as it is. */
void	 svg_add(struct svg *, const char *);
void	 svg_addn(struct svg *, const char *, size_t);
void	 svg_printf(struct svg *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Appends text escaped for XML and HTML, in content and in attribute
 * values: & < > " ' become entities.  Control characters other than tab
 * and newline, which XML 1.0 forbids, become U+FFFD. */
void	 svg_esc(struct svg *, const char *);
void	 svg_escn(struct svg *, const char *, size_t);
/* The text so far ("" when empty); stays owned by the buffer. */
const char *svg_str(const struct svg *);

/* ------------------------------------------------------------ drawing */

/* <svg> with a viewBox of w x h, an accessible name and a <title>;
 * svg_end() closes it.  cls is the root's class (the kind's name). */
void	 svg_begin(struct svg *, int w, int h, const char *cls,
	    const char *title);
void	 svg_end(struct svg *);
/* <text> at (x, y), anchored "start", "middle" or "end", of an escaped
 * string. */
void	 svg_text(struct svg *, double x, double y, double size,
	    const char *anchor, const char *fill, const char *text);

/* A player's colour: fill and the colour of text drawn on it. */
struct svg_colour {
	const char	*fill;
	const char	*ink;
};

/* The colour of seat i, from a palette of distinct colours (repeating
 * past its end: the seat number drawn on a piece tells them apart). */
const struct svg_colour *svg_seat_colour(int i);

#endif /* LUDUS_UTIL_SVG_H */
