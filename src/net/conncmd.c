/*
 * Connection commands: those that concern the connection or the daemon
 * rather than a game (PING, ECHO, QUIT, INFO, COMMAND, CONFIG, GAME.WATCH
 * and GAME.UNWATCH here; HELLO, AUTH, CLIENT and the like in client.c,
 * MULTI and WATCH in multi.c, pub/sub in pubsub.c, XREAD and XRANGE in
 * stream.c), looked up before the command layer's table.  Also the
 * dispatch of every request, in Redis's order: the request's form, then
 * -NOAUTH before AUTH, then the RESP2 rule that a watching or subscribed
 * connection is a subscriber, then MULTI's queue.
 *
 * GAME.WATCH, GAME.UNWATCH, the subscription commands, WATCH, RESET and
 * INFO are barriers: they end the pass's transaction first (pass_end).
 * Each reads where a game stands or decides which events a connection
 * still gets, so it must see committed moves only; INFO's counters and
 * game counts are then exact.
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/glob.h"
#include "util/util.h"

#define CC_SUBSCRIBER	0x01	/* allowed to a RESP2 watching connection */
#define CC_BARRIER	0x02	/* ends the open transaction first (pass.c) */
#define CC_NOQUEUE	0x04	/* runs at once, even between MULTI and EXEC */
#define CC_NOMULTI	0x08	/* refused between MULTI and EXEC: a barrier
				   or a change of the connection itself */
#define CC_NOAUTH	0x10	/* runs before AUTH (requirepass) */
#define CC_STORE	0x20	/* reads the store (through the command
				   layer): an EXEC of it waits for the COMMIT */
/* What a subscription changes must see only committed moves. */
#define PUBSUB_FLAGS	(CC_SUBSCRIBER | CC_BARRIER | CC_NOMULTI)

struct conncmd {
	const char	*name;
	void		(*proc)(struct conn *, const struct cmd_args *);
	int		 arity;		/* as in the command layer */
	int		 flags;
	const char	*usage;
};

static void	command_cmd(struct conn *, const struct cmd_args *);
static void	echo_cmd(struct conn *, const struct cmd_args *);
static void	info_cmd(struct conn *, const struct cmd_args *);
static void	ping_cmd(struct conn *, const struct cmd_args *);
static void	quit_cmd(struct conn *, const struct cmd_args *);
static void	unwatch_cmd(struct conn *, const struct cmd_args *);
static void	watch_cmd(struct conn *, const struct cmd_args *);

