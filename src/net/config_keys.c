/*
 * The configuration's keys: one entry each in the sorted config_keys[]
 * table, with its parser, its --help text and how CONFIG GET shows it
 * (config_int.h).  Looking keys up, loading the file and showing the
 * values is config.c's.
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

#define AT(f)		offsetof(struct config, f)
#define RETENTION_MAX	(36500LL * 86400)	/* a hundred years, in s */

/* ---------------------------------------------------------- value parsers */

static int
set_string(char **slot, char *value)
{
	free(*slot);
	*slot = xstrdup(value);
	return 0;
}

static int
get_int(const char *s, int64_t min, int64_t max, int64_t *out,
    const char **why)
{
	const char	*errstr;

	if (parse_int64(s, min, max, out, &errstr) == 0)
		return 0;
	if (strcmp(errstr, "invalid") == 0)
		*why = "not an integer";
	else
		*why = "out of range";
	return -1;
}

/*
 * A byte count with an optional unit, as redis.conf writes them: k, m, g
 * are powers of 1000, kb, mb, gb powers of 1024.
 */
static int
get_bytes(const char *s, int64_t min, int64_t max, int64_t *out,
    const char **why)
{
	static const struct {
		const char	*unit;
		int64_t		 mult;
	} units[] = {
		{ "", 1 }, { "k", 1000 }, { "kb", 1024 },
		{ "m", 1000 * 1000 }, { "mb", 1024 * 1024 },
		{ "g", 1000 * 1000 * 1000 }, { "gb", 1024 * 1024 * 1024 }
	};
	char		 num[32];
	size_t		 n, i;
	int64_t		 v;

	n = strspn(s, "-0123456789");
	if (n == 0 || n >= sizeof num) {
		*why = "not a byte count (e.g. 64mb)";
		return -1;
	}
	memcpy(num, s, n);
	num[n] = '\0';
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcaseeq(s + n, units[i].unit))
			break;
	if (i == sizeof units / sizeof units[0]) {
		*why = "unknown unit (use k, kb, m, mb, g or gb)";
		return -1;
	}
	if (get_int(num, 0, INT64_MAX / units[i].mult, &v, why) == -1)
		return -1;
	v *= units[i].mult;
	if (v < min || v > max) {
		*why = "out of range";
		return -1;
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------------ the keys */

static int
k_batch_max_turns(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 1000000, &cfg->batch_max_turns, why);
}

static int
k_batch_max_usec(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 10000000, &cfg->batch_max_usec, why);
}

/* A pause before each move the server plays, so that people can follow
 * a game of bots; at most an hour. */
static int
k_bot_delay(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 3600000, &cfg->bot_delay, why);
}

static int
k_busy_timeout(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 60000, &cfg->busy_timeout, why);
}

/*
 * The game cache sized by memory rather than by games: as many entries
 * as fit in the bytes given (slots and buckets), the same setting as
 * game-cache (whichever comes last wins), so that an operator gives it
 * the memory the machine can spare without counting entries.
 */
static int
k_cache_memory(struct config *cfg, int argc, char **argv, const char **why)
{
	int64_t	 bytes;

	(void)argc;
	if (get_bytes(argv[0], 0, store_game_cache_bytes(STORE_GAME_CACHE_MAX),
	    &bytes, why) == -1)
		return -1;
	cfg->game_cache = store_game_cache_games(bytes);
	return 0;
}

static int
k_game_cache(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, STORE_GAME_CACHE_MAX, &cfg->game_cache,
	    why);
}

/*
 * A key of several values (bind, http-host): the first of the file, or
 * of the flags, replaces the list; later ones add to it.
 */
static int
set_list(char ***list, int *n, int *fresh, int argc, char **argv,
    const char *empty, const char **why)
{
	int	 i;

	for (i = 0; i < argc; i++)
		if (argv[i][0] == '\0') {
			*why = empty;
			return -1;
		}
	if (*fresh) {
		for (i = 0; i < *n; i++)
			free((*list)[i]);
		*n = 0;
		*fresh = 0;
	}
	*list = xrealloc(*list, (size_t)(*n + argc) * sizeof **list);
	for (i = 0; i < argc; i++)
		(*list)[(*n)++] = xstrdup(argv[i]);
	return 0;
}

