/*
 * `ludus watch` and `ludus show`.  Both only send ordinary commands
 * (GAME.WATCH, GAME.INFO, the kind's STATE command) and read the same
 * reply values every command returns, so they work against any backend
 * and need nothing the protocol does not already say.  The kind table
 * names a kind's STATE command and draws its board (show_text), from
 * the STATE strings alone: nothing here knows a kind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "game/game.h"
#include "util/svg.h"
#include "util/util.h"

/* ----------------------------------------------------------- helpers */

/*
 * Runs one command given as words.  0 with out set, or 1 once the failure
 * is printed: an error reply on stdout (as the CLI prints every error),
 * a lost connection on stderr.
 */
static int
run(struct backend *be, struct reply *out, int argc, const char *const *words)
{
	char	*argv[8];
	size_t	 argl[8];
	int	 i;

	for (i = 0; i < argc && i < 8; i++) {
		argv[i] = (char *)(uintptr_t)words[i];
		argl[i] = strlen(words[i]);
	}
	memset(out, 0, sizeof *out);
	if (be->exec(be, i, argv, argl, out) == -1) {
		fprintf(stderr, "ludus: %s\n", out->str != NULL ? out->str :
		    "connection lost");
		reply_free(out);
		return 1;
	}
	if (out->type == REPLY_ERROR) {
		printf("%s\n", out->str);
		reply_free(out);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------- watch */

int
cli_print_move(const struct reply *r)
{
	char	 b[4][32];
	size_t	 i;

	if ((r->type != REPLY_ARRAY && r->type != REPLY_PUSH) || r->n < 6 ||
	    !strcaseeq(reply_text(&r->elem[0], b[0], sizeof b[0]), "move"))
		return 0;
	for (i = 2; i < 6; i++)
		printf("%s%s", reply_text(&r->elem[i], b[i - 2], sizeof b[0]),
		    i < 5 ? " " : "\n");
	fflush(stdout);
	return 1;
}

/* ludus watch's events: the moves, and an error the server sends. */
static void
watch_event(void *arg, const struct reply *ev)
{
	(void)arg;
	if (ev->type == REPLY_ERROR) {
		printf("%s\n", ev->str);
		fflush(stdout);
	} else
		(void)cli_print_move(ev);
}

int
cli_watch(struct backend *be, const char *game, const char *fromseq)
{
	const char	*words[] = { "GAME.WATCH", game, "FROM", fromseq };
	struct reply	 r;

	be->on_event = watch_event;
	be->event_arg = NULL;
	if (run(be, &r, fromseq != NULL ? 4 : 2, words) != 0)
		return 1;
	reply_free(&r);
	if (be->event_fd(be) == -1)
		return 1;	/* nothing can come: not a network backend */
	/* Only an interrupt or a lost connection ends it. */
	memset(&r, 0, sizeof r);
	while (be->pump(be, -1, &r) == 0)
		;
	fprintf(stderr, "ludus: watch %s: %s\n", game,
	    r.str != NULL ? r.str : "connection lost");
	reply_free(&r);
	return 1;
}

/* -------------------------------------------------------------- show */

int
cli_show(struct backend *be, const char *game, int color)
{
	const char			*info_cmd[] = { "GAME.INFO", game };
	const char			*state_cmd[2], *kind, *v;
	const struct game_kind_ops	*k;
	struct reply			 info, st;
	struct svg			 board;

	if (run(be, &info, 2, info_cmd) != 0)
		return 1;
	if ((kind = reply_pair_value(&info, "kind")) == NULL)
		kind = "?";
	if ((k = game_kind_named(kind)) == NULL || k->state_cmd == NULL) {
		fprintf(stderr, "ludus: game '%s' is of unknown kind '%s'\n",
		    game, kind);
		reply_free(&info);
		return 1;
	}
	state_cmd[0] = k->state_cmd;
	state_cmd[1] = game;
	if (run(be, &st, 2, state_cmd) != 0) {
		reply_free(&info);
		return 1;
	}
	if (color)
		printf("\033[1m%s\033[0m", k->title);
	else
		fputs(k->title, stdout);
	printf(" %s:", game);
	if ((v = reply_pair_value(&info, "players")) != NULL)
		printf(" %s players,", v);
	if ((v = reply_pair_value(&info, "moves")) != NULL)
		printf(" %s moves,", v);
	printf(" turn %s", (v = reply_pair_value(&info, "turn")) != NULL ?
	    v : "?");
	if ((v = reply_pair_value(&info, "winner")) != NULL &&
	    strcmp(v, "NONE") != 0)
		printf(", winner %s", v);
	printf("\n\n");
	if (st.type == REPLY_ARRAY && k->show_text != NULL) {
		svg_init(&board);
		k->show_text(&info, &st, color, &board);
		fwrite(svg_str(&board), 1, board.len, stdout);
		svg_free(&board);
	}
	fflush(stdout);
	reply_free(&info);
	reply_free(&st);
	return 0;
}
