/*
 * The reader of tests/lib/commands.txt (shown.h), found below $top_srcdir
 * as make check sets it, else from the working directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shown.h"
#include "util/util.h"

#define SHOWN_MAX	256	/* commands: far more than there are */

static int
parse_line(char *line, struct shown *s)
{
	char		*arity, *usage;
	const char	*errstr;
	int64_t		 v;

	line[strcspn(line, "\r\n")] = '\0';
	if ((arity = strchr(line, '\t')) == NULL)
		return -1;
	*arity++ = '\0';
	if ((usage = strchr(arity, '\t')) == NULL)
		return -1;
	*usage++ = '\0';
	if (parse_int64(arity, -64, 64, &v, &errstr) != 0 ||
	    strlen(line) >= sizeof(s->name) ||
	    strlen(usage) >= sizeof(s->usage))
		return -1;
	snprintf(s->name, sizeof(s->name), "%s", line);
	s->arity = (int)v;
	snprintf(s->usage, sizeof(s->usage), "%s", usage);
	return 0;
}

size_t
shown_read(struct shown **out)
{
	const char	*dir = getenv("top_srcdir");
	char		 path[4096], line[1024];
	struct shown	*all;
	FILE		*fp;
	size_t		 n = 0;

	snprintf(path, sizeof(path), "%s/tests/lib/commands.txt",
	    dir != NULL && *dir != '\0' ? dir : ".");
	if ((fp = fopen(path, "r")) == NULL)
		fail_msg("%s: cannot read", path);
	all = xcalloc(SHOWN_MAX, sizeof(*all));
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (n == SHOWN_MAX || parse_line(line, &all[n]) == -1)
			fail_msg("%s: bad line %zu: %s", path, n + 1, line);
		n++;
	}
	fclose(fp);
	*out = all;
	return n;
}

const struct shown *
shown_find(const struct shown *s, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0)
			return &s[i];
	return NULL;
}
