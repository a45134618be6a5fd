/*
 * ludus-bench's command line: --help, the options and their checks.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_opts.h"
#include "bgame.h"
#include "util/util.h"

/* ------------------------------------------------------------ options */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: ludus-bench [-h host] [-p port] [-c connections] "
	    "[-g games]\n"
	    "           [-n turns] [-t seconds] [-k ludo|snl|dandy|mix] "
	    "[-P pipeline]\n"
	    "           [--seed S] [--prefix P] [--players N] [--deck N] "
	    "[--random]\n"
	    "           [--redis] [--create-only] [--create-option K=V] "
	    "[--store-stats]\n"
	    "           [--walk] [--after-create CMD]\n"
	    "\n"
	    "Plays random legal moves against ludusd and checks every reply\n"
	    "against its own engine copy of each game.\n"
	    "\n"
	    "  -h host        server address (127.0.0.1)\n"
	    "  -p port        server port (7420)\n"
	    "  -c n           connections (50)\n"
	    "  -g n           games, each driven by one connection "
	    "(= connections)\n"
	    "  -n n           turns to play (100000 without -t)\n"
	    "  -t seconds     play for this long (with -n: whichever "
	    "comes first)\n"
	    "  -k kind        ludo, snl, dandy or mix (ludo)\n"
	    "  -P n           commands in flight per connection (1)\n"
	    "  --seed S       random seed (1); the same seed plays the same "
	    "games\n"
	    "  --prefix P     game id prefix (random per run)\n"
	    "  --players N    players of every game (2 to 4 at random)\n"
	    "  --deck N       DandyLand games get a deck of N random cards\n"
	    "                 (1-1024) and draw from it; a game whose deck is\n"
	    "                 used up is replaced\n"
	    "  --random       each turn on a random game of its connection\n"
	    "                 (default: round robin)\n"
	    "  --redis        talk to redis-server with the Redis Functions\n"
	    "                 of bench/redis/ludus.lua (FCALL); ludo and dandy\n"
	    "  --create-only  create the games, report creates/s and stop\n"
	    "  --create-option K=V\n"
	    "                 add K=V to every create (turn-timeout=600)\n"
	    "  --store-stats  read INFO before and after creating and at the\n"
	    "                 end: bytes of store per game and per move\n"
	    "  --walk         page through every game id with GAMES and time "
	    "it\n"
	    "  --after-create CMD\n"
	    "                 run CMD (sh -c) once the games exist, before "
	    "the\n"
	    "                 first turn and the clock (a profiler's switch)\n"
	    "\n"
	    "Exit status: 0, or 1 when any reply was wrong or an error.\n");
}

static int
opt_int(const char *arg, int64_t min, int64_t max, const char *what,
    int64_t *out)
{
	const char	*errstr;

	if (parse_int64(arg, min, max, out, &errstr) == -1) {
		fprintf(stderr, "ludus-bench: %s: %s (%lld-%lld)\n", what,
		    errstr, (long long)min, (long long)max);
		return -1;
	}
	return 0;
}

static int
opt_prefix(struct opts *o, const char *arg)
{
	size_t	i, len = strlen(arg);

	if (len > PREFIX_MAX)
		goto bad;
	for (i = 0; i < len; i++)
		if (!((arg[i] >= 'a' && arg[i] <= 'z') ||
		    (arg[i] >= '0' && arg[i] <= '9') || arg[i] == '-'))
			goto bad;
	memcpy(o->g.prefix, arg, len + 1);
	return 0;
bad:
	fprintf(stderr, "ludus-bench: prefix: at most %d of a-z 0-9 -\n",
	    PREFIX_MAX);
	return -1;
}

static int
opt_kind(struct opts *o, const char *arg)
{
	int	i;

	for (i = 0; i <= K_MIX; i++)
		if (strcmp(arg, kind_names[i]) == 0) {
			o->kind = (enum kind)i;
			return 0;
		}
	fprintf(stderr, "ludus-bench: kind must be ludo, snl, dandy or mix\n");
	return -1;
}

/* An option that takes a number into an int. */
static int
opt_num(const char *arg, int64_t min, int64_t max, const char *what,
    int *out)
{
	int64_t	v;

	if (opt_int(arg, min, max, what, &v) == -1)
		return -1;
	*out = (int)v;
	return 0;
}

static int
opt_create_option(struct opts *o, const char *arg)
{
	if (strchr(arg, '=') == NULL || strlen(arg) > ID_LEN) {
		fprintf(stderr, "ludus-bench: --create-option takes "
		    "key=value\n");
		return -1;
	}
	o->g.create_option = arg;
	return 0;
}

