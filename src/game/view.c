/*
 * What the kinds' faces share: for the JSON encoders a seat, and a name
 * that may be none; for the text renderers the fields of a STATE entry
 * and the terminal's colours.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/bot.h"
#include "game/view.h"
#include "util/util.h"

json_t *
json_seat(const struct game *g, int i, const char *name)
{
	const char	*bot = NULL;

	if (i >= 0 && i < GAME_MAX_PLAYERS && g->opts.bot[i] != 0)
		bot = bot_strategy_name(g->opts.bot[i] - 1);
	return json_pack("{s:s, s:o}", "name", name, "bot",
	    bot != NULL ? json_string(bot) : json_null());
}

json_t *
json_name_or_null(const char *name, int index)
{
	return index >= 0 && name != NULL ? json_string(name) : json_null();
}

void
text_each(const struct reply *st, void (*cb)(void *, char **, int),
    void *arg)
{
	char	 buf[128], tmp[32], *f[TEXT_FIELDS_MAX], *p;
	size_t	 i;
	int	 n;

	for (i = 0; i < st->n; i++) {
		snprintf(buf, sizeof buf, "%s", reply_text(&st->elem[i], tmp,
		    sizeof tmp));
		n = 0;
		f[n++] = p = buf;
		while (n < TEXT_FIELDS_MAX && (p = strchr(p, ',')) != NULL) {
			*p++ = '\0';
			f[n++] = p;
		}
		cb(arg, f, n);
	}
}

int
text_int(const char *s, int min, int max, int *out)
{
	const char	*errstr;
	int64_t		 v;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) == -1)
		return -1;
	*out = (int)v;
	return 0;
}

void
text_paint(struct svg *out, int color, const char *sgr, const char *s)
{
	if (color && sgr != NULL)
		svg_printf(out, "\033[%sm%s\033[0m", sgr, s);
	else
		svg_add(out, s);
}

void
text_spaces(struct svg *out, int n)
{
	while (n-- > 0)
		svg_add(out, " ");
}

void
text_seats_at(struct svg *out, int color, const char *what, const int *pos,
    int n, int at)
{
	char	 w[16];
	int	 p, any = 0;

	svg_printf(out, "%s:", what);
	for (p = 0; p < n; p++) {
		if (pos[p] != at)
			continue;
		snprintf(w, sizeof w, " P%d", p + 1);
		text_paint(out, color, text_seat_sgr(p), w);
		any = 1;
	}
	svg_printf(out, "%s\n", any ? "" : " none");
}

const char *
text_seat_sgr(int i)
{
	static const char *const sgr[] = {
		"1;31", "1;32", "1;33", "1;34", "1;35", "1;36", "1;91", "1;92"
	};

	return sgr[i % (int)(sizeof sgr / sizeof sgr[0])];
}
