/*
 * Accounts: PLAYER.CREATE, PLAYER.LOGIN, PLAYER.INFO, PLAYER.GAMES and
 * PLAYER.KEY (the keys and the seats accounts hold are cmd_account.c's).
 *
 * An account's name follows the rules of a player id (1-50 of a-z, 0-9
 * and -), so that it names its seat in a Ludo game it plays; names that
 * begin with "bot-" are the server's bots' accounts, one per strategy,
 * which the schema makes and nobody logs in as.  The key is replied
 * once, by PLAYER.CREATE and by PLAYER.KEY, and kept only as its hash.
 * A connection logged in (PLAYER.LOGIN) plays its account's seats in
 * every game the account is in; PLAYER.KEY makes the old key useless at
 * once for a new login, and the connection that asked for it stays
 * logged in with the new one (another connection logged in with the old
 * key stays logged in until it closes, as a seat once taken is kept).
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd_impl.h"
#include "cmd/cmd_lobby.h"
#include "lobby/rating.h"
#include "util/util.h"

#define BOT_PREFIX	"bot-"

/* ------------------------------------------------------------- names */

/* An account's name: a player id that is no bot's. */
static int
check_name(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (!valid_id(v->s, v->len)) {
		reply_error(out, "BADARG", "an account name is 1 to %d of "
		    "a-z, 0-9 and -", GAME_ID_MAX);
		return -1;
	}
	return 0;
}

static int
check_new_name(const struct cmd_arg *a, struct cmd_val *v,
    struct reply *out)
{
	if (check_name(a, v, out) != 0)
		return -1;
	if (strncmp(v->s, BOT_PREFIX, sizeof(BOT_PREFIX) - 1) == 0) {
		reply_error(out, "BADARG", "names beginning with '%s' are the "
		    "server's bots'", BOT_PREFIX);
		return -1;
	}
	return 0;
}

#define ARG_ACCOUNT(chk)	CMD_ARG_CHECKED("name", (chk))

/* The account, or -1 with NOACCOUNT (or STORE) replied. */
int
cmd_account_read(struct cmd_env *env, const char *name,
    struct store_account *a, struct reply *out)
{
	int	 rc;

	if ((rc = store_account_get(env->store, name, a)) == STORE_OK)
		return 0;
	if (rc == STORE_NOTFOUND)
		reply_error(out, "NOACCOUNT", "no account '%s'", name);
	else
		cmd_reply_store(env, out);
	return -1;
}

/* The session is logged in as name: 0, or -1 with NOLOGIN replied. */
int
cmd_logged_in(const struct cmd_parsed *p, const char *name, const char *cmd,
    struct reply *out)
{
	const struct cmd_session	*s = p->args->session;

	if (s == NULL || s->account[0] == '\0') {
		reply_error(out, "NOLOGIN", "%s needs an account: PLAYER.LOGIN "
		    "name key first", cmd);
		return -1;
	}
	if (name != NULL && strcmp(s->account, name) != 0) {
		reply_error(out, "NOLOGIN", "this connection is logged in as "
		    "'%s', not '%s'", s->account, name);
		return -1;
	}
	return 0;
}

/* The lobby's quota (create-rate), asked before the store is touched. */
static int
admitted(struct cmd_env *env, struct reply *out)
{
	struct cmd_lobby	*l = env->lobby;

	return l == NULL || l->admit == NULL ? 0 : l->admit(l->arg, out);
}

static void
made(struct cmd_env *env, int ok)
{
	struct cmd_lobby	*l = env->lobby;

	if (l != NULL && l->made != NULL)
		l->made(l->arg, ok);
}

/* ------------------------------------------------------ PLAYER.CREATE */

struct new_account {
	const char	*name;
	char		 key[ACCOUNT_KEY_HEX + 1];
};

