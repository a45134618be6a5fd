#!/bin/sh
# The lobby over HTTP from outside, with curl, against a real ludusd:
# accounts made over HTTP and logged in over RESP, a player's info and
# games, the leaderboard, tickets joined, read and cancelled, the stream
# of a ticket's match (live, at once when matched, again on a reconnect,
# an error event when cancelled), matches seen the same way over RESP;
# every bad input an error with its status that changes nothing; a game
# against a bot played to its end over HTTP, then rated on the
# leaderboard; the server's password (the account's token then in
# X-Account-Key) and the create-rate quota.  On PostgreSQL
# (tests/pg/test_lobby_http_sh.pg), a second node's stream hears of a
# match the first one made.  TAP output; skipped (77) without curl or
# redis-cli.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
. "$top_srcdir/tests/lib/store.sh"

need_web curl redis-cli
test_setup ludusd-lobbyhttp BG

# req METHOD PATH [BODY [curl args]]: the body on stdout, the status and
# the head in files; a write is JSON, as every write must be.
req() {
	m=$1 p=$2 body=${3-}
	shift 2
	[ $# -gt 0 ] && shift
	if [ "$m" = GET ]; then
		set -- "$@"
	elif [ -n "$body" ]; then
		set -- -H 'Content-Type: application/json' --data-binary "$body" \
		    "$@"
	else
		set -- -H 'Content-Type: application/json' "$@"
	fi
	curl -s --max-time 10 -o "$DIR/body" -D "$DIR/head" -w '%{http_code}' \
	    -X "$m" "$@" "$BASE$p" >"$DIR/status"
	cat "$DIR/body"
}
status() {
	cat "$DIR/status"
}
header() {
	tr -d '\r' <"$DIR/head" | sed -n "s/^$1: //Ip" | head -1
}
# answers NAME "STATUS FIELD-VALUE" FIELD METHOD PATH [BODY [curl args]]
answers() {
	name=$1 want=$2 f=$3
	shift 3
	v=$(req "$@" | "$JGET" "$f")
	check "$name" "$want" "$(status) $v"
}
# refused NAME STATUS CODE METHOD PATH [BODY [curl args]]: a JSON error.
refused() {
	name=$1 want="$2 $3"
	shift 3
	answers "$name" "$want" error "$@"
}
bearer() {
	printf 'Authorization: Bearer %s' "$1"
}
queues() {
	curl -s "$BASE/api/lobby" | "$JGET" -n queues
}
# stream NAME TOKEN TICKET: the ticket's event stream into DIR/NAME, in
# the background (BG), once its first chunk has come.
stream() {
	rm -f "$DIR/$1"
	curl -s -N --max-time 20 -H "$(bearer "$2")" \
	    "$BASE/api/lobby/$3/events" >"$DIR/$1" &
	BG="$BG $!"
	wait_line "$DIR/$1" "^: the match of ticket $3" "" 500
}

store_for "$DIR/g.db"
if start_http_daemon --loglevel debug --http-event-heartbeat 1 \
    --bot-delay 0 "$STORE_OPT" "$STORE_ARG"; then
	ok "ludusd starts with HTTP on a free port"
else
	not_ok "ludusd starts with HTTP on a free port"
	sed 's/^/# /' "$DIR/log"
	echo "1..$N"
	exit 1
fi

# ------------------------------------------------------------ accounts
answers "POST /api/players makes an account: 201" "201 ann" name \
    POST /api/players '{"name": "ann"}'
ANN=$("$JGET" token <"$DIR/body")
ANNKEY=$("$JGET" key <"$DIR/body")
check "... its address" /api/players/ann "$(header Location)"
check "... the key, 32 hex digits, shown once" 32 \
    "$(printf %s "$ANNKEY" | tr -cd 0-9a-f | wc -c | tr -d ' ')"
check "... the token is NAME:KEY" "ann:$ANNKEY" "$ANN"
check "... the key logs in over RESP" OK \
    "$(printf 'PLAYER.LOGIN ann %s\n' "$ANNKEY" | cli)"
req POST /api/players '{"name": "bob"}' >/dev/null
BOB=$("$JGET" token <"$DIR/body")
BOBKEY=$("$JGET" key <"$DIR/body")
req POST /api/players '{"name": "cy"}' >/dev/null
CY=$("$JGET" token <"$DIR/body")

refused "the same name again: 409 EXISTS" 409 EXISTS POST /api/players \
    '{"name": "ann"}'
check "... the key is the first one still" OK \
    "$(printf 'PLAYER.LOGIN ann %s\n' "$ANNKEY" | cli)"
refused "a name that is no player id: 400 BADARG" 400 BADARG \
    POST /api/players '{"name": "Ann!"}'
contains "... saying what a name may hold" "a-z, 0-9 and -" \
    "$("$JGET" message <"$DIR/body")"
refused "a bot's name: 400 BADARG" 400 BADARG POST /api/players \
    '{"name": "bot-easy2"}'
refused "no name: 400 BADARG" 400 BADARG POST /api/players '{}'
refused "a name that is no string: 400 BADARG" 400 BADARG \
    POST /api/players '{"name": 7}'
refused "an unknown member: 400 BADARG" 400 BADARG POST /api/players \
    '{"name": "dee", "admin": true}'
refused "a body that is no JSON: 400 BADARG" 400 BADARG POST /api/players \
    '{"name": '
refused "a query parameter: 400 BADARG" 400 BADARG \
    POST '/api/players?name=dee' '{"name": "dee"}'
v=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H \
    'Content-Type: text/plain' --data '{"name": "dee"}' "$BASE/api/players")
