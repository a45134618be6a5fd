/*
 * The keyspace as Redis tools see it: every game is a key, named by its
 * id, of type "stream" (its history is one, section 16 of protocol.md:
 * XRANGE, XLEN and XREAD read it, so a tool that asks TYPE and then
 * walks a stream shows a game's moves).  DBSIZE counts the games, EXISTS
 * and TYPE look them up, SCAN pages through them (redis-cli --scan).
 *
 * A SCAN cursor is an integer, as tools expect, and needs no state in the
 * server (it stays valid across a restart): it is the first 12 characters
 * of the last id returned, written in base 38 (a digit per character of
 * "-0-9a-z", 0 past the end), which keeps their order.  The cursor P means
 * that every id whose first 12 characters are at most P has been returned,
 * so a page goes on until the next id starts otherwise: ids sharing their
 * first 12 characters come in the same page, COUNT being only a hint, as
 * in Redis.  Games are never deleted, so a scan returns every game that
 * existed when it started, and each at most once.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/glob.h"
#include "util/util.h"

#define SCAN_CHARS	12		/* of an id, in a cursor */
#define SCAN_COUNT	10		/* a page, by default (Redis's) */

static const char scan_alphabet[] = "-0123456789abcdefghijklmnopqrstuvwxyz";
#define SCAN_BASE	(sizeof(scan_alphabet))	/* 37 characters and the end */

/* ------------------------------------------------------ EXISTS, TYPE */

/* 1 when the game exists, 0 when not, -1 with -STORE set. */
static int
game_exists(struct cmd_env *env, struct reply *out, const char *id,
    size_t len)
{
	struct game	 g;
	int		 rc;

	if (!valid_id(id, len))
		return 0;
	if ((rc = store_load_game(env->store, id, &g)) == STORE_ERR) {
		cmd_reply_store(env, out);
		return -1;
	}
	return rc == STORE_OK;
}

/* EXISTS id [id ...]: a game named twice counts twice, as in Redis. */
static const struct cmd_arg exists_args[] = {
	{ .name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	  .nmin = 1 },
};

static void
exists_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	long long	 n = 0;
	int		 i, rc;

	for (i = 0; i < p->v[0].n; i++) {
		if ((rc = game_exists(env, out, cmd_word(p, 0, i),
		    cmd_word_len(p, 0, i))) == -1)
			return;
		n += rc;
	}
	reply_int(out, n);
}

const struct cmd_def cmd_exists_entry = { .name = "EXISTS",
    .spec = CMD_ARGS(exists_args, 0), .flags = CMD_READONLY,
    .proc = exists_cmd };

/* TYPE id */
static void
type_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	int	 rc;

	if ((rc = game_exists(env, out, p->v[0].s, p->v[0].len)) != -1)
		reply_status(out, rc ? "stream" : "none");
}

const struct cmd_def cmd_type_entry = { .name = "TYPE", .spec = &cmd_key_args,
    .flags = CMD_READONLY, .proc = type_cmd };

/* DBSIZE: no word. */
static void
dbsize_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	int64_t	 n[KIND_COUNT], total = 0;
	int	 k;

	(void)p;
	memset(n, 0, sizeof(n));
	if (store_count_games(env->store, n) != STORE_OK) {
		cmd_reply_store(env, out);
		return;
	}
	/* Every kind's count; KIND_NONE's slot is none. */
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++)
		total += n[k];
	reply_int(out, (long long)total);
}

const struct cmd_def cmd_dbsize_entry = { .name = "DBSIZE",
    .spec = CMD_ARGS_NONE, .flags = CMD_READONLY, .proc = dbsize_cmd };

/* --------------------------------------------------------------- SCAN */

static uint64_t
cursor_encode(const char *id)
{
	const char	*p;
	uint64_t	 v = 0;
	size_t		 i, len = strlen(id);

	for (i = 0; i < SCAN_CHARS; i++) {
		p = i < len ? strchr(scan_alphabet, id[i]) : NULL;
		v = v * SCAN_BASE + (p != NULL ? (uint64_t)(p - scan_alphabet) +
		    1 : 0);
	}
	return v;
}

/* The prefix a cursor stands for; -1 when it is none. */
static int
cursor_decode(uint64_t v, char prefix[SCAN_CHARS + 1])
{
	uint64_t	 d;
	size_t		 i;

	for (i = SCAN_CHARS; i > 0; i--) {
		d = v % SCAN_BASE;
		v /= SCAN_BASE;
		prefix[i - 1] = d == 0 ? '\0' : scan_alphabet[d - 1];
	}
	prefix[SCAN_CHARS] = '\0';
	return v == 0 ? 0 : -1;
}

