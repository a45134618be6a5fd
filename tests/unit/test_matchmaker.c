/*
 * The matchmaker in the command layer (cmd_lobby.h), on a real store and
 * a fake clock: a queue's run makes a game of its group with the
 * accounts in their seats, the accounts play it by being logged in, the
 * move that ends it rates them; bots after bots-after; a match inside a
 * group commit is announced at its COMMIT only; the queue's words are
 * the kind's create's to refuse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_lobby.h"
#include "cmd/cmd_txn.h"
#include "store/store.h"
#include "util/util.h"
#include "reply_flat.h"
#include "store_helper.h"

#define T0_MS	1700000000000LL

static int64_t	fake_ms = T0_MS;

static int64_t
now_ms(void)
{
	return fake_ms;
}

static int64_t
now_s(void)
{
	return fake_ms / 1000;
}

struct fixture {
	struct store		*st;
	struct cmd_env		 env;
	struct cmd_lobby	 lobby;
	struct cmd_matched	 ev[16];
	int			 nev;
	struct cmd_session	*s[3];
};

static void
on_match(void *arg, const struct cmd_matched *m)
{
	struct fixture	*f = arg;

	assert_true(f->nev < 16);
	f->ev[f->nev++] = *m;
}

static int
setup(void **state)
{
	struct fixture	*f = xcalloc(1, sizeof(*f));

	fake_ms = T0_MS;
	f->st = open_mem();
	f->env.store = f->st;
	f->env.now = now_s;
	f->env.now_ms = now_ms;
	cmd_lobby_init(&f->lobby);
	f->lobby.on_match = on_match;
	f->lobby.arg = f;
	f->env.lobby = &f->lobby;
	f->s[0] = cmd_session_new();
	f->s[1] = cmd_session_new();
	f->s[2] = cmd_session_new();
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	int		 i;

	cmd_txn_free(&f->env);
	store_close(f->st);
	for (i = 0; i < 3; i++)
		cmd_session_free(f->s[i]);
	free(f);
	return 0;
}

/* An account made and its session logged in, as PLAYER.CREATE and
 * PLAYER.LOGIN do it. */
static void
account(struct fixture *f, const char *name, struct cmd_session *s)
{
	uint8_t	 secret[STORE_SECRET_LEN], h[STORE_KEY_HASH_LEN];
	char	 key[ACCOUNT_KEY_HEX + 1];

	assert_int_equal(cmd_secret(f->st, secret), 0);
	cmd_account_key(key);
	assert_int_equal(cmd_account_hash(secret, name, key, strlen(key), h),
	    0);
	assert_int_equal(store_account_create(f->st, name, h, 1), STORE_OK);
	if (s != NULL)
		cmd_session_login(s, name, h, secret);
}

static int64_t
join(struct fixture *f, const char *name, const char *queue, int min,
    int max, double rating, int64_t bots_after)
{
	struct store_ticket	 t;

	memset(&t, 0, sizeof(t));
	snprintf(t.account, sizeof(t.account), "%s", name);
	snprintf(t.queue, sizeof(t.queue), "%s", queue);
	t.kind = game_kind_parse(queue);
	if (t.kind == KIND_NONE)
		t.kind = KIND_LUDO;
	t.players_min = min;
	t.players_max = max;
	t.rating = rating;
	t.span = f->lobby.window;
	t.bots_after = bots_after;
	t.joined = fake_ms;
	assert_int_equal(store_ticket_join(f->st, &t, 0), STORE_OK);
	return t.id;
}

/* Runs a command on a session; its reply as one line into buf. */
static const char *
run(struct fixture *f, struct cmd_session *s, char *buf, size_t len,
    const char *fmt, ...)
{
	struct cmd_args	 args;
	struct reply	 r;
	char		 line[256];
	va_list		 ap;
	int		 n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	memset(&args, 0, sizeof(args));
	n = split_line(line, strlen(line), &args.argv, &args.argl);
	assert_true(n > 0);
	args.argc = n;
	args.session = s;
	memset(&r, 0, sizeof(r));
	cmd_execute(&f->env, &args, &r);
	split_free(n, args.argv, args.argl);
	reply_flat(&r, buf, len);
	reply_free(&r);
	return buf;
}

