/*
 * The command layer: every game command, each a struct cmd_def in the
 * file that implements it (name, declared arguments, flags, the game it
 * acts on, handler), listed by pointer in one sorted table
 * (cmd_dispatch.c) and looked up case-insensitively.  A request's form
 * (is it a command, is its count of words one its arity allows) is
 * checked once, where its dispatch starts (cmd_check()); then its words
 * (cmd_args.h), its target, and only then its handler runs.  Every
 * state-changing command is one store transaction.  Handlers build
 * struct reply values only.
 *
 * Adding a command is one file and one table line.  LUDO.LEGAL id dice,
 * in cmd_ludo.c, whole:
 *
 *	enum { LEGAL_ID, LEGAL_DICE };
 *	static const struct cmd_arg legal_args[] = {
 *		[LEGAL_ID] = CMD_ARG_GAME,
 *		[LEGAL_DICE] = CMD_ARG_INT("dice", 1, 6),
 *	};
 *
 *	static void
 *	ludo_legal_cmd(struct cmd_env *env, const struct cmd_parsed *p,
 *	    struct reply *out)
 *	{
 *		... ludo_legal(&p->game->s.ludo, (int)p->v[LEGAL_DICE].i,
 *		    tokens) ...
 *	}
 *
 *	const struct cmd_def cmd_ludo_legal_entry = {
 *		.name = "LUDO.LEGAL",
 *		.spec = CMD_ARGS(legal_args, 0),
 *		.flags = CMD_READONLY,
 *		.target = CMD_TARGET(LEGAL_ID, KIND_LUDO),
 *		.proc = ludo_legal_cmd,
 *	};
 *
 * and X(ludo_legal) in CMD_TABLE (cmd_dispatch.c), in its sorted place.
 *
 *  - The arguments are indexed by an enum the handler reads the values
 *    with (p->v[LEGAL_DICE].i; cmd_args.h has the types and macros,
 *    CMD_ARGS_OPTS for key=value options, CMD_ARGS_DONE for a hook that
 *    reads what the values ask together); the handler never walks argv.
 *  - The arity (3) and the usage line ("LUDO.LEGAL id dice", for --help
 *    and COMMAND DOCS) are what the arguments make; tests/lib/commands.txt
 *    has what users read of each command, which test_cmd_args checks the
 *    declarations make (and the table's order).
 *  - The target: the game argument LEGAL_ID names, which must be a Ludo
 *    game (KIND_NONE: any kind).  The dispatch loads a reading command's
 *    game before the handler (p->game), refusing a game that does not
 *    exist or is of another kind; cmd_transact() loads a writing one's
 *    in its transaction; a create's target (CMD_TARGET_CREATE) is the
 *    game it makes.
 *  - The flags, one word for everything said of a command (below).
 *  - Its section in doc/protocol.md (test_docs checks there is one).
 *
 * A connection command (one that concerns the connection, which only the
 * daemon has) is declared the same way in the daemon's file that
 * implements it, with the daemon's handler in .conn, and listed in the
 * daemon's table (CONN_TABLE, src/net/conncmd.c).  ECHO message:
 *
 *	static const struct cmd_arg echo_args[] = {
 *		CMD_ARG_STR("message")
 *	};
 *	... echo_cmd(struct conn *c, const struct cmd_parsed *p) ...
 *	const struct cmd_def conn_echo_entry = {
 *		.name = "ECHO",
 *		.spec = CMD_ARGS(echo_args, 0),
 *		.flags = CMD_READONLY,
 *		.conn = echo_cmd,
 *	};
 *
 * The daemon's one lookup of a request searches its table and this one
 * (cmd_lookup_in(), cmd_lookup()); the command layer, which the embedded
 * CLI links alone, never sees a connection command and answers it
 * "unknown command", as it always has.  COMMAND lists the daemon's table
 * first, then this one.
 *
 * A command of this layer whose answer the daemon may deliver its own
 * way (XRANGE, XREVRANGE, XREAD: a long range in slices as the client
 * reads, a BLOCK that waits for a move) has CMD_STREAM: its done hook
 * reads what it asks into the parsed request (p->stream), where the
 * daemon looks before it runs the handler on the same parsed request
 * (cmd_run_parsed()); the handler answers it at once (the embedded CLI,
 * an EXEC, a short range).
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
	uint64_t	 finished;	/* ... of which ended their game */
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

/*
 * What a command is, in one word (as Redis's server.h has its CMD_*
 * flags): each entry declares its own, the command layer's and the
 * daemon's alike.
 *
 * CMD_WRITE	may change state: runs as one store transaction (COMMAND's
 *		"write", COMMAND DOCS' group "ludus-write")
 * CMD_READONLY	only reads (COMMAND's "readonly")
 * CMD_PUBSUB	a RESP2 subscriber may send it (COMMAND's "pubsub")
 * CMD_STREAM	ludusd may deliver its answer its own way (a long XRANGE
 *		in slices, XREAD BLOCK's wait: what the parsed request's
 *		stream asks); else, and here, its handler answers it
 * CMD_BARRIER	ludusd ends the pass's transaction before it runs
 *		(pass_barrier()): it reads where a game stands, or decides
 *		which events a connection still gets, so it must see
 *		committed moves only
 * CMD_NO_QUEUE	runs at once, even between MULTI and EXEC
 * CMD_NO_MULTI	refused between MULTI and EXEC: a barrier, a change of
 *		the connection itself, or a write an EXEC would not keep
 *		whole with its games' (the lobby's: an optimistic store
 *		checks a whole request's games only)
 * CMD_NO_AUTH	runs before AUTH (requirepass)
 * CMD_SECRET	its words may hold a secret (a password, a seat key):
 *		MONITOR shows them as "(redacted)"
 *
 * A subscription (CMD_SUBSCRIPTION) changes which events a connection
 * gets: a barrier, and never inside MULTI.
 */
