/*
 * See store_helper.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "game/game.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "pg_helper.h"
#include "store_helper.h"
#include "util/util.h"

uint32_t
xorshift32(uint32_t *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	return *seed;
}

void
tmpdir_make(struct tmpdir *t, const char *name)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/%s.XXXXXX", name);
	if (mkdtemp(t->dir) == NULL)
		fail_msg("mkdtemp failed");
	snprintf(t->path, sizeof(t->path), "%s/ludus.db", t->dir);
}

void
db_remove(const char *path)
{
	const char	*suffix[] = { "", "-wal", "-shm", "-journal" };
	char		 p[200];
	size_t		 i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, suffix[i]);
		unlink(p);
	}
}

void
tmpdir_remove(struct tmpdir *t)
{
	db_remove(t->path);
	rmdir(t->dir);
}

int64_t
sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*stmt;
	int64_t		 v;

	assert_non_null(db);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static void
player_name(const struct game *g, int i, char *buf, size_t len)
{
	if (g->kind == KIND_LUDO)
		snprintf(buf, len, "%s", g->players[i]);
	else
		snprintf(buf, len, "P%d", i + 1);
}

int
random_move(const struct game *g, struct game *out, struct move *mv,
    uint32_t *seed)
{
	static const char	 cards[] = "abcdefghi123456789";
	struct snl_result	 sr;
	struct dandy_result	 dr;
	enum ludo_result	 lr;
	int			 legal[LUDO_TOKENS], n, dice, tok, card, who;

	memcpy(out, g, sizeof(*out));
	memset(mv, 0, sizeof(*mv));
	switch (g->kind) {
	case KIND_LUDO:
		if (g->s.ludo.winner != -1)
			return 0;
		who = g->s.ludo.turn;
		dice = 1 + (int)(xorshift32(seed) % 6);
		n = ludo_legal(&g->s.ludo, dice, legal);
		tok = n > 0 ? legal[xorshift32(seed) % (uint32_t)n] : 0;
		lr = ludo_play(&g->s.ludo, who, dice, tok, &out->s.ludo);
		assert_true(ludo_result_stored(lr));
		snprintf(mv->action, sizeof(mv->action), "%d:%d", dice, tok);
		snprintf(mv->result, sizeof(mv->result), "%s",
		    ludo_result_str(lr));
		break;
	case KIND_SNL:
		if (g->s.snl.winner != -1)
			return 0;
		dice = 1 + (int)(xorshift32(seed) % 6);
		assert_int_equal(snl_roll(&g->s.snl, dice, &out->s.snl, &sr),
		    0);
		who = sr.player;
		snprintf(mv->action, sizeof(mv->action), "%d", dice);
		snprintf(mv->result, sizeof(mv->result), "P%d %d",
		    sr.player + 1, sr.pos);
		break;
	default:
		if (g->s.dandy.turn == -1)
			return 0;
		card = g->s.dandy.has_deck ? 0 :
		    cards[xorshift32(seed) % (sizeof(cards) - 1)];
		assert_int_equal(dandy_draw(&g->s.dandy, card, &out->s.dandy,
		    &dr), 0);
		who = dr.player;
		snprintf(mv->action, sizeof(mv->action), "%c",
		    card != 0 ? card : g->s.dandy.deck[g->s.dandy.drawn]);
		snprintf(mv->result, sizeof(mv->result), "P%d %d %d",
		    dr.player + 1, dr.pos + 1, dr.points);
		break;
	}
	out->moves = g->moves + 1;
	out->updated = g->updated + 1;
	mv->seq = out->moves;
	mv->at = out->updated;
	player_name(g, who, mv->player, sizeof(mv->player));
	return 1;
}

int
count_move(void *arg, const struct move *mv)
{
	int64_t	*n = arg;

	assert_int_equal(mv->seq, ++*n);
	return 0;
}

void
game_base(struct game *g, const char *id, enum game_kind kind)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "%s", id);
	g->kind = kind;
	g->created = 1700000000;
	g->updated = 1700000000;
}

void
make_ludo(struct game *g, const char *id, const char *preset, int n)
{
	struct ludo_rules	 rules;
	int			 i;

	game_base(g, id, KIND_LUDO);
	for (i = 0; i < n; i++)
		snprintf(g->players[i], sizeof(g->players[i]), "player-%d", i);
	assert_int_equal(ludo_rules_preset(&rules, preset), 0);
	assert_int_equal(ludo_init(&g->s.ludo, &rules, n), 0);
}

/* ------------------------------------------- shared by the store tests */

