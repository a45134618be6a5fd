/*
 * Transactions as Redis clients send them: MULTI, the commands queued
 * (+QUEUED), EXEC or DISCARD; and WATCH / UNWATCH, Redis's optimistic
 * locks, on game ids.
 *
 * Queueing follows Redis: a request refused for its form (an unknown
 * command, a wrong number of arguments) or a command that cannot run
 * inside a transaction is answered at once and makes the EXEC answer
 * -EXECABORT without running anything; every other error comes at EXEC
 * time, in the place of its command in the EXEC's array, and the other
 * commands still run.
 *
 * What ludus adds is that the commands of an EXEC are one store
 * transaction: they run back to back (nothing else runs in between, and
 * no cap of the pass commits in the middle: pass_after() is not called
 * until the EXEC is over) in one savepoint of the pass's transaction
 * (cmd_txn_group_begin()), each write in a savepoint of its own inside
 * it.  A command's own refusal (INVALID_MOVE, GAME_OVER, BADARG, STALE,
 * NOSEAT, NOGAME ...) changes nothing, as outside a transaction, and is
 * that command's reply; a store failure anywhere inside undoes the whole
 * EXEC, which then answers -STORE.  The EXEC's reply waits for the
 * COMMIT like any reply that came from the store, and becomes -STORE if
 * the COMMIT fails; the events of its moves follow it.
 *
 * WATCH records the move count of each game named (-1 for none); EXEC
 * runs nothing and answers null when any of them differs by then, as a
 * game only ever gains moves.  WATCH is a barrier (it ends the pass's
 * transaction first), so the counts it records are committed ones.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/conn.h"
#include "net/log.h"
#include "util/util.h"

#define MULTI_KEEP	(64 * 1024)	/* queued bytes kept after an EXEC */

/* One argument of a queued request: its bytes in the multi's buffer. */
struct qarg {
	size_t	 off, len;
};

struct queued {
	const struct cmd_def	*def;	/* its command, found at queue time */
	size_t			 first;	/* in args */
	int			 argc;
};

struct wkey {
	char	 id[GAME_ID_MAX + 1];
	int64_t	 moves;			/* -1: no such game */
};

/* A connection's transaction state, made at its first MULTI or WATCH and
 * kept, buffers grown, until it closes. */
struct multi {
	int		 active;	/* between MULTI and EXEC/DISCARD */
	int		 dirty;		/* a request was refused: EXECABORT */
	struct queued	*q;
	size_t		 nq, capq;
	struct qarg	*args;
	size_t		 nargs, capargs;
	char		*bytes;		/* every argument, NUL-ended */
	size_t		 nbytes, capbytes;
	char		**argv;		/* one request's, for its run */
	size_t		*argl;
	size_t		 capv;
	struct wkey	*keys;
	size_t		 nkeys, capkeys;
};

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need < 16 ? 16 : need * 2;
	return xrealloc(p, *cap * size);
}

static struct multi *
multi_get(struct conn *c)
{
	if (c->multi == NULL)
		c->multi = xcalloc(1, sizeof(*c->multi));
	return c->multi;
}

void
multi_free(struct conn *c)
{
	struct multi	*m = c->multi;

	if (m == NULL)
		return;
	free(m->q);
	free(m->args);
	free(m->bytes);
	free(m->argv);
	free(m->argl);
	free(m->keys);
	free(m);
	c->multi = NULL;
}

/* Out of the transaction, queue emptied, keys unwatched. */
static void
multi_clear(struct multi *m)
{
	m->active = 0;
	m->dirty = 0;
	m->nq = 0;
	m->nargs = 0;
	m->nbytes = 0;
	m->nkeys = 0;
	if (m->capbytes > MULTI_KEEP) {
		free(m->bytes);
		m->bytes = NULL;
		m->capbytes = 0;
	}
}

void
multi_reset(struct conn *c)
{
	if (c->multi != NULL)
		multi_clear(c->multi);
}

