/*
 * The command table and what every handler shares: lookup, the arity
 * check, argument checks, and the transaction wrapper of the write path.
 *
 * A handler checks its arguments completely before it touches the store,
 * so a malformed request never opens a transaction.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

/*
 * Flags: CMD_WRITE commands run as one store transaction; CMD_READONLY
 * ones only read.  Sorted by name (ASCII, upper case) for the binary
 * search in cmd_lookup(); a test checks the order.
 */
static const struct cmd_def cmd_table[] = {
	{ "AUDIT", cmd_audit, -1, CMD_READONLY, "AUDIT [id]" },
	{ "DANDY.CREATE", cmd_dandy_create, -4, CMD_WRITE,
	    "DANDY.CREATE id players board [deck=<cards>|shuffled[:N]]"
	    " [seats=secure|open] [bots=P<i>:<strategy>,...]"
	    " [turn-timeout=<seconds>]" },
	{ "DANDY.DRAW", cmd_dandy_draw, -2, CMD_WRITE,
	    "DANDY.DRAW id [card] [AT seq]" },
	{ "DANDY.PLAY", cmd_dandy_play, 4, CMD_READONLY,
	    "DANDY.PLAY players cards board" },
	{ "DANDY.SCORES", cmd_dandy_scores, 2, CMD_READONLY,
	    "DANDY.SCORES id" },
	{ "DANDY.STATE", cmd_dandy_state, 2, CMD_READONLY,
	    "DANDY.STATE id" },
	{ "GAME.INFO", cmd_game_info, 2, CMD_READONLY, "GAME.INFO id" },
	{ "GAMES", cmd_games, -1, CMD_READONLY,
	    "GAMES [ludo|snl|dandy] [AFTER id] [LIMIT n]" },
	{ "HISTORY", cmd_history, -2, CMD_READONLY,
	    "HISTORY id [from [count]]" },
	{ "LUDO.CREATE", cmd_ludo_create, -4, CMD_WRITE,
	    "LUDO.CREATE id p1 p2 [p3 [p4]] [rules=classic|interview|extended]"
	    " [six-bonus=on|off] [capture-bonus=on|off] [three-sixes=on|off]"
	    " [seats=secure|open] [dice=server|manual]"
	    " [bots=<player>:first|aggressive|expert,...]"
	    " [turn-timeout=<seconds>]" },
	{ "LUDO.LEGAL", cmd_ludo_legal, 3, CMD_READONLY,
	    "LUDO.LEGAL id dice" },
	{ "LUDO.PLAY", cmd_ludo_play, -5, CMD_WRITE,
	    "LUDO.PLAY id player dice token [AT seq]" },
	{ "LUDO.ROLL", cmd_ludo_roll, 3, CMD_WRITE, "LUDO.ROLL id player" },
	{ "LUDO.STATE", cmd_ludo_state, 2, CMD_READONLY, "LUDO.STATE id" },
	{ "REPLAY", cmd_replay, -2, CMD_READONLY, "REPLAY id [seq]" },
	{ "SEAT", cmd_seat, 4, CMD_READONLY, "SEAT id player key" },
	{ "SNL.CREATE", cmd_snl_create, -3, CMD_WRITE,
	    "SNL.CREATE id players [seats=secure|open] [dice=server|manual]"
	    " [bots=P<i>:<strategy>,...] [turn-timeout=<seconds>]"
	    " [snakes=<head>:<tail>,...] [ladders=<bottom>:<top>,...]" },
	{ "SNL.LADDER", cmd_snl_ladder, 4, CMD_WRITE,
	    "SNL.LADDER id bottom top" },
	{ "SNL.ROLL", cmd_snl_roll, -2, CMD_WRITE,
	    "SNL.ROLL id [value] [AT seq]" },
	{ "SNL.SNAKE", cmd_snl_snake, 4, CMD_WRITE, "SNL.SNAKE id head tail" },
	{ "SNL.STATE", cmd_snl_state, 2, CMD_READONLY, "SNL.STATE id" },
};
#define CMD_COUNT	(sizeof(cmd_table) / sizeof(cmd_table[0]))

