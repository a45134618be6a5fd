/*
 * Transactions: the one wrapper every state-changing command goes
 * through, and group commit's command half (cmd_txn.h).
 *
 * A write is a transaction of its own (BEGIN IMMEDIATE ... COMMIT), or,
 * when the daemon has put a struct cmd_txn in env->txn, a savepoint of
 * the transaction that the first write of its pass opened.  Either way a
 * write that fails is undone alone.  What a committed write announces (a
 * move to env->on_move, a new deadline to env->on_schedule) and what it
 * counts is done at its own COMMIT, or queued here until the shared one.
 *
 * With an optimistic store (store.h, several ludusd nodes on one
 * PostgreSQL) a request may conflict at the COMMIT: another node wrote
 * its game first.  Each request is numbered for the store
 * (cmd_txn_request()); at the shared COMMIT the events of a conflicted
 * request are dropped and the caller is told (env->on_conflict), to run
 * it again; a write of its own (env->txn NULL) is run again here.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "cmd/cmd_lobby.h"
#include "cmd/cmd_txn.h"
#include "util/util.h"

/* What a write of the transaction announces once it has committed. */
enum txn_note {
	NOTE_MOVE,		/* env->on_move */
	NOTE_SCHEDULE,		/* env->on_schedule */
	NOTE_JOIN,		/* env->lobby->on_join */
	NOTE_MATCH		/* env->lobby->on_match */
};

struct txn_event {
	enum txn_note	 note;
	uint64_t	 req;		/* the request that made it */
	int64_t		 due_ms;
	struct move	 mv;
	int		 ends;		/* NOTE_MOVE: the game's last */
	char		 game[GAME_ID_MAX + 1];
	struct cmd_matched lobby;	/* NOTE_JOIN, NOTE_MATCH */
};

/* Where the transaction stood when a group began (cmd_txn_group_begin). */
struct txn_mark {
	uint64_t		 kept, moves;
	size_t			 nev;
	uint64_t		 store_errors;	/* env's */
};

/* Open from the first write's BEGIN (run > 0) to cmd_txn_commit(). */
struct cmd_txn {
	size_t			 run;		/* writes run, failed included */
	uint64_t		 kept;		/* writes kept (released) */
	uint64_t		 moves;		/* of which moves */
	uint64_t		 reqs;		/* requests numbered */
	struct txn_event	*ev;		/* kept across transactions */
	size_t			 nev, cap;
	int			 group;		/* in a group's savepoint */
	struct txn_mark		 mark;		/* ... which began here */
	/* The COMMIT's conflicts, in request order: kept across too. */
	struct txn_conflict {
		uint64_t	 req;
		int		 redo;
	}			*cf;
	size_t			 ncf, capcf;
	/* A COMMIT whose outcome the store is finding out (STORE_PENDING):
	 * what it kept and moved, and its events, set aside until then. */
	struct {
		int		 on;
		uint64_t	 kept, moves;
		struct txn_event *ev;
		size_t		 nev, cap;
	}			 pend;
};

/* Conflicts of a write of its own, run again at most this often. */
#define ALONE_TRIES	16

struct cmd_txn *
cmd_txn_new(void)
{
	return xcalloc(1, sizeof(struct cmd_txn));
}

static void
txn_reset(struct cmd_txn *t)
{
	t->run = 0;
	t->kept = 0;
	t->moves = 0;
	t->reqs = 0;
	t->nev = 0;
}

void
cmd_txn_free(struct cmd_env *env)
{
	struct cmd_txn	*t = env->txn;

	if (t == NULL)
		return;
	if (t->run > 0)
		store_rollback(env->store);
	free(t->ev);
	free(t->pend.ev);
	free(t->cf);
	free(t);
	env->txn = NULL;
}

uint64_t
cmd_txn_request(struct cmd_env *env)
{
	struct cmd_txn	*t = env->txn;
	uint64_t	 req;

	if (t == NULL)
		req = 1;
	else if (t->group)	/* an EXEC's commands: the EXEC's request */
		req = t->reqs;
	else
		req = ++t->reqs;
	store_request(env->store, req);
	return req;
}

void
cmd_txn_status(const struct cmd_env *env, struct cmd_result *res)
{
	const struct cmd_txn	*t = env->txn;

	res->wait = 0;
	res->moves = t != NULL ? t->moves : 0;
	res->writes = t != NULL ? t->run : 0;
	res->req = t != NULL ? t->reqs : 0;
}

