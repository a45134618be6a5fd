#!/bin/sh
# The HTTP API's write side and live side from outside, with curl: games
# created and moves made over HTTP, seen over RESP and the other way
# round; every error of the writes; seats and their keys; the server's
# password as a bearer token; CORS; a reply held until its COMMIT (and
# 503 STORE when the COMMIT fails); the event streams (backlog, live,
# Last-Event-ID, heartbeat, a slow reader dropped and resumed); /metrics,
# read by Prometheus's own parser (promtool) when it is installed.  TAP
# output; skipped (77) without curl, redis-cli or perl.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
RAW="perl $top_srcdir/tests/web/rawhttp.pl"

need_web curl redis-cli perl
test_setup ludusd-api BG

# post PATH JSON [curl args]: the body on stdout, the status in a file.
post() {
	p=$1 body=$2
	shift 2
	curl -s --max-time 10 -o "$DIR/body" -D "$DIR/head" -w '%{http_code}' \
	    -X POST -H 'Content-Type: application/json' --data-binary "$body" \
	    "$@" "$BASE$p" >"$DIR/status"
	cat "$DIR/body"
}
status() {
	cat "$DIR/status"
}
header() {
	tr -d '\r' <"$DIR/head" | sed -n "s/^$1: //Ip" | head -1
}
# posted NAME PATH JSON STATUS FIELD VALUE [curl args]: a write's status
# and one field of its reply.
posted() {
	name=$1 p=$2 body=$3 want="$4 $6" f=$5
	shift 6
	v=$(post "$p" "$body" "$@" | "$JGET" "$f")
	check "$name" "$want" "$(status) $v"
}
# refused NAME PATH JSON STATUS CODE [curl args]: a JSON error.
refused() {
	name=$1 p=$2 body=$3 st=$4 code=$5
	shift 5
	posted "$name" "$p" "$body" "$st" error "$code" "$@"
}
metric() {
	curl -s "$BASE/metrics" | sed -n "s/^ludus_$1 //p"
}
# one_stream: waits (5 s at most) until one event stream is open.
one_stream() {
	i=0
	while [ "$(metric 'subscribers{kind="events"}')" != 1 ] &&
	    [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

if start_http_daemon --loglevel debug --http-event-heartbeat 1 \
    --http-event-buffer 64kb; then
	ok "ludusd starts with HTTP on a free port"
else
	not_ok "ludusd starts with HTTP on a free port"
	sed 's/^/# /' "$DIR/log"
	echo "1..$N"
	exit 1
fi

# ------------------------------------------------------------ create
posted "create a Ludo game: 201" /api/games \
    '{"kind": "ludo", "id": "lu", "players": ["red", "blue"]}' 201 result OK
check "... its address" "/api/games/lu" "$(header Location)"
check "... no seat keys for open seats" 0 \
    "$("$JGET" -n seats <"$DIR/body")"
check "... as RESP sees it" "players,2" "$(cli GAME.INFO lu | sed -n 2p)"
posted "create with options" /api/games '{"kind": "ludo", "id": "lx",
    "players": ["a", "b", "c"], "options": {"rules": "extended",
    "capture_bonus": false, "turn-timeout": 60}}' 201 kind ludo
check "... the options reached the command" "extended false 60" \
    "$(curl -s "$BASE/api/games/lx" | "$JGET" state.rules.preset) $(curl -s \
    "$BASE/api/games/lx" | "$JGET" state.rules.capture_bonus) $(curl -s \
    "$BASE/api/games/lx" | "$JGET" options.turn_timeout)"
posted "create Snake & Ladder with its board" /api/games '{"kind": "snl",
    "id": "sn", "players": 2, "options": {"snakes": "97:78",
    "ladders": "3:38"}}' 201 id sn
check "... as SNL.STATE has it" "snake,97,78" \
    "$(cli SNL.STATE sn | grep snake)"
posted "create DandyLand with a board and a deck" /api/games \
    '{"kind": "dandy", "id": "dd", "players": 2, "board": "abcabc",
    "options": {"deck": "cbacba"}}' 201 id dd
posted "create DandyLand without a deck" /api/games \
    '{"kind": "dandy", "id": "dn", "players": 1, "board": "abc"}' 201 id dn