static const char *
pg_uri(void)
{
	const char	*uri = getenv("LUDUS_TEST_STORE");

	return uri != NULL && store_uri_is_pg(uri) ? uri : NULL;
}

int
test_on_pg(void)
{
	return pg_uri() != NULL;
}

int	 sqlite_test_mark;

int
store_run_tests(const char *name, const struct CMUnitTest *tests, size_t n)
{
	struct CMUnitTest	*run = calloc(n, sizeof(*run));
	size_t			 i, k = 0;
	int			 rc;

	assert_non_null(run);
	for (i = 0; i < n; i++) {
		if (tests[i].initial_state == &sqlite_test_mark &&
		    test_on_pg())
			continue;
		run[k] = tests[i];
		if (run[k].initial_state == &sqlite_test_mark)
			run[k].initial_state = NULL;
		k++;
	}
	rc = _cmocka_run_group_tests(name, run, k, NULL, NULL);
	free(run);
	return rc;
}

/* One connection of the tests' own, kept for the run. */
static PGconn *
pg_conn(void)
{
	static PGconn	*pc;

	if (pc != NULL && PQstatus(pc) == CONNECTION_OK)
		return pc;
	PQfinish(pc);
	pc = PQconnectdb(pg_uri());
	if (PQstatus(pc) != CONNECTION_OK)
		fail_msg("connect: %s", PQerrorMessage(pc));
	return pc;
}

void
test_store_empty(void)
{
	assert_int_equal(pg_test_empty(), 0);
}

struct store *
test_store_at(const char *path, enum durability d, char *err, size_t len)
{
	if (test_on_pg())
		return store_pg_open(pg_uri(), d, err, len);
	return store_sqlite_open(path, d, err, len);
}

struct store *
open_mem(void)
{
	char		 err[256];
	struct store	*st;

	test_store_empty();
	st = test_store_at(":memory:", DURABILITY_FULL, err, sizeof(err));
	if (st == NULL)
		fail_msg("open: %s", err);
	return st;
}

void
make_snl(struct game *g, const char *id, int n)
{
	game_base(g, id, KIND_SNL);
	assert_int_equal(snl_init(&g->s.snl, n), 0);
	assert_int_equal(snl_add_snake(&g->s.snl, 99, 2, NULL), 0);
	assert_int_equal(snl_add_snake(&g->s.snl, 40, 30, NULL), 0);
	assert_int_equal(snl_add_ladder(&g->s.snl, 3, 50, NULL), 0);
	assert_int_equal(snl_add_ladder(&g->s.snl, 60, 97, NULL), 0);
}

void
make_dandy(struct game *g, const char *id, int n, const char *board,
    const char *deck)
{
	game_base(g, id, KIND_DANDY);
	assert_int_equal(dandy_init(&g->s.dandy, n, board, deck, NULL), 0);
}

/* The stamp is the store's version of the row, not the game: a snapshot
 * made by a test has none. */
void
assert_same_game(const struct game *ga, const struct game *gb)
{
	struct game	 ca = *ga, cb = *gb;
	const struct game *a = &ca, *b = &cb;

	ca.stamp = cb.stamp = 0;
	assert_string_equal(a->id, b->id);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->moves, b->moves);
	assert_int_equal(a->created, b->created);
	assert_int_equal(a->updated, b->updated);
	assert_memory_equal(a->players, b->players, sizeof(a->players));
	assert_memory_equal(&a->s, &b->s, sizeof(a->s));
	assert_memory_equal(a, b, sizeof(*a));
}

void
assert_loads_as(struct store *st, const struct game *want)
{
	struct game	 got;

	assert_int_equal(store_load_game(st, want->id, &got), STORE_OK);
	assert_same_game(&got, want);
}

/*
 * A query for PostgreSQL, whose child tables name their game by its id:
 * SQL_GID()'s lookup of the gid made a lookup of the id, which is then
 * the same game.  The result is the caller's to free.
 */
static char *
pg_sql(const char *sql)
{
	static const char	 from[] = "SELECT gid FROM games";
	static const char	 to[] = "SELECT id FROM games";
	const char		*p;
	char			*out, *o;

	out = malloc(strlen(sql) + 1);
	assert_non_null(out);
	for (o = out; (p = strstr(sql, from)) != NULL;
	    sql = p + sizeof(from) - 1) {
		memcpy(o, sql, (size_t)(p - sql));
		o += p - sql;
		memcpy(o, to, sizeof(to) - 1);
		o += sizeof(to) - 1;
	}
	strcpy(o, sql);
	return out;
}

