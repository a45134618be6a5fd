/*
 * Fuzzes the command layer: the input is a sequence of inline command
 * lines, each split with split_line() (as the daemon splits an inline
 * request) and run with cmd_execute() on an in-memory SQLite store, with
 * one session (seats) per input, as the embedded CLI runs them.
 *
 * So that a sequence keeps meeting the same games, a valid game id in the
 * id position of a command is folded onto one of three games, g0, g1 and
 * g2 (g0-g2 themselves stay; an id starting with "x" is left alone so that
 * more games can exist for GAMES and AUDIT paging).  Three more words are
 * the harness's own:
 *
 *	SEAT id player KEY	KEY becomes the seat key the secure create
 *				of that game gave that player (or the last
 *				SEAT.EXCHANGE of that seat), and so in
 *				SEAT.EXCHANGE id player KEY
 *	AUTOPLAY id [seconds]	moves the clock on, then plays what the
 *				server owes the game (bots, turn timeouts)
 *
 * and, as in the embedded CLI, the server's moves owed to the game named
 * by a write command are played after it.  Checked after every command:
 *
 *	- every request gets exactly one reply; an error reply starts with a
 *	  known code word; no status or error line holds CR or LF; the reply
 *	  encodes in RESP2 and RESP3 to bytes the client parser reads back;
 *	- the store never fails (-STORE: an in-memory store has no reason to);
 *	- nothing is written unless a transaction committed, an error or a
 *	  result that changes nothing (INVALID_MOVE, GAME_OVER) commits
 *	  nothing, at most one move is stored per command and the move hook
 *	  is called once for it, and no transaction is left open;
 *
 * and after the sequence, AUDIT finds no game whose stored state differs
 * from the replay of its history.
 *
 * The server's randomness (dice, decks, seat keys) comes from libsodium;
 * the harness installs its own generator, restarted for each input, so
 * that an input always does the same thing.
 *
 * One store serves every input: opening one costs about a millisecond
 * (schema migrations), so it is emptied between inputs instead, with
 * store_clear() (every game and its rows, the lobby's rows and the
 * secret, which is then made again from the same bytes).  The store's
 * connection has foreign keys on, under which SQLite deletes row by row
 * through the cascades; a second connection to the same in-memory
 * database (SQLite's shared cache) with them off empties the games'
 * tables first, a page at a time, and store_clear() then finds them
 * empty.
 */
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cmd/cmd.h"
#include "fuzz.h"
#include "net/resp.h"
#include "sqlite_pool.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/reply.h"
#include "util/util.h"

#define MAX_LINES	1024
#define MAX_AUTOPLAY	512	/* server moves per input (bot games) */
#define MAX_KEYS	64	/* seat keys remembered per input */
#define NOW		1700000000

struct seat_key {
	char	game[GAME_ID_MAX + 1];
	char	player[GAME_ID_MAX + 1];
	char	key[128];
};

static struct store	*store;
static sqlite3		*wiper;
static int64_t		 clock_now;
static uint64_t		 hooked;
static int		 autoplays;
static int		 trace = -1;	/* FUZZ_TRACE: print it all */
static struct seat_key	 keys[MAX_KEYS];
static int		 nkeys;

/*
 * ASan's defaults for this harness, read by the ASan runtime when the
 * program starts (ASAN_OPTIONS still wins over them).  Each command is
 * SQLite transactions, and SQLite (Debian's is built without its
 * lookaside allocator) mallocs and frees a few megabytes an input (now
 * from sqlite_pool.c; the server's own allocations still are ASan's): with
 * ASan's quarantine of 256 MB none of it is reused, every input touches
 * fresh pages (600 page faults an input) and ASan fills the first 4 KiB
 * of each block with 0xbe.  A quarantine of 16 MB still catches a use
 * after free of anything freed in the last few inputs; the fill only
 * makes reads of uninitialised memory less likely to go unnoticed,
 * which ASan does not report anyway.  Together: twice the inputs a
 * second (doc/testing.md, "Fuzzing").  Ignored without ASan.
 */
