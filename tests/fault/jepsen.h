/*
 * What the parts of tests/fault/jepsen share: the cluster under test, the
 * operations the clients record, the events and pings the watchers
 * record, the faults the nemesis injects, and the figures the checker
 * counts.  See jepsen.c for what the program does and why.
 *
 * Every time is a monotonic clock in microseconds (rc_now_us()), one
 * clock for all threads, so that "completed before invoked" is exact.
 */
#ifndef LUDUS_JEPSEN_H
#define LUDUS_JEPSEN_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdint.h>

#include "engine/engine.h"
#include "daemon_helper.h"

#define J_MAX_NODES	8
#define J_MAX_GAMES	200
#define J_MAX_BOTS	16
#define J_MAX_CLIENTS	256
#define J_CARDS		18	/* a-i and 1-9 */
#define J_IO_MS_DEFAULT	10000	/* a request's reply; past it, unknown */
/* How long a node looks for the outcome of a COMMIT whose connection
 * broke before it says "not known" (doc/protocol.md): a fault healed
 * sooner leaves it nothing it cannot tell. */
#define J_OUTCOME_MS	30000

/* ------------------------------------------------------------ options */

enum fault_kind {
	F_KILL,		/* kill -9 of a node, restarted a second later */
	F_STOP,		/* SIGSTOP of a node, SIGCONT after --stop-ms */
	F_PGFAST,	/* pg_ctl restart -m fast */
	F_PGIMM,	/* pg_ctl restart -m immediate (a crash) */
	F_CUT,		/* the proxy's connections killed */
	F_OUTAGE,	/* the proxy down for --outage-ms, connections too */
	F_LOCKCUT,	/* the games' rows locked, the proxy cut meanwhile */
	F_NKINDS
};

struct jopt {
	int		 nodes;		/* ludusd nodes (3) */
	int		 proxied;	/* of which behind the proxy (1) */
	int		 clients;	/* client threads (30) */
	int		 games;		/* shared DandyLand games (50) */
	int		 bots;		/* games of bots, paced (3) */
	int		 duration;	/* seconds of load (60) */
	int		 fault_ms;	/* between two faults (4000) */
	unsigned	 faults;	/* bit set of enum fault_kind */
	int		 stop_ms;	/* a SIGSTOP's length (5000) */
	int		 outage_ms;	/* the proxy's outage (3000) */
	int		 bot_delay;	/* the nodes' bot-delay, ms (300) */
	int		 io_ms;		/* a reply's timeout (10000) */
	int64_t		 preload;	/* history rows of filler games */
	int		 copy_s;	/* a live ludus copy every (10 s) */
	int		 figures;	/* print the figures as a table */
	uint64_t	 seed;
};

extern struct jopt	 jo;

/* --------------------------------------------------------- the cluster */

struct jnode {
	struct daemon	 d;
	int		 proxied;
	int		 port;		/* 0 while it is down (under J.lock) */
	int		 exit_status;	/* of its last stop, when not 0 */
};

struct jgame {
	char		 id[16];
	int		 np;
	char		 board[16];
	char		 deck[DANDY_DECK_MAX + 1];	/* bots' games */
};

struct jcluster {
	pthread_mutex_t	 lock;
	volatile int	 stop;		/* the clients and watchers end */
	int64_t		 t_start;	/* of the load, us */
	int64_t		 t_end;		/* the clients were told to stop */
	const char	*pgdir;
	const char	*pgcluster;	/* tests/lib/pgcluster */
	char		 uri[600];	/* PostgreSQL, on its socket */
	char		 proxy_uri[600];
	int		 proxy_port;
	pid_t		 proxy_pid;
	struct jnode	 node[J_MAX_NODES];
	struct jgame	 game[J_MAX_GAMES];
	struct jgame	 bot[J_MAX_BOTS];
	int		 nfiller;
	char		 ludus[PATH_MAX];	/* the CLI, for ludus copy */
};

extern struct jcluster	 J;

/* A libpq connection to the database (J.uri), its notices unsaid (a
 * server restarted under it warns). */
PGconn		*jpg_connect(void);
/* A column's integer, checked: a value that is none is a failure, and
 * -1 (no row of the games takes it). */
int64_t		 jpg_int(const PGresult *, int row, int col);

/* The port of node i now, 0 while it is down (a stopped node's is
 * given: its clients do not know, they wait). */
int		 node_port(int i);

/* ------------------------------------------------- what clients record */

enum op_type {
	OP_DRAW,	/* DANDY.DRAW g c */
	OP_DRAW_AT,	/* DANDY.DRAW g c AT k */
	OP_PIPE,	/* DANDY.DRAW g c pipelined with SUBSCRIBE/GAME.WATCH w */
	OP_STATE,	/* DANDY.STATE g */
	OP_INFO,	/* GAME.INFO g */
	OP_HISTORY,	/* HISTORY g from count */
	OP_XRANGE,	/* XRANGE g from-0 + COUNT count */
	OP_NTYPES
};

