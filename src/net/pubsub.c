/*
 * Redis pub/sub over games: the channel of a game is its id, and every
 * committed move of the game is published on it as a message whose
 * payload is the move's line, "seq,player,action,result" (plus ",bot" or
 * ",timeout"), the line HISTORY prints.  PSUBSCRIBE takes glob patterns
 * over ids.  Frames are Redis's: ["message", channel, payload] and
 * ["pmessage", pattern, channel, payload], arrays in RESP2 (where a
 * subscribed connection is in subscriber mode) and push frames in RESP3.
 *
 * Messages take GAME.WATCH's path (watch.c): queued at the COMMIT,
 * delivered at the end of the pass right after the reply of the command
 * that made the move, in order; this file only says who gets one.  The
 * (un)subscribe commands are barriers (the pass's transaction ends
 * first), so a subscription sees exactly the moves committed after it.
 * Nothing is replayed: GAME.WATCH FROM and XREAD resume, pub/sub is live.
 *
 * Several nodes on one store: a channel also gets the moves other nodes
 * commit, from cluster.c's feed of the games followed by name (its
 * channel among them: pubsub_each_game()).  A pattern follows no game by
 * name: it gets every move committed through its own node, and another
 * node's moves only of the games some client of its node follows by
 * name (a channel, GAME.WATCH, XREAD BLOCK, an event stream); the feed
 * never reads all games.
 *
 * An account's channel, "player:NAME", gets the matchmaker's news of the
 * account's tickets (lobby.c).  Any other channel that is no game id is
 * accepted, as Redis accepts any: it is counted and listed on its
 * connection but never gets a message.  There is no PUBLISH: the moves
 * and the lobby's news are the only messages.  A connection's
 * channels and patterns count against max-subscriptions (quota.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/glob.h"
#include "util/idmap.h"
#include "util/util.h"

#define NAME_MAX_LEN	1024	/* a channel name or pattern, at most */

struct pchan;

/* One subscription of one connection: a channel or a pattern. */
struct psub {
	TAILQ_ENTRY(psub)	 conn_entry;	/* c->subs */
	TAILQ_ENTRY(psub)	 list_entry;	/* its channel's, or patterns */
	struct conn		*conn;
	struct pchan		*chan;		/* a game's channel, or NULL */
	int			 pattern;
	size_t			 len;
	char			 name[];	/* NUL-ended */
};

TAILQ_HEAD(psub_list, psub);

/* The subscribers of one game id, or of one account's channel. */
struct pchan {
	struct psub_list	 subs;
	int64_t			 from;		/* chan_from() */
	int			 account;	/* id is an account's name */
	char			 id[GAME_ID_MAX + 1];
};

struct pubsub {
	struct idmap		*chans;		/* id -> struct pchan */
	struct idmap		*accounts;	/* name -> struct pchan of
						   "player:NAME" */
	struct psub_list	 patterns;
	size_t			 npatterns;
};

/* An account's channel: this prefix and the account's name. */
#define ACCOUNT_CHANNEL		"player:"
#define ACCOUNT_CHANNEL_LEN	(sizeof(ACCOUNT_CHANNEL) - 1)

struct pubsub *
pubsub_new(void)
{
	struct pubsub	*ps = xcalloc(1, sizeof(*ps));

	ps->chans = idmap_new();
	ps->accounts = idmap_new();
	TAILQ_INIT(&ps->patterns);
	return ps;
}

/* Connections are freed first, with their subscriptions. */
void
pubsub_free(struct pubsub *ps)
{
	struct pchan	*ch;
	size_t		 pos = 0;

	if (ps == NULL)
		return;
	while ((ch = idmap_next(ps->chans, &pos)) != NULL)
		free(ch);
	pos = 0;
	while ((ch = idmap_next(ps->accounts, &pos)) != NULL)
		free(ch);
	idmap_free(ps->chans);
	idmap_free(ps->accounts);
	free(ps);
}

int
pubsub_wants(const struct server *srv, const char *game)
{
	const struct pubsub	*ps = srv->pubsub;

	return ps->npatterns > 0 || idmap_get(ps->chans, game) != NULL;
}

/* ----------------------------------------------------------- delivery */

