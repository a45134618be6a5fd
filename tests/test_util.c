/*
 * util: checked integer parsing and the inline splitter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/util.h"

static void
test_parse_int64_accepts(void **state)
{
	int64_t		 v;
	const char	*err;

	(void)state;
	assert_int_equal(parse_int64("0", 0, 10, &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_int64("-5", -10, 10, &v, &err), 0);
	assert_int_equal(v, -5);
	assert_int_equal(parse_int64("9223372036854775807", 0, INT64_MAX,
	    &v, &err), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(parse_int64("-9223372036854775808", INT64_MIN, 0,
	    &v, &err), 0);
	assert_true(v == INT64_MIN);
}

static void
test_parse_int64_rejects(void **state)
{
	static const char *const bad[] = { "", "-", "+1", " 1", "1 ", "01",
	    "-0", "1x", "0x10", "1e3", "--1", "9223372036854775808", NULL };
	int64_t		 v = 42;
	const char	*err;
	int		 i;

	(void)state;
	for (i = 0; bad[i] != NULL; i++) {
		err = NULL;
		assert_int_equal(parse_int64(bad[i], INT64_MIN, INT64_MAX, &v,
		    &err), -1);
		assert_non_null(err);
		assert_true(v == 42);
	}
	assert_int_equal(parse_int64("7", 1, 6, &v, &err), -1);
	assert_string_equal(err, "too large");
	assert_int_equal(parse_int64("0", 1, 6, &v, &err), -1);
	assert_string_equal(err, "too small");
}

static void
test_split_line_words(void **state)
{
	char	**argv;
	size_t	 *argl;
	int	  argc;
	const char *line = "  LUDO.PLAY \"g 1\" '' \"a\\x41\\n\" end  ";

	(void)state;
	argc = split_line(line, strlen(line), &argv, &argl);
	assert_int_equal(argc, 5);
	assert_string_equal(argv[0], "LUDO.PLAY");
	assert_string_equal(argv[1], "g 1");
	assert_string_equal(argv[2], "");
	assert_int_equal(argl[2], 0);
	assert_memory_equal(argv[3], "aA\n", 3);
	assert_int_equal(argl[3], 3);
	assert_string_equal(argv[4], "end");
	split_free(argc, argv, argl);

	argc = split_line("   ", 3, &argv, &argl);
	assert_int_equal(argc, 0);
	split_free(argc, argv, argl);
}

static void
test_split_line_unbalanced(void **state)
{
	char	**argv;
	size_t	 *argl;

	(void)state;
	assert_int_equal(split_line("a \"b", 4, &argv, &argl), -1);
	assert_int_equal(split_line("a \"b\"c", 6, &argv, &argl), -1);
	assert_int_equal(split_line("'x", 2, &argv, &argl), -1);
}

static void
test_strcaseeq_ascii(void **state)
{
	(void)state;
	assert_true(strcaseeq("ludo.play", "LUDO.PLAY"));
	assert_false(strcaseeq("ludo", "ludo.play"));
	assert_false(strcaseeq("at", "a"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_int64_accepts),
		cmocka_unit_test(test_parse_int64_rejects),
		cmocka_unit_test(test_split_line_words),
		cmocka_unit_test(test_split_line_unbalanced),
		cmocka_unit_test(test_strcaseeq_ascii),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