const char	*__asan_default_options(void);

const char *
__asan_default_options(void)
{
	return "quarantine_size_mb=16:max_malloc_fill_size=0";
}

/* ------------------------------------------------- deterministic world */

static int64_t
fake_now(void)
{
	return clock_now++;
}

/* A small PRNG (splitmix64) in place of the OS's, restarted per input. */
static uint64_t	rng_state;

static uint32_t
rng_random(void)
{
	uint64_t	z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static const char *
rng_name(void)
{
	return "ludus-fuzz";
}

static void
rng_stir(void)
{
}

static uint32_t
rng_uniform(const uint32_t upper)
{
	return upper < 2 ? 0 : rng_random() % upper;
}

static void
rng_buf(void * const buf, const size_t size)
{
	unsigned char	*p = buf;
	size_t		 i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)rng_random();
}

static int
rng_close(void)
{
	return 0;
}

static struct randombytes_implementation rng = {
	.implementation_name = rng_name,
	.random = rng_random,
	.stir = rng_stir,
	.uniform = rng_uniform,
	.buf = rng_buf,
	.close = rng_close,
};

static void
on_move(void *arg, const char *game, const struct move *mv)
{
	(void)arg;
	FUZZ_CHECK(game != NULL && valid_id(game, strlen(game)));
	FUZZ_CHECK(mv->seq >= 1);
	hooked++;
}

static void
on_schedule(void *arg, const char *game, int64_t due_ms)
{
	(void)arg;
	FUZZ_CHECK(game != NULL && valid_id(game, strlen(game)));
	FUZZ_CHECK(due_ms >= 0);
}

/*
 * The games and the rows they own, which only a game's create or its
 * turns add to.  With foreign keys off SQLite drops a table's pages at
 * once (its truncate optimization) rather than deleting each row and
 * looking for its children: 1.7 ms an input instead of 14 ms on the
 * corpus's large inputs.  The store's own connection cannot do it:
 * turning the pragma expires every prepared statement.  What is not
 * listed, store_clear() deletes as before.
 */
static const char *const wipe_sql[] = {
	"DELETE FROM tokens", "DELETE FROM history", "DELETE FROM jumps",
	"DELETE FROM game_accounts", "DELETE FROM players",
	"DELETE FROM games",
};
#define NWIPE	(sizeof(wipe_sql) / sizeof(wipe_sql[0]))
static sqlite3_stmt	*wipe_stmt[NWIPE];

#define STORE_URI	"file:ludus-fuzz-cmd?mode=memory&cache=shared"

