/*
 * Configuration.  Every key has one entry in the sorted keys[] table with
 * its parser; the file and the command line both go through config_set,
 * so a key behaves the same wherever it is written.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "net/config.h"
#include "net/log.h"
#include "util/util.h"

typedef int (*config_setter)(struct config *, int, char **, const char **);

struct config_key {
	const char	*name;
	config_setter	 set;
	int		 multi;		/* takes one value or more */
	const char	*arg;		/* value syntax, for --help */
	const char	*help;		/* meaning (default) */
};

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

static int
k_busy_timeout(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, 60000, &cfg->busy_timeout, why);
}

static int
k_game_cache(struct config *cfg, int argc, char **argv, const char **why)
{
	(void)argc;
	return get_int(argv[0], 0, STORE_GAME_CACHE_MAX, &cfg->game_cache,
	    why);
}

static int
k_bind(struct config *cfg, int argc, char **argv, const char **why)
{
	int	 i;

	for (i = 0; i < argc; i++)
		if (argv[i][0] == '\0') {
			*why = "empty address";
			return -1;
		}
	/* The first bind of the file, or of the flags, replaces the list. */
	if (cfg->bind_fresh) {
		for (i = 0; i < cfg->nbind; i++)
			free(cfg->bind[i]);
		cfg->nbind = 0;
		cfg->bind_fresh = 0;
	}
	cfg->bind = xrealloc(cfg->bind, (size_t)(cfg->nbind + argc) *
	    sizeof *cfg->bind);
	for (i = 0; i < argc; i++)
		cfg->bind[cfg->nbind++] = xstrdup(argv[i]);
	return 0;
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

static int
k_port(struct config *cfg, int argc, char **argv, const char **why)
{
	int64_t	 v;

	(void)argc;
	if (get_int(argv[0], 0, 65535, &v, why) == -1)
		return -1;
	cfg->port = (int)v;
	return 0;
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

static int
k_require_seats(struct config *cfg, int argc, char **argv,
    const char **why)
{
	(void)argc;
	if (strcmp(argv[0], "yes") == 0)
		cfg->require_seats = 1;
	else if (strcmp(argv[0], "no") == 0)
		cfg->require_seats = 0;
	else {
		*why = "must be yes or no";
		return -1;
	}
	return 0;
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

/* Sorted by name: looked up with bsearch. */
static const struct config_key keys[] = {
	{ "batch-max-turns", k_batch_max_turns, 0, "N",
	  "writes sharing one commit at most (256; 1 = one each)" },
	{ "batch-max-usec", k_batch_max_usec, 0, "USEC",
	  "age at which a batch commits mid-pass (2000; 0 = none)" },
	{ "bind", k_bind, 1, "ADDR...",
	  "addresses to listen on, IPv4 or IPv6 (127.0.0.1)" },
	{ "busy-timeout", k_busy_timeout, 0, "MSEC",
	  "wait for another process's write lock (100)" },
	{ "client-output-limit", k_client_output_limit, 0, "BYTES",
	  "pending output that drops a client (64mb; 0 = none)" },
	{ "db", k_db, 0, "FILE",
	  "SQLite database, created if missing (ludus.db)" },
	{ "durability", k_durability, 0, "MODE",
	  "full, normal or off: fsync policy of commits (full)" },
	{ "game-cache", k_game_cache, 0, "N",
	  "games kept in memory, 512 bytes each (16384; 0 = none)" },
	{ "logfile", k_logfile, 0, "FILE",
	  "log file, reopened on SIGHUP (\"\" = stderr)" },
	{ "loglevel", k_loglevel, 0, "LEVEL",
	  "debug, info, notice or warning (notice)" },
	{ "maxclients", k_maxclients, 0, "N",
	  "connections served at once (10000)" },
	{ "pidfile", k_pidfile, 0, "FILE",
	  "write the process id here (\"\" = none)" },
	{ "port", k_port, 0, "PORT",
	  "TCP port (7420; 0 = any free port, see portfile)" },
	{ "portfile", k_portfile, 0, "FILE",
	  "write the port listened on here once ready" },
	{ "proto-max-args", k_proto_max_args, 0, "N",
	  "arguments in one request (1048576)" },
	{ "proto-max-bulk-len", k_proto_max_bulk_len, 0, "BYTES",
	  "length of one argument (512mb)" },
	{ "proto-max-inline", k_proto_max_inline, 0, "BYTES",
	  "length of one inline command line (64kb)" },
	{ "require-seats", k_require_seats, 0, "yes|no",
	  "every new game is seats=secure (no)" },
	{ "shutdown-timeout", k_shutdown_timeout, 0, "SECONDS",
	  "time given to clients to read replies on stop (5)" },
	{ "store", k_store, 0, "URI",
	  "the store: a SQLite path, sqlite:PATH or postgresql://... (db)" },
	{ "timeout", k_timeout, 0, "SECONDS",
	  "close a client idle this long (0 = never)" },
};

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
	return bsearch(name, keys, sizeof keys / sizeof keys[0],
	    sizeof keys[0], key_cmp);
}

/* ------------------------------------------------------------- the API */

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
	cfg->timeout = 0;
	cfg->output_limit = 64LL * 1024 * 1024;
	cfg->shutdown_timeout = 5;
	cfg->pidfile = xstrdup("");
	cfg->portfile = xstrdup("");
	cfg->limits.max_inline = RESP_DEFAULT_MAX_INLINE;
	cfg->limits.max_args = RESP_DEFAULT_MAX_ARGS;
	cfg->limits.max_bulk = RESP_DEFAULT_MAX_BULK;
}

void
config_free(struct config *cfg)
{
	int	 i;

	for (i = 0; i < cfg->nbind; i++)
		free(cfg->bind[i]);
	free(cfg->bind);
	free(cfg->db);
	free(cfg->store);
	free(cfg->logfile);
	free(cfg->pidfile);
	free(cfg->portfile);
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
	cfg->bind_fresh = 1;
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

/*
 * A usage error is one line that says what was wrong and where the whole
 * usage is, not the usage itself: that would push the error off screen.
 */
#define USAGE_HINT	"(ludusd --help lists them)"

/* The values of a flag run up to the next argument starting with "--". */
static int
flag_values(int argc, char **argv, int i)
{
	int	 j;

	for (j = i + 1; j < argc; j++)
		if (strncmp(argv[j], "--", 2) == 0)
			break;
	return j - i - 1;
}

/* First pass: the actions, and the config file to load before flags. */
static int
scan_args(int argc, char **argv, const char **file,
    enum config_action *action, char *err, size_t errlen)
{
	int	 i;

	*file = NULL;
	*action = CONFIG_RUN;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			*action = CONFIG_HELP;
			return 0;
		}
		if (strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0) {
			*action = CONFIG_VERSION;
			return 0;
		}
		if (strcmp(a, "--test-config") == 0)
			*action = CONFIG_TEST;
		else if (strcmp(a, "--config") == 0) {
			if (i + 1 >= argc || *file != NULL) {
				snprintf(err, errlen, "--config: %s",
				    *file != NULL ? "one config file only" :
				    "needs a file name");
				return -1;
			}
			*file = argv[++i];
		} else if (strncmp(a, "--", 2) == 0)
			i += flag_values(argc, argv, i);
		else if (a[0] == '-' && a[1] != '\0') {
			snprintf(err, errlen, "unknown option '%s' " USAGE_HINT,
			    a);
			return -1;
		} else if (*file == NULL)
			*file = a;
		else {
			snprintf(err, errlen, "unexpected argument '%s' "
			    "(ludusd --help shows the usage)", a);
			return -1;
		}
	}
	return 0;
}

int
config_from_args(struct config *cfg, int argc, char **argv,
    enum config_action *action, char *err, size_t errlen)
{
	const char	*file, *why;
	int		 i, n;

	if (scan_args(argc, argv, &file, action, err, errlen) == -1)
		return -1;
	if (*action == CONFIG_HELP || *action == CONFIG_VERSION)
		return 0;
	if (file != NULL && config_load_file(cfg, file, err, errlen) == -1)
		return -1;
	cfg->bind_fresh = 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--", 2) != 0 ||
		    strcmp(argv[i], "--test-config") == 0)
			continue;
		n = flag_values(argc, argv, i);
		if (key_find(argv[i] + 2) == NULL) {
			snprintf(err, errlen, "unknown option '%s' " USAGE_HINT,
			    argv[i]);
			return -1;
		}
		if (config_set(cfg, argv[i] + 2, n, argv + i + 1, &why) == -1) {
			snprintf(err, errlen, "%s: %s", argv[i], why);
			return -1;
		}
		i += n;
	}
	return 0;
}

void
config_usage(FILE *f)
{
	size_t	 i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		fprintf(f, "  --%s %s\n\t%s\n", keys[i].name, keys[i].arg,
		    keys[i].help);
}