/* Longer than any name in the table: a longer one is no command. */
#define CMD_NAME_MAX	15

/* Command names are compared in ASCII, whatever the locale says. */
static int
ascii_upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* The name is upper-cased once, then searched with strcmp(): every
 * request looks its command up. */
const struct cmd_def *
cmd_lookup(const char *name)
{
	char	up[CMD_NAME_MAX + 1];
	size_t	lo = 0, hi = CMD_COUNT, mid, i;
	int	c;

	if (name == NULL)
		return NULL;
	for (i = 0; name[i] != '\0'; i++) {
		if (i == CMD_NAME_MAX)
			return NULL;
		up[i] = (char)ascii_upper((unsigned char)name[i]);
	}
	up[i] = '\0';
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(up, cmd_table[mid].name);
		if (c == 0)
			return &cmd_table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct cmd_def *
cmd_at(size_t i)
{
	return i < CMD_COUNT ? &cmd_table[i] : NULL;
}

void
cmd_execute(struct cmd_env *env, const struct cmd_args *args,
    struct reply *out)
{
	const struct cmd_def	*cmd = NULL;

	/* A name with a NUL inside cannot be a command. */
	if (args->argc > 0 && strlen(args->argv[0]) == args->argl[0])
		cmd = cmd_lookup(args->argv[0]);
	if (cmd == NULL) {
		reply_error(out, "ERR", "unknown command '%.64s'",
		    args->argc > 0 ? args->argv[0] : "");
		return;
	}
	if ((cmd->arity > 0 && args->argc != cmd->arity) ||
	    (cmd->arity < 0 && args->argc < -cmd->arity)) {
		reply_error(out, "ERR", "wrong number of arguments for '%s'",
		    cmd->name);
		return;
	}
	cmd->proc(env, args, out);
}

void
cmd_executev(struct cmd_env *env, struct reply *out, const char *first, ...)
{
	struct cmd_args	 args;
	va_list		 ap;
	const char	*s;
	int		 n = 0, i;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *))
		n++;
	va_end(ap);

	memset(&args, 0, sizeof(args));
	args.argc = n;
	args.argv = xcalloc((size_t)n + 1, sizeof(*args.argv));
	args.argl = xcalloc((size_t)n + 1, sizeof(*args.argl));
	va_start(ap, first);
	for (i = 0, s = first; i < n; i++, s = va_arg(ap, const char *)) {
		args.argv[i] = (char *)s;	/* handlers never write argv */
		args.argl[i] = strlen(s);
	}
	va_end(ap);
	cmd_execute(env, &args, out);
	free(args.argv);
	free(args.argl);
}

int
valid_id(const char *s, size_t len)
{
	size_t	i;

	if (s == NULL || len == 0 || len > GAME_ID_MAX)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-'))
			return 0;	/* NUL included */
	}
	return 1;
}

int64_t
cmd_now(const struct cmd_env *env)
{
	return env->now != NULL ? env->now() : (int64_t)time(NULL);
}

