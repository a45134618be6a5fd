/*
 * The markup buffer and the drawing helpers every board shares.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "util/svg.h"

#define SVG_MIN_CAP	4096

void
svg_init(struct svg *s)
{
	s->buf = NULL;
	s->len = s->cap = 0;
}

void
svg_free(struct svg *s)
{
	free(s->buf);
	svg_init(s);
}

/* Room for n more bytes and the NUL. */
static void
svg_grow(struct svg *s, size_t n)
{
	size_t	 cap;

	if (s->len + n + 1 <= s->cap)
		return;
	cap = s->cap > 0 ? s->cap : SVG_MIN_CAP;
	while (cap < s->len + n + 1)
		cap *= 2;
	s->buf = xrealloc(s->buf, cap);
	s->cap = cap;
}

void
svg_addn(struct svg *s, const char *p, size_t n)
{
	svg_grow(s, n);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void
svg_add(struct svg *s, const char *p)
{
	svg_addn(s, p, strlen(p));
}

void
svg_printf(struct svg *s, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	svg_grow(s, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	s->len += (size_t)n;
}

void
svg_escn(struct svg *s, const char *p, size_t n)
{
	size_t		 i, run = 0;
	const char	*ent;
	unsigned char	 c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		switch (c) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default:
			ent = c < 0x20 && c != '\t' && c != '\n' ?
			    "\xef\xbf\xbd" : NULL;
			break;
		}
		if (ent == NULL)
			continue;
		svg_addn(s, p + run, i - run);
		svg_add(s, ent);
		run = i + 1;
	}
	svg_addn(s, p + run, n - run);
}

void
svg_esc(struct svg *s, const char *p)
{
	svg_escn(s, p, strlen(p));
}

const char *
svg_str(const struct svg *s)
{
	return s->buf != NULL ? s->buf : "";
}

/* ------------------------------------------------------------ drawing */

void
svg_begin(struct svg *s, int w, int h, const char *cls, const char *title)
{
	svg_printf(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
	    "role=\"img\" class=\"board ", w, h, w, h);
	svg_esc(s, cls);
	svg_add(s, "\" aria-label=\"");
	svg_esc(s, title);
	svg_add(s, "\" font-family=\"sans-serif\"><title>");
	svg_esc(s, title);
	svg_add(s, "</title>\n");
}

void
svg_end(struct svg *s)
{
	svg_add(s, "</svg>\n");
}

void
svg_text(struct svg *s, double x, double y, double size, const char *anchor,
    const char *fill, const char *text)
{
	svg_printf(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" "
	    "text-anchor=\"%s\" dominant-baseline=\"central\" fill=\"%s\">",
	    x, y, size, anchor, fill);
	svg_esc(s, text);
	svg_add(s, "</text>");
}

/* Distinct at a glance, the first four those of a Ludo board. */
static const struct svg_colour palette[] = {
	{ "#d62828", "#ffffff" },	/* red */
	{ "#2a9d4b", "#ffffff" },	/* green */
	{ "#f2c230", "#222222" },	/* yellow */
	{ "#1d6fd6", "#ffffff" },	/* blue */
	{ "#8e44ad", "#ffffff" },	/* purple */
	{ "#e67e22", "#222222" },	/* orange */
	{ "#16a2b8", "#222222" },	/* teal */
	{ "#e84393", "#ffffff" },	/* pink */
	{ "#6d4c41", "#ffffff" },	/* brown */
	{ "#7f8c8d", "#ffffff" },	/* grey */
	{ "#9acd32", "#222222" },	/* lime */
	{ "#34495e", "#ffffff" },	/* navy */
};
#define NPALETTE	(sizeof palette / sizeof palette[0])

const struct svg_colour *
svg_seat_colour(int i)
{
	return &palette[(size_t)(i < 0 ? 0 : i) % NPALETTE];
}