/* Sorted by name. */
static const struct conncmd conncmds[] = {
	{ "AUTH", auth_cmd, -2, CC_NOAUTH | CC_NOMULTI,
	  "AUTH [default] password" },
	{ "CLIENT", client_cmd, -2, 0,
	  "CLIENT GETNAME | ID | INFO | KILL ... | LIST [TYPE t] |"
	  " SETINFO LIB-NAME|LIB-VER value | SETNAME name" },
	{ "COMMAND", command_cmd, -1, 0,
	  "COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST]" },
	{ "CONFIG", config_cmd, -2, 0,
	  "CONFIG GET pattern [pattern ...] | RESETSTAT" },
	{ "DISCARD", discard_cmd, 1, CC_NOQUEUE, "DISCARD" },
	{ "ECHO", echo_cmd, 2, 0, "ECHO message" },
	{ "EXEC", exec_cmd, 1, CC_NOQUEUE, "EXEC" },
	{ "GAME.UNWATCH", unwatch_cmd, -1,
	  CC_SUBSCRIBER | CC_BARRIER | CC_NOMULTI, "GAME.UNWATCH [id ...]" },
	{ "GAME.WATCH", watch_cmd, -2,
	  CC_SUBSCRIBER | CC_BARRIER | CC_NOMULTI, "GAME.WATCH id [FROM seq]" },
	{ "HELLO", hello_cmd, -1, CC_NOMULTI | CC_NOAUTH,
	  "HELLO [2|3 [AUTH default password] [SETNAME name]]" },
	{ "INFO", info_cmd, -1, CC_BARRIER | CC_NOMULTI,
	  "INFO [section ...]" },
	{ "MULTI", multi_cmd, 1, CC_NOQUEUE, "MULTI" },
	{ "PING", ping_cmd, -1, CC_SUBSCRIBER, "PING [message]" },
	{ "PSUBSCRIBE", psubscribe_cmd, -2, PUBSUB_FLAGS,
	  "PSUBSCRIBE pattern [pattern ...]" },
	{ "PUBSUB", pubsub_cmd, -2, 0,
	  "PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT" },
	{ "PUNSUBSCRIBE", punsubscribe_cmd, -1, PUBSUB_FLAGS,
	  "PUNSUBSCRIBE [pattern ...]" },
	{ "QUIT", quit_cmd, -1, CC_SUBSCRIBER | CC_NOQUEUE | CC_NOAUTH,
	  "QUIT" },
	{ "RESET", reset_cmd, 1,
	  CC_SUBSCRIBER | CC_NOQUEUE | CC_NOAUTH | CC_BARRIER, "RESET" },
	{ "SELECT", select_cmd, 2, 0, "SELECT 0" },
	{ "SUBSCRIBE", subscribe_cmd, -2, PUBSUB_FLAGS,
	  "SUBSCRIBE id [id ...]" },
	{ "TIME", time_cmd, 1, 0, "TIME" },
	{ "UNSUBSCRIBE", unsubscribe_cmd, -1, PUBSUB_FLAGS,
	  "UNSUBSCRIBE [id ...]" },
	{ "UNWATCH", unwatchkeys_cmd, 1, 0, "UNWATCH" },
	{ "WATCH", watchkeys_cmd, -2, CC_BARRIER | CC_NOQUEUE,
	  "WATCH id [id ...]" },
	{ "XRANGE", xrange_conn_cmd, -4, CC_STORE,
	  "XRANGE id start end [COUNT n]" },
	{ "XREAD", xread_conn_cmd, -4, CC_STORE,
	  "XREAD [COUNT n] [BLOCK ms] STREAMS id [id ...] last-id"
	  " [last-id ...]" },
	{ "XREVRANGE", xrevrange_conn_cmd, -4, CC_STORE,
	  "XREVRANGE id end start [COUNT n]" },
};
#define NCONNCMDS	(sizeof conncmds / sizeof conncmds[0])

static const struct conncmd *
conncmd_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < NCONNCMDS; i++)
		if (strcaseeq(name, conncmds[i].name))
			return &conncmds[i];
	return NULL;
}

int
conncmd_exists(const char *name)
{
	return conncmd_find(name) != NULL;
}

static int
arity_ok(int arity, int argc)
{
	return arity >= 0 ? argc == arity : argc >= -arity;
}

static void
reply_arity(struct conn *c, const char *name)
{
	conn_error(c, "ERR", "wrong number of arguments for '%s'", name);
}

/* A reply built here, sent, and freed. */
static void
send_reply(struct conn *c, struct reply *r)
{
	conn_reply(c, r);
	reply_free(r);
}

static void
add_bulk(struct reply *r, const char *s)
{
	reply_bulk(reply_add(r), s, strlen(s));
}

/* A command of the command layer; res: what it tells the pass. */
static void
run_cmd(struct conn *c, const struct cmd_args *a, struct reply *r,
    struct cmd_result *res)
{
	struct cmd_env	*env = &c->srv->env;
	uint64_t	 errors = env->store_errors;

	cmd_run(env, a, r, res);
	if (env->store_errors != errors)
		log_warning("store error in %.64s: %s", a->argv[0],
		    r->str != NULL ? r->str : "?");
}

/* Before AUTH: the checks of the request's form, then -NOAUTH. */
static int
refuse_unauthenticated(struct conn *c, const struct conncmd *cc,
    const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	if (c->authed || (cc != NULL && (cc->flags & CC_NOAUTH)))
		return 0;
	if (cc != NULL && !arity_ok(cc->arity, a->argc))
		reply_arity(c, cc->name);
	else if (cc == NULL && cmd_check(a, &r) == NULL)
		conn_reply(c, &r);
	else
		conn_error(c, "NOAUTH", "Authentication required.");
	reply_free(&r);
	return 1;
}

