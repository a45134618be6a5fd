/*
 * Commands about games of any kind: GAMES, GAME.INFO, HISTORY, REPLAY,
 * AUDIT, and the replay both of the last two run.  A replay starts from
 * the game's initial snapshot (same rules, players, board, deck, jumps)
 * and applies each history row through the engine, checking each
 * recomputed result against the stored one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

#define AUDIT_PAGE	256	/* ids read per store_list_games() call */

/* ------------------------------------------------------------ replay */

struct replay_ctx {
	struct game	*g;
	char		*why;
	size_t		 len;
};

/* store_history() callback: 0 to go on, 1 (not STORE_ERR) to stop. */
static int
replay_one(void *arg, const struct move *mv)
{
	struct replay_ctx	*rc = arg;
	struct game		*g = rc->g;
	const struct game_kind_ops	*k = game_kind_of(g);
	char			 why[128];
	int			 r = -1;

	if (mv->seq != g->moves + 1) {
		snprintf(rc->why, rc->len, "move %lld follows move %lld",
		    (long long)mv->seq, (long long)g->moves);
		return 1;
	}
	if (k != NULL)
		r = k->replay_step(g, mv, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "unknown kind");
	if (r == -1) {
		snprintf(rc->why, rc->len, "move %lld: %s", (long long)mv->seq,
		    why);
		return 1;
	}
	g->moves = mv->seq;
	g->updated = mv->at;
	return 0;
}

static int
replay_init(const struct game *g, struct game *out)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	memset(out, 0, sizeof(*out));
	memcpy(out->id, g->id, sizeof(out->id));
	memcpy(out->players, g->players, sizeof(out->players));
	out->kind = g->kind;
	out->created = out->updated = g->created;
	return k != NULL ? k->replay_init(g, out) : -1;
}

int
cmd_replay_game(struct store *st, const struct game *g, int64_t upto,
    struct game *out, char *why, size_t len)
{
	struct replay_ctx	ctx = { out, why, len };
	int			rc;

	if (upto < 0)
		upto = g->moves;
	if (replay_init(g, out) == -1) {
		snprintf(why, len, "cannot rebuild the initial snapshot");
		return REPLAY_BAD;
	}
	if (upto == 0)
		return REPLAY_OK;
	rc = store_history(st, g->id, 1, upto, replay_one, &ctx);
	if (rc == STORE_ERR)
		return REPLAY_STORE;
	if (rc != 0)
		return REPLAY_BAD;
	if (out->moves != upto) {
		snprintf(why, len, "history has %lld moves, not %lld",
		    (long long)out->moves, (long long)upto);
		return REPLAY_BAD;
	}
	return REPLAY_OK;
}

struct words_ctx {
	struct game	*now;		/* the replay so far */
	struct game	*before;
	int		 ok;		/* it still replays */
	int64_t		 from;
	int		(*cb)(void *, const struct move *, const char *);
	void		*arg;
};

static int
words_one(void *arg, const struct move *mv)
{
	struct words_ctx		*w = arg;
	const struct game_kind_ops	*k = game_kind_of(w->now);
	char				 why[128], words[160];

	if (w->ok && k != NULL && k->move_words != NULL) {
		*w->before = *w->now;
		if (mv->seq == w->now->moves + 1 &&
		    k->replay_step(w->now, mv, why, sizeof(why)) == 0)
			w->now->moves = mv->seq;
		else
			w->ok = 0;
	} else
		w->ok = 0;
	if (mv->seq < w->from)
		return 0;
	if (w->ok)
		k->move_words(w->before, w->now, mv, words, sizeof(words));
	return w->cb(w->arg, mv, w->ok ? words : NULL) != 0;
}

int
cmd_history_words(struct store *st, const struct game *g, int64_t from,
    int64_t count, int (*cb)(void *, const struct move *, const char *),
    void *arg)
{
	struct game	*two = xcalloc(2, sizeof(*two));
	struct words_ctx w = { &two[0], &two[1], 1, from, cb, arg };
	int		 rc;

	/* The words need the game before each move: a replay from the
	 * start (the moves before from are replayed, not shown). */
	if (replay_init(g, &two[0]) == -1)
		w.ok = 0;
	rc = store_history(st, g->id, w.ok ? 1 : from, w.ok ?
	    from - 1 + count : count, words_one, &w);
	free(two);
	return rc == STORE_ERR ? STORE_ERR : STORE_OK;
}

/* Non-zero when the stored game is not what its history replays to. */
static int
replay_differs(const struct game *a, const struct game *b)
{
	const struct game_kind_ops	*k = game_kind_of(a);

	if (k == NULL || a->kind != b->kind || a->moves != b->moves)
		return 1;
	return k->differs(a, b);
}

/* A game of no kind cannot be loaded, so it has no state to show. */
static void
state_reply(const struct game *g, struct reply *out)
{
	const struct game_kind_ops	*k = game_kind_of(g);

	if (k != NULL)
		k->state_reply(g, out);
	else
		reply_error(out, "ERR", "game '%s' is of no known kind", g->id);
}

