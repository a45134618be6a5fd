/*
 * The parser of the declared arguments (cmd_args.h): one walk over the
 * words of a request, driven by its entry's struct cmd_spec, in the
 * order of checks written there.  It allocates nothing and copies no
 * word: the values point into the request's argv, which outlives the
 * handler.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_impl.h"
#include "util/util.h"

#define KEY_SHOWN	32	/* bytes of an option's key an error shows */
#define WORD_SHOWN	64	/* ... of another word */

/* The walk's state: the request, where its words end, the result. */
struct walk {
	const struct cmd_def	*def;
	const struct cmd_spec	*spec;
	const struct cmd_args	*args;
	struct cmd_parsed	*p;
	struct reply		*out;
	int			 end;	/* words [1, end) are still to read */
};

/* ------------------------------------------------------- the errors */

void
cmd_reply_arity(struct reply *out, const struct cmd_def *d)
{
	reply_error(out, "ERR", "wrong number of arguments for '%s'",
	    d->name);
	out->rejected = 1;
}

static int
refuse_arity(struct walk *w)
{
	cmd_reply_arity(w->out, w->def);
	return -1;
}

static int
refuse_syntax(struct walk *w)
{
	reply_error(w->out, "ERR", "syntax error");
	return -1;
}

/* A word that is not what the command takes there. */
static int
refuse_word(struct walk *w, int i)
{
	if (w->spec->badword == NULL)
		return refuse_syntax(w);
	reply_error(w->out, "ERR", "%s '%.*s'", w->spec->badword, WORD_SHOWN,
	    w->args->argv[i]);
	return -1;
}

static int
refuse_twice(struct walk *w, const char *name)
{
	reply_error(w->out, "ERR", "syntax error: option '%.*s' given twice",
	    KEY_SHOWN, name);
	return -1;
}

/* "TOKEN1, TOKEN2 or TOKEN3" into buf. */
static void
alt_list(const struct cmd_alt *alts, char *buf, size_t len)
{
	size_t	 i, n = 0, at = 0;

	for (i = 0; alts[i].token != NULL; i++)
		n++;
	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
		    i == 0 ? "" : i + 1 == n ? " or " : ", ", alts[i].token);
}

/* As Redis says it of a subcommand: the command's word is named, even
 * when the words after it are what is wrong. */
static int
refuse_subcommand(struct walk *w, const struct cmd_arg *a, int i)
{
	char	 list[128];

	if (a->err != NULL)
		snprintf(list, sizeof(list), "%s", a->err);
	else
		alt_list(a->alts, list, sizeof(list));
	reply_error(w->out, "ERR", "unknown subcommand or wrong number of "
	    "arguments for '%.*s'. Try %s.", WORD_SHOWN, w->args->argv[i],
	    list);
	return -1;
}

/* ------------------------------------------------------- one word */

static int
has_nul(const struct cmd_args *args, int i)
{
	return strlen(args->argv[i]) != args->argl[i];
}

static int
refuse_int(struct walk *w, const struct cmd_arg *a)
{
	if (a->err != NULL)
		reply_error(w->out, a->errcode, "%s", a->err);
	else if (a->flags & CMD_ARG_TAIL)
		reply_error(w->out, "BADARG", "%s %s must be an integer from "
		    "%lld to %lld", a->token, a->name, (long long)a->min,
		    (long long)a->max);
	else
		reply_error(w->out, "BADARG", "%s must be an integer from %lld "
		    "to %lld", (a->flags & CMD_ARG_KEYED) ? a->token : a->name,
		    (long long)a->min, (long long)a->max);
	return -1;
}

/* Word i as argument a: its type, then its check hook. */
static int
read_word(struct walk *w, const struct cmd_arg *a, int i, struct cmd_val *v)
{
	const char	*errstr;

	v->s = w->args->argv[i];
	v->len = w->args->argl[i];
	v->at = i;
	switch (a->type) {
	case CMD_ARG_ID:
		if (!valid_id(v->s, v->len)) {
			reply_error(w->out, "BADARG", "invalid %s id", a->what);
			return -1;
		}
		break;
	case CMD_ARG_INT:
		if (has_nul(w->args, i) ||
		    parse_int64(v->s, a->min, a->max, &v->i, &errstr) != 0)
			return refuse_int(w, a);
		break;
	default:
		break;
	}
	return a->check != NULL ? a->check(a, v, w->out) : 0;
}

