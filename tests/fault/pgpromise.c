/*
 * pgpromise: the promise of ludusd nodes on PostgreSQL ("a reply means the
 * turn is stored, once; a refusal means it is not") kept through the
 * races and faults that once broke it (TAP), as a black box on a real
 * server.  Started by tests/lib/pgcluster run (LUDUS_TEST_STORE and
 * LUDUS_TEST_PGDIR: the cluster, which it stops and starts itself);
 * skipped without it.
 *
 *  1. A move that conflicted (another node moved its game first) and is
 *     run again in the same pass as a command that reads a game at a
 *     barrier (SUBSCRIBE, GAME.WATCH): stored once, not run a third time
 *     on the read's account.
 *  2. The server shut down (pg_ctl stop -m fast) and started again under
 *     load, several times, its COMMITs made slow (slow_commits()): a move
 *     refused with -STORE is not stored (a COMMIT that went through is no
 *     error because the server's goodbye came after it).
 *  3. The server crashed (pg_ctl stop -m immediate) under load, its
 *     COMMITs made slow, and started again a second later, several
 *     times: no reply says that the outcome is not known (the node finds
 *     it out once the server is back), and no move refused is stored.
 *  4. A move waiting for a row lock another session holds when its
 *     connection is cut (a socat proxy): when the node says that it did
 *     not commit, it did not, though the lock is released at once after
 *     (the old session must be ended, not another one); and with the
 *     server up, no reply says that the outcome is not known.
 *  5. A node idle across a restart of the server: its first write is
 *     stored, once (its connection, broken meanwhile, is made again),
 *     not refused.
 *  6. A node loads a game (DANDY.STATE, or ludus copy) while another
 *     node's move commits between the load's statements (a session of
 *     the test holds the players table meanwhile): the state it shows is
 *     one the history made (REPLAY of some prefix), never a games row of
 *     one move with the token rows of the next, and the copy's AUDIT is
 *     empty.
 *  7. Two nodes and a game of bots, the node that plays it killed (kill
 *     -9) and started again, then stopped (SIGSTOP) and continued: the
 *     other takes the game over, and no two moves are ever closer than
 *     bot-delay (two nodes once played it, each on its own timer).
 *  8. Two nodes and a game of bots that one plays; the other started
 *     (as after a kill) with the deadline it read, its cache given a
 *     newer row, then stopped while the game moves on, and continued:
 *     its timer finds the game moved on, by a row the COMMIT finds
 *     stale, and leaves it to the other; no two moves closer than
 *     bot-delay.
 *  9. A COMMIT of lobby writes (accounts made, tickets joined and
 *     cancelled, a key changed) that the server commits and never
 *     answers (it waits for a synchronous standby that does not exist),
 *     then a crash: no reply says that the outcome is not known, and
 *     each is what is stored.
 *
 * Options: --tries N (default 10), --seed S, --only T (test T alone, the
 * others reported as skipped).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "pgplay.h"
#include "rclient.h"

static int	 tries = 10, only;
static char	 direct[600];	/* the suite's URI, no proxy */

/* A call that must succeed: its reply, noted when it is not status want
 * (NULL: any reply but an error). */
static int
call_ok(struct rconn *c, const char *want, const char *a0, const char *a1,
    const char *a2, const char *a3)
{
	struct reply	 r;
	int		 ok;

	memset(&r, 0, sizeof(r));
	ok = rc_call(c, &r, PLAY_IO_MS, a0, a1, a2, a3, NULL) == 1 &&
	    r.type != REPLY_ERROR &&
	    (want == NULL || rc_is_status(&r, want));
	if (!ok)
		fault_fail("%s %s: %s", a0, a1, fault_text(&r));
	reply_free(&r);
	return ok ? 0 : -1;
}

/* The reply a draw of card on a fresh 2-player game after first's draw
 * gets ("P2 <pos> <points>"). */
static void
second_draw(int first, int card, char *want, size_t len)
{
	struct dandy_state	 st;
	struct dandy_result	 r;

	dandy_init(&st, 2, "abcdefghi", NULL, NULL);
	if (dandy_draw(&st, first, &st, &r) == -1 ||
	    dandy_draw(&st, card, &st, &r) == -1)
		abort();
	if (r.pos == DANDY_OFF)
		snprintf(want, len, "P%d OFF %d", r.player + 1, r.points);
	else
		snprintf(want, len, "P%d %d %d", r.player + 1, r.pos + 1,
		    r.points);
}

/* HISTORY's length of a game, -1 when it cannot be read. */
static int64_t
history_len(struct rconn *c, const char *id)
{
	struct reply	 r;
	int64_t		 n = -1;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "HISTORY", id, NULL) == 1 &&
	    r.type == REPLY_ARRAY)
		n = (int64_t)r.n;
	reply_free(&r);
	return n;
}

/* Nodes a and b (b with flags, a with the cache's checking mode only if
 * check) and a connection to each: 0, or -1 (noted). */
static int
nodes_up(struct daemon *a, struct daemon *b, const char *const *flags,
    int check, struct rconn *ca, struct rconn *cb)
{
	const char	*mode = getenv("LUDUS_GAME_CACHE_CHECK");
	char		 was[64];
	int		 rc;

	if (mode == NULL || check)
		rc = daemon_launch(a, NULL);
	else {
		snprintf(was, sizeof(was), "%s", mode);
		unsetenv("LUDUS_GAME_CACHE_CHECK");
		rc = daemon_launch(a, NULL);
		setenv("LUDUS_GAME_CACHE_CHECK", was, 1);
	}
	if (rc != 0 || daemon_setup(b) != 0 || daemon_start(b, flags) != 0 ||
	    rc_open(ca, a->port) != 0 || rc_open(cb, b->port) != 0) {
		fault_fail("the nodes did not start");
		return -1;
	}
	return 0;
}

/* The connections closed, the nodes stopped (noted unless both exit 0). */
static void
nodes_down(struct daemon *a, struct daemon *b, struct rconn *ca,
    struct rconn *cb)
{
	rc_close(ca);
	rc_close(cb);
	if (daemon_teardown(a) != 0 || daemon_teardown(b) != 0)
		fault_fail("a node did not exit 0");
}

/* ----------------------------------- 1. a re-run and a barrier's read */

/*
 * Node b has games g and w cached; node a moves both, so that b's copies
 * are stale.  One connection of b's then pipelines a move of g and a
 * barrier that loads w: the move conflicts at the barrier's COMMIT and
 * is run again at once, and the barrier's load of w must not be taken as
 * part of that re-run (a stale read of it would make the re-run, stored
 * already, run a third time).
 */