int
multi_queuing(const struct conn *c)
{
	return c->multi != NULL && c->multi->active;
}

int
multi_queued(const struct conn *c)
{
	return multi_queuing(c) ? (int)c->multi->nq : -1;
}

int
multi_watched(const struct conn *c)
{
	return c->multi != NULL ? (int)c->multi->nkeys : 0;
}

/* The bytes its transaction state holds (CLIENT INFO's multi-mem). */
size_t
multi_mem(const struct conn *c)
{
	const struct multi	*m = c->multi;

	if (m == NULL)
		return 0;
	return sizeof(*m) + m->capq * sizeof(*m->q) +
	    m->capargs * sizeof(*m->args) + m->capbytes +
	    m->capv * (sizeof(*m->argv) + sizeof(*m->argl)) +
	    m->capkeys * sizeof(*m->keys);
}

/* ------------------------------------------------------------ queueing */

static void
queue_add(struct multi *m, const struct cmd_def *d, const struct cmd_args *a)
{
	struct queued	*q;
	struct qarg	*arg;
	int		 i;

	m->q = grow(m->q, &m->capq, m->nq + 1, sizeof(*m->q));
	m->args = grow(m->args, &m->capargs, m->nargs + (size_t)a->argc,
	    sizeof(*m->args));
	q = &m->q[m->nq++];
	q->def = d;
	q->first = m->nargs;
	q->argc = a->argc;
	for (i = 0; i < a->argc; i++) {
		m->bytes = grow(m->bytes, &m->capbytes, m->nbytes +
		    a->argl[i] + 1, 1);
		arg = &m->args[m->nargs++];
		arg->off = m->nbytes;
		arg->len = a->argl[i];
		memcpy(m->bytes + m->nbytes, a->argv[i], a->argl[i]);
		m->nbytes += a->argl[i];
		m->bytes[m->nbytes++] = '\0';
	}
}

void
multi_abort(struct conn *c, const struct reply *r)
{
	c->multi->dirty = 1;
	conn_reply(c, r);
}

void
multi_queue(struct conn *c, const struct cmd_def *d, const struct cmd_args *a)
{
	struct multi	*m = c->multi;
	struct reply	 r = { 0 };

	/* The queue is memory until EXEC: multi-max-commands (quota.c). */
	if (quota_queue(c, m->nq, &r) == -1) {
		multi_abort(c, &r);
		reply_free(&r);
		return;
	}
	queue_add(m, d, a);
	reply_status(&r, "QUEUED");
	conn_reply(c, &r);
	reply_free(&r);
}

