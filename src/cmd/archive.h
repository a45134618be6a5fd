/*
 * Archives of games (doc/archive.md): JSON Lines, a header line, one line
 * per game with its rules, players, options and whole history, and an end
 * line with the counts, so that a cut archive is told from a whole one.
 * The format names what the protocol names (a game's kind, players,
 * options, moves as HISTORY gives them), not the store's rows, so that an
 * archive outlives a change of schema and is readable without ludus.
 *
 * Writing: archive_header(), archive_game() per game, archive_end(),
 * each one line (no newline) for the caller to write.  Reading:
 * archive_read() per line; a game line is replayed through the rules, so
 * a line whose history does not replay legally, or whose recorded state
 * is not what its history gives, is refused with why.
 */
#ifndef LUDUS_CMD_ARCHIVE_H
#define LUDUS_CMD_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "store/store.h"

#define ARCHIVE_FORMAT	"ludus-archive"
#define ARCHIVE_VERSION	1

/* A game's history, grown as needed. */
struct archive_moves {
	struct move	*mv;
	int64_t		 n, cap;
};
void	archive_moves_add(struct archive_moves *, const struct move *);
void	archive_moves_free(struct archive_moves *);

/* The lines, malloc'ed, NUL-ended, no newline; NULL if g cannot be
 * written (a kind without rules_json).  secret: the store's seat-hash
 * key, NULL when it has none. */
char	*archive_header(int64_t now, const uint8_t *secret);
char	*archive_game(const struct game *, const struct move *, int64_t n);
char	*archive_end(int64_t games, int64_t moves);

enum archive_kind {
	ARCHIVE_BAD = -1,	/* why says what is wrong */
	ARCHIVE_HEADER = 0,
	ARCHIVE_GAME,
	ARCHIVE_END
};

struct archive_item {
	/* ARCHIVE_HEADER */
	int		 version;
	int		 has_secret;
	uint8_t		 secret[STORE_SECRET_LEN];
	/* ARCHIVE_GAME: the game as its history replays, with its options,
	 * pending roll and deadline; its moves in mv */
	struct game	 g;
	struct archive_moves mv;
	/* ARCHIVE_END */
	int64_t		 games, moves;
};

/* One line (len bytes, no newline), the first of the file (first: only
 * a header is taken) or a later one. */
enum archive_kind archive_read(const char *line, size_t len, int first,
		    struct archive_item *, char *why, size_t whylen);

/* A time given as unix seconds or as an age before now ("30d", "12h",
 * "90m", "45s"): 0, or -1 if it is neither. */
int	archive_time(const char *, int64_t now, int64_t *out);

#endif /* LUDUS_CMD_ARCHIVE_H */