static void
rerun_once(struct rconn *ca, struct rconn *cb, int port_b, int k,
    const char *barrier)
{
	char		 g[16], w[16], want[32], *buf = NULL;
	const char	*argv[3];
	size_t		 len = 0, cap = 0;
	struct rconn	 cx;
	struct reply	 r;
	int64_t		 n;

	snprintf(g, sizeof(g), "rg%d", k);
	snprintf(w, sizeof(w), "rw%d", k);
	if (call_ok(ca, "OK", "DANDY.CREATE", g, "2", "abcdefghi") != 0 ||
	    call_ok(ca, "OK", "DANDY.CREATE", w, "2", "abcdefghi") != 0 ||
	    call_ok(cb, NULL, "GAME.INFO", g, NULL, NULL) != 0 ||
	    call_ok(cb, NULL, "GAME.INFO", w, NULL, NULL) != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", g, "a", NULL) != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", w, "a", NULL) != 0)
		return;
	second_draw('a', 'h', want, sizeof(want));
	if (rc_open(&cx, port_b) != 0) {
		fault_fail("connect to node b");
		return;
	}
	argv[0] = "DANDY.DRAW";
	argv[1] = g;
	argv[2] = "h";
	rc_encode(&buf, &len, &cap, 3, argv);
	argv[0] = barrier;
	argv[1] = w;
	rc_encode(&buf, &len, &cap, 2, argv);
	if (rc_write(&cx, buf, len) != 0)
		fault_fail("send to node b");
	free(buf);
	memset(&r, 0, sizeof(r));
	if (rc_read(&cx, &r, PLAY_IO_MS) != 1 || !rc_is_status(&r, want))
		fault_fail("%s (with %s %s): got %s, want %s", g, barrier, w,
		    fault_text(&r), want);
	reply_free(&r);
	memset(&r, 0, sizeof(r));
	if (rc_read(&cx, &r, PLAY_IO_MS) != 1 || r.type == REPLY_ERROR)
		fault_fail("%s %s: %s", barrier, w, fault_text(&r));
	reply_free(&r);
	rc_close(&cx);
	if ((n = history_len(ca, g)) != 2)
		fault_fail("%s (with %s %s): %lld moves stored for 2 replies",
		    g, barrier, w, (long long)n);
}

static void
test_rerun(int tap)
{
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	int		 k, before = fault_failures;

	if (nodes_up(&a, &b, NULL, 1, &ca, &cb) != 0)
		return;
	for (k = 0; k < 2 * tries && fault_failures == before; k++)
		rerun_once(&ca, &cb, b.port, k,
		    k % 2 == 0 ? "SUBSCRIBE" : "GAME.WATCH");
	nodes_down(&a, &b, &ca, &cb);
	printf("%sok %d - a move run again at a barrier that reads a stale "
	    "game: stored once\n", fault_failures > before ? "not " : "", tap);
}

/* ------------------------------------------ 2. fast shutdown, restart */

/*
 * Each COMMIT made slow (on) or not (off): with fsync on (a cluster
 * restarted as PG_DURABLE makes it, tests/lib/pgcluster), commit_delay
 * makes it wait in its WAL flush, inside the critical section where the
 * server's signals wait too, so that a shutdown or a crash lands there
 * (where it once broke the promise) rather than only in the statements
 * before it.  The node's sessions take it from the database's settings.
 * Each test says what it needs; the cluster restarts only for a change.
 */
static void
slow_commits(int on)
{
	static const char *const sql_on[] = {
		"ALTER DATABASE ludus SET commit_delay = 20000",
		"ALTER DATABASE ludus SET commit_siblings = 0",
	};
	static const char *const sql_off[] = {
		"ALTER DATABASE ludus RESET commit_delay",
		"ALTER DATABASE ludus RESET commit_siblings",
	};
	static int	 now;
	PGconn		*pc;
	PGresult	*r;
	size_t		 i;

	if (on == now)
		return;
	now = on;
	if (on)
		setenv("PG_DURABLE", "1", 1);
	else
		unsetenv("PG_DURABLE");
	if (play_cluster("kill", "fast") != 0 ||
	    play_cluster("restart", NULL) != 0)
		fault_fail("slow commits: pgcluster kill, restart");
	pc = PQconnectdb(direct);
	for (i = 0; i < 2 && PQstatus(pc) == CONNECTION_OK; i++) {
		r = PQexec(pc, on ? sql_on[i] : sql_off[i]);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			fault_fail("%s: %s", on ? sql_on[i] : sql_off[i],
			    PQresultErrorMessage(r));
		PQclear(r);
	}
	if (PQstatus(pc) != CONNECTION_OK)
		fault_fail("slow commits: %s", PQerrorMessage(pc));
	PQfinish(pc);
}

/*
 * A node under load, the server stopped (pgcluster kill mode) at a random
 * moment of the commits in flight, within_ms, times times, and started
 * again: back_ms later by the nemesis itself, while the node waits, or
 * (back_ms 0) once the rounds are over.  No move refused may have been
 * stored (counted after each stop); every game is then played until its
 * refused moves are stored, and checked.  The replies are noted as what.
 */
static void
stops(const char *what, const char *mode, const char *prefix, int times,
    int within_ms, int back_ms)
{
	struct daemon	 d;
	struct rconn	 c;
	pid_t		 nemesis;
	int		 k, i, status, lied = 0, before = fault_failures;

	ok_replies = refused = refused_unknown = 0;
	slow_commits(1);
	if (daemon_launch(&d, NULL) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start");
		return;
	}
	for (i = 0; i < PLAY_GAMES; i++)
		play_create(&c, i, prefix);
	for (k = 0; k < times && fault_failures == before; k++) {
		if ((nemesis = fork()) == 0) {
			rc_sleep_ms(fault_rnd(&rng, within_ms));
			if (play_cluster("kill", mode) != 0)
				_exit(1);
			if (back_ms > 0) {
				rc_sleep_ms(back_ms);
				_exit(play_cluster("restart", NULL) == 0 ?
				    0 : 1);
			}
			_exit(0);
		}
		for (i = 0; i < 8; i++)
			if (play_round(&c) < 0)
				fault_fail("connection to the node lost");
		if (waitpid(nemesis, &status, 0) != nemesis || status != 0)
			fault_fail("pgcluster kill %s, restart", mode);
		if (back_ms == 0 && play_cluster("restart", NULL) != 0)
			fault_fail("pgcluster restart");
		lied += play_refused_stored(&c);
		play_settle(&c);
	}
	play_check(&c);
	rc_note("%s: %llu stored, %llu refused (%llu as not known)", what,
	    (unsigned long long)ok_replies, (unsigned long long)refused,
	    (unsigned long long)refused_unknown);
	if (lied > 0)
		fault_fail("%d moves refused had been stored", lied);
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
}

