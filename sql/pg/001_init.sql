-- ludus schema for PostgreSQL, migration 1: the same tables and
-- constraints as the SQLite schema after its migration 3 (sql/00*.sql),
-- plus what several ludusd nodes sharing one database need.
--
-- Every table that holds a game's rows has the game id as the first
-- column of its primary key, so that the same SQL can be distributed by
-- game id (Citus, or CockroachDB/YugabyteDB, which speak this protocol).
-- The store runs each migration in its own transaction, holding an
-- advisory lock so that nodes starting at once migrate one at a time;
-- sql2c.sh appends the statement that records the version in
-- ludus_schema, which the store creates before the first one.

-- turn and winner are player indexes, -1 for none; aux is the one
-- per-kind counter that changes in play (Ludo sixes in a row, Snake &
-- Ladder "started", DandyLand cards drawn); the rules (Ludo preset and
-- flags, DandyLand board and deck) are written once, NULL for the other
-- kinds.  The options, as in the SQLite schema's migration 2: seats,
-- dice, turn_timeout, deadline (unix ms at which the server plays the
-- current turn, NULL for never), roll and roll_player (a Ludo server
-- roll not yet played).
--
-- stamp is the row's version: every write of the game (creation, turn,
-- setup, pending roll) puts a new one there, unique to that write, and a
-- write is made only WHERE the row still has the stamp (and move count)
-- its snapshot was read with.  The move count alone would not do: two
-- nodes may each compute a move N+1 of the same game, and a second move
-- computed on top of a first that never committed expects N+1 too.
CREATE TABLE games (
	id		text NOT NULL PRIMARY KEY
			CONSTRAINT game_id CHECK (id ~ '^[a-z0-9-]{1,50}$'),
	kind		integer NOT NULL
			CONSTRAINT game_kind CHECK (kind IN (1, 2, 3)),
	nplayers	integer NOT NULL
			CONSTRAINT game_nplayers CHECK (nplayers >= 1),
	turn		integer NOT NULL
			CONSTRAINT game_turn
			CHECK (turn BETWEEN -1 AND nplayers - 1),
	winner		integer NOT NULL
			CONSTRAINT game_winner
			CHECK (winner BETWEEN -1 AND nplayers - 1),
	aux		bigint NOT NULL DEFAULT 0
			CONSTRAINT game_aux CHECK (aux >= 0),
	moves		bigint NOT NULL DEFAULT 0
			CONSTRAINT game_moves CHECK (moves >= 0),
	created		bigint NOT NULL,
	updated		bigint NOT NULL,
	ludo_preset	integer,
	six_bonus	integer,
	capture_bonus	integer,
	three_sixes	integer,
	board		text,
	has_deck	integer,
	deck		text,
	seats		integer NOT NULL DEFAULT 0
			CONSTRAINT game_seats CHECK (seats IN (0, 1)),
	dice		integer NOT NULL DEFAULT 0
			CONSTRAINT game_dice CHECK (dice IN (0, 1)),
	turn_timeout	bigint NOT NULL DEFAULT 0
			CONSTRAINT game_turn_timeout CHECK (turn_timeout >= 0),
	deadline	bigint
			CONSTRAINT game_deadline
			CHECK (deadline IS NULL OR deadline >= 0),
	roll		integer
			CONSTRAINT game_roll
			CHECK (roll IS NULL OR kind = 1 AND roll BETWEEN 1 AND 6),
	roll_player	integer
			CONSTRAINT game_roll_player
			CHECK ((roll IS NULL) = (roll_player IS NULL) AND
			    (roll_player IS NULL OR
			    roll_player BETWEEN 0 AND nplayers - 1)),
	stamp		bigint NOT NULL,
	-- The per-kind columns, as in SQLite: a CHECK that yields NULL
	-- passes, hence the coalesce().
	CONSTRAINT ludo_game CHECK (kind <> 1 OR coalesce(
		nplayers BETWEEN 2 AND 4 AND
		ludo_preset IN (0, 1, 2) AND six_bonus IN (0, 1) AND
		capture_bonus IN (0, 1) AND three_sixes IN (0, 1) AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, false)),
	CONSTRAINT snl_game CHECK (kind <> 2 OR coalesce(
		nplayers BETWEEN 1 AND 64 AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, false)),
	CONSTRAINT snl_play CHECK (kind <> 2 OR aux IN (0, 1)),
	CONSTRAINT dandy_game CHECK (kind <> 3 OR coalesce(
		nplayers BETWEEN 1 AND 8 AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		board ~ '^[a-i]{1,36}$' AND
		(has_deck = 0 AND deck IS NULL OR
		 has_deck = 1 AND length(deck) <= 1024 AND
		 deck ~ '^[a-i1-9]*$'), false)),
	CONSTRAINT dandy_play CHECK (kind <> 3 OR coalesce(
		winner = -1 AND
		(has_deck = 0 OR aux <= octet_length(deck)), false))
);

