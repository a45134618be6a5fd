/*
 * crash: kill -9 ludusd at random moments while games are played, and
 * check that no acknowledged turn is lost and none is half applied.
 *
 *	tests/crash [--cycles N] [--durability full|normal|off|both]
 *	    [--connections C] [--seed S] [--verbose] [--self-test]
 *
 * The driver starts the real daemon on a fresh database, opens C
 * connections and plays random legal games of all three kinds on them,
 * each game on one connection, every move pipelined with "AT seq".  The
 * rules engine (linked in) chooses the moves and predicts every reply;
 * every reply read is an acknowledgement and is recorded.  In each cycle,
 * after a random number of rounds, the daemon is killed with SIGKILL at a
 * random moment of a round (before, during or after the processing of the
 * pipelines); the replies the kernel still delivers are read, and the
 * rest of the requests are "in flight": the driver does not know whether
 * they were applied.  Then, for every cycle:
 *
 *  - the database, as the killed process left it, opened read-only with
 *    SQLite: PRAGMA integrity_check must be "ok";
 *  - the daemon is restarted on it; every acknowledged move must be in
 *    HISTORY, at its seq, exactly as acknowledged (else it counts as
 *    lost); moves past those must be a prefix of the in-flight ones; the
 *    game's move count (GAME.INFO) must equal its history, and AUDIT must
 *    find the stored state equal to the replay of the history (else it
 *    counts as half applied);
 *  - every in-flight request is sent again, with the same AT seq: each
 *    move must get the reply the engine predicts (the stored result if
 *    it had been applied before the kill), never STALE, and afterwards
 *    the history must hold every move exactly once.
 *
 * At the end every game is checked again after a clean restart.  Output
 * is TAP, one test per durability; the totals are printed as
 * "cycles=.. acknowledged=.. lost=0 half_applied=0 resent_applied_once=..".
 * Without options: 20 cycles at durability full, then 20 at normal (the
 * form make check runs).  --self-test deletes the newest history row of
 * the database after each kill, as a store losing its last commit would:
 * the run must then fail, which shows that the checks can fail.
 * doc/testing.md, "Crash safety", has the long form and its figures.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "util/util.h"
#include "daemon_helper.h"
#include "rclient.h"
#include "crash.h"

struct crash_opts opt = { 20, 4, 0, 0, 0 };

struct daemon		 D;
struct cgame		*games;
size_t			 ngames, capgames;
struct cconn		*conns;
struct totals		 T;
uint64_t		 rng;
int			 cur_cycle;
static int64_t		 round_us = 5000;	/* how long a round takes */
char			 failure[512];		/* first fatal error */

/* ------------------------------------------------------- the database */

