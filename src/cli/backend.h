/*
 * Where the ludus CLI sends its commands: in-process on a database file
 * (embedded.c) or to a ludusd over TCP (net.c).  Both give back the same
 * struct reply, so output formatting is one code path.
 *
 * Over the network a connection also carries events (GAME.WATCH's moves,
 * pub/sub messages), which may arrive at any time: while a reply is
 * awaited or between commands.  Each one is handed to on_event as soon as
 * it is read, never taken for a reply.
 */
#ifndef LUDUS_CLI_BACKEND_H
#define LUDUS_CLI_BACKEND_H

#include <stddef.h>

#include "util/reply.h"

struct backend {
	/* Runs one command; out must be REPLY_NONE.  Returns 0 with the
	 * reply (its first frame, see more), or -1 when the backend itself
	 * failed (connection lost): out is then an error reply saying why. */
	int	(*exec)(struct backend *, int argc, char **argv,
		    size_t *argl, struct reply *out);
	/* The next frame of a reply in several (GAME.UNWATCH of several
	 * games, one confirmation each): 1 with out set, 0 once the reply
	 * is whole, -1 as exec. */
	int	(*more)(struct backend *, struct reply *out);
	/* The descriptor to poll for events between commands, -1 if none
	 * can come (embedded). */
	int	(*event_fd)(struct backend *);
	/* Waits up to timeout_ms (-1: for ever, 0: not at all) for input,
	 * reads what came and hands its events to on_event.  0, or -1 as
	 * exec (why says why). */
	int	(*pump)(struct backend *, int timeout_ms, struct reply *why);
	/* Subscriptions (games watched) the connection holds now. */
	long long (*subscriptions)(struct backend *);
	void	(*close)(struct backend *);
	/* Set by the caller: where events go, with event_arg. */
	void	(*on_event)(void *, const struct reply *);
	void	 *event_arg;
};

struct cli_tls_opts;

/* uri: as store_open() takes it (a SQLite path, or postgresql://...). */
struct backend	*backend_embedded(const char *uri, char *err, size_t);
/* tls: NULL or not enabled for a connection in clear. */
struct backend	*backend_network(const char *host, int port,
		    const struct cli_tls_opts *tls, char *err, size_t);

#endif /* LUDUS_CLI_BACKEND_H */
