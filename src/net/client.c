/*
 * Who a connection is: HELLO, AUTH, CLIENT, SELECT, RESET and TIME, the
 * connection commands every Redis client library sends when it connects
 * (a name, a database, a password, a protocol) or that admin tools ask.
 *
 * The password (requirepass) guards the server; seat keys still guard
 * the players.  auth.c keeps it and checks it.  Until a connection has
 * authenticated, only AUTH, HELLO (with AUTH), QUIT and RESET run;
 * anything else is -NOAUTH, after the checks of the request's form, as
 * Redis orders them (conncmd.c).
 *
 * There is one database: SELECT 0 is accepted, any other index refused.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

static void
reply_wrongpass(struct conn *c)
{
	conn_error(c, "WRONGPASS", "invalid username-password pair or user "
	    "is disabled.");
}

static void
send_status(struct conn *c, const char *s)
{
	struct reply	 r = { 0 };

	reply_status(&r, s);
	conn_reply(c, &r);
	reply_free(&r);
}

static void
send_bulk(struct conn *c, const char *s, size_t len)
{
	struct reply	 r = { 0 };

	reply_bulk(&r, s, len);
	conn_reply(c, &r);
	reply_free(&r);
}

/*
 * AUTH [username] password: one word or two (the handler refuses more,
 * as a syntax error, after the arity); the password is the last.
 */
static const struct cmd_arg auth_args[] = {
	{ .name = "password", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1,
	  .doc = "[username] password" },
};

static void
auth_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct auth	*auth = c->srv->auth;
	int		 n = p->v[0].n;

	if (n > 2) {
		conn_error(c, "ERR", "syntax error");
		return;
	}
	if (n == 1 && !auth_required(auth)) {
		conn_error(c, "ERR", "AUTH <password> called without any "
		    "password configured for the default user. Are you sure "
		    "your configuration is correct?");
		return;
	}
	if (!auth_check(auth, n == 2 ? cmd_word(p, 0, 0) : NULL,
	    cmd_word(p, 0, n - 1), cmd_word_len(p, 0, n - 1))) {
		log_info("%s: AUTH failed", c->addr);
		reply_wrongpass(c);
		return;
	}
	c->authed = 1;
	send_status(c, "OK");
}

const struct cmd_def conn_auth_entry = { .name = "AUTH",
    .spec = CMD_ARGS(auth_args, 0),
    .flags = CMD_READONLY | CMD_NO_AUTH | CMD_NO_MULTI | CMD_SECRET,
    .conn = auth_cmd };

/* ----------------------------------------------------------- names */

/* Redis's rule for names and library strings: printable, no blank. */
static int
name_ok(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (s[i] < '!' || s[i] > '~')
			return 0;
	return 1;
}

static void
set_string(char **slot, const char *s, size_t len)
{
	free(*slot);
	*slot = len > 0 ? xstrndup(s, len) : NULL;
}

/* CLIENT SETNAME's and HELLO SETNAME's: 0, or -1 with the error sent. */
static int
set_name(struct conn *c, const char *name, size_t len)
{
	if (!name_ok(name, len)) {
		conn_error(c, "ERR", "Client names cannot contain spaces, "
		    "newlines or special characters.");
		return -1;
	}
	set_string(&c->name, name, len);
	return 0;
}

/* --------------------------------------------------------------- HELLO */

/* A protocol version: an integer (else Redis's message), then 2 or 3. */
static int
hello_proto(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->i == 2 || v->i == 3)
		return 0;
	reply_error(out, "NOPROTO", "unsupported protocol version");
	return -1;
}

/*
 * HELLO [protover [AUTH username password] [SETNAME name]]: the first
 * word is the version, even when it reads AUTH or SETNAME; -1: no
 * version, the protocol stays.
 */
