/*
 * Seats: sessions and the SEAT command, the seat keys of a secure game,
 * and the check every move of a secure game goes through.
 *
 * A seat key is 128 random bits shown once, in hex, by the create.  The
 * store keeps only a keyed BLAKE2b hash of it (crypto_generichash) whose
 * key is a 32-byte secret made once per database and kept in its meta
 * table (store_secret): the hashes of one database are useless against
 * another, and a key is never written anywhere.  Keys are checked by
 * comparing hashes in constant time (crypto_verify_32).  The random
 * bytes come from cmd_random.c.
 *
 * A key can be exchanged for a fresh one (SEAT.EXCHANGE): the old key
 * is spent, since the seat's hash is now the new key's.  An invite link
 * carries a key in its fragment, and a browser keeps the link in its
 * history; the page that opens it exchanges the key at once, so that
 * what the history holds is dead.  The store writes the new hash only
 * on top of the old one (store_save_seat()): of two exchanges of one
 * key, on one node or on two, one gets a key and the other NOSEAT.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

#define SESSION_MAX_SEATS	1024	/* far more than anyone plays */

/* Domain separation: these hashes are seat hashes and nothing else. */
static const char seat_context[] = "ludus seat key v1";

/* ---------------------------------------------------------- sessions */

struct cmd_session *
cmd_session_new(void)
{
	return xcalloc(1, sizeof(struct cmd_session));
}

const char *
cmd_seat_how(const struct cmd_session *s)
{
	return s != NULL && s->seat_how != NULL ? s->seat_how :
	    "SEAT id player key";
}

void
cmd_session_free(struct cmd_session *s)
{
	if (s == NULL)
		return;
	cmd_session_logout(s);
	free(s->seats);
	free(s);
}

int
cmd_session_holds(const struct cmd_session *s, const char *game, int player)
{
	size_t	 i;

	if (s == NULL)
		return 0;
	for (i = 0; i < s->nseats; i++)
		if (strcmp(s->seats[i].game, game) == 0 &&
		    (player < 0 || s->seats[i].player == player))
			return 1;
	return 0;
}

/* 0, or -1 when the session is full. */
static int
session_add(struct cmd_session *s, const char *game, int player)
{
	if (cmd_session_holds(s, game, player))
		return 0;
	if (s->nseats == SESSION_MAX_SEATS)
		return -1;
	if (s->nseats == s->cap) {
		s->cap = s->cap == 0 ? 4 : s->cap * 2;
		s->seats = xrealloc(s->seats, s->cap * sizeof(*s->seats));
	}
	snprintf(s->seats[s->nseats].game, sizeof(s->seats[0].game), "%s",
	    game);
	s->seats[s->nseats].player = player;
	s->nseats++;
	return 0;
}

/* ------------------------------------------------------------- seats */

/* The keyed hash of one seat's key: bound to the game and the seat, so
 * a key cannot be moved to another seat or another game. */
static int
seat_hash(const uint8_t secret[STORE_SECRET_LEN], const struct game *g,
    int player, const char *key, size_t keylen, uint8_t out[SEAT_HASH_LEN])
{
	crypto_generichash_state	 st;
	uint8_t				 idx[2];

	idx[0] = (uint8_t)(player >> 8);
	idx[1] = (uint8_t)player;
	if (crypto_generichash_init(&st, secret, STORE_SECRET_LEN,
	    SEAT_HASH_LEN) != 0 ||
	    crypto_generichash_update(&st, (const uint8_t *)seat_context,
	    sizeof(seat_context)) != 0 ||
	    crypto_generichash_update(&st, (const uint8_t *)g->id,
	    strlen(g->id) + 1) != 0 ||
	    crypto_generichash_update(&st, idx, sizeof(idx)) != 0 ||
	    crypto_generichash_update(&st, (const uint8_t *)key,
	    keylen) != 0 ||
	    crypto_generichash_final(&st, out, SEAT_HASH_LEN) != 0)
		return -1;
	return 0;
}

