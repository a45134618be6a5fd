/*
 * jepsen: several ludusd nodes on one PostgreSQL, checked the way Jepsen
 * checks a database (TAP).
 *
 *	tests/fault/jepsen [--duration S] [--nodes N] [--proxied P]
 *	    [--clients C] [--games G] [--bots B] [--faults LIST]
 *	    [--fault-every MS] [--stop-ms MS] [--outage-ms MS]
 *	    [--bot-delay MS] [--timeout MS] [--preload ROWS] [--copy-every S]
 *	    [--seed S] [--figures]
 *
 * Started by tests/lib/pgcluster run (LUDUS_TEST_STORE, LUDUS_TEST_PGDIR:
 * the cluster, which the nemesis restarts); skipped without it.
 *
 * N nodes (3) serve one database, the last P (1) of them through a socat
 * proxy.  C client threads (30) send requests to random nodes on G shared
 * DandyLand games (50) without a deck (they never end), each request
 * recorded as an operation: when it was invoked and completed, what it
 * sent, what came back (ok, an error, or no reply: unknown).  The mix
 * (jepsen_client.c): draws with AT seq, plain draws, a plain draw
 * pipelined with a SUBSCRIBE or GAME.WATCH of another game on a node
 * whose cache of both is stale, and reads (DANDY.STATE, GAME.INFO,
 * HISTORY, XRANGE).  On every node a watcher follows every game and a
 * probe PINGs (jepsen_watch.c); B games of bots (3) play at bot-delay;
 * ROWS history rows of filler games (0) make the history as large as a
 * service's; and every S seconds (10) a live "ludus copy" of the database
 * is audited.  Meanwhile the nemesis (jepsen_nodes.c) injects a fault
 * every MS ms (4000, give or take half): kill -9 of a node, SIGSTOP, pg_ctl
 * restart -m fast and -m immediate, proxy cuts, a proxy outage, a cut
 * while the games' rows are locked (LIST: all, none, or names among
 * kill,stop,pgfast,pgimm,cut,outage,lockcut).
 *
 * Then the checker (jepsen_check.c, jepsen_reads.c) reads what is stored,
 * from PostgreSQL directly, and checks against it: every acknowledged
 * move stored once, every error-answered one absent, every unknown one
 * at most once (and which); every history gap-free and legal (the engine
 * replays it) and its stored state the replay's; no read of a state that
 * never existed (torn) or older than a move acknowledged before it
 * (stale), no reply that contradicts the rows; the watchers' events the
 * rows, in order, once; all nodes answering every game as stored, and
 * exiting cleanly; no PING kept waiting over 5 s and another node's
 * moves at a watcher within a second (p99); the bots' moves
 * bot-delay apart; the live copies whole.  The figures (operations,
 * faults, lost, duplicated, error-applied, torn, unknown...) are printed
 * as TAP comments, or as a table with --figures (bench/jepsen).
 *
 * The seed is printed first: --seed gives the same choices again (the
 * threads' interleaving is the machine's).
 */
#include <sys/types.h>

#include <libpq-fe.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/reply.h"
#include "util/util.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "rclient.h"
#include "jepsen.h"

#define FILLER_ROWS	5000	/* history rows per filler game */

struct jopt	 jo = {
	.nodes = 3, .proxied = 1, .clients = 30, .games = 50, .bots = 3,
	.duration = 60, .fault_ms = 4000, .stop_ms = 5000, .outage_ms = 3000,
	.bot_delay = 300, .io_ms = J_IO_MS_DEFAULT, .copy_s = 10,
};
struct jcluster	 J = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t	 srng;
static const char *const op_name[OP_NTYPES] = {
	"draw", "draw AT", "pipelined", "STATE", "GAME.INFO", "HISTORY",
	"XRANGE"
};

/* JEPSEN_DEBUG: how long each phase took, on stderr. */
static void
phase(const char *what)
{
	static int64_t	 t0;

	if (t0 == 0)
		t0 = rc_now_us();
	if (getenv("JEPSEN_DEBUG") != NULL)
		fprintf(stderr, "jepsen: %7.2f s %s\n", (rc_now_us() - t0) / 1e6,
		    what);
}