enum { HELLO_PROTO, HELLO_AUTH, HELLO_SETNAME };
static const struct cmd_arg hello_args[] = {
	[HELLO_PROTO] = { .name = "protover", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL, .min = 0, .max = INT32_MAX, .def = -1,
	  .errcode = "ERR",
	  .err = "Protocol version is not an integer or out of range",
	  .check = hello_proto, .doc = "2|3" },
	/* Two words: username, password. */
	[HELLO_AUTH] = { .name = "auth", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_NESTED,
	  .token = "AUTH", .nmax = 2, .doc = "AUTH username password" },
	[HELLO_SETNAME] = { .name = "name", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_NESTED,
	  .token = "SETNAME" },
};

static void
hello_reply(struct conn *c)
{
	struct reply	 r = { 0 };

	reply_map(&r);
	reply_bulk(reply_add(&r), "server", 6);
	reply_bulk(reply_add(&r), "ludus", 5);
	reply_bulk(reply_add(&r), "version", 7);
	reply_bulk(reply_add(&r), PACKAGE_VERSION, strlen(PACKAGE_VERSION));
	reply_bulk(reply_add(&r), "proto", 5);
	reply_int(reply_add(&r), c->proto);
	reply_bulk(reply_add(&r), "id", 2);
	reply_int(reply_add(&r), (long long)c->id);
	reply_bulk(reply_add(&r), "mode", 4);
	reply_bulk(reply_add(&r), "standalone", 10);
	reply_bulk(reply_add(&r), "role", 4);
	reply_bulk(reply_add(&r), "master", 6);
	reply_bulk(reply_add(&r), "modules", 7);
	reply_array(reply_add(&r));
	conn_reply(c, &r);
	reply_free(&r);
}

static void
hello_cmd(struct conn *c, const struct cmd_parsed *p)
{
	const struct cmd_val	*auth = &p->v[HELLO_AUTH];
	const struct cmd_val	*name = &p->v[HELLO_SETNAME];

	if (auth->s != NULL && !auth_check(c->srv->auth, cmd_word(p,
	    HELLO_AUTH, 0), cmd_word(p, HELLO_AUTH, 1),
	    cmd_word_len(p, HELLO_AUTH, 1))) {
		log_info("%s: HELLO AUTH failed", c->addr);
		reply_wrongpass(c);
		return;
	}
	if (auth->s != NULL)
		c->authed = 1;
	if (!c->authed) {
		conn_error(c, "NOAUTH", "HELLO must be called with the client "
		    "already authenticated, otherwise the HELLO AUTH <user> "
		    "<pass> option can be used to authenticate the client and "
		    "select the RESP protocol version at the same time");
		return;
	}
	if (name->s != NULL && set_name(c, name->s, name->len) == -1)
		return;
	if (p->v[HELLO_PROTO].i != -1)
		c->proto = (int)p->v[HELLO_PROTO].i;
	hello_reply(c);
}

static const struct cmd_spec hello_spec = { .args = hello_args,
    .nargs = CMD_NARGS(hello_args),
    .badword = "Syntax error in HELLO option" };

const struct cmd_def conn_hello_entry = { .name = "HELLO", .spec = &hello_spec,
    .flags = CMD_READONLY | CMD_NO_AUTH | CMD_NO_MULTI | CMD_SECRET,
    .conn = hello_cmd };

/* -------------------------------------------------------------- CLIENT */

/*
 * CLIENT's subcommands, with the words each takes; a wrong one, or a
 * wrong count of words, points to CLIENT HELP, as Redis does.  LIST's
 * words and KILL's filters are read by the handler.  The value of
 * argument 0 is the subcommand's index.
 */
enum {
	CLIENT_GETNAME = 0,
	CLIENT_GETREDIR,
	CLIENT_HELP,
	CLIENT_ID,
	CLIENT_INFO,
	CLIENT_KILL,
	CLIENT_LIST,
	CLIENT_NO_EVICT,
	CLIENT_NO_TOUCH,
	CLIENT_SETINFO,
	CLIENT_SETNAME,
	CLIENT_TRACKINGINFO,
	CLIENT_UNPAUSE
};
static const struct cmd_arg client_kill_arg = {
	.name = "filter", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 1, .doc = "filter ..." };
