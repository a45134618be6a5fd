/*
 * What the files of test_store share: a store_history() callback that
 * collects the moves, and the tests of test_store_history.c,
 * test_store_open.c and test_store_lobby.c for main()'s table in
 * test_store.c.
 */
#ifndef LUDUS_TEST_STORE_H
#define LUDUS_TEST_STORE_H

#include "game/game.h"

struct store;

struct collect {
	struct move	moves[64];
	int		n;
	int		stop_at;	/* return 42 at this many, 0: never */
	struct store	*st;
};

/* A store_history() callback: the move goes into the struct collect at
 * arg, and the walk stops (42) after stop_at moves. */
int	ts_collect(void *arg, const struct move *);

/* test_store_history.c: history and lists */
void	test_history_paging(void **);
void	test_history_reentry_refused(void **);
void	test_list_games_paging(void **);
/* test_store_history.c: multiplayer */
void	test_create_game_opts(void **);
void	test_save_opts_pending_roll(void **);
void	test_list_deadlines_order(void **);
void	test_secret_once(void **);
/* test_store_open.c: files */
void	test_open_migrations(void **);
void	test_open_no_memory_statistics(void **);
void	test_open_file_reopen(void **);
/* test_store_open.c: upgrades */
void	test_open_upgrade_v1(void **);
void	test_open_upgrade_v2(void **);
void	test_open_upgrade_v3(void **);
void	test_open_upgrade_v6(void **);
/* test_store_open.c: refusals */
void	test_schema_checks_unchanged(void **);
void	test_open_newer_version(void **);
void	test_open_bad_path(void **);
void	test_durability_names(void **);
/* test_store_lobby.c: the lobby's rows */
void	test_lobby_accounts(void **);
void	test_lobby_tickets(void **);
void	test_lobby_match(void **);
void	test_lobby_ratings(void **);
void	test_lobby_in_transaction(void **);
void	test_lobby_copy(void **);

/* test_store_retire.c: retiring games */
void	test_delete_game(void **);
void	test_delete_game_stale(void **);
void	test_delete_game_gid_reused(void **);
void	test_delete_game_in_transaction(void **);
void	test_list_finished(void **);
void	test_schema_version(void **);
void	test_reclaim_shrinks_file(void **);

#endif /* LUDUS_TEST_STORE_H */