id=$(post /api/games '{"kind": "snl", "players": 1}' | "$JGET" id)
case $id in
g-??????????) ok "no id: the server picks one ($id)" ;;
*) not_ok "no id: the server picks one ($id)" ;;
esac
check "... and the game is there" "kind,snl" "$(cli GAME.INFO "$id" | head -1)"
refused "create: an id taken" /api/games \
    '{"kind": "ludo", "id": "lu", "players": ["a", "b"]}' 409 EXISTS
refused "create: no kind" /api/games '{"id": "x1", "players": 2}' 400 BADARG
refused "create: an unknown kind" /api/games \
    '{"kind": "chess", "players": 2}' 400 BADARG
refused "create: Ludo players are names" /api/games \
    '{"kind": "ludo", "players": 2}' 400 BADARG
refused "create: Snake & Ladder players are a number" /api/games \
    '{"kind": "snl", "players": ["a"]}' 400 BADARG
refused "create: too many players (the command's check)" /api/games \
    '{"kind": "ludo", "players": ["a", "b", "c", "d", "e"]}' 400 BADARG
# A name is a name, never a create option in disguise, and a refused
# create makes nothing.
for names in '"a", "b", "dice=server"' '"a", "b", "seats=secure"' \
    '"seats=secure", "b"' '"a", "B"' '"a", "b c"' '"a", ""'; do
	post /api/games "{\"kind\": \"ludo\", \"id\": \"nm\",
	    \"players\": [$names]}" >"$DIR/nm"
	check "players [$names]: 400 BADARG, what a name may hold" \
	    "400 BADARG a player's name is 1 to 50 lower-case letters a-z, digits 0-9 and -" \
	    "$(status) $("$JGET" error <"$DIR/nm") $("$JGET" message <"$DIR/nm")"
	check "... and no game" "" "$(cli GAME.INFO nm 2>/dev/null | grep kind)"
done
refused "create: a bad id (the command's check)" /api/games \
    '{"kind": "snl", "id": "Bad!", "players": 1}' 400 BADARG
refused "create: an unknown member" /api/games \
    '{"kind": "snl", "players": 1, "colour": "red"}' 400 BADARG
refused "create: an unknown option (the command's ERR)" /api/games \
    '{"kind": "snl", "players": 1, "options": {"colour": "red"}}' 400 ERR
refused "create: an option that is no word" /api/games \
    '{"kind": "snl", "players": 1, "options": {"a=b": "c"}}' 400 BADARG
refused "create: an option of another type" /api/games \
    '{"kind": "snl", "players": 1, "options": {"seats": ["x"]}}' 400 BADARG
refused "create: a body that is not JSON" /api/games '{"kind":' 400 BADARG
refused "create: a body that is no object" /api/games '[1, 2]' 400 BADARG
refused "create: a member twice" /api/games \
    '{"kind": "snl", "kind": "snl", "players": 1}' 400 BADARG
refused "create: a query parameter" '/api/games?kind=snl' \
    '{"kind": "snl", "players": 1}' 400 BADARG
check "nothing was created by the refusals" "dd dn $id lu lx sn" \
    "$(cli GAMES | paste -sd' ' -)"

# ------------------------------------------------------------- moves
posted "a Ludo move: the reply's status" /api/games/lu/moves \
    '{"player": "red", "dice": 6, "token": 1}' 200 result MOVED
posted "with seq, as AT" /api/games/lu/moves \
    '{"player": "red", "dice": 3, "token": 1, "seq": 1}' 200 result MOVED
posted "the same resent: its stored result, nothing played" \
    /api/games/lu/moves '{"player": "red", "dice": 3, "token": 1,
    "seq": 1}' 200 result MOVED
check "... HISTORY has it once" "1,red,6:1,MOVED 2,red,3:1,MOVED" \
    "$(cli HISTORY lu | paste -sd' ' -)"
refused "a stale seq: 409" /api/games/lu/moves \
    '{"player": "blue", "dice": 4, "token": 0, "seq": 0}' 409 STALE
posted "a refused move is a result, not an error" /api/games/lu/moves \
    '{"player": "red", "dice": 4, "token": 1}' 200 result INVALID_MOVE
refused "a player not in the game" /api/games/lu/moves \
    '{"player": "green", "dice": 4, "token": 1}' 400 BADARG
refused "dice out of range (the command's check)" /api/games/lu/moves \
    '{"player": "blue", "dice": 7, "token": 1}' 400 BADARG