static int
usage(void)
{
	fprintf(stderr, "usage: jepsen [--duration S] [--nodes N] "
	    "[--proxied P] [--clients C]\n"
	    "    [--games G] [--bots B] [--faults LIST] [--fault-every MS]\n"
	    "    [--stop-ms MS] [--outage-ms MS] [--bot-delay MS] "
	    "[--timeout MS]\n"
	    "    [--preload ROWS] [--copy-every S] [--seed S] [--figures]\n"
	    "LIST: all, none, or of kill,stop,pgfast,pgimm,cut,outage,"
	    "lockcut\n");
	return 2;
}

static int
options(int argc, char **argv)
{
	static const struct {
		const char	*name;
		int		*v;
		int64_t		 min, max;
	} iopt[] = {
		{ "--duration", &jo.duration, 1, 86400 },
		{ "--nodes", &jo.nodes, 1, J_MAX_NODES },
		{ "--proxied", &jo.proxied, 0, J_MAX_NODES },
		{ "--clients", &jo.clients, 1, J_MAX_CLIENTS },
		{ "--games", &jo.games, 2, J_MAX_GAMES },
		{ "--bots", &jo.bots, 0, J_MAX_BOTS },
		{ "--fault-every", &jo.fault_ms, 100, 3600000 },
		{ "--stop-ms", &jo.stop_ms, 1, 600000 },
		{ "--outage-ms", &jo.outage_ms, 1, 600000 },
		{ "--bot-delay", &jo.bot_delay, 10, 60000 },
		{ "--timeout", &jo.io_ms, 100, 600000 },
		{ "--copy-every", &jo.copy_s, 0, 86400 },
	};
	const char	*errstr;
	int64_t		 v;
	size_t		 k;
	int		 i, seeded = 0;

	jo.faults = (1u << F_NKINDS) - 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--figures") == 0) {
			jo.figures = 1;
			continue;
		}
		if (i + 1 >= argc)
			return usage();
		if (strcmp(argv[i], "--faults") == 0) {
			if (fault_parse(argv[++i], &jo.faults) != 0)
				return usage();
			continue;
		}
		if (strcmp(argv[i], "--seed") == 0 ||
		    strcmp(argv[i], "--preload") == 0) {
			if (parse_int64(argv[i + 1], 0, INT64_MAX, &v,
			    &errstr) != 0)
				return usage();
			if (argv[i][2] == 's') {
				jo.seed = (uint64_t)v;
				seeded = 1;
			} else {
				jo.preload = v;
			}
			i++;
			continue;
		}
		for (k = 0; k < sizeof(iopt) / sizeof(iopt[0]); k++)
			if (strcmp(argv[i], iopt[k].name) == 0)
				break;
		if (k == sizeof(iopt) / sizeof(iopt[0]) ||
		    parse_int64(argv[++i], iopt[k].min, iopt[k].max, &v,
		    &errstr) != 0)
			return usage();
		*iopt[k].v = (int)v;
	}
	if (jo.proxied > jo.nodes || jo.nodes < 2)
		return usage();
	if (!seeded)
		jo.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	return 0;
}

/* ------------------------------------------------------------ the games */

static void
random_board(char *b, size_t len)
{
	size_t	 n = 4 + (size_t)fault_rnd(&srng, 9), i;

	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		b[i] = (char)('a' + fault_rnd(&srng, 9));
	b[n] = '\0';
}

static int
create(struct rconn *c, const char *const *argv, int argc)
{
	char	*buf = NULL;
	size_t	 len = 0, cap = 0;
	struct reply r;
	int	 ok;

	rc_encode(&buf, &len, &cap, argc, argv);
	memset(&r, 0, sizeof(r));
	ok = rc_write(c, buf, len) == 0 && rc_read(c, &r, 30000) == 1 &&
	    rc_is_status(&r, "OK");
	if (!ok)
		fault_fail("%s %s: %s", argv[0], argv[1], fault_text(&r));
	reply_free(&r);
	free(buf);
	return ok ? 0 : -1;
}

