/*
 * The lobby room: Glicko-2 against the paper's worked example, the
 * pairwise results of a finishing order, and the matcher with a fake
 * clock (windows that widen, the both-ways check, oldest first, player
 * counts and ranges, bots-after).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lobby/match.h"
#include "lobby/rating.h"

#define near(a, b, eps)	assert_true(fabs((a) - (b)) < (eps))

/* ------------------------------------------------------------ Glicko-2 */

/*
 * Glickman's example: 1500 (RD 200, volatility 0.06), tau 0.5, beats a
 * 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300): 1464.06,
 * RD 151.52, volatility 0.05999.  The paper rounds its steps to four or
 * five digits (mu' = -0.2069, so 173.7178 * -0.2069 + 1500 = 1464.06);
 * computed without rounding the rating is 1464.0507, the RD 151.5165
 * and the volatility 0.059996.  Each is checked to the paper's last
 * digit, within that rounding.
 */
static void
test_glicko2_paper_example(void **state)
{
	struct rating		 p = { 1500, 200, 0.06 }, out;
	struct rating_result	 res[3] = {
		{ { 1400, 30, 0.06 }, 1 },
		{ { 1550, 100, 0.06 }, 0 },
		{ { 1700, 300, 0.06 }, 0 },
	};

	(void)state;
	rating_update(&p, res, 3, 0.5, &out);
	near(out.r, 1464.06, 0.01);
	near(out.rd, 151.52, 0.01);
	near(out.vol, 0.05999, 0.00001);
	/* and the exact values, so that a change of the algorithm shows */
	near(out.r, 1464.0507, 0.0001);
	near(out.rd, 151.5165, 0.0001);
	near(out.vol, 0.059996, 0.000001);
}

static void
test_glicko2_no_games_grows_rd(void **state)
{
	struct rating	 p = { 1600, 50, 0.06 }, out, fresh;

	(void)state;
	rating_update(&p, NULL, 0, 0.5, &out);
	assert_true(out.r == 1600);
	assert_true(out.vol == 0.06);
	/* sqrt(phi^2 + vol^2) on the Glicko-2 scale */
	near(out.rd, 173.7178 * sqrt(pow(50 / 173.7178, 2) + 0.06 * 0.06),
	    1e-9);
	/* never past the RD of a new player */
	rating_initial(&fresh);
	rating_update(&fresh, NULL, 0, 0.5, &out);
	assert_true(out.rd == RATING_RD_INITIAL);
}

static void
test_glicko2_win_and_loss(void **state)
{
	struct rating		 a, b, a2, b2;
	struct rating_result	 ra, rb;

	(void)state;
	rating_initial(&a);
	rating_initial(&b);
	ra.opp = b;
	ra.score = 1;
	rb.opp = a;
	rb.score = 0;
	rating_update(&a, &ra, 1, RATING_TAU, &a2);
	rating_update(&b, &rb, 1, RATING_TAU, &b2);
	assert_true(a2.r > 1500 && b2.r < 1500);
	/* two new players: the same step up and down */
	near(a2.r - 1500, 1500 - b2.r, 1e-9);
	assert_true(a2.rd < 350 && b2.rd < 350);
	/* a draw between equals moves nothing but the deviation */
	ra.score = 0.5;
	rating_update(&a, &ra, 1, RATING_TAU, &a2);
	near(a2.r, 1500, 1e-9);
	assert_true(a2.rd < 350);
}

/* A four-player game: one winner, three unfinished players sharing the
 * last place: the winner beats three, each other player loses to the
 * winner and draws with the other two. */
static void
test_pairwise_finishing_order(void **state)
{
	const int		 place[4] = { 1, 0, 1, 1 };
	const int		 same[4] = { 0, 1, 2, 3 };
	struct rating		 r[4];
	struct rating_result	 out[RATING_PLAYERS_MAX];
	int			 i, n;

	(void)state;
	for (i = 0; i < 4; i++) {
		rating_initial(&r[i]);
		r[i].r = 1400 + 100 * i;
	}
	n = rating_pairwise(4, place, same, r, 1, out);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++)
		assert_true(out[i].score == 1);
	assert_true(out[0].opp.r == 1400);
	assert_true(out[1].opp.r == 1600);
	assert_true(out[2].opp.r == 1700);
	n = rating_pairwise(4, place, same, r, 3, out);
	assert_int_equal(n, 3);
	assert_true(out[0].score == 0.5);	/* seat 0: shares the place */
	assert_true(out[1].score == 0);		/* seat 1: the winner */
	assert_true(out[2].score == 0.5);
}

/* Two seats of one account (a bot in both) are not opponents. */
static void
test_pairwise_same_account(void **state)
{
	const int		 place[3] = { 0, 1, 2 };
	const int		 same[3] = { 0, 1, 1 };
	struct rating		 r[3];
	struct rating_result	 out[RATING_PLAYERS_MAX];

	(void)state;
	rating_initial(&r[0]);
	r[1] = r[2] = r[0];
	assert_int_equal(rating_pairwise(3, place, same, r, 1, out), 1);
	assert_true(out[0].score == 0);
	assert_int_equal(rating_pairwise(3, place, same, r, 0, out), 2);
}

