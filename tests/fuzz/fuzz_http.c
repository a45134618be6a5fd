/*
 * Fuzzes what ludusd reads of an HTTP request itself (src/http/
 * http_check.c; evhttp parses the rest): the Host header's name, a
 * write's Content-Type and Origin, a bearer token.
 *
 * Input: the bytes up to the first NUL are a Host value, the bytes after
 * it (up to the next NUL) an Origin or Content-Type value.  Checked: a
 * name fits its buffer, is lower case and never empty, and parses to
 * itself again (a bracketed address aside); a Host is allowed by a list
 * exactly when its name is in the list; the origin of a Host is ours,
 * and the Host's own name with another scheme is not; a JSON type is one
 * whose first 16 bytes say so; a bearer token lies inside its value, after
 * "Bearer ", and is visible ASCII; a value is found in a list of itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "http/http_check.h"
#include "util/util.h"

static void
check_name(const char *host)
{
	char		 name[64], again[64], *list[1];
	size_t		 i;

	if (http_host_name(host, name, sizeof name) == -1) {
		list[0] = "localhost";
		FUZZ_CHECK(!http_host_allowed(host, list, 1, 0));
		return;
	}
	FUZZ_CHECK(name[0] != '\0' && strlen(name) < sizeof name);
	for (i = 0; name[i] != '\0'; i++)
		FUZZ_CHECK(name[i] < 'A' || name[i] > 'Z');
	if (host[0] != '[' && strchr(name, ':') == NULL &&
	    name[strlen(name) - 1] != '.') {
		FUZZ_CHECK(http_host_name(name, again, sizeof again) == 0);
		FUZZ_CHECK(strcmp(name, again) == 0);
	}
	list[0] = name;
	if (strlen(name) < 64)
		FUZZ_CHECK(http_host_allowed(host, list, 1, 0));
}

static void
check_origin(const char *host, const char *value)
{
	char	*origin;

	xasprintf(&origin, "http://%s", host);
	FUZZ_CHECK(http_origin_ours(origin, 0, host));
	/* The HTTPS port's origin is https://, and only that. */
	FUZZ_CHECK(!http_origin_ours(origin, 1, host));
	origin[0] = 'f';			/* "fttp://" */
	FUZZ_CHECK(!http_origin_ours(origin, 0, host));
	free(origin);
	xasprintf(&origin, "https://%s", host);
	FUZZ_CHECK(http_origin_ours(origin, 1, host));
	FUZZ_CHECK(!http_origin_ours(origin, 0, host));
	free(origin);
	if (http_origin_ours(value, 0, host))
		FUZZ_CHECK(strncasecmp(value, "http://", 7) == 0 &&
		    strcasecmp(value + 7, host) == 0);
	if (http_origin_ours(value, 1, host))
		FUZZ_CHECK(strncasecmp(value, "https://", 8) == 0 &&
		    strcasecmp(value + 8, host) == 0);
	if (http_type_is_json(value))
		FUZZ_CHECK(strncasecmp(value, "application/json", 16) == 0);
}

static void
check_bearer(const char *value)
{
	const char	*token;
	char		*list[1];
	size_t		 len, i;

	if (http_bearer(value, &token, &len) == 0) {
		FUZZ_CHECK(strncasecmp(value, "Bearer ", 7) == 0);
		FUZZ_CHECK(len > 0 && token >= value + 7 &&
		    token + len <= value + strlen(value));
		for (i = 0; i < len; i++)
			FUZZ_CHECK((unsigned char)token[i] > 0x20 &&
			    (unsigned char)token[i] < 0x7f);
	}
	list[0] = (char *)(uintptr_t)value;
	FUZZ_CHECK(http_origin_listed(value, list, 1));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*buf = xmalloc(size + 2), *value;

	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	value = buf + strlen(buf) + 1;
	if (value > buf + size)
		value = buf + size;
	check_name(buf);
	check_origin(buf, value);
	check_bearer(value);
	free(buf);
	return 0;
}
