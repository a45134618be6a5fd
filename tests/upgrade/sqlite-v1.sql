-- ludus upgrade fixture sqlite-v1: written by commit f996313's
-- ludus --db (tests/upgrade/make-fixtures.sh), dumped by sqlite3.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO games VALUES('ludo-done',1,2,0,-1,3,3,1796159517,1796159517,0,1,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-four',1,4,0,-1,0,8,1796159517,1796159518,0,1,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('ludo-new',1,3,0,-1,0,0,1796159518,1796159518,0,1,0,0,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-done',2,2,-1,0,1,3,1796159518,1796159518,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO games VALUES('snl-play',2,3,2,-1,1,8,1796159518,1796159519,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO games VALUES('dandy-deck',3,2,1,-1,5,5,1796159519,1796159519,NULL,NULL,NULL,NULL,'abcabcghi',1,'abcdefghi123');
INSERT INTO games VALUES('dandy-hand',3,3,0,-1,0,6,1796159519,1796159520,NULL,NULL,NULL,NULL,'aabbccddeeffgghhii',0,NULL);
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
INSERT INTO players VALUES('dandy-deck',0,'P1');
INSERT INTO players VALUES('dandy-deck',1,'P2');
INSERT INTO players VALUES('dandy-hand',0,'P1');
INSERT INTO players VALUES('dandy-hand',1,'P2');
INSERT INTO players VALUES('dandy-hand',2,'P3');
INSERT INTO players VALUES('ludo-done',0,'red');
INSERT INTO players VALUES('ludo-done',1,'blue');
INSERT INTO players VALUES('ludo-four',0,'a');
INSERT INTO players VALUES('ludo-four',1,'b');
INSERT INTO players VALUES('ludo-four',2,'c');
INSERT INTO players VALUES('ludo-four',3,'d');
INSERT INTO players VALUES('ludo-new',0,'red');
INSERT INTO players VALUES('ludo-new',1,'blue');
INSERT INTO players VALUES('ludo-new',2,'green');
INSERT INTO players VALUES('snl-done',0,'P1');
INSERT INTO players VALUES('snl-done',1,'P2');
INSERT INTO players VALUES('snl-play',0,'P1');
INSERT INTO players VALUES('snl-play',1,'P2');
INSERT INTO players VALUES('snl-play',2,'P3');
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
INSERT INTO tokens VALUES('snl-done',0,0,100,0);
INSERT INTO tokens VALUES('snl-done',1,0,3,0);
INSERT INTO tokens VALUES('snl-play',0,0,13,0);
INSERT INTO tokens VALUES('snl-play',1,0,11,0);
INSERT INTO tokens VALUES('snl-play',2,0,9,0);
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
INSERT INTO history VALUES('dandy-deck',1,'P1','a','P1 1 0',1796159519);
INSERT INTO history VALUES('dandy-deck',2,'P2','b','P2 2 0',1796159519);
INSERT INTO history VALUES('dandy-deck',3,'P1','c','P1 3 0',1796159519);
INSERT INTO history VALUES('dandy-deck',4,'P2','d','P2 1 0',1796159519);
INSERT INTO history VALUES('dandy-deck',5,'P1','e','P1 2 0',1796159519);
INSERT INTO history VALUES('dandy-hand',1,'P1','a','P1 1 0',1796159519);
INSERT INTO history VALUES('dandy-hand',2,'P2','b','P2 3 0',1796159519);
INSERT INTO history VALUES('dandy-hand',3,'P3','c','P3 5 0',1796159519);
INSERT INTO history VALUES('dandy-hand',4,'P1','1','P1 2 0',1796159519);
INSERT INTO history VALUES('dandy-hand',5,'P2','d','P2 7 0',1796159519);
INSERT INTO history VALUES('dandy-hand',6,'P3','e','P3 9 0',1796159520);
INSERT INTO history VALUES('ludo-done',1,'red','6:1','MOVED',1796159517);
INSERT INTO history VALUES('ludo-done',2,'red','6:1','MOVED',1796159517);
INSERT INTO history VALUES('ludo-done',3,'red','6:1','MOVED',1796159517);
INSERT INTO history VALUES('ludo-four',1,'a','6:1','MOVED',1796159517);
INSERT INTO history VALUES('ludo-four',2,'a','3:1','MOVED',1796159517);
INSERT INTO history VALUES('ludo-four',3,'b','6:2','MOVED',1796159517);
INSERT INTO history VALUES('ludo-four',4,'b','2:2','MOVED',1796159518);
INSERT INTO history VALUES('ludo-four',5,'c','5:0','PASSED',1796159518);
INSERT INTO history VALUES('ludo-four',6,'d','6:4','MOVED',1796159518);
INSERT INTO history VALUES('ludo-four',7,'d','6:4','MOVED',1796159518);
INSERT INTO history VALUES('ludo-four',8,'d','1:4','MOVED',1796159518);
INSERT INTO history VALUES('snl-done',1,'P1','4','P1 97',1796159518);
INSERT INTO history VALUES('snl-done',2,'P2','3','P2 3',1796159518);
INSERT INTO history VALUES('snl-done',3,'P1','3','P1 WINS',1796159518);
INSERT INTO history VALUES('snl-play',1,'P1','6','P1 6',1796159518);
INSERT INTO history VALUES('snl-play',2,'P2','6','P2 6',1796159519);
INSERT INTO history VALUES('snl-play',3,'P3','6','P3 6',1796159519);
INSERT INTO history VALUES('snl-play',4,'P1','5','P1 11',1796159519);
INSERT INTO history VALUES('snl-play',5,'P2','4','P2 10',1796159519);
INSERT INTO history VALUES('snl-play',6,'P3','3','P3 9',1796159519);
INSERT INTO history VALUES('snl-play',7,'P1','2','P1 13',1796159519);
INSERT INTO history VALUES('snl-play',8,'P2','1','P2 11',1796159519);
CREATE INDEX games_kind ON games (kind, id);
COMMIT;
PRAGMA user_version = 1;