static void
send_message(struct conn *c, const struct psub *pat, const char *game,
    const char *line, size_t len)
{
	struct reply	 r = { 0 };

	reply_push_type(&r);
	if (pat != NULL) {
		reply_bulk(reply_add(&r), "pmessage", 8);
		reply_bulk(reply_add(&r), pat->name, pat->len);
	} else
		reply_bulk(reply_add(&r), "message", 7);
	reply_bulk(reply_add(&r), game, strlen(game));
	reply_bulk(reply_add(&r), line, len);
	conn_reply(c, &r);
	reply_free(&r);
}

void
pubsub_deliver(struct server *srv, const char *game, const struct move *mv)
{
	struct pubsub	*ps = srv->pubsub;
	struct pchan	*ch;
	struct psub	*s;
	char		 line[CMD_MOVE_LINE_MAX];
	size_t		 len;

	if (!pubsub_wants(srv, game))
		return;
	len = cmd_move_line(mv, line, sizeof(line));
	if ((ch = idmap_get(ps->chans, game)) != NULL)
		TAILQ_FOREACH(s, &ch->subs, list_entry)
			if (conn_hears(s->conn))
				send_message(s->conn, NULL, game, line, len);
	TAILQ_FOREACH(s, &ps->patterns, list_entry)
		if (conn_hears(s->conn) &&
		    glob_match(s->name, s->len, game, strlen(game)))
			send_message(s->conn, s, game, line, len);
}

void
pubsub_account(struct server *srv, const char *account, const char *msg,
    size_t len)
{
	struct pubsub	*ps = srv->pubsub;
	struct pchan	*ch;
	struct psub	*s;
	char		 name[ACCOUNT_CHANNEL_LEN + GAME_ID_MAX + 1];
	size_t		 nlen;

	if ((ch = idmap_get(ps->accounts, account)) == NULL &&
	    ps->npatterns == 0)
		return;
	nlen = (size_t)snprintf(name, sizeof(name), "%s%s", ACCOUNT_CHANNEL,
	    account);
	if (ch != NULL)
		TAILQ_FOREACH(s, &ch->subs, list_entry)
			if (s->conn->state == CONN_OPEN)
				send_message(s->conn, NULL, name, msg, len);
	TAILQ_FOREACH(s, &ps->patterns, list_entry)
		if (s->conn->state == CONN_OPEN &&
		    glob_match(s->name, s->len, name, nlen))
			send_message(s->conn, s, name, msg, len);
}

/* ------------------------------------------------------ subscriptions */

static struct psub *
sub_find(struct conn *c, int pattern, const char *name, size_t len)
{
	struct psub	*s;

	TAILQ_FOREACH(s, &c->subs, conn_entry)
		if (s->pattern == pattern && s->len == len &&
		    memcmp(s->name, name, len) == 0)
			return s;
	return NULL;
}

/*
 * Several nodes on one store (cluster.c): the moves the game had when its
 * channel was made, after which other nodes' moves reach it.  Only a
 * shared store is asked, and the subscribe is a barrier: no transaction
 * is open.  A game not made yet has none; a store that cannot say gives
 * 0 too (its first fed moves may then be old ones).
 */
static int64_t
chan_from(struct server *srv, const char *id)
{
	struct game	 g;

	if (srv->cluster == NULL ||
	    store_load_game(srv->env.store, id, &g) != STORE_OK)
		return 0;
	return g.moves;
}

void
pubsub_each_game(struct server *srv, follow_cb cb, void *arg)
{
	struct pchan	*ch;
	size_t		 pos = 0;

	while ((ch = idmap_next(srv->pubsub->chans, &pos)) != NULL)
		cb(arg, ch->id, ch->from);
}

/* Into the channel of key (a game id, or an account's name) in map. */
static void
sub_link(struct psub *s, struct idmap *map, const char *key, int64_t from)
{
	struct pchan	*ch;

	if ((ch = idmap_get(map, key)) == NULL) {
		ch = xcalloc(1, sizeof(*ch));
		TAILQ_INIT(&ch->subs);
		str_copy(ch->id, sizeof(ch->id), key);
		ch->from = from;
		ch->account = map != s->conn->srv->pubsub->chans;
		idmap_put(map, ch->id, ch);
	}
	s->chan = ch;
	TAILQ_INSERT_TAIL(&ch->subs, s, list_entry);
}