refused "dice as a string" /api/games/lu/moves \
    '{"player": "blue", "dice": "4", "token": 1}' 400 BADARG
refused "no token" /api/games/lu/moves '{"player": "blue", "dice": 4}' \
    400 BADARG
refused "seq not a number" /api/games/lu/moves \
    '{"player": "blue", "dice": 4, "token": 0, "seq": "2"}' 400 BADARG
refused "a member of another kind" /api/games/lu/moves \
    '{"player": "blue", "dice": 4, "token": 0, "roll": 2}' 400 BADARG
refused "no such game" /api/games/nope/moves '{}' 404 NOGAME
check "a GET of the moves: 405" "405 POST" "$(curl -s -o /dev/null -D \
    "$DIR/head" -w '%{http_code}' "$BASE/api/games/lu/moves") $(header Allow)"
posted "Snake & Ladder: a roll" /api/games/sn/moves '{"roll": 3}' 200 \
    result "P1 38"
posted "DandyLand: a draw from the deck" /api/games/dd/moves '{}' 200 \
    result "P1 3 0"
refused "DandyLand: a card for a game with a deck" /api/games/dd/moves \
    '{"card": "a"}' 400 BADARG
posted "DandyLand: a card named" /api/games/dn/moves '{"card": "b"}' 200 \
    result "P1 2 0"
refused "DandyLand: no card without a deck" /api/games/dn/moves '{}' 400 \
    BADARG
cli LUDO.PLAY lu blue 4 0 >/dev/null
check "a RESP move and HTTP moves share the history" "3,blue,4:0,PASSED" \
    "$(cli HISTORY lu 3 1)"

# ----------------------------------------------------- seats, rolls
keys=$(post /api/games '{"kind": "ludo", "id": "se", "players": ["a", "b"],
    "options": {"seats": "secure", "dice": "server"}}')
check "a secure create: 201, a key per seat" "201 2" \
    "$(status) $(printf '%s' "$keys" | "$JGET" -n seats)"
KA=$(printf '%s' "$keys" | "$JGET" seats.0.key)
KB=$(printf '%s' "$keys" | "$JGET" seats.1.key)
check "... and an invite link with the key in its fragment" \
    "/games/se#key=$KA&player=a" "$(printf '%s' "$keys" | "$JGET" seats.0.invite)"
refused "a roll without the seat's key: 403" /api/games/se/roll \
    '{"player": "a"}' 403 NOSEAT
post /api/games/se/moves '{"player": "a", "dice": 6, "token": 1}' >/dev/null
check "NOSEAT over HTTP says how HTTP proves a seat" "403 this connection \
does not hold the seat of a in game 'se' (the seat's key in Authorization: \
Bearer KEY)" "$(status) $("$JGET" message <"$DIR/body")"
refused "a roll with another seat's key: 403" /api/games/se/roll \
    '{"player": "a"}' 403 NOSEAT -H "Authorization: Bearer $KB"
refused "a roll with a wrong key: 403" /api/games/se/roll \
    '{"player": "a"}' 403 NOSEAT -H "Authorization: Bearer 0123"
roll=$(post /api/games/se/roll '{"player": "a"}' \
    -H "Authorization: Bearer $KA" | "$JGET" roll)
check "a roll with the key: the server's die" "200 roll,$roll" \
    "$(status) $(cli GAME.INFO se | grep '^roll,')"
posted "asked again: the same die" /api/games/se/roll '{"player": "a"}' 200 \
    roll "$roll" -H "Authorization: Bearer $KA"
refused "a roll for the player not to move" /api/games/se/roll \
    '{"player": "b"}' 409 STATE -H "Authorization: Bearer $KB"
refused "a roll of a manual game" /api/games/lu/roll '{"player": "red"}' \
    409 STATE
refused "Snake & Ladder rolls in its moves" /api/games/sn/roll '{}' 409 \
    STATE
refused "a roll takes no seq" /api/games/se/roll '{"player": "a",
    "seq": 0}' 400 BADARG -H "Authorization: Bearer $KA"
if [ "$roll" = 6 ]; then token=1; want=MOVED; else token=0; want=PASSED; fi
posted "the move with the key" /api/games/se/moves "{\"player\": \"a\",
    \"dice\": $roll, \"token\": $token}" 200 result $want \
    -H "Authorization: Bearer $KA"
