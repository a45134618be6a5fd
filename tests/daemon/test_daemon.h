/*
 * What the files of test_daemon share: the daemon under test (started
 * by the fixtures in test_daemon.c), the checks of hiredis replies, raw
 * connections, the engine's predictions of results, and the tests of
 * test_daemon_watch.c and test_daemon_wire.c for main()'s table.
 */
#ifndef LUDUS_TEST_DAEMON_H
#define LUDUS_TEST_DAEMON_H

#include <stddef.h>

#include <hiredis/hiredis.h>

#include "engine/engine.h"
#include "daemon_helper.h"
#include "rclient.h"

/* The daemon of the running test. */
extern struct daemon	 D;

/* The DandyLand cards, as DANDY.DRAW names them. */
extern const char	 td_cards[];

/* A status or bulk reply equal to want. */
void	td_expect_str(redisContext *, const char *want, const char *first,
	    ...);
#define EXPECT(c, want, ...) \
	td_expect_str(c, want, __VA_ARGS__, (const char *)NULL)
/* An error reply starting with prefix. */
void	td_expect_err(redisContext *, const char *prefix, const char *first,
	    ...);
#define EXPECT_ERR(c, prefix, ...) \
	td_expect_err(c, prefix, __VA_ARGS__, (const char *)NULL)
/* An array of simple/bulk strings, exactly want[0..n). */
void	td_expect_lines(redisContext *, const char *const *want, size_t n,
	    const char *first, ...);
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define EXPECT_LINES(c, want, ...) \
	td_expect_lines(c, want, NELEM(want), __VA_ARGS__, (const char *)NULL)
/* An array reply whose strings joined with spaces are want. */
void	td_expect_joined(redisContext *, const char *want, const char *first,
	    ...);
#define EXPECT_JOINED(c, want, ...) \
	td_expect_joined(c, want, __VA_ARGS__, (const char *)NULL)

/* tests/rclient.c on D, failing the test where it would wait too long. */
void	td_raw_open(struct rconn *);
/* Sends everything; a peer that closed early is not an error here. */
void	td_raw_send(struct rconn *, const void *, size_t);
void	td_raw_sends(struct rconn *, const char *);

/* The result string of a Snake & Ladder roll, and the state after it. */
void	td_snl_res(const struct snl_state *, int value, struct snl_state *next,
	    char *buf, size_t len);
/* The result string of a DandyLand draw (card given), and the player. */
void	td_dandy_res(const struct dandy_state *, int card,
	    struct dandy_state *next, char *buf, size_t len);

/* test_daemon_watch.c: GAME.WATCH */
void	test_resp3_push_while_playing(void **);
void	test_watch_resp2_subscriber_mode(void **);
void	test_half_close_keeps_own_events(void **);
void	test_watch_from_resume_across_restart(void **);
void	test_watch_backlog_while_committing(void **);
/* test_daemon_watch.c: durability */
void	test_at_resend_after_dropped_connection(void **);
void	test_state_intact_after_sigterm(void **);
void	test_sigterm_flushes_in_flight_replies(void **);
void	test_kill9_keeps_acknowledged_moves(void **);
/* test_daemon_wire.c: pipelines and bad input */
void	test_pipeline_thousand_in_order(void **);
void	test_malformed_input_closes_only_that_client(void **);
void	test_inline_commands(void **);
void	test_quit_flushes_then_closes(void **);
/* test_daemon_wire.c: slow readers, closes */
void	test_big_replies_reach_a_slow_reader_in_order(void **);
void	test_limit_close_delivers_the_last_replies(void **);
/* test_daemon_wire.c: introspection */
void	test_hello_switches_protocol(void **);
void	test_info_fields(void **);
void	test_command_describes_every_command(void **);
/* test_daemon_wire.c: limits, SIGHUP */
void	test_maxclients_refuses_the_next(void **);
void	test_output_limit_drops_the_client(void **);
void	test_idle_timeout_spares_watchers(void **);
void	test_sighup_reopens_log(void **);

#endif /* LUDUS_TEST_DAEMON_H */