static const struct cmd_arg client_list_arg = {
	.name = "type", .type = CMD_ARG_STRING,
	.flags = CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE,
	.doc = "TYPE normal|pubsub" };
static const struct cmd_arg client_onoff_arg = CMD_ARG_STR("on|off");
static const struct cmd_arg client_setinfo_arg = {
	.name = "attribute", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 2, .nmax = 2, .doc = "LIB-NAME|LIB-VER value" };
static const struct cmd_arg client_name_arg = CMD_ARG_STR("name");
static const struct cmd_alt client_alts[] = {
	[CLIENT_GETNAME] = { "GETNAME", NULL },
	[CLIENT_GETREDIR] = { "GETREDIR", NULL },
	[CLIENT_HELP] = { "HELP", NULL },
	[CLIENT_ID] = { "ID", NULL },
	[CLIENT_INFO] = { "INFO", NULL },
	[CLIENT_KILL] = { "KILL", &client_kill_arg },
	[CLIENT_LIST] = { "LIST", &client_list_arg },
	[CLIENT_NO_EVICT] = { "NO-EVICT", &client_onoff_arg },
	[CLIENT_NO_TOUCH] = { "NO-TOUCH", &client_onoff_arg },
	[CLIENT_SETINFO] = { "SETINFO", &client_setinfo_arg },
	[CLIENT_SETNAME] = { "SETNAME", &client_name_arg },
	[CLIENT_TRACKINGINFO] = { "TRACKINGINFO", NULL },
	[CLIENT_UNPAUSE] = { "UNPAUSE", NULL },
	{ NULL, NULL }
};
static const struct cmd_arg client_args[] = {
	CMD_ARG_SUBCOMMANDS(client_alts, "CLIENT HELP")
};

/* One line of CLIENT INFO and CLIENT LIST, with Redis's fields in
 * Redis's order (libraries parse them: redis-py's client_info() reads
 * qbuf-free, node-redis's clientInfo() tot-mem).  qbuf is the input read
 * and not yet run; libevent's buffer has no fixed size, so nothing of it
 * is free (qbuf-free=0); argv-mem is the arguments of the request being
 * run, the caller's own; tot-mem what the connection holds: itself, its
 * input, its output (held replies included), its transaction and its
 * request. */
static void
client_line(const struct conn *o, struct strbuf *b)
{
	char	 tmp[320];
	time_t	 now = time(NULL);
	size_t	 qbuf, mmem, tot;

	qbuf = evbuffer_get_length(bufferevent_get_input(o->bev));
	mmem = multi_mem(o);
	tot = sizeof(*o) + qbuf + conn_pending(o) + mmem + o->argv_mem +
	    (o->name != NULL ? strlen(o->name) + 1 : 0) +
	    (o->lib_name != NULL ? strlen(o->lib_name) + 1 : 0) +
	    (o->lib_ver != NULL ? strlen(o->lib_ver) + 1 : 0);
	snprintf(tmp, sizeof(tmp), "id=%llu addr=%s laddr=%s fd=%d name=",
	    (unsigned long long)o->id, o->addr, o->laddr,
	    bufferevent_getfd(o->bev));
	strbuf_add(b, tmp);
	strbuf_add(b, o->name != NULL ? o->name : "");
	snprintf(tmp, sizeof(tmp), " age=%lld idle=%lld flags=%s%s%s db=0 "
	    "sub=%d psub=%d ssub=0 multi=%d watch=%d qbuf=%zu qbuf-free=0 "
	    "argv-mem=%zu multi-mem=%zu obl=0 oll=0 omem=%zu tot-mem=%zu "
	    "events=r cmd=%s user=default redir=-1 resp=%d lib-name=",
	    (long long)(now - o->since), (long long)(now - o->last),
	    conn_subscribed(o) ? "P" : "", conn_blocked(o) ? "b" : "",
	    conn_subscribed(o) || conn_blocked(o) ? "" : "N", o->nchannels,
	    o->npatterns, multi_queued(o), multi_watched(o), qbuf,
	    o->argv_mem, mmem, conn_pending(o), tot,
	    o->lastcmd[0] != '\0' ? o->lastcmd : "NULL", o->proto);
	strbuf_add(b, tmp);
	strbuf_add(b, o->lib_name != NULL ? o->lib_name : "");
	strbuf_add(b, " lib-ver=");
	strbuf_add(b, o->lib_ver != NULL ? o->lib_ver : "");
	strbuf_addc(b, '\n');
}

