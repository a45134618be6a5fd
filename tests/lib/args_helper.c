/*
 * The tests of the declared arguments (test_args, test_cmd_args): one
 * inline line through what cmd_run() does before a handler, the
 * request and its values kept until the next.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

#include "args_helper.h"

/* The last request parsed, kept until the next so that its values
 * (which point into its words) can be looked at. */
static struct cmd_args	 words;
struct cmd_parsed	 args_parsed;
struct cmd_build	 args_build;
static char		 result[1024];

static void
forget(void)
{
	if (words.argv != NULL)
		split_free(words.argc, words.argv, words.argl);
	memset(&words, 0, sizeof(words));
}

/*
 * One inline line through what cmd_run() does before a handler: the
 * entry (d, or the table's by name), its form (cmd_check()),
 * cmd_parse().  "ok", or the error line ("-CODE message"), which must be
 * marked rejected.
 */
const char *
args_parse(const struct cmd_def *d, const char *line)
{
	struct reply	 r;

	forget();
	memset(&r, 0, sizeof(r));
	words.argc = split_line(line, strlen(line), &words.argv,
	    &words.argl);
	assert_true(words.argc > 0);
	if (d == NULL && (d = cmd_find(&words)) == NULL)
		snprintf(result, sizeof(result), "unknown");
	else if (cmd_check(d, &words, &r) == -1) {
		assert_true(r.rejected);
		snprintf(result, sizeof(result), "-%s", r.str);
	} else if (cmd_parse(d, &words, &args_parsed, &args_build, &r) == 0) {
		assert_int_equal(r.type, REPLY_NONE);
		snprintf(result, sizeof(result), "ok");
	} else {
		assert_int_equal(r.type, REPLY_ERROR);
		assert_true(r.rejected);
		snprintf(result, sizeof(result), "-%s", r.str);
	}
	reply_free(&r);
	return result;
}

void
args_expect(const struct cmd_def *d, const char *line, const char *want,
    int at)
{
	const char	*got = args_parse(d, line);

	if (strcmp(got, want) != 0) {
		print_error("line %d: %s\n  got:  %s\n  want: %s\n", at, line,
		    got, want);
		fail();
	}
}

int
args_teardown(void **state)
{
	(void)state;
	forget();
	return 0;
}