/* For CLIENT LIST: when and what the connection last asked. */
static void
note_request(struct conn *c, const char *name)
{
	size_t	 i;

	c->last = time(NULL);
	for (i = 0; name[i] != '\0' && i + 1 < sizeof(c->lastcmd); i++)
		c->lastcmd[i] = name[i] >= 'A' && name[i] <= 'Z' ?
		    (char)(name[i] - 'A' + 'a') : name[i];
	c->lastcmd[i] = '\0';
}

/* Between MULTI and EXEC: queued, refused, or run at once. */
static int
queue_request(struct conn *c, const struct conncmd *cc,
    const struct cmd_args *a)
{
	if (cc != NULL && (cc->flags & CC_NOQUEUE))
		return 0;
	if (cc != NULL && !arity_ok(cc->arity, a->argc)) {
		multi_refuse(c, "wrong number of arguments for '%s'",
		    cc->name);
		return 1;
	}
	if (cc != NULL && (cc->flags & CC_NOMULTI))
		multi_refuse(c, "Command not allowed inside a transaction");
	else
		multi_queue(c, a, cc != NULL,
		    cc == NULL || (cc->flags & CC_STORE));
	return 1;
}

void
conn_dispatch(struct conn *c, const struct cmd_args *a)
{
	const struct conncmd	*cc;
	struct reply		 r = { 0 };
	struct cmd_result	 res;

	log_debug("%s: %.64s, %d argument(s)", c->addr, a->argv[0],
	    a->argc - 1);
	/* A name with a NUL inside is no command; cmd_execute says so. */
	cc = strlen(a->argv[0]) == a->argl[0] ? conncmd_find(a->argv[0]) :
	    NULL;
	note_request(c, a->argv[0]);
	if (refuse_unauthenticated(c, cc, a))
		return;
	if (c->proto == 2 && conn_subscribed(c) &&
	    (cc == NULL || !(cc->flags & CC_SUBSCRIBER))) {
		conn_error(c, "ERR", "Can't execute '%.64s': only "
		    "(P)SUBSCRIBE / (P)UNSUBSCRIBE / GAME.WATCH / GAME.UNWATCH "
		    "/ PING / QUIT / RESET are allowed in this context",
		    a->argv[0]);
		return;
	}
	if (multi_queuing(c) && queue_request(c, cc, a))
		return;
	if (cc != NULL) {
		if (!arity_ok(cc->arity, a->argc))
			reply_arity(c, cc->name);
		else {
			if (cc->flags & CC_BARRIER)
				pass_end(c->srv);
			cc->proc(c, a);
		}
		return;
	}
	run_cmd(c, a, &r, &res);
	/* The reply of a command that saw (or wrote) rows not committed
	 * waits for the COMMIT; the events of its move follow it then. */
	pass_reply(c, &r, &res);
	reply_free(&r);
}

void
conncmd_exec(struct conn *c, const struct cmd_args *a, struct reply *out)
{
	const struct conncmd	*cc;
	struct cmd_result	 res;

	if ((cc = conncmd_find(a->argv[0])) == NULL) {
		run_cmd(c, a, out, &res);
		return;
	}
	c->capture = out;
	cc->proc(c, a);
	c->capture = NULL;
}

/* ------------------------------------------------------ PING ECHO QUIT */

static void
ping_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	if (a->argc > 2) {
		reply_arity(c, "PING");
		return;
	}
	if (c->proto == 2 && conn_subscribed(c)) {
		/* A subscriber's PING, as Redis answers it. */
		reply_array(&r);
		add_bulk(&r, "pong");
		reply_bulk(reply_add(&r), a->argc == 2 ? a->argv[1] : "",
		    a->argc == 2 ? a->argl[1] : 0);
	} else if (a->argc == 2)
		reply_bulk(&r, a->argv[1], a->argl[1]);
	else
		reply_status(&r, "PONG");
	send_reply(c, &r);
}

