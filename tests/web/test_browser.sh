#!/bin/sh
# The pages in a real browser: Debian's headless Chromium, driven by its
# chromedriver through the W3C WebDriver HTTP protocol with curl (no
# browser download, no client library).  With moves made over RESP
# (redis-cli), each page loads with no console error (a CSP violation is
# one), the board inline in the page shows the pieces the STATE command
# gives, a reload shows new moves, and the scrubber (a click in the move
# list, the range input) shows the board REPLAY gives for an earlier
# move; with scripts disabled the page still shows the board, and the
# scrubber's form still moves it.  A screenshot of each kind's board is
# kept in the build tree (tests/web/board-*.png).
#
# Skipped (77) without chromium, chromedriver, curl or redis-cli, except
# when CI is set: there a missing browser fails the test.  Every process
# started here is stopped on exit, every wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver)}
SHOTS=$top_builddir/tests/web

missing=
[ -x "$CHROMIUM" ] || missing="$missing chromium"
[ -x "$CHROMEDRIVER" ] || missing="$missing chromedriver"
for tool in curl redis-cli base64; do
	command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	if [ -n "${CI:-}" ]; then
		echo "1..1"
		echo "not ok 1 - missing:$missing (CI is set: bootstrap installs them)"
		exit 1
	fi
	echo "1..0 # SKIP missing:$missing (bootstrap installs them as root)"
	exit 77
