/*
 * test_store, the lobby's rows: accounts and their keys, tickets (ids,
 * order, the cap, cancel once), a match all or nothing, the seats
 * accounts hold and their games, ratings written only on top of what
 * they were computed from, the leaderboard, and the rows walked out and
 * written into another store as ludus copy does.  On both backends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "store/store.h"
#include "store_helper.h"
#include "test_store.h"

static void
key_of(uint8_t key[STORE_KEY_HASH_LEN], int v)
{
	memset(key, v, STORE_KEY_HASH_LEN);
}

static void
account(struct store *st, const char *name)
{
	uint8_t	 key[STORE_KEY_HASH_LEN];

	key_of(key, name[0]);
	assert_int_equal(store_account_create(st, name, key, 100), STORE_OK);
}

void
test_lobby_accounts(void **state)
{
	struct store		*st = open_mem();
	struct store_account	 a;
	uint8_t			 k1[STORE_KEY_HASH_LEN], k2[STORE_KEY_HASH_LEN];

	(void)state;
	key_of(k1, 1);
	key_of(k2, 2);
	assert_int_equal(store_account_get(st, "ann", &a), STORE_NOTFOUND);
	assert_int_equal(store_account_create(st, "ann", k1, 1000), STORE_OK);
	assert_int_equal(store_account_create(st, "ann", k2, 1001),
	    STORE_EXISTS);
	assert_int_equal(store_account_get(st, "ann", &a), STORE_OK);
	assert_string_equal(a.name, "ann");
	assert_true(a.has_key);
	assert_int_equal(a.bot, -1);
	assert_int_equal(a.created, 1000);
	assert_memory_equal(a.key, k1, STORE_KEY_HASH_LEN);
	/* a new key only on top of the one it replaces */
	assert_int_equal(store_account_rekey(st, "ann", k2, k2),
	    STORE_NOTFOUND);
	assert_int_equal(store_account_rekey(st, "nobody", k2, k1),
	    STORE_NOTFOUND);
	assert_int_equal(store_account_rekey(st, "ann", k2, k1), STORE_OK);
	assert_int_equal(store_account_get(st, "ann", &a), STORE_OK);
	assert_memory_equal(a.key, k2, STORE_KEY_HASH_LEN);
	/* the bots are accounts of the schema's, with no key */
	assert_int_equal(store_account_get(st, "bot-expert", &a), STORE_OK);
	assert_false(a.has_key);
	assert_int_equal(a.bot, 2);
	assert_int_equal(store_account_get(st, "bot-first", &a), STORE_OK);
	assert_int_equal(a.bot, 0);
	assert_int_equal(query_int(st, "SELECT count(*) FROM accounts"), 4);
	store_close(st);
}

static void
ticket(struct store_ticket *t, const char *account, const char *queue,
    int64_t joined)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->account, sizeof(t->account), "%s", account);
	snprintf(t->queue, sizeof(t->queue), "%s", queue);
	t->kind = KIND_LUDO;
	t->players_min = 2;
	t->players_max = 4;
	t->rating = 1500;
	t->span = 100;
	t->bots_after = -1;
	t->joined = joined;
}

struct tickets {
	int64_t		 id[16];
	int		 n;
};

static int
collect_ticket(void *arg, const struct store_ticket *t)
{
	struct tickets	*c = arg;

	assert_true(c->n < 16);
	c->id[c->n++] = t->id;
	return 0;
}

struct queues {
	char		 name[4][64];
	int64_t		 waiting[4], oldest[4];
	int		 n;
};

static int
collect_queue(void *arg, const char *queue, enum game_kind kind,
    int64_t waiting, int64_t oldest)
{
	struct queues	*q = arg;

	assert_int_equal(kind, KIND_LUDO);
	assert_true(q->n < 4);
	snprintf(q->name[q->n], sizeof(q->name[0]), "%s", queue);
	q->waiting[q->n] = waiting;
	q->oldest[q->n++] = oldest;
	return 0;
}

