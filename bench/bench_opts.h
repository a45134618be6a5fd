/*
 * ludus-bench's command line (bench_opts.c): the options, their defaults
 * and the rules between them.  Private to ludus-bench.
 */
#ifndef LUDUS_BENCH_OPTS_H
#define LUDUS_BENCH_OPTS_H

#include <stdint.h>

#include "bgame.h"

#define GAMES_MAX	10000000

struct opts {
	const char	*host;
	const char	*port;
	int		 conns;
	int		 games;
	int64_t		 turns;		/* 0 with -t */
	int		 seconds;	/* 0 with -n */
	enum kind	 kind;
	int		 pipeline;
	uint64_t	 seed;
	int		 random;	/* each turn on a random game */
	int		 create_only;
	int		 store_stats;
	int		 walk;
	const char	*after_create;	/* run between creating and playing */
	struct bopts	 g;
};

/* Fills o from the command line; 0, or -1 after a message (2 to exit). */
int	bench_opts_parse(struct opts *, int, char **);

#endif