static void
echo_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	reply_bulk(&r, a->argv[1], a->argl[1]);
	send_reply(c, &r);
}

static void
quit_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	(void)a;
	reply_status(&r, "OK");
	send_reply(c, &r);
	conn_close_after_flush(c);
}

/* ---------------------------------------------------------------- INFO */

struct text {
	char	*s;
	size_t	 len;
};

static void
text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
text_add(struct text *t, const char *fmt, ...)
{
	va_list	 ap;
	char	*line;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->s = xrealloc(t->s, t->len + (size_t)n + 3);
	memcpy(t->s + t->len, line, (size_t)n);
	t->len += (size_t)n;
	memcpy(t->s + t->len, "\r\n", 3);
	t->len += 2;
	free(line);
}

static void
info_server(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;
	time_t		 up = time(NULL) - srv->started;

	text_add(t, "# Server");
	text_add(t, "ludus_version:%s", PACKAGE_VERSION);
	text_add(t, "process_id:%ld", (long)getpid());
	text_add(t, "tcp_port:%d", srv->port);
	text_add(t, "uptime_in_seconds:%lld", (long long)up);
	text_add(t, "uptime_in_days:%lld", (long long)up / 86400);
}

static void
info_clients(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;
	struct conn	*o;
	int64_t		 watching = 0;

	TAILQ_FOREACH(o, &srv->conns, entry)
		if (o->nwatch > 0)
			watching++;
	text_add(t, "# Clients");
	text_add(t, "connected_clients:%lld", (long long)srv->nclients);
	text_add(t, "watching_clients:%lld", (long long)watching);
	text_add(t, "watched_games:%llu",
	    (unsigned long long)watch_games(srv));
	text_add(t, "maxclients:%lld", (long long)srv->maxclients);
}

static void
info_stats(struct conn *c, struct text *t)
{
	struct server	*srv = c->srv;

	text_add(t, "# Stats");
	text_add(t, "total_connections_received:%llu",
	    (unsigned long long)srv->conns_total);
	text_add(t, "rejected_connections:%llu",
	    (unsigned long long)srv->conns_rejected);
	text_add(t, "total_commands_processed:%llu",
	    (unsigned long long)srv->commands);
	text_add(t, "turns_committed:%llu",
	    (unsigned long long)srv->env.turns);
	text_add(t, "commits:%llu", (unsigned long long)srv->env.commits);
	text_add(t, "batches:%llu", (unsigned long long)srv->env.batches);
	text_add(t, "batch_failures:%llu",
	    (unsigned long long)srv->env.batch_failures);
	text_add(t, "largest_batch:%llu",
	    (unsigned long long)srv->env.batch_max);
	text_add(t, "batch_max_turns:%lld",
	    (long long)srv->cfg->batch_max_turns);
	text_add(t, "batch_max_usec:%lld",
	    (long long)srv->cfg->batch_max_usec);
	text_add(t, "total_net_input_bytes:%llu",
	    (unsigned long long)srv->bytes_in);
	text_add(t, "total_net_output_bytes:%llu",
	    (unsigned long long)srv->bytes_out);
	text_add(t, "protocol_errors:%llu",
	    (unsigned long long)srv->proto_errors);
}

static void
info_persistence(struct conn *c, struct text *t)
{
	struct server		*srv = c->srv;
	struct store_cache_stats cs;

	text_add(t, "# Persistence");
	text_add(t, "db:%s", srv->cfg->db);
	text_add(t, "durability:%s", durability_name(srv->cfg->durability));
	text_add(t, "store_size:%lld", (long long)store_size(srv->env.store));
	text_add(t, "store_errors:%llu",
	    (unsigned long long)srv->env.store_errors);
	store_game_cache_stats(srv->env.store, &cs);
	text_add(t, "game_cache:%lld", (long long)cs.games);
	text_add(t, "game_cache_used:%lld", (long long)cs.used);
	text_add(t, "game_cache_hits:%llu", (unsigned long long)cs.hits);
	text_add(t, "game_cache_misses:%llu",
	    (unsigned long long)cs.misses);
	text_add(t, "game_cache_flushes:%llu",
	    (unsigned long long)cs.flushes);
	text_add(t, "game_cache_mismatches:%llu",
	    (unsigned long long)cs.mismatches);
	text_add(t, "game_cache_oversize:%llu",
	    (unsigned long long)cs.oversize);
}

