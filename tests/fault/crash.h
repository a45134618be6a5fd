/*
 * crash's private header: the driver's types and state (crash.c) and
 * what crash_play.c, which plays the games and reads the replies,
 * offers it (prefixed cr_).
 */
#ifndef LUDUS_CRASH_H
#define LUDUS_CRASH_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "util/reply.h"
#include "daemon_helper.h"
#include "rclient.h"

#define IO_TIMEOUT_MS	30000	/* no reply this long: the daemon hangs */
#define DRAIN_MS	5000	/* reading what a killed daemon had sent */
#define SLOTS		3	/* games played at once per connection */
#define MAX_PIPELINE	32	/* requests per connection per round */
#define MAX_ROUNDS	4	/* rounds in a cycle before the kill */
#define MAX_MOVES	3000	/* a game this long is abandoned */
#define DANDY_MOVES	150	/* draws before a deckless game is replaced */
#define MAX_JUMPS	6
#define HIST_PAGE	10000	/* HISTORY's largest count */
#define SAMPLE_OLD	2	/* old games re-checked per cycle */

enum gkind { GK_LUDO = 0, GK_SNL, GK_DANDY };

struct hmove {
	char	 player[16];
	char	 action[16];
	char	 result[48];
};

struct jump {
	int	 from, to;
	int	 snake;
	int	 acked;
	int	 present;	/* seen in SNL.STATE after a kill */
};

struct cgame {
	char		 id[24];
	enum gkind	 kind;
	int		 conn;
	union {
		struct ludo_state	ludo;
		struct snl_state	snl;
		struct dandy_state	dandy;
	} st;			/* after every request sent */
	int		 nplayers;
	struct hmove	*mv;	/* every move sent, mv[i] is seq i + 1 */
	size_t		 nmv, capmv;
	size_t		 acked;	/* moves acknowledged (a prefix) */
	int		 created_acked;
	int		 existed;	/* found after a kill, before resend */
	struct jump	 jumps[MAX_JUMPS];
	int		 njumps;
	int		 done;	/* no more moves will be sent */
	int		 cycle;	/* last cycle with a request */
};

enum optype { OP_CREATE, OP_JUMP, OP_MOVE };

struct op {
	enum optype	 type;
	int		 game;
	size_t		 idx;	/* OP_MOVE: move index; OP_JUMP: jump index */
	char		*req;
	size_t		 reqlen;
};

struct cconn {
	struct rconn	 rc;
	int		 slot[SLOTS];	/* game index, -1 none */
	struct op	*ops;		/* this cycle's requests */
	size_t		 nops, capops;
	size_t		 nacked;	/* ops acknowledged (a prefix) */
};

struct totals {
	uint64_t	 cycles;
	uint64_t	 acknowledged;	/* moves */
	uint64_t	 inflight;	/* moves unacknowledged at a kill */
	uint64_t	 applied_before;	/* of those, found applied */
	uint64_t	 resent_once;	/* resent and then found once */
	uint64_t	 lost;
	uint64_t	 half_applied;
	uint64_t	 stale;
	uint64_t	 mismatches;
	uint64_t	 integrity;	/* integrity_check failures */
	uint64_t	 kills_inflight;	/* kills with requests open */
	uint64_t	 games;
};

struct crash_opts {
	int		 cycles;
	int		 nconns;
	uint64_t	 seed;
	int		 verbose;
	int		 sabotage;	/* --self-test: the run must fail */
};

/* The run's state, crash.c's. */
extern struct crash_opts opt;
extern struct daemon	 D;
extern struct cgame	*games;
extern size_t		 ngames, capgames;
extern struct cconn	*conns;
extern struct totals	 T;
extern uint64_t		 rng;
extern int		 cur_cycle;
extern char		 failure[512];		/* first fatal error */

/* crash_play.c: helpers */
uint64_t	 cr_rnd64(void);
int		 cr_rnd(int);
/* Records the first fatal error; the run stops at the next check. */
void		 cr_fatal_msg(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
/* A note with --verbose. */
void		 cr_diag(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
const char	*cr_reply_text(const struct reply *);
/* The words of an encoded request, for messages (a static buffer). */
const char	*cr_req_text(const struct op *);
/* A call on a fresh or idle connection; 0, or -1 (a fatal error set). */
int		 cr_call(struct rconn *, struct reply *, const char *,
		    const char *, const char *, const char *);

/* crash_play.c: the games and the replies */
void		 cr_gen_pipeline(int, int);
void		 cr_send_round(int);
void		 cr_read_round(void);
void		 cr_read_some(size_t);
void		 cr_drain_after_kill(void);

#endif
