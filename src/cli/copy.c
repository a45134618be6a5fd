/*
 * ludus copy [--force] FROM TO: every game of one store into another
 * (store URIs: SQLite paths, postgresql://...), with its rows, history,
 * seats, options, pending roll and deadline, and the seat secret; then
 * AUDIT of the target.
 *
 * SQLite to SQLite is an online backup (SQLite's backup API): a running
 * ludusd may keep writing FROM, the copy is of one consistent moment of
 * it.  Any other pair copies game by game: each game's rows and history
 * are read together (its history holds at least its moves, later moves
 * being left out) and written with the store's own writes, IMPORT_BATCH
 * games per transaction of the target.  A target that holds games is
 * refused unless --force, which empties it first.  Progress goes to a
 * terminal (stderr), the summary to stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/copy.h"
#include "cmd/cmd.h"
#include "store/sqlite.h"
#include "store/store.h"
#include "util/util.h"

#define IMPORT_BATCH	100
#define LIST_PAGE	256

struct copy {
	struct store	*from, *to;
	int		 tty;
	int64_t		 total, games, moves;
	/* One game's history, kept across games. */
	struct move	*mv;
	int64_t		 nmv, cap;
};

static int
copy_err(const char *what, const char *msg)
{
	fprintf(stderr, "ludus copy: %s: %s\n", what, msg);
	return 1;
}

static int
collect(void *arg, const struct move *mv)
{
	struct copy	*c = arg;

	if (c->nmv == c->cap) {
		c->cap = c->cap == 0 ? 256 : c->cap * 2;
		c->mv = xrealloc(c->mv, (size_t)c->cap * sizeof(*c->mv));
	}
	c->mv[c->nmv++] = *mv;
	return 0;
}

static int
copy_game(struct copy *c, const char *id)
{
	struct game	*g = xmalloc(sizeof(*g));
	int		 rc = -1;

	c->nmv = 0;
	if (store_load_game_stored(c->from, id, g) != STORE_OK ||
	    store_history(c->from, id, 1, -1, collect, c) != STORE_OK)
		copy_err(id, store_errmsg(c->from));
	else if (c->nmv < g->moves)
		copy_err(id, "history shorter than the game");
	else if (store_import_game(c->to, g, c->mv) != STORE_OK)
		copy_err(id, store_errmsg(c->to));
	else {
		c->games++;
		c->moves += g->moves;
		rc = 0;
	}
	free(g);
	return rc;
}

struct page {
	char	 ids[LIST_PAGE][GAME_ID_MAX + 1];
	int	 n;
};

static int
page_add(void *arg, const char *id, enum game_kind kind)
{
	struct page	*p = arg;

	(void)kind;
	str_copy(p->ids[p->n++], sizeof(p->ids[0]), id);
	return 0;
}

static void
progress(const struct copy *c, int last)
{
	if (c->tty)
		fprintf(stderr, "\rcopying: %lld of %lld games%s",
		    (long long)c->games, (long long)c->total,
		    last ? "\n" : "");
}

/* The pages of FROM's ids, IMPORT_BATCH games per transaction. */
static int
copy_games(struct copy *c)
{
	struct page	*p = xcalloc(1, sizeof(*p));
	char		 after[GAME_ID_MAX + 1] = "";
	int		 i, rc = 0;

	for (;;) {
		p->n = 0;
		if (store_list_games(c->from, GAME_ANY_KIND, after, LIST_PAGE,
		    page_add, p) != STORE_OK) {
			rc = copy_err("list", store_errmsg(c->from));
			break;
		}
		for (i = 0; i < p->n && rc == 0; i++) {
			if (c->games % IMPORT_BATCH == 0 &&
			    store_begin(c->to) != STORE_OK)
				rc = copy_err("begin", store_errmsg(c->to));
			else if (copy_game(c, p->ids[i]) != 0)
				rc = 1;
			else if (c->games % IMPORT_BATCH == 0 &&
			    store_commit(c->to) != STORE_OK)
				rc = copy_err("commit", store_errmsg(c->to));
			if (rc == 0 && c->games % IMPORT_BATCH == 0)
				progress(c, 0);
		}
		if (rc != 0 || p->n < LIST_PAGE)
			break;
		str_copy(after, sizeof(after), p->ids[p->n - 1]);
	}
	if (rc == 0 && c->games % IMPORT_BATCH != 0 &&
	    store_commit(c->to) != STORE_OK)
		rc = copy_err("commit", store_errmsg(c->to));
	if (rc != 0)
		store_rollback(c->to);
	progress(c, 1);
	free(p);
	return rc;
}