static void
test_fast_restart(int tap)
{
	int	 before = fault_failures;

	stops("fast shutdowns", "fast", "f", tries / 2 + 1, 20, 0);
	printf("%sok %d - the server shut down fast under load: no move "
	    "refused is stored\n", fault_failures > before ? "not " : "", tap);
}

/* ------------------------------------------- 4. a cut in a lock wait */

/*
 * A session of the test's own (straight to the server, not through a
 * proxy) inside a transaction that has run sql (its $1 id, if not NULL),
 * or NULL: what it locks is held until the session commits.
 */
static PGconn *
hold(const char *sql, const char *id)
{
	const char	*params[1] = { id };
	PGconn		*pc = PQconnectdb(direct);
	PGresult	*r;
	int		 ok;

	if (PQstatus(pc) != CONNECTION_OK) {
		fault_fail("holder: %s", PQerrorMessage(pc));
		PQfinish(pc);
		return NULL;
	}
	PQclear(PQexec(pc, "BEGIN"));
	r = PQexecParams(pc, sql, id != NULL ? 1 : 0, NULL,
	    id != NULL ? params : NULL, NULL, NULL, 0);
	ok = id != NULL ? PQresultStatus(r) == PGRES_TUPLES_OK &&
	    PQntuples(r) == 1 : PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok) {
		fault_fail("holder: %s", PQresultErrorMessage(r));
		PQclear(r);
		PQfinish(pc);
		return NULL;
	}
	PQclear(r);
	return pc;
}

/* The holder of game id's row. */
static PGconn *
hold_row(const char *id)
{
	return hold("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", id);
}

static void
lock_cut_once(struct rconn *c, pid_t px, int k, int *said, int *unknown)
{
	char		 id[16], at[8];
	struct reply	 r;
	pid_t		 cutter;
	PGconn		*holder;
	int64_t		 n;

	snprintf(id, sizeof(id), "l%d", k);
	if (call_ok(c, "OK", "DANDY.CREATE", id, "2", "abcdefghi") != 0 ||
	    call_ok(c, NULL, "DANDY.DRAW", id, "a", NULL) != 0 ||
	    (holder = hold_row(id)) == NULL)
		return;
	snprintf(at, sizeof(at), "1");
	if (rc_send(c, "DANDY.DRAW", id, "5", "AT", at, NULL) != 0)
		fault_fail("send");
	/* The node's COMMIT waits for the lock (busy-timeout 2 s); its
	 * connection is cut, and the lock released once the node has had
	 * the time to find out what became of it. */
	if ((cutter = fork()) == 0) {
		rc_sleep_ms(20);
		_exit(play_proxy_cut(px) > 0 ? 0 : 1);
	}
	waitpid(cutter, NULL, 0);
	rc_sleep_ms(400);
	PQclear(PQexec(holder, "COMMIT"));
	PQfinish(holder);
	memset(&r, 0, sizeof(r));
	if (rc_read(c, &r, PLAY_IO_MS) != 1) {
		fault_fail("%s: no reply", id);
		reply_free(&r);
		return;
	}
	n = history_len(c, id);
	if (rc_is_error(&r, "STORE") && r.str != NULL &&
	    strstr(r.str, "not known") != NULL)
		(*unknown)++;
	else if (rc_is_error(&r, "STORE")) {
		(*said)++;
		if (n != 1)
			fault_fail("%s: refused (%s), and stored (%lld moves)",
			    id, r.str, (long long)n);
	} else if (r.type != REPLY_STATUS || n != 2)
		fault_fail("%s: %s, and %lld moves stored", id, fault_text(&r),
		    (long long)n);
	reply_free(&r);
}

static void
test_lock_cut(int tap)
{
	static const char *const flags[] = { "--busy-timeout", "2000", NULL };
	struct daemon	 d;
	struct rconn	 c;
	char		 uri[600];
	pid_t		 px;
	int		 port = play_free_port(), k, said = 0, unknown = 0;
	int		 before = fault_failures;

	slow_commits(0);
	play_proxy_uri(uri, sizeof(uri), port);
	px = play_proxy_start(port);
	rc_sleep_ms(300);
	setenv("LUDUS_TEST_STORE", uri, 1);
	if (daemon_launch(&d, flags) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start behind the proxy");
		kill(px, SIGKILL);
		return;
	}
	for (k = 0; k < tries && fault_failures == before; k++)
		lock_cut_once(&c, px, k, &said, &unknown);
	rc_note("cut in a lock wait %d times: %d said not committed, %d not "
	    "known", k, said, unknown);
	/* The server stays up: what became of each COMMIT can be told. */
	if (unknown > 0)
		fault_fail("%d replies said the outcome is not known", unknown);
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
	kill(px, SIGKILL);
	play_proxy_cut(px);
	printf("%sok %d - a cut in a lock wait: \"did not commit\" is true\n",
	    fault_failures > before ? "not " : "", tap);
}

/* ------------------------------------------ 5. idle across a restart */

static void
test_idle_restart(int tap)
{
	struct daemon	 d;
	struct rconn	 c;
	char		 id[16];
	int		 k, before = fault_failures;

	slow_commits(0);
	if (daemon_launch(&d, NULL) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start");
		return;
	}
	for (k = 0; k < 3 && fault_failures == before; k++) {
		snprintf(id, sizeof(id), "i%d", k);
		if (call_ok(&c, "OK", "DANDY.CREATE", id, "2",
		    "abcdefghi") != 0)
			break;
		if (play_cluster("kill", k == 1 ? "immediate" : "fast") != 0 ||
		    play_cluster("restart", NULL) != 0)
			fault_fail("pgcluster kill, restart");
		/* The node's connections broke while it had nothing to do;
		 * past the pause of its reconnects (its watch of deadlines
		 * found the server down), the first write must find them. */
		rc_sleep_ms(1000);
		if (call_ok(&c, NULL, "DANDY.DRAW", id, "a", NULL) == 0 &&
		    history_len(&c, id) != 1)
			fault_fail("%s: one move answered, %lld stored", id,
			    (long long)history_len(&c, id));
	}
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
	printf("%sok %d - a node idle across a restart: its first write is "
	    "stored once\n", fault_failures > before ? "not " : "", tap);
}

