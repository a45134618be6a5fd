/*
 * ludusd's configuration: defaults, the file (keys, values, line numbers
 * in errors), the flags that override it, and how bind lists combine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "net/config.h"
#include "net/log.h"

static char	 path[64];

/* Writes text to a temporary file named in path. */
static void
write_conf(const char *text)
{
	FILE	*f;
	int	 fd;

	snprintf(path, sizeof path, "/tmp/ludusd-conf.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
from_args(struct config *cfg, enum config_action *action, char *err,
    size_t errlen, ...)
{
	char	*argv[32];
	int	 argc = 0;
	va_list	 ap;

	argv[argc++] = "ludusd";
	va_start(ap, errlen);
	while ((argv[argc] = va_arg(ap, char *)) != NULL && argc < 31)
		argc++;
	va_end(ap);
	return config_from_args(cfg, argc, argv, action, err, errlen);
}
#define FROM_ARGS(cfg, act, err, ...) \
	from_args(cfg, act, err, sizeof err, __VA_ARGS__, (char *)NULL)

static void
test_config_init_defaults(void **state)
{
	struct config	 cfg;

	(void)state;
	config_init(&cfg);
	assert_int_equal(cfg.nbind, 1);
	assert_string_equal(cfg.bind[0], "127.0.0.1");
	assert_int_equal(cfg.port, 7420);
	assert_string_equal(cfg.db, "ludus.db");
	assert_int_equal(cfg.durability, DURABILITY_FULL);
	assert_string_equal(cfg.logfile, "");
	assert_int_equal(cfg.loglevel, LL_NOTICE);
	assert_int_equal(cfg.maxclients, 10000);
	assert_int_equal(cfg.timeout, 0);
	assert_int_equal(cfg.output_limit, 64 * 1024 * 1024);
	assert_int_equal(cfg.limits.max_inline, 64 * 1024);
	assert_int_equal(cfg.batch_max_turns, 256);
	assert_int_equal(cfg.batch_max_usec, 2000);
	assert_int_equal(cfg.busy_timeout, 100);
	assert_int_equal(cfg.game_cache, 16384);
	config_free(&cfg);
}

static void
test_config_set_values(void **state)
{
	struct config	 cfg;
	const char	*why;
	char		*v[2];

	(void)state;
	config_init(&cfg);
	v[0] = "1k";
	assert_int_equal(config_set(&cfg, "client-output-limit", 1, v, &why),
	    0);
	assert_int_equal(cfg.output_limit, 1000);
	v[0] = "2MB";
	assert_int_equal(config_set(&cfg, "CLIENT-OUTPUT-LIMIT", 1, v, &why),
	    0);
	assert_int_equal(cfg.output_limit, 2 * 1024 * 1024);
	v[0] = "12xb";
	assert_int_equal(config_set(&cfg, "client-output-limit", 1, v, &why),
	    -1);
	v[0] = "normal";
	assert_int_equal(config_set(&cfg, "durability", 1, v, &why), 0);
	assert_int_equal(cfg.durability, DURABILITY_NORMAL);
	v[0] = "debug";
	assert_int_equal(config_set(&cfg, "loglevel", 1, v, &why), 0);
	assert_int_equal(cfg.loglevel, LL_DEBUG);
	v[0] = "0";
	assert_int_equal(config_set(&cfg, "port", 1, v, &why), 0);
	assert_int_equal(cfg.port, 0);
	v[0] = "65536";
	assert_int_equal(config_set(&cfg, "port", 1, v, &why), -1);
	assert_string_equal(why, "out of range");
	v[0] = "07";
	assert_int_equal(config_set(&cfg, "port", 1, v, &why), -1);
	assert_string_equal(why, "not an integer");
	v[0] = "0";
	assert_int_equal(config_set(&cfg, "maxclients", 1, v, &why), -1);
	v[0] = "1";
	v[1] = "2";
	assert_int_equal(config_set(&cfg, "timeout", 2, v, &why), -1);
	assert_string_equal(why, "needs exactly one value");
	assert_int_equal(config_set(&cfg, "nosuch", 1, v, &why), -1);
	assert_string_equal(why, "unknown key");
	/* Group commit and the lock wait (found in the sorted table). */
	v[0] = "1";
	assert_int_equal(config_set(&cfg, "batch-max-turns", 1, v, &why), 0);
	assert_int_equal(cfg.batch_max_turns, 1);
	v[0] = "0";
	assert_int_equal(config_set(&cfg, "batch-max-turns", 1, v, &why), -1);
	assert_string_equal(why, "out of range");
	assert_int_equal(config_set(&cfg, "batch-max-usec", 1, v, &why), 0);
	assert_int_equal(cfg.batch_max_usec, 0);
	v[0] = "-1";
	assert_int_equal(config_set(&cfg, "batch-max-usec", 1, v, &why), -1);
	v[0] = "250";
	assert_int_equal(config_set(&cfg, "busy-timeout", 1, v, &why), 0);
	assert_int_equal(cfg.busy_timeout, 250);
	v[0] = "60001";
	assert_int_equal(config_set(&cfg, "busy-timeout", 1, v, &why), -1);
	/* The game cache: 0 turns it off. */
	v[0] = "0";
	assert_int_equal(config_set(&cfg, "game-cache", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, 0);
	v[0] = "16777216";
	assert_int_equal(config_set(&cfg, "game-cache", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, STORE_GAME_CACHE_MAX);
	v[0] = "16777217";
	assert_int_equal(config_set(&cfg, "game-cache", 1, v, &why), -1);
	assert_string_equal(why, "out of range");
	/* ... or by its memory: as many games as fit, slots and buckets. */
	v[0] = "1gb";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), 0);
	assert_true(cfg.game_cache > 2000000);
	assert_true(store_game_cache_bytes(cfg.game_cache) <= 1LL << 30);
	assert_true(store_game_cache_bytes(cfg.game_cache + 1) > 1LL << 30);
	/* The default's size is the default's count. */
	v[0] = "8454200";
	assert_int_equal(store_game_cache_bytes(STORE_GAME_CACHE_DEFAULT),
	    8454200);
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, STORE_GAME_CACHE_DEFAULT);
	v[0] = "8454199";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, STORE_GAME_CACHE_DEFAULT - 1);
	/* Less than one entry's worth is none; the last key written wins. */
	v[0] = "100";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, 0);
	v[0] = "20";
	assert_int_equal(config_set(&cfg, "game-cache", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, 20);
	v[0] = "0";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), 0);
	assert_int_equal(cfg.game_cache, 0);
	v[0] = "9gb";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), -1);
	assert_string_equal(why, "out of range");
	v[0] = "-1";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), -1);
	assert_int_equal(cfg.game_cache, 0);
	v[0] = "lots";
	assert_int_equal(config_set(&cfg, "cache-memory", 1, v, &why), -1);
	assert_int_equal(cfg.game_cache, 0);
	config_free(&cfg);
}

