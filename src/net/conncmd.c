/*
 * Connection commands: those that concern the connection or the daemon
 * rather than a game.  They are entries of the command layer's one table
 * (CMD_CONN, their arguments declared in src/cmd/cmd_conn.c), and their
 * handlers are found by the entry's enum cmd_conn in conn_procs[] below:
 * PING, ECHO, QUIT, INFO, COMMAND, CONFIG, GAME.WATCH and GAME.UNWATCH
 * here; HELLO, AUTH, CLIENT and the like in client.c, MULTI and WATCH in
 * multi.c, pub/sub in pubsub.c.  XRANGE, XREVRANGE and XREAD are the
 * command layer's (CMD_STREAM), which stream.c delivers its own way.
 *
 * Also the dispatch of every request, one lookup for both kinds, in
 * Redis's order: the request's form, then -NOAUTH before AUTH, then the
 * RESP2 rule that a watching or subscribed connection is a subscriber
 * (only the CMD_PUBSUB commands), then MULTI's queue.
 *
 * GAME.WATCH, GAME.UNWATCH, the subscription commands, WATCH, RESET and
 * INFO are barriers: they end the pass's transaction first
 * (pass_barrier()).
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

/* What the daemon does around a connection command's handler. */
#define CC_BARRIER	0x01	/* ends the open transaction first (pass.c) */
#define CC_NOQUEUE	0x02	/* runs at once, even between MULTI and EXEC */
#define CC_NOMULTI	0x04	/* refused between MULTI and EXEC: a barrier
				   or a change of the connection itself */
#define CC_NOAUTH	0x08	/* runs before AUTH (requirepass) */
/* What a subscription changes must see only committed moves. */
#define CC_SUBSCRIPTION	(CC_BARRIER | CC_NOMULTI)

/* Each handler gets the request as cmd_parse() read it by the entry's
 * declared arguments (src/cmd/cmd_conn.c), whose indexes these are. */
struct conn_proc {
	void		(*proc)(struct conn *, const struct cmd_parsed *);
	int		 flags;
};

static void	command_cmd(struct conn *, const struct cmd_parsed *);
static void	config_cmd(struct conn *, const struct cmd_parsed *);
static void	echo_cmd(struct conn *, const struct cmd_parsed *);
static void	game_unwatch_cmd(struct conn *, const struct cmd_parsed *);
static void	game_watch_cmd(struct conn *, const struct cmd_parsed *);
static void	info_cmd(struct conn *, const struct cmd_parsed *);
static void	ping_cmd(struct conn *, const struct cmd_parsed *);
static void	quit_cmd(struct conn *, const struct cmd_parsed *);

/* The handlers of the table's CMD_CONN entries, by their enum cmd_conn. */
static const struct conn_proc conn_procs[CMD_CONN_COUNT] = {
	[CONN_AUTH] = { auth_cmd, CC_NOAUTH | CC_NOMULTI },
	[CONN_CLIENT] = { client_cmd, 0 },
	[CONN_COMMAND] = { command_cmd, 0 },
	[CONN_CONFIG] = { config_cmd, 0 },
	[CONN_DISCARD] = { discard_cmd, CC_NOQUEUE },
	[CONN_ECHO] = { echo_cmd, 0 },
	[CONN_EXEC] = { exec_cmd, CC_NOQUEUE },
	[CONN_GAME_UNWATCH] = { game_unwatch_cmd, CC_SUBSCRIPTION },
	[CONN_GAME_WATCH] = { game_watch_cmd, CC_SUBSCRIPTION },
	[CONN_HELLO] = { hello_cmd, CC_NOAUTH | CC_NOMULTI },
	[CONN_INFO] = { info_cmd, CC_BARRIER | CC_NOMULTI },
	[CONN_MULTI] = { multi_cmd, CC_NOQUEUE },
	[CONN_PING] = { ping_cmd, 0 },
	[CONN_PSUBSCRIBE] = { psubscribe_cmd, CC_SUBSCRIPTION },
	[CONN_PUBSUB] = { pubsub_cmd, 0 },
	[CONN_PUNSUBSCRIBE] = { punsubscribe_cmd, CC_SUBSCRIPTION },
	[CONN_QUIT] = { quit_cmd, CC_NOQUEUE | CC_NOAUTH },
	[CONN_RESET] = { reset_cmd, CC_NOQUEUE | CC_NOAUTH | CC_BARRIER },
	[CONN_SELECT] = { select_cmd, 0 },
	[CONN_SUBSCRIBE] = { subscribe_cmd, CC_SUBSCRIPTION },
	[CONN_TIME] = { time_cmd, 0 },
	[CONN_UNSUBSCRIBE] = { unsubscribe_cmd, CC_SUBSCRIPTION },
	[CONN_UNWATCH] = { unwatchkeys_cmd, 0 },
	[CONN_WATCH] = { watchkeys_cmd, CC_BARRIER | CC_NOQUEUE },
};

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

