#!/bin/sh
# ludusd's HTTP side from outside, with curl: every endpoint of the read
# side and its errors, the pages and static files, the security rules
# (Host, writes, the headers every reply carries, no CORS), the limits
# (sizes, connections, slow senders) and a corpus of malformed requests
# (tests/web/corpus, sent raw by rawhttp.pl).  TAP output; skipped (77)
# without curl or redis-cli.
#
# The daemon listens on ports the kernel picks (--port 0, HTTP on any
# free port) and writes them to files; its database and files live in a
# temporary directory removed at the end, and it is killed on any exit.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
RAW="perl $top_srcdir/tests/web/rawhttp.pl"
CORPUS=$top_srcdir/tests/web/corpus

need_web curl redis-cli perl
test_setup ludusd-http

start_web_daemon() {
	start_http_daemon --http-host games.example --http-maxclients 6 \
	    --http-timeout 2 --http-max-header 4kb --http-max-body 1kb "$@"
}

# get PATH [curl args]: the body on stdout; the status and the type go to
# a file (get often runs in a subshell), read by status and ctype.
get() {
	p=$1
	shift
	curl -s --max-time 10 -o "$DIR/body" -D "$DIR/head" \
	    -w '%{http_code} %{content_type}' "$@" "$BASE$p" >"$DIR/meta"
	cat "$DIR/body"
}
status() {
	cut -d' ' -f1 "$DIR/meta"
}
ctype() {
	cut -d' ' -f2- "$DIR/meta"
}
# field PATH JSONPATH [curl args]: one value of a JSON reply.
field() {
	p=$1 f=$2
	shift 2
	get "$p" "$@" | "$JGET" "$f"
}
# error_is NAME PATH STATUS CODE [curl args]: a JSON error with that
# status and code word.
error_is() {
	name=$1 p=$2 want="$3 $4"
	shift 4
	code=$(field "$p" error "$@")
	check "$name" "$want application/json" "$(status) $code $(ctype)"
}
header() {
	tr -d '\r' <"$DIR/head" | sed -n "s/^$1: //Ip" | head -1
}

if start_web_daemon; then
	ok "ludusd starts with HTTP on a free port"
else
	not_ok "ludusd starts with HTTP on a free port"
	sed 's/^/# /' "$DIR/log"
	echo "1..$N"
	exit 1
fi

# ------------------------------------------------------------- games
cli LUDO.CREATE lu red blue >/dev/null
cli LUDO.CREATE lx a b c rules=extended >/dev/null
cli LUDO.CREATE li x y rules=interview >/dev/null
cli SNL.CREATE sn 2 snakes=97:78 ladders=3:38 >/dev/null
cli DANDY.CREATE dd 2 abcabc deck=cbacba >/dev/null
cli LUDO.PLAY lu red 6 1 >/dev/null
cli LUDO.PLAY lu red 3 1 >/dev/null
cli LUDO.PLAY lu blue 4 0 >/dev/null
cli SNL.ROLL sn 3 >/dev/null
cli SNL.ROLL sn 2 >/dev/null
cli DANDY.DRAW dd >/dev/null

check "list: every game, in id order" "dd,li,lu,lx,sn" \
    "$(for i in 0 1 2 3 4; do field /api/games games.$i.id; done |
    paste -sd, -)"
check "list: 200 JSON" "200 application/json" "$(status) $(ctype)"
check "list: next is null on the last page" "null" \
    "$(field /api/games next)"
check "list: summaries have no state" "" "$(field /api/games games.0.state)"
check "list by kind" "li lu lx" "$(get '/api/games?kind=ludo' |
    "$JGET" games | tr ',' '\n' | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' |
    paste -sd' ' -)"
check "list: limit and next" "2 li" "$(get '/api/games?limit=2' |
    "$JGET" -n games) $(field '/api/games?limit=2' next)"
check "list: after" "lu" "$(field '/api/games?after=li&limit=1' games.0.id)"
check "list: exactly N games with limit=N: next is null" "5 null" \
    "$(get '/api/games?limit=5' | "$JGET" -n games) $(field '/api/games?limit=5' next)"
check "list: the last page of a walk: next is null" "2 null" \
    "$(get '/api/games?after=lu&limit=2' | "$JGET" -n games) $(field \
    '/api/games?after=lu&limit=2' next)"