/* ----------------------------------------- 3. a crash in the COMMITs */

static void
test_crash(int tap)
{
	int	 before = fault_failures;

	stops("crashes", "immediate", "k", tries / 3 + 1, 40, 1000);
	if (refused_unknown > 0)
		fault_fail("%llu replies said the outcome is not known",
		    (unsigned long long)refused_unknown);
	printf("%sok %d - the server crashed in the COMMITs: every outcome "
	    "found out, no refusal stored\n",
	    fault_failures > before ? "not " : "", tap);
}

/* --------------------------------------------- 6. one moment per read */

/* A reply flattened to one line. */
static void
flat(const struct reply *r, char *buf, size_t len)
{
	size_t	 i, at = 0;

	buf[0] = '\0';
	for (i = 0; r->type == REPLY_ARRAY && i < r->n && at + 1 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s/",
		    fault_text(&r->elem[i]));
}

/* 1 when state is REPLAY of some prefix of game id's history. */
static int
ever_was(struct rconn *c, const char *id, const char *state)
{
	char		 line[1024], k[24];
	struct reply	 r;
	int64_t		 n = play_moves_of(c, id), i;
	int		 found = 0;

	for (i = 0; i <= n && !found; i++) {
		snprintf(k, sizeof(k), "%lld", (long long)i);
		memset(&r, 0, sizeof(r));
		if (rc_call(c, &r, PLAY_IO_MS, "REPLAY", id, k, NULL) != 1 ||
		    r.type != REPLY_ARRAY)
			fault_fail("REPLAY %s %s: %s", id, k, fault_text(&r));
		flat(&r, line, sizeof(line));
		found = strcmp(line, state) == 0;
		reply_free(&r);
	}
	return found;
}

/*
 * A session of the test's own that holds the players table, or NULL: a
 * load of a game that has read the games row waits there, for as long as
 * the session says, while another node's move (which touches neither
 * players nor that read's lock) commits.
 */
static PGconn *
hold_players(void)
{
	return hold("LOCK TABLE players IN ACCESS EXCLUSIVE MODE", NULL);
}

/* A move of game id through ca, while its load (its reply read by the
 * caller) waits for the holder; the holder lets go after. */
static void
move_under(struct rconn *ca, const char *id, PGconn *holder)
{
	rc_sleep_ms(300);		/* the load has read the games row */
	call_ok(ca, NULL, "DANDY.DRAW", id, "c", NULL);
	PQclear(PQexec(holder, "COMMIT"));
	PQfinish(holder);
}

/* DANDY.STATE on node b while node a moves the game in the middle of
 * b's load: the state is one the history made. */
static void
state_once(struct rconn *ca, struct rconn *cb, int k)
{
	char		 id[16], line[1024];
	struct reply	 r;
	PGconn		*holder;

	snprintf(id, sizeof(id), "s%d", k);
	if (call_ok(ca, "OK", "DANDY.CREATE", id, "3", "abcdefghi") != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", id, "a", NULL) != 0 ||
	    (holder = hold_players()) == NULL)
		return;
	if (rc_send(cb, "DANDY.STATE", id, NULL) != 0)
		fault_fail("send STATE");
	move_under(ca, id, holder);
	memset(&r, 0, sizeof(r));
	if (rc_read(cb, &r, PLAY_IO_MS) != 1 || r.type != REPLY_ARRAY)
		fault_fail("STATE %s: %s", id, fault_text(&r));
	flat(&r, line, sizeof(line));
	reply_free(&r);
	if (!ever_was(ca, id, line))
		fault_fail("STATE %s read a state no move made: %s", id, line);
}

/* 1 when a session of the copy (its application_name) has run the count
 * of games it starts with: it is connected and prepared. */
static int
copy_counted(void)
{
	PGconn		*pc = PQconnectdb(direct);
	PGresult	*r;
	int		 yes;

	r = PQexec(pc, "SELECT 1 FROM pg_stat_activity WHERE application_name"
	    " = 'pgpromise-copy' AND query LIKE 'SELECT kind, count(*)%'");
	yes = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0;
	PQclear(r);
	PQfinish(pc);
	return yes;
}

/*
 * ludus copy while node a moves a game in the middle of the copy's load
 * of it: the copy's AUDIT (its exit status) says it is one moment.  The
 * players table is held once the copy has prepared its statements (it
 * prepares them on connecting, which the hold would stop too) and while
 * it makes its target, which it does before it loads the game.
 */
static void
copy_once(struct rconn *ca, const char *dir, int k)
{
	char		 id[16], uri[700], cmd[12000];
	const char	*top = getenv("top_builddir");
	PGconn		*holder = NULL;
	pid_t		 child;
	int64_t		 t0;
	int		 status;

	snprintf(id, sizeof(id), "c%d", k);
	if (call_ok(ca, "OK", "DANDY.CREATE", id, "3", "abcdefghi") != 0 ||
	    call_ok(ca, NULL, "DANDY.DRAW", id, "a", NULL) != 0)
		return;
	snprintf(uri, sizeof(uri), "%s&application_name=pgpromise-copy",
	    direct);
	snprintf(cmd, sizeof(cmd), "exec %s/src/ludus copy '%s' "
	    "'%s/copy%d.db' >%s/copy%d.out 2>&1", top != NULL ? top : ".",
	    uri, dir, k, dir, k);
	if ((child = fork()) == 0)
		_exit(system(cmd) == 0 ? 0 : 1);
	for (t0 = rc_now_ms(); rc_now_ms() - t0 < 10000 && !copy_counted();)
		;
	if ((holder = hold_players()) != NULL)
		move_under(ca, id, holder);
	if (waitpid(child, &status, 0) != child || status != 0)
		fault_fail("ludus copy while a node moves: not one moment "
		    "(see %s/copy%d.out)", dir, k);
}

/*
 * Node a, the writer, runs without the cache's checking mode
 * (LUDUS_GAME_CACHE_CHECK, which CI sets): its move must come from its
 * cache and read nothing of the players table, which the holder keeps
 * from every read; the checking mode would read the rows as well, wait
 * for the holder, which waits for the move, until the lock timeout.
 * Node b, the reader, keeps the mode it was given.
 */