-- GAMES <kind> AFTER id LIMIT n walks this index; counting per kind too.
CREATE INDEX games_kind ON games (kind, id);
-- The daemon re-arms its timers from this index, and every node looks
-- here for deadlines that the node which set them did not play.
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- Players in turn order (Ludo's ids, or P1..Pn); bot is the strategy of
-- a player the server plays, seat the keyed hash of a secure seat's key.
CREATE TABLE players (
	game		text NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	idx		integer NOT NULL
			CONSTRAINT player_idx CHECK (idx BETWEEN 0 AND 63),
	name		text NOT NULL
			CONSTRAINT player_name
			CHECK (name ~ '^[A-Za-z0-9-]{1,50}$'),
	bot		integer
			CONSTRAINT player_bot
			CHECK (bot IS NULL OR bot BETWEEN 0 AND 2),
	seat		bytea
			CONSTRAINT player_seat
			CHECK (seat IS NULL OR octet_length(seat) = 32),
	PRIMARY KEY (game, idx),
	UNIQUE (game, name)
);

-- The pieces: Ludo tokens 1-4 per player, one token 0 per Snake &
-- Ladder and DandyLand player.
CREATE TABLE tokens (
	game		text NOT NULL,
	player		integer NOT NULL,
	token		integer NOT NULL
			CONSTRAINT token_number CHECK (token BETWEEN 0 AND 4),
	pos		integer NOT NULL
			CONSTRAINT token_pos CHECK (pos BETWEEN -1 AND 100),
	points		integer NOT NULL DEFAULT 0
			CONSTRAINT token_points CHECK (points >= 0),
	PRIMARY KEY (game, player, token),
	FOREIGN KEY (game, player) REFERENCES players (game, idx)
	    ON DELETE CASCADE
);

-- Snake & Ladder: a snake when target < cell, a ladder when target > cell.
CREATE TABLE jumps (
	game		text NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	cell		integer NOT NULL
			CONSTRAINT jump_cell CHECK (cell BETWEEN 1 AND 99),
	target		integer NOT NULL
			CONSTRAINT jump_target
			CHECK (target BETWEEN 1 AND 100 AND target <> cell),
	PRIMARY KEY (game, cell)
);

-- Every stored move, numbered from 1 per game: the source of truth of
-- what happened, which every node reads to tell its watchers of moves
-- made through the others.  automatic: 0 the player, 1 a bot, 2 the
-- server for a player out of time.  txn is the group commit that wrote
-- the row (see ludus_nodes): a node whose connection broke in the middle
-- of a COMMIT reads it to find out which of its turns are stored.
CREATE TABLE history (
	game		text NOT NULL
			REFERENCES games (id) ON DELETE CASCADE,
	seq		bigint NOT NULL
			CONSTRAINT move_seq CHECK (seq >= 1),
	player		text NOT NULL
			CONSTRAINT move_player
			CHECK (length(player) BETWEEN 1 AND 50),
	action		text NOT NULL
			CONSTRAINT move_action
			CHECK (length(action) BETWEEN 1 AND 15),
	result		text NOT NULL
			CONSTRAINT move_result
			CHECK (length(result) BETWEEN 1 AND 63),
	at		bigint NOT NULL,
	automatic	integer NOT NULL DEFAULT 0
			CONSTRAINT move_automatic CHECK (automatic IN (0, 1, 2)),
	txn		bigint NOT NULL DEFAULT 0,
	PRIMARY KEY (game, seq)
);

-- Values of the database itself ("seat-secret": the key of the seat
-- hashes, made once).
CREATE TABLE meta (
	key		text NOT NULL PRIMARY KEY,
	value		bytea NOT NULL
);

-- One row per running node (a ludusd, or a ludus on this database),
-- named by a random id it draws when it connects.  Every group commit
-- ends by writing its own number here, in the same transaction: after a
-- connection broke in the middle of a COMMIT, the row, read with FOR
-- UPDATE (which waits for the old session's transaction to end), says
-- whether that commit happened.  seen is when the node last committed;
-- rows of nodes gone for a day are removed when a node connects.
CREATE TABLE ludus_nodes (
	node		bigint NOT NULL PRIMARY KEY,
	txn		bigint NOT NULL DEFAULT 0,
	seen		timestamptz NOT NULL DEFAULT now()
);
