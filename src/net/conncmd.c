/*
 * Connection commands: the few that concern the connection rather than a
 * game (PING, ECHO, HELLO, QUIT, INFO, COMMAND, WATCH, UNWATCH), looked up
 * before the command layer's table.  Also the dispatch of every request,
 * with the RESP2 rule that a watching connection is a subscriber.
 *
 * WATCH, UNWATCH and INFO are barriers: they end the pass's transaction
 * first (pass_end).  WATCH reads where a game stands and UNWATCH decides
 * which events a connection still gets, so both must see committed moves
 * only; INFO's counters and game counts are then exact.
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
#include "util/util.h"

#define CC_SUBSCRIBER	0x01	/* allowed to a RESP2 watching connection */
#define CC_BARRIER	0x02	/* ends the open transaction first (pass.c) */

struct conncmd {
	const char	*name;
	void		(*proc)(struct conn *, const struct cmd_args *);
	int		 arity;		/* as in the command layer */
	int		 flags;
	const char	*usage;
};

static void	command_cmd(struct conn *, const struct cmd_args *);
static void	echo_cmd(struct conn *, const struct cmd_args *);
static void	hello_cmd(struct conn *, const struct cmd_args *);
static void	info_cmd(struct conn *, const struct cmd_args *);
static void	ping_cmd(struct conn *, const struct cmd_args *);
static void	quit_cmd(struct conn *, const struct cmd_args *);
static void	unwatch_cmd(struct conn *, const struct cmd_args *);
static void	watch_cmd(struct conn *, const struct cmd_args *);

/* Sorted by name. */
static const struct conncmd conncmds[] = {
	{ "COMMAND", command_cmd, -1, 0,
	  "COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST]" },
	{ "ECHO", echo_cmd, 2, 0, "ECHO message" },
	{ "HELLO", hello_cmd, -1, 0, "HELLO [2|3 [SETNAME name]]" },
	{ "INFO", info_cmd, -1, CC_BARRIER, "INFO [section ...]" },
	{ "PING", ping_cmd, -1, CC_SUBSCRIBER, "PING [message]" },
	{ "QUIT", quit_cmd, -1, CC_SUBSCRIBER, "QUIT" },
	{ "UNWATCH", unwatch_cmd, -1, CC_SUBSCRIBER | CC_BARRIER,
	  "UNWATCH [id ...]" },
	{ "WATCH", watch_cmd, -2, CC_SUBSCRIBER | CC_BARRIER,
	  "WATCH id [FROM seq]" },
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

void
conn_dispatch(struct conn *c, const struct cmd_args *a)
{
	const struct conncmd	*cc;
	struct server		*srv = c->srv;
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	uint64_t		 errors;

	log_debug("%s: %.64s, %d argument(s)", c->addr, a->argv[0],
	    a->argc - 1);
	/* A name with a NUL inside is no command; cmd_execute says so. */
	cc = strlen(a->argv[0]) == a->argl[0] ? conncmd_find(a->argv[0]) :
	    NULL;
	if (c->proto == 2 && c->nwatch > 0 &&
	    (cc == NULL || !(cc->flags & CC_SUBSCRIBER))) {
		conn_error(c, "ERR", "Can't execute '%.64s': only WATCH / "
		    "UNWATCH / PING / QUIT are allowed in this context",
		    a->argv[0]);
		return;
	}
	if (cc != NULL) {
		if (!arity_ok(cc->arity, a->argc))
			reply_arity(c, cc->name);
		else {
			if (cc->flags & CC_BARRIER)
				pass_end(srv);
			cc->proc(c, a);
		}
		return;
	}
	errors = srv->env.store_errors;
	cmd_run(&srv->env, a, &r, &res);
	if (srv->env.store_errors != errors)
		log_warning("store error in %.64s: %s", a->argv[0],
		    r.str != NULL ? r.str : "?");
	/* The reply of a command that saw (or wrote) rows not committed
	 * waits for the COMMIT; the events of its move follow it then. */
	pass_reply(c, a, &r, &res);
	reply_free(&r);
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
	if (c->proto == 2 && c->nwatch > 0) {
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

/* --------------------------------------------------------------- HELLO */

static void
hello_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 }, *mods;
	const char	*errstr;
	int64_t		 proto = c->proto;
	int		 i;

	if (a->argc >= 2) {
		if (parse_int64(a->argv[1], 0, INT32_MAX, &proto,
		    &errstr) == -1) {
			conn_error(c, "ERR", "Protocol version is not an "
			    "integer or out of range");
			return;
		}
		if (proto != 2 && proto != 3) {
			conn_error(c, "NOPROTO",
			    "unsupported protocol version");
			return;
		}
	}
	for (i = 2; i < a->argc; i++) {
		/* A name is accepted for the clients that always send one. */
		if (strcaseeq(a->argv[i], "SETNAME") && i + 1 < a->argc) {
			i++;
			continue;
		}
		conn_error(c, "ERR", "Syntax error in HELLO option '%.64s'",
		    a->argv[i]);
		return;
	}
	c->proto = (int)proto;
	reply_map(&r);
	add_bulk(&r, "server");
	add_bulk(&r, "ludus");
	add_bulk(&r, "version");
	add_bulk(&r, PACKAGE_VERSION);
	add_bulk(&r, "proto");
	reply_int(reply_add(&r), c->proto);
	add_bulk(&r, "id");
	reply_int(reply_add(&r), (long long)c->id);
	add_bulk(&r, "mode");
	add_bulk(&r, "standalone");
	add_bulk(&r, "role");
	add_bulk(&r, "master");
	add_bulk(&r, "modules");
	mods = reply_add(&r);
	reply_array(mods);
	send_reply(c, &r);
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

/* ------------------------------------------------------- WATCH UNWATCH */

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
		reply_arity(c, "WATCH");
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
