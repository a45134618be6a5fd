/*
 * multilobby: the matchmaker on several ludusd nodes on one PostgreSQL
 * database, as a black box (TAP).
 *
 *	tests/fault/multilobby [--nodes N] [--tickets T] [--seed S]
 *	    [--no-kill]
 *
 * Started by tests/lib/pgcluster run (LUDUS_TEST_STORE); skipped
 * without it.  N nodes (3) share the store; T accounts (1000) each join
 * one Ludo ticket (players=2, bots-after=2) through a node picked at
 * random, pipelined, in batches.  Half way one node is killed (SIGKILL)
 * with a batch of logins and joins in flight: those joins are sent again
 * through another node (a join whose reply was lost may have been
 * stored: that account may then have two tickets, and both must be
 * matched).  Then every ticket must be matched, by whichever node holds
 * the queue (the killed node's lock goes with its connection): MATCH.LIST
 * empties, every ticket the store holds is matched exactly once, into a
 * seat of its game that its account holds, no seat of a game is two
 * tickets', and every ticket acknowledged is one of them.  A MATCH.WAIT
 * through another node than the join's answers its game.
 */
#include <sys/types.h>

#include <libpq-fe.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "rclient.h"

#define MAX_NODES	5
#define MAX_TICKETS	20000
#define BATCH		50
#define IO_MS		30000
#define MATCHED_MS	60000

static struct daemon	 D[MAX_NODES];
static struct rconn	 C[MAX_NODES];
static int		 alive[MAX_NODES];
static int		 nodes = 3, ntickets = 1000, kill_one = 1;
static uint64_t		 rng = 1;

struct acct {
	char		 name[16];
	char		 key[40];
	int64_t		 ticket;	/* acknowledged, 0: none yet */
	int		 node;		/* joined through */
};

static struct acct	*A;

static int
pick(int not)
{
	int	 i, n = 0, live[MAX_NODES];

	for (i = 0; i < nodes; i++)
		if (alive[i] && i != not)
			live[n++] = i;
	return n == 0 ? -1 : live[fault_rnd(&rng, n)];
}

static int
start_nodes(void)
{
	static const char *const flags[] = { "--create-rate", "0",
	    "--bot-delay", "0", "--match-interval", "100", "--http-port", "0",
	    NULL };
	int	 i;

	for (i = 0; i < nodes; i++)
		if (daemon_setup(&D[i]) != 0)
			return -1;
	for (i = 0; i < nodes; i++) {
		if (daemon_start(&D[i], flags) != 0 ||
		    rc_open(&C[i], D[i].port) != 0)
			return -1;
		alive[i] = 1;
	}
	return 0;
}

static void
stop_nodes(void)
{
	int	 i;

	for (i = 0; i < nodes; i++) {
		if (alive[i]) {
			rc_close(&C[i]);
			if (daemon_finish(&D[i]) != 0)
				fault_fail("node %d did not exit 0", i);
		}
		daemon_cleanup(&D[i]);
	}
}

/* Every account, made through node 0, pipelined. */
static int
create_accounts(void)
{
	struct reply	 r;
	char		*out = NULL;
	size_t		 len = 0, cap = 0;
	const char	*argv[2];
	int		 i;

	for (i = 0; i < ntickets; i++) {
		snprintf(A[i].name, sizeof(A[i].name), "p%d", i);
		argv[0] = "PLAYER.CREATE";
		argv[1] = A[i].name;
		rc_encode(&out, &len, &cap, 2, argv);
	}
	if (rc_write(&C[0], out, len) != 0) {
		free(out);
		return -1;
	}
	free(out);
	for (i = 0; i < ntickets; i++) {
		memset(&r, 0, sizeof(r));
		if (rc_read(&C[0], &r, IO_MS) != 1 || r.type != REPLY_BULK ||
		    r.len != 32) {
			fault_fail("PLAYER.CREATE %s: %s", A[i].name,
			    fault_text(&r));
			reply_free(&r);
			return -1;
		}
		memcpy(A[i].key, r.str, 33);
		reply_free(&r);
	}
	return 0;
}

/* A login and a join per account of [from, to), through node k. */
static int
send_joins(int k, int from, int to)
{
	char		*out = NULL;
	size_t		 len = 0, cap = 0;
	const char	*argv[4];
	int		 i, rc;

	for (i = from; i < to; i++) {
		argv[0] = "PLAYER.LOGIN";
		argv[1] = A[i].name;
		argv[2] = A[i].key;
		rc_encode(&out, &len, &cap, 3, argv);
		argv[0] = "MATCH.JOIN";
		argv[1] = "ludo";
		argv[2] = "players=2";
		argv[3] = "bots-after=2";
		rc_encode(&out, &len, &cap, 4, argv);
		A[i].node = k;
	}
	rc = rc_write(&C[k], out, len);
	free(out);
	return rc;
}