static struct txn_event *
txn_event_add(struct cmd_txn *t, enum txn_note note, const char *game)
{
	struct txn_event	*e;

	if (t->nev == t->cap) {
		t->cap = t->cap == 0 ? 64 : t->cap * 2;
		t->ev = xrealloc(t->ev, t->cap * sizeof(*t->ev));
	}
	e = &t->ev[t->nev++];
	e->note = note;
	e->req = t->reqs;
	str_copy(e->game, sizeof(e->game), game);
	return e;
}

/* store_conflicts()'s callback: in request order. */
static void
txn_conflict(void *arg, uint64_t req, enum store_outcome how)
{
	struct cmd_txn		*t = arg;

	if (t->ncf == t->capcf) {
		t->capcf = t->capcf == 0 ? 16 : t->capcf * 2;
		t->cf = xrealloc(t->cf, t->capcf * sizeof(*t->cf));
	}
	t->cf[t->ncf].req = req;
	t->cf[t->ncf].redo = how == STORE_REDO;
	t->ncf++;
}

static int
conflicted(const struct cmd_txn *t, uint64_t req)
{
	size_t	 lo = 0, hi = t->ncf, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->cf[mid].req == req)
			return 1;
		if (t->cf[mid].req < req)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* A lobby event, committed: counted, then its hook. */
static void
lobby_announce(struct cmd_env *env, enum txn_note note,
    const struct cmd_matched *m)
{
	struct cmd_lobby	*l = env->lobby;

	if (l == NULL)
		return;
	if (note == NOTE_JOIN) {
		l->joined++;
		if (l->on_join != NULL)
			l->on_join(l->arg, m);
		return;
	}
	l->matched++;
	if (m->first)
		l->games++;
	if (l->on_match != NULL)
		l->on_match(l->arg, m);
}

/* The committed moves' events (a conflicted request's never happened),
 * then the conflicts told: the hooks queue events and arm timers, and
 * mark replies; they run no command. */
static void
txn_announce(struct cmd_env *env, struct cmd_txn *t, size_t n)
{
	struct txn_event	*e;
	size_t			 i;

	for (i = 0; i < n; i++) {
		e = &t->ev[i];
		if (t->ncf > 0 && conflicted(t, e->req))
			continue;
		if (e->note == NOTE_MOVE && e->ends)
			env->finished++;
		if (e->note == NOTE_MOVE && env->on_move != NULL)
			env->on_move(env->on_move_arg, e->game, &e->mv);
		else if (e->note == NOTE_SCHEDULE && env->on_schedule != NULL)
			env->on_schedule(env->on_schedule_arg, e->game,
			    e->due_ms);
		else if (e->note == NOTE_JOIN || e->note == NOTE_MATCH)
			lobby_announce(env, e->note, &e->lobby);
	}
	for (i = 0; i < t->ncf; i++) {
		env->conflicts++;
		if (env->on_conflict != NULL)
			env->on_conflict(env->on_conflict_arg, t->cf[i].req,
			    t->cf[i].redo);
	}
}

/* The moves of the conflicted requests, which are not stored. */
static uint64_t
moves_lost(const struct cmd_txn *t, size_t n)
{
	uint64_t	 lost = 0;
	size_t		 i;

	for (i = 0; i < n && t->ncf > 0; i++)
		if (t->ev[i].note == NOTE_MOVE && conflicted(t, t->ev[i].req))
			lost++;
	return lost;
}

/* The transaction's events and the pending COMMIT's trade places. */
static void
pend_swap(struct cmd_txn *t)
{
	struct txn_event	*ev = t->ev;
	size_t			 nev = t->nev, cap = t->cap;

	t->ev = t->pend.ev;
	t->nev = t->pend.nev;
	t->cap = t->pend.cap;
	t->pend.ev = ev;
	t->pend.nev = nev;
	t->pend.cap = cap;
}

static void	committed(struct cmd_env *, struct cmd_txn *, uint64_t);

/* A COMMIT over, rc its store's result (kept: the turns it held): 0, or
 * -1 when it failed, counted. */
static int
commit_over(struct cmd_env *env, struct cmd_txn *t, uint64_t kept, int rc)
{
	if (rc != STORE_OK) {
		env->store_errors++;
		if (kept > 0)
			env->batch_failures++;
		txn_reset(t);
		return -1;
	}
	committed(env, t, kept);
	return 0;
}

/*
 * Only reads and refused writes leave nothing to make durable; but what
 * they read of an optimistic store is checked at its COMMIT, which runs
 * all the same.
 */