static PGresult *
pg_exec(const char *sql)
{
	PGresult	*r;
	char		*q;

	q = pg_sql(sql);
	r = PQexec(pg_conn(), q);
	free(q);
	return r;
}

int64_t
query_int(struct store *st, const char *sql)
{
	PGresult	*r;
	const char	*errstr;
	int64_t		 v = 0;

	if (!test_on_pg())
		return sql_int(store_sqlite_handle(st), sql);
	r = pg_exec(sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) < 1)
		fail_msg("%s: %s", sql, PQresultErrorMessage(r));
	if (!PQgetisnull(r, 0, 0) && parse_int64(PQgetvalue(r, 0, 0),
	    INT64_MIN, INT64_MAX, &v, &errstr) != 0) {
		/* A boolean or other: t is 1. */
		v = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	}
	PQclear(r);
	return v;
}

/* The token rows that differ between two snapshots of one game. */
static int
changed_tokens(const struct game *a, const struct game *b)
{
	int	 n = 0, p, t;

	for (p = 0; p < game_nplayers(a); p++) {
		switch (a->kind) {
		case KIND_LUDO:
			for (t = 0; t < LUDO_TOKENS; t++)
				n += a->s.ludo.pos[p][t] != b->s.ludo.pos[p][t];
			break;
		case KIND_SNL:
			n += a->s.snl.pos[p] != b->s.snl.pos[p];
			break;
		default:
			n += a->s.dandy.pos[p] != b->s.dandy.pos[p] ||
			    a->s.dandy.points[p] != b->s.dandy.points[p];
			break;
		}
	}
	return n;
}

/*
 * One turn as the command layer runs it: begin, load, engine, save,
 * commit.  Checks that the loaded game is *expect and that exactly the
 * games row, the changed token rows and one history row were written.
 * Returns 0 when the game is over, 1 after a committed move.
 */
int
store_turn(struct store *st, struct game *expect, uint32_t *seed)
{
	struct game	 old, new;
	struct move	 mv;
	sqlite3		*db = store_sqlite_handle(st);
	int		 before;

	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_load_game(st, expect->id, &old), STORE_OK);
	assert_same_game(&old, expect);
	if (!random_move(&old, &new, &mv, seed)) {
		store_rollback(st);
		return 0;
	}
	before = db != NULL ? sqlite3_total_changes(db) : 0;
	assert_int_equal(store_save_turn(st, &old, &new, &mv), STORE_OK);
	/* PostgreSQL's turn is one statement; its rows are counted below. */
	if (db != NULL)
		assert_int_equal(sqlite3_total_changes(db) - before,
		    2 + changed_tokens(&old, &new));
	assert_int_equal(store_commit(st), STORE_OK);
	memcpy(expect, &new, sizeof(*expect));
	return 1;
}

void
play_moves(struct store *st, struct game *g, int n, uint32_t *seed)
{
	while (n-- > 0)
		assert_int_equal(store_turn(st, g, seed), 1);
}

void
test_exec(struct store *st, const char *sql)
{
	PGresult	*r;

	if (!test_on_pg()) {
		assert_int_equal(sqlite3_exec(store_sqlite_handle(st), sql,
		    NULL, NULL, NULL), SQLITE_OK);
		return;
	}
	r = pg_exec(sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK &&
	    PQresultStatus(r) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	r = PQexec(pg_conn(), "UPDATE games SET stamp = stamp + 1");
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fail_msg("stamps: %s", PQresultErrorMessage(r));
	PQclear(r);
}

const char *
game_rows_sql(size_t i, const char *id, char *sql, size_t len)
{
	static const char *const tables[] = { "games", "players", "tokens",
	    "jumps", "history" };

	if (i >= sizeof(tables) / sizeof(tables[0]))
		return NULL;
	if (i == 0)
		snprintf(sql, len, "SELECT count(*) FROM games WHERE id = '%s'",
		    id);
	else
		snprintf(sql, len, "SELECT count(*) FROM %s WHERE game = "
		    "(SELECT gid FROM games WHERE id = '%s') OR game NOT IN "
		    "(SELECT gid FROM games)", tables[i], id);
	return sql;
}
