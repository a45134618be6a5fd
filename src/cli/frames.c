/*
 * Replies and events on one connection (frames.h).  The names are
 * Redis's pub/sub ones as well as ludus's GAME.WATCH ones, so that the CLI
 * stays in step with a server that has either.
 */
#include <strings.h>

#include "cli/frames.h"

/* The first word of an event, and of a subscription confirmation. */
static const char *const event_words[] = {
	"move", "message", "pmessage", "smessage", NULL
};
static const char *const confirm_words[] = {
	"watch", "unwatch", "subscribe", "unsubscribe", "psubscribe",
	"punsubscribe", "ssubscribe", "sunsubscribe", NULL
};

/* The commands whose reply is one confirmation per name. */
static const struct {
	const char	*name;
	int		 bare_is_all;	/* no name: every subscription */
} per_name[] = {
	{ "subscribe", 0 }, { "psubscribe", 0 }, { "ssubscribe", 0 },
	{ "game.unwatch", 1 }, { "unsubscribe", 1 }, { "punsubscribe", 1 },
	{ "sunsubscribe", 1 },
};

static int
word_in(const struct reply *w, const char *const *words)
{
	size_t	 i;

	if (w->type != REPLY_BULK && w->type != REPLY_STATUS)
		return 0;
	for (i = 0; words[i] != NULL; i++)
		if (strcasecmp(w->str, words[i]) == 0)
			return 1;
	return 0;
}

static int
starts_with(const struct reply *r, const char *const *words)
{
	return (r->type == REPLY_ARRAY || r->type == REPLY_PUSH) && r->n > 0 &&
	    word_in(&r->elem[0], words);
}

/* [kind, name, count]: a confirmation, in RESP2 or RESP3. */
static int
is_confirmation(const struct reply *r)
{
	return starts_with(r, confirm_words) && r->n == 3 &&
	    r->elem[2].type == REPLY_INT;
}

void
frames_sent(struct frames *f, int argc, char **argv)
{
	size_t	 i;

	f->owed = 1;
	for (i = 0; i < sizeof per_name / sizeof per_name[0]; i++) {
		if (strcasecmp(argv[0], per_name[i].name) != 0)
			continue;
		if (argc > 1)
			f->owed = argc - 1;
		else if (per_name[i].bare_is_all)
			f->owed = -1;
		break;
	}
}

enum frame_kind
frames_classify(struct frames *f, const struct reply *r)
{
	int	 confirm = is_confirmation(r);

	if (r->type == REPLY_PUSH && !confirm)
		return FRAME_EVENT;
	if (r->type == REPLY_ARRAY && f->subs > 0 &&
	    starts_with(r, event_words))
		return FRAME_EVENT;
	/* Nothing is owed: not a reply to anything, show it as it comes. */
	if (f->owed == 0)
		return FRAME_EVENT;
	if (confirm)
		f->subs = r->elem[2].integer;
	if (r->type == REPLY_ERROR)
		f->owed = 0;
	else if (f->owed == -1)
		f->owed = confirm && f->subs > 0 ? -1 : 0;
	else
		f->owed--;
	return FRAME_REPLY;
}

int
frames_owed(const struct frames *f)
{
	return f->owed != 0;
}
