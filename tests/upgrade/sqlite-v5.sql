-- ludus upgrade fixture sqlite-v5: written by commit d40d42e's
-- ludus --db (tests/upgrade/make-fixtures.sh), dumped by sqlite3.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO tokens VALUES('dandy-deck',0,0,1,0);
INSERT INTO tokens VALUES('dandy-deck',1,0,0,0);
INSERT INTO tokens VALUES('dandy-hand',0,0,1,0);
INSERT INTO tokens VALUES('dandy-hand',1,0,6,0);
INSERT INTO tokens VALUES('dandy-hand',2,0,8,0);
INSERT INTO tokens VALUES('ludo-done',0,1,12,0);
INSERT INTO tokens VALUES('ludo-done',0,2,-1,0);
INSERT INTO tokens VALUES('ludo-done',0,3,-1,0);
INSERT INTO tokens VALUES('ludo-done',0,4,-1,0);
INSERT INTO tokens VALUES('ludo-done',1,1,-1,0);
INSERT INTO tokens VALUES('ludo-done',1,2,-1,0);
INSERT INTO tokens VALUES('ludo-done',1,3,-1,0);
INSERT INTO tokens VALUES('ludo-done',1,4,-1,0);
INSERT INTO tokens VALUES('ludo-four',0,1,3,0);
INSERT INTO tokens VALUES('ludo-four',0,2,-1,0);
INSERT INTO tokens VALUES('ludo-four',0,3,-1,0);
INSERT INTO tokens VALUES('ludo-four',0,4,-1,0);
INSERT INTO tokens VALUES('ludo-four',1,1,-1,0);
INSERT INTO tokens VALUES('ludo-four',1,2,2,0);
INSERT INTO tokens VALUES('ludo-four',1,3,-1,0);
INSERT INTO tokens VALUES('ludo-four',1,4,-1,0);
INSERT INTO tokens VALUES('ludo-four',2,1,-1,0);
INSERT INTO tokens VALUES('ludo-four',2,2,-1,0);
INSERT INTO tokens VALUES('ludo-four',2,3,-1,0);
INSERT INTO tokens VALUES('ludo-four',2,4,-1,0);
INSERT INTO tokens VALUES('ludo-four',3,1,-1,0);
INSERT INTO tokens VALUES('ludo-four',3,2,-1,0);
INSERT INTO tokens VALUES('ludo-four',3,3,-1,0);
INSERT INTO tokens VALUES('ludo-four',3,4,7,0);
INSERT INTO tokens VALUES('ludo-new',0,1,-1,0);
INSERT INTO tokens VALUES('ludo-new',0,2,-1,0);
INSERT INTO tokens VALUES('ludo-new',0,3,-1,0);
INSERT INTO tokens VALUES('ludo-new',0,4,-1,0);
INSERT INTO tokens VALUES('ludo-new',1,1,-1,0);
INSERT INTO tokens VALUES('ludo-new',1,2,-1,0);
INSERT INTO tokens VALUES('ludo-new',1,3,-1,0);
INSERT INTO tokens VALUES('ludo-new',1,4,-1,0);
INSERT INTO tokens VALUES('ludo-new',2,1,-1,0);
INSERT INTO tokens VALUES('ludo-new',2,2,-1,0);
INSERT INTO tokens VALUES('ludo-new',2,3,-1,0);
INSERT INTO tokens VALUES('ludo-new',2,4,-1,0);
INSERT INTO tokens VALUES('ludo-seats',0,1,-1,0);
INSERT INTO tokens VALUES('ludo-seats',0,2,-1,0);
INSERT INTO tokens VALUES('ludo-seats',0,3,-1,0);
INSERT INTO tokens VALUES('ludo-seats',0,4,-1,0);
INSERT INTO tokens VALUES('ludo-seats',1,1,-1,0);
INSERT INTO tokens VALUES('ludo-seats',1,2,-1,0);
INSERT INTO tokens VALUES('ludo-seats',1,3,-1,0);
INSERT INTO tokens VALUES('ludo-seats',1,4,-1,0);
INSERT INTO tokens VALUES('snl-bots',0,0,100,0);
INSERT INTO tokens VALUES('snl-bots',1,0,98,0);
INSERT INTO tokens VALUES('snl-done',0,0,100,0);
INSERT INTO tokens VALUES('snl-done',1,0,3,0);
INSERT INTO tokens VALUES('snl-play',0,0,13,0);
INSERT INTO tokens VALUES('snl-play',1,0,11,0);
INSERT INTO tokens VALUES('snl-play',2,0,9,0);
INSERT INTO tokens VALUES('snl-six',0,0,6,0);
INSERT INTO tokens VALUES('snl-six',1,0,4,0);
INSERT INTO tokens VALUES('snl-six',2,0,5,0);
INSERT INTO tokens VALUES('snl-six',3,0,6,0);
INSERT INTO tokens VALUES('snl-six',4,0,1,0);
INSERT INTO tokens VALUES('snl-six',5,0,2,0);
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
INSERT INTO jumps VALUES('snl-done',4,97);
INSERT INTO jumps VALUES('snl-done',99,2);
INSERT INTO jumps VALUES('snl-play',50,10);
CREATE TABLE meta (
	key		TEXT NOT NULL PRIMARY KEY,
	value		BLOB NOT NULL
) WITHOUT ROWID;
INSERT INTO meta VALUES('seat-secret',X'2d002254fa8a02072be929eab5a710e1e326f75f2b9b2494c2f606fa8cf309d9');
CREATE TABLE IF NOT EXISTS "games" (
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
INSERT INTO games VALUES('ludo-done',1,2,0,-1,3,3,1796197417,1796197417,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-four',1,4,0,-1,0,8,1796197417,1796197418,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-new',1,3,0,-1,0,0,1796197418,1796197418,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-done',2,2,-1,0,1,3,1796197418,1796197418,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-play',2,3,2,-1,1,8,1796197418,1796197418,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-six',2,6,1,-1,1,7,1796197418,1796197418,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('dandy-deck',3,2,1,-1,5,5,1796197418,1796197418,NULL,NULL,NULL,NULL,'abcabcghi',1,'abcdefghi123',0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('dandy-hand',3,3,0,-1,0,6,1796197418,1796197418,NULL,NULL,NULL,NULL,'aabbccddeeffgghhii',0,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-seats',1,2,0,-1,0,0,1796197418,1796197418,0,1,0,0,NULL,NULL,NULL,1,1,3600,1796201018385,NULL,NULL);
INSERT INTO games VALUES('snl-bots',2,2,-1,0,1,67,1796197418,1796197418,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
CREATE TABLE IF NOT EXISTS "history" (
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
INSERT INTO history VALUES('dandy-deck',1,'P1','a','P1 1 0',1796197418,0);
INSERT INTO history VALUES('dandy-deck',2,'P2','b','P2 2 0',1796197418,0);
INSERT INTO history VALUES('dandy-deck',3,'P1','c','P1 3 0',1796197418,0);
INSERT INTO history VALUES('dandy-deck',4,'P2','d','P2 1 0',1796197418,0);
INSERT INTO history VALUES('dandy-deck',5,'P1','e','P1 2 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',1,'P1','a','P1 1 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',2,'P2','b','P2 3 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',3,'P3','c','P3 5 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',4,'P1','1','P1 2 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',5,'P2','d','P2 7 0',1796197418,0);
INSERT INTO history VALUES('dandy-hand',6,'P3','e','P3 9 0',1796197418,0);
INSERT INTO history VALUES('ludo-done',1,'red','6:1','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-done',2,'red','6:1','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-done',3,'red','6:1','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-four',1,'a','6:1','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-four',2,'a','3:1','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-four',3,'b','6:2','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-four',4,'b','2:2','MOVED',1796197417,0);
INSERT INTO history VALUES('ludo-four',5,'c','5:0','PASSED',1796197418,0);
INSERT INTO history VALUES('ludo-four',6,'d','6:4','MOVED',1796197418,0);
INSERT INTO history VALUES('ludo-four',7,'d','6:4','MOVED',1796197418,0);
INSERT INTO history VALUES('ludo-four',8,'d','1:4','MOVED',1796197418,0);
INSERT INTO history VALUES('snl-bots',1,'P1','2','P1 2',1796197418,1);
INSERT INTO history VALUES('snl-bots',2,'P2','2','P2 2',1796197418,1);
INSERT INTO history VALUES('snl-bots',3,'P1','6','P1 8',1796197418,1);
INSERT INTO history VALUES('snl-bots',4,'P2','4','P2 6',1796197418,1);
INSERT INTO history VALUES('snl-bots',5,'P1','2','P1 10',1796197418,1);
INSERT INTO history VALUES('snl-bots',6,'P2','5','P2 11',1796197418,1);
INSERT INTO history VALUES('snl-bots',7,'P1','2','P1 12',1796197418,1);
INSERT INTO history VALUES('snl-bots',8,'P2','5','P2 16',1796197418,1);
INSERT INTO history VALUES('snl-bots',9,'P1','5','P1 17',1796197418,1);
INSERT INTO history VALUES('snl-bots',10,'P2','1','P2 17',1796197418,1);
INSERT INTO history VALUES('snl-bots',11,'P1','2','P1 19',1796197418,1);
INSERT INTO history VALUES('snl-bots',12,'P2','2','P2 19',1796197418,1);
INSERT INTO history VALUES('snl-bots',13,'P1','1','P1 20',1796197418,1);
INSERT INTO history VALUES('snl-bots',14,'P2','6','P2 25',1796197418,1);
INSERT INTO history VALUES('snl-bots',15,'P1','5','P1 25',1796197418,1);
INSERT INTO history VALUES('snl-bots',16,'P2','2','P2 27',1796197418,1);
INSERT INTO history VALUES('snl-bots',17,'P1','2','P1 27',1796197418,1);
INSERT INTO history VALUES('snl-bots',18,'P2','1','P2 28',1796197418,1);
INSERT INTO history VALUES('snl-bots',19,'P1','5','P1 32',1796197418,1);
INSERT INTO history VALUES('snl-bots',20,'P2','6','P2 34',1796197418,1);
INSERT INTO history VALUES('snl-bots',21,'P1','6','P1 38',1796197418,1);
INSERT INTO history VALUES('snl-bots',22,'P2','6','P2 40',1796197418,1);
INSERT INTO history VALUES('snl-bots',23,'P1','4','P1 42',1796197418,1);
INSERT INTO history VALUES('snl-bots',24,'P2','4','P2 44',1796197418,1);
INSERT INTO history VALUES('snl-bots',25,'P1','6','P1 48',1796197418,1);
INSERT INTO history VALUES('snl-bots',26,'P2','4','P2 48',1796197418,1);
INSERT INTO history VALUES('snl-bots',27,'P1','3','P1 51',1796197418,1);
INSERT INTO history VALUES('snl-bots',28,'P2','6','P2 54',1796197418,1);
INSERT INTO history VALUES('snl-bots',29,'P1','1','P1 52',1796197418,1);
INSERT INTO history VALUES('snl-bots',30,'P2','1','P2 55',1796197418,1);
INSERT INTO history VALUES('snl-bots',31,'P1','2','P1 54',1796197418,1);
INSERT INTO history VALUES('snl-bots',32,'P2','6','P2 61',1796197418,1);
INSERT INTO history VALUES('snl-bots',33,'P1','1','P1 55',1796197418,1);
INSERT INTO history VALUES('snl-bots',34,'P2','2','P2 63',1796197418,1);
INSERT INTO history VALUES('snl-bots',35,'P1','3','P1 58',1796197418,1);
INSERT INTO history VALUES('snl-bots',36,'P2','5','P2 68',1796197418,1);
INSERT INTO history VALUES('snl-bots',37,'P1','2','P1 60',1796197418,1);
INSERT INTO history VALUES('snl-bots',38,'P2','2','P2 70',1796197418,1);
INSERT INTO history VALUES('snl-bots',39,'P1','2','P1 62',1796197418,1);
INSERT INTO history VALUES('snl-bots',40,'P2','1','P2 71',1796197418,1);
INSERT INTO history VALUES('snl-bots',41,'P1','1','P1 63',1796197418,1);
INSERT INTO history VALUES('snl-bots',42,'P2','3','P2 74',1796197418,1);
INSERT INTO history VALUES('snl-bots',43,'P1','1','P1 64',1796197418,1);
INSERT INTO history VALUES('snl-bots',44,'P2','6','P2 80',1796197418,1);
INSERT INTO history VALUES('snl-bots',45,'P1','2','P1 66',1796197418,1);
INSERT INTO history VALUES('snl-bots',46,'P2','5','P2 85',1796197418,1);
INSERT INTO history VALUES('snl-bots',47,'P1','2','P1 68',1796197418,1);
INSERT INTO history VALUES('snl-bots',48,'P2','4','P2 89',1796197418,1);
INSERT INTO history VALUES('snl-bots',49,'P1','5','P1 73',1796197418,1);
INSERT INTO history VALUES('snl-bots',50,'P2','4','P2 93',1796197418,1);
INSERT INTO history VALUES('snl-bots',51,'P1','6','P1 79',1796197418,1);
INSERT INTO history VALUES('snl-bots',52,'P2','5','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',53,'P1','6','P1 85',1796197418,1);
INSERT INTO history VALUES('snl-bots',54,'P2','4','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',55,'P1','3','P1 88',1796197418,1);
INSERT INTO history VALUES('snl-bots',56,'P2','4','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',57,'P1','1','P1 89',1796197418,1);
INSERT INTO history VALUES('snl-bots',58,'P2','4','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',59,'P1','3','P1 92',1796197418,1);
INSERT INTO history VALUES('snl-bots',60,'P2','3','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',61,'P1','5','P1 97',1796197418,1);
INSERT INTO history VALUES('snl-bots',62,'P2','4','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',63,'P1','1','P1 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',64,'P2','5','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',65,'P1','4','P1 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',66,'P2','5','P2 98',1796197418,1);
INSERT INTO history VALUES('snl-bots',67,'P1','2','P1 WINS',1796197418,1);
INSERT INTO history VALUES('snl-done',1,'P1','4','P1 97',1796197418,0);
INSERT INTO history VALUES('snl-done',2,'P2','3','P2 3',1796197418,0);
INSERT INTO history VALUES('snl-done',3,'P1','3','P1 WINS',1796197418,0);
INSERT INTO history VALUES('snl-play',1,'P1','6','P1 6',1796197418,0);
INSERT INTO history VALUES('snl-play',2,'P2','6','P2 6',1796197418,0);
INSERT INTO history VALUES('snl-play',3,'P3','6','P3 6',1796197418,0);
INSERT INTO history VALUES('snl-play',4,'P1','5','P1 11',1796197418,0);
INSERT INTO history VALUES('snl-play',5,'P2','4','P2 10',1796197418,0);
INSERT INTO history VALUES('snl-play',6,'P3','3','P3 9',1796197418,0);
INSERT INTO history VALUES('snl-play',7,'P1','2','P1 13',1796197418,0);
INSERT INTO history VALUES('snl-play',8,'P2','1','P2 11',1796197418,0);
INSERT INTO history VALUES('snl-six',1,'P1','3','P1 3',1796197418,0);
INSERT INTO history VALUES('snl-six',2,'P2','4','P2 4',1796197418,0);
INSERT INTO history VALUES('snl-six',3,'P3','5','P3 5',1796197418,0);
INSERT INTO history VALUES('snl-six',4,'P4','6','P4 6',1796197418,0);
INSERT INTO history VALUES('snl-six',5,'P5','1','P5 1',1796197418,0);
INSERT INTO history VALUES('snl-six',6,'P6','2','P6 2',1796197418,0);
INSERT INTO history VALUES('snl-six',7,'P1','3','P1 6',1796197418,0);
CREATE TABLE IF NOT EXISTS "players" (
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
INSERT INTO players VALUES('dandy-deck',0,'P1',NULL,NULL);
INSERT INTO players VALUES('dandy-deck',1,'P2',NULL,NULL);
INSERT INTO players VALUES('dandy-hand',0,'P1',NULL,NULL);
INSERT INTO players VALUES('dandy-hand',1,'P2',NULL,NULL);
INSERT INTO players VALUES('dandy-hand',2,'P3',NULL,NULL);
INSERT INTO players VALUES('ludo-done',0,'red',NULL,NULL);
INSERT INTO players VALUES('ludo-done',1,'blue',NULL,NULL);
INSERT INTO players VALUES('ludo-four',0,'a',NULL,NULL);
INSERT INTO players VALUES('ludo-four',1,'b',NULL,NULL);
INSERT INTO players VALUES('ludo-four',2,'c',NULL,NULL);
INSERT INTO players VALUES('ludo-four',3,'d',NULL,NULL);
INSERT INTO players VALUES('ludo-new',0,'red',NULL,NULL);
INSERT INTO players VALUES('ludo-new',1,'blue',NULL,NULL);
INSERT INTO players VALUES('ludo-new',2,'green',NULL,NULL);
INSERT INTO players VALUES('ludo-seats',0,'a',NULL,X'dd641eac9c1bdec11d1ff63d43d210d7d9e0f50ad73ded36ec751b95c86c639e');
INSERT INTO players VALUES('ludo-seats',1,'b',2,X'abf9c838a69d878e52a0b4cc5d18e35a1a6228f752ddccc6211b6b17486108d1');
INSERT INTO players VALUES('snl-bots',0,'P1',0,NULL);
INSERT INTO players VALUES('snl-bots',1,'P2',0,NULL);
INSERT INTO players VALUES('snl-done',0,'P1',NULL,NULL);
INSERT INTO players VALUES('snl-done',1,'P2',NULL,NULL);
INSERT INTO players VALUES('snl-play',0,'P1',NULL,NULL);
INSERT INTO players VALUES('snl-play',1,'P2',NULL,NULL);
INSERT INTO players VALUES('snl-play',2,'P3',NULL,NULL);
INSERT INTO players VALUES('snl-six',0,'P1',NULL,NULL);
INSERT INTO players VALUES('snl-six',1,'P2',NULL,NULL);
INSERT INTO players VALUES('snl-six',2,'P3',NULL,NULL);
INSERT INTO players VALUES('snl-six',3,'P4',NULL,NULL);
INSERT INTO players VALUES('snl-six',4,'P5',NULL,NULL);
INSERT INTO players VALUES('snl-six',5,'P6',NULL,NULL);
CREATE INDEX games_kind ON games (kind, id);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
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
CREATE INDEX games_finished ON games (updated, id) WHERE turn = -1;
COMMIT;
PRAGMA user_version = 5;