/* PRAGMA integrity_check on the database as the killed daemon left it. */
static void
check_integrity(void)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*st = NULL;
	const char	*txt;
	int		 rc, rows = 0, ok = 0;

	rc = sqlite3_open_v2(D.db, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st,
		    NULL);
	while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		txt = (const char *)sqlite3_column_text(st, 0);
		rows++;
		if (rows == 1 && txt != NULL && strcmp(txt, "ok") == 0)
			ok = 1;
		else
			fprintf(stderr, "crash: integrity_check: %s\n",
			    txt != NULL ? txt : "(null)");
	}
	if (rc != SQLITE_OK)
		fprintf(stderr, "crash: integrity_check: %s\n",
		    db != NULL ? sqlite3_errmsg(db) : "cannot open");
	if (rc != SQLITE_OK || !ok || rows != 1) {
		T.integrity++;
		cr_fatal_msg("PRAGMA integrity_check failed");
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * --self-test: deletes the newest history row, as a store that lost the
 * last commit would, to show that the checks catch it (the run fails).
 */
static void
sabotage(void)
{
	static const char sql[] = "DELETE FROM history WHERE (game, seq) = "
	    "(SELECT game, max(seq) FROM history WHERE game = "
	    "(SELECT game FROM history ORDER BY at DESC LIMIT 1))";
	sqlite3	*db = NULL;

	if (sqlite3_open_v2(D.db, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK || sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fprintf(stderr, "crash: --self-test: %s\n",
		    db != NULL ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_close(db);
}

/* ---------------------------------------------------------- verifying */

/* GAME.INFO's moves, -1 for NOGAME, -2 on a failure. */
static long long
info_moves(struct rconn *c, const struct cgame *g)
{
	struct reply	 r;
	long long	 moves = -2;
	size_t		 i;
	int64_t		 v;
	const char	*errstr;

	if (cr_call(c, &r, "GAME.INFO", g->id, NULL, NULL) == -1)
		return -2;
	if (rc_is_error(&r, "NOGAME"))
		moves = -1;
	else if (r.type == REPLY_ARRAY) {
		for (i = 0; i < r.n; i++)
			if (r.elem[i].type == REPLY_STATUS &&
			    strncmp(r.elem[i].str, "moves,", 6) == 0 &&
			    parse_int64(r.elem[i].str + 6, 0, INT64_MAX, &v,
			    &errstr) == 0)
				moves = v;
	}
	if (moves == -2)
		cr_fatal_msg("GAME.INFO %s: %s", g->id, cr_reply_text(&r));
	reply_free(&r);
	return moves;
}

/*
 * Reads the whole history of g and compares it with the moves sent:
 * returns how many rows there are (-1 on a failure) and sets *agree to
 * the length of the prefix equal to the moves sent.
 */
static long long
history(struct rconn *c, const struct cgame *g, size_t *agree)
{
	struct reply	 r;
	char		 from[24], want[128];
	size_t		 n = 0, i;
	int		 prefix = 1;

	*agree = 0;
	for (;;) {
		snprintf(from, sizeof from, "%zu", n + 1);
		if (cr_call(c, &r, "HISTORY", g->id, from, "10000") == -1)
			return -1;
		if (r.type != REPLY_ARRAY) {
			cr_fatal_msg("HISTORY %s: %s", g->id,
			    cr_reply_text(&r));
			reply_free(&r);
			return -1;
		}
		for (i = 0; i < r.n; i++, n++) {
			if (!prefix)
				continue;
			if (n >= g->nmv) {
				prefix = 0;
				continue;
			}
			snprintf(want, sizeof want, "%zu,%s,%s,%s", n + 1,
			    g->mv[n].player, g->mv[n].action,
			    g->mv[n].result);
			if (r.elem[i].type != REPLY_STATUS ||
			    strcmp(r.elem[i].str, want) != 0) {
				if (opt.verbose)
					fprintf(stderr, "crash: %s: row %zu "
					    "is %s, sent %s\n", g->id, n + 1,
					    cr_reply_text(&r.elem[i]), want);
				prefix = 0;
				continue;
			}
			*agree = n + 1;
		}
		i = r.n;
		reply_free(&r);
		if (i < HIST_PAGE)
			break;
	}
	return (long long)n;
}

/* AUDIT id: 1 when the stored state is the replay of the history. */
static int
audit(struct rconn *c, const struct cgame *g)
{
	struct reply	 r;
	int		 ok;

	if (cr_call(c, &r, "AUDIT", g->id, NULL, NULL) == -1)
		return 0;
	ok = r.type == REPLY_ARRAY && r.n == 0;
	if (!ok && opt.verbose)
		fprintf(stderr, "crash: AUDIT %s: %s\n", g->id,
		    cr_reply_text(&r));
	reply_free(&r);
	return ok;
}

/* Marks the jumps SNL.STATE shows; -1 on a failure. */
static int
snl_jumps(struct rconn *c, struct cgame *g)
{
	struct reply	 r;
	size_t		 i;
	int		 j, a, b, found = 0, snake;

	for (j = 0; j < g->njumps; j++)
		g->jumps[j].present = 0;
	if (cr_call(c, &r, "SNL.STATE", g->id, NULL, NULL) == -1)
		return -1;
	if (r.type != REPLY_ARRAY) {
		cr_fatal_msg("SNL.STATE %s: %s", g->id, cr_reply_text(&r));
		reply_free(&r);
		return -1;
	}
	for (i = 0; i < r.n; i++) {
		const char *s = r.elem[i].str;

		if (r.elem[i].type != REPLY_STATUS)
			continue;
		if (sscanf(s, "snake,%d,%d", &a, &b) == 2)
			snake = 1;
		else if (sscanf(s, "ladder,%d,%d", &a, &b) == 2)
			snake = 0;
		else
			continue;
		found++;
		for (j = 0; j < g->njumps; j++)
			if (g->jumps[j].from == a && g->jumps[j].to == b &&
			    g->jumps[j].snake == snake)
				g->jumps[j].present = 1;
	}
	reply_free(&r);
	return found;
}

/*
 * After the restart, before anything is resent: the acknowledged part of
 * the game must be there, and whatever is past it must be a prefix of
 * what was in flight.
 */
static void
verify_after_kill(struct rconn *c, struct cgame *g)
{
	long long	 moves, rows;
	size_t		 agree;
	int		 j, found, gap = 0;

	moves = info_moves(c, g);
	if (moves == -2)
		return;
	g->existed = moves >= 0;
	if (!g->existed) {
		if (g->created_acked) {
			cr_fatal_msg("%s: acknowledged creation lost", g->id);
			T.lost += g->acked > 0 ? g->acked : 1;
		}
		return;
	}
	if ((rows = history(c, g, &agree)) < 0)
		return;
	if (agree < g->acked) {
		T.lost += g->acked - agree;
		cr_fatal_msg("%s: %zu acknowledged moves, history agrees on "
		    "%zu", g->id, g->acked, agree);
	}
	if ((size_t)rows != agree) {
		T.half_applied++;
		cr_fatal_msg("%s: history has %lld rows, only %zu were sent as "
		    "such", g->id, rows, agree);
	}
	if (moves != rows) {
		T.half_applied++;
		cr_fatal_msg("%s: GAME.INFO says %lld moves, history has %lld",
		    g->id, moves, rows);
	}
	if (!audit(c, g)) {
		T.half_applied++;
		cr_fatal_msg("%s: AUDIT: stored state is not the replay of the "
		    "history", g->id);
	}
	if (rows > (long long)g->acked)
		T.applied_before += (uint64_t)rows - g->acked;
	if (g->kind == GK_SNL && g->njumps > 0) {
		if ((found = snl_jumps(c, g)) < 0)
			return;
		for (j = 0; j < g->njumps; j++) {
			if (g->jumps[j].acked && !g->jumps[j].present) {
				T.lost++;
				cr_fatal_msg("%s: acknowledged jump %d lost",
				    g->id, j);
			}
			if (!g->jumps[j].present)
				gap = 1;
			else if (gap) {
				T.half_applied++;
				cr_fatal_msg("%s: jump %d applied after a "
				    "missing one", g->id, j);
			}
		}
	}
}

/* After the resend: everything sent is there, exactly once. */
static void
verify_complete(struct rconn *c, struct cgame *g, uint64_t resent)
{
	long long	 moves, rows;
	size_t		 agree;
	int		 j;

	moves = info_moves(c, g);
	if (moves == -2)
		return;
	if (moves < 0) {
		cr_fatal_msg("%s: no such game after the resend", g->id);
		return;
	}
	if ((rows = history(c, g, &agree)) < 0)
		return;
	if (agree != g->nmv || rows != (long long)g->nmv ||
	    moves != rows) {
		cr_fatal_msg("%s: %zu moves sent, history has %lld rows (%zu "
		    "agree), GAME.INFO %lld", g->id, g->nmv, rows, agree,
		    moves);
		if (rows > (long long)g->nmv)
			T.half_applied++;
		return;
	}
	if (!audit(c, g)) {
		T.half_applied++;
		cr_fatal_msg("%s: AUDIT failed after the resend", g->id);
		return;
	}
	if (g->kind == GK_SNL && g->njumps > 0) {
		if (snl_jumps(c, g) != g->njumps) {
			cr_fatal_msg("%s: SNL.STATE jumps differ", g->id);
			return;
		}
		for (j = 0; j < g->njumps; j++)
			if (!g->jumps[j].present)
				cr_fatal_msg("%s: jump %d missing", g->id, j);
	}
	T.resent_once += resent;
	g->acked = g->nmv;
	g->created_acked = 1;
	for (j = 0; j < g->njumps; j++)
		g->jumps[j].acked = 1;
}

/* ------------------------------------------------------------ a cycle */

static int
connect_all(void)
{
	int	 ci;

	for (ci = 0; ci < opt.nconns; ci++) {
		if (rc_open(&conns[ci].rc, D.port) == -1) {
			cr_fatal_msg("connect: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void
ops_clear(void)
{
	size_t	 i;
	int	 ci;

	for (ci = 0; ci < opt.nconns; ci++) {
		for (i = 0; i < conns[ci].nops; i++)
			free(conns[ci].ops[i].req);
		conns[ci].nops = conns[ci].nacked = 0;
	}
}

/*
 * Resends the unacknowledged requests of each connection, pipelined and
 * in order, on a new connection, and checks each reply.
 */
static void
resend(void)
{
	struct reply	 r;
	struct op	*o;
	struct cgame	*g;
	char		*buf = NULL;
	size_t		 len, cap = 0, i, nsent;
	int		 ci;

	for (ci = 0; ci < opt.nconns && failure[0] == '\0'; ci++) {
		struct cconn *cc = &conns[ci];

		len = 0;
		nsent = 0;
		for (i = cc->nacked; i < cc->nops; i++) {
			o = &cc->ops[i];
			g = &games[o->game];
			if (o->type == OP_JUMP && g->jumps[o->idx].present)
				continue;
			if (cap < len + o->reqlen) {
				cap = (len + o->reqlen) * 2;
				buf = xrealloc(buf, cap);
			}
			memcpy(buf + len, o->req, o->reqlen);
			len += o->reqlen;
			nsent++;
		}
		if (nsent == 0)
			continue;
		if (rc_write(&cc->rc, buf, len) == -1) {
			cr_fatal_msg("resend: write: %s", strerror(errno));
			break;
		}
		for (i = cc->nacked; i < cc->nops && failure[0] == '\0'; i++) {
			o = &cc->ops[i];
			g = &games[o->game];
			if (o->type == OP_JUMP && g->jumps[o->idx].present)
				continue;
			memset(&r, 0, sizeof r);
			if (rc_read(&cc->rc, &r, IO_TIMEOUT_MS) != 1) {
				cr_fatal_msg("resend: no reply in time");
				break;
			}
			if (o->type == OP_MOVE && rc_is_error(&r, "STALE")) {
				T.stale++;
				cr_fatal_msg("%s: resent move %zu got %s",
				    g->id, o->idx + 1, cr_reply_text(&r));
			} else if (o->type == OP_MOVE ? !rc_is_status(&r,
			    g->mv[o->idx].result) : o->type == OP_CREATE &&
			    g->existed ? !rc_is_error(&r, "EXISTS") :
			    !rc_is_status(&r, "OK")) {
				T.mismatches++;
				cr_fatal_msg("%s: resent %s got %s", g->id,
				    cr_req_text(o), cr_reply_text(&r));
			}
			reply_free(&r);
		}
	}
	free(buf);
}

/* Games with requests in this cycle, and a few old ones. */
static void
verify_cycle(struct rconn *c, int phase)
{
	size_t		 i, k;
	uint64_t	*resent;
	int		 ci;

	resent = xcalloc(ngames > 0 ? ngames : 1, sizeof *resent);
	for (ci = 0; ci < opt.nconns; ci++)
		for (k = conns[ci].nacked; k < conns[ci].nops; k++)
			if (conns[ci].ops[k].type == OP_MOVE)
				resent[conns[ci].ops[k].game]++;
	for (i = 0; i < ngames && failure[0] == '\0'; i++) {
		if (games[i].cycle != cur_cycle)
			continue;
		if (phase == 0) {
			T.inflight += resent[i];
			verify_after_kill(c, &games[i]);
		} else
			verify_complete(c, &games[i], resent[i]);
	}
	if (phase == 1 && ngames > 0)
		for (k = 0; k < SAMPLE_OLD && failure[0] == '\0'; k++) {
			i = (size_t)cr_rnd((int)ngames);
			if (games[i].cycle != cur_cycle)
				verify_complete(c, &games[i], 0);
		}
	free(resent);
}

/* Waits a random time within the processing of the round, then kills. */
static void
kill_phase(void)
{
	size_t	 total = 0;
	int	 ci, mode = cr_rnd(4);

	for (ci = 0; ci < opt.nconns; ci++)
		total += conns[ci].nops - conns[ci].nacked;
	switch (mode) {
	case 0:				/* at once */
		break;
	case 1:
	case 2: {			/* somewhere in the round */
		int64_t us = round_us + round_us / 4;

		if (us > 0) {
			int64_t end = rc_now_us() + (int64_t)(cr_rnd64() %
			    (uint64_t)us);

			while (rc_now_us() < end)
				usleep(50);
		}
		break;
	}
	default: {			/* after some replies */
		size_t acked = 0;

		for (ci = 0; ci < opt.nconns; ci++)
			acked += conns[ci].nacked;
		cr_read_some(acked + (size_t)cr_rnd((int)total + 1));
		break;
	}
	}
	daemon_stop(&D, SIGKILL);
	cr_drain_after_kill();
	for (ci = 0; ci < opt.nconns; ci++)
		if (conns[ci].nacked < conns[ci].nops) {
			T.kills_inflight++;
			break;
		}
}

static void
cycle(const char *const *extra)
{
	struct rconn	 chk;
	int64_t		 t0;
	int		 rounds = 1 + cr_rnd(MAX_ROUNDS), r, ci;

	for (r = 0; r < rounds && failure[0] == '\0'; r++) {
		t0 = rc_now_us();
		for (ci = 0; ci < opt.nconns; ci++) {
			cr_gen_pipeline(ci, 1 + cr_rnd(MAX_PIPELINE));
			cr_send_round(ci);
		}
		if (r < rounds - 1) {
			cr_read_round();
			round_us = (round_us + (rc_now_us() - t0)) / 2;
		}
	}
	if (failure[0] != '\0')
		return;
	kill_phase();
	check_integrity();
	if (opt.sabotage)
		sabotage();
	if (daemon_start(&D, extra) == -1) {
		cr_fatal_msg("the daemon does not restart");
		return;
	}
	if (rc_open(&chk, D.port) == -1) {
		cr_fatal_msg("connect: %s", strerror(errno));
		return;
	}
	verify_cycle(&chk, 0);
	if (failure[0] == '\0' && connect_all() == 0) {
		resend();
		verify_cycle(&chk, 1);
	}
	rc_close(&chk);
	ops_clear();
	T.cycles++;
	cr_diag("cycle %d: acknowledged=%" PRIu64 " inflight=%" PRIu64
	    " applied_before_kill=%" PRIu64, cur_cycle, T.acknowledged,
	    T.inflight, T.applied_before);
}

/* The end: a clean stop and restart, then every game checked. */
static void
final_check(const char *const *extra)
{
	struct rconn	 c;
	struct reply	 r;
	size_t		 i;
	int		 rc;

	for (i = 0; i < (size_t)opt.nconns; i++)
		rc_close(&conns[i].rc);
	if ((rc = daemon_finish(&D)) != 0) {
		cr_fatal_msg("ludusd exited with %d on SIGTERM", rc);
		return;
	}
	check_integrity();
	if (daemon_start(&D, extra) == -1 || rc_open(&c, D.port) == -1) {
		cr_fatal_msg("the daemon does not restart");
		return;
	}
	cur_cycle = -1;
	for (i = 0; i < ngames && failure[0] == '\0'; i++)
		verify_complete(&c, &games[i], 0);
	if (failure[0] == '\0' && cr_call(&c, &r, "AUDIT", NULL, NULL,
	    NULL) == 0) {
		if (r.type != REPLY_ARRAY || r.n != 0) {
			T.half_applied++;
			cr_fatal_msg("AUDIT of every game: %s",
			    cr_reply_text(&r));
		}
		reply_free(&r);
	}
	rc_close(&c);
	if ((rc = daemon_finish(&D)) != 0)
		cr_fatal_msg("ludusd exited with %d on SIGTERM", rc);
}

static void
reset_run(void)
{
	size_t	 i;
	int	 ci;

	for (i = 0; i < ngames; i++)
		free(games[i].mv);
	free(games);
	games = NULL;
	ngames = capgames = 0;
	if (conns != NULL) {
		ops_clear();
		for (ci = 0; ci < opt.nconns; ci++) {
			rc_close(&conns[ci].rc);
			free(conns[ci].ops);
		}
		free(conns);
	}
	conns = xcalloc((size_t)opt.nconns, sizeof *conns);
	for (ci = 0; ci < opt.nconns; ci++) {
		conns[ci].rc.fd = -1;
		memset(conns[ci].slot, -1, sizeof conns[ci].slot);
	}
	memset(&T, 0, sizeof T);
	failure[0] = '\0';
}

/* One run at one durability: 0 when everything held. */
static int
run(const char *durability, int tapno)
{
	const char *const extra[] = { "--durability", durability, NULL };
	int64_t		 t0 = rc_now_ms();
	int		 ok;

	reset_run();
	rng = opt.seed ^ (uint64_t)tapno * 0x51ed27a1ULL;
	if (daemon_launch(&D, extra) == -1) {
		printf("not ok %d - durability %s: the daemon does not "
		    "start\n", tapno, durability);
		return -1;
	}
	if (connect_all() == 0)
		for (cur_cycle = 1; cur_cycle <= opt.cycles &&
		    failure[0] == '\0'; cur_cycle++)
			cycle(extra);
	if (failure[0] == '\0')
		final_check(extra);
	if (failure[0] != '\0')
		daemon_dump_log(&D);
	daemon_cleanup(&D);
	ok = failure[0] == '\0' && T.lost == 0 && T.half_applied == 0 &&
	    T.stale == 0 && T.mismatches == 0 && T.integrity == 0;
	printf("# durability=%s cycles=%" PRIu64 " acknowledged=%" PRIu64
	    " lost=%" PRIu64 " half_applied=%" PRIu64
	    " resent_applied_once=%" PRIu64 "\n", durability, T.cycles,
	    T.acknowledged, T.lost, T.half_applied, T.resent_once);
	printf("# games=%" PRIu64 " inflight_at_kill=%" PRIu64
	    " applied_before_kill=%" PRIu64 " kills_with_requests_in_flight=%"
	    PRIu64 " stale=%" PRIu64 " mismatches=%" PRIu64
	    " integrity_failures=%" PRIu64 " seconds=%.1f\n", T.games,
	    T.inflight, T.applied_before, T.kills_inflight, T.stale,
	    T.mismatches, T.integrity, (double)(rc_now_ms() - t0) / 1000.0);
	printf("%s %d - kill -9 at durability %s: %" PRIu64 " cycles, %"
	    PRIu64 " acknowledged, lost %" PRIu64 ", half applied %" PRIu64
	    "%s%s\n", ok ? "ok" : "not ok", tapno, durability, T.cycles,
	    T.acknowledged, T.lost, T.half_applied,
	    failure[0] != '\0' ? ": " : "", failure);
	fflush(stdout);
	return ok ? 0 : -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: crash [--cycles N] [--durability "
	    "full|normal|off|both] [--connections C] [--seed S] "
	    "[--verbose] [--self-test]\n");
	exit(2);
}

static int64_t
num_arg(const char *s, int64_t min, int64_t max)
{
	const char	*errstr;
	int64_t		 v;

	if (s == NULL || parse_int64(s, min, max, &v, &errstr) == -1)
		usage();
	return v;
}

int
main(int argc, char **argv)
{
	const char	*durs[2] = { "full", "normal" };
	int		 ndurs = 2, i, fails = 0;

	opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cycles") == 0)
			opt.cycles = (int)num_arg(argv[++i], 1, 10000000);
		else if (strcmp(argv[i], "--connections") == 0)
			opt.nconns = (int)num_arg(argv[++i], 1, 256);
		else if (strcmp(argv[i], "--seed") == 0)
			opt.seed = (uint64_t)num_arg(argv[++i], 0, INT64_MAX);
		else if (strcmp(argv[i], "--durability") == 0) {
			if (++i >= argc)
				usage();
			if (strcmp(argv[i], "both") == 0)
				ndurs = 2;
			else if (strcmp(argv[i], "full") == 0 ||
			    strcmp(argv[i], "normal") == 0 ||
			    strcmp(argv[i], "off") == 0) {
				durs[0] = argv[i];
				ndurs = 1;
			} else
				usage();
		} else if (strcmp(argv[i], "--verbose") == 0)
			opt.verbose = 1;
		else if (strcmp(argv[i], "--self-test") == 0)
			opt.sabotage = 1;
		else
			usage();
	}
	signal(SIGPIPE, SIG_IGN);
	printf("1..%d\n# seed=%" PRIu64 " connections=%d cycles=%d\n", ndurs,
	    opt.seed, opt.nconns, opt.cycles);
	fflush(stdout);
	for (i = 0; i < ndurs; i++)
		if (run(durs[i], i + 1) == -1)
			fails++;
	reset_run();
	free(conns);
	return fails == 0 ? 0 : 1;
}
