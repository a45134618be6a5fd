/*
 * The embedded backend of the ludus CLI: the command layer run in-process
 * on a store (a SQLite file, ":memory:", or a PostgreSQL database that
 * ludusd nodes may be serving at the same time), exactly as ludusd runs
 * it, so a command behaves the same with --db or --store and over the
 * network.
 *
 * One session lives as long as the run, so SEAT holds for the commands
 * that follow it.  There is no event loop to play bots and expired turns
 * when they fall due: after each state-changing command the CLI plays
 * what its game owes right then (bots at once, turns whose deadline has
 * passed), as the daemon would have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"

#define AUTOPLAY_MAX	1000000	/* moves per command: a bound, not a rule */

struct embedded {
	struct backend		 be;		/* first: what callers hold */
	struct cmd_env		 env;
	struct cmd_session	*session;
};

/* Plays the moves the server owes the game named by a write command. */
static void
emb_autoplay(struct embedded *e, int argc, char **argv, size_t *argl)
{
	const struct cmd_def	*cmd;
	struct move		 mv;
	int64_t			 next;
	int			 n;

	if (argc < 2 || (cmd = cmd_lookup(argv[0])) == NULL ||
	    (cmd->flags & CMD_WRITE) == 0 || !valid_id(argv[1], argl[1]))
		return;
	for (n = 0; n < AUTOPLAY_MAX; n++)
		if (cmd_autoplay(&e->env, argv[1], cmd_now_ms(&e->env), &mv,
		    &next) != 1)
			break;
}

static int
emb_exec(struct backend *be, int argc, char **argv, size_t *argl,
    struct reply *out)
{
	struct embedded	*e = (struct embedded *)be;
	struct cmd_args	 args;

	memset(&args, 0, sizeof(args));
	args.argc = argc;
	args.argv = argv;
	args.argl = argl;
	args.session = e->session;
	cmd_execute(&e->env, &args, out);
	emb_autoplay(e, argc, argv, argl);
	return 0;
}

/* Nothing is ever pushed in-process: GAME.WATCH and SUBSCRIBE are
 * the daemon's. */
static int
emb_more(struct backend *be, struct reply *out)
{
	(void)be;
	(void)out;
	return 0;
}

static int
emb_event_fd(struct backend *be)
{
	(void)be;
	return -1;
}

static int
emb_pump(struct backend *be, int timeout_ms, struct reply *why)
{
	(void)be;
	(void)timeout_ms;
	(void)why;
	return 0;
}

static long long
emb_subscriptions(struct backend *be)
{
	(void)be;
	return 0;
}

static void
emb_close(struct backend *be)
{
	struct embedded	*e = (struct embedded *)be;

	store_close(e->env.store);
	cmd_session_free(e->session);
	free(e);
}

struct backend *
backend_embedded(const char *uri, char *err, size_t errlen)
{
	struct embedded	*e;
	struct store	*st;

	if ((st = store_open(uri, DURABILITY_FULL, err, errlen)) == NULL)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->be.exec = emb_exec;
	e->be.more = emb_more;
	e->be.event_fd = emb_event_fd;
	e->be.pump = emb_pump;
	e->be.subscriptions = emb_subscriptions;
	e->be.close = emb_close;
	e->env.store = st;
	e->session = cmd_session_new();
	return &e->be;
}
