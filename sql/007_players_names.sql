-- ludus schema, migration 7: players' names unique per game at a cost
-- that no longer grows with the square of the players.
--
-- Migration 4's triggers scan the game's players before each insert: a
-- game of 64 players costs 2,016 row visits to create, twice the time
-- of the UNIQUE (game, name) index it replaced, which in turn held 100
-- of the 480 bytes a four-player game took on disk.  Both, split at the
-- fourth seat:
--
--  - the index holds only the players from the fifth seat on (idx >= 4),
--    so a game of up to four players takes no byte of it and a larger
--    one checks those seats against each other with one b-tree seek;
--  - the triggers check the rest: a player from the fifth seat on
--    against the first four (a seek and at most four rows of the
--    primary key), one of the first four against every player of its
--    game (at most four such rows a game, each a scan of one game).
--
-- The rule and its message are migration 4's, and migration 1's index
-- gave that message too: "UNIQUE constraint failed: players.game,
-- players.name", whichever of the two refuses the row.

DROP TRIGGER player_name_unique;
DROP TRIGGER player_name_unique_update;

CREATE UNIQUE INDEX players_name ON players (game, name) WHERE idx >= 4;

-- idx is 0-63 (player_idx): below 64 is every player of the game.
CREATE TRIGGER player_name_unique BEFORE INSERT ON players
WHEN EXISTS (SELECT 1 FROM players
    WHERE game = NEW.game AND
	idx < (CASE WHEN NEW.idx < 4 THEN 64 ELSE 4 END) AND
	name = NEW.name)
BEGIN
	SELECT RAISE(ABORT,
	    'UNIQUE constraint failed: players.game, players.name');
END;

CREATE TRIGGER player_name_unique_update
BEFORE UPDATE OF game, idx, name ON players
WHEN EXISTS (SELECT 1 FROM players
    WHERE game = NEW.game AND
	idx < (CASE WHEN NEW.idx < 4 THEN 64 ELSE 4 END) AND
	name = NEW.name AND NOT (game = OLD.game AND idx = OLD.idx))
BEGIN
	SELECT RAISE(ABORT,
	    'UNIQUE constraint failed: players.game, players.name');
END;