/* The session of a seat's name, NULL for a bot's. */
static struct cmd_session *
session_of(struct fixture *f, const char *name)
{
	int	 i;

	for (i = 0; i < 3; i++)
		if (strcmp(f->s[i]->account, name) == 0)
			return f->s[i];
	return NULL;
}

/* Plays a Ludo game to its end: each person's turn by the session of
 * its account (no seat key anywhere), each bot's by the server. */
static void
play_ludo(struct fixture *f, const char *id)
{
	struct cmd_session	*s;
	struct move		 mv;
	char			 state[512], buf[128], who[64], *p;
	int64_t			 next;
	int			 moves = 0;
	long			 dice;

	for (;;) {
		run(f, NULL, state, sizeof(state), "LUDO.STATE %s", id);
		assert_non_null(p = strstr(state, "turn,"));
		snprintf(who, sizeof(who), "%s", p + 5);
		who[strcspn(who, " ]")] = '\0';
		if (strcmp(who, "NONE") == 0)
			break;
		assert_true(++moves < 20000);
		if ((s = session_of(f, who)) == NULL) {
			assert_int_equal(cmd_autoplay(&f->env, id, fake_ms,
			    &mv, &next), 1);
			continue;
		}
		run(f, s, buf, sizeof(buf), "LUDO.ROLL %s %s", id, who);
		assert_int_equal(buf[0], ':');
		dice = strtol(buf + 1, NULL, 10);
		/* "[1 3]": the last legal token, "[]": a pass */
		run(f, NULL, buf, sizeof(buf), "LUDO.LEGAL %s %ld", id, dice);
		buf[strcspn(buf, "]")] = '\0';
		p = strrchr(buf, ' ') != NULL ? strrchr(buf, ' ') + 1 : buf + 1;
		p += *p == ':';
		run(f, s, buf, sizeof(buf), "LUDO.PLAY %s %s %ld %s", id, who,
		    dice, *p == '\0' ? "0" : p);
		assert_int_equal(buf[0], '+');
		assert_null(strstr(buf, "INVALID"));
	}
}

