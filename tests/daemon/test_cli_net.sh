#!/bin/sh
# The ludus CLI against a real ludusd (TAP): events (GAME.WATCH's moves) are
# printed when they arrive, as "(event) ..." lines or in `watch`'s
# format, and never taken for the reply of a later command, in RESP2 and
# RESP3, in stdin mode, in the REPL and one-shot; the end of stdin ends
# the program; `ludus watch` says so and exits 1 when the connection is
# lost; `show` and `watch` work inside a session.
#
# Every run of ludus is bounded by timeout(1): a hang fails its test.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
. "$(dirname "$0")/../lib/store.sh"
need_cli timeout

test_setup ludus-clinet FEED PID2
store_for "$DIR/cli.db"
start_daemon "$DIR/port" "$DIR/log" "$STORE_OPT" "$STORE_ARG" ||
    setup_failed "ludusd starts" "$DIR/log"

# wait_for FILE LINE: until FILE has LINE, 5 seconds at most.
wait_for() {
	i=0
	while ! grep -sqxF -- "$2" "$1" && [ $i -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
}

# A game of three moves.
ludus LUDO.CREATE g red blue >/dev/null
ludus LUDO.PLAY g red 6 1 >/dev/null
ludus LUDO.PLAY g red 3 1 >/dev/null
ludus LUDO.PLAY g blue 4 0 >/dev/null

# ------------------------------------------------------- stdin mode

out=$(printf 'GAME.WATCH g FROM 1\nPING\nGAME.UNWATCH\nECHO after\n' | ludus 2>&1)
check "RESP2: the backlog is events, PING's reply is PING's" "watch
g
1
(event) move g 2 red 3:1 MOVED
(event) move g 3 blue 4:0 PASSED
pong

unwatch
g
0
after" "$out"

out=$(printf 'HELLO 3\nGAME.WATCH g\nLUDO.PLAY g red 2 1\nECHO after\n' |
    ludus 2>&1); rc=$?
check "RESP3: GAME.WATCH's reply and the event of one's own move" "0
watch
g
1
MOVED
(event) move g 4 red 2:1 MOVED
after" "$rc
$(printf '%s\n' "$out" | sed -n '/^watch$/,$p')"

# The end of stdin ends it, though the connection watches a game.
printf 'HELLO 3\nGAME.WATCH g\n' >"$DIR/in"
ludus <"$DIR/in" >"$DIR/out" 2>&1
check "RESP3: the end of stdin ends the program" "0" "$?"

# An event while stdin is idle is printed at once, not with the next
# reply: a FIFO stays open while another client moves.
mkfifo "$DIR/fifo"
ludus <"$DIR/fifo" >"$DIR/idle" 2>&1 &
FEED=$!
exec 7>"$DIR/fifo"
printf 'GAME.WATCH g\n' >&7
wait_for "$DIR/idle" 1	# the GAME.WATCH is in place once its count is back
ludus LUDO.PLAY g blue 6 1 >/dev/null
wait_for "$DIR/idle" "(event) move g 5 blue 6:1 MOVED"
if grep -qxF "(event) move g 5 blue 6:1 MOVED" "$DIR/idle"; then
	ok "an event is printed when it arrives, stdin idle"
else
	not_ok "an event is printed when it arrives, stdin idle"
	sed 's/^/# /' "$DIR/idle"
fi
printf 'PING\n' >&7
exec 7>&-
wait "$FEED"
FEED=
check "and the next reply is its own" "pong" "$(sed -n '/^(event)/,$p' "$DIR/idle" | sed 1d)"

# ----------------------------------------------------- the verbs in a session

out=$(printf 'watch g FROM 3\nshow g\n' | ludus 2>&1)
contains "watch in a session prints the moves, then the next line runs" \
    "4 red 2:1 MOVED
5 blue 6:1 MOVED
Ludo g: 2 players, 5 moves" "$out"
out=$(printf 'watch nope\nECHO next\n' | ludus 2>&1)
check "watch in a session: an error, and the session goes on" \
    "NOGAME no such game 'nope'
next" "$out"

if command -v script >/dev/null 2>&1; then
	printf 'show g\nwatch g FROM 4\n\nECHO done\nquit\n' >"$DIR/repl.in"
	out=$(TERM=dumb timeout "$T" script -qfc "$LUDUS -p $PORT" /dev/null \
	    <"$DIR/repl.in" 2>&1 | tr -d '\r')
	contains "the REPL: show" "g: 2 players, 5 moves" "$out"
	contains "the REPL: watch, then a line stops it" "5 blue 6:1 MOVED
127.0.0.1:$PORT> 127.0.0.1:$PORT> \"done\"" "$out"
else
	skip "the REPL: show" "no script(1)"
	skip "the REPL: watch, then a line stops it" "no script(1)"
fi

# ------------------------------------------------------------- one-shot

out=$(ludus GAME.WATCH g FROM 4 2>&1); rc=$?
check "one-shot GAME.WATCH FROM: the reply, then the backlog as events" "0
watch
g
1
(event) move g 5 blue 6:1 MOVED" "$rc
$out"

# ludus watch: the connection lost is a message and exit status 1.
PID1=$PID PORT1=$PORT
if start_daemon "$DIR/port2" "$DIR/log2" --db "$DIR/other.db"; then
	PID2=$PID
	ludus LUDO.CREATE w a b >/dev/null
	ludus LUDO.PLAY w a 6 1 >/dev/null
	ludus watch w FROM 0 >"$DIR/wout" 2>"$DIR/werr" &
	WPID=$!
	wait_for "$DIR/wout" "1 a 6:1 MOVED"
	stop_daemon
	PID2=
	wait "$WPID"
	rc=$?
	check "ludus watch prints the moves" "1 a 6:1 MOVED" "$(cat "$DIR/wout")"
	check "ludus watch: the connection lost is exit status 1" 1 "$rc"
	contains "ludus watch: and a message" "connection to ludusd lost" \
	    "$(cat "$DIR/werr")"
else
	not_ok "a second ludusd starts"
fi
PID=$PID1 PORT=$PORT1

stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"

echo "1..$N"
[ "$FAILED" -eq 0 ]
