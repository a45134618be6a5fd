/*
 * tests/fault/multinode's files: the nodes, their clients and the options
 * (multinode.c), and the checks of what crosses nodes besides the moves
 * of the rounds (multinode_cross.c).
 */
#ifndef LUDUS_MULTINODE_H
#define LUDUS_MULTINODE_H

#include <stdint.h>

#include "daemon_helper.h"
#include "rclient.h"

#define MAX_NODES	5
#define IO_MS		30000

struct mopt {
	int		 nodes, games, rounds, kill, lag;
	uint64_t	 seed;
};

extern struct mopt	 opt;
extern struct daemon	 D[MAX_NODES];
extern struct rconn	 C[MAX_NODES];
extern int		 H[MAX_NODES];	/* HTTP ports */
extern int		 alive[MAX_NODES];
extern uint64_t		 rng;

/* A live node other than not (-1: any); -1 if none. */
int	pick_node(int not);

/* multinode_cross.c */
/* The HTTP port node i wrote (it may come just after the RESP one's
 * file), or 0 after 5 s. */
int	http_port(int i);
/* SUBSCRIBE, PSUBSCRIBE, GAME.WATCH and XREAD BLOCK of another node's
 * moves; an EXEC raced by another node; an HTTP move raced by one. */
void	check_followers(void);
void	check_exec_race(void);
void	check_http_race(void);
/* The feed's server stopped: the node still answers at once, and its
 * followers get what they missed. */
void	check_feed_stalled(void);
void	check_exchange_race(void);

#endif /* LUDUS_MULTINODE_H */