static void
test_match_play_rate(void **state)
{
	struct fixture		*f = *state;
	struct cmd_match_run	 runr;
	struct store_ticket	 t;
	struct store_rating	 ra, rb;
	struct reply		 r;
	char			 buf[256], id[GAME_ID_MAX + 1];
	int64_t			 t1, t2;

	account(f, "ann", f->s[0]);
	account(f, "bob", f->s[1]);
	t1 = join(f, "ann", "ludo dice=server", 2, 2, 1500, -1);
	fake_ms += 10;
	t2 = join(f, "bob", "ludo dice=server", 2, 2, 1500, -1);
	fake_ms += 10;
	assert_int_equal(cmd_match_queue(&f->env, "ludo dice=server",
	    fake_ms, &runr), 0);
	assert_int_equal(runr.groups, 1);
	assert_int_equal(runr.waiting, 2);
	assert_int_equal(f->nev, 2);
	assert_int_equal(f->lobby.games, 1);
	assert_int_equal(f->lobby.matched, 2);
	assert_string_equal(f->ev[0].game, f->ev[1].game);
	assert_true(f->ev[0].seat != f->ev[1].seat);
	snprintf(id, sizeof(id), "%s", f->ev[0].game);
	assert_int_equal(store_ticket_get(f->st, t1, &t), STORE_OK);
	assert_int_equal(t.state, TICKET_MATCHED);
	assert_string_equal(t.game, id);
	/* the game: secure, server dice, the accounts in their seats */
	run(f, NULL, buf, sizeof(buf), "GAME.INFO %s", id);
	assert_non_null(strstr(buf, "seats,secure"));
	assert_non_null(strstr(buf, "dice,server"));
	/* MATCH.WAIT's answer: game, seat, players */
	memset(&r, 0, sizeof(r));
	assert_int_equal(cmd_ticket_answer(&f->env, "bob", t2, &r), 1);
	reply_flat(&r, buf, sizeof(buf));
	reply_free(&r);
	assert_non_null(strstr(buf, id));
	assert_non_null(strstr(buf, " $bob ["));
	assert_true(strstr(buf, "[$ann $bob]") != NULL ||
	    strstr(buf, "[$bob $ann]") != NULL);
	assert_int_equal(cmd_ticket_answer(&f->env, "ann", t2, &r), -1);
	reply_flat(&r, buf, sizeof(buf));
	reply_free(&r);
	assert_string_equal(buf, "-NOTICKET ticket 2 is another account's");
	/* a connection logged in as neither holds no seat of it */
	run(f, f->s[2], buf, sizeof(buf), "LUDO.ROLL %s ann", id);
	assert_true(strncmp(buf, "-NOSEAT", 7) == 0 ||
	    strncmp(buf, "-STATE", 6) == 0);
	run(f, f->s[2], buf, sizeof(buf), "LUDO.ROLL %s bob", id);
	assert_true(strncmp(buf, "-NOSEAT", 7) == 0 ||
	    strncmp(buf, "-STATE", 6) == 0);
	assert_int_equal(store_rating_get(f->st, "ann", KIND_LUDO, &ra),
	    STORE_NOTFOUND);

	play_ludo(f, id);
	assert_int_equal(store_rating_get(f->st, "ann", KIND_LUDO, &ra),
	    STORE_OK);
	assert_int_equal(store_rating_get(f->st, "bob", KIND_LUDO, &rb),
	    STORE_OK);
	assert_int_equal(ra.games, 1);
	assert_int_equal(rb.games, 1);
	assert_int_equal(ra.won + rb.won, 1);
	/* two new players, one game: the same step up and down */
	assert_true(ra.won ? ra.rating > 1500 && rb.rating < 1500 :
	    rb.rating > 1500 && ra.rating < 1500);
	assert_true(ra.rd < 350 && rb.rd < 350);
	/* nothing more is rated by a move after the end */
	run(f, f->s[0], buf, sizeof(buf), "LUDO.ROLL %s ann", id);
	assert_int_equal(store_rating_get(f->st, "ann", KIND_LUDO, &ra),
	    STORE_OK);
	assert_int_equal(ra.games, 1);
}

static void
test_match_bots_after(void **state)
{
	struct fixture		*f = *state;
	struct cmd_match_run	 runr;
	struct store_rating	 r;
	char			 buf[256], id[GAME_ID_MAX + 1];

	account(f, "ann", f->s[0]);
	(void)join(f, "ann", "ludo dice=server", 2, 2, 1500, 5000);
	fake_ms += 4999;
	assert_int_equal(cmd_match_queue(&f->env, "ludo dice=server",
	    fake_ms, &runr), 0);
	assert_int_equal(runr.groups, 0);
	assert_true(runr.next_ms == T0_MS + 5000);
	fake_ms += 1;
	assert_int_equal(cmd_match_queue(&f->env, "ludo dice=server",
	    fake_ms, &runr), 0);
	assert_int_equal(runr.groups, 1);
	assert_int_equal(runr.next_ms, 0);
	snprintf(id, sizeof(id), "%s", f->ev[0].game);
	run(f, NULL, buf, sizeof(buf), "GAME.INFO %s", id);
	/* all bots start at 1500: the strongest is taken */
	assert_non_null(strstr(buf, "bot,bot-expert:expert"));
	play_ludo(f, id);
	assert_int_equal(store_rating_get(f->st, "bot-expert", KIND_LUDO, &r),
	    STORE_OK);
	assert_int_equal(r.games, 1);
	assert_int_equal(store_rating_get(f->st, "ann", KIND_LUDO, &r),
	    STORE_OK);
	assert_int_equal(r.games, 1);
	/* A kind whose seats have no names (P1..Pn) gets its bots too: the
	 * bots= word names the seat, the create's count stays a count. */
	account(f, "bob", NULL);
	(void)join(f, "bob", "snl dice=server", 2, 2, 1500, 0);
	assert_int_equal(cmd_match_queue(&f->env, "snl dice=server",
	    fake_ms, &runr), 0);
	assert_int_equal(runr.groups, 1);
}

