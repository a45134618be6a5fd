/*
 * The options every kind's create shares (seats, dice, bots,
 * turn-timeout): their parsing, their checks against the game and the
 * server's settings, and their GAME.INFO lines; and the last step of
 * every create, where the daemon's quotas have their word.
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
cmd_build_init(struct cmd_build *b)
{
	memset(&b->game, 0, sizeof(b->game));
	b->opts.seats = -1;
	b->opts.server_dice = -1;
	b->opts.timeout = -1;
	b->opts.bots = NULL;
	b->deck = NULL;
	b->shuffled = 0;
}

int
cmd_opt_pair(const struct cmd_opt *o, const char *v, struct reply *out)
{
	const char	*bar = strchr(o->doc, '|');
	size_t		 n = (size_t)(bar - o->doc);

	if (strlen(v) == n && strncmp(v, o->doc, n) == 0)
		return 1;
	if (strcmp(v, bar + 1) == 0)
		return 0;
	reply_error(out, "BADARG", "%s must be %.*s or %s", o->key, (int)n,
	    o->doc, bar + 1);
	return -1;
}

int
cmd_opt_seats(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	(void)len;
	return (b->opts.seats = cmd_opt_pair(o, v, out)) == -1 ? -1 : 0;
}

int
cmd_opt_dice(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	(void)len;
	return (b->opts.server_dice = cmd_opt_pair(o, v, out)) == -1 ? -1 : 0;
}

int
cmd_opt_timeout(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	const char	*errstr;

	(void)o;
	(void)len;
	if (parse_int64(v, 0, TIMEOUT_MAX, &b->opts.timeout, &errstr) != 0) {
		reply_error(out, "BADARG", "turn-timeout must be an integer "
		    "from 0 to %d (seconds)", TIMEOUT_MAX);
		return -1;
	}
	return 0;
}

/* Kept as given: the players it names may come after it (LUDO.CREATE),
 * so it is read against the game once built (cmd_create_apply). */
int
cmd_opt_bots(const struct cmd_opt *o, struct cmd_build *b, const char *v,
    size_t len, struct reply *out)
{
	(void)o;
	if (len == 0) {
		reply_error(out, "BADARG", "bots must be player:strategy,...");
		return -1;
	}
	b->opts.bots = v;
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
cmd_create_apply(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct create_opts	*o = &p->build->opts;
	struct game			*g = &p->build->game;
	const struct game_kind_ops	*k;

	str_copy(g->id, sizeof(g->id), cmd_target_id(p));
	g->kind = p->def->target.kind;
	k = game_kind_of(g);

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

/*
 * A create's last step.  The daemon's quotas (games a client may create a
 * minute, games in all) refuse it here, after every word was checked and
 * before the store is touched, so that a refusal changes nothing and a
 * malformed create is told what is wrong with it first.  A create that
 * only builds (env->build_only: the matchmaker's) stops here too.
 */
void
cmd_create(struct cmd_env *env, struct reply *out, struct game *g)
{
	if (env->build_only != NULL) {
		*env->build_only = *g;
		reply_status(out, "OK");
		return;
	}
	if (env->create_admit != NULL &&
	    env->create_admit(env->quota_arg, out) == -1)
		return;
	cmd_create_game(env, out, g);
	if (env->created != NULL)
		env->created(env->quota_arg, out->type != REPLY_ERROR);
}

/* --------------------------------------------------------- GAME.INFO */

void
cmd_info_opts(const struct game *g, struct reply *out)
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