check "list: moves and winner" "lu 3 null" \
    "$(for f in id moves winner; do
    field '/api/games?kind=ludo&after=li&limit=1' games.0.$f; done |
    paste -sd' ' -)"
error_is "list: bad kind" '/api/games?kind=chess' 400 BADARG
error_is "list: limit 0" '/api/games?limit=0' 400 BADARG
error_is "list: limit not a number" '/api/games?limit=ten' 400 BADARG
error_is "list: bad after" '/api/games?after=Bad!' 400 BADARG
error_is "list: unknown parameter" '/api/games?colour=red' 400 BADARG
error_is "list: a parameter twice" '/api/games?limit=1&limit=2' 400 BADARG
check "list: the message says why" "limit must be an integer from 1 to 1000" \
    "$(field '/api/games?limit=0' message)"

# ---------------------------------------------------------- one game
check "Ludo: kind, moves, turn, winner" "ludo 3 red null" \
    "$(for f in kind moves turn winner; do field /api/games/lu $f; done |
    paste -sd' ' -)"
check "Ludo: a token's location and position" "TRACK 3 3" \
    "$(for f in location position square; do
    field /api/games/lu state.tokens.0.$f; done | paste -sd' ' -)"
check "Ludo: the state matches LUDO.STATE" \
    "$(cli LUDO.STATE lu | sed -n 3,10p | paste -sd' ' -)" \
    "$(for i in 0 1 2 3 4 5 6 7; do
    printf '%s,%s,%s,%s\n' "$(field /api/games/lu state.tokens.$i.player)" \
    "$(field /api/games/lu state.tokens.$i.token)" \
    "$(field /api/games/lu state.tokens.$i.location)" \
    "$(field /api/games/lu state.tokens.$i.position)"; done | paste -sd' ' -)"
check "Ludo: the preset's geometry" "extended 50 56" \
    "$(for f in preset last_track finish; do
    field /api/games/lx state.rules.$f; done | paste -sd' ' -)"
check "Snake & Ladder: positions and jumps" "38 2 97 78 3 38" \
    "$(for f in positions.0.position positions.1.position snakes.0.head \
    snakes.0.tail ladders.0.bottom ladders.0.top; do
    field /api/games/sn state.$f; done | paste -sd' ' -)"
check "DandyLand: board, positions, points, deck" "abcabc 3 null 0 given 5" \
    "$(for f in board positions.0.position positions.1.position \
    positions.0.points deck.kind deck.cards_left; do
    field /api/games/dd state.$f; done | paste -sd' ' -)"
lacks "DandyLand: the cards are never shown" 'cbacba' \
    "$(get /api/games/dd)"
check "DandyLand: no dice option" "" "$(field /api/games/dd options.dice)"
error_is "no such game" /api/games/nope 404 NOGAME
check "no such game: RESP's message" "no such game 'nope'" \
    "$(field /api/games/nope message)"
error_is "invalid id" /api/games/Nope 400 BADARG
error_is "id too long" \
    /api/games/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 400 BADARG
error_is "one game takes no parameter" '/api/games/lu?x=1' 400 BADARG
error_is "a path under a game that is no endpoint" /api/games/lu/nope 404 \
    NOTFOUND

# ------------------------------------------------------------ history
check "history: every move" "3 6:1 3:1 4:0" \
    "$(get /api/games/lu/history | "$JGET" -n history) $(for i in 0 1 2; do
    field /api/games/lu/history history.$i.action; done | paste -sd' ' -)"
check "history: from and count, next" "2 1 3" \
    "$(field '/api/games/lu/history?from=2&count=1' history.0.seq) $(get \
    '/api/games/lu/history?from=2&count=1' | "$JGET" -n history) $(field \
    '/api/games/lu/history?from=2&count=1' next)"
check "history: past the end" "0 null" \
    "$(get '/api/games/lu/history?from=9' | "$JGET" -n history) $(field \
    '/api/games/lu/history?from=9' next)"
check "history: the rows match HISTORY" "$(cli HISTORY sn | paste -sd' ' -)" \
    "$(for i in 0 1; do printf '%s,%s,%s,%s\n' \
    "$(field /api/games/sn/history history.$i.seq)" \
    "$(field /api/games/sn/history history.$i.player)" \
    "$(field /api/games/sn/history history.$i.action)" \
    "$(field /api/games/sn/history history.$i.result)"; done | paste -sd' ' -)"