/* In a group commit the match is the transaction's, and its events
 * wait for the COMMIT. */
static void
test_match_group_commit(void **state)
{
	struct fixture		*f = *state;
	struct cmd_match_run	 runr;
	struct store_ticket	 t;
	int64_t			 t1;

	account(f, "ann", NULL);
	account(f, "bob", NULL);
	t1 = join(f, "ann", "snl dice=server", 2, 4, 1500, -1);
	(void)join(f, "bob", "snl dice=server", 2, 4, 1500, -1);
	f->env.txn = cmd_txn_new();
	assert_int_equal(cmd_match_queue(&f->env, "snl dice=server", fake_ms,
	    &runr), 0);
	assert_int_equal(runr.groups, 1);
	assert_true(runr.first_req > 0 && runr.last_req == runr.first_req);
	assert_int_equal(f->nev, 0);
	assert_int_equal(cmd_txn_commit(&f->env), 0);
	assert_int_equal(f->nev, 2);
	assert_int_equal(store_ticket_get(f->st, t1, &t), STORE_OK);
	assert_int_equal(t.state, TICKET_MATCHED);
	assert_int_equal(query_int(f->st, "SELECT count(*) FROM game_accounts"),
	    2);
}

static void
test_queue_build_refuses(void **state)
{
	struct fixture	*f = *state;
	struct reply	 err;
	struct game	 g;
	char		 names[2][PLAYER_NAME_MAX] = { "ann", "bob" };
	int		 bot[2] = { -1, -1 }, manual[2] = { -1, 2 };
	char		 buf[256];

	memset(&err, 0, sizeof(err));
	assert_int_equal(cmd_queue_build(&f->env, "ludo colour=red", "x", 2,
	    names, bot, &g, &err), -1);
	reply_flat(&err, buf, sizeof(buf));
	reply_free(&err);
	assert_true(strncmp(buf, "-ERR syntax error", 17) == 0);
	assert_int_equal(cmd_queue_build(&f->env, "dandy", "x", 2, names,
	    bot, &g, &err), -1);
	reply_flat(&err, buf, sizeof(buf));
	reply_free(&err);
	assert_string_equal(buf, "-BADARG dandy needs board=...");
	/* a bot needs the server's dice */
	assert_int_equal(cmd_queue_build(&f->env, "ludo", "x", 2, names,
	    manual, &g, &err), -1);
	reply_free(&err);
	assert_int_equal(cmd_queue_build(&f->env, "ludo dice=server", "x", 2,
	    names, manual, &g, &err), 0);
	assert_int_equal(g.kind, KIND_LUDO);
	assert_true(g.opts.secure && g.opts.server_dice);
	assert_int_equal(g.opts.bot[1], 3);
	assert_int_equal(store_load_game(f->st, "x", &g), STORE_NOTFOUND);
	assert_int_equal(cmd_queue_build(&f->env, "dandy board=abc "
	    "deck=shuffled", "y", 2, names, bot, &g, &err), 0);
	assert_int_equal(g.kind, KIND_DANDY);
}

/* --------------------------------------------------------- commands */

