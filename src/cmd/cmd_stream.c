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
	    parse_id(s, len, end ? UINT64_MAX : 0, &id) == -1) {
		reply_error(out, "ERR", ID_INVALID);
		return -1;
	}
	if (!end && excl && id.ms == UINT64_MAX && id.seq == UINT64_MAX) {
		reply_error(out, "ERR", "invalid start ID for the interval");
		return -1;
	}
	if (end && excl && id.ms == 0 && id.seq == 0) {
		reply_error(out, "ERR", "invalid end ID for the interval");
		return -1;
	}
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

int
cmd_xrange_args(struct reply *out, const struct cmd_args *a, int rev,
    struct xrange_req *req)
{
	const char	*err;
	int64_t		 count = INT64_MAX;

	if (a->argc != 4 && a->argc != 6) {
		cmd_reply_syntax(out);
		return -1;
	}
	if (a->argc == 6) {
		if (!strcaseeq(a->argv[4], "COUNT")) {
			cmd_reply_syntax(out);
			return -1;
		}
		if (strlen(a->argv[5]) != a->argl[5] || parse_int64(a->argv[5],
		    INT64_MIN, INT64_MAX, &count, &err) == -1) {
			reply_error(out, "ERR", "value is not an integer or "
			    "out of range");
			return -1;
		}
	}
	req->id = a->argv[1];
	req->valid = valid_id(a->argv[1], a->argl[1]);
	req->rev = rev;
	req->count = count < 0 ? 0 : count;
	if (range_bound(out, a->argv[rev ? 3 : 2], a->argl[rev ? 3 : 2], 0,
	    &req->lo) == -1 || range_bound(out, a->argv[rev ? 2 : 3],
	    a->argl[rev ? 2 : 3], 1, &req->hi) == -1)
		return -1;
	if (req->lo < 1)
		req->lo = 1;
	return 0;
}

int64_t
cmd_xrange_span(const struct xrange_req *req, int64_t moves)
{
	int64_t	 hi = req->hi < moves ? req->hi : moves;

	if (!req->valid || req->lo > hi)
		return 0;
	return hi - req->lo + 1 < req->count ? hi - req->lo + 1 : req->count;
}

static void
xrange(struct cmd_env *env, const struct cmd_args *args, int rev,
    struct reply *out)
{
	struct xrange_req	 req;
	int64_t			 moves, n;

	if (cmd_xrange_args(out, args, rev, &req) == -1 ||
	    game_moves(env, out, args->argv[1], args->argl[1], &moves) == -1)
		return;
	reply_array(out);
	n = cmd_xrange_span(&req, moves);
	if (cmd_stream_rows(env, req.id, rev ? (req.hi < moves ? req.hi :
	    moves) : req.lo, n, rev, out) == -1)
		cmd_reply_store(env, out);
}

void
xrange_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	xrange(env, args, 0, out);
}

void
xrevrange_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	xrange(env, args, 1, out);
}

void
xlen_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	int64_t	 moves;

	if (game_moves(env, out, args->argv[1], args->argl[1], &moves) == 0)
		reply_int(out, moves);
}

/* -------------------------------------------------------------- XREAD */

/* The value of COUNT or BLOCK, as Redis reads it.  0, or -1 with the
 * error set. */
static int
xread_option(struct reply *out, const struct cmd_args *a, int i,
    struct xread_req *req)
{
	const char	*err;
	int64_t		 v = 0;
	int		 ok;

	ok = strlen(a->argv[i + 1]) == a->argl[i + 1] &&
	    parse_int64(a->argv[i + 1], INT64_MIN, INT64_MAX, &v, &err) == 0;
	if (strcaseeq(a->argv[i], "COUNT")) {
		if (!ok) {
			reply_error(out, "ERR", "value is not an integer or "
			    "out of range");
			return -1;
		}
		req->count = v <= 0 ? CMD_LIST_MAX : v;
		return 0;
	}
	if (!ok || v < 0) {
		reply_error(out, "ERR", ok ? "timeout is negative" :
		    "timeout is not an integer or out of range");
		return -1;
	}
	req->block_ms = v;
	return 0;
}

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

int
cmd_xread_args(struct reply *out, const struct cmd_args *a,
    struct xread_req *req)
{
	int64_t	 after;
	int	 i, k, more;

	req->count = CMD_LIST_MAX;
	req->block_ms = -1;
	req->first = 0;
	for (i = 1; i < a->argc && req->first == 0; i++) {
		more = a->argc - i - 1 > 0;
		if (more && (strcaseeq(a->argv[i], "COUNT") ||
		    strcaseeq(a->argv[i], "BLOCK"))) {
			if (xread_option(out, a, i++, req) == -1)
				return -1;
		} else if (more && strcaseeq(a->argv[i], "STREAMS"))
			req->first = i + 1;
		else
			break;
	}
	if (req->first == 0) {
		cmd_reply_syntax(out);
		return -1;
	}
	if ((a->argc - req->first) % 2 != 0) {
		reply_error(out, "ERR", "Unbalanced XREAD list of streams: for "
		    "each stream key an ID or '$' must be specified.");
		return -1;
	}
	req->nkeys = (a->argc - req->first) / 2;
	if (req->count > CMD_LIST_MAX)
		req->count = CMD_LIST_MAX;
	for (k = 0; k < req->nkeys; k++)
		if (cmd_xread_id(a->argv[req->first + req->nkeys + k],
		    a->argl[req->first + req->nkeys + k], &after) == -1) {
			reply_error(out, "ERR", ID_INVALID);
			return -1;
		}
	return 0;
}

int
cmd_xread(struct cmd_env *env, const struct xread_key *keys, int n,
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
void
xread_cmd(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	struct xread_req	 req;
	struct xread_key	*keys;
	int			 k;

	if (cmd_xread_args(out, args, &req) == -1)
		return;
	keys = xcalloc((size_t)req.nkeys, sizeof(*keys));
	for (k = 0; k < req.nkeys; k++) {
		keys[k].id = args->argv[req.first + k];
		keys[k].len = args->argl[req.first + k];
		if (cmd_xread_id(args->argv[req.first + req.nkeys + k],
		    args->argl[req.first + req.nkeys + k],
		    &keys[k].after) == 1 && game_moves(env, out, keys[k].id,
		    keys[k].len, &keys[k].after) == -1)
			break;
	}
	if (k == req.nkeys)
		(void)cmd_xread(env, keys, req.nkeys, req.count, out);
	free(keys);
}
