/*
 * The parts of an HTTP request that ludusd's own code reads (evhttp
 * parses the rest): the Host header's name, a write's Content-Type and
 * Origin, a bearer token.  Pure string functions, fuzzed (tests/fuzz/fuzz_http.c).
 */
#ifndef LUDUS_HTTP_CHECK_H
#define LUDUS_HTTP_CHECK_H

#include <stddef.h>

/*
 * The name of a Host value ("Name:port", "[::1]:port", "name."), lower
 * case, without its port or a final dot: 0, or -1 when the value is
 * malformed (empty, a port that is not digits, an unclosed bracket) or
 * the name does not fit in len.
 */
int	http_host_name(const char *host, char *name, size_t len);
/* 1 when a Host value names one of names (lower case), or an address
 * literal while any_address is set. */
int	http_host_allowed(const char *host, char *const *names, int n,
	    int any_address);
/* 1 when a Content-Type value is application/json, parameters allowed. */
int	http_type_is_json(const char *type);
/* 1 when an Origin value is the origin of a request to Host host on our
 * HTTP port ("http://" and the Host, in any case), or on our HTTPS port
 * when tls ("https://" and the Host). */
int	http_origin_ours(const char *origin, int tls, const char *host);

/* 1 when an Origin value is one of list (any case). */
int	http_origin_listed(const char *origin, char *const *list, int n);
/* The token of an Authorization value "Bearer TOKEN" (the scheme in any
 * case, the token visible ASCII): *token points into auth, *len is its
 * length.  0, or -1 for another scheme or no token. */
int	http_bearer(const char *auth, const char **token, size_t *len);

#endif /* LUDUS_HTTP_CHECK_H */
