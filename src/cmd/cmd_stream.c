/*
 * A game's history as Redis sees a stream, and as a line.
 *
 * The history row of move seq is the stream entry "<seq>-0" with the
 * fields player, action, result, and by ("bot" or "timeout") for a move
 * the server made; a game is a stream whose ids are its seqs, so XRANGE,
 * XREVRANGE, XLEN and XREAD read the history table, and every Redis
 * client library's stream API reads a game.  Ids are parsed as Redis
 * parses them ("ms-seq", an incomplete "ms", "-" and "+", an exclusive
 * "(id"), then mapped onto the seqs: entry (s, 0) is in a range when
 * Redis would say so.  A key that is no game is an empty stream, as in
 * Redis.  XREAD's BLOCK is the daemon's (src/net/stream.c): here it is
 * read and the read is done at once.
 *
 * The line is "seq,player,action,result[,bot|,timeout]": HISTORY's entry
 * and the payload of a pub/sub message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

#define ID_INVALID	"Invalid stream ID specified as stream command argument"

struct stream_id {
	uint64_t	 ms, seq;
};

size_t
cmd_move_line(const struct move *mv, char *buf, size_t size)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, size);
	strbuf_addint(&b, mv->seq);
	strbuf_addc(&b, ',');
	strbuf_add(&b, mv->player);
	strbuf_addc(&b, ',');
	strbuf_add(&b, mv->action);
	strbuf_addc(&b, ',');
	strbuf_add(&b, mv->result);
	if (mv->by == MOVE_BOT)
		strbuf_add(&b, ",bot");
	else if (mv->by == MOVE_TIMEOUT)
		strbuf_add(&b, ",timeout");
	return b.len < size ? b.len : size - 1;
}

/* ----------------------------------------------------------------- ids */