static int
k_bind(struct config *cfg, int argc, char **argv, const char **why)
{
	return set_list(&cfg->bind, &cfg->nbind, &cfg->bind_fresh, argc, argv,
	    "empty address", why);
}

static int
k_client_output_limit(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bytes(argv[0], 0, INT64_MAX, &cfg->output_limit, why);
}

static int
k_db(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	if (argv[0][0] == '\0') {
		*why = "empty path";
		return -1;
	}
	free(cfg->store);
	cfg->store = NULL;
	return set_string(&cfg->db, argv[0]);
}

/* A URI names the store; --db FILE is the same as --store FILE.  The
 * password of a PostgreSQL URI stays out of INFO and the log. */
static int
k_store(struct config *cfg, int argc, char **argv, const char **why)
{
	char	 shown[512];

	(void)argc;
	if (argv[0][0] == '\0') {
		*why = "empty URI";
		return -1;
	}
	if (!store_uri_is_pg(argv[0]))
		return k_db(cfg, argc, argv, why);
	store_uri_shown(argv[0], shown, sizeof(shown));
	set_string(&cfg->db, shown);
	return set_string(&cfg->store, argv[0]);
}

static int
k_durability(struct config *cfg, int argc, char **argv, const char **why)
{
	int	 d;

	(void)argc;
	if ((d = durability_parse(argv[0])) == -1) {
		*why = "must be full, normal or off";
		return -1;
	}
	cfg->durability = (enum durability)d;
	return 0;
}

/* The quotas (quota.c): integers in a range, 0 no cap (but MULTI's). */
#define INT_KEY(fn, field, lo, hi)					\
static int								\
fn(struct config *cfg, int argc, char **argv, const char **why)	\
{									\
	(void)argc;							\
	return get_int(argv[0], (lo), (hi), &cfg->field, why);		\
}
INT_KEY(k_create_rate, create_rate, 0, 1000000)
INT_KEY(k_http_create_rate, http_create_rate, 0, 1000000)
INT_KEY(k_max_games, max_games, 0, INT64_MAX)

INT_KEY(k_max_subscriptions, max_subscriptions, 0, INT_MAX)
INT_KEY(k_multi_max_commands, multi_max_commands, 1, 1000000)
INT_KEY(k_max_tickets, max_tickets, 0, 1000000)
/* The matchmaker (lobby.c): a run at least every 10 ms, at most every
 * minute; windows and their widening in rating points. */
INT_KEY(k_match_interval, match_interval, 10, 60000)
INT_KEY(k_match_window, match_window, 0, 100000)
INT_KEY(k_match_widen, match_widen, 0, 100000)

/* ----------------------------------------------- HTTP (http/http.c) */

/* HTTP (web side): the origins a browser may write from besides ours,
 * and who gets CORS headers; none unless listed. */
static int
k_http_allow_origin(struct config *cfg, int argc, char **argv,
    const char **why)
{
	return set_list(&cfg->http_allow_origin, &cfg->nhttp_allow_origin,
	    &cfg->http_allow_origin_fresh, argc, argv, "empty origin", why);
}

/* HTTP (web side): an event stream's heartbeat, and the output a reader
 * may leave unread before it is dropped (it resumes by Last-Event-ID):
 * at least what the events of one group commit take (256 moves of some
 * 120 bytes), which a reader that keeps up has not taken yet either. */
static int
k_http_event_buffer(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bytes(argv[0], 16384, 1LL << 30, &cfg->http_event_buffer,
	    why);
}

static int
k_http_event_heartbeat(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 3600, &cfg->http_event_heartbeat, why);
}

static int
k_http_host(struct config *cfg, int argc, char **argv, const char **why)
{
	return set_list(&cfg->http_host, &cfg->nhttp_host,
	    &cfg->http_host_fresh, argc, argv, "empty name", why);
}

static int
k_http_max_body(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_bytes(argv[0], 0, 1LL << 30, &cfg->http_max_body, why);
}

static int
k_http_max_header(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bytes(argv[0], 256, 1LL << 24, &cfg->http_max_header, why);
}

