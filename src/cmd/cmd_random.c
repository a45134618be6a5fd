/*
 * The server's randomness: the dice, cards and decks it draws, and the
 * random bytes of seat keys and of the seat-hash secret.  All of it
 * comes from libsodium's randombytes, that is from the OS's generator.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd_impl.h"

/* The 18 DandyLand cards, each as likely as the others. */
static const char dandy_cards[] = "abcdefghi123456789";
#define NCARDS	(sizeof(dandy_cards) - 1)

/* libsodium must be initialised once before use (its hashes too);
 * sodium_init() is idempotent and thread-safe, and can only fail if the
 * OS has no randomness to give, in which case nothing here can work. */
void
cmd_random_init(void)
{
	static int	 ready;

	if (!ready) {
		if (sodium_init() < 0) {
			fprintf(stderr, "ludus: libsodium cannot start\n");
			abort();
		}
		ready = 1;
	}
}

void
cmd_random_bytes(void *buf, size_t len)
{
	cmd_random_init();
	randombytes_buf(buf, len);
}

int
cmd_random_die(void)
{
	cmd_random_init();
	return (int)randombytes_uniform(6) + 1;
}

int
cmd_random_card(void)
{
	cmd_random_init();
	return (unsigned char)dandy_cards[randombytes_uniform(NCARDS)];
}

void
cmd_random_deck(char *deck, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		deck[i] = (char)cmd_random_card();
	deck[n > 0 ? n : 0] = '\0';
}

/* The randomness of the server's own moves (game/kind.h). */
const struct game_random cmd_randomness = {
	.die = cmd_random_die,
	.card = cmd_random_card,
};