/* ------------------------------------------------ counts and the tail */

struct shape {
	int	required;	/* positionals that must be there */
	int	positionals;	/* ... that may (-1: no limit) */
	int	tail;		/* the tail's index, -1 none */
	int	keyed;		/* keyed words declared */
	int	multiple;	/* the MULTIPLE positional's index, -1 none */
};

static void
spec_shape(const struct cmd_spec *s, struct shape *sh)
{
	int	 k, fl;

	memset(sh, 0, sizeof(*sh));
	sh->tail = sh->multiple = -1;
	for (k = 0; k < s->nargs; k++) {
		fl = s->args[k].flags;
		if (fl & CMD_ARG_TAIL)
			sh->tail = k;
		else if (fl & CMD_ARG_KEYED)
			sh->keyed++;
		else {
			if (!(fl & CMD_ARG_OPTIONAL))
				sh->required++;
			if (fl & CMD_ARG_MULTIPLE)
				sh->multiple = k;
			sh->positionals++;
		}
	}
	if (sh->multiple >= 0 ||
	    (sh->positionals > 0 && s->args[sh->positionals - 1].type ==
	    CMD_ARG_SUBCOMMAND))
		sh->positionals = -1;
}

/*
 * The arity the declarations make: the least number of words, the name
 * included (a MULTIPLE argument's nmin, a keyed one's token and words),
 * negative when more may come (an optional or MULTIPLE argument,
 * options, words ignored).
 */
int
cmd_arity(const struct cmd_def *d)
{
	const struct cmd_spec	*s = d->spec;
	const struct cmd_arg	*a;
	int			 k, n = 1, more;

	more = s->opts != NULL || (s->flags & CMD_EXCESS_IGNORE);
	for (k = 0; k < s->nargs; k++) {
		a = &s->args[k];
		if (a->flags & (CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE))
			more = 1;
		if (a->flags & CMD_ARG_MULTIPLE)
			n += a->nmin;
		else if (!(a->flags & CMD_ARG_OPTIONAL))
			n += (a->flags & (CMD_ARG_KEYED | CMD_ARG_TAIL)) ?
			    1 + (a->nmax > 1 ? a->nmax : 1) : 1;
	}
	return more ? -n : n;
}

/* Words (the name included) the positionals take: lo to hi (-1: any). */
static int
fits(const struct shape *sh, int words)
{
	return words >= 1 + sh->required &&
	    (sh->positionals < 0 || words <= 1 + sh->positionals);
}

/* A count no form of the command has (CMD_EXCESS_ARITY): the arity
 * error before anything else. */
static int
check_count(struct walk *w, const struct shape *sh)
{
	int	 n = w->args->argc;

	if (fits(sh, n) || (sh->tail >= 0 && fits(sh, n - 2)))
		return 0;
	return refuse_arity(w);
}

/* Takes the tail off when the words before it are at least the required
 * ones; then the words left must fit the positionals. */
static int
read_tail(struct walk *w, const struct shape *sh)
{
	const struct cmd_arg	*a = &w->spec->args[sh->tail];
	int			 n = w->end;

	if (n >= 1 + sh->required + 2 &&
	    strcaseeq(w->args->argv[n - 2], a->token)) {
		if (read_word(w, a, n - 1, &w->p->v[sh->tail]) == -1)
			return -1;
		w->end = n - 2;
	}
	if (!fits(sh, w->end))
		return refuse_syntax(w);
	return 0;
}

/* ------------------------------------------------------ positionals */

/* The keyed word whose token word i is (a NESTED one only once every
 * positional is read); -1 if none. */