static int
k_http_maxclients(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 1000000, &cfg->http_maxclients, why);
}

static int
k_http_maxclients_per_address(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 1000000, &cfg->http_maxclients_per_address,
	    why);
}

static int
k_http_port(struct config *cfg, int argc, char **argv, const char **why)
{
	int64_t	 v;

	(void)argc;
	if (strcmp(argv[0], "any") == 0) {
		cfg->http_port = HTTP_PORT_ANY;
		return 0;
	}
	if (get_int(argv[0], 0, 65535, &v, why) == -1)
		return -1;
	cfg->http_port = (int)v;
	return 0;
}

static int
k_http_portfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->http_portfile, argv[0]);
}

static int
k_http_timeout(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 3600, &cfg->http_timeout, why);
}

static int
k_logfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->logfile, argv[0]);
}

static int
k_loglevel(struct config *cfg, int argc, char **argv, const char **why)
{
	int	 l;

	(void)argc;
	if ((l = log_level_parse(argv[0])) == -1) {
		*why = "must be debug, info, notice or warning";
		return -1;
	}
	cfg->loglevel = l;
	return 0;
}

static int
k_maxclients(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, 1000000, &cfg->maxclients, why);
}

static int
k_pidfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->pidfile, argv[0]);
}

/* A TCP port, or the word that stands for "word_value". */
static int
get_port(const char *s, const char *word, int word_value, int *port,
    const char **why)
{
	int64_t	 v;

	if (strcmp(s, word) == 0) {
		*port = word_value;
		return 0;
	}
	if (get_int(s, 0, 65535, &v, why) == -1)
		return -1;
	*port = (int)v;
	return 0;
}

/* 0 is any free port, "off" none. */
static int
k_port(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_port(argv[0], "off", PORT_OFF, &cfg->port, why);
}

static int
k_portfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->portfile, argv[0]);
}

static int
k_proto_max_args(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 1, INT_MAX, &cfg->limits.max_args, why);
}

static int
k_proto_max_bulk_len(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bytes(argv[0], 1, 1LL << 32, &cfg->limits.max_bulk, why);
}

static int
k_proto_max_inline(struct config *cfg, int argc, char **argv,
    const char **why)
{
	int64_t	 v;

	(void)argc;
	if (get_bytes(argv[0], 16, 1LL << 30, &v, why) == -1)
		return -1;
	cfg->limits.max_inline = (size_t)v;
	return 0;
}

/*
 * The server's one password: RESP clients AUTH with it before anything
 * else, HTTP writes give it as their bearer token; "" for none.  The
 * daemon keeps only its keyed hash (auth.c).
 */
static int
k_requirepass(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->requirepass, argv[0]);
}

static int
get_bool(const char *s, int *out, const char **why)
{
	if (strcmp(s, "yes") == 0)
		*out = 1;
	else if (strcmp(s, "no") == 0)
		*out = 0;
	else {
		*why = "must be yes or no";
		return -1;
	}
	return 0;
}

/* A duration: seconds, or a number of s, m, h or d, up to a hundred
 * years; "off" is 0 where off_ok. */
static int
get_duration(const char *s, int off_ok, int64_t *out, const char **why)
{
	static const struct { char unit; int64_t secs; } units[] = {
	    { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	const char	*err, *what;
	char		 num[24];
	size_t		 n = strlen(s), i;
	int64_t		 v, mult = 1;

	what = off_ok ? "must be off, or seconds, or a number of s, m, h or d" :
	    "must be seconds, or a number of s, m, h or d";
	if (off_ok && strcmp(s, "off") == 0) {
		*out = 0;
		return 0;
	}
	for (i = 0; n > 0 && i < sizeof(units) / sizeof(units[0]); i++)
		if (s[n - 1] == units[i].unit) {
			mult = units[i].secs;
			n--;
		}
	if (n == 0 || n >= sizeof(num)) {
		*why = what;
		return -1;
	}
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_int64(num, off_ok ? 0 : 1, RETENTION_MAX / mult, &v,
	    &err) != 0) {
		*why = strcmp(err, "too large") == 0 ? "out of range (at most "
		    "36500d)" : !off_ok && strcmp(err, "too small") == 0 ?
		    "must be 1 s at least" : what;
		return -1;
	}
	*out = v * mult;
	return 0;
}

static int
k_finished_retention(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_duration(argv[0], 1, &cfg->finished_retention, why);
}

/* Never off: an archive that is never closed grows for ever. */
static int
k_finished_archive_roll(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_duration(argv[0], 0, &cfg->finished_archive_roll, why);
}

static int
k_finished_archive(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->finished_archive, argv[0]);
}

