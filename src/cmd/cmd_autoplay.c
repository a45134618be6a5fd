/*
 * The moves the server makes by itself: cmd_autoplay() and
 * cmd_due_games() for the daemon's timers.
 *
 * The server owes a game a move when its games row has a deadline at or
 * before now: a bot's turn is due at once (its deadline is the time the
 * turn began), a person's turn turn-timeout seconds after it began.  So
 * one stored column, indexed, tells a restarted daemon everything it has
 * to do, and a restart neither forgets nor resets a deadline.  The move
 * itself is the kind's (its autoplay hook), made with the server's
 * randomness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "cmd/cmd_txn.h"
#include "engine/bot.h"
#include "util/util.h"

struct auto_arg {
	int64_t	 now_ms;
	int64_t	 deadline;	/* the loaded game's */
	int	 over;
};

static enum turn_outcome
auto_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct auto_arg		*aa = arg;
	const struct game_kind_ops	*k = game_kind_of(old);
	enum bot_strategy	 strategy = BOT_FIRST;
	char			 why[64];
	int			 turn = game_turn(old);

	aa->deadline = old->opts.deadline;
	aa->over = turn < 0;
	if (turn < 0 || turn >= GAME_MAX_PLAYERS || aa->deadline == 0 ||
	    aa->deadline > aa->now_ms) {
		reply_status(out, "NOT_DUE");
		return TURN_NONE;
	}
	if (old->opts.bot[turn] != 0)
		strategy = (enum bot_strategy)(old->opts.bot[turn] - 1);
	if (k == NULL) {
		reply_error(out, "STATE", "unknown kind");
		return TURN_NONE;
	}
	if (k->autoplay(old, new, mv, turn, (int)strategy, &cmd_randomness,
	    why, sizeof(why)) != 0) {
		reply_error(out, "STATE", "%s", why);
		return TURN_NONE;
	}
	mv->by = old->opts.bot[turn] != 0 ? MOVE_BOT : MOVE_TIMEOUT;
	return TURN_MOVE;
}

int
cmd_autoplay(struct cmd_env *env, const char *game, int64_t now_ms,
    struct move *played, int64_t *next_ms)
{
	struct auto_arg		 aa;
	struct reply		 r;
	struct move		 mv;
	struct game		*after = xmalloc(sizeof(*after));
	enum turn_outcome	 oc;
	int			 ret = 0;

	memset(&aa, 0, sizeof(aa));
	memset(&r, 0, sizeof(r));
	aa.now_ms = now_ms;
	aa.over = 1;
	*next_ms = 0;
	(void)cmd_txn_request(env);
	oc = cmd_transact_at(env, &r, game, KIND_NONE, NULL, auto_step, &aa,
	    now_ms, &mv, after);
	if (oc == TURN_MOVE) {
		if (played != NULL)
			*played = mv;
		*next_ms = after->opts.deadline;	/* the next turn's */
		ret = 1;
	} else if (reply_is_error(&r))
		/* A game deleted owes no move: its timer goes. */
		ret = strncmp(r.str, "NOGAME", 6) == 0 ? 0 : -1;
	else if (!aa.over)
		*next_ms = aa.deadline;
	reply_free(&r);
	free(after);
	return ret;
}

/* ------------------------------------------------------- due games */

struct due {
	char	 id[GAME_ID_MAX + 1];
	int64_t	 at;
};

struct due_list {
	struct due	*v;
	size_t		 n, cap;
};

static int
due_add(void *arg, const char *id, int64_t deadline)
{
	struct due_list	*l = arg;

	if (l->n == l->cap) {
		l->cap = l->cap == 0 ? 64 : l->cap * 2;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	snprintf(l->v[l->n].id, sizeof(l->v[0].id), "%s", id);
	l->v[l->n].at = deadline;
	l->n++;
	return 0;
}

int
cmd_due_games(struct cmd_env *env, cmd_due_cb cb, void *arg)
{
	struct due_list	 l;
	size_t		 i;

	memset(&l, 0, sizeof(l));
	/* Collected first: cb may well call into the store. */
	if (store_list_deadlines(env->store, due_add, &l) == STORE_ERR) {
		free(l.v);
		env->store_errors++;
		return -1;
	}
	for (i = 0; i < l.n; i++)
		cb(arg, l.v[i].id, l.v[i].at);
	free(l.v);
	return 0;
}
