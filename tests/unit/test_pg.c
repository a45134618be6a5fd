/*
 * The optimistic store (store.h, "Several writers"), on PostgreSQL: two
 * stores on one database are two ludusd nodes.  Each test plays what
 * another node does between this one's load and its commit, and checks
 * that the version check catches it: a conflict writes nothing, is
 * reported for its request alone, and the fresh state is read after it.
 * Run by tests/pg/test_pg.pg; without LUDUS_TEST_STORE it is skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_txn.h"
#include "engine/engine.h"
#include "game/game.h"
#include "store/store.h"
#include "pg_helper.h"
#include "store_helper.h"
#include "test_pg.h"
#include "util/util.h"

int
tp_setup(void **state)
{
	struct nodes	*n = xcalloc(1, sizeof(*n));
	char		 err[256];

	test_store_empty();
	n->a = test_store_at(NULL, DURABILITY_FULL, err, sizeof(err));
	n->b = test_store_at(NULL, DURABILITY_FULL, err, sizeof(err));
	if (n->a == NULL || n->b == NULL) {
		fprintf(stderr, "open: %s\n", err);
		return -1;
	}
	*state = n;
	return 0;
}

int
tp_teardown(void **state)
{
	struct nodes	*n = *state;

	store_close(n->a);
	store_close(n->b);
	free(n);
	return 0;
}

/* The requests a COMMIT reported, as a bit mask of their numbers. */
static void
note(void *arg, uint64_t req, enum store_outcome how)
{
	assert_int_equal(how, STORE_REDO);
	assert_true(req < 64);
	*(uint64_t *)arg |= 1ULL << req;
}

uint64_t
tp_conflicts(struct store *st)
{
	uint64_t	 mask = 0;

	store_conflicts(st, note, &mask);
	return mask;
}

/* One random move of the game as the store has it, in request req of the
 * open transaction; the snapshot it was computed from in *old. */
static void
turn(struct store *st, uint64_t req, const char *id, struct game *old,
    struct game *new, uint32_t *seed)
{
	struct move	 mv;

	store_request(st, req);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_load_game(st, id, old), STORE_OK);
	assert_int_equal(random_move(old, new, &mv, seed), 1);
	assert_int_equal(store_save_turn(st, old, new, &mv), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
}

void
tp_committed(struct store *st, uint64_t want)
{
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(tp_conflicts(st), want);
}

/* Node b commits a move of a game node a has in its cache; a's move,
 * computed from what it had, stores nothing; its next load is fresh. */
static void
test_turn_conflicts_with_other_node(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, a1, b1;
	uint32_t	 seed = 7;

	assert_true(store_optimistic(n->a));
	make_ludo(&g, "race", "classic", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_loads_as(n->b, &g);

	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "race", &old, &b1, &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "race", &old, &a1, &seed);
	assert_int_equal(old.moves, 0);		/* a's cache, stale */
	tp_committed(n->a, 1ULL << 1);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 1);
	assert_loads_as(n->a, &b1);
}

/*
 * A second move computed on top of a first one of the same transaction
 * conflicts with it, although the row's move count is then the one it
 * expects: another node's move 1 is not this node's move 1.
 */
static void
test_chained_turn_conflicts_with_the_first(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, a1, a2, b1;
	uint32_t	 seed = 11;

	make_dandy(&g, "chain", 2, "abcdef", NULL);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "chain", &old, &b1, &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "chain", &old, &a1, &seed);
	turn(n->a, 2, "chain", &old, &a2, &seed);
	assert_int_equal(old.moves, 1);		/* on top of a1 */
	tp_committed(n->a, 1ULL << 1 | 1ULL << 2);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 1);
	assert_int_equal(query_int(n->a, "SELECT moves FROM games"), 1);
	assert_loads_as(n->a, &b1);
}

/* One request's conflict is its own: the others of the transaction
 * commit. */
static void
test_conflict_is_one_requests(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, h, old, b1, a1, ah;
	uint32_t	 seed = 13;

	make_snl(&g, "one", 2);
	make_snl(&h, "other", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_create_game(n->a, &h), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "one", &old, &b1, &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "other", &old, &ah, &seed);
	turn(n->a, 2, "one", &old, &a1, &seed);
	tp_committed(n->a, 1ULL << 2);
	assert_loads_as(n->b, &ah);
	assert_loads_as(n->a, &b1);
}