static void
wiper_open(void)
{
	size_t	i;

	FUZZ_CHECK(sqlite3_open_v2(STORE_URI, &wiper, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK);
	FUZZ_CHECK(sqlite3_exec(wiper, "PRAGMA foreign_keys = OFF", NULL,
	    NULL, NULL) == SQLITE_OK);
	for (i = 0; i < NWIPE; i++)
		FUZZ_CHECK(sqlite3_prepare_v2(wiper, wipe_sql[i], -1,
		    &wipe_stmt[i], NULL) == SQLITE_OK);
}

static void
wipe_games(void)
{
	size_t	i;

	FUZZ_CHECK(sqlite3_exec(wiper, "BEGIN", NULL, NULL, NULL) ==
	    SQLITE_OK);
	for (i = 0; i < NWIPE; i++) {
		FUZZ_CHECK(sqlite3_step(wipe_stmt[i]) == SQLITE_DONE);
		FUZZ_CHECK(sqlite3_reset(wipe_stmt[i]) == SQLITE_OK);
	}
	FUZZ_CHECK(sqlite3_exec(wiper, "COMMIT", NULL, NULL, NULL) ==
	    SQLITE_OK);
}

/* The store, opened once and emptied for each input. */
static struct store *
fresh_store(void)
{
	char		 err[256];
	static uint8_t	 fresh[STORE_SECRET_LEN];
	uint8_t		 secret[STORE_SECRET_LEN];
	int64_t		 counts[KIND_COUNT];
	int		 k;

	if (store == NULL) {
		/* Before libsodium starts (the first command that needs it). */
		FUZZ_CHECK(randombytes_set_implementation(&rng) == 0);
		/* The store's path is a URI, SQLite's memory the pool's
		 * (both before SQLite starts). */
		(void)sqlite3_config(SQLITE_CONFIG_URI, 1);
		sqlite_pool_install();
		store = store_sqlite_open(STORE_URI, DURABILITY_OFF, err,
		    sizeof(err));
		if (store == NULL) {
			fprintf(stderr, "fuzz_cmd: store: %s\n", err);
			abort();
		}
		wiper_open();
		/* The seats' secret is made by the first command that
		 * needs it, inside that command's transaction; when the
		 * command then fails (a secure create of a taken id) the
		 * row is rolled back, which changes nothing but is still
		 * counted by sqlite3_total_changes().  Made here, as a
		 * daemon has it after its first secure game, the check
		 * that a refused command wrote no row stays exact. */
		randombytes_buf(fresh, sizeof fresh);
		FUZZ_CHECK(store_secret(store, fresh, secret) == 0);
		return store;
	}
	/* As a new store, but for the secret, made again from the same
	 * bytes (store_clear() deletes it with the lobby's rows). */
	wipe_games();
	FUZZ_CHECK(store_clear(store) == STORE_OK);
	FUZZ_CHECK(store_secret(store, fresh, secret) == 0);
	FUZZ_CHECK(store_count_games(store, counts) == STORE_OK);
	for (k = 0; k < KIND_COUNT; k++)
		FUZZ_CHECK(counts[k] == 0);
	return store;
}

/* ------------------------------------------------------------- replies */

static int
has_crlf(const char *s, size_t n)
{
	return s != NULL &&
	    (memchr(s, '\r', n) != NULL || memchr(s, '\n', n) != NULL);
}

/* The code words of protocol.md (section 3.1 and the multiplayer part). */
static int
known_code(const char *s, size_t n)
{
	static const char *const codes[] = {
		"ERR", "NOGAME", "EXISTS", "WRONGTYPE", "BADARG", "STATE",
		"STALE", "STORE", "NOPROTO", "LIMIT", "NOSEAT",
	};
	size_t	i, w;

	for (w = 0; w < n && s[w] != ' '; w++)
		continue;
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strlen(codes[i]) == w && memcmp(s, codes[i], w) == 0)
			return 1;
	return 0;
}

static void
reply_check(const struct reply *r, int top)
{
	size_t	i;

	switch (r->type) {
	case REPLY_STATUS:
		FUZZ_CHECK(r->str != NULL && r->len > 0);
		FUZZ_CHECK(!has_crlf(r->str, r->len));
		break;
	case REPLY_ERROR:
		/* Only a whole reply is an error: not an element. */
		FUZZ_CHECK(top && r->str != NULL);
		FUZZ_CHECK(!has_crlf(r->str, r->len));
		if (!known_code(r->str, r->len)) {
			fprintf(stderr, "fuzz_cmd: unknown error code: %.*s\n",
			    (int)r->len, r->str);
			abort();
		}
		if (strncmp(r->str, "STORE", 5) == 0) {
			fprintf(stderr, "fuzz_cmd: the store failed: %.*s\n",
			    (int)r->len, r->str);
			abort();
		}
		break;
	case REPLY_INT:
	case REPLY_NULL:
		break;
	case REPLY_BULK:
		FUZZ_CHECK(r->len == 0 || r->str != NULL);
		break;
	case REPLY_ARRAY:
	case REPLY_MAP:
	case REPLY_PUSH:
		FUZZ_CHECK(r->n == 0 || r->elem != NULL);
		for (i = 0; i < r->n; i++)
			reply_check(&r->elem[i], 0);
		break;
	default:
		FUZZ_CHECK(!"a command left its reply unset");
	}
}