int
cmd_seat_keys(struct store *st, struct game *g,
    char keys[][SEAT_KEY_HEX + 1])
{
	uint8_t	 secret[STORE_SECRET_LEN], raw[SEAT_KEY_BYTES];
	int	 i, rc = 0;

	if (cmd_secret(st, secret) != 0)
		return -1;
	for (i = 0; i < game_nplayers(g) && i < GAME_MAX_PLAYERS; i++) {
		cmd_random_bytes(raw, sizeof(raw));
		sodium_bin2hex(keys[i], SEAT_KEY_HEX + 1, raw, sizeof(raw));
		if (seat_hash(secret, g, i, keys[i], SEAT_KEY_HEX,
		    g->opts.seat[i]) != 0) {
			rc = -1;
			break;
		}
	}
	sodium_memzero(raw, sizeof(raw));
	sodium_memzero(secret, sizeof(secret));
	return rc;
}

int
cmd_move_allowed(const struct cmd_session *s, const struct game *g,
    int player, struct reply *out)
{
	char	 name[PLAYER_NAME_MAX];

	if (player < 0 || player >= GAME_MAX_PLAYERS)
		return 0;	/* the engine refuses it */
	if (g->opts.bot[player] != 0) {
		reply_error(out, "STATE", "%s is a bot: the server plays it",
		    game_player_name(g, player, name, sizeof(name)));
		return -1;
	}
	if (g->opts.secure && !cmd_session_holds(s, g->id, player) &&
	    !cmd_account_holds(s, g, player)) {
		reply_error(out, "NOSEAT", "this connection does not hold the "
		    "seat of %s in game '%s' (%s)",
		    game_player_name(g, player, name, sizeof(name)), g->id,
		    cmd_seat_how(s));
		return -1;
	}
	return 0;
}

/* SEAT id player key: the player is looked up in the game, the key
 * hashed whatever its bytes. */
enum { SEAT_ID, SEAT_PLAYER, SEAT_KEY };
static const struct cmd_arg seat_args[] = {
	[SEAT_ID] = CMD_ARG_GAME,
	[SEAT_PLAYER] = CMD_ARG_STR("player"),
	[SEAT_KEY] = CMD_ARG_STR("key"),
};

static void
seat_cmd(struct cmd_env *env, const struct cmd_parsed *p, struct reply *out)
{
	const struct cmd_val	*name = &p->v[SEAT_PLAYER];
	const struct cmd_val	*key = &p->v[SEAT_KEY];
	struct cmd_session	*session = p->args->session;
	const struct game	*g = p->game;
	uint8_t			 secret[STORE_SECRET_LEN], h[SEAT_HASH_LEN];
	int			 player, ok;

	if (strlen(name->s) != name->len ||
	    (player = game_player_index(g, name->s)) == -1) {
		reply_error(out, "BADARG", "no player '%.50s' in game '%s'",
		    name->s, g->id);
		return;
	}
	if (!g->opts.secure) {
		reply_error(out, "STATE", "game '%s' has open seats", g->id);
		return;
	}
	if (session == NULL) {
		reply_error(out, "STATE", "no session to hold a seat");
		return;
	}
	if (cmd_secret(env->store, secret) != 0) {
		cmd_reply_store(env, out);
		return;
	}
	/* Any key is hashed, so that a wrong one costs the same time as a
	 * right one; only the hashes are compared, in constant time. */
	ok = seat_hash(secret, g, player, key->s, key->len, h) == 0 &&
	    crypto_verify_32(h, g->opts.seat[player]) == 0;
	sodium_memzero(secret, sizeof(secret));
	if (!ok) {
		reply_error(out, "NOSEAT", "wrong key for %s in game '%s' "
		    "(a key once exchanged is spent)", name->s, g->id);
		return;
	}
	if (session_add(session, g->id, player) == -1) {
		reply_error(out, "STATE", "this connection holds %d seats "
		    "already", SESSION_MAX_SEATS);
		return;
	}
	reply_status(out, "OK");
}

