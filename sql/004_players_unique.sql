-- ludus schema, migration 4: the same rules in fewer bytes.
--
-- players' UNIQUE (game, name) was a b-tree of its own that held every
-- player's game id and name a second time: about 100 of the 500 bytes a
-- four-player game took on disk, and one more b-tree written by every
-- game created.  The rule is kept, as triggers: the players of a game are
-- the rows of one prefix of the primary key (game, idx), at most 64 of
-- them on one page, so the check is a seek and a short scan.  The error
-- message is the one the index gave.
--
-- SQLite cannot drop a table's UNIQUE constraint, so players is rebuilt
-- as migration 3 rebuilt games (foreign keys are off while migrations
-- run, and checked before the commit): tokens name their parent
-- "players", which is the new table once renamed.

CREATE TABLE players_new (
	game		TEXT NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	idx		INTEGER NOT NULL
			CONSTRAINT player_idx CHECK (idx BETWEEN 0 AND 63),
	name		TEXT NOT NULL
			CONSTRAINT player_name
			CHECK (length(name) BETWEEN 1 AND 50 AND
			    name NOT GLOB '*[^A-Za-z0-9-]*'),
	bot		INTEGER
			CONSTRAINT player_bot
			CHECK (bot IS NULL OR bot BETWEEN 0 AND 2),
	seat		BLOB
			CONSTRAINT player_seat
			CHECK (seat IS NULL OR typeof(seat) = 'blob' AND
			    length(seat) = 32),
	PRIMARY KEY (game, idx)
) WITHOUT ROWID;

INSERT INTO players_new (game, idx, name, bot, seat)
SELECT game, idx, name, bot, seat FROM players;

DROP TABLE players;
ALTER TABLE players_new RENAME TO players;

-- No two players of a game share a name.
CREATE TRIGGER player_name_unique BEFORE INSERT ON players
WHEN EXISTS (SELECT 1 FROM players
    WHERE game = NEW.game AND name = NEW.name)
BEGIN
	SELECT RAISE(ABORT,
	    'UNIQUE constraint failed: players.game, players.name');
END;

CREATE TRIGGER player_name_unique_update
BEFORE UPDATE OF game, idx, name ON players
WHEN EXISTS (SELECT 1 FROM players
    WHERE game = NEW.game AND name = NEW.name AND
	NOT (game = OLD.game AND idx = OLD.idx))
BEGIN
	SELECT RAISE(ABORT,
	    'UNIQUE constraint failed: players.game, players.name');
END;