/* A test's fake clock in seconds drives the milliseconds too. */
int64_t
cmd_now_ms(const struct cmd_env *env)
{
	struct timespec	 ts;

	if (env->now_ms != NULL)
		return env->now_ms();
	if (env->now != NULL)
		return env->now() * 1000;
	if (clock_gettime(CLOCK_REALTIME, &ts) == -1)
		return (int64_t)time(NULL) * 1000;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
cmd_turn_deadline(const struct game *g, int64_t now_ms)
{
	int	 turn = game_turn(g);

	if (turn < 0 || turn >= GAME_MAX_PLAYERS)
		return 0;
	if (now_ms < 1)
		now_ms = 1;		/* 0 means "never" */
	if (g->opts.bot[turn] != 0)
		return now_ms;
	if (g->opts.timeout > 0)
		return now_ms + g->opts.timeout * 1000;
	return 0;
}

/* ------------------------------------------------------ group commit */

/* What a write of the batch announces once the batch has committed. */
enum batch_note {
	NOTE_MOVE,		/* env->on_move */
	NOTE_SCHEDULE		/* env->on_schedule */
};

struct batch_event {
	enum batch_note	 note;
	int64_t		 due_ms;
	struct move	 mv;
	char		 game[GAME_ID_MAX + 1];
};

struct cmd_batch {
	int			 open;		/* BEGIN done */
	size_t			 turns;		/* writes run */
	uint64_t		 writes;	/* writes kept (released) */
	uint64_t		 moves;		/* of which moves */
	struct batch_event	*ev;		/* kept across batches */
	size_t			 nev, cap;
};

struct cmd_batch *
cmd_batch_new(void)
{
	return xcalloc(1, sizeof(struct cmd_batch));
}

static void
batch_reset(struct cmd_batch *b)
{
	b->open = 0;
	b->turns = 0;
	b->writes = 0;
	b->moves = 0;
	b->nev = 0;
}

void
cmd_batch_free(struct cmd_env *env)
{
	struct cmd_batch	*b = env->batch;

	if (b == NULL)
		return;
	if (b->open)
		store_rollback(env->store);
	free(b->ev);
	free(b);
	env->batch = NULL;
}

int
cmd_batch_open(const struct cmd_env *env)
{
	return env->batch != NULL && env->batch->open;
}

size_t
cmd_batch_turns(const struct cmd_env *env)
{
	return env->batch != NULL ? env->batch->turns : 0;
}

uint64_t
cmd_batch_moves(const struct cmd_env *env)
{
	return env->batch != NULL ? env->batch->moves : 0;
}

static struct batch_event *
batch_event_add(struct cmd_batch *b, enum batch_note note, const char *game)
{
	struct batch_event	*e;

	if (b->nev == b->cap) {
		b->cap = b->cap == 0 ? 64 : b->cap * 2;
		b->ev = xrealloc(b->ev, b->cap * sizeof(*b->ev));
	}
	e = &b->ev[b->nev++];
	e->note = note;
	str_copy(e->game, sizeof(e->game), game);
	return e;
}

int
cmd_batch_commit(struct cmd_env *env)
{
	struct cmd_batch	*b = env->batch;
	struct batch_event	*e;
	size_t			 i, n;

	if (b == NULL || !b->open)
		return 0;
	if (b->writes == 0) {
		/* Only reads and refused writes: nothing to make durable. */
		store_rollback(env->store);
		batch_reset(b);
		return 0;
	}
	env->batches++;
	if (store_commit(env->store) != STORE_OK) {
		store_rollback(env->store);
		env->store_errors++;
		env->batch_failures++;
		batch_reset(b);
		return -1;
	}
	env->commits++;
	env->turns += b->moves;
	if (b->writes > env->batch_max)
		env->batch_max = b->writes;
	/* The hooks queue events and arm timers; they run no command. */
	n = b->nev;
	batch_reset(b);
	for (i = 0; i < n; i++) {
		e = &b->ev[i];
		if (e->note == NOTE_MOVE && env->on_move != NULL)
			env->on_move(env->on_move_arg, e->game, &e->mv);
		else if (e->note == NOTE_SCHEDULE && env->on_schedule != NULL)
			env->on_schedule(env->on_schedule_arg, e->game,
			    e->due_ms);
	}
	return 0;
}

/*
 * The transaction of one write: a transaction of its own, or a savepoint
 * of the batch's (which the first write of a batch opens).
 */
static int
write_begin(struct cmd_env *env)
{
	struct cmd_batch	*b = env->batch;

	if (b == NULL)
		return store_begin(env->store);
	if (!b->open) {
		if (store_begin(env->store) != STORE_OK)
			return STORE_ERR;
		b->open = 1;
	}
	b->turns++;
	return store_savepoint(env->store);
}

/* Undoes this write alone.  In a batch it must follow any store write
 * that failed: the store leaves that write half-done inside the turn
 * savepoint, for this rollback to undo (store.h). */
static void
write_abort(struct cmd_env *env)
{
	if (env->batch == NULL)
		store_rollback(env->store);
	else if (env->batch->open)
		store_savepoint_rollback(env->store);
}

/* COMMIT, or keeps the savepoint; on failure the write is undone. */
static int
write_commit(struct cmd_env *env, int move)
{
	struct cmd_batch	*b = env->batch;

	if (b == NULL) {
		if (store_commit(env->store) != STORE_OK) {
			store_rollback(env->store);
			return STORE_ERR;
		}
		env->commits++;
		if (move)
			env->turns++;
		return 0;
	}
	if (store_savepoint_release(env->store) != STORE_OK) {
		store_savepoint_rollback(env->store);
		return STORE_ERR;
	}
	b->writes++;
	if (move)
		b->moves++;
	return 0;
}

static void
note_move(struct cmd_env *env, const char *game, const struct move *mv)
{
	if (env->batch != NULL)
		batch_event_add(env->batch, NOTE_MOVE, game)->mv = *mv;
	else if (env->on_move != NULL)
		env->on_move(env->on_move_arg, game, mv);
}

static void
schedule(struct cmd_env *env, const char *game, int64_t due_ms)
{
	if (env->batch != NULL)
		batch_event_add(env->batch, NOTE_SCHEDULE, game)->due_ms =
		    due_ms;
	else if (env->on_schedule != NULL)
		env->on_schedule(env->on_schedule_arg, game, due_ms);
}

void
cmd_reply_arity(struct reply *out, const struct cmd_args *args)
{
	const struct cmd_def *cmd = cmd_lookup(args->argv[0]);

	reply_error(out, "ERR", "wrong number of arguments for '%s'",
	    cmd != NULL ? cmd->name : args->argv[0]);
}

void
cmd_reply_syntax(struct reply *out)
{
	reply_error(out, "ERR", "syntax error");
}

int
arg_id(struct reply *out, const struct cmd_args *args, int i,
    const char *what)
{
	if (valid_id(args->argv[i], args->argl[i]))
		return 0;
	reply_error(out, "BADARG", "invalid %s id", what);
	return -1;
}

int
arg_int(struct reply *out, const struct cmd_args *args, int i, int64_t min,
    int64_t max, const char *what, int64_t *v)
{
	const char	*errstr;

	if (strlen(args->argv[i]) == args->argl[i] &&
	    parse_int64(args->argv[i], min, max, v, &errstr) == 0)
		return 0;
	reply_error(out, "BADARG", "%s must be an integer from %lld to %lld",
	    what, (long long)min, (long long)max);
	return -1;
}

int
arg_at(struct reply *out, const struct cmd_args *args, int base, int max,
    int *argc, int64_t *seq)
{
	int	n = args->argc;

	*seq = -1;
	if (n >= base + 2 && strcaseeq(args->argv[n - 2], "AT")) {
		if (arg_int(out, args, n - 1, 0, INT64_MAX - 1, "AT seq",
		    seq) == -1)
			return -1;
		n -= 2;
	}
	if (n < base || n > max) {
		cmd_reply_syntax(out);
		return -1;
	}
	*argc = n;
	return 0;
}

void
cmd_reply_store(struct cmd_env *env, struct reply *out)
{
	const char	*msg = store_errmsg(env->store);

	env->store_errors++;
	reply_free(out);
	reply_error(out, "STORE", "%s", msg != NULL && *msg != '\0' ? msg :
	    "store failure");
}

/* The error for a load that did not return STORE_OK. */
static void
reply_load_error(struct cmd_env *env, struct reply *out, const char *id,
    int rc)
{
	if (rc == STORE_NOTFOUND)
		reply_error(out, "NOGAME", "no such game '%s'", id);
	else
		cmd_reply_store(env, out);
}

static void
reply_wrongtype(struct reply *out, const struct game *g)
{
	reply_error(out, "WRONGTYPE", "game '%s' is a %s game", g->id,
	    game_kind_name(g->kind));
}

int
cmd_read_game(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, struct game *g)
{
	int	rc;

	rc = store_load_game(env->store, id, g);
	if (rc != STORE_OK) {
		reply_load_error(env, out, id, rc);
		return -1;
	}
	if (kind != KIND_NONE && g->kind != kind) {
		reply_wrongtype(out, g);
		return -1;
	}
	return 0;
}

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

void
cmd_create_game(struct cmd_env *env, struct reply *out, struct game *g)
{
	char	(*keys)[SEAT_KEY_HEX + 1] = NULL;
	int	rc;

	g->moves = 0;
	g->created = g->updated = cmd_now(env);
	g->opts.deadline = cmd_turn_deadline(g, cmd_now_ms(env));
	if (write_begin(env) != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		return;
	}
	if (g->opts.secure) {
		keys = xcalloc(GAME_MAX_PLAYERS, sizeof(*keys));
		if (cmd_seat_keys(env->store, g, keys) != 0) {
			free(keys);
			cmd_reply_store(env, out);
			write_abort(env);
			return;
		}
	}
	rc = store_create_game(env->store, g);
	if (rc == STORE_EXISTS) {
		write_abort(env);
		reply_error(out, "EXISTS", "game '%s' already exists", g->id);
		goto done;
	}
	if (rc != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		goto done;
	}
	if (write_commit(env, 0) != 0) {
		cmd_reply_store(env, out);
		goto done;
	}
	if (keys != NULL)
		reply_seat_keys(g, keys, out);
	else
		reply_status(out, "OK");
	if (g->opts.deadline != 0)
		schedule(env, g->id, g->opts.deadline);
done:
	if (keys != NULL) {
		/* The keys exist only in the reply from now on. */
		explicit_bzero(keys, GAME_MAX_PLAYERS * sizeof(*keys));
		free(keys);
	}
}

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
	int64_t	now = cmd_now(env);

	if (oc == TURN_OPTS)
		return store_save_opts(env->store, new) == STORE_OK ? 0 : -1;
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
	return store_save_turn(env->store, old, new, mv) == STORE_OK ? 0 : -1;
}