void
test_lobby_tickets(void **state)
{
	struct store		*st = open_mem();
	struct store_ticket	 t[4], got;
	struct tickets		 c;
	struct queues		 q;
	int			 i;

	(void)state;
	account(st, "ann");
	account(st, "bob");
	ticket(&t[0], "ann", "ludo q", 5000);
	ticket(&t[1], "bob", "ludo q", 4000);	/* older, joined later */
	ticket(&t[2], "ann", "ludo q", 6000);
	t[2].bots_after = 30000;
	ticket(&t[3], "ann", "ludo other", 7000);
	for (i = 0; i < 3; i++)
		assert_int_equal(store_ticket_join(st, &t[i], 3), STORE_OK);
	assert_true(t[0].id > 0 && t[1].id != t[0].id && t[2].id != t[1].id);
	/* ann holds two waiting: a third is refused under a cap of two,
	 * and nothing is kept of it */
	assert_int_equal(store_ticket_join(st, &t[3], 2), STORE_LIMIT);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tickets"), 3);
	assert_int_equal(store_ticket_join(st, &t[3], 0), STORE_OK);

	assert_int_equal(store_ticket_get(st, t[2].id, &got), STORE_OK);
	assert_string_equal(got.account, "ann");
	assert_string_equal(got.queue, "ludo q");
	assert_int_equal(got.kind, KIND_LUDO);
	assert_int_equal(got.players_min, 2);
	assert_int_equal(got.players_max, 4);
	assert_true(got.rating == 1500 && got.span == 100);
	assert_int_equal(got.bots_after, 30000);
	assert_int_equal(got.joined, 6000);
	assert_int_equal(got.state, TICKET_WAITING);
	assert_int_equal(got.seat, -1);
	assert_int_equal(store_ticket_get(st, t[2].id + 1000, &got),
	    STORE_NOTFOUND);

	/* oldest first: by joined, then id */
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_tickets_waiting(st, "ludo q", -1,
	    collect_ticket, &c), 0);
	assert_int_equal(c.n, 3);
	assert_true(c.id[0] == t[1].id && c.id[1] == t[0].id &&
	    c.id[2] == t[2].id);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_tickets_waiting(st, "ludo q", 1,
	    collect_ticket, &c), 0);
	assert_int_equal(c.n, 1);

	/* cancelled once */
	assert_int_equal(store_ticket_cancel(st, t[0].id, 9000), STORE_OK);
	assert_int_equal(store_ticket_cancel(st, t[0].id, 9001),
	    STORE_NOTFOUND);
	assert_int_equal(store_ticket_get(st, t[0].id, &got), STORE_OK);
	assert_int_equal(got.state, TICKET_CANCELLED);
	assert_int_equal(got.ended, 9000);

	memset(&q, 0, sizeof(q));
	assert_int_equal(store_queues(st, KIND_NONE, collect_queue, &q), 0);
	assert_int_equal(q.n, 2);
	assert_string_equal(q.name[0], "ludo other");
	assert_string_equal(q.name[1], "ludo q");
	assert_int_equal(q.waiting[1], 2);
	assert_int_equal(q.oldest[1], 4000);
	memset(&q, 0, sizeof(q));
	assert_int_equal(store_queues(st, KIND_SNL, collect_queue, &q), 0);
	assert_int_equal(q.n, 0);

	memset(&c, 0, sizeof(c));
	assert_int_equal(store_tickets_ended(st, 3, (int64_t[]){ t[0].id,
	    t[1].id, t[2].id }, collect_ticket, &c), 0);
	assert_int_equal(c.n, 1);
	assert_true(c.id[0] == t[0].id);
	store_close(st);
}

struct seats {
	char		 account[4][64];
	int		 idx[4];
	int		 n;
};

