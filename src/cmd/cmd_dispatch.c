/*
 * The dispatch: the command layer's table, the lookup, and the run of a
 * request (its form checked once, its words read, its target loaded,
 * then its handler).  Nothing else lives here, so that the command
 * files, whose entries this file names, use helpers (cmd.c, cmd_args.c,
 * cmd_txn.c) that never name it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_txn.h"
#include "util/util.h"

/*
 * The command layer's table: a pointer to each command's entry, which
 * lives in the file that implements it (cmd_<what>.c).  X(f) is the entry
 * cmd_f_entry; sorted by name (ASCII, upper case: DANDY.CREATE is
 * dandy_create) for the binary search in cmd_lookup(), a test checks the
 * order; a line holds a family.
 */
#define CMD_TABLE(X) \
	X(audit) \
	X(dandy_create) X(dandy_draw) X(dandy_play) X(dandy_scores) \
	X(dandy_state) \
	X(dbsize) X(exists) \
	X(game_delete) X(game_info) X(games) X(history) \
	X(leaderboard) \
	X(ludo_create) X(ludo_legal) X(ludo_play) X(ludo_roll) X(ludo_state) \
	X(match_cancel) X(match_join) X(match_list) X(memory) \
	X(player_create) X(player_games) X(player_info) X(player_key) \
	X(player_login) \
	X(replay) X(scan) X(seat) X(seat_exchange) \
	X(snl_create) X(snl_ladder) X(snl_roll) X(snl_snake) X(snl_state) \
	X(type) \
	X(xinfo) X(xlen) X(xrange) X(xread) X(xrevrange)

#define CMD_EXTERN(f)	extern const struct cmd_def cmd_##f##_entry;
#define CMD_POINTER(f)	&cmd_##f##_entry,
CMD_TABLE(CMD_EXTERN)
static const struct cmd_def *const cmd_table[] = { CMD_TABLE(CMD_POINTER) };
#define CMD_COUNT	(sizeof(cmd_table) / sizeof(cmd_table[0]))

/* The name is upper-cased once, then searched with strcmp(): every
 * request looks its command up. */
const struct cmd_def *
cmd_lookup_in(const struct cmd_def *const *table, size_t n,
    const char *name)
{
	char	up[CMD_NAME_MAX + 1];
	size_t	lo = 0, hi = n, mid;
	int	c;

	if (name == NULL || cmd_name_upper(up, sizeof(up), name) == -1)
		return NULL;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(up, table[mid]->name);
		if (c == 0)
			return table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct cmd_def *
cmd_find_in(const struct cmd_def *const *table, size_t n,
    const struct cmd_args *args)
{
	if (args->argc < 1 || strlen(args->argv[0]) != args->argl[0])
		return NULL;
	return cmd_lookup_in(table, n, args->argv[0]);
}

const struct cmd_def *
cmd_lookup(const char *name)
{
	return cmd_lookup_in(cmd_table, CMD_COUNT, name);
}

const struct cmd_def *
cmd_find(const struct cmd_args *args)
{
	return cmd_find_in(cmd_table, CMD_COUNT, args);
}

const struct cmd_def *
cmd_at(size_t i)
{
	return i < CMD_COUNT ? cmd_table[i] : NULL;
}

int
cmd_arity_ok(const struct cmd_def *d, int argc)
{
	int	 arity = cmd_arity(d);

	return arity >= 0 ? argc == arity : argc >= -arity;
}

/*
 * The request's form, checked once, before anything else looks at it
 * (Redis's processCommand()): a name that is no command, then a count of
 * words the command's arity does not allow.
 */
int
cmd_check(const struct cmd_def *d, const struct cmd_args *args,
    struct reply *out)
{
	if (d == NULL) {
		reply_error(out, "ERR", "unknown command '%.64s'",
		    args->argc > 0 ? args->argv[0] : "");
		out->rejected = 1;
		return -1;
	}
	if (!cmd_arity_ok(d, args->argc)) {
		cmd_reply_arity(out, d);
		return -1;
	}
	return 0;
}

/* A reading command's target (struct cmd_target), loaded into g once
 * its words are read: 0, or -1 with NOGAME, WRONGTYPE or STORE set. */
static int
target_load(struct cmd_env *env, struct cmd_parsed *p, struct game *g,
    struct reply *out)
{
	const struct cmd_target	*t = &p->def->target;

	if (!(t->flags & CMD_TARGET_GAME) || (p->def->flags & CMD_WRITE))
		return 0;
	if (cmd_read_game(env, out, p->v[t->arg].s, t->kind, g) == -1)
		return -1;
	p->game = g;
	return 0;
}

/*
 * The run of a request whose words are read: its target, then the
 * handler.  A read's target is loaded here, on the stack.
 */
void
cmd_run_parsed(struct cmd_env *env, struct cmd_parsed *p, struct reply *out,
    struct cmd_result *res)
{
	struct game	 g;

	(void)cmd_txn_request(env);
	if (target_load(env, p, &g, out) == 0)
		p->def->proc(env, p, out);
	p->game = NULL;
	/* Anything but a refusal of the request's words may have read what
	 * the open transaction wrote. */
	cmd_txn_status(env, res);
	res->wait = res->writes > 0 && !out->rejected;
}

/* The same from its words; a create's game is built here, on the stack,
 * while its options are read. */
void
cmd_run_def(struct cmd_env *env, const struct cmd_def *cmd,
    const struct cmd_args *args, struct reply *out, struct cmd_result *res)
{
	struct cmd_parsed	 p;
	struct cmd_build	 build;

	if (cmd_parse(cmd, args, &p, &build, out) == 0)
		cmd_run_parsed(env, &p, out, res);
	else
		cmd_txn_status(env, res);
}

void
cmd_run(struct cmd_env *env, const struct cmd_args *args, struct reply *out,
    struct cmd_result *res)
{
	const struct cmd_def	*d = cmd_find(args);

	if (cmd_check(d, args, out) == 0)
		cmd_run_def(env, d, args, out, res);
	else
		cmd_txn_status(env, res);
}

void
cmd_execute(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct cmd_result	 res;

	cmd_run(env, args, out, &res);
}

void
cmd_executev(struct cmd_env *env, struct reply *out, const char *first, ...)
{
	struct cmd_args	 args;
	va_list		 ap;
	const char	*s;
	int		 n = 0, i;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *))
		n++;
	va_end(ap);

	memset(&args, 0, sizeof(args));
	args.argc = n;
	args.argv = xcalloc((size_t)n + 1, sizeof(*args.argv));
	args.argl = xcalloc((size_t)n + 1, sizeof(*args.argl));
	va_start(ap, first);
	for (i = 0, s = first; i < n; i++, s = va_arg(ap, const char *)) {
		args.argv[i] = (char *)s;	/* handlers never write argv */
		args.argl[i] = strlen(s);
	}
	va_end(ap);
	cmd_execute(env, &args, out);
	free(args.argv);
	free(args.argl);
}