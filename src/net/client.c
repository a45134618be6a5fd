/*
 * Who a connection is: HELLO, AUTH, CLIENT, SELECT, RESET and TIME, the
 * connection commands every Redis client library sends when it connects
 * (a name, a database, a password, a protocol) or that admin tools ask.
 *
 * The password (requirepass) guards the server; seat keys still guard
 * the players.  It is kept only as a keyed hash (BLAKE2b, libsodium's
 * crypto_generichash, the key made at start), and a password given is
 * hashed the same way and compared with crypto_verify_32, so the
 * comparison takes the same time whatever the password and its length.
 * Until a connection has authenticated, only AUTH, HELLO (with AUTH),
 * QUIT and RESET run; anything else is -NOAUTH, after the checks of the
 * request's form, as Redis orders them.  There is one user, "default".
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

#include <sodium.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

#define AUTH_HASH_LEN	crypto_generichash_BYTES	/* 32 */

/* The password's keyed hash; a server has one at most. */
struct auth {
	int		 on;			/* requirepass is set */
	uint8_t		 key[crypto_generichash_KEYBYTES];
	uint8_t		 hash[AUTH_HASH_LEN];
};

static struct auth	 server_auth;

static void
auth_hash(const char *pass, size_t len, uint8_t out[AUTH_HASH_LEN])
{
	crypto_generichash(out, AUTH_HASH_LEN, (const unsigned char *)pass,
	    len, server_auth.key, sizeof(server_auth.key));
}

int
auth_init(const char *requirepass)
{
	if (sodium_init() == -1)
		return -1;
	sodium_memzero(&server_auth, sizeof(server_auth));
	if (requirepass == NULL || requirepass[0] == '\0')
		return 0;
	randombytes_buf(server_auth.key, sizeof(server_auth.key));
	auth_hash(requirepass, strlen(requirepass), server_auth.hash);
	server_auth.on = 1;
	return 0;
}

int
auth_required(void)
{
	return server_auth.on;
}

/* 1 when user and pass are the default user's. */
static int
auth_check(const char *user, const char *pass, size_t len)
{
	uint8_t	 h[AUTH_HASH_LEN];
	int	 ok;

	if (user != NULL && strcmp(user, "default") != 0)
		return 0;
	if (!server_auth.on)
		return 1;		/* the default user has no password */
	auth_hash(pass, len, h);
	ok = crypto_verify_32(h, server_auth.hash) == 0;
	sodium_memzero(h, sizeof(h));
	return ok;
}

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

void
auth_cmd(struct conn *c, const struct cmd_args *a)
{
	if (a->argc > 3) {
		conn_error(c, "ERR", "syntax error");
		return;
	}
	if (a->argc == 2 && !server_auth.on) {
		conn_error(c, "ERR", "AUTH <password> called without any "
		    "password configured for the default user. Are you sure "
		    "your configuration is correct?");
		return;
	}
	if (!auth_check(a->argc == 3 ? a->argv[1] : NULL,
	    a->argv[a->argc - 1], a->argl[a->argc - 1])) {
		log_info("%s: AUTH failed", c->addr);
		reply_wrongpass(c);
		return;
	}
	c->authed = 1;
	send_status(c, "OK");
}

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

/* HELLO's options after the version; 0, or -1 with the error sent. */
static int
hello_options(struct conn *c, const struct cmd_args *a, int *auth,
    int *name)
{
	int	 i;

	*auth = *name = 0;
	for (i = 2; i < a->argc; i++) {
		if (strcaseeq(a->argv[i], "AUTH") && i + 2 < a->argc) {
			*auth = i + 1;
			i += 2;
		} else if (strcaseeq(a->argv[i], "SETNAME") &&
		    i + 1 < a->argc) {
			*name = i + 1;
			i++;
		} else {
			conn_error(c, "ERR", "Syntax error in HELLO option "
			    "'%.64s'", a->argv[i]);
			return -1;
		}
	}
	return 0;
}

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