static int
copy_secret(struct copy *c)
{
	uint8_t	 key[STORE_SECRET_LEN], out[STORE_SECRET_LEN];
	int	 rc;

	if ((rc = store_secret_read(c->from, key)) == 1)
		return 0;
	if (rc != 0)
		return copy_err("secret", store_errmsg(c->from));
	if (store_secret(c->to, key, out) != STORE_OK)
		return copy_err("secret", store_errmsg(c->to));
	if (memcmp(key, out, sizeof(key)) != 0)
		return copy_err("secret", "the target has another seat "
		    "secret: its seats would not open");
	return 0;
}

static int64_t
games_in(struct store *st)
{
	int64_t	 n[GAME_KINDS_LEN];

	return store_count_games(st, n) == STORE_OK ? n[GAME_ANY_KIND] : -1;
}

/* AUDIT of the target through the command layer, as a client sees it. */
static int
audit(struct store *st)
{
	struct cmd_env	 env;
	struct reply	 r = { 0 };
	size_t		 i;
	int		 rc;

	memset(&env, 0, sizeof(env));
	env.store = st;
	cmd_executev(&env, &r, "AUDIT", NULL);
	if (r.type != REPLY_ARRAY) {
		rc = copy_err("AUDIT", r.str != NULL ? r.str : "failed");
	} else if (r.n > 0) {
		for (i = 0; i < r.n; i++)
			fprintf(stderr, "ludus copy: AUDIT: %s\n",
			    r.elem[i].str != NULL ? r.elem[i].str : "?");
		rc = 1;
	} else {
		printf("AUDIT of the target: no differences\n");
		rc = 0;
	}
	reply_free(&r);
	return rc;
}

/* Opens TO and checks it may be written: 0, or 1 (said why). */
static int
open_target(struct copy *c, const char *to, int force)
{
	char	 err[512];
	int64_t	 n;

	if ((c->to = store_open(to, DURABILITY_FULL, err, sizeof(err))) ==
	    NULL)
		return copy_err(to, err);
	if ((n = games_in(c->to)) < 0)
		return copy_err(to, store_errmsg(c->to));
	if (n > 0 && !force) {
		fprintf(stderr, "ludus copy: %s holds %lld games: not "
		    "overwritten without --force\n", to, (long long)n);
		return 1;
	}
	if (n > 0 && store_clear(c->to) != STORE_OK)
		return copy_err(to, store_errmsg(c->to));
	return 0;
}

static int
backup(const char *from, const char *to, int force)
{
	struct copy	 c;
	char		 err[512];
	int		 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = open_target(&c, to, force)) == 0) {
		store_close(c.to);
		c.to = NULL;
		if (store_sqlite_backup(store_uri_path(from),
		    store_uri_path(to), err, sizeof(err)) != 0)
			rc = copy_err(from, err);
		else if ((c.to = store_open(to, DURABILITY_FULL, err,
		    sizeof(err))) == NULL)
			rc = copy_err(to, err);
		else {
			printf("copied %lld games (an online backup)\n",
			    (long long)games_in(c.to));
			rc = audit(c.to);
		}
	}
	store_close(c.to);
	return rc;
}

int
cli_copy(int argc, char **argv)
{
	struct copy	 c;
	char		 err[512];
	int		 force = 0, rc;

	if (argc > 0 && strcmp(argv[0], "--force") == 0) {
		force = 1;
		argc--;
		argv++;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ludus copy [--force] FROM TO\n");
		return 2;
	}
	if (!store_uri_is_pg(argv[0]) && !store_uri_is_pg(argv[1]))
		return backup(argv[0], argv[1], force);
	memset(&c, 0, sizeof(c));
	c.tty = isatty(STDERR_FILENO);
	if ((c.from = store_open(argv[0], DURABILITY_FULL, err,
	    sizeof(err))) == NULL)
		return copy_err(argv[0], err);
	c.total = games_in(c.from);
	if ((rc = open_target(&c, argv[1], force)) == 0 &&
	    (rc = copy_secret(&c)) == 0 && (rc = copy_games(&c)) == 0) {
		printf("copied %lld games, %lld moves\n", (long long)c.games,
		    (long long)c.moves);
		rc = audit(c.to);
	}
	free(c.mv);
	store_close(c.from);
	if (c.to != NULL)
		store_close(c.to);
	return rc;
}