static void
sub_add(struct conn *c, int pattern, const char *name, size_t len)
{
	struct pubsub	*ps = c->srv->pubsub;
	struct psub	*s;

	s = xcalloc(1, sizeof(*s) + len + 1);
	s->conn = c;
	s->pattern = pattern;
	s->len = len;
	memcpy(s->name, name, len);
	TAILQ_INSERT_TAIL(&c->subs, s, conn_entry);
	if (pattern) {
		TAILQ_INSERT_TAIL(&ps->patterns, s, list_entry);
		ps->npatterns++;
		c->npatterns++;
		return;
	}
	c->nchannels++;
	if (len > ACCOUNT_CHANNEL_LEN && memcmp(name, ACCOUNT_CHANNEL,
	    ACCOUNT_CHANNEL_LEN) == 0 && valid_id(name + ACCOUNT_CHANNEL_LEN,
	    len - ACCOUNT_CHANNEL_LEN)) {
		sub_link(s, ps->accounts, s->name + ACCOUNT_CHANNEL_LEN, 0);
		return;
	}
	if (valid_id(name, len))
		sub_link(s, ps->chans, s->name, chan_from(c->srv, s->name));
}

static void
sub_remove(struct conn *c, struct psub *s)
{
	struct pubsub	*ps = c->srv->pubsub;

	TAILQ_REMOVE(&c->subs, s, conn_entry);
	if (s->pattern) {
		TAILQ_REMOVE(&ps->patterns, s, list_entry);
		ps->npatterns--;
		c->npatterns--;
	} else {
		c->nchannels--;
		if (s->chan != NULL) {
			TAILQ_REMOVE(&s->chan->subs, s, list_entry);
			if (TAILQ_EMPTY(&s->chan->subs)) {
				idmap_del(s->chan->account ? ps->accounts :
				    ps->chans, s->chan->id);
				free(s->chan);
			}
		}
	}
	free(s);
}

void
pubsub_remove_all(struct conn *c)
{
	struct psub	*s;

	while ((s = TAILQ_FIRST(&c->subs)) != NULL)
		sub_remove(c, s);
}

/* [kind, name or null, count]: a push frame in RESP3. */
static void
send_confirm(struct conn *c, const char *kind, const char *name, size_t len)
{
	struct reply	 r = { 0 };

	reply_push_type(&r);
	reply_bulk(reply_add(&r), kind, strlen(kind));
	if (name != NULL)
		reply_bulk(reply_add(&r), name, len);
	else
		reply_null(reply_add(&r));
	reply_int(reply_add(&r), c->nchannels + c->npatterns);
	conn_reply(c, &r);
	reply_free(&r);
}

/* The words of argument 0: the channels or patterns named. */
#define NAME(p, i)	cmd_word((p), 0, (i))
#define NAME_LEN(p, i)	cmd_word_len((p), 0, (i))

/*
 * Whether the names not subscribed yet fit in max-subscriptions
 * (quota.c): tried by subscribing to them and taking them back (each
 * name once, however often it is given), so that a request over the cap
 * subscribes to none and is answered -LIMIT.  1 when they fit.
 */
static int
subscribe_fits(struct conn *c, const struct cmd_parsed *p, int pattern)
{
	struct reply	 r = { 0 };
	int		 i, added = 0;

	for (i = 0; i < p->v[0].n; i++) {
		if (sub_find(c, pattern, NAME(p, i), NAME_LEN(p, i)) != NULL)
			continue;
		if (quota_subscribe(c, 1, &r) == -1)
			break;
		sub_add(c, pattern, NAME(p, i), NAME_LEN(p, i));
		added++;
	}
	while (added-- > 0)
		sub_remove(c, TAILQ_LAST(&c->subs, psub_conn_list));
	if (i == p->v[0].n)
		return 1;
	conn_reply(c, &r);
	reply_free(&r);
	return 0;
}

static void
subscribe(struct conn *c, const struct cmd_parsed *p, int pattern)
{
	int	 i;

	for (i = 0; i < p->v[0].n; i++)
		if (NAME_LEN(p, i) > NAME_MAX_LEN || memchr(NAME(p, i), '\0',
		    NAME_LEN(p, i)) != NULL) {
			conn_error(c, "ERR", "a channel name or pattern has at "
			    "most %d bytes, none of them NUL", NAME_MAX_LEN);
			return;
		}
	if (c->srv->cfg->max_subscriptions > 0 && !subscribe_fits(c, p,
	    pattern))
		return;
	for (i = 0; i < p->v[0].n; i++) {
		if (sub_find(c, pattern, NAME(p, i), NAME_LEN(p, i)) == NULL)
			sub_add(c, pattern, NAME(p, i), NAME_LEN(p, i));
		send_confirm(c, pattern ? "psubscribe" : "subscribe",
		    NAME(p, i), NAME_LEN(p, i));
	}
}

