/*
 * What every handler shares: the id rule, the clock, loading a game, the
 * store's error.  The arguments are read before the handler runs
 * (cmd_args.c), so a malformed request never opens a transaction; the
 * transaction wrapper of the write path is cmd_txn.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

/* Command names are compared in ASCII, whatever the locale says. */
static int
ascii_upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

int
cmd_name_upper(char *buf, size_t size, const char *name)
{
	size_t	i;

	for (i = 0; name[i] != '\0'; i++) {
		if (i + 1 >= size)
			return -1;
		buf[i] = (char)ascii_upper((unsigned char)name[i]);
	}
	buf[i] = '\0';
	return 0;
}

int
valid_id(const char *s, size_t len)
{
	size_t	i;

	if (s == NULL || len == 0 || len > GAME_ID_MAX)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-'))
			return 0;	/* NUL included */
	}
	return 1;
}

int64_t
cmd_now(const struct cmd_env *env)
{
	return env->now != NULL ? env->now() : (int64_t)time(NULL);
}

/* A test's fake clock in seconds drives the milliseconds too. */
int64_t
cmd_now_ms(const struct cmd_env *env)
{
	struct timespec	 ts;

	if (env->now_ms != NULL)
		return env->now_ms();
	if (env->now != NULL)
		return env->now() * 1000;
	if (clock_gettime(CLOCK_REALTIME, &ts) == -1)
		return (int64_t)time(NULL) * 1000;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
cmd_turn_deadline(const struct game *g, int64_t now_ms)
{
	int	 turn = game_turn(g);

	if (turn < 0 || turn >= GAME_MAX_PLAYERS)
		return 0;
	if (now_ms < 1)
		now_ms = 1;		/* 0 means "never" */
	if (g->opts.bot[turn] != 0)
		return now_ms;
	if (g->opts.timeout > 0)
		return now_ms + g->opts.timeout * 1000;
	return 0;
}

void
cmd_reply_store(struct cmd_env *env, struct reply *out)
{
	const char	*msg = store_errmsg(env->store);

	env->store_errors++;
	reply_free(out);
	reply_error(out, "STORE", "%s", msg != NULL && *msg != '\0' ? msg :
	    "store failure");
}

/* The error for a load that did not return STORE_OK. */
static void
reply_load_error(struct cmd_env *env, struct reply *out, const char *id,
    int rc)
{
	if (rc == STORE_NOTFOUND)
		reply_error(out, "NOGAME", "no such game '%s'", id);
	else
		cmd_reply_store(env, out);
}

static void
reply_wrongtype(struct reply *out, const struct game *g)
{
	reply_error(out, "WRONGTYPE", "game '%s' is a %s game", g->id,
	    game_kind_name(g->kind));
}

const char *
cmd_target_id(const struct cmd_parsed *p)
{
	return p->v[p->def->target.arg].s;
}

int
cmd_read_game(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, struct game *g)
{
	int	rc;

	rc = store_load_game(env->store, id, g);
	if (rc != STORE_OK) {
		reply_load_error(env, out, id, rc);
		return -1;
	}
	if (kind != KIND_NONE && g->kind != kind) {
		reply_wrongtype(out, g);
		return -1;
	}
	return 0;
}
