/*
 * util: checked integer parsing, the inline splitter, the id map, glob
 * patterns, the rate limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/glob.h"
#include "util/idmap.h"
#include "util/rate.h"
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

/* What snprintf would have made of the same text: the length of all of
 * it, and as much as fits before the NUL. */
static void
assert_like_snprintf(const char *want, size_t size, const char *got,
    size_t len)
{
	size_t	 n = strlen(want);

	assert_int_equal(len, n);
	if (size == 0)
		return;
	if (n > size - 1)
		n = size - 1;
	assert_memory_equal(got, want, n);
	assert_int_equal(got[n], '\0');
}

static void
test_strbuf_formats_like_snprintf(void **state)
{
	static const int64_t	 ints[] = { 0, 7, -1, 42, 1000000,
	    INT64_MAX, INT64_MIN };
	char			 buf[64], want[64];
	struct strbuf		 b;
	size_t			 i;

	(void)state;
	strbuf_init(&b, buf, sizeof(buf));
	strbuf_addc(&b, 'P');
	strbuf_addint(&b, 3);
	strbuf_addc(&b, ' ');
	strbuf_add(&b, "OFF");
	assert_string_equal(buf, "P3 OFF");
	assert_int_equal(b.len, 6);
	assert_false(strbuf_cut(&b));
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		strbuf_init(&b, buf, sizeof(buf));
		strbuf_addint(&b, ints[i]);
		snprintf(want, sizeof(want), "%lld", (long long)ints[i]);
		assert_string_equal(buf, want);
		assert_int_equal(b.len, strlen(want));
	}
	strbuf_init(&b, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(b.len, 0);
}

static void
test_strbuf_cuts_like_snprintf(void **state)
{
	char		 buf[8];
	struct strbuf	 b;
	size_t		 size;

	(void)state;
	for (size = 0; size <= sizeof(buf); size++) {
		memset(buf, 'x', sizeof(buf));
		strbuf_init(&b, buf, size);
		strbuf_add(&b, "6");
		strbuf_addc(&b, ':');
		strbuf_addint(&b, -12345);
		assert_like_snprintf("6:-12345", size, buf, b.len);
		assert_true(strbuf_cut(&b) == (size <= 8));
		if (size < sizeof(buf))
			assert_true(size == 0 ? buf[0] == 'x' :
			    buf[size - 1] == '\0');
		if (size + 1 < sizeof(buf))
			assert_true(buf[size] == 'x');	/* nothing past it */

		memset(buf, 'x', sizeof(buf));
		assert_like_snprintf("MOVED_AND", size, buf,
		    str_copy(buf, size, "MOVED_AND"));
	}
}

/* Enough keys to grow the table several times and to make long runs. */
#define MAP_KEYS	3000

static void
test_idmap_put_get_del(void **state)
{
	static char	 keys[MAP_KEYS][16];
	struct idmap	*m = idmap_new();
	size_t		 pos = 0, seen = 0;
	int		 i;

	(void)state;
	for (i = 0; i < MAP_KEYS; i++) {
		snprintf(keys[i], sizeof keys[i], "g-%d", i);
		assert_null(idmap_get(m, keys[i]));
		idmap_put(m, keys[i], keys[i]);
	}
	assert_int_equal(idmap_count(m), MAP_KEYS);
	/* A key is found by its text, not by its pointer. */
	assert_ptr_equal(idmap_get(m, "g-1234"), keys[1234]);
	/* Every other one removed: the runs are shifted, the rest found. */
	for (i = 0; i < MAP_KEYS; i += 2)
		assert_ptr_equal(idmap_del(m, keys[i]), keys[i]);
	assert_null(idmap_del(m, keys[0]));
	assert_int_equal(idmap_count(m), MAP_KEYS / 2);
	for (i = 0; i < MAP_KEYS; i++) {
		if (i % 2 == 0)
			assert_null(idmap_get(m, keys[i]));
		else
			assert_ptr_equal(idmap_get(m, keys[i]), keys[i]);
	}
	while (idmap_next(m, &pos) != NULL)
		seen++;
	assert_int_equal(seen, MAP_KEYS / 2);
	/* Putting a key again replaces its value. */
	idmap_put(m, keys[1], keys[2]);
	assert_ptr_equal(idmap_get(m, keys[1]), keys[2]);
	assert_int_equal(idmap_count(m), MAP_KEYS / 2);
	idmap_free(m);
}

