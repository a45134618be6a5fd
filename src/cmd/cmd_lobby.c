/*
 * The matchmaker's commands: MATCH.JOIN, MATCH.CANCEL, MATCH.LIST and
 * LEADERBOARD (MATCH.WAIT, which blocks its connection, is the daemon's:
 * src/net/lobby.c).  cmd_lobby.h says what a queue is and how a group
 * becomes a game.
 *
 * MATCH.JOIN kind [option=value ...] by a logged-in account: the
 * options are the matchmaker's own (players=N or N-M, window=N,
 * bots-after=S) and the game's, which are the kind's create options
 * (rules=, six-bonus=, dice=, turn-timeout=, deck=, board= for
 * DandyLand's board...), as LUDO.CREATE and the rest take them; a game
 * whose randomness the server can draw gets dice=server unless told
 * otherwise.  They are checked at once by building, and storing
 * nowhere, the game a group of the most players would get, so that a
 * ticket the matchmaker could not seat is refused at the join, with
 * the create's own words for why.  The reply is the ticket's id, once it
 * is stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "cmd/cmd_lobby.h"
#include "lobby/rating.h"
#include "util/util.h"

#define OPTIONS_MAX	16		/* game option words of a join */
#define BOTS_AFTER_MAX	(7 * 86400)	/* a week, in seconds */
#define WINDOW_MAX	100000

static int
lobby_of(struct cmd_env *env, struct reply *out)
{
	if (env->lobby != NULL)
		return 0;
	reply_error(out, "ERR", "this server has no matchmaker");
	return -1;
}

/* ------------------------------------------------------- MATCH.JOIN */

/* What a join's words say. */
struct join {
	const struct game_kind_ops	*kind;
	int				 min, max;
	double				 window;
	int64_t				 bots_after_ms;		/* -1 none */
	const char			*words[OPTIONS_MAX];	/* the game's */
	size_t				 lens[OPTIONS_MAX];
	int				 nwords;
	int				 dice;	/* a dice= word given */
};

static int
parse_int(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *v)
{
	char		 buf[24];
	const char	*err;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_int64(buf, lo, hi, v, &err);
}

/* players=N or players=N-M, within the kind's counts and at least 2. */
static int
join_players(struct join *j, const char *v, size_t len, struct reply *out)
{
	const struct game_kind_ops	*k = j->kind;
	const char			*dash = memchr(v, '-', len);
	int64_t				 lo, hi;
	int				 kmin = k->min_players < 2 ? 2 :
					    k->min_players;

	if (dash == NULL ? parse_int(v, len, 0, INT32_MAX, &lo) != 0 :
	    parse_int(v, (size_t)(dash - v), 0, INT32_MAX, &lo) != 0 ||
	    parse_int(dash + 1, len - (size_t)(dash - v) - 1, 0, INT32_MAX,
	    &hi) != 0)
		goto bad;
	if (dash == NULL)
		hi = lo;
	if (lo < kmin || hi > k->max_players || lo > hi)
		goto bad;
	j->min = (int)lo;
	j->max = (int)hi;
	return 0;
bad:
	reply_error(out, "BADARG", "players must be N or N-M, from %d to %d "
	    "for %s", kmin, k->max_players, k->name);
	return -1;
}

