/*
 * ludus: the command-line client.  `--db FILE` runs the command layer
 * in-process on a SQLite file; otherwise commands go to a ludusd over TCP,
 * in clear or through TLS (--tls).
 * A command on the command line runs once; without one, commands are
 * read from stdin one per line (a REPL when stdin and stdout are
 * terminals).  Output follows redis-cli: bare text into a pipe, the
 * "(integer) 3" style on a terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/archive.h"
#include "cli/backend.h"
#include "cli/copy.h"
#include "cli/output.h"
#include "cli/session.h"
#include "cli/show.h"
#include "cli/tls.h"
#include "cmd/cmd.h"
#include "util/util.h"

#define DEFAULT_HOST	"127.0.0.1"
#define DEFAULT_PORT	7420

struct options {
	const char	*db;		/* a store URI; NULL: network */
	const char	*host;
	int		 port;
	int		 raw;		/* -1 auto, 0 tty, 1 raw */
	int		 snl_script;
	int		 cmd;		/* argv index of the command word */
	struct cli_tls_opts tls;
};

/* The first line of the usage, which a usage error repeats. */
#define SYNOPSIS \
	"usage: ludus [--db FILE | --store URI | -h host -p port [TLS]]" \
	" [--raw | --no-raw] [COMMAND [ARG ...]]\n"

static void
usage(FILE *fp)
{
	const struct cmd_def	*c;
	char			 line[CMD_USAGE_MAX];
	size_t			 i;

	fprintf(fp,
	    SYNOPSIS
	    "       ludus [--db FILE | -h host -p port [TLS]] watch id"
	    " [FROM seq]\n"
	    "       ludus [--db FILE | -h host -p port [TLS]] show id\n"
	    "       ludus --snl-script < script\n"
	    "       ludus copy [--force] FROM TO\n"
	    "       ludus --db FILE | --store URI export [--finished-before T]"
	    " [--kind K] FILE\n"
	    "       ludus --db FILE | --store URI import FILE\n"
	    "       ludus --db FILE backup DEST\n"
	    "       ludus --help | --version\n"
	    "\n"
	    "  --db FILE     run in-process on a SQLite file (\":memory:\" for"
	    " a throwaway)\n"
	    "  --store URI   run in-process on a store: a SQLite path,"
	    " sqlite:PATH, or\n"
	    "                postgresql://... (ludusd nodes may share it)\n"
	    "  -h host       ludusd host (default " DEFAULT_HOST ")\n"
	    "  -p port       ludusd port (default %d)\n"
	    "  --tls         connect through TLS (ludusd's tls-port), checking"
	    " the\n"
	    "                server's certificate and that it names host\n"
	    "  --cacert FILE the CA certificates to check it with (default:"
	    " the system's)\n"
	    "  --cert FILE   a client certificate to show (tls-auth-clients)\n"
	    "  --key FILE    its private key (default: in the --cert file)\n"
	    "  --raw         bare output even on a terminal\n"
	    "  --no-raw      terminal-style output even into a pipe\n"
	    "  --snl-script  play a Snake & Ladder script from stdin\n"
	    "  copy          every game of store FROM into store TO (URIs as"
	    " --store),\n"
	    "                then AUDIT of TO; an empty TO only, unless"
	    " --force\n"
	    "  export        the games (finished before T: unix seconds or an"
	    " age,\n"
	    "                30d 12h 90m 45s; of kind K) into a new archive"
	    " FILE,\n"
	    "                JSON Lines with their whole history\n"
	    "  import        the games of an archive, each replayed through"
	    " the rules;\n"
	    "                a bad line or a game id taken: nothing imported\n"
	    "  backup        an online backup of a SQLite file into a new"
	    " file DEST,\n"
	    "                while ludusd plays on; then AUDIT of DEST\n"
	    "\n"
	    "Without a COMMAND, commands are read from stdin, one per line;\n"
	    "double quotes group words and \"\" is an empty argument.  show\n"
	    "and watch work there too (watch until the next line).  Events\n"
	    "(GAME.WATCH's moves, pub/sub messages) print as they come, as\n"
	    "\"(event) ...\" lines.\n"
	    "\n"
	    "Commands:\n", DEFAULT_PORT);
	for (i = 0; (c = cmd_at(i)) != NULL; i++) {
		(void)cmd_args_usage(c, line, sizeof(line));
		fprintf(fp, "  %s\n", line);
	}
	fprintf(fp,
	    "\n"
	    "Multiplayer options of LUDO.CREATE, SNL.CREATE, DANDY.CREATE:\n"
	    "  seats=secure          reply one seat key per player (shown"
	    " once); moves\n"
	    "                        then need SEAT id player key on the"
	    " connection\n"
	    "  dice=server           the server rolls: LUDO.ROLL id player,"
	    " SNL.ROLL id\n"
	    "  deck=shuffled[:N]     DandyLand: a secret server deck of N"
	    " cards (50)\n"
	    "  bots=P:S[,...]        player P played by the server, strategy"
	    " S = first,\n"
	    "                        aggressive or expert (needs dice=server"
	    " or a deck)\n"
	    "  turn-timeout=SECONDS  an absent player's turn is played by"
	    " the server\n"
	    "  snakes=H:T,.. ladders=B:T,..  Snake & Ladder board at"
	    " creation\n"
	    "With --db, bot turns and expired turns are played after each"
	    " command\n"
	    "that changes their game; ludusd plays them as they fall due.\n");
}

