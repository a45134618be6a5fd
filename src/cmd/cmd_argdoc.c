/*
 * The declared arguments shown: the usage line they make (each entry's,
 * for --help and COMMAND DOCS' summary) and COMMAND DOCS' doc of a
 * command in Redis 7's shape (summary, since, group, arguments,
 * subcommands), from which redis-cli builds its hints and its "help
 * NAME".  Both nest the same way: optional positionals in a row each
 * inside the one before (HISTORY id [from [count]]), a NESTED keyed word
 * inside the last (HELLO [2|3 [SETNAME name]]), then the keyed words,
 * the tail and the options, each in brackets.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/reply.h"

/* ------------------------------------------------------ the usage */

struct line {
	char	*buf;
	size_t	 len;
	size_t	 at;		/* as snprintf counts: may pass len */
};

static void
put(struct line *l, const char *s)
{
	size_t	 n = strlen(s);

	if (l->at < l->len)
		snprintf(l->buf + l->at, l->len - l->at, "%s", s);
	l->at += n;
}

static int
is_positional(const struct cmd_arg *a)
{
	return !(a->flags & (CMD_ARG_KEYED | CMD_ARG_TAIL));
}

static void	put_arg(struct line *, const struct cmd_arg *);

/* The kind table's names (CMD_ARG_KINDS): a kind added is shown. */
static void
put_kinds(struct line *l, int after)
{
	int	 k;

	for (k = KIND_NONE + 1; k < KIND_COUNT; k++) {
		put(l, after++ > 0 ? "|" : "");
		put(l, game_kind_name((enum game_kind)k));
	}
}

/* An argument's own text, without the brackets of its being optional. */
static void
put_text(struct line *l, const struct cmd_arg *a)
{
	const struct cmd_alt	*alt;

	if (a->doc != NULL)
		put(l, a->doc);
	if (a->flags & CMD_ARG_KINDS)
		put_kinds(l, a->doc != NULL);
	if (a->doc != NULL || (a->flags & CMD_ARG_KINDS))
		return;
	if (a->type == CMD_ARG_SUBCOMMAND) {
		for (alt = a->alts; alt->token != NULL; alt++) {
			put(l, alt == a->alts ? "" : " | ");
			put(l, alt->token);
			if (alt->rest != NULL) {
				put(l, " ");
				put_arg(l, alt->rest);
			}
		}
		return;
	}
	if (a->token != NULL) {
		put(l, a->token);
		put(l, " ");
	}
	put(l, a->name);
	if (a->flags & CMD_ARG_MULTIPLE) {
		put(l, (a->flags & CMD_ARG_OPTIONAL) ? " ..." : " [");
		if (!(a->flags & CMD_ARG_OPTIONAL)) {
			put(l, a->name);
			put(l, " ...]");
		}
	}
}

static void
put_arg(struct line *l, const struct cmd_arg *a)
{
	put(l, (a->flags & CMD_ARG_OPTIONAL) ? "[" : "");
	put_text(l, a);
	put(l, (a->flags & CMD_ARG_OPTIONAL) ? "]" : "");
}

static void
put_words(struct line *l, const struct cmd_spec *s)
{
	int	 k, open = 0;

	for (k = 0; k < s->nargs && is_positional(&s->args[k]); k++) {
		put(l, (s->args[k].flags & CMD_ARG_OPTIONAL) ? " [" : " ");
		open += (s->args[k].flags & CMD_ARG_OPTIONAL) != 0;
		put_text(l, &s->args[k]);
	}
	for (k = 0; k < s->nargs; k++)
		if (s->args[k].flags & CMD_ARG_NESTED) {
			put(l, " ");
			put_arg(l, &s->args[k]);
		}
	for (; open > 0; open--)
		put(l, "]");
	for (k = 0; k < s->nargs; k++)
		if (!is_positional(&s->args[k]) &&
		    !(s->args[k].flags & CMD_ARG_NESTED)) {
			put(l, " ");
			put_arg(l, &s->args[k]);
		}
	for (k = 0; k < s->nopts; k++)
		if (!(s->opts[k].flags & CMD_OPT_HIDDEN)) {
			put(l, " [");
			put(l, s->opts[k].key);
			put(l, "=");
			put(l, s->opts[k].doc);
			put(l, "]");
		}
}

