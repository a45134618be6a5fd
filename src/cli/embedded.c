/*
 * The embedded backend of the ludus CLI: the command layer run in-process
 * on a SQLite file (or ":memory:"), exactly as ludusd runs it, so a
 * command behaves the same with --db and over the network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"

struct embedded {
	struct backend	 be;		/* first: what callers hold */
	struct cmd_env	 env;
};

static int
emb_exec(struct backend *be, int argc, char **argv, size_t *argl,
    struct reply *out)
{
	struct embedded	*e = (struct embedded *)be;
	struct cmd_args	 args;

	memset(&args, 0, sizeof(args));	/* no session in-process */
	args.argc = argc;
	args.argv = argv;
	args.argl = argl;
	cmd_execute(&e->env, &args, out);
	return 0;
}

/* Nothing is ever pushed in-process: WATCH is a daemon command. */
static int
emb_next_event(struct backend *be, struct reply *out)
{
	(void)be;
	(void)out;
	return -1;
}

static void
emb_close(struct backend *be)
{
	struct embedded	*e = (struct embedded *)be;

	store_close(e->env.store);
	free(e);
}

struct backend *
backend_embedded(const char *dbpath, char *err, size_t errlen)
{
	struct embedded	*e;
	struct store	*st;

	if ((st = store_sqlite_open(dbpath, DURABILITY_FULL, err,
	    errlen)) == NULL)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->be.exec = emb_exec;
	e->be.next_event = emb_next_event;
	e->be.close = emb_close;
	e->env.store = st;
	return &e->be;
}
