/*
 * What a connection that is not a RESP client looks like, as pure
 * functions over bytes and parsed requests (no socket, no log), so the
 * rules are tested and fuzzed on their own.
 *
 * The RESP port accepts inline commands, and that is what makes it
 * reachable from a web page: a browser's fetch() of http://127.0.0.1:7420/
 * sends an HTTP request, whose every line is a valid inline command, and
 * a body whose lines would run as commands (cross-protocol scripting).
 * A connection whose first request looks like HTTP, or that starts with a
 * TLS handshake (a client that meant the TLS port), is closed before
 * anything it sent runs.
 */
#ifndef LUDUS_SNIFF_H
#define LUDUS_SNIFF_H

#include <stddef.h>

#include "net/resp.h"

enum sniff {
	SNIFF_RESP = 0,		/* nothing foreign: serve it */
	SNIFF_HTTP,		/* an HTTP request line or header */
	SNIFF_TLS		/* a TLS handshake record */
};

/*
 * The input of a connection before its first request: SNIFF_TLS if it
 * starts with a TLS handshake record (a ClientHello), else SNIFF_RESP.
 * One byte decides, so len may be anything from 1.
 */
enum sniff	sniff_bytes(const unsigned char *buf, size_t len);

/*
 * A request parsed from a connection: first is 1 for the connection's
 * first request (blank lines do not count).  SNIFF_HTTP for an inline
 * request that is an HTTP request line (a first word GET, POST, PUT,
 * HEAD, OPTIONS, DELETE, PATCH, CONNECT or TRACE, or any "word target
 * HTTP/n.n") when first, or a "Host:" or "POST" line at any point, as
 * Redis closes a connection on those; every word is compared without
 * case.  A RESP array is never HTTP: a Redis client's GET is an array.
 */
enum sniff	sniff_request(const struct resp_request *, int first);

/* "an HTTP request", "a TLS handshake": for the log. */
const char	*sniff_name(enum sniff);

#endif /* LUDUS_SNIFF_H */
