/*
 * What the command files share and nobody else needs: the arity error
 * (cmd_args.c), the one transaction wrapper every state-changing command
 * goes through (cmd_txn.c), what a create builds while its options are
 * read, the create options, seats and server randomness.
 */
#ifndef LUDUS_CMD_IMPL_H
#define LUDUS_CMD_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/cmd.h"

/* Longer than any name in the table: a longer one is no command. */
#define CMD_NAME_MAX	15

/* ------------------------------------------------------------- cmd.c */

/* A command name upper-cased (ASCII) into buf: 0, or -1 when it does not
 * fit in size bytes (then it is no command). */
int	cmd_name_upper(char *buf, size_t size, const char *name);
int64_t	cmd_now(const struct cmd_env *);
/* The game id a request's target names (struct cmd_target). */
const char *cmd_target_id(const struct cmd_parsed *);
/* Loads a game (for a read, or inside a write's transaction).  kind
 * KIND_NONE accepts any.  0, or -1 with NOGAME, WRONGTYPE or STORE set. */
int	cmd_read_game(struct cmd_env *, struct reply *, const char *id,
	    enum game_kind, struct game *);
/* Replies -STORE with the store's message and counts the failure. */
void	cmd_reply_store(struct cmd_env *, struct reply *);
/* When the server must play the turn that starts at now_ms in g: now for
 * a bot, now + turn-timeout for a person with one, else 0 (never). */
int64_t	cmd_turn_deadline(const struct game *, int64_t now_ms);

/* -------------------------------------------------------- cmd_args.c */

/*
 * "-ERR wrong number of arguments for 'NAME'" (name as registered),
 * marked rejected (it never waits for a commit, see struct cmd_result):
 * for a count the arity allowed but the command does not (the parser's,
 * and SNL.ROLL id of a game that does not roll its own dice).
 */
void	cmd_reply_arity(struct reply *, const struct cmd_def *);

/* --------------------------------------------------------- cmd_txn.c */


/* Stores a new game in one transaction and replies OK (or EXISTS/STORE).
 * Fills in the timestamps. */
void	cmd_create_game(struct cmd_env *, struct reply *, struct game *);

/*
 * The lobby's writes (cmd_lobby.h).  A match is a create of a game its
 * caller has built and seated (cmd_queue_build()), with its tickets
 * (store_match()) and the events its COMMIT announces, one per ticket:
 * replies OK, or EXISTS (the id is taken: build another), STATE (a
 * ticket no longer waits), STORE.
 */
struct cmd_matched;
struct store_match;
struct cmd_match_write {
	const struct store_match	*m;
	const struct cmd_matched	*ev;
	int				 nev;
};
void	cmd_match_game(struct cmd_env *, struct reply *, struct game *,
	    const struct cmd_match_write *);
/*
 * The game a queue's group gets (cmd_lobby.h): the kind's create command
 * run on the queue's words, with players names[0..n) (a kind that names
 * its players P1..Pn takes their count), seats=secure and the bots of
 * bot[i] >= 0 (a strategy), built into out and stored nowhere.  0, or -1
 * with the create's refusal in err.
 */
int	cmd_queue_build(struct cmd_env *, const char *queue, const char *id,
	    int n, char names[][PLAYER_NAME_MAX], const int bot[],
	    struct game *out, struct reply *err);
/* A ticket joined: its event, announced at the COMMIT (or now). */
void	cmd_note_join(struct cmd_env *, const struct cmd_matched *);
/*
 * One write of the lobby's rows as the write path runs any: fn in a
 * savepoint of the open transaction (or a transaction of its own, run
 * again if an optimistic store's other writer beat it), kept when fn
 * returns 0, undone when it returns -1 with its refusal (or -STORE) set
 * in out.  0, or -1 with out set.
 */
typedef int (*cmd_write_fn)(struct cmd_env *, void *arg, struct reply *);
int	cmd_write(struct cmd_env *, struct reply *, cmd_write_fn, void *arg);
/*
 * The ratings of a game's accounts after the move that ends it, in that
 * move's write (cmd_rate.c): what they depend on read before the move is
 * written (*r NULL: nothing to rate), then written after it (r freed).
 * 0, or -1 when the store failed.
 */
struct rated;
int	cmd_rate_read(struct cmd_env *, const struct game *, struct rated **r);
int	cmd_rate_write(struct cmd_env *, const struct game *, struct rated *r);