enum op_outcome {
	OUT_OK,		/* a reply that claims something */
	OUT_FAIL,	/* an error reply: nothing changed */
	OUT_LOST,	/* no reply (timeout, connection lost): unknown */
	OUT_TOLD,	/* -STORE ... is not known: unknown, said so */
	OUT_NOUTCOMES
};

/* A DandyLand state as DANDY.STATE says it (and the engine gives it). */
struct jstate {
	int8_t		 turn;
	int8_t		 np;
	int8_t		 pos[DANDY_MAX_PLAYERS];	/* 0-based, -1 off */
	int32_t		 points[DANDY_MAX_PLAYERS];
};

struct op {
	int64_t		 t0, t1;	/* invoked, completed (or given up) */
	int64_t		 at;		/* AT seq; reads: the first seq asked */
	int64_t		 n;		/* INFO: moves; HISTORY/XRANGE: rows */
	int32_t		 cnt;		/* HISTORY/XRANGE: rows asked */
	uint64_t	 hash;		/* HISTORY/XRANGE: of the rows' lines */
	union {
		char		 reply[24];	/* a draw's result */
		struct jstate	 st;		/* DANDY.STATE; INFO: turn */
	} u;
	int32_t		 client;
	int16_t		 game;
	int16_t		 err;		/* error text's index, -1 none */
	int8_t		 node;
	uint8_t		 early;		/* events that came before its reply */
	uint8_t		 type;		/* enum op_type */
	uint8_t		 outcome;	/* enum op_outcome */
	char		 card;
	/* Filled by the checker. */
	int64_t		 seq;		/* the row it made, 0 none */
	int8_t		 verdict;	/* enum verdict */
	uint8_t		 took;		/* it made that row (not a resend's) */
};

/* What the checker found of one operation. */
enum verdict {
	V_NONE = 0,
	V_GOOD,		/* consistent with the history */
	V_APPLIED,	/* an unknown one: stored */
	V_NOT_APPLIED,	/* an unknown one: not stored */
	V_UNRESOLVED,	/* an unknown one the history cannot tell */
	V_LOST,		/* acknowledged, not stored */
	V_DUPLICATED,	/* stored more than once */
	V_ERR_APPLIED,	/* answered with an error, stored */
	V_CONTRADICTED,	/* its reply is not what was stored */
	V_TORN,		/* a read of a state no prefix produces */
	V_STALE		/* a read older than a move acknowledged before it */
};

/* The operations of all clients, merged after the run. */
struct oplog {
	struct op	*op;
	size_t		 n, cap;
};

/* p (n of its *cap elements of size used) with room for one more: its
 * capacity doubled, from first. */
void		*jgrow(void *p, size_t *cap, size_t n, size_t first,
		    size_t size);
/* Appends to a log; the op's index. */
size_t		 oplog_add(struct oplog *, const struct op *);
/* The distinct error texts (interned under J.lock), and their count. */
int		 err_intern(const char *);
const char	*err_text(int);
int		 err_count(void);
void		 err_free(void);

/* The line of a history row, "seq,player,action,result", hashed (FNV-1a
 * from LINE_HASH_INIT), and rows' hashes chained in order. */
uint64_t	 line_hash(uint64_t h, const char *line);
uint64_t	 rows_hash_add(uint64_t h, uint64_t row);
#define LINE_HASH_INIT	1469598103934665603ULL

/* ---------------------------------------------------------- the clients */

/* Starts the client threads, and ends them (after J.stop); the ops of
 * all of them in *log, sorted by invocation. */
int		 clients_start(void);
void		 clients_join(struct oplog *);
/* Releases the cards of the unknown draws sent to node i: it was killed,
 * so none of them can still commit. */
void		 clients_fence(int node);
/* How many draws found every card of their game held (figures). */
extern uint64_t	 clients_full;

/* --------------------------------------------------------- the watchers */

struct event {
	int64_t		 t;		/* when it arrived */
	int64_t		 seq;
	uint64_t	 hash;		/* of its line */
	int16_t		 game;		/* >= 0 client game, < 0: bot -1-i */
	int8_t		 node;
	uint8_t		 backlog;	/* sent soon after a (re)watch */
	uint8_t		 order;		/* 0 in order, 1 a gap, 2 a repeat */
};

struct ping {
	int64_t		 t0;
	int32_t		 us;
	int8_t		 node;
};

/* When each move of a game of bots was committed, as the observer saw it
 * in the history table: after lo (a look that did not see it yet was
 * sent then) and before hi (a look that saw it had its answer then). */
struct botlog {
	int64_t		*lo, *hi;	/* [seq], 1..n */
	int64_t		 n, cap;
};