/* The commands that take a game id only. */
static const struct cmd_arg game_id_args[] = { CMD_ARG_GAME };
const struct cmd_spec cmd_game_id_args = CMD_SPEC(game_id_args, 0);

/* LUDO.STATE, SNL.STATE and DANDY.STATE: the same read of another kind
 * (each entry's target). */
void
cmd_game_state(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	(void)env;
	state_reply(p->game, out);
}

/* ------------------------------------------------------------- GAMES */

static int
add_id(void *arg, const char *id, enum game_kind kind)
{
	(void)kind;
	reply_bulk(reply_add(arg), id, strlen(id));
	return 0;
}

/* A kind's name, any case (its value: the enum game_kind). */
int
cmd_check_kind(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	char	 name[8], kinds[64];
	size_t	 i;

	(void)a;
	for (i = 0; i < sizeof(name) - 1 && i < v->len; i++)
		name[i] = (char)(v->s[i] >= 'A' && v->s[i] <= 'Z' ?
		    v->s[i] + 32 : v->s[i]);
	name[i] = '\0';
	if (v->len < sizeof(name) && strlen(v->s) == v->len &&
	    (v->i = game_kind_parse(name)) != KIND_NONE)
		return 0;
	reply_error(out, "BADARG", "kind must be %s",
	    game_kind_list(kinds, sizeof(kinds)));
	return -1;
}

/* GAMES [kind] [AFTER id] [LIMIT n]: a first word that is AFTER or
 * LIMIT is no kind. */
enum { GAMES_KIND, GAMES_AFTER, GAMES_LIMIT };
static const struct cmd_arg games_args[] = {
	[GAMES_KIND] = { .name = "kind", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_OPTIONAL | CMD_ARG_KINDS, .def = KIND_NONE,
	    .check = cmd_check_kind },
	[GAMES_AFTER] = CMD_ARG_KEY_ID("AFTER", "id", "game"),
	[GAMES_LIMIT] = CMD_ARG_KEY_INT("LIMIT", "n", 1, CMD_LIST_MAX,
	    CMD_LIST_DEFAULT),
};

static void
games_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	reply_array(out);
	if (store_list_games(env->store, (enum game_kind)p->v[GAMES_KIND].i,
	    p->v[GAMES_AFTER].s, p->v[GAMES_LIMIT].i, add_id, out) ==
	    STORE_ERR)
		cmd_reply_store(env, out);
}

const struct cmd_def cmd_games_entry = { .name = "GAMES",
    .spec = CMD_ARGS(games_args, 0), .flags = CMD_READONLY,
    .proc = games_cmd };

/* --------------------------------------------------------- GAME.INFO */

static void
game_info_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct game_kind_ops	*k;
	const struct game	*g = p->game;
	char			 buf[PLAYER_NAME_MAX];

	(void)env;
	reply_array(out);
	reply_add_pair(out, "kind", "%s", game_kind_name(g->kind));
	reply_add_pair(out, "players", "%d", game_nplayers(g));
	reply_add_pair(out, "moves", "%lld", (long long)g->moves);
	reply_add_pair(out, "turn", "%s", game_player_name(g, game_turn(g),
	    buf, sizeof buf));
	reply_add_pair(out, "winner", "%s", game_player_name(g,
	    game_winner(g), buf, sizeof buf));
	reply_add_pair(out, "created", "%lld", (long long)g->created);
	reply_add_pair(out, "updated", "%lld", (long long)g->updated);
	if ((k = game_kind_of(g)) != NULL && k->info != NULL)
		k->info(g, out);
	cmd_info_opts(g, out);
}

const struct cmd_def cmd_game_info_entry = { .name = "GAME.INFO",
    .spec = &cmd_game_id_args, .flags = CMD_READONLY,
    .target = CMD_TARGET(0, KIND_NONE), .proc = game_info_cmd };

/* ----------------------------------------------------------- HISTORY */

/* A move's line (cmd_move_line(): a move the server made is marked). */
static int
add_move(void *arg, const struct move *mv)
{
	char	buf[CMD_MOVE_LINE_MAX];

	cmd_move_line(mv, buf, sizeof(buf));
	reply_status(reply_add(arg), buf);
	return 0;
}

/* HISTORY id [from [count]]: a word too many is the arity error. */
enum { HISTORY_ID, HISTORY_FROM, HISTORY_COUNT };
static const struct cmd_arg history_args[] = {
	[HISTORY_ID] = CMD_ARG_GAME,
	[HISTORY_FROM] = CMD_ARG_INT_OPT("from", 1, INT64_MAX / 2, 1),
	[HISTORY_COUNT] = CMD_ARG_INT_OPT("count", 1, CMD_LIST_MAX,
	    CMD_LIST_DEFAULT),
};

static void
history_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	reply_array(out);
	if (store_history(env->store, p->game->id, p->v[HISTORY_FROM].i,
	    p->v[HISTORY_COUNT].i, add_move, out) == STORE_ERR)
		cmd_reply_store(env, out);
}