static void
unsubscribe(struct conn *c, const struct cmd_parsed *p, int pattern)
{
	const char	*kind = pattern ? "punsubscribe" : "unsubscribe";
	struct psub	*s, *next;
	char		 name[NAME_MAX_LEN + 1];
	size_t		 len;
	int		 i, sent = 0;

	for (i = 0; i < p->v[0].n; i++) {
		if ((s = sub_find(c, pattern, NAME(p, i), NAME_LEN(p, i))) !=
		    NULL)
			sub_remove(c, s);
		send_confirm(c, kind, NAME(p, i), NAME_LEN(p, i));
	}
	if (p->v[0].n > 0)
		return;
	for (s = TAILQ_FIRST(&c->subs); s != NULL; s = next) {
		next = TAILQ_NEXT(s, conn_entry);
		if (s->pattern != pattern)
			continue;
		len = s->len;
		memcpy(name, s->name, len);
		sub_remove(c, s);
		send_confirm(c, kind, name, len);
		sent++;
	}
	if (sent == 0)
		send_confirm(c, kind, NULL, 0);
}

extern const struct cmd_def conn_psubscribe_entry, conn_punsubscribe_entry;

/*
 * SUBSCRIBE id [id ...], PSUBSCRIBE pattern [pattern ...] and their
 * UNSUBSCRIBEs (every one when none is named): channels are game ids,
 * but any word is taken; the P commands' words are patterns.  A RESP2
 * subscriber may send them; each is a subscription (CMD_SUBSCRIPTION: it
 * decides which moves the connection still hears of).
 */
static void
subscribe_cmd(struct conn *c, const struct cmd_parsed *p)
{
	subscribe(c, p, p->def == &conn_psubscribe_entry);
}

static void
unsubscribe_cmd(struct conn *c, const struct cmd_parsed *p)
{
	unsubscribe(c, p, p->def == &conn_punsubscribe_entry);
}

#define SUBSCRIPTION	(CMD_READONLY | CMD_PUBSUB | CMD_SUBSCRIPTION)

static const struct cmd_arg subscribe_args[] = {
	{ .name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	  .nmin = 1 },
};
const struct cmd_def conn_subscribe_entry = { .name = "SUBSCRIBE",
    .spec = CMD_ARGS(subscribe_args, 0), .flags = SUBSCRIPTION,
    .conn = subscribe_cmd };

static const struct cmd_arg psubscribe_args[] = {
	{ .name = "pattern", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1 },
};
const struct cmd_def conn_psubscribe_entry = { .name = "PSUBSCRIBE",
    .spec = CMD_ARGS(psubscribe_args, 0), .flags = SUBSCRIPTION,
    .conn = subscribe_cmd };

static const struct cmd_arg unsubscribe_args[] = { CMD_ARG_STR_ANY("id") };
const struct cmd_def conn_unsubscribe_entry = { .name = "UNSUBSCRIBE",
    .spec = CMD_ARGS(unsubscribe_args, 0), .flags = SUBSCRIPTION,
    .conn = unsubscribe_cmd };

static const struct cmd_arg punsubscribe_args[] = {
	CMD_ARG_STR_ANY("pattern")
};
const struct cmd_def conn_punsubscribe_entry = { .name = "PUNSUBSCRIBE",
    .spec = CMD_ARGS(punsubscribe_args, 0), .flags = SUBSCRIPTION,
    .conn = unsubscribe_cmd };

/* ------------------------------------------------------------- PUBSUB */

/* PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT: the value
 * of argument 0 is the subcommand's index, in the order its refusal
 * lists them. */