static void
info_games(struct conn *c, struct text *t)
{
	int64_t	 n[KIND_COUNT];
	int	 k;

	memset(n, 0, sizeof n);
	text_add(t, "# Games");
	if (store_count_games(c->srv->env.store, n) != STORE_OK) {
		text_add(t, "games_error:%s",
		    store_errmsg(c->srv->env.store));
		return;
	}
	for (k = KIND_LUDO; k < KIND_COUNT; k++)
		text_add(t, "games_%s:%lld", game_kind_name((enum game_kind)k),
		    (long long)n[k]);
	text_add(t, "games_total:%lld",
	    (long long)(n[KIND_LUDO] + n[KIND_SNL] + n[KIND_DANDY]));
	/* Games with a bot to move or a turn deadline armed. */
	text_add(t, "games_autoplay:%zu", autoplay_pending(c->srv));
}

static const struct {
	const char	*name;
	void		(*fn)(struct conn *, struct text *);
} info_sections[] = {
	{ "server", info_server },
	{ "clients", info_clients },
	{ "stats", info_stats },
	{ "persistence", info_persistence },
	{ "games", info_games },
};

static int
info_wanted(const struct cmd_args *a, const char *section)
{
	int	 i;

	if (a->argc == 1)
		return 1;
	for (i = 1; i < a->argc; i++)
		if (strcaseeq(a->argv[i], section) ||
		    strcaseeq(a->argv[i], "all") ||
		    strcaseeq(a->argv[i], "default") ||
		    strcaseeq(a->argv[i], "everything"))
			return 1;
	return 0;
}

static void
info_cmd(struct conn *c, const struct cmd_args *a)
{
	struct text	 t = { NULL, 0 };
	struct reply	 r = { 0 };
	size_t		 i;

	for (i = 0; i < sizeof info_sections / sizeof info_sections[0]; i++) {
		if (!info_wanted(a, info_sections[i].name))
			continue;
		if (t.len > 0)
			text_add(&t, "%s", "");
		info_sections[i].fn(c, &t);
	}
	reply_bulk(&r, t.s != NULL ? t.s : "", t.len);
	free(t.s);
	send_reply(c, &r);
}

/* -------------------------------------------------------------- CONFIG */

struct config_get {
	const struct cmd_args	*a;
	struct reply		*map;
};

/* Parameters are matched without regard to case, as in Redis. */
static int
param_wanted(const struct cmd_args *a, const char *name)
{
	char	 pat[128];
	size_t	 j, k;
	int	 i;

	for (i = 2; i < a->argc; i++) {
		for (j = k = 0; j < a->argl[i] && k < sizeof pat; j++, k++)
			pat[k] = a->argv[i][j] >= 'A' && a->argv[i][j] <= 'Z' ?
			    (char)(a->argv[i][j] - 'A' + 'a') : a->argv[i][j];
		if (j == a->argl[i] && glob_match(pat, k, name, strlen(name)))
			return 1;
	}
	return 0;
}

static void
config_param(void *arg, const char *name, const char *value)
{
	struct config_get	*g = arg;

	if (!param_wanted(g->a, name))
		return;
	reply_bulk(reply_add(g->map), name, strlen(name));
	reply_bulk(reply_add(g->map), value, strlen(value));
}

/* Redis's parameters that tools read (redis-benchmark asks save and
 * appendonly): what they mean here. */
static void
config_redis_params(struct config_get *g)
{
	config_param(g, "appendonly", "no");
	config_param(g, "databases", "1");
	config_param(g, "save", "");
}