static int
read_joins(int k, int from, int to)
{
	struct reply	 r;
	int		 i, j;

	for (i = from; i < to; i++)
		for (j = 0; j < 2; j++) {
			memset(&r, 0, sizeof(r));
			if (rc_read(&C[k], &r, IO_MS) != 1 ||
			    (j == 0 && !rc_is_status(&r, "OK")) ||
			    (j == 1 && r.type != REPLY_INT)) {
				fault_fail("node %d, %s: %s", k, A[i].name,
				    fault_text(&r));
				reply_free(&r);
				return -1;
			}
			if (j == 1)
				A[i].ticket = r.integer;
			reply_free(&r);
		}
	return 0;
}

/* The node that matches the queue now (INFO's match_queues_held), so
 * that its death is the one taken over; -1 if none says so. */
static int
holder(void)
{
	struct reply	 r;
	const char	*p;
	int		 k, held;

	for (k = 0; k < nodes; k++) {
		if (!alive[k])
			continue;
		memset(&r, 0, sizeof(r));
		held = rc_call(&C[k], &r, IO_MS, "INFO", "lobby", NULL) == 1 &&
		    r.type == REPLY_BULK &&
		    (p = strstr(r.str, "match_queues_held:")) != NULL &&
		    p[18] != '0';
		reply_free(&r);
		if (held)
			return k;
	}
	return -1;
}

static void
join_all(void)
{
	int	 i, to, k, killed = 0;

	for (i = 0; i < ntickets && fault_failures == 0; i = to) {
		to = i + BATCH < ntickets ? i + BATCH : ntickets;
		k = pick(-1);
		if (kill_one && !killed && i >= ntickets / 2 &&
		    (k = holder()) < 0) {
			rc_note("no node says it holds the queue");
			k = pick(-1);
		}
		if (send_joins(k, i, to) != 0) {
			fault_fail("node %d: a batch not sent", k);
			return;
		}
		if (kill_one && !killed && i >= ntickets / 2) {
			/* In flight, unanswered: sent again elsewhere. */
			rc_note("kill -9 of node %d, the queue's matcher, with "
			    "%d joins in flight", k, to - i);
			kill(D[k].pid, SIGKILL);
			daemon_stop(&D[k], 0);
			alive[k] = 0;
			rc_close(&C[k]);
			killed = 1;
			k = pick(-1);
			if (send_joins(k, i, to) != 0) {
				fault_fail("node %d: a batch not resent", k);
				return;
			}
		}
		(void)read_joins(k, i, to);
	}
}

/* -------------------------------------------------------------- checks */

static PGresult *
query(PGconn *pc, const char *sql)
{
	PGresult	*r = PQexec(pc, sql);

	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		fault_fail("%s: %s", sql, PQresultErrorMessage(r));
		PQclear(r);
		return NULL;
	}
	return r;
}

static int64_t
count(PGconn *pc, const char *sql)
{
	PGresult	*r = query(pc, sql);
	int64_t		 n = -1;

	if (r != NULL && PQntuples(r) == 1)
		n = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return n;
}

/* MATCH.LIST empty on a live node, within MATCHED_MS. */
static void
wait_matched(void)
{
	struct reply	 r;
	int64_t		 t0 = rc_now_ms();
	int		 k = pick(-1), n = -1;

	while (rc_now_ms() - t0 < MATCHED_MS) {
		memset(&r, 0, sizeof(r));
		if (rc_call(&C[k], &r, IO_MS, "MATCH.LIST", NULL) != 1 ||
		    r.type != REPLY_ARRAY) {
			fault_fail("MATCH.LIST: %s", fault_text(&r));
			reply_free(&r);
			return;
		}
		n = (int)r.n;
		reply_free(&r);
		if (n == 0)
			break;
		rc_sleep_ms(100);
	}
	rc_note("every ticket matched %lld ms after the last join",
	    (long long)(rc_now_ms() - t0));
	if (n != 0)
		fault_fail("tickets still waiting after %d ms", MATCHED_MS);
}