check "a form's type: 415 (CSRF)" 415 "$v"
refused "a foreign Origin: 403 ORIGIN" 403 ORIGIN POST /api/players \
    '{"name": "dee"}' -H 'Origin: http://evil.example'
refused "GET /api/players: 405 METHOD" 405 METHOD GET /api/players
check "... Allow: POST" POST "$(header Allow)"
refused "none of these made 'dee'" 404 NOACCOUNT GET /api/players/dee
check "... as RESP sees it" "NOACCOUNT no account 'dee'" \
    "$(cli PLAYER.INFO dee)"
contains "every reply has the security headers" "nosniff" \
    "$(header X-Content-Type-Options)"

# ------------------------------------------------------ info, games
answers "GET /api/players/NAME: 200" "200 ann" name GET /api/players/ann
check "... a kind never played rates 1500" 1500.0 \
    "$("$JGET" ratings.ludo.rating <"$DIR/body")"
check "... RD 350, none played" "350.0 0 0" \
    "$("$JGET" ratings.ludo.rd <"$DIR/body") \
$("$JGET" ratings.ludo.played <"$DIR/body") \
$("$JGET" ratings.ludo.won <"$DIR/body")"
contains "... volatility 0.06, as a double holds it" '"volatility":0.06,' \
    "$(cat "$DIR/body")"
check "... every kind" "dandy ludo snl" \
    "$("$JGET" -k ratings <"$DIR/body" | sort | tr '\n' ' ' | sed 's/ $//')"
check "... a player is no bot" null "$("$JGET" bot <"$DIR/body")"
refused "no such account: 404 NOACCOUNT" 404 NOACCOUNT \
    GET /api/players/nobody
refused "a name that is no id: 400 BADARG" 400 BADARG GET /api/players/A_B
refused "a parameter: 400 BADARG" 400 BADARG GET '/api/players/ann?x=1'
answers "GET /api/players/NAME/games: none yet" "200 []" games \
    GET /api/players/ann/games
check "... the last page" null "$("$JGET" next <"$DIR/body")"
refused "state neither active nor finished: 400 BADARG" 400 BADARG \
    GET '/api/players/ann/games?state=won'
refused "limit 0: 400 BADARG" 400 BADARG GET '/api/players/ann/games?limit=0'
refused "games of nobody: 404 NOACCOUNT" 404 NOACCOUNT \
    GET /api/players/nobody/games
answers "GET /api/leaderboard/ludo: nobody rated yet" "200 []" players \
    GET /api/leaderboard/ludo
refused "the leaderboard of no kind: 400 BADARG" 400 BADARG \
    GET /api/leaderboard/chess
