/*
 * What the files of test_commands share: the fixture (a command
 * environment on an empty store, set up in test_commands.c), running an
 * inline command line and checking its reply, a query's integer, and the
 * tests of test_commands_games.c and test_commands_txn.c for main()'s
 * table.
 */
#ifndef LUDUS_TEST_COMMANDS_H
#define LUDUS_TEST_COMMANDS_H

#include <stdint.h>

#include "cmd/cmd.h"
#include "game/game.h"
#include "util/reply.h"

#define NOW	1700000000

struct fixture {
	struct store	*st;
	struct cmd_env	 env;
	int		 hooked;	/* on_move calls */
	struct move	 last;
	char		 last_game[GAME_ID_MAX + 1];
};

/* The fixture's on_move hook: counts the moves, keeps the last. */
void		tc_on_move(void *arg, const char *game, const struct move *);
/* Runs one inline command line into r: with cmd_run() when res is not
 * NULL, else with cmd_execute(). */
void		tc_exec_line(struct fixture *, const char *line,
		    struct reply *, struct cmd_result *res);
/* The reply of line, rendered (+status, -error, :int, $bulk, _ for
 * null, *n then the elements a line each), is want. */
#define EXPECT(f, line, want) tc_expect_line((f), (line), (want), __LINE__)
void		tc_expect_line(struct fixture *, const char *line,
		    const char *want, int at);
/* An error reply whose text starts with prefix ("-BADARG", ...). */
#define EXPECT_ERR(f, line, prefix) \
	tc_expect_prefix((f), (line), (prefix), __LINE__)
void		tc_expect_prefix(struct fixture *, const char *line,
		    const char *prefix, int at);
/* The integer a query of the fixture's store gives. */
int64_t		tc_count_rows(struct fixture *, const char *sql);

/* test_commands_games.c: Ludo examples */
void		test_ludo_example1(void **);
void		test_ludo_example2(void **);
void		test_ludo_example3(void **);
/* test_commands_games.c: Ludo options, errors */
void		test_ludo_create_options(void **);
void		test_ludo_play_errors(void **);
void		test_ludo_play_to_the_end(void **);
/* test_commands_games.c: Snake & Ladder */
void		test_snl_example1(void **);
void		test_snl_example2(void **);
void		test_snl_setup_errors(void **);
/* test_commands_games.c: DandyLand */
void		test_dandy_play_examples(void **);
void		test_dandy_draw_deck(void **);
void		test_dandy_draw_no_deck(void **);
void		test_dandy_errors(void **);
/* test_commands_txn.c: transactions */
void		test_invalid_move_writes_nothing(void **);
void		test_commit_failure_rolls_back(void **);
void		test_on_move_once_per_move(void **);
/* test_commands_txn.c: group commit */
void		test_batch_turn_fails_alone(void **);
void		test_batch_commit_failure(void **);
void		test_batch_result(void **);
/* test_commands_txn.c: refusals, whole groups */
void		test_parser_refusals(void **);
void		test_group_kept_or_undone_whole(void **);
void		test_batch_nothing_written(void **);
/* test_commands_delete.c: retiring games */
void		test_delete_finished_and_forced(void **);
void		test_delete_before(void **);
void		test_delete_in_batch(void **);

#endif /* LUDUS_TEST_COMMANDS_H */