void
multi_refuse(struct conn *c, const char *fmt, ...)
{
	va_list		 ap;

	c->multi->dirty = 1;
	va_start(ap, fmt);
	conn_verror(c, "ERR", fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- EXEC */

/* The arguments of queued request i, for its run. */
static void
queued_args(struct conn *c, size_t i, struct cmd_args *a)
{
	struct multi	*m = c->multi;
	struct queued	*q = &m->q[i];
	int		 k;

	if ((size_t)q->argc + 1 > m->capv) {
		m->capv = (size_t)q->argc * 2 + 16;
		m->argv = xrealloc(m->argv, m->capv * sizeof(*m->argv));
		m->argl = xrealloc(m->argl, m->capv * sizeof(*m->argl));
	}
	for (k = 0; k < q->argc; k++) {
		m->argv[k] = m->bytes + m->args[q->first + (size_t)k].off;
		m->argl[k] = m->args[q->first + (size_t)k].len;
	}
	memset(a, 0, sizeof(*a));
	a->argc = q->argc;
	a->argv = m->argv;
	a->argl = m->argl;
	a->session = c->session;
}

/* Does any queued command reach the store (any of the command
 * layer's)? */
static int
queued_store(const struct multi *m)
{
	size_t	 i;

	for (i = 0; i < m->nq; i++)
		if (m->q[i].def->conn == NULL)
			return 1;
	return 0;
}

/* 1 when a watched game has moved since WATCH, 0 if none has; -1 when
 * the store failed (the -STORE reply set in out). */
static int
keys_moved(struct conn *c, struct reply *out)
{
	struct multi	*m = c->multi;
	struct store	*st = c->srv->env.store;
	struct game	 g;
	size_t		 i;
	int		 rc;

	for (i = 0; i < m->nkeys; i++) {
		rc = store_load_game(st, m->keys[i].id, &g);
		if (rc == STORE_ERR) {
			c->srv->env.store_errors++;
			reply_error(out, "STORE", "%s", store_errmsg(st));
			return -1;
		}
		if ((rc == STORE_NOTFOUND ? -1 : g.moves) != m->keys[i].moves)
			return 1;
	}
	return 0;
}

/* Runs the queue into the array out; store: in one group. */
static void
exec_run(struct conn *c, int store, struct reply *out)
{
	struct cmd_env	*env = &c->srv->env;
	struct cmd_args	 a;
	size_t		 i;

	if (store && cmd_txn_group_begin(env) == -1) {
		reply_error(out, "STORE", "%s", store_errmsg(env->store));
		return;
	}
	reply_array(out);
	for (i = 0; i < c->multi->nq; i++) {
		queued_args(c, i, &a);
		conncmd_exec(c, c->multi->q[i].def, &a, reply_add(out));
	}
	if (store && cmd_txn_group_end(env, 1) == -1) {
		log_warning("%s: EXEC of %zu command(s) rolled back: %s",
		    c->addr, c->multi->nq, store_errmsg(env->store));
		reply_free(out);
		reply_error(out, "STORE", "EXEC rolled back: %s",
		    store_errmsg(env->store));
	}
}

/* EXEC */
static void
exec_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct multi		*m = c->multi;
	struct reply		 r = { 0 };
	struct cmd_result	 res;
	int			 store, moved;

	(void)p;
	if (m == NULL || !m->active) {
		conn_error(c, "ERR", "EXEC without MULTI");
		return;
	}
	if (m->dirty) {
		multi_clear(m);
		conn_error(c, "EXECABORT", "Transaction discarded because of "
		    "previous errors.");
		return;
	}
	store = queued_store(m) || m->nkeys > 0;
	/* One request, the WATCHed games' reads included: a shared store
	 * keeps it whole, and a conflict of it answers -STORE (pass.c). */
	if (store)
		(void)cmd_txn_request(&c->srv->env);
	if ((moved = keys_moved(c, &r)) == 1)
		reply_null(&r);
	else if (moved == 0)
		exec_run(c, store, &r);
	multi_clear(m);
	/* Like any reply of the store's while the transaction is open. */
	cmd_txn_status(&c->srv->env, &res);
	res.wait = store && res.writes > 0;
	pass_reply(c, NULL, &r, &res);
	reply_free(&r);
}

const struct cmd_def conn_exec_entry = { .name = "EXEC", .spec = CMD_ARGS_NONE,
    .flags = CMD_READONLY | CMD_NO_QUEUE, .conn = exec_cmd };

/* --------------------------------------------------- MULTI, DISCARD */

static void
multi_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct multi	*m = multi_get(c);
	struct reply	 r = { 0 };

	(void)p;
	if (m->active) {
		conn_error(c, "ERR", "MULTI calls can not be nested");
		return;
	}
	m->active = 1;
	reply_status(&r, "OK");
	conn_reply(c, &r);
	reply_free(&r);
}

const struct cmd_def conn_multi_entry = { .name = "MULTI",
    .spec = CMD_ARGS_NONE, .flags = CMD_READONLY | CMD_NO_QUEUE,
    .conn = multi_cmd };

