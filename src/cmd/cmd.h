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

#include "game/game.h"
#include "store/store.h"
#include "util/reply.h"

/* Called after a move has committed, once per stored move, in order. */
typedef void (*cmd_move_hook)(void *arg, const char *game,
    const struct move *);
/*
 * Called after a commit that set when the server must next play a turn
 * of a game by itself (cmd_autoplay): due_ms is that time in unix
 * milliseconds (at or before now for a bot's turn), or 0 for never.
 */
typedef void (*cmd_sched_hook)(void *arg, const char *game, int64_t due_ms);
/*
 * Called by cmd_txn_commit() for each request of the transaction (struct
 * cmd_result's req) that conflicted with another writer of the store (an
 * optimistic store, store.h: several ludusd nodes): nothing it wrote is
 * stored and its reply must not be sent.  redo: run it again, on the
 * fresh state; else what became of its write could not be found out, and
 * its reply can only be -STORE.  Its move's events are not sent.
 */
typedef void (*cmd_conflict_hook)(void *arg, uint64_t req, int redo);

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
	cmd_conflict_hook on_conflict;	/* with env->txn */
	void		*on_conflict_arg;
	uint64_t	 conflicts;	/* requests run again after one */
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
	uint64_t	 req;		/* the request's number in the open
					   transaction, for on_conflict */
};

/* Finds a command (case-insensitive); NULL if none. */
const struct cmd_def	*cmd_lookup(const char *);
/* Iterates the table (for COMMAND and --help); NULL past the end. */
const struct cmd_def	*cmd_at(size_t);
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

/* Syntax checks shared by the handlers. */
int	valid_id(const char *, size_t);	/* 1-50 of a-z 0-9 - */

#endif /* LUDUS_CMD_H */