refused "... limit 0: 400 BADARG" 400 BADARG GET '/api/leaderboard/ludo?limit=0'
refused "... after -1: 400 BADARG" 400 BADARG \
    GET '/api/leaderboard/ludo?after=-1'

# ------------------------------------------------- bad tickets
J2='{"kind": "ludo", "options": {"players": 2}}'
refused "a ticket without an account: 401 NOLOGIN" 401 NOLOGIN \
    POST /api/lobby "$J2"
check "... WWW-Authenticate" 'Bearer realm="ludus"' "$(header WWW-Authenticate)"
refused "a token without NAME: 400 BADARG" 400 BADARG POST /api/lobby "$J2" \
    -H "$(bearer "$ANNKEY")"
refused "an unknown account: 404 NOACCOUNT" 404 NOACCOUNT POST /api/lobby \
    "$J2" -H "$(bearer "nobody:$ANNKEY")"
refused "a wrong key: 401 WRONGKEY" 401 WRONGKEY POST /api/lobby "$J2" \
    -H "$(bearer "ann:$BOBKEY")"
refused "no kind: 400 BADARG" 400 BADARG POST /api/lobby '{}' \
    -H "$(bearer "$ANN")"
refused "a kind there is none of: 400 BADARG" 400 BADARG POST /api/lobby \
    '{"kind": "chess"}' -H "$(bearer "$ANN")"
refused "more players than the kind takes: 400 BADARG" 400 BADARG \
    POST /api/lobby '{"kind": "ludo", "options": {"players": 9}}' \
    -H "$(bearer "$ANN")"
contains "... saying what it takes" "from 2 to 4 for ludo" \
    "$("$JGET" message <"$DIR/body")"
refused "an option the kind does not take: refused" 400 ERR \
    POST /api/lobby '{"kind": "ludo", "options": {"deck": "shuffled"}}' \
    -H "$(bearer "$ANN")"
refused "seats are the matchmaker's: 400 BADARG" 400 BADARG \
    POST /api/lobby '{"kind": "ludo", "options": {"seats": "open"}}' \
    -H "$(bearer "$ANN")"
refused "an option that is no scalar: 400 BADARG" 400 BADARG \
    POST /api/lobby '{"kind": "ludo", "options": {"players": [2]}}' \
    -H "$(bearer "$ANN")"
refused "an unknown member: 400 BADARG" 400 BADARG POST /api/lobby \
    '{"kind": "ludo", "queue": "x"}' -H "$(bearer "$ANN")"
check "none of these made a ticket" 0 "$(queues)"

# ------------------------------------------------------ tickets
answers "POST /api/lobby with an account: 201, a ticket" "201 waiting" \
    state POST /api/lobby "$J2" -H "$(bearer "$ANN")"
T1=$("$JGET" ticket <"$DIR/body")
check "... its address" "/api/lobby/$T1" "$(header Location)"
check "... ann's" ann "$("$JGET" account <"$DIR/body")"
check "GET /api/lobby lists its queue" "1 ludo 1" \
    "$(curl -s "$BASE/api/lobby" | "$JGET" queues.0 | "$JGET" waiting) \
$(curl -s "$BASE/api/lobby?kind=ludo" | "$JGET" queues.0.kind) \
$(curl -s "$BASE/api/lobby?kind=ludo" | "$JGET" -n queues)"
refused "... a kind there is none of: 400 BADARG" 400 BADARG \
    GET '/api/lobby?kind=chess'
answers "GET /api/lobby/ID: waiting" "200 waiting" state GET "/api/lobby/$T1" \
    '' -H "$(bearer "$ANN")"
check "... no game yet" null "$("$JGET" game <"$DIR/body")"
refused "... without an account: 401 NOLOGIN" 401 NOLOGIN \
    GET "/api/lobby/$T1"
refused "... of another account: 404 NOTICKET" 404 NOTICKET \
    GET "/api/lobby/$T1" '' -H "$(bearer "$BOB")"
contains "... saying so" "another account's" "$("$JGET" message <"$DIR/body")"
refused "... a wrong key: 401 WRONGKEY" 401 WRONGKEY GET "/api/lobby/$T1" \
    '' -H "$(bearer "ann:$BOBKEY")"
