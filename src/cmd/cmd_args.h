/*
 * Declared arguments: what each command of the table takes after its
 * name, checked once by one parser (cmd_args.c) before the handler runs,
 * as tmux's args_parse() templates and Redis's commands/ JSON files do.  The
 * handler reads typed values (struct cmd_parsed) and never walks argv.
 * The same declarations give each entry its arity, its usage line and
 * COMMAND DOCS its "arguments" (cmd_argdoc.c).
 *
 * A command's words are, in this order:
 *
 *	positionals	in their declared order, optional ones after the
 *			required ones; the last may be MULTIPLE (INFO
 *			[section ...]) or a SUBCOMMAND (CLIENT SETNAME x)
 *	keyed words	"TOKEN value" pairs in any order (GAMES AFTER id
 *			LIMIT n), each at most once; a token may take
 *			several words (HELLO ... AUTH username password),
 *			or, the last declared, every word left (XREAD ...
 *			STREAMS key ... id ...)
 *	options		"key=value" words in any order, each at most once
 *			(the *.CREATE commands); the words among them that
 *			are not key=value are the last positional's when it
 *			is MULTIPLE (LUDO.CREATE's players), else too many
 *	tail		one last "TOKEN value" pair (LUDO.PLAY ... AT seq)
 *
 * The parser's order of checks, which is the order in which the errors
 * of an input with several win:
 *
 *	1. (CMD_EXCESS_ARITY) a count that no form of the command has:
 *	   -ERR wrong number of arguments
 *	2. the tail, when the words before it are at least the required
 *	   ones and the second-to-last word is its token (any case): its
 *	   value at once; then the words left must fit the positionals,
 *	   else -ERR syntax error
 *	3. the positionals, in order, each with its type's message and then
 *	   its check hook; an optional one yields to a keyed word's token;
 *	   a SUBCOMMAND's word that is none of its tokens, or followed by a
 *	   count of words its alternative does not take: "-ERR unknown
 *	   subcommand or wrong number of arguments for 'WORD'. Try ...",
 *	   then the words of the alternative
 *	4. the command's init hook (the game being built, struct cmd_build)
 *	5. the keyed words in order: a word that is no token, or a token
 *	   with fewer words after it than it takes, is a syntax error
 *	   (spec->badword: one that names the word); a token seen before:
 *	   "option 'TOKEN' given twice"
 *	6. the options: (CMD_OPTS_NUL_FIRST) every word for a NUL first;
 *	   the CMD_OPT_FIRST options; then every word in order: not
 *	   key=value is the MULTIPLE positional's or the arity error; an
 *	   unknown key is "unknown option 'KEY'" (CMD_OPTS_UNKNOWN_PLAIN:
 *	   plain syntax error); a key seen before: "option 'KEY' given
 *	   twice"; else its apply hook, in argv order; then the MULTIPLE
 *	   positional's words: type, count (nmax), apply hook; then nmin
 *	7. words left over: CMD_EXCESS_SYNTAX (the default) syntax error,
 *	   CMD_EXCESS_ARITY the arity error, CMD_EXCESS_IGNORE nothing
 *	8. the command's done hook, on the values read: what they mean
 *	   together (XRANGE's bounds, XREAD's keys and ids), which the
 *	   request then carries (struct cmd_parsed's stream)
 *
 * Every refusal of the parser is marked reply.rejected: it never looked
 * at the store, so it never waits for a commit.
 */
#ifndef LUDUS_CMD_ARGS_H
#define LUDUS_CMD_ARGS_H

#include <stddef.h>
#include <stdint.h>

struct cmd_arg;
struct cmd_args;
struct cmd_build;
struct cmd_def;
struct cmd_parsed;
struct game;
struct reply;

enum cmd_argtype {
	CMD_ARG_STRING = 0,	/* any bytes; a check hook may say more */
	CMD_ARG_ID,		/* a game or player id: 1-50 of a-z 0-9 - */
	CMD_ARG_INT,		/* plain decimal from min to max */
	CMD_ARG_SUBCOMMAND	/* one of alts' tokens (any case), then the
				   words that alternative takes */
};