const struct cmd_def cmd_history_entry = { .name = "HISTORY",
    .spec = CMD_ARGS(history_args, CMD_EXCESS_ARITY), .flags = CMD_READONLY,
    .target = CMD_TARGET(HISTORY_ID, KIND_NONE), .proc = history_cmd };

/* ------------------------------------------------------------ REPLAY */

/* REPLAY id [seq]: -1, all of them. */
enum { REPLAY_ID, REPLAY_SEQ };
static const struct cmd_arg replay_args[] = {
	[REPLAY_ID] = CMD_ARG_GAME,
	[REPLAY_SEQ] = CMD_ARG_INT_OPT("seq", 0, INT64_MAX / 2, -1),
};

static void
replay_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct game	*g = p->game;
	struct game		 r;
	char			 why[256];
	int64_t			 upto = p->v[REPLAY_SEQ].i;

	if (upto > g->moves) {
		reply_error(out, "BADARG", "game '%s' has only %lld moves",
		    g->id, (long long)g->moves);
		return;
	}
	switch (cmd_replay_game(env->store, g, upto, &r, why, sizeof(why))) {
	case REPLAY_OK:
		state_reply(&r, out);
		break;
	case REPLAY_STORE:
		cmd_reply_store(env, out);
		break;
	default:
		reply_error(out, "STATE", "history of '%s' does not replay: %s",
		    g->id, why);
		break;
	}
}

const struct cmd_def cmd_replay_entry = { .name = "REPLAY",
    .spec = CMD_ARGS(replay_args, CMD_EXCESS_ARITY), .flags = CMD_READONLY,
    .target = CMD_TARGET(REPLAY_ID, KIND_NONE), .proc = replay_cmd };

/* ------------------------------------------------------------- AUDIT */

/* 1 when the game's state is not its replayed history, 0 when it is,
 * -1 when the store failed. */
static int
audit_game(struct store *st, const struct game *g)
{
	struct game	r;
	char		why[256];

	switch (cmd_replay_game(st, g, -1, &r, why, sizeof(why))) {
	case REPLAY_OK:
		return replay_differs(g, &r);
	case REPLAY_STORE:
		return -1;
	default:
		return 1;
	}
}

/* AUDIT checks what is on disk: the rows, never the store's cache of
 * games (whose entries that differ from the rows it drops and counts). */
static int
audit_read(struct cmd_env *env, struct reply *out, const char *id,
    struct game *g)
{
	int	rc;

	rc = store_load_game_stored(env->store, id, g);
	if (rc == STORE_NOTFOUND) {
		reply_error(out, "NOGAME", "no such game '%s'", id);
		return -1;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

struct id_page {
	char	ids[AUDIT_PAGE][GAME_ID_MAX + 1];
	int	n;
};

static int
page_id(void *arg, const char *id, enum game_kind kind)
{
	struct id_page	*p = arg;

	(void)kind;
	if (p->n < AUDIT_PAGE)
		snprintf(p->ids[p->n++], sizeof(p->ids[0]), "%s", id);
	return 0;
}

/* Audits every game, a page of ids at a time so that no store call runs
 * inside another's callback. */
static void
audit_all(struct cmd_env *env, struct reply *out)
{
	struct id_page	*page = xmalloc(sizeof(*page));
	char		 after[GAME_ID_MAX + 1] = "";
	struct game	 g;
	int		 i, rc;

	reply_array(out);
	do {
		page->n = 0;
		if (store_list_games(env->store, KIND_NONE,
		    after[0] != '\0' ? after : NULL, AUDIT_PAGE, page_id,
		    page) == STORE_ERR)
			goto fail;
		for (i = 0; i < page->n; i++) {
			rc = store_load_game_stored(env->store, page->ids[i],
			    &g);
			if (rc == STORE_NOTFOUND)
				continue;	/* gone meanwhile */
			if (rc != STORE_OK ||
			    (rc = audit_game(env->store, &g)) == -1)
				goto fail;
			if (rc == 1)
				reply_bulk(reply_add(out), g.id, strlen(g.id));
		}
		if (page->n > 0)
			memcpy(after, page->ids[page->n - 1], sizeof(after));
	} while (page->n == AUDIT_PAGE);
	free(page);
	return;
fail:
	free(page);
	cmd_reply_store(env, out);
}

/* AUDIT [id]: every game, or one. */
static const struct cmd_arg audit_args[] = { CMD_ARG_GAME_OPT };

static void
audit_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct game	g;
	int		rc;

	if (p->v[0].s == NULL) {
		audit_all(env, out);
		return;
	}
	if (audit_read(env, out, p->v[0].s, &g) == -1)
		return;
	if ((rc = audit_game(env->store, &g)) == -1) {
		cmd_reply_store(env, out);
		return;
	}
	reply_array(out);
	if (rc == 1)
		reply_bulk(reply_add(out), g.id, strlen(g.id));
}

const struct cmd_def cmd_audit_entry = { .name = "AUDIT",
    .spec = CMD_ARGS(audit_args, CMD_EXCESS_ARITY), .flags = CMD_READONLY,
    .proc = audit_cmd };
