/*
 * The turns of a transaction as one set-based statement (PS_TURNS).
 *
 * Each turn is queued as its own PS_TURN (pg_write.c): one games row
 * checked against its snapshot's version, its token rows, its history
 * row.  Sent one by one, a pass of N turns costs PostgreSQL N
 * statements, and a statement's own cost (bind, executor start, three
 * table modifications, the end) is most of a turn's.  At the COMMIT the
 * first turn of each game is taken out of the queue instead and the
 * turns go as arrays through unnest(): one UPDATE of games checking
 * every version, one UPDATE of tokens, one INSERT of history, in one
 * statement, whose rows say which turns were stored; a turn whose games
 * row had changed has no row there, and its request is run again, as
 * one alone that matched nothing would be.
 *
 * Only a game's first statement can go: a second turn of a game (or any
 * later statement of it) is built on the first and follows it, sent as
 * before.  The statement comes where the first game's statement would
 * have come (after the lobby's rows, which every node locks first) and
 * locks, in the order of their ids, every game the transaction writes:
 * the statements after it find their rows locked already, and two nodes
 * still take their locks in one order, so they wait for one another at
 * most, never deadlock.  A token row missing divides by zero, as one
 * turn's statement does: a damaged database, nothing commits.
 */
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

/*
 * PS_TURNS's parameters: $1 the games to lock; $2-$20 a turn each, from
 * PS_TURN's parameters as set_from[] says (pg_write.c's pg_turn(): id,
 * moves and stamp expected, the games row's new columns, its token
 * count, the history row); $21-$25 the token rows (game, player, token,
 * pos, points), PS_TURN's four arrays joined.
 */
static const int	 set_from[SET_TURN_COLS] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,	/* the games row */
	22,					/* its token rows */
	16, 17, 18, 19, 20, 21			/* the history row */
};
#define TURN_TOKENS	12	/* PS_TURN's first token array */
#define TURN_NTOK	22	/* and its count of token rows */

/* A queued turn's statement that can go in the set. */
static int
settable(const struct pg_q *q)
{
	return q->kind == PQ_TURN && q->stmt == PS_TURN;
}

/* Where the set goes in the order: before the first statement that is
 * not the lobby's. */
static size_t
set_place(const struct pg_store *s)
{
	size_t	 i;

	for (i = 0; i < s->nsent; i++)
		if (s->q[s->order[i]].id[0] != PG_KEY_LOBBY &&
		    s->q[s->order[i]].id[0] != '\0')
			break;
	return i;
}

/* "{1,2}" into b, its elements after b's. */
static void
buf_join(struct pg_buf *b, const char *array)
{
	size_t	 n = strlen(array);

	if (n < 2 || array[0] != '{' || array[n - 1] != '}' || n == 2)
		return;
	pg_buf_raw(b, array + 1, n - 2);
}

/* The first statement of each game, when it is a turn: the set's. */
static int
first_turns(struct pg_store *s, int mark)
{
	const char	*last = NULL;
	struct pg_q	*q;
	size_t		 i;
	int		 n = 0;

	for (i = 0; i < s->nsent; i++) {
		q = &s->q[s->order[i]];
		q->inset = 0;
		if (!pg_q_game(q))
			continue;
		if ((last == NULL || strcmp(last, q->id) != 0) &&
		    settable(q)) {
			q->inset = (uint8_t)mark;
			n++;
		}
		last = q->id;
	}
	return n;
}

/*
 * After order_queue(): marks the turns that go in the set (q->inset),
 * and builds its parameters.  1 when the set is sent, 0 when there are
 * fewer than two turns to put in it (each goes alone, as before).
 */
int
pg_set_plan(struct pg_store *s)
{
	struct pg_set	*set = &s->set;
	const char	*p[64], *locked = NULL, *errstr;
	struct pg_q	*q;
	size_t		 i;
	int64_t		 ntok;
	int		 k, j;

	if (first_turns(s, 0) < 2)
		return 0;
	set->n = (size_t)first_turns(s, 1);
	set->at = set_place(s);
	for (k = 0; k < SET_PARAMS; k++)
		pg_buf_start(&set->b[k]);
	for (i = 0; i < s->nsent; i++) {
		q = &s->q[s->order[i]];
		if (pg_q_game(q) && pg_q_is_write((enum pg_qkind)q->kind) &&
		    (locked == NULL || strcmp(locked, q->id) != 0)) {
			pg_buf_text(&set->b[0], q->id, strlen(q->id));
			locked = q->id;
		}
		if (!q->inset)
			continue;
		pg_q_params(s, q, p);
		for (k = 0; k < SET_TURN_COLS; k++) {
			if (p[set_from[k]] == NULL)
				pg_buf_null(&set->b[1 + k]);
			else
				pg_buf_text(&set->b[1 + k], p[set_from[k]],
				    strlen(p[set_from[k]]));
		}
		if (p[TURN_NTOK] == NULL ||
		    parse_int64(p[TURN_NTOK], 0, 1000, &ntok, &errstr) != 0)
			ntok = 0;
		for (j = 0; j < ntok; j++)
			pg_buf_text(&set->b[1 + SET_TURN_COLS], q->id,
			    strlen(q->id));
		for (k = 0; k < 4; k++)
			if (p[TURN_TOKENS + k] != NULL)
				buf_join(&set->b[2 + SET_TURN_COLS + k],
				    p[TURN_TOKENS + k]);
	}
	for (k = 0; k < SET_PARAMS; k++)
		set->p[k] = pg_buf_end(&set->b[k]);
	return 1;
}

/* Into libpq's buffer: 0, or -1 when libpq refused it. */
int
pg_set_send(struct pg_store *s)
{
	return pg_send(s->wr.pc, PS_TURNS, SET_PARAMS, s->set.p);
}

/* Its result: each turn's outcome (0 stored, or STORE_REDO: its row had
 * changed); -1 for an error, with the first one's message kept. */
int
pg_set_read(struct pg_store *s, PGresult *r, int *failed)
{
	struct pg_set	*set = &s->set;
	ExecStatusType	 t = PQresultStatus(r);
	struct pg_q	*q;
	size_t		 i, k;
	int64_t		 v;
	int		 row;

	if (t == PGRES_PIPELINE_ABORTED)
		return -1;
	if (t != PGRES_TUPLES_OK) {
		if (!*failed)
			pg_err(s, "commit", s->wr.pc, r);
		*failed = 1;
		return -1;
	}
	/* Each row is a turn's place in the set, from 1. */
	set->stored = xrealloc(set->stored, set->n);
	memset(set->stored, 0, set->n);
	for (row = 0; row < PQntuples(r); row++)
		if (pg_col_int(r, row, 0, &v) == 0 && v >= 1 &&
		    (size_t)v <= set->n)
			set->stored[v - 1] = 1;
	for (i = k = 0; i < s->nsent; i++) {
		q = &s->q[s->order[i]];
		if (!q->inset)
			continue;
		q->outcome = set->stored[k++] ? 0 : STORE_REDO;
	}
	return 0;
}

void
pg_set_free(struct pg_store *s)
{
	int	 k;

	for (k = 0; k < SET_PARAMS; k++)
		pg_buf_free(&s->set.b[k]);
	free(s->set.stored);
}