/* The clients' games and the bots', each created on a node of its own. */
static int
make_games(void)
{
	static const char cards[] = "abcdefghi123456789";
	struct rconn	 c[J_MAX_NODES];
	char		 np[8], deck[DANDY_DECK_MAX + 8];
	const char	*argv[6];
	int		 i, k, rc = 0;

	for (i = 0; i < jo.nodes; i++)
		if (rc_open(&c[i], node_port(i)) != 0)
			return -1;
	for (i = 0; i < jo.games && rc == 0; i++) {
		struct jgame *g = &J.game[i];

		snprintf(g->id, sizeof(g->id), "j%d", i);
		g->np = 2 + fault_rnd(&srng, 3);
		random_board(g->board, sizeof(g->board));
		snprintf(np, sizeof(np), "%d", g->np);
		argv[0] = "DANDY.CREATE";
		argv[1] = g->id;
		argv[2] = np;
		argv[3] = g->board;
		rc = create(&c[i % jo.nodes], argv, 4);
	}
	for (i = 0; i < jo.bots && rc == 0; i++) {
		struct jgame *g = &J.bot[i];

		snprintf(g->id, sizeof(g->id), "b%d", i);
		g->np = 2;
		random_board(g->board, sizeof(g->board));
		for (k = 0; k < DANDY_DECK_MAX; k++)
			g->deck[k] = cards[fault_rnd(&srng, 18)];
		g->deck[k] = '\0';
		snprintf(deck, sizeof(deck), "deck=%s", g->deck);
		argv[0] = "DANDY.CREATE";
		argv[1] = g->id;
		argv[2] = "2";
		argv[3] = g->board;
		argv[4] = deck;
		argv[5] = "bots=P1:first,P2:first";
		rc = create(&c[i % jo.nodes], argv, 6);
	}
	for (i = 0; i < jo.nodes; i++)
		rc_close(&c[i]);
	return rc;
}

/*
 * Filler games whose histories make the history table as large as a
 * service's after months (--preload rows): created through a node, their
 * moves played by the engine here and written with COPY, the games and
 * tokens rows set to the last state, so that every game still audits
 * clean.  Then ANALYZE, as autovacuum would.
 */
static int
preload(void)
{
	struct rconn		 c;
	struct dandy_state	 st;
	struct dandy_result	 res;
	PGconn			*pc;
	PGresult		*r;
	char			 id[16], line[160], v[5][24];
	const char		*pv[5];
	int64_t			 left = jo.preload, k, n;
	int			 f, p, rc = -1;
	time_t			 now = time(NULL);

	if (left <= 0)
		return 0;
	if (rc_open(&c, node_port(0)) != 0)
		return -1;
	pc = jpg_connect();
	if (PQstatus(pc) != CONNECTION_OK)
		goto out;
	for (f = 0; left > 0; f++, left -= n) {
		const char *argv[4] = { "DANDY.CREATE", id, "2", "abcdefgh" };

		n = left < FILLER_ROWS ? left : FILLER_ROWS;
		snprintf(id, sizeof(id), "f%d", f);
		if (create(&c, argv, 4) != 0)
			goto out;
		dandy_init(&st, 2, "abcdefgh", NULL, NULL);
		PQclear(PQexec(pc, "COPY history (game, seq, player, action, "
		    "result, at) FROM STDIN"));
		for (k = 1; k <= n; k++) {
			int card = "abcdefghi123456789"[fault_rnd(&srng, 18)];

			dandy_draw(&st, card, &st, &res);
			if (res.pos == DANDY_OFF)
				snprintf(line, sizeof(line), "%s\t%lld\tP%d\t%c\t"
				    "P%d OFF %d\t%lld\n", id, (long long)k,
				    res.player + 1, card, res.player + 1,
				    res.points, (long long)now);
			else
				snprintf(line, sizeof(line), "%s\t%lld\tP%d\t%c\t"
				    "P%d %d %d\t%lld\n", id, (long long)k,
				    res.player + 1, card, res.player + 1,
				    res.pos + 1, res.points, (long long)now);
			PQputCopyData(pc, line, (int)strlen(line));
		}
		PQputCopyEnd(pc, NULL);
		r = PQgetResult(pc);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			fault_fail("preload: %s", PQresultErrorMessage(r));
			PQclear(r);
			goto out;
		}
		PQclear(r);
		snprintf(v[0], sizeof(v[0]), "%s", id);
		snprintf(v[1], sizeof(v[1]), "%lld", (long long)n);
		snprintf(v[2], sizeof(v[2]), "%d", st.turn);
		snprintf(v[3], sizeof(v[3]), "%d", st.drawn);
		for (p = 0; p < 4; p++)
			pv[p] = v[p];
		PQclear(PQexecParams(pc, "UPDATE games SET moves = $2, "
		    "turn = $3, aux = $4, stamp = stamp + 1 WHERE id = $1", 4,
		    NULL, pv, NULL, NULL, 0));
		for (p = 0; p < 2; p++) {
			snprintf(v[1], sizeof(v[1]), "%d", p);
			snprintf(v[2], sizeof(v[2]), "%d", st.pos[p]);
			snprintf(v[3], sizeof(v[3]), "%d", st.points[p]);
			PQclear(PQexecParams(pc, "UPDATE tokens SET pos = $3, "
			    "points = $4 WHERE game = $1 AND player = $2 AND "
			    "token = 0", 4, NULL, pv, NULL, NULL, 0));
		}
	}
	J.nfiller = f;
	PQclear(PQexec(pc, "ANALYZE"));
	rc = 0;
