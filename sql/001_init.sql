-- ludus schema, migration 1.
--
-- One row per game in games, the per-player pieces in tokens, Snake &
-- Ladder jumps in jumps and the stored moves in history.  The store loads
-- a game with one lookup per table and a turn rewrites only the games row,
-- the token rows that moved and one new history row.
--
-- sql2c.sh appends "PRAGMA user_version = N" to migration N, and the store
-- runs each migration in its own transaction.

-- games is an ordinary rowid table: a DandyLand row carries its deck (up
-- to 1024 cards), too large for a WITHOUT ROWID b-tree whose interior
-- pages would hold whole rows.
--
-- turn and winner are player indexes, -1 for none.  aux is the one
-- per-kind counter that changes during play: Ludo sixes rolled in a row,
-- Snake & Ladder "started" (0/1), DandyLand cards drawn.  The rules
-- (Ludo preset and flags; DandyLand board and deck) never change after
-- creation and are NULL for the other kinds.
CREATE TABLE games (
	id		TEXT NOT NULL PRIMARY KEY
			CONSTRAINT game_id
			CHECK (length(id) BETWEEN 1 AND 50 AND
			    id NOT GLOB '*[^a-z0-9-]*'),
	kind		INTEGER NOT NULL
			CONSTRAINT game_kind CHECK (kind IN (1, 2, 3)),
	nplayers	INTEGER NOT NULL
			CONSTRAINT game_nplayers CHECK (nplayers >= 1),
	turn		INTEGER NOT NULL
			CONSTRAINT game_turn
			CHECK (turn BETWEEN -1 AND nplayers - 1),
	winner		INTEGER NOT NULL
			CONSTRAINT game_winner
			CHECK (winner BETWEEN -1 AND nplayers - 1),
	aux		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT game_aux CHECK (aux >= 0),
	moves		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT game_moves CHECK (moves >= 0),
	created		INTEGER NOT NULL,
	updated		INTEGER NOT NULL,
	ludo_preset	INTEGER,
	six_bonus	INTEGER,
	capture_bonus	INTEGER,
	three_sixes	INTEGER,
	board		TEXT,
	has_deck	INTEGER,
	deck		TEXT,
	-- The per-kind columns.  A CHECK that yields NULL passes, hence the
	-- coalesce(); named constraints keep the error messages short.
	CONSTRAINT ludo_game CHECK (kind <> 1 OR coalesce(
		nplayers BETWEEN 2 AND 4 AND
		ludo_preset IN (0, 1, 2) AND six_bonus IN (0, 1) AND
		capture_bonus IN (0, 1) AND three_sixes IN (0, 1) AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, 0)),
	CONSTRAINT snl_game CHECK (kind <> 2 OR coalesce(
		nplayers BETWEEN 1 AND 64 AND aux IN (0, 1) AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, 0)),
	CONSTRAINT dandy_game CHECK (kind <> 3 OR coalesce(
		nplayers BETWEEN 1 AND 8 AND winner = -1 AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		typeof(board) = 'text' AND length(board) BETWEEN 1 AND 36 AND
		board NOT GLOB '*[^a-i]*' AND
		(has_deck = 0 AND deck IS NULL OR
		 has_deck = 1 AND typeof(deck) = 'text' AND
		 length(deck) <= 1024 AND deck NOT GLOB '*[^a-i1-9]*' AND
		 aux <= length(deck)), 0))
);

-- GAMES <kind> AFTER id LIMIT n walks this index; counting per kind too.
CREATE INDEX games_kind ON games (kind, id);

-- Players in turn order.  Ludo keeps its player ids here; Snake & Ladder
-- and DandyLand players are rows named P1..Pn so that every token row
-- has a player to belong to.
CREATE TABLE players (
	game		TEXT NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	idx		INTEGER NOT NULL
			CONSTRAINT player_idx CHECK (idx BETWEEN 0 AND 63),
	name		TEXT NOT NULL
			CONSTRAINT player_name
			CHECK (length(name) BETWEEN 1 AND 50 AND
			    name NOT GLOB '*[^A-Za-z0-9-]*'),
	PRIMARY KEY (game, idx),
	UNIQUE (game, name)
) WITHOUT ROWID;

-- The pieces: Ludo tokens 1-4 per player (relative position, -1 in the
-- yard, up to 58 finished); one token 0 per Snake & Ladder player (0 off
-- the board, 1-100) and per DandyLand player (-1 off the board, 0-35,
-- with its points).
CREATE TABLE tokens (
	game		TEXT NOT NULL,
	player		INTEGER NOT NULL,
	token		INTEGER NOT NULL
			CONSTRAINT token_number CHECK (token BETWEEN 0 AND 4),
	pos		INTEGER NOT NULL
			CONSTRAINT token_pos CHECK (pos BETWEEN -1 AND 100),
	points		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT token_points CHECK (points >= 0),
	PRIMARY KEY (game, player, token),
	FOREIGN KEY (game, player) REFERENCES players (game, idx)
	    ON DELETE CASCADE
) WITHOUT ROWID;

-- Snake & Ladder: a snake when target < cell, a ladder when target > cell.
CREATE TABLE jumps (
	game		TEXT NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	cell		INTEGER NOT NULL
			CONSTRAINT jump_cell CHECK (cell BETWEEN 1 AND 99),
	target		INTEGER NOT NULL
			CONSTRAINT jump_target
			CHECK (target BETWEEN 1 AND 100 AND target <> cell),
	PRIMARY KEY (game, cell)
) WITHOUT ROWID;

-- Every stored move, numbered from 1 per game.  player is the Ludo player
-- id or P<i>; action "6:1" (dice:token), "4" (roll) or "a" (card); result
-- the status string the move returned.
CREATE TABLE history (
	game		TEXT NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL
			CONSTRAINT move_seq CHECK (seq >= 1),
	player		TEXT NOT NULL
			CONSTRAINT move_player
			CHECK (length(player) BETWEEN 1 AND 50),
	action		TEXT NOT NULL
			CONSTRAINT move_action
			CHECK (length(action) BETWEEN 1 AND 15),
	result		TEXT NOT NULL
			CONSTRAINT move_result
			CHECK (length(result) BETWEEN 1 AND 63),
	at		INTEGER NOT NULL,
	PRIMARY KEY (game, seq)
) WITHOUT ROWID;
