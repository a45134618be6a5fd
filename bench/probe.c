/*
 * bench/probe: the raw SQLite probe, the store's ceiling on this
 * machine.  The rows a Ludo turn writes -- the games row (turn,
 * winner, aux, moves, updated, and the deadline and pending roll the
 * store writes with them), one token row and one history row -- are
 * written by a bare C loop of the store's statements on a plain
 * connection: no network, no engine, no store in the timed loop.
 *
 *	bench/probe [--turns N] [--batch-turns N] [--batch N] [--games N]
 *	    [--mode one|batch|both] [--db PATH]
 *	    [--durability full|normal|off] [--layout rows|log]
 *
 * The database is made by store_sqlite_open() (the real schema, WAL) with
 * --games Ludo games (default 100) made by store_create_game().  A second
 * connection then plays --turns turns (default 5000) round robin over
 * the games, first --turns turns one per transaction (mode 1), then
 * --batch-turns turns (default: --turns) --batch per transaction (mode
 * B, default 100), and prints one line per mode (--mode runs only one of
 * them, so that each can be sized for the same time):
 *
 *	probe mode=1 durability=full turns=5000 txns=5000 turns_per_s=...
 *	    commit_p50_ms=... commit_p99_ms=...
 *
 * (on one line; mode is the turns per transaction).  A commit latency is
 * the wall time of one whole transaction, from BEGIN IMMEDIATE to the
 * return of COMMIT, fsync included: what a turn costs the store.  Before
 * each mode, 100 turns warm the cache up, untimed.  Without --db the
 * database is a temporary file, removed at the end; a --db must not
 * exist yet, and is kept.
 *
 * --layout log measures a design ludus does not have, for comparison:
 * each turn is one INSERT into an append-only table (probe_log, made by
 * the probe: rowid order, so a batch's rows share pages) holding the
 * history row and the new snapshot as a 128-byte blob, and no row is
 * updated: the cost of "an append-only turn log as the durable record,
 * rows materialised later" (doc/benchmarks.md, section 5).  The output
 * says layout=log.
 *
 * A benchmark, not a test: it prints figures and judges none.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "game/game.h"
#include "store/store.h"
#include "util/util.h"

#define WARMUP		100
#define NPLAYERS	4
#define LOG_STATE	128	/* bytes of a snapshot in --layout log */

enum {
	P_BEGIN,
	P_COMMIT,
	P_GAME,
	P_TOKEN,
	P_MOVE,
	P_LOG,
	NPROBE
};

/* --layout log's table: not ludus's schema. */
static const char log_table[] =
    "CREATE TABLE probe_log (seq INTEGER PRIMARY KEY, game TEXT NOT NULL,"
    " move INTEGER NOT NULL, player TEXT NOT NULL, action TEXT NOT NULL,"
    " result TEXT NOT NULL, at INTEGER NOT NULL, automatic INTEGER NOT NULL,"
    " state BLOB NOT NULL)";

/* The store's own statements for these rows (src/store/sqlite_stmt.c). */
static const char *const probe_sql[NPROBE] = {
	[P_BEGIN] = "BEGIN IMMEDIATE",
	[P_COMMIT] = "COMMIT",
	[P_GAME] =
	    "UPDATE games SET turn = ?2, winner = ?3, aux = ?4, moves = ?5,"
	    " updated = ?6, deadline = ?8, roll = ?9, roll_player = ?10"
	    " WHERE id = ?1 AND moves = ?7 RETURNING gid",
	/* The game's children by the gid its UPDATE returned. */
	[P_TOKEN] =
	    "UPDATE tokens SET pos = ?4, points = ?5"
	    " WHERE game = ?1 AND player = ?2 AND token = ?3",
	[P_MOVE] =
	    "INSERT INTO history (game, seq, player, action, result, at,"
	    " automatic) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[P_LOG] =
	    "INSERT INTO probe_log (game, move, player, action, result, at,"
	    " automatic, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
};

static const char *const sync_sql[] = {
	[DURABILITY_FULL] = "PRAGMA synchronous = FULL",
	[DURABILITY_NORMAL] = "PRAGMA synchronous = NORMAL",
	[DURABILITY_OFF] = "PRAGMA synchronous = OFF",
};

struct probe {
	sqlite3		*db;
	sqlite3_stmt	*st[NPROBE];
	int64_t		 ngames;
	int64_t		*moves;		/* per game */
	int64_t		 next;		/* the game to play next */
	int		 log;		/* --layout log */
	uint8_t		 state[LOG_STATE];
};