/* INFO's counters from 0 again, as CONFIG RESETSTAT does in Redis. */
static void
reset_stats(struct server *srv)
{
	srv->conns_total = srv->conns_rejected = 0;
	srv->commands = srv->bytes_in = srv->bytes_out = 0;
	srv->proto_errors = 0;
	srv->env.turns = srv->env.commits = srv->env.store_errors = 0;
	srv->env.batches = srv->env.batch_failures = srv->env.batch_max = 0;
}

void
config_cmd(struct conn *c, const struct cmd_args *a)
{
	const char		*sub = a->argv[1];
	struct reply		 r = { 0 };
	struct config_get	 g = { a, &r };

	if (strcaseeq(sub, "GET") && a->argc >= 3) {
		reply_map(&r);
		config_each(c->srv->cfg, config_param, &g);
		config_redis_params(&g);
		send_reply(c, &r);
	} else if (strcaseeq(sub, "RESETSTAT") && a->argc == 2) {
		reset_stats(c->srv);
		reply_status(&r, "OK");
		send_reply(c, &r);
	} else if (strcaseeq(sub, "SET") || strcaseeq(sub, "REWRITE"))
		conn_error(c, "ERR", "CONFIG %s is not supported: ludusd reads "
		    "its configuration when it starts (ludusd.conf(5))",
		    strcaseeq(sub, "SET") ? "SET" : "REWRITE");
	else
		conn_error(c, "ERR", "unknown subcommand or wrong number of "
		    "arguments for '%.64s'. Try CONFIG HELP.", sub);
}

/* ------------------------------------------------------------- COMMAND */

/*
 * Both tables seen as one list: the connection commands, then the command
 * layer's (less any it marks as a connection command).
 */
struct cmd_view {
	const char	*name;
	int		 arity;
	int		 write;
	int		 subscriber;
	const char	*usage;
};

static int
view_at(size_t i, struct cmd_view *v)
{
	const struct cmd_def	*d;
	size_t			 j;

	if (i < NCONNCMDS) {
		v->name = conncmds[i].name;
		v->arity = conncmds[i].arity;
		v->write = 0;
		v->subscriber = conncmds[i].flags & CC_SUBSCRIBER;
		v->usage = conncmds[i].usage;
		return 1;
	}
	i -= NCONNCMDS;
	for (j = 0; (d = cmd_at(j)) != NULL; j++) {
		if ((d->flags & CMD_CONN) || conncmd_find(d->name) != NULL)
			continue;
		if (i-- == 0) {
			v->name = d->name;
			v->arity = d->arity;
			v->write = (d->flags & CMD_WRITE) != 0;
			v->subscriber = 0;
			v->usage = d->usage != NULL ? d->usage : d->name;
			return 1;
		}
	}
	return 0;
}

static int
view_find(const char *name, struct cmd_view *v)
{
	size_t	 i;

	for (i = 0; view_at(i, v); i++)
		if (strcaseeq(name, v->name))
			return 1;
	return 0;
}

