/*
 * The multiplayer options of a game (issue 4) and the moves the server
 * makes by itself: the create options every kind shares (seats, dice,
 * bots, turn-timeout), their GAME.INFO lines, cmd_autoplay() and
 * cmd_due_games() for the daemon's timers.
 *
 * The server owes a game a move when its games row has a deadline at or
 * before now: a bot's turn is due at once (its deadline is the time the
 * turn began), a person's turn turn-timeout seconds after it began.  So
 * one stored column, indexed, tells a restarted daemon everything it has
 * to do, and a restart neither forgets nor resets a deadline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "engine/bot.h"
#include "util/util.h"

#define TIMEOUT_MAX	(7 * 24 * 3600)	/* a week per turn at most */

/* ----------------------------------------------------------- options */

void
create_opts_init(struct create_opts *o)
{
	o->seats = -1;
	o->server_dice = -1;
	o->timeout = -1;
	o->bots = NULL;
}

/* "key=value" with this key? */
static const char *
option_value(const char *arg, const char *key)
{
	size_t	 n = strlen(key);

	if (strncmp(arg, key, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	return NULL;
}

int
create_option(struct reply *out, struct create_opts *o, const char *arg)
{
	const char	*v, *errstr;

	if ((v = option_value(arg, "seats")) != NULL) {
		if (strcmp(v, "secure") == 0)
			o->seats = 1;
		else if (strcmp(v, "open") == 0)
			o->seats = 0;
		else {
			reply_error(out, "BADARG",
			    "seats must be secure or open");
			return -1;
		}
		return 1;
	}
	if ((v = option_value(arg, "dice")) != NULL) {
		if (strcmp(v, "server") == 0)
			o->server_dice = 1;
		else if (strcmp(v, "manual") == 0)
			o->server_dice = 0;
		else {
			reply_error(out, "BADARG",
			    "dice must be server or manual");
			return -1;
		}
		return 1;
	}
	if ((v = option_value(arg, "turn-timeout")) != NULL) {
		if (parse_int64(v, 0, TIMEOUT_MAX, &o->timeout, &errstr) != 0) {
			reply_error(out, "BADARG", "turn-timeout must be an "
			    "integer from 0 to %d (seconds)", TIMEOUT_MAX);
			return -1;
		}
		return 1;
	}
	if ((v = option_value(arg, "bots")) != NULL) {
		if (*v == '\0') {
			reply_error(out, "BADARG",
			    "bots must be player:strategy,...");
			return -1;
		}
		o->bots = v;
		return 1;
	}
	return 0;
}

/* One "player:strategy" of bots=, len bytes at s. */
static int
bot_one(struct reply *out, struct game *g, const char *s, size_t len)
{
	char		 buf[GAME_ID_MAX + 16];
	char		*colon;
	int		 player, strategy;

	if (len >= sizeof(buf)) {
		reply_error(out, "BADARG", "bots: '%.*s...' is too long", 20,
		    s);
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if ((colon = strchr(buf, ':')) == NULL) {
		reply_error(out, "BADARG",
		    "bots: '%s' is not player:strategy", buf);
		return -1;
	}
	*colon = '\0';
	if ((player = game_player_index(g, buf)) == -1) {
		reply_error(out, "BADARG", "bots: no player '%s'", buf);
		return -1;
	}
	if ((strategy = bot_strategy_parse(colon + 1)) == -1) {
		reply_error(out, "BADARG", "bots: strategy must be first, "
		    "aggressive or expert");
		return -1;
	}
	if (g->opts.bot[player] != 0) {
		reply_error(out, "BADARG", "bots: %s given twice", buf);
		return -1;
	}
	g->opts.bot[player] = (uint8_t)(strategy + 1);
	return 0;
}

static int
bots_parse(struct reply *out, struct game *g, const char *spec)
{
	const char	*p = spec, *comma;
	size_t		 len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (bot_one(out, g, p, len) == -1)
			return -1;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* A bot plays on the server's randomness only: who would give it dice? */
static int
bots_check(struct reply *out, const struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	int			 i, any = 0;

	for (i = 0; i < GAME_MAX_PLAYERS; i++)
		any |= g->opts.bot[i] != 0;
	if (!any || k->bot_can_play(g))
		return 0;
	reply_error(out, "BADARG", "%s", k->bot_needs);
	return -1;
}

int
create_apply(struct cmd_env *env, struct reply *out,
    const struct create_opts *o, struct game *g)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (env->require_seats && o->seats == 0) {
		reply_error(out, "BADARG",
		    "this server requires seats=secure");
		return -1;
	}
	g->opts.secure = o->seats >= 0 ? o->seats == 1 :
	    env->require_seats != 0;
	if (o->server_dice >= 0) {
		if (k->no_dice != NULL) {
			reply_error(out, "BADARG", "%s", k->no_dice);
			return -1;
		}
		g->opts.server_dice = o->server_dice == 1;
	}
	g->opts.timeout = o->timeout > 0 ? o->timeout : 0;
	if (o->bots != NULL && bots_parse(out, g, o->bots) == -1)
		return -1;
	return bots_check(out, g);
}

/* --------------------------------------------------------- GAME.INFO */

void
game_info_opts(const struct game *g, struct reply *out)
{
	const struct game_kind_ops	*k = game_kind_of(g);
	char			 name[PLAYER_NAME_MAX];
	int			 i;

	if (g->opts.secure)
		reply_add_pair(out, "seats", "secure");
	if (g->opts.server_dice && k != NULL)
		k->info_random(g, out);
	for (i = 0; i < game_nplayers(g) && i < GAME_MAX_PLAYERS; i++)
		if (g->opts.bot[i] != 0)
			reply_add_pair(out, "bot", "%s:%s",
			    game_player_name(g, i, name, sizeof(name)),
			    bot_strategy_name(g->opts.bot[i] - 1));
	if (g->opts.timeout > 0)
		reply_add_pair(out, "turn-timeout", "%lld",
		    (long long)g->opts.timeout);
	if (g->opts.deadline > 0)
		reply_add_pair(out, "deadline", "%lld",
		    (long long)g->opts.deadline);
	if (g->opts.roll != 0)
		reply_add_pair(out, "roll", "%d", g->opts.roll);
}

/* ---------------------------------------------------------- autoplay */

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
	oc = cmd_transact_at(env, &r, game, KIND_NONE, NULL, auto_step, &aa,
	    now_ms, &mv, after);
	if (oc == TURN_MOVE) {
		if (played != NULL)
			*played = mv;
		*next_ms = after->opts.deadline;	/* the next turn's */
		ret = 1;
	} else if (reply_is_error(&r))
		ret = -1;
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
