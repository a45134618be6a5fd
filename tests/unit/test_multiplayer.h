/*
 * test_multiplayer: the fixture and the helpers that test_multiplayer.c
 * (seats, main) shares with test_multiplayer_play.c (server dice, bots,
 * deadlines), and the tests of the latter.
 */
#ifndef LUDUS_TEST_MULTIPLAYER_H
#define LUDUS_TEST_MULTIPLAYER_H

#include <stdint.h>

#include "cmd/cmd.h"
#include "store/store.h"

#define T0_MS	1700000000000LL

struct fixture {
	struct store		*st;
	struct cmd_env		 env;
	struct cmd_session	*s1, *s2;
	char			 dir[64];
	char			 path[128];
	int			 moves;		/* on_move calls */
	int			 automatic;	/* of which by the server */
	char			 sched_game[GAME_ID_MAX + 1];
	int64_t			 sched_due;
	int			 scheds;
};

/* The seat keys of a secure create's reply, by player order. */
struct keys {
	char	name[8][GAME_ID_MAX + 1];
	char	key[8][64];
	int	n;
};

#define EXPECT(f, s, line, want) mp_expect_line((f), (s), (line), (want), \
	__LINE__, 0)
#define EXPECT_PREFIX(f, s, line, want) mp_expect_line((f), (s), (line), \
	(want), __LINE__, 1)

extern int64_t	mp_fake_ms;	/* the clock of now_ms, now_s */

/* The store's schedule callback: the last game and due, their count. */
void		mp_on_schedule(void *, const char *, int64_t);
void		mp_restart(struct fixture *);
char		*mp_run(struct fixture *, struct cmd_session *, const char *);
void		mp_expect_line(struct fixture *, struct cmd_session *,
		    const char *, const char *, int, int);
long long	mp_run_int(struct fixture *, struct cmd_session *,
		    const char *);
void		mp_create_secure(struct fixture *, const char *, struct keys *);
void		mp_seat(struct fixture *, struct cmd_session *, const char *,
		    const char *, const char *);
void		mp_assert_replays(struct fixture *, const char *, const char *);
int		mp_autoplay_all(struct fixture *, const char *, int);

/* test_multiplayer_play.c: server dice, bots, deadlines. */
void		test_ludo_roll_pending(void **);
void		test_ludo_server_dice_replay(void **);
void		test_snl_server_roll(void **);
void		test_dandy_shuffled_deck(void **);
void		test_bots_finish_every_kind(void **);
void		test_bots_with_people(void **);
void		test_bots_refused(void **);
void		test_deadline_absent_player(void **);
void		test_deadline_survives_restart(void **);
void		test_deadline_dandy_without_deck(void **);
void		test_deadline_cleared_when_over(void **);

#endif