struct scan {
	struct reply	*ids;		/* the page's array */
	const char	*match;		/* MATCH's pattern, or NULL */
	size_t		 mlen;
	int64_t		 count;
	char		 last[GAME_ID_MAX + 1];	/* the last listed */
	char		 stop[SCAN_CHARS + 1];	/* list until another prefix */
	int64_t		 seen;
	int		 done;		/* an id with another prefix came */
};

static int
scan_id(void *arg, const char *id, enum game_kind kind)
{
	struct scan	*s = arg;

	(void)kind;
	if (s->stop[0] != '\0' && strncmp(id, s->stop, SCAN_CHARS) != 0) {
		s->done = 1;
		return 1;
	}
	s->seen++;
	str_copy(s->last, sizeof(s->last), id);
	if (s->match == NULL || glob_match(s->match, s->mlen, id, strlen(id)))
		reply_bulk(reply_add(s->ids), id, strlen(id));
	return 0;
}

/* A cursor: a prefix of 12 characters in base 38, at most. */
static int
check_cursor(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	char	 prefix[SCAN_CHARS + 1];

	(void)a;
	if (cursor_decode((uint64_t)v->i, prefix) == 0)
		return 0;
	reply_error(out, "ERR", "invalid cursor");
	return -1;
}

/* COUNT is a hint, but at least 1. */
static int
check_count(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->i >= 1)
		return 0;
	reply_error(out, "ERR", "syntax error");
	return -1;
}

/*
 * SCAN cursor [MATCH pattern] [COUNT n] [TYPE type]: the cursor first,
 * then the keyed words in order, each with Redis's message.  A type that
 * is neither "stream" nor a kind lists nothing.
 */
enum { SCAN_CURSOR, SCAN_MATCH, SCAN_COUNT_N, SCAN_TYPE };
static const struct cmd_arg scan_args[] = {
	[SCAN_CURSOR] = { .name = "cursor", .type = CMD_ARG_INT, .min = 0,
	  .max = INT64_MAX, .errcode = "ERR", .err = "invalid cursor",
	  .check = check_cursor },
	[SCAN_MATCH] = { .name = "pattern", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "MATCH" },
	[SCAN_COUNT_N] = { .name = "n", .type = CMD_ARG_INT,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = "COUNT",
	  .min = INT64_MIN, .max = INT64_MAX, .def = SCAN_COUNT,
	  .errcode = "ERR", .err = "value is not an integer or out of range",
	  .check = check_count },
	[SCAN_TYPE] = { .name = "type", .type = CMD_ARG_STRING,
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED | CMD_ARG_KINDS,
	  .token = "TYPE", .doc = "TYPE stream" },
};

/* The kind TYPE names: KIND_NONE for "stream" (every game) or none
 * given, -1 for a type no game has. */
static int
scan_kind(const struct cmd_val *v)
{
	enum game_kind	 k;

	if (v->s == NULL || strcaseeq(v->s, "stream"))
		return KIND_NONE;
	k = game_kind_parse(v->s);
	return k != KIND_NONE ? (int)k : -1;
}

/* The ids after the cursor's prefix: those starting otherwise. */
static void
scan_after(const char *prefix, char *after, size_t size)
{
	size_t	 n = str_copy(after, size, prefix);

	while (n == SCAN_CHARS && n + 1 < size && n < GAME_ID_MAX) {
		after[n++] = 'z';
		after[n] = '\0';
	}
}

/* One page of ids (the array in s->ids); the next cursor in *next. */
static int
scan_page(struct cmd_env *env, const char *prefix, int kind,
    struct scan *s, uint64_t *next)
{
	char	 after[GAME_ID_MAX + 1];

	scan_after(prefix, after, sizeof(after));
	if (store_list_games(env->store, (enum game_kind)kind,
	    after[0] != '\0' ? after : NULL, s->count, scan_id, s) ==
	    STORE_ERR)
		return -1;
	if (s->seen < s->count) {
		*next = 0;
		return 0;
	}
	/* The other ids with the last one's first 12 characters. */
	if (strlen(s->last) >= SCAN_CHARS) {
		memcpy(s->stop, s->last, SCAN_CHARS);
		s->stop[SCAN_CHARS] = '\0';
		while (!s->done) {
			s->seen = 0;
			if (store_list_games(env->store, (enum game_kind)kind,
			    s->last, s->count, scan_id, s) == STORE_ERR)
				return -1;
			if (s->seen < s->count)
				break;
		}
	}
	*next = cursor_encode(s->last);
	return 0;
}