/* The daemon's flags of an entry (none for the command layer's). */
static int
cc_flags(const struct cmd_def *d)
{
	return d != NULL && (d->flags & CMD_CONN) ? conn_procs[d->conn].flags :
	    0;
}

/* ------------------------------------------------------- the dispatch */

void
conncmd_run(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, struct reply *r, struct cmd_result *res)
{
	struct cmd_env	*env = &c->srv->env;
	uint64_t	 errors = env->store_errors;

	/* A create's quota is this connection's (quota.c). */
	quota_enter_conn(c->srv, c);
	cmd_run_def(env, d, a, r, res);
	quota_leave(c->srv);
	if (env->store_errors != errors)
		log_warning("store error in %.64s: %s", a->argv[0],
		    r->str != NULL ? r->str : "?");
}

/* A request refused for its form (no such command, a wrong number of
 * words), as the command layer words it: 1 with the reply in r. */
static int
form_refused(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, struct reply *r)
{
	struct cmd_result	 res;

	if (d != NULL && cmd_arity_ok(d, a->argc))
		return 0;
	if (d == NULL)
		cmd_run_def(&c->srv->env, NULL, a, r, &res);
	else
		reply_error(r, "ERR", "wrong number of arguments for '%s'",
		    d->name);
	return 1;
}

