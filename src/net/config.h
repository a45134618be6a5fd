/*
 * ludusd's configuration: defaults, the Redis-style file (one "key value"
 * per line, # comments) and the command line, where every key is also a
 * flag ("--port 7421") that overrides the file.  All keys live in one
 * sorted table in config_keys.c with a parser each; config.c looks them
 * up, loads the file and shows the values; the command line is read in
 * config_args.c.
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
/* HTTP (http.c): the port, and its two special values. */
#define LUDUSD_DEFAULT_HTTP_PORT	7421
#define HTTP_PORT_OFF		0	/* no HTTP */
#define HTTP_PORT_ANY		(-1)	/* any free port, see http-portfile */
#define HTTP_PORT_UNSET		(-2)	/* 7421, or any when port is 0 */
/* tls-port's values besides a port, as http-port's. */
#define TLS_PORT_OFF		0	/* no TLS (the default) */
#define TLS_PORT_ANY		(-1)	/* any free port, see tls-portfile */
/* port off: no plain port. */
#define PORT_OFF		(-1)

/* tls-auth-clients: whether a TLS client must show a certificate. */
enum tls_auth {
	TLS_AUTH_NO = 0,	/* none is asked for */
	TLS_AUTH_OPTIONAL,	/* one is checked if shown */
	TLS_AUTH_YES		/* one is required */
};

struct config {
	char		**bind;		/* addresses (or names) to listen on */
	int		  nbind;
	int		  port;		/* 0: the kernel picks (see portfile);
					 * PORT_OFF: none */
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
	char		 *requirepass;	/* "": no password (auth.c keeps
					   its hash) */
	int		  protected_mode;	/* no password: loopback only */
	int64_t		  batch_max_turns;	/* writes in one commit */
	int64_t		  batch_max_usec;	/* age of a batch; 0 none */
	int64_t		  busy_timeout;	/* ms waiting for a lock */
	int64_t		  bot_delay;	/* ms before a server's move */
	int64_t		  game_cache;	/* games kept in memory; 0 none */
	struct resp_limits limits;
	int		  tls_port;	/* TLS_PORT_OFF, _ANY or a port */
	char		 *tls_portfile;	/* "": none */
	char		 *tls_cert_file;	/* PEM chain; reread on SIGHUP */
	char		 *tls_key_file;
	char		 *tls_ca_cert_file;	/* "": none */
	enum tls_auth	  tls_auth_clients;

	/* HTTP (http.c); http_port as config_http_port() resolves it. */
	int		  http_port;
	char		**http_host;	/* names a Host header may also give */
	int		  nhttp_host;
	char		 *http_portfile;	/* "": none */
	int64_t		  http_maxclients;
	int64_t		  http_maxclients_per_address;	/* one peer's */
	int64_t		  http_timeout;	/* seconds for a request, an I/O */
	int64_t		  http_max_header;	/* bytes of request headers */
	int64_t		  http_max_body;	/* bytes of a request body */
	char		**http_allow_origin;	/* may write from a browser */
	int		  nhttp_allow_origin;
	int64_t		  http_event_heartbeat;	/* seconds between comments */
	int64_t		  http_event_buffer;	/* unread bytes of a stream */
	/* HTTPS (http.c): tls-port's certificate on a port of its own. */
	int		  https_port;	/* TLS_PORT_OFF, _ANY or a port */
	char		 *https_portfile;	/* "": none */

	/* Quotas (quota.c); 0: no cap, but multi_max_commands. */
	int64_t		  create_rate;	/* games a RESP connection may create
					   a minute */
	int64_t		  http_create_rate;	/* ... an HTTP peer address */
	int64_t		  max_games;	/* games in play (or stored) */
	int		  max_games_finished;	/* finished ones count too */

	/* Retiring finished games (retire.c). */
	int64_t		  finished_retention;	/* seconds; 0: kept for ever */
	char		 *finished_archive;	/* directory; "": no archive */
	int64_t		  finished_archive_roll; /* seconds an archive is open */
	int64_t		  max_subscriptions;	/* of one connection */
	int64_t		  multi_max_commands;	/* queued by one MULTI */
	int64_t		  max_tickets;	/* waiting, of one account */

	/* The matchmaker (lobby.c, src/lobby/match.h). */
	int64_t		  match_interval;	/* ms between a queue's runs */
	int64_t		  match_window;	/* a ticket's window, rating points */
	int64_t		  match_widen;	/* ... widened so much a second */

	int		  bind_fresh;	/* next bind replaces the list */
	int		  http_host_fresh;	/* next http-host too */
	int		  http_allow_origin_fresh;	/* and http-allow-origin */
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
/* Whether a key of that name exists. */
int	config_known(const char *key);
/* Sets one key from its values; -1 with *why set on error. */
int	config_set(struct config *, const char *key, int argc, char **argv,
	    const char **why);
/* The HTTP port to listen on: http-port, else 7421, or any free port
 * when port is 0 (a daemon started on a free port, as the tests start
 * one, takes a free one for HTTP too); HTTP_PORT_OFF for none. */
int	config_http_port(const struct config *);
/* Calls cb with every key's name and current value (the password's is
 * never shown), in the order of the keys: CONFIG GET. */
typedef void (*config_value_cb)(void *arg, const char *name,
    const char *value);
void	config_each(const struct config *, config_value_cb, void *arg);
/* Wipes the password and frees it (requirepass NULL): once the daemon
 * has its hash (auth.c), the password itself is kept nowhere. */
void	config_forget_password(struct config *);
/* The keys with their meanings, for --help. */
void	config_usage(FILE *);

#endif /* LUDUS_CONFIG_H */