struct watchlog {
	struct event	*ev;
	size_t		 nev, capev;
	struct ping	*ping;
	size_t		 nping, capping;
	uint64_t	 rewatch;	/* reconnects of the watchers */
	struct botlog	 bot[J_MAX_BOTS];
};

/* A watcher (GAME.WATCH of every game) and a PING probe per node, and
 * the observer of the bots' moves (PostgreSQL's history, every 10 ms). */
int		 watchers_start(void);
void		 watchers_join(struct watchlog *);

/* ---------------------------------------------------------- the nemesis */

struct fault {
	int64_t		 t0, t1;
	int		 kind;		/* enum fault_kind */
	int		 node;		/* -1 for the server and the proxy */
	int		 hit;		/* cut: connections killed */
};

struct faultlog {
	struct fault	*f;
	size_t		 n, cap;
	int		 copies, copies_failed;
	int		 torn_copies;	/* games a live copy got torn */
	char		 torn_copy[64];	/* the first of them */
};

extern const char *const fault_name[F_NKINDS];
int		 fault_parse(const char *, unsigned *);

/* Starts PostgreSQL's proxy and the nodes; 0 or -1. */
int		 cluster_start(void);
/* Injects faults until the deadline (the main thread: the nodes it
 * restarts are its children), then heals everything. */
void		 nemesis_run(int64_t until, struct faultlog *);
/* Waits for the live copies' thread, which ends with the clients. */
void		 nemesis_join(void);
/* SIGTERM to every node; how many did not exit 0. */
int		 cluster_stop(void);
void		 cluster_cleanup(void);
/* The nodes' ludusd flags. */
extern const char *const node_flags[];

/* ---------------------------------------------------------- the checker */

struct figures {
	uint64_t	 ops[OP_NTYPES][OUT_NOUTCOMES];
	uint64_t	 faults[F_NKINDS];
	uint64_t	 lost, duplicated, err_applied, contradicted;
	uint64_t	 torn, stale, phantom, early;
	uint64_t	 unended;	/* sessions a node gave up on, alive */
	uint64_t	 unknown_lost, unknown_told;	/* no reply, "not known" */
	uint64_t	 told_needless;	/* "not known", every fault short */
	uint64_t	 told_applied, told_not, told_unresolved;
	uint64_t	 lost_applied, lost_not, lost_unresolved;
	uint64_t	 illegal, gaps, disagree, audit;
	uint64_t	 ev_wrong, ev_gap, ev_repeat, events;
	uint64_t	 rows;
	int64_t		 feed_p50, feed_p99, feed_max;	/* us */
	uint64_t	 feed_n;
	int		 feed_slow;			/* p99 over 1 s */
	int64_t		 ping_p99, ping_max;		/* us */
	uint64_t	 pings, stalls;
	uint64_t	 bot_gaps, bot_short;
	int64_t		 bot_min_gap;			/* us */
	uint64_t	 torn_copies;
	int		 unclean_exits;
};

/* A stored history row, and a game as stored (read from PostgreSQL
 * directly, never through a node) with the states of its prefixes. */
struct trow {
	char		 player[8];
	char		 card;
	char		 result[24];
	uint64_t	 hash;		/* of "seq,player,action,result" */
};

struct tgame {
	int64_t		 n;		/* rows; row[k] is move k + 1 */
	struct trow	*row;
	struct jstate	*pre;		/* pre[k]: after k moves, 0..n */
	int64_t		 moves;		/* the games row's */
	struct jstate	 stored;	/* the games and tokens rows' */
	int		 found;		/* the games row exists */
	int		 gaps;		/* seqs not 1..n */
	int		 illegal;	/* rows the rules do not give */
	int		 unlike;	/* stored state is not the replay's */
};

/* Game k of the truth: the clients' games, then the bots'. */
#define TRUTH_GAMES	(jo.games + jo.bots)
extern struct tgame	*truth;

/* Reads every game's rows from PostgreSQL and replays them with the
 * engine (the prefixes' states, legality, gaps); 0 or -1. */
int		 truth_load(void);
void		 truth_free(void);
/* The state of the engine as DANDY.STATE says it. */
void		 jstate_of(struct jstate *, const struct dandy_state *);
int		 jstate_eq(const struct jstate *, const struct jstate *);

/* Matches each game's draws with its rows (jepsen_check.c), then reads,
 * events, delays and pace against the truth (jepsen_reads.c). */
void		 check_draws(struct oplog *, struct figures *);
void		 check_reads(struct oplog *, struct figures *);
void		 check_watch(const struct oplog *, const struct watchlog *,
		    const struct faultlog *, struct figures *);
/* Every node's answers for every client game against the truth (the
 * nodes still running, the clients stopped): the differences. */
uint64_t	 check_nodes_agree(void);

#endif /* LUDUS_JEPSEN_H */
