/*
 * Ratings: Glicko-2 (Mark E. Glickman, "Example of the Glicko-2
 * system", 2013), and how one finished game becomes the results that
 * feed it.  Pure C: no I/O, no allocation, no globals.
 *
 * A rating is kept on the Glicko scale (1500, RD 350 for a player who
 * has never played); the update runs on the Glicko-2 scale inside.
 * Every game is a rating period of its own: each player is updated once
 * from that game's results against the others' ratings as they stood
 * before it, so the order in which the seats are updated does not
 * matter.
 */
#ifndef LUDUS_LOBBY_RATING_H
#define LUDUS_LOBBY_RATING_H

#define RATING_INITIAL		1500.0
#define RATING_RD_INITIAL	350.0	/* and the most an RD may grow to */
#define RATING_VOL_INITIAL	0.06
#define RATING_TAU		0.5	/* the system constant (the paper
					   suggests 0.3 to 1.2) */
#define RATING_PLAYERS_MAX	64	/* seats in one game, at most */

struct rating {
	double	r;		/* rating */
	double	rd;		/* rating deviation */
	double	vol;		/* volatility */
};

/* One game's result against one opponent: 1 a win, 0.5 a draw, 0 a
 * loss, and the opponent's rating before the game. */
struct rating_result {
	struct rating	opp;
	double		score;
};

/* A player who has never played. */
void	rating_initial(struct rating *);
/*
 * The player's rating after a period with these n results (n may be
 * 0: a period without games, in which only the RD grows), with system
 * constant tau.  The new RD is never above RATING_RD_INITIAL.
 */
void	rating_update(const struct rating *, const struct rating_result *,
	    int n, double tau, struct rating *out);

/*
 * A finished game as pairwise results.  place[i] is player i's place in
 * the finishing order, 0 first; players who share a place drew with
 * each other (a kind whose game ends at its first winner puts every
 * unfinished player in one shared last place).  same[i] groups the
 * seats of one account (a bot that fills two seats): two seats of one
 * group are not each other's opponents.  For player i, out gets one
 * result per opponent, against ratings r[] as they were before the
 * game; the count.
 */
int	rating_pairwise(int n, const int place[], const int same[],
	    const struct rating r[], int i, struct rating_result out[]);

#endif /* LUDUS_LOBBY_RATING_H */
