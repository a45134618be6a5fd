/*
 * The sniffing of foreign protocols on the RESP port (src/net/sniff.c):
 * what an HTTP request and a TLS handshake look like once parsed, and
 * what a RESP client sends that must never be taken for them (a Redis
 * client's GET is an array; a game named "post" is an argument).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "net/resp.h"
#include "net/sniff.h"

/* The first request of bytes, parsed as the daemon parses it. */
static enum sniff
first(const char *bytes, int is_first)
{
	struct resp_parser	 p;
	struct resp_request	 req;
	const char		*err;
	size_t			 used;
	enum sniff		 s;

	resp_parser_init(&p, NULL);
	assert_int_equal(resp_parse(&p, bytes, strlen(bytes), &used, &req,
	    &err), RESP_OK);
	s = sniff_request(&req, is_first);
	resp_request_free(&req);
	resp_parser_free(&p);
	return s;
}

static void
test_sniff_request_http_methods(void **state)
{
	static const char *const lines[] = {
		"POST / HTTP/1.1\r\n", "GET / HTTP/1.1\r\n",
		"get /api HTTP/1.0\r\n", "PUT /x HTTP/1.1\r\n",
		"HEAD / HTTP/1.1\r\n", "OPTIONS * HTTP/1.1\r\n",
		"DELETE /g HTTP/1.1\r\n", "Options / HTTP/1.1\r\n",
		"PATCH / HTTP/1.1\r\n", "GET\r\n", "post\r\n",
		/* Any method, on an HTTP request line. */
		"PROPFIND /dav HTTP/1.1\r\n", "PRI * HTTP/2.0\r\n",
		"Host: 127.0.0.1:7420\r\n", "host:127.0.0.1\r\n",
	};
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (first(lines[i], 1) != SNIFF_HTTP)
			fail_msg("not taken for HTTP: %s", lines[i]);
}

/* Redis's rule holds at any point: POST and Host: are never commands. */
static void
test_sniff_request_later_lines(void **state)
{
	(void)state;
	assert_int_equal(first("POST / HTTP/1.1\r\n", 0), SNIFF_HTTP);
	assert_int_equal(first("Host: x\r\n", 0), SNIFF_HTTP);
	/* Other methods only on the first line: later ones are commands
	 * that fail as unknown. */
	assert_int_equal(first("GET / HTTP/1.1\r\n", 0), SNIFF_RESP);
	assert_int_equal(first("PROPFIND / HTTP/1.1\r\n", 0), SNIFF_RESP);
}

static void
test_sniff_request_resp_clients(void **state)
{
	(void)state;
	/* A Redis client's GET, POST or Host: is an array, never a page. */
	assert_int_equal(first("*2\r\n$3\r\nGET\r\n$1\r\ng\r\n", 1),
	    SNIFF_RESP);
	assert_int_equal(first("*1\r\n$4\r\nPOST\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("*1\r\n$5\r\nHost:\r\n", 1), SNIFF_RESP);
	/* Inline commands of nc users. */
	assert_int_equal(first("PING\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("LUDO.CREATE post a b\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("LUDO.CREATE g host: b\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("GETS x\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("ECHO HTTP/1.1\r\n", 1), SNIFF_RESP);
	assert_int_equal(first("hostname\r\n", 1), SNIFF_RESP);
}

static void
test_sniff_bytes_tls(void **state)
{
	/* A TLS 1.2 record header carrying a ClientHello. */
	static const unsigned char hello[] = { 0x16, 0x03, 0x01, 0x02, 0x00,
	    0x01 };

	(void)state;
	assert_int_equal(sniff_bytes(hello, sizeof hello), SNIFF_TLS);
	assert_int_equal(sniff_bytes(hello, 1), SNIFF_TLS);
	assert_int_equal(sniff_bytes((const unsigned char *)"*1\r\n", 4),
	    SNIFF_RESP);
	assert_int_equal(sniff_bytes((const unsigned char *)"PING", 4),
	    SNIFF_RESP);
	assert_int_equal(sniff_bytes(hello, 0), SNIFF_RESP);
	assert_string_equal(sniff_name(SNIFF_TLS), "a TLS handshake");
	assert_string_equal(sniff_name(SNIFF_HTTP), "an HTTP request");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sniff_request_http_methods),
		cmocka_unit_test(test_sniff_request_later_lines),
		cmocka_unit_test(test_sniff_request_resp_clients),
		cmocka_unit_test(test_sniff_bytes_tls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
