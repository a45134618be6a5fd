/*
 * A store by its URI (store_open()): the one file of the store that
 * knows both backends, so that no backend depends on another, nor the
 * core on either.
 */
#include <stddef.h>
#include <string.h>

#include "store/store.h"
#include "util/util.h"

int
store_uri_is_pg(const char *uri)
{
	return strncmp(uri, "postgresql://", 13) == 0 ||
	    strncmp(uri, "postgres://", 11) == 0;
}

const char *
store_uri_path(const char *uri)
{
	if (store_uri_is_pg(uri))
		return NULL;
	return strncmp(uri, "sqlite:", 7) == 0 ? uri + 7 : uri;
}

/* Copies uri[0..n) into the strbuf, and "***" for what follows skip
 * bytes on as far as stop's first character. */
static const char *
shown_part(struct strbuf *sb, const char *p, const char *secret,
    const char *stop)
{
	char	 c[2] = { 0, 0 };

	for (; p < secret; p++) {
		c[0] = *p;
		strbuf_add(sb, c);
	}
	strbuf_add(sb, "***");
	return secret + strcspn(secret, stop);
}

void
store_uri_shown(const char *uri, char *buf, size_t len)
{
	struct strbuf	 sb;
	const char	*p = uri, *auth, *at, *colon, *pw;
	char		 c[2] = { 0, 0 };

	strbuf_init(&sb, buf, len);
	if (store_uri_is_pg(uri) && (auth = strstr(uri, "://")) != NULL) {
		auth += 3;
		at = strchr(auth, '@');
		colon = strchr(auth, ':');
		if (at != NULL && colon != NULL && colon < at &&
		    strcspn(auth, "/?") > (size_t)(at - auth))
			p = shown_part(&sb, p, colon + 1, "@");
		if ((pw = strstr(p, "password=")) != NULL)
			p = shown_part(&sb, p, pw + 9, "&");
	}
	for (; *p != '\0'; p++) {
		c[0] = *p;
		strbuf_add(&sb, c);
	}
}

struct store *
store_open(const char *uri, enum durability d, char *errbuf, size_t errlen)
{
	if (store_uri_is_pg(uri))
		return store_pg_open(uri, d, errbuf, errlen);
	return store_sqlite_open(store_uri_path(uri), d, errbuf, errlen);
}

