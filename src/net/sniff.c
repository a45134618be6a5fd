/*
 * Foreign protocols on the RESP port (see sniff.h).  The rules look at
 * the first words only: a browser cannot choose them (it always sends
 * "METHOD target HTTP/1.1" first and a Host header), and no ludus command
 * is named like an HTTP method or header.
 */
#include <string.h>
#include <strings.h>

#include "net/sniff.h"

/* The first byte of a TLS record carrying a handshake message. */
#define TLS_HANDSHAKE	0x16

/* RFC 9110's methods; a browser sends only these. */
static const char *const methods[] = {
	"GET", "POST", "PUT", "HEAD", "OPTIONS", "DELETE", "PATCH",
	"CONNECT", "TRACE"
};

enum sniff
sniff_bytes(const unsigned char *buf, size_t len)
{
	return len > 0 && buf[0] == TLS_HANDSHAKE ? SNIFF_TLS : SNIFF_RESP;
}

static int
is_method(const char *word)
{
	size_t	 i;

	for (i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (strcasecmp(word, methods[i]) == 0)
			return 1;
	return 0;
}

/* "word target HTTP/1.1": an HTTP request line whatever its method. */
static int
is_request_line(const struct resp_request *req)
{
	return req->argc == 3 && strncasecmp(req->argv[2], "HTTP/", 5) == 0;
}

enum sniff
sniff_request(const struct resp_request *req, int first)
{
	const char	*w;

	if (!req->is_inline || req->argc == 0)
		return SNIFF_RESP;
	w = req->argv[0];
	/* Redis's rule, at any point of a connection ("Host:x" is a Host
	 * header too). */
	if (strncasecmp(w, "Host:", 5) == 0 || strcasecmp(w, "POST") == 0)
		return SNIFF_HTTP;
	if (first && (is_method(w) || is_request_line(req)))
		return SNIFF_HTTP;
	return SNIFF_RESP;
}

const char *
sniff_name(enum sniff s)
{
	switch (s) {
	case SNIFF_HTTP:
		return "an HTTP request";
	case SNIFF_TLS:
		return "a TLS handshake";
	default:
		return "RESP";
	}
}