enum probe_modes {
	MODE_ONE = 1,		/* one turn per transaction */
	MODE_BATCH = 2,		/* --batch turns per transaction */
	MODE_BOTH = 3
};

struct options {
	int64_t		 turns;
	int64_t		 batch_turns;	/* -1: as many as --turns */
	int64_t		 batch;
	int		 modes;		/* enum probe_modes */
	int64_t		 games;
	const char	*db;
	enum durability	 durability;
	int		 log;		/* --layout log */
};

static void
usage(void)
{
	fprintf(stderr, "usage: probe [--turns N] [--batch-turns N]"
	    " [--batch N] [--games N] [--mode one|batch|both] [--db PATH]"
	    " [--durability full|normal|off] [--layout rows|log]\n");
	exit(2);
}

static void
die_db(sqlite3 *db, const char *what)
{
	fprintf(stderr, "probe: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static int64_t
mono_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
game_id(int64_t i, char *buf, size_t len)
{
	snprintf(buf, len, "probe-%lld", (long long)i);
}

static int64_t
option_int(const char *name, const char *arg, int64_t min, int64_t max)
{
	const char	*why;
	int64_t		 v;

	if (arg == NULL)
		usage();
	if (parse_int64(arg, min, max, &v, &why) != 0) {
		fprintf(stderr, "probe: %s %s: %s\n", name, arg, why);
		exit(2);
	}
	return v;
}

static int
parse_modes(const char *arg)
{
	if (strcmp(arg, "one") == 0)
		return MODE_ONE;
	if (strcmp(arg, "batch") == 0)
		return MODE_BATCH;
	if (strcmp(arg, "both") == 0)
		return MODE_BOTH;
	usage();
	return 0;
}

static void
parse_options(int argc, char **argv, struct options *o)
{
	int	 i, d;

	*o = (struct options){ 5000, -1, 100, MODE_BOTH, 100, NULL,
	    DURABILITY_FULL, 0 };
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--turns") == 0)
			o->turns = option_int(argv[i], argv[i + 1], 1,
			    100000000);
		else if (strcmp(argv[i], "--batch-turns") == 0)
			o->batch_turns = option_int(argv[i], argv[i + 1], 1,
			    100000000);
		else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
			o->modes = parse_modes(argv[i + 1]);
		else if (strcmp(argv[i], "--batch") == 0)
			o->batch = option_int(argv[i], argv[i + 1], 1,
			    1000000);
		else if (strcmp(argv[i], "--games") == 0)
			o->games = option_int(argv[i], argv[i + 1], 1,
			    1000000);
		else if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
			o->db = argv[i + 1];
		else if (strcmp(argv[i], "--durability") == 0 &&
		    i + 1 < argc && (d = durability_parse(argv[i + 1])) >= 0)
			o->durability = (enum durability)d;
		else if (strcmp(argv[i], "--layout") == 0 && i + 1 < argc &&
		    (strcmp(argv[i + 1], "rows") == 0 ||
		    strcmp(argv[i + 1], "log") == 0))
			o->log = strcmp(argv[i + 1], "log") == 0;
		else
			usage();
		i++;
	}
}

/* A fresh database with the real schema and the games, via the store. */
static void
create_games(const char *path, const struct options *o)
{
	struct ludo_rules	 rules;
	struct store		*st;
	struct game		 g;
	char			 err[256];
	int64_t			 i;
	int			 p;

	if ((st = store_sqlite_open(path, o->durability, err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "probe: %s\n", err);
		exit(1);
	}
	if (ludo_rules_preset(&rules, "classic") != 0 ||
	    store_begin(st) != STORE_OK)
		goto fail;
	for (i = 0; i < o->games; i++) {
		memset(&g, 0, sizeof(g));
		game_id(i, g.id, sizeof(g.id));
		g.kind = KIND_LUDO;
		g.created = g.updated = (int64_t)time(NULL);
		for (p = 0; p < NPLAYERS; p++)
			snprintf(g.players[p], sizeof(g.players[p]), "p%d",
			    p + 1);
		if (ludo_init(&g.s.ludo, &rules, NPLAYERS) != 0 ||
		    store_create_game(st, &g) != STORE_OK)
			goto fail;
	}
	if (store_commit(st) != STORE_OK)
		goto fail;
	store_close(st);
	return;
fail:
	fprintf(stderr, "probe: creating games: %s\n", store_errmsg(st));
	exit(1);
}

static void
probe_open(struct probe *pr, const char *path, const struct options *o)
{
	int	 i;

	memset(pr, 0, sizeof(*pr));
	/* Opened as the store opens its own: one thread, no per-call
	 * mutexes. */
	if (sqlite3_open_v2(path, &pr->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		die_db(pr->db, path);
	/* As the store runs: WAL (already in the file), the durability
	 * asked for, foreign keys checked on every history row. */
	if (sqlite3_exec(pr->db, "PRAGMA journal_mode = WAL", NULL, NULL,
	    NULL) != SQLITE_OK ||
	    sqlite3_exec(pr->db, sync_sql[o->durability], NULL, NULL,
	    NULL) != SQLITE_OK ||
	    sqlite3_exec(pr->db, "PRAGMA foreign_keys = ON", NULL, NULL,
	    NULL) != SQLITE_OK)
		die_db(pr->db, "pragma");
	if (o->log && sqlite3_exec(pr->db, log_table, NULL, NULL, NULL) !=
	    SQLITE_OK)
		die_db(pr->db, log_table);
	pr->log = o->log;
	for (i = 0; i < LOG_STATE; i++)
		pr->state[i] = (uint8_t)(i * 37);
	for (i = 0; i < NPROBE; i++) {
		if (i == P_LOG && !o->log)
			continue;
		if (sqlite3_prepare_v3(pr->db, probe_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &pr->st[i], NULL) != SQLITE_OK)
			die_db(pr->db, probe_sql[i]);
	}
	pr->ngames = o->games;
	pr->moves = xcalloc((size_t)o->games, sizeof(*pr->moves));
}

static void
probe_close(struct probe *pr)
{
	int	 i;

	for (i = 0; i < NPROBE; i++)
		sqlite3_finalize(pr->st[i]);
	if (sqlite3_close(pr->db) != SQLITE_OK)
		die_db(pr->db, "close");
	free(pr->moves);
}

static void
step_done(struct probe *pr, int which)
{
	sqlite3_stmt	*st = pr->st[which];

	if (sqlite3_step(st) != SQLITE_DONE)
		die_db(pr->db, probe_sql[which]);
	sqlite3_reset(st);
}

/* --layout log: the turn's one row, appended. */
static void
log_turn(struct probe *pr, const char *id, int64_t move,
    const char *player, int64_t now)
{
	sqlite3_stmt	*st = pr->st[P_LOG];

	pr->state[move % LOG_STATE] ^= (uint8_t)move;	/* it changes */
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, move);
	sqlite3_bind_text(st, 3, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, "3:1", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, "MOVED", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, now);
	sqlite3_bind_int(st, 7, MOVE_PLAYER);
	sqlite3_bind_blob(st, 8, pr->state, LOG_STATE, SQLITE_STATIC);
	step_done(pr, P_LOG);
}

/*
 * The rows of one Ludo turn of the next game: its games row, one token
 * (player, token and position cycle through valid values) and the
 * history row.  The values only have to satisfy the schema.
 */
static void
one_turn(struct probe *pr)
{
	sqlite3_stmt	*st;
	char		 id[GAME_ID_MAX + 1], player[8];
	int64_t		 g = pr->next, m = pr->moves[g], now, gid;
	int		 who = (int)(m % NPLAYERS), rc;

	pr->next = (g + 1) % pr->ngames;
	game_id(g, id, sizeof(id));
	snprintf(player, sizeof(player), "p%d", who + 1);
	now = (int64_t)time(NULL);
	if (pr->log) {
		log_turn(pr, id, m + 1, player, now);
		pr->moves[g] = m + 1;
		return;
	}

	st = pr->st[P_GAME];
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, (who + 1) % NPLAYERS);
	sqlite3_bind_int(st, 3, -1);
	sqlite3_bind_int(st, 4, 0);
	sqlite3_bind_int64(st, 5, m + 1);
	sqlite3_bind_int64(st, 6, now);
	sqlite3_bind_int64(st, 7, m);
	sqlite3_bind_null(st, 8);	/* no deadline, no pending roll */
	sqlite3_bind_null(st, 9);
	sqlite3_bind_null(st, 10);
	gid = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		gid = sqlite3_column_int64(st, 0);
	if (rc != SQLITE_DONE)
		die_db(pr->db, probe_sql[P_GAME]);
	sqlite3_reset(st);
	if (gid == 0) {
		fprintf(stderr, "probe: game %s not at move %lld\n", id,
		    (long long)m);
		exit(1);
	}

	st = pr->st[P_TOKEN];
	sqlite3_bind_int64(st, 1, gid);
	sqlite3_bind_int(st, 2, who);
	sqlite3_bind_int(st, 3, 1 + (int)(m / NPLAYERS % LUDO_TOKENS));
	sqlite3_bind_int(st, 4, (int)(m % 52));
	sqlite3_bind_int(st, 5, 0);
	step_done(pr, P_TOKEN);

	st = pr->st[P_MOVE];
	sqlite3_bind_int64(st, 1, gid);
	sqlite3_bind_int64(st, 2, m + 1);
	sqlite3_bind_text(st, 3, player, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, "3:1", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, "MOVED", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, now);
	sqlite3_bind_int(st, 7, MOVE_PLAYER);
	step_done(pr, P_MOVE);
	pr->moves[g] = m + 1;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank, in milliseconds, of sorted nanoseconds. */
static double
percentile_ms(const int64_t *sorted, int64_t n, double pct)
{
	int64_t	 rank;

	rank = (int64_t)(pct / 100.0 * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)sorted[rank - 1] / 1e6;
}

/* Plays turns in transactions of batch turns; times each transaction. */
static void
run_mode(struct probe *pr, const struct options *o, int64_t batch,
    int64_t turns)
{
	int64_t	*lat, ntx, done, i, k, t0, start, total;

	for (i = 0; i < WARMUP; i++) {
		step_done(pr, P_BEGIN);
		one_turn(pr);
		step_done(pr, P_COMMIT);
	}
	ntx = (turns + batch - 1) / batch;
	lat = xcalloc((size_t)ntx, sizeof(*lat));
	start = mono_ns();
	for (i = 0, done = 0; i < ntx; i++) {
		t0 = mono_ns();
		step_done(pr, P_BEGIN);
		for (k = 0; k < batch && done < turns; k++, done++)
			one_turn(pr);
		step_done(pr, P_COMMIT);
		lat[i] = mono_ns() - t0;
	}
	total = mono_ns() - start;
	qsort(lat, (size_t)ntx, sizeof(*lat), cmp_i64);
	printf("probe mode=%lld durability=%s%s turns=%lld txns=%lld"
	    " turns_per_s=%.1f commit_p50_ms=%.3f commit_p99_ms=%.3f\n",
	    (long long)batch, durability_name(o->durability),
	    o->log ? " layout=log" : "",
	    (long long)turns, (long long)ntx,
	    (double)turns * 1e9 / (double)total,
	    percentile_ms(lat, ntx, 50.0), percentile_ms(lat, ntx, 99.0));
	fflush(stdout);
	free(lat);
}

static void
remove_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char	*p;
	size_t	 i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		xasprintf(&p, "%s%s", path, suffix[i]);
		unlink(p);
		free(p);
	}
}

int
main(int argc, char **argv)
{
	struct options	 o;
	struct probe	 pr;
	const char	*tmp;
	char		*dir = NULL, *path;

	parse_options(argc, argv, &o);
	if (o.db != NULL) {
		/* Fresh, and never someone's database overwritten. */
		if (access(o.db, F_OK) == 0) {
			fprintf(stderr, "probe: %s exists\n", o.db);
			return 1;
		}
		path = xstrdup(o.db);
	} else {
		if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
			tmp = "/tmp";
		xasprintf(&dir, "%s/ludus-probe.XXXXXX", tmp);
		if (mkdtemp(dir) == NULL) {
			perror("probe: mkdtemp");
			return 1;
		}
		xasprintf(&path, "%s/probe.db", dir);
	}

	create_games(path, &o);
	probe_open(&pr, path, &o);
	if (o.modes & MODE_ONE)
		run_mode(&pr, &o, 1, o.turns);
	if (o.modes & MODE_BATCH)
		run_mode(&pr, &o, o.batch,
		    o.batch_turns > 0 ? o.batch_turns : o.turns);
	probe_close(&pr);

	if (dir != NULL) {
		remove_db(path);
		rmdir(dir);
		free(dir);
	}
	free(path);
	return 0;
}