out:
	if (rc != 0)
		fault_fail("preload: %s", PQerrorMessage(pc));
	PQfinish(pc);
	rc_close(&c);
	return rc;
}

/* ------------------------------------------------------------- the end */

/*
 * The server's log, for a node that gave up on a connection in the
 * middle of a COMMIT and then ended no session: pg_terminate_backend of
 * a PID that is no backend's.  The old session then lives on and may
 * commit after the node has answered that it did not.
 */
static uint64_t
unended_sessions(void)
{
	char		 path[PATH_MAX], line[1024];
	FILE		*f;
	uint64_t	 n = 0;

	snprintf(path, sizeof(path), "%s/server.log", J.pgdir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "is not a PostgreSQL backend process") != NULL)
			n++;
	fclose(f);
	if (n > 0)
		fault_fail("%llu times a node ended no session after a broken "
		    "COMMIT (the server's log: \"PID ... is not a PostgreSQL "
		    "backend process\")", (unsigned long long)n);
	return n;
}

/*
 * The store's "not known" claims nothing, and a client that does not use
 * AT cannot resend safely after it: a node says it only when the server
 * stayed out of its reach longer than it looks for an outcome.  When
 * every fault healed well within that, each such answer is one the
 * store could have told.
 */
static uint64_t
needless_told(const struct figures *fg, const struct faultlog *fl)
{
	int64_t	 longest = 0;
	size_t	 k;

	for (k = 0; k < fl->n; k++)
		if (fl->f[k].t1 - fl->f[k].t0 > longest)
			longest = fl->f[k].t1 - fl->f[k].t0;
	if (fg->unknown_told == 0 || longest > (int64_t)J_OUTCOME_MS * 500)
		return 0;
	fault_fail("%llu draws answered \"the outcome is not known\" (stored "
	    "%llu, not %llu, cannot tell %llu), though no fault lasted over "
	    "%.1f s", (unsigned long long)fg->unknown_told,
	    (unsigned long long)fg->told_applied,
	    (unsigned long long)fg->told_not,
	    (unsigned long long)fg->told_unresolved, longest / 1e6);
	return fg->unknown_told;
}

/* AUDIT of the whole database by the CLI on it, the nodes stopped. */
static uint64_t
audit_all(void)
{
	char		 cmd[2 * PATH_MAX + 1024], line[256];
	FILE		*p;
	uint64_t	 n = 0;

	snprintf(cmd, sizeof(cmd), "'%s' --store '%s' AUDIT 2>&1", J.ludus,
	    J.uri);
	if ((p = popen(cmd, "r")) == NULL)
		return 1;
	while (fgets(line, sizeof(line), p) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || strstr(line, "(empty") != NULL)
			continue;
		if (n++ < 5)
			fault_fail("AUDIT: %s", line);
	}
	if (pclose(p) != 0 && n == 0)
		n = 1;
	return n;
}

static void
tap(int *t, uint64_t bad, const char *what)
{
	printf("%sok %d - %s\n", bad ? "not " : "", ++*t, what);
}

