/*
 * A blocking RESP client for the bench tools' sequential work (the
 * equivalence check, INFO readings, paging through GAMES): one request,
 * then its whole reply, with a receive timeout so that a server that
 * hangs fails the tool instead of stalling it.
 */
#ifndef BENCH_BCLIENT_H
#define BENCH_BCLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "net/resp.h"

#define BCLIENT_TIMEOUT	60	/* seconds without a byte: the server hangs */

struct bclient {
	int	 fd;
	char	*buf;		/* received bytes, from the current reply on */
	size_t	 len;
	size_t	 cap;
	size_t	 used;		/* bytes of the last reply, dropped next time */
	char	 name[64];	/* "host:port", for messages */
};

/* 0, or -1 with a message on stderr. */
int	bclient_connect(struct bclient *, const char *host, const char *port);
void	bclient_close(struct bclient *);
/* Writes one request, its words as bulk strings; 0 or -1. */
int	bclient_send(struct bclient *, int argc, const char *const *argv);
/* Writes bytes already encoded (one or more requests); 0 or -1. */
int	bclient_send_raw(struct bclient *, const char *, size_t);
/*
 * Reads one reply: into out, parsed (the caller frees it with
 * reply_free), and into raw and rawlen, its exact bytes, valid until the
 * next call; 0 or -1.
 */
int	bclient_recv(struct bclient *, struct reply *out, const char **raw,
	    size_t *rawlen);
/* send then recv. */
int	bclient_call(struct bclient *, int argc, const char *const *argv,
	    struct reply *out);
/* A numeric field of INFO ("store_size"); -1 if absent or on error. */
int64_t	bclient_info_field(struct bclient *, const char *);

/*
 * Pages through every game id with GAMES AFTER <last> LIMIT 10000, as an
 * operator's script would: the ids and pages seen; 0, or -1 with a
 * message (an error reply, or pages out of order, which would loop).
 */
int	bclient_walk_games(struct bclient *, uint64_t *ids, int *pages);

#endif /* BENCH_BCLIENT_H */