void
hello_cmd(struct conn *c, const struct cmd_args *a)
{
	const char	*errstr;
	int64_t		 proto = c->proto;
	int		 auth, name;

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
	if (hello_options(c, a, &auth, &name) == -1)
		return;
	if (auth > 0 && !auth_check(a->argv[auth], a->argv[auth + 1],
	    a->argl[auth + 1])) {
		log_info("%s: HELLO AUTH failed", c->addr);
		reply_wrongpass(c);
		return;
	}
	if (auth > 0)
		c->authed = 1;
	if (!c->authed) {
		conn_error(c, "NOAUTH", "HELLO must be called with the client "
		    "already authenticated, otherwise the HELLO AUTH <user> "
		    "<pass> option can be used to authenticate the client and "
		    "select the RESP protocol version at the same time");
		return;
	}
	if (name > 0 && set_name(c, a->argv[name], a->argl[name]) == -1)
		return;
	c->proto = (int)proto;
	hello_reply(c);
}

/* -------------------------------------------------------------- CLIENT */

/* One line of CLIENT INFO and CLIENT LIST, as Redis writes it (the
 * fields that have a meaning here). */
static void
client_line(const struct conn *o, struct strbuf *b)
{
	char	 tmp[160];
	time_t	 now = time(NULL);

	snprintf(tmp, sizeof(tmp), "id=%llu addr=%s fd=%d name=",
	    (unsigned long long)o->id, o->addr, bufferevent_getfd(o->bev));
	strbuf_add(b, tmp);
	strbuf_add(b, o->name != NULL ? o->name : "");
	snprintf(tmp, sizeof(tmp), " age=%lld idle=%lld flags=%s%s%s db=0 "
	    "sub=%d psub=%d ssub=0 multi=%d watch=%d obl=0 oll=0 omem=%zu "
	    "events=r cmd=%s user=default resp=%d lib-name=",
	    (long long)(now - o->since), (long long)(now - o->last),
	    conn_subscribed(o) ? "P" : "", stream_busy(o) ? "b" : "",
	    conn_subscribed(o) || stream_busy(o) ? "" : "N", o->nchannels,
	    o->npatterns, multi_queued(o), multi_watched(o), conn_pending(o),
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

static void
client_list(struct conn *c, const struct cmd_args *a)
{
	const char	*type = NULL;

	if (a->argc == 4 && strcaseeq(a->argv[2], "TYPE")) {
		type = a->argv[3];
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
	} else if (a->argc != 2) {
		conn_error(c, "ERR", "syntax error");
		return;
	}
	send_lines(c, NULL, type);
}

static void
client_setinfo(struct conn *c, const struct cmd_args *a)
{
	const char	*attr = a->argv[2];

	if (!strcaseeq(attr, "LIB-NAME") && !strcaseeq(attr, "LIB-VER")) {
		conn_error(c, "ERR", "Unrecognized option '%.64s'", attr);
		return;
	}
	if (!name_ok(a->argv[3], a->argl[3])) {
		conn_error(c, "ERR", "%s cannot contain spaces, newlines or "
		    "special characters.", strcaseeq(attr, "LIB-NAME") ?
		    "lib-name" : "lib-ver");
		return;
	}
	set_string(strcaseeq(attr, "LIB-NAME") ? &c->lib_name : &c->lib_ver,
	    a->argv[3], a->argl[3]);
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
client_kill(struct conn *c, const struct cmd_args *a)
{
	struct conn	*o = NULL;
	struct reply	 r = { 0 };
	int		 i, skipme = 1, filter = 0;

	if (a->argc == 3) {
		if ((o = client_find(c->srv, "ADDR", a->argv[2])) == NULL) {
			conn_error(c, "ERR", "No such client");
			return;
		}
		send_status(c, "OK");
		kill_one(c, o);
		return;
	}
	for (i = 2; i + 1 < a->argc; i += 2) {
		if (strcaseeq(a->argv[i], "ID") ||
		    strcaseeq(a->argv[i], "ADDR")) {
			o = client_find(c->srv, a->argv[i], a->argv[i + 1]);
			filter = 1;
		} else if (strcaseeq(a->argv[i], "SKIPME"))
			skipme = !strcaseeq(a->argv[i + 1], "no");
		else
			break;
	}
	if (i != a->argc || !filter) {
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
		"GETNAME", "ID", "INFO", "KILL <ip:port>",
		"KILL ID <id> | ADDR <ip:port> [SKIPME yes|no]",
		"LIST [TYPE normal|pubsub]", "SETINFO LIB-NAME|LIB-VER <value>",
		"SETNAME <name>", "HELP",
	};
	struct reply	 r = { 0 };
	size_t		 i;

	reply_array(&r);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		reply_status(reply_add(&r), lines[i]);
	conn_reply(c, &r);
	reply_free(&r);
}

void
client_cmd(struct conn *c, const struct cmd_args *a)
{
	const char	*sub = a->argv[1];
	struct reply	 r = { 0 };

	if (strcaseeq(sub, "SETNAME") && a->argc == 3) {
		if (set_name(c, a->argv[2], a->argl[2]) == 0)
			send_status(c, "OK");
	} else if (strcaseeq(sub, "GETNAME") && a->argc == 2) {
		if (c->name != NULL)
			send_bulk(c, c->name, strlen(c->name));
		else {
			reply_null(&r);
			conn_reply(c, &r);
		}
	} else if (strcaseeq(sub, "ID") && a->argc == 2) {
		reply_int(&r, (long long)c->id);
		conn_reply(c, &r);
	} else if (strcaseeq(sub, "INFO") && a->argc == 2)
		send_lines(c, c, NULL);
	else if (strcaseeq(sub, "LIST"))
		client_list(c, a);
	else if (strcaseeq(sub, "SETINFO") && a->argc == 4)
		client_setinfo(c, a);
	else if (strcaseeq(sub, "KILL") && a->argc >= 3)
		client_kill(c, a);
	else if ((strcaseeq(sub, "NO-EVICT") || strcaseeq(sub, "NO-TOUCH")) &&
	    a->argc == 3)
		send_status(c, "OK");	/* nothing is evicted or touched */
	else if (strcaseeq(sub, "HELP") && a->argc == 2)
		client_help(c);
	else
		conn_error(c, "ERR", "unknown subcommand or wrong number of "
		    "arguments for '%.64s'. Try CLIENT HELP.", sub);
	reply_free(&r);
}

/* --------------------------------------------- SELECT, TIME, RESET */

void
select_cmd(struct conn *c, const struct cmd_args *a)
{
	const char	*errstr;
	int64_t		 db;

	if (parse_int64(a->argv[1], INT64_MIN, INT64_MAX, &db, &errstr) ==
	    -1)
		conn_error(c, "ERR", "value is not an integer or out of range");
	else if (db != 0)
		conn_error(c, "ERR", "DB index is out of range (ludusd has one "
		    "database: 0)");
	else
		send_status(c, "OK");
}

void
time_cmd(struct conn *c, const struct cmd_args *a)
{
	struct reply	 r = { 0 };
	struct timespec	 ts;

	(void)a;
	clock_gettime(CLOCK_REALTIME, &ts);
	reply_array(&r);
	reply_bulkf(reply_add(&r), "%lld", (long long)ts.tv_sec);
	reply_bulkf(reply_add(&r), "%ld", ts.tv_nsec / 1000);
	conn_reply(c, &r);
	reply_free(&r);
}

/* The connection as it was when it connected: out of MULTI, nothing
 * watched or subscribed, RESP2, no name, no seat, not authenticated when
 * a password is required. */
void
reset_cmd(struct conn *c, const struct cmd_args *a)
{
	(void)a;
	multi_reset(c);
	watch_remove_all(c, NULL);
	pubsub_remove_all(c);
	c->proto = 2;
	set_string(&c->name, NULL, 0);
	set_string(&c->lib_name, NULL, 0);
	set_string(&c->lib_ver, NULL, 0);
	c->session->nseats = 0;
	c->authed = !server_auth.on;
	send_status(c, "RESET");
}

void
client_free(struct conn *c)
{
	free(c->name);
	free(c->lib_name);
	free(c->lib_ver);
	c->name = c->lib_name = c->lib_ver = NULL;
}