static void
test_config_load_file_binds_and_comments(void **state)
{
	struct config	 cfg;
	char		 err[256];

	(void)state;
	write_conf("# comment\n\n  # indented comment\nbind ::1\n"
	    "bind 10.0.0.1 \"10.0.0.2\"\nport 7500\nlogfile \"\"\n");
	config_init(&cfg);
	assert_int_equal(config_load_file(&cfg, path, err, sizeof err), 0);
	assert_int_equal(cfg.nbind, 3);
	assert_string_equal(cfg.bind[0], "::1");
	assert_string_equal(cfg.bind[2], "10.0.0.2");
	assert_int_equal(cfg.port, 7500);
	assert_string_equal(cfg.logfile, "");
	config_free(&cfg);
	unlink(path);
}

static void
test_config_load_file_names_the_line(void **state)
{
	struct config	 cfg;
	char		 err[256], want[128];

	(void)state;
	write_conf("port 7421\n# two\ndurability maybe\n");
	config_init(&cfg);
	assert_int_equal(config_load_file(&cfg, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:3: durability: must be full, "
	    "normal or off", path);
	assert_string_equal(err, want);
	config_free(&cfg);
	unlink(path);
	write_conf("bind \"unbalanced\n");
	config_init(&cfg);
	assert_int_equal(config_load_file(&cfg, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s:1: unbalanced quotes", path);
	assert_string_equal(err, want);
	config_free(&cfg);
	unlink(path);
}

static void
test_config_from_args_flags_override_file(void **state)
{
	struct config		 cfg;
	enum config_action	 act;
	char			 err[256];

	(void)state;
	write_conf("port 7500\nbind 10.0.0.1\ndb file.db\n");
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, path, "--port", "7600",
	    "--bind", "::1", "127.0.0.1", "--bind", "10.1.1.1"), 0);
	assert_int_equal(act, CONFIG_RUN);
	assert_int_equal(cfg.port, 7600);
	assert_string_equal(cfg.db, "file.db");
	/* The flags' binds replace the file's, then add up. */
	assert_int_equal(cfg.nbind, 3);
	assert_string_equal(cfg.bind[0], "::1");
	assert_string_equal(cfg.bind[2], "10.1.1.1");
	config_free(&cfg);
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--test-config",
	    "--config", path), 0);
	assert_int_equal(act, CONFIG_TEST);
	assert_int_equal(cfg.port, 7500);
	config_free(&cfg);
	unlink(path);
}

