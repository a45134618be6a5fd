/*
 * The matchmaker's half in the command layer (cmd_lobby.h): the game a
 * queue's group gets, one run of the matcher over a queue, and the
 * answer MATCH.WAIT gives for a matched ticket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "cmd/cmd_lobby.h"
#include "cmd/cmd_txn.h"
#include "engine/bot.h"
#include "lobby/match.h"
#include "lobby/rating.h"
#include "util/util.h"

/* The tickets of a queue one run reads at most (the oldest). */
#define RUN_TICKETS	10000
/* Game ids tried for a group whose first id is taken. */
#define ID_TRIES	4
/* Words of a queue, at most. */
#define QUEUE_WORDS	32

void
cmd_lobby_init(struct cmd_lobby *l)
{
	memset(l, 0, sizeof(*l));
	l->window = CMD_LOBBY_WINDOW;
	l->params.widen = CMD_LOBBY_WIDEN;
	l->max_tickets = CMD_LOBBY_MAX_TICKETS;
}

/* --------------------------------------------------- a queue's game */

/* The queue's words, split in buf (a copy): the kind's name first. */
static int
queue_words(const char *queue, char *buf, size_t len, char *w[QUEUE_WORDS])
{
	char	*p, *save = NULL;
	int	 n = 0;

	str_copy(buf, len, queue);
	for (p = strtok_r(buf, " ", &save); p != NULL && n < QUEUE_WORDS;
	    p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	return n;
}

/* The value of a "name=" word, taken out of w[] (NULL if none). */
static const char *
take_word(char *w[], int *n, const char *name)
{
	size_t		 len = strlen(name);
	const char	*v;
	int		 i;

	for (i = 1; i < *n; i++)
		if (strncmp(w[i], name, len) == 0 && w[i][len] == '=') {
			v = w[i] + len + 1;
			memmove(&w[i], &w[i + 1], (size_t)(*n - i - 1) *
			    sizeof(*w));
			(*n)--;
			return v;
		}
	return NULL;
}

int
cmd_queue_build(struct cmd_env *env, const char *queue, const char *id,
    int n, char names[][PLAYER_NAME_MAX], const int bot[],
    struct game *out, struct reply *err)
{
	const struct game_kind_ops	*k;
	struct cmd_args			 args;
	struct cmd_result		 res;
	struct reply			 r;
	char				 buf[STORE_QUEUE_MAX + 1], count[16];
	char				 seat[16];
	char				 bots[GAME_MAX_PLAYERS *
					     (PLAYER_NAME_MAX + 12) + 8];
	char				*w[QUEUE_WORDS];
	char				*argv[QUEUE_WORDS + GAME_MAX_PLAYERS + 8];
	const char			*v;
	struct strbuf			 sb;
	size_t				 argl[QUEUE_WORDS + GAME_MAX_PLAYERS + 8];
	int				 nw, argc = 0, i, nbots = 0;

	nw = queue_words(queue, buf, sizeof(buf), w);
	if (nw < 1 || (k = game_kind_get(game_kind_parse(w[0]))) == NULL ||
	    k->api == NULL || k->api->create == NULL) {
		reply_error(err, "BADARG", "no kind in queue '%.64s'", queue);
		return -1;
	}
	argv[argc++] = (char *)k->api->create;
	argv[argc++] = (char *)id;
	if (k->player_name != NULL)
		for (i = 0; i < n; i++)
			argv[argc++] = names[i];
	else {
		snprintf(count, sizeof(count), "%d", n);
		argv[argc++] = count;
	}
	/* The kind's create words after its players, given as options. */
	for (i = 0; i < GAME_API_ARGS && k->api->create_args[i].name != NULL;
	    i++) {
		v = take_word(w, &nw, k->api->create_args[i].name);
		if (v == NULL && !k->api->create_args[i].optional) {
			reply_error(err, "BADARG", "%s needs %s=...", k->name,
			    k->api->create_args[i].name);
			return -1;
		}
		if (v != NULL)
			argv[argc++] = (char *)v;
	}
	for (i = 1; i < nw; i++)
		argv[argc++] = w[i];
	argv[argc++] = "seats=secure";
	strbuf_init(&sb, bots, sizeof(bots));
	strbuf_add(&sb, "bots=");
	for (i = 0; i < n; i++) {
		if (bot[i] < 0)
			continue;
		if (nbots++ > 0)
			strbuf_addc(&sb, ',');
		strbuf_add(&sb, k->player_name != NULL ? names[i] : "");
		/* A seat of a kind without names is P1..Pn; its own buffer,
		 * since count is the create's word for the players. */
		if (k->player_name == NULL) {
			snprintf(seat, sizeof(seat), "P%d", i + 1);
			strbuf_add(&sb, seat);
		}
		strbuf_addc(&sb, ':');
		strbuf_add(&sb, bot_strategy_name(bot[i]));
	}
	if (nbots > 0)
		argv[argc++] = bots;
	for (i = 0; i < argc; i++)
		argl[i] = strlen(argv[i]);
	memset(&args, 0, sizeof(args));
	args.argc = argc;
	args.argv = argv;
	args.argl = argl;
	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	env->build_only = out;
	cmd_run(env, &args, &r, &res);
	env->build_only = NULL;
	if (reply_is_error(&r)) {
		*err = r;
		return -1;
	}
	reply_free(&r);
	return 0;
}

/* ------------------------------------------------------- one run */

struct waiting {
	struct store_ticket	*t;
	size_t			 n, cap;
};

static int
collect(void *arg, const struct store_ticket *t)
{
	struct waiting	*w = arg;

	if (w->n == w->cap) {
		w->cap = w->cap == 0 ? 64 : w->cap * 2;
		w->t = xrealloc(w->t, w->cap * sizeof(*w->t));
	}
	w->t[w->n++] = *t;
	return 0;
}

/* The bot accounts, one per strategy, and their ratings of the kind. */
struct bots {
	char			 name[BOT_STRATEGIES][GAME_ID_MAX + 1];
	double			 rating[BOT_STRATEGIES];
	int			 read;
};

static int
bots_read(struct cmd_env *env, enum game_kind kind, struct bots *b)
{
	struct store_rating	 r;
	int			 i, rc;

	if (b->read)
		return 0;
	for (i = 0; i < BOT_STRATEGIES; i++) {
		snprintf(b->name[i], sizeof(b->name[i]), "bot-%s",
		    bot_strategy_name(i));
		rc = store_rating_get(env->store, b->name[i], kind, &r);
		if (rc == STORE_ERR)
			return -1;
		b->rating[i] = rc == 0 ? r.rating : RATING_INITIAL;
	}
	b->read = 1;
	return 0;
}

/* The bot whose rating is nearest the group's mean: the leaderboard
 * shows how strong each is, and a group meets the one it matches. */
static int
bot_for(const struct bots *b, double mean)
{
	double	 d, best = 0;
	int	 i, pick = BOT_STRATEGIES - 1;

	for (i = BOT_STRATEGIES - 1; i >= 0; i--) {
		d = b->rating[i] > mean ? b->rating[i] - mean :
		    mean - b->rating[i];
		if (i == BOT_STRATEGIES - 1 || d < best) {
			best = d;
			pick = i;
		}
	}
	return pick;
}

/* A group's game id: the oldest ticket's, and some random letters so
 * that a taken id (a game someone created by that name) gets another. */
static void
group_id(char id[GAME_ID_MAX + 1], int64_t ticket)
{
	static const char	 digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	uint8_t			 rnd[6];
	struct strbuf		 sb;
	char			 t[16];
	int			 i = 0;

	cmd_random_bytes(rnd, sizeof(rnd));
	do
		t[i++] = digits[ticket % 36];
	while ((ticket /= 36) > 0 && i < (int)sizeof(t));
	strbuf_init(&sb, id, GAME_ID_MAX + 1);
	strbuf_addc(&sb, 'm');
	while (i > 0)
		strbuf_addc(&sb, t[--i]);
	strbuf_addc(&sb, '-');
	for (i = 0; i < (int)sizeof(rnd); i++)
		strbuf_addc(&sb, digits[rnd[i] % 36]);
}

/* One group: its seats drawn, its game built and stored with its
 * tickets.  0 (stored, or left to the next run), or -1 (the store). */
struct group {
	int			 n, bots, seats;
	const struct store_ticket *t[MATCH_PLAYERS_MAX];
	int			 seat[MATCH_PLAYERS_MAX];	/* of t[i] */
	int			 bot[GAME_MAX_PLAYERS];		/* per seat */
	const char		*account[GAME_MAX_PLAYERS];
	char			 name[GAME_MAX_PLAYERS][PLAYER_NAME_MAX];
	int64_t			 ids[MATCH_PLAYERS_MAX];
	struct cmd_matched	 ev[MATCH_PLAYERS_MAX];
};

/* Seats in a random order: who moves first is nobody's due. */
static void
group_seats(struct group *gr)
{
	int	 order[GAME_MAX_PLAYERS], i, j, tmp;
	uint8_t	 r;

	for (i = 0; i < gr->seats; i++)
		order[i] = i;
	for (i = gr->seats - 1; i > 0; i--) {
		cmd_random_bytes(&r, 1);
		j = r % (i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < gr->seats; i++)
		gr->bot[i] = -1;
	for (i = 0; i < gr->n; i++)
		gr->seat[i] = order[i];
	for (; i < gr->seats; i++)
		gr->bot[order[i]] = 0;
}

/* Seat names: an account's name (a Ludo player is named so), a bot's
 * account name, then -2, -3 for the same bot again. */
static void
group_names(struct group *gr, const struct bots *b, int strategy)
{
	int	 i, again = 0;

	for (i = 0; i < gr->n; i++) {
		gr->account[gr->seat[i]] = gr->t[i]->account;
		str_copy(gr->name[gr->seat[i]], PLAYER_NAME_MAX,
		    gr->t[i]->account);
	}
	for (i = 0; i < gr->seats; i++) {
		if (gr->bot[i] < 0)
			continue;
		gr->bot[i] = strategy;
		gr->account[i] = b->name[strategy];
		if (again++ == 0)
			str_copy(gr->name[i], PLAYER_NAME_MAX,
			    b->name[strategy]);
		else
			snprintf(gr->name[i], PLAYER_NAME_MAX, "%s-%d",
			    b->name[strategy], again);
	}
}

static int
group_store(struct cmd_env *env, const char *queue, struct group *gr,
    const uint8_t secret[STORE_SECRET_LEN], int64_t now_ms,
    struct cmd_match_run *run)
{
	struct cmd_match_write	 cm;
	struct store_match	 m;
	struct reply		 r;
	struct game		*g;
	char			 id[GAME_ID_MAX + 1];
	int			 i, tries, rc = 0;
	uint64_t		 req;

	g = xmalloc(sizeof(*g));
	memset(&r, 0, sizeof(r));
	for (tries = 0; tries < ID_TRIES; tries++) {
		group_id(id, gr->t[0]->id);
		reply_free(&r);
		if (cmd_queue_build(env, queue, id, gr->seats, gr->name,
		    gr->bot, g, &r) != 0)
			break;		/* the queue's options: never */
		for (i = 0; i < gr->seats; i++)
			if (gr->bot[i] < 0 && cmd_account_seat(secret, id, i,
			    gr->account[i], g->opts.seat[i]) != 0)
				break;
		for (i = 0; i < gr->n; i++) {
			gr->ids[i] = gr->t[i]->id;
			memset(&gr->ev[i], 0, sizeof(gr->ev[i]));
			gr->ev[i].ticket = gr->t[i]->id;
			str_copy(gr->ev[i].account, GAME_ID_MAX + 1,
			    gr->t[i]->account);
			str_copy(gr->ev[i].queue, STORE_QUEUE_MAX + 1, queue);
			gr->ev[i].kind = g->kind;
			str_copy(gr->ev[i].game, GAME_ID_MAX + 1, id);
			gr->ev[i].seat = gr->seat[i];
			gr->ev[i].first = i == 0;
		}
		m.n = gr->n;
		m.tickets = gr->ids;
		m.seats = gr->seat;
		m.accounts = gr->account;
		m.ended = now_ms;
		cm.m = &m;
		cm.ev = gr->ev;
		cm.nev = gr->n;
		req = cmd_txn_request(env);
		reply_free(&r);
		cmd_match_game(env, &r, g, &cm);
		if (r.type == REPLY_STATUS) {
			if (run->first_req == 0)
				run->first_req = req;
			run->last_req = req;
			run->groups++;
			break;
		}
		if (reply_is_error(&r) && strncmp(r.str, "STORE", 5) == 0) {
			rc = -1;
			break;
		}
		if (!reply_is_error(&r) || strncmp(r.str, "EXISTS", 6) != 0)
			break;		/* a ticket went meanwhile */
	}
	reply_free(&r);
	free(g);
	return rc;
}

/* The ticket's group members into gr, their mean rating. */
static double
group_of(struct group *gr, const struct waiting *w,
    const struct match_group *mg, const int *members)
{
	double	 sum = 0;
	int	 i;

	gr->n = mg->n;
	gr->bots = mg->bots;
	gr->seats = mg->n + mg->bots;
	for (i = 0; i < mg->n; i++) {
		gr->t[i] = &w->t[members[mg->first + i]];
		sum += gr->t[i]->rating;
	}
	return sum / mg->n;
}

static void
next_due(const struct waiting *w, const int *used, int64_t now_ms,
    struct cmd_match_run *run)
{
	int64_t	 due;
	size_t	 i;

	for (i = 0; i < w->n; i++) {
		if (used[i] || w->t[i].bots_after < 0)
			continue;
		due = w->t[i].joined + w->t[i].bots_after;
		if (due > now_ms && (run->next_ms == 0 || due < run->next_ms))
			run->next_ms = due;
	}
}

/* The bots' ratings, if a group takes bots. */
static int
bots_needed(struct cmd_env *env, enum game_kind kind,
    const struct match_group *groups, int ng, struct bots *b)
{
	int	 k;

	for (k = 0; k < ng; k++)
		if (groups[k].bots > 0)
			return bots_read(env, kind, b);
	return 0;
}

/*
 * Everything the run reads (the tickets, the bots' ratings, the secret)
 * is read first, as a request of its own that writes nothing: a store
 * that cannot show the transaction's writes to its reads then runs that
 * request again (and it writes nothing), never a group's.
 */
int
cmd_match_queue(struct cmd_env *env, const char *queue, int64_t now_ms,
    struct cmd_match_run *run)
{
	const struct match_params	*p = &env->lobby->params;
	struct waiting			 w = { NULL, 0, 0 };
	struct match_ticket		*mt = NULL;
	struct match_group		*groups = NULL;
	struct bots			 b;
	struct group			 gr;
	int				*members = NULL, *work = NULL, *used;
	int				 ng, i, k, rc = 0;
	uint8_t				 secret[STORE_SECRET_LEN];
	double				 mean;
	size_t				 n;

	memset(run, 0, sizeof(*run));
	memset(&b, 0, sizeof(b));
	(void)cmd_txn_request(env);
	if (store_tickets_waiting(env->store, queue, RUN_TICKETS, collect,
	    &w) == STORE_ERR) {
		env->store_errors++;
		return -1;
	}
	run->waiting = (int)(n = w.n);
	if (n < 1)
		goto done;
	mt = xcalloc(n, sizeof(*mt));
	for (i = 0; i < (int)n; i++) {
		mt[i].account = w.t[i].account;
		mt[i].joined_ms = w.t[i].joined;
		mt[i].rating = w.t[i].rating;
		mt[i].window = w.t[i].span;
		mt[i].min = w.t[i].players_min;
		mt[i].max = w.t[i].players_max;
		mt[i].bots_after_ms = w.t[i].bots_after;
	}
	groups = xcalloc(n, sizeof(*groups));
	members = xcalloc(n, sizeof(*members));
	work = xcalloc(MATCH_WORK(n) + n, sizeof(*work));
	used = work + MATCH_WORK(n);
	ng = match_groups(mt, (int)n, p, now_ms, groups, (int)n, members,
	    work);
	if (ng > 0 && (bots_needed(env, w.t[0].kind, groups, ng, &b) != 0 ||
	    cmd_secret(env->store, secret) != 0))
		rc = -1;
	for (k = 0; k < ng && rc == 0; k++) {
		memset(&gr, 0, sizeof(gr));
		for (i = 0; i < groups[k].n; i++)
			used[members[groups[k].first + i]] = 1;
		mean = group_of(&gr, &w, &groups[k], members);
		group_seats(&gr);
		group_names(&gr, &b, groups[k].bots > 0 ? bot_for(&b, mean) :
		    0);
		rc = group_store(env, queue, &gr, secret, now_ms, run);
	}
	explicit_bzero(secret, sizeof(secret));
	next_due(&w, used, now_ms, run);
done:
	if (rc != 0)
		env->store_errors++;
	free(w.t);
	free(mt);
	free(groups);
	free(members);
	free(work);
	return rc;
}

/* ------------------------------------------------------ MATCH.WAIT */

int
cmd_ticket_answer(struct cmd_env *env, const char *account, int64_t ticket,
    struct reply *out)
{
	struct store_ticket	 t;
	struct game		*g;
	struct reply		*players;
	char			 name[PLAYER_NAME_MAX];
	int			 rc, i;

	rc = store_ticket_get(env->store, ticket, &t);
	if (rc == STORE_NOTFOUND || (rc == 0 && account != NULL &&
	    strcmp(t.account, account) != 0)) {
		reply_error(out, "NOTICKET", rc == STORE_NOTFOUND ?
		    "no such ticket %lld" : "ticket %lld is another "
		    "account's", (long long)ticket);
		return -1;
	}
	if (rc != 0) {
		cmd_reply_store(env, out);
		return -1;
	}
	if (t.state == TICKET_WAITING)
		return 0;
	if (t.state == TICKET_CANCELLED) {
		reply_error(out, "STATE", "ticket %lld was cancelled",
		    (long long)ticket);
		return -1;
	}
	g = xmalloc(sizeof(*g));
	if (cmd_read_game(env, out, t.game, KIND_NONE, g) != 0) {
		free(g);
		return -1;
	}
	reply_array(out);
	reply_bulk(reply_add(out), g->id, strlen(g->id));
	game_player_name(g, t.seat, name, sizeof(name));
	reply_bulk(reply_add(out), name, strlen(name));
	players = reply_add(out);
	reply_array(players);
	for (i = 0; i < game_nplayers(g) && i < GAME_MAX_PLAYERS; i++) {
		game_player_name(g, i, name, sizeof(name));
		reply_bulk(reply_add(players), name, strlen(name));
	}
	free(g);
	return 1;
}
