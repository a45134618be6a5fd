#!/bin/sh
# ludus export and import (TAP): games of every kind (finished and in
# play, secure seats, bots, a pending roll and a deadline, jumps, decks)
# archived as JSON Lines, readable without ludus (python3's json), and
# restored into another store, where every game reads the same (GAME.INFO,
# HISTORY, REPLAY) and AUDITs clean, with seats that open with their old
# keys; the filters; and every bad archive refused with its line number,
# nothing imported.  With the suite's PostgreSQL database
# (LUDUS_TEST_STORE, tests/pg/test_archive_sh.pg) the games are made and
# exported there, and imported into SQLite and back into PostgreSQL once
# it was emptied.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
. "$(dirname "$0")/../lib/store.sh"
need_cli python3
test_setup ludus-archive

store_for "$DIR/a.db"
S() { "$LUDUS" "$STORE_OPT" "$STORE_ARG" "$@"; }
B() { "$LUDUS" --db "$DIR/b.db" "$@"; }
games="g sec s done bots timed d hand"
S LUDO.CREATE g red blue >/dev/null
S LUDO.PLAY g red 6 1 >/dev/null
S LUDO.PLAY g red 3 1 >/dev/null
S LUDO.CREATE sec a b seats=secure >"$DIR/keys"
S SNL.CREATE s 2 >/dev/null
S SNL.SNAKE s 40 3 >/dev/null
S SNL.LADDER s 5 60 >/dev/null
S SNL.ROLL s 4 >/dev/null
S SNL.CREATE done 1 >/dev/null
S SNL.LADDER done 3 100 >/dev/null
S SNL.ROLL done 3 >/dev/null
S LUDO.CREATE bots x y bots=x:expert,y:first dice=server >/dev/null
S LUDO.CREATE timed x y turn-timeout=600 dice=server >/dev/null
S LUDO.ROLL timed x >/dev/null
S DANDY.CREATE d 2 abcdef deck=shuffled:30 >/dev/null
S DANDY.DRAW d >/dev/null
S DANDY.CREATE hand 3 abcabc >/dev/null
S DANDY.DRAW hand b >/dev/null

# same NAME CMD...: every game reads the same through CMD as through S.
same() {
	name=$1
	shift
	bad=
	for id in $games; do
		for c in "GAME.INFO $id" "HISTORY $id 1 10000" "REPLAY $id"; do
			a=$(S $c)
			b=$("$@" $c)
			[ "$a" = "$b" ] || bad="$bad $c"
		done
	done
	if [ -z "$bad" ]; then ok "$name"; else not_ok "$name"; echo "# differ:$bad"; fi
}
# A secure seat opens in the copy with the key the original gave.
seat() {
	name=$1
	shift
	key=$(sed -n 1p "$DIR/keys" | cut -d, -f2)
	out=$(printf 'SEAT sec a %s\nLUDO.PLAY sec a 6 1\n' "$key" | "$@")
	check "$name" "OK
MOVED" "$out"
}
# refused NAME ARCHIVE MESSAGE: an import into b2.db (with one game)
# fails naming MESSAGE, and b2.db holds its one game only.
refused() {
	"$LUDUS" --db "$DIR/b2.db" import "$2" >"$DIR/out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q -- "$3" "$DIR/out" &&
	    grep -q "nothing imported" "$DIR/out" &&
	    [ "$("$LUDUS" --db "$DIR/b2.db" GAMES | paste -sd' ' -)" = keep ]
	then ok "$1"
	else not_ok "$1 (exit $rc)"; sed 's/^/# /' "$DIR/out"; fi
}

case ${LUDUS_TEST_STORE:-} in
postgresql://* | postgres://*) echo "1..29" ;;
*) echo "1..25" ;;
esac

# ------------------------------------------------------------- export
out=$(S export "$DIR/all.jsonl" 2>&1)
contains "export says what it did" "exported 8 games, " "$out"
check "a header line, a line per game, an end line" 10 \
    "$(wc -l <"$DIR/all.jsonl" | tr -d ' ')"
# Read as a stranger would: JSON, the format's documented members.
read=$(python3 - "$DIR/all.jsonl" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
head, games, end = lines[0], lines[1:-1], lines[-1]
assert head["format"] == "ludus-archive" and head["version"] == 1
moves = sum(len(g["history"]) for g in games)
assert all(g["moves"] == len(g["history"]) for g in games)
assert end == {"end": True, "games": len(games), "moves": moves}
print(len(games), moves, " ".join(sorted(g["kind"] for g in games)),
      [g["final"]["winner"] for g in games if g["id"] == "done"][0])
EOF
)
moves=$(echo "$read" | cut -d' ' -f2)
check "readable without ludus: counts, kinds, a winner" \
    "8 $moves dandy dandy ludo ludo ludo ludo snl snl P1" "$read"
S export "$DIR/all.jsonl" >"$DIR/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "exists: not overwritten" "$DIR/out" &&
    [ "$(wc -l <"$DIR/all.jsonl" | tr -d ' ')" = 10 ]
