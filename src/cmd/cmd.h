/*
 * The command layer: one static table of commands (name, handler, arity,
 * flags), looked up case-insensitively; arity and argument syntax are
 * checked before the handler's work, and every state-changing command is
 * one store transaction.  Handlers build struct reply values only.
 */
#ifndef LUDUS_CMD_H
#define LUDUS_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/reply.h"
#include "game.h"
#include "store/store.h"

/* Called after a move has committed, once per stored move, in order. */
typedef void (*cmd_move_hook)(void *arg, const char *game,
    const struct move *);
/*
 * Called after a commit that set when the server must next play a turn
 * of a game by itself (cmd_autoplay): due_ms is that time in unix
 * milliseconds (at or before now for a bot's turn), or 0 for never.
 */
typedef void (*cmd_sched_hook)(void *arg, const char *game, int64_t due_ms);

struct cmd_txn;

/* What all clients share: the store, the clock, the commit hook, counters. */
struct cmd_env {
	struct store	*store;
	int64_t		(*now)(void);	/* unix seconds; NULL: time(2) */
	cmd_move_hook	 on_move;
	void		*on_move_arg;
	uint64_t	 turns;		/* moves committed */
	uint64_t	 commits;	/* transactions committed */
	uint64_t	 store_errors;
	/* Seats, bots and turn deadlines. */
	int64_t		(*now_ms)(void);	/* unix ms; NULL: from now()
						   (if set) or the clock */
	int		 require_seats;	/* every new game is seats=secure */
	cmd_sched_hook	 on_schedule;
	void		*on_schedule_arg;
	/*
	 * Group commit (cmd_txn.h).  NULL: each write is a transaction of
	 * its own (the embedded CLI).  Else (ludusd) writes join the open
	 * transaction, each in a savepoint, and the counters above and both
	 * hooks wait for cmd_txn_commit().  The counters below are INFO's
	 * batches, batch_failures and largest_batch.
	 */
	struct cmd_txn	*txn;
	uint64_t	 batches;	/* transactions that wrote, ended */
	uint64_t	 batch_failures;	/* ... whose COMMIT failed */
	uint64_t	 batch_max;	/* most writes committed at once */
};

#define CMD_WRITE	0x01	/* may change state: runs in a transaction */
#define CMD_READONLY	0x02
#define CMD_CONN	0x04	/* connection command (handled by ludusd) */

/*
 * Per-connection state the commands consult: the seats the connection
 * holds (SEAT), of one or several games.  The daemon makes one per
 * connection, the embedded CLI one per run; NULL holds no seat.
 */
struct cmd_seat {
	char	game[GAME_ID_MAX + 1];
	int	player;			/* index in the game */
};

struct cmd_session {
	struct cmd_seat	*seats;
	size_t		 nseats;
	size_t		 cap;
};

struct cmd_session	*cmd_session_new(void);
void			 cmd_session_free(struct cmd_session *);
/* 1 when the session holds that seat (player < 0: any seat of game). */
int			 cmd_session_holds(const struct cmd_session *,
			    const char *game, int player);

struct cmd_args {
	int		  argc;
	char		**argv;		/* NUL-ended; argv[0] is the name */
	size_t		 *argl;		/* lengths (args may hold NULs) */
	struct cmd_session *session;	/* may be NULL */
};

struct cmd_def {
	const char	*name;
	void		(*proc)(struct cmd_env *, const struct cmd_args *,
			    struct reply *);
	int		 arity;		/* argc incl. name; -N: at least N */
	int		 flags;
	const char	*usage;
};

/*
 * What running a command tells its caller about group commit (all 0 with
 * no transaction open, and always without env->txn).
 */
struct cmd_result {
	int		 wait;		/* the reply waits for cmd_txn_commit():
					   it came from the store while the
					   transaction was open (a request
					   refused for its name, arity or
					   syntax does not wait) */
	uint64_t	 moves;		/* moves kept in the open transaction so
					   far, this command's included: the
					   k-th on_move call of its commit
					   (from 0) is for a move made before
					   the reply iff k < moves */
	size_t		 writes;	/* writes run in the open transaction,
					   failed ones included (0: none is
					   open): for the daemon's caps */
};

/* Finds a command (case-insensitive); NULL if none. */
const struct cmd_def	*cmd_lookup(const char *);
/* Iterates the table (for COMMAND and --help); NULL past the end. */
const struct cmd_def	*cmd_at(size_t);
/* The lookup and the arity check of cmd_run(): the command, or NULL with
 * the -ERR reply (marked rejected) in out, which must be REPLY_NONE. */