/* The bytes a client would get parse back into one whole reply. */
static void
reply_wire(const struct reply *r, int proto)
{
	struct resp_buf	 b = { NULL, 0, 0 };
	struct reply	 back;
	size_t		 used;

	resp_encode(&b, r, proto);
	memset(&back, 0, sizeof(back));
	FUZZ_CHECK(resp_parse_reply(b.data, b.len, &used, &back) == RESP_OK);
	FUZZ_CHECK(used == b.len);
	reply_free(&back);
	resp_buf_free(&b);
}

/* With FUZZ_TRACE set, shows each command and its reply (RESP3) on stderr. */
static void
trace_reply(const struct cmd_args *a, const struct reply *r)
{
	struct resp_buf	 b = { NULL, 0, 0 };
	size_t		 i;
	int		 j;

	fprintf(stderr, ">");
	for (j = 0; j < a->argc; j++)
		fprintf(stderr, " %.*s", (int)a->argl[j], a->argv[j]);
	fprintf(stderr, "\n< ");
	resp_encode(&b, r, 3);
	for (i = 0; i < b.len; i++)
		if (b.data[i] != '\r')
			fputc(b.data[i] == '\n' && i + 1 < b.len ? ' ' :
			    b.data[i], stderr);
	resp_buf_free(&b);
}

/* ----------------------------------------------------------- seat keys */

/* Remembers the "player,key" words a secure create replied. */
static void
keys_remember(const char *game, const struct reply *r)
{
	const char	*comma;
	size_t		 i, n;

	if (r->type != REPLY_ARRAY)
		return;
	for (i = 0; i < r->n && nkeys < MAX_KEYS; i++) {
		const struct reply *e = &r->elem[i];

		if (e->type != REPLY_BULK || e->len == 0 ||
		    (comma = memchr(e->str, ',', e->len)) == NULL)
			continue;
		n = (size_t)(comma - e->str);
		if (n > GAME_ID_MAX || e->len - n - 1 >= sizeof(keys[0].key))
			continue;
		snprintf(keys[nkeys].game, sizeof(keys[0].game), "%s", game);
		memcpy(keys[nkeys].player, e->str, n);
		keys[nkeys].player[n] = '\0';
		memcpy(keys[nkeys].key, comma + 1, e->len - n - 1);
		keys[nkeys].key[e->len - n - 1] = '\0';
		nkeys++;
	}
}

/* A key SEAT.EXCHANGE gave: the seat's key from now on. */
static void
keys_exchanged(const struct cmd_args *a, const struct reply *r)
{
	if (r->type != REPLY_BULK || r->len >= sizeof(keys[0].key) ||
	    nkeys == MAX_KEYS || a->argl[2] > GAME_ID_MAX)
		return;
	snprintf(keys[nkeys].game, sizeof(keys[0].game), "%s", a->argv[1]);
	snprintf(keys[nkeys].player, sizeof(keys[0].player), "%s",
	    a->argv[2]);
	memcpy(keys[nkeys].key, r->str, r->len);
	keys[nkeys].key[r->len] = '\0';
	nkeys++;
}

/* SEAT and SEAT.EXCHANGE id player KEY: the key that create or the last
 * exchange gave, the latest first. */
static void
keys_substitute(struct cmd_args *a)
{
	int	i;

	if (a->argc != 4 || (strcaseeq(a->argv[0], "SEAT") == 0 &&
	    strcaseeq(a->argv[0], "SEAT.EXCHANGE") == 0) ||
	    strcmp(a->argv[3], "KEY") != 0)
		return;
	for (i = nkeys - 1; i >= 0; i--) {
		if (strcmp(keys[i].game, a->argv[1]) != 0 ||
		    strcmp(keys[i].player, a->argv[2]) != 0)
			continue;
		free(a->argv[3]);
		a->argv[3] = xstrdup(keys[i].key);
		a->argl[3] = strlen(keys[i].key);
		return;
	}
}

