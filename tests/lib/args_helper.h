/*
 * What the tests of the declared arguments share (args_helper.c).
 */
#ifndef LUDUS_ARGS_HELPER_H
#define LUDUS_ARGS_HELPER_H

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"

/* The last request parsed: its values point into its words, which are
 * kept until the next args_parse() (or args_teardown()). */
extern struct cmd_parsed	args_parsed;
extern struct cmd_build		args_build;

/* One inline line through the entry d (NULL: the table's by name), its
 * form (cmd_check()) and cmd_parse(): "ok", "unknown", or the error line
 * ("-CODE message"), which must be marked rejected. */
const char	*args_parse(const struct cmd_def *d, const char *line);
/* The same, failing the test at line at unless the result is want. */
void		 args_expect(const struct cmd_def *d, const char *line,
		    const char *want, int at);
/* A cmocka teardown: the last request freed. */
int		 args_teardown(void **);

#define PARSE(line, want)	args_expect(NULL, (line), (want), __LINE__)
#define PARSE_AS(d, line, want)	args_expect((d), (line), (want), __LINE__)

#endif /* LUDUS_ARGS_HELPER_H */