static void bad_usage(const char *, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/*
 * A usage error says what was wrong and repeats the synopsis, not the
 * whole help, which would push the error off screen.
 */
static void
bad_usage(const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "ludus: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(SYNOPSIS, stderr);
	exit(2);
}

/* The value of an option: "--db FILE" or "--db=FILE". */
static const char *
opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t	n = strlen(name);

	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc)
		bad_usage("option %s needs a value", name);
	return argv[++*i];
}

static int
is_opt(const char *arg, const char *name)
{
	size_t	n = strlen(name);

	return strncmp(arg, name, n) == 0 &&
	    (arg[n] == '\0' || (name[1] == '-' && arg[n] == '='));
}

/* The TLS options go together: each needs --tls, and --key a --cert. */
static void
check_tls_options(const struct options *o)
{
	const char	*lone = NULL;

	if (!o->tls.enabled)
		lone = o->tls.cacert != NULL ? "--cacert" :
		    o->tls.cert != NULL ? "--cert" :
		    o->tls.key != NULL ? "--key" : NULL;
	if (lone != NULL)
		bad_usage("%s needs --tls", lone);
	if (o->tls.key != NULL && o->tls.cert == NULL)
		bad_usage("%s", "--key needs --cert");
	if (o->tls.enabled && o->db != NULL)
		bad_usage("%s", "--tls is for a ludusd, not --db");
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	const char	*errstr, *v;
	int64_t		 port;
	int		 i;

	memset(o, 0, sizeof(*o));
	o->host = DEFAULT_HOST;
	o->port = DEFAULT_PORT;
	o->raw = -1;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			exit(0);
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("ludus %s\n", PACKAGE_VERSION);
			exit(0);
		} else if (is_opt(argv[i], "--db"))
			o->db = opt_value(argc, argv, &i, "--db");
		else if (is_opt(argv[i], "--store"))
			o->db = opt_value(argc, argv, &i, "--store");
		else if (strcmp(argv[i], "-h") == 0)
			o->host = opt_value(argc, argv, &i, "-h");
		else if (strcmp(argv[i], "-p") == 0) {
			v = opt_value(argc, argv, &i, "-p");
			if (parse_int64(v, 1, 65535, &port, &errstr) == -1)
				bad_usage("invalid port '%s'", v);
			o->port = (int)port;
		} else if (strcmp(argv[i], "--raw") == 0)
			o->raw = 1;
		else if (strcmp(argv[i], "--no-raw") == 0)
			o->raw = 0;
		else if (strcmp(argv[i], "--snl-script") == 0)
			o->snl_script = 1;
		else if (strcmp(argv[i], "--tls") == 0)
			o->tls.enabled = 1;
		else if (is_opt(argv[i], "--cacert"))
			o->tls.cacert = opt_value(argc, argv, &i, "--cacert");
		else if (is_opt(argv[i], "--cert"))
			o->tls.cert = opt_value(argc, argv, &i, "--cert");
		else if (is_opt(argv[i], "--key"))
			o->tls.key = opt_value(argc, argv, &i, "--key");
		else
			bad_usage("unknown option '%s' (ludus --help lists "
			    "them)", argv[i]);
	}
	o->cmd = i;
	if (o->db != NULL && o->db[0] == '\0')
		bad_usage("%s", "--db and --store need a file name or a URI");
	if (o->snl_script && o->cmd < argc)
		bad_usage("%s", "--snl-script takes its commands from stdin");
	check_tls_options(o);
}