/* --------------------------------------------------------------- lines */

/* Folds the game id of a command onto g0, g1 or g2. */
static void
fold_id(struct cmd_args *a)
{
	const struct cmd_def	*cmd;
	unsigned		 sum = 0;
	size_t			 i;
	char			 id[3];

	if (a->argc < 2 || !valid_id(a->argv[1], a->argl[1]) ||
	    a->argv[1][0] == 'x')
		return;
	if (!strcaseeq(a->argv[0], "AUTOPLAY") &&
	    ((cmd = cmd_lookup(a->argv[0])) == NULL || cmd->proc == NULL ||
	    strcmp(cmd->name, "DANDY.PLAY") == 0 ||
	    strcmp(cmd->name, "GAMES") == 0))
		return;
	if (a->argl[1] == 2 && a->argv[1][0] == 'g' &&
	    a->argv[1][1] >= '0' && a->argv[1][1] <= '2')
		return;
	for (i = 0; i < a->argl[1]; i++)
		sum += (unsigned char)a->argv[1][i];
	id[0] = 'g';
	id[1] = (char)('0' + sum % 3);
	id[2] = '\0';
	free(a->argv[1]);
	a->argv[1] = xstrdup(id);
	a->argl[1] = 2;
}

/* Whether a status reply is a result that changes nothing. */
static int
no_change(const struct reply *r)
{
	return r->type == REPLY_STATUS &&
	    (strcmp(r->str, "INVALID_MOVE") == 0 ||
	    strcmp(r->str, "GAME_OVER") == 0);
}

/* Plays what the server owes a game, as the daemon's timers would. */
static void
autoplay(struct cmd_env *env, sqlite3 *db, const char *game)
{
	struct move	 mv;
	uint64_t	 turns, hooks;
	int64_t		 next;
	int		 rc;

	while (autoplays < MAX_AUTOPLAY) {
		turns = env->turns;
		hooks = hooked;
		next = -1;
		rc = cmd_autoplay(env, game, cmd_now_ms(env), &mv, &next);
		FUZZ_CHECK(rc >= -1 && rc <= 1);
		FUZZ_CHECK(env->store_errors == 0);
		FUZZ_CHECK(sqlite3_get_autocommit(db) != 0);
		if (rc != 1) {
			FUZZ_CHECK(env->turns == turns && hooked == hooks);
			return;
		}
		autoplays++;
		FUZZ_CHECK(env->turns == turns + 1 && hooked == hooks + 1);
		FUZZ_CHECK(mv.seq >= 1 && next >= 0);
		if (trace)
			fprintf(stderr, "~ %s %lld %s %s %s\n", game,
			    (long long)mv.seq, mv.player, mv.action,
			    mv.result);
	}
}

/* AUTOPLAY id [seconds]: the harness's clock moves on, then the server
 * plays what it owes. */
static void
run_autoplay(struct cmd_env *env, sqlite3 *db, const struct cmd_args *a)
{
	int64_t		 secs = 0;
	const char	*errstr;

	if (a->argc < 2 || a->argc > 3 || !valid_id(a->argv[1], a->argl[1]))
		return;
	if (a->argc == 3 &&
	    parse_int64(a->argv[2], 0, 10 * 604800, &secs, &errstr) == -1)
		return;
	clock_now += secs;
	autoplay(env, db, a->argv[1]);
}

