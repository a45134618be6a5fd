/*
 * ludusd: the ludus game server.  Reads its configuration, opens the
 * store, binds, and runs one libevent loop serving RESP clients until
 * SIGTERM or SIGINT; see server.c for the stop and conn.c for a client.
 */
#include <sys/resource.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http/http.h"
#include "net/config.h"
#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

/* Descriptors needed besides the clients': listeners, store, log. */
#define RESERVED_FDS	32

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: ludusd [/path/to/ludusd.conf] [--key value ...]\n"
	    "       ludusd --config FILE [--key value ...]\n"
	    "       ludusd --test-config [...] | --help | --version\n"
	    "\n"
	    "The ludus game server: plays Ludo, Snake & Ladder and DandyLand\n"
	    "over RESP (the Redis protocol), storing every turn in SQLite.\n"
	    "Every key of the configuration file (ludusd.conf(5), e.g.\n"
	    "%s/ludusd.conf) is also a flag that overrides the file:\n\n",
	    SYSCONFDIR);
	config_usage(f);
	fprintf(f, "\nSignals: TERM/INT stop cleanly, HUP reopens the log "
	    "file and reloads\nthe TLS certificates.\n");
}

/*
 * Each client costs a descriptor: raise the soft limit as far as the hard
 * one allows, and serve fewer clients if that is not enough.
 */
static int64_t
raise_nofile(int64_t maxclients)
{
	struct rlimit	 rl;
	rlim_t		 want = (rlim_t)maxclients + RESERVED_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		log_warning("getrlimit: %s", strerror(errno));
		return maxclients;
	}
	if (rl.rlim_cur < want) {
		rlim_t old = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
		    rl.rlim_max >= want ? want : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			rl.rlim_cur = old;
	}
	if (rl.rlim_cur < want) {
		int64_t fit = (int64_t)rl.rlim_cur - RESERVED_FDS;

		if (fit < 1)
			fit = 1;
		log_warning("open files limited to %llu: serving at most %lld "
		    "clients instead of %lld", (unsigned long long)rl.rlim_cur,
		    (long long)fit, (long long)maxclients);
		return fit;
	}
	log_info("open files limit %llu (maxclients %lld)",
	    (unsigned long long)rl.rlim_cur, (long long)maxclients);
	return maxclients;
}