int
cmd_txn_commit(struct cmd_env *env)
{
	struct cmd_txn		*t = env->txn;
	uint64_t		 kept;
	int			 rc;

	if (t == NULL || t->run == 0)
		return 0;
	if ((kept = t->kept) == 0 && !store_optimistic(env->store)) {
		store_rollback(env->store);
		txn_reset(t);
		return 0;
	}
	if (kept > 0)
		env->batches++;
	if ((rc = store_commit(env->store)) == STORE_PENDING) {
		t->pend.on = 1;
		t->pend.kept = kept;
		t->pend.moves = t->moves;
		pend_swap(t);
		txn_reset(t);
		return 1;
	}
	if (rc != STORE_OK)
		store_rollback(env->store);
	return commit_over(env, t, kept, rc);
}

int
cmd_txn_outcome(struct cmd_env *env, int last)
{
	struct cmd_txn	*t = env->txn;
	uint64_t	 kept;
	int		 rc;

	if (t == NULL || !t->pend.on)
		return 0;
	if ((rc = store_commit_outcome(env->store, last)) == STORE_PENDING)
		return 1;
	kept = t->pend.kept;
	t->pend.on = 0;
	pend_swap(t);
	t->moves = t->pend.moves;
	return commit_over(env, t, kept, rc);
}

int
cmd_txn_pending(const struct cmd_env *env)
{
	return env->txn != NULL && env->txn->pend.on;
}

/* A COMMIT that returned 0: its conflicts, its counts, its events. */
static void
committed(struct cmd_env *env, struct cmd_txn *t, uint64_t kept)
{
	size_t	 n;

	t->ncf = 0;
	store_conflicts(env->store, txn_conflict, t);
	n = t->nev;
	if (kept > 0)
		env->commits++;
	env->turns += t->moves - moves_lost(t, n);
	if (kept > env->batch_max)
		env->batch_max = kept;
	txn_reset(t);
	txn_announce(env, t, n);
}

/* ---------------------------------------------------------- groups */

int
cmd_txn_group_begin(struct cmd_env *env)
{
	struct cmd_txn	*t = env->txn;

	if (t == NULL || t->group)
		return -1;
	if (t->run == 0 && store_begin(env->store) != STORE_OK) {
		env->store_errors++;
		return -1;
	}
	/* The group's savepoint counts as a write run: the transaction is
	 * open from here and its end commits it. */
	t->run++;
	if (store_savepoint(env->store) != STORE_OK) {
		env->store_errors++;
		return -1;
	}
	if (t->reqs == 0)
		(void)cmd_txn_request(env);
	store_request_whole(env->store);
	t->group = 1;
	t->mark.kept = t->kept;
	t->mark.moves = t->moves;
	t->mark.nev = t->nev;
	t->mark.store_errors = env->store_errors;
	return 0;
}

int
cmd_txn_group_end(struct cmd_env *env, int keep)
{
	struct cmd_txn	*t = env->txn;

	if (t == NULL || !t->group)
		return -1;
	t->group = 0;
	/* Any store failure inside, a read's included, fails the group. */
	if (keep && env->store_errors == t->mark.store_errors) {
		if (store_savepoint_release(env->store) == STORE_OK)
			return 0;
		env->store_errors++;
	}
	store_savepoint_rollback(env->store);
	t->kept = t->mark.kept;
	t->moves = t->mark.moves;
	t->nev = t->mark.nev;
	return -1;
}

/* ------------------------------------------------------ one write */

/*
 * The transaction of one write: a transaction of its own, or a savepoint
 * of the shared one (which the first write opens).
 */
static int
write_begin(struct cmd_env *env)
{
	struct cmd_txn	*t = env->txn;

	if (t == NULL)
		return store_begin(env->store);
	if (t->run == 0 && store_begin(env->store) != STORE_OK)
		return STORE_ERR;
	t->run++;
	return store_savepoint(env->store);
}

/* Undoes this write alone.  In a shared transaction it must follow any
 * store write that failed: the store leaves that write half-done inside
 * the turn savepoint, for this rollback to undo (store.h). */
static void
write_abort(struct cmd_env *env)
{
	if (env->txn == NULL)
		store_rollback(env->store);
	else if (env->txn->run > 0)
		store_savepoint_rollback(env->store);
}

/* A write of its own that another writer of an optimistic store beat:
 * nothing of it is stored, and it runs again on the fresh rows. */
#define WRITE_AGAIN	1