#define CMD_WRITE	0x0001
#define CMD_READONLY	0x0002
#define CMD_PUBSUB	0x0004
#define CMD_STREAM	0x0008
#define CMD_BARRIER	0x0010
#define CMD_NO_QUEUE	0x0020
#define CMD_NO_MULTI	0x0040
#define CMD_NO_AUTH	0x0080
#define CMD_SECRET	0x0100
#define CMD_SUBSCRIPTION (CMD_BARRIER | CMD_NO_MULTI)

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
	/* How a client of this transport proves a seat, as a NOSEAT
	 * error tells it; NULL: RESP's "SEAT id player key". */
	const char	*seat_how;
};

struct cmd_session	*cmd_session_new(void);
void			 cmd_session_free(struct cmd_session *);
/* 1 when the session holds that seat (player < 0: any seat of game). */
int			 cmd_session_holds(const struct cmd_session *,
			    const char *game, int player);
/* What a NOSEAT error says to do: s->seat_how, or RESP's SEAT. */
const char		*cmd_seat_how(const struct cmd_session *);

struct cmd_args {
	int		  argc;
	char		**argv;		/* NUL-ended; argv[0] is the name */
	size_t		 *argl;		/* lengths (args may hold NULs) */
	struct cmd_session *session;	/* may be NULL */
};

/* A handler: the request as the parser read it (cmd_args.h). */
typedef void (*cmd_proc)(struct cmd_env *, const struct cmd_parsed *,
    struct reply *);
/* A connection command's handler: the daemon's, which has connections
 * (struct conn is ludusd's, src/net/conn.h; the command layer never
 * looks into one). */
struct conn;
typedef void (*cmd_conn_proc)(struct conn *, const struct cmd_parsed *);

/*
 * The game a command acts on, as tmux's entries name their .target: the
 * declared argument (a game id) that names it and the kind it must be
 * (KIND_NONE: any).  A reading command's game is loaded by the dispatch
 * once the words are read, before the handler runs, which finds it in
 * p->game (no such game, another kind or the store's failure is the
 * reply instead: NOGAME, WRONGTYPE, STORE); a writing command's is loaded
 * in its transaction by cmd_transact(); a create's (CMD_TARGET_NEW) is
 * the game it makes, named and of the kind given here
 * (cmd_create_apply()).
 */
struct cmd_target {
	int		 flags;		/* CMD_TARGET_*; 0: no target */
	int		 arg;		/* the argument that names it */
	enum game_kind	 kind;
};
#define CMD_TARGET_GAME		0x01	/* a game that exists */
#define CMD_TARGET_NEW		0x02	/* the game a create makes */
#define CMD_TARGET(arg, kind)	{ CMD_TARGET_GAME, (arg), (kind) }
#define CMD_TARGET_CREATE(arg, kind) { CMD_TARGET_NEW, (arg), (kind) }

/*
 * A command, whole: its entry lives in the file that implements it, and
 * a table of pointers to the entries (sorted by name) is all a room
 * lists.  Its arity and usage line are what its arguments make
 * (cmd_arity(), cmd_args_usage()).  It has one handler: the command
 * layer's, or, for a connection command, the daemon's.
 */