/* Writes "value\n" to path atomically, so a reader never sees half. */
static int
write_file(const char *path, long value)
{
	char	*tmp;
	FILE	*f;
	int	 rc = 0;

	xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL) {
		log_warning("cannot write %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "%ld\n", value);
	if (fclose(f) != 0 || rename(tmp, path) == -1) {
		log_warning("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	return rc;
}

static void
log_start(const struct server *srv, const struct config *cfg)
{
	char	*binds = xstrdup(""), *tmp, port[32] = "", tls[32] = "";
	int	 i;

	for (i = 0; i < cfg->nbind; i++) {
		xasprintf(&tmp, "%s%s%s", binds, i > 0 ? " " : "",
		    cfg->bind[i]);
		free(binds);
		binds = tmp;
	}
	/* port off: RESP over TLS alone, and no "port 0" said. */
	if (srv->port != 0)
		snprintf(port, sizeof port, " port %d", srv->port);
	if (srv->tls_port != 0)
		snprintf(tls, sizeof tls, " tls-port %d", srv->tls_port);
	log_notice("ludusd %s started: pid %ld, listening on %s%s%s, "
	    "db %s, durability %s, maxclients %lld", PACKAGE_VERSION,
	    (long)getpid(), binds, port, tls, cfg->db,
	    durability_name(cfg->durability), (long long)srv->maxclients);
	if (http_port(srv) != 0)
		log_notice("http on port %d: http://%s:%d/", http_port(srv),
		    cfg->bind[0], http_port(srv));
	if (http_tls_port(srv) != 0)
		log_notice("https on port %d: https://%s:%d/",
		    http_tls_port(srv), cfg->bind[0], http_tls_port(srv));
	free(binds);
}

/* Start-up failures go to stderr, and to the log file if there is one. */
static void
start_failed(const struct config *cfg, const char *what)
{
	if (cfg->logfile[0] != '\0')
		fprintf(stderr, "ludusd: %s (see %s)\n", what, cfg->logfile);
}

/* Everything after the configuration: 0 or the exit status. */
static int
serve(struct config *cfg)
{
	struct server	 srv;
	char		 err[1024];
	int		 rc;

	signal(SIGPIPE, SIG_IGN);
	/* Over a file-size limit a write must fail (-STORE), not kill us. */
	signal(SIGXFSZ, SIG_IGN);
	if (log_open(cfg->logfile, cfg->loglevel, err, sizeof err) == -1) {
		fprintf(stderr, "ludusd: %s\n", err);
		return 1;
	}
	if (server_init(&srv, cfg) == -1) {
		start_failed(cfg, "cannot start");
		server_free(&srv);
		log_close();
		return 1;
	}
	/* The server has the password's hash (auth.c): the password itself
	 * is kept nowhere from here on. */
	config_forget_password(cfg);
	srv.maxclients = raise_nofile(cfg->maxclients);
	/* HTTP (http.c) on the same addresses as RESP. */
	if (server_listen(&srv) == -1 || http_listen(&srv) == -1) {
		start_failed(cfg, "cannot listen");
		http_free(&srv);
		server_free(&srv);
		log_close();
		return 1;
	}
	if (cfg->pidfile[0] != '\0')
		write_file(cfg->pidfile, (long)getpid());
	/* The TLS port files before the port file, the HTTP one after it:
	 * a reader that waits for the port file finds the TLS ports, one
	 * that waits for the HTTP file finds all four. */
	if (cfg->tls_portfile[0] != '\0' && srv.tls_port != 0)
		write_file(cfg->tls_portfile, srv.tls_port);
	if (cfg->https_portfile[0] != '\0' && http_tls_port(&srv) != 0)
		write_file(cfg->https_portfile, http_tls_port(&srv));
	if (cfg->portfile[0] != '\0')
		write_file(cfg->portfile, srv.port);
	if (cfg->http_portfile[0] != '\0' && http_port(&srv) != 0)
		write_file(cfg->http_portfile, http_port(&srv));
	log_start(&srv, cfg);
	rc = server_run(&srv);
	http_free(&srv);	/* before the loop and the store go */
	server_free(&srv);
	if (cfg->pidfile[0] != '\0')
		unlink(cfg->pidfile);
	if (cfg->portfile[0] != '\0')
		unlink(cfg->portfile);
	if (cfg->http_portfile[0] != '\0')
		unlink(cfg->http_portfile);
	if (cfg->tls_portfile[0] != '\0')
		unlink(cfg->tls_portfile);
	if (cfg->https_portfile[0] != '\0')
		unlink(cfg->https_portfile);
	log_notice("ludusd stopped");
	log_close();
	return rc;
}

int
main(int argc, char **argv)
{
	struct config		 cfg;
	enum config_action	 action;
	char			 err[1024];
	int			 rc = 0;

	config_init(&cfg);
	if (config_from_args(&cfg, argc, argv, &action, err, sizeof err) ==
	    -1) {
		fprintf(stderr, "ludusd: %s\n", err);
		rc = 1;
	} else if (action == CONFIG_HELP)
		usage(stdout);
	else if (action == CONFIG_VERSION)
		printf("ludusd %s (schema version %d on SQLite, %d on "
		    "PostgreSQL)\n", PACKAGE_VERSION, store_schema_latest(0),
		    store_schema_latest(1));
	else if (action == CONFIG_TEST)
		printf("ludusd: configuration OK\n");
	else
		rc = serve(&cfg);
	config_free(&cfg);
	return rc;
}