/* BEGIN and load; 0, or -1 with the error replied and rolled back. */
static int
transact_load(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, struct game *g)
{
	int	rc;

	if (write_begin(env) != STORE_OK) {
		cmd_reply_store(env, out);
		write_abort(env);
		return -1;
	}
	rc = store_load_game(env->store, id, g);
	if (rc != STORE_OK)
		reply_load_error(env, out, id, rc);
	else if (kind != KIND_NONE && g->kind != kind)
		reply_wrongtype(out, g);
	else if (req != NULL && req->at >= 0 && req->at != g->moves)
		at_resend(env, out, g, req);
	else
		return 0;
	write_abort(env);
	return -1;
}

enum turn_outcome
cmd_transact_at(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, turn_step step,
    void *arg, int64_t now_ms, struct move *mv, struct game *after)
{
	struct game		old, new;
	enum turn_outcome	oc;

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
	if (write_commit(env, oc == TURN_MOVE) != 0) {
		cmd_reply_store(env, out);
		return TURN_NONE;
	}

	if (after != NULL)
		*after = new;
	if (oc == TURN_OPTS)
		return oc;
	if (oc == TURN_SETUP) {
		reply_status(out, "OK");
		return oc;
	}
	reply_status(out, mv->result);
	note_move(env, new.id, mv);
	if (new.opts.deadline != 0 || old.opts.deadline != 0)
		schedule(env, new.id, new.opts.deadline);
	return oc;
}

void
cmd_transact(struct cmd_env *env, struct reply *out, const char *id,
    enum game_kind kind, const struct turn_req *req, turn_step step,
    void *arg)
{
	struct move	mv;

	cmd_transact_at(env, out, id, kind, req, step, arg, cmd_now_ms(env),
	    &mv, NULL);
}
