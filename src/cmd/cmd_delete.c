/*
 * Retiring a game: its deletion through the write path, as any write
 * (cmd_txn.c: a transaction of its own, or a savepoint of the daemon's
 * pass), so that it is all or nothing with its rows, seen by no one
 * before its COMMIT, and ordered with the turns around it.  GAME.DELETE
 * and the daemon's retention job both come here.
 */
#include <string.h>

#include "cmd/cmd_impl.h"

struct delete_arg {
	int	 force;
	int64_t	 before;
};

static enum turn_outcome
delete_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	const struct delete_arg	*d = arg;
	int			 over = game_turn(old) < 0;

	(void)new;
	(void)mv;
	if (d->before > 0 && (!over || old->updated >= d->before)) {
		reply_status(out, "KEPT");
		return TURN_NONE;
	}
	if (!over && !d->force) {
		reply_error(out, "STATE", "game '%s' is in play: GAME.DELETE "
		    "%s FORCE deletes it all the same", old->id, old->id);
		return TURN_NONE;
	}
	return TURN_DELETE;
}

int
cmd_delete_game(struct cmd_env *env, struct reply *out, const char *id,
    int force, int64_t before)
{
	struct delete_arg	 d = { force, before };
	struct move		 mv;
	enum turn_outcome	 oc;

	oc = cmd_transact_at(env, out, id, KIND_NONE, NULL, delete_step, &d,
	    cmd_now_ms(env), &mv, NULL);
	if (oc == TURN_DELETE)
		return 1;
	return out->type == REPLY_ERROR && strncmp(out->str, "STORE", 5) == 0 ?
	    -1 : 0;
}

/* -------------------------------------------------------- GAME.DELETE */

/*
 * GAME.DELETE id [FORCE]: the game goes, with every row of it; a game in
 * play only with FORCE.  On a daemon with requirepass a client must have
 * given the password, as for every command.
 */
enum { DELETE_ID, DELETE_FORCE };
static const struct cmd_alt force_alts[] = {
	{ "FORCE", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg delete_args[] = {
	[DELETE_ID] = CMD_ARG_GAME,
	[DELETE_FORCE] = { .name = "force", .type = CMD_ARG_SUBCOMMAND,
	    .flags = CMD_ARG_OPTIONAL, .alts = force_alts },
};

static void
game_delete_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct delete_arg	d = { p->v[DELETE_FORCE].i == 0, 0 };

	cmd_transact(env, p, out, NULL, delete_step, &d);
}

const struct cmd_def cmd_game_delete_entry = {
	.name = "GAME.DELETE",
	.spec = CMD_ARGS(delete_args, 0),
	.flags = CMD_WRITE,
	.target = CMD_TARGET(DELETE_ID, KIND_NONE),
	.proc = game_delete_cmd,
};
