/*
 * The kind table: one const struct of operations per game kind, like
 * tmux's struct window_mode or Redis's moduleType.  Each entry is defined
 * next to its kind's code (src/game/kind_ludo.c, kind_snl.c,
 * kind_dandy.c) and registered in game_kinds[] (src/game/kind.c); the
 * layers above call through it and never ask which kind they hold.
 *
 * Every hook is pure: no I/O, no globals, and no allocation but the
 * output of the faces (markup, JSON and text).  A hook that needs
 * randomness (the server's automatic move) is given it.  A kind
 * fills the members it needs; the ones marked "NULL:" may be left out
 * and then mean what their comment says.
 *
 * Adding a kind is, and nothing else:
 *
 *  1. its rules: src/engine/<kind>.c (engine.h), and its state a member
 *     of struct game's union (game.h; GAME_MAX_PLAYERS if it seats more);
 *  2. its entry: src/game/kind_<kind>.c (the ops below, its STATE
 *     command's name, and its api: the JSON API's commands and what the
 *     page asks for them, struct game_ask and struct game_field), its
 *     board as SVG (kind_<kind>_svg.c), its JSON (kind_<kind>_json.c)
 *     and its board as text (kind_<kind>_text.c), declared in kinds.h and
 *     view.h;
 *  3. one value of enum game_kind below (KIND_COUNT one more) and one
 *     line in game_kinds[] (kind.c);
 *  4. its commands: src/cmd/cmd_<kind>.c (the top of src/cmd/cmd.h says
 *     how a command is declared) and their sections in doc/protocol.md;
 *  5. its SQL migration (sql/, sql/pg/: the games table's kind CHECK and
 *     its columns) and its files in Makefile.am.
 *
 * The CLI (ludus show), the HTTP API (a game's JSON, GET /api/kinds, the
 * creates and moves), the pages and their scripts (web/ludus.js, create.js)
 * take it from the table and need no edit: tests/unit/test_toykind.c
 * and tests/web/test_toykind.sh show it with a kind of the test tree.
 */
#ifndef LUDUS_GAME_KIND_H
#define LUDUS_GAME_KIND_H

#include <stddef.h>

enum game_kind {
	KIND_NONE = 0,		/* no kind; where one is asked for, any */
	KIND_LUDO = 1,
	KIND_SNL = 2,
	KIND_DANDY = 3
};
#define KIND_COUNT	4	/* the built-in kinds and KIND_NONE */
#define KIND_ADDED_MAX	4	/* the kinds game_kind_add() takes */

/*
 * The same two for a layer that names no kind (the CLI): "any kind",
 * where a kind is asked for (store_list_games()), and the length of an
 * array of counts by kind (store_count_games()), whose [GAME_ANY_KIND]
 * is the total of every kind.
 */
#define GAME_ANY_KIND	KIND_NONE
#define GAME_KINDS_LEN	KIND_COUNT

struct game;
struct game_dec;
struct game_enc;
struct json_t;
struct move;
struct reply;
struct row_cell;
struct row_game;
struct row_token;
struct svg;

/*
 * How the HTTP API writes one of the kind's commands from a JSON body
 * (src/http/http_write.c): the command's name, the game id, then one word
 * per argument, in order, each from the body's member of that name.  The
 * command layer checks the words as it checks a RESP client's.
 */
struct game_arg {
	const char	*name;		/* the member: "dice"; NULL ends */
	int		 integer;	/* a JSON integer, else a string */
	int		 optional;	/* may be absent: no word then */
	const struct game_ask *ask;	/* how the page asks for it, below */
};

/*
 * How the page (web/ludus.js) asks a player for an argument of a move,
 * as GET /api/kinds tells it (src/http/json_kind.c): the page knows no
 * kind.  It fills a move's arguments in order, the seat argument
 * (seat_arg) with the player, each other one with the first of these
 * that holds:
 *
 *  - the server draws it, while the member draw.when of the game's JSON
 *    ("options.dice") is not draw.unless ("manual"; NULL: null).  With
 *    draw.held set, the kind's roll (POST .../roll) draws it and the
 *    game holds it there ("options.roll", null until then); else the
 *    move leaves it out.  Until then, a button draw.label saying
 *    draw.prompt;
 *  - choices: a button per value (words: "1 2 3 4 5 6"), saying prompt;
 *  - board.values: a click on a piece of the board, an element of class
 *    token whose data-NAME is the value, among those that member of the
 *    game's JSON ("state.legal") lists under the value of argument
 *    board.by, saying prompt; when it lists none, a button
 *    board.none_label for the value board.none, saying board.none_prompt.
 *
 * In a prompt, {player} is the player, {NAME} the value of argument NAME.
 */
struct game_ask {
	const char	*prompt;
	const char	*choices;
	struct {
		const char	*values, *by;
		const char	*none, *none_label, *none_prompt;
	} board;
	struct {
		const char	*when, *unless, *held;
		const char	*label, *prompt;
	} draw;
};