/* ------------------------------------------------------------- matcher */

static const struct match_params	params = { 10.0 };	/* 10/s */

static struct match_ticket
ticket(const char *account, int64_t joined, double rating, double window,
    int min, int max, int64_t bots_after)
{
	struct match_ticket	 t;

	t.account = account;
	t.joined_ms = joined;
	t.rating = rating;
	t.window = window;
	t.min = min;
	t.max = max;
	t.bots_after_ms = bots_after;
	return t;
}

struct run {
	struct match_group	 g[16];
	int			 members[64];
	int			 work[MATCH_WORK(64)];
	int			 ng;
};

static void
run(struct run *r, const struct match_ticket *t, int n, int64_t now)
{
	r->ng = match_groups(t, n, &params, now, r->g, 16, r->members,
	    r->work);
}

/* The group's members, "0,2" */
static const char *
members(const struct run *r, int k, char *buf, size_t len)
{
	size_t	 at = 0;
	int	 i;

	buf[0] = '\0';
	for (i = 0; i < r->g[k].n; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d",
		    i > 0 ? "," : "", r->members[r->g[k].first + i]);
	return buf;
}

static void
test_match_window_widens(void **state)
{
	struct match_ticket	 t[2];
	struct run		 r;

	(void)state;
	t[0] = ticket("ann", 0, 1500, 100, 2, 2, -1);
	t[1] = ticket("bob", 0, 1800, 100, 2, 2, -1);
	near(match_window(&t[0], &params, 0), 100, 1e-9);
	near(match_window(&t[0], &params, 5000), 150, 1e-9);
	/* 300 apart: both windows reach 300 after 20 s */
	run(&r, t, 2, 0);
	assert_int_equal(r.ng, 0);
	run(&r, t, 2, 19999);
	assert_int_equal(r.ng, 0);
	run(&r, t, 2, 20000);
	assert_int_equal(r.ng, 1);
	assert_int_equal(r.g[0].n, 2);
	assert_int_equal(r.g[0].bots, 0);
}

/* The check goes both ways: a wide window alone does not match a
 * narrow one. */
static void
test_match_both_ways(void **state)
{
	struct match_ticket	 t[2];
	struct run		 r;

	(void)state;
	t[0] = ticket("ann", 0, 1500, 1000, 2, 2, -1);
	t[1] = ticket("bob", 10000, 1800, 0, 2, 2, -1);
	assert_false(match_compatible(&t[0], &t[1], &params, 10000));
	assert_false(match_compatible(&t[1], &t[0], &params, 10000));
	run(&r, t, 2, 10000);
	assert_int_equal(r.ng, 0);
	/* bob's window reaches 300 after he waited 30 s */
	run(&r, t, 2, 39999);
	assert_int_equal(r.ng, 0);
	run(&r, t, 2, 40000);
	assert_int_equal(r.ng, 1);
}