static int
keyed_at(struct walk *w, int i, int all_read)
{
	const struct cmd_arg	*a;
	int			 k;

	for (k = 0; k < w->spec->nargs; k++) {
		a = &w->spec->args[k];
		if ((a->flags & CMD_ARG_KEYED) &&
		    (all_read || !(a->flags & CMD_ARG_NESTED)) &&
		    strcaseeq(w->args->argv[i], a->token))
			return k;
	}
	return -1;
}

/* n words from i on, each of argument a (v itself is set). */
static int
read_multiple_n(struct walk *w, const struct cmd_arg *a, int i, int n,
    const struct cmd_val *v)
{
	struct cmd_val	 one;
	int		 j;

	for (j = i; j < i + n; j++) {
		one = *v;
		if (read_word(w, a, j, &one) == -1)
			return -1;
	}
	return 0;
}

/* Every word from i on, each of argument a. */
static int
read_multiple(struct walk *w, const struct cmd_arg *a, int i,
    struct cmd_val *v)
{
	v->at = i < w->end ? i : 0;
	v->n = w->end - i;
	return read_multiple_n(w, a, i, v->n, v);
}

/* Whether an alternative's argument takes n words (cmd_alt). */
static int
rest_fits(const struct cmd_arg *rest, int n)
{
	if (rest == NULL)
		return n == 0;
	if (rest->flags & CMD_ARG_MULTIPLE)
		return n >= rest->nmin && (rest->nmax == 0 || n <= rest->nmax);
	return n == 1 || (n == 0 && (rest->flags & CMD_ARG_OPTIONAL));
}

/* The alternative word i names, then the words it takes. */
static int
read_subcommand(struct walk *w, const struct cmd_arg *a, int i,
    struct cmd_val *v)
{
	const struct cmd_alt	*alt;
	struct cmd_val		 rest;
	int			 n = w->end - i - 1;

	for (alt = a->alts; alt->token != NULL; alt++)
		if (strcaseeq(w->args->argv[i], alt->token))
			break;
	if (alt->token == NULL || !rest_fits(alt->rest, n))
		return refuse_subcommand(w, a, i);
	v->s = w->args->argv[i];
	v->len = w->args->argl[i];
	v->at = i;
	v->i = alt - a->alts;
	v->n = w->end - i - 1;
	if (alt->rest != NULL) {
		rest = *v;
		if (read_multiple(w, alt->rest, i + 1, &rest) == -1)
			return -1;
	}
	return 0;
}

/*
 * The positionals in order, from word 1; *next gets the first word not
 * read.  The MULTIPLE one of a command with options is read with them.
 */
static int
read_positionals(struct walk *w, int *next)
{
	const struct cmd_arg	*a;
	struct cmd_val		*v;
	int			 i = 1, k;

	for (k = 0; k < w->spec->nargs && i < w->end; k++) {
		a = &w->spec->args[k];
		v = &w->p->v[k];
		if (a->flags & (CMD_ARG_KEYED | CMD_ARG_TAIL))
			break;
		if ((a->flags & CMD_ARG_MULTIPLE) && w->spec->opts != NULL)
			break;
		if ((a->flags & CMD_ARG_OPTIONAL) && keyed_at(w, i, 0) >= 0)
			break;
		if (a->type == CMD_ARG_SUBCOMMAND) {
			if (read_subcommand(w, a, i, v) == -1)
				return -1;
			i = w->end;
		} else if (a->flags & CMD_ARG_MULTIPLE) {
			if (read_multiple(w, a, i, v) == -1)
				return -1;
			i = w->end;
		} else if (read_word(w, a, i++, v) == -1)
			return -1;
	}
	/* Only a declaration whose arity allows fewer words gets here. */
	for (; k < w->spec->nargs; k++) {
		a = &w->spec->args[k];
		if (!(a->flags & (CMD_ARG_OPTIONAL | CMD_ARG_MULTIPLE)))
			return refuse_arity(w);
	}
	*next = i;
	return 0;
}

/* ------------------------------------------------------ keyed words */

