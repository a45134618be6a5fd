-- ludus schema for PostgreSQL, migration 2: players who find each other,
-- the same tables and constraints as the SQLite schema's migration 5
-- (sql/006_lobby.sql, which says what each column means).
--
-- Two differences.  Ticket ids come from a sequence: a node draws an id
-- before the group commit that stores its ticket, since the reply that
-- names it is made before that COMMIT.  And nodes write these rows each
-- in its own transaction: the statements that must not race (an
-- account's waiting tickets counted against max-tickets, a group's
-- tickets taken for its game, a rating written on top of the one read)
-- check or lock what they depend on in the statement itself.
CREATE TABLE accounts (
	name		text NOT NULL PRIMARY KEY
			CONSTRAINT account_name
			CHECK (name ~ '^[a-z0-9-]{1,50}$'),
	key		bytea
			CONSTRAINT account_key
			CHECK (key IS NULL OR octet_length(key) = 32),
	bot		integer
			CONSTRAINT account_bot
			CHECK (bot IS NULL OR bot BETWEEN 0 AND 2),
	created		bigint NOT NULL,
	CONSTRAINT account_person_or_bot
	CHECK ((key IS NULL) <> (bot IS NULL))
);

INSERT INTO accounts (name, bot, created) VALUES
	('bot-first', 0, 0), ('bot-aggressive', 1, 0), ('bot-expert', 2, 0);

CREATE TABLE ratings (
	account		text NOT NULL REFERENCES accounts (name),
	kind		integer NOT NULL
			CONSTRAINT rating_kind CHECK (kind IN (1, 2, 3)),
	rating		double precision NOT NULL,
	rd		double precision NOT NULL
			CONSTRAINT rating_rd CHECK (rd > 0 AND rd <= 350),
	vol		double precision NOT NULL
			CONSTRAINT rating_vol CHECK (vol > 0),
	games		bigint NOT NULL
			CONSTRAINT rating_games CHECK (games >= 1),
	won		bigint NOT NULL
			CONSTRAINT rating_won CHECK (won BETWEEN 0 AND games),
	updated		bigint NOT NULL,
	PRIMARY KEY (account, kind)
);

CREATE INDEX ratings_board ON ratings (kind, rating DESC, account);

CREATE SEQUENCE ticket_ids;

CREATE TABLE tickets (
	id		bigint NOT NULL PRIMARY KEY
			CONSTRAINT ticket_id CHECK (id >= 1),
	account		text NOT NULL REFERENCES accounts (name),
	kind		integer NOT NULL
			CONSTRAINT ticket_kind CHECK (kind IN (1, 2, 3)),
	queue		text NOT NULL
			CONSTRAINT ticket_queue
			CHECK (length(queue) BETWEEN 1 AND 255),
	players_min	integer NOT NULL,
	players_max	integer NOT NULL,
	rating		double precision NOT NULL,
	span		double precision NOT NULL
			CONSTRAINT ticket_span CHECK (span >= 0),
	bots_after	bigint
			CONSTRAINT ticket_bots_after
			CHECK (bots_after IS NULL OR bots_after >= 0),
	joined		bigint NOT NULL,
	state		integer NOT NULL DEFAULT 0
			CONSTRAINT ticket_state CHECK (state IN (0, 1, 2)),
	game		text
			CONSTRAINT ticket_game
			CHECK (game IS NULL OR length(game) BETWEEN 1 AND 50),
	seat		integer
			CONSTRAINT ticket_seat
			CHECK (seat IS NULL OR seat BETWEEN 0 AND 63),
	ended		bigint,
	CONSTRAINT ticket_players
	CHECK (players_min BETWEEN 2 AND 64 AND
	    players_max BETWEEN players_min AND 64),
	CONSTRAINT ticket_matched
	CHECK ((state = 1) = (game IS NOT NULL) AND
	    (game IS NULL) = (seat IS NULL) AND
	    (state = 0) = (ended IS NULL))
);

CREATE INDEX tickets_waiting ON tickets (queue, joined, id) WHERE state = 0;
CREATE INDEX tickets_account ON tickets (account) WHERE state = 0;

CREATE TABLE game_accounts (
	game		text NOT NULL,
	idx		integer NOT NULL,
	account		text NOT NULL REFERENCES accounts (name),
	PRIMARY KEY (game, idx),
	FOREIGN KEY (game, idx) REFERENCES players (game, idx)
	    ON DELETE CASCADE
);

CREATE INDEX game_accounts_account ON game_accounts (account, game);
