/*
 * Connection commands: those that concern the connection or the daemon
 * rather than a game.  Each is an entry of the command layer's kind
 * (struct cmd_def: name, declared arguments, flags) whose handler is the
 * daemon's, and lives in the file that implements it: PING, ECHO, QUIT,
 * COMMAND, CONFIG, GAME.WATCH and GAME.UNWATCH here; HELLO, AUTH, CLIENT
 * and the like in client.c, MULTI and WATCH in multi.c, pub/sub in
 * pubsub.c, INFO and MEMORY in info.c.  conn_table[] below lists them; the command layer, which the
 * embedded CLI links alone, never sees them.  XRANGE, XREVRANGE and XREAD
 * are the command layer's (CMD_STREAM), which stream.c delivers its own
 * way.
 *
 * Also the dispatch of every request, one lookup in both tables, in
 * Redis's order: the request's form, then -NOAUTH before AUTH, then the
 * RESP2 rule that a watching or subscribed connection is a subscriber
 * (only the CMD_PUBSUB commands), then MULTI's queue.
 *
 * A CMD_BARRIER command ends the pass's transaction first
 * (pass_barrier()): GAME.WATCH, GAME.UNWATCH, the subscription commands,
 * WATCH, RESET and INFO.  Each reads where a game stands or decides which
 * events a connection still gets, so it must see committed moves only;
 * INFO's counters and game counts are then exact.
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

/*
 * The daemon's table: a pointer to each connection command's entry,
 * which lives in the file that implements it (here, client.c, multi.c,
 * pubsub.c).  X(f) is the entry conn_f_entry; sorted by name (ASCII,
 * upper case: GAME.WATCH is game_watch) for the binary search of the one
 * lookup, which test_conn sees in COMMAND LIST's order.
 */
#define CONN_TABLE(X) \
	X(auth) X(backup) X(client) X(command) X(config) \
	X(discard) X(echo) X(exec) \
	X(game_unwatch) X(game_watch) \
	X(hello) X(info) X(match_wait) X(monitor) X(multi) \
	X(ping) X(psubscribe) X(pubsub) X(punsubscribe) \
	X(quit) X(reset) \
	X(select) X(subscribe) \
	X(time) X(unsubscribe) X(unwatch) X(watch)

#define CONN_EXTERN(f)	extern const struct cmd_def conn_##f##_entry;
#define CONN_POINTER(f)	&conn_##f##_entry,
CONN_TABLE(CONN_EXTERN)
static const struct cmd_def *const conn_table[] = {
	CONN_TABLE(CONN_POINTER)
};
#define CONN_COUNT	(sizeof(conn_table) / sizeof(conn_table[0]))

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

/* An entry's flags; none for no command. */
static int
flags_of(const struct cmd_def *d)
{
	return d != NULL ? d->flags : 0;
}

/* ------------------------------------------------------- the dispatch */

/* The one lookup: a connection command, or one of the command layer. */
static const struct cmd_def *
conn_lookup(const char *name)
{
	const struct cmd_def	*d;

	if ((d = cmd_lookup_in(conn_table, CONN_COUNT, name)) != NULL)
		return d;
	return cmd_lookup(name);
}

static const struct cmd_def *
conn_find(const struct cmd_args *a)
{
	const struct cmd_def	*d;

	if ((d = cmd_find_in(conn_table, CONN_COUNT, a)) != NULL)
		return d;
	return cmd_find(a);
}

void
conncmd_run(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, struct cmd_parsed *p, struct reply *r,
    struct cmd_result *res)
{
	struct cmd_env	*env = &c->srv->env;
	uint64_t	 errors = env->store_errors;

	/* A create's quota is this connection's (quota.c). */
	quota_enter_conn(c->srv, c);
	if (p != NULL)
		cmd_run_parsed(env, p, r, res);
	else
		cmd_run_def(env, d, a, r, res);
	quota_leave(c->srv);
	if (env->store_errors != errors)
		log_warning("store error in %.64s: %s", a->argv[0],
		    r->str != NULL ? r->str : "?");
}

