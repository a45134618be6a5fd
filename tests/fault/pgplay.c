/*
 * See pgplay.h.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/reply.h"
#include "util/util.h"
#include "fault_helper.h"
#include "pg_helper.h"
#include "pgplay.h"

struct fgame	 F[PLAY_GAMES];
uint64_t	 rng = 1;
uint64_t	 ok_replies, refused, refused_unknown;

static const char	*pgdir;
static char		 pgcluster[600];


int
play_options(int argc, char **argv, const char *const *names,
    int *const *vals, size_t n)
{
	const char	*errstr;
	int64_t		 v;
	size_t		 k;
	int		 i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (parse_int64(argv[i + 1], 0, INT32_MAX, &v, &errstr) != 0)
			return -1;
		if (strcmp(argv[i], "--seed") == 0) {
			rng = (uint64_t)v;
			continue;
		}
		for (k = 0; k < n && strcmp(argv[i], names[k]) != 0; k++)
			;
		if (k == n)
			return -1;
		*vals[k] = (int)v;
	}
	return 0;
}
int
play_init(void)
{
	const char	*top = getenv("top_srcdir");

	pgdir = getenv("LUDUS_TEST_PGDIR");
	if (pg_test_uri() == NULL || pgdir == NULL)
		return -1;
	snprintf(pgcluster, sizeof(pgcluster), "%s/tests/lib/pgcluster",
	    top != NULL ? top : ".");
	return 0;
}

const char *
play_pgdir(void)
{
	return pgdir;
}

int
play_cluster(const char *what, const char *mode)
{
	char	 cmd[1400];

	snprintf(cmd, sizeof(cmd), "%s %s %s%s%s", pgcluster, what, pgdir,
	    mode != NULL ? " " : "", mode != NULL ? mode : "");
	return system(cmd) == 0 ? 0 : -1;
}

int
play_create(struct rconn *c, int i, const char *prefix)
{
	struct reply	 r;
	struct fgame	*g = &F[i];
	int		 ok;

	free(g->hist);
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "%s%d", prefix, i);
	dandy_init(&g->st, 3, "abcdefghi", NULL, NULL);
	memset(&r, 0, sizeof(r));
	ok = rc_call(c, &r, PLAY_IO_MS, "DANDY.CREATE", g->id, "3", "abcdefghi",
	    NULL) == 1 && rc_is_status(&r, "OK");
	if (!ok)
		fault_fail("create %s: %s", g->id, fault_text(&r));
	reply_free(&r);
	return ok ? 0 : -1;
}

/* The game's next move, chosen now or the one refused before. */
static void
next_move(struct fgame *g)
{
	static const char	 cards[] = "abcdefghi123456789";
	struct dandy_state	 out;
	struct dandy_result	 r;

	if (g->pending)
		return;
	g->card = cards[fault_rnd(&rng, 18)];
	if (dandy_draw(&g->st, g->card, &out, &r) == -1)
		abort();
	if (r.pos == DANDY_OFF)
		snprintf(g->want, sizeof(g->want), "P%d OFF %d", r.player + 1,
		    r.points);
	else
		snprintf(g->want, sizeof(g->want), "P%d %d %d", r.player + 1,
		    r.pos + 1, r.points);
	g->pending = 1;
}

/* The move was answered: stored (its reply, predicted), or refused. */
static void
answered(struct fgame *g, const struct reply *r)
{
	struct dandy_result	 res;

	if (rc_is_error(r, "STORE")) {
		refused++;
		if (r->str != NULL && strstr(r->str, "not known") != NULL)
			refused_unknown++;
		snprintf(g->why, sizeof(g->why), "%s", fault_text(r));
		return;
	}
	if (r->type != REPLY_STATUS || strcmp(r->str, g->want) != 0) {
		fault_fail("%s move %lld: got %s, want %s", g->id,
		    (long long)g->moves + 1, fault_text(r), g->want);
		return;
	}
	ok_replies++;
	g->pending = 0;
	if ((size_t)g->moves >= g->cap) {
		g->cap = g->cap == 0 ? 64 : g->cap * 2;
		g->hist = xrealloc(g->hist, g->cap * sizeof(*g->hist));
	}
	dandy_draw(&g->st, g->card, &g->st, &res);
	snprintf(g->hist[g->moves], sizeof(g->hist[0]), "%lld,P%d,%c,%s",
	    (long long)g->moves + 1, res.player + 1, g->card, g->want);
	g->moves++;
}

/* One round: a move of every game not over, pipelined; replies read. */
int
play_round(struct rconn *c)
{
	char		*buf = NULL, card[8], at[24];
	const char	*argv[5];
	size_t		 len = 0, cap = 0;
	struct reply	 r;
	int		 i, n = 0, idx[PLAY_GAMES];

	for (i = 0; i < PLAY_GAMES; i++) {
		next_move(&F[i]);
		snprintf(card, sizeof(card), "%c", F[i].card);
		snprintf(at, sizeof(at), "%lld", (long long)F[i].moves);
		argv[0] = "DANDY.DRAW";
		argv[1] = F[i].id;
		argv[2] = card;
		argv[3] = "AT";
		argv[4] = at;
		rc_encode(&buf, &len, &cap, 5, argv);
		idx[n++] = i;
	}
	if (n > 0 && rc_write(c, buf, len) != 0) {
		free(buf);
		return -1;
	}
	free(buf);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		if (rc_read(c, &r, PLAY_IO_MS) != 1) {
			reply_free(&r);
			return -1;
		}
		answered(&F[idx[i]], &r);
		reply_free(&r);
	}
	return n;
}

