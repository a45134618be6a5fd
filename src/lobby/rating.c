/*
 * Glicko-2, step by step as the paper numbers its steps, and the
 * pairwise results of a finishing order (rating.h).
 */
#include <math.h>

#include "lobby/rating.h"

#define SCALE		173.7178	/* Glicko to Glicko-2: 400 / ln(10) */
#define EPSILON		0.000001	/* the volatility's convergence */
#define ITER_MAX	100		/* Illinois steps, far more than it
					   ever takes: a bound, not a rule */

void
rating_initial(struct rating *r)
{
	r->r = RATING_INITIAL;
	r->rd = RATING_RD_INITIAL;
	r->vol = RATING_VOL_INITIAL;
}

/* The weight of an opponent's deviation (step 3's g). */
static double
g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

/* The expected score against an opponent (step 3's E). */
static double
expect(double mu, double mu_j, double g_j)
{
	return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

/* Step 5's f. */
static double
vol_f(double x, double delta2, double phi2, double v, double a, double tau)
{
	double	 ex = exp(x), d = phi2 + v + ex;

	return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) -
	    (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double
new_vol(double vol, double delta, double phi, double v, double tau)
{
	double	 a = log(vol * vol), delta2 = delta * delta, phi2 = phi * phi;
	double	 A = a, B, C, fA, fB, fC;
	int	 k, i;

	if (delta2 > phi2 + v)
		B = log(delta2 - phi2 - v);
	else {
		for (k = 1; k < ITER_MAX &&
		    vol_f(a - k * tau, delta2, phi2, v, a, tau) < 0; k++)
			;
		B = a - k * tau;
	}
	fA = vol_f(A, delta2, phi2, v, a, tau);
	fB = vol_f(B, delta2, phi2, v, a, tau);
	for (i = 0; i < ITER_MAX && fabs(B - A) > EPSILON; i++) {
		C = A + (A - B) * fA / (fB - fA);
		fC = vol_f(C, delta2, phi2, v, a, tau);
		if (fC * fB < 0) {
			A = B;
			fA = fB;
		} else
			fA /= 2.0;
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

void
rating_update(const struct rating *p, const struct rating_result *res,
    int n, double tau, struct rating *out)
{
	double	 mu = (p->r - RATING_INITIAL) / SCALE, phi = p->rd / SCALE;
	double	 vinv = 0, sum = 0, gj, ej, v, delta, vol, phistar, phinew;
	int	 j;

	if (n <= 0) {
		/* Step 6 alone: the deviation grows with time unplayed. */
		out->r = p->r;
		out->vol = p->vol;
		phinew = sqrt(phi * phi + p->vol * p->vol);
		out->rd = fmin(phinew * SCALE, RATING_RD_INITIAL);
		return;
	}
	for (j = 0; j < n; j++) {		/* steps 3 and 4 */
		gj = g_of(res[j].opp.rd / SCALE);
		ej = expect(mu, (res[j].opp.r - RATING_INITIAL) / SCALE, gj);
		vinv += gj * gj * ej * (1.0 - ej);
		sum += gj * (res[j].score - ej);
	}
	v = 1.0 / vinv;
	delta = v * sum;
	vol = new_vol(p->vol, delta, phi, v, tau);	/* step 5 */
	phistar = sqrt(phi * phi + vol * vol);		/* step 6 */
	phinew = 1.0 / sqrt(1.0 / (phistar * phistar) + 1.0 / v);  /* 7 */
	out->r = SCALE * (mu + phinew * phinew * sum) + RATING_INITIAL;
	out->rd = fmin(SCALE * phinew, RATING_RD_INITIAL);	/* step 8 */
	out->vol = vol;
}

int
rating_pairwise(int n, const int place[], const int same[],
    const struct rating r[], int i, struct rating_result out[])
{
	int	 j, k = 0;

	for (j = 0; j < n && j < RATING_PLAYERS_MAX; j++) {
		if (j == i || same[j] == same[i])
			continue;
		out[k].opp = r[j];
		out[k].score = place[i] < place[j] ? 1.0 :
		    place[i] == place[j] ? 0.5 : 0.0;
		k++;
	}
	return k;
}