/*
 * The write path.  A step function sees the loaded game (old) and a copy
 * of it (new) and decides:
 *	TURN_MOVE	a move: new holds the next snapshot, mv->player,
 *			action and result are filled; stored as move
 *			old->moves + 1, replied as the result string
 *	TURN_SETUP	a setup change (new holds it), no history row; OK
 *	TURN_OPTS	only new->opts.roll/roll_player changed (a server
 *			roll drawn): saved, no history row; the step has set
 *			the reply
 *	TURN_NONE	nothing to write; the step has set the reply
 *	TURN_DELETE	the game goes, with every row of it; OK (its
 *			deadline, if any, is cancelled with the COMMIT)
 *	TURN_SEAT	one seat's key hash changed in new->opts.seat (a
 *			key exchanged), written only on top of old's; no
 *			history row; the step has set the reply
 */
enum turn_outcome {
	TURN_NONE = 0,
	TURN_MOVE,
	TURN_SETUP,
	TURN_OPTS,
	TURN_DELETE,
	TURN_SEAT
};

typedef enum turn_outcome (*turn_step)(void *arg, const struct game *old,
    struct game *new, struct move *mv, struct reply *out);

/* What a resend with AT must match in the stored move seq+1; NULL fields
 * are implicit in the command (a Snake & Ladder roller, a deck card). */
struct turn_req {
	const char	*player;
	const char	*action;
	int64_t		 at;		/* -1: no AT */
};

/*
 * The write of the request's target (struct cmd_target): BEGIN, load,
 * kind check, AT check, step, save, COMMIT; any store failure rolls back
 * and replies -STORE.  A move clears the pending roll and sets
 * the deadline of the next turn.  After a committed move, counts it and
 * calls env->on_move, then env->on_schedule.  In a shared transaction
 * (env->txn) the BEGIN and COMMIT are a savepoint's, the rollback undoes
 * this write alone, and the counting and the hooks wait for
 * cmd_txn_commit().
 */
void	cmd_transact(struct cmd_env *, const struct cmd_parsed *,
	    struct reply *, const struct turn_req *, turn_step, void *arg);
/* The same for a game named and of a kind (any with KIND_NONE) at a
 * given time (unix ms), a write made outside a request (cmd_autoplay);
 * returns what was committed (TURN_NONE: nothing), the move in *mv and
 * the game as saved in *after (may be NULL). */
enum turn_outcome cmd_transact_at(struct cmd_env *, struct reply *,
	    const char *id, enum game_kind, const struct turn_req *,
	    turn_step, void *arg, int64_t now_ms, struct move *mv,
	    struct game *after);

/* ------------------------------------------------------ cmd_seat.c */

#define SEAT_KEY_BYTES	16			/* 128 random bits */
#define SEAT_KEY_HEX	(2 * SEAT_KEY_BYTES)	/* as shown, in hex */

/* May this session move for player i of g?  0, or -1 with -STATE (the
 * server plays that bot) or -NOSEAT (a secure seat not held) set. */
int	cmd_move_allowed(const struct cmd_session *, const struct game *,
	    int player, struct reply *);
/* Makes one seat key per player of a secure game, in hex, and puts their
 * keyed hashes in g->opts.seat; run inside the create's transaction
 * (the hash key is the store's).  0, or -1 when the store failed. */
int	cmd_seat_keys(struct store *, struct game *,
	    char keys[][SEAT_KEY_HEX + 1]);

/* A kind's name as an argument, any case: its check hook (v->i gets the
 * enum game_kind; -BADARG names the kinds).  cmd_game.c's. */
int	cmd_check_kind(const struct cmd_arg *, struct cmd_val *,
	    struct reply *);

/* ---------------------------------------------------- cmd_player.c */

/* The account, or -1 with NOACCOUNT (or STORE) replied. */
int	cmd_account_read(struct cmd_env *, const char *name,
	    struct store_account *, struct reply *);
/* The request's session is logged in (as name, unless NULL): 0, or -1
 * with NOLOGIN replied (cmd names the command). */
int	cmd_logged_in(const struct cmd_parsed *, const char *name,
	    const char *cmd, struct reply *);

/* --------------------------------------------------- cmd_account.c */

#define ACCOUNT_KEY_BYTES	16			/* 128 random bits */
#define ACCOUNT_KEY_HEX		(2 * ACCOUNT_KEY_BYTES)

/* The database's seat secret, made on first use: 0, or -1 when the store
 * failed. */
int	cmd_secret(struct store *, uint8_t secret[STORE_SECRET_LEN]);
/* A fresh account key, in hex. */
void	cmd_account_key(char key[ACCOUNT_KEY_HEX + 1]);
/* The hash an account's key is kept as (any bytes of key hashed). */
int	cmd_account_hash(const uint8_t secret[STORE_SECRET_LEN],
	    const char *name, const char *key, size_t keylen,
	    uint8_t out[STORE_KEY_HASH_LEN]);
/* The seat hash of player i of game when account holds the seat. */
int	cmd_account_seat(const uint8_t secret[STORE_SECRET_LEN],
	    const char *game, int player, const char *account,
	    uint8_t out[SEAT_HASH_LEN]);
/* 1 when the session is logged in as the account that holds that seat
 * of a secure game. */