size_t
cmd_args_usage(const struct cmd_def *d, char *buf, size_t len)
{
	struct line	 l = { buf, len, 0 };

	if (len > 0)
		buf[0] = '\0';
	put(&l, d->name);
	put_words(&l, d->spec);
	return l.at;
}

/* ---------------------------------------------------- COMMAND DOCS */

static void
add_bulk(struct reply *r, const char *s)
{
	reply_bulk(reply_add(r), s, strlen(s));
}

static void
add_lower(struct reply *r, const char *s)
{
	char	 buf[64];
	size_t	 i;

	for (i = 0; s[i] != '\0' && i + 1 < sizeof(buf); i++)
		buf[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
	buf[i] = '\0';
	add_bulk(r, buf);
}

/* A map of one argument, its fields to come; returns it. */
static struct reply *
doc_start(struct reply *list, const char *name, const char *type,
    const char *token)
{
	struct reply	*m = reply_add(list);

	reply_map(m);
	add_bulk(m, "name");
	add_bulk(m, name);
	add_bulk(m, "type");
	add_bulk(m, type);
	if (token != NULL) {
		add_bulk(m, "token");
		add_bulk(m, token);
	}
	return m;
}

/* The flags field, when either is set (status strings, as redis-cli
 * reads them). */
static void
doc_flags(struct reply *m, int optional, int multiple)
{
	struct reply	*f;

	if (!optional && !multiple)
		return;
	add_bulk(m, "flags");
	f = reply_add(m);
	reply_array(f);
	if (optional)
		reply_status(reply_add(f), "optional");
	if (multiple)
		reply_status(reply_add(f), "multiple");
}

/* A map's "arguments": an array to fill. */
static struct reply *
doc_list(struct reply *m)
{
	struct reply	*list;

	add_bulk(m, "arguments");
	list = reply_add(m);
	reply_array(list);
	return list;
}

static void	doc_arg(struct reply *, const struct cmd_arg *, int optional);

/* The alternatives as tokens only: the words each takes are in its own
 * doc, under "subcommands" (the depth of a reply stays within what
 * hiredis 0.14 reads: eight levels). */
static void
doc_subcommand(struct reply *list, const struct cmd_arg *a, int optional)
{
	const struct cmd_alt	*alt;
	struct reply		*m, *alts;

	m = doc_start(list, a->name, "oneof", NULL);
	doc_flags(m, optional, 0);
	alts = doc_list(m);
	for (alt = a->alts; alt->token != NULL; alt++) {
		m = reply_add(alts);
		reply_map(m);
		add_bulk(m, "name");
		add_lower(m, alt->token);
		add_bulk(m, "type");
		add_bulk(m, "pure-token");
		add_bulk(m, "token");
		add_bulk(m, alt->token);
	}
}

/* One argument; optional -1: as declared. */
static void
doc_arg(struct reply *list, const struct cmd_arg *a, int optional)
{
	struct reply	*m;

	if (optional < 0)
		optional = (a->flags & CMD_ARG_OPTIONAL) != 0;
	if (a->type == CMD_ARG_SUBCOMMAND) {
		doc_subcommand(list, a, optional);
		return;
	}
	m = doc_start(list, a->name, a->type == CMD_ARG_INT ? "integer" :
	    "string", a->token);
	doc_flags(m, optional, (a->flags & CMD_ARG_MULTIPLE) != 0);
}

static int
has_nested(const struct cmd_spec *s)
{
	int	 k;

	for (k = 0; k < s->nargs; k++)
		if (s->args[k].flags & CMD_ARG_NESTED)
			return 1;
	return 0;
}

/* The positionals from k on: an optional one followed by more is a block
 * holding them, and the last one the block of the NESTED keyed words. */
static void
doc_positionals(struct reply *list, const struct cmd_spec *s, int k)
{
	struct reply	*m;
	int		 j, last;

	for (; k < s->nargs && is_positional(&s->args[k]); k++) {
		last = k + 1 == s->nargs || !is_positional(&s->args[k + 1]);
		if (!(s->args[k].flags & CMD_ARG_OPTIONAL) ||
		    (last && !has_nested(s))) {
			doc_arg(list, &s->args[k], -1);
			continue;
		}
		m = doc_start(list, s->args[k].name, "block", NULL);
		doc_flags(m, 1, 0);
		list = doc_list(m);
		doc_arg(list, &s->args[k], 0);
		if (!last) {
			doc_positionals(list, s, k + 1);
			return;
		}
		for (j = 0; j < s->nargs; j++)
			if (s->args[j].flags & CMD_ARG_NESTED)
				doc_arg(list, &s->args[j], -1);
		return;
	}
}

static void
doc_arguments(struct reply *out, const struct cmd_spec *s)
{
	struct reply	*m;
	char		 name[128];
	int		 k;

	reply_array(out);
	doc_positionals(out, s, 0);
	for (k = 0; k < s->nargs; k++)
		if (!is_positional(&s->args[k]) &&
		    !(s->args[k].flags & CMD_ARG_NESTED))
			doc_arg(out, &s->args[k], -1);
	for (k = 0; k < s->nopts; k++) {
		if (s->opts[k].flags & CMD_OPT_HIDDEN)
			continue;
		snprintf(name, sizeof(name), "%s=%s", s->opts[k].key,
		    s->opts[k].doc);
		m = doc_start(out, name, "string", NULL);
		doc_flags(m, 1, 0);
	}
}

static void
doc_head(struct reply *doc, const struct cmd_def *d, const char *summary)
{
	reply_map(doc);
	add_bulk(doc, "summary");
	add_bulk(doc, summary);
	add_bulk(doc, "since");
	add_bulk(doc, PACKAGE_VERSION);
	add_bulk(doc, "group");
	add_bulk(doc, (d->flags & CMD_WRITE) ? "ludus-write" : "ludus");
}

/* A SUBCOMMAND's alternatives as Redis documents its subcommands: one doc
 * each, named "command|count", whose summary is its usage. */
static void
doc_subcommands(struct reply *doc, const struct cmd_def *d,
    const struct cmd_arg *a)
{
	const struct cmd_alt	*alt;
	struct reply		*map, *sub;
	struct cmd_spec		 rest;
	char			 name[64], usage[256];
	struct line		 l = { usage, sizeof(usage), 0 };

	add_bulk(doc, "subcommands");
	map = reply_add(doc);
	reply_map(map);
	for (alt = a->alts; alt->token != NULL; alt++) {
		snprintf(name, sizeof(name), "%s|%s", d->name, alt->token);
		add_lower(map, name);
		l.at = 0;
		put(&l, d->name);
		put(&l, " ");
		put(&l, alt->token);
		memset(&rest, 0, sizeof(rest));
		rest.args = alt->rest;
		rest.nargs = alt->rest != NULL;
		put_words(&l, &rest);
		sub = reply_add(map);
		doc_head(sub, d, usage);
		add_bulk(sub, "arguments");
		doc_arguments(reply_add(sub), &rest);
	}
}

void
cmd_args_docs(const struct cmd_def *d, struct reply *doc)
{
	const struct cmd_spec	*s = d->spec;
	char			 usage[CMD_USAGE_MAX];
	int			 k;

	(void)cmd_args_usage(d, usage, sizeof(usage));
	doc_head(doc, d, usage);
	add_bulk(doc, "arguments");
	doc_arguments(reply_add(doc), s);
	for (k = 0; k < s->nargs; k++)
		if (s->args[k].type == CMD_ARG_SUBCOMMAND)
			doc_subcommands(doc, d, &s->args[k]);
}
