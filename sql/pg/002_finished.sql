-- ludus schema for PostgreSQL, migration 2: finished games found without
-- a scan, as the SQLite schema's migration 5.
--
-- A finished game (turn -1) never changes again.  This partial index
-- holds only those, by the time of their last move: the retention job's
-- walk of the games finished before a time, and the count of the games
-- in play (all of them less these) that a max-games cap counts by
-- default.  A turn of a game in play writes nothing to it.
CREATE INDEX games_finished ON games (updated, id) WHERE turn = -1;