/* Before AUTH: the checks of the request's form, then -NOAUTH. */
static int
refuse_unauthenticated(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	if (c->authed || (cc_flags(d) & CC_NOAUTH))
		return 0;
	if (form_refused(c, d, a, &r))
		send_reply(c, &r);
	else
		conn_error(c, "NOAUTH", "Authentication required.");
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

/* Between MULTI and EXEC: queued, refused, or run at once (0). */
static int
queue_request(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a)
{
	struct reply	 r = { 0 };

	if (cc_flags(d) & CC_NOQUEUE)
		return 0;
	if (form_refused(c, d, a, &r))
		multi_abort(c, &r);
	else if (cc_flags(d) & CC_NOMULTI)
		multi_refuse(c, "Command not allowed inside a transaction");
	else
		multi_queue(c, a, !(d->flags & CMD_CONN));
	reply_free(&r);
	return 1;
}

/*
 * A connection command: its arity, the barrier, its arguments (after the
 * barrier, as when each handler read its own), then its handler.
 */
static void
conn_run(struct conn *c, const struct cmd_def *d, const struct cmd_args *a)
{
	const struct conn_proc	*cp = &conn_procs[d->conn];
	struct cmd_parsed	 p;
	struct reply		 r = { 0 };

	if (!cmd_arity_ok(d, a->argc)) {
		reply_arity(c, d->name);
		return;
	}
	if (cp->flags & CC_BARRIER)
		pass_barrier(c->srv);
	if (cmd_parse(d, a, &p, NULL, &r) == -1) {
		send_reply(c, &r);
		return;
	}
	cp->proc(c, &p);
}

void
conn_dispatch(struct conn *c, const struct cmd_args *a)
{
	const struct cmd_def	*d;
	struct reply		 r = { 0 };
	struct cmd_result	 res;

	log_debug("%s: %.64s, %d argument(s)", c->addr, a->argv[0],
	    a->argc - 1);
	/* The one lookup of the request (NULL: no command, which the
	 * command layer says). */
	d = cmd_find(a);
	note_request(c, a->argv[0]);
	if (refuse_unauthenticated(c, d, a))
		return;
	if (c->proto == 2 && conn_subscribed(c) &&
	    (d == NULL || !(d->flags & CMD_PUBSUB))) {
		conn_error(c, "ERR", "Can't execute '%.64s': only "
		    "(P)SUBSCRIBE / (P)UNSUBSCRIBE / GAME.WATCH / GAME.UNWATCH "
		    "/ PING / QUIT / RESET are allowed in this context",
		    a->argv[0]);
		return;
	}
	if (multi_queuing(c) && queue_request(c, d, a))
		return;
	if (d != NULL && (d->flags & CMD_CONN)) {
		conn_run(c, d, a);
		return;
	}
	if (d != NULL && (d->flags & CMD_STREAM)) {
		stream_run(c, d, a);
		return;
	}
	conncmd_run(c, d, a, &r, &res);
	/* The reply of a command that saw (or wrote) rows not committed
	 * waits for the COMMIT; the events of its move follow it then. */
	pass_reply(c, a, &r, &res);
	reply_free(&r);
}

void
conncmd_again(struct conn *c, const struct cmd_args *a, struct reply *r,
    struct cmd_result *res)
{
	const struct cmd_def	*d = cmd_find(a);

	conncmd_run(c, d, a, r, res);
	if (d != NULL && (d->flags & CMD_STREAM))
		stream_again(c, d, a, r);
}

void
conncmd_exec(struct conn *c, const struct cmd_args *a, struct reply *out)
{
	const struct cmd_def	*d = cmd_find(a);
	struct cmd_parsed	 p;
	struct cmd_result	 res;

	/* Queued: found, its arity right, no barrier. */
	if (!(d->flags & (CMD_CONN | CMD_STREAM))) {
		conncmd_run(c, d, a, out, &res);
		return;
	}
	c->capture = out;
	if (!(d->flags & CMD_CONN))
		stream_run(c, d, a);
	else if (cmd_parse(d, a, &p, NULL, out) == 0)
		conn_procs[d->conn].proc(c, &p);
	c->capture = NULL;
}

/* ------------------------------------------------------ PING ECHO QUIT */

/* PING [message] */
static void
ping_cmd(struct conn *c, const struct cmd_parsed *p)
{
	const struct cmd_val	*msg = &p->v[0];
	struct reply		 r = { 0 };

	if (c->proto == 2 && conn_subscribed(c)) {
		/* A subscriber's PING, as Redis answers it. */
		reply_array(&r);
		add_bulk(&r, "pong");
		reply_bulk(reply_add(&r), msg->s != NULL ? msg->s : "",
		    msg->len);
	} else if (msg->s != NULL)
		reply_bulk(&r, msg->s, msg->len);
	else
		reply_status(&r, "PONG");
	send_reply(c, &r);
}

/* ECHO message */
static void
echo_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	reply_bulk(&r, p->v[0].s, p->v[0].len);
	send_reply(c, &r);
}

static void
quit_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	(void)p;
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

/* What the security checks refused: foreign connections (an HTTP
 * request or a TLS handshake on the RESP port, sniff.h), those left out
 * of the log, and each quota's refusals (limit_refused_create_rate ...). */
