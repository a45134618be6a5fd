/*
 * The matcher: which waiting tickets of one queue make a game now.
 * Pure C like the engine (no I/O, no allocation, no globals; the clock
 * is an argument), so that the rule is tested with a fake clock and
 * every node that runs it on the same tickets at the same time gets
 * the same groups.
 *
 * A queue is one kind with one set of game options (preset, dice,
 * turn-timeout, ...): only tickets of one queue are ever matched
 * together, and the caller hands them over oldest first (by the time
 * they joined, then by id).
 *
 * The rule:
 *
 *  - Two tickets are compatible when they are of two accounts and their
 *    ratings are within both tickets' windows (checked both ways: each
 *    player accepts the other).  A ticket's window is its half-width
 *    when it joined, widened by `widen` rating points per second it has
 *    waited: w(t) = window + widen * waited.  On a quiet server two
 *    players joined at once whose ratings differ by D are matched after
 *    (D - window) / widen seconds; a later one waits until its own,
 *    narrower, window reaches the other.
 *  - The oldest ticket not yet matched is served first.  Its group is
 *    the oldest tickets compatible with it and with each other, for the
 *    largest player count that it and each of them accept and that can
 *    be filled now (a ticket of players=2-4 makes a game of four if four
 *    are there, else of three, else of two).  Then the next oldest
 *    ticket left, and so on: a ticket that cannot be served now does not
 *    hold up younger ones that can.
 *  - bots-after: once a ticket has waited its bots-after, its best group
 *    (the largest it can make, among the tickets whose own bots-after
 *    has passed too: the others have not agreed to bots yet) is made
 *    with bots in the seats left, up to the fewest players every ticket
 *    of the group accepts.
 */
#ifndef LUDUS_LOBBY_MATCH_H
#define LUDUS_LOBBY_MATCH_H

#include <stdint.h>

#define MATCH_PLAYERS_MAX	64	/* the most seats of any kind */

struct match_ticket {
	const char	*account;	/* two of one account never match */
	int64_t		 joined_ms;
	double		 rating;	/* the account's when it joined */
	double		 window;	/* half-width when it joined, >= 0 */
	int		 min, max;	/* players it accepts, 2 <= min <=
					   max <= MATCH_PLAYERS_MAX */
	int64_t		 bots_after_ms;	/* -1: no bots */
};

struct match_params {
	double		 widen;		/* rating points per second */
};

/* One game: members[first .. first + n) are indexes into the tickets,
 * oldest first, and bots seats go to bots. */
struct match_group {
	int		 first;
	int		 n;
	int		 bots;
};

/* A ticket's window at now_ms. */
double	match_window(const struct match_ticket *, const struct match_params *,
	    int64_t now_ms);
/* 1 when tickets a and b may play each other at now_ms. */
int	match_compatible(const struct match_ticket *a,
	    const struct match_ticket *b, const struct match_params *,
	    int64_t now_ms);

/* The int scratch match_groups() needs for n tickets. */
#define MATCH_WORK(n)	(3 * (size_t)(n) + MATCH_PLAYERS_MAX)

/*
 * The groups the n tickets t[] (oldest first) make at now_ms, by the
 * rule above: at most maxgroups of them into groups[], their members
 * into members[] (n entries at most: no ticket is in two groups), with
 * work[] as scratch (MATCH_WORK(n) ints).  Returns the number of groups.
 */
int	match_groups(const struct match_ticket *t, int n,
	    const struct match_params *, int64_t now_ms,
	    struct match_group *groups, int maxgroups, int *members,
	    int *work);

#endif /* LUDUS_LOBBY_MATCH_H */