static int
collect_seat(void *arg, int idx, const char *account)
{
	struct seats	*s = arg;

	assert_true(s->n < 4);
	s->idx[s->n] = idx;
	snprintf(s->account[s->n++], sizeof(s->account[0]), "%s", account);
	return 0;
}

struct games {
	struct store_account_game g[4];
	int		 n;
};

static int
collect_game(void *arg, const struct store_account_game *g)
{
	struct games	*c = arg;

	assert_true(c->n < 4);
	c->g[c->n++] = *g;
	return 0;
}

void
test_lobby_match(void **state)
{
	struct store		*st = open_mem();
	struct store_ticket	 t[3], got;
	struct store_match	 m;
	struct seats		 s;
	struct games		 c;
	struct game		 g, g2;
	const char		*accounts[GAME_MAX_PLAYERS] = { NULL };
	int64_t			 ids[2];
	int			 seats[2] = { 1, 0 };

	(void)state;
	account(st, "ann");
	account(st, "bob");
	ticket(&t[0], "ann", "ludo q", 1000);
	ticket(&t[1], "bob", "ludo q", 2000);
	ticket(&t[2], "bob", "ludo q", 3000);
	assert_int_equal(store_ticket_join(st, &t[0], 0), STORE_OK);
	assert_int_equal(store_ticket_join(st, &t[1], 0), STORE_OK);
	assert_int_equal(store_ticket_join(st, &t[2], 0), STORE_OK);

	make_ludo(&g, "m-1", "classic", 2);
	ids[0] = t[0].id;
	ids[1] = t[1].id;
	accounts[0] = "bob";
	accounts[1] = "ann";
	m.n = 2;
	m.tickets = ids;
	m.seats = seats;
	m.accounts = accounts;
	m.ended = 5000;
	assert_int_equal(store_match(st, &g, &m), STORE_OK);
	assert_loads_as(st, &g);
	assert_int_equal(store_ticket_get(st, t[0].id, &got), STORE_OK);
	assert_int_equal(got.state, TICKET_MATCHED);
	assert_string_equal(got.game, "m-1");
	assert_int_equal(got.seat, 1);
	assert_int_equal(got.ended, 5000);
	assert_int_equal(store_ticket_get(st, t[1].id, &got), STORE_OK);
	assert_int_equal(got.seat, 0);
	/* a ticket matched once: the second match makes nothing at all */
	make_ludo(&g2, "m-2", "classic", 2);
	ids[1] = t[2].id;
	assert_int_equal(store_match(st, &g2, &m), STORE_NOTFOUND);
	assert_int_equal(store_load_game(st, "m-2", &g2), STORE_NOTFOUND);
	assert_int_equal(store_ticket_get(st, t[2].id, &got), STORE_OK);
	assert_int_equal(got.state, TICKET_WAITING);
	assert_int_equal(query_int(st,
	    "SELECT count(*) FROM game_accounts"), 2);
	/* nor can a matched ticket be cancelled */
	assert_int_equal(store_ticket_cancel(st, t[0].id, 6000),
	    STORE_NOTFOUND);

	memset(&s, 0, sizeof(s));
	assert_int_equal(store_game_accounts(st, "m-1", collect_seat, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.idx[0], 0);
	assert_string_equal(s.account[0], "bob");
	assert_string_equal(s.account[1], "ann");
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_game_accounts(st, "nogame", collect_seat, &s),
	    0);
	assert_int_equal(s.n, 0);

	memset(&c, 0, sizeof(c));
	assert_int_equal(store_account_games(st, "ann", GAMES_ALL, NULL, -1,
	    collect_game, &c), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.g[0].game, "m-1");
	assert_int_equal(c.g[0].kind, KIND_LUDO);
	assert_int_equal(c.g[0].seat, 1);
	assert_string_equal(c.g[0].seat_name, "player-1");
	assert_int_equal(c.g[0].turn, 0);
	assert_string_equal(c.g[0].turn_name, "player-0");
	assert_int_equal(c.g[0].nplayers, 2);
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_account_games(st, "ann", GAMES_FINISHED, NULL,
	    -1, collect_game, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_account_games(st, "ann", GAMES_ACTIVE, "m-1",
	    -1, collect_game, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(store_account_games(st, "ann", GAMES_ACTIVE, NULL,
	    -1, collect_game, &c), 0);
	assert_int_equal(c.n, 1);
	store_close(st);
}

struct board {
	char		 account[4][64];
	int64_t		 rank[4];
	double		 rating[4];
	int		 n;
};

static int
collect_rank(void *arg, int64_t rank, const char *account,
    const struct store_rating *r)
{
	struct board	*b = arg;

	assert_true(b->n < 4);
	b->rank[b->n] = rank;
	b->rating[b->n] = r->rating;
	snprintf(b->account[b->n++], sizeof(b->account[0]), "%s", account);
	return 0;
}

static struct store_rating
rated(double rating, int64_t games, int64_t won)
{
	struct store_rating	 r;

	memset(&r, 0, sizeof(r));
	r.rating = rating;
	r.rd = 120.5;
	r.vol = 0.0599;
	r.games = games;
	r.won = won;
	r.updated = 77;
	return r;
}

void
test_lobby_ratings(void **state)
{
	struct store		*st = open_mem();
	struct store_rating	 old[3], new[3], got;
	struct store_ticket	 t, tg;
	struct board		 b;
	const char		*names[3] = { "ann", "bob", "bot-expert" };

	(void)state;
	account(st, "ann");
	account(st, "bob");
	assert_int_equal(store_rating_get(st, "ann", KIND_LUDO, &got),
	    STORE_NOTFOUND);
	memset(old, 0, sizeof(old));
	new[0] = rated(1510.25, 1, 1);
	new[1] = rated(1490.5, 1, 0);
	new[2] = rated(1500, 1, 0);
	assert_int_equal(store_ratings_save(st, KIND_LUDO, 3, names, old,
	    new), STORE_OK);
	assert_int_equal(store_rating_get(st, "ann", KIND_LUDO, &got),
	    STORE_OK);
	assert_true(got.rating == 1510.25 && got.rd == 120.5 &&
	    got.vol == 0.0599);
	assert_int_equal(got.games, 1);
	assert_int_equal(got.won, 1);
	assert_int_equal(got.updated, 77);
	assert_int_equal(store_rating_get(st, "ann", KIND_SNL, &got),
	    STORE_NOTFOUND);

	/* written on top of a rating that is no longer there: refused, and
	 * nothing of the game's ratings kept */
	old[0] = rated(1510.25, 1, 1);
	old[1] = rated(1490.5, 0, 0);		/* stale: bob has one */
	new[0] = rated(1520, 2, 2);
	new[1] = rated(1480, 1, 0);
	assert_int_equal(store_ratings_save(st, KIND_LUDO, 2, names, old,
	    new), STORE_ERR);
	assert_int_equal(store_rating_get(st, "ann", KIND_LUDO, &got),
	    STORE_OK);
	assert_true(got.rating == 1510.25);
	old[1] = rated(1490.5, 1, 0);
	new[1] = rated(1480, 2, 0);
	assert_int_equal(store_ratings_save(st, KIND_LUDO, 2, names, old,
	    new), STORE_OK);

	memset(&b, 0, sizeof(b));
	assert_int_equal(store_leaderboard(st, KIND_LUDO, 0, -1, collect_rank,
	    &b), 0);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.account[0], "ann");
	assert_string_equal(b.account[1], "bot-expert");
	assert_string_equal(b.account[2], "bob");
	assert_true(b.rank[0] == 1 && b.rank[2] == 3);
	assert_true(b.rating[0] == 1520);
	memset(&b, 0, sizeof(b));
	assert_int_equal(store_leaderboard(st, KIND_LUDO, 1, 1, collect_rank,
	    &b), 0);
	assert_int_equal(b.n, 1);
	assert_string_equal(b.account[0], "bot-expert");
	assert_int_equal(b.rank[0], 2);
	memset(&b, 0, sizeof(b));
	assert_int_equal(store_leaderboard(st, KIND_SNL, 0, 10, collect_rank,
	    &b), 0);
	assert_int_equal(b.n, 0);
	/* a ticket carries its account's rating of the kind, read with its
	 * join; the rating given stands for one who never played it */
	ticket(&t, "ann", "ludo q", 1);
	t.rating = 1500;
	assert_int_equal(store_ticket_join(st, &t, 0), STORE_OK);
	assert_true(t.rating == 1520);
	assert_int_equal(store_ticket_get(st, t.id, &tg), STORE_OK);
	assert_true(tg.rating == 1520);
	ticket(&t, "ann", "snl q", 1);
	t.kind = KIND_SNL;
	t.rating = 1500;
	assert_int_equal(store_ticket_join(st, &t, 0), STORE_OK);
	assert_true(t.rating == 1500);
	store_close(st);
}

/* In one transaction: a ticket joined and read back, then cancelled by
 * a later write of the same transaction; the transaction's COMMIT keeps
 * both (on an optimistic store the read is run again after it). */
void
test_lobby_in_transaction(void **state)
{
	struct store		*st = open_mem();
	struct store_ticket	 t, got;

	(void)state;
	account(st, "ann");
	ticket(&t, "ann", "ludo q", 1000);
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_ticket_join(st, &t, 1), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_ticket_cancel(st, t.id, 2000), STORE_OK);
	assert_int_equal(store_savepoint_release(st), STORE_OK);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(store_ticket_get(st, t.id, &got), STORE_OK);
	assert_int_equal(got.state, TICKET_CANCELLED);
	/* undone with its savepoint: no ticket */
	ticket(&t, "ann", "ludo q", 3000);
	assert_int_equal(store_begin(st), STORE_OK);
	assert_int_equal(store_savepoint(st), STORE_OK);
	assert_int_equal(store_ticket_join(st, &t, 1), STORE_OK);
	store_savepoint_rollback(st);
	assert_int_equal(store_commit(st), STORE_OK);
	assert_int_equal(query_int(st, "SELECT count(*) FROM tickets"), 1);
	store_close(st);
}