static void
check_store(void)
{
	PGconn		*pc = PQconnectdb(pg_test_uri());
	PGresult	*r;
	const char	*params[2];
	char		 id[24];
	int64_t		 n;
	int		 i, found;

	if (PQstatus(pc) != CONNECTION_OK) {
		fault_fail("connect: %s", PQerrorMessage(pc));
		PQfinish(pc);
		return;
	}
	n = count(pc, "SELECT count(*) FROM tickets");
	rc_note("%lld tickets stored for %d accounts, %lld games",
	    (long long)n, ntickets, (long long)count(pc,
	    "SELECT count(DISTINCT game) FROM tickets"));
	if (n < ntickets)
		fault_fail("%lld tickets stored, %d acknowledged",
		    (long long)n, ntickets);
	if ((n = count(pc, "SELECT count(*) FROM tickets WHERE state <> 1"))
	    != 0)
		fault_fail("%lld tickets not matched", (long long)n);
	/* Each ticket's seat is its account's, in its game ... */
	if ((n = count(pc, "SELECT count(*) FROM tickets t LEFT JOIN"
	    " game_accounts a ON a.game = t.game AND a.idx = t.seat"
	    " WHERE a.account IS DISTINCT FROM t.account")) != 0)
		fault_fail("%lld tickets in a seat not their account's",
		    (long long)n);
	/* ... no seat of a game is two tickets' ... */
	if ((n = count(pc, "SELECT count(*) FROM (SELECT game, seat FROM"
	    " tickets GROUP BY game, seat HAVING count(*) > 1) s")) != 0)
		fault_fail("%lld seats taken by two tickets", (long long)n);
	/* ... every person's seat is a ticket's, and a game's seats are
	 * its players' rows. */
	if ((n = count(pc, "SELECT count(*) FROM game_accounts a"
	    " JOIN accounts c ON c.name = a.account AND c.bot IS NULL"
	    " LEFT JOIN tickets t ON t.game = a.game AND t.seat = a.idx"
	    " WHERE t.id IS NULL")) != 0)
		fault_fail("%lld seats of persons with no ticket", (long long)n);
	if ((n = count(pc, "SELECT count(*) FROM game_accounts a LEFT JOIN"
	    " players p ON p.game = a.game AND p.idx = a.idx"
	    " WHERE p.game IS NULL")) != 0)
		fault_fail("%lld seats with no player", (long long)n);
	/* Every acknowledged ticket is stored and matched. */
	for (i = 0, found = 0; i < ntickets; i++) {
		snprintf(id, sizeof(id), "%lld", (long long)A[i].ticket);
		params[0] = id;
		params[1] = A[i].name;
		r = PQexecParams(pc, "SELECT 1 FROM tickets WHERE id = $1"
		    " AND account = $2 AND state = 1", 2, NULL, params, NULL,
		    NULL, 0);
		found += PQresultStatus(r) == PGRES_TUPLES_OK &&
		    PQntuples(r) == 1;
		PQclear(r);
	}
	if (found != ntickets)
		fault_fail("%d of %d acknowledged tickets matched", found,
		    ntickets);
	r = query(pc, "SELECT count(*) FROM games g WHERE NOT EXISTS"
	    " (SELECT 1 FROM tickets t WHERE t.game = g.id)");
	if (r != NULL && strcmp(PQgetvalue(r, 0, 0), "0") != 0)
		fault_fail("%s games with no ticket", PQgetvalue(r, 0, 0));
	PQclear(r);
	PQfinish(pc);
}

/* MATCH.WAIT through another node than the join's: its game. */
static void
check_wait(void)
{
	struct reply	 r;
	char		 t[24];
	int		 i, k;

	for (i = 0; i < ntickets; i += ntickets / 10 + 1) {
		k = pick(A[i].node);
		if (k < 0)
			k = pick(-1);
		snprintf(t, sizeof(t), "%lld", (long long)A[i].ticket);
		memset(&r, 0, sizeof(r));
		if (rc_call(&C[k], &r, IO_MS, "PLAYER.LOGIN", A[i].name,
		    A[i].key, NULL) != 1 || !rc_is_status(&r, "OK")) {
			fault_fail("login %s: %s", A[i].name, fault_text(&r));
			reply_free(&r);
			continue;
		}
		reply_free(&r);
		if (rc_call(&C[k], &r, IO_MS, "MATCH.WAIT", t, "5000",
		    NULL) != 1 || r.type != REPLY_ARRAY || r.n != 3 ||
		    strcmp(r.elem[1].str, A[i].name) != 0)
			fault_fail("MATCH.WAIT %s on node %d: %s", t, k,
			    fault_text(&r));
		reply_free(&r);
	}
}

static int
num(const char *s, int min, int max)
{
	int64_t		 v;
	const char	*errstr;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) != 0) {
		fprintf(stderr, "multilobby: bad number '%s'\n", s ? s : "");
		exit(2);
	}
	return (int)v;
}

int
main(int argc, char **argv)
{
	int	 i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--nodes") == 0)
			nodes = num(argv[++i], 2, MAX_NODES);
		else if (strcmp(argv[i], "--tickets") == 0)
			ntickets = num(argv[++i], 2, MAX_TICKETS);
		else if (strcmp(argv[i], "--seed") == 0)
			rng = (uint64_t)num(argv[++i], 0, INT32_MAX);
		else if (strcmp(argv[i], "--no-kill") == 0)
			kill_one = 0;
		else {
			fprintf(stderr, "usage: multilobby [--nodes N] "
			    "[--tickets T] [--seed S] [--no-kill]\n");
			return 2;
		}
	}
	if (pg_test_uri() == NULL) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/multilobby.pg)\n");
		return 0;
	}
	printf("1..1\n");
	A = xcalloc((size_t)ntickets, sizeof(*A));
	rc_note("seed %llu, %d nodes, %d tickets", (unsigned long long)rng,
	    nodes, ntickets);
	if (start_nodes() != 0 || create_accounts() != 0) {
		fault_fail("the nodes did not start");
		for (i = 0; i < nodes; i++)
			daemon_dump_log(&D[i]);
	} else {
		join_all();
		wait_matched();
		check_store();
		check_wait();
	}
	stop_nodes();
	printf("%sok 1 - %d nodes, %d tickets%s: each matched exactly once, "
	    "into its account's seat\n", fault_failures == 0 ? "" : "not ",
	    nodes, ntickets, kill_one ? ", a node killed" : "");
	free(A);
	return fault_failures == 0 ? 0 : 1;
}
