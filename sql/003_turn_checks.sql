-- ludus schema, migration 3: CHECKs that cost a turn nothing.
--
-- Two kinds of CHECK made every turn pay for work that protects nothing
-- the turn changes:
--
-- * An IN list of more than two constants: SQLite tests it by building
--   an ephemeral index of the list each time the statement runs, a fresh
--   b-tree with two zero-filled 4 KiB pages.  history's move_automatic
--   did that on every stored move, a fifth of a daemon turn's CPU (and
--   games' game_kind and ludo_game on every game created).  They are
--   spelled as equalities here, which mean the same: a value equal to
--   none of them (2.5, '1x') is refused as before.
--
-- * On UPDATE SQLite checks every CHECK that names an updated column,
--   the whole constraint.  snl_game and dandy_game named aux or winner,
--   so each turn of those kinds tested the fixed rules again, DandyLand's
--   GLOBs over its board and a deck of up to 1024 cards included.  Each
--   is split into the rules (snl_game, dandy_game: columns written only
--   when the game is created) and what play may change (snl_play,
--   dandy_play); together they allow exactly the rows the old one did.
--
-- SQLite cannot alter a CHECK, so both tables are rebuilt, as its
-- documentation's procedure for other schema changes does: a new table,
-- the rows copied, the old one dropped, the new one renamed, its indexes
-- made again.  The store runs migrations with foreign keys off (dropping
-- games would otherwise cascade into its children) and checks them with
-- PRAGMA foreign_key_check before committing.  players, tokens and jumps
-- name their parent "games", which is the new table once renamed.

CREATE TABLE games_new (
	id		TEXT NOT NULL PRIMARY KEY
			CONSTRAINT game_id
			CHECK (length(id) BETWEEN 1 AND 50 AND
			    id NOT GLOB '*[^a-z0-9-]*'),
	kind		INTEGER NOT NULL
			CONSTRAINT game_kind
			CHECK (kind = 1 OR kind = 2 OR kind = 3),
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
	seats		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT game_seats CHECK (seats IN (0, 1)),
	dice		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT game_dice CHECK (dice IN (0, 1)),
	turn_timeout	INTEGER NOT NULL DEFAULT 0
			CONSTRAINT game_turn_timeout CHECK (turn_timeout >= 0),
	deadline	INTEGER
			CONSTRAINT game_deadline
			CHECK (deadline IS NULL OR deadline >= 0),
	roll		INTEGER
			CONSTRAINT game_roll
			CHECK (roll IS NULL OR
			    kind = 1 AND roll BETWEEN 1 AND 6),
	roll_player	INTEGER
			CONSTRAINT game_roll_player
			CHECK ((roll IS NULL) = (roll_player IS NULL) AND
			    (roll_player IS NULL OR
			    roll_player BETWEEN 0 AND nplayers - 1)),
	-- The per-kind columns.  A CHECK that yields NULL passes, hence the
	-- coalesce(); named constraints keep the error messages short.
	-- Only the *_play ones name a column that a turn updates.
	CONSTRAINT ludo_game CHECK (kind <> 1 OR coalesce(
		nplayers BETWEEN 2 AND 4 AND
		(ludo_preset = 0 OR ludo_preset = 1 OR ludo_preset = 2) AND
		six_bonus IN (0, 1) AND capture_bonus IN (0, 1) AND
		three_sixes IN (0, 1) AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, 0)),
	CONSTRAINT snl_game CHECK (kind <> 2 OR coalesce(
		nplayers BETWEEN 1 AND 64 AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		board IS NULL AND has_deck IS NULL AND deck IS NULL, 0)),
	CONSTRAINT snl_play CHECK (kind <> 2 OR aux IN (0, 1)),
	CONSTRAINT dandy_game CHECK (kind <> 3 OR coalesce(
		nplayers BETWEEN 1 AND 8 AND
		ludo_preset IS NULL AND six_bonus IS NULL AND
		capture_bonus IS NULL AND three_sixes IS NULL AND
		typeof(board) = 'text' AND length(board) BETWEEN 1 AND 36 AND
		board NOT GLOB '*[^a-i]*' AND
		(has_deck = 0 AND deck IS NULL OR
		 has_deck = 1 AND typeof(deck) = 'text' AND
		 length(deck) <= 1024 AND deck NOT GLOB '*[^a-i1-9]*'), 0)),
	-- dandy_game keeps the deck to ASCII, so its length in bytes (a
	-- blob's length, known without reading the text) is its length
	-- in cards.
	CONSTRAINT dandy_play CHECK (kind <> 3 OR coalesce(
		winner = -1 AND
		(has_deck = 0 OR aux <= length(CAST(deck AS BLOB))), 0))
);

INSERT INTO games_new (id, kind, nplayers, turn, winner, aux, moves,
    created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,
    board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,
    roll_player)
SELECT id, kind, nplayers, turn, winner, aux, moves, created, updated,
    ludo_preset, six_bonus, capture_bonus, three_sixes, board, has_deck,
    deck, seats, dice, turn_timeout, deadline, roll, roll_player
FROM games ORDER BY rowid;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

-- As in migrations 1 and 2.
CREATE INDEX games_kind ON games (kind, id);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE history_new (
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
	automatic	INTEGER NOT NULL DEFAULT 0
			CONSTRAINT move_automatic
			CHECK (automatic = 0 OR automatic = 1 OR
			    automatic = 2),
	PRIMARY KEY (game, seq)
) WITHOUT ROWID;

INSERT INTO history_new (game, seq, player, action, result, at, automatic)
SELECT game, seq, player, action, result, at, automatic FROM history;

DROP TABLE history;
ALTER TABLE history_new RENAME TO history;
