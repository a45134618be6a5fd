/*
 * The command layer's lobby: accounts, the matchmaker and ratings, as
 * the daemon drives them (the commands themselves are in the table).
 *
 *  - A queue is a kind and its game options, as one string: the kind's
 *    name, then the option words MATCH.JOIN was given, sorted ("ludo
 *    dice=server rules=classic").  Options spelled differently make
 *    different queues.  The game a group of it gets is the one the
 *    kind's create command makes of those words, with the seats secure
 *    and held by the group's accounts, and bots in the seats nobody
 *    takes (cmd_queue_build()).
 *  - Matching a queue (cmd_match_queue()) reads its waiting tickets,
 *    asks the matcher's rule (src/lobby/match.h) for its groups, and
 *    stores each group as one write of the open transaction (a request
 *    of its own): the game created, its tickets matched into its seats,
 *    all or nothing (store_match()).  What the COMMIT then makes true is
 *    announced through the hooks below, as a move's is: nobody hears of
 *    a match that may not commit.
 *  - A game whose seats accounts hold is rated in the transaction of the
 *    move that ends it (Glicko-2, the pairwise results of its finishing
 *    order).
 */
#ifndef LUDUS_CMD_LOBBY_H
#define LUDUS_CMD_LOBBY_H

#include <stdint.h>

#include "cmd/cmd.h"
#include "lobby/match.h"
#include "store/store.h"

/* A ticket joined or matched, as its COMMIT announces it. */
struct cmd_matched {
	int64_t		 ticket;
	char		 account[GAME_ID_MAX + 1];
	char		 queue[STORE_QUEUE_MAX + 1];
	enum game_kind	 kind;
	char		 game[GAME_ID_MAX + 1];	/* matched: where, */
	int		 seat;			/* ... and its seat */
	int		 first;		/* its group's first (its game
					   counted once) */
};

/* What all clients share of the lobby (env->lobby; NULL: no lobby, the
 * commands refuse). */
struct cmd_lobby {
	/* The rule (match.h): a new ticket's window, its widening. */
	double		 window;		/* rating points */
	struct match_params params;
	/* Waiting tickets an account may hold at once; 0: no cap. */
	int64_t		 max_tickets;
	/* After a COMMIT, once per ticket it stored (joined) and once per
	 * ticket it matched: the matcher is told of work, waiters of their
	 * games. */
	void		(*on_join)(void *arg, const struct cmd_matched *);
	void		(*on_match)(void *arg, const struct cmd_matched *);
	/* A ticket written in the open transaction, before its COMMIT: a
	 * store whose reads see the transaction's writes (SQLite) may match
	 * it in the same transaction. */
	void		(*on_joining)(void *arg, const struct cmd_matched *);
	/* The quota of what a client makes (the daemon's create-rate; NULL:
	 * none): admit before an account or a ticket is written, 0 or -1
	 * with -LIMIT set (rejected: nothing read); made after, with
	 * whether one was. */
	int		(*admit)(void *arg, struct reply *out);
	void		(*made)(void *arg, int ok);
	void		*arg;
	/* Counted as the commits announce them (INFO, /metrics). */
	uint64_t	 joined, matched, games, rated;
};

#define CMD_LOBBY_WINDOW	100	/* rating points */
#define CMD_LOBBY_WIDEN		10	/* rating points a second */
#define CMD_LOBBY_MAX_TICKETS	10

/* The defaults above, no hooks. */
void	cmd_lobby_init(struct cmd_lobby *);

/* What one run of a queue did. */
struct cmd_match_run {
	int		 groups;	/* games stored in the open
					   transaction (or committed) */
	int		 waiting;	/* tickets it read */
	int64_t		 next_ms;	/* when a ticket's bots-after falls
					   due, 0 for none */
	uint64_t	 first_req;	/* its groups' requests, */
	uint64_t	 last_req;	/* first to last; 0 0: none */
};

/*
 * Matches what can be matched of the queue's waiting tickets at now_ms,
 * one write per group (a request each), in the open transaction (the
 * daemon's) or each in one of its own.  0, or -1 when the store failed
 * (its message in store_errmsg()); a group that could not be stored
 * (its tickets taken meanwhile) is left to the next run.
 */
int	cmd_match_queue(struct cmd_env *, const char *queue, int64_t now_ms,
	    struct cmd_match_run *);

/*
 * MATCH.WAIT's answer for a ticket that is the session's account's:
 * matched, [game, seat, kind, player...] into out and 1; still waiting,
 * 0 (nothing set); else -1 with the error set (no such ticket, another
 * account's, cancelled, the store).
 */
int	cmd_ticket_answer(struct cmd_env *, const char *account,
	    int64_t ticket, struct reply *out);

#endif /* LUDUS_CMD_LOBBY_H */