/*
 * The turns of one COMMIT go to PostgreSQL as one set-based statement:
 * each game's version is still checked alone.  Six games, two of them
 * moved by node b first; node a moves all six, and again two of them on
 * top of its own move (one conflicted, one not): the conflicted ones and
 * the move built on one are run again, the rest is stored, once.
 */
static void
test_set_of_turns_checks_each_game(void **state)
{
	static const char *const ids[6] = { "s0", "s1", "s2", "s3", "s4",
	    "s5" };
	struct nodes	*n = *state;
	struct game	 g, old, mine[6], again[2], theirs[2];
	uint32_t	 seed = 23;
	int		 i;

	for (i = 0; i < 6; i++) {
		make_ludo(&g, ids[i], "classic", 2 + i % 3);
		assert_int_equal(store_create_game(n->a, &g), STORE_OK);
		assert_loads_as(n->a, &g);
	}
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "s1", &old, &theirs[0], &seed);
	turn(n->b, 2, "s4", &old, &theirs[1], &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	for (i = 0; i < 6; i++)
		turn(n->a, (uint64_t)i + 1, ids[i], &old, &mine[i], &seed);
	turn(n->a, 7, "s2", &old, &again[0], &seed);
	assert_int_equal(old.moves, 1);
	turn(n->a, 8, "s1", &old, &again[1], &seed);
	tp_committed(n->a, 1ULL << 2 | 1ULL << 5 | 1ULL << 8);

	/* b's two, a's four and its second move of s2. */
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 7);
	assert_int_equal(query_int(n->a,
	    "SELECT count(*) FROM history WHERE game = 's2'"), 2);
	assert_int_equal(query_int(n->a,
	    "SELECT count(*) FROM history WHERE game = 's1'"), 1);
	assert_loads_as(n->b, &mine[0]);
	assert_loads_as(n->b, &theirs[0]);
	assert_loads_as(n->b, &again[0]);
	assert_loads_as(n->b, &mine[3]);
	assert_loads_as(n->b, &theirs[1]);
	assert_loads_as(n->b, &mine[5]);
}

/* A turn whose token rows are not all there (a damaged database) fails
 * the whole COMMIT of the set: nothing of it is stored. */
static void
test_set_of_turns_missing_token_row(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, h, old, a1, a2;
	uint32_t	 seed = 29;

	make_snl(&g, "torn", 2);
	make_snl(&h, "whole", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_create_game(n->a, &h), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_loads_as(n->a, &h);

	/* The rows are damaged after the turns were computed (a load of
	 * them would refuse them, in the cache's checking mode), before
	 * the COMMIT sends what was queued. */
	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "whole", &old, &a1, &seed);
	turn(n->a, 2, "torn", &old, &a2, &seed);
	assert_int_equal(pg_test_exec("DELETE FROM tokens WHERE game = 'torn'"),
	    0);
	assert_int_equal(store_commit(n->a), STORE_ERR);
	store_rollback(n->a);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 0);
	assert_int_equal(query_int(n->a, "SELECT max(moves) FROM games"), 0);
}

/* A whole request (an EXEC's group) stores all it writes or nothing:
 * its move of a game no one else wrote is undone with its conflicted
 * one, and the whole transaction (the other request too) runs again. */
static void
test_whole_request_is_all_or_nothing(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, h, old, b1, a1, ah, ax;
	uint32_t	 seed = 19;

	make_snl(&g, "w1", 2);
	make_snl(&h, "w2", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_create_game(n->a, &h), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_loads_as(n->a, &h);
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "w1", &old, &b1, &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "w2", &old, &ax, &seed);
	store_request(n->a, 2);
	assert_int_equal(store_savepoint(n->a), STORE_OK);
	store_request_whole(n->a);
	turn(n->a, 2, "w2", &old, &ah, &seed);
	turn(n->a, 2, "w1", &old, &a1, &seed);
	assert_int_equal(store_savepoint_release(n->a), STORE_OK);
	tp_committed(n->a, 1ULL << 1 | 1ULL << 2);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 1);
	assert_loads_as(n->a, &b1);
	assert_loads_as(n->a, &h);

	/* With nothing in its way it commits whole. */
	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 1);
	assert_int_equal(store_savepoint(n->a), STORE_OK);
	store_request_whole(n->a);
	turn(n->a, 1, "w2", &old, &ah, &seed);
	turn(n->a, 1, "w1", &old, &a1, &seed);
	assert_int_equal(store_savepoint_release(n->a), STORE_OK);
	tp_committed(n->a, 0);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 3);
	assert_loads_as(n->b, &a1);
	assert_loads_as(n->b, &ah);
}