/* 1-20 decimal digits within 64 bits: 0 or -1. */
static int
parse_u64(const char *s, size_t len, uint64_t *v)
{
	size_t	 i;

	*v = 0;
	if (len == 0 || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    *v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return 0;
}

/* "ms-seq", "ms" (seq is missing_seq), "-" (0-0), "+" (the largest). */
static int
parse_id(const char *s, size_t len, uint64_t missing_seq,
    struct stream_id *id)
{
	const char	*dash;

	if (len == 1 && (s[0] == '-' || s[0] == '+')) {
		id->ms = id->seq = s[0] == '-' ? 0 : UINT64_MAX;
		return 0;
	}
	if ((dash = memchr(s, '-', len)) == NULL) {
		id->seq = missing_seq;
		return parse_u64(s, len, &id->ms);
	}
	return parse_u64(s, (size_t)(dash - s), &id->ms) == -1 ? -1 :
	    parse_u64(dash + 1, len - (size_t)(dash - s) - 1, &id->seq);
}

/* The first seq at or after a start id, the last at or before an end id
 * (entries are (seq, 0)); then clamped to the seqs that can exist. */
static int64_t
clamp_seq(uint64_t s)
{
	return s > INT64_MAX ? INT64_MAX : (int64_t)s;
}

/* A request's words refused (a done hook's: the parser's refusal), before
 * anything looked at the store: it never waits for a commit. */
static int
refuse(struct reply *out, const char *msg)
{
	reply_error(out, "ERR", "%s", msg);
	out->rejected = 1;
	return -1;
}

/* A range bound: "(" makes it exclusive.  0, or -1 with the error set. */
static int
range_bound(struct reply *out, const char *s, size_t len, int end,
    int64_t *seq)
{
	struct stream_id	 id;
	int			 excl = len > 1 && s[0] == '(';

	if (excl) {
		s++;
		len--;
	}
	/* "(-" and "(+" are no ids, as in Redis. */
	if ((excl && len == 1 && (s[0] == '-' || s[0] == '+')) ||
	    parse_id(s, len, end ? UINT64_MAX : 0, &id) == -1)
		return refuse(out, ID_INVALID);
	if (!end && excl && id.ms == UINT64_MAX && id.seq == UINT64_MAX)
		return refuse(out, "invalid start ID for the interval");
	if (end && excl && id.ms == 0 && id.seq == 0)
		return refuse(out, "invalid end ID for the interval");
	if (!end)	/* (s,0) >= id, or > id when exclusive */
		*seq = id.ms == UINT64_MAX && (excl || id.seq > 0) ?
		    INT64_MAX : clamp_seq(excl || id.seq > 0 ? id.ms + 1 :
		    id.ms);
	else		/* (s,0) <= id, or < id when exclusive */
		*seq = clamp_seq(excl && id.seq == 0 ? id.ms - 1 : id.ms);
	return 0;
}

/* --------------------------------------------------------- entries */

static void
add_field(struct reply *f, const char *name, const char *value)
{
	reply_bulk(reply_add(f), name, strlen(name));
	reply_bulk(reply_add(f), value, strlen(value));
}

/* [ "<seq>-0", [player, p, action, a, result, r (, by, bot|timeout)] ] */
static int
add_entry(void *arg, const struct move *mv)
{
	struct reply	*e = reply_add(arg), *f;
	char		 id[32];
	struct strbuf	 b;

	strbuf_init(&b, id, sizeof(id));
	strbuf_addint(&b, mv->seq);
	strbuf_add(&b, "-0");
	reply_array(e);
	reply_bulk(reply_add(e), id, b.len);
	f = reply_add(e);
	reply_array(f);
	add_field(f, "player", mv->player);
	add_field(f, "action", mv->action);
	add_field(f, "result", mv->result);
	if (mv->by == MOVE_BOT)
		add_field(f, "by", "bot");
	else if (mv->by == MOVE_TIMEOUT)
		add_field(f, "by", "timeout");
	return 0;
}

/* Reverses the elements of an array in place. */
static void
reverse(struct reply *arr, size_t from)
{
	struct reply	 t;
	size_t		 i, j;

	for (i = from, j = arr->n; i + 1 < j; i++, j--) {
		t = arr->elem[i];
		arr->elem[i] = arr->elem[j - 1];
		arr->elem[j - 1] = t;
	}
}

int
cmd_stream_rows(struct cmd_env *env, const char *id, int64_t first,
    int64_t n, int rev, struct reply *arr)
{
	size_t	 from = arr->n;

	if (n <= 0)
		return 0;
	if (rev)
		first = first - n + 1;
	if (store_history(env->store, id, first, n, add_entry, arr) ==
	    STORE_ERR)
		return -1;
	if (rev)
		reverse(arr, from);
	return 0;
}

/* The moves of a game; 0 for no game (an empty stream).  0, or -1 with
 * -STORE set. */
static int
game_moves(struct cmd_env *env, struct reply *out, const char *id,
    size_t len, int64_t *moves)
{
	struct game	 g;
	int		 rc;

	*moves = 0;
	if (!valid_id(id, len))
		return 0;
	if ((rc = store_load_game(env->store, id, &g)) == STORE_OK)
		*moves = g.moves;
	else if (rc != STORE_NOTFOUND) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------- XRANGE, XREVRANGE */

/* COUNT n, as Redis reads it: any integer (below 0: none). */
#define ARG_COUNT(d) \
	{ .name = "n", .type = CMD_ARG_INT, \
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "COUNT", \
	  .min = INT64_MIN, .max = INT64_MAX, .def = (d), \
	  .errcode = "ERR", .err = "value is not an integer or out of range" }

/*
 * XRANGE id start end [COUNT n], XREVRANGE id end start [COUNT n]: the
 * id is any word (a key that is no game is an empty stream); the bounds
 * are read once the words are (the done hook), after COUNT, the start
 * first, into the request's range.
 */
enum { XR_ID, XR_FIRST, XR_SECOND, XR_COUNT };
static const struct cmd_arg xrange_args[] = {
	[XR_ID] = CMD_ARG_STR("id"),
	[XR_FIRST] = CMD_ARG_STR("start"),
	[XR_SECOND] = CMD_ARG_STR("end"),
	[XR_COUNT] = ARG_COUNT(INT64_MAX),
};
static const struct cmd_arg xrevrange_args[] = {
	[XR_ID] = CMD_ARG_STR("id"),
	[XR_FIRST] = CMD_ARG_STR("end"),
	[XR_SECOND] = CMD_ARG_STR("start"),
	[XR_COUNT] = ARG_COUNT(INT64_MAX),
};

static int
range_read(struct cmd_parsed *p, int rev, struct reply *out)
{
	struct xrange_req	*req = &p->stream.range;
	const struct cmd_val	*start, *end;

	start = &p->v[rev ? XR_SECOND : XR_FIRST];
	end = &p->v[rev ? XR_FIRST : XR_SECOND];
	req->id = p->v[XR_ID].s;
	req->valid = valid_id(p->v[XR_ID].s, p->v[XR_ID].len);
	req->rev = rev;
	req->count = p->v[XR_COUNT].i < 0 ? 0 : p->v[XR_COUNT].i;
	if (range_bound(out, start->s, start->len, 0, &req->lo) == -1 ||
	    range_bound(out, end->s, end->len, 1, &req->hi) == -1)
		return -1;
	if (req->lo < 1)
		req->lo = 1;
	return 0;
}

static int
xrange_done(struct cmd_parsed *p, struct reply *out)
{
	return range_read(p, 0, out);
}

static int
xrevrange_done(struct cmd_parsed *p, struct reply *out)
{
	return range_read(p, 1, out);
}

int64_t
cmd_xrange_span(const struct xrange_req *req, int64_t moves)
{
	int64_t	 hi = req->hi < moves ? req->hi : moves;

	if (!req->valid || req->lo > hi)
		return 0;
	return hi - req->lo + 1 < req->count ? hi - req->lo + 1 : req->count;
}

/* Without the daemon's slices: the whole range at once. */
static void
xrange_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct xrange_req	*req = &p->stream.range;
	int64_t			 moves, n;

	if (game_moves(env, out, req->id, p->v[XR_ID].len, &moves) == -1)
		return;
	reply_array(out);
	n = cmd_xrange_span(req, moves);
	if (cmd_stream_rows(env, req->id, req->rev ? (req->hi < moves ?
	    req->hi : moves) : req->lo, n, req->rev, out) == -1)
		cmd_reply_store(env, out);
}

const struct cmd_def cmd_xrange_entry = { .name = "XRANGE",
    .spec = CMD_ARGS_DONE(xrange_args, 0, xrange_done),
    .flags = CMD_READONLY | CMD_STREAM, .proc = xrange_cmd };

const struct cmd_def cmd_xrevrange_entry = { .name = "XREVRANGE",
    .spec = CMD_ARGS_DONE(xrevrange_args, 0, xrevrange_done),
    .flags = CMD_READONLY | CMD_STREAM, .proc = xrange_cmd };

/* XLEN id, TYPE id: one key, any word. */
static const struct cmd_arg key_args[] = { CMD_ARG_STR("id") };
const struct cmd_spec cmd_key_args = CMD_SPEC(key_args, 0);

static void
xlen_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	int64_t	 moves;

	if (game_moves(env, out, p->v[0].s, p->v[0].len, &moves) == 0)
		reply_int(out, moves);
}

