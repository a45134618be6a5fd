/*
 * The cluster of tests/fault/jepsen and its nemesis: the ludusd nodes
 * (the last --proxied of them reach PostgreSQL through a socat proxy),
 * the faults injected on a schedule, and a live "ludus copy" of the
 * database now and then, whose copy must audit clean.
 *
 * The nemesis runs in the main thread: a node it restarts is its child,
 * and dies with the thread that started it (PR_SET_PDEATHSIG).  One fault
 * at a time, each healed before the next: kill -9 of a node (restarted a
 * second later), SIGSTOP/SIGCONT of a node, pg_ctl restart -m fast or
 * -m immediate, the proxy's connections killed (a cut), the proxy down
 * for a few seconds (an outage), and a cut while the games' rows are
 * locked by another session (the node's transaction is then waiting in
 * the server when its connection breaks: whether it commits is for the
 * node to find out).  The kinds are taken in a shuffled round, so that a
 * short run has each of them.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "fault_helper.h"
#include "pgplay.h"
#include "rclient.h"
#include "jepsen.h"

const char *const fault_name[F_NKINDS] = {
	"kill", "stop", "pgfast", "pgimm", "cut", "outage", "lockcut"
};

static char	 bot_delay[16];
const char *const node_flags[] = {
	"--http-port", "0", "--create-rate", "0", "--max-games", "0",
	"--bot-delay", bot_delay, NULL
};

static uint64_t	 nrng;
static pthread_t copier;
static int	 copier_on;
static char	 copy_dir[256];

int
fault_parse(const char *s, unsigned *set)
{
	char	 buf[256], *w, *save = NULL;
	int	 k;

	*set = 0;
	if (strcmp(s, "none") == 0)
		return 0;
	if (strcmp(s, "all") == 0) {
		*set = (1u << F_NKINDS) - 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (w = strtok_r(buf, ",", &save); w != NULL;
	    w = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < F_NKINDS; k++)
			if (strcmp(w, fault_name[k]) == 0)
				break;
		if (k == F_NKINDS)
			return -1;
		*set |= 1u << k;
	}
	return 0;
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

PGconn *
jpg_connect(void)
{
	PGconn	*pc = PQconnectdb(J.uri);

	PQsetNoticeProcessor(pc, quiet, NULL);
	return pc;
}

int64_t
jpg_int(const PGresult *r, int row, int col)
{
	const char	*errstr;
	int64_t		 v;

	if (parse_int64(PQgetvalue(r, row, col), INT64_MIN, INT64_MAX, &v,
	    &errstr) == 0)
		return v;
	fault_fail("the database's %s, \"%s\": %s", PQfname(r, col),
	    PQgetvalue(r, row, col), errstr);
	return -1;
}

int
node_port(int i)
{
	int	 p;

	pthread_mutex_lock(&J.lock);
	p = J.node[i].port;
	pthread_mutex_unlock(&J.lock);
	return p;
}

static void
set_port(int i, int port)
{
	pthread_mutex_lock(&J.lock);
	J.node[i].port = port;
	pthread_mutex_unlock(&J.lock);
}

/* ----------------------------------------------------------- the proxy */

/* socat from 127.0.0.1:port to the server's socket; 0 once it listens. */
static int
proxy_start(void)
{
	char		 listen[96], to[512];
	struct rconn	 c;
	pid_t		 pid;
	int		 i;

	snprintf(listen, sizeof(listen),
	    "TCP-LISTEN:%d,bind=127.0.0.1,reuseaddr,fork", J.proxy_port);
	snprintf(to, sizeof(to), "UNIX-CONNECT:%s/.s.PGSQL.5432", J.pgdir);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		int	 fd = open("/dev/null", O_WRONLY);

		/* Its complaints of a server that is down are no news. */
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		execlp("socat", "socat", listen, to, (char *)NULL);
		_exit(127);
	}
	J.proxy_pid = pid;
	for (i = 0; i < 300; i++) {
		if (rc_open(&c, J.proxy_port) == 0) {
			rc_close(&c);
			return 0;
		}
		rc_sleep_ms(10);
	}
	fault_fail("the proxy does not listen on %d", J.proxy_port);
	return -1;
}

/* Kills the proxy's connections; how many. */
static int
proxy_cut(void)
{
	return play_proxy_cut(J.proxy_pid);
}

/* The proxy down, its connections too: the listener is stopped first,
 * so that no new connection comes, then its children are killed while it
 * is still their parent (proxy_cut() finds them so), then it is. */
static void
proxy_down(void)
{
	if (J.proxy_pid <= 0)
		return;
	kill(J.proxy_pid, SIGSTOP);
	proxy_cut();
	kill(J.proxy_pid, SIGKILL);
	waitpid(J.proxy_pid, NULL, 0);
	J.proxy_pid = 0;
}

/* ----------------------------------------------------------- the nodes */

static const char *
node_store(int i)
{
	return J.node[i].proxied ? J.proxy_uri : J.uri;
}