/* A turn undone inside a whole request takes its statements alone out
 * of the queue, and the game cache keeps the group's earlier writes (a
 * load could not read them back before the COMMIT). */
static void
test_whole_request_inner_undo(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, a1, a2;
	uint32_t	 seed = 23;

	make_snl(&g, "w3", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 1);
	assert_int_equal(store_savepoint(n->a), STORE_OK);
	store_request_whole(n->a);
	turn(n->a, 1, "w3", &old, &a1, &seed);
	assert_int_equal(store_savepoint(n->a), STORE_OK);
	assert_int_equal(store_load_game(n->a, "nope", &old), STORE_NOTFOUND);
	store_savepoint_rollback(n->a);
	turn(n->a, 1, "w3", &old, &a2, &seed);
	assert_int_equal(old.moves, 1);		/* a1, from the cache */
	assert_int_equal(store_savepoint_release(n->a), STORE_OK);
	tp_committed(n->a, 0);
	assert_loads_as(n->b, &a2);
}

/* A request that writes nothing (a refused move) has what it read
 * checked at the COMMIT: it was computed from a stale cache. */
static void
test_refused_turn_is_checked(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, b1;
	uint32_t	 seed = 17;

	make_ludo(&g, "refused", "classic", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "refused", &old, &b1, &seed);
	tp_committed(n->b, 0);

	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 3);
	assert_int_equal(store_savepoint(n->a), STORE_OK);
	assert_int_equal(store_load_game(n->a, "refused", &old), STORE_OK);
	store_savepoint_rollback(n->a);
	tp_committed(n->a, 1ULL << 3);

	/* Checked and current: no conflict. */
	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 4);
	assert_int_equal(store_load_game(n->a, "refused", &old), STORE_OK);
	tp_committed(n->a, 0);
}

/* Read your writes across nodes: a load outside a transaction sees what
 * the other node committed, whatever this one's cache holds. */
static void
test_read_sees_other_nodes_commit(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, b1, b2;
	uint32_t	 seed = 19;

	make_dandy(&g, "ryw", 3, "abc", "abcabcabcabc");
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_loads_as(n->a, &g);
	assert_int_equal(store_begin(n->b), STORE_OK);
	turn(n->b, 1, "ryw", &old, &b1, &seed);
	turn(n->b, 2, "ryw", &old, &b2, &seed);
	tp_committed(n->b, 0);
	assert_loads_as(n->a, &b2);
}

/* A create that races another node's stores nothing and conflicts; run
 * again, it finds the id taken. */
static void
test_create_race(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, h;

	make_ludo(&g, "taken", "classic", 2);
	make_ludo(&h, "taken", "interview", 3);
	assert_int_equal(store_begin(n->a), STORE_OK);
	assert_int_equal(store_begin(n->b), STORE_OK);
	store_request(n->a, 1);
	store_request(n->b, 1);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_create_game(n->b, &h), STORE_OK);
	tp_committed(n->a, 0);
	tp_committed(n->b, 1ULL << 1);
	assert_int_equal(store_create_game(n->b, &h), STORE_EXISTS);
	assert_loads_as(n->b, &g);
}

static int
count_moves(void *arg, const struct move *mv)
{
	(void)mv;
	++*(int *)arg;
	return 0;
}

/* A read of the rows of a game the transaction writes cannot see that
 * write before the COMMIT: its request runs again after it. */
static void
test_history_after_own_turn_runs_again(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, a1;
	uint32_t	 seed = 23;
	int		 count = 0;

	make_snl(&g, "hist", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "hist", &old, &a1, &seed);
	store_request(n->a, 2);
	assert_int_equal(store_history(n->a, "hist", 1, -1, count_moves,
	    &count), STORE_OK);
	assert_int_equal(count, 0);		/* not committed yet */
	tp_committed(n->a, 1ULL << 2);
	count = 0;
	assert_int_equal(store_history(n->a, "hist", 1, -1, count_moves,
	    &count), STORE_OK);
	assert_int_equal(count, 1);
}

/* Every write puts a stamp of its own; a snapshot made by its caller
 * (stamp 0) is checked by its move count alone. */
