/*
 * The PostgreSQL backend's statements, prepared once on each connection
 * (and again after a reconnect), and the text form of their parameters
 * and columns.
 *
 * Every write of a game is one statement whose parts hang off one
 * "UPDATE games ... WHERE id = $1 AND moves = $2 AND stamp = $3
 * RETURNING" (or the create's INSERT ... ON CONFLICT DO NOTHING): when
 * the row has changed, that part matches nothing, the data-modifying
 * CTEs that join it write nothing either, and the statement returns no
 * row, which the transaction reads as a conflict (not an error, which
 * would abort the whole pipeline up to its sync).  A snapshot with no
 * stamp (0: made by its caller, not loaded from this store) is checked by
 * its move count alone.  A turn whose token
 * rows are not all there divides by zero instead: that is a damaged
 * database, and the whole transaction must not commit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg_int.h"
#include "util/util.h"

struct pg_stmt {
	const char	*sql;
	int		 nparams;
};

#define GAME_COLS \
	"id, kind, nplayers, turn, winner, aux, moves, created, updated," \
	" ludo_preset, six_bonus, capture_bonus, three_sixes, board," \
	" has_deck, deck, seats, dice, turn_timeout, deadline, roll," \
	" roll_player, stamp"

static const struct pg_stmt stmts[NPS] = {
	[PS_CREATE] = {
	    "WITH g AS (INSERT INTO games (" GAME_COLS ")"
	    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,"
	    " $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)"
	    " ON CONFLICT (id) DO NOTHING RETURNING id),"
	    " p AS (INSERT INTO players (game, idx, name, bot, seat)"
	    " SELECT g.id, u.idx, u.name, u.bot, u.seat FROM g,"
	    " unnest($24::int[], $25::text[], $26::int[], $27::bytea[])"
	    " AS u(idx, name, bot, seat)),"
	    " t AS (INSERT INTO tokens (game, player, token, pos, points)"
	    " SELECT g.id, u.player, u.token, u.pos, u.points FROM g,"
	    " unnest($28::int[], $29::int[], $30::int[], $31::int[])"
	    " AS u(player, token, pos, points)),"
	    " j AS (INSERT INTO jumps (game, cell, target)"
	    " SELECT g.id, u.cell, u.target FROM g,"
	    " unnest($32::int[], $33::int[]) AS u(cell, target))"
	    " SELECT 1 FROM g", 33 },
	[PS_TURN] = {
	    "WITH g AS (UPDATE games SET turn = $4, winner = $5, aux = $6,"
	    " moves = $7, updated = $8, deadline = $9, roll = $10,"
	    " roll_player = $11, stamp = $12"
	    " WHERE id = $1 AND moves = $2 AND (stamp = $3 OR $3 = 0)"
	    " RETURNING id),"
	    " t AS (UPDATE tokens SET pos = u.pos, points = u.points FROM g,"
	    " unnest($13::int[], $14::int[], $15::int[], $16::int[])"
	    " AS u(player, token, pos, points)"
	    " WHERE tokens.game = g.id AND tokens.player = u.player"
	    " AND tokens.token = u.token RETURNING 1),"
	    " h AS (INSERT INTO history (game, seq, player, action, result,"
	    " at, automatic, txn)"
	    " SELECT g.id, $7, $17, $18, $19, $20, $21, $22 FROM g)"
	    " SELECT 1 / ((SELECT count(*) FROM t) = $23)::int FROM g", 23 },
	/* The turns of a transaction as one statement (pg_set.c): the
	 * games locked in their ids' order (l, a one-time filter of the
	 * UPDATE: run whole before it writes a row), every games row
	 * checked against the version its turn was computed from; the
	 * rows are the places (from 1) of the turns stored. */
	[PS_TURNS] = {
	    "WITH l AS MATERIALIZED (SELECT id FROM games"
	    " WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE),"
	    " u AS (SELECT * FROM unnest($2::text[], $3::bigint[],"
	    " $4::bigint[], $5::int[], $6::int[], $7::bigint[], $8::bigint[],"
	    " $9::bigint[], $10::bigint[], $11::int[], $12::int[],"
	    " $13::bigint[], $14::int[], $15::text[], $16::text[],"
	    " $17::text[], $18::bigint[], $19::int[], $20::bigint[])"
	    " WITH ORDINALITY AS u(id, moves0, stamp0, turn, winner, aux,"
	    " moves, updated, deadline, roll, roll_player, stamp, ntok,"
	    " player, action, result, at, automatic, txn, k)),"
	    " g AS (UPDATE games SET turn = u.turn, winner = u.winner,"
	    " aux = u.aux, moves = u.moves, updated = u.updated,"
	    " deadline = u.deadline, roll = u.roll,"
	    " roll_player = u.roll_player, stamp = u.stamp"
	    " FROM u WHERE (SELECT count(*) FROM l) >= 0"
	    " AND games.id = u.id AND games.moves = u.moves0"
	    " AND (games.stamp = u.stamp0 OR u.stamp0 = 0) RETURNING u.*),"
	    " t AS (UPDATE tokens SET pos = v.pos, points = v.points"
	    " FROM g JOIN unnest($21::text[], $22::int[], $23::int[],"
	    " $24::int[], $25::int[]) AS v(game, player, token, pos, points)"
	    " ON v.game = g.id WHERE tokens.game = v.game"
	    " AND tokens.player = v.player AND tokens.token = v.token"
	    " RETURNING 1),"
	    " h AS (INSERT INTO history (game, seq, player, action, result,"
	    " at, automatic, txn)"
	    " SELECT id, moves, player, action, result, at, automatic, txn"
	    " FROM g)"
	    " SELECT k FROM g WHERE 1 / ((SELECT count(*) FROM t) ="
	    " (SELECT coalesce(sum(ntok), 0) FROM g))::int = 1", 25 },
	[PS_SETUP] = {
	    "WITH g AS (UPDATE games SET updated = $4, stamp = $5"
	    " WHERE id = $1 AND moves = $2 AND (stamp = $3 OR $3 = 0)"
	    " RETURNING id),"
	    " u AS (SELECT * FROM unnest($6::int[], $7::int[])"
	    " AS u(cell, target)),"
	    " d AS (DELETE FROM jumps USING g, u WHERE jumps.game = g.id"
	    " AND jumps.cell = u.cell AND u.target = 0),"
	    " i AS (INSERT INTO jumps (game, cell, target)"
	    " SELECT g.id, u.cell, u.target FROM g, u WHERE u.target <> 0"
	    " ON CONFLICT (game, cell) DO UPDATE SET target = excluded.target)"
	    " SELECT 1 FROM g", 7 },
	[PS_PENDING] = {
	    "UPDATE games SET deadline = $4, roll = $5, roll_player = $6,"
	    " stamp = $7 WHERE id = $1 AND moves = $2"
	    " AND (stamp = $3 OR $3 = 0) RETURNING 1", 7 },
	/* A seat's key hash, only on top of the one it replaces, with the
	 * game's version checked and a new stamp put (a games row that
	 * matched with a seat that did not is a damaged database: 1 / 0). */
	[PS_SEAT] = {
	    "WITH g AS (UPDATE games SET stamp = $4"
	    " WHERE id = $1 AND moves = $2 AND (stamp = $3 OR $3 = 0)"
	    " RETURNING id),"
	    " p AS (UPDATE players SET seat = $6 FROM g"
	    " WHERE players.game = g.id AND players.idx = $5"
	    " AND players.seat = $7 RETURNING 1)"
	    " SELECT 1 / (SELECT count(*) FROM p)::int FROM g", 7 },
	[PS_CHECK] = {
	    "SELECT 1 FROM games WHERE id = $1 AND moves = $2 AND stamp = $3",
	    3 },
	[PS_MARK] = {
	    "INSERT INTO ludus_nodes (node, txn) VALUES ($1, $2)"
	    " ON CONFLICT (node) DO UPDATE SET txn = $2, seen = now()", 2 },
	[PS_IMPORT] = {
	    "INSERT INTO history (game, seq, player, action, result, at,"
	    " automatic, txn)"
	    " SELECT $1, u.seq, u.player, u.action, u.result, u.at,"
	    " u.automatic, 0"
	    " FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[],"
	    " $7::bigint[], $8::int[])"
	    " AS u(seq, player, action, result, at, automatic)"
	    " WHERE EXISTS (SELECT 1 FROM games WHERE id = $1 AND stamp = $2)",
	    8 },
	/* A game's four tables are read in one snapshot: under READ
	 * COMMITTED each statement would see the commits made before it,
	 * and a games row of one move could come with the token rows of
	 * the next. */
	[PS_SNAP_BEGIN] = {
	    "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", 0 },
	/* Its players, tokens, jumps and history go with it (ON DELETE
	 * CASCADE); checked against the snapshot's version as a turn. */
	[PS_DELETE] = {
	    "DELETE FROM games WHERE id = $1 AND moves = $2"
	    " AND (stamp = $3 OR $3 = 0) RETURNING 1", 3 },
	[PS_GAME] = {
	    "SELECT " GAME_COLS " FROM games WHERE id = $1", 1 },
	[PS_PLAYERS] = {
	    "SELECT idx, name, bot, seat FROM players WHERE game = $1"
	    " ORDER BY idx", 1 },
	[PS_TOKENS] = {
	    "SELECT player, token, pos, points FROM tokens WHERE game = $1",
	    1 },
	[PS_JUMPS] = {
	    "SELECT cell, target FROM jumps WHERE game = $1", 1 },
	[PS_SNAP_END] = {
	    "COMMIT", 0 },
	[PS_VERSION] = {
	    "SELECT moves, stamp FROM games WHERE id = $1", 1 },
	[PS_EXISTS] = {
	    "SELECT 1 FROM games WHERE id = $1", 1 },
	[PS_HISTORY] = {
	    "SELECT seq, player, action, result, at, automatic FROM history"
	    " WHERE game = $1 AND seq >= $2 ORDER BY seq LIMIT $3", 3 },
	/* Each followed game's new moves by its own range of history's key
	 * (the LATERAL subquery, run once per game, cannot be turned into a
	 * join that scans history whole): the cost is the games followed
	 * times their new moves, whatever the history's size. */
	[PS_SINCE] = {
	    "SELECT w.game, h.seq, h.player, h.action, h.result, h.at,"
	    " h.automatic"
	    " FROM unnest($1::text[], $2::bigint[]) AS w(game, after)"
	    " CROSS JOIN LATERAL (SELECT seq, player, action, result, at,"
	    " automatic FROM history WHERE game = w.game AND seq > w.after"
	    " ORDER BY seq LIMIT $3) h"
	    " ORDER BY w.game, h.seq LIMIT $3", 3 },
	[PS_LIST_ALL] = {
	    "SELECT id, kind FROM games WHERE id > $1 ORDER BY id LIMIT $2",
	    2 },
	[PS_LIST_KIND] = {
	    "SELECT id, kind FROM games WHERE kind = $3 AND id > $1"
	    " ORDER BY id LIMIT $2", 3 },
	[PS_COUNT] = {
	    "SELECT kind, count(*) FROM games GROUP BY kind", 0 },
	[PS_DEADLINES] = {
	    "SELECT id, deadline FROM games WHERE deadline IS NOT NULL"
	    " ORDER BY deadline, id", 0 },
	[PS_DEADLINES_BEFORE] = {
	    "SELECT id, deadline FROM games WHERE deadline < $1"
	    " ORDER BY deadline, id LIMIT $2", 2 },
	[PS_META_SELECT] = {
	    "SELECT value FROM meta WHERE key = $1", 1 },
	[PS_META_INSERT] = {
	    "INSERT INTO meta (key, value) VALUES ($1, $2)"
	    " ON CONFLICT (key) DO NOTHING", 2 },
	[PS_SIZE] = {
	    "SELECT pg_database_size(current_database())", 0 },
	[PS_NODE_ADD] = {
	    "INSERT INTO ludus_nodes (node) VALUES ($1)"
	    " ON CONFLICT (node) DO NOTHING", 1 },
	[PS_NODE_PRUNE] = {
	    "DELETE FROM ludus_nodes WHERE seen < now() - interval '1 day'",
	    0 },
	/* The session of a connection that broke, by its process and the
	 * start taken when it connected (a later session may have the same
	 * process number): ended for certain (true), or gone already (no
	 * row), before its commit is looked up. */
	[PS_TERMINATE] = {
	    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
	    " WHERE pid = $1"
	    " AND (extract(epoch FROM backend_start) * 1000000)::bigint = $2",
	    2 },
	[PS_OUTCOME] = {
	    "SELECT txn FROM ludus_nodes WHERE node = $1 FOR UPDATE", 1 },
	[PS_TURN_STORED] = {
	    "SELECT 1 FROM history WHERE game = $1 AND seq = $2"
	    " AND txn = $3", 3 },
	[PS_STAMP_IS] = {
	    "SELECT 1 FROM games WHERE id = $1 AND stamp = $2", 2 },
	/* What a lobby row's write of a COMMIT that committed became
	 * (pg_outcome.c), each with the first parameters of the write it
	 * answers for: a ticket's id is drawn once, so its row is the
	 * insert's; a cancel is the one that ended it at its moment; an
	 * account's key is a fresh random one's hash, so a row with it is
	 * the insert's or the rekey's. */
	[PS_TICKET_IS] = {
	    "SELECT 1 FROM tickets WHERE id = $1::bigint", 1 },
	[PS_CANCEL_IS] = {
	    "SELECT 1 FROM tickets WHERE id = $1::bigint AND state = 2"
	    " AND ended = $2::bigint", 2 },
	[PS_ACCOUNT_KEY_IS] = {
	    "SELECT 1 FROM accounts WHERE name = $1 AND key = $2::bytea", 2 },
	[PS_SEAT_IS] = {
	    "SELECT 1 FROM game_accounts WHERE game = $1 AND idx = $2::int"
	    " AND account = $3", 3 },
	[PS_CLEAR] = {
	    "TRUNCATE games, players, tokens, jumps, history, meta, tickets,"
	    " ratings, game_accounts", 0 },
	[PS_CLEAR_ACCOUNTS] = {
	    "DELETE FROM accounts WHERE bot IS NULL", 0 },
	/* A whole request's games still have the stamps it (and what was
	 * built on it) put or read: else 1 / 0 rolls the transaction back
	 * (pg_whole.c). */
	/* Both from the partial index games_finished (finished: the
	 * last move's time of a game that is over, else NULL). */
	[PS_FINISHED] = {
	    "SELECT id, kind FROM games WHERE finished < $1"
	    " ORDER BY finished, id LIMIT $2", 2 },
	[PS_FINISHED_COUNT] = {
	    "SELECT count(*) FROM games WHERE finished IS NOT NULL", 0 },
	[PS_WHOLE] = {
	    "SELECT 1 / (count(DISTINCT g.id) = $3)::int FROM games g"
	    " JOIN unnest($1::text[], $2::bigint[]) AS u(id, stamp)"
	    " ON g.id = u.id AND g.stamp = u.stamp", 3 },

	/* ------------------------------------------- the lobby's writes */
	/* A name another node takes at the same moment: no row. */
	[PS_ACCOUNT_INSERT] = {
	    "INSERT INTO accounts (name, key, created) VALUES ($1, $2, $3)"
	    " ON CONFLICT (name) DO NOTHING RETURNING 1", 3 },
	[PS_ACCOUNT_REKEY] = {
	    "UPDATE accounts SET key = $2 WHERE name = $1 AND key = $3"
	    " RETURNING 1", 3 },
	/* Held to the COMMIT: an account's tickets are counted by one
	 * transaction at a time, each after the one before committed (the
	 * count is the next statement's, whose snapshot follows the
	 * lock). */
	[PS_ACCOUNT_LOCK] = {
	    "SELECT pg_advisory_xact_lock(" PG_LOCK_ACCOUNT ", hashtext($1))",
	    1 },
	/* Each row written only on top of the one its rating was computed
	 * from (games, its version; 0: none yet), in name order; a row
	 * that changed divides by zero, which rolls the transaction back:
	 * every request of it runs again (pg_whole.c). */
	[PS_RATINGS] = {
	    "WITH u AS (SELECT * FROM unnest($2::text[], $3::float8[],"
	    " $4::float8[], $5::float8[], $6::bigint[], $7::bigint[],"
	    " $8::bigint[], $9::bigint[])"
	    " AS u(account, rating, rd, vol, games, won, updated, old)),"
	    " w AS (INSERT INTO ratings AS r (account, kind, rating, rd, vol,"
	    " games, won, updated)"
	    " SELECT account, $1::int, rating, rd, vol, games, won, updated"
	    " FROM u ORDER BY account"
	    " ON CONFLICT (account, kind) DO UPDATE SET"
	    " rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
	    " games = excluded.games, won = excluded.won,"
	    " updated = excluded.updated"
	    " WHERE r.games = (SELECT old FROM u"
	    " WHERE u.account = excluded.account) RETURNING 1)"
	    " SELECT 1 / ((SELECT count(*) FROM w) = $10)::int", 10 },
	/* The count follows PS_ACCOUNT_LOCK (above). */
	[PS_TICKET_INSERT] = {
	    "INSERT INTO tickets (id, account, kind, queue, players_min,"
	    " players_max, rating, span, bots_after, joined)"
	    " SELECT $1::bigint, $2::text, $3::int, $4::text, $5::int,"
	    " $6::int, $7::float8, $8::float8, $9::bigint, $10::bigint"
	    " WHERE $11::bigint = 0 OR (SELECT count(*) FROM tickets"
	    " WHERE account = $2 AND state = 0) < $11 RETURNING 1", 11 },
	[PS_TICKET_CANCEL] = {
	    "UPDATE tickets SET state = 2, ended = $2"
	    " WHERE id = $1 AND state = 0 RETURNING 1", 2 },
	/* A create (PS_CREATE's parameters) made only if every ticket is
	 * still waiting, which the lock of l keeps so: the tickets taken,
	 * the accounts' seats written, all of it or none. */
	[PS_MATCH] = {
	    "WITH l AS (SELECT id FROM tickets WHERE id = ANY($34::bigint[])"
	    " AND state = 0 ORDER BY id FOR UPDATE),"
	    " g AS (INSERT INTO games (" GAME_COLS ")"
	    " SELECT $1::text, $2::int, $3::int, $4::int, $5::int,"
	    " $6::bigint, $7::bigint, $8::bigint, $9::bigint, $10::int,"
	    " $11::int, $12::int, $13::int, $14::text, $15::int, $16::text,"
	    " $17::int, $18::int, $19::bigint, $20::bigint, $21::int,"
	    " $22::int, $23::bigint"
	    " WHERE (SELECT count(*) FROM l) = $36"
	    " ON CONFLICT (id) DO NOTHING RETURNING id),"
	    " p AS (INSERT INTO players (game, idx, name, bot, seat)"
	    " SELECT g.id, u.idx, u.name, u.bot, u.seat FROM g,"
	    " unnest($24::int[], $25::text[], $26::int[], $27::bytea[])"
	    " AS u(idx, name, bot, seat)),"
	    " t AS (INSERT INTO tokens (game, player, token, pos, points)"
	    " SELECT g.id, u.player, u.token, u.pos, u.points FROM g,"
	    " unnest($28::int[], $29::int[], $30::int[], $31::int[])"
	    " AS u(player, token, pos, points)),"
	    " j AS (INSERT INTO jumps (game, cell, target)"
	    " SELECT g.id, u.cell, u.target FROM g,"
	    " unnest($32::int[], $33::int[]) AS u(cell, target)),"
	    " a AS (INSERT INTO game_accounts (game, idx, account)"
	    " SELECT g.id, u.idx, u.account FROM g,"
	    " unnest($37::int[], $38::text[]) AS u(idx, account)),"
	    " k AS (UPDATE tickets SET state = 1, game = g.id, seat = u.seat,"
	    " ended = $39 FROM g, unnest($34::bigint[], $35::int[])"
	    " AS u(id, seat) WHERE tickets.id = u.id)"
	    " SELECT 1 FROM g", 39 },

	/* -------------------------------------------- the lobby's reads */
	[PS_ACCOUNT_SELECT] = {
	    "SELECT name, key, bot, created FROM accounts WHERE name = $1",
	    1 },
	[PS_RATING_SELECT] = {
	    "SELECT rating, rd, vol, games, won, updated FROM ratings"
	    " WHERE account = $1 AND kind = $2", 2 },
	[PS_LEADERBOARD] = {
	    "SELECT account, rating, rd, vol, games, won, updated FROM ratings"
	    " WHERE kind = $1 ORDER BY rating DESC, account"
	    " LIMIT $3 OFFSET $2", 3 },
	[PS_TICKET_IDS] = {
	    "SELECT nextval('ticket_ids') FROM generate_series(1, $1)", 1 },
	/* A join's reads: the account's waiting tickets, its rating of the
	 * kind (NULL columns for none). */
	[PS_JOIN_READ] = {
	    "SELECT (SELECT count(*) FROM tickets WHERE account = $1"
	    " AND state = 0), r.rating, r.rd, r.vol, r.games, r.won, r.updated"
	    " FROM (SELECT 1) AS one LEFT JOIN ratings r"
	    " ON r.account = $1 AND r.kind = $2::int", 2 },
	[PS_TICKET_SELECT] = {
	    "SELECT " PG_TICKET_COLS " FROM tickets WHERE id = $1", 1 },
	[PS_TICKETS_WAITING] = {
	    "SELECT " PG_TICKET_COLS " FROM tickets"
	    " WHERE queue = $1 AND state = 0 ORDER BY joined, id LIMIT $2",
	    2 },
	[PS_QUEUES_ALL] = {
	    "SELECT queue, min(kind), count(*), min(joined) FROM tickets"
	    " WHERE state = 0 GROUP BY queue ORDER BY queue", 0 },
	[PS_QUEUES_KIND] = {
	    "SELECT queue, min(kind), count(*), min(joined) FROM tickets"
	    " WHERE state = 0 AND kind = $1 GROUP BY queue ORDER BY queue",
	    1 },
	[PS_TICKETS_ENDED] = {
	    "SELECT " PG_TICKET_COLS " FROM tickets"
	    " WHERE id = ANY($1::bigint[]) AND state <> 0 ORDER BY id", 1 },
	[PS_SEAT_SELECT] = {
	    "SELECT idx, account FROM game_accounts WHERE game = $1"
	    " ORDER BY idx", 1 },
	[PS_ACCOUNT_GAMES] = {
	    "SELECT g.id, g.kind, a.idx, ps.name, pt.name, g.nplayers,"
	    " g.turn, g.winner, g.moves FROM game_accounts a"
	    " JOIN games g ON g.id = a.game"
	    " JOIN players ps ON ps.game = a.game AND ps.idx = a.idx"
	    " LEFT JOIN players pt ON pt.game = g.id AND pt.idx = g.turn"
	    " WHERE a.account = $1 AND a.game > $2"
	    " AND ($3 = 0 OR ($3 = 1) = (g.turn >= 0))"
	    " ORDER BY a.game, a.idx LIMIT $4", 4 },
	/* The session's: held until the read connection closes. */
	[PS_QUEUE_LOCK] = {
	    "SELECT pg_try_advisory_lock(" PG_LOCK_QUEUE ", $1::int)", 1 },

	/* -------------------------------------------- ludus copy's */
	[PS_ACCOUNT_EACH] = {
	    "SELECT name, key, bot, created FROM accounts"
	    " WHERE key IS NOT NULL ORDER BY name", 0 },
	[PS_RATING_EACH] = {
	    "SELECT account, kind, rating, rd, vol, games, won, updated"
	    " FROM ratings ORDER BY account, kind", 0 },
	[PS_TICKET_EACH] = {
	    "SELECT " PG_TICKET_COLS " FROM tickets WHERE id > $1"
	    " ORDER BY id LIMIT $2", 2 },
	[PS_SEAT_EACH] = {
	    "SELECT game, idx, account FROM game_accounts"
	    " ORDER BY game, idx", 0 },
	/* The sequence is moved past the ticket: the ids drawn after it
	 * are new. */
	[PS_TICKET_IMPORT] = {
	    "WITH i AS (INSERT INTO tickets (" PG_TICKET_COLS ")"
	    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,"
	    " $14) RETURNING id)"
	    " SELECT setval('ticket_ids', GREATEST(i.id, s.last_value))"
	    " FROM i, ticket_ids s", 14 },
	[PS_SEAT_IMPORT] = {
	    "INSERT INTO game_accounts (game, idx, account)"
	    " VALUES ($1, $2, $3) RETURNING 1", 3 },
};