/*
 * A field of the page's create form that a kind adds after the common
 * ones (id, players, bots, dice where the kind takes it, seats, turn
 * timeout): the body's member name (a create argument), or with option
 * set the option of that name, sent when not empty.
 */
struct game_field {
	const char	*name;		/* "board"; NULL ends */
	const char	*label;		/* "Board" */
	const char	*value;		/* its first value */
	int		 option;
	/* The values it takes, space-separated, offered as a choice
	 * ("classic interview extended"); NULL: any text. */
	const char	*choices;
	/* Its first value is what the create does without it: a join
	 * need not say it (a queue is named by the words given, and one
	 * that says it would be another queue). */
	int		 implied;
};

#define GAME_API_ARGS	4

struct game_api {
	/* NAME id players args... options...: the players a list of names
	 * where the kind names them (player_name), else their count. */
	const char	*create;
	struct game_arg	 create_args[GAME_API_ARGS];
	/* NAME id args... [AT seq] */
	const char	*move;
	struct game_arg	 move_args[GAME_API_ARGS];
	/* The argument naming the seat a move or a roll is for; NULL: the
	 * seat of the player to move. */
	const char	*seat_arg;
	/* A server roll apart from the move (NAME id args...); NULL: the
	 * kind has none (its move rolls, when the server has the dice). */
	const char	*roll;
	struct game_arg	 roll_args[GAME_API_ARGS];
	/* The page's create form: what the players field holds at first
	 * (names: "red blue", or a count: "2"), an example of bots, a hint
	 * (NULL: none; text, with `code` between backquotes) and the
	 * kind's own fields. */
	const char	*form_players;
	const char	*form_bots;
	const char	*form_hint;
	struct game_field form[GAME_API_ARGS];
};

/* The server's randomness, for the moves it makes by itself. */
struct game_random {
	int	(*die)(void);		/* 1-6 */
	int	(*card)(void);		/* one of a-i, 1-9 */
};

struct game_kind_ops {
	const char	*name;		/* "ludo": GAMES, GAME.INFO, INFO */
	const char	*title;		/* "Ludo" */
	int		 min_players;
	int		 max_players;

	/* ------------------------------------------------ the snapshot */
	int	(*nplayers)(const struct game *);
	/* The indexes of the player to move and of the winner as the
	 * state holds them, -1 for none (any other value out of range is
	 * none too).  winner NULL: the kind has no winner (it scores). */
	int	(*turn)(const struct game *);
	int	(*winner)(const struct game *);
	/* Player naming.  NULL both: players are P1..Pn.  player_name
	 * writes the name of player i (0 <= i < nplayers) into buf. */
	void	(*player_name)(const struct game *, int i, char *buf,
		    size_t len);
	int	(*player_index)(const struct game *, const char *name);

	/* -------------------------------------------------- the rows */
	/* The games row's columns of the kind: nplayers, turn, winner,
	 * aux, and its rules columns (row_game.cols). */
	void	(*to_row)(const struct game *, struct row_game *);
	/* A game being loaded (kind and the bookkeeping set): its state
	 * rebuilt with the engine's own init from the rules columns and
	 * nplayers, then the play columns laid over it.  -1 if the row
	 * cannot be a game of the kind. */
	int	(*from_row)(struct game *, const struct row_game *);
	/* The play columns alone (turn, winner, aux) laid on g. */
	void	(*put_play)(struct game *, const struct row_game *);
	/* A players row's name.  NULL: the kind keeps no names. */
	int	(*player_put)(struct game *, int i, const char *name,
		    size_t len);
	/* The token rows of g, in (player, token) order; their count (at
	 * most GAME_TOKEN_ROWS; nplayers is in range). */
	int	(*tokens)(const struct game *, struct row_token *);
	/* One token row into a loaded game; -1 if it cannot belong. */
	int	(*token_put)(struct game *, const struct row_token *);
	/* The cell rows of g (jumps), by cell, and one into a game: a
	 * target of 0 removes the cell's.  NULL both: no cells. */
	int	(*cells)(const struct game *, struct row_cell *);
	int	(*cell_put)(struct game *, const struct row_cell *);
	/* 1 when no turn can have made b out of a: the same rules (and
	 * jumps, board, deck); the options are the caller's. */
	int	(*same_rules)(const struct game *, const struct game *);

	/* -------------------------------------------- the game cache */
	/* The kind's state (and names) as the cache keeps them, for np
	 * players: encode -1 when g cannot be encoded; decode sets e->bad
	 * on bytes encode() did not write.  decode writes every byte the
	 * encoding leaves out as a load of the rows has it. */
	int	(*encode)(struct game_enc *, const struct game *, int np);
	void	(*decode)(struct game_dec *, struct game *, int np);

