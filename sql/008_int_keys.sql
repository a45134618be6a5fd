-- ludus schema, migration 8: the game id once, an integer in its rows.
--
-- Every child of games (players, tokens, jumps, history, game_accounts)
-- carried the text game id, up to 50 bytes, in every row and again in
-- every index entry of the row: a history row of 30 bytes of its own
-- began with a key as long, and each table's b-tree held fewer rows a
-- page.  The id is now stored once, in games (still UNIQUE: clients name
-- a game by it), and the children are keyed by games.gid, the rowid, an
-- integer SQLite stores in 8 bytes or fewer (1-3 for the first 8 million
-- games): a smaller file, shallower b-trees, shorter key compares.  The
-- primary keys are the same ((game, seq), (game, player, token), ...),
-- on the integer.  The store learns a game's gid where it reads or
-- writes its games row and keeps it for the rest of that transaction, so
-- that a turn looks nothing more up.
--
-- PostgreSQL keeps the text id in every table: it is the distribution
-- column there (sql/pg/001_init.sql).
--
-- Every table is rebuilt as migration 3 rebuilt games (foreign keys are
-- off while migrations run, and checked before the commit): the new
-- tables, the rows copied in key order (gid is the old rowid, so games
-- keep their order of creation), the old tables dropped, the new ones
-- renamed, their indexes and triggers made again.  Each new table names
-- its parent by its final name, the new table once renamed.

CREATE TABLE games_new (
	gid		INTEGER PRIMARY KEY,
	id		TEXT NOT NULL UNIQUE
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
	-- The per-kind columns, as in migration 3: the *_game ones name
	-- only columns written when the game is created, the *_play ones
	-- what a turn updates.
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
	CONSTRAINT dandy_play CHECK (kind <> 3 OR coalesce(
		winner = -1 AND
		(has_deck = 0 OR aux <= length(CAST(deck AS BLOB))), 0))
);

INSERT INTO games_new (gid, id, kind, nplayers, turn, winner, aux, moves,
    created, updated, ludo_preset, six_bonus, capture_bonus, three_sixes,
    board, has_deck, deck, seats, dice, turn_timeout, deadline, roll,
    roll_player)
SELECT rowid, id, kind, nplayers, turn, winner, aux, moves, created,
    updated, ludo_preset, six_bonus, capture_bonus, three_sixes, board,
    has_deck, deck, seats, dice, turn_timeout, deadline, roll, roll_player
FROM games ORDER BY rowid;

CREATE TABLE players_new (
	game		INTEGER NOT NULL
			REFERENCES games (gid) ON DELETE CASCADE,
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
SELECT g.gid, p.idx, p.name, p.bot, p.seat
FROM players p JOIN games_new g ON g.id = p.game ORDER BY g.gid, p.idx;

-- A game's tokens belong to its players, and go with them.
CREATE TABLE tokens_new (
	game		INTEGER NOT NULL,
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

INSERT INTO tokens_new (game, player, token, pos, points)
SELECT g.gid, t.player, t.token, t.pos, t.points
FROM tokens t JOIN games_new g ON g.id = t.game
ORDER BY g.gid, t.player, t.token;

CREATE TABLE jumps_new (
	game		INTEGER NOT NULL
			REFERENCES games (gid) ON DELETE CASCADE,
	cell		INTEGER NOT NULL
			CONSTRAINT jump_cell CHECK (cell BETWEEN 1 AND 99),
	target		INTEGER NOT NULL
			CONSTRAINT jump_target
			CHECK (target BETWEEN 1 AND 100 AND target <> cell),
	PRIMARY KEY (game, cell)
) WITHOUT ROWID;

INSERT INTO jumps_new (game, cell, target)
SELECT g.gid, j.cell, j.target
FROM jumps j JOIN games_new g ON g.id = j.game ORDER BY g.gid, j.cell;

CREATE TABLE history_new (
	game		INTEGER NOT NULL
			REFERENCES games (gid) ON DELETE CASCADE,
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
SELECT g.gid, h.seq, h.player, h.action, h.result, h.at, h.automatic
FROM history h JOIN games_new g ON g.id = h.game ORDER BY g.gid, h.seq;

-- The seats accounts hold, as in migration 6.
CREATE TABLE game_accounts_new (
	game		INTEGER NOT NULL,
	idx		INTEGER NOT NULL,
	account		TEXT NOT NULL REFERENCES accounts (name),
	PRIMARY KEY (game, idx),
	FOREIGN KEY (game, idx) REFERENCES players (game, idx)
	    ON DELETE CASCADE
) WITHOUT ROWID;

INSERT INTO game_accounts_new (game, idx, account)
SELECT g.gid, a.idx, a.account
FROM game_accounts a JOIN games_new g ON g.id = a.game ORDER BY g.gid, a.idx;

-- Children first: their indexes and triggers go with them.
DROP TABLE game_accounts;
DROP TABLE history;
DROP TABLE jumps;
DROP TABLE tokens;
DROP TABLE players;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
ALTER TABLE players_new RENAME TO players;
ALTER TABLE tokens_new RENAME TO tokens;
ALTER TABLE jumps_new RENAME TO jumps;
ALTER TABLE history_new RENAME TO history;
ALTER TABLE game_accounts_new RENAME TO game_accounts;

-- As in migrations 1, 2 and 5: GAMES walks games_kind, the daemon
-- re-arms its timers from games_deadline, the retention job walks
-- games_finished.  They name the id, which stays the order clients see.
CREATE INDEX games_kind ON games (kind, id);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_finished ON games (updated, id) WHERE turn = -1;

-- As in migration 6: PLAYER.GAMES finds an account's seats here.
CREATE INDEX game_accounts_account ON game_accounts (account, game);

-- Players' names unique per game, as in migration 7: the index for the
-- seats from the fifth on, the triggers for the first four.
CREATE UNIQUE INDEX players_name ON players (game, name) WHERE idx >= 4;

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