static void
discard_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	(void)p;
	if (!multi_queuing(c)) {
		conn_error(c, "ERR", "DISCARD without MULTI");
		return;
	}
	multi_clear(c->multi);
	reply_status(&r, "OK");
	conn_reply(c, &r);
	reply_free(&r);
}

const struct cmd_def conn_discard_entry = { .name = "DISCARD",
    .spec = CMD_ARGS_NONE, .flags = CMD_READONLY | CMD_NO_QUEUE,
    .conn = discard_cmd };

/* ------------------------------------------------------ WATCH UNWATCH */

static int
key_watched(const struct multi *m, const char *id)
{
	size_t	 i;

	for (i = 0; i < m->nkeys; i++)
		if (strcmp(m->keys[i].id, id) == 0)
			return 1;
	return 0;
}

/* 0, or -1 with the -STORE reply sent. */
static int
key_add(struct conn *c, const char *id)
{
	struct multi	*m = c->multi;
	struct store	*st = c->srv->env.store;
	struct game	 g;
	int		 rc;

	if (key_watched(m, id))
		return 0;
	if ((rc = store_load_game(st, id, &g)) == STORE_ERR) {
		c->srv->env.store_errors++;
		conn_error(c, "STORE", "%s", store_errmsg(st));
		return -1;
	}
	m->keys = grow(m->keys, &m->capkeys, m->nkeys + 1, sizeof(*m->keys));
	str_copy(m->keys[m->nkeys].id, sizeof(m->keys[0].id), id);
	m->keys[m->nkeys++].moves = rc == STORE_NOTFOUND ? -1 : g.moves;
	return 0;
}

/* WATCH id [id ...]: a key that is no game id is taken, and can never
 * be a game: nothing to watch.  A barrier, so that the counts it records
 * are committed ones. */
static const struct cmd_arg watch_args[] = {
	{ .name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	  .nmin = 1 },
};

static void
watchkeys_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };
	int		 i;

	if (multi_queuing(c)) {
		conn_error(c, "ERR", "WATCH inside MULTI is not allowed");
		return;
	}
	multi_get(c);
	for (i = 0; i < p->v[0].n; i++)
		if (valid_id(cmd_word(p, 0, i), cmd_word_len(p, 0, i)) &&
		    key_add(c, cmd_word(p, 0, i)) == -1)
			return;
	reply_status(&r, "OK");
	conn_reply(c, &r);
	reply_free(&r);
}

const struct cmd_def conn_watch_entry = { .name = "WATCH",
    .spec = CMD_ARGS(watch_args, 0),
    .flags = CMD_READONLY | CMD_BARRIER | CMD_NO_QUEUE,
    .conn = watchkeys_cmd };

static void
unwatchkeys_cmd(struct conn *c, const struct cmd_parsed *p)
{
	struct reply	 r = { 0 };

	(void)p;
	if (c->multi != NULL)
		c->multi->nkeys = 0;
	reply_status(&r, "OK");
	conn_reply(c, &r);
	reply_free(&r);
}

const struct cmd_def conn_unwatch_entry = { .name = "UNWATCH",
    .spec = CMD_ARGS_NONE, .flags = CMD_READONLY, .conn = unwatchkeys_cmd };

/* ------------------------------------------------------------ capture */

static void
reply_copy(struct reply *dst, const struct reply *src)
{
	size_t	 i;

	dst->type = src->type;
	dst->rejected = src->rejected;
	dst->integer = src->integer;
	if (src->str != NULL) {
		dst->str = xstrndup(src->str, src->len);
		dst->len = src->len;
	}
	for (i = 0; i < src->n; i++)
		reply_copy(reply_add(dst), &src->elem[i]);
}

int
multi_capture(struct conn *c, const struct reply *r)
{
	if (c->capture == NULL)
		return 0;
	/* One reply per command: a second one has nowhere to go. */
	if (c->capture->type == REPLY_NONE)
		reply_copy(c->capture, r);
	return 1;
}