# A resend (the same seq again, after a lost response) in a kind whose
# mover is the player to move gets the stored result, though the turn
# has passed to another seat: the key is P1's, the turn now P2's.
for k in 'snl", "players": 2, "options": {"dice": "server",' \
    'dandy", "players": 2, "board": "abcabc", "options": {"deck": "cbacba",'; do
	keys=$(post /api/games "{\"kind\": \"$k \"seats\": \"secure\"}}")
	id=$(printf '%s' "$keys" | "$JGET" id)
	K1=$(printf '%s' "$keys" | "$JGET" seats.0.key)
	first=$(post /api/games/$id/moves '{"seq": 0}' \
	    -H "Authorization: Bearer $K1" | "$JGET" result)
	check "a secure ${k%%\"*} move by P1" "200 1" \
	    "$(status) $(cli GAME.INFO $id | sed -n 's/^moves,//p')"
	posted "... sent again: its stored result, not NOSEAT" \
	    /api/games/$id/moves '{"seq": 0}' 200 result "$first" \
	    -H "Authorization: Bearer $K1"
	check "... and nothing applied twice" 1 \
	    "$(cli GAME.INFO $id | sed -n 's/^moves,//p')"
	refused "... a stale seq with P1's key: STALE" /api/games/$id/moves \
	    '{"seq": 5}' 409 STALE -H "Authorization: Bearer $K1"
	refused "... P2's move with P1's key: NOSEAT" /api/games/$id/moves \
	    '{"seq": 1}' 403 NOSEAT -H "Authorization: Bearer $K1"
done
refused "a key in the URL is no key" "/api/games/se/moves?key=$KB" \
    '{"player": "b", "dice": 1, "token": 0}' 400 BADARG
check "no key in the log" 0 "$(grep -c -e "$KA" -e "$KB" "$DIR/log")"
# An invite link whose '#' a chat client wrote as %23: the key is in the
# path, and the log shows the path up to it.
curl -s -o /dev/null "$BASE/games/se%23key=$KA&player=a"
check "a %23-mangled invite link: the path logged up to the %" \
    "1 0" "$(grep -c 'GET /games/se 400' "$DIR/log") $(grep -c "$KA" "$DIR/log")"

# ------------------------------------------------ an invite exchanged
# A key given (an invite's) is spent for a fresh one: the old one then
# works nowhere, and every refusal changes nothing.
X=/api/games/se/exchange
refused "an exchange without a key: 403" $X '{"player": "b"}' 403 NOSEAT
refused "... with a wrong key: 403" $X '{"player": "b"}' 403 NOSEAT \
    -H "Authorization: Bearer 0123"
refused "... with another seat's key: 403" $X '{"player": "b"}' 403 \
    NOSEAT -H "Authorization: Bearer $KA"
refused "... of no such player: 400" $X '{"player": "zz"}' 400 BADARG \
    -H "Authorization: Bearer $KB"
refused "... without a player: 400" $X '{}' 400 BADARG \
    -H "Authorization: Bearer $KB"
refused "... with an unknown member: 400" $X '{"player": "b", "x": 1}' \
    400 BADARG -H "Authorization: Bearer $KB"
refused "... of no such game: 404" /api/games/nosuch/exchange \
    '{"player": "b"}' 404 NOGAME -H "Authorization: Bearer $KB"
refused "... of a game with open seats: 409" /api/games/lu/exchange \
    '{"player": "red"}' 409 STATE -H "Authorization: Bearer $KB"
check "... none of them spent the key" OK "$(cli SEAT se b "$KB")"
NB=$(post $X '{"player": "b"}' -H "Authorization: Bearer $KB" |
    "$JGET" key)
check "the exchange: 200, a fresh key of 32 hex digits, not stored by \
a cache" "200 32 no-store" "$(status) $(printf '%s' "$NB" |
    tr -cd 0-9a-f | wc -c | tr -d ' ') $(header Cache-Control)"
check "... not the key given" 1 "$([ "$NB" != "$KB" ] && echo 1)"
post $X '{"player": "b"}' -H "Authorization: Bearer $KB" >/dev/null
check "the same key exchanged again: 403, an invite works once" \
    "403 NOSEAT wrong key for b in game 'se', or a key exchanged already: \
an invite's key works once" "$(status) $("$JGET" error <"$DIR/body") \
$("$JGET" message <"$DIR/body")"
check "... nor is it a seat key any more (SEAT over RESP)" \
    "NOSEAT wrong key for b in game 'se' (a key once exchanged is spent)" \
    "$(cli SEAT se b "$KB")"