static void
run_line(struct cmd_env *env, struct cmd_session *sess, sqlite3 *db,
    const char *line, size_t len)
{
	const struct cmd_def	*cmd;
	struct cmd_args		 a;
	struct reply		 r;
	uint64_t		 turns, commits, hooks;
	int			 changes;

	memset(&a, 0, sizeof(a));
	a.argc = split_line(line, len, &a.argv, &a.argl);
	if (a.argc <= 0)
		return;		/* blank, or a protocol error */
	a.session = sess;
	fold_id(&a);
	if (strcaseeq(a.argv[0], "AUTOPLAY")) {
		run_autoplay(env, db, &a);
		split_free(a.argc, a.argv, a.argl);
		return;
	}
	keys_substitute(&a);
	cmd = cmd_lookup(a.argv[0]);

	turns = env->turns;
	commits = env->commits;
	hooks = hooked;
	changes = sqlite3_total_changes(db);
	memset(&r, 0, sizeof(r));
	cmd_execute(env, &a, &r);
	if (trace)
		trace_reply(&a, &r);

	reply_check(&r, 1);
	reply_wire(&r, 2);
	reply_wire(&r, 3);
	/* At most one transaction, at most one move, hooked once. */
	FUZZ_CHECK(env->turns - turns <= 1 && env->commits - commits <= 1);
	FUZZ_CHECK(hooked - hooks == env->turns - turns);
	if (env->turns != turns)
		FUZZ_CHECK(env->commits != commits);
	if (env->commits != commits)
		FUZZ_CHECK(cmd != NULL && (cmd->flags & CMD_WRITE) &&
		    !reply_is_error(&r) && !no_change(&r));
	else
		FUZZ_CHECK(sqlite3_total_changes(db) == changes);
	FUZZ_CHECK(env->store_errors == 0);
	/* No transaction is left open behind the reply. */
	FUZZ_CHECK(sqlite3_get_autocommit(db) != 0);

	if (cmd != NULL && (cmd->flags & CMD_WRITE) && a.argc >= 2 &&
	    valid_id(a.argv[1], a.argl[1])) {
		if (r.type == REPLY_ARRAY && env->commits != commits)
			keys_remember(a.argv[1], &r);
		if (strcmp(cmd->name, "SEAT.EXCHANGE") == 0 &&
		    env->commits != commits)
			keys_exchanged(&a, &r);
		autoplay(env, db, a.argv[1]);
	}
	reply_free(&r);
	split_free(a.argc, a.argv, a.argl);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmd_env		 env;
	struct cmd_session	*sess;
	struct reply		 r;
	const char		*p = (const char *)data, *end = p + size, *nl;
	size_t			 len;
	int			 lines = 0;

	memset(&env, 0, sizeof(env));
	env.store = fresh_store();
	env.now = fake_now;
	env.on_move = on_move;
	env.on_schedule = on_schedule;
	clock_now = NOW;
	rng_state = 0x6c75647573ULL;	/* "ludus" */
	hooked = 0;
	autoplays = 0;
	nkeys = 0;
	if (trace == -1)
		trace = getenv("FUZZ_TRACE") != NULL;
	sess = cmd_session_new();

	while (p < end && lines++ < MAX_LINES) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		run_line(&env, sess, store_sqlite_handle(env.store), p, len);
		p = nl != NULL ? nl + 1 : end;
	}
	cmd_session_free(sess);

	/* Every stored game is exactly the replay of its history. */
	memset(&r, 0, sizeof(r));
	cmd_executev(&env, &r, "AUDIT", (const char *)NULL);
	if (r.type != REPLY_ARRAY || r.n != 0) {
		fprintf(stderr, "fuzz_cmd: AUDIT: %s %.*s\n",
		    r.type == REPLY_ARRAY ? "games differ from their history:" :
		    "failed:", r.type == REPLY_ARRAY && r.n > 0 ?
		    (int)r.elem[0].len : (int)r.len,
		    r.type == REPLY_ARRAY && r.n > 0 ? r.elem[0].str :
		    r.str != NULL ? r.str : "");
		abort();
	}
	reply_free(&r);
	return 0;
}
