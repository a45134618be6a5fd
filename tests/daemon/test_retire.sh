#!/bin/sh
# finished-retention (TAP): ludusd archives, then deletes, the games
# finished longer ago than the retention, in the background, while it
# serves: the games in play and the newer ones stay, the archives import
# into another store as the games were (HISTORY, REPLAY), INFO counts
# them; the archive stays open between sweeps, closed once open
# finished-archive-roll, or at a stop; an archive a crash left
# unfinished (NAME.part, a line cut) is finished at the next start; a
# bad retention value stops ludusd at start with a clear message.  Off by default: nothing is deleted.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
need_cli redis-cli
test_setup ludus-retire
echo "1..20"

mkdir "$DIR/arch"
# finished ID: a Snake & Ladder game of one player, won.
finished() {
	cli SNL.CREATE "$1" 1 >/dev/null
	cli SNL.LADDER "$1" 3 100 >/dev/null
	cli SNL.ROLL "$1" 3 >/dev/null
}
# archives DIR: the archives in DIR still open (.part), then those closed.
archives() {
	echo "$(ls "$1" | grep -c '\.part$') $(ls "$1" | grep -c '\.jsonl$')"
}
# wait_for N: until INFO's retired_games is N (10 s at most).
wait_for() {
	k=0
	while [ $k -lt 100 ]; do
		n=$(cli INFO persistence | tr -d '\r' | sed -n 's/^retired_games://p')
		[ "$n" = "$1" ] && return 0
		sleep 0.1
		k=$((k + 1))
	done
	return 1
}

# ------------------------------------------------------ off by default
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/off.db" ||
    setup_failed "ludusd starts" "$DIR/log"
finished old
check "off by default: INFO says 0" "finished_retention:0" \
    "$(cli INFO persistence | tr -d '\r' | grep '^finished_retention:')"
# games_finished counts the moves that ended a game, once: not a move
# refused on the game over, nor one that leaves a game in play.
cli SNL.ROLL old 3 >/dev/null
cli LUDO.CREATE lp red blue >/dev/null
cli LUDO.PLAY lp red 6 1 >/dev/null
check "INFO counts the game finished, once" "games_finished:1" \
    "$(cli INFO stats | tr -d '\r' | grep '^games_finished:')"
cli GAME.DELETE lp FORCE >/dev/null
sleep 1.2
check "... and a finished game stays" "old" "$(cli GAMES)"
stop_daemon

# ------------------------------------------------------------- on
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/r.db" \
    --finished-retention 2 --finished-archive "$DIR/arch" ||
    setup_failed "ludusd starts" "$DIR/log"
# NG finished games, each read back right after its last move, in one
# pipeline (well before its retention of 2 s is up).
NG=150
ids=$(i=0; while [ $i -lt $NG ]; do echo "f$i"; i=$((i + 1)); done)
for id in $ids; do
	echo "SNL.CREATE $id 1"
	echo "SNL.LADDER $id 3 100"
	echo "SNL.ROLL $id 3"
	echo "HISTORY $id"
done | cli | grep '^[0-9][0-9]*,' >"$DIR/before"
cli LUDO.CREATE play red blue >/dev/null
cli LUDO.PLAY play red 6 1 >/dev/null
check "the games' histories read before their retention" $NG \
    "$(grep -c 'P1 WINS' "$DIR/before")"
check "INFO counts the $NG games finished" "games_finished:$NG" \
    "$(cli INFO stats | tr -d '\r' | grep '^games_finished:')"
if wait_for $NG; then ok "$NG finished games retired in the background"
else not_ok "$NG finished games retired in the background"; fi
finished late
check "the game in play stays, and a newer finished one" "late play" \
    "$(cli GAMES | sort | paste -sd' ' -)"
check "... which plays on" "MOVED" "$(cli LUDO.PLAY play red 3 1)"
# However many sweeps took them, they went into one archive, which stays
# open (finished-archive-roll is an hour) until the stop.
check "INFO counts the archive begun" "retire_archives:1" \
    "$(cli INFO persistence | tr -d '\r' | grep '^retire_archives:')"
check "... which stays open between sweeps: one .part, none closed" "1 0" \
    "$(archives "$DIR/arch")"
# Another ludusd started on the same directory finishes the .part files
# a crash left, not the one a running ludusd holds open (and locked).
"$LUDUSD" --db "$DIR/other.db" --port 0 --portfile "$DIR/port2" \
    --finished-retention 2 --finished-archive "$DIR/arch" >"$DIR/log2" 2>&1 &