	/* ------------------------------------------- replay and audit */
	/* The initial snapshot of the same game (rules, players, board,
	 * deck, jumps) into out; -1 if g's rules are not valid. */
	int	(*replay_init)(const struct game *g, struct game *out);
	/* One stored move, checking its player and result: 0, or -1 with
	 * why set. */
	int	(*replay_step)(struct game *, const struct move *, char *why,
		    size_t len);
	/* Non-zero when two snapshots differ in a stored field. */
	int	(*differs)(const struct game *, const struct game *);

	/* --------------------------------------- the server's moves */
	/* 1 when a bot can play g with no client giving dice or cards;
	 * else bot_needs says what a bot needs. */
	int	(*bot_can_play)(const struct game *);
	const char	*bot_needs;
	/* NULL: the kind takes dice=server|manual; else why it refuses. */
	const char	*no_dice;
	/* The move of player turn, by a bot of that strategy (or BOT_FIRST
	 * for an absent player), made with rnd: new (a copy of old) and mv
	 * filled; 0, or -1 with why set. */
	int	(*autoplay)(const struct game *old, struct game *new,
		    struct move *mv, int turn, int strategy,
		    const struct game_random *rnd, char *why, size_t len);

	/* ------------------------------------------------- ratings */
	/* The finishing order of a game that is over: place[i] is player
	 * i's, 0 first, shared by players the kind cannot tell apart.
	 * NULL: the winner first and everyone else sharing second place
	 * (a game that ends at its first winner has nothing else to tell
	 * its unfinished players by); no winner, all share the first. */
	void	(*places)(const struct game *, int place[]);

	/* -------------------------------------------------- replies */
	/* The STATE array (LUDO.STATE, REPLAY ...), into an empty reply,
	 * and the command of the kind that replies it for a game id. */
	void	(*state_reply)(const struct game *, struct reply *);
	const char	*state_cmd;		/* "LUDO.STATE" */
	/* GAME.INFO: the kind's lines after "updated" (NULL: none), and
	 * those of a game whose randomness the server draws. */
	void	(*info)(const struct game *, struct reply *);
	void	(*info_random)(const struct game *, struct reply *);

	/* ------------------------------------------------- the web face */
	/* The board: the whole <svg> element appended to out (util/svg.h),
	 * the one picture of a game that the pages and GET /games/ID.svg
	 * show.  0, or -1 (nothing added) for a game of another kind. */
	int	(*render_svg)(const struct game *, struct svg *out);
	/* The kind's members of a game's JSON object (jansson): "players"
	 * (names, bots), "turn", "winner" and "state".  0, or -1. */
	int	(*state_json)(const struct game *, struct json_t *obj);
	/* Its commands as the JSON API writes them (above).  NULL: no
	 * writes over HTTP. */
	const struct game_api	*api;
	/* A stored move in words people read, into buf ("red rolled 6:
	 * token 1 leaves the yard"), from the game before it and after
	 * it (a replay's).  NULL: the move list shows the row itself. */
	void	(*move_words)(const struct game *before,
		    const struct game *after, const struct move *, char *buf,
		    size_t len);

	/* --------------------------------------------- the terminal face */
	/* The board as text (ludus show), drawn from what a client has
	 * read of the game: GAME.INFO's reply and state_cmd's array, with
	 * ANSI colours when color is set, appended to out.  NULL: the
	 * game's header line alone. */
	void	(*show_text)(const struct reply *info,
		    const struct reply *state, int color, struct svg *out);
	/* ------------------------------------------------- archives */
	/* The rules of g, what replay_init takes from it (Ludo's preset
	 * and flags, the snakes and ladders, DandyLand's board and deck),
	 * as members of obj under the names doc/archive.md gives them.
	 * 0, or -1. */
	int	(*rules_json)(const struct game *, struct json_t *obj);
	/* The way back: g (id and kind set) becomes the initial snapshot
	 * of np players under those rules, checked as a create checks
	 * them; 0, or -1 with why set. */
	int	(*rules_parse)(struct game *, const struct json_t *obj, int np,
		    char *why, size_t len);
};

/* Indexed by enum game_kind; game_kinds[KIND_NONE] is NULL. */
extern const struct game_kind_ops *const game_kinds[KIND_COUNT];

/*
 * A kind that is not built in: a test's, to show that the layers above
 * need no edit for a new kind (tests/lib/toykind.c).  Its value, from
 * KIND_COUNT on, or KIND_NONE when KIND_ADDED_MAX were added; from then
 * on game_kind_get() and every list of the kinds know it.  The store
 * keeps the built-in kinds alone (its schema names them), so an added
 * kind's games are never stored.
 */
enum game_kind	 game_kind_add(const struct game_kind_ops *);
/* One past the greatest kind's value, for the lists of kinds. */
int		 game_kind_end(void);
/* Where game_kind_get() finds the added kinds. */
extern const struct game_kind_ops *game_kinds_added[KIND_ADDED_MAX];
extern int	 game_kinds_nadded;

#endif /* LUDUS_GAME_KIND_H */
