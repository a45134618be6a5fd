-- ludus schema, migration 2: multiplayer (seats, server dice, bots,
-- turn deadlines).
--
-- Options of a game (seat keys, server dice, bots, turn deadlines), the
-- pending server roll of a Ludo game, how each stored move was made, and
-- a meta table for values that belong to the database as a whole.  Every
-- new column has a default that means "as before", so the games of
-- migration 1 keep their exact behaviour.

-- Values of the database itself, by name.  "seat-secret" is the key of
-- the keyed hash that protects seat keys: 32 random bytes made on the
-- first secure game and never changed afterwards.
CREATE TABLE meta (
	key		TEXT NOT NULL PRIMARY KEY,
	value		BLOB NOT NULL
) WITHOUT ROWID;

-- seats: 1 when every move needs the player's seat (seats=secure).
-- dice: 1 when the server draws the randomness: dice for Ludo and Snake
-- & Ladder (dice=server), a shuffled deck for DandyLand (deck=shuffled).
-- turn_timeout: seconds a player has for a turn, 0 for no limit.
-- deadline: unix milliseconds at which the server plays the current turn
-- (at once for a bot, after turn_timeout for a person); NULL when it
-- never will (no bot to move, no timeout, game over).
-- roll, roll_player: a Ludo server roll drawn and not yet played.
ALTER TABLE games ADD COLUMN seats INTEGER NOT NULL DEFAULT 0
	CONSTRAINT game_seats CHECK (seats IN (0, 1));
ALTER TABLE games ADD COLUMN dice INTEGER NOT NULL DEFAULT 0
	CONSTRAINT game_dice CHECK (dice IN (0, 1));
ALTER TABLE games ADD COLUMN turn_timeout INTEGER NOT NULL DEFAULT 0
	CONSTRAINT game_turn_timeout CHECK (turn_timeout >= 0);
ALTER TABLE games ADD COLUMN deadline INTEGER
	CONSTRAINT game_deadline CHECK (deadline IS NULL OR deadline >= 0);
ALTER TABLE games ADD COLUMN roll INTEGER
	CONSTRAINT game_roll
	CHECK (roll IS NULL OR kind = 1 AND roll BETWEEN 1 AND 6);
ALTER TABLE games ADD COLUMN roll_player INTEGER
	CONSTRAINT game_roll_player
	CHECK ((roll IS NULL) = (roll_player IS NULL) AND
	    (roll_player IS NULL OR roll_player BETWEEN 0 AND nplayers - 1));

-- The daemon re-arms its timers from this index when it starts.
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- bot: the strategy (0 first, 1 aggressive, 2 expert) of a player the
-- server plays, NULL for a person.  seat: the keyed hash (BLAKE2b, 32
-- bytes) of the player's seat key in a secure game; the key itself is
-- never stored.
ALTER TABLE players ADD COLUMN bot INTEGER
	CONSTRAINT player_bot CHECK (bot IS NULL OR bot BETWEEN 0 AND 2);
ALTER TABLE players ADD COLUMN seat BLOB
	CONSTRAINT player_seat
	CHECK (seat IS NULL OR typeof(seat) = 'blob' AND length(seat) = 32);

-- Who made a stored move: 0 the player (or a client acting for them),
-- 1 a bot, 2 the server for a player whose turn timed out.  A server roll
-- is in the action like any other ("6:1", "4").
ALTER TABLE history ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0
	CONSTRAINT move_automatic CHECK (automatic IN (0, 1, 2));