static void
report(const struct figures *fg, const struct faultlog *fl, int64_t secs)
{
	uint64_t	 w = 0, r = 0, o;
	int		 t = 0, k, e;
	char		 faults[256];
	size_t		 len = 0;

	for (k = 0; k < OP_NTYPES; k++)
		for (e = 0; e < OUT_NOUTCOMES; e++) {
			o = fg->ops[k][e];
			if (k <= OP_PIPE)
				w += o;
			else
				r += o;
		}
	faults[0] = '\0';
	for (k = 0; k < F_NKINDS; k++)
		if (fg->faults[k] > 0)
			len += (size_t)snprintf(faults + len, sizeof(faults) -
			    len, "%s%llu %s", len ? ", " : "",
			    (unsigned long long)fg->faults[k], fault_name[k]);
	rc_note("%llu operations in %lld s: %llu draws (%llu with AT, %llu "
	    "plain, %llu pipelined), %llu reads; %llu rows stored",
	    (unsigned long long)(w + r), (long long)secs,
	    (unsigned long long)w, (unsigned long long)(fg->ops[OP_DRAW_AT][0] +
	    fg->ops[OP_DRAW_AT][1] + fg->ops[OP_DRAW_AT][2] +
	    fg->ops[OP_DRAW_AT][3]), (unsigned long long)(fg->ops[OP_DRAW][0] +
	    fg->ops[OP_DRAW][1] + fg->ops[OP_DRAW][2] + fg->ops[OP_DRAW][3]),
	    (unsigned long long)(fg->ops[OP_PIPE][0] + fg->ops[OP_PIPE][1] +
	    fg->ops[OP_PIPE][2] + fg->ops[OP_PIPE][3]), (unsigned long long)r,
	    (unsigned long long)fg->rows);
	for (k = 0; k < OP_NTYPES; k++)
		rc_note("%-10s ok %7llu, error %7llu, no reply %5llu, \"not "
		    "known\" %5llu", op_name[k],
		    (unsigned long long)fg->ops[k][OUT_OK],
		    (unsigned long long)fg->ops[k][OUT_FAIL],
		    (unsigned long long)fg->ops[k][OUT_LOST],
		    (unsigned long long)fg->ops[k][OUT_TOLD]);
	rc_note("faults: %s; draws that found every card of their game "
	    "held: %llu", faults[0] ? faults : "none",
	    (unsigned long long)clients_full);
	rc_note("unknown: %llu without a reply (stored %llu, not %llu, "
	    "cannot tell %llu), %llu answered \"not known\" (stored %llu, "
	    "not %llu, cannot tell %llu)",
	    (unsigned long long)fg->unknown_lost,
	    (unsigned long long)fg->lost_applied,
	    (unsigned long long)fg->lost_not,
	    (unsigned long long)fg->lost_unresolved,
	    (unsigned long long)fg->unknown_told,
	    (unsigned long long)fg->told_applied,
	    (unsigned long long)fg->told_not,
	    (unsigned long long)fg->told_unresolved);
	for (k = 0; k < err_count(); k++)
		rc_note("error: -%s", err_text(k));
	rc_note("feed: %llu moves to other nodes' watchers, p50 %.1f ms, p99 "
	    "%.1f ms, max %.1f ms; PING p99 %.1f ms, max %.1f ms",
	    (unsigned long long)fg->feed_n, fg->feed_p50 / 1e3,
	    fg->feed_p99 / 1e3, fg->feed_max / 1e3, fg->ping_p99 / 1e3,
	    fg->ping_max / 1e3);
	rc_note("bots: %llu gaps, the shortest under %.1f ms; live copies: %d, "
	    "%d failed, %d games torn%s%s", (unsigned long long)fg->bot_gaps,
	    fg->bot_min_gap / 1e3, fl->copies, fl->copies_failed,
	    fl->torn_copies, fl->torn_copy[0] ? ", first " : "",
	    fl->torn_copy);
	tap(&t, fg->lost + fg->duplicated + fg->phantom, "every acknowledged "
	    "move is stored, and every move at most once");
	tap(&t, fg->err_applied + fg->unended, "no move answered with an "
	    "error is stored, and a session given up on is ended");
	tap(&t, fg->contradicted + fg->early + fg->told_needless, "no reply "
	    "contradicts what is stored or calls unknown what the store can "
	    "tell, and each comes in its order");
	tap(&t, fg->torn + fg->stale, "no read shows a state that never "
	    "existed, or one older than a move acknowledged before it");
	tap(&t, fg->illegal + fg->gaps + fg->audit, "every history is "
	    "gap-free and legal, every stored state its history's");
	tap(&t, fg->disagree + (uint64_t)fg->unclean_exits, "all nodes answer "
	    "every game as stored, and exit cleanly");
	tap(&t, fg->ev_wrong + fg->ev_gap + fg->ev_repeat, "every watcher gets "
	    "the stored moves in order, once each");
	tap(&t, fg->stalls + (uint64_t)fg->feed_slow, "the nodes keep up: no "
	    "PING waits over 5 s, other nodes' moves reach a watcher within "
	    "1 s (p99)");
	tap(&t, fg->bot_short, "the bots keep their pace across faults");
	tap(&t, fg->torn_copies, "a live copy copies whole games");
	if (!jo.figures)
		return;
	printf("\n| figure | value |\n|---|---:|\n");
	printf("| operations (draws + reads) | %llu (%llu + %llu) |\n",
	    (unsigned long long)(w + r), (unsigned long long)w,
	    (unsigned long long)r);
	printf("| faults | %llu (%s) |\n", (unsigned long long)fl->n, faults);
	printf("| lost | %llu |\n| duplicated | %llu |\n", (unsigned long long)
	    fg->lost, (unsigned long long)(fg->duplicated + fg->phantom));
	printf("| sessions given up on and not ended | %llu |\n",
	    (unsigned long long)fg->unended);
	printf("| error-applied | %llu |\n| torn | %llu |\n",
	    (unsigned long long)fg->err_applied,
	    (unsigned long long)(fg->torn + fg->torn_copies));
	printf("| stale | %llu |\n| contradicted | %llu |\n",
	    (unsigned long long)fg->stale, (unsigned long long)fg->contradicted);
	printf("| replies after another game's events | %llu |\n",
	    (unsigned long long)fg->early);
	printf("| \"not known\" though every fault was short | %llu |\n",
	    (unsigned long long)fg->told_needless);
	printf("| unknown: no reply (stored / not / cannot tell) | %llu (%llu "
	    "/ %llu / %llu) |\n", (unsigned long long)fg->unknown_lost,
	    (unsigned long long)fg->lost_applied,
	    (unsigned long long)fg->lost_not,
	    (unsigned long long)fg->lost_unresolved);
	printf("| unknown: \"not known\" (stored / not / cannot tell) | %llu "
	    "(%llu / %llu / %llu) |\n", (unsigned long long)fg->unknown_told,
	    (unsigned long long)fg->told_applied,
	    (unsigned long long)fg->told_not,
	    (unsigned long long)fg->told_unresolved);
	printf("| illegal or gapped histories, states unlike them | %llu |\n",
	    (unsigned long long)(fg->illegal + fg->gaps + fg->audit));
	printf("| nodes' answers unlike the store, unclean exits | %llu |\n",
	    (unsigned long long)(fg->disagree + (uint64_t)fg->unclean_exits));
	printf("| events wrong, out of order or repeated | %llu of %llu |\n",
	    (unsigned long long)(fg->ev_wrong + fg->ev_gap + fg->ev_repeat),
	    (unsigned long long)fg->events);
	printf("| feed delay p50 / p99 / max | %.1f / %.1f / %.1f ms |\n",
	    fg->feed_p50 / 1e3, fg->feed_p99 / 1e3, fg->feed_max / 1e3);
	printf("| PING p99 / max; over 5 s | %.1f / %.1f ms; %llu |\n",
	    fg->ping_p99 / 1e3, fg->ping_max / 1e3,
	    (unsigned long long)fg->stalls);
	printf("| bot moves sooner than bot-delay / 2 | %llu of %llu |\n",
	    (unsigned long long)fg->bot_short,
	    (unsigned long long)fg->bot_gaps);
}