static void
test_match_oldest_first(void **state)
{
	struct match_ticket	 t[4];
	struct run		 r;
	char			 buf[64];

	(void)state;
	t[0] = ticket("ann", 0, 1500, 100, 2, 2, -1);
	t[1] = ticket("bob", 1, 1510, 100, 2, 2, -1);
	t[2] = ticket("cid", 2, 1505, 100, 2, 2, -1);
	t[3] = ticket("dan", 3, 1500, 100, 2, 2, -1);
	run(&r, t, 4, 10);
	assert_int_equal(r.ng, 2);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,1");
	assert_string_equal(members(&r, 1, buf, sizeof buf), "2,3");
	/* three: the youngest waits */
	run(&r, t, 3, 10);
	assert_int_equal(r.ng, 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,1");
}

/* An old ticket nobody can serve does not hold up younger ones. */
static void
test_match_skips_unmatchable(void **state)
{
	struct match_ticket	 t[3];
	struct run		 r;
	char			 buf[64];

	(void)state;
	t[0] = ticket("ann", 0, 2500, 0, 2, 2, -1);
	t[1] = ticket("bob", 1000, 1500, 50, 2, 2, -1);
	t[2] = ticket("cid", 2000, 1520, 50, 2, 2, -1);
	run(&r, t, 3, 2000);
	assert_int_equal(r.ng, 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "1,2");
}

/* Two tickets of one account never share a game. */
static void
test_match_one_account(void **state)
{
	struct match_ticket	 t[3];
	struct run		 r;
	char			 buf[64];

	(void)state;
	t[0] = ticket("ann", 0, 1500, 100, 2, 2, -1);
	t[1] = ticket("ann", 1, 1500, 100, 2, 2, -1);
	run(&r, t, 2, 10);
	assert_int_equal(r.ng, 0);
	t[2] = ticket("bob", 2, 1500, 100, 2, 2, -1);
	run(&r, t, 3, 10);
	assert_int_equal(r.ng, 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,2");
}

/* A range takes the largest count that can be filled now; an exact
 * count waits for its players. */
static void
test_match_player_counts(void **state)
{
	struct match_ticket	 t[5];
	struct run		 r;
	char			 buf[64];

	(void)state;
	t[0] = ticket("ann", 0, 1500, 100, 2, 4, -1);
	t[1] = ticket("bob", 1, 1500, 100, 4, 4, -1);
	t[2] = ticket("cid", 2, 1500, 100, 2, 3, -1);
	run(&r, t, 3, 10);
	/* four cannot be filled (cid takes 3 at most); three can, without
	 * bob, who wants exactly four */
	assert_int_equal(r.ng, 0 + 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,2");
	assert_int_equal(r.g[0].n, 2);
	/* with two more that take four, ann, bob and them make four */
	t[3] = ticket("dan", 3, 1500, 100, 3, 4, -1);
	t[4] = ticket("eve", 4, 1500, 100, 4, 4, -1);
	run(&r, t, 5, 10);
	assert_int_equal(r.ng, 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,1,3,4");
	/* bob alone never plays a game of two */
	run(&r, t + 1, 1, 10);
	assert_int_equal(r.ng, 0);
}

static void
test_match_bots_after(void **state)
{
	struct match_ticket	 t[3];
	struct run		 r;
	char			 buf[64];

	(void)state;
	t[0] = ticket("ann", 0, 1500, 100, 4, 4, 10000);
	run(&r, t, 1, 9999);
	assert_int_equal(r.ng, 0);
	run(&r, t, 1, 10000);
	assert_int_equal(r.ng, 1);
	assert_int_equal(r.g[0].n, 1);
	assert_int_equal(r.g[0].bots, 3);
	/* a range is seated up to the fewest it accepts */
	t[0] = ticket("ann", 0, 1500, 100, 2, 4, 10000);
	run(&r, t, 1, 10000);
	assert_int_equal(r.ng, 1);
	assert_int_equal(r.g[0].bots, 1);
	/* the best group takes the tickets that accept bots by now, and
	 * not one that never does or has not waited its bots-after yet */
	t[0] = ticket("ann", 0, 1500, 100, 4, 4, 10000);
	t[1] = ticket("bob", 1000, 1500, 100, 4, 4, 8500);
	t[2] = ticket("cid", 2000, 1500, 100, 4, 4, -1);
	run(&r, t, 3, 9000);
	assert_int_equal(r.ng, 0);
	run(&r, t, 3, 10000);
	assert_int_equal(r.ng, 1);
	assert_string_equal(members(&r, 0, buf, sizeof buf), "0,1");
	assert_int_equal(r.g[0].bots, 2);
	/* no bots-after: never */
	run(&r, t + 2, 1, 1000000);
	assert_int_equal(r.ng, 0);
}

/* Every ticket is in one group at most, and each group's tickets all
 * accept its count and each other. */
static void
test_match_many_tickets(void **state)
{
	static struct match_ticket	 t[64];
	static char			 names[64][8];
	struct run			 r;
	int				 seen[64] = { 0 }, i, k, a, b, s;

	(void)state;
	for (i = 0; i < 64; i++) {
		snprintf(names[i], sizeof names[i], "p%d", i % 40);
		t[i] = ticket(names[i], i * 100, 1200 + (i * 37) % 600, 50,
		    2 + i % 3, 4, i % 5 == 0 ? 3000 : -1);
	}
	r.ng = match_groups(t, 64, &params, 7000, r.g, 16, r.members,
	    r.work);
	assert_true(r.ng > 0);
	for (k = 0; k < r.ng; k++) {
		s = r.g[k].n + r.g[k].bots;
		for (i = 0; i < r.g[k].n; i++) {
			a = r.members[r.g[k].first + i];
			assert_int_equal(seen[a]++, 0);
			assert_true(t[a].min <= s && s <= t[a].max);
			for (b = 0; b < r.g[k].n; b++)
				if (b != i)
					assert_true(match_compatible(&t[a],
					    &t[r.members[r.g[k].first + b]],
					    &params, 7000));
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glicko2_paper_example),
		cmocka_unit_test(test_glicko2_no_games_grows_rd),
		cmocka_unit_test(test_glicko2_win_and_loss),
		cmocka_unit_test(test_pairwise_finishing_order),
		cmocka_unit_test(test_pairwise_same_account),
		cmocka_unit_test(test_match_window_widens),
		cmocka_unit_test(test_match_both_ways),
		cmocka_unit_test(test_match_oldest_first),
		cmocka_unit_test(test_match_skips_unmatchable),
		cmocka_unit_test(test_match_one_account),
		cmocka_unit_test(test_match_player_counts),
		cmocka_unit_test(test_match_bots_after),
		cmocka_unit_test(test_match_many_tickets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