/* struct cmd_arg flags. */
#define CMD_ARG_OPTIONAL	0x01
#define CMD_ARG_MULTIPLE	0x02	/* the last positional: every word
					   left (nmin..nmax of them); a
					   required SUBCOMMAND is one too
					   (nmin 1: its token) */
#define CMD_ARG_KEYED		0x04	/* "TOKEN value", after positionals;
					   with MULTIPLE: the token and every
					   word left */
#define CMD_ARG_TAIL		0x08	/* "TOKEN value", the last two words */
#define CMD_ARG_NESTED		0x10	/* KEYED: only once every positional
					   is there (HELLO 3 SETNAME x) */
#define CMD_ARG_KINDS		0x20	/* the usage shows the kind table's
					   names, "ludo|snl|dandy", after
					   doc and a "|" if there is one */

/* One word as the parser read it. */
struct cmd_val {
	const char	*s;		/* the word, NUL-ended; NULL: absent */
	size_t		 len;		/* its length (it may hold a NUL) */
	int64_t		 i;		/* INT: the value, def when absent;
					   SUBCOMMAND: the alternative, -1
					   when absent; a check hook's own */
	int		 at;		/* argv index of the word (of the
					   first, MULTIPLE), 0: absent */
	int		 n;		/* MULTIPLE (and a KEYED one of
					   several words): how many words,
					   the token not counted; to an
					   apply hook, which one (from 0) */
};

typedef int (*cmd_check_fn)(const struct cmd_arg *, struct cmd_val *,
    struct reply *);
typedef int (*cmd_apply_fn)(struct cmd_parsed *, const struct cmd_val *,
    struct reply *);

/* An alternative of a SUBCOMMAND: its token and the one argument (NULL:
 * none, then no word may follow) the words after it are: nmin to nmax of
 * them (nmax 0: no limit) when it is MULTIPLE, else one, or none when it
 * is OPTIONAL. */
struct cmd_alt {
	const char		*token;
	const struct cmd_arg	*rest;
};

struct cmd_arg {
	const char		*name;	/* COMMAND DOCS' name; the usage's */
	enum cmd_argtype	 type;
	int			 flags;
	const char		*token;	/* KEYED, TAIL: "AT", "LIMIT" */
	int64_t			 min, max;	/* INT's range */
	int64_t			 def;	/* INT's value when absent */
	const char		*what;	/* ID: "invalid <what> id" */
	/* Replaces the type's message (-ERRCODE err); NULL: the type's
	 * ("<name> must be an integer from <min> to <max>"; a keyed
	 * word's is named by its token, the tail's "<token> <name>").
	 * A SUBCOMMAND's err is what its refusal says to try ("CLIENT
	 * HELP"); NULL: its tokens. */
	const char		*errcode;
	const char		*err;
	cmd_check_fn		 check;	/* after the type's check */
	/*
	 * MULTIPLE: how many words (nmax 0: no limit) and what a count
	 * out of them replies (BADARG).  nmin is the least number of
	 * words the argument takes, a KEYED one's token included (XREAD's
	 * STREAMS key id: 3).  KEYED and not MULTIPLE: nmax > 1 is how
	 * many words follow the token (HELLO's AUTH username password).
	 */
	int			 nmin, nmax;
	const char		*counterr;
	cmd_apply_fn		 apply;	/* MULTIPLE among options: each word,
					   in order, into the build */
	const char		*doc;	/* the usage's text, when not name */
	const struct cmd_alt	*alts;	/* SUBCOMMAND, ended by a NULL token */
};

/* One key=value option.  The hook checks the value and applies it to
 * the game being built (the words of an option never hold a NUL). */
struct cmd_opt;
typedef int (*cmd_opt_fn)(const struct cmd_opt *, struct cmd_build *,
    const char *value, size_t len, struct reply *);

#define CMD_OPT_FIRST	0x01	/* applied before every other option,
				   whatever its place (LUDO.CREATE rules=:
				   the preset, which the flags override) */
#define CMD_OPT_HIDDEN	0x02	/* taken but not in the usage (DandyLand's
				   dice=, refused by the kind with why) */