static int
node_start(int i)
{
	if (daemon_start_store(&J.node[i].d, node_store(i), node_flags) != 0) {
		fault_fail("node %d did not start", i);
		return -1;
	}
	set_port(i, J.node[i].d.port);
	return 0;
}

int
cluster_start(void)
{
	char		 user[64] = "postgres";
	const char	*u;
	int		 i;

	snprintf(bot_delay, sizeof(bot_delay), "%d", jo.bot_delay);
	nrng = jo.seed ^ 0x6e656d65ULL;
	if ((u = strstr(J.uri, "user=")) != NULL)
		snprintf(user, sizeof(user), "%s", u + 5);
	if ((J.proxy_port = play_free_port()) <= 0)
		return -1;
	snprintf(J.proxy_uri, sizeof(J.proxy_uri),
	    "postgresql://%s@127.0.0.1:%d/ludus", user, J.proxy_port);
	if (jo.proxied > 0 && proxy_start() != 0)
		return -1;
	for (i = 0; i < jo.nodes; i++) {
		J.node[i].proxied = i >= jo.nodes - jo.proxied;
		/* Each node's directory (its log); the database is one. */
		if (daemon_setup(&J.node[i].d) != 0 || node_start(i) != 0)
			return -1;
	}
	return 0;
}

int
cluster_stop(void)
{
	int	 i, bad = 0, rc;

	for (i = 0; i < jo.nodes; i++) {
		set_port(i, 0);
		if ((rc = daemon_finish(&J.node[i].d)) != 0) {
			J.node[i].exit_status = rc;
			bad++;
		}
	}
	return bad;
}

void
cluster_cleanup(void)
{
	int	 i;

	for (i = 0; i < jo.nodes; i++)
		daemon_cleanup(&J.node[i].d);
	proxy_down();
	if (copy_dir[0] != '\0') {
		static const char *const f[] = { "", "-wal", "-shm",
		    "-journal" };
		char	 path[300];
		size_t	 k;

		for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			snprintf(path, sizeof(path), "%s/copy.db%s", copy_dir,
			    f[k]);
			unlink(path);
		}
		rmdir(copy_dir);
	}
}

/* ---------------------------------------------------------- the faults */

/* pgcluster WHAT DIR [MODE] of the run's cluster. */
static int
cluster_cmd(const char *what, const char *mode)
{
	char	 cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s %s %s >/dev/null 2>&1", J.pgcluster,
	    what, J.pgdir, mode);
	return system(cmd) == 0 ? 0 : -1;
}

static void
fault_kill(struct fault *f)
{
	int	 i = f->node = fault_rnd(&nrng, jo.nodes);

	set_port(i, 0);
	daemon_stop(&J.node[i].d, SIGKILL);
	rc_sleep_ms(1000);
	/* Dead: none of its requests can commit any more once its
	 * sessions' last transactions are over (clients_fence waits). */
	clients_fence(i);
	node_start(i);
}

static void
fault_stop(struct fault *f)
{
	int	 i = f->node = fault_rnd(&nrng, jo.nodes);

	kill(J.node[i].d.pid, SIGSTOP);
	rc_sleep_ms(jo.stop_ms);
	kill(J.node[i].d.pid, SIGCONT);
}

/*
 * The games' rows locked FOR UPDATE by a session of our own for 60 ms,
 * the proxy cut 20 ms in: a commit of the proxied node waits for the
 * lock in the server when its connection breaks, and commits 40 ms later
 * for all it knows.  The proxy's connections are found first, so that
 * the cut is quick and the lock is let go well within the nodes'
 * lock_timeout (busy-timeout, 100 ms).
 */
static void
fault_lockcut(struct fault *f)
{
	PGconn		*pc = jpg_connect();
	pid_t		 pids[256];
	int		 n;
	int64_t		 t;

	if (PQstatus(pc) != CONNECTION_OK) {
		PQfinish(pc);
		f->hit = -1;
		return;
	}
	n = play_proxy_children(J.proxy_pid, pids, 256);
	PQclear(PQexec(pc, "BEGIN"));
	PQclear(PQexec(pc, "SELECT id FROM games WHERE id LIKE 'j%' FOR "
	    "UPDATE"));
	t = rc_now_us();
	rc_sleep_ms(20);
	f->hit = play_kill_all(pids, n);
	t = 60 - (rc_now_us() - t) / 1000;
	if (t > 0)
		rc_sleep_ms((int)t);
	PQclear(PQexec(pc, "COMMIT"));
	PQfinish(pc);
}

static void
fault_do(struct fault *f)
{
	f->node = -1;
	f->t0 = rc_now_us();
	switch (f->kind) {
	case F_KILL:
		fault_kill(f);
		break;
	case F_STOP:
		fault_stop(f);
		break;
	case F_PGFAST:
		if (cluster_cmd("bounce", "fast") != 0)
			fault_fail("pg_ctl restart -m fast");
		break;
	case F_PGIMM:
		if (cluster_cmd("bounce", "immediate") != 0)
			fault_fail("pg_ctl restart -m immediate");
		break;
	case F_CUT:
		f->hit = proxy_cut();
		break;
	case F_OUTAGE:
		proxy_down();
		rc_sleep_ms(jo.outage_ms);
		proxy_start();
		break;
	case F_LOCKCUT:
		fault_lockcut(f);
		break;
	}
	f->t1 = rc_now_us();
}