static void
send_lines(struct conn *c, struct conn *only, const char *type)
{
	struct conn	*o;
	struct strbuf	 b;
	char		*buf;
	size_t		 size = 512;
	int		 pubsub;

	for (;;) {
		buf = xmalloc(size);
		strbuf_init(&b, buf, size);
		TAILQ_FOREACH(o, &c->srv->conns, entry) {
			pubsub = conn_subscribed(o);
			if ((only != NULL && o != only) || (type != NULL &&
			    strcaseeq(type, "pubsub") != pubsub))
				continue;
			client_line(o, &b);
		}
		if (!strbuf_cut(&b))
			break;
		size = b.len + 1;
		free(buf);
	}
	send_bulk(c, buf, b.len);
	free(buf);
}

/* The words after CLIENT's subcommand: word j of n (p->v[0].n). */
#define WORD(p, j)	cmd_word((p), 0, (j))
#define WORD_LEN(p, j)	cmd_word_len((p), 0, (j))

/* CLIENT LIST [TYPE normal|pubsub|master|replica] */
static void
client_list(struct conn *c, const struct cmd_parsed *p)
{
	const char	*type = NULL;

	if (p->v[0].n == 2 && strcaseeq(WORD(p, 0), "TYPE")) {
		type = WORD(p, 1);
		if (!strcaseeq(type, "normal") && !strcaseeq(type, "pubsub") &&
		    !strcaseeq(type, "master") && !strcaseeq(type, "replica")) {
			conn_error(c, "ERR", "Unknown client type '%.64s'",
			    type);
			return;
		}
		/* No replication: "master" and "replica" list no one. */
		if (!strcaseeq(type, "normal") && !strcaseeq(type, "pubsub")) {
			send_bulk(c, "", 0);
			return;
		}
	} else if (p->v[0].n != 0) {
		conn_error(c, "ERR", "syntax error");
		return;
	}
	send_lines(c, NULL, type);
}

/* CLIENT SETINFO LIB-NAME|LIB-VER value */
static void
client_setinfo(struct conn *c, const struct cmd_parsed *p)
{
	const char	*attr = WORD(p, 0);

	if (!strcaseeq(attr, "LIB-NAME") && !strcaseeq(attr, "LIB-VER")) {
		conn_error(c, "ERR", "Unrecognized option '%.64s'", attr);
		return;
	}
	if (!name_ok(WORD(p, 1), WORD_LEN(p, 1))) {
		conn_error(c, "ERR", "%s cannot contain spaces, newlines or "
		    "special characters.", strcaseeq(attr, "LIB-NAME") ?
		    "lib-name" : "lib-ver");
		return;
	}
	set_string(strcaseeq(attr, "LIB-NAME") ? &c->lib_name : &c->lib_ver,
	    WORD(p, 1), WORD_LEN(p, 1));
	send_status(c, "OK");
}

/* The connection a CLIENT KILL filter names; NULL when none. */
static struct conn *
client_find(struct server *srv, const char *what, const char *value)
{
	struct conn	*o;
	const char	*errstr;
	int64_t		 id = -1;

	if (strcaseeq(what, "ID") &&
	    parse_int64(value, 0, INT64_MAX, &id, &errstr) == -1)
		return NULL;
	TAILQ_FOREACH(o, &srv->conns, entry)
		if ((id >= 0 && o->id == (uint64_t)id) ||
		    (id < 0 && strcmp(o->addr, value) == 0))
			return o;
	return NULL;
}

