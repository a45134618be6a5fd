/*
 * The ludus CLI's session (session.h).  stdin and the connection are read
 * together, with poll(2), so an event is printed when it arrives and not
 * when the next command happens to read it; stdin is read with read(2)
 * into a buffer of our own, since a FILE's buffer would hide lines from
 * poll.  The end of stdin ends the session, whatever is watched.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/session.h"
#include "cli/show.h"
#include "util/util.h"

#define LINE_CHUNK	4096

struct session {
	struct backend		*be;
	enum output_mode	 mode;
	const char		*prompt;	/* NULL: not interactive */
	void			(*help)(FILE *);
	int			 at_prompt;	/* shown, its line not read */
	char			*follow;	/* the game `watch` follows */
	char			*in;		/* stdin read, not used yet */
	size_t			 inlen;
	size_t			 incap;
	size_t			 used;		/* bytes of in already lines */
	int			 eof;
	int			 status;
};

/* ----------------------------------------------------------- commands */

static void
report_lost(const struct reply *why)
{
	fprintf(stderr, "ludus: %s\n", why->str != NULL ? why->str :
	    "backend failure");
}

/*
 * Runs one command and reads every frame of its reply, printing each one
 * (all), or only an error.  0, or -1 when the backend failed.
 */
static int
run_frames(struct backend *be, int argc, char **argv, size_t *argl,
    enum output_mode mode, int all, int *was_error)
{
	struct reply	 r;
	int		 rc;

	memset(&r, 0, sizeof r);
	rc = be->exec(be, argc, argv, argl, &r);
	while (rc != -1) {
		if (all || reply_is_error(&r)) {
			output_reply(stdout, &r, mode);
			fflush(stdout);
		}
		if (reply_is_error(&r))
			*was_error = 1;
		reply_free(&r);
		if ((rc = be->more(be, &r)) == 0)
			return 0;
	}
	report_lost(&r);
	reply_free(&r);
	return -1;
}

int
cli_run_command(struct backend *be, int argc, char **argv, size_t *argl,
    enum output_mode mode, int *was_error)
{
	return run_frames(be, argc, argv, argl, mode, 1, was_error);
}

/* A command of the CLI's own, given as words: only an error shows. */
static int
run_words(struct backend *be, int argc, const char *const *words,
    int *was_error)
{
	char	*argv[4];
	size_t	 argl[4];
	int	 i;

	for (i = 0; i < argc && i < 4; i++) {
		argv[i] = (char *)(uintptr_t)words[i];
		argl[i] = strlen(words[i]);
	}
	return run_frames(be, i, argv, argl, OUTPUT_RAW, 0, was_error);
}

int
cli_flush_events(struct backend *be)
{
	static const char *const	 ping[] = { "PING" };
	int				 err = 0;

	if (be->subscriptions(be) == 0)
		return 0;
	return run_words(be, 1, ping, &err);
}

void
cli_print_event(void *arg, const struct reply *ev)
{
	(void)arg;
	output_event(stdout, ev);
	fflush(stdout);
}

/* In a session: over the prompt, which comes back after it. */
static void
session_event(void *arg, const struct reply *ev)
{
	struct session	*s = arg;

	if (s->at_prompt)
		fputs("\r\033[K", stdout);
	if (s->follow == NULL || !cli_print_move(ev))
		output_event(stdout, ev);
	if (s->at_prompt)
		fputs(s->prompt, stdout);
	fflush(stdout);
}

/* ----------------------------------------------------------- reading */

/*
 * A line of the buffer, its end cut: 1, or 0 if none is whole yet.  The
 * last line may lack its newline; read_stdin keeps a byte free after the
 * input for its NUL.
 */
static int
take_line(struct session *s, char **line, size_t *len)
{
	char	*start = s->in + s->used, *nl;
	size_t	 left = s->inlen - s->used;

	if (left == 0)
		return 0;
	nl = memchr(start, '\n', left);
	if (nl == NULL && !s->eof)
		return 0;
	*len = nl != NULL ? (size_t)(nl - start) : left;
	start[*len] = '\0';
	s->used += *len + (nl != NULL);
	*line = start;
	return 1;
}

/* Reads what stdin has, or sets eof at its end. */
static void
read_stdin(struct session *s)
{
	ssize_t	 n;

	if (s->used > 0) {
		memmove(s->in, s->in + s->used, s->inlen - s->used);
		s->inlen -= s->used;
		s->used = 0;
	}
	if (s->incap - s->inlen < LINE_CHUNK) {
		s->incap = s->incap * 2 + LINE_CHUNK;
		s->in = xrealloc(s->in, s->incap);
	}
	n = read(STDIN_FILENO, s->in + s->inlen, s->incap - s->inlen - 1);
	if (n > 0)
		s->inlen += (size_t)n;
	else if (n == 0 || errno != EINTR)
		s->eof = 1;
}

/*
 * The next line of stdin: 1 with *line, 0 at its end, -1 when the
 * connection was lost meanwhile.  Events are printed while it waits.
 */