pid2=$!
wait_file "$DIR/port2" "$pid2" 1000
kill "$pid2"
wait "$pid2"
check "... which a second ludusd on the directory leaves open" "1 0" \
    "$(archives "$DIR/arch")"
stop_daemon
check "ludusd exits 0" 0 "$STATUS"
check "a stop closes it: the archive whole, none left .part" "0 1" \
    "$(archives "$DIR/arch")"
for f in "$DIR"/arch/*.jsonl; do
	"$LUDUS" --db "$DIR/back.db" import "$f" >/dev/null 2>&1 ||
	    echo "$f" >>"$DIR/bad"
done
check "every archive imports" "" "$(cat "$DIR/bad" 2>/dev/null)"
for id in $ids; do echo "HISTORY $id"; done |
    "$LUDUS" --db "$DIR/back.db" | grep '^[0-9][0-9]*,' >"$DIR/after"
check "... each game as it was" "" "$(diff "$DIR/before" "$DIR/after")"
check "... and AUDIT clean" "" "$("$LUDUS" --db "$DIR/back.db" AUDIT)"

# ------------------------------------------------- an archive rolled over
# finished-archive-roll 1: the archive with r1 is closed at the first
# sweep a second after it was begun, the daemon running; r2 goes into
# the next one.
mkdir "$DIR/roll"
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/roll.db" \
    --finished-retention 1 --finished-archive "$DIR/roll" \
    --finished-archive-roll 1 ||
    setup_failed "ludusd starts" "$DIR/log"
finished r1
wait_for 1
k=0
while [ $k -lt 100 ] && ! ls "$DIR/roll" | grep -q '\.jsonl$'; do
	sleep 0.1
	k=$((k + 1))
done
check "an archive open finished-archive-roll is closed while ludusd runs" \
    "0 1" "$(archives "$DIR/roll")"
finished r2
wait_for 2
stop_daemon
for f in "$DIR"/roll/*.jsonl; do
	"$LUDUS" --db "$DIR/roll-back.db" import "$f" | sed 's/ in .*//'
done >"$DIR/roll-imports" 2>&1
check "... and the next game goes into another: two archives of a game each" \
    "2 r1 r2" "$(grep -c 'imported 1 games' "$DIR/roll-imports") $(
    "$LUDUS" --db "$DIR/roll-back.db" GAMES | sort | paste -sd' ' -)"

# ------------------------------------- an archive a stop left unfinished
# A header and two games' lines, from whichever archives hold them: the
# games came due over the pipeline's time, a sweep may have had one.
{
	head -n 1 "$(ls "$DIR"/arch/*.jsonl | head -n 1)"
	for f in "$DIR"/arch/*.jsonl; do
		sed -n '2,$p' "$f" | grep -v '^{"end":'
	done | head -n 2
} >"$DIR/arch/ludus-archive-x.jsonl.part"
printf '{"id":"cut","kind":' >>"$DIR/arch/ludus-archive-x.jsonl.part"
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/r.db" \
    --finished-retention 3600 --finished-archive "$DIR/arch" ||
    setup_failed "ludusd starts" "$DIR/log"
stop_daemon
out=$("$LUDUS" --db "$DIR/part.db" import "$DIR/arch/ludus-archive-x.jsonl" 2>&1)
contains "a .part a stop left is finished at start: its 2 games import" \
    "imported 2 games" "$out"

# ------------------------------------------------------------ bad values
for kv in retention=36501d retention=soon archive-roll=0 archive-roll=off; do
	timeout 10 "$LUDUSD" --db "$DIR/bad.db" --port 0 \
	    --finished-"${kv%%=*}" "${kv#*=}" >"$DIR/out" 2>&1
	echo "$? $(head -n 1 "$DIR/out")"
done >"$DIR/bad-values"
check "a retention or a roll out of range, or not a time, stops ludusd" \
    "1 ludusd: --finished-retention: out of range (at most 36500d)
1 ludusd: --finished-retention: must be off, or seconds, or a number of s, m, h or d
1 ludusd: --finished-archive-roll: must be 1 s at least
1 ludusd: --finished-archive-roll: must be seconds, or a number of s, m, h or d" \
    "$(cat "$DIR/bad-values")"

exit $((FAILED > 0))