static void
test_one_moment(int tap)
{
	static const char *const flags[] = { "--busy-timeout", "5000", NULL };
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	int		 k, before = fault_failures;

	slow_commits(0);
	if (nodes_up(&a, &b, flags, 0, &ca, &cb) != 0)
		return;
	for (k = 0; k < 3 && fault_failures == before; k++)
		state_once(&ca, &cb, k);
	if (fault_failures == before)
		copy_once(&ca, b.dir, 0);
	nodes_down(&a, &b, &ca, &cb);
	printf("%sok %d - a read while another node writes: one moment, a "
	    "copy too\n", fault_failures > before ? "not " : "", tap);
}

/* ---------------------------------------------- 7. bots after failover */

/* Runs statements on a session of the test's own: 0, or -1 (noted). */
static int
exec_all(const char *const *sql, size_t n)
{
	PGconn		*pc = PQconnectdb(direct);
	PGresult	*r;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		r = PQexec(pc, sql[i]);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			fault_fail("%s: %s", sql[i], PQresultErrorMessage(r));
			rc = -1;
		}
		PQclear(r);
	}
	PQfinish(pc);
	return rc;
}

/*
 * When each move is stored, to the microsecond (history's at is in
 * seconds): a trigger of the test's own notes the server's clock at each
 * history row's insert, which only a committed move keeps.  A second one
 * notes each change of the game's deadline with the server's clock of the
 * write: a bot's deadline is the node's clock at the move before it plus
 * bot-delay, so a short gap between two moves can be told to be the
 * node's clock or a timer armed too early.
 */
static int
note_move_times(int on)
{
	static const char *const sql_on[] = {
		"CREATE TABLE move_times (game text, seq bigint, at_us bigint, pid int)",
		"CREATE FUNCTION note_move() RETURNS trigger LANGUAGE plpgsql"
		" AS $$ BEGIN INSERT INTO move_times VALUES (NEW.game,"
		" NEW.seq, (extract(epoch FROM clock_timestamp()) * 1000000)"
		"::bigint, pg_backend_pid()); RETURN NEW; END $$",
		"CREATE TRIGGER note_move AFTER INSERT ON history FOR EACH ROW"
		" EXECUTE FUNCTION note_move()",
		"CREATE TABLE turn_times (game text, deadline bigint,"
		" at_us bigint, pid int)",
		"CREATE FUNCTION note_turn() RETURNS trigger LANGUAGE plpgsql"
		" AS $$ BEGIN INSERT INTO turn_times VALUES (NEW.id,"
		" NEW.deadline, (extract(epoch FROM"
		" clock_timestamp()) * 1000000)::bigint, pg_backend_pid());"
		" RETURN NEW; END $$",
		"CREATE TRIGGER note_turn AFTER UPDATE OF deadline ON games"
		" FOR EACH ROW WHEN (OLD.deadline IS DISTINCT FROM"
		" NEW.deadline) EXECUTE FUNCTION note_turn()",
	};
	static const char *const sql_off[] = {
		"DROP TRIGGER note_move ON history",
		"DROP FUNCTION note_move()",
		"DROP TABLE move_times",
		"DROP TRIGGER note_turn ON games",
		"DROP FUNCTION note_turn()",
		"DROP TABLE turn_times",
	};

	return on ? exec_all(sql_on, sizeof(sql_on) / sizeof(sql_on[0])) :
	    exec_all(sql_off, sizeof(sql_off) / sizeof(sql_off[0]));
}

/* Lists every stored deadline of game id in the order the server wrote
 * them: the deadline (the node's clock) and the server's clock of the
 * write, each with its gap from the one before. */
static void
note_turn_times(PGconn *pc, const char *id)
{
	const char	*params[1] = { id };
	PGresult	*r;
	int64_t		 v[2], prev[2] = { 0, 0 };
	const char	*errstr;
	int		 i, j, bad;

	r = PQexecParams(pc, "SELECT deadline, at_us, pid FROM"
	    " turn_times WHERE game = $1 AND deadline IS NOT NULL ORDER BY"
	    " at_us", 1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		rc_note("deadlines of %s: %s", id, PQresultErrorMessage(r));
		PQclear(r);
		return;
	}
	for (i = 0; i < PQntuples(r); i++) {
		for (j = 0, bad = 0; j < 2; j++)
			bad |= parse_int64(PQgetvalue(r, i, j), 0, INT64_MAX,
			    &v[j], &errstr);
		if (bad != 0)
			break;
		rc_note("deadline %d: %lld (%lld ms after the one before), "
		    "stored %lld ms after the one before, session %s", i + 1,
		    (long long)v[0], (long long)(i > 0 ? v[0] - prev[0] : 0),
		    (long long)(i > 0 ? (v[1] - prev[1]) / 1000 : 0),
		    PQgetvalue(r, i, 2));
		memcpy(prev, v, sizeof(prev));
	}
	PQclear(r);
}

/* The gaps between the stored moves of game id shorter than min_ms (the
 * first few noted); the longest in *longest.  When there is one, every
 * move is noted, its gap and its session, so that a failure says which
 * node played what when. */