static int
next_line(struct session *s, char **line, size_t *len)
{
	struct pollfd	 pfd[2];
	struct reply	 why;
	int		 nfd;

	for (;;) {
		if (take_line(s, line, len))
			return 1;
		if (s->eof)
			return 0;
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = s->be->event_fd(s->be);
		pfd[1].events = POLLIN;
		pfd[0].revents = pfd[1].revents = 0;
		nfd = pfd[1].fd >= 0 ? 2 : 1;
		if (poll(pfd, (nfds_t)nfd, -1) == -1 && errno != EINTR)
			s->eof = 1;
		if (nfd == 2 && pfd[1].revents != 0) {
			memset(&why, 0, sizeof why);
			if (s->be->pump(s->be, 0, &why) == -1) {
				s->at_prompt = 0;
				if (s->prompt != NULL)
					fputc('\n', stdout);
				report_lost(&why);
				reply_free(&why);
				return -1;
			}
		}
		if (pfd[0].revents != 0)
			read_stdin(s);
	}
}

/* ------------------------------------------------------------- verbs */

/*
 * `watch id [FROM seq]`: GAME.WATCH, and its moves printed as `ludus watch`
 * prints them until the next line.  The reply is printed only if it is
 * an error.  0, or -1 if the connection was lost.
 */
static int
follow(struct session *s, int argc, char **argv)
{
	const char	*words[] = { "GAME.WATCH", argv[1], "FROM",
			    argc == 4 ? argv[3] : NULL };
	int		 rc, err = 0;

	s->follow = xstrdup(argv[1]);
	rc = run_words(s->be, argc, words, &err);
	if (rc == -1 || s->be->subscriptions(s->be) == 0) {
		free(s->follow);
		s->follow = NULL;
		return rc;
	}
	if (s->prompt != NULL)
		fprintf(stderr, "(watching %s: a line stops)\n", argv[1]);
	/* The moves already made come now, before stdin is looked at. */
	return cli_flush_events(s->be);
}

static int
unfollow(struct session *s)
{
	const char	*words[] = { "GAME.UNWATCH", s->follow };
	int		 rc, err = 0;

	rc = run_words(s->be, 2, words, &err);
	free(s->follow);
	s->follow = NULL;
	return rc;
}

/* The connection was lost by what just ran (a network backend only). */
static int
lost(struct session *s, int had_fd)
{
	return had_fd && s->be->event_fd(s->be) == -1;
}

/* show and watch; 1 if the line was one (*rc: 0, or -1 if lost). */
static int
verb(struct session *s, int argc, char **argv, int *rc)
{
	int	 had_fd = s->be->event_fd(s->be) >= 0;

	*rc = 0;
	if (strcaseeq(argv[0], "show")) {
		if (argc != 2) {
			fprintf(stderr, "ludus: usage: show id\n");
			s->status = 1;
		} else if (cli_show(s->be, argv[1], isatty(STDOUT_FILENO)) &&
		    lost(s, had_fd))
			*rc = -1;
		return 1;
	}
	/* The verb is lower case: anything else goes to the server. */
	if (strcmp(argv[0], "watch") == 0 && (argc == 2 ||
	    (argc == 4 && strcaseeq(argv[2], "FROM")))) {
		*rc = follow(s, argc, argv);
		return 1;
	}
	return 0;
}

/* ----------------------------------------------------------- session */

enum { LINE_NEXT, LINE_QUIT, LINE_LOST };

static int
run_line(struct session *s, char *line, size_t n, long lineno)
{
	char	**argv;
	size_t	 *argl;
	int	  argc, rc = 0, err = 0, what = LINE_NEXT;

	while (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if ((argc = split_line(line, n, &argv, &argl)) < 0) {
		if (s->prompt != NULL)
			fprintf(stderr, "Invalid argument(s)\n");
		else
			fprintf(stderr, "ludus: line %ld: unbalanced quotes\n",
			    lineno);
		s->status = 1;
		return LINE_NEXT;
	}
	if (argc == 0)
		return LINE_NEXT;
	if (s->prompt != NULL && argc == 1 && (strcaseeq(argv[0], "quit") ||
	    strcaseeq(argv[0], "exit")))
		what = LINE_QUIT;
	else if (s->prompt != NULL && argc == 1 && strcaseeq(argv[0], "help"))
		s->help(stdout);
	else if (!verb(s, argc, argv, &rc))
		rc = cli_run_command(s->be, argc, argv, argl, s->mode, &err);
	split_free(argc, argv, argl);
	return rc == -1 ? LINE_LOST : what;
}

int
cli_session(struct backend *be, enum output_mode mode, const char *prompt,
    void (*help)(FILE *))
{
	struct session	 s;
	char		*line;
	size_t		 n;
	long		 lineno = 0;
	int		 r, what = LINE_NEXT;

	memset(&s, 0, sizeof s);
	s.be = be;
	s.mode = mode;
	s.prompt = prompt;
	s.help = help;
	be->on_event = session_event;
	be->event_arg = &s;
	while (what == LINE_NEXT) {
		if (prompt != NULL) {
			fputs(prompt, stdout);
			fflush(stdout);
			s.at_prompt = 1;
		}
		r = next_line(&s, &line, &n);
		s.at_prompt = 0;
		if (r == 0 && prompt != NULL)
			fputc('\n', stdout);
		if (r <= 0) {
			what = r == 0 ? LINE_QUIT : LINE_LOST;
			break;
		}
		lineno++;
		/* Any line ends a watch, and then runs. */
		if (s.follow != NULL && unfollow(&s) == -1)
			what = LINE_LOST;
		else
			what = run_line(&s, line, n, lineno);
	}
	/* What the commands caused comes before the end. */
	if (what == LINE_QUIT && cli_flush_events(be) == -1)
		what = LINE_LOST;
	if (what == LINE_LOST)
		s.status = 1;
	free(s.follow);
	free(s.in);
	be->on_event = cli_print_event;
	be->event_arg = NULL;
	return s.status;
}