/*
 * A request refused for its form (cmd_check()), answered where its
 * command would have: a connection command's at once, the command
 * layer's (and a name that is no command) as any of its replies, behind
 * those held for the COMMIT.
 */
static void
refuse_form(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, struct reply *form)
{
	struct cmd_result	 res;

	if (d != NULL && d->conn != NULL) {
		conn_reply(c, form);
		return;
	}
	cmd_txn_status(&c->srv->env, &res);
	pass_reply(c, a, form, &res);
}

/* Before AUTH: the request's form (form: its refusal, NULL if none),
 * then -NOAUTH. */
static int
refuse_unauthenticated(struct conn *c, const struct cmd_def *d,
    const struct reply *form)
{
	if (c->authed || (flags_of(d) & CMD_NO_AUTH))
		return 0;
	if (form != NULL)
		conn_reply(c, form);
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

/* Between MULTI and EXEC: queued, refused (its form: form), or run at
 * once (0). */
static int
queue_request(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, const struct reply *form)
{
	if (flags_of(d) & CMD_NO_QUEUE)
		return 0;
	if (form != NULL)
		multi_abort(c, form);
	else if (d->flags & CMD_NO_MULTI)
		multi_refuse(c, "Command not allowed inside a transaction");
	else
		multi_queue(c, d, a);
	return 1;
}

/*
 * A connection command: the barrier, then its arguments (after the
 * barrier, as when each handler read its own), then its handler.
 */
static void
conn_run(struct conn *c, const struct cmd_def *d, const struct cmd_args *a)
{
	struct cmd_parsed	 p;
	struct reply		 r = { 0 };

	if (d->flags & CMD_BARRIER)
		pass_barrier(c->srv);
	if (cmd_parse(d, a, &p, NULL, &r) == -1) {
		send_reply(c, &r);
		return;
	}
	d->conn(c, &p);
}

/* A request of the command layer, its reply held for the COMMIT when it
 * saw (or wrote) rows not committed; the events of its move follow it
 * then. */
static void
cmd_layer_run(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a)
{
	struct reply		 r = { 0 };
	struct cmd_result	 res;

	conncmd_run(c, d, a, NULL, &r, &res);
	pass_reply(c, a, &r, &res);
	reply_free(&r);
}

void
conn_dispatch(struct conn *c, const struct cmd_args *a)
{
	const struct cmd_def	*d;
	struct reply		 refused = { 0 }, *form = NULL;

	log_debug("%s: %.64s, %d argument(s)", c->addr, a->argv[0],
	    a->argc - 1);
	/* The one lookup of the request, in the daemon's table and the
	 * command layer's, then the one check of its form. */
	d = conn_find(a);
	note_request(c, a->argv[0]);
	if (cmd_check(d, a, &refused) == -1)
		form = &refused;
	if (refuse_unauthenticated(c, d, form))
		goto done;
	if (c->proto == 2 && conn_subscribed(c) &&
	    (d == NULL || !(d->flags & CMD_PUBSUB))) {
		conn_error(c, "ERR", "Can't execute '%.64s': only "
		    "(P)SUBSCRIBE / (P)UNSUBSCRIBE / GAME.WATCH / GAME.UNWATCH "
		    "/ PING / QUIT / RESET are allowed in this context",
		    a->argv[0]);
		goto done;
	}
	if (form == NULL)
		monitor_feed(c, d, a);
	if (multi_queuing(c) && queue_request(c, d, a, form))
		goto done;
	if (form != NULL)
		refuse_form(c, d, a, form);
	else if (d->conn != NULL)
		conn_run(c, d, a);
	else if (d->flags & CMD_STREAM)
		stream_run(c, d, a);
	else
		cmd_layer_run(c, d, a);
done:
	reply_free(&refused);
}

void
conncmd_again(struct conn *c, const struct cmd_args *a, struct reply *r,
    struct cmd_result *res)
{
	const struct cmd_def	*d = cmd_find(a);
	struct cmd_parsed	 p;

	/* Its form was checked when it first came. */
	if (!(d->flags & CMD_STREAM)) {
		conncmd_run(c, d, a, NULL, r, res);
		return;
	}
	/* A stream's read: its words read once, for its run and for the
	 * shape of its answer. */
	if (cmd_parse(d, a, &p, NULL, r) == -1) {
		cmd_txn_status(&c->srv->env, res);
		return;
	}
	conncmd_run(c, d, a, &p, r, res);
	stream_again(c, &p, r);
}

void
conncmd_exec(struct conn *c, const struct cmd_def *d,
    const struct cmd_args *a, struct reply *out)
{
	struct cmd_parsed	 p;
	struct cmd_result	 res;

	/* Queued: found, its arity right, no barrier. */
	if (d->conn == NULL && !(d->flags & CMD_STREAM)) {
		conncmd_run(c, d, a, NULL, out, &res);
		return;
	}
	c->capture = out;
	if (d->conn == NULL)
		stream_run(c, d, a);
	else if (cmd_parse(d, a, &p, NULL, out) == 0)
		d->conn(c, &p);
	c->capture = NULL;
}

/* ------------------------------------------------------ PING ECHO QUIT */

/* PING [message]: a word too many is the arity error, as in Redis. */
static const struct cmd_arg ping_args[] = { CMD_ARG_STR_OPT("message") };

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

const struct cmd_def conn_ping_entry = { .name = "PING",
    .spec = CMD_ARGS(ping_args, CMD_EXCESS_ARITY),
    .flags = CMD_READONLY | CMD_PUBSUB, .conn = ping_cmd };

/* ECHO message */
static const struct cmd_arg echo_args[] = { CMD_ARG_STR("message") };

static void
echo_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	reply_bulk(&r, p->v[0].s, p->v[0].len);
	send_reply(c, &r);
}