/* Whether every positional has its word (a NESTED token counts). */
static int
positionals_read(const struct walk *w)
{
	int	 k;

	for (k = 0; k < w->spec->nargs; k++)
		if (!(w->spec->args[k].flags & (CMD_ARG_KEYED | CMD_ARG_TAIL)) &&
		    w->p->v[k].at == 0)
			return 0;
	return 1;
}

/* The words after a keyed word's token: every word left (MULTIPLE),
 * nmax of them, or one. */
static int
keyed_words(const struct walk *w, const struct cmd_arg *a, int i)
{
	if (a->flags & CMD_ARG_MULTIPLE)
		return w->end - i - 1;
	return a->nmax > 1 ? a->nmax : 1;
}

static int
read_keyed(struct walk *w, int i)
{
	const struct cmd_arg	*a;
	struct cmd_val		*v;
	int			 k, n, all = positionals_read(w);

	for (; i < w->end; i += 1 + n) {
		k = keyed_at(w, i, all);
		a = &w->spec->args[k < 0 ? 0 : k];
		n = k < 0 ? 0 : keyed_words(w, a, i);
		if (k < 0 || n < 1 || i + n >= w->end)
			return refuse_word(w, i);
		v = &w->p->v[k];
		if (v->at != 0)
			return refuse_twice(w, a->token);
		if (n == 1 && !(a->flags & CMD_ARG_MULTIPLE)) {
			if (read_word(w, a, i + 1, v) == -1)
				return -1;
			continue;
		}
		v->s = w->args->argv[i + 1];
		v->len = w->args->argl[i + 1];
		v->at = i + 1;
		v->n = n;
		if (read_multiple_n(w, a, i + 1, n, v) == -1)
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- options */

/* The option of word i (a key=value word), or NULL. */
static const struct cmd_opt *
option_of(const struct cmd_spec *s, const char *word)
{
	const char	*eq = strchr(word, '=');
	size_t		 klen = (size_t)(eq - word);
	int		 k;

	for (k = 0; k < s->nopts; k++)
		if (strlen(s->opts[k].key) == klen &&
		    strncmp(word, s->opts[k].key, klen) == 0)
			return &s->opts[k];
	return NULL;
}

static int
is_option(const struct cmd_args *args, int i)
{
	return !has_nul(args, i) && strchr(args->argv[i], '=') != NULL;
}

static int
refuse_option(struct walk *w, int i)
{
	const char	*arg = w->args->argv[i];
	size_t		 klen = (size_t)(strchr(arg, '=') - arg);

	if (w->spec->flags & CMD_OPTS_UNKNOWN_PLAIN)
		return refuse_syntax(w);
	reply_error(w->out, "ERR", "syntax error: unknown option '%.*s'",
	    (int)(klen > KEY_SHOWN ? KEY_SHOWN : klen), arg);
	return -1;
}

/* Applies option o of word i, once. */
static int
apply_option(struct walk *w, const struct cmd_opt *o, int i, uint32_t *seen)
{
	uint32_t	 bit = (uint32_t)1 << (o - w->spec->opts);
	size_t		 klen = strlen(o->key);

	if (*seen & bit)
		return refuse_twice(w, o->key);
	*seen |= bit;
	return o->apply(o, w->p->build, w->args->argv[i] + klen + 1,
	    w->args->argl[i] - klen - 1, w->out);
}

/* The words among the options that are not key=value: the MULTIPLE
 * positional's, each checked and applied, then their count. */
static int
read_rest(struct walk *w, int from, int k)
{
	const struct cmd_arg	*a = &w->spec->args[k];
	struct cmd_val		*v = &w->p->v[k], one;
	int			 i;

	for (i = from; i < w->end; i++) {
		if (strchr(w->args->argv[i], '=') != NULL)
			continue;
		memset(&one, 0, sizeof(one));
		if (read_word(w, a, i, &one) == -1)
			return -1;
		if (a->nmax > 0 && v->n == a->nmax)
			goto count;
		one.n = v->n;
		if (a->apply != NULL && a->apply(w->p, &one, w->out) == -1)
			return -1;
		if (v->n++ == 0)
			v->at = i;
	}
	if (v->n >= a->nmin)
		return 0;
count:
	reply_error(w->out, "BADARG", "%s", a->counterr);
	return -1;
}

static int
read_options(struct walk *w, int from, const struct shape *sh)
{
	const struct cmd_opt	*o;
	uint32_t		 seen = 0;
	int			 i, rest = sh->multiple;

	if (w->spec->flags & CMD_OPTS_NUL_FIRST)
		for (i = from; i < w->end; i++)
			if (has_nul(w->args, i)) {
				reply_error(w->out, "BADARG",
				    "invalid argument");
				return -1;
			}
	for (i = from; i < w->end; i++)
		if (is_option(w->args, i) &&
		    (o = option_of(w->spec, w->args->argv[i])) != NULL &&
		    (o->flags & CMD_OPT_FIRST) &&
		    apply_option(w, o, i, &seen) == -1)
			return -1;
	for (i = from; i < w->end; i++) {
		if (!is_option(w->args, i)) {
			if (rest >= 0)
				continue;
			return refuse_arity(w);
		}
		if ((o = option_of(w->spec, w->args->argv[i])) == NULL)
			return refuse_option(w, i);
		if (!(o->flags & CMD_OPT_FIRST) &&
		    apply_option(w, o, i, &seen) == -1)
			return -1;
	}
	return rest >= 0 ? read_rest(w, from, rest) : 0;
}

/* ----------------------------------------------------------- a walk */

static void
values_init(const struct cmd_spec *s, struct cmd_parsed *p)
{
	int	 k;

	for (k = 0; k < s->nargs; k++) {
		memset(&p->v[k], 0, sizeof(p->v[k]));
		p->v[k].i = s->args[k].type == CMD_ARG_SUBCOMMAND ? -1 :
		    s->args[k].def;
	}
}

static int
walk(struct walk *w)
{
	struct shape	 sh;
	int		 next;

	spec_shape(w->spec, &sh);
	if ((w->spec->flags & CMD_EXCESS_ARITY) && check_count(w, &sh) == -1)
		return -1;
	if (sh.tail >= 0 && read_tail(w, &sh) == -1)
		return -1;
	if (read_positionals(w, &next) == -1)
		return -1;
	if (w->spec->init != NULL && w->spec->init(w->p, w->out) == -1)
		return -1;
	if (w->spec->opts != NULL)
		return read_options(w, next, &sh);
	if (sh.keyed > 0)
		return read_keyed(w, next);
	if (next == w->end || (w->spec->flags & CMD_EXCESS_IGNORE))
		return 0;
	if (w->spec->flags & CMD_EXCESS_ARITY)
		return refuse_arity(w);
	return refuse_syntax(w);
}

int
cmd_parse(const struct cmd_def *d, const struct cmd_args *args,
    struct cmd_parsed *p, struct cmd_build *build, struct reply *out)
{
	struct walk	 w;

	w.def = d;
	w.spec = d->spec;
	w.args = args;
	w.p = p;
	w.out = out;
	w.end = args->argc;
	p->def = d;
	p->args = args;
	p->build = w.spec->opts != NULL ? build : NULL;
	p->game = NULL;
	memset(&p->stream, 0, sizeof(p->stream));
	values_init(w.spec, p);
	if (p->build != NULL)
		cmd_build_init(p->build);
	if (walk(&w) == 0 &&
	    (w.spec->done == NULL || w.spec->done(p, out) == 0))
		return 0;
	out->rejected = 1;
	return -1;
}

const char *
cmd_word(const struct cmd_parsed *p, int k, int j)
{
	int	 at = p->v[k].at + j +
		    (p->def->spec->args[k].type == CMD_ARG_SUBCOMMAND);

	return p->args->argv[at];
}

size_t
cmd_word_len(const struct cmd_parsed *p, int k, int j)
{
	int	 at = p->v[k].at + j +
		    (p->def->spec->args[k].type == CMD_ARG_SUBCOMMAND);

	return p->args->argl[at];
}
