/*
 * test_pg, the lobby's rows on two nodes: a ticket matched once when
 * two nodes race for it, a cancel that beats a match, an account's cap
 * of waiting tickets held across nodes, two games' ratings of one
 * account never written over each other, a read of what the
 * transaction writes run again, and one matcher per queue at a time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "store/store.h"
#include "store_helper.h"
#include "test_pg.h"

static void
account(struct store *st, const char *name)
{
	uint8_t	 key[STORE_KEY_HASH_LEN];

	memset(key, name[0], sizeof(key));
	assert_int_equal(store_account_create(st, name, key, 1), STORE_OK);
}

static int64_t
join(struct store *st, const char *name, int64_t joined)
{
	struct store_ticket	 t;

	memset(&t, 0, sizeof(t));
	snprintf(t.account, sizeof(t.account), "%s", name);
	snprintf(t.queue, sizeof(t.queue), "ludo q");
	t.kind = KIND_LUDO;
	t.players_min = t.players_max = 2;
	t.rating = 1500;
	t.span = 100;
	t.bots_after = -1;
	t.joined = joined;
	assert_int_equal(store_ticket_join(st, &t, 0), STORE_OK);
	return t.id;
}

/* A match of two tickets into game id, in request 1 of a transaction
 * left open. */
static void
match_open(struct store *st, const char *id, int64_t t0, int64_t t1,
    const char *a0, const char *a1)
{
	struct store_match	 m;
	struct game		 g;
	const char		*accounts[GAME_MAX_PLAYERS] = { a0, a1 };
	int64_t			 ids[2] = { t0, t1 };
	int			 seats[2] = { 0, 1 };

	make_ludo(&g, id, "classic", 2);
	m.n = 2;
	m.tickets = ids;
	m.seats = seats;
	m.accounts = accounts;
	m.ended = 9;
	assert_int_equal(store_begin(st), STORE_OK);
	store_request(st, 1);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_match(st, &g, &m), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
}

static enum store_ticket_state
state_of(struct store *st, int64_t id, char game[GAME_ID_MAX + 1])
{
	struct store_ticket	 t;

	assert_int_equal(store_ticket_get(st, id, &t), STORE_OK);
	if (game != NULL)
		memcpy(game, t.game, GAME_ID_MAX + 1);
	return t.state;
}

void
test_lobby_match_race(void **state)
{
	struct nodes	*n = *state;
	struct game	 g;
	char		 game[GAME_ID_MAX + 1];
	int64_t		 t1, t2, t3;

	account(n->a, "ann");
	account(n->a, "bob");
	account(n->a, "cid");
	t1 = join(n->a, "ann", 1);
	t2 = join(n->b, "bob", 2);
	t3 = join(n->b, "cid", 3);
	/* both nodes take bob's ticket, each into a game of its own */
	match_open(n->a, "ma", t1, t2, "ann", "bob");
	match_open(n->b, "mb", t2, t3, "bob", "cid");
	tp_committed(n->a, 0);
	tp_committed(n->b, 1ULL << 1);
	assert_int_equal(store_load_game(n->a, "mb", &g), STORE_NOTFOUND);
	assert_int_equal(state_of(n->b, t2, game), TICKET_MATCHED);
	assert_string_equal(game, "ma");
	assert_int_equal(state_of(n->b, t3, NULL), TICKET_WAITING);
	assert_int_equal(query_int(n->a,
	    "SELECT count(*) FROM game_accounts"), 2);
}

void
test_lobby_cancel_beats_match(void **state)
{
	struct nodes	*n = *state;
	struct game	 g;
	int64_t		 t1, t2;

	account(n->a, "ann");
	account(n->a, "bob");
	t1 = join(n->a, "ann", 1);
	t2 = join(n->a, "bob", 2);
	match_open(n->a, "ma", t1, t2, "ann", "bob");
	assert_int_equal(store_begin(n->b), STORE_OK);
	store_request(n->b, 1);
	assert_int_equal(store_ticket_cancel(n->b, t1, 5), STORE_OK);
	tp_committed(n->b, 0);
	tp_committed(n->a, 1ULL << 1);
	assert_int_equal(store_load_game(n->a, "ma", &g), STORE_NOTFOUND);
	assert_int_equal(state_of(n->a, t1, NULL), TICKET_CANCELLED);
	assert_int_equal(state_of(n->a, t2, NULL), TICKET_WAITING);
}

/* Both nodes see no waiting ticket of ann's when they join; the second
 * COMMIT counts again under the account's lock and stores nothing. */