check "history: who made a move" "player" \
    "$(field /api/games/lu/history history.0.by)"
error_is "history: from 0" '/api/games/lu/history?from=0' 400 BADARG
error_is "history: count over the cap" '/api/games/lu/history?count=10001' \
    400 BADARG
error_is "history: no such game" /api/games/nope/history 404 NOGAME

# ------------------------------------------------------------- replay
check "replay: before any move" "0 YARD 0" \
    "$(field '/api/games/lu/replay?seq=0' moves) $(field \
    '/api/games/lu/replay?seq=0' state.tokens.0.location) $(field \
    '/api/games/lu/replay?seq=0' seq)"
check "replay: after move 1 matches REPLAY" \
    "$(cli REPLAY lu 1 | sed -n 3p)" \
    "$(printf 'red,1,%s,%s' "$(field '/api/games/lu/replay?seq=1' \
    state.tokens.0.location)" "$(field '/api/games/lu/replay?seq=1' \
    state.tokens.0.position)")"
check "replay: no seq is now" "3" "$(field /api/games/lu/replay seq)"
error_is "replay: past the end" '/api/games/lu/replay?seq=4' 400 BADARG
check "replay: RESP's message" "game 'lu' has only 3 moves" \
    "$(field '/api/games/lu/replay?seq=4' message)"
error_is "replay: negative seq" '/api/games/lu/replay?seq=-1' 400 BADARG
error_is "replay: seq not a number" '/api/games/lu/replay?seq=x' 400 BADARG

# ------------------------------------------------------------ health
check "healthz: the store answers" "ok" "$(field /healthz status)"
check "readyz" "ready" "$(field /readyz status)"

# ------------------------------------------------------ boards, pages
svg=$(get /games/lu.svg)
check "board: image/svg+xml" "200 image/svg+xml" "$(status) $(ctype)"
contains "board: red's token 1 on its square" \
    'data-player="red" data-token="1" data-loc="TRACK" data-pos="3"' "$svg"
check "board: eight tokens" 8 "$(printf '%s' "$svg" | grep -o 'class="token"' |
    wc -l | tr -d ' ')"
contains "board after move 1" 'data-token="1" data-loc="TRACK" data-pos="0"' \
    "$(get '/games/lu.svg?seq=1')"
contains "board: Snake & Ladder" 'data-player="P1" data-pos="38"' \
    "$(get /games/sn.svg)"
contains "board: DandyLand" 'data-player="P1" data-pos="3"' \
    "$(get /games/dd.svg)"
error_is "board: no such game" /games/nope.svg 404 NOGAME
error_is "board: past the end" '/games/lu.svg?seq=9' 400 BADARG

page=$(get /)
check "list page: HTML" "200 text/html; charset=utf-8" "$(status) $(ctype)"
contains "list page: a row per game" '<a href="/games/sn">sn</a>' "$page"
contains "list page: moves and turn" \
    '<td class="num">3</td><td>red</td>' "$page"
page=$(get '/?kind=snl')
contains "list page by kind" 'Snake &amp; Ladder</strong>' "$page"
lacks "list page by kind: only that kind" '/games/lu"' "$page"
contains "list page: a next page" 'kind=ludo&amp;limit=2&amp;after=lu' \
    "$(get '/?kind=ludo&limit=2')"
contains "list page: the first page from a later one" 'href="/?kind=ludo"' \
    "$(get '/?kind=ludo&after=lu')"
page=$(get /games/lu)
check "game page: HTML" "200 text/html; charset=utf-8" "$(status) $(ctype)"
contains "game page: the board inline" '<svg xmlns' "$page"
contains "game page: the move list, in the kind's words" \
    'title="blue 4:0 PASSED"><span class="words">blue rolled 4: no token can move, the turn passes</span>' \
    "$page"
contains "game page: the scrubber" 'type="range" id="seq" name="seq" min="0" max="3"' \
    "$(printf '%s' "$page" | tr '\n' ' ')"
page=$(get '/games/lu?seq=1')
contains "game page at a move: that board" \
    'data-token="1" data-loc="TRACK" data-pos="0"' "$page"
contains "game page at a move: marked" \
    'data-seq="1" value="1" class="current"' "$page"
error_is "game page: no such game" /games/nope 404 NOGAME
error_is "no such page" /nope 404 NOTFOUND