static void
test_stamps(void **state)
{
	struct nodes	*n = *state;
	struct game	 g, old, a1, after;
	uint32_t	 seed = 29;

	make_ludo(&g, "stamps", "classic", 2);
	assert_int_equal(store_create_game(n->a, &g), STORE_OK);
	assert_int_equal(store_load_game(n->b, "stamps", &old), STORE_OK);
	assert_int_not_equal(old.stamp, 0);
	assert_int_equal(store_begin(n->a), STORE_OK);
	turn(n->a, 1, "stamps", &old, &a1, &seed);
	tp_committed(n->a, 0);
	assert_int_equal(store_load_game(n->b, "stamps", &after), STORE_OK);
	assert_int_not_equal(after.stamp, old.stamp);
	a1.opts.roll = 0;
	a1.stamp = 0;
	a1.opts.deadline = 12345;
	assert_int_equal(store_save_opts(n->a, &a1), STORE_OK);
	assert_int_equal(store_load_game(n->b, "stamps", &after), STORE_OK);
	assert_int_equal(after.opts.deadline, 12345);
	assert_int_equal(query_int(n->a, "SELECT count(DISTINCT stamp)"
	    " FROM games"), 1);
}

/* --------------------------------------------- the command layer */

struct conflict_log {
	uint64_t	 reqs[8];
	int		 n;
};

static void
on_conflict(void *arg, uint64_t req, int redo)
{
	struct conflict_log	*l = arg;

	assert_true(redo);
	assert_true(l->n < 8);
	l->reqs[l->n++] = req;
}

static int	moves_seen;

static void
on_move(void *arg, const char *game, const struct move *mv)
{
	(void)arg;
	(void)game;
	(void)mv;
	moves_seen++;
}

static void
run(struct cmd_env *env, const char *line, struct cmd_result *res,
    char *reply, size_t len)
{
	struct cmd_args	 a;
	struct reply	 r = { 0 };
	char		**argv;
	size_t		*argl;
	int		 argc;

	argc = split_line(line, strlen(line), &argv, &argl);
	memset(&a, 0, sizeof(a));
	a.argc = argc;
	a.argv = argv;
	a.argl = argl;
	cmd_run(env, &a, &r, res);
	snprintf(reply, len, "%s", r.str != NULL ? r.str : "");
	reply_free(&r);
	split_free(argc, argv, argl);
}

/* Group commit: the conflicted request is told to the caller with its
 * number, its move's event is not sent, and the turn is not counted. */
static void
test_cmd_txn_reports_conflicts(void **state)
{
	struct nodes		*n = *state;
	struct cmd_env		 ea, eb;
	struct conflict_log	 log;
	struct cmd_result	 r1, r2;
	char			 reply[128];

	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	memset(&log, 0, sizeof(log));
	ea.store = n->a;
	eb.store = n->b;
	ea.txn = cmd_txn_new();
	ea.on_conflict = on_conflict;
	ea.on_conflict_arg = &log;
	ea.on_move = on_move;
	run(&ea, "SNL.CREATE s 2", &r1, reply, sizeof(reply));
	run(&ea, "SNL.CREATE t 2", &r1, reply, sizeof(reply));
	assert_int_equal(cmd_txn_commit(&ea), 0);
	run(&ea, "SNL.STATE s", &r1, reply, sizeof(reply));
	run(&eb, "SNL.ROLL s 3", &r1, reply, sizeof(reply));
	assert_string_equal(reply, "P1 3");

	moves_seen = 0;
	run(&ea, "SNL.ROLL t 2", &r1, reply, sizeof(reply));
	run(&ea, "SNL.ROLL s 5", &r2, reply, sizeof(reply));
	assert_int_equal(r2.wait, 1);
	assert_int_equal(cmd_txn_commit(&ea), 0);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.reqs[0], r2.req);
	assert_true(r1.req != r2.req);
	assert_int_equal(moves_seen, 1);
	assert_int_equal(ea.turns, 1);
	assert_int_equal(ea.conflicts, 1);

	/* Run again, it is the next player's roll on the fresh rows. */
	run(&ea, "SNL.ROLL s 5", &r2, reply, sizeof(reply));
	assert_int_equal(cmd_txn_commit(&ea), 0);
	assert_int_equal(log.n, 1);
	assert_string_equal(reply, "P2 5");
	cmd_txn_free(&ea);
}