static void
alone_note(void *arg, uint64_t req, enum store_outcome how)
{
	(void)req;
	(void)how;
	*(int *)arg = 1;
}

static int
alone_conflicted(struct cmd_env *env)
{
	int	 any = 0;

	store_conflicts(env->store, alone_note, &any);
	return any;
}

/* COMMIT, or keeps the savepoint; on failure the write is undone;
 * WRITE_AGAIN (a write of its own only) when it conflicted. */
static int
write_commit(struct cmd_env *env, int move)
{
	struct cmd_txn	*t = env->txn;

	if (t == NULL) {
		/* No loop to go on with: a lost COMMIT is waited for. */
		if (store_commit_wait(env->store) != STORE_OK) {
			store_rollback(env->store);
			return STORE_ERR;
		}
		if (alone_conflicted(env))
			return WRITE_AGAIN;
		env->commits++;
		if (move)
			env->turns++;
		return 0;
	}
	if (store_savepoint_release(env->store) != STORE_OK) {
		store_savepoint_rollback(env->store);
		return STORE_ERR;
	}
	t->kept++;
	if (move)
		t->moves++;
	return 0;
}

/* A committed move, ends set when it ended its game: counted so that
 * the retention job can keep pace with the games that finish. */
static void
note_move(struct cmd_env *env, const char *game, const struct move *mv,
    int ends)
{
	struct txn_event	*e;

	if (env->txn != NULL) {
		e = txn_event_add(env->txn, NOTE_MOVE, game);
		e->mv = *mv;
		e->ends = ends;
		return;
	}
	if (ends)
		env->finished++;
	if (env->on_move != NULL)
		env->on_move(env->on_move_arg, game, mv);
}

static void
schedule(struct cmd_env *env, const char *game, int64_t due_ms)
{
	if (env->txn != NULL)
		txn_event_add(env->txn, NOTE_SCHEDULE, game)->due_ms = due_ms;
	else if (env->on_schedule != NULL)
		env->on_schedule(env->on_schedule_arg, game, due_ms);
}

static void
note_lobby(struct cmd_env *env, enum txn_note note,
    const struct cmd_matched *m)
{
	if (env->txn != NULL)
		txn_event_add(env->txn, note, m->game)->lobby = *m;
	else
		lobby_announce(env, note, m);
}

void
cmd_note_join(struct cmd_env *env, const struct cmd_matched *m)
{
	note_lobby(env, NOTE_JOIN, m);
}

/* ------------------------------------------------------- lobby rows */

int
cmd_write(struct cmd_env *env, struct reply *out, cmd_write_fn fn,
    void *arg)
{
	int	 tries, rc;

	for (tries = 0;; tries++) {
		if (write_begin(env) != STORE_OK) {
			cmd_reply_store(env, out);
			write_abort(env);
			return -1;
		}
		if (fn(env, arg, out) != 0) {
			write_abort(env);
			return -1;
		}
		if ((rc = write_commit(env, 0)) == 0)
			return 0;
		if (rc != WRITE_AGAIN) {
			cmd_reply_store(env, out);
			return -1;
		}
		reply_free(out);
		if (tries == ALONE_TRIES) {
			reply_error(out, "STORE", "conflict: the lobby's rows "
			    "changed %d times while the request was tried",
			    ALONE_TRIES);
			return -1;
		}
	}
}

/* ---------------------------------------------------------- create */

/* The reply of a secure create: "player,key" for each person (a bot's
 * key is never shown, so no one can take its seat). */
static void
reply_seat_keys(const struct game *g, char keys[][SEAT_KEY_HEX + 1],
    struct reply *out)
{
	char	 name[PLAYER_NAME_MAX];
	char	 buf[PLAYER_NAME_MAX + SEAT_KEY_HEX + 2];
	int	 i;

	reply_array(out);
	for (i = 0; i < game_nplayers(g) && i < GAME_MAX_PLAYERS; i++) {
		if (g->opts.bot[i] != 0)
			continue;
		snprintf(buf, sizeof(buf), "%s,%s",
		    game_player_name(g, i, name, sizeof(name)), keys[i]);
		reply_bulk(reply_add(out), buf, strlen(buf));
	}
}

/* The refusal of a write of its own that kept conflicting. */
static void
reply_contended(struct reply *out, const char *id)
{
	reply_free(out);
	reply_error(out, "STORE", "conflict: game '%s' changed %d times "
	    "while the request was tried", id, ALONE_TRIES);
}

