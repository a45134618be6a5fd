#!/bin/sh
# ludus copy (TAP): every game of one store into another, then AUDIT of
# the target.  SQLite to SQLite is an online backup of a file a running
# ludusd writes; with the suite's PostgreSQL database (LUDUS_TEST_STORE,
# tests/pg/test_copy_sh.pg) SQLite to PostgreSQL and back.  Each copy
# must hold the same games (GAME.INFO, HISTORY), seats that still open
# with their keys, pending rolls and deadlines, the lobby's rows (accounts
# that log in with their keys, tickets, the seats accounts hold), and
# refuse a target that holds games unless --force.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
. "$(dirname "$0")/../lib/store.sh"
test_setup ludus-copy

games="g sec s bots timed d"
A=$DIR/a.db
L() { "$LUDUS" --db "$A" "$@"; }
L LUDO.CREATE g red blue >/dev/null
L LUDO.PLAY g red 6 1 >/dev/null
L LUDO.PLAY g red 3 1 >/dev/null
L LUDO.CREATE sec a b seats=secure >"$DIR/keys"
L SNL.CREATE s 2 >/dev/null
L SNL.SNAKE s 40 3 >/dev/null
L SNL.ROLL s 4 >/dev/null
L LUDO.CREATE bots x y bots=x:expert,y:first dice=server >/dev/null
L LUDO.CREATE timed x y turn-timeout=600 dice=server >/dev/null
L LUDO.ROLL timed x >/dev/null
L DANDY.CREATE d 2 abcdef deck=shuffled:30 >/dev/null
L DANDY.DRAW d >/dev/null

# same NAME STORE: every game reads the same in STORE as in a.db.
same() {
	bad=
	for id in $games; do
		for c in "GAME.INFO $id" "HISTORY $id 1 1000"; do
			a=$(L $c)
			b=$("$LUDUS" --store "$2" $c)
			[ "$a" = "$b" ] || bad="$bad $c"
		done
	done
	if [ -z "$bad" ]; then ok "$1"; else not_ok "$1"; echo "# differ:$bad"; fi
}

# The lobby: alice and bob matched into a game by the daemon (start_lobby),
# carol's ticket waiting.  lobby NAME STORE: the copy says the same of
# them (MATCH.LIST: the queues waiting), and alice's key logs in there.
start_lobby() {
	P=$(cat "$DIR/port")
	for who in alice bob carol; do
		"$LUDUS" -p "$P" PLAYER.CREATE $who >"$DIR/key.$who"
	done
	printf 'PLAYER.LOGIN alice %s\nMATCH.JOIN ludo players=2\n' \
	    "$(cat "$DIR/key.alice")" | "$LUDUS" -p "$P" >/dev/null
	printf 'PLAYER.LOGIN bob %s\nMATCH.JOIN ludo players=2\nMATCH.WAIT 2 5000\n' \
	    "$(cat "$DIR/key.bob")" | "$LUDUS" -p "$P" >"$DIR/matched"
	printf 'PLAYER.LOGIN carol %s\nMATCH.JOIN snl players=3\n' \
	    "$(cat "$DIR/key.carol")" | "$LUDUS" -p "$P" >/dev/null
	games="$games $(sed -n 2p "$DIR/matched")"
}
lobby_of() {
	for who in alice bob carol; do
		"$LUDUS" --store "$1" PLAYER.INFO $who
		"$LUDUS" --store "$1" PLAYER.GAMES $who
	done
	"$LUDUS" --store "$1" MATCH.LIST | sed '$d'	# all but the wait
	printf 'PLAYER.LOGIN alice %s\n' "$(cat "$DIR/key.alice")" |
	    "$LUDUS" --store "$1"
}
lobby() {
	a=$(lobby_of "$A")
	b=$(lobby_of "$2")
	if [ "$a" = "$b" ] && [ "$(echo "$a" | tail -n 1)" = OK ] &&
	    echo "$a" | grep -q "^snl$"
	then ok "$1"
	else not_ok "$1"; echo "# a.db:"; echo "$a" | sed 's/^/# /'
		echo "# copy:"; echo "$b" | sed 's/^/# /'; fi
}

# A secure seat opens in the copy with the key the original gave.
seat() {
	key=$(sed -n 1p "$DIR/keys" | cut -d, -f2)
	out=$(printf 'SEAT sec a %s\nLUDO.PLAY sec a 6 1\n' "$key" |
	    "$LUDUS" --store "$2")
	check "$1" "OK
MOVED" "$out"
}

# The PostgreSQL cases run only in tests/pg/test_copy_sh.pg's run: they
# are not this run's to count.
case ${LUDUS_TEST_STORE:-} in
postgresql://* | postgres://*) echo "1..15" ;;
*) echo "1..6" ;;
esac

# ------------------------------------------- SQLite to SQLite, online
start_daemon "$DIR/port" "$DIR/log" --db "$A" || not_ok "ludusd starts"
start_lobby
out=$("$LUDUS" copy "$A" "$DIR/b.db" 2>&1)
check "a backup of a running daemon's file" "copied 7 games (an online backup)
AUDIT of the target: no differences" "$out"
same "the backup holds the same games" "$DIR/b.db"
seat "a seat opens in the backup" "$DIR/b.db"
lobby "the backup holds the same lobby" "$DIR/b.db"
"$LUDUS" copy "$A" "$DIR/b.db" >"$DIR/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "not overwritten without --force" "$DIR/out"
then ok "a target that holds games is refused"
else not_ok "a target that holds games is refused (exit $rc)"; fi
"$LUDUS" copy --force "$A" "$DIR/b.db" >"$DIR/out" 2>&1
check "--force overwrites it" "0" "$?"
kill -TERM "$PID"; wait "$PID"; PID=

# ------------------------------------------ SQLite to PostgreSQL, back
case ${LUDUS_TEST_STORE:-} in
postgresql://* | postgres://*)
	store_for unused
	out=$("$LUDUS" copy "$A" "$STORE_ARG" 2>&1)
	check "SQLite to PostgreSQL" "copied 7 games, 224 moves, 8 lobby rows
AUDIT of the target: no differences" "$(echo "$out" |
	    sed 's/[0-9]* moves/224 moves/')"
	same "PostgreSQL holds the same games" "$STORE_ARG"
	lobby "PostgreSQL holds the same lobby" "$STORE_ARG"
	"$LUDUS" copy "$A" "$STORE_ARG" >/dev/null 2>&1
	check "a PostgreSQL target that holds games is refused" 1 $?
	out=$("$LUDUS" copy "$STORE_ARG" "$DIR/c.db" 2>&1)
	contains "PostgreSQL to SQLite" "AUDIT of the target: no differences" \
	    "$out"
	same "back in SQLite, the same games" "$DIR/c.db"
	seat "a seat opens in the copy of the copy" "$DIR/c.db"
	lobby "back in SQLite, the same lobby" "$DIR/c.db"
	"$LUDUS" copy --force "$DIR/c.db" "$STORE_ARG" >/dev/null 2>&1
	check "--force empties a PostgreSQL target first" 0 $?
	;;
esac

[ "$FAILED" -eq 0 ]
