#!/bin/sh
# Upgrades (TAP): a database of each earlier schema version, written by
# that version's code and kept as SQL text in tests/upgrade/ (made by
# tests/upgrade/make-fixtures.sh), is loaded, opened by today's ludusd,
# migrated to the latest version (INFO's schema_version), and must hold
# the same games with the same histories, AUDIT clean, and play on.  A
# database newer than the binary is refused at start, with a message
# that says so, and left byte for byte as it was.  SQLite's fixtures here;
# PostgreSQL's with the suite's database (LUDUS_TEST_STORE,
# tests/pg/test_upgrade_sh.pg).  The latest version is the number of
# migrations in sql/ (sql/pg/), never a number written here.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
need_cli
test_setup ludus-upgrade

case ${LUDUS_TEST_STORE:-} in
postgresql://* | postgres://*)
	backend=pg
	command -v psql >/dev/null 2>&1 || skip_all "no psql"
	latest=$(ls "$top_srcdir"/sql/pg/[0-9]*.sql | wc -l | tr -d ' ')
	fixtures=$(ls "$top_srcdir"/tests/upgrade/pg-v*.sql)
	;;
*)
	backend=sqlite
	command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3"
	latest=$(ls "$top_srcdir"/sql/[0-9]*.sql | wc -l | tr -d ' ')
	fixtures=$(ls "$top_srcdir"/tests/upgrade/sqlite-v*.sql)
	;;
esac
n=$(echo "$fixtures" | wc -l | tr -d ' ')
echo "1..$((n * 7 + 3))"

psql_q() {
	PGOPTIONS=--client-min-messages=warning psql -X -q -A -t \
	    -v ON_ERROR_STOP=1 "$LUDUS_TEST_STORE" "$@"
}
# sql QUERY: one query on the fixture's database, as the old code left it.
sql() {
	if [ $backend = pg ]; then psql_q -c "$1"; else sqlite3 "$DB" "$1"; fi
}
# load FIXTURE: a fresh database from the SQL text.
load() {
	if [ $backend = pg ]; then
		psql_q -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public" &&
		    psql_q -f "$1" >/dev/null
	else
		DB=$DIR/$(basename "$1" .sql).db
		rm -f "$DB"
		sqlite3 "$DB" <"$1"
	fi
}
store_args() {
	if [ $backend = pg ]; then
		echo "--store $LUDUS_TEST_STORE"
	else
		echo "--db $DB"
	fi
}
# What a client reads of every game: its history, one line a move.
histories() {
	for id in $(cli GAMES); do
		echo "$id: $(cli HISTORY "$id" 1 10000 | paste -sd' ' -)"
	done
}

for f in $fixtures; do
	v=$(basename "$f" .sql | sed 's/.*-v//')
	name="$(basename "$f" .sql)"
	load "$f" || { not_ok "$name loads"; continue; }
	if [ $backend = pg ]; then
		was=$(psql_q -c "SELECT version FROM ludus_schema")
	else
		was=$(sqlite3 "$DB" "PRAGMA user_version")
	fi
	check "$name: the fixture is at schema version $v" "$v" "$was"
	ids=$(sql "SELECT id FROM games ORDER BY id" | paste -sd' ' -)
	moves=$(sql "SELECT game || ':' || count(*) FROM history GROUP BY game
	    ORDER BY game" | paste -sd' ' -)
	# shellcheck disable=SC2046
	# The fixtures' bots must not move while their moves are counted.
	if ! start_daemon "$DIR/port" "$DIR/log" $(store_args) \
	    --bot-delay 3600000; then
		not_ok "$name: ludusd opens it"
		sed 's/^/# /' "$DIR/log"
		continue
	fi
	check "$name: migrated to version $latest" "schema_version:$latest" \
	    "$(cli INFO persistence | tr -d '\r' | grep '^schema_version:')"
	check "$name: the same games" "$ids" "$(cli GAMES | paste -sd' ' -)"
	got=$(for id in $(cli GAMES); do
		echo "$id:$(cli XLEN "$id")"; done | grep -v ':0$' | paste -sd' ' -)
	check "$name: the same moves" "$moves" "$got"
	check "$name: AUDIT clean" "" "$(cli AUDIT)"
	# Play on: a move of a game in play, and a finished game refused.
	out="$(cli SNL.ROLL snl-play 1 | cut -d' ' -f1) $(cli SNL.ROLL snl-done 1)"
	check "$name: plays on" "P3 GAME_OVER" "$out"
	stop_daemon
	# Every child row names a stored game: on SQLite by its integer
	# gid (and the foreign keys and the file check clean), on
	# PostgreSQL, which keeps the text id, by that id.
	children="SELECT game FROM players UNION ALL SELECT game FROM tokens
	    UNION ALL SELECT game FROM jumps UNION ALL SELECT game FROM history
	    UNION ALL SELECT game FROM game_accounts"
	if [ $backend = pg ]; then
		check "$name: every child row names a stored game" "0" \
		    "$(psql_q -c "SELECT count(*) FROM ($children) c
		    WHERE c.game NOT IN (SELECT id FROM games)")"
		continue
	fi
	check "$name: the children keyed by gid" "0 ok" "$(sqlite3 "$DB" "
	    SELECT count(*) FROM ($children) c
	    WHERE typeof(c.game) <> 'integer' OR
		c.game NOT IN (SELECT gid FROM games);
	    PRAGMA foreign_key_check; PRAGMA integrity_check" | paste -sd' ' -)"
done

# ------------------------------------------------------ a newer version
# pg_dump's \restrict line has a key of its own each run: left out.
if [ $backend = pg ]; then
	psql_q -c "UPDATE ludus_schema SET version = $((latest + 1))"
	before=$(pg_dump --no-owner "$LUDUS_TEST_STORE" | grep -v "^\\\\.*restrict" | md5sum)
else
	DB=$DIR/newer.db
	rm -f "$DB"
	sqlite3 "$DB" "CREATE TABLE games (id TEXT); INSERT INTO games
	    VALUES ('x'); PRAGMA user_version = $((latest + 1))"
	before=$(md5sum <"$DB")
fi
# shellcheck disable=SC2046
timeout 10 "$LUDUSD" $(store_args) --port 0 >"$DIR/newer.log" 2>&1
rc=$?
check "a newer database: ludusd exits 1" 1 "$rc"
contains "... saying why" "database schema version $((latest + 1)) is newer than this program's ($latest)" \
    "$(cat "$DIR/newer.log")"
if [ $backend = pg ]; then
	after=$(pg_dump --no-owner "$LUDUS_TEST_STORE" | grep -v "^\\\\.*restrict" | md5sum)
	psql_q -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public"
else
	after=$(md5sum <"$DB")
	[ -e "$DB-wal" ] && after="$after (and a WAL)"
fi
check "... and leaves it untouched" "$before" "$after"

exit $((FAILED > 0))