static void
fault_add(struct faultlog *l, const struct fault *f)
{
	l->f = jgrow(l->f, &l->cap, l->n, 64, sizeof(*l->f));
	l->f[l->n++] = *f;
}

/* Every node running and going on, the proxy up, the server up. */
static void
heal(void)
{
	int	 i;

	if (cluster_cmd("restart", "") == 0)
		rc_note("heal: the server was down");
	if (jo.proxied > 0 && J.proxy_pid <= 0)
		proxy_start();
	for (i = 0; i < jo.nodes; i++) {
		if (J.node[i].d.pid > 0)
			kill(J.node[i].d.pid, SIGCONT);
		else
			node_start(i);
	}
}

/* ------------------------------------------------------- the live copy */

/* ludus copy of the database while the clients play, then AUDIT of the
 * copy: a game copied from rows of two moves is not its history's. */
static void
copy_once(struct faultlog *l)
{
	char	 cmd[2 * PATH_MAX + 1024], line[256], path[300];
	FILE	*p;
	int	 torn = 0;

	snprintf(path, sizeof(path), "%s/copy.db", copy_dir);
	unlink(path);
	snprintf(cmd, sizeof(cmd), "'%s' copy '%s' '%s' >/dev/null 2>&1",
	    J.ludus, J.uri, path);
	if (system(cmd) != 0) {
		l->copies_failed++;
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s' --db '%s' AUDIT 2>&1", J.ludus, path);
	if ((p = popen(cmd, "r")) == NULL) {
		l->copies_failed++;
		return;
	}
	while (fgets(line, sizeof(line), p) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || strstr(line, "(empty") != NULL)
			continue;
		if (torn++ == 0 && l->torn_copy[0] == '\0')
			snprintf(l->torn_copy, sizeof(l->torn_copy), "%.60s", line);
	}
	if (pclose(p) != 0 && torn == 0) {
		l->copies_failed++;
		return;
	}
	l->copies++;
	l->torn_copies += torn;
}

static void *
copier_main(void *arg)
{
	struct faultlog	*l = arg;
	int64_t		 next = rc_now_us() + (int64_t)jo.copy_s * 500000;

	while (!J.stop) {
		if (rc_now_us() < next) {
			rc_sleep_ms(100);
			continue;
		}
		copy_once(l);
		next = rc_now_us() + (int64_t)jo.copy_s * 1000000;
	}
	return NULL;
}

/* ---------------------------------------------------------- the nemesis */

void
nemesis_run(int64_t until, struct faultlog *l)
{
	struct fault	 f;
	int		 kinds[F_NKINDS], nk = 0, k, i, j, t;
	int64_t		 next;

	for (k = 0; k < F_NKINDS; k++)
		if (jo.faults & (1u << k))
			kinds[nk++] = k;
	if (jo.copy_s > 0) {
		snprintf(copy_dir, sizeof(copy_dir), "%s/ludus-jepsen.XXXXXX",
		    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(copy_dir) == NULL)
			copy_dir[0] = '\0';
		else if (pthread_create(&copier, NULL, copier_main, l) == 0)
			copier_on = 1;
	}
	next = rc_now_us() + 2000000;
	for (i = 0; nk > 0; i++) {
		if (i % nk == 0)
			for (j = nk - 1; j > 0; j--) {
				k = fault_rnd(&nrng, j + 1);
				t = kinds[j];
				kinds[j] = kinds[k];
				kinds[k] = t;
			}
		while (rc_now_us() < next && rc_now_us() < until)
			rc_sleep_ms(20);
		/* The last seconds without faults: what was unknown settles. */
		if (rc_now_us() > until - 3000000)
			break;
		memset(&f, 0, sizeof(f));
		f.kind = kinds[i % nk];
		fault_do(&f);
		fault_add(l, &f);
		if (f.node >= 0)
			rc_note("%6.1f s  %s of node %d", (f.t0 - J.t_start) /
			    1e6, fault_name[f.kind], f.node);
		else
			rc_note("%6.1f s  %s", (f.t0 - J.t_start) / 1e6,
			    fault_name[f.kind]);
		/* Half to one and a half times the interval apart. */
		next = f.t1 + (jo.fault_ms / 2 + fault_rnd(&nrng,
		    jo.fault_ms + 1)) * 1000LL;
	}
	while (rc_now_us() < until)
		rc_sleep_ms(20);
	heal();
}

/* The copier ends with the clients (J.stop). */
void
nemesis_join(void)
{
	if (copier_on)
		pthread_join(copier, NULL);
	copier_on = 0;
}