refused "... no such ticket: 404 NOTICKET" 404 NOTICKET GET /api/lobby/999 \
    '' -H "$(bearer "$ANN")"
refused "... a ticket that is no number: 400 BADARG" 400 BADARG \
    GET /api/lobby/abc '' -H "$(bearer "$ANN")"
refused "DELETE of another account's: 404 NOTICKET" 404 NOTICKET \
    DELETE "/api/lobby/$T1" '' -H "$(bearer "$BOB")"
v=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE -H \
    'Content-Type: text/plain' -H "$(bearer "$ANN")" "$BASE/api/lobby/$T1")
check "DELETE without the JSON type: 415 (CSRF)" 415 "$v"
refused "DELETE from a foreign Origin: 403 ORIGIN" 403 ORIGIN DELETE \
    "/api/lobby/$T1" '' -H 'Origin: http://evil.example' \
    -H "$(bearer "$ANN")"
answers "... none of them cancelled it" "200 waiting" state \
    GET "/api/lobby/$T1" '' -H "$(bearer "$ANN")"
refused "PUT /api/lobby/ID: 405 METHOD" 405 METHOD PUT "/api/lobby/$T1" \
    '{}' -H "$(bearer "$ANN")"
check "... Allow" "GET, HEAD, DELETE" "$(header Allow)"

# The waiting ticket's stream, then cancelled: the stream says so.
if stream s1 "$ANN" "$T1"; then
	ok "GET /api/lobby/ID/events: a stream while it waits"
else
	not_ok "GET /api/lobby/ID/events: a stream while it waits"
fi
check "... an event stream" "text/event-stream" \
    "$(curl -s -I -H "$(bearer "$ANN")" "$BASE/api/lobby/$T1/events" |
    tr -d '\r' | sed -n 's/^Content-Type: //Ip')"
answers "DELETE /api/lobby/ID: cancelled" "200 cancelled" state \
    DELETE "/api/lobby/$T1" '' -H "$(bearer "$ANN")"
if wait_line "$DIR/s1" '^event: error' "" 500; then
	ok "... the stream ends with an error event"
else
	not_ok "... the stream ends with an error event"
fi
contains "... saying it was cancelled" "was cancelled" "$(cat "$DIR/s1")"
refused "cancelled twice: 409 STATE" 409 STATE DELETE "/api/lobby/$T1" '' \
    -H "$(bearer "$ANN")"
contains "... saying so" "cancelled already" "$("$JGET" message <"$DIR/body")"
refused "GET of a cancelled ticket: 409 STATE" 409 STATE GET "/api/lobby/$T1" \
    '' -H "$(bearer "$ANN")"
refused "its stream: 409 STATE, no stream" 409 STATE \
    GET "/api/lobby/$T1/events" '' -H "$(bearer "$ANN")"
check "the queue is empty again" 0 "$(queues)"

# Two accounts meet: ann over HTTP, bob over RESP.
answers "ann joins again" "201 waiting" state POST /api/lobby "$J2" \
    -H "$(bearer "$ANN")"
T2=$("$JGET" ticket <"$DIR/body")
if stream s2 "$ANN" "$T2"; then
	ok "... and waits on its stream"
else
	not_ok "... and waits on its stream"
fi
lacks "... nothing yet" "event: matched" "$(cat "$DIR/s2")"
check "... counted in /metrics" 1 \
    "$(curl -s "$BASE/metrics" | sed -n 's/^ludus_ticket_streams //p')"
T3=$(printf 'PLAYER.LOGIN bob %s\nMATCH.JOIN ludo players=2\n' "$BOBKEY" |
    cli | sed -n 2p)
if wait_line "$DIR/s2" '^event: matched' "" 500; then
	ok "bob joins over RESP: ann's stream tells of the match"
else
	not_ok "bob joins over RESP: ann's stream tells of the match"