static void
scan_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	struct scan	 s;
	struct reply	*cur;
	char		 prefix[SCAN_CHARS + 1], buf[24];
	uint64_t	 next = 0;
	int		 kind = scan_kind(&p->v[SCAN_TYPE]);

	memset(&s, 0, sizeof(s));
	s.match = p->v[SCAN_MATCH].s;
	s.mlen = p->v[SCAN_MATCH].len;
	s.count = p->v[SCAN_COUNT_N].i > CMD_LIST_MAX ? CMD_LIST_MAX :
	    p->v[SCAN_COUNT_N].i;
	(void)cursor_decode((uint64_t)p->v[SCAN_CURSOR].i, prefix);
	reply_array(out);
	cur = reply_add(out);
	s.ids = reply_add(out);
	reply_array(s.ids);
	if (kind != -1 && scan_page(env, prefix, kind, &s, &next) == -1) {
		cmd_reply_store(env, out);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)next);
	reply_bulk(cur, buf, strlen(buf));
}

const struct cmd_def cmd_scan_entry = { .name = "SCAN",
    .spec = CMD_ARGS(scan_args, 0), .flags = CMD_READONLY, .proc = scan_cmd };

/* -------------------------------------------------------- MEMORY USAGE */

/*
 * MEMORY USAGE id [SAMPLES count]: the bytes a game takes, as Redis
 * counts a key's: its snapshot (the game as the cache and the engine hold
 * it) and its history, each move as long as its history line.  As in
 * Redis, the first count moves (5 unless given; 0: all) are measured and
 * the rest taken to be as long on average.  Null for a key that is no
 * game.  MEMORY HELP lists it.
 */
enum { MEMORY_HELP, MEMORY_USAGE };
static const struct cmd_arg memory_usage_arg = {
	.name = "id", .type = CMD_ARG_STRING, .flags = CMD_ARG_MULTIPLE,
	.nmin = 1, .nmax = 3, .doc = "id [SAMPLES count]" };
static const struct cmd_alt memory_alts[] = {
	[MEMORY_HELP] = { "HELP", NULL },
	[MEMORY_USAGE] = { "USAGE", &memory_usage_arg },
	{ NULL, NULL }
};
static const struct cmd_arg memory_args[] = {
	CMD_ARG_SUBCOMMANDS(memory_alts, "MEMORY HELP")
};

struct line_sum {
	int64_t		 n;
	int64_t		 bytes;
};

static int
sum_line(void *arg, const struct move *mv)
{
	struct line_sum	*s = arg;
	char		 line[CMD_MOVE_LINE_MAX];

	s->n++;
	s->bytes += (int64_t)cmd_move_line(mv, line, sizeof(line));
	return 0;
}

static void
memory_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct line_sum	 s = { 0, 0 };
	struct game	 g;
	const char	*id, *errstr;
	int64_t		 samples = 5, n;
	int		 rc;

	if (p->v[0].i == MEMORY_HELP) {
		reply_array(out);
		reply_status(reply_add(out), "MEMORY <subcommand> [<arg> "
		    "[value] [opt] ...]. Subcommands are:");
		reply_status(reply_add(out), "USAGE <key> [SAMPLES <count>]");
		reply_status(reply_add(out), "    Return memory in bytes used "
		    "by <key> and its value.");
		reply_status(reply_add(out), "HELP");
		reply_status(reply_add(out), "    Print this help.");
		return;
	}
	if (p->v[0].n == 2 || (p->v[0].n == 3 &&
	    !strcaseeq(cmd_word(p, 0, 1), "SAMPLES"))) {
		reply_error(out, "ERR", "syntax error");
		return;
	}
	if (p->v[0].n == 3 && parse_int64(cmd_word(p, 0, 2), 0, INT64_MAX,
	    &samples, &errstr) == -1) {
		reply_error(out, "ERR", "value is out of range, must be "
		    "positive");
		return;
	}
	id = cmd_word(p, 0, 0);
	if (!valid_id(id, cmd_word_len(p, 0, 0)) ||
	    (rc = store_load_game(env->store, id, &g)) == STORE_NOTFOUND) {
		reply_null(out);
		return;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return;
	}
	n = samples == 0 || samples > g.moves ? g.moves : samples;
	if (n > 0 && store_history(env->store, id, 1, n, sum_line, &s) ==
	    STORE_ERR) {
		cmd_reply_store(env, out);
		return;
	}
	reply_int(out, (long long)sizeof(g) + (long long)strlen(id) +
	    (s.n > 0 ? s.bytes * g.moves / s.n : 0));
}

const struct cmd_def cmd_memory_entry = { .name = "MEMORY",
    .spec = CMD_ARGS(memory_args, 0), .flags = CMD_READONLY,
    .proc = memory_cmd };