/* The rows of the lobby's tables, as one line. */
static void
rows_of(struct fixture *f, char *buf, size_t len)
{
	snprintf(buf, len, "%lld %lld %lld %lld",
	    (long long)query_int(f->st, "SELECT count(*) FROM accounts"),
	    (long long)query_int(f->st, "SELECT count(*) FROM tickets"),
	    (long long)query_int(f->st,
	    "SELECT count(*) FROM tickets WHERE state = 0"),
	    (long long)query_int(f->st, "SELECT count(*) FROM games"));
}

#define REFUSED(f, s, want, ...) do {					\
	char	 before_[64], after_[64], got_[512];			\
	rows_of((f), before_, sizeof(before_));				\
	run((f), (s), got_, sizeof(got_), __VA_ARGS__);			\
	if (strcmp(got_, (want)) != 0)					\
		fail_msg("line %d: got %s, want %s", __LINE__, got_,	\
		    (want));						\
	rows_of((f), after_, sizeof(after_));				\
	assert_string_equal(before_, after_);				\
} while (0)

/* The key a create replied ("$" and 32 hex digits). */
static void
create(struct fixture *f, const char *name, char key[33])
{
	char	 buf[128];

	run(f, NULL, buf, sizeof(buf), "PLAYER.CREATE %s", name);
	assert_int_equal(buf[0], '$');
	assert_int_equal(strlen(buf + 1), 32);
	assert_int_equal(strspn(buf + 1, "0123456789abcdef"), 32);
	memcpy(key, buf + 1, 33);
}

static void
test_player_commands(void **state)
{
	struct fixture	*f = *state;
	char		 ann[33], bob[33], buf[512];

	create(f, "ann", ann);
	create(f, "bob", bob);
	REFUSED(f, NULL, "-EXISTS account 'ann' already exists",
	    "PLAYER.CREATE ann");
	REFUSED(f, NULL, "-BADARG an account name is 1 to 50 of a-z, 0-9 and "
	    "-", "PLAYER.CREATE Ann");
	REFUSED(f, NULL, "-BADARG names beginning with 'bot-' are the "
	    "server's bots'", "PLAYER.CREATE bot-me");
	REFUSED(f, NULL, "-ERR wrong number of arguments for "
	    "'PLAYER.CREATE'", "PLAYER.CREATE a b");
	REFUSED(f, f->s[0], "-NOACCOUNT no account 'cid'",
	    "PLAYER.LOGIN cid %s", ann);
	REFUSED(f, f->s[0], "-WRONGKEY wrong key for account 'ann'",
	    "PLAYER.LOGIN ann %s", bob);
	REFUSED(f, f->s[0], "-WRONGKEY 'bot-expert' is a bot's account: the "
	    "server plays it", "PLAYER.LOGIN bot-expert x");
	assert_string_equal(f->s[0]->account, "");
	REFUSED(f, f->s[0], "-NOLOGIN MATCH.JOIN needs an account: "
	    "PLAYER.LOGIN name key first", "MATCH.JOIN ludo");
	run(f, f->s[0], buf, sizeof(buf), "PLAYER.LOGIN ann %s", ann);
	assert_string_equal(buf, "+OK");
	REFUSED(f, f->s[0], "-NOLOGIN this connection is logged in as 'ann', "
	    "not 'bob'", "PLAYER.KEY bob");
	REFUSED(f, NULL, "-NOACCOUNT no account 'zed'", "PLAYER.INFO zed");
	run(f, NULL, buf, sizeof(buf), "PLAYER.INFO bot-aggressive");
	assert_non_null(strstr(buf, "+bot,aggressive"));
	assert_non_null(strstr(buf, "+rating,ludo,1500.00,350.00,0.060000,0,0"));
	run(f, NULL, buf, sizeof(buf), "PLAYER.GAMES ann");
	assert_string_equal(buf, "[]");
	REFUSED(f, NULL, "-ERR syntax error: 'SOON' is none of ACTIVE, "
	    "FINISHED, AFTER and LIMIT", "PLAYER.GAMES ann SOON");
	/* a new key: the old one logs in no more, the new one does */
	run(f, f->s[0], buf, sizeof(buf), "PLAYER.KEY ann");
	assert_int_equal(buf[0], '$');
	assert_string_not_equal(buf + 1, ann);
	REFUSED(f, f->s[1], "-WRONGKEY wrong key for account 'ann'",
	    "PLAYER.LOGIN ann %s", ann);
	run(f, f->s[1], buf + 100, sizeof(buf) - 100, "PLAYER.LOGIN ann %s",
	    buf + 1);
	assert_string_equal(buf + 100, "+OK");
	/* the connection that asked goes on with it */
	run(f, f->s[0], buf, sizeof(buf), "PLAYER.KEY ann");
	assert_int_equal(buf[0], '$');
	/* the other one's key is the old one now */
	REFUSED(f, f->s[1], "-WRONGKEY the key of 'ann' has changed since "
	    "this connection logged in", "PLAYER.KEY ann");
}