# ------------------------------------------------------------ static
css=$(get /static/ludus.css)
check "static: CSS" "200 text/css; charset=utf-8" "$(status) $(ctype)"
check "static: the file itself" "$(cat "$top_srcdir/web/ludus.css")" "$css"
etag=$(header ETag)
contains "static: an ETag" '"' "$etag"
get /static/ludus.css -H "If-None-Match: $etag" >/dev/null
check "static: 304 when unchanged" "304" "$(status)"
for inm in "\"x\", $etag" "W/$etag" '*' "\"x\",$etag , \"y\""; do
	get /static/ludus.css -H "If-None-Match: $inm" >/dev/null
	check "static: 304 for If-None-Match: $inm" "304" "$(status)"
done
for inm in '"x", "y"' "W/\"x\""; do
	get /static/ludus.css -H "If-None-Match: $inm" >/dev/null
	check "static: 200 for If-None-Match: $inm" "200" "$(status)"
done
get /static/ludus.js >/dev/null
check "static: JavaScript" "200 text/javascript; charset=utf-8" "$(status) $(ctype)"
get /static/favicon.svg >/dev/null
check "static: SVG" "200 image/svg+xml" "$(status) $(ctype)"
error_is "static: the templates are not served" /static/game.html 404 \
    NOTFOUND
error_is "static: no such file" /static/nope.js 404 NOTFOUND
for p in '/static/ludus.css?v=2' '/healthz?x=1' '/metrics?name=a'; do
	error_is "an unknown parameter: $p" "$p" 400 BADARG
done
check "HEAD: headers, no body" "200 0" "$(curl -s -I -o /dev/null \
    -w '%{http_code} %{size_download}' "$BASE/static/ludus.css")"

# ---------------------------------------------------------- security
for p in / /games/lu /games/lu.svg /api/games /nope /static/ludus.js; do
	get "$p" >/dev/null
	h=$(tr -d '\r' <"$DIR/head")
	contains "nosniff on $p" "X-Content-Type-Options: nosniff" "$h"
	contains "CSP on $p" "Content-Security-Policy: default-src 'none'; script-src 'self';" "$h"
	contains "frame-ancestors on $p" "frame-ancestors 'none'" "$h"
	contains "no referrer on $p" "Referrer-Policy: no-referrer" "$h"
	lacks "no CORS on $p" "Access-Control-" "$h"
done
error_is "a foreign Host: 421" /api/games 421 HOST -H 'Host: attacker.example'
check "the refusal is logged" "1" \
    "$(grep -c "refused Host 'attacker.example'" "$DIR/log")"
get /api/games -H "Host: localhost:$HPORT" >/dev/null
check "Host localhost" 200 "$(status)"
get /api/games -H "Host: games.example" >/dev/null
check "Host of http-host" 200 "$(status)"
get /api/games -H "Host: GAMES.example:8080" >/dev/null
check "Host of http-host, any case and port" 200 "$(status)"
get /api/games -H "Host: 10.0.0.1" >/dev/null
check "Host: an address not ours" 421 "$(status)"
error_is "a form post: 415" /api/games 415 TYPE -X POST \
    -H 'Content-Type: application/x-www-form-urlencoded' --data 'a=b'
error_is "a text/plain post: 415" /api/games 415 TYPE -X POST \
    -H 'Content-Type: text/plain' --data 'LUDO.CREATE pwned a b'
error_is "a JSON post from a foreign origin: 403" /api/games 403 ORIGIN \
    -X POST -H 'Content-Type: application/json' \
    -H 'Origin: http://attacker.example' --data '{}'
error_is "a JSON post from our origin to a read: 405" /api/games/lu/history \
    405 METHOD -X POST -H 'Content-Type: application/json' \
    -H "Origin: http://127.0.0.1:$HPORT" --data '{}'
check "405 says what is allowed" "GET, HEAD" "$(header Allow)"
get /api/games -X OPTIONS -H 'Origin: http://attacker.example' \
    -H 'Access-Control-Request-Method: POST' >/dev/null
lacks "a preflight gets no CORS answer" "Access-Control-" \
    "$(cat "$DIR/head")"
check "nothing was created" "dd li lu lx sn" "$(cli GAMES | paste -sd' ' -)"

# ------------------------------------------------------------ limits
big=$(head -c 5000 /dev/zero | tr '\0' 'a')
get /api/games -H "X-Big: $big" >/dev/null
check "headers over http-max-header: 400, by evhttp" "400" "$(status)"
contains "... with the security headers" "X-Content-Type-Options: nosniff" \
    "$(tr -d '\r' <"$DIR/head")"
