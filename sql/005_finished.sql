-- ludus schema, migration 5: finished games found without a scan.
--
-- A finished game (turn -1: no player to move, whatever the kind) never
-- changes again.  The store finds them by this index, oldest last move
-- first: the retention job's walk of the games finished before a time,
-- and the count of the games in play (all of them less these) that a
-- max-games cap counts by default.  A partial index holds only finished
-- games, so a turn of a game in play writes nothing to it; the turn that
-- ends a game adds its one entry.
CREATE INDEX games_finished ON games (updated, id) WHERE turn = -1;
