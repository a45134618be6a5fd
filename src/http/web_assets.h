/*
 * The static files of the pages (web/), compiled in by
 * build-aux/web2c.sh: the HTML templates the pages are filled from, the
 * style sheet, the script and the icon.  web_assets[] ends with a NULL
 * name.
 */
#ifndef LUDUS_HTTP_WEB_ASSETS_H
#define LUDUS_HTTP_WEB_ASSETS_H

#include <stddef.h>

struct web_asset {
	const char	*name;		/* "ludus.css" */
	const char	*type;		/* Content-Type */
	const char	*etag;		/* quoted: "\"crc-size\"" */
	const char	*data;
	size_t		 len;
};

extern const struct web_asset	web_assets[];

/* The asset of that name, NULL if none. */
const struct web_asset	*web_asset_find(const char *);

#endif /* LUDUS_HTTP_WEB_ASSETS_H */