struct cmd_opt {
	const char	*key;		/* "rules" for rules=VALUE */
	const char	*doc;		/* the value in the usage: "on|off" */
	int		 flags;
	cmd_opt_fn	 apply;
	size_t		 data;		/* the hook's own (a field's offset) */
};

/* struct cmd_spec flags: what a word too many is (at most one of the
 * first three), and the option walk's policies. */
#define CMD_EXCESS_SYNTAX	0x00	/* -ERR syntax error */
#define CMD_EXCESS_ARITY	0x01	/* -ERR wrong number of arguments,
					   before anything else is read */
#define CMD_EXCESS_IGNORE	0x02	/* taken and ignored (QUIT) */
#define CMD_OPTS_NUL_FIRST	0x04	/* every word checked for a NUL first:
					   -BADARG invalid argument */
#define CMD_OPTS_UNKNOWN_PLAIN	0x08	/* an unknown key: -ERR syntax error */

/* What one command takes. */
struct cmd_spec {
	const struct cmd_arg	*args;
	int			 nargs;
	const struct cmd_opt	*opts;		/* NULL: no options */
	int			 nopts;
	int			 flags;
	/* A bad keyed word is "-ERR <badword> '<word>'"; NULL: plain
	 * "-ERR syntax error". */
	const char		*badword;
	/* Sets up the game being built once the positionals are read and
	 * before the options apply to it; 0, or -1 with a reply. */
	int			(*init)(struct cmd_parsed *, struct reply *);
	/* Reads what the values ask once every word is read; 0, or -1
	 * with a reply (marked rejected by the parser). */
	int			(*done)(struct cmd_parsed *, struct reply *);
};

#define CMD_ARGS_MAX	8	/* declared arguments of one command */

/* A request as the parser read it, handed to the handler: struct
 * cmd_parsed, in cmd.h. */

/* ------------------------------------------------------- declaring */

#define CMD_NARGS(a)	((int)(sizeof(a) / sizeof((a)[0])))
#define CMD_SPEC(a, fl)	{ (a), CMD_NARGS(a), NULL, 0, (fl), NULL, NULL, NULL }
#define CMD_SPEC_OPTS(a, o, fl, init) \
	{ (a), CMD_NARGS(a), (o), CMD_NARGS(o), (fl), NULL, (init), NULL }
/* The same with a done hook. */
#define CMD_SPEC_DONE(a, fl, done) \
	{ (a), CMD_NARGS(a), NULL, 0, (fl), NULL, NULL, (done) }
/* The same as an entry's .spec, where it is declared; a command that
 * takes no word. */
#define CMD_ARGS(a, fl)	(&(const struct cmd_spec)CMD_SPEC(a, fl))
#define CMD_ARGS_NONE \
	(&(const struct cmd_spec){ NULL, 0, NULL, 0, 0, NULL, NULL, NULL })
#define CMD_ARGS_DONE(a, fl, done) \
	(&(const struct cmd_spec)CMD_SPEC_DONE(a, fl, done))
#define CMD_ARGS_OPTS(a, o, fl, init) \
	(&(const struct cmd_spec)CMD_SPEC_OPTS(a, o, fl, init))

#define CMD_ARG_ID_(n, w, fl) \
	{ .name = (n), .type = CMD_ARG_ID, .flags = (fl), .what = (w) }
#define CMD_ARG_INT_(n, lo, hi, fl, d) \
	{ .name = (n), .type = CMD_ARG_INT, .flags = (fl), .min = (lo), \
	  .max = (hi), .def = (d) }
#define CMD_ARG_STR_(n, fl, chk) \
	{ .name = (n), .type = CMD_ARG_STRING, .flags = (fl), .check = (chk) }

