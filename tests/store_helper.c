/*
 * See store_helper.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "game.h"
#include "store_helper.h"

uint32_t
xorshift32(uint32_t *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	return *seed;
}

void
tmpdir_make(struct tmpdir *t, const char *name)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/%s.XXXXXX", name);
	if (mkdtemp(t->dir) == NULL)
		fail_msg("mkdtemp failed");
	snprintf(t->path, sizeof(t->path), "%s/ludus.db", t->dir);
}

void
db_remove(const char *path)
{
	const char	*suffix[] = { "", "-wal", "-shm", "-journal" };
	char		 p[200];
	size_t		 i;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, suffix[i]);
		unlink(p);
	}
}

void
tmpdir_remove(struct tmpdir *t)
{
	db_remove(t->path);
	rmdir(t->dir);
}

int64_t
sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*stmt;
	int64_t		 v;

	assert_non_null(db);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static void
player_name(const struct game *g, int i, char *buf, size_t len)
{
	if (g->kind == KIND_LUDO)
		snprintf(buf, len, "%s", g->players[i]);
	else
		snprintf(buf, len, "P%d", i + 1);
}

int
random_move(const struct game *g, struct game *out, struct move *mv,
    uint32_t *seed)
{
	static const char	 cards[] = "abcdefghi123456789";
	struct snl_result	 sr;
	struct dandy_result	 dr;
	enum ludo_result	 lr;
	int			 legal[LUDO_TOKENS], n, dice, tok, card, who;

	memcpy(out, g, sizeof(*out));
	memset(mv, 0, sizeof(*mv));
	switch (g->kind) {
	case KIND_LUDO:
		if (g->s.ludo.winner != -1)
			return 0;
		who = g->s.ludo.turn;
		dice = 1 + (int)(xorshift32(seed) % 6);
		n = ludo_legal(&g->s.ludo, dice, legal);
		tok = n > 0 ? legal[xorshift32(seed) % (uint32_t)n] : 0;
		lr = ludo_play(&g->s.ludo, who, dice, tok, &out->s.ludo);
		assert_true(ludo_result_stored(lr));
		snprintf(mv->action, sizeof(mv->action), "%d:%d", dice, tok);
		snprintf(mv->result, sizeof(mv->result), "%s",
		    ludo_result_str(lr));
		break;
	case KIND_SNL:
		if (g->s.snl.winner != -1)
			return 0;
		dice = 1 + (int)(xorshift32(seed) % 6);
		assert_int_equal(snl_roll(&g->s.snl, dice, &out->s.snl, &sr),
		    0);
		who = sr.player;
		snprintf(mv->action, sizeof(mv->action), "%d", dice);
		snprintf(mv->result, sizeof(mv->result), "P%d %d",
		    sr.player + 1, sr.pos);
		break;
	default:
		if (g->s.dandy.turn == -1)
			return 0;
		card = g->s.dandy.has_deck ? 0 :
		    cards[xorshift32(seed) % (sizeof(cards) - 1)];
		assert_int_equal(dandy_draw(&g->s.dandy, card, &out->s.dandy,
		    &dr), 0);
		who = dr.player;
		snprintf(mv->action, sizeof(mv->action), "%c",
		    card != 0 ? card : g->s.dandy.deck[g->s.dandy.drawn]);
		snprintf(mv->result, sizeof(mv->result), "P%d %d %d",
		    dr.player + 1, dr.pos + 1, dr.points);
		break;
	}
	out->moves = g->moves + 1;
	out->updated = g->updated + 1;
	mv->seq = out->moves;
	mv->at = out->updated;
	player_name(g, who, mv->player, sizeof(mv->player));
	return 1;
}

int
count_move(void *arg, const struct move *mv)
{
	int64_t	*n = arg;

	assert_int_equal(mv->seq, ++*n);
	return 0;
}

void
game_base(struct game *g, const char *id, enum game_kind kind)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "%s", id);
	g->kind = kind;
	g->created = 1700000000;
	g->updated = 1700000000;
}

void
make_ludo(struct game *g, const char *id, const char *preset, int n)
{
	struct ludo_rules	 rules;
	int			 i;

	game_base(g, id, KIND_LUDO);
	for (i = 0; i < n; i++)
		snprintf(g->players[i], sizeof(g->players[i]), "player-%d", i);
	assert_int_equal(ludo_rules_preset(&rules, preset), 0);
	assert_int_equal(ludo_init(&g->s.ludo, &rules, n), 0);
}