check "... the fresh one is" OK "$(cli SEAT se b "$NB")"
refused "... and a move with the old key: 403" /api/games/se/roll \
    '{"player": "b"}' 403 NOSEAT -H "Authorization: Bearer $KB"
check "neither key in the log" 0 "$(grep -c -e "$KB" -e "$NB" "$DIR/log")"

# ---------------------------------------------------------- CORS off
post /api/games/lu/moves '{}' -H "Origin: http://127.0.0.1:$HPORT" \
    >/dev/null
lacks "no CORS header without http-allow-origin" "Access-Control-" \
    "$(cat "$DIR/head")"
refused "a foreign origin's write" /api/games/lu/moves '{}' 403 ORIGIN \
    -H 'Origin: http://app.example'

# ------------------------------------------------------ event streams
stream() {
	curl -s -N --max-time "${3:-1}" ${2:+-H "Last-Event-ID: $2"} \
	    "$BASE$1"
}
ids() {
	sed -n 's/^id: //p' | paste -sd' ' -
}
check "events from 0: every stored move, ids their seqs" "1 2 3" \
    "$(stream '/api/games/lu/events?from=0' | ids)"
ev=$(stream '/api/games/lu/events?from=2')
contains "an event is a move" 'event: move
data: {"seq":3,"player":"blue","action":"4:0","result":"PASSED"' "$ev"
check "Last-Event-ID wins over from" "3" \
    "$(stream '/api/games/lu/events?from=0' 2 | ids)"
check "the stream's type" "200 text/event-stream" "$(curl -s -o /dev/null \
    --max-time 1 -w '%{http_code} %{content_type}' "$BASE/api/games/lu/events")"
check "from past the end: 400" "400 BADARG" "$(curl -s -o "$DIR/body" \
    -w '%{http_code}' "$BASE/api/games/lu/events?from=9") $("$JGET" error \
    <"$DIR/body")"
check "a Last-Event-ID that is no seq: 400" "400" "$(curl -s -o /dev/null \
    -w '%{http_code}' -H 'Last-Event-ID: x' "$BASE/api/games/lu/events")"
check "a Last-Event-ID past the moves: 400 naming the header" \
    "Last-Event-ID 999 is beyond the" "$(curl -s -H 'Last-Event-ID: 999' \
    "$BASE/api/games/lu/events" | "$JGET" message | cut -d' ' -f1-5)"
check "... and a from past them: naming from" "from 999 is beyond the" \
    "$(curl -s "$BASE/api/games/lu/events?from=999" | "$JGET" message |
    cut -d' ' -f1-5)"
check "the events of no game: 404" "404" "$(curl -s -o /dev/null \
    -w '%{http_code}' "$BASE/api/games/nope/events")"
# Live: RESP and HTTP moves while a stream is open, then its end.
stream '/api/games/sn/events' "" 4 >"$DIR/live" &
BG=$!
one_stream
cli SNL.ROLL sn 4 >/dev/null
post /api/games/sn/moves '{"roll": 2}' >/dev/null
cli SNL.ROLL sn 1 AT 3 >/dev/null
post /api/games/sn/moves '{"roll": 1, "seq": 3}' >/dev/null
wait $BG
BG=
check "live: each new move once, in order, RESP's and HTTP's" "2 3 4" \
    "$(ids <"$DIR/live")"
contains "a heartbeat comment (http-event-heartbeat 1)" ": heartbeat" \
    "$(cat "$DIR/live")"
# A reader that reads nothing while 3,000 moves are made: dropped past
# http-event-buffer (64kb), then resumed by Last-Event-ID.
$RAW stall "$HPORT" /api/games/dn/events 4 >"$DIR/stall" &
BG=$!
one_stream
i=0
while [ $i -lt 3000 ]; do
	printf 'DANDY.DRAW dn a\r\n'
	i=$((i + 1))