static void
test_match_commands(void **state)
{
	struct fixture	*f = *state;
	char		 ann[33], bob[33], buf[512], game[64], want[128];
	long long	 t1, t2;
	int		 i;

	create(f, "ann", ann);
	create(f, "bob", bob);
	run(f, f->s[0], buf, sizeof(buf), "PLAYER.LOGIN ann %s", ann);
	run(f, f->s[1], buf, sizeof(buf), "PLAYER.LOGIN bob %s", bob);
	REFUSED(f, f->s[0], "-BADARG kind must be ludo, snl or dandy",
	    "MATCH.JOIN chess");
	REFUSED(f, f->s[0], "-ERR syntax error: unknown option 'colour'",
	    "MATCH.JOIN ludo colour=red");
	REFUSED(f, f->s[0], "-BADARG 'red' is no option=value",
	    "MATCH.JOIN ludo red");
	REFUSED(f, f->s[0], "-BADARG players must be N or N-M, from 2 to 4 "
	    "for ludo", "MATCH.JOIN ludo players=1-3");
	REFUSED(f, f->s[0], "-BADARG players must be N or N-M, from 2 to 4 "
	    "for ludo", "MATCH.JOIN ludo players=4-3");
	REFUSED(f, f->s[0], "-BADARG window must be an integer from 0 to "
	    "100000 (rating points)", "MATCH.JOIN ludo window=-1");
	REFUSED(f, f->s[0], "-BADARG bots-after must be an integer from 0 to "
	    "604800 (seconds)", "MATCH.JOIN ludo bots-after=x");
	REFUSED(f, f->s[0], "-BADARG bots is the matchmaker's to set",
	    "MATCH.JOIN ludo bots=a:expert");
	REFUSED(f, f->s[0], "-BADARG dandy needs board=...",
	    "MATCH.JOIN dandy");
	/* bots need the server's dice */
	run(f, f->s[0], buf, sizeof(buf), "MATCH.JOIN ludo dice=manual "
	    "bots-after=5");
	assert_true(strncmp(buf, "-BADARG", 7) == 0);
	REFUSED(f, f->s[0], "-ERR syntax error: option 'rules' given twice",
	    "MATCH.JOIN ludo rules=classic rules=extended");
	/* max-tickets */
	f->lobby.max_tickets = 2;
	run(f, f->s[0], buf, sizeof(buf), "MATCH.JOIN snl");
	assert_int_equal(buf[0], ':');
	t1 = strtoll(buf + 1, NULL, 10);
	run(f, f->s[0], buf, sizeof(buf), "MATCH.JOIN ludo rules=extended");
	assert_int_equal(buf[0], ':');
	t2 = strtoll(buf + 1, NULL, 10);
	REFUSED(f, f->s[0], "-LIMIT account 'ann' has 2 tickets waiting "
	    "(max-tickets 2)", "MATCH.JOIN ludo");
	run(f, NULL, buf, sizeof(buf), "MATCH.LIST");
	assert_string_equal(buf, "[[$ludo dice=server rules=extended $ludo "
	    ":1 :0] [$snl dice=server $snl :1 :0]]");
	run(f, NULL, buf, sizeof(buf), "MATCH.LIST snl");
	assert_string_equal(buf, "[[$snl dice=server $snl :1 :0]]");
	/* cancel: once, and only one's own */
	snprintf(want, sizeof(want), "-NOTICKET ticket %lld is another "
	    "account's", t1);
	REFUSED(f, f->s[1], want, "MATCH.CANCEL %lld", t1);
	snprintf(want, sizeof(want), "-NOTICKET no such ticket %lld",
	    t2 + 1000);
	REFUSED(f, f->s[0], want, "MATCH.CANCEL %lld", t2 + 1000);
	REFUSED(f, f->s[0], "-BADARG ticket must be an integer from 1 to "
	    "9223372036854775807", "MATCH.CANCEL x");
	run(f, f->s[0], buf, sizeof(buf), "MATCH.CANCEL %lld", t1);
	assert_string_equal(buf, "+OK");
	snprintf(want, sizeof(want), "-STATE ticket %lld is cancelled "
	    "already", t1);
	REFUSED(f, f->s[0], want, "MATCH.CANCEL %lld", t1);
	/* a match, then a cancel of a matched ticket */
	run(f, f->s[1], buf, sizeof(buf), "MATCH.JOIN ludo rules=extended");
	assert_int_equal(buf[0], ':');
	fake_ms += 100;
	assert_int_equal(cmd_match_queue(&f->env, "ludo dice=server "
	    "rules=extended", fake_ms, &(struct cmd_match_run){ 0 }), 0);
	assert_int_equal(f->nev, 2);
	snprintf(game, sizeof(game), "%s", f->ev[0].game);
	snprintf(want, sizeof(want), "-STATE ticket %lld is matched (game "
	    "'%s')", t2, game);
	REFUSED(f, f->s[0], want, "MATCH.CANCEL %lld", t2);
	run(f, NULL, buf, sizeof(buf), "PLAYER.GAMES ann ACTIVE");
	assert_non_null(strstr(buf, game));
	run(f, NULL, buf, sizeof(buf), "PLAYER.GAMES ann FINISHED");
	assert_string_equal(buf, "[]");
	run(f, NULL, buf, sizeof(buf), "PLAYER.GAMES ann AFTER %s", game);
	assert_string_equal(buf, "[]");
	/* the leaderboard: nobody rated yet, then the game's two */
	run(f, NULL, buf, sizeof(buf), "LEADERBOARD ludo");
	assert_string_equal(buf, "[]");
	REFUSED(f, NULL, "-BADARG kind must be ludo, snl or dandy",
	    "LEADERBOARD go");
	for (i = 0; i < 2; i++)
		snprintf(f->s[i]->account, sizeof(f->s[i]->account), "%s",
		    i == 0 ? "ann" : "bob");
	play_ludo(f, game);
	run(f, NULL, buf, sizeof(buf), "LEADERBOARD ludo LIMIT 1");
	assert_true(strncmp(buf, "[[:1 $", 6) == 0);
	run(f, NULL, buf, sizeof(buf), "LEADERBOARD ludo AFTER 1");
	assert_true(strncmp(buf, "[[:2 $", 6) == 0);
	run(f, NULL, buf, sizeof(buf), "PLAYER.GAMES bob FINISHED");
	assert_non_null(strstr(buf, "$NONE"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_match_play_rate, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_match_bots_after, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_match_group_commit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_queue_build_refuses,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_player_commands, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_match_commands, setup,
		    teardown),
	};

	return STORE_RUN_TESTS(tests);
}