/* Kills o, after its last reply if it is the caller. */
static void
kill_one(struct conn *c, struct conn *o)
{
	log_notice("%s: killed by CLIENT KILL from %s", o->addr, c->addr);
	if (o == c)
		conn_close_after_flush(c);
	else
		conn_kill(o, NULL);
}

/* CLIENT KILL addr:port, or KILL ID id / ADDR addr [SKIPME yes|no]. */
static void
client_kill(struct conn *c, const struct cmd_parsed *p)
{
	struct conn	*o = NULL;
	struct reply	 r = { 0 };
	int		 i, n = p->v[0].n, skipme = 1, filter = 0;

	if (n == 1) {
		if ((o = client_find(c->srv, "ADDR", WORD(p, 0))) == NULL) {
			conn_error(c, "ERR", "No such client");
			return;
		}
		send_status(c, "OK");
		kill_one(c, o);
		return;
	}
	for (i = 0; i + 1 < n; i += 2) {
		if (strcaseeq(WORD(p, i), "ID") ||
		    strcaseeq(WORD(p, i), "ADDR")) {
			o = client_find(c->srv, WORD(p, i), WORD(p, i + 1));
			filter = 1;
		} else if (strcaseeq(WORD(p, i), "SKIPME"))
			skipme = !strcaseeq(WORD(p, i + 1), "no");
		else
			break;
	}
	if (i != n || !filter) {
		conn_error(c, "ERR", "syntax error");
		return;
	}
	if (o == c && skipme)
		o = NULL;
	reply_int(&r, o != NULL);
	conn_reply(c, &r);
	reply_free(&r);
	if (o != NULL)
		kill_one(c, o);
}

static void
client_help(struct conn *c)
{
	static const char *const lines[] = {
		"CLIENT <subcommand> [<arg> ...]. Subcommands are:",
		"GETNAME", "GETREDIR", "ID", "INFO", "KILL <ip:port>",
		"KILL ID <id> | ADDR <ip:port> [SKIPME yes|no]",
		"LIST [TYPE normal|pubsub]", "SETINFO LIB-NAME|LIB-VER <value>",
		"SETNAME <name>", "TRACKINGINFO", "UNPAUSE", "HELP",
	};
	struct reply	 r = { 0 };
	size_t		 i;

	reply_array(&r);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		reply_status(reply_add(&r), lines[i]);
	conn_reply(c, &r);
	reply_free(&r);
}

static void
send_int(struct conn *c, long long v)
{
	struct reply	 r = { 0 };

	reply_int(&r, v);
	conn_reply(c, &r);
	reply_free(&r);
}

static void
client_getname(struct conn *c)
{
	struct reply	 r = { 0 };

	if (c->name != NULL) {
		send_bulk(c, c->name, strlen(c->name));
		return;
	}
	reply_null(&r);
	conn_reply(c, &r);
	reply_free(&r);
}

/* CLIENT TRACKINGINFO as Redis answers a connection that tracks nothing:
 * ludusd has no client-side caching (no CLIENT TRACKING), so no
 * connection ever does. */
static void
client_trackinginfo(struct conn *c)
{
	struct reply	 r = { 0 }, *flags;

	reply_map(&r);
	reply_bulk(reply_add(&r), "flags", 5);
	flags = reply_add(&r);	/* filled before r grows again */
	reply_array(flags);
	reply_bulk(reply_add(flags), "off", 3);
	reply_bulk(reply_add(&r), "redirect", 8);
	reply_int(reply_add(&r), -1);
	reply_bulk(reply_add(&r), "prefixes", 8);
	reply_array(reply_add(&r));
	conn_reply(c, &r);
	reply_free(&r);
}

/* CLIENT subcommand ...: the parser has checked the subcommand and the
 * count of its words. */