static void
paths(void)
{
	const char	*top = getenv("top_srcdir"), *b = getenv("top_builddir");
	char		 rel[PATH_MAX];
	static char	 pgc[PATH_MAX];

	snprintf(pgc, sizeof(pgc), "%s/tests/lib/pgcluster",
	    top != NULL ? top : ".");
	J.pgcluster = pgc;
	snprintf(rel, sizeof(rel), "%s/src/ludus", b != NULL ? b : ".");
	if (realpath(rel, J.ludus) == NULL)
		snprintf(J.ludus, sizeof(J.ludus), "%s", rel);
}

int
main(int argc, char **argv)
{
	struct oplog	 log;
	struct watchlog	 wl;
	struct faultlog	 fl;
	struct figures	 fg;
	int64_t		*before, until;
	size_t		 k;
	int		 g;

	if (options(argc, argv) != 0)
		return 2;
	J.pgdir = getenv("LUDUS_TEST_PGDIR");
	if (pg_test_uri() == NULL || J.pgdir == NULL) {
		printf("1..0 # SKIP needs PostgreSQL (tests/pg/jepsen.pg)\n");
		return 0;
	}
	snprintf(J.uri, sizeof(J.uri), "%s", pg_test_uri());
	paths();
	phase("start");
	srng = jo.seed;
	printf("1..10\n");
	rc_note("seed %llu (--seed %llu runs the same choices again)",
	    (unsigned long long)jo.seed, (unsigned long long)jo.seed);
	memset(&fl, 0, sizeof(fl));
	memset(&fg, 0, sizeof(fg));
	if (cluster_start() != 0 || make_games() != 0 || preload() != 0) {
		cluster_cleanup();
		return 1;
	}
	rc_note("%d nodes (%d behind the proxy), %d clients, %d games, %d "
	    "games of bots, %lld rows of %d filler games, %d s", jo.nodes,
	    jo.proxied, jo.clients, jo.games, jo.bots, (long long)jo.preload,
	    J.nfiller, jo.duration);
	phase("the cluster and its games");
	J.t_start = rc_now_us();
	until = J.t_start + (int64_t)jo.duration * 1000000;
	if (watchers_start() != 0 || clients_start() != 0) {
		fault_fail("threads");
		return 1;
	}
	nemesis_run(until, &fl);
	J.t_end = rc_now_us();
	J.stop = 1;
	clients_join(&log);
	nemesis_join();
	/* What was in flight settles; the watchers get the last events. */
	phase("the load");
	rc_sleep_ms(2000);
	if (truth_load() != 0)
		return 1;
	fg.disagree = check_nodes_agree();
	before = xcalloc((size_t)jo.games, sizeof(*before));
	for (g = 0; g < jo.games; g++)
		before[g] = truth[g].n;
	phase("the nodes agree");
	watchers_join(&wl);
	phase("the watchers");
	fg.unclean_exits = cluster_stop();
	for (g = 0; g < jo.nodes; g++)
		if (J.node[g].exit_status != 0)
			fault_fail("node %d exited with %d", g,
			    J.node[g].exit_status);
	phase("the nodes stopped");
	/* The definitive truth: nothing runs any more. */
	if (truth_load() != 0)
		return 1;
	for (g = 0; g < jo.games; g++)
		if (truth[g].n != before[g]) {
			fault_fail("%s: %lld moves stored after the clients "
			    "stopped", J.game[g].id,
			    (long long)(truth[g].n - before[g]));
			fg.disagree++;
		}
	free(before);
	phase("the truth");
	fg.audit += audit_all();
	fg.unended = unended_sessions();
	phase("AUDIT");
	for (k = 0; k < fl.n; k++)
		fg.faults[fl.f[k].kind]++;
	fg.torn_copies = (uint64_t)fl.torn_copies;
	check_draws(&log, &fg);
	fg.told_needless = needless_told(&fg, &fl);
	check_reads(&log, &fg);
	check_watch(&log, &wl, &fl, &fg);
	phase("checked");
	report(&fg, &fl, jo.duration);
	truth_free();
	free(log.op);
	free(wl.ev);
	free(wl.ping);
	for (k = 0; k < J_MAX_BOTS; k++) {
		free(wl.bot[k].lo);
		free(wl.bot[k].hi);
	}
	free(fl.f);
	err_free();
	cluster_cleanup();
	return fault_failures == 0 ? 0 : 1;
}