/* Each row: pattern, string, whether it matches (as Redis's KEYS says). */
static void
test_glob_match_as_redis_does(void **state)
{
	static const struct {
		const char	*pat, *str;
		int		 match;
	} rows[] = {
		{ "*", "", 1 }, { "*", "g1", 1 }, { "", "", 1 }, { "", "a", 0 },
		{ "g*", "g1", 1 }, { "g*", "xg", 0 }, { "*-1", "game-1", 1 },
		{ "*-1", "game-12", 0 }, { "g?", "g1", 1 }, { "g?", "g", 0 },
		{ "g?", "g12", 0 }, { "*a*b*", "xxaxxbxx", 1 },
		{ "*a*b*", "xxbxxaxx", 0 }, { "a*a*a", "aaaa", 1 },
		{ "a*a*a", "aa", 0 }, { "[abc]x", "bx", 1 },
		{ "[abc]x", "dx", 0 }, { "[^abc]x", "dx", 1 },
		{ "[^abc]x", "ax", 0 }, { "[a-c]", "b", 1 }, { "[c-a]", "b", 1 },
		{ "[a-c]", "d", 0 }, { "[a\\-c]", "-", 1 },
		{ "[a\\-c]", "b", 0 }, { "\\*", "*", 1 }, { "\\*", "a", 0 },
		{ "a\\", "a\\", 1 }, { "[ab", "a", 1 }, { "[ab", "c", 0 },
		{ "[]", "a", 0 }, { "g-[0-9]*", "g-7x", 1 },
		{ "g-[0-9]*", "g-x7", 0 }, { "**x", "abx", 1 },
		{ "*?", "", 0 }, { "*?", "a", 1 },
	};
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (glob_match(rows[i].pat, strlen(rows[i].pat), rows[i].str,
		    strlen(rows[i].str)) != rows[i].match)
			fail_msg("glob '%s' on '%s': expected %d", rows[i].pat,
			    rows[i].str, rows[i].match);
}

/* A pattern of many stars against a long miss stays quick: no
 * exponential backtracking. */
static void
test_glob_match_many_stars(void **state)
{
	char	 pat[64], str[4096];

	(void)state;
	memset(pat, 0, sizeof(pat));
	memset(pat, '*', 40);
	pat[1] = pat[3] = pat[5] = pat[7] = 'a';
	pat[40] = 'b';
	memset(str, 'a', sizeof(str) - 1);
	str[sizeof(str) - 1] = '\0';
	assert_int_equal(glob_match(pat, strlen(pat), str, strlen(str)), 0);
	str[sizeof(str) - 2] = 'b';
	assert_int_equal(glob_match(pat, strlen(pat), str, strlen(str)), 1);
}

/* A burst at once, then one an interval; the time is given, never read. */
static void
test_rate_burst_then_interval(void **state)
{
	struct rate	 r = { 0 };
	int64_t		 wait, t = 1000000;
	int		 i;

	(void)state;
	assert_true(rate_idle(&r, t));
	for (i = 0; i < 3; i++)
		assert_int_equal(rate_take(&r, t, 100, 3, &wait), 1);
	assert_false(rate_idle(&r, t));
	/* The fourth waits for the first interval to pass. */
	assert_int_equal(rate_take(&r, t, 100, 3, &wait), 0);
	assert_int_equal(wait, 100);
	assert_int_equal(rate_take(&r, t + 99, 100, 3, &wait), 0);
	assert_int_equal(wait, 1);
	/* A refusal counts nothing: one is allowed at t + 100, then none. */
	assert_int_equal(rate_take(&r, t + 100, 100, 3, NULL), 1);
	assert_int_equal(rate_take(&r, t + 100, 100, 3, &wait), 0);
	assert_int_equal(wait, 100);
	/* Idle again once the whole burst is back, and a full burst then. */
	assert_false(rate_idle(&r, t + 399));
	assert_true(rate_idle(&r, t + 400));
	for (i = 0; i < 3; i++)
		assert_int_equal(rate_take(&r, t + 400, 100, 3, NULL), 1);
	assert_int_equal(rate_take(&r, t + 400, 100, 3, NULL), 0);
	/* One given back is one more allowed. */
	assert_int_equal(rate_take(&r, t + 400, 100, 3, NULL), 0);
	rate_give_back(&r, 100);
	assert_int_equal(rate_take(&r, t + 400, 100, 3, NULL), 1);
	assert_int_equal(rate_take(&r, t + 400, 100, 3, NULL), 0);
	/* A burst of one: one an interval. */
	r.tat = 0;
	assert_int_equal(rate_take(&r, t, 50, 1, NULL), 1);
	assert_int_equal(rate_take(&r, t + 49, 50, 1, &wait), 0);
	assert_int_equal(wait, 1);
	assert_int_equal(rate_take(&r, t + 50, 50, 1, NULL), 1);
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
		cmocka_unit_test(test_strbuf_formats_like_snprintf),
		cmocka_unit_test(test_strbuf_cuts_like_snprintf),
		cmocka_unit_test(test_idmap_put_get_del),
		cmocka_unit_test(test_glob_match_as_redis_does),
		cmocka_unit_test(test_glob_match_many_stars),
		cmocka_unit_test(test_rate_burst_then_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