then ok "an archive there is not overwritten"
else not_ok "an archive there is not overwritten (exit $rc)"; fi
S export --kind snl "$DIR/snl.jsonl" >/dev/null 2>&1
check "--kind snl" '"done" "s"' "$(sed -n 's/^{"id":\("[^"]*"\).*/\1/p' \
    "$DIR/snl.jsonl" | paste -sd' ' -)"
S export --finished-before $(($(date +%s) + 60)) "$DIR/done.jsonl" \
    >/dev/null 2>&1
check "--finished-before: finished games only" '"bots" "done"' \
    "$(sed -n 's/^{"id":\("[^"]*"\).*/\1/p' "$DIR/done.jsonl" |
    paste -sd' ' -)"
S export --finished-before 1d "$DIR/old.jsonl" >/dev/null 2>&1
check "--finished-before 1d: none that old" 2 \
    "$(wc -l <"$DIR/old.jsonl" | tr -d ' ')"
out=$(S export --finished-before soon "$DIR/x.jsonl" 2>&1)
contains "a bad time is refused" "a time is unix seconds or an age" "$out"
check "... and writes nothing" no "$([ -e "$DIR/x.jsonl" ] && echo yes || echo no)"

# ------------------------------------------------------------- import
out=$(B import "$DIR/all.jsonl" 2>&1)
check "import says what it did" "imported 8 games, $moves moves" \
    "$(echo "$out" | sed 's/, [0-9]* bytes.*//')"
same "the imported games read the same (INFO, HISTORY, REPLAY)" B
check "... and AUDIT clean" "" "$(B AUDIT)"
check "the pending roll kept" "$(S LUDO.ROLL timed x)" \
    "$(B LUDO.ROLL timed x)"

# ---------------------------------------------------------- bad input
# The line of game g in the archive (games are in id order).
gl=$(grep -n '^{"id":"g",' "$DIR/all.jsonl" | cut -d: -f1)
"$LUDUS" --db "$DIR/b2.db" LUDO.CREATE keep red blue >/dev/null
sed '$d' "$DIR/all.jsonl" >"$DIR/cut.jsonl"
refused "an archive cut at a line: no end line" "$DIR/cut.jsonl" \
    "line 9: the archive is cut short"
head -c $(($(wc -c <"$DIR/all.jsonl") - 300)) "$DIR/all.jsonl" \
    >"$DIR/cut2.jsonl"
refused "an archive cut in a line: not JSON" "$DIR/cut2.jsonl" \
    "line 9: not JSON"
printf 'hello\n' >"$DIR/text"
refused "not JSON at all" "$DIR/text" "line 1: not JSON"
printf '{"a":1}\n' >"$DIR/other.json"
refused "JSON but no archive" "$DIR/other.json" "not a ludus archive"
sed '1s/"version":1/"version":2/' "$DIR/all.jsonl" >"$DIR/v2.jsonl"
refused "an unknown format version" "$DIR/v2.jsonl" \
    "line 1: unknown format version 2"
sed "${gl}s/\"action\":\"3:1\"/\"action\":\"3:2\"/" "$DIR/all.jsonl" \
    >"$DIR/ill.jsonl"
refused "a move that does not replay, by its line" "$DIR/ill.jsonl" \
    "line $gl: move 2 does not replay"
sed "${gl}s/\"position\":3,\"square\":3/\"position\":4,\"square\":4/" \
    "$DIR/all.jsonl" >"$DIR/st.jsonl"
refused "a state its history does not give" "$DIR/st.jsonl" \
    "line $gl: game g: its history replays to another state"
{ sed -n "1,${gl}p" "$DIR/all.jsonl"; sed -n "${gl}p" "$DIR/all.jsonl"; } \
    >"$DIR/twice.jsonl"
refused "a game twice" "$DIR/twice.jsonl" \
    "line $((gl + 1)): game 'g' is in the archive twice"
{ cat "$DIR/all.jsonl"; sed -n "${gl}p" "$DIR/all.jsonl"; } \
    >"$DIR/after.jsonl"
refused "a line after the end" "$DIR/after.jsonl" \
    "line 11: a line after the end line"
sed 's/"id":"g",/"id":"keep",/' "$DIR/all.jsonl" >"$DIR/taken.jsonl"
refused "a game id the store holds" "$DIR/taken.jsonl" \
    "line $gl: game 'keep' exists in the store"
: >"$DIR/empty"
refused "an empty file" "$DIR/empty" "an empty file"

# --------------------------------------- PostgreSQL, emptied, restored
case ${LUDUS_TEST_STORE:-} in
postgresql://* | postgres://*)
	store_for unused
	check "the PostgreSQL store emptied" "" "$(S GAMES)"
	out=$(S import "$DIR/all.jsonl" 2>&1)
	contains "an import into PostgreSQL" "imported 8 games" "$out"
	same "... reads as the SQLite import does" B
	seat "a seat opens there with its old key" S
	;;
esac
seat "a seat opens in the SQLite import with its old key" B

exit $((FAILED > 0))