/* Statement i is prepared as "l<i>". */
static void
stmt_name(char buf[8], enum pg_stmt_id id)
{
	struct strbuf	 sb;

	strbuf_init(&sb, buf, 8);
	strbuf_addc(&sb, 'l');
	strbuf_addint(&sb, (int64_t)id);
}

int
pg_prepare_all(PGconn *pc)
{
	PGresult	*r;
	char		 name[8];
	int		 i, ok = 1;

	for (i = 0; i < NPS && ok; i++) {
		stmt_name(name, (enum pg_stmt_id)i);
		r = PQprepare(pc, name, stmts[i].sql, stmts[i].nparams, NULL);
		ok = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
		PQclear(r);
	}
	return ok ? 0 : -1;
}

int
pg_send_prepare(PGconn *pc, enum pg_stmt_id id)
{
	char	 name[8];

	stmt_name(name, id);
	return PQsendPrepare(pc, name, stmts[id].sql, stmts[id].nparams,
	    NULL) == 1 ? 0 : -1;
}

int
pg_send(PGconn *pc, enum pg_stmt_id id, int n, const char *const *params)
{
	char	 name[8];

	stmt_name(name, id);
	if (n > stmts[id].nparams)
		n = stmts[id].nparams;
	return PQsendQueryPrepared(pc, name, n, params, NULL, NULL, 0) == 1 ?
	    0 : -1;
}