fi
DATA=$(sed -n 's/^data: //p' "$DIR/s2")
GAME=$(printf %s "$DATA" | "$JGET" game)
check "... the game, ann's seat, both players" "ann ann,bob" \
    "$(printf %s "$DATA" | "$JGET" seat) $(printf %s "$DATA" |
    "$JGET" players | tr -d '[]"' | tr , '\n' | sort | paste -sd, -)"
check "... the game's page" "/games/$GAME" "$(printf %s "$DATA" |
    "$JGET" url)"
check "... the event's id is the ticket" "id: $T2" "$(grep '^id:' "$DIR/s2")"
check "... and the stream ends" 0 \
    "$(curl -s "$BASE/metrics" | sed -n 's/^ludus_ticket_streams //p')"
check "bob's MATCH.WAIT over RESP: the same game" "$GAME bob" \
    "$(printf 'PLAYER.LOGIN bob %s\nMATCH.WAIT %s\n' "$BOBKEY" "$T3" | cli |
    sed -n '2,3p' | tr '\n' ' ' | sed 's/ $//')"
check "the game is there, its seats the accounts'" "ann bob" \
    "$( (curl -s "$BASE/api/games/$GAME" | "$JGET" players.0.name
    curl -s "$BASE/api/games/$GAME" | "$JGET" players.1.name) | sort |
    paste -sd' ' -)"
stream s3 "$ANN" "$T2"
if wait_line "$DIR/s3" '^event: matched' "" 500; then
	ok "a reconnecting stream gets the match again, at once"
else
	not_ok "a reconnecting stream gets the match again, at once"
fi
check "... the same" "$DATA" "$(sed -n 's/^data: //p' "$DIR/s3")"
answers "bob's ticket over HTTP: matched" "200 matched" state \
    GET "/api/lobby/$T3" '' -H "$(bearer "$BOB")"
check "... bob's seat in the same game" "$GAME bob" \
    "$("$JGET" game <"$DIR/body") $("$JGET" seat <"$DIR/body")"
refused "a matched ticket cancelled: 409 STATE" 409 STATE \
    DELETE "/api/lobby/$T3" '' -H "$(bearer "$BOB")"
contains "... naming its game" "$GAME" "$("$JGET" message <"$DIR/body")"
answers "ann's games: the match, active" "200 $GAME" games.0.id \
    GET '/api/players/ann/games?state=active' ''
check "... her seat, whose turn, no moves" "ann 0" \
    "$("$JGET" games.0.seat <"$DIR/body") $("$JGET" games.0.moves <"$DIR/body")"
contains "... whose turn it is" "$("$JGET" games.0.turn <"$DIR/body")" "ann bob"
answers "... none finished" "200 []" games GET \
    '/api/players/ann/games?state=finished'
answers "... a page of one: a next page" "200 $GAME" next \
    GET '/api/players/ann/games?limit=1'
answers "... after it, none" "200 []" games \
    GET "/api/players/ann/games?after=$GAME"

# The seats are the accounts': each plays its own with its token.
TURN=$(curl -s "$BASE/api/games/$GAME" | "$JGET" turn)
if [ "$TURN" = ann ]; then
	MINE=$ANN OTHER=$BOB
else
	MINE=$BOB OTHER=$ANN
fi
refused "the match's game: a roll without a token: 403 NOSEAT" 403 NOSEAT \
    POST "/api/games/$GAME/roll" "{\"player\": \"$TURN\"}"
refused "... with the other account's token: 403 NOSEAT" 403 NOSEAT \
    POST "/api/games/$GAME/roll" "{\"player\": \"$TURN\"}" \
    -H "$(bearer "$OTHER")"
refused "... a token with a wrong key: 401 WRONGKEY" 401 WRONGKEY \
    POST "/api/games/$GAME/roll" "{\"player\": \"$TURN\"}" \
    -H "$(bearer "$TURN:$ANNKEY$BOBKEY")"
answers "... with its account's token: rolled" "200 $GAME" id \
    POST "/api/games/$GAME/roll" "{\"player\": \"$TURN\"}" \
    -H "$(bearer "$MINE")"
check "... the roll the server keeps" \
    "$("$JGET" roll <"$DIR/body")" \
    "$(cli GAME.INFO "$GAME" | sed -n 's/^roll,//p')"