static void
info_refusals(struct server *srv, struct text *t)
{
	char	 name[64];
	size_t	 i;
	int	 l;

	text_add(t, "foreign_connections_closed:%llu",
	    (unsigned long long)srv->foreign_closed);
	text_add(t, "foreign_connections_unlogged:%llu",
	    (unsigned long long)quota_unlogged(srv));
	for (l = 0; l < QUOTA_COUNT; l++) {
		str_copy(name, sizeof name, quota_name((enum quota_limit)l));
		for (i = 0; name[i] != '\0'; i++)
			if (name[i] == '-')
				name[i] = '_';
		text_add(t, "limit_refused_%s:%llu", name,
		    (unsigned long long)quota_refused(srv,
		    (enum quota_limit)l));
	}
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
	text_add(t, "conflicts:%llu", (unsigned long long)srv->env.conflicts);
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
	info_refusals(srv, t);
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
	int64_t	 n[KIND_COUNT], total = 0;
	int	 k;

	memset(n, 0, sizeof n);
	text_add(t, "# Games");
	if (store_count_games(c->srv->env.store, n) != STORE_OK) {
		text_add(t, "games_error:%s",
		    store_errmsg(c->srv->env.store));
		return;
	}
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++) {
		text_add(t, "games_%s:%lld", game_kind_name((enum game_kind)k),
		    (long long)n[k]);
		total += n[k];
	}
	text_add(t, "games_total:%lld", (long long)total);
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

/* INFO [section ...]: every section when none is named. */
static int
info_wanted(const struct cmd_parsed *p, const char *section)
{
	const char	*w;
	int		 i;

	if (p->v[0].n == 0)
		return 1;
	for (i = 0; i < p->v[0].n; i++) {
		w = cmd_word(p, 0, i);
		if (strcaseeq(w, section) || strcaseeq(w, "all") ||
		    strcaseeq(w, "default") || strcaseeq(w, "everything"))
			return 1;
	}
	return 0;
}

static void
info_cmd(struct conn *c, const struct cmd_parsed *a)
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
	const struct cmd_parsed	*p;
	struct reply		*map;
};

/* Parameters are matched without regard to case, as in Redis. */
static int
param_wanted(const struct cmd_parsed *p, const char *name)
{
	const char	*w;
	char		 pat[128];
	size_t		 j, k, len;
	int		 i;

	for (i = 0; i < p->v[0].n; i++) {
		w = cmd_word(p, 0, i);
		len = cmd_word_len(p, 0, i);
		for (j = k = 0; j < len && k < sizeof pat; j++, k++)
			pat[k] = w[j] >= 'A' && w[j] <= 'Z' ?
			    (char)(w[j] - 'A' + 'a') : w[j];
		if (j == len && glob_match(pat, k, name, strlen(name)))
			return 1;
	}
	return 0;
}

static void
config_param(void *arg, const char *name, const char *value)
{
	struct config_get	*g = arg;

	if (!param_wanted(g->p, name))
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
	srv->proto_errors = srv->foreign_closed = 0;
	quota_reset_stats(srv);
	srv->env.turns = srv->env.commits = srv->env.store_errors = 0;
	srv->env.batches = srv->env.batch_failures = srv->env.batch_max = 0;
}

/* CONFIG GET pattern [pattern ...] | RESETSTAT; SET and REWRITE refused. */
static void
config_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply		 r = { 0 };
	struct config_get	 g = { p, &r };

	switch (p->v[0].i) {
	case CONN_CONFIG_GET:
		reply_map(&r);
		config_each(c->srv->cfg, config_param, &g);
		config_redis_params(&g);
		send_reply(c, &r);
		break;
	case CONN_CONFIG_RESETSTAT:
		reset_stats(c->srv);
		reply_status(&r, "OK");
		send_reply(c, &r);
		break;
	default:
		conn_error(c, "ERR", "CONFIG %s is not supported: ludusd reads "
		    "its configuration when it starts (ludusd.conf(5))",
		    p->v[0].i == CONN_CONFIG_SET ? "SET" : "REWRITE");
		break;
	}
}

/* ------------------------------------------------------------- COMMAND */