const struct cmd_def	*cmd_check(const struct cmd_args *, struct reply *);
/* Looks up, checks arity and runs; unknown command or wrong arity become
 * -ERR replies.  out must be REPLY_NONE.  res gets what the caller of a
 * shared transaction must know (struct cmd_result). */
void	cmd_run(struct cmd_env *, const struct cmd_args *, struct reply *,
	    struct cmd_result *res);
/* The same, for a caller with no shared transaction. */
void	cmd_execute(struct cmd_env *, const struct cmd_args *, struct reply *);
/* Convenience for C callers and tests: a NULL-terminated list of words. */
void	cmd_executev(struct cmd_env *, struct reply *, const char *, ...);

/* The env's clock in unix milliseconds: now_ms, else now() * 1000, else
 * the system's real-time clock.  Deadlines are on this clock. */
int64_t	cmd_now_ms(const struct cmd_env *);

/*
 * Plays the turn of the game's current player if the server owes it: the
 * player is a bot, or the turn's deadline (turn-timeout) is at or before
 * now_ms.  One move at most, in one transaction, on server dice (a Ludo
 * roll already drawn is used), chosen by the bot's strategy or by
 * "first" for an absent player; stored in history as automatic, then
 * env->on_move and env->on_schedule are called as for any move.
 * Returns 1 when it played (*played gets the move), 0 when nothing was
 * due, -1 on error (no such game, store failure).  *next_ms gets when to
 * call again: unix ms (<= now_ms: at once), or 0 for never.
 */
int	cmd_autoplay(struct cmd_env *, const char *game, int64_t now_ms,
	    struct move *played, int64_t *next_ms);
/* Calls cb for every game the server has a turn to play in (a bot to
 * move, a pending deadline), with its due time; for start-up.  0, or -1
 * when the store failed. */
typedef void (*cmd_due_cb)(void *arg, const char *game, int64_t due_ms);
int	cmd_due_games(struct cmd_env *, cmd_due_cb, void *arg);

/* A stored move as one line, "seq,player,action,result", with ",bot" or
 * ",timeout" for a move the server made: HISTORY's entry and a pub/sub
 * message.  Returns its length (cut to fit size, NUL-ended). */
#define CMD_MOVE_LINE_MAX \
	(24 + GAME_ID_MAX + ACTION_MAX + RESULT_MAX + 16)
size_t	cmd_move_line(const struct move *, char *buf, size_t size);

/*
 * Streams over history (cmd_stream.c): what the daemon needs to stream a
 * long XRANGE in pieces and to make XREAD wait (src/net/stream.c).
 */
struct xrange_req {
	const char	*id;		/* the game */
	int		 valid;		/* id is a game id (else no entries) */
	int		 rev;		/* XREVRANGE */
	int64_t		 lo, hi;	/* seqs in the range, lo >= 1 */
	int64_t		 count;		/* at most, >= 0 */
};
/* XRANGE's or XREVRANGE's arguments (rev: the second).  0, or -1 with the
 * error in out. */
int	cmd_xrange_args(struct reply *out, const struct cmd_args *, int rev,
	    struct xrange_req *);
/* How many entries the range has in a game of that many moves. */
int64_t	cmd_xrange_span(const struct xrange_req *, int64_t moves);
/* Appends the entries of n moves from first on (rev: from first down) to
 * the array arr.  0, or -1 when the store failed. */
int	cmd_stream_rows(struct cmd_env *, const char *id, int64_t first,
	    int64_t n, int rev, struct reply *arr);

struct xread_req {
	int64_t		 count;		/* entries per game, at most */
	int64_t		 block_ms;	/* BLOCK's; -1: none */
	int		 first;		/* argv index of the first key */
	int		 nkeys;		/* then as many ids */
};
struct xread_key {
	const char	*id;
	size_t		 len;
	int64_t		 after;		/* the entries of later moves */
};
/* XREAD's arguments, every id checked.  0, or -1 with the error set. */
int	cmd_xread_args(struct reply *out, const struct cmd_args *,
	    struct xread_req *);
/* One XREAD id: 1 for "$" (the caller knows the last move), 0 with
 * *after set, -1 when it is no id. */
int	cmd_xread_id(const char *, size_t, int64_t *after);
/* The XREAD reply for these keys: [[id, entries], ...] for the games
 * with entries, or null.  0, or -1 with -STORE set. */
int	cmd_xread(struct cmd_env *, const struct xread_key *, int n,
	    int64_t count, struct reply *out);

/* Syntax checks shared by the handlers. */
int	valid_id(const char *, size_t);	/* 1-50 of a-z 0-9 - */

#endif /* LUDUS_CMD_H */
