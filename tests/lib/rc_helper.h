/*
 * Checks over tests/rclient.c that fail a cmocka test, shared by the
 * black-box tests test_limits and test_dfaults (the crash driver, which
 * has no cmocka, uses rclient alone).
 */
#ifndef LUDUS_RC_HELPER_H
#define LUDUS_RC_HELPER_H

#include "daemon_helper.h"
#include "rclient.h"
#include "reply_flat.h"

#define IO_MS		20000	/* no reply this long: the test fails */
#define FD_WAIT_MS	5000	/* for the daemon's descriptors to close */

/* Connects to 127.0.0.1:port; fails the test if it cannot. */
void		 rch_open(struct rconn *, int port);
/*
 * Waits up to FD_WAIT_MS for the daemon's open descriptors to come back
 * to base (their count before the test), notes both counts, and fails
 * the test if they do not.
 */
void		 rch_fds_back(const struct daemon *, int base);
/* A field of INFO as an integer, -1 if absent. */
long long	 rch_info_field(struct rconn *, const char *name);
/*
 * A DandyLand game without a deck, moves draws long, for large HISTORY
 * replies (rows like "1234,P1,a,P2 3 0").
 */
void		 rch_long_game(struct rconn *, const char *id, int moves);

/* The next reply; 0 if the connection ended (FIN or reset) first.  Fails
 * the test when none comes within IO_MS or it is malformed. */
int		 rch_reply(struct rconn *, struct reply *out);
/* Reads the next reply and compares its flat form. */
void		 rch_expect(struct rconn *, const char *want);
/* Reads the next reply, which must be an error starting with prefix. */
void		 rch_expect_err(struct rconn *, const char *prefix);
/* The server closes: no more replies, then EOF. */
void		 rch_expect_eof(struct rconn *);

#endif /* LUDUS_RC_HELPER_H */