/*
 * COMMAND's list: the connection commands, then the others, in table
 * order (the order it had when they were two tables).
 */
static const struct cmd_def *
listed_at(size_t i)
{
	const struct cmd_def	*d;
	size_t			 j;
	int			 conn;

	for (conn = 1; conn >= 0; conn--)
		for (j = 0; (d = cmd_at(j)) != NULL; j++)
			if (((d->flags & CMD_CONN) != 0) == conn && i-- == 0)
				return d;
	return NULL;
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
command_entry(struct reply *e, const struct cmd_def *d)
{
	struct reply	*flags;
	int		 i;

	reply_array(e);
	add_lower(e, d->name);
	reply_int(reply_add(e), d->arity);
	flags = reply_add(e);
	reply_array(flags);
	reply_status(reply_add(flags), (d->flags & CMD_WRITE) ? "write" :
	    "readonly");
	if (d->flags & CMD_PUBSUB)
		reply_status(reply_add(flags), "pubsub");
	for (i = 0; i < 3; i++)
		reply_int(reply_add(e), 0);
	for (i = 0; i < 4; i++)
		reply_array(reply_add(e));
}

static void
command_doc(struct reply *map, const struct cmd_def *d)
{
	add_lower(map, d->name);
	cmd_args_docs(d, reply_add(map));
}

/* Every command, or the ones named (INFO: a null for a name that is
 * none; DOCS: nothing). */
static void
command_list(struct reply *r, const struct cmd_parsed *p, int docs)
{
	const struct cmd_def	*d;
	size_t			 i;
	int			 j;

	for (i = 0; p->v[0].n == 0 && (d = listed_at(i)) != NULL; i++)
		if (docs)
			command_doc(r, d);
		else
			command_entry(reply_add(r), d);
	for (j = 0; j < p->v[0].n; j++)
		if ((d = cmd_lookup(cmd_word(p, 0, j))) != NULL) {
			if (docs)
				command_doc(r, d);
			else
				command_entry(reply_add(r), d);
		} else if (!docs)
			reply_null(reply_add(r));
}

/* COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST] */
static void
command_cmd(struct conn *c, const struct cmd_parsed *p)
{
	const struct cmd_def	*d;
	struct reply		 r = { 0 };
	size_t			 i;

	switch (p->v[0].i) {
	case CONN_COMMAND_COUNT:
		for (i = 0; cmd_at(i) != NULL; i++)
			;
		reply_int(&r, (long long)i);
		break;
	case CONN_COMMAND_LIST:
		reply_array(&r);
		for (i = 0; (d = listed_at(i)) != NULL; i++)
			add_lower(&r, d->name);
		break;
	case CONN_COMMAND_DOCS:
		reply_map(&r);
		command_list(&r, p, 1);
		break;
	default:	/* INFO, or none: every command */
		reply_array(&r);
		command_list(&r, p, 0);
		break;
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

/* GAME.WATCH id [FROM seq]: from -1, only new moves. */
static void
game_watch_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };
	const char	*id = p->v[0].s;

	if (watch_add(c, id, p->v[1].i, &r) == -1) {
		send_reply(c, &r);
		return;
	}
	send_watch_reply(c, "watch", id);
	/* The backlog follows the confirmation. */
	watch_pump(c);
}

static void
unwatched(struct conn *c, const char *id)
{
	send_watch_reply(c, "unwatch", id);
}

/* GAME.UNWATCH [id ...]: every game when none is named. */
static void
game_unwatch_cmd(struct conn *c, const struct cmd_parsed *p)
{
	const char	*id;
	int		 i;

	if (p->v[0].n == 0) {
		if (c->nwatch == 0)
			send_watch_reply(c, "unwatch", NULL);
		else
			watch_remove_all(c, unwatched);
		return;
	}
	for (i = 0; i < p->v[0].n; i++) {
		id = cmd_word(p, 0, i);
		watch_remove(c, id);
		send_watch_reply(c, "unwatch", id);
	}
}
