-- ludus upgrade fixture sqlite-v7: written by commit 37acb7e's
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
INSERT INTO tokens VALUES('snl-bots',0,0,99,0);
INSERT INTO tokens VALUES('snl-bots',1,0,100,0);
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
INSERT INTO meta VALUES('seat-secret',X'b023e017dcd5cc30b5b84519ca80bbcfa258f423f40984a30ebc317995c24672');
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
INSERT INTO games VALUES('ludo-done',1,2,0,-1,3,3,1796225064,1796225064,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-four',1,4,0,-1,0,8,1796225064,1796225065,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-new',1,3,0,-1,0,0,1796225065,1796225065,0,1,0,0,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-done',2,2,-1,0,1,3,1796225065,1796225065,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-play',2,3,2,-1,1,8,1796225065,1796225065,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-six',2,6,1,-1,1,7,1796225065,1796225065,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('dandy-deck',3,2,1,-1,5,5,1796225065,1796225065,NULL,NULL,NULL,NULL,'abcabcghi',1,'abcdefghi123',0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('dandy-hand',3,3,0,-1,0,6,1796225065,1796225066,NULL,NULL,NULL,NULL,'aabbccddeeffgghhii',0,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-seats',1,2,0,-1,0,0,1796225066,1796225066,0,1,0,0,NULL,NULL,NULL,1,1,3600,1796228666098,NULL,NULL);
INSERT INTO games VALUES('snl-bots',2,2,-1,1,1,64,1796225066,1796225066,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
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
INSERT INTO history VALUES('dandy-deck',1,'P1','a','P1 1 0',1796225065,0);
INSERT INTO history VALUES('dandy-deck',2,'P2','b','P2 2 0',1796225065,0);
INSERT INTO history VALUES('dandy-deck',3,'P1','c','P1 3 0',1796225065,0);
INSERT INTO history VALUES('dandy-deck',4,'P2','d','P2 1 0',1796225065,0);
INSERT INTO history VALUES('dandy-deck',5,'P1','e','P1 2 0',1796225065,0);
INSERT INTO history VALUES('dandy-hand',1,'P1','a','P1 1 0',1796225065,0);
INSERT INTO history VALUES('dandy-hand',2,'P2','b','P2 3 0',1796225065,0);
INSERT INTO history VALUES('dandy-hand',3,'P3','c','P3 5 0',1796225065,0);
INSERT INTO history VALUES('dandy-hand',4,'P1','1','P1 2 0',1796225066,0);
INSERT INTO history VALUES('dandy-hand',5,'P2','d','P2 7 0',1796225066,0);
INSERT INTO history VALUES('dandy-hand',6,'P3','e','P3 9 0',1796225066,0);
INSERT INTO history VALUES('ludo-done',1,'red','6:1','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-done',2,'red','6:1','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-done',3,'red','6:1','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',1,'a','6:1','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',2,'a','3:1','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',3,'b','6:2','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',4,'b','2:2','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',5,'c','5:0','PASSED',1796225064,0);
INSERT INTO history VALUES('ludo-four',6,'d','6:4','MOVED',1796225064,0);
INSERT INTO history VALUES('ludo-four',7,'d','6:4','MOVED',1796225065,0);
INSERT INTO history VALUES('ludo-four',8,'d','1:4','MOVED',1796225065,0);
INSERT INTO history VALUES('snl-bots',1,'P1','5','P1 5',1796225066,1);
INSERT INTO history VALUES('snl-bots',2,'P2','1','P2 1',1796225066,1);
INSERT INTO history VALUES('snl-bots',3,'P1','3','P1 8',1796225066,1);
INSERT INTO history VALUES('snl-bots',4,'P2','6','P2 7',1796225066,1);
INSERT INTO history VALUES('snl-bots',5,'P1','3','P1 11',1796225066,1);
INSERT INTO history VALUES('snl-bots',6,'P2','4','P2 11',1796225066,1);
INSERT INTO history VALUES('snl-bots',7,'P1','5','P1 16',1796225066,1);
INSERT INTO history VALUES('snl-bots',8,'P2','6','P2 17',1796225066,1);
INSERT INTO history VALUES('snl-bots',9,'P1','4','P1 20',1796225066,1);
INSERT INTO history VALUES('snl-bots',10,'P2','6','P2 23',1796225066,1);
INSERT INTO history VALUES('snl-bots',11,'P1','3','P1 23',1796225066,1);
INSERT INTO history VALUES('snl-bots',12,'P2','6','P2 29',1796225066,1);
INSERT INTO history VALUES('snl-bots',13,'P1','1','P1 24',1796225066,1);
INSERT INTO history VALUES('snl-bots',14,'P2','3','P2 32',1796225066,1);
INSERT INTO history VALUES('snl-bots',15,'P1','3','P1 27',1796225066,1);
INSERT INTO history VALUES('snl-bots',16,'P2','4','P2 36',1796225066,1);
INSERT INTO history VALUES('snl-bots',17,'P1','3','P1 30',1796225066,1);
INSERT INTO history VALUES('snl-bots',18,'P2','4','P2 40',1796225066,1);
INSERT INTO history VALUES('snl-bots',19,'P1','2','P1 32',1796225066,1);
INSERT INTO history VALUES('snl-bots',20,'P2','3','P2 43',1796225066,1);
INSERT INTO history VALUES('snl-bots',21,'P1','5','P1 37',1796225066,1);
INSERT INTO history VALUES('snl-bots',22,'P2','5','P2 48',1796225066,1);
INSERT INTO history VALUES('snl-bots',23,'P1','5','P1 42',1796225066,1);
INSERT INTO history VALUES('snl-bots',24,'P2','3','P2 51',1796225066,1);
INSERT INTO history VALUES('snl-bots',25,'P1','6','P1 48',1796225066,1);
INSERT INTO history VALUES('snl-bots',26,'P2','4','P2 55',1796225066,1);
INSERT INTO history VALUES('snl-bots',27,'P1','1','P1 49',1796225066,1);
INSERT INTO history VALUES('snl-bots',28,'P2','1','P2 56',1796225066,1);
INSERT INTO history VALUES('snl-bots',29,'P1','2','P1 51',1796225066,1);
INSERT INTO history VALUES('snl-bots',30,'P2','5','P2 61',1796225066,1);
INSERT INTO history VALUES('snl-bots',31,'P1','1','P1 52',1796225066,1);
INSERT INTO history VALUES('snl-bots',32,'P2','5','P2 66',1796225066,1);
INSERT INTO history VALUES('snl-bots',33,'P1','1','P1 53',1796225066,1);
INSERT INTO history VALUES('snl-bots',34,'P2','2','P2 68',1796225066,1);
INSERT INTO history VALUES('snl-bots',35,'P1','3','P1 56',1796225066,1);
INSERT INTO history VALUES('snl-bots',36,'P2','3','P2 71',1796225066,1);
INSERT INTO history VALUES('snl-bots',37,'P1','6','P1 62',1796225066,1);
INSERT INTO history VALUES('snl-bots',38,'P2','6','P2 77',1796225066,1);
INSERT INTO history VALUES('snl-bots',39,'P1','2','P1 64',1796225066,1);
INSERT INTO history VALUES('snl-bots',40,'P2','1','P2 78',1796225066,1);
INSERT INTO history VALUES('snl-bots',41,'P1','1','P1 65',1796225066,1);
INSERT INTO history VALUES('snl-bots',42,'P2','4','P2 82',1796225066,1);
INSERT INTO history VALUES('snl-bots',43,'P1','4','P1 69',1796225066,1);
INSERT INTO history VALUES('snl-bots',44,'P2','6','P2 88',1796225066,1);
INSERT INTO history VALUES('snl-bots',45,'P1','1','P1 70',1796225066,1);
INSERT INTO history VALUES('snl-bots',46,'P2','1','P2 89',1796225066,1);
INSERT INTO history VALUES('snl-bots',47,'P1','5','P1 75',1796225066,1);
INSERT INTO history VALUES('snl-bots',48,'P2','1','P2 90',1796225066,1);
INSERT INTO history VALUES('snl-bots',49,'P1','3','P1 78',1796225066,1);
INSERT INTO history VALUES('snl-bots',50,'P2','6','P2 96',1796225066,1);
INSERT INTO history VALUES('snl-bots',51,'P1','4','P1 82',1796225066,1);
INSERT INTO history VALUES('snl-bots',52,'P2','1','P2 97',1796225066,1);
INSERT INTO history VALUES('snl-bots',53,'P1','2','P1 84',1796225066,1);
INSERT INTO history VALUES('snl-bots',54,'P2','1','P2 98',1796225066,1);
INSERT INTO history VALUES('snl-bots',55,'P1','6','P1 90',1796225066,1);
INSERT INTO history VALUES('snl-bots',56,'P2','4','P2 98',1796225066,1);
INSERT INTO history VALUES('snl-bots',57,'P1','3','P1 93',1796225066,1);
INSERT INTO history VALUES('snl-bots',58,'P2','1','P2 99',1796225066,1);
INSERT INTO history VALUES('snl-bots',59,'P1','1','P1 94',1796225066,1);
INSERT INTO history VALUES('snl-bots',60,'P2','6','P2 99',1796225066,1);
INSERT INTO history VALUES('snl-bots',61,'P1','1','P1 95',1796225066,1);
INSERT INTO history VALUES('snl-bots',62,'P2','4','P2 99',1796225066,1);
INSERT INTO history VALUES('snl-bots',63,'P1','4','P1 99',1796225066,1);
INSERT INTO history VALUES('snl-bots',64,'P2','1','P2 WINS',1796225066,1);
INSERT INTO history VALUES('snl-done',1,'P1','4','P1 97',1796225065,0);
INSERT INTO history VALUES('snl-done',2,'P2','3','P2 3',1796225065,0);
INSERT INTO history VALUES('snl-done',3,'P1','3','P1 WINS',1796225065,0);
INSERT INTO history VALUES('snl-play',1,'P1','6','P1 6',1796225065,0);
INSERT INTO history VALUES('snl-play',2,'P2','6','P2 6',1796225065,0);
INSERT INTO history VALUES('snl-play',3,'P3','6','P3 6',1796225065,0);
INSERT INTO history VALUES('snl-play',4,'P1','5','P1 11',1796225065,0);
INSERT INTO history VALUES('snl-play',5,'P2','4','P2 10',1796225065,0);
INSERT INTO history VALUES('snl-play',6,'P3','3','P3 9',1796225065,0);
INSERT INTO history VALUES('snl-play',7,'P1','2','P1 13',1796225065,0);
INSERT INTO history VALUES('snl-play',8,'P2','1','P2 11',1796225065,0);
INSERT INTO history VALUES('snl-six',1,'P1','3','P1 3',1796225065,0);
INSERT INTO history VALUES('snl-six',2,'P2','4','P2 4',1796225065,0);
INSERT INTO history VALUES('snl-six',3,'P3','5','P3 5',1796225065,0);
INSERT INTO history VALUES('snl-six',4,'P4','6','P4 6',1796225065,0);
INSERT INTO history VALUES('snl-six',5,'P5','1','P5 1',1796225065,0);
INSERT INTO history VALUES('snl-six',6,'P6','2','P6 2',1796225065,0);
INSERT INTO history VALUES('snl-six',7,'P1','3','P1 6',1796225065,0);
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
INSERT INTO players VALUES('ludo-seats',0,'a',NULL,X'62aade895cd5339552080137381a1a6c79876f3f92e313efaba023710a0ee7bd');
INSERT INTO players VALUES('ludo-seats',1,'b',2,X'49d9b787b5264759f11d96c59932c0c0f69b1db9c8453b8707013262699b9585');
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
CREATE TABLE accounts (
	name		TEXT NOT NULL PRIMARY KEY
			CONSTRAINT account_name
			CHECK (length(name) BETWEEN 1 AND 50 AND
			    name NOT GLOB '*[^a-z0-9-]*'),
	key		BLOB
			CONSTRAINT account_key
			CHECK (key IS NULL OR typeof(key) = 'blob' AND
			    length(key) = 32),
	bot		INTEGER
			CONSTRAINT account_bot
			CHECK (bot IS NULL OR bot = 0 OR bot = 1 OR bot = 2),
	created		INTEGER NOT NULL,
	-- A person has a key, a bot has a strategy, never both.
	CONSTRAINT account_person_or_bot
	CHECK ((key IS NULL) <> (bot IS NULL))
) WITHOUT ROWID;
INSERT INTO accounts VALUES('bot-aggressive',NULL,1,0);
INSERT INTO accounts VALUES('bot-expert',NULL,2,0);
INSERT INTO accounts VALUES('bot-first',NULL,0,0);
CREATE TABLE ratings (
	account		TEXT NOT NULL REFERENCES accounts (name),
	kind		INTEGER NOT NULL
			CONSTRAINT rating_kind
			CHECK (kind = 1 OR kind = 2 OR kind = 3),
	rating		REAL NOT NULL,
	rd		REAL NOT NULL
			CONSTRAINT rating_rd CHECK (rd > 0 AND rd <= 350),
	vol		REAL NOT NULL
			CONSTRAINT rating_vol CHECK (vol > 0),
	games		INTEGER NOT NULL
			CONSTRAINT rating_games CHECK (games >= 1),
	won		INTEGER NOT NULL
			CONSTRAINT rating_won CHECK (won BETWEEN 0 AND games),
	updated		INTEGER NOT NULL,
	PRIMARY KEY (account, kind)
) WITHOUT ROWID;
CREATE TABLE tickets (
	id		INTEGER NOT NULL PRIMARY KEY
			CONSTRAINT ticket_id CHECK (id >= 1),
	account		TEXT NOT NULL REFERENCES accounts (name),
	kind		INTEGER NOT NULL
			CONSTRAINT ticket_kind
			CHECK (kind = 1 OR kind = 2 OR kind = 3),
	queue		TEXT NOT NULL
			CONSTRAINT ticket_queue
			CHECK (length(queue) BETWEEN 1 AND 255),
	players_min	INTEGER NOT NULL,
	players_max	INTEGER NOT NULL,
	rating		REAL NOT NULL,
	span		REAL NOT NULL
			CONSTRAINT ticket_span CHECK (span >= 0),
	bots_after	INTEGER
			CONSTRAINT ticket_bots_after
			CHECK (bots_after IS NULL OR bots_after >= 0),
	joined		INTEGER NOT NULL,
	state		INTEGER NOT NULL DEFAULT 0
			CONSTRAINT ticket_state
			CHECK (state = 0 OR state = 1 OR state = 2),
	game		TEXT
			CONSTRAINT ticket_game
			CHECK (game IS NULL OR length(game) BETWEEN 1 AND 50),
	seat		INTEGER
			CONSTRAINT ticket_seat
			CHECK (seat IS NULL OR seat BETWEEN 0 AND 63),
	ended		INTEGER,
	CONSTRAINT ticket_players
	CHECK (players_min BETWEEN 2 AND 64 AND
	    players_max BETWEEN players_min AND 64),
	CONSTRAINT ticket_matched
	CHECK ((state = 1) = (game IS NOT NULL) AND
	    (game IS NULL) = (seat IS NULL) AND
	    (state = 0) = (ended IS NULL))
);
CREATE TABLE game_accounts (
	game		TEXT NOT NULL,
	idx		INTEGER NOT NULL,
	account		TEXT NOT NULL REFERENCES accounts (name),
	PRIMARY KEY (game, idx),
	FOREIGN KEY (game, idx) REFERENCES players (game, idx)
	    ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX games_kind ON games (kind, id);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE INDEX games_finished ON games (updated, id) WHERE turn = -1;
CREATE INDEX ratings_board ON ratings (kind, rating DESC, account);
CREATE INDEX tickets_waiting ON tickets (queue, joined, id) WHERE state = 0;
CREATE INDEX tickets_account ON tickets (account) WHERE state = 0;
CREATE INDEX game_accounts_account ON game_accounts (account, game);
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
COMMIT;
PRAGMA user_version = 7;