const struct cmd_def conn_echo_entry = { .name = "ECHO",
    .spec = CMD_ARGS(echo_args, 0), .flags = CMD_READONLY, .conn = echo_cmd };

/* QUIT takes any words and ignores them, as Redis does. */
static void
quit_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	(void)p;
	reply_status(&r, "OK");
	send_reply(c, &r);
	conn_close_after_flush(c);
}

const struct cmd_def conn_quit_entry = { .name = "QUIT",
    .spec = &(const struct cmd_spec){ .flags = CMD_EXCESS_IGNORE },
    .flags = CMD_READONLY | CMD_PUBSUB | CMD_NO_QUEUE | CMD_NO_AUTH,
    .conn = quit_cmd };

/* -------------------------------------------------------------- CONFIG */

/*
 * CONFIG GET pattern [pattern ...] | RESETSTAT; SET and REWRITE are
 * known, to be refused with why (ludusd reads its configuration once).
 * The value of argument 0 is the subcommand's index.
 */
enum { CONFIG_GET, CONFIG_RESETSTAT, CONFIG_REWRITE, CONFIG_SET };
static const struct cmd_arg config_patterns = {
	.name = "pattern", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 1 };
static const struct cmd_arg config_values = {
	.name = "parameter", .type = CMD_ARG_STRING,
	.flags = CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE,
	.doc = "parameter value ..." };
static const struct cmd_alt config_alts[] = {
	[CONFIG_GET] = { "GET", &config_patterns },
	[CONFIG_RESETSTAT] = { "RESETSTAT", NULL },
	[CONFIG_REWRITE] = { "REWRITE", NULL },
	[CONFIG_SET] = { "SET", &config_values },
	{ NULL, NULL }
};
static const struct cmd_arg config_args[] = {
	CMD_ARG_SUBCOMMANDS(config_alts, "CONFIG HELP")
};

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

static void
config_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply		 r = { 0 };
	struct config_get	 g = { p, &r };

	switch (p->v[0].i) {
	case CONFIG_GET:
		reply_map(&r);
		config_each(c->srv->cfg, config_param, &g);
		config_redis_params(&g);
		send_reply(c, &r);
		break;
	case CONFIG_RESETSTAT:
		reset_stats(c->srv);
		reply_status(&r, "OK");
		send_reply(c, &r);
		break;
	default:
		conn_error(c, "ERR", "CONFIG %s is not supported: ludusd reads "
		    "its configuration when it starts (ludusd.conf(5))",
		    p->v[0].i == CONFIG_SET ? "SET" : "REWRITE");
		break;
	}
}

