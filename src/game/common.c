/*
 * What the kinds share, apart from the table (so that a kind's file
 * needs nothing that needs the kinds): seat names and the dice lines.
 */
#include "game/game.h"
#include "util/reply.h"
#include "util/util.h"

void
game_seat_name(char *buf, size_t len, int i)
{
	struct strbuf	 b;

	strbuf_init(&b, buf, len);
	strbuf_addc(&b, 'P');
	strbuf_addint(&b, (int64_t)i + 1);
}

const char *
game_seat_or_none(char *buf, size_t len, int i, int n)
{
	if (i < 0 || i >= n)
		str_copy(buf, len, "NONE");
	else
		game_seat_name(buf, len, i);
	return buf;
}

/* ------------------------------------------------------------- dice */

int
game_server_dice(const struct game *g)
{
	return g->opts.server_dice;
}

void
game_info_dice(const struct game *g, struct reply *out)
{
	(void)g;
	reply_add_pair(out, "dice", "%s", "server");
}
