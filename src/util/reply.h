/*
 * Reply values: what a command handler (and a game kind's STATE or
 * GAME.INFO lines) builds.  They know nothing of RESP
 * bytes or terminals; the transport (src/net/resp.c) and the CLI
 * (src/cli/) each render them.  A reply owns its strings and elements.
 */
#ifndef LUDUS_REPLY_H
#define LUDUS_REPLY_H

#include <stddef.h>

enum reply_type {
	REPLY_NONE = 0,		/* not set yet */
	REPLY_STATUS,		/* +OK */
	REPLY_ERROR,		/* -CODE message */
	REPLY_INT,		/* :42 */
	REPLY_BULK,		/* $3 abc (binary safe) */
	REPLY_NULL,		/* $-1 / _ */
	REPLY_ARRAY,		/* *n */
	REPLY_MAP,		/* RESP3 %n (elements are key, value, ...);
				   an array of pairs in RESP2 */
	REPLY_PUSH		/* RESP3 >n; an array in RESP2 */
};

struct reply {
	enum reply_type	 type;
	int		 rejected;	/* an error that refuses the request
					   itself (its name, arity or syntax):
					   the same whatever the store holds,
					   so it never waits for a commit */
	long long	 integer;
	char		*str;		/* STATUS, ERROR, BULK; NUL-ended */
	size_t		 len;
	struct reply	*elem;		/* ARRAY, MAP, PUSH */
	size_t		 n;
	size_t		 cap;
};

void		 reply_status(struct reply *, const char *);
/* code is an upper-case word ("ERR", "NOGAME"); CR and LF in the
 * formatted text become spaces so an argument cannot break framing. */
void		 reply_error(struct reply *, const char *code,
		    const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
void		 reply_int(struct reply *, long long);
void		 reply_bulk(struct reply *, const char *, size_t);
void		 reply_bulkf(struct reply *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 reply_null(struct reply *);
void		 reply_array(struct reply *);	/* an empty array */
void		 reply_map(struct reply *);
void		 reply_push_type(struct reply *);
/* Appends an element (REPLY_NONE) to an array/map/push and returns it. */
struct reply	*reply_add(struct reply *);
/* Appends the status "key,value" (GAME.INFO, the STATE arrays), value
 * formatted; cut at REPLY_PAIR_MAX bytes. */
#define REPLY_PAIR_MAX	127
void		 reply_add_pair(struct reply *, const char *key,
		    const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
/* What a client reads of a reply (ludus show): the text of a scalar
 * reply (an integer printed into buf, "(nil)" for a null, "" for an
 * aggregate), and the value of the "key,value" entry of an array of
 * such entries (GAME.INFO, a STATE array), NULL when it has none. */
const char	*reply_text(const struct reply *, char *buf, size_t len);
const char	*reply_pair_value(const struct reply *arr, const char *key);
/* Frees what the reply owns and resets it to REPLY_NONE. */
void		 reply_free(struct reply *);
int		 reply_is_error(const struct reply *);

#endif /* LUDUS_REPLY_H */
