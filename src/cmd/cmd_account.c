/*
 * Accounts' keys and the seats accounts hold: the hashes, and the check
 * a move of a secure game makes of a logged-in account.
 *
 * An account key is 128 random bits shown once, in hex, as a seat key
 * is (cmd_seat.c), and kept only as a keyed BLAKE2b hash of the name and
 * the key, keyed with the database's seat secret, in a domain of its
 * own.  A seat an account holds (a game the matchmaker made) has as its
 * seat hash the keyed hash of the game, the seat and the account's name,
 * in a third domain: no seat key (SEAT's) can ever match it, and the
 * account plays it by being logged in, in every game it is in, with no
 * key per game.
 */
#include <sodium.h>
#include <string.h>

#include "cmd/cmd_impl.h"
#include "util/util.h"

static const char key_context[] = "ludus account key v1";
static const char seat_context[] = "ludus account seat v1";

int
cmd_secret(struct store *st, uint8_t secret[STORE_SECRET_LEN])
{
	uint8_t	 fresh[STORE_SECRET_LEN];
	int	 rc;

	cmd_random_bytes(fresh, sizeof(fresh));
	rc = store_secret(st, fresh, secret);
	sodium_memzero(fresh, sizeof(fresh));
	return rc == STORE_OK ? 0 : -1;
}

/* BLAKE2b keyed with the secret over the context and the parts, each
 * with its NUL so that no two lists of parts hash alike. */
static int
keyed_hash(const uint8_t secret[STORE_SECRET_LEN], const char *context,
    size_t clen, const char *const parts[], const size_t lens[], int n,
    uint8_t out[STORE_KEY_HASH_LEN])
{
	crypto_generichash_state	 st;
	static const uint8_t		 nul = 0;
	int				 i;

	if (crypto_generichash_init(&st, secret, STORE_SECRET_LEN,
	    STORE_KEY_HASH_LEN) != 0 ||
	    crypto_generichash_update(&st, (const uint8_t *)context,
	    clen) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (crypto_generichash_update(&st, (const uint8_t *)parts[i],
		    lens[i]) != 0 ||
		    crypto_generichash_update(&st, &nul, 1) != 0)
			return -1;
	return crypto_generichash_final(&st, out, STORE_KEY_HASH_LEN);
}

int
cmd_account_hash(const uint8_t secret[STORE_SECRET_LEN], const char *name,
    const char *key, size_t keylen, uint8_t out[STORE_KEY_HASH_LEN])
{
	const char	*parts[2] = { name, key };
	size_t		 lens[2] = { strlen(name), keylen };

	return keyed_hash(secret, key_context, sizeof(key_context), parts,
	    lens, 2, out);
}

void
cmd_account_key(char key[ACCOUNT_KEY_HEX + 1])
{
	uint8_t	 raw[ACCOUNT_KEY_BYTES];

	cmd_random_bytes(raw, sizeof(raw));
	sodium_bin2hex(key, ACCOUNT_KEY_HEX + 1, raw, sizeof(raw));
	sodium_memzero(raw, sizeof(raw));
}

int
cmd_account_seat(const uint8_t secret[STORE_SECRET_LEN], const char *game,
    int player, const char *account, uint8_t out[SEAT_HASH_LEN])
{
	char		 idx[4];
	const char	*parts[3] = { game, idx, account };
	size_t		 lens[3];

	idx[0] = (char)('0' + player / 10);
	idx[1] = (char)('0' + player % 10);
	idx[2] = '\0';
	lens[0] = strlen(game);
	lens[1] = 2;
	lens[2] = strlen(account);
	return keyed_hash(secret, seat_context, sizeof(seat_context), parts,
	    lens, 3, out);
}

int
cmd_account_holds(const struct cmd_session *s, const struct game *g,
    int player)
{
	uint8_t	 h[SEAT_HASH_LEN];
	int	 ok;

	if (s == NULL || s->account[0] == '\0' || player < 0 ||
	    player >= GAME_MAX_PLAYERS)
		return 0;
	ok = cmd_account_seat(s->secret, g->id, player, s->account, h) == 0 &&
	    crypto_verify_32(h, g->opts.seat[player]) == 0;
	sodium_memzero(h, sizeof(h));
	return ok;
}

void
cmd_session_login(struct cmd_session *s, const char *account,
    const uint8_t key[STORE_KEY_HASH_LEN],
    const uint8_t secret[STORE_SECRET_LEN])
{
	str_copy(s->account, sizeof(s->account), account);
	memcpy(s->key, key, STORE_KEY_HASH_LEN);
	memcpy(s->secret, secret, STORE_SECRET_LEN);
}

void
cmd_session_logout(struct cmd_session *s)
{
	if (s == NULL)
		return;
	s->account[0] = '\0';
	sodium_memzero(s->key, sizeof(s->key));
	sodium_memzero(s->secret, sizeof(s->secret));
}