/* --------------------------------------------------------- parameters */

const char *
pg_int(char buf[PG_INT_MAX], int64_t v)
{
	struct strbuf	 sb;

	strbuf_init(&sb, buf, PG_INT_MAX);
	strbuf_addint(&sb, v);
	return buf;
}

/* The schema's NULL for "none": no deadline, no pending roll. */
const char *
pg_int_or_null(char buf[PG_INT_MAX], int64_t v)
{
	return v == 0 ? NULL : pg_int(buf, v);
}

static void
buf_grow(struct pg_buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	while (b->len + more + 1 > b->cap)
		b->cap = b->cap == 0 ? 256 : b->cap * 2;
	b->p = xrealloc(b->p, b->cap);
}

static void
buf_add(struct pg_buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* A comma before every element but the first. */
static void
buf_sep(struct pg_buf *b)
{
	if (b->len > 1)
		buf_add(b, ",", 1);
}

/* Elements already in the array's form (another array's, "1,2,3"). */
void
pg_buf_raw(struct pg_buf *b, const char *s, size_t len)
{
	buf_sep(b);
	buf_add(b, s, len);
}

void
pg_buf_start(struct pg_buf *b)
{
	b->len = 0;
	buf_add(b, "{", 1);
}

void
pg_buf_int(struct pg_buf *b, int64_t v)
{
	char	 n[PG_INT_MAX];

	buf_sep(b);
	pg_int(n, v);
	buf_add(b, n, strlen(n));
}

/* An array element in double quotes, with \ and " escaped. */
void
pg_buf_text(struct pg_buf *b, const char *s, size_t len)
{
	size_t	 i;

	buf_sep(b);
	buf_add(b, "\"", 1);
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			buf_add(b, "\\", 1);
		buf_add(b, &s[i], 1);
	}
	buf_add(b, "\"", 1);
}

