/*
 * Where the ludus CLI sends its commands: in-process on a database file
 * (embedded.c) or to a ludusd over TCP (net.c).  Both give back the same
 * struct reply, so output formatting is one code path.
 */
#ifndef LUDUS_CLI_BACKEND_H
#define LUDUS_CLI_BACKEND_H

#include <stddef.h>

#include "util/reply.h"

struct backend {
	/* Runs one command; out must be REPLY_NONE.  Returns 0, or -1 when
	 * the backend itself failed (connection lost): out is then an
	 * error reply saying why. */
	int	(*exec)(struct backend *, int argc, char **argv,
		    size_t *argl, struct reply *out);
	/* Waits for the next pushed event (WATCH); 0, or -1 at end. */
	int	(*next_event)(struct backend *, struct reply *out);
	void	(*close)(struct backend *);
};

struct backend	*backend_embedded(const char *dbpath, char *err, size_t);
struct backend	*backend_network(const char *host, int port, char *err,
		    size_t);

#endif /* LUDUS_CLI_BACKEND_H */