/* One option; -1 on a bad value. */
static int
opt_one(struct opts *o, int ch, const char *arg)
{
	int64_t	v;

	switch (ch) {
	case 'h':
		o->host = arg;
		return 0;
	case 'p':
		if (opt_int(arg, 1, 65535, "port", &v) == -1)
			return -1;
		o->port = arg;
		return 0;
	case 'c':
		return opt_num(arg, 1, 100000, "connections", &o->conns);
	case 'g':
		return opt_num(arg, 1, GAMES_MAX, "games", &o->games);
	case 'n':
		return opt_int(arg, 1, INT64_MAX / 2, "turns", &o->turns);
	case 't':
		return opt_num(arg, 1, 86400, "seconds", &o->seconds);
	case 'k':
		return opt_kind(o, arg);
	case 'P':
		return opt_num(arg, 1, 10000, "pipeline", &o->pipeline);
	case 'S':
		if (opt_int(arg, 0, INT64_MAX, "seed", &v) == -1)
			return -1;
		o->seed = (uint64_t)v;
		return 0;
	case 'X':
		return opt_prefix(o, arg);
	case 'N':
		return opt_num(arg, 1, SNL_MAX_PLAYERS, "players",
		    &o->g.players);
	case 'D':
		return opt_num(arg, 1, DANDY_DECK_MAX, "deck", &o->g.deck);
	case 'O':
		return opt_create_option(o, arg);
	case 'A':
		o->after_create = arg;
		return 0;
	}
	return -1;
}

/* The flags without a value; 0 if ch is none of them. */
static int
opt_flag(struct opts *o, int ch)
{
	switch (ch) {
	case 'R':
		o->g.dialect = D_FCALL;
		return 1;
	case 'r':
		o->random = 1;
		return 1;
	case 'C':
		o->create_only = 1;
		return 1;
	case 'I':
		o->store_stats = 1;
		return 1;
	case 'W':
		o->walk = 1;
		return 1;
	}
	return 0;
}

static void
opts_defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->host = "127.0.0.1";
	o->port = "7420";
	o->conns = 50;
	o->turns = -1;		/* not given */
	o->kind = K_LUDO;
	o->pipeline = 1;
	o->seed = 1;
	snprintf(o->g.prefix, sizeof(o->g.prefix), "b%06x-",
	    (unsigned)(((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 12)) &
	    0xffffff));
}

/* What the options cannot do together; 0 or -1 with a message. */
static int
opts_check(struct opts *o)
{
	int	lo = o->kind == K_SNL ? 1 : o->kind == K_DANDY ? 1 : 2;
	int	hi = o->kind == K_SNL ? SNL_MAX_PLAYERS :
		    o->kind == K_DANDY ? DANDY_MAX_PLAYERS : LUDO_MAX_PLAYERS;

	if (o->g.players != 0 && (o->g.players < lo || o->g.players > hi)) {
		fprintf(stderr, "ludus-bench: --players: %s games take %d to "
		    "%d\n", kind_names[o->kind], lo, hi);
		return -1;
	}
	if (o->g.dialect == D_FCALL && (o->kind == K_SNL ||
	    o->kind == K_MIX || o->store_stats || o->walk)) {
		fprintf(stderr, "ludus-bench: --redis plays ludo or dandy, "
		    "without --store-stats or --walk\n");
		return -1;
	}
	if (o->turns == -1)
		o->turns = o->seconds > 0 ? 0 : 100000;
	if (o->games == 0)
		o->games = o->conns;
	if (o->conns > o->games) {
		fprintf(stderr, "ludus-bench: %d connections for %d games: "
		    "using %d connections\n", o->conns, o->games, o->games);
		o->conns = o->games;
	}
	return 0;
}

int
bench_opts_parse(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "prefix", required_argument, NULL, 'X' },
		{ "players", required_argument, NULL, 'N' },
		{ "deck", required_argument, NULL, 'D' },
		{ "create-option", required_argument, NULL, 'O' },
		{ "redis", no_argument, NULL, 'R' },
		{ "random", no_argument, NULL, 'r' },
		{ "create-only", no_argument, NULL, 'C' },
		{ "store-stats", no_argument, NULL, 'I' },
		{ "walk", no_argument, NULL, 'W' },
		{ "after-create", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	int	ch;

	opts_defaults(o);
	while ((ch = getopt_long(argc, argv, "h:p:c:g:n:t:k:P:", longopts,
	    NULL)) != -1) {
		if (ch == 'H') {
			usage(stdout);
			exit(0);
		}
		if (opt_flag(o, ch))
			continue;
		if (ch == '?' || opt_one(o, ch, optarg) == -1) {
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return opts_check(o);
}