static int
join_word(struct join *j, const char *w, size_t len, struct reply *out)
{
	const char	*eq = memchr(w, '=', len);
	size_t		 klen;
	int64_t		 v;

	if (eq == NULL || eq == w || memchr(w, '\0', len) != NULL ||
	    memchr(w, ' ', len) != NULL) {
		reply_error(out, "BADARG", "'%.32s' is no option=value", w);
		return -1;
	}
	klen = (size_t)(eq - w);
	eq++;
	len -= klen + 1;
	if (klen == 7 && memcmp(w, "players", 7) == 0)
		return join_players(j, eq, len, out);
	if (klen == 6 && memcmp(w, "window", 6) == 0) {
		if (parse_int(eq, len, 0, WINDOW_MAX, &v) != 0) {
			reply_error(out, "BADARG", "window must be an integer "
			    "from 0 to %d (rating points)", WINDOW_MAX);
			return -1;
		}
		j->window = (double)v;
		return 0;
	}
	if (klen == 10 && memcmp(w, "bots-after", 10) == 0) {
		if (parse_int(eq, len, 0, BOTS_AFTER_MAX, &v) != 0) {
			reply_error(out, "BADARG", "bots-after must be an "
			    "integer from 0 to %d (seconds)", BOTS_AFTER_MAX);
			return -1;
		}
		j->bots_after_ms = v * 1000;
		return 0;
	}
	if ((klen == 5 && memcmp(w, "seats", 5) == 0) ||
	    (klen == 4 && memcmp(w, "bots", 4) == 0)) {
		reply_error(out, "BADARG", "%.*s is the matchmaker's to set",
		    (int)klen, w);
		return -1;
	}
	if (j->nwords == OPTIONS_MAX) {
		reply_error(out, "BADARG", "at most %d game options",
		    OPTIONS_MAX);
		return -1;
	}
	j->dice |= klen == 4 && memcmp(w, "dice", 4) == 0;
	j->words[j->nwords] = w;
	j->lens[j->nwords++] = len + klen + 1;
	return 0;
}

static int
word_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The queue: the kind's name and the game's words, sorted. */
static int
join_queue(struct join *j, char *queue, size_t size, struct reply *out)
{
	struct strbuf	 sb;
	int		 i;

	if (!j->dice && j->kind->no_dice == NULL && j->nwords < OPTIONS_MAX)
		j->words[j->nwords++] = "dice=server";
	qsort(j->words, (size_t)j->nwords, sizeof(j->words[0]), word_cmp);
	strbuf_init(&sb, queue, size);
	strbuf_add(&sb, j->kind->name);
	for (i = 0; i < j->nwords; i++) {
		strbuf_addc(&sb, ' ');
		strbuf_add(&sb, j->words[i]);
	}
	if (strbuf_cut(&sb)) {
		reply_error(out, "BADARG", "the options are longer than %d "
		    "bytes", STORE_QUEUE_MAX);
		return -1;
	}
	return 0;
}

/* The game a group of the most players would get, bots in the seats
 * past the first if bots-after is given: refused now if it would be. */
static int
join_check(struct cmd_env *env, const struct join *j, const char *queue,
    struct reply *out)
{
	char		 names[GAME_MAX_PLAYERS][PLAYER_NAME_MAX];
	int		 bot[GAME_MAX_PLAYERS], i, rc;
	struct game	*g = xmalloc(sizeof(*g));

	for (i = 0; i < j->max; i++) {
		snprintf(names[i], sizeof(names[i]), "p%d", i + 1);
		bot[i] = i > 0 && j->bots_after_ms >= 0 ? 2 : -1;
	}
	rc = cmd_queue_build(env, queue, "join-check", j->max, names, bot, g,
	    out);
	free(g);
	return rc;
}

