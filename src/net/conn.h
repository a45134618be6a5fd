/*
 * One client connection: its socket (a bufferevent), the request parser
 * state, the protocol version, its watches.  Requests are read, parsed,
 * run and answered in order; the reply of a state-changing command is
 * appended only after its transaction has committed (held.c holds it
 * until then, pass.c releases it).
 */
#ifndef LUDUS_CONN_H
#define LUDUS_CONN_H

#include <sys/queue.h>
#include <sys/socket.h>

#include <stdarg.h>
#include <stdint.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "net/held.h"
#include "net/ludusd.h"
#include "net/resp.h"
#include "util/rate.h"
#include "util/reply.h"

enum conn_state {
	CONN_OPEN = 0,		/* reading and serving requests */
	CONN_CLOSING,		/* no more requests; closes once flushed */
	CONN_DEAD		/* freed from the event loop next */
};

/* How the bytes travel.  Plain: replies are written straight to the
 * socket at the end of the pass; TLS: by the bufferevent (SSL_write). */
enum conn_transport {
	CONN_PLAIN = 0,
	CONN_TLS
};

struct multi;
struct psub;
struct lconn;
struct sconn;
struct watch;
TAILQ_HEAD(watch_conn_list, watch);
TAILQ_HEAD(psub_conn_list, psub);

struct conn {
	TAILQ_ENTRY(conn)	 entry;
	TAILQ_ENTRY(conn)	 wentry;	/* on srv->wpend */
	int			 wpend;		/* ... if set */
	struct server		*srv;
	struct bufferevent	*bev;
	struct event		*resume;	/* next requests, or the free */
	uint64_t		 id;
	char			 addr[64];	/* "127.0.0.1:51234" */
	char			 laddr[64];	/* ours: "127.0.0.1:7420" */
	size_t			 argv_mem;	/* the request being run's */
	int			 monitor;	/* MONITOR sent (monitor.c) */
	enum conn_state		 state;
	int			 proto;		/* 2 or 3 */
	int			 paused;	/* output full: not reading */
	int			 eof;		/* the peer closed its side */
	int			 lingering;	/* our FIN sent: draining input */
	int			 last_reply;	/* closing: its last reply just
						   went, its moves' events next */
	struct resp_parser	 parser;
	struct watch_conn_list	 watches;
	int			 nwatch;
	struct psub_conn_list	 subs;		/* pub/sub (pubsub.c) */
	int			 nchannels, npatterns;
	struct cmd_session	*session;	/* seats held (SEAT) */
	time_t			 since;
	time_t			 last;		/* its last request */
	char			 lastcmd[24];	/* ... its name, lower case */
	int			 authed;	/* AUTH done, or none needed */
	char			*name;		/* CLIENT SETNAME's, or NULL */
	char			*lib_name;	/* CLIENT SETINFO's, or NULL */
	char			*lib_ver;
	struct held_conn	 held;		/* held.c's: its held replies */
	enum conn_transport	 transport;
	int			 tls_up;	/* TLS: the handshake is done */
	int			 served;	/* a request was read (sniffing) */
	struct multi		*multi;		/* MULTI, WATCH (multi.c) */
	struct sconn		*stream;	/* XREAD BLOCK, a long XRANGE
						   (stream.c) */
	struct lconn		*lobby;		/* MATCH.WAIT (lobby.c) */
	struct reply		*capture;	/* in an EXEC: a connection
						   command's reply goes here */
	struct rate		 create_rate;	/* its creates (quota.c) */
};

/* In RESP2 subscriber mode: watching a game or subscribed to a channel
 * or pattern. */
#define conn_subscribed(c)	((c)->nwatch > 0 || (c)->nchannels > 0 || \
				    (c)->npatterns > 0)
/* Blocked: an XREAD BLOCK or a MATCH.WAIT waits, or a long XRANGE is
 * being written; its next requests wait. */
#define conn_blocked(c)		(stream_busy(c) || lobby_busy(c))

/*
 * Whether a move's event goes to this connection now: an open one, or
 * one that is closing (it sent QUIT, or its FIN after its requests) while
 * a reply of its is still to go after the event, or the event is of a
 * move made up to its last reply.  A move's reply is followed by its
 * event whether or not the client has said all it will say.
 */
#define conn_hears(c)	((c)->state == CONN_OPEN || \
			    ((c)->state == CONN_CLOSING && \
			    ((c)->held.n > 0 || (c)->last_reply)))

/* Takes a new socket from a listener of the plain port or the TLS one. */
void	conn_accept(struct server *, evutil_socket_t, struct sockaddr *,
	    int socklen, enum conn_transport);
/* Encodes a reply in the connection's protocol and queues it (behind the
 * replies held for the connection, if any). */
void	conn_reply(struct conn *, const struct reply *);
/* Queues bytes already encoded, now. */
void	conn_write(struct conn *, const char *, size_t);
/* Holds a reply until the pass's COMMIT (held.c).  store: it came from
 * the store, and becomes -STORE if the COMMIT fails. */
void	conn_hold(struct conn *, const struct reply *, int store);
/* Replies an error: code is "ERR", "NOPROTO", ... */
void	conn_error(struct conn *, const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	conn_verror(struct conn *, const char *code, const char *fmt,
	    va_list) __attribute__((format(printf, 3, 0)));
/* Bytes queued for the client and not yet written, held ones included. */
size_t	conn_pending(const struct conn *);
/* Stops serving; the socket closes once what is queued has been sent. */
void	conn_close_after_flush(struct conn *);
/* Drops the connection now (from the event loop, never mid-request). */
void	conn_kill(struct conn *, const char *why);
void	conn_free(struct conn *);
/* The end of the pass: writes the output of the connections that have
 * some to the sockets (the flush of pass.c calls it).  Returns how many
 * connections have output left to write at the next one. */
size_t	conn_flush_all(struct server *);

#endif /* LUDUS_CONN_H */