/* 0, or WRITE_AGAIN (nothing replied) when it must run again.  A match
 * (cm) is a create of a game whose seats its caller has set, with its
 * tickets. */
static int
create_once(struct cmd_env *env, struct reply *out, struct game *g,
    const struct cmd_match_write *cm)
{
	char	(*keys)[SEAT_KEY_HEX + 1] = NULL;
	int	rc, again = 0, i;

	g->moves = 0;
	g->created = g->updated = cmd_now(env);
	g->opts.deadline = cmd_turn_deadline(g, cmd_now_ms(env));
	if (write_begin(env) != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		return 0;
	}
	if (g->opts.secure && cm == NULL) {
		keys = xcalloc(GAME_MAX_PLAYERS, sizeof(*keys));
		if (cmd_seat_keys(env->store, g, keys) != 0) {
			free(keys);
			cmd_reply_store(env, out);
			write_abort(env);
			return 0;
		}
	}
	rc = cm != NULL ? store_match(env->store, g, cm->m) :
	    store_create_game(env->store, g);
	if (rc == STORE_EXISTS) {
		write_abort(env);
		reply_error(out, "EXISTS", "game '%s' already exists", g->id);
		goto done;
	}
	if (rc == STORE_NOTFOUND && cm != NULL) {
		write_abort(env);
		reply_error(out, "STATE", "a ticket of game '%s' is no longer "
		    "waiting", g->id);
		goto done;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		goto done;
	}
	if ((rc = write_commit(env, 0)) != 0) {
		if (rc == WRITE_AGAIN)
			again = 1;
		else
			cmd_reply_store(env, out);
		goto done;
	}
	if (keys != NULL)
		reply_seat_keys(g, keys, out);
	else
		reply_status(out, "OK");
	if (g->opts.deadline != 0)
		schedule(env, g->id, g->opts.deadline);
	for (i = 0; cm != NULL && i < cm->nev; i++)
		note_lobby(env, NOTE_MATCH, &cm->ev[i]);
done:
	if (keys != NULL) {
		/* The keys exist only in the reply from now on. */
		explicit_bzero(keys, GAME_MAX_PLAYERS * sizeof(*keys));
		free(keys);
	}
	return again ? WRITE_AGAIN : 0;
}

static void
create_or_match(struct cmd_env *env, struct reply *out, struct game *g,
    const struct cmd_match_write *cm)
{
	int	 tries;

	for (tries = 0; create_once(env, out, g, cm) == WRITE_AGAIN;
	    tries++) {
		reply_free(out);
		if (tries == ALONE_TRIES) {
			reply_contended(out, g->id);
			return;
		}
	}
}

void
cmd_create_game(struct cmd_env *env, struct reply *out, struct game *g)
{
	create_or_match(env, out, g, NULL);
}

void
cmd_match_game(struct cmd_env *env, struct reply *out, struct game *g,
    const struct cmd_match_write *cm)
{
	create_or_match(env, out, g, cm);
}

/* ------------------------------------------------------------ turns */

struct move_copy {
	struct move	*mv;
	int		 found;
};

static int
copy_move(void *arg, const struct move *mv)
{
	struct move_copy *mc = arg;

	*mc->mv = *mv;
	mc->found = 1;
	return 0;
}

/*
 * A command sent with AT seq for a game that has moved past seq: if the
 * move that followed seq is this same command (a resend after a lost
 * reply), give back its stored result; otherwise the client is stale.
 */
static void
at_resend(struct cmd_env *env, struct reply *out, const struct game *g,
    const struct turn_req *req)
{
	struct move		mv;
	struct move_copy	mc = { &mv, 0 };

	if (req->at < g->moves) {
		if (store_history(env->store, g->id, req->at + 1, 1,
		    copy_move, &mc) == STORE_ERR) {
			cmd_reply_store(env, out);
			return;
		}
		if (mc.found && mv.seq == req->at + 1 &&
		    (req->player == NULL ||
		    strcmp(mv.player, req->player) == 0) &&
		    (req->action == NULL ||
		    strcmp(mv.action, req->action) == 0)) {
			reply_status(out, mv.result);
			return;
		}
	}
	reply_error(out, "STALE", "game '%s' has %lld moves, not %lld", g->id,
	    (long long)g->moves, (long long)req->at);
}

