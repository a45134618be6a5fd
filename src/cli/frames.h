/*
 * Which frames from ludusd answer a command and which are events, for a
 * client that reads one connection in order (the ludus CLI).  Pure: the
 * network backend feeds it every command it sends and every frame it
 * reads, and it keeps the two counts that decide.
 *
 * An event is a RESP3 push frame that is not a subscription confirmation
 * (a `move` of GAME.WATCH, a pub/sub `message`), or, in RESP2, an array
 * whose first element is `move`, `message` or `pmessage` while the
 * connection is subscribed: in RESP2 a subscribed connection gets only
 * those and the confirmations and replies of the few commands it may
 * send (doc/protocol.md, section 11).  A command owes one reply frame,
 * except the subscription commands: `SUBSCRIBE a b` one confirmation per
 * name, and `GAME.UNWATCH` or `UNSUBSCRIBE` with no name one per
 * subscription (until the count in one of them is 0).
 */
#ifndef LUDUS_CLI_FRAMES_H
#define LUDUS_CLI_FRAMES_H

#include "util/reply.h"

enum frame_kind {
	FRAME_REPLY,		/* (part of) the reply to the command sent */
	FRAME_EVENT		/* anything else: printed as it comes */
};

struct frames {
	long long	 subs;	/* subscriptions, from the last confirmation */
	int		 owed;	/* reply frames to come; -1: until subs is 0 */
};

/* A command was sent (argv[0] its name): the frames its reply takes. */
void		 frames_sent(struct frames *, int argc, char **argv);
/* A frame was read: what it is (the counts follow a reply frame). */
enum frame_kind	 frames_classify(struct frames *, const struct reply *);
/* Whether the command sent last still owes reply frames. */
int		 frames_owed(const struct frames *);

#endif /* LUDUS_CLI_FRAMES_H */
