/*
 * Ratings: the move that ends a game whose seats accounts hold rates
 * those accounts, in its own write (cmd_txn.c's transact_save()), so a
 * game is rated exactly when its last move is stored.
 *
 * What the ratings depend on is read before the move's write (a store
 * that cannot show a transaction's own writes to its reads must learn
 * before the request writes anything that it has to run again), and
 * the ratings are written after it.
 *
 * The game is one rating period (src/lobby/rating.h): each account's
 * results are the pairwise results of the finishing order against the
 * other accounts of the game (game_places(): the winner first and
 * everyone unfinished sharing the next place, or the kind's own order),
 * computed from the ratings everyone had before the game.  An account
 * that holds two seats (a bot filling two) plays both seats' results.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "lobby/rating.h"
#include "util/util.h"

/* The seats' accounts, and the distinct accounts among them. */
struct rated {
	int			 n;		/* seats */
	char			 seat[GAME_MAX_PLAYERS][GAME_ID_MAX + 1];
	int			 same[GAME_MAX_PLAYERS];	/* its account */
	int			 na;		/* accounts */
	const char		*name[GAME_MAX_PLAYERS];
	struct store_rating	 old[GAME_MAX_PLAYERS];
	struct store_rating	 new[GAME_MAX_PLAYERS];
};

static int
seat_of(void *arg, int idx, const char *account)
{
	struct rated	*r = arg;

	if (idx < 0 || idx >= GAME_MAX_PLAYERS || idx != r->n)
		return 1;	/* the seats come in order, one each */
	str_copy(r->seat[r->n++], GAME_ID_MAX + 1, account);
	return 0;
}

static void
glicko_of(const struct store_rating *s, struct rating *r)
{
	if (s->games == 0) {
		rating_initial(r);
		return;
	}
	r->r = s->rating;
	r->rd = s->rd;
	r->vol = s->vol;
}

static int
accounts_of(struct cmd_env *env, const struct game *g, struct rated *r)
{
	int	 i, k, rc;

	rc = store_game_accounts(env->store, g->id, seat_of, r);
	if (rc == STORE_ERR)
		return -1;
	if (rc != 0 || r->n != game_nplayers(g)) {
		r->n = 0;	/* not every seat an account's: no rating */
		return 0;
	}
	for (i = 0; i < r->n; i++) {
		for (k = 0; k < r->na; k++)
			if (strcmp(r->name[k], r->seat[i]) == 0)
				break;
		r->same[i] = k;
		if (k < r->na)
			continue;
		r->name[r->na] = r->seat[i];
		memset(&r->old[k], 0, sizeof(r->old[k]));
		rc = store_rating_get(env->store, r->seat[i], g->kind,
		    &r->old[k]);
		if (rc == STORE_ERR)
			return -1;
		r->na++;
	}
	return 0;
}

int
cmd_rate_read(struct cmd_env *env, const struct game *g, struct rated **out)
{
	struct rated	*r = xcalloc(1, sizeof(*r));

	*out = NULL;
	if (accounts_of(env, g, r) != 0) {
		free(r);
		return -1;
	}
	if (r->na < 2)
		free(r);
	else
		*out = r;
	return 0;
}

int
cmd_rate_write(struct cmd_env *env, const struct game *g, struct rated *r)
{
	struct rating		 before[GAME_MAX_PLAYERS], mine, after;
	struct rating_result	*res;
	int			 place[GAME_MAX_PLAYERS];
	int			 i, k, n, won, last = 0, rc;

	res = xcalloc((size_t)r->n * (size_t)r->n, sizeof(*res));
	game_places(g, place);
	for (i = 0; i < r->n; i++) {
		glicko_of(&r->old[r->same[i]], &before[i]);
		if (place[i] > last)
			last = place[i];
	}
	for (k = 0; k < r->na; k++) {
		n = 0;
		won = 0;
		for (i = 0; i < r->n; i++) {
			if (r->same[i] != k)
				continue;
			n += rating_pairwise(r->n, place, r->same, before, i,
			    res + n);
			won |= place[i] == 0 && last > 0;
		}
		glicko_of(&r->old[k], &mine);
		rating_update(&mine, res, n, RATING_TAU, &after);
		r->new[k].rating = after.r;
		r->new[k].rd = after.rd;
		r->new[k].vol = after.vol;
		r->new[k].games = r->old[k].games + 1;
		r->new[k].won = r->old[k].won + won;
		r->new[k].updated = cmd_now(env);
	}
	rc = store_ratings_save(env->store, g->kind, r->na, r->name, r->old,
	    r->new) == STORE_OK ? 0 : -1;
	free(res);
	free(r);
	return rc;
}