static int
k_max_games_finished(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bool(argv[0], &cfg->max_games_finished, why);
}

static int
k_require_seats(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bool(argv[0], &cfg->require_seats, why);
}

static int
k_protected_mode(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_bool(argv[0], &cfg->protected_mode, why);
}

static int
k_shutdown_timeout(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 3600, &cfg->shutdown_timeout, why);
}

static int
k_timeout(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 365 * 86400, &cfg->timeout, why);
}

static int
k_tls_auth_clients(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	if (strcmp(argv[0], "no") == 0)
		cfg->tls_auth_clients = TLS_AUTH_NO;
	else if (strcmp(argv[0], "optional") == 0)
		cfg->tls_auth_clients = TLS_AUTH_OPTIONAL;
	else if (strcmp(argv[0], "yes") == 0)
		cfg->tls_auth_clients = TLS_AUTH_YES;
	else {
		*why = "must be yes, no or optional";
		return -1;
	}
	return 0;
}

static int
k_tls_ca_cert_file(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->tls_ca_cert_file, argv[0]);
}

static int
k_tls_cert_file(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->tls_cert_file, argv[0]);
}

static int
k_tls_key_file(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->tls_key_file, argv[0]);
}

/* As http-port (and Redis's tls-port): 0 is none, "any" any free port. */
static int
k_tls_port(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_port(argv[0], "any", TLS_PORT_ANY, &cfg->tls_port, why);
}

static int
k_tls_portfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->tls_portfile, argv[0]);
}

/* HTTPS as tls-port: 0 is none, "any" any free port. */
static int
k_https_port(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_port(argv[0], "any", TLS_PORT_ANY, &cfg->https_port, why);
}

static int
k_https_portfile(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	(void)why;
	return set_string(&cfg->https_portfile, argv[0]);
}