# cy's ticket: another account cannot stream it.
answers "cy joins" "201 waiting" state POST /api/lobby \
    '{"kind": "ludo", "options": {"players": "2-4"}}' -H "$(bearer "$CY")"
T4=$("$JGET" ticket <"$DIR/body")
refused "another account's stream: 404 NOTICKET" 404 NOTICKET \
    GET "/api/lobby/$T4/events" '' -H "$(bearer "$ANN")"
refused "a stream without an account: 401 NOLOGIN" 401 NOLOGIN \
    GET "/api/lobby/$T4/events"

# ------------------------------------ a game to its end, rated
answers "ann joins Snake & Ladder, a bot at once" "201 waiting" state \
    POST /api/lobby '{"kind": "snl", "options": {"players": 2,
    "bots_after": 0}}' -H "$(bearer "$ANN")"
T5=$("$JGET" ticket <"$DIR/body")
i=0
until [ "$(req GET "/api/lobby/$T5" '' -H "$(bearer "$ANN")" |
    "$JGET" state)" = matched ] || [ $i -ge 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
SG=$("$JGET" game <"$DIR/body")
SEAT=$("$JGET" seat <"$DIR/body")
check "... matched with a bot" "matched 1" "$("$JGET" state <"$DIR/body") \
$(curl -s "$BASE/api/games/$SG" | "$JGET" players | tr '}' '\n' |
    grep -c '"bot":"')"
# ann rolls on her turns with her token, the bot on its own.
i=0 rolls=0
while [ $i -lt 3000 ]; do
	g=$(curl -s "$BASE/api/games/$SG")
	[ "$(printf %s "$g" | "$JGET" winner)" != null ] && break
	if [ "$(printf %s "$g" | "$JGET" turn)" = "$SEAT" ]; then
		req POST "/api/games/$SG/moves" \
		    "{\"seq\": $(printf %s "$g" | "$JGET" moves)}" \
		    -H "$(bearer "$ANN")" >/dev/null
		rolls=$((rolls + 1))
	else
		sleep 0.02
	fi
	i=$((i + 1))
done
W=$(curl -s "$BASE/api/games/$SG" | "$JGET" winner)
if [ "$W" != null ] && [ "$rolls" -gt 0 ]; then
	ok "played to its end over HTTP: $rolls rolls of ann's, $W won"
else
	not_ok "played to its end over HTTP (winner $W, $rolls rolls)"
fi
req GET /api/leaderboard/snl >/dev/null
check "the leaderboard of snl: ann and the bot" "200 2" \
    "$(status) $("$JGET" -n players <"$DIR/body")"
check "... each played one game, one of them won it" "1 1 1" \
    "$("$JGET" players.0.played <"$DIR/body") \
$("$JGET" players.1.played <"$DIR/body") \
$(($("$JGET" players.0.won <"$DIR/body") + $("$JGET" players.1.won <"$DIR/body")))"
check "... ranks 1 and 2, best first" "1 2" \
    "$("$JGET" players.0.rank <"$DIR/body") $("$JGET" players.1.rank <"$DIR/body")"
check "... the winner first" "$( [ "$W" = "$SEAT" ] && echo ann || echo bot)" \
    "$("$JGET" players.0.name <"$DIR/body" | sed 's/^bot-.*/bot/')"
check "... as LEADERBOARD says" "$(cli LEADERBOARD snl | sed -n 2p)" \
    "$("$JGET" players.0.name <"$DIR/body")"
answers "... a page of one has a next" "200 1" next \
    GET '/api/leaderboard/snl?limit=1'
answers "... after it, the second" "200 2" players.0.rank \
    GET '/api/leaderboard/snl?after=1'
answers "ann's rating of snl has moved" "200 1" ratings.snl.played \
    GET /api/players/ann
lacks "... from 1500" '"snl":{"rating":1500.0' "$(cat "$DIR/body")"
answers "ann's finished games: that one" "200 $SG" games.0.id \
    GET '/api/players/ann/games?state=finished'
check "... nobody's turn" null "$("$JGET" games.0.turn <"$DIR/body")"

