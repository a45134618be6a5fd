/*
 * ludusd's configuration: defaults, the Redis-style file (one "key value"
 * per line, # comments) and the command line, where every key is also a
 * flag ("--port 7421") that overrides the file.  All keys live in one
 * sorted table in config.c with a parser each.
 */
#ifndef LUDUS_CONFIG_H
#define LUDUS_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "net/resp.h"
#include "store/store.h"

#define LUDUSD_DEFAULT_PORT	7420
#define LUDUSD_DEFAULT_BIND	"127.0.0.1"
#define LUDUSD_DEFAULT_DB	"ludus.db"

struct config {
	char		**bind;		/* addresses (or names) to listen on */
	int		  nbind;
	int		  port;		/* 0: the kernel picks (see portfile) */
	char		 *db;		/* the store as shown: a SQLite path,
					   or a URI without its password */
	char		 *store;	/* the store URI; NULL: db's path */
	enum durability	  durability;
	char		 *logfile;	/* "": stderr */
	int		  loglevel;	/* enum log_level */
	int64_t		  maxclients;
	int64_t		  timeout;	/* idle seconds before a close; 0 off */
	int64_t		  output_limit;	/* bytes of pending output per client */
	int64_t		  shutdown_timeout;	/* seconds to flush on stop */
	char		 *pidfile;	/* "": none */
	char		 *portfile;	/* "": none */
	int		  require_seats;	/* new games are seats=secure */
	int64_t		  batch_max_turns;	/* writes in one commit */
	int64_t		  batch_max_usec;	/* age of a batch; 0 none */
	int64_t		  busy_timeout;	/* ms waiting for a lock */
	int64_t		  game_cache;	/* games kept in memory; 0 none */
	struct resp_limits limits;

	int		  bind_fresh;	/* next bind replaces the list */
};

enum config_action {
	CONFIG_RUN = 0,
	CONFIG_HELP,
	CONFIG_VERSION,
	CONFIG_TEST		/* --test-config: check and exit */
};

void	config_init(struct config *);
void	config_free(struct config *);
/*
 * Reads the command line: an optional config file (first non-flag
 * argument, or --config FILE), loaded first, then the --key value flags
 * in order.  Returns 0 and sets *action, or -1 with a message in err such
 * as "ludusd.conf:12: unknown key 'prot'" or "--port: not a number".
 */
int	config_from_args(struct config *, int argc, char **argv,
	    enum config_action *action, char *err, size_t errlen);
/* Loads one file; on error err holds "file:line: message". */
int	config_load_file(struct config *, const char *path, char *err,
	    size_t errlen);
/* Sets one key from its values; -1 with *why set on error. */
int	config_set(struct config *, const char *key, int argc, char **argv,
	    const char **why);
/* The keys with their meanings, for --help. */
void	config_usage(FILE *);

#endif /* LUDUS_CONFIG_H */