const struct cmd_def cmd_xlen_entry = { .name = "XLEN", .spec = &cmd_key_args,
    .flags = CMD_READONLY, .proc = xlen_cmd };

/* -------------------------------------------------------------- XREAD */

/* BLOCK's value: an integer (the parser's message), then not below 0. */
static int
check_timeout(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->i >= 0)
		return 0;
	reply_error(out, "ERR", "timeout is negative");
	return -1;
}

/*
 * XREAD [COUNT n] [BLOCK ms] STREAMS id [id ...] last-id [last-id ...]:
 * COUNT and BLOCK in any order, then STREAMS and every word left, keys
 * then as many ids, which are checked once the words are read (the done
 * hook), into the request's xread.
 */
enum { XREAD_COUNT, XREAD_BLOCK, XREAD_STREAMS };
static const struct cmd_arg xread_args[] = {
	[XREAD_COUNT] = ARG_COUNT(0),
	[XREAD_BLOCK] = { .name = "ms", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "BLOCK",
	  .min = INT64_MIN, .max = INT64_MAX, .def = -1, .errcode = "ERR",
	  .err = "timeout is not an integer or out of range",
	  .check = check_timeout },
	[XREAD_STREAMS] = { .name = "streams", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_KEYED | CMD_ARG_MULTIPLE, .token = "STREAMS",
	  .nmin = 3, .doc = "STREAMS id [id ...] last-id [last-id ...]" },
};