# The pages of the same: the leaderboard, the player.
page() {
	curl -s --max-time 10 -H 'Accept: text/html' -o "$DIR/page" \
	    -w '%{http_code} %{content_type}' "$BASE$1"
}
check "GET /leaderboard/snl: a page" "200 text/html; charset=utf-8" \
    "$(page /leaderboard/snl)"
check "... a row for each, ann's linked to her page" "2 1" \
    "$(grep -c '^<tr><td class="num">' "$DIR/page") \
$(grep -c '<a href="/players/ann">ann</a>' "$DIR/page")"
req GET /api/leaderboard/snl >/dev/null
RANN=$(tr '{' '\n' <"$DIR/body" | grep '"name":"ann"' |
    sed 's/.*"rating":\([0-9.]*\).*/\1/')
contains "... her rating, to two places" \
    "$(printf '%.2f' "$RANN")" "$(grep 'players/ann' "$DIR/page")"
check "the index links each leaderboard" 3 \
    "$(curl -s "$BASE/" | grep -o 'href="/leaderboard/[a-z]*"' | sort -u |
    wc -l | tr -d ' ')"
check "GET /players/ann: a page" "200 text/html; charset=utf-8" \
    "$(page /players/ann)"
contains "... her games, linked" "<a href=\"/games/$SG\">$SG</a>" \
    "$(cat "$DIR/page")"
check "... one snl game played" 1 \
    "$(sed -n 's/.*data-kind="snl".*<td class="num">\([0-9]*\)<\/td><td class="num">[0-9]*<\/td><\/tr>$/\1/p' "$DIR/page")"
check "... ?state=finished: that game alone" 1 \
    "$(page '/players/ann?state=finished' >/dev/null
    grep -c '<td class="id"><a href="/games/' "$DIR/page")"
check "a page of nobody: 404, as a page" "404 text/html; charset=utf-8" \
    "$(page /players/nobody)"
contains "... saying so" "no account" "$(cat "$DIR/page")"
check "the leaderboard of no kind: 400" "400 text/html; charset=utf-8" \
    "$(page /leaderboard/chess)"
check "a page's unknown parameter: 400" "400" \
    "$(page '/players/ann?x=1' | cut -d' ' -f1)"

# ------------------------------------------- a second node (PostgreSQL)
if [ "$STORE_OPT" = --store ]; then
	PID1=$PID PORT1=$PORT BASE1=$BASE
	rm -f "$DIR/hport2"
	# A heartbeat longer than the test: the second node hears of the
	# first one's match through its poll of the store.
	if start_daemon "$DIR/port2" "$DIR/log2" --http-port any \
	    --http-portfile "$DIR/hport2" --http-event-heartbeat 60 \
	    --store "$STORE_ARG" && wait_file "$DIR/hport2" "$PID" 100; then
		ok "a second node on the same PostgreSQL"
	else
		not_ok "a second node on the same PostgreSQL"
	fi
	BG="$BG $PID"
	PID2=$PID PID=$PID1 PORT=$PORT1
	BASE2=http://127.0.0.1:$(cat "$DIR/hport2")
	answers "ann joins on the first node" "201 waiting" state \
	    POST /api/lobby '{"kind": "dandy", "options": {"players": 2,
	    "board": "abcabc"}}' -H "$(bearer "$ANN")"
	T6=$("$JGET" ticket <"$DIR/body")
	BASE=$BASE2
	if stream s6 "$ANN" "$T6"; then
		ok "... and waits on the second node's stream"
	else
		not_ok "... and waits on the second node's stream"
	fi
	BASE=$BASE1
	answers "bob joins on the first node" "201 waiting" state \
	    POST /api/lobby '{"kind": "dandy", "options": {"players": 2,
	    "board": "abcabc"}}' -H "$(bearer "$BOB")"
	if wait_line "$DIR/s6" '^event: matched' "" 500; then
		ok "the second node's stream tells of the match"
	else
		not_ok "the second node's stream tells of the match"
	fi
	check "... the game the first node reads" \
	    "$(req GET "/api/lobby/$T6" '' -H "$(bearer "$ANN")" |
	    "$JGET" game)" \
	    "$(sed -n 's/^data: //p' "$DIR/s6" | "$JGET" game)"
	kill -TERM "$PID2"
	wait "$PID2"
	check "the second node stops cleanly" 0 "$?"