static int
join_write(struct cmd_env *env, void *arg, struct reply *out)
{
	struct store_ticket	*t = arg;
	int			 rc;

	rc = store_ticket_join(env->store, t, env->lobby->max_tickets);
	if (rc == STORE_LIMIT) {
		reply_error(out, "LIMIT", "account '%s' has %lld tickets "
		    "waiting (max-tickets %lld)", t->account,
		    (long long)env->lobby->max_tickets,
		    (long long)env->lobby->max_tickets);
		return -1;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

enum { JOIN_KIND, JOIN_OPTIONS };
static const struct cmd_arg join_args[] = {
	[JOIN_KIND] = { .name = "kind", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_KINDS, .check = cmd_check_kind },
	[JOIN_OPTIONS] = { .name = "option", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE,
	    .doc = "option=value ..." },
};

static int
join_read(struct cmd_env *env, const struct cmd_parsed *p, struct join *j,
    char *queue, size_t size, struct reply *out)
{
	int	 i;

	memset(j, 0, sizeof(*j));
	j->kind = game_kind_get((enum game_kind)p->v[JOIN_KIND].i);
	j->min = j->kind->min_players < 2 ? 2 : j->kind->min_players;
	j->max = j->kind->max_players;
	j->window = env->lobby->window;
	j->bots_after_ms = -1;
	for (i = 0; i < p->v[JOIN_OPTIONS].n; i++)
		if (join_word(j, cmd_word(p, JOIN_OPTIONS, i),
		    cmd_word_len(p, JOIN_OPTIONS, i), out) != 0)
			return -1;
	return join_queue(j, queue, size, out);
}

static void
match_join_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct cmd_session	*s = p->args->session;
	struct store_ticket		 t;
	struct cmd_matched		 m;
	struct join			 j;
	int				 rc;

	if (lobby_of(env, out) != 0 ||
	    cmd_logged_in(p, NULL, "MATCH.JOIN", out) != 0)
		return;
	memset(&t, 0, sizeof(t));
	if (join_read(env, p, &j, t.queue, sizeof(t.queue), out) != 0 ||
	    join_check(env, &j, t.queue, out) != 0)
		return;
	str_copy(t.account, sizeof(t.account), s->account);
	t.kind = (enum game_kind)p->v[JOIN_KIND].i;
	t.players_min = j.min;
	t.players_max = j.max;
	t.rating = RATING_INITIAL;	/* the store's, if it has one */
	t.span = j.window;
	t.bots_after = j.bots_after_ms;
	t.joined = cmd_now_ms(env);
	if (env->lobby->admit != NULL &&
	    env->lobby->admit(env->lobby->arg, out) != 0)
		return;
	rc = cmd_write(env, out, join_write, &t);
	if (env->lobby->made != NULL)
		env->lobby->made(env->lobby->arg, rc == 0);
	if (rc != 0)
		return;
	memset(&m, 0, sizeof(m));
	m.ticket = t.id;
	str_copy(m.account, sizeof(m.account), t.account);
	str_copy(m.queue, sizeof(m.queue), t.queue);
	m.kind = t.kind;
	m.seat = -1;
	cmd_note_join(env, &m);
	if (env->lobby->on_joining != NULL)
		env->lobby->on_joining(env->lobby->arg, &m);
	reply_int(out, t.id);
}

const struct cmd_def cmd_match_join_entry = {
	.name = "MATCH.JOIN",
	.spec = CMD_ARGS(join_args, 0),
	.flags = CMD_WRITE | CMD_NO_MULTI,
	.proc = match_join_cmd,
};

/* ----------------------------------------------------- MATCH.CANCEL */

#define CMD_ARG_TICKET	CMD_ARG_INT("ticket", 1, INT64_MAX)

/* The session's waiting ticket, or -1 with why not replied. */
static int
own_ticket(struct cmd_env *env, const struct cmd_parsed *p, int64_t id,
    struct store_ticket *t, struct reply *out)
{
	int	 rc;

	if ((rc = store_ticket_get(env->store, id, t)) == STORE_ERR) {
		cmd_reply_store(env, out);
		return -1;
	}
	if (rc == STORE_NOTFOUND) {
		reply_error(out, "NOTICKET", "no such ticket %lld",
		    (long long)id);
		return -1;
	}
	if (strcmp(t->account, p->args->session->account) != 0) {
		reply_error(out, "NOTICKET", "ticket %lld is another "
		    "account's", (long long)id);
		return -1;
	}
	if (t->state == TICKET_MATCHED) {
		reply_error(out, "STATE", "ticket %lld is matched (game '%s')",
		    (long long)id, t->game);
		return -1;
	}
	if (t->state == TICKET_CANCELLED) {
		reply_error(out, "STATE", "ticket %lld is cancelled already",
		    (long long)id);
		return -1;
	}
	return 0;
}

static int
cancel_write(struct cmd_env *env, void *arg, struct reply *out)
{
	const struct store_ticket	*t = arg;
	int				 rc;

	rc = store_ticket_cancel(env->store, t->id, cmd_now_ms(env));
	if (rc == STORE_NOTFOUND) {
		reply_error(out, "STATE", "ticket %lld is no longer waiting",
		    (long long)t->id);
		return -1;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

static const struct cmd_arg cancel_args[] = { CMD_ARG_TICKET };

static void
match_cancel_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct store_ticket	 t;

	if (lobby_of(env, out) != 0 ||
	    cmd_logged_in(p, NULL, "MATCH.CANCEL", out) != 0 ||
	    own_ticket(env, p, p->v[0].i, &t, out) != 0 ||
	    cmd_write(env, out, cancel_write, &t) != 0)
		return;
	reply_status(out, "OK");
}

const struct cmd_def cmd_match_cancel_entry = {
	.name = "MATCH.CANCEL",
	.spec = CMD_ARGS(cancel_args, 0),
	.flags = CMD_WRITE | CMD_NO_MULTI,
	.proc = match_cancel_cmd,
};

/* ------------------------------------------------------- MATCH.LIST */

struct list_arg {
	struct reply	*out;
	int64_t		 now;
};

/* [queue, kind, waiting, oldest's wait in ms]. */
static int
add_queue(void *arg, const char *queue, enum game_kind kind,
    int64_t waiting, int64_t oldest)
{
	struct list_arg	*l = arg;
	struct reply	*e = reply_add(l->out);

	reply_array(e);
	reply_bulk(reply_add(e), queue, strlen(queue));
	reply_bulk(reply_add(e), game_kind_name(kind),
	    strlen(game_kind_name(kind)));
	reply_int(reply_add(e), waiting);
	reply_int(reply_add(e), l->now > oldest ? l->now - oldest : 0);
	return 0;
}

static const struct cmd_arg list_args[] = {
	{ .name = "kind", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_OPTIONAL | CMD_ARG_KINDS, .def = KIND_NONE,
	    .check = cmd_check_kind },
};

static void
match_list_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct list_arg	 l = { out, cmd_now_ms(env) };

	reply_array(out);
	if (store_queues(env->store, (enum game_kind)p->v[0].i, add_queue,
	    &l) == STORE_ERR) {
		reply_free(out);
		cmd_reply_store(env, out);
	}
}

const struct cmd_def cmd_match_list_entry = {
	.name = "MATCH.LIST",
	.spec = CMD_ARGS(list_args, 0),
	.flags = CMD_READONLY,
	.proc = match_list_cmd,
};

/* ------------------------------------------------------ LEADERBOARD */

/* [rank, account, rating, rd, games, won]: the rating and RD to two
 * places, as text. */
static int
add_rank(void *arg, int64_t rank, const char *account,
    const struct store_rating *r)
{
	struct reply	*e = reply_add(arg);

	reply_array(e);
	reply_int(reply_add(e), rank);
	reply_bulk(reply_add(e), account, strlen(account));
	reply_bulkf(reply_add(e), "%.2f", r->rating);
	reply_bulkf(reply_add(e), "%.2f", r->rd);
	reply_int(reply_add(e), r->games);
	reply_int(reply_add(e), r->won);
	return 0;
}

enum { BOARD_KIND, BOARD_LIMIT, BOARD_AFTER };
static const struct cmd_arg board_args[] = {
	[BOARD_KIND] = { .name = "kind", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_KINDS, .check = cmd_check_kind },
	[BOARD_LIMIT] = CMD_ARG_KEY_INT("LIMIT", "n", 1, CMD_LIST_MAX,
	    CMD_LIST_DEFAULT),
	[BOARD_AFTER] = CMD_ARG_KEY_INT("AFTER", "rank", 0, INT64_MAX, 0),
};

static void
leaderboard_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	reply_array(out);
	if (store_leaderboard(env->store, (enum game_kind)p->v[BOARD_KIND].i,
	    p->v[BOARD_AFTER].i, p->v[BOARD_LIMIT].i, add_rank, out) ==
	    STORE_ERR) {
		reply_free(out);
		cmd_reply_store(env, out);
	}
}

const struct cmd_def cmd_leaderboard_entry = {
	.name = "LEADERBOARD",
	.spec = CMD_ARGS(board_args, 0),
	.flags = CMD_READONLY,
	.proc = leaderboard_cmd,
};