static void
client_cmd(struct conn *c, const struct cmd_parsed *p)
{
	switch (p->v[0].i) {
	case CLIENT_SETNAME:
		if (set_name(c, WORD(p, 0), WORD_LEN(p, 0)) == 0)
			send_status(c, "OK");
		break;
	case CLIENT_GETNAME:
		client_getname(c);
		break;
	case CLIENT_ID:
		send_int(c, (long long)c->id);
		break;
	case CLIENT_INFO:
		send_lines(c, c, NULL);
		break;
	case CLIENT_LIST:
		client_list(c, p);
		break;
	case CLIENT_SETINFO:
		client_setinfo(c, p);
		break;
	case CLIENT_KILL:
		client_kill(c, p);
		break;
	case CLIENT_HELP:
		client_help(c);
		break;
	case CLIENT_GETREDIR:	/* no tracking, so no redirection */
		send_int(c, -1);
		break;
	case CLIENT_TRACKINGINFO:
		client_trackinginfo(c);
		break;
	default:	/* NO-EVICT, NO-TOUCH: nothing is evicted or touched;
			 * UNPAUSE: nothing is ever paused */
		send_status(c, "OK");
		break;
	}
}

const struct cmd_def conn_client_entry = { .name = "CLIENT",
    .spec = CMD_ARGS(client_args, 0), .flags = CMD_READONLY,
    .conn = client_cmd };

/* --------------------------------------------- SELECT, TIME, RESET */

/* SELECT index: an integer (else Redis's message); only 0 is a database. */
static const struct cmd_arg select_args[] = {
	{ .name = "index", .type = CMD_ARG_INT, .min = INT64_MIN,
	  .max = INT64_MAX, .errcode = "ERR",
	  .err = "value is not an integer or out of range" },
};

static void
select_cmd(struct conn *c, const struct cmd_parsed *p)
{
	if (p->v[0].i != 0)
		conn_error(c, "ERR", "DB index is out of range (ludusd has one "
		    "database: 0)");
	else
		send_status(c, "OK");
}

const struct cmd_def conn_select_entry = { .name = "SELECT",
    .spec = CMD_ARGS(select_args, 0), .flags = CMD_READONLY,
    .conn = select_cmd };

/* TIME */
static void
time_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };
	struct timespec	 ts;

	(void)p;
	clock_gettime(CLOCK_REALTIME, &ts);
	reply_array(&r);
	reply_bulkf(reply_add(&r), "%lld", (long long)ts.tv_sec);
	reply_bulkf(reply_add(&r), "%ld", ts.tv_nsec / 1000);
	conn_reply(c, &r);
	reply_free(&r);
}

const struct cmd_def conn_time_entry = { .name = "TIME", .spec = CMD_ARGS_NONE,
    .flags = CMD_READONLY, .conn = time_cmd };

/* The connection as it was when it connected: out of MULTI and MONITOR,
 * nothing watched or subscribed, RESP2, no name, no seat, not authenticated when
 * a password is required. */
static void
reset_cmd(struct conn *c, const struct cmd_parsed *p)
{
	(void)p;
	multi_reset(c);
	monitor_gone(c);
	watch_remove_all(c, NULL);
	pubsub_remove_all(c);
	c->proto = 2;
	set_string(&c->name, NULL, 0);
	set_string(&c->lib_name, NULL, 0);
	set_string(&c->lib_ver, NULL, 0);
	c->session->nseats = 0;
	c->authed = !auth_required(c->srv->auth);
	send_status(c, "RESET");
}

/* A RESP2 subscriber may leave with it; before AUTH too. */
const struct cmd_def conn_reset_entry = { .name = "RESET",
    .spec = CMD_ARGS_NONE,
    .flags = CMD_READONLY | CMD_PUBSUB | CMD_NO_QUEUE | CMD_NO_AUTH |
    CMD_BARRIER, .conn = reset_cmd };

void
client_free(struct conn *c)
{
	free(c->name);
	free(c->lib_name);
	free(c->lib_ver);
	c->name = c->lib_name = c->lib_ver = NULL;
}