fi

# A stream still waiting when ludusd stops ends, not cut.
(curl -s -N --max-time 20 -H "$(bearer "$CY")" \
    "$BASE/api/lobby/$T4/events" >"$DIR/s7"; echo $? >"$DIR/s7.rc") &
BG="$BG $!"
wait_line "$DIR/s7" "^: the match of ticket $T4" "" 500
kill -TERM "$PID"
wait "$PID"
check "ludusd stops cleanly" 0 "$?"
PID=
i=0
while [ ! -s "$DIR/s7.rc" ] && [ $i -lt 500 ]; do
	sleep 0.01
	i=$((i + 1))
done
check "... a waiting stream ends with it, whole (curl's status)" 0 \
    "$(cat "$DIR/s7.rc" 2>/dev/null)"

# ------------------------------------ the password, the quota
store_for "$DIR/p.db"
if start_http_daemon --requirepass sesame --http-create-rate 3 \
    --max-tickets 1 "$STORE_OPT" "$STORE_ARG"; then
	ok "ludusd with a password, http-create-rate 3, max-tickets 1"
else
	not_ok "ludusd with a password, http-create-rate 3, max-tickets 1"
	sed 's/^/# /' "$DIR/log"
fi
refused "POST /api/players without the password: 401 NOAUTH" 401 NOAUTH \
    POST /api/players '{"name": "eve"}'
answers "... with it: 201" "201 eve" name POST /api/players '{"name": "eve"}' \
    -H "$(bearer sesame)"
EVE=$("$JGET" token <"$DIR/body")
refused "a ticket with the token as the bearer: 401 (the password's place)" \
    401 WRONGPASS POST /api/lobby "$J2" -H "$(bearer "$EVE")"
refused "... the password without X-Account-Key: 401 NOLOGIN" 401 NOLOGIN \
    POST /api/lobby "$J2" -H "$(bearer sesame)"
contains "... saying where the token goes" "X-Account-Key" \
    "$("$JGET" message <"$DIR/body")"
answers "... both: 201" "201 waiting" state POST /api/lobby "$J2" \
    -H "$(bearer sesame)" -H "X-Account-Key: $EVE"
T7=$("$JGET" ticket <"$DIR/body")
refused "a second waiting ticket over max-tickets: 429 LIMIT" 429 LIMIT \
    POST /api/lobby '{"kind": "snl", "options": {"players": 2}}' \
    -H "$(bearer sesame)" -H "X-Account-Key: $EVE"
contains "... naming the key" "max-tickets 1" "$("$JGET" message <"$DIR/body")"
check "... no ticket made" 1 "$(curl -s "$BASE/api/lobby" | "$JGET" -n queues)"
# The heartbeat is 15 s here: a stream that ends sooner was told.
rm -f "$DIR/s8"
curl -s -N --max-time 20 -H "X-Account-Key: $EVE" \
    "$BASE/api/lobby/$T7/events" >"$DIR/s8" &
BG="$BG $!"
wait_line "$DIR/s8" "^: the match of ticket $T7" "" 500
answers "a cancel over HTTP (X-Account-Key)" "200 cancelled" state \
    DELETE "/api/lobby/$T7" '' -H "$(bearer sesame)" -H "X-Account-Key: $EVE"
if wait_line "$DIR/s8" '^event: error' "" 300; then
	ok "... ends its stream at once, not at the heartbeat"
else
	not_ok "... ends its stream at once, not at the heartbeat"
fi
answers "the third made this minute (the refused one is given back)" \
    "201 fay" name POST /api/players '{"name": "fay"}' -H "$(bearer sesame)"
refused "the fourth: 429 LIMIT" 429 LIMIT POST /api/players \
    '{"name": "gus"}' -H "$(bearer sesame)"
test -n "$(header Retry-After)" && ok "... with Retry-After" ||
    not_ok "... with Retry-After"
refused "... nothing made" 404 NOACCOUNT GET /api/players/gus

echo "1..$N"
