/*
 * See reply_flat.h.
 */
#include <stdio.h>
#include <string.h>

#include "reply_flat.h"

/* Flattens a reply like hr_joined(): "+OK" "-ERR x" ":3" "$abc" or a list
 * "[a b 3]" / ">[move g 1 ...]" / "%[k v ...]". */
void
reply_flat(const struct reply *r, char *buf, size_t len)
{
	size_t	 i, n;

	switch (r->type) {
	case REPLY_STATUS:
		snprintf(buf, len, "+%s", r->str);
		break;
	case REPLY_ERROR:
		snprintf(buf, len, "-%s", r->str);
		break;
	case REPLY_INT:
		snprintf(buf, len, ":%lld", r->integer);
		break;
	case REPLY_BULK:
		snprintf(buf, len, "$%s", r->str);
		break;
	case REPLY_NULL:
		snprintf(buf, len, "(nil)");
		break;
	default:
		n = (size_t)snprintf(buf, len, "%s[", r->type == REPLY_PUSH ?
		    ">" : r->type == REPLY_MAP ? "%" : "");
		for (i = 0; i < r->n && n < len; i++) {
			if (i > 0)
				buf[n++] = ' ';
			if (n < len)
				reply_flat(&r->elem[i], buf + n, len - n);
			n += strlen(buf + n);
		}
		if (n + 2 <= len) {
			buf[n++] = ']';
			buf[n] = '\0';
		}
		break;
	}
}
