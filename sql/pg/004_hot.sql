-- ludus schema for PostgreSQL, migration 4: a turn updates its games row
-- in place, and checks only what it can change.
--
-- PostgreSQL writes an updated row without new index entries (a
-- heap-only tuple, on the same page) only when no column that an index
-- reads has changed.  The index of the finished games (migration 2) read
-- turn and updated, which every turn changes: every turn then wrote an
-- entry into each of the table's indexes, and left one behind for vacuum.
-- The finished games are indexed by a column of their own instead, which
-- the server computes: the time of the last move of a game that is over,
-- NULL while it is in play, so that a turn of a game in play changes no
-- indexed column.  (Adding it rewrites the table once.)
ALTER TABLE games ADD COLUMN finished bigint
    GENERATED ALWAYS AS (CASE WHEN turn = -1 THEN updated END) STORED;
DROP INDEX games_finished;
CREATE INDEX games_finished ON games (finished, id)
    WHERE finished IS NOT NULL;

-- A table's CHECK constraints are evaluated on every UPDATE of a row,
-- whatever it changes: the game id's, the board's and the deck's
-- patterns (a deck of up to 1,024 cards) ran on every turn, for columns
-- only a create writes.  A domain's check runs when a value is stored in
-- the column, so these patterns move to domains and are checked once;
-- the kinds' constraints keep what ties the columns together.
CREATE DOMAIN game_id AS text CHECK (VALUE ~ '^[a-z0-9-]{1,50}$');
CREATE DOMAIN game_board AS text CHECK (VALUE ~ '^[a-i]{1,36}$');
CREATE DOMAIN game_deck AS text
    CHECK (length(VALUE) <= 1024 AND VALUE ~ '^[a-i1-9]*$');
ALTER TABLE games DROP CONSTRAINT game_id,
    DROP CONSTRAINT dandy_game,
    ALTER COLUMN id TYPE game_id,
    ALTER COLUMN board TYPE game_board,
    ALTER COLUMN deck TYPE game_deck,
    ADD CONSTRAINT dandy_game CHECK (kind <> 3 OR coalesce(
	nplayers BETWEEN 1 AND 8 AND
	ludo_preset IS NULL AND six_bonus IS NULL AND
	capture_bonus IS NULL AND three_sixes IS NULL AND
	board IS NOT NULL AND
	(has_deck = 0 AND deck IS NULL OR has_deck = 1 AND deck IS NOT NULL),
	false));