/* A write of its own (the CLI) runs again by itself. */
static void
test_cmd_alone_runs_again(void **state)
{
	struct nodes		*n = *state;
	struct cmd_env		 ea, eb;
	struct cmd_result	 r;
	char			 reply[128];

	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	ea.store = n->a;
	eb.store = n->b;
	run(&ea, "SNL.CREATE s 2", &r, reply, sizeof(reply));
	run(&ea, "SNL.STATE s", &r, reply, sizeof(reply));
	run(&eb, "SNL.ROLL s 3", &r, reply, sizeof(reply));
	run(&ea, "SNL.ROLL s 4", &r, reply, sizeof(reply));
	assert_string_equal(reply, "P2 4");
	run(&ea, "HISTORY s", &r, reply, sizeof(reply));
}


/* A line run in a session (NULL: none); the reply as "-CODE msg", the
 * bulk or status text, or an array's elements joined by spaces. */
static void
run_in(struct cmd_env *env, struct cmd_session *s, const char *line,
    struct cmd_result *res, char *reply, size_t len)
{
	struct cmd_args	 a;
	struct reply	 r = { 0 };
	char		**argv;
	size_t		*argl, i, at = 0;
	int		 argc;

	argc = split_line(line, strlen(line), &argv, &argl);
	memset(&a, 0, sizeof(a));
	a.argc = argc;
	a.argv = argv;
	a.argl = argl;
	a.session = s;
	cmd_run(env, &a, &r, res);
	reply[0] = '\0';
	if (r.type == REPLY_ARRAY)
		for (i = 0; i < r.n && at < len; i++)
			at += (size_t)snprintf(reply + at, len - at, "%s%s",
			    i > 0 ? " " : "", r.elem[i].str);
	else
		snprintf(reply, len, "%s%s", r.type == REPLY_ERROR ? "-" : "",
		    r.str != NULL ? r.str : "");
	reply_free(&r);
	split_free(argc, argv, argl);
}

/*
 * One seat key exchanged on two nodes at once, each in its group
 * commit: both compute a fresh key from the same snapshot, one COMMIT
 * stores its key, the other's conflicts, and run again it finds the key
 * spent.  The loser's node then knows the winner's key (its cache sees
 * the new stamp), and neither the old key nor the loser's works.
 */
static void
test_seat_exchange_race(void **state)
{
	struct nodes		*n = *state;
	struct cmd_env		 ea, eb;
	struct conflict_log	 log;
	struct cmd_result	 ra, rb;
	struct cmd_session	*sa, *sb;
	char			 reply[256], line[128], key[64], ka[64], kb[64];
	const char		*k;

	sa = cmd_session_new();
	sb = cmd_session_new();

	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	memset(&log, 0, sizeof(log));
	ea.store = n->a;
	eb.store = n->b;
	ea.txn = cmd_txn_new();
	eb.txn = cmd_txn_new();
	eb.on_conflict = on_conflict;
	eb.on_conflict_arg = &log;
	run_in(&ea, NULL, "LUDO.CREATE x red blue seats=secure", &ra, reply,
	    sizeof(reply));
	assert_int_equal(cmd_txn_commit(&ea), 0);
	assert_true(strncmp(reply, "red,", 4) == 0);
	snprintf(key, sizeof(key), "%.32s", reply + 4);
	/* Both nodes have the game in their caches. */
	snprintf(line, sizeof(line), "SEAT x red %s", key);
	run_in(&ea, sa, line, &ra, reply, sizeof(reply));
	assert_string_equal(reply, "OK");
	run_in(&eb, sb, line, &rb, reply, sizeof(reply));
	assert_string_equal(reply, "OK");

	snprintf(line, sizeof(line), "SEAT.EXCHANGE x red %s", key);
	run_in(&ea, NULL, line, &ra, ka, sizeof(ka));
	run_in(&eb, NULL, line, &rb, kb, sizeof(kb));
	assert_int_equal(strlen(ka), 32);
	assert_int_equal(strlen(kb), 32);
	assert_int_equal(ra.wait, 1);
	assert_int_equal(rb.wait, 1);
	assert_int_equal(cmd_txn_commit(&ea), 0);
	assert_int_equal(cmd_txn_commit(&eb), 0);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.reqs[0], rb.req);
	assert_int_equal(eb.conflicts, 1);
	/* Run again, as the daemon does: spent. */
	run_in(&eb, NULL, line, &rb, reply, sizeof(reply));
	assert_int_equal(cmd_txn_commit(&eb), 0);
	assert_string_equal(reply, "-NOSEAT wrong key for red in game 'x', "
	    "or a key exchanged already: an invite's key works once");
	assert_int_equal(log.n, 1);

	/* On either node: the winner's key holds the seat, no other. */
	cmd_session_free(sb);
	sb = cmd_session_new();
	for (k = key; k != NULL; k = k == key ? kb : NULL) {
		snprintf(line, sizeof(line), "SEAT x red %s", k);
		run_in(&eb, sb, line, &rb, reply, sizeof(reply));
		assert_true(strncmp(reply, "-NOSEAT wrong key", 17) == 0);
		run_in(&ea, sb, line, &ra, reply, sizeof(reply));
		assert_true(strncmp(reply, "-NOSEAT wrong key", 17) == 0);
	}
	snprintf(line, sizeof(line), "SEAT x red %s", ka);
	run_in(&eb, sb, line, &rb, reply, sizeof(reply));
	assert_string_equal(reply, "OK");
	run_in(&eb, sb, "LUDO.PLAY x red 6 1", &rb, reply, sizeof(reply));
	assert_int_equal(cmd_txn_commit(&eb), 0);
	assert_string_equal(reply, "MOVED");
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM history"), 1);
	cmd_session_free(sa);
	cmd_session_free(sb);
	cmd_txn_free(&ea);
	cmd_txn_free(&eb);
}