static int
create_write(struct cmd_env *env, void *arg, struct reply *out)
{
	struct new_account	*na = arg;
	uint8_t			 secret[STORE_SECRET_LEN];
	uint8_t			 h[STORE_KEY_HASH_LEN];
	int			 rc;

	if (cmd_secret(env->store, secret) != 0) {
		cmd_reply_store(env, out);
		return -1;
	}
	cmd_account_key(na->key);
	rc = cmd_account_hash(secret, na->name, na->key, ACCOUNT_KEY_HEX, h);
	sodium_memzero(secret, sizeof(secret));
	if (rc != 0) {
		reply_error(out, "STORE", "account key: hash failed");
		return -1;
	}
	rc = store_account_create(env->store, na->name, h, cmd_now(env));
	if (rc == STORE_EXISTS) {
		reply_error(out, "EXISTS", "account '%s' already exists",
		    na->name);
		return -1;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

static const struct cmd_arg create_args[] = { ARG_ACCOUNT(check_new_name) };

static void
player_create_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct new_account	 na;

	na.name = p->v[0].s;
	if (admitted(env, out) != 0)
		return;
	if (cmd_write(env, out, create_write, &na) != 0) {
		made(env, 0);
		return;
	}
	made(env, 1);
	/* Shown here once: the store keeps its hash alone. */
	reply_bulk(out, na.key, ACCOUNT_KEY_HEX);
	sodium_memzero(na.key, sizeof(na.key));
}

const struct cmd_def cmd_player_create_entry = {
	.name = "PLAYER.CREATE",
	.spec = CMD_ARGS(create_args, 0),
	.flags = CMD_WRITE | CMD_NO_MULTI,
	.proc = player_create_cmd,
};

/* ------------------------------------------------------- PLAYER.LOGIN */

enum { LOGIN_NAME, LOGIN_KEY };
static const struct cmd_arg login_args[] = {
	[LOGIN_NAME] = ARG_ACCOUNT(check_name),
	[LOGIN_KEY] = CMD_ARG_STR("key"),
};

static void
player_login_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	const struct cmd_val	*key = &p->v[LOGIN_KEY];
	struct cmd_session	*s = p->args->session;
	struct store_account	 a;
	uint8_t			 secret[STORE_SECRET_LEN];
	uint8_t			 h[STORE_KEY_HASH_LEN];
	int			 ok;

	if (s == NULL) {
		reply_error(out, "STATE", "no session to log in");
		return;
	}
	if (cmd_account_read(env, p->v[LOGIN_NAME].s, &a, out) != 0)
		return;
	if (!a.has_key) {
		reply_error(out, "WRONGKEY", "'%s' is a bot's account: the "
		    "server plays it", a.name);
		return;
	}
	if (cmd_secret(env->store, secret) != 0) {
		cmd_reply_store(env, out);
		return;
	}
	/* Any key is hashed, so that a wrong one costs the same time as a
	 * right one; only the hashes are compared, in constant time. */
	ok = cmd_account_hash(secret, a.name, key->s, key->len, h) == 0 &&
	    crypto_verify_32(h, a.key) == 0;
	if (ok)
		cmd_session_login(s, a.name, h, secret);
	sodium_memzero(secret, sizeof(secret));
	if (!ok) {
		reply_error(out, "WRONGKEY", "wrong key for account '%s'",
		    a.name);
		return;
	}
	reply_status(out, "OK");
}

const struct cmd_def cmd_player_login_entry = {
	.name = "PLAYER.LOGIN",
	.spec = CMD_ARGS(login_args, 0),
	.flags = CMD_READONLY | CMD_NO_MULTI,
	.proc = player_login_cmd,
};

/* -------------------------------------------------------- PLAYER.INFO */

static void
add_rating(struct reply *out, const char *kind, const struct store_rating *r)
{
	reply_add_pair(out, "rating", "%s,%.2f,%.2f,%.6f,%lld,%lld", kind,
	    r->rating, r->rd, r->vol, (long long)r->games,
	    (long long)r->won);
}

static const struct cmd_arg info_args[] = { ARG_ACCOUNT(check_name) };

/* name, created, bot (a bot's strategy), then one line per kind:
 * "rating,KIND,rating,rd,volatility,games,won" (a kind never played
 * rates 1500, RD 350). */
static void
player_info_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct store_account	 a;
	struct store_rating	 r;
	int			 k, rc;

	if (cmd_account_read(env, p->v[0].s, &a, out) != 0)
		return;
	reply_array(out);
	reply_add_pair(out, "name", "%s", a.name);
	reply_add_pair(out, "created", "%lld", (long long)a.created);
	if (!a.has_key)
		reply_add_pair(out, "bot", "%s", a.name + sizeof(BOT_PREFIX) -
		    1);
	for (k = KIND_NONE + 1; k < KIND_COUNT; k++) {
		memset(&r, 0, sizeof(r));
		rc = store_rating_get(env->store, a.name, (enum game_kind)k,
		    &r);
		if (rc == STORE_ERR) {
			reply_free(out);
			cmd_reply_store(env, out);
			return;
		}
		if (rc == STORE_NOTFOUND) {
			r.rating = RATING_INITIAL;
			r.rd = RATING_RD_INITIAL;
			r.vol = RATING_VOL_INITIAL;
		}
		add_rating(out, game_kind_name((enum game_kind)k), &r);
	}
}

const struct cmd_def cmd_player_info_entry = {
	.name = "PLAYER.INFO",
	.spec = CMD_ARGS(info_args, 0),
	.flags = CMD_READONLY,
	.proc = player_info_cmd,
};

/* ------------------------------------------------------- PLAYER.GAMES */

/* ACTIVE or FINISHED, any case (its value: enum store_games_filter). */
static int
check_filter(const struct cmd_arg *a, struct cmd_val *v, struct reply *out)
{
	(void)a;
	if (v->len == 6 && strcasecmp(v->s, "ACTIVE") == 0)
		v->i = GAMES_ACTIVE;
	else if (v->len == 8 && strcasecmp(v->s, "FINISHED") == 0)
		v->i = GAMES_FINISHED;
	else {
		reply_error(out, "ERR", "syntax error: '%.20s' is none of "
		    "ACTIVE, FINISHED, AFTER and LIMIT", v->s);
		return -1;
	}
	return 0;
}