static int
one_shot(struct backend *be, int argc, char **argv, enum output_mode mode)
{
	size_t	*argl = xcalloc((size_t)argc, sizeof(*argl));
	int	 i, err = 0, rc;

	for (i = 0; i < argc; i++)
		argl[i] = strlen(argv[i]);
	be->on_event = cli_print_event;
	be->event_arg = NULL;
	rc = cli_run_command(be, argc, argv, argl, mode, &err);
	/* A GAME.WATCH ... FROM: its backlog, before the end. */
	if (rc == 0)
		rc = cli_flush_events(be);
	free(argl);
	return rc == -1 || err ? 1 : 0;
}

/* The verbs that are more than one command (see show.h). */
static int
cli_verb(struct backend *be, int argc, char **argv, int *status)
{
	if (strcaseeq(argv[0], "show")) {
		if (argc != 2)
			bad_usage("%s", "usage: ludus show id");
		*status = cli_show(be, argv[1], isatty(STDOUT_FILENO));
		return 1;
	}
	/* The verb is lower case: anything else goes to the server. */
	if (strcmp(argv[0], "watch") == 0 && (argc == 2 ||
	    (argc == 4 && strcaseeq(argv[2], "FROM")))) {
		*status = cli_watch(be, argv[1], argc == 4 ? argv[3] : NULL);
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct options	 o;
	struct backend	*be;
	char		 err[256], prompt[300];
	enum output_mode mode;
	int		 status, interactive;

	parse_options(argc, argv, &o);
	if (o.snl_script)
		return snl_script(stdin, stdout, stderr);
	if (o.cmd < argc && strcmp(argv[o.cmd], "copy") == 0)
		return cli_copy(argc - o.cmd - 1, argv + o.cmd + 1);
	if (o.cmd < argc && strcmp(argv[o.cmd], "export") == 0)
		return cli_export(o.db, argc - o.cmd - 1, argv + o.cmd + 1);
	if (o.cmd < argc && strcmp(argv[o.cmd], "import") == 0)
		return cli_import(o.db, argc - o.cmd - 1, argv + o.cmd + 1);
	if (o.cmd < argc && strcmp(argv[o.cmd], "backup") == 0)
		return cli_backup(o.db, argc - o.cmd - 1, argv + o.cmd + 1);

	if (o.db != NULL)
		be = backend_embedded(o.db, err, sizeof(err));
	else
		be = backend_network(o.host, o.port, &o.tls, err,
		    sizeof(err));
	if (be == NULL) {
		if (o.db != NULL)
			fprintf(stderr, "ludus: %s: %s\n", o.db, err);
		else
			fprintf(stderr, "ludus: %s:%d: %s\n", o.host, o.port,
			    err);
		return 1;
	}
	interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (o.raw == -1)
		mode = isatty(STDOUT_FILENO) ? OUTPUT_TTY : OUTPUT_RAW;
	else
		mode = o.raw ? OUTPUT_RAW : OUTPUT_TTY;

	if (o.cmd < argc) {
		if (!cli_verb(be, argc - o.cmd, argv + o.cmd, &status))
			status = one_shot(be, argc - o.cmd, argv + o.cmd,
			    mode);
	} else {
		if (o.db != NULL)
			snprintf(prompt, sizeof(prompt), "ludus> ");
		else
			snprintf(prompt, sizeof(prompt), "%s:%d> ", o.host,
			    o.port);
		status = cli_session(be, mode, interactive ? prompt : NULL,
		    usage);
	}
	be->close(be);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "ludus: write error\n");
		status = 1;
	}
	return status;
}