/* Writes the step's outcome; 0, or -1 when the store failed. */
static int
transact_save(struct cmd_env *env, enum turn_outcome oc,
    const struct game *old, struct game *new, struct move *mv,
    int64_t now_ms)
{
	struct rated	*rated = NULL;
	int64_t		 now = cmd_now(env);

	if (oc == TURN_OPTS)
		return store_save_opts(env->store, new) == STORE_OK ? 0 : -1;
	if (oc == TURN_DELETE)
		return store_delete_game(env->store, old) == STORE_OK ? 0 : -1;
	if (oc == TURN_SEAT)
		return store_save_seat(env->store, old, new) == STORE_OK ?
		    0 : -1;
	new->updated = now;
	if (oc == TURN_SETUP)
		return store_save_setup(env->store, old, new) == STORE_OK ?
		    0 : -1;
	new->moves = old->moves + 1;
	mv->seq = new->moves;
	mv->at = now;
	/* A move uses up the server roll; the next turn (a bonus turn
	 * included) gets its own deadline. */
	new->opts.roll = 0;
	new->opts.roll_player = 0;
	new->opts.deadline = cmd_turn_deadline(new, now_ms);
	/* The move that ends a game its accounts play rates them, in its
	 * write (cmd_rate.c). */
	if (game_turn(old) >= 0 && game_turn(new) < 0 &&
	    cmd_rate_read(env, new, &rated) != 0)
		return -1;
	if (store_save_turn(env->store, old, new, mv) != STORE_OK) {
		free(rated);
		return -1;
	}
	return rated != NULL ? cmd_rate_write(env, new, rated) : 0;
}

/* BEGIN and load; 0, or -1 with the error replied and rolled back. */
static int
transact_load(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, struct game *g)
{
	if (write_begin(env) != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		return -1;
	}
	if (cmd_read_game(env, out, id, kind, g) == 0) {
		if (req == NULL || req->at < 0 || req->at == g->moves)
			return 0;
		at_resend(env, out, g, req);
	}
	write_abort(env);
	return -1;
}

/* *again set (nothing replied) when a write of its own must run again. */
static enum turn_outcome
transact_once(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, turn_step step,
    void *arg, int64_t now_ms, struct move *mv, struct game *after,
    int *again)
{
	struct game		old, new;
	enum turn_outcome	oc;
	int			rc;

	memset(mv, 0, sizeof(*mv));
	if (transact_load(env, out, id, kind, req, &old) == -1)
		return TURN_NONE;
	new = old;
	oc = step(arg, &old, &new, mv, out);
	if (oc == TURN_NONE) {
		write_abort(env);
		return TURN_NONE;
	}
	if (transact_save(env, oc, &old, &new, mv, now_ms) == -1) {
		cmd_reply_store(env, out);
		write_abort(env);
		return TURN_NONE;
	}
	if ((rc = write_commit(env, oc == TURN_MOVE)) != 0) {
		if (rc == WRITE_AGAIN)
			*again = 1;
		else
			cmd_reply_store(env, out);
		return TURN_NONE;
	}

	if (after != NULL)
		*after = new;
	if (oc == TURN_OPTS || oc == TURN_SEAT)
		return oc;
	if (oc == TURN_SETUP) {
		reply_status(out, "OK");
		return oc;
	}
	if (oc == TURN_DELETE) {
		reply_status(out, "OK");
		if (old.opts.deadline != 0)
			schedule(env, old.id, 0);
		return oc;
	}
	reply_status(out, mv->result);
	note_move(env, new.id, mv, game_turn(&old) >= 0 &&
	    game_turn(&new) < 0);
	if (new.opts.deadline != 0 || old.opts.deadline != 0)
		schedule(env, new.id, new.opts.deadline);
	return oc;
}

enum turn_outcome
cmd_transact_at(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, turn_step step,
    void *arg, int64_t now_ms, struct move *mv, struct game *after)
{
	enum turn_outcome	 oc;
	int			 tries, again;

	for (tries = 0;; tries++) {
		again = 0;
		oc = transact_once(env, out, id, kind, req, step, arg, now_ms,
		    mv, after, &again);
		if (!again)
			return oc;
		reply_free(out);
		if (tries == ALONE_TRIES) {
			reply_contended(out, id);
			return TURN_NONE;
		}
	}
}

void
cmd_transact(struct cmd_env *env, const struct cmd_parsed *p,
    struct reply *out, const struct turn_req *req, turn_step step,
    void *arg)
{
	struct move	mv;

	cmd_transact_at(env, out, cmd_target_id(p), p->def->target.kind, req,
	    step, arg, cmd_now_ms(env), &mv, NULL);
}
