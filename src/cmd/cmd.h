/*
 * The command layer: one static table of every command, the daemon's
 * connection commands included (name, handler, arity, flags, usage and
 * the declared arguments), looked up case-insensitively; the arity and
 * then the arguments (cmd_args.h) are checked before the handler runs,
 * and every state-changing command is one store transaction.  Handlers
 * build struct reply values only.
 *
 * Declaring a command, say GAME.RENAME id newid [AT seq]:
 *
 *  1. its arguments, in its file next to its handler, indexed by an enum
 *     the handler reads the values with (cmd_args.h has the macros):
 *
 *	enum { RENAME_ID, RENAME_NEW, RENAME_AT };
 *	static const struct cmd_arg rename_args[] = {
 *		[RENAME_ID] = CMD_ARG_GAME,
 *		[RENAME_NEW] = CMD_ARG_ID("newid", "game"),
 *		[RENAME_AT] = CMD_ARG_AT,
 *	};
 *	const struct cmd_spec cmd_game_rename_args =
 *	    CMD_SPEC(rename_args, 0);
 *
 *     (CMD_SPEC_OPTS for key=value options, each with its apply hook);
 *     the handler reads p->v[RENAME_NEW].s and p->v[RENAME_AT].i (-1: no
 *     AT) and never argv;
 *  2. CMD_PROTO(game_rename) in cmd_impl.h;
 *  3. one line of cmd_table[] (cmd_dispatch.c), in its sorted place:
 *
 *	ENTRY("GAME.RENAME", cmd_game_rename, -3, CMD_WRITE,
 *	    "GAME.RENAME id newid [AT seq]", cmd_game_rename_args),
 *
 *     (test_args checks the order, that the arity agrees with the
 *     arguments and that they make exactly that usage line);
 *  4. its section in doc/protocol.md (test_docs checks there is one).
 *
 * A connection command (one that concerns the connection, which only the
 * daemon has), say CLIENT, has no handler here: its arguments go in
 * cmd_conn.c (declared in cmd_impl.h), a value CONN_CLIENT in enum
 * cmd_conn below, its line in cmd_table[]
 *
 *	CONN_ENTRY("CLIENT", -2, 0, "CLIENT ...", cmd_conn_client_args,
 *	    CONN_CLIENT),
 *
 * (flags CMD_CONN | CMD_READONLY are implied; CMD_PUBSUB if a RESP2
 * subscriber may send it), and its handler, which gets the parsed words,
 * at [CONN_CLIENT] in the daemon's conn_procs[] (src/net/conncmd.c), with
 * the daemon's own flags (a barrier, allowed before AUTH, queued or not
 * by MULTI).  The command layer answers it "unknown command", as it always
 * has (the embedded CLI has no connections); the daemon finds it by the
 * same one lookup as every request and runs cmd_parse() before its
 * handler.
 *
 * A command of this layer whose answer the daemon may deliver its own way
 * (XRANGE, XREVRANGE, XREAD: a long range in slices as the client reads,
 * a BLOCK that waits for a move) is an ENTRY with CMD_STREAM: its handler
 * here answers it at once (the embedded CLI, an EXEC, a short range), and
 * cmd_stream_args() tells the daemon what the request asks.
 */
#ifndef LUDUS_CMD_H
#define LUDUS_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd_args.h"
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
struct cmd_lobby;

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
	/* Requests whose COMMIT found a row changed by another writer (an
	 * optimistic store), each counted once per COMMIT: INFO's
	 * conflicts and /metrics' ludus_conflicts_total read it.  SQLite's
	 * write lock leaves it at 0. */
	uint64_t	 conflicts;
	/*
	 * Quotas on new games (the daemon's, src/net/quota.c; NULL: none).
	 * create_admit is asked by a create whose words are all checked,
	 * before it touches the store: 0, or -1 with the refusal set in out
	 * (-LIMIT, marked rejected: it waits for no commit).  created is
	 * told what came of each create admitted: made (1) or not (0: a
	 * taken id, a store failure).
	 */
	int		(*create_admit)(void *arg, struct reply *out);
	void		(*created)(void *arg, int made);
	void		*quota_arg;
	/* Accounts, the matchmaker, ratings (cmd_lobby.h); NULL: none. */
	struct cmd_lobby *lobby;
	/* A create that only builds: set, the game a create command would
	 * store is copied here and nothing is stored (the matchmaker's,
	 * which stores it with its tickets; cmd_lobby.h). */
	struct game	*build_only;
};