get "/api/games?after=$big" >/dev/null
check "a target over http-max-header: 400, by evhttp" "400" "$(status)"
get /api/games -X POST -H 'Content-Type: application/json' \
    --data-binary "$(head -c 2000 /dev/zero | tr '\0' ' ')" >/dev/null
check "a body over http-max-body: 413" "413" "$(status)"
check "... with the security headers" "nosniff DENY no-referrer" \
    "$(header X-Content-Type-Options) $(header X-Frame-Options) $(header Referrer-Policy)"
check "http-maxclients: the one too many gets 503" "200 200 200 200 200 200 503" \
    "$($RAW hold "$HPORT" 6)"
check "connections are counted down when they close" "200" \
    "$(get /healthz >/dev/null; echo "$(status)")"
# closes_in NAME MODE: rawhttp's slow or idle connection is closed by
# the server after http-timeout (2 s), give or take a second.
closes_in() {
	t=$($RAW "$2" "$HPORT" 8)
	case $t in
	[0-9]*) if [ "$t" -ge 1 ] && [ "$t" -le 4 ]; then
		ok "$1 ($t s)"
		else not_ok "$1 ($t s)"; fi ;;
	*) not_ok "$1 ($t)" ;;
	esac
}
closes_in "a slow sender is closed at http-timeout" slow
closes_in "an idle connection is closed at http-timeout" idle

# ---------------------------------------------------- malformed corpus
# Every reply carries the security headers, evhttp's own pages (400,
# 501) too.
bare=
for f in "$CORPUS"/*.req; do
	name=$(basename "$f" .req)
	want=${name%%-*}
	$RAW head "$HPORT" "$f" >"$DIR/rawhead"
	got=$(head -1 "$DIR/rawhead")
	if [ "$got" != CLOSED ] && { ! grep -qx \
	    'X-Content-Type-Options: nosniff' "$DIR/rawhead" ||
	    ! grep -q "^Content-Security-Policy: .*frame-ancestors 'none'" \
	    "$DIR/rawhead" || ! grep -qx 'X-Frame-Options: DENY' \
	    "$DIR/rawhead" || ! grep -qx 'Referrer-Policy: no-referrer' \
	    "$DIR/rawhead"; }; then
		bare="$bare $name"
	fi
	# The status code, whatever version the reply speaks.
	code=$(printf '%s' "$got" | sed -n 's|^HTTP/1\.[01] \([0-9]*\) .*|\1|p')
	case $want:$code in
	any:*|4xx:4[0-9][0-9]) ok "corpus $name: $got" ;;
	"$want:$want") ok "corpus $name" ;;
	*) not_ok "corpus $name: $got" ;;
	esac
done
check "every reply of the corpus has the security headers" "" "$bare"
check "alive after the corpus" "ok" "$(field /healthz status)"
check "RESP is untouched" "PONG" "$(cli PING)"

# ------------------------------------------------------ configuration
"$LUDUSD" --help >"$DIR/help" 2>&1
contains "--help lists the HTTP keys" "--http-port PORT" "$(cat "$DIR/help")"
kill -TERM "$PID"
wait "$PID"
check "a clean stop" "0" "$?"
PID=
# A bind given as a name: the addresses it listens on name it too.
if start_http_daemon --bind localhost; then
	get /healthz -H "Host: 127.0.0.1:$HPORT" >/dev/null
	check "bind localhost: a Host of its address" 200 "$(status)"
	kill -TERM "$PID"
	wait "$PID"
else
	not_ok "bind localhost: starts"
fi
PID=
if start_web_daemon --http-port 0; then
	check "http-port 0: no HTTP" "" "$HPORT"
else
	# No http-portfile is written: wait for the RESP one instead.
	i=0
	while [ ! -s "$DIR/port" ] && [ $i -lt 500 ]; do sleep 0.01;
	    i=$((i + 1)); done
	PORT=$(cat "$DIR/port" 2>/dev/null)
	check "http-port 0: no HTTP, RESP serves" "PONG" "$(cli PING)"
	check "http-port 0: no HTTP port file" "" \
	    "$(cat "$DIR/hport" 2>/dev/null)"
fi

echo "1..$N"
[ "$FAILED" -eq 0 ]