enum { GAMES_NAME, GAMES_FILTER, GAMES_AFTER, GAMES_LIMIT };
static const struct cmd_arg games_args[] = {
	[GAMES_NAME] = ARG_ACCOUNT(check_name),
	[GAMES_FILTER] = { .name = "filter", .type = CMD_ARG_STRING,
	    .flags = CMD_ARG_OPTIONAL, .def = GAMES_ALL,
	    .check = check_filter, .doc = "ACTIVE|FINISHED" },
	[GAMES_AFTER] = CMD_ARG_KEY_ID("AFTER", "cursor", "game"),
	[GAMES_LIMIT] = CMD_ARG_KEY_INT("LIMIT", "n", 1, CMD_LIST_MAX,
	    CMD_LIST_DEFAULT),
};

/* [game, kind, seat, turn, moves]: turn is whose it is ("NONE" once
 * over), seat the account's in it. */
static int
add_game(void *arg, const struct store_account_game *g)
{
	struct reply	*e = reply_add(arg);

	reply_array(e);
	reply_bulk(reply_add(e), g->game, strlen(g->game));
	reply_bulk(reply_add(e), game_kind_name(g->kind),
	    strlen(game_kind_name(g->kind)));
	reply_bulk(reply_add(e), g->seat_name, strlen(g->seat_name));
	if (g->turn < 0 || g->turn_name[0] == '\0')
		reply_bulk(reply_add(e), "NONE", 4);
	else
		reply_bulk(reply_add(e), g->turn_name, strlen(g->turn_name));
	reply_int(reply_add(e), g->moves);
	return 0;
}

static void
player_games_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct store_account	 a;

	if (cmd_account_read(env, p->v[GAMES_NAME].s, &a, out) != 0)
		return;
	reply_array(out);
	if (store_account_games(env->store, a.name,
	    (enum store_games_filter)p->v[GAMES_FILTER].i,
	    p->v[GAMES_AFTER].s, p->v[GAMES_LIMIT].i, add_game, out) ==
	    STORE_ERR) {
		reply_free(out);
		cmd_reply_store(env, out);
	}
}

const struct cmd_def cmd_player_games_entry = {
	.name = "PLAYER.GAMES",
	.spec = CMD_ARGS(games_args, 0),
	.flags = CMD_READONLY,
	.proc = player_games_cmd,
};

/* --------------------------------------------------------- PLAYER.KEY */

struct rekey {
	struct cmd_session	*s;
	const char		*name;
	char			 key[ACCOUNT_KEY_HEX + 1];
	uint8_t			 h[STORE_KEY_HASH_LEN];
};

static int
rekey_write(struct cmd_env *env, void *arg, struct reply *out)
{
	struct rekey	*rk = arg;
	int		 rc;

	cmd_account_key(rk->key);
	if (cmd_account_hash(rk->s->secret, rk->name, rk->key,
	    ACCOUNT_KEY_HEX, rk->h) != 0) {
		reply_error(out, "STORE", "account key: hash failed");
		return -1;
	}
	rc = store_account_rekey(env->store, rk->name, rk->h, rk->s->key);
	if (rc == STORE_NOTFOUND) {
		reply_error(out, "WRONGKEY", "the key of '%s' has changed "
		    "since this connection logged in", rk->name);
		return -1;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		return -1;
	}
	return 0;
}

static const struct cmd_arg key_args[] = { ARG_ACCOUNT(check_name) };

static void
player_key_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct store_account	 a;
	struct rekey		 rk;

	if (cmd_logged_in(p, p->v[0].s, "PLAYER.KEY", out) != 0)
		return;
	memset(&rk, 0, sizeof(rk));
	rk.s = p->args->session;
	rk.name = p->v[0].s;
	/* Refused clearly before the write, which checks it again: a store
	 * that finds a write's row changed at its COMMIT runs it again, and
	 * then this says why. */
	if (cmd_account_read(env, rk.name, &a, out) != 0)
		return;
	if (sodium_memcmp(a.key, rk.s->key, STORE_KEY_HASH_LEN) != 0) {
		reply_error(out, "WRONGKEY", "the key of '%s' has changed "
		    "since this connection logged in", rk.name);
		return;
	}
	if (cmd_write(env, out, rekey_write, &rk) != 0)
		return;
	/* This connection goes on with the new key. */
	memcpy(rk.s->key, rk.h, sizeof(rk.h));
	reply_bulk(out, rk.key, ACCOUNT_KEY_HEX);
	sodium_memzero(rk.key, sizeof(rk.key));
}

const struct cmd_def cmd_player_key_entry = {
	.name = "PLAYER.KEY",
	.spec = CMD_ARGS(key_args, 0),
	.flags = CMD_WRITE | CMD_NO_MULTI,
	.proc = player_key_cmd,
};