/* GAME.INFO's move count ("moves,N"), -1 if it cannot be read. */
int64_t
play_moves_of(struct rconn *c, const char *id)
{
	struct reply	 r;
	int64_t		 n = -1;
	size_t		 i;

	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "GAME.INFO", id, NULL) == 1 &&
	    r.type == REPLY_ARRAY)
		for (i = 0; i < r.n; i++)
			if (r.elem[i].str != NULL &&
			    strncmp(r.elem[i].str, "moves,", 6) == 0)
				n = strtoll(r.elem[i].str + 6, NULL, 10);
	reply_free(&r);
	return n;
}

/* HISTORY, asked again while the node is reconnecting (-STORE): a
 * client's resend of a read. */
static int
history(struct rconn *c, const char *id, struct reply *r)
{
	int	 rc, tries;

	for (tries = 0; tries < 50; tries++) {
		rc = rc_call(c, r, PLAY_IO_MS, "HISTORY", id, "1", "10000", NULL);
		if (rc != 1 || !rc_is_error(r, "STORE"))
			return rc;
		reply_free(r);
		rc_sleep_ms(100);
	}
	return rc_call(c, r, PLAY_IO_MS, "HISTORY", id, "1", "10000", NULL);
}

void
play_check(struct rconn *c)
{
	struct reply	 r;
	int		 i;
	int64_t		 k;

	for (i = 0; i < PLAY_GAMES; i++) {
		memset(&r, 0, sizeof(r));
		if (history(c, F[i].id, &r) != 1 || r.type != REPLY_ARRAY) {
			fault_fail("HISTORY %s: %s", F[i].id, fault_text(&r));
		} else if ((int64_t)r.n != F[i].moves) {
			fault_fail("%s: %zu moves stored, %lld acknowledged",
			    F[i].id, r.n, (long long)F[i].moves);
		} else {
			for (k = 0; k < F[i].moves; k++)
				if (strcmp(fault_text(&r.elem[k]), F[i].hist[k]) != 0)
					fault_fail("%s: move %lld is %s, want %s",
					    F[i].id, (long long)k + 1,
					    fault_text(&r.elem[k]), F[i].hist[k]);
		}
		reply_free(&r);
	}
	memset(&r, 0, sizeof(r));
	if (rc_call(c, &r, PLAY_IO_MS, "AUDIT", NULL) != 1 ||
	    r.type != REPLY_ARRAY || r.n != 0)
		fault_fail("AUDIT is not empty: %s (%zu)", r.n > 0 ?
		    fault_text(&r.elem[0]) : fault_text(&r), r.n);
	reply_free(&r);
}

/* Plays until every move refused has been stored. */
void
play_settle(struct rconn *c)
{
	int	 i, left, rounds;

	for (rounds = 0; rounds < 200; rounds++) {
		for (i = left = 0; i < PLAY_GAMES; i++)
			left += F[i].pending;
		if (left == 0)
			return;
		if (play_round(c) < 0) {
			fault_fail("settle: connection lost");
			return;
		}
		rc_sleep_ms(20);
	}
	fault_fail("moves refused still refused after 200 rounds");
}

/* A refusal is a promise too: nothing of the move is stored. */
int
play_refused_stored(struct rconn *c)
{
	int	 i, n = 0;

	for (i = 0; i < PLAY_GAMES; i++)
		if (F[i].pending && play_moves_of(c, F[i].id) > F[i].moves) {
			rc_note("%s: move %lld refused (%s), and stored", F[i].id,
			    (long long)F[i].moves + 1, F[i].why);
			n++;
		}
	return n;
}

void
play_free(void)
{
	int	 i;

	for (i = 0; i < PLAY_GAMES; i++) {
		free(F[i].hist);
		F[i].hist = NULL;
	}
}

int
play_free_port(void)
{
	struct sockaddr_in	 sa;
	socklen_t		 len = sizeof(sa);
	int			 fd, port = -1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

pid_t
play_proxy_start(int port)
{
	char	 listen[64], to[512];
	pid_t	 pid;

	snprintf(listen, sizeof(listen),
	    "TCP-LISTEN:%d,bind=127.0.0.1,reuseaddr,fork", port);
	snprintf(to, sizeof(to), "UNIX-CONNECT:%s/.s.PGSQL.5432", pgdir);
	if ((pid = fork()) == 0) {
		execlp("socat", "socat", listen, to, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int
play_proxy_children(pid_t parent, pid_t *pids, int max)
{
	DIR		*d = opendir("/proc");
	struct dirent	*e;
	char		 path[300], buf[512], *p;
	FILE		*f;
	const char	*errstr;
	int64_t		 v;
	int		 n = 0, ppid;

	while (d != NULL && n < max && (e = readdir(d)) != NULL) {
		if (parse_int64(e->d_name, 1, INT32_MAX, &v, &errstr) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)v);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		ppid = -1;
		if (fgets(buf, sizeof(buf), f) != NULL &&
		    (p = strrchr(buf, ')')) != NULL)
			sscanf(p + 2, "%*c %d", &ppid);
		fclose(f);
		if (ppid == parent)
			pids[n++] = (pid_t)v;
	}
	if (d != NULL)
		closedir(d);
	return n;
}

int
play_kill_all(const pid_t *pids, int n)
{
	int	 i, k = 0;

	for (i = 0; i < n; i++)
		k += kill(pids[i], SIGKILL) == 0;
	return k;
}

int
play_proxy_cut(pid_t parent)
{
	pid_t	 pids[256];

	return play_kill_all(pids, play_proxy_children(parent, pids, 256));
}

void
play_proxy_uri(char *buf, size_t len, int port)
{
	char		 user[64] = "postgres";
	const char	*u;

	if ((u = strstr(pg_test_uri(), "user=")) != NULL)
		snprintf(user, sizeof(user), "%s", u + 5);
	snprintf(buf, len, "postgresql://%s@127.0.0.1:%d/ludus", user, port);
}