int
cmd_xread_id(const char *s, size_t len, int64_t *after)
{
	struct stream_id	 id;

	if (len == 1 && s[0] == '$')
		return 1;
	if ((len == 1 && (s[0] == '-' || s[0] == '+')) ||
	    parse_id(s, len, 0, &id) == -1)
		return -1;
	/* After (ms, seq): the entries (s, 0) with s > ms. */
	*after = clamp_seq(id.ms);
	return 0;
}

static int
xread_done(struct cmd_parsed *p, struct reply *out)
{
	struct xread_req	*req = &p->stream.xread;
	const struct cmd_val	*st = &p->v[XREAD_STREAMS];
	int64_t			 after;
	int			 k;

	if (st->at == 0)
		return refuse(out, "syntax error");
	if (st->n % 2 != 0)
		return refuse(out, "Unbalanced XREAD list of streams: for each "
		    "stream key an ID or '$' must be specified.");
	req->count = p->v[XREAD_COUNT].i <= 0 ||
	    p->v[XREAD_COUNT].i > CMD_LIST_MAX ? CMD_LIST_MAX :
	    p->v[XREAD_COUNT].i;
	req->block_ms = p->v[XREAD_BLOCK].i;
	req->nkeys = st->n / 2;
	req->keys = &p->args->argv[st->at];
	req->keyl = &p->args->argl[st->at];
	req->ids = req->keys + req->nkeys;
	req->idl = req->keyl + req->nkeys;
	for (k = 0; k < req->nkeys; k++)
		if (cmd_xread_id(req->ids[k], req->idl[k], &after) == -1)
			return refuse(out, ID_INVALID);
	p->stream.read = 1;
	return 0;
}

int
cmd_xread_keys(struct cmd_env *env, const struct xread_key *keys, int n,
    int64_t count, struct reply *out)
{
	struct reply	*pair, *entries;
	int		 k;

	reply_array(out);
	for (k = 0; k < n; k++) {
		if (!valid_id(keys[k].id, keys[k].len))
			continue;
		pair = reply_add(out);
		reply_array(pair);
		reply_bulk(reply_add(pair), keys[k].id, keys[k].len);
		entries = reply_add(pair);
		reply_array(entries);
		if (cmd_stream_rows(env, keys[k].id, keys[k].after + 1, count,
		    0, entries) == -1) {
			cmd_reply_store(env, out);
			return -1;
		}
		if (entries->n == 0) {
			reply_free(pair);
			out->n--;
		}
	}
	if (out->n == 0) {
		reply_free(out);
		reply_null(out);
	}
	return 0;
}

/* Without the daemon's wait: what there is now, or null. */
static void
xread_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	const struct xread_req	*req = &p->stream.xread;
	struct xread_key	*keys;
	int			 k;

	keys = xcalloc((size_t)req->nkeys, sizeof(*keys));
	for (k = 0; k < req->nkeys; k++) {
		keys[k].id = req->keys[k];
		keys[k].len = req->keyl[k];
		if (cmd_xread_id(req->ids[k], req->idl[k], &keys[k].after) ==
		    1 && game_moves(env, out, keys[k].id, keys[k].len,
		    &keys[k].after) == -1)
			break;
	}
	if (k == req->nkeys)
		(void)cmd_xread_keys(env, keys, req->nkeys, req->count, out);
	free(keys);
}

const struct cmd_def cmd_xread_entry = { .name = "XREAD",
    .spec = CMD_ARGS_DONE(xread_args, 0, xread_done),
    .flags = CMD_READONLY | CMD_STREAM, .proc = xread_cmd };

/* -------------------------------------------------------------- XINFO */

/*
 * XINFO STREAM id | GROUPS id | HELP: a game seen as a stream, in Redis
 * 7's fields and order (node-redis reads RESP3's array by place).  No
 * radix tree holds it (radix-tree-keys and -nodes are 0), nothing is
 * deleted, and it has no consumer groups.  A key that is no game is
 * Redis's "no such key".
 */