static void
test_config_from_args_errors(void **state)
{
	struct config		 cfg;
	enum config_action	 act;
	char			 err[256];

	(void)state;
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--prot", "1"), -1);
	assert_string_equal(err,
	    "unknown option '--prot' (ludusd --help lists them)");
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "-x"), -1);
	assert_string_equal(err,
	    "unknown option '-x' (ludusd --help lists them)");
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--port"), -1);
	assert_string_equal(err, "--port: needs exactly one value");
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "a.conf", "b.conf"), -1);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "/nonexistent/x.conf"),
	    -1);
	assert_non_null(strstr(err, "/nonexistent/x.conf"));
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--port", "x", "--help"),
	    0);
	assert_int_equal(act, CONFIG_HELP);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--version"), 0);
	assert_int_equal(act, CONFIG_VERSION);
	config_free(&cfg);
}

static void
test_config_tls_keys(void **state)
{
	struct config		 cfg;
	enum config_action	 act;
	char			 err[256];
	const char		*why;
	char			*v[1];

	(void)state;
	config_init(&cfg);
	assert_int_equal(cfg.tls_port, TLS_PORT_OFF);
	assert_int_equal(cfg.tls_auth_clients, TLS_AUTH_NO);
	v[0] = "optional";
	assert_int_equal(config_set(&cfg, "tls-auth-clients", 1, v, &why), 0);
	assert_int_equal(cfg.tls_auth_clients, TLS_AUTH_OPTIONAL);
	v[0] = "maybe";
	assert_int_equal(config_set(&cfg, "tls-auth-clients", 1, v, &why),
	    -1);
	assert_string_equal(why, "must be yes, no or optional");
	v[0] = "off";
	assert_int_equal(config_set(&cfg, "port", 1, v, &why), 0);
	assert_int_equal(cfg.port, PORT_OFF);
	v[0] = "any";
	assert_int_equal(config_set(&cfg, "tls-port", 1, v, &why), 0);
	assert_int_equal(cfg.tls_port, TLS_PORT_ANY);
	v[0] = "7443";
	assert_int_equal(config_set(&cfg, "tls-port", 1, v, &why), 0);
	assert_int_equal(cfg.tls_port, 7443);
	v[0] = "off";
	assert_int_equal(config_set(&cfg, "tls-port", 1, v, &why), -1);
	config_free(&cfg);

	/* The rules between keys. */
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--tls-port", "7443"), -1);
	assert_string_equal(err, "tls-port needs tls-cert-file and "
	    "tls-key-file");
	config_free(&cfg);
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--tls-port", "7443",
	    "--tls-cert-file", "c.pem", "--tls-key-file", "k.pem",
	    "--tls-auth-clients", "yes"), -1);
	assert_string_equal(err, "tls-auth-clients yes needs tls-ca-cert-file");
	config_free(&cfg);
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--port", "off"), -1);
	assert_string_equal(err, "port off needs a tls-port");
	config_free(&cfg);
	config_init(&cfg);
	assert_int_equal(FROM_ARGS(&cfg, &act, err, "--port", "off",
	    "--tls-port", "7443", "--tls-cert-file", "c.pem",
	    "--tls-key-file", "k.pem", "--tls-ca-cert-file", "ca.pem",
	    "--tls-auth-clients", "yes"), 0);
	assert_string_equal(cfg.tls_ca_cert_file, "ca.pem");
	assert_int_equal(cfg.tls_auth_clients, TLS_AUTH_YES);
	config_free(&cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_init_defaults),
		cmocka_unit_test(test_config_set_values),
		cmocka_unit_test(test_config_load_file_binds_and_comments),
		cmocka_unit_test(test_config_load_file_names_the_line),
		cmocka_unit_test(test_config_from_args_flags_override_file),
		cmocka_unit_test(test_config_from_args_errors),
		cmocka_unit_test(test_config_tls_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
