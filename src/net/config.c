/*
 * Configuration.  Every key has one entry in the sorted key table
 * (config_keys.c) with its parser; the file and the command line both go
 * through config_set, so a key behaves the same wherever it is written.
 * This file looks keys up, holds the defaults, loads the file and shows
 * the values.
 */
#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/config.h"
#include "net/config_int.h"
#include "net/log.h"
#include "util/util.h"

/* ------------------------------------------------------ looking keys up */

static int
key_cmp(const void *a, const void *b)
{
	const char		*name = a;
	const struct config_key	*k = b;

	return strcasecmp(name, k->name);
}

static const struct config_key *
key_find(const char *name)
{
	return bsearch(name, config_keys, config_nkeys,
	    sizeof config_keys[0], key_cmp);
}

/* ------------------------------------------------------------- the API */

int
config_known(const char *name)
{
	return key_find(name) != NULL;
}

void
config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->bind = xmalloc(sizeof *cfg->bind);
	cfg->bind[0] = xstrdup(LUDUSD_DEFAULT_BIND);
	cfg->nbind = 1;
	cfg->bind_fresh = 1;
	cfg->port = LUDUSD_DEFAULT_PORT;
	cfg->db = xstrdup(LUDUSD_DEFAULT_DB);
	cfg->durability = DURABILITY_FULL;
	cfg->logfile = xstrdup("");
	cfg->loglevel = LL_NOTICE;
	cfg->maxclients = 10000;
	cfg->batch_max_turns = 256;
	cfg->batch_max_usec = 2000;
	cfg->busy_timeout = 100;
	cfg->game_cache = STORE_GAME_CACHE_DEFAULT;
	cfg->bot_delay = 300;
	cfg->protected_mode = 1;
	cfg->requirepass = xstrdup("");
	cfg->timeout = 0;
	cfg->output_limit = 64LL * 1024 * 1024;
	cfg->shutdown_timeout = 5;
	cfg->pidfile = xstrdup("");
	cfg->portfile = xstrdup("");
	cfg->limits.max_inline = RESP_DEFAULT_MAX_INLINE;
	cfg->limits.max_args = RESP_DEFAULT_MAX_ARGS;
	cfg->limits.max_bulk = RESP_DEFAULT_MAX_BULK;
	cfg->http_port = HTTP_PORT_UNSET;
	cfg->http_portfile = xstrdup("");
	cfg->http_maxclients = 1024;
	cfg->http_maxclients_per_address = 128;
	cfg->http_timeout = 10;
	cfg->http_max_header = 16 * 1024;
	cfg->http_max_body = 64 * 1024;
	cfg->http_host_fresh = 1;
	cfg->tls_port = TLS_PORT_OFF;
	cfg->tls_portfile = xstrdup("");
	cfg->tls_cert_file = xstrdup("");
	cfg->tls_key_file = xstrdup("");
	cfg->tls_ca_cert_file = xstrdup("");
	cfg->tls_auth_clients = TLS_AUTH_NO;
	cfg->http_allow_origin_fresh = 1;
	cfg->http_event_heartbeat = 15;
	cfg->http_event_buffer = 1024 * 1024;
	cfg->https_port = TLS_PORT_OFF;
	cfg->https_portfile = xstrdup("");
	/*
	 * No cap that a well-behaved service reaches after months: a RESP
	 * client is gated by protected mode and requirepass already, and a
	 * service that creates its games over one pooled connection must
	 * not be refused its 601st; the games stored grow with the years a
	 * service runs (finished-retention retires them).  An HTTP address,
	 * which anyone who reaches the port has, keeps its rate.
	 */
	cfg->create_rate = 0;
	cfg->http_create_rate = 600;
	cfg->max_games = 0;
	cfg->finished_retention = 0;
	cfg->finished_archive = xstrdup(".");
	cfg->finished_archive_roll = 3600;
	cfg->max_tickets = 10;
	cfg->match_interval = 250;
	cfg->match_window = 100;
	cfg->match_widen = 10;
	cfg->max_subscriptions = 10000;
	cfg->multi_max_commands = 10000;
}

int
config_http_port(const struct config *cfg)
{
	if (cfg->http_port != HTTP_PORT_UNSET)
		return cfg->http_port;
	return cfg->port == 0 ? HTTP_PORT_ANY : LUDUSD_DEFAULT_HTTP_PORT;
}

void
config_free(struct config *cfg)
{
	int	 i;

	for (i = 0; i < cfg->nbind; i++)
		free(cfg->bind[i]);
	free(cfg->bind);
	free(cfg->db);
	free(cfg->finished_archive);
	free(cfg->store);
	free(cfg->logfile);
	free(cfg->pidfile);
	free(cfg->portfile);
	free(cfg->tls_cert_file);
	free(cfg->tls_key_file);
	free(cfg->tls_ca_cert_file);
	free(cfg->tls_portfile);
	for (i = 0; i < cfg->nhttp_host; i++)
		free(cfg->http_host[i]);
	free(cfg->http_host);
	free(cfg->http_portfile);
	free(cfg->https_portfile);
	for (i = 0; i < cfg->nhttp_allow_origin; i++)
		free(cfg->http_allow_origin[i]);
	free(cfg->http_allow_origin);
	config_forget_password(cfg);
	free(cfg->requirepass);
	memset(cfg, 0, sizeof *cfg);
}