int	cmd_account_holds(const struct cmd_session *, const struct game *,
	    int player);
/* PLAYER.LOGIN's binding of a session to an account, and its end. */
void	cmd_session_login(struct cmd_session *, const char *account,
	    const uint8_t key[STORE_KEY_HASH_LEN],
	    const uint8_t secret[STORE_SECRET_LEN]);
void	cmd_session_logout(struct cmd_session *);

/* ---------------------------------------------------- cmd_random.c */

/* Server randomness (libsodium, from the OS's generator).  cmd_random_init
 * starts libsodium (once; the others call it), and aborts if the OS has
 * no randomness to give. */
void	cmd_random_init(void);
void	cmd_random_bytes(void *, size_t);
int	cmd_random_die(void);			/* 1-6 */
int	cmd_random_card(void);			/* one of a-i, 1-9 */
void	cmd_random_deck(char *deck, int n);	/* n cards, NUL-ended */
/* The same, as the kinds' automatic moves take it (game/kind.h). */
extern const struct game_random cmd_randomness;

/* ------------------------------------------------------ cmd_opts.c */

/* The multiplayer options of a create command, as given. */
struct create_opts {
	int		 seats;		/* -1 not given, 0 open, 1 secure */
	int		 server_dice;	/* -1 not given, 0 manual, 1 server */
	int64_t		 timeout;	/* seconds, -1 not given */
	const char	*bots;		/* "name:strategy,...", NULL none */
};

/*
 * What the options of a create build while the parser reads them, in
 * argv order, for the handler to finish: the game (its rules, players,
 * board jumps), the multiplayer options as given, and a DandyLand deck
 * (given, or dealt by the server: dealt as the option is read, so that
 * the randomness is drawn in the same order whatever fails after).
 */
struct cmd_build {
	struct game		 game;
	struct create_opts	 opts;
	const char		*deck;		/* deck=: NULL none */
	int			 shuffled;	/* ... dealt by the server */
	char			 dealt[DANDY_DECK_MAX + 1];
};

/* An empty build: the game zeroed, no option given. */
void	cmd_build_init(struct cmd_build *);
/* A two-valued option, its values in its doc ("secure|open"): 1 for the
 * first, 0 for the second, else -1 with "-BADARG seats must be secure or
 * open". */
int	cmd_opt_pair(const struct cmd_opt *, const char *value,
	    struct reply *);
/* The options every create takes, with their apply hooks; bots' usage
 * text is the kind's (its players' names). */
int	cmd_opt_seats(const struct cmd_opt *, struct cmd_build *,
	    const char *, size_t, struct reply *);
int	cmd_opt_dice(const struct cmd_opt *, struct cmd_build *,
	    const char *, size_t, struct reply *);
int	cmd_opt_bots(const struct cmd_opt *, struct cmd_build *,
	    const char *, size_t, struct reply *);
int	cmd_opt_timeout(const struct cmd_opt *, struct cmd_build *,
	    const char *, size_t, struct reply *);
#define CMD_OPT_SEATS	{ "seats", "secure|open", 0, cmd_opt_seats, 0 }
#define CMD_OPT_DICE(fl) { "dice", "server|manual", (fl), cmd_opt_dice, 0 }
#define CMD_OPT_BOTS(doc) { "bots", (doc), 0, cmd_opt_bots, 0 }
#define CMD_OPT_TIMEOUT	{ "turn-timeout", "<seconds>", 0, cmd_opt_timeout, 0 }
/* Names the game a create builds (p->build) and gives it its kind, as
 * the entry's target says (CMD_TARGET_CREATE), then puts the options
 * into it, its players and (DandyLand) deck set; server_dice of a
 * DandyLand game is set by its caller when it dealt a shuffled deck.
 * 0, or -1 with an error reply. */
int	cmd_create_apply(struct cmd_env *, const struct cmd_parsed *,
	    struct reply *);
/* The end of every create, once its game is built: the quotas' word
 * (env->create_admit), then cmd_create_game(), then what came of it
 * (env->created). */
void	cmd_create(struct cmd_env *, struct reply *, struct game *);
/* The extra GAME.INFO pairs of a game with options. */
void	cmd_info_opts(const struct game *, struct reply *);

/* ------------------------------------------------------ cmd_game.c */

/* The handler of LUDO.STATE, SNL.STATE and DANDY.STATE: the STATE array
 * of the target, whose kind each entry names. */
void	cmd_game_state(struct cmd_env *, const struct cmd_parsed *,
	    struct reply *);
/* The arguments of the commands that take a game id only. */
extern const struct cmd_spec cmd_game_id_args;

/* One key, any word (a key that is no game id is no game): XLEN, TYPE. */
extern const struct cmd_spec cmd_key_args;

#endif /* LUDUS_CMD_IMPL_H */