void
test_lobby_cap_across_nodes(void **state)
{
	struct nodes		*n = *state;
	struct store_ticket	 t;
	struct store		*node[2];
	int			 i;

	account(n->a, "ann");
	node[0] = n->a;
	node[1] = n->b;
	for (i = 0; i < 2; i++) {
		assert_int_equal(store_begin(node[i]), STORE_OK);
		store_request(node[i], 1);
		memset(&t, 0, sizeof(t));
		snprintf(t.account, sizeof(t.account), "ann");
		snprintf(t.queue, sizeof(t.queue), "ludo q");
		t.kind = KIND_LUDO;
		t.players_min = t.players_max = 2;
		t.bots_after = -1;
		t.joined = 10 + i;
		assert_int_equal(store_ticket_join(node[i], &t, 1), STORE_OK);
	}
	tp_committed(n->a, 0);
	tp_committed(n->b, 1ULL << 1);
	assert_int_equal(query_int(n->a, "SELECT count(*) FROM tickets"), 1);
	/* run again, the join finds the cap reached */
	t.joined = 12;
	assert_int_equal(store_ticket_join(n->b, &t, 1), STORE_LIMIT);
}

static void
ratings_open(struct store *st, double rating)
{
	struct store_rating	 old, new;
	const char		*names[1] = { "ann" };

	memset(&old, 0, sizeof(old));
	memset(&new, 0, sizeof(new));
	new.rating = rating;
	new.rd = 200;
	new.vol = 0.06;
	new.games = 1;
	new.updated = 1;
	assert_int_equal(store_begin(st), STORE_OK);
	store_request(st, 1);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_ratings_save(st, KIND_LUDO, 1, names, &old,
	    &new), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
}

/* Two games of ann's end at once on two nodes, each rated from the
 * rating both read: the second would lose the first's update, and its
 * whole transaction runs again instead. */
void
test_lobby_rating_race(void **state)
{
	struct nodes		*n = *state;
	struct store_rating	 r;

	account(n->a, "ann");
	ratings_open(n->a, 1600);
	ratings_open(n->b, 1400);
	tp_committed(n->a, 0);
	tp_committed(n->b, 1ULL << 1);
	assert_int_equal(store_rating_get(n->b, "ann", KIND_LUDO, &r),
	    STORE_OK);
	assert_true(r.rating == 1600);
	assert_int_equal(r.games, 1);
}

/* A ticket joined and read in one transaction: the read cannot see the
 * join before the COMMIT, so its request runs again after it. */
void
test_lobby_read_own_write(void **state)
{
	struct nodes		*n = *state;
	struct store_ticket	 t, got;
	struct store_account	 a;
	uint8_t			 key[STORE_KEY_HASH_LEN];

	memset(key, 7, sizeof(key));
	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 1);
	assert_int_equal(store_account_create(n->a, "ann", key, 1), STORE_OK);
	store_request(n->a, 2);
	(void)store_account_get(n->a, "ann", &a);
	tp_committed(n->a, 1ULL << 2);
	assert_int_equal(store_account_get(n->a, "ann", &a), STORE_OK);

	memset(&t, 0, sizeof(t));
	snprintf(t.account, sizeof(t.account), "ann");
	snprintf(t.queue, sizeof(t.queue), "ludo q");
	t.kind = KIND_LUDO;
	t.players_min = t.players_max = 2;
	t.bots_after = -1;
	assert_int_equal(store_begin(n->a), STORE_OK);
	store_request(n->a, 1);
	assert_int_equal(store_ticket_join(n->a, &t, 0), STORE_OK);
	store_request(n->a, 2);
	(void)store_ticket_get(n->a, t.id, &got);
	tp_committed(n->a, 1ULL << 2);
	assert_int_equal(store_ticket_get(n->a, t.id, &got), STORE_OK);
}

/* One node at a time is a queue's matcher; when its connection is gone
 * another takes over. */
void
test_lobby_queue_lock(void **state)
{
	struct nodes	*n = *state;
	char		 err[256];
	int		 i, got = 0;

	assert_int_equal(store_queue_lock(n->a, "ludo q"), 1);
	assert_int_equal(store_queue_lock(n->a, "ludo q"), 1);
	assert_int_equal(store_queue_lock(n->b, "ludo q"), 0);
	assert_int_equal(store_queue_lock(n->b, "ludo other"), 1);
	assert_int_equal(store_queue_lock(n->a, "ludo other"), 0);
	store_close(n->a);
	n->a = NULL;
	for (i = 0; i < 200 && got != 1; i++) {
		if ((got = store_queue_lock(n->b, "ludo q")) != 1)
			usleep(10000);
	}
	assert_int_equal(got, 1);
	n->a = test_store_at(NULL, DURABILITY_FULL, err, sizeof(err));
	assert_non_null(n->a);
	assert_int_equal(store_queue_lock(n->a, "ludo q"), 0);
}
