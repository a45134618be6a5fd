/*
 * What the files of test_engine share: seeded random numbers, a new Ludo
 * game of a preset, the check of an action that leaves the snapshot as
 * it was, and the tests of test_engine_snl_dandy.c and test_engine_bot.c
 * for main()'s table in test_engine.c.
 */
#ifndef LUDUS_TEST_ENGINE_H
#define LUDUS_TEST_ENGINE_H

#include <stdint.h>

#include "engine/engine.h"

#define LINE_MAX_LEN	128

/* xorshift64: small, seeded, so every random test replays exactly. */
uint64_t	te_rnd_next(uint64_t *);
/* 0..n-1, and a die's 1..6. */
int		te_rnd_int(uint64_t *, int n);
int		te_rnd_dice(uint64_t *);

/* A new Ludo game of the preset for nplayers; fails the test if not. */
void		te_ludo_new(struct ludo_state *, const char *preset,
		    int nplayers);
/* An unchanged snapshot: the result must leave out equal to in. */
void		te_ludo_expect_same(const struct ludo_state *, int player,
		    int dice, int token, enum ludo_result want);

/* test_engine_snl_dandy.c: Snake & Ladder rolls */
void		test_snl_roll_seed_example1(void **);
void		test_snl_roll_seed_example2(void **);
void		test_snl_roll_overshoot(void **);
void		test_snl_roll_bad_value(void **);
/* test_engine_snl_dandy.c: Snake & Ladder setup */
void		test_snl_init_players(void **);
void		test_snl_add_validation(void **);
void		test_snl_roll_jumps_once(void **);
/* test_engine_snl_dandy.c: Snake & Ladder at random */
void		test_snl_roll_random_games(void **);
void		test_snl_roll_garbage_snapshot(void **);
/* test_engine_snl_dandy.c: DandyLand draws */
void		test_dandy_play_seed_examples(void **);
void		test_dandy_draw_walkthrough(void **);
void		test_dandy_draw_deck_rules(void **);
void		test_dandy_draw_moves(void **);
/* test_engine_snl_dandy.c: DandyLand setup, at random */
void		test_dandy_init_validation(void **);
void		test_dandy_draw_random_games(void **);
void		test_dandy_draw_garbage_snapshot(void **);
/* test_engine_bot.c: Ludo at random, strategies */
void		test_ludo_play_random_games(void **);
void		test_bot_strategy_parse_names(void **);
/* test_engine_bot.c: choices */
void		test_ludo_bot_choose_no_move(void **);
void		test_ludo_bot_choose_first(void **);
void		test_ludo_bot_choose_aggressive(void **);
/* test_engine_bot.c: the expert */
void		test_ludo_bot_choose_expert_obvious(void **);
void		test_ludo_bot_choose_random_games(void **);

#endif /* LUDUS_TEST_ENGINE_H */