int
config_set(struct config *cfg, const char *name, int argc, char **argv,
    const char **why)
{
	const struct config_key	*k;

	if ((k = key_find(name)) == NULL) {
		*why = "unknown key";
		return -1;
	}
	if (argc < 1 || (!k->multi && argc != 1)) {
		*why = k->multi ? "needs at least one value" :
		    "needs exactly one value";
		return -1;
	}
	return k->set(cfg, argc, argv, why);
}

int
config_load_file(struct config *cfg, const char *path, char *err,
    size_t errlen)
{
	FILE		*f;
	char		*line = NULL, **argv;
	size_t		 cap = 0, *argl;
	ssize_t		 n;
	const char	*why;
	int		 lineno = 0, argc, rv = 0;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	cfg->bind_fresh = cfg->http_host_fresh =
	    cfg->http_allow_origin_fresh = 1;
	while (rv == 0 && (n = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '#')
			continue;
		if ((argc = split_line(line, (size_t)n, &argv, &argl)) == -1) {
			snprintf(err, errlen, "%s:%d: unbalanced quotes", path,
			    lineno);
			rv = -1;
			break;
		}
		if (argc == 0)
			continue;
		if (config_set(cfg, argv[0], argc - 1, argv + 1, &why) == -1) {
			if (key_find(argv[0]) == NULL)
				snprintf(err, errlen, "%s:%d: unknown key '%s'",
				    path, lineno, argv[0]);
			else
				snprintf(err, errlen, "%s:%d: %s: %s", path,
				    lineno, argv[0], why);
			rv = -1;
		}
		split_free(argc, argv, argl);
	}
	if (rv == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rv = -1;
	}
	free(line);
	fclose(f);
	return rv;
}

/* A key of several values, space-separated. */
static void
list_value(char *const *list, int n, char *buf, size_t len)
{
	size_t	 at = 0;
	int	 i;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
		    i > 0 ? " " : "", list[i]);
}

/* A port, or the word for its special value. */
static void
port_value(int port, int special, const char *word, char *buf, size_t len)
{
	if (port == special)
		snprintf(buf, len, "%s", word);
	else
		snprintf(buf, len, "%d", port);
}

/* A V_OTHER value. */
static void
other_value(const struct config *cfg, const char *name, char *buf,
    size_t len)
{
	static const char *const tls_auth[] = { "no", "optional", "yes" };

	if (strcmp(name, "cache-memory") == 0)
		snprintf(buf, len, "%lld",
		    (long long)store_game_cache_bytes(cfg->game_cache));
	else if (strcmp(name, "durability") == 0)
		snprintf(buf, len, "%s", durability_name(cfg->durability));
	else if (strcmp(name, "loglevel") == 0)
		snprintf(buf, len, "%s", log_level_name(cfg->loglevel));
	else if (strcmp(name, "http-allow-origin") == 0)
		list_value(cfg->http_allow_origin, cfg->nhttp_allow_origin,
		    buf, len);
	else if (strcmp(name, "http-host") == 0)
		list_value(cfg->http_host, cfg->nhttp_host, buf, len);
	else if (strcmp(name, "http-port") == 0)
		port_value(config_http_port(cfg), HTTP_PORT_ANY, "any", buf,
		    len);
	else if (strcmp(name, "port") == 0)
		port_value(cfg->port, PORT_OFF, "off", buf, len);
	else if (strcmp(name, "tls-port") == 0)
		port_value(cfg->tls_port, TLS_PORT_ANY, "any", buf, len);
	else if (strcmp(name, "https-port") == 0)
		port_value(cfg->https_port, TLS_PORT_ANY, "any", buf, len);
	else if (strcmp(name, "tls-auth-clients") == 0)
		snprintf(buf, len, "%s", tls_auth[cfg->tls_auth_clients]);
	else
		list_value(cfg->bind, cfg->nbind, buf, len);
}

static void
key_value(const struct config *cfg, const struct config_key *k, char *buf,
    size_t len)
{
	const char	*p = (const char *)cfg + k->off;

	switch (k->kind) {
	case V_INT64:
		snprintf(buf, len, "%lld", (long long)*(const int64_t *)p);
		break;
	case V_SIZE:
		snprintf(buf, len, "%zu", *(const size_t *)p);
		break;
	case V_STR:
		snprintf(buf, len, "%s", *(char *const *)p);
		break;
	case V_BOOL:
		snprintf(buf, len, "%s", *(const int *)p ? "yes" : "no");
		break;
	default:
		other_value(cfg, k->name, buf, len);
		break;
	}
}

void
config_each(const struct config *cfg, config_value_cb cb, void *arg)
{
	char	 buf[1024];
	size_t	 i;

	for (i = 0; i < config_nkeys; i++) {
		if (config_keys[i].kind == V_SECRET)
			continue;
		key_value(cfg, &config_keys[i], buf, sizeof buf);
		cb(arg, config_keys[i].name, buf);
	}
}

void
config_forget_password(struct config *cfg)
{
	if (cfg->requirepass == NULL)
		return;
	explicit_bzero(cfg->requirepass, strlen(cfg->requirepass));
	free(cfg->requirepass);
	cfg->requirepass = NULL;
}

void
config_usage(FILE *f)
{
	size_t	 i;

	for (i = 0; i < config_nkeys; i++)
		fprintf(f, "  --%s %s\n\t%s\n", config_keys[i].name,
		    config_keys[i].arg, config_keys[i].help);
}