const struct cmd_def conn_config_entry = { .name = "CONFIG",
    .spec = CMD_ARGS(config_args, 0), .flags = CMD_READONLY,
    .conn = config_cmd };

/* ------------------------------------------------------------- COMMAND */

/* COMMAND [COUNT | DOCS [name ...] | INFO [name ...] | LIST]: the value
 * is the alternative's index, COMMAND_*, or -1 for none. */
enum { COMMAND_COUNT, COMMAND_DOCS, COMMAND_INFO, COMMAND_LIST };
static const struct cmd_arg command_names = CMD_ARG_STR_ANY("name");
static const struct cmd_alt command_alts[] = {
	[COMMAND_COUNT] = { "COUNT", NULL },
	[COMMAND_DOCS] = { "DOCS", &command_names },
	[COMMAND_INFO] = { "INFO", &command_names },
	[COMMAND_LIST] = { "LIST", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg command_args[] = {
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND,
	  .flags = CMD_ARG_OPTIONAL, .alts = command_alts },
};

/* COMMAND's list: the daemon's table, then the command layer's. */
static const struct cmd_def *
listed_at(size_t i)
{
	return i < CONN_COUNT ? conn_table[i] : cmd_at(i - CONN_COUNT);
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
	reply_int(reply_add(e), cmd_arity(d));
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
		if ((d = conn_lookup(cmd_word(p, 0, j))) != NULL) {
			if (docs)
				command_doc(r, d);
			else
				command_entry(reply_add(r), d);
		} else if (!docs)
			reply_null(reply_add(r));
}

static void
command_cmd(struct conn *c, const struct cmd_parsed *p)
{
	const struct cmd_def	*d;
	struct reply		 r = { 0 };
	size_t			 i;

	switch (p->v[0].i) {
	case COMMAND_COUNT:
		for (i = 0; listed_at(i) != NULL; i++)
			;
		reply_int(&r, (long long)i);
		break;
	case COMMAND_LIST:
		reply_array(&r);
		for (i = 0; (d = listed_at(i)) != NULL; i++)
			add_lower(&r, d->name);
		break;
	case COMMAND_DOCS:
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

const struct cmd_def conn_command_entry = { .name = "COMMAND",
    .spec = CMD_ARGS(command_args, 0), .flags = CMD_READONLY,
    .conn = command_cmd };

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

/*
 * GAME.WATCH id [FROM seq]: 2 or 4 words, else the arity error; then
 * FROM, its value (a message of its own), and only then the id.  -1: no
 * FROM, only new moves.
 */
static const struct cmd_arg game_watch_args[] = {
	CMD_ARG_GAME,
	{ .name = "seq", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_TAIL, .token = "FROM",
	  .min = 0, .max = INT64_MAX - 1, .def = -1,
	  .errcode = "BADARG", .err = "FROM seq must be an integer >= 0" },
};

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

const struct cmd_def conn_game_watch_entry = { .name = "GAME.WATCH",
    .spec = CMD_ARGS(game_watch_args, CMD_EXCESS_ARITY),
    .flags = CMD_READONLY | CMD_PUBSUB | CMD_SUBSCRIPTION,
    .conn = game_watch_cmd };

static void
unwatched(struct conn *c, const char *id)
{
	send_watch_reply(c, "unwatch", id);
}

/* GAME.UNWATCH [id ...]: every game when none is named. */
static const struct cmd_arg game_unwatch_args[] = { CMD_ARG_STR_ANY("id") };

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

const struct cmd_def conn_game_unwatch_entry = { .name = "GAME.UNWATCH",
    .spec = CMD_ARGS(game_unwatch_args, 0),
    .flags = CMD_READONLY | CMD_PUBSUB | CMD_SUBSCRIPTION,
    .conn = game_unwatch_cmd };
