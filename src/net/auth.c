/*
 * The server's password (requirepass), one secret for both sides: RESP
 * clients AUTH with it (client.c), HTTP writes give it as their bearer
 * token (http_serve.c).  It is kept only as a keyed hash (BLAKE2b,
 * libsodium's crypto_generichash, under a key made at start), and a
 * password given is hashed the same way and compared with
 * crypto_verify_32, so that the comparison takes the same time whatever
 * the password, its length and how much of it matches.  There is one
 * user, "default".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "net/ludusd.h"
#include "util/util.h"

#define AUTH_HASH_LEN	crypto_generichash_BYTES	/* 32 */

struct auth {
	int		 on;			/* a password is set */
	uint8_t		 key[crypto_generichash_KEYBYTES];
	uint8_t		 hash[AUTH_HASH_LEN];
};

static void
auth_hash(const struct auth *a, const char *pass, size_t len,
    uint8_t out[AUTH_HASH_LEN])
{
	crypto_generichash(out, AUTH_HASH_LEN, (const unsigned char *)pass,
	    len, a->key, sizeof(a->key));
}

struct auth *
auth_new(const char *password)
{
	struct auth	*a;

	if (sodium_init() == -1)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	if (password == NULL || password[0] == '\0')
		return a;
	randombytes_buf(a->key, sizeof(a->key));
	auth_hash(a, password, strlen(password), a->hash);
	a->on = 1;
	return a;
}

void
auth_free(struct auth *a)
{
	if (a == NULL)
		return;
	sodium_memzero(a, sizeof(*a));
	free(a);
}

int
auth_required(const struct auth *a)
{
	return a->on;
}

int
auth_check(const struct auth *a, const char *user, const char *pass,
    size_t len)
{
	uint8_t	 h[AUTH_HASH_LEN];
	int	 ok;

	if (user != NULL && strcmp(user, "default") != 0)
		return 0;
	if (!a->on)
		return 1;		/* the default user has no password */
	auth_hash(a, pass, len, h);
	ok = crypto_verify_32(h, a->hash) == 0;
	sodium_memzero(h, sizeof(h));
	return ok;
}