struct cmd_def {
	const char		*name;		/* upper case */
	const struct cmd_spec	*spec;		/* the arguments */
	int			 flags;		/* CMD_* */
	struct cmd_target	 target;	/* the game it acts on */
	cmd_proc		 proc;		/* the command layer's, or */
	cmd_conn_proc		 conn;		/* the daemon's */
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

/* Finds a command of the command layer (case-insensitive); NULL if
 * none (a connection command is none: it is the daemon's). */
const struct cmd_def	*cmd_lookup(const char *);
/* The command a request names (no NUL inside the name); NULL if none. */
const struct cmd_def	*cmd_find(const struct cmd_args *);
/* The same in another room's table of n entries sorted by name (the
 * daemon's): the one lookup of a request searches both. */
const struct cmd_def	*cmd_lookup_in(const struct cmd_def *const *,
			    size_t n, const char *);
const struct cmd_def	*cmd_find_in(const struct cmd_def *const *,
			    size_t n, const struct cmd_args *);
/* Iterates the command layer's table (for COMMAND and --help); NULL
 * past the end. */
const struct cmd_def	*cmd_at(size_t);
/* The words a request of the entry has, its name included, as its
 * declared arguments make them and COMMAND shows them (Redis's arity):
 * exactly N, or -N for at least N. */
int	cmd_arity(const struct cmd_def *);
/* Whether argc (the name included) is a count the entry's arity allows. */
int	cmd_arity_ok(const struct cmd_def *, int argc);
/*
 * The form of a request found as d (NULL: none), checked once by every
 * path that runs one, before anything else (Redis's processCommand()):
 * "-ERR unknown command", then "-ERR wrong number of arguments" for a
 * count its arity does not allow.  0, or -1 with the refusal set in out,
 * marked rejected.
 */
int	cmd_check(const struct cmd_def *d, const struct cmd_args *,
	    struct reply *out);
/* Looks up, checks the form (cmd_check()) and runs; a refused argument
 * becomes an error reply marked rejected too.  An unknown command is one
 * of no table here: a connection command is the daemon's.  out must be
 * REPLY_NONE.  res gets what the caller of a shared transaction must know
 * (struct cmd_result). */
void	cmd_run(struct cmd_env *, const struct cmd_args *, struct reply *,
	    struct cmd_result *res);
/* The same for a request of the command layer's entry d whose form its
 * caller checked (the daemon, which found it by its own lookup). */
void	cmd_run_def(struct cmd_env *, const struct cmd_def *d,
	    const struct cmd_args *, struct reply *, struct cmd_result *res);
/* The same for a request its caller has read with cmd_parse() (the
 * daemon's streams, which look at what it asks first): its words are
 * read once. */
void	cmd_run_parsed(struct cmd_env *, struct cmd_parsed *, struct reply *,
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
 * due (a game deleted since its timer was set included: *next_ms 0),
 * -1 on error (a store failure).  *next_ms gets when to call again: unix
 * ms (<= now_ms: at once), or 0 for never.
 * cmd_autoplay_at() plays only the turn whose deadline is deadline (a
 * timer's, armed for it): a game whose deadline has changed since (it
 * moved on) is left alone, 0, and *next_ms is its deadline now.
 */
int	cmd_autoplay_at(struct cmd_env *, const char *game, int64_t now_ms,
	    int64_t deadline, struct move *played, int64_t *next_ms);
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

/* Upper bounds on list replies (GAMES LIMIT, HISTORY count), which the
 * HTTP API's lists and pages keep too. */
#define CMD_LIST_DEFAULT	100
#define CMD_LIST_MAX		10000

/*
 * Recomputes a game from its history, as REPLAY and AUDIT do (and the
 * HTTP side's board after a move): the initial snapshot of g, then the
 * first upto moves (upto < 0: all of them, which must be g->moves).  out
 * gets the result (id, kind, players and created copied from g).
 */
#define REPLAY_OK	0
#define REPLAY_BAD	(-1)	/* the history does not replay: see why */
#define REPLAY_STORE	(-2)	/* the store failed: store_errmsg() */
int	cmd_replay_game(struct store *, const struct game *, int64_t upto,
	    struct game *out, char *why, size_t);
/*
 * The moves from..from+count-1 of g, each with its words (the kind's
 * move_words, from the replay's snapshots before and after it): cb gets
 * words NULL where the kind has none or the history stops replaying.
 * STORE_OK, or STORE_ERR.
 */
int	cmd_history_words(struct store *, const struct game *, int64_t from,
	    int64_t count, int (*cb)(void *, const struct move *,
	    const char *words), void *arg);

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
 * (XREAD), read once, with its words (the spec's done hook). */
struct cmd_stream_req {
	int			 read;		/* XREAD: xread, else range */
	struct xrange_req	 range;
	struct xread_req	 xread;
};

/* A request as the parser read it (cmd_parse()), handed to the handler:
 * the values by declared index (cmd_args.h), what the options built, what
 * a stream request asks, and the target the dispatch loaded. */
struct cmd_parsed {
	const struct cmd_def	*def;
	const struct cmd_args	*args;	/* the words, argv[0] the name */
	struct cmd_build	*build;	/* a create's game being built, set
					   by the options; NULL: none */
	struct cmd_val		 v[CMD_ARGS_MAX];	/* by declared index */
	struct cmd_stream_req	 stream;	/* a CMD_STREAM command's */
	const struct game	*game;	/* a reading command's target, as the
					   dispatch loaded it; NULL: none */
};
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

/*
 * Deletes a game with every row of it, in the write path (a transaction
 * of its own, or a savepoint of the daemon's pass): OK.  A game in play
 * (a player to move) is refused with -STATE unless force; before > 0
 * deletes it only if it finished before that time (unix seconds), and
 * replies KEPT otherwise (the retention job: a game made again under the
 * same id since it was listed is not touched).  -NOGAME when there is no
 * such game.  A deadline of the game is cancelled with the COMMIT.
 * Returns 1 when the game was deleted (committed, or in the open
 * transaction), 0 when not, -1 when the store failed.
 */
int	cmd_delete_game(struct cmd_env *, struct reply *, const char *id,
	    int force, int64_t before);

/* Syntax checks shared by the handlers. */
int	valid_id(const char *, size_t);	/* 1-50 of a-z 0-9 - */

#endif /* LUDUS_CMD_H */