enum { PUBSUB_CHANNELS, PUBSUB_NUMSUB, PUBSUB_NUMPAT };
static const struct cmd_arg pubsub_pattern = CMD_ARG_STR_OPT("pattern");
static const struct cmd_arg pubsub_channel = CMD_ARG_STR_ANY("channel");
static const struct cmd_alt pubsub_alts[] = {
	[PUBSUB_CHANNELS] = { "CHANNELS", &pubsub_pattern },
	[PUBSUB_NUMSUB] = { "NUMSUB", &pubsub_channel },
	[PUBSUB_NUMPAT] = { "NUMPAT", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg pubsub_args[] = {
	CMD_ARG_SUBCOMMANDS(pubsub_alts, NULL)
};

static void
pubsub_channels(struct conn *c, const struct cmd_parsed *p)
{
	struct pubsub	*ps = c->srv->pubsub;
	struct reply	 r = { 0 };
	struct pchan	*ch;
	char		 name[ACCOUNT_CHANNEL_LEN + GAME_ID_MAX + 1];
	size_t		 pos = 0, len;

	reply_array(&r);
	while ((ch = idmap_next(ps->chans, &pos)) != NULL)
		if (p->v[0].n == 0 || glob_match(NAME(p, 0), NAME_LEN(p, 0),
		    ch->id, strlen(ch->id)))
			reply_bulk(reply_add(&r), ch->id, strlen(ch->id));
	pos = 0;
	while ((ch = idmap_next(ps->accounts, &pos)) != NULL) {
		len = (size_t)snprintf(name, sizeof(name), "%s%s",
		    ACCOUNT_CHANNEL, ch->id);
		if (p->v[0].n == 0 || glob_match(NAME(p, 0), NAME_LEN(p, 0),
		    name, len))
			reply_bulk(reply_add(&r), name, len);
	}
	conn_reply(c, &r);
	reply_free(&r);
}

static void
pubsub_numsub(struct conn *c, const struct cmd_parsed *p)
{
	struct pubsub	*ps = c->srv->pubsub;
	struct reply	 r = { 0 };
	struct pchan	*ch;
	struct psub	*s;
	long long	 n;
	int		 i;

	reply_array(&r);	/* flat, in RESP3 too, as Redis */
	for (i = 0; i < p->v[0].n; i++) {
		n = 0;
		ch = NULL;
		if (valid_id(NAME(p, i), NAME_LEN(p, i)))
			ch = idmap_get(ps->chans, NAME(p, i));
		else if (NAME_LEN(p, i) > ACCOUNT_CHANNEL_LEN &&
		    memcmp(NAME(p, i), ACCOUNT_CHANNEL,
		    ACCOUNT_CHANNEL_LEN) == 0 &&
		    valid_id(NAME(p, i) + ACCOUNT_CHANNEL_LEN,
		    NAME_LEN(p, i) - ACCOUNT_CHANNEL_LEN))
			ch = idmap_get(ps->accounts, NAME(p, i) +
			    ACCOUNT_CHANNEL_LEN);
		if (ch != NULL)
			TAILQ_FOREACH(s, &ch->subs, list_entry)
				n++;
		reply_bulk(reply_add(&r), NAME(p, i), NAME_LEN(p, i));
		reply_int(reply_add(&r), n);
	}
	conn_reply(c, &r);
	reply_free(&r);
}

/* Patterns subscribed to by anyone, each counted once. */
static void
pubsub_numpat(struct conn *c)
{
	struct pubsub	*ps = c->srv->pubsub;
	struct reply	 r = { 0 };
	struct psub	*s, *t;
	long long	 n = 0;

	TAILQ_FOREACH(s, &ps->patterns, list_entry) {
		for (t = TAILQ_FIRST(&ps->patterns); t != s;
		    t = TAILQ_NEXT(t, list_entry))
			if (t->len == s->len &&
			    memcmp(t->name, s->name, s->len) == 0)
				break;
		n += t == s;
	}
	reply_int(&r, n);
	conn_reply(c, &r);
	reply_free(&r);
}

/* The subcommand and its count of words are the parser's. */
static void
pubsub_cmd(struct conn *c, const struct cmd_parsed *p)
{
	switch (p->v[0].i) {
	case PUBSUB_CHANNELS:
		pubsub_channels(c, p);
		break;
	case PUBSUB_NUMSUB:
		pubsub_numsub(c, p);
		break;
	default:
		pubsub_numpat(c);
		break;
	}
}

const struct cmd_def conn_pubsub_entry = { .name = "PUBSUB",
    .spec = CMD_ARGS(pubsub_args, 0), .flags = CMD_READONLY,
    .conn = pubsub_cmd };