/* ludus copy: the lobby's rows walked out of the store and written into
 * another (an SQLite one), as they were. */
struct walk {
	struct store	*to;
	int		 n;
};

static int
copy_account(void *arg, const struct store_account *a)
{
	struct walk	*w = arg;

	w->n++;
	assert_true(a->has_key);
	return store_account_create(w->to, a->name, a->key, a->created);
}

static int
copy_rating(void *arg, const char *account, enum game_kind kind,
    const struct store_rating *r)
{
	struct walk		*w = arg;
	struct store_rating	 none;

	w->n++;
	memset(&none, 0, sizeof(none));
	return store_ratings_save(w->to, kind, 1, &account, &none, r);
}

static int
copy_ticket(void *arg, const struct store_ticket *t)
{
	struct walk	*w = arg;

	w->n++;
	return store_ticket_import(w->to, t);
}

static int
copy_seat(void *arg, const char *game, int idx, const char *account)
{
	struct walk	*w = arg;

	w->n++;
	return store_seat_import(w->to, game, idx, account);
}

void
test_lobby_copy(void **state)
{
	struct store		*st = open_mem(), *to;
	struct store_ticket	 t[3], a, b;
	struct store_match	 m;
	struct store_rating	 none, r, got;
	struct store_account	 acc;
	struct seats		 s;
	struct game		 g;
	struct walk		 w;
	const char		*accounts[GAME_MAX_PLAYERS] = { NULL };
	const char		*ann = "ann";
	char			 err[256];
	int64_t			 ids[2];
	int			 i, seats[2] = { 1, 0 };

	(void)state;
	account(st, "ann");
	account(st, "bob");
	ticket(&t[0], "ann", "ludo q", 1000);
	ticket(&t[1], "bob", "ludo q", 2000);
	ticket(&t[2], "bob", "ludo r", 3000);
	for (i = 0; i < 3; i++)
		assert_int_equal(store_ticket_join(st, &t[i], 0), STORE_OK);
	make_ludo(&g, "m-1", "classic", 2);
	ids[0] = t[0].id;
	ids[1] = t[1].id;
	accounts[0] = "bob";
	accounts[1] = "ann";
	m.n = 2;
	m.tickets = ids;
	m.seats = seats;
	m.accounts = accounts;
	m.ended = 5000;
	assert_int_equal(store_match(st, &g, &m), STORE_OK);
	memset(&none, 0, sizeof(none));
	r = rated(1612.5, 3, 2);
	assert_int_equal(store_ratings_save(st, KIND_LUDO, 1, &ann, &none,
	    &r), STORE_OK);

	to = store_open(":memory:", DURABILITY_FULL, err, sizeof(err));
	assert_non_null(to);
	assert_int_equal(store_create_game(to, &g), STORE_OK);
	w.to = to;
	w.n = 0;
	assert_int_equal(store_each_account(st, copy_account, &w), 0);
	assert_int_equal(w.n, 2);	/* the bots are every schema's own */
	w.n = 0;
	assert_int_equal(store_each_rating(st, copy_rating, &w), 0);
	assert_int_equal(w.n, 1);
	/* tickets by id, a page at a time */
	w.n = 0;
	assert_int_equal(store_each_ticket(st, 0, 2, copy_ticket, &w), 0);
	assert_int_equal(w.n, 2);
	assert_int_equal(store_each_ticket(st, t[1].id, 2, copy_ticket, &w),
	    0);
	assert_int_equal(w.n, 3);
	w.n = 0;
	assert_int_equal(store_each_seat(st, copy_seat, &w), 0);
	assert_int_equal(w.n, 2);

	assert_int_equal(store_account_get(to, "bob", &acc), STORE_OK);
	assert_int_equal(acc.created, 100);
	assert_int_equal(acc.key[0], 'b');
	assert_int_equal(store_rating_get(to, "ann", KIND_LUDO, &got),
	    STORE_OK);
	assert_true(got.rating == r.rating && got.rd == r.rd);
	assert_int_equal(got.games, 3);
	assert_int_equal(got.won, 2);
	assert_int_equal(got.updated, 77);
	for (i = 0; i < 3; i++) {
		assert_int_equal(store_ticket_get(st, t[i].id, &a), STORE_OK);
		assert_int_equal(store_ticket_get(to, t[i].id, &b), STORE_OK);
		assert_string_equal(a.account, b.account);
		assert_string_equal(a.queue, b.queue);
		assert_int_equal(a.kind, b.kind);
		assert_int_equal(a.players_min, b.players_min);
		assert_int_equal(a.players_max, b.players_max);
		assert_true(a.rating == b.rating && a.span == b.span);
		assert_int_equal(a.bots_after, b.bots_after);
		assert_int_equal(a.joined, b.joined);
		assert_int_equal(a.state, b.state);
		assert_string_equal(a.game, b.game);
		assert_int_equal(a.seat, b.seat);
		assert_int_equal(a.ended, b.ended);
	}
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_game_accounts(to, "m-1", collect_seat, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.account[0], "bob");
	assert_string_equal(s.account[1], "ann");
	/* a ticket joined in the copy gets an id after those copied */
	ticket(&a, "ann", "ludo q", 9000);
	assert_int_equal(store_ticket_join(to, &a, 0), STORE_OK);
	assert_true(a.id > t[2].id);
	store_close(to);
	store_close(st);
}
