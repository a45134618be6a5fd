/*
 * `ludus --snl-script`: the Snake & Ladder script driver.  The input is
 * Q, then the number of players, then Q commands (add_snake h t,
 * add_ladder b t, roll v), one per line; each roll prints its result on
 * its own line.
 * Every command goes through the command layer on an in-memory store,
 * so the script exercises the same path as SNL.* commands do.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "cli/output.h"
#include "engine/engine.h"
#include "util/util.h"

#define SCRIPT_GAME	"script"
#define SCRIPT_Q_MAX	10000000	/* operations in one script */

struct script {
	FILE		*in;
	FILE		*out;
	FILE		*err;
	struct backend	*be;
	char		*line;
	size_t		 cap;
	long		 lineno;
	int		 argc;		/* the current line's words */
	char		**argv;
	size_t		*argl;
};

static int script_error(struct script *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports a problem with the script; returns 1 (the exit status). */
static int
script_error(struct script *s, const char *fmt, ...)
{
	va_list	ap;

	fprintf(s->err, "ludus: --snl-script: ");
	if (s->lineno > 0)
		fprintf(s->err, "line %ld: ", s->lineno);
	va_start(ap, fmt);
	vfprintf(s->err, fmt, ap);
	va_end(ap);
	fputc('\n', s->err);
	return 1;
}

/* Reads the next non-blank line into words; 1 at the end of input. */
static int
next_line(struct script *s)
{
	ssize_t	n;

	split_free(s->argc, s->argv, s->argl);
	s->argc = 0;
	s->argv = NULL;
	s->argl = NULL;
	while ((n = getline(&s->line, &s->cap, s->in)) != -1) {
		s->lineno++;
		while (n > 0 && (s->line[n - 1] == '\n' ||
		    s->line[n - 1] == '\r'))
			s->line[--n] = '\0';
		s->argc = split_line(s->line, (size_t)n, &s->argv, &s->argl);
		if (s->argc < 0) {
			s->argc = 0;
			return -1;
		}
		if (s->argc > 0)
			return 0;
	}
	return 1;
}

/* A line holding one integer in [min, max]. */
static int
read_count(struct script *s, const char *what, int64_t min, int64_t max,
    int64_t *v)
{
	const char	*errstr;
	int		 rc;

	if ((rc = next_line(s)) == 1)
		return script_error(s, "missing %s", what);
	if (rc == -1 || s->argc != 1 ||
	    parse_int64(s->argv[0], min, max, v, &errstr) == -1)
		return script_error(s, "bad %s", what);
	return 0;
}

/* Runs one command; a refusal ends the script. */
static int
script_exec(struct script *s, int argc, const char **argv, struct reply *r)
{
	size_t	argl[4];
	int	i;

	for (i = 0; i < argc; i++)
		argl[i] = strlen(argv[i]);
	memset(r, 0, sizeof(*r));
	s->be->exec(s->be, argc, (char **)argv, argl, r);
	if (r->type == REPLY_ERROR) {
		script_error(s, "%s", r->str);
		reply_free(r);
		return 1;
	}
	return 0;
}

static int
script_command(struct script *s)
{
	const char	*argv[4];
	const char	*verb = s->argv[0];
	struct reply	 r;
	int		 is_roll = strcmp(verb, "roll") == 0;

	if (is_roll && s->argc == 2)
		argv[0] = "SNL.ROLL";
	else if (strcmp(verb, "add_snake") == 0 && s->argc == 3)
		argv[0] = "SNL.SNAKE";
	else if (strcmp(verb, "add_ladder") == 0 && s->argc == 3)
		argv[0] = "SNL.LADDER";
	else
		return script_error(s, "bad command '%s'", verb);
	argv[1] = SCRIPT_GAME;
	argv[2] = s->argv[1];
	argv[3] = s->argc == 3 ? s->argv[2] : NULL;
	if (script_exec(s, s->argc + 1, argv, &r) != 0)
		return 1;
	if (is_roll)
		output_reply(s->out, &r, OUTPUT_RAW);
	reply_free(&r);
	return 0;
}

static int
script_run(struct script *s)
{
	const char	*argv[3];
	char		 players[32];
	struct reply	 r;
	int64_t		 q, n, i;
	int		 rc;

	if (read_count(s, "number of operations", 0, SCRIPT_Q_MAX, &q) != 0 ||
	    read_count(s, "number of players", 1, SNL_MAX_PLAYERS, &n) != 0)
		return 1;
	snprintf(players, sizeof(players), "%lld", (long long)n);
	argv[0] = "SNL.CREATE";
	argv[1] = SCRIPT_GAME;
	argv[2] = players;
	if (script_exec(s, 3, argv, &r) != 0)
		return 1;
	reply_free(&r);
	for (i = 0; i < q; i++) {
		if ((rc = next_line(s)) == 1)
			return script_error(s, "%s", "fewer commands than Q");
		if (rc == -1)
			return script_error(s, "%s", "unbalanced quotes");
		if (script_command(s) != 0)
			return 1;
	}
	if ((rc = next_line(s)) != 1)
		return script_error(s, "%s", "more commands than Q");
	return 0;
}

int
snl_script(FILE *in, FILE *out, FILE *err)
{
	struct script	 s;
	char		 msg[256];
	int		 rc;

	memset(&s, 0, sizeof(s));
	s.in = in;
	s.out = out;
	s.err = err;
	if ((s.be = backend_embedded(":memory:", msg, sizeof(msg))) == NULL) {
		fprintf(err, "ludus: --snl-script: %s\n", msg);
		return 1;
	}
	rc = script_run(&s);
	split_free(s.argc, s.argv, s.argl);
	free(s.line);
	s.be->close(s.be);
	if (fflush(out) == EOF || ferror(out)) {
		fprintf(err, "ludus: --snl-script: write error\n");
		rc = 1;
	}
	return rc;
}