#define CMD_WRITE	0x01	/* may change state: runs in a transaction */
#define CMD_READONLY	0x02
#define CMD_CONN	0x04	/* connection command: ludusd runs it */
#define CMD_PUBSUB	0x08	/* a RESP2 subscriber may send it (COMMAND's
				   flag "pubsub") */
#define CMD_STREAM	0x10	/* ludusd may answer it its own way
				   (cmd_stream_args(): a long XRANGE in
				   slices, XREAD BLOCK's wait), else and
				   here by its handler */

/* The connection commands, each the index of its handler in ludusd. */
enum cmd_conn {
	CONN_AUTH = 0,
	CONN_CLIENT,
	CONN_COMMAND,
	CONN_CONFIG,
	CONN_DISCARD,
	CONN_ECHO,
	CONN_EXEC,
	CONN_GAME_UNWATCH,
	CONN_GAME_WATCH,
	CONN_HELLO,
	CONN_INFO,
	CONN_MULTI,
	CONN_PING,
	CONN_PSUBSCRIBE,
	CONN_PUBSUB,
	CONN_PUNSUBSCRIBE,
	CONN_QUIT,
	CONN_RESET,
	CONN_SELECT,
	CONN_SUBSCRIBE,
	CONN_TIME,
	CONN_UNSUBSCRIBE,
	CONN_UNWATCH,
	CONN_WATCH,
	CMD_CONN_COUNT
};
/* The subcommands of the connection commands that have some, each the
 * value of the command's first argument (COMMAND's: -1 when none is
 * given), and HELLO's arguments. */
enum cmd_conn_command {
	CONN_COMMAND_COUNT = 0,
	CONN_COMMAND_DOCS,
	CONN_COMMAND_INFO,
	CONN_COMMAND_LIST
};
enum cmd_conn_hello {			/* HELLO's arguments */
	CONN_HELLO_PROTO = 0,
	CONN_HELLO_AUTH,		/* two words: username, password */
	CONN_HELLO_SETNAME
};
enum cmd_conn_client {
	CONN_CLIENT_GETNAME = 0,
	CONN_CLIENT_HELP,
	CONN_CLIENT_ID,
	CONN_CLIENT_INFO,
	CONN_CLIENT_KILL,
	CONN_CLIENT_LIST,
	CONN_CLIENT_NO_EVICT,
	CONN_CLIENT_NO_TOUCH,
	CONN_CLIENT_SETINFO,
	CONN_CLIENT_SETNAME
};
enum cmd_conn_config {
	CONN_CONFIG_GET = 0,
	CONN_CONFIG_RESETSTAT,
	CONN_CONFIG_REWRITE,
	CONN_CONFIG_SET
};
enum cmd_conn_pubsub {			/* in the order its refusal lists */
	CONN_PUBSUB_CHANNELS = 0,
	CONN_PUBSUB_NUMSUB,
	CONN_PUBSUB_NUMPAT
};

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
	/* PLAYER.LOGIN's account ("" none), the hash of the key it logged
	 * in with, and the secret its seats' hashes are keyed with. */
	char		 account[GAME_ID_MAX + 1];
	uint8_t		 key[STORE_KEY_HASH_LEN];
	uint8_t		 secret[STORE_SECRET_LEN];
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

/* A handler: the request as the parser read it (cmd_args.h). */
typedef void (*cmd_proc)(struct cmd_env *, const struct cmd_parsed *,
    struct reply *);

struct cmd_def {
	const char		*name;
	cmd_proc		 proc;		/* NULL: CMD_CONN */
	int			 arity;		/* argc incl. name; -N: at
						   least N */
	int			 flags;
	const char		*usage;
	const struct cmd_spec	*spec;		/* the arguments */
	enum cmd_conn		 conn;		/* CMD_CONN: ludusd's handler;
						   else CMD_CONN_COUNT */
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
/* The command a request names (no NUL inside the name); NULL if none.
 * The one lookup of a request: the daemon calls it, then either runs a
 * CMD_CONN entry itself or hands the entry to cmd_run_def(). */
const struct cmd_def	*cmd_find(const struct cmd_args *);
/* Iterates the table (for COMMAND and --help); NULL past the end. */
const struct cmd_def	*cmd_at(size_t);
/* Whether argc (the name included) is a count the entry's arity allows. */
int	cmd_arity_ok(const struct cmd_def *, int argc);
/* Looks up, checks arity and arguments and runs; an unknown command (a
 * CMD_CONN entry is one here), a wrong arity, a refused argument become
 * error replies marked rejected.  out must be REPLY_NONE.  res gets what
 * the caller of a shared transaction must know (struct cmd_result). */
void	cmd_run(struct cmd_env *, const struct cmd_args *, struct reply *,
	    struct cmd_result *res);
/* The same for the entry cmd_find() gave (NULL: unknown command). */
void	cmd_run_def(struct cmd_env *, const struct cmd_def *,
	    const struct cmd_args *, struct reply *, struct cmd_result *res);
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
 * Streams over history (cmd_stream.c): what the daemon needs to write a
 * long XRANGE in pieces and to make XREAD wait (src/net/stream.c), read
 * from the request as the parser left it.
 */
struct xrange_req {
	const char	*id;		/* the game */
	int		 valid;		/* id is a game id (else no entries) */
	int		 rev;		/* XREVRANGE */
	int64_t		 lo, hi;	/* seqs in the range, lo >= 1 */
	int64_t		 count;		/* at most, >= 0 */
};
struct xread_req {
	int64_t		 count;		/* entries per game, at most */
	int64_t		 block_ms;	/* BLOCK's; -1: none */
	int		 nkeys;		/* keys, then as many ids: */
	char *const	*keys;		/* the request's words */
	const size_t	*keyl;
	char *const	*ids;
	const size_t	*idl;
};
/* What a CMD_STREAM request asks: a range (XRANGE, XREVRANGE) or a read
 * (XREAD).  0, or -1 with the error the command replies set in out. */
struct cmd_stream_req {
	int			 read;		/* XREAD: xread, else range */
	struct xrange_req	 range;
	struct xread_req	 xread;
};
int	cmd_stream_args(const struct cmd_parsed *, struct cmd_stream_req *,
	    struct reply *out);
/* How many entries the range has in a game of that many moves. */
int64_t	cmd_xrange_span(const struct xrange_req *, int64_t moves);
/* Appends the entries of n moves from first on (rev: from first down) to
 * the array arr.  0, or -1 when the store failed. */
int	cmd_stream_rows(struct cmd_env *, const char *id, int64_t first,
	    int64_t n, int rev, struct reply *arr);
struct xread_key {
	const char	*id;
	size_t		 len;
	int64_t		 after;		/* the entries of later moves */
};
/* One XREAD id: 1 for "$" (the caller knows the last move), 0 with
 * *after set, -1 when it is no id. */
int	cmd_xread_id(const char *, size_t, int64_t *after);
/* The XREAD reply for these keys: [[id, entries], ...] for the games
 * with entries, or null.  0, or -1 with -STORE set. */
int	cmd_xread_keys(struct cmd_env *, const struct xread_key *, int n,
	    int64_t count, struct reply *out);

/* Syntax checks shared by the handlers. */
int	valid_id(const char *, size_t);	/* 1-50 of a-z 0-9 - */

#endif /* LUDUS_CMD_H */
