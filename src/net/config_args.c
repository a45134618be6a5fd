/*
 * ludusd's command line: the actions (--help, --version, --test-config),
 * the config file, loaded first, then the --key value flags, each set as
 * the file's keys are (config.c, config_keys.c); and the rules between keys, checked once
 * all are read.
 */
#include <stdio.h>
#include <string.h>

#include "net/config.h"

/*
 * The rules between keys, once all are read: TLS (tls-port, https-port)
 * needs its certificate and key, client certificates a CA to check them with, and a daemon
 * must listen somewhere.
 */
static int
config_check(const struct config *cfg, char *err, size_t errlen)
{
	if ((cfg->tls_port != TLS_PORT_OFF || cfg->https_port !=
	    TLS_PORT_OFF) && (cfg->tls_cert_file[0] == '\0' ||
	    cfg->tls_key_file[0] == '\0')) {
		snprintf(err, errlen, "%s needs tls-cert-file and "
		    "tls-key-file", cfg->tls_port != TLS_PORT_OFF ? "tls-port" :
		    "https-port");
		return -1;
	}
	if (cfg->tls_auth_clients != TLS_AUTH_NO &&
	    cfg->tls_ca_cert_file[0] == '\0') {
		snprintf(err, errlen, "tls-auth-clients %s needs "
		    "tls-ca-cert-file", cfg->tls_auth_clients == TLS_AUTH_YES ?
		    "yes" : "optional");
		return -1;
	}
	if (cfg->port == PORT_OFF && cfg->tls_port == TLS_PORT_OFF) {
		snprintf(err, errlen, "port off needs a tls-port");
		return -1;
	}
	return 0;
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
	cfg->bind_fresh = cfg->http_host_fresh =
	    cfg->http_allow_origin_fresh = 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--config") == 0) {
			i++;
			continue;
		}
		if (strncmp(argv[i], "--", 2) != 0 ||
		    strcmp(argv[i], "--test-config") == 0)
			continue;
		n = flag_values(argc, argv, i);
		if (!config_known(argv[i] + 2)) {
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
	return config_check(cfg, err, errlen);
}