/* Sorted by name: looked up with bsearch. */
const struct config_key config_keys[] = {
	{ "batch-max-turns", k_batch_max_turns, 0, "N",
	  "writes sharing one commit at most (256; 1 = one each)",
	  V_INT64, AT(batch_max_turns) },
	{ "batch-max-usec", k_batch_max_usec, 0, "USEC",
	  "age at which a batch commits mid-pass (2000; 0 = none)",
	  V_INT64, AT(batch_max_usec) },
	{ "bind", k_bind, 1, "ADDR...",
	  "addresses to listen on, IPv4 or IPv6 (127.0.0.1)",
	  V_OTHER, 0 },
	{ "bot-delay", k_bot_delay, 0, "MSEC",
	  "pause before each move the server plays (300; 0 = at once)",
	  V_INT64, AT(bot_delay) },
	{ "busy-timeout", k_busy_timeout, 0, "MSEC",
	  "wait for another process's write lock (100)",
	  V_INT64, AT(busy_timeout) },
	{ "cache-memory", k_cache_memory, 0, "BYTES",
	  "the game cache in bytes: as many games as fit (8.1 MB; 0 = none)",
	  V_OTHER, 0 },
	{ "client-output-limit", k_client_output_limit, 0, "BYTES",
	  "pending output that drops a client (64mb; 0 = none)",
	  V_INT64, AT(output_limit) },
	{ "create-rate", k_create_rate, 0, "N",
	  "games, accounts, tickets a RESP connection may make a minute (0 = no cap)",
	  V_INT64, AT(create_rate) },
	{ "db", k_db, 0, "FILE",
	  "SQLite database, created if missing (ludus.db)",
	  V_STR, AT(db) },
	{ "durability", k_durability, 0, "MODE",
	  "full, normal or off: fsync policy of commits (full)",
	  V_OTHER, 0 },
	{ "finished-archive", k_finished_archive, 0, "DIR",
	  "where finished-retention writes its archives (.; \"\" = none)",
	  V_STR, AT(finished_archive) },
	{ "finished-archive-roll", k_finished_archive_roll, 0, "TIME",
	  "an archive is closed, a new one begun, once open this long (1h)",
	  V_INT64, AT(finished_archive_roll) },
	{ "finished-retention", k_finished_retention, 0, "TIME",
	  "archive, then delete, games finished this long ago (off)",
	  V_INT64, AT(finished_retention) },
	{ "game-cache", k_game_cache, 0, "N",
	  "games kept in memory, 512 bytes each (16384; 0 = none)",
	  V_INT64, AT(game_cache) },
	{ "http-allow-origin", k_http_allow_origin, 1, "ORIGIN...",
	  "origins that may use the HTTP API from a browser (none)",
	  V_OTHER, 0 },
	{ "http-create-rate", k_http_create_rate, 0, "N",
	  "games an HTTP address may create a minute (600; 0 = no cap)",
	  V_INT64, AT(http_create_rate) },
	{ "http-event-buffer", k_http_event_buffer, 0, "BYTES",
	  "unread event stream that drops its reader (1mb)",
	  V_INT64, AT(http_event_buffer) },
	{ "http-event-heartbeat", k_http_event_heartbeat, 0, "SECONDS",
	  "a comment on every event stream this often (15)",
	  V_INT64, AT(http_event_heartbeat) },
	{ "http-host", k_http_host, 1, "NAME...",
	  "names the HTTP Host header may give besides ours (none)",
	  V_OTHER, 0 },
	{ "http-max-body", k_http_max_body, 0, "BYTES",
	  "length of an HTTP request body (64kb)",
	  V_INT64, AT(http_max_body) },
	{ "http-max-header", k_http_max_header, 0, "BYTES",
	  "length of an HTTP request's headers (16kb)",
	  V_INT64, AT(http_max_header) },
	{ "http-maxclients", k_http_maxclients, 0, "N",
	  "HTTP connections served at once (1024)",
	  V_INT64, AT(http_maxclients) },
	{ "http-maxclients-per-address", k_http_maxclients_per_address, 0, "N",
	  "HTTP connections one address holds at once (128)",
	  V_INT64, AT(http_maxclients_per_address) },
	{ "http-port", k_http_port, 0, "PORT",
	  "HTTP port (7421; 0 = no HTTP, any = any free port)",
	  V_OTHER, 0 },
	{ "http-portfile", k_http_portfile, 0, "FILE",
	  "write the HTTP port listened on here once ready",
	  V_STR, AT(http_portfile) },
	{ "http-timeout", k_http_timeout, 0, "SECONDS",
	  "time for an HTTP request to arrive, and for each I/O (10)",
	  V_INT64, AT(http_timeout) },
	{ "https-port", k_https_port, 0, "PORT",
	  "HTTPS port, with tls-port's certificate (0 = none; any)",
	  V_OTHER, 0 },
	{ "https-portfile", k_https_portfile, 0, "FILE",
	  "write the HTTPS port listened on here once ready",
	  V_STR, AT(https_portfile) },
	{ "logfile", k_logfile, 0, "FILE",
	  "log file, reopened on SIGHUP (\"\" = stderr)",
	  V_STR, AT(logfile) },
	{ "loglevel", k_loglevel, 0, "LEVEL",
	  "debug, info, notice or warning (notice)",
	  V_OTHER, 0 },
	{ "match-interval", k_match_interval, 0, "MSEC",
	  "the matchmaker looks at each queue this often (250)",
	  V_INT64, AT(match_interval) },
	{ "match-widen", k_match_widen, 0, "N",
	  "rating points a ticket's window widens a second (10)",
	  V_INT64, AT(match_widen) },
	{ "match-window", k_match_window, 0, "N",
	  "a new ticket's rating window, either side (100)",
	  V_INT64, AT(match_window) },
	{ "max-games", k_max_games, 0, "N",
	  "games in play at most (0 = no cap)",
	  V_INT64, AT(max_games) },
	{ "max-games-finished", k_max_games_finished, 0, "yes|no",
	  "max-games counts finished games too (no)",
	  V_BOOL, AT(max_games_finished) },
	{ "max-subscriptions", k_max_subscriptions, 0, "N",
	  "channels, patterns, games a connection follows (10000; 0 = no cap)",
	  V_INT64, AT(max_subscriptions) },
	{ "max-tickets", k_max_tickets, 0, "N",
	  "tickets one account may have waiting (10; 0 = no cap)",
	  V_INT64, AT(max_tickets) },
	{ "maxclients", k_maxclients, 0, "N",
	  "connections served at once (10000)",
	  V_INT64, AT(maxclients) },
	{ "multi-max-commands", k_multi_max_commands, 0, "N",
	  "commands one MULTI may queue (10000)",
	  V_INT64, AT(multi_max_commands) },
	{ "pidfile", k_pidfile, 0, "FILE",
	  "write the process id here (\"\" = none)",
	  V_STR, AT(pidfile) },
	{ "port", k_port, 0, "PORT",
	  "TCP port (7420; 0 = any free port, see portfile; off = none)",
	  V_OTHER, 0 },
	{ "portfile", k_portfile, 0, "FILE",
	  "write the port listened on here once ready",
	  V_STR, AT(portfile) },
	{ "protected-mode", k_protected_mode, 0, "yes|no",
	  "refuse to listen beyond loopback without requirepass (yes)",
	  V_BOOL, AT(protected_mode) },
	{ "proto-max-args", k_proto_max_args, 0, "N",
	  "arguments in one request (1048576)",
	  V_INT64, AT(limits.max_args) },
	{ "proto-max-bulk-len", k_proto_max_bulk_len, 0, "BYTES",
	  "length of one argument (512mb)",
	  V_INT64, AT(limits.max_bulk) },
	{ "proto-max-inline", k_proto_max_inline, 0, "BYTES",
	  "length of one inline command line (64kb)",
	  V_SIZE, AT(limits.max_inline) },
	{ "require-seats", k_require_seats, 0, "yes|no",
	  "every new game is seats=secure (no)",
	  V_BOOL, AT(require_seats) },
	{ "requirepass", k_requirepass, 0, "PASSWORD",
	  "clients AUTH with it, HTTP writes bear it (\"\" = none)",
	  V_SECRET, 0 },
	{ "shutdown-timeout", k_shutdown_timeout, 0, "SECONDS",
	  "time given to clients to read replies on stop (5)",
	  V_INT64, AT(shutdown_timeout) },
	{ "store", k_store, 0, "URI",
	  "the store: a SQLite path, sqlite:PATH or postgresql://... (db)",
	  V_STR, AT(db) },
	{ "timeout", k_timeout, 0, "SECONDS",
	  "close a client idle this long (0 = never)",
	  V_INT64, AT(timeout) },
	{ "tls-auth-clients", k_tls_auth_clients, 0, "yes|no|optional",
	  "TLS clients must show a certificate of tls-ca-cert-file (no)",
	  V_OTHER, 0 },
	{ "tls-ca-cert-file", k_tls_ca_cert_file, 0, "FILE",
	  "CA certificates that sign client certificates (\"\" = none)",
	  V_STR, AT(tls_ca_cert_file) },
	{ "tls-cert-file", k_tls_cert_file, 0, "FILE",
	  "the server's certificate chain, PEM, reread on SIGHUP",
	  V_STR, AT(tls_cert_file) },
	{ "tls-key-file", k_tls_key_file, 0, "FILE",
	  "the private key of tls-cert-file, PEM, reread on SIGHUP",
	  V_STR, AT(tls_key_file) },
	{ "tls-port", k_tls_port, 0, "PORT",
	  "TCP port for TLS clients (0 = none; any = any free port)",
	  V_OTHER, 0 },
	{ "tls-portfile", k_tls_portfile, 0, "FILE",
	  "write the TLS port listened on here once ready",
	  V_STR, AT(tls_portfile) },
};

const size_t config_nkeys = sizeof config_keys / sizeof config_keys[0];