/* --------------------------------------------- the feed's poll, planned */

#define POLL_GAMES	1000	/* in history, 150 moves each */
#define POLL_MOVES	150
#define POLL_FOLLOWED	50	/* followed, 2 new moves each */

static int
count_fed(void *arg, const char *id, const struct move *mv)
{
	(void)id;
	(void)mv;
	(*(int *)arg)++;
	return 0;
}

/* The rows the plan read of history: each scan's rows over its loops,
 * those a filter dropped included (*seq: a sequential scan of it). */
static double
history_rows(json_t *node, int *seq)
{
	json_t		*sub;
	const char	*rel, *type;
	double		 rows = 0, loops;
	size_t		 i;

	rel = json_string_value(json_object_get(node, "Relation Name"));
	type = json_string_value(json_object_get(node, "Node Type"));
	if (rel != NULL && strcmp(rel, "history") == 0) {
		loops = json_number_value(json_object_get(node, "Actual Loops"));
		rows = (json_number_value(json_object_get(node, "Actual Rows")) +
		    json_number_value(json_object_get(node,
		    "Rows Removed by Filter")) +
		    json_number_value(json_object_get(node,
		    "Rows Removed by Index Recheck"))) * loops;
		if (type != NULL && strcmp(type, "Seq Scan") == 0)
			*seq = 1;
	}
	sub = json_object_get(node, "Plans");
	for (i = 0; i < json_array_size(sub); i++)
		rows += history_rows(json_array_get(sub, i), seq);
	return rows;
}

/* The plan auto_explain logged last for the feed's query (in the
 * cluster's server.log), or NULL. */
static json_t *
last_feed_plan(void)
{
	char		 path[1024], *text, *p;
	const char	*dir = getenv("LUDUS_TEST_PGDIR"), *q;
	json_error_t	 err;
	json_t		*plan, *found = NULL;
	FILE		*f;
	long		 n;

	snprintf(path, sizeof(path), "%s/server.log", dir != NULL ? dir : ".");
	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = xcalloc(1, (size_t)n + 1);
	if (n < 0 || fread(text, 1, (size_t)n, f) != (size_t)n)
		text[0] = '\0';
	fclose(f);
	for (p = text; (p = strstr(p, "plan:")) != NULL; p += 5) {
		plan = json_loads(p + 5, JSON_DISABLE_EOF_CHECK, &err);
		q = json_string_value(json_object_get(plan, "Query Text"));
		if (q != NULL && strstr(q, "AS w(game, after)") != NULL) {
			json_decref(found);
			found = plan;
		} else
			json_decref(plan);
	}
	free(text);
	return found;
}

/* store_feed_send() and its steps until the answer, as a loop would
 * take them, each wait bounded. */
static int
feed_read(struct store *st, size_t n, const char *const *ids,
    const int64_t *after, store_game_move_cb cb, void *arg)
{
	struct pollfd	 pfd;
	int		 rc, what, tries;

	if ((rc = store_feed_send(st, n, ids, after, 4096)) != 0)
		return rc;
	for (tries = 0; tries < 10000; tries++) {
		if ((what = store_feed_wait(st, &pfd.fd)) == 0 || pfd.fd < 0)
			return -100;
		pfd.events = (what & STORE_FEED_IN ? POLLIN : 0) |
		    (what & STORE_FEED_OUT ? POLLOUT : 0);
		if (poll(&pfd, 1, 10000) != 1)
			return -101;
		if ((rc = store_feed_step(st, cb, arg)) != STORE_PENDING)
			return rc;
	}
	return -102;
}