void
pg_buf_bytea(struct pg_buf *b, const uint8_t *v, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;
	char			 c[2];

	/* "\\x..." in the array's quoting: the element is \x... */
	buf_sep(b);
	buf_add(b, "\"\\\\x", 4);
	for (i = 0; i < len; i++) {
		c[0] = hex[v[i] >> 4];
		c[1] = hex[v[i] & 15];
		buf_add(b, c, 2);
	}
	buf_add(b, "\"", 1);
}

void
pg_buf_null(struct pg_buf *b)
{
	buf_sep(b);
	buf_add(b, "NULL", 4);
}

const char *
pg_buf_end(struct pg_buf *b)
{
	buf_add(b, "}", 1);
	return b->p;
}

void
pg_buf_free(struct pg_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

const char *
pg_bytea(char *buf, const uint8_t *v, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;

	buf[0] = '\\';
	buf[1] = 'x';
	for (i = 0; i < len; i++) {
		buf[2 + 2 * i] = hex[v[i] >> 4];
		buf[3 + 2 * i] = hex[v[i] & 15];
	}
	buf[2 + 2 * len] = '\0';
	return buf;
}

/* ------------------------------------------------------------ columns */

int
pg_col_int(const PGresult *r, int row, int col, int64_t *v)
{
	const char	*errstr;

	*v = 0;
	if (PQgetisnull(r, row, col))
		return 0;
	return parse_int64(PQgetvalue(r, row, col), INT64_MIN, INT64_MAX, v,
	    &errstr);
}

static int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* bytea's text output is hex (bytea_output, set when connecting). */
int
pg_col_bytea(const PGresult *r, int row, int col, uint8_t *out, size_t len)
{
	const char	*s;
	size_t		 n, i;
	int		 hi, lo;

	if (PQgetisnull(r, row, col))
		return -1;
	s = PQgetvalue(r, row, col);
	n = strlen(s);
	if (n < 2 || s[0] != '\\' || s[1] != 'x' || (n - 2) % 2 != 0 ||
	    (n - 2) / 2 > len)
		return -1;
	for (i = 0; i < (n - 2) / 2; i++) {
		if ((hi = hex_digit(s[2 + 2 * i])) < 0 ||
		    (lo = hex_digit(s[3 + 2 * i])) < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)((n - 2) / 2);
}