done | redis-cli -p "$PORT" --pipe >/dev/null
wait $BG
BG=
read -r _ got _ last closed <"$DIR/stall"
check "a reader that does not read is dropped" "CLOSED" "$closed"
if [ "${last:-0}" -lt 3001 ] && [ "$got" = "$((last - 1))" ]; then
	ok "... after $got events, all in order"
else
	not_ok "... after $got events, the last $last"
fi
check "... counted" 1 "$(metric events_dropped_total)"
contains "... and logged" "dropping the stream" "$(cat "$DIR/log")"
check "it resumes by Last-Event-ID: the rest, once" \
    "$(seq $((last + 1)) 3001 | paste -sd' ' -)" \
    "$(stream /api/games/dn/events "$last" 3 | ids)"

# ------------------------------------------------ held for the COMMIT
# No file of the daemon may grow (RLIMIT_FSIZE of 1 byte): the COMMIT of
# the pass fails, and the move's reply, held for it, is 503 STORE.
if command -v prlimit >/dev/null 2>&1; then
	seq=$(cli GAME.INFO lu | sed -n 's/^moves,//p')
	prlimit --pid "$PID" --fsize=1:unlimited
	refused "a COMMIT that fails: 503 STORE" /api/games/lu/moves \
	    "{\"player\": \"red\", \"dice\": 6, \"token\": 2, \"seq\": $seq}" \
	    503 STORE
	contains "... saying so" "group commit failed" "$(cat "$DIR/body")"
	prlimit --pid "$PID" --fsize=unlimited:unlimited
	check "... and nothing was stored" "$seq" \
	    "$(cli GAME.INFO lu | sed -n 's/^moves,//p')"
	posted "the same again, once the disk takes it: applied" \
	    /api/games/lu/moves "{\"player\": \"red\", \"dice\": 6,
	    \"token\": 2, \"seq\": $seq}" 200 result MOVED
	check "... once" "$((seq + 1))" \
	    "$(cli GAME.INFO lu | sed -n 's/^moves,//p')"
else
	skip "a COMMIT that fails: 503 STORE" "no prlimit"
fi

# ------------------------------------------------------------ metrics
curl -s -D "$DIR/head" -o "$DIR/metrics" "$BASE/metrics"
check "metrics: Prometheus's text format" \
    "text/plain; version=0.0.4; charset=utf-8" "$(header Content-Type)"
if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$DIR/metrics" >"$DIR/promtool" 2>&1; then
		ok "promtool check metrics: no problem"
	else
		not_ok "promtool check metrics"
		sed 's/^/# /' "$DIR/promtool"
	fi
elif [ -n "${CI:-}" ]; then
	not_ok "promtool is missing (CI is set: bootstrap installs prometheus)"
else
	skip "promtool check metrics" "no promtool (bootstrap installs it)"
fi
# Line by line as well: # HELP, # TYPE, then samples of that family.
bad=$(awk '
	/^# HELP ludus_[a-z_]+ ./ { next }
	/^# TYPE ludus_[a-z_]+ (counter|gauge|histogram)$/ {
		fam = $3; type = $4; next }
	/^ludus_[a-z_]+(\{[a-z_]+="[^"]*"\})? [0-9.e+-]+$/ {
		name = $1; sub(/\{.*/, "", name)
		if (name == fam || (type == "histogram" &&
		    (name == fam "_bucket" || name == fam "_sum" ||
		    name == fam "_count")))
			next
	}
	{ print NR ": " $0 }' "$DIR/metrics")
check "metrics: every line is a family's" "" "$bad"
for m in turns_total commits_total batch_size_count \
    commit_duration_seconds_count conflicts_total store_errors_total \
    'connections{protocol="http"}' 'subscribers{kind="watch"}' \
    game_cache_hits_total game_cache_misses_total 'games{kind="snl"}'; do
	v=$(sed -n "s/^ludus_$m //p" "$DIR/metrics")
	case $v in
	[0-9]*) ok "metrics: ludus_$m ($v)" ;;
	*) not_ok "metrics: ludus_$m missing" ;;
	esac
done
check "metrics: the turns are INFO's" \
    "$(cli INFO stats | tr -d '\r' | sed -n 's/^turns_committed://p')" \
    "$(metric turns_total)"