const struct cmd_def cmd_seat_entry = { .name = "SEAT",
    .spec = CMD_ARGS(seat_args, 0), .flags = CMD_READONLY | CMD_SECRET,
    .target = CMD_TARGET(SEAT_ID, KIND_NONE), .proc = seat_cmd };

/* ------------------------------------------------------ SEAT.EXCHANGE */

/* SEAT.EXCHANGE id player key: the fresh key, its hash the seat's now. */
enum { EXCH_ID, EXCH_PLAYER, EXCH_KEY };
static const struct cmd_arg exchange_args[] = {
	[EXCH_ID] = CMD_ARG_GAME,
	[EXCH_PLAYER] = CMD_ARG_STR("player"),
	[EXCH_KEY] = CMD_ARG_STR("key"),
};

struct exchange {
	struct cmd_env		*env;
	const struct cmd_val	*name, *key;
	char			 fresh[SEAT_KEY_HEX + 1];
};

/* Checks the key against the game as loaded in the write's transaction,
 * so that a run again after a conflict finds it spent. */
static enum turn_outcome
exchange_step(void *arg, const struct game *old, struct game *new,
    struct move *mv, struct reply *out)
{
	struct exchange	*x = arg;
	uint8_t		 secret[STORE_SECRET_LEN], h[SEAT_HASH_LEN];
	uint8_t		 raw[SEAT_KEY_BYTES];
	char		 pname[PLAYER_NAME_MAX];
	int		 player, ok;

	(void)mv;
	if (strlen(x->name->s) != x->name->len ||
	    (player = game_player_index(old, x->name->s)) == -1) {
		reply_error(out, "BADARG", "no player '%.50s' in game '%s'",
		    x->name->s, old->id);
		return TURN_NONE;
	}
	if (!old->opts.secure) {
		reply_error(out, "STATE", "game '%s' has open seats: there is "
		    "no key to exchange", old->id);
		return TURN_NONE;
	}
	if (old->opts.bot[player] != 0) {
		reply_error(out, "STATE", "%s is a bot: the server plays it",
		    game_player_name(old, player, pname, sizeof(pname)));
		return TURN_NONE;
	}
	if (cmd_secret(x->env->store, secret) != 0) {
		cmd_reply_store(x->env, out);
		return TURN_NONE;
	}
	ok = seat_hash(secret, old, player, x->key->s, x->key->len, h) == 0 &&
	    crypto_verify_32(h, old->opts.seat[player]) == 0;
	if (ok) {
		cmd_random_bytes(raw, sizeof(raw));
		sodium_bin2hex(x->fresh, sizeof(x->fresh), raw, sizeof(raw));
		sodium_memzero(raw, sizeof(raw));
		if (seat_hash(secret, new, player, x->fresh, SEAT_KEY_HEX,
		    new->opts.seat[player]) != 0) {
			sodium_memzero(secret, sizeof(secret));
			reply_error(out, "STORE", "seat key: hash failed");
			return TURN_NONE;
		}
	}
	sodium_memzero(secret, sizeof(secret));
	if (!ok) {
		reply_error(out, "NOSEAT", "wrong key for %s in game '%s', or "
		    "a key exchanged already: an invite's key works once",
		    x->name->s, old->id);
		return TURN_NONE;
	}
	reply_bulk(out, x->fresh, SEAT_KEY_HEX);
	return TURN_SEAT;
}

static void
exchange_cmd(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out)
{
	struct exchange	 x;

	memset(&x, 0, sizeof(x));
	x.env = env;
	x.name = &p->v[EXCH_PLAYER];
	x.key = &p->v[EXCH_KEY];
	cmd_transact(env, p, out, NULL, exchange_step, &x);
	sodium_memzero(x.fresh, sizeof(x.fresh));
}

/* A write of its game like a move: an EXEC keeps it whole with the
 * request's other writes of games. */
const struct cmd_def cmd_seat_exchange_entry = { .name = "SEAT.EXCHANGE",
    .spec = CMD_ARGS(exchange_args, 0),
    .flags = CMD_WRITE | CMD_SECRET,
    .target = CMD_TARGET(EXCH_ID, KIND_NONE), .proc = exchange_cmd };