static void
add_lower(struct reply *r, const char *s)
{
	struct reply	*e = reply_add(r);
	char		*p;

	reply_bulk(e, s, strlen(s));
	for (p = e->str; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
}

/*
 * One entry as Redis 7 describes a command: name, arity, flags, first
 * key, last key, step, ACL categories, tips, key specs, subcommands.
 * Game ids are not keys in the Redis sense: no key positions.
 */
static void
command_entry(struct reply *e, const struct cmd_view *v)
{
	struct reply	*flags;
	int		 i;

	reply_array(e);
	add_lower(e, v->name);
	reply_int(reply_add(e), v->arity);
	flags = reply_add(e);
	reply_array(flags);
	reply_status(reply_add(flags), v->write ? "write" : "readonly");
	if (v->subscriber)
		reply_status(reply_add(flags), "pubsub");
	for (i = 0; i < 3; i++)
		reply_int(reply_add(e), 0);
	for (i = 0; i < 4; i++)
		reply_array(reply_add(e));
}

static void
command_doc(struct reply *map, const struct cmd_view *v)
{
	struct reply	*doc;

	add_lower(map, v->name);
	doc = reply_add(map);
	reply_map(doc);
	add_bulk(doc, "summary");
	add_bulk(doc, v->usage);
	add_bulk(doc, "since");
	add_bulk(doc, PACKAGE_VERSION);
	add_bulk(doc, "group");
	add_bulk(doc, v->write ? "ludus-write" : "ludus");
}

static void
command_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };
	struct cmd_view	 v;
	const char	*sub = a->argc > 1 ? a->argv[1] : NULL;
	size_t		 i;
	int		 j;

	if (sub == NULL) {
		reply_array(&r);
		for (i = 0; view_at(i, &v); i++)
			command_entry(reply_add(&r), &v);
	} else if (strcaseeq(sub, "COUNT") && a->argc == 2) {
		for (i = 0; view_at(i, &v); i++)
			;
		reply_int(&r, (long long)i);
	} else if (strcaseeq(sub, "LIST") && a->argc == 2) {
		reply_array(&r);
		for (i = 0; view_at(i, &v); i++)
			add_lower(&r, v.name);
	} else if (strcaseeq(sub, "INFO")) {
		reply_array(&r);
		for (i = 0; a->argc == 2 && view_at(i, &v); i++)
			command_entry(reply_add(&r), &v);
		for (j = 2; j < a->argc; j++)
			if (view_find(a->argv[j], &v))
				command_entry(reply_add(&r), &v);
			else
				reply_null(reply_add(&r));
	} else if (strcaseeq(sub, "DOCS")) {
		reply_map(&r);
		for (i = 0; a->argc == 2 && view_at(i, &v); i++)
			command_doc(&r, &v);
		for (j = 2; j < a->argc; j++)
			if (view_find(a->argv[j], &v))
				command_doc(&r, &v);
	} else {
		conn_error(c, "ERR", "unknown subcommand or wrong number of "
		    "arguments for '%.64s'. Try COUNT, DOCS, INFO or LIST.",
		    sub);
		return;
	}
	send_reply(c, &r);
}

/* ------------------------------------------- GAME.WATCH GAME.UNWATCH */

/* ["watch", id, n]: a push frame in RESP3, like Redis's SUBSCRIBE. */
static void
send_watch_reply(struct conn *c, const char *kind, const char *id)
{
	struct reply	 r = { 0 };

	reply_push_type(&r);
	add_bulk(&r, kind);
	if (id != NULL)
		add_bulk(&r, id);
	else
		reply_null(reply_add(&r));
	reply_int(reply_add(&r), c->nwatch);
	send_reply(c, &r);
}

static void
watch_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };
	const char	*errstr;
	int64_t		 from = -1;

	if (a->argc != 2 && a->argc != 4) {
		reply_arity(c, "GAME.WATCH");
		return;
	}
	if (a->argc == 4) {
		if (!strcaseeq(a->argv[2], "FROM")) {
			conn_error(c, "ERR", "syntax error");
			return;
		}
		if (parse_int64(a->argv[3], 0, INT64_MAX - 1, &from,
		    &errstr) == -1) {
			conn_error(c, "BADARG", "FROM seq must be an integer "
			    ">= 0");
			return;
		}
	}
	if (!valid_id(a->argv[1], a->argl[1])) {
		conn_error(c, "BADARG", "invalid game id");
		return;
	}
	if (watch_add(c, a->argv[1], from, &r) == -1) {
		send_reply(c, &r);
		return;
	}
	send_watch_reply(c, "watch", a->argv[1]);
	/* The backlog follows the confirmation. */
	watch_pump(c);
}

static void
unwatched(struct conn *c, const char *id)
{
	send_watch_reply(c, "unwatch", id);
}

static void
unwatch_cmd(struct conn *c, const struct cmd_args *a)
{
	int	 i;

	if (a->argc == 1) {
		if (c->nwatch == 0)
			send_watch_reply(c, "unwatch", NULL);
		else
			watch_remove_all(c, unwatched);
		return;
	}
	for (i = 1; i < a->argc; i++) {
		watch_remove(c, a->argv[i]);
		send_watch_reply(c, "unwatch", a->argv[i]);
	}
}