static int
short_gaps(const char *id, int64_t min_ms, int64_t *longest, int *moves)
{
	const char	*params[1] = { id };
	PGconn		*pc = PQconnectdb(direct);
	PGresult	*r;
	int64_t		 at, prev = 0, gap;
	const char	*errstr;
	int		 i, n = 0;

	*longest = 0;
	r = PQexecParams(pc, "SELECT at_us, pid FROM move_times WHERE game = $1"
	    " ORDER BY seq", 1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		fault_fail("moves of %s: %s", id, PQresultErrorMessage(r));
	*moves = PQntuples(r);
	for (i = 0; i < PQntuples(r); i++) {
		if (parse_int64(PQgetvalue(r, i, 0), 0, INT64_MAX, &at,
		    &errstr) != 0)
			fault_fail("move_times.at_us: %s", errstr);
		gap = (at - prev) / 1000;
		if (i > 0 && gap < min_ms && n++ < 5)
			rc_note("moves %d and %d of %s %lld ms apart (sessions "
			    "%s, %s)", i, i + 1, id, (long long)gap,
			    PQgetvalue(r, i - 1, 1), PQgetvalue(r, i, 1));
		if (i > 0 && gap > *longest)
			*longest = gap;
		prev = at;
	}
	for (i = 0, prev = 0; n > 0 && i < PQntuples(r); i++) {
		if (parse_int64(PQgetvalue(r, i, 0), 0, INT64_MAX, &at,
		    &errstr) != 0)
			break;
		rc_note("move %d: %lld ms after the one before, session %s",
		    i + 1, (long long)(i > 0 ? (at - prev) / 1000 : 0),
		    PQgetvalue(r, i, 1));
		prev = at;
	}
	PQclear(r);
	if (n > 0)
		note_turn_times(pc, id);
	PQfinish(pc);
	return n;
}

static void
test_bot_pacing(int tap)
{
	static const char *const flags[] = { "--bot-delay", "100", NULL };
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	struct reply	 r;
	int64_t		 longest;
	int		 n, moves, before = fault_failures;

	slow_commits(0);
	if (daemon_launch(&a, flags) != 0 || daemon_setup(&b) != 0 ||
	    daemon_start(&b, flags) != 0 || rc_open(&ca, a.port) != 0) {
		fault_fail("the nodes did not start");
		return;
	}
	if (note_move_times(1) != 0)
		return;
	memset(&r, 0, sizeof(r));
	if (rc_call(&ca, &r, PLAY_IO_MS, "LUDO.CREATE", "bp", "a", "b", "c",
	    "d", "bots=a:first,b:first,c:first,d:first", "dice=server",
	    NULL) != 1 || !rc_is_status(&r, "OK"))
		fault_fail("create: %s", fault_text(&r));
	reply_free(&r);
	rc_close(&ca);
	/* Node a plays the game; killed, node b takes it over; a starts
	 * again, arming the deadlines stored; a stopped, b plays it; a goes
	 * on, its old timer firing. */
	rc_sleep_ms(1000);
	daemon_stop(&a, SIGKILL);
	rc_sleep_ms(3000);
	if (daemon_start(&a, flags) != 0)
		fault_fail("node a did not start again");
	rc_sleep_ms(1500);
	kill(a.pid, SIGSTOP);
	rc_sleep_ms(3000);
	kill(a.pid, SIGCONT);
	rc_sleep_ms(1500);
	/* A move's time is its INSERT's on the server's clock, not the
	 * node's timer (on the precise clock, server.c): 5 ms are given. */
	n = short_gaps("bp", 95, &longest, &moves);
	rc_note("%d bot moves, %d of them less than bot-delay after the one "
	    "before, the longest gap %lld ms", moves, n, (long long)longest);
	if (n > 0)
		fault_fail("%d bot moves came less than bot-delay after "
		    "the one before", n);
	if (rc_open(&cb, b.port) != 0 ||
	    rc_call(&cb, &r, PLAY_IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT: %s", fault_text(&r));
	reply_free(&r);
	rc_close(&cb);
	if (daemon_teardown(&a) != 0 || daemon_teardown(&b) != 0)
		fault_fail("a node did not exit 0");
	note_move_times(0);
	printf("%sok %d - bots after a node was killed, then stopped: one "
	    "node plays, at bot-delay\n", fault_failures > before ? "not " :
	    "", tap);
}

/* --------------------------------------- 8. a stale timer's look */

/* The seq of game id's last stored move, -1 when it cannot be read. */
static int64_t
stored_seq(PGconn *pc, const char *id)
{
	const char	*params[1] = { id };
	PGresult	*r;
	const char	*errstr;
	int64_t		 n = -1;

	r = PQexecParams(pc, "SELECT coalesce(max(seq), 0) FROM history"
	    " WHERE game = $1", 1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 ||
	    parse_int64(PQgetvalue(r, 0, 0), 0, INT64_MAX, &n, &errstr) != 0)
		n = -1;
	PQclear(r);
	return n;
}

/* Waits until game id has a move past seq, for at most ms: its seq, or
 * -1 (noted). */
static int64_t
seq_past(PGconn *pc, const char *id, int64_t seq, int ms)
{
	int64_t	 end = rc_now_ms() + ms, n;

	while ((n = stored_seq(pc, id)) >= 0 && n <= seq &&
	    rc_now_ms() < end)
		rc_sleep_ms(2);
	if (n <= seq) {
		fault_fail("%s: no move past %lld in %d ms", id, (long long)seq,
		    ms);
		return -1;
	}
	return n;
}

/* A field of a node's INFO (games_autoplay: the games it has a timer
 * armed for; conflicts), -1 when it cannot be read. */
static long long
info_of(struct rconn *c, const char *field)
{
	struct reply	 r;
	const char	*p;
	size_t		 n = strlen(field);
	long long	 v = -1;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "INFO", NULL) == 1 &&
	    r.type == REPLY_BULK)
		for (p = r.str; p != NULL && v < 0; p = strchr(p, '\n')) {
			if (*p == '\n')
				p++;
			if (strncmp(p, field, n) == 0 && p[n] == ':')
				v = strtoll(p + n + 1, NULL, 10);
		}
	reply_free(&r);
	return v;
}

/*
 * Node b plays a game of bots; node a starts (as after a kill) and arms
 * the deadline it finds stored; b moves, a client's read puts that newer
 * row in a's cache, and a is stopped before its timer fires; b moves
 * again, and a goes on: its timer fires on the cached row, finds the game
 * moved on and lets it be, and the COMMIT finds what it looked at stale
 * (a conflict of a move never made).  That must leave the game to b:
 * a's timer once came back from the conflict as one for "whatever is
 * due" and played the next move at once, a fraction of bot-delay after
 * b's.  Each step must land before a's timer fires (bot-delay after its
 * start): when it does not, the node is started again.
 */
static void
test_stale_look(int tap)
{
	static const char *const flags[] = { "--bot-delay", "800", NULL };
	const int	 delay = 800;
	struct daemon	 a, b;
	struct rconn	 ca, cb;
	struct reply	 r;
	PGconn		*pc = NULL;
	int64_t		 seq, longest, t0;
	long long	 armed = -1;
	int		 n, moves, k, set = 0, before = fault_failures;

	slow_commits(0);
	if (daemon_launch(&b, flags) != 0 || daemon_setup(&a) != 0 ||
	    rc_open(&cb, b.port) != 0) {
		fault_fail("the nodes did not start");
		return;
	}
	if (note_move_times(1) != 0)
		return;
	pc = PQconnectdb(direct);
	memset(&r, 0, sizeof(r));
	if (rc_call(&cb, &r, PLAY_IO_MS, "LUDO.CREATE", "bs", "a", "b", "c",
	    "d", "bots=a:first,b:first,c:first,d:first", "dice=server",
	    NULL) != 1 || !rc_is_status(&r, "OK"))
		fault_fail("create: %s", fault_text(&r));
	reply_free(&r);
	for (k = 0; k < 5 && !set && fault_failures == before; k++) {
		/* Started a third of bot-delay after one of b's moves: b's
		 * next one comes well before a's timer. */
		if (k > 0)
			daemon_stop(&a, SIGKILL);
		if ((seq = seq_past(pc, "bs", stored_seq(pc, "bs"),
		    3 * delay)) < 0)
			break;
		rc_sleep_ms(delay / 3);
		t0 = rc_now_ms();
		if (daemon_start(&a, flags) != 0 || rc_open(&ca, a.port) != 0) {
			fault_fail("node a did not start");
			break;
		}
		/* The move b makes after a read the deadlines, then a's
		 * cache given the row of that move. */
		if ((seq = seq_past(pc, "bs", stored_seq(pc, "bs"),
		    3 * delay)) < 0)
			break;
		call_ok(&ca, NULL, "GAME.INFO", "bs", NULL, NULL);
		armed = info_of(&ca, "games_autoplay");
		kill(a.pid, SIGSTOP);
		set = armed == 1 && rc_now_ms() - t0 < delay;
		rc_close(&ca);
		if (!set) {
			rc_note("try %d: node a's timer fired before it was "
			    "stopped (%lld armed, %lld ms): again", k + 1,
			    armed, (long long)(rc_now_ms() - t0));
			kill(a.pid, SIGCONT);
		}
	}
	if (!set)
		fault_fail("node a was never stopped with its timer armed");
	/* b moves once more: a's cached row is stale; a goes on a quarter
	 * of bot-delay later, its timer fires. */
	if (set && seq_past(pc, "bs", seq, 3 * delay) > 0) {
		rc_sleep_ms(delay / 4);
		kill(a.pid, SIGCONT);
	}
	rc_sleep_ms(5 * delay);
	n = short_gaps("bs", delay - 5, &longest, &moves);
	rc_note("%d bot moves, %d of them less than bot-delay after the one "
	    "before, the longest gap %lld ms", moves, n, (long long)longest);
	if (n > 0)
		fault_fail("%d bot moves came less than bot-delay after "
		    "the one before", n);
	if (rc_open(&ca, a.port) == 0) {
		/* What a looked at was found stale: the case was made. */
		if (set && info_of(&ca, "conflicts") < 1)
			fault_fail("node a's timer found no conflict");
		if ((armed = info_of(&ca, "games_autoplay")) != 0)
			fault_fail("node a holds %lld timer(s): b plays the "
			    "game", armed);
		rc_close(&ca);
	} else
		fault_fail("node a does not answer");
	memset(&r, 0, sizeof(r));
	if (rc_call(&cb, &r, PLAY_IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT: %s", fault_text(&r));
	reply_free(&r);
	rc_close(&cb);
	PQfinish(pc);
	if (daemon_teardown(&a) != 0 || daemon_teardown(&b) != 0)
		fault_fail("a node did not exit 0");
	note_move_times(0);
	printf("%sok %d - a node's timer that found the game moved on by a "
	    "stale row leaves it to the other node\n", fault_failures >
	    before ? "not " : "", tap);
}

/* ------------------------------------ 9. lobby writes in a crash */

#define LOBBY_BATCH	20

/*
 * A COMMIT that commits and is never answered: with a synchronous
 * standby named that does not exist, the server writes each COMMIT to
 * its WAL, then waits for the standby before it answers.  on 0 takes the
 * name away for the server's next start only (no reload), so that the
 * crash of the test comes while the COMMIT waits.
 */
static void
standby_wait(int on)
{
	PGconn		*pc = PQconnectdb(direct);
	PGresult	*r;

	r = PQexec(pc, on ? "ALTER SYSTEM SET synchronous_standby_names ="
	    " 'nobody'" : "ALTER SYSTEM RESET synchronous_standby_names");
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		fault_fail("standby: %s", PQresultErrorMessage(r));
	PQclear(r);
	if (on) {
		r = PQexec(pc, "SELECT pg_reload_conf()");
		if (PQresultStatus(r) != PGRES_TUPLES_OK)
			fault_fail("reload: %s", PQresultErrorMessage(r));
		PQclear(r);
	}
	PQfinish(pc);
}

/* The tickets waiting in the queues of Ludo, or -1. */
static int64_t
lobby_waiting(struct rconn *c)
{
	struct reply	 r;
	int64_t		 n = 0;
	size_t		 i;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "MATCH.LIST", "ludo", NULL) != 1 ||
	    r.type != REPLY_ARRAY)
		n = -1;
	for (i = 0; n >= 0 && i < r.n; i++)
		if (r.elem[i].type == REPLY_ARRAY && r.elem[i].n >= 3 &&
		    r.elem[i].elem[2].type == REPLY_INT)
			n += r.elem[i].elem[2].integer;
	reply_free(&r);
	return n;
}

/* A reply that must be of type want: 0; 1 for a refusal (-STORE, which
 * promises nothing is stored); or -1 (noted, "not known" counted). */
static int
lobby_reply(struct rconn *c, enum reply_type want, struct reply *r,
    int *unknown)
{
	memset(r, 0, sizeof(*r));
	if (rc_read(c, r, PLAY_IO_MS) != 1) {
		fault_fail("lobby: no reply");
		return -1;
	}
	if (r->type == want)
		return 0;
	if (r->type == REPLY_ERROR && strstr(fault_text(r), "not known"))
		(*unknown)++;
	else if (rc_is_error(r, "STORE"))
		return 1;
	else
		fault_fail("lobby: %s", fault_text(r));
	return -1;
}

/* Requests sent in one write (one pass of the node, so one COMMIT) while
 * the server holds COMMITs unanswered; then the crash, and the start. */
static void
lost_commit(struct rconn *c, const char *buf, size_t len)
{
	standby_wait(1);
	/* The server's processes take the setting between statements. */
	rc_sleep_ms(200);
	if (rc_write(c, buf, len) != 0)
		fault_fail("lobby: cannot send");
	/* The COMMIT is in the WAL, waiting for the standby. */
	rc_sleep_ms(1000);
	standby_wait(0);
	if (play_cluster("kill", "immediate") != 0 ||
	    play_cluster("restart", NULL) != 0)
		fault_fail("pgcluster kill immediate, restart");
}

/*
 * Accounts made and tickets joined, a ticket cancelled, a key changed,
 * each begun in a COMMIT the server commits and never answers
 * (standby_wait()), then the server crashed and started again: the node
 * finds out that each committed, and answers the request as stored, and
 * every other reply is true too (a refusal, while the outcome is found
 * out, stores nothing).
 */
static void
test_lobby_crash(int tap)
{
	static const char *const flags[] = { "--max-tickets", "0", NULL };
	struct daemon	 d;
	struct rconn	 c;
	struct reply	 r;
	char		 name[LOBBY_BATCH][24], key[64], id[24];
	int		 made[LOBBY_BATCH], joined = 0;
	char		*buf = NULL;
	const char	*argv[3];
	size_t		 len = 0, cap = 0;
	int		 i, unknown = 0, before = fault_failures;
	int64_t		 waiting;

	slow_commits(0);
	memset(&r, 0, sizeof(r));
	if (daemon_launch(&d, flags) != 0 || rc_open(&c, d.port) != 0) {
		fault_fail("the node did not start");
		goto out;
	}
	if (rc_call(&c, &r, PLAY_IO_MS, "PLAYER.CREATE", "lobbyist", NULL) !=
	    1 || r.type != REPLY_BULK) {
		fault_fail("lobby: %s", fault_text(&r));
		reply_free(&r);
		goto stop;
	}
	snprintf(key, sizeof(key), "%.*s", (int)r.len, r.str);
	reply_free(&r);
	call_ok(&c, "OK", "PLAYER.LOGIN", "lobbyist", key, NULL);
	/* A ticket, whose join draws ticket ids ahead (a sequence's, whose
	 * own COMMIT would wait for the standby too). */
	if (rc_call(&c, &r, PLAY_IO_MS, "MATCH.JOIN", "ludo", "players=4",
	    NULL) != 1 || r.type != REPLY_INT)
		fault_fail("lobby: %s", fault_text(&r));
	snprintf(id, sizeof(id), "%lld", (long long)r.integer);
	reply_free(&r);

	/* The first request is in the COMMIT never answered; those after
	 * it may be in the COMMITs after the crash, refused. */
	for (i = 0; i < LOBBY_BATCH; i++) {
		snprintf(name[i], sizeof(name[i]), "lc-%d", i);
		argv[0] = "PLAYER.CREATE";
		argv[1] = name[i];
		rc_encode(&buf, &len, &cap, 2, argv);
		argv[0] = "MATCH.JOIN";
		argv[1] = "ludo";
		argv[2] = "players=4";
		rc_encode(&buf, &len, &cap, 3, argv);
	}
	lost_commit(&c, buf, len);
	for (i = 0; i < LOBBY_BATCH; i++) {
		made[i] = lobby_reply(&c, REPLY_BULK, &r, &unknown);
		reply_free(&r);
		if (lobby_reply(&c, REPLY_INT, &r, &unknown) == 0)
			joined++;
		reply_free(&r);
	}
	if (made[0] != 0)
		fault_fail("lobby: the account made in the COMMIT never "
		    "answered was not answered as made");

	len = 0;
	argv[0] = "MATCH.CANCEL";
	argv[1] = id;
	rc_encode(&buf, &len, &cap, 2, argv);
	lost_commit(&c, buf, len);
	if (lobby_reply(&c, REPLY_STATUS, &r, &unknown) != 0)
		fault_fail("lobby: the cancel in a COMMIT never answered was "
		    "not answered as made: %s", fault_text(&r));
	reply_free(&r);

	len = 0;
	argv[0] = "PLAYER.KEY";
	argv[1] = "lobbyist";
	rc_encode(&buf, &len, &cap, 2, argv);
	lost_commit(&c, buf, len);
	if (lobby_reply(&c, REPLY_BULK, &r, &unknown) == 0)
		snprintf(key, sizeof(key), "%.*s", (int)r.len, r.str);
	else
		fault_fail("lobby: the new key in a COMMIT never answered was "
		    "not answered: %s", fault_text(&r));
	reply_free(&r);
	free(buf);
	if (unknown > 0)
		fault_fail("lobby: %d replies said the outcome is not known",
		    unknown);

	/* What was said is what is stored. */
	for (i = 0; i < LOBBY_BATCH; i++) {
		if (rc_call(&c, &r, PLAY_IO_MS, "PLAYER.INFO", name[i], NULL) !=
		    1 || (made[i] == 0 ? r.type != REPLY_ARRAY :
		    !rc_is_error(&r, "NOACCOUNT")))
			fault_fail("lobby: account %s %s: %s", name[i],
			    made[i] == 0 ? "made" : "refused", fault_text(&r));
		reply_free(&r);
	}
	if ((waiting = lobby_waiting(&c)) != joined)
		fault_fail("lobby: %d tickets joined, %lld waiting", joined,
		    (long long)waiting);
	if (rc_call(&c, &r, PLAY_IO_MS, "MATCH.WAIT", id, "1", NULL) != 1 ||
	    !rc_is_error(&r, "STATE"))
		fault_fail("lobby: ticket %s should be cancelled: %s", id,
		    fault_text(&r));
	reply_free(&r);
	call_ok(&c, "OK", "PLAYER.LOGIN", "lobbyist", key, NULL);
	rc_note("lobby: a pipeline of %d accounts and joins, a cancel, a new "
	    "key, each begun in a COMMIT never answered: %d joins stored, "
	    "every reply true", LOBBY_BATCH, joined);
stop:
	rc_close(&c);
	if (daemon_teardown(&d) != 0)
		fault_fail("the node did not exit 0");
out:
	printf("%sok %d - COMMITs of lobby writes committed and never "
	    "answered: every outcome found out and told\n",
	    fault_failures > before ? "not " : "", tap);
}

static void	(*const tests[])(int) = {
	test_rerun,
	test_fast_restart,
	test_crash,
	test_lock_cut,
	test_idle_restart,
	test_one_moment,
	test_bot_pacing,
	test_stale_look,
	test_lobby_crash,
};

int
main(int argc, char **argv)
{
	static const char *const names[] = { "--tries", "--only" };
	int		*const vals[] = { &tries, &only };
	char		 uri[600];
	int		 i;

	if (play_options(argc, argv, names, vals, 2) != 0)
		return 2;
	if (play_init() != 0) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/pgpromise.pg)\n");
		return 0;
	}
	snprintf(uri, sizeof(uri), "%s", pg_test_uri());
	snprintf(direct, sizeof(direct), "%s", uri);
	printf("1..%zu\n", sizeof(tests) / sizeof(tests[0]));
	for (i = 0; i < (int)(sizeof(tests) / sizeof(tests[0])); i++) {
		if (only != 0 && only != i + 1) {
			printf("ok %d # SKIP --only %d\n", i + 1, only);
			continue;
		}
		setenv("LUDUS_TEST_STORE", uri, 1);
		tests[i](i + 1);
	}
	play_free();
	return fault_failures == 0 ? 0 : 1;
}