fi
if [ ! -x "$LUDUSD" ] || [ ! -x "$JGET" ]; then
	echo "1..0 # SKIP $LUDUSD or $JGET not built"
	exit 77
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/ludusd-web.XXXXXX") || exit 99
PID= CDPID= WD= SESSION=
cleanup() {
	[ -n "$SESSION" ] && curl -s --max-time 10 -X DELETE \
	    "$WD/session/$SESSION" >/dev/null 2>&1
	[ -n "$CDPID" ] && kill "$CDPID" 2>/dev/null
	[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
	[ -n "$CDPID" ] && wait "$CDPID" 2>/dev/null
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# ------------------------------------------------------ the daemon
if ! start_http_daemon; then
	echo "1..1"
	echo "not ok 1 - ludusd starts"
	sed 's/^/# /' "$DIR/log"
	exit 1
fi

# ------------------------------------------------------ WebDriver
# chromedriver on a port the kernel picks (it says which), loopback only.
: >"$DIR/chromedriver.log"
"$CHROMEDRIVER" --port=0 >>"$DIR/chromedriver.log" 2>&1 &
CDPID=$!
i=0
while ! grep -q 'started successfully on port' "$DIR/chromedriver.log" &&
    [ $i -lt 1000 ]; do
	kill -0 "$CDPID" 2>/dev/null || break
	sleep 0.01
	i=$((i + 1))
done
CDPORT=$(sed -n 's/.*started successfully on port \([0-9]*\).*/\1/p' \
    "$DIR/chromedriver.log")
if [ -z "$CDPORT" ]; then
	echo "1..1"
	echo "not ok 1 - chromedriver starts"
	sed 's/^/# /' "$DIR/chromedriver.log"
	exit 1
fi
WD=http://127.0.0.1:$CDPORT

# wd METHOD PATH [JSON]: one WebDriver command of the session; the reply
# (JSON) on stdout.
wd() {
	curl -s --max-time 60 -X "$1" -H 'Content-Type: application/json' \
	    ${3:+--data-binary "$3"} "$WD/session/$SESSION$2"
}
# js SCRIPT: the value a script returns (a string, or JSON).
js() {
	wd POST /execute/sync "{\"script\": \"$1\", \"args\": []}" |
	    "$JGET" value
}
go() {
	wd POST /url "{\"url\": \"$BASE$1\"}" >/dev/null
}
# element SELECTOR: the WebDriver reference of the first match.
element() {
	wd POST /element "{\"using\": \"css selector\", \"value\": \"$1\"}" |
	    "$JGET" value.element-6066-11e4-a52e-4f735466cecf
}
# errors: the console's errors since the last call, one a line.
errors() {
	wd POST /se/log '{"type": "browser"}' >"$DIR/logs.json"
	n=$("$JGET" -n value <"$DIR/logs.json")
	i=0
	while [ "$i" -lt "${n:-0}" ]; do
		if [ "$("$JGET" value.$i.level <"$DIR/logs.json")" = SEVERE ]
		then
			"$JGET" value.$i.message <"$DIR/logs.json"
		fi
		i=$((i + 1))
	done
}
# session [ARG...]: a fresh browser, with these Chrome prefs (JSON).
session() {
	rm -rf "$DIR/profile"
	SESSION=
	prefs=${1:-'{}'}
	caps="{\"capabilities\": {\"alwaysMatch\": {\"browserName\": \"chrome\",
	    \"goog:loggingPrefs\": {\"browser\": \"ALL\"},
	    \"goog:chromeOptions\": {\"binary\": \"$CHROMIUM\", \"prefs\": $prefs,
	    \"args\": [\"--headless\", \"--no-sandbox\", \"--disable-gpu\",
	    \"--disable-quic\", \"--no-first-run\",
	    \"--disable-background-networking\", \"--disable-component-update\",
	    \"--disable-sync\", \"--user-data-dir=$DIR/profile\",
	    \"--window-size=1280,1800\"]}}}}"
	SESSION=$(curl -s --max-time 60 -X POST -H \
	    'Content-Type: application/json' --data-binary "$caps" \
	    "$WD/session" | "$JGET" value.sessionId)
	[ -n "$SESSION" ]
}
end_session() {
	wd DELETE "" >/dev/null
	SESSION=
}

# The pieces of the board shown, as the kind's STATE writes them.
LUDO_PIECES="return Array.from(document.querySelectorAll('#board .token')).map(function (t) { return [t.dataset.player, t.dataset.token, t.dataset.loc, t.dataset.pos].join(','); }).join(' ');"
SNL_PIECES="return Array.from(document.querySelectorAll('#board .piece')).map(function (t) { return [t.dataset.player, t.dataset.pos].join(','); }).join(' ');"
DANDY_PIECES="return Array.from(document.querySelectorAll('#board .piece')).map(function (t) { return [t.dataset.player, t.dataset.pos, t.dataset.points].join(','); }).join(' ');"
# state CMD...: the piece lines of a STATE or REPLAY reply.
state() {
	cli "$@" | grep -v '^turn,\|^winner,\|^snake,\|^ladder,' | paste -sd' ' -
}
# until_shown NAME SCRIPT EXPECTED: polls (5 s at most) for the page to
# show it, as a script that redraws does it after a fetch.
until_shown() {
	i=0
	got=$(js "$2")
	while [ "$got" != "$3" ] && [ $i -lt 50 ]; do
		sleep 0.1
		got=$(js "$2")
		i=$((i + 1))
	done
	check "$1" "$3" "$got"
}
# shot NAME: a screenshot of the board alone.
shot() {
	eid=$(element '#board svg')
	wd GET "/element/$eid/screenshot" | "$JGET" value |
	    base64 -d >"$SHOTS/board-$1.png" 2>/dev/null
	if [ -s "$SHOTS/board-$1.png" ]; then
		ok "screenshot of the $1 board: tests/web/board-$1.png"
	else
		not_ok "screenshot of the $1 board"
	fi
}

if session; then
	ok "a headless Chromium through chromedriver"
else
	not_ok "a headless Chromium through chromedriver"
	sed 's/^/# /' "$DIR/chromedriver.log" | tail -20
	echo "1..$N"
	exit 1
fi

# ----------------------------------------------------------- games
# Ludo: red runs a token round to its home lane on sixes, the others
# come out, red brings a second one out; green is to move.
cli LUDO.CREATE lu red green yellow blue >/dev/null
for m in "red 6 1" "red 6 1" "red 6 1" "red 6 1" "red 6 1" "red 6 1" \
    "red 6 1" "red 6 1" "red 6 1" "red 5 1" "green 6 1" "green 3 1" \
    "yellow 6 1" "yellow 6 2" "yellow 4 1" "blue 6 3" "blue 2 3" \
    "red 6 2" "red 2 2"; do
	cli LUDO.PLAY lu $m >/dev/null
done
cli SNL.CREATE sn 3 snakes=97:78,62:19,48:26 ladders=3:38,28:84,51:67 \
    >/dev/null
for r in 3 5 6 2 4 1 6; do
	cli SNL.ROLL sn $r >/dev/null
done
cli DANDY.CREATE dd 3 abcdefghiabcdefghi deck=cfi9ab3hd >/dev/null
for i in 1 2 3 4 5; do
	cli DANDY.DRAW dd >/dev/null
done

# ------------------------------------------------------ the list
go /
check "the list page" "Games · ludus" "$(js 'return document.title;')"
check "the list: a row per game" "3" \
    "$(js "return document.querySelectorAll('table.games tbody tr').length;")"
check "the list: no console error" "" "$(errors)"

# ---------------------------------------------------------- Ludo
go /games/lu
check "Ludo page: no console error" "" "$(errors)"
check "Ludo page: the pieces of LUDO.STATE" "$(state LUDO.STATE lu)" \
    "$(js "$LUDO_PIECES")"
shot ludo
cli LUDO.PLAY lu green 6 2 >/dev/null
wd POST /refresh '{}' >/dev/null
check "Ludo page: a move made over RESP, after a reload" \
    "$(state LUDO.STATE lu)" "$(js "$LUDO_PIECES")"
check "Ludo page: the move in the list" "20" \
    "$(js "return document.querySelectorAll('#moves li').length - 1;")"
eid=$(element '#moves li[data-seq=\"2\"] a')
wd POST "/element/$eid/click" '{}' >/dev/null
until_shown "scrubber: a click on move 2 shows REPLAY lu 2" "$LUDO_PIECES" \
    "$(state REPLAY lu 2)"
check "scrubber: the address names the move" "?seq=2" \
    "$(js 'return location.search;')"
check "scrubber: the move is marked" "2" \
    "$(js "return document.querySelector('#moves li.current').dataset.seq;")"
js "var r = document.getElementById('seq'); r.value = '4'; r.dispatchEvent(new Event('input')); return r.value;" >/dev/null
until_shown "scrubber: the range at 4 shows REPLAY lu 4" "$LUDO_PIECES" \
    "$(state REPLAY lu 4)"
js "var r = document.getElementById('seq'); r.value = '20'; r.dispatchEvent(new Event('input')); return r.value;" >/dev/null
until_shown "scrubber: back to the last move" "$LUDO_PIECES" \
    "$(state LUDO.STATE lu)"
check "scrubber: no console error" "" "$(errors)"
go '/games/lu?seq=1'
check "a page at a move, as a link gives it" "$(state REPLAY lu 1)" \
    "$(js "$LUDO_PIECES")"

# ------------------------------------------------ Snake & Ladder
go /games/sn
check "Snake & Ladder page: no console error" "" "$(errors)"
check "Snake & Ladder page: the pieces of SNL.STATE" "$(state SNL.STATE sn)" \
    "$(js "$SNL_PIECES")"
check "Snake & Ladder page: its snakes and ladders" "3 3" \
    "$(js "return document.querySelectorAll('#board .snake').length + ' ' + document.querySelectorAll('#board .ladder').length;")"
shot snl
eid=$(element '#moves li[data-seq=\"1\"] a')
wd POST "/element/$eid/click" '{}' >/dev/null
until_shown "Snake & Ladder scrubber: REPLAY sn 1" "$SNL_PIECES" \
    "$(state REPLAY sn 1)"

# ------------------------------------------------------ DandyLand
go /games/dd
check "DandyLand page: no console error" "" "$(errors)"
check "DandyLand page: the pieces of DANDY.STATE" \
    "$(state DANDY.STATE dd)" "$(js "$DANDY_PIECES")"
check "DandyLand page: a square per letter" "18" \
    "$(js "return document.querySelectorAll('#board .square').length;")"
shot dandy
end_session

# ------------------------------------------------- without scripts
# Scripts off: the board is the server's, and the scrubber is a form.
if session '{"profile.managed_default_content_settings.javascript": 2}'
then
	go /games/lu
	eid=$(element '#seq')
	# Two steps left on the range (ArrowLeft), then the form's button.
	wd POST "/element/$eid/value" '{"text": "\ue012\ue012"}' >/dev/null
	eid=$(element '#scrub button')
	wd POST "/element/$eid/click" '{}' >/dev/null
	# The click starts a navigation that a loaded machine may not have
	# finished when it returns: wait for the address, 5 s at most.
	i=0
	url=$(wd GET /url | "$JGET" value)
	while [ "$url" != "$BASE/games/lu?seq=18" ] && [ $i -lt 50 ]; do
		sleep 0.1
		url=$(wd GET /url | "$JGET" value)
		i=$((i + 1))
	done
	check "no script: the form asks for move 18" "$BASE/games/lu?seq=18" \
	    "$url"
	eid=$(element '#board .token[data-player=\"red\"][data-token=\"2\"]')
	check "no script: the board after move 18 (REPLAY lu 18)" \
	    "$(cli REPLAY lu 18 | grep '^red,2,' | cut -d, -f3-)" \
	    "$(wd GET "/element/$eid/attribute/data-loc" | "$JGET" value),$(wd \
	    GET "/element/$eid/attribute/data-pos" | "$JGET" value)"
	check "no script: no console error" "" "$(errors)"
	end_session
else
	not_ok "a browser without scripts"
fi

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