/* The moves fed, as "game:seq " each. */
static int
list_fed(void *arg, const char *id, const struct move *mv)
{
	char	*out = arg;
	size_t	 len = strlen(out);

	snprintf(out + len, 512 - len, "%s:%lld ", id, (long long)mv->seq);
	return 0;
}

/*
 * The feed of other nodes' moves (store_feed_send(), cluster.c) over a
 * history of 150,000 rows: its cost must follow the games followed and
 * their new moves, not the history's size.  The plan PostgreSQL ran for
 * it (auto_explain, on the store's own connection, after the prepared
 * statement has gone generic) may read of history only about the rows it
 * returns, and never scan it whole.  Nothing here is timed.
 */
static void
test_feed_poll_plan(void **state)
{
	static const char *const on[] = {
		"ALTER DATABASE ludus SET session_preload_libraries ="
		" 'auto_explain'",
		"ALTER DATABASE ludus SET auto_explain.log_min_duration = 0",
		"ALTER DATABASE ludus SET auto_explain.log_analyze = on",
		"ALTER DATABASE ludus SET auto_explain.log_format = json",
	};
	static const char *const off[] = {
		"ALTER DATABASE ludus RESET session_preload_libraries",
		"ALTER DATABASE ludus RESET auto_explain.log_min_duration",
		"ALTER DATABASE ludus RESET auto_explain.log_analyze",
		"ALTER DATABASE ludus RESET auto_explain.log_format",
	};
	char		 sql[512], err[256], ids[POLL_FOLLOWED][16];
	const char	*idp[POLL_FOLLOWED];
	int64_t		 after[POLL_FOLLOWED];
	struct store	*st;
	json_t		*plan;
	double		 rows;
	size_t		 i;
	int		 k, seq = 0, got;

	(void)state;
	snprintf(sql, sizeof(sql), "INSERT INTO games (id, kind, nplayers,"
	    " turn, winner, moves, created, updated, board, has_deck, stamp)"
	    " SELECT 'p' || i, 3, 2, 0, -1, %d, 0, 0, 'abcdefghi', 0, i"
	    " FROM generate_series(1, %d) i", POLL_MOVES, POLL_GAMES);
	assert_int_equal(pg_test_exec(sql), 0);
	snprintf(sql, sizeof(sql), "INSERT INTO history (game, seq, player,"
	    " action, result, at) SELECT 'p' || i, s, 'P1', 'a', 'P1 1 0', 0"
	    " FROM generate_series(1, %d) i, generate_series(1, %d) s",
	    POLL_GAMES, POLL_MOVES);
	assert_int_equal(pg_test_exec(sql), 0);
	assert_int_equal(pg_test_exec("ANALYZE history"), 0);
	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		assert_int_equal(pg_test_exec(on[i]), 0);
	st = test_store_at(NULL, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(st);
	for (k = 0; k < POLL_FOLLOWED; k++) {
		snprintf(ids[k], sizeof(ids[k]), "p%d", 1 + k * 17);
		idp[k] = ids[k];
		after[k] = POLL_MOVES - 2;
	}
	/* A prepared statement's plan goes generic after five runs; the
	 * feed's connection is the one the plan is of. */
	for (k = 0; k < 8; k++) {
		got = 0;
		assert_int_equal(feed_read(st, POLL_FOLLOWED, idp, after,
		    count_fed, &got), 0);
		assert_int_equal(got, 2 * POLL_FOLLOWED);
		/* Its connection is made by the first read. */
		for (i = 0; k == 0 && i < sizeof(off) / sizeof(off[0]); i++)
			assert_int_equal(pg_test_exec(off[i]), 0);
	}
	store_close(st);
	plan = last_feed_plan();
	assert_non_null(plan);
	rows = history_rows(json_object_get(plan, "Plan"), &seq);
	printf("# the feed's poll read %.0f rows of history's %d for %d games "
	    "followed (%d new moves)%s\n", rows, POLL_GAMES * POLL_MOVES,
	    POLL_FOLLOWED, 2 * POLL_FOLLOWED, seq ? ", in a Seq Scan" : "");
	json_decref(plan);
	assert_false(seq);
	assert_true(rows <= 3.0 * POLL_FOLLOWED);
}

/*
 * The feed read without waiting (store_feed_send()): it gives what the
 * waiting read gives, on a connection of its own made as it goes; one
 * read at a time; a read that a lock holds up ends on the server (its
 * statement_timeout) with a message, and the next one is served.
 */
static void
test_feed_reads_without_waiting(void **state)
{
	struct nodes	*n = *state;
	const char	*idp[3] = { "fa", "fb", "fc" };
	int64_t		 after[3] = { 1, 0, 3 };
	char		 want[512] = "", got[512] = "";
	PGconn		*pc;
	PGresult	*r;
	int		 fd;

	assert_int_equal(pg_test_exec("INSERT INTO games (id, kind, nplayers,"
	    " turn, winner, moves, created, updated, board, has_deck, stamp)"
	    " SELECT g, 3, 2, 0, -1, 3, 0, 0, 'abcdefghi', 0, 1"
	    " FROM unnest(ARRAY['fa', 'fb', 'fc']) g"), 0);
	assert_int_equal(pg_test_exec("INSERT INTO history (game, seq, player,"
	    " action, result, at) SELECT g, s, 'P1', 'a', 'P1 1 0', 0"
	    " FROM unnest(ARRAY['fa', 'fb', 'fc']) g, generate_series(1, 3) s"),
	    0);
	assert_int_equal(store_history_since(n->a, 3, idp, after, 4096,
	    list_fed, want), 0);
	assert_string_equal(want, "fa:2 fa:3 fb:1 fb:2 fb:3 ");
	assert_int_equal(store_feed_wait(n->b, &fd), 0);
	assert_int_equal(feed_read(n->b, 3, idp, after, list_fed, got), 0);
	assert_string_equal(got, want);
	/* Again, on the connection made by the first. */
	got[0] = '\0';
	assert_int_equal(feed_read(n->b, 3, idp, after, list_fed, got), 0);
	assert_string_equal(got, want);

	/* One at a time. */
	assert_int_equal(store_feed_send(n->b, 3, idp, after, 4096), 0);
	assert_int_equal(store_feed_send(n->b, 3, idp, after, 4096),
	    STORE_ERR);
	assert_non_null(strstr(store_errmsg(n->b), "runs"));
	store_feed_cancel(n->b);
	assert_int_equal(store_feed_wait(n->b, &fd), 0);

	/* Held up by a lock: refused by the server after its timeout. */
	pc = PQconnectdb(pg_test_uri());
	assert_int_equal(PQstatus(pc), CONNECTION_OK);
	PQclear(PQexec(pc, "BEGIN"));
	r = PQexec(pc, "LOCK TABLE history IN ACCESS EXCLUSIVE MODE");
	assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
	PQclear(r);
	got[0] = '\0';
	assert_int_equal(feed_read(n->b, 3, idp, after, list_fed, got),
	    STORE_ERR);
	assert_non_null(strstr(store_errmsg(n->b), "statement timeout"));
	assert_string_equal(got, "");
	PQclear(PQexec(pc, "COMMIT"));
	PQfinish(pc);
	assert_int_equal(feed_read(n->b, 3, idp, after, list_fed, got), 0);
	assert_string_equal(got, want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_turn_conflicts_with_other_node, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_feed_reads_without_waiting, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_chained_turn_conflicts_with_the_first, tp_setup,
		    tp_teardown),
		cmocka_unit_test_setup_teardown(test_conflict_is_one_requests,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_set_of_turns_checks_each_game, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_set_of_turns_missing_token_row, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_refused_turn_is_checked,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_whole_request_is_all_or_nothing, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_whole_request_inner_undo,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_read_sees_other_nodes_commit, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_create_race, tp_setup,
		    tp_teardown),
		cmocka_unit_test_setup_teardown(
		    test_history_after_own_turn_runs_again, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_stamps, tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_cmd_txn_reports_conflicts,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_seat_exchange_race,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_cmd_alone_runs_again,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_feed_poll_plan,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_match_race,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_cancel_beats_match,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_cap_across_nodes,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_rating_race,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_read_own_write,
		    tp_setup, tp_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_queue_lock,
		    tp_setup, tp_teardown),
	};

	if (!test_on_pg()) {
		printf("1..0 # SKIP the optimistic store needs PostgreSQL"
		    " (tests/pg/test_pg.pg)\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
