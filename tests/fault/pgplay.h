/*
 * What the black-box programs of faults under ludusd nodes on PostgreSQL
 * share (tests/fault/pgfaults, tests/fault/pgpromise): DandyLand games
 * without a deck (they never end) whose every reply the engine, linked
 * in, predicts, played a round at a time with AT; the suite's cluster
 * stopped and started (tests/lib/pgcluster); a socat proxy between a node
 * and the server whose connections are cut; and the checks of what is
 * stored against what was answered.
 */
#ifndef LUDUS_PGPLAY_H
#define LUDUS_PGPLAY_H

#include <sys/types.h>

#include <stdint.h>

#include "engine/engine.h"
#include "daemon_helper.h"
#include "rclient.h"

#define PLAY_GAMES	6
#define PLAY_IO_MS	30000

struct fgame {
	char			 id[16];
	struct dandy_state	 st;		/* after the moves answered */
	int64_t			 moves;
	int			 pending;	/* a move refused, to resend */
	int			 card;		/* ... with this card */
	char			 want[32];	/* ... and this reply */
	char			 why[160];	/* ... refused so */
	char			(*hist)[48];
	size_t			 cap;
};

extern struct fgame	 F[PLAY_GAMES];
extern uint64_t		 rng;
/* Replies so far: predicted successes, -STORE refusals, and of those the
 * ones that said the outcome is not known. */
extern uint64_t		 ok_replies, refused, refused_unknown;

/* The options "NAME N" of a program: N (0 to INT32_MAX) into the int of
 * its name in names (n of them), --seed's into rng.  0, or -1 for an
 * option unknown or a bad number. */
int	play_options(int argc, char **argv, const char *const *names,
	    int *const *vals, size_t n);
/* The cluster and the pgcluster script (from LUDUS_TEST_PGDIR and
 * top_srcdir): 0, or -1 when the suite has no cluster. */
int	play_init(void);
/* pgcluster WHAT [MODE] of the suite's cluster (kill, restart, ...);
 * MODE may be NULL.  0 or -1. */
int	play_cluster(const char *what, const char *mode);
/* The cluster's directory (its socket). */
const char *play_pgdir(void);

/* Game i, named prefix<i>, created: 0 or -1 (failed, noted). */
int	play_create(struct rconn *, int i, const char *prefix);
/* One round: a move of every game, pipelined with AT; the replies read
 * and checked.  The games answered, or -1 when the connection broke. */
int	play_round(struct rconn *);
/* GAME.INFO's move count, -1 if it cannot be read. */
int64_t	play_moves_of(struct rconn *, const char *id);
/* The games whose refused move is stored all the same (GAME.INFO is
 * ahead of the moves acknowledged), counted now: a refusal that lied. */
int	play_refused_stored(struct rconn *);
/* Plays until every move refused has been stored (noted if not). */
void	play_settle(struct rconn *);
/* Each game's history is its moves once each, and AUDIT is empty. */
void	play_check(struct rconn *);
/* Frees the games' histories. */
void	play_free(void);

/* A free loopback port, -1 if none. */
int	play_free_port(void);
/* socat from 127.0.0.1:port to the cluster's socket: its pid. */
pid_t	play_proxy_start(int port);
/* Kills the proxy's children, the connections it carries (the listener
 * stays): how many were cut. */
int	play_proxy_cut(pid_t parent);
/* The proxy's children (up to max) into pids, without killing them: a
 * cut that must be quick finds them first.  How many. */
int	play_proxy_children(pid_t parent, pid_t *pids, int max);
/* SIGKILL to each of n processes: how many got it. */
int	play_kill_all(const pid_t *pids, int n);
/* The suite's store URI through 127.0.0.1:port, into buf. */
void	play_proxy_uri(char *buf, size_t len, int port);

#endif /* LUDUS_PGPLAY_H */