check "metrics: the games by kind" "3" "$(metric 'games{kind="ludo"}')"
check "metrics: a failed COMMIT counted" 1 "$(metric batch_failures_total)"
# From the one page fetched: the game with a turn-timeout may time out
# (a write) between two fetches on a slow machine.
check "metrics: the batch sizes add up to the writes committed" \
    "$(sed -n 's/^ludus_batch_size_count //p' "$DIR/metrics")" \
    "$(sed -n 's/^ludus_batch_size_bucket{le="+Inf"} //p' "$DIR/metrics")"
stop_daemon
check "ludusd stops cleanly" "0" "$STATUS"

# --------------------------------------------- requirepass, CORS on
start_http_daemon --requirepass 's3cret' \
    --http-allow-origin http://app.example >/dev/null
refused "with a password: a write without it is 401" /api/games \
    '{"kind": "snl", "players": 1}' 401 NOAUTH
check "... which says how to authenticate" 'Bearer realm="ludus"' \
    "$(header WWW-Authenticate)"
refused "... a wrong one 401" /api/games '{"kind": "snl", "players": 1}' \
    401 WRONGPASS -H 'Authorization: Bearer s3cre'
refused "... another scheme 401" /api/games '{"kind": "snl", "players": 1}' \
    401 NOAUTH -H 'Authorization: Basic czNjcmV0'
posted "... the password as the bearer token: written" /api/games \
    '{"kind": "ludo", "id": "pw", "players": ["a", "b"],
    "options": {"seats": "secure"}}' 201 result OK \
    -H 'Authorization: Bearer s3cret'
KA=$("$JGET" seats.0.key <"$DIR/body")
cp "$DIR/body" "$DIR/created_pw"
posted "... the seat key then in X-Seat-Key" /api/games/pw/moves \
    '{"player": "a", "dice": 5, "token": 0}' 200 result PASSED \
    -H 'Authorization: Bearer s3cret' -H "X-Seat-Key: $KA"
refused "... not in the bearer token" /api/games/pw/moves \
    '{"player": "b", "dice": 5, "token": 0}' 401 WRONGPASS \
    -H "Authorization: Bearer $KA"
KB=$(post /api/games/pw/exchange '{"player": "b"}' \
    -H 'Authorization: Bearer s3cret' -H "X-Seat-Key: $("$JGET" seats.1.key \
    <"$DIR/created_pw")" | "$JGET" key)
posted "... an exchange's key in X-Seat-Key: a fresh key that moves" \
    /api/games/pw/moves '{"player": "b", "dice": 5, "token": 0}' 200 \
    result PASSED -H 'Authorization: Bearer s3cret' -H "X-Seat-Key: $KB"
check "... reads need no password" 200 "$(curl -s -o /dev/null \
    -w '%{http_code}' "$BASE/api/games/pw")"
post /api/games/pw/moves '{}' -H 'Origin: http://app.example' >/dev/null
check "a listed origin: allowed, with its CORS header" \
    "401 http://app.example" "$(status) $(header \
    Access-Control-Allow-Origin)"
curl -s -o /dev/null -D "$DIR/head" -w '%{http_code}' -X OPTIONS \
    -H 'Origin: http://app.example' -H 'Access-Control-Request-Method: POST' \
    "$BASE/api/games" >"$DIR/status"
check "... its preflight: 204" "204 GET, HEAD, POST, DELETE" \
    "$(status) $(header Access-Control-Allow-Methods)"
contains "... the headers a write sends" \
    "Authorization, X-Seat-Key, X-Account-Key" \
    "$(header Access-Control-Allow-Headers)"
curl -s -o /dev/null -D "$DIR/head" -X OPTIONS \
    -H 'Origin: http://evil.example' -H 'Access-Control-Request-Method: POST' \
    "$BASE/api/games"
lacks "another origin's preflight: no CORS answer" "Access-Control-Allow" \
    "$(cat "$DIR/head")"
refused "... and its write: 403" /api/games '{}' 403 ORIGIN \
    -H 'Origin: http://evil.example' -H 'Authorization: Bearer s3cret'
curl -s -o /dev/null -D "$DIR/head" -H 'Origin: http://app.example' \
    "$BASE/api/games"
check "a listed origin's read gets CORS" "http://app.example" \
    "$(header Access-Control-Allow-Origin)"
check "the password is in no log line" 0 "$(grep -c s3cret "$DIR/log")"
stop_daemon
check "ludusd stops cleanly" "0" "$STATUS"

echo "1..$N"
[ "$FAILED" -eq 0 ]
