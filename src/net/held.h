/*
 * Held replies (held.c): the replies that wait for the pass's transaction
 * to commit, encoded, in the order they were made, and behind them every
 * later reply of the same connection, so that replies leave in request
 * order.  The pass (pass.c) decides what is held and when it is released,
 * and writes what it takes from here; a connection's share of the queue
 * is this module's own, behind these functions.
 */
#ifndef LUDUS_HELD_H
#define LUDUS_HELD_H

#include <stddef.h>
#include <stdint.h>

struct cmd_args;
struct conn;
struct held_queue;
struct reply;

/* A connection's share of the queue: held.c's alone. */
struct held_conn {
	size_t	n;		/* replies held */
	size_t	bytes;		/* ... and their size */
	int	blocked;	/* one is run again: the rest waits */
};

/* Why a reply taken from the queue must become -STORE. */
enum held_lost {
	HELD_KEPT = 0,		/* it is good */
	HELD_UNKNOWN,		/* its write's fate was not found out */
	HELD_CONTENDED,		/* it conflicted again and again */
	HELD_WHOLE		/* an EXEC, run once: none of it stored */
};

/* A reply taken from the queue (held_next()). */
struct held_out {
	struct conn	*conn;		/* NULL: the connection is gone */
	const char	*data;		/* encoded; valid until the next call */
	size_t		 len;
	uint64_t	 moves;		/* the transaction's moves before it */
	int		 store;		/* it came from the store */
	enum held_lost	 lost;		/* -STORE in its place */
};

/* A request to run again (held_redo_next()). */
struct held_redo {
	struct conn	*conn;
	int		 argc;
	char		**argv;		/* the held queue's, until filled */
	size_t		*argl;
	size_t		 pos;		/* for held_fill() */
};

/* Kept across passes: nothing is allocated per reply once grown. */
struct held_queue *held_new(void);
void	held_free(struct held_queue *);
/* The open transaction has kept moves moves so far: a reply held from
 * now on is released after their events. */
void	held_note(struct held_queue *, uint64_t moves);
/* Queues a reply of the connection, encoded in protocol proto.  store: it
 * came from the store (the pass replaces it by -STORE if the COMMIT
 * fails). */
void	held_add(struct held_queue *, struct conn *, const struct reply *,
	    int proto, int store);
/* 1 when a reply of the connection must queue behind the ones held for
 * it: it has some, and they are not being taken right now. */
int	held_behind(const struct held_queue *, const struct conn *);
/* Bytes held for the connection (its pending output counts them). */
size_t	held_bytes(const struct conn *);
/* The connection is being freed: its held replies are dropped. */
void	held_forget(struct held_queue *, struct conn *);
/* Takes the next held reply, in the order they were made: 1, or 0 when
 * none is left, and the queue is empty again but for what a conflict
 * keeps (below). */
int	held_next(struct held_queue *, struct held_out *);

/*
 * Conflicts (an optimistic store, several ludusd nodes).  A reply held
 * is tagged with its request's number and, when it may have to run
 * again, a copy of the request.  When the COMMIT says the request
 * conflicted (held_conflict(), 0 if no reply has that number), held_next()
 * does not hand out its reply: it keeps the request, and every later
 * reply of its connection behind it, for the next pass, which runs the
 * request again (held_redo_next()) and puts the new reply in its place
 * (held_fill()).  After HELD_REDO_MAX runs, or when the store could not
 * find out what became of its write, or when it has no copy (an EXEC),
 * it is handed out as lost.
 */
#define HELD_REDO_MAX	8
size_t	held_count(const struct held_queue *);
void	held_tag(struct held_queue *, size_t i, uint64_t req,
	    const struct cmd_args *);
int	held_conflict(struct held_queue *, uint64_t req, int redo);
int	held_redo_next(struct held_queue *, size_t *pos, struct held_redo *);
void	held_fill(struct held_queue *, size_t pos, const struct reply *,
	    int proto, uint64_t req, int store);

#endif /* LUDUS_HELD_H */
