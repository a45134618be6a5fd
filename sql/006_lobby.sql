-- ludus schema, migration 5: players who find each other (accounts, the
-- matchmaker's tickets, ratings, and the seats accounts hold).
--
-- accounts: one row per player account, named as player ids are (1-50
-- of a-z 0-9 -).  key is the keyed hash (BLAKE2b, 32 bytes, keyed with
-- the seat secret of migration 2, in its own domain) of the account's
-- key; the key itself is never stored.  The server's bots are accounts
-- too, one per strategy (bot: 0 first, 1 aggressive, 2 expert), so that
-- they are rated like anyone; they have no key and nobody logs in as
-- them.  Names beginning with "bot-" are theirs.
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

INSERT INTO accounts (name, bot, created) VALUES ('bot-first', 0, 0);
INSERT INTO accounts (name, bot, created) VALUES ('bot-aggressive', 1, 0);
INSERT INTO accounts (name, bot, created) VALUES ('bot-expert', 2, 0);

-- Glicko-2 ratings, per account and game kind, on the Glicko scale.  An
-- account with no row for a kind has never played it: 1500, RD 350,
-- volatility 0.06.  games and won count its rated games of the kind;
-- every rated game that ends adds one to games, so games is also the
-- row's version (the write that stores a game's ratings checks it).
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

-- LEADERBOARD kind walks this index, best first.
CREATE INDEX ratings_board ON ratings (kind, rating DESC, account);

-- The matchmaker's tickets: a reply to MATCH.JOIN means its row is
-- stored.  queue is the kind and the game options, as one canonical
-- string ("ludo dice=server preset=classic"): only tickets of one queue
-- are matched together.  players_min and players_max are the player
-- counts the ticket accepts; rating is the account's when it joined;
-- span is the half-width of its rating window then (the window widens
-- with the wait, at the daemon's configured rate); bots_after, in ms,
-- is when its seats may go to bots (NULL: never); joined is unix ms.
-- The matcher serves the oldest first: by joined, then id.
--
-- state: 0 waiting, 1 matched (game and seat say where: the seat's
-- index in the game), 2 cancelled; ended is when it was matched or
-- cancelled (unix ms).  A ticket leaves the waiting state once, in the
-- transaction that creates its game (or cancels it), and never goes
-- back.  game names no row by a foreign key: a ticket's record outlives
-- whatever becomes of its game.
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

-- The matcher reads a queue's waiting tickets oldest first; MATCH.LIST
-- counts them per queue; an account's waiting tickets are counted
-- against max-tickets.
CREATE INDEX tickets_waiting ON tickets (queue, joined, id) WHERE state = 0;
CREATE INDEX tickets_account ON tickets (account) WHERE state = 0;

-- The seats of a game that accounts hold (the matchmaker's games): the
-- logged-in account plays them without a seat key, PLAYER.GAMES lists
-- them, and the move that ends the game rates them.
CREATE TABLE game_accounts (
	game		TEXT NOT NULL,
	idx		INTEGER NOT NULL,
	account		TEXT NOT NULL REFERENCES accounts (name),
	PRIMARY KEY (game, idx),
	FOREIGN KEY (game, idx) REFERENCES players (game, idx)
	    ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX game_accounts_account ON game_accounts (account, game);