enum { XINFO_GROUPS, XINFO_HELP, XINFO_STREAM };
static const struct cmd_arg xinfo_key = CMD_ARG_STR("id");
static const struct cmd_alt xinfo_alts[] = {
	[XINFO_GROUPS] = { "GROUPS", &xinfo_key },
	[XINFO_HELP] = { "HELP", NULL },
	[XINFO_STREAM] = { "STREAM", &xinfo_key },
	{ NULL, NULL }
};
static const struct cmd_arg xinfo_args[] = {
	CMD_ARG_SUBCOMMANDS(xinfo_alts, "XINFO HELP")
};

static void
add_int_field(struct reply *m, const char *name, long long v)
{
	reply_bulk(reply_add(m), name, strlen(name));
	reply_int(reply_add(m), v);
}

static void
add_id_field(struct reply *m, const char *name, int64_t seq)
{
	reply_bulk(reply_add(m), name, strlen(name));
	reply_bulkf(reply_add(m), "%lld-0", (long long)seq);
}

/* The entry of move seq, or null when there is none. */
static int
add_entry_field(struct cmd_env *env, struct reply *m, const char *name,
    const char *id, int64_t seq)
{
	struct reply	 one = { 0 };

	reply_bulk(reply_add(m), name, strlen(name));
	if (seq <= 0) {
		reply_null(reply_add(m));
		return 0;
	}
	reply_array(&one);
	if (cmd_stream_rows(env, id, seq, 1, 0, &one) == -1) {
		reply_free(&one);
		return -1;
	}
	if (one.n == 1) {
		*reply_add(m) = one.elem[0];
		one.n = 0;
	} else
		reply_null(reply_add(m));
	reply_free(&one);
	return 0;
}

static void
xinfo_stream(struct cmd_env *env, const char *id, int64_t moves,
    struct reply *out)
{
	reply_map(out);
	add_int_field(out, "length", moves);
	add_int_field(out, "radix-tree-keys", 0);
	add_int_field(out, "radix-tree-nodes", 0);
	add_id_field(out, "last-generated-id", moves);
	add_id_field(out, "max-deleted-entry-id", 0);
	add_int_field(out, "entries-added", moves);
	add_id_field(out, "recorded-first-entry-id", moves > 0 ? 1 : 0);
	add_int_field(out, "groups", 0);
	if (add_entry_field(env, out, "first-entry", id, moves > 0 ? 1 : 0) ==
	    -1 || add_entry_field(env, out, "last-entry", id, moves) == -1) {
		reply_free(out);
		cmd_reply_store(env, out);
	}
}

static void
xinfo_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	static const char *const help[] = {
		"XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"GROUPS <key>", "    Show the stream consumer groups (none).",
		"STREAM <key>", "    Show information about the stream.",
		"HELP", "    Print this help.",
	};
	struct game	*g;
	const char	*id;
	int64_t		 moves;
	size_t		 i;
	int		 rc;

	if (p->v[0].i == XINFO_HELP) {
		reply_array(out);
		for (i = 0; i < sizeof(help) / sizeof(help[0]); i++)
			reply_status(reply_add(out), help[i]);
		return;
	}
	id = cmd_word(p, 0, 0);
	if (!valid_id(id, cmd_word_len(p, 0, 0))) {
		reply_error(out, "ERR", "no such key");
		return;
	}
	g = xmalloc(sizeof(*g));
	rc = store_load_game(env->store, id, g);
	moves = g->moves;
	free(g);
	if (rc == STORE_NOTFOUND)
		reply_error(out, "ERR", "no such key");
	else if (rc != STORE_OK)
		cmd_reply_store(env, out);
	else if (p->v[0].i == XINFO_GROUPS)
		reply_array(out);
	else
		xinfo_stream(env, id, moves, out);
}

const struct cmd_def cmd_xinfo_entry = { .name = "XINFO",
    .spec = CMD_ARGS(xinfo_args, 0), .flags = CMD_READONLY,
    .proc = xinfo_cmd };
