/*
 * The RESP parser over a libevent input buffer (src/net/resp_input.c):
 * whatever chunks the input is made of, every whole request in it comes
 * out, in order, and a partial one waits.  main() is test_resp.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <event2/buffer.h>

#include "net/resp.h"
#include "test_resp.h"

/* Three requests, one inline: elements of every length around them. */
static const char input[] =
    "*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n"
    "*5\r\n$12\r\nDANDY.CREATE\r\n$8\r\nb12-0001\r\n$1\r\n2\r\n"
    "$5\r\nabcde\r\n$10\r\ndeck=abcde\r\n"
    "PING there\r\n"
    "*1\r\n$4\r\nPING\r\n";
static const char *const want[] = {
	"ECHO hi", "DANDY.CREATE b12-0001 2 abcde deck=abcde", "PING there",
	"PING"
};
#define NWANT	(sizeof(want) / sizeof(want[0]))

/* The request's words, space-separated. */
static void
words(const struct resp_request *r, char *out, size_t len)
{
	size_t	 n = 0;
	int	 i;

	out[0] = '\0';
	for (i = 0; i < r->argc; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? " " : "",
		    r->argv[i]);
}

/*
 * Parses what in holds now, as a connection does when it is read: the
 * requests that come out are checked against want from *next on.
 */
static void
drain(struct resp_parser *p, struct evbuffer *in, size_t *next,
    uint64_t *consumed)
{
	struct resp_request	 r;
	const char		*err;
	enum resp_status	 st;
	char			 got[256];

	while ((st = resp_parse_evbuffer(p, in, &r, &err, consumed)) ==
	    RESP_OK) {
		assert_true(*next < NWANT);
		words(&r, got, sizeof(got));
		assert_string_equal(got, want[*next]);
		(*next)++;
		resp_request_free(&r);
	}
	assert_int_equal(st, RESP_INCOMPLETE);
}

/*
 * The input split at k: as two chunks of one buffer (a connection's input
 * after two reads that libevent kept apart), or as two reads parsed one
 * after the other.  Either way all four requests, each once, every byte
 * consumed.
 */
static void
split_at(size_t k, int two_reads)
{
	struct resp_parser	 p;
	struct evbuffer		*in, *tail;
	size_t			 len = sizeof(input) - 1, next = 0;
	uint64_t		 consumed = 0;

	resp_parser_init(&p, NULL);
	in = evbuffer_new();
	tail = evbuffer_new();
	assert_int_equal(evbuffer_add(in, input, k), 0);
	assert_int_equal(evbuffer_add(tail, input + k, len - k), 0);
	if (two_reads)
		drain(&p, in, &next, &consumed);
	/* Moves tail's chunk: the input is two chunks, split at k. */
	assert_int_equal(evbuffer_add_buffer(in, tail), 0);
	drain(&p, in, &next, &consumed);
	assert_int_equal(next, NWANT);
	assert_int_equal(consumed, len);
	assert_int_equal(evbuffer_get_length(in), 0);
	evbuffer_free(tail);
	evbuffer_free(in);
	resp_parser_free(&p);
}

void
test_resp_input_two_chunks(void **state)
{
	size_t	 k;

	(void)state;
	for (k = 1; k < sizeof(input) - 1; k++)
		split_at(k, 0);
}

void
test_resp_input_two_reads(void **state)
{
	size_t	 k;

	(void)state;
	for (k = 1; k < sizeof(input) - 1; k++)
		split_at(k, 1);
}