/* A game id ("id"), another id, an integer, any word. */
#define CMD_ARG_GAME		CMD_ARG_ID_("id", "game", 0)
#define CMD_ARG_ID(n, w)	CMD_ARG_ID_(n, w, 0)
#define CMD_ARG_INT(n, lo, hi)	CMD_ARG_INT_(n, lo, hi, 0, 0)
#define CMD_ARG_STR(n)		CMD_ARG_STR_(n, 0, NULL)
/* The same, optional: absent, an INT is d. */
#define CMD_ARG_GAME_OPT	CMD_ARG_ID_("id", "game", CMD_ARG_OPTIONAL)
#define CMD_ARG_INT_OPT(n, lo, hi, d) \
	CMD_ARG_INT_(n, lo, hi, CMD_ARG_OPTIONAL, d)
#define CMD_ARG_STR_OPT(n)	CMD_ARG_STR_(n, CMD_ARG_OPTIONAL, NULL)
/* A word a hook checks (board, cards): "-BADARG ..." from the hook. */
#define CMD_ARG_CHECKED(n, chk)	CMD_ARG_STR_(n, 0, chk)
#define CMD_ARG_CHECKED_OPT(n, chk) CMD_ARG_STR_(n, CMD_ARG_OPTIONAL, chk)
/* Any number of words, none included (INFO [section ...]). */
#define CMD_ARG_STR_ANY(n) \
	CMD_ARG_STR_(n, CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE, NULL)
/* A subcommand: one of the alternatives' tokens (any case), then the
 * words it takes; err is what its refusal says to try (NULL: the
 * tokens).  The value is the alternative's index. */
#define CMD_ARG_SUBCOMMANDS(a, e) \
	{ .name = "subcommand", .type = CMD_ARG_SUBCOMMAND, \
	  .flags = CMD_ARG_MULTIPLE, .nmin = 1, .alts = (a), .err = (e) }
/* "TOKEN value" anywhere after the positionals. */
#define CMD_ARG_KEY_INT(tok, n, lo, hi, d) \
	{ .name = (n), .type = CMD_ARG_INT, \
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = (tok), \
	  .min = (lo), .max = (hi), .def = (d) }
#define CMD_ARG_KEY_ID(tok, n, w) \
	{ .name = (n), .type = CMD_ARG_ID, \
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_KEYED, .token = (tok), \
	  .what = (w) }
/* The resend tail of a move (doc/protocol.md section 10); -1 absent. */
#define CMD_AT_SEQ_MAX	(INT64_MAX - 1)
#define CMD_ARG_AT \
	{ .name = "seq", .type = CMD_ARG_INT, \
	  .flags = CMD_ARG_OPTIONAL | CMD_ARG_TAIL, .token = "AT", \
	  .min = 0, .max = CMD_AT_SEQ_MAX, .def = -1 }

/* -------------------------------------------------------- the parser */

/*
 * Reads the words of a request for the entry d (found by name, its
 * arity checked) into p, in the order above; build is where a command
 * with options builds its game (NULL for one without).  0, or -1 with
 * the error set in out and marked rejected.  Nothing is allocated: p
 * points into args.
 */
int	cmd_parse(const struct cmd_def *d, const struct cmd_args *args,
	    struct cmd_parsed *p, struct cmd_build *build, struct reply *out);

/* The j-th word of the MULTIPLE (or SUBCOMMAND) argument k. */
const char	*cmd_word(const struct cmd_parsed *, int k, int j);
size_t		 cmd_word_len(const struct cmd_parsed *, int k, int j);

/* ------------------------------------------- the declarations shown */

/* The usage line the declarations make ("LUDO.PLAY id player dice token
 * [AT seq]"), as --help and COMMAND DOCS show it, into buf; its length
 * (as snprintf's, may be >= len: CMD_USAGE_MAX holds every command's). */
#define CMD_USAGE_MAX	512
size_t	cmd_args_usage(const struct cmd_def *, char *buf, size_t len);
/* COMMAND DOCS' doc of d, in Redis 7's shape, into an empty reply: a map
 * of summary (the usage line), since, group, "arguments" (an array of
 * maps {name, type, token?, flags?, arguments?}) and, for a SUBCOMMAND,
 * "subcommands" (a map of "name|sub" to the same). */
void	cmd_args_docs(const struct cmd_def *, struct reply *);

#endif /* LUDUS_CMD_ARGS_H */
