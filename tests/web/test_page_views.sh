#!/bin/sh
# What a game's page says and offers, in a real headless Chromium against
# the real ludusd: the text around a scrubbed board (its caption, the
# status line, the play panel) follows the board shown, and a past board
# offers no move; a viewer without a seat is told that they watch, a
# player which seat is theirs, and two seats of one game held in two tabs
# of one browser both play; errors asked for by a browser are pages that
# say what to do; the page fits a phone's screen.
#
# Skipped (77) without chromium, chromedriver, curl or redis-cli, except
# when CI is set.  Every process started here is stopped on exit, every
# wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser
browser_setup pageviews

LIVE="return document.getElementById('game').dataset.live || '';"
TEXT="return document.getElementById('status').textContent + '|' + document.getElementById('caption').textContent;"
PSTATUS="return document.getElementById('play-status').textContent;"
BUTTONS="return Array.from(document.querySelectorAll('#play-actions button')).map(function (b) { return b.textContent; }).join(' ');"
LEGAL="return document.querySelectorAll('#board .token.legal').length;"
fresh() {
	end_session
	session || setup_failed "a new headless Chromium" \
	    "$DIR/chromedriver.log" 20
}

# --------------------------------- a scrubbed board and its text agree
# A page opened on a game of no move follows it live: the caption counts
# the moves that came.
cli SNL.CREATE sc 2 >/dev/null
go /games/sc
until_shown "a page of a new game opens its event stream" "$LIVE" on
for r in 3 4 5 2; do
	cli SNL.ROLL sc $r >/dev/null
done
until_shown "moves come live: the caption and the status line follow" \
    "$TEXT" "P1 to move.|The board now, after 4 moves."
js "var r = document.getElementById('seq'); r.value = '1'; r.dispatchEvent(new Event('input')); return 1;" >/dev/null
until_shown "scrubbed back to move 1: both say so, the turn then" \
    "$TEXT" "After move 1 of 4: P2 was to move.|The board after move 1 of 4."
until_shown "... the play panel offers no roll, only the way back" \
    "$BUTTONS" "Back to the last move"
click '#play-actions button'
until_shown "... which shows the board now" "$TEXT" \
    "P1 to move.|The board now, after 4 moves."
until_shown "... and the roll again" "$BUTTONS" "1 2 3 4 5 6"
# A page opened on a past board (the scrubber's form, no script needed).
go /games/sc?seq=2
until_shown "a page opened at ?seq=2 says move 2, the turn then" "$TEXT" \
    "After move 2 of 4: P1 was to move.|The board after move 2 of 4."
check "... and offers no move" "Back to the last move" "$(js "$BUTTONS")"
# Ludo: a die given, a past board marks no token to click.
cli LUDO.CREATE lp red blue >/dev/null
for m in "red 6 1" "red 3 1" "blue 5 0"; do
	cli LUDO.PLAY lp $m >/dev/null
done
go /games/lp
until_shown "Ludo: the die buttons" "$BUTTONS" "1 2 3 4 5 6"
click '#play-actions button:nth-child(6)'
until_shown "... a six marks the tokens it may move" "$LEGAL" 4
js "var r = document.getElementById('seq'); r.value = '1'; r.dispatchEvent(new Event('input')); return 1;" >/dev/null
until_shown "... scrubbed back: no die" "$BUTTONS" "Back to the last move"
check "... no token marked" 0 "$(js "$LEGAL")"
check "no console error" "" "$(errors)"

# ------------------------------------- a spectator, a player, two tabs
SEATLINE="return document.getElementById('play-seat').textContent + '|' + document.getElementById('game').dataset.view;"
curl -s -X POST -H 'Content-Type: application/json' --data-binary \
    '{"kind": "ludo", "id": "two", "players": ["red", "blue"],
    "options": {"seats": "secure", "dice": "manual"}}' \
    "$BASE/api/games" >"$DIR/created"
RED=$("$JGET" seats.0.invite <"$DIR/created")
BLUE=$("$JGET" seats.1.invite <"$DIR/created")
fresh
go /games/two
until_shown "no seat: the page says you are watching" "$SEATLINE" \
    "You are watching: you hold no seat of this game.|spectator"
check "... and offers no die" "" "$(js "$BUTTONS")"
go "$RED"
until_shown "red's invite: you play red" "$SEATLINE" "You play red.|player"
until_shown "... and red rolls" "$BUTTONS" "1 2 3 4 5 6"
TAB1=$(wd GET /window | "$JGET" value)
TAB2=$(wd POST /window/new '{"type": "tab"}' | "$JGET" value.handle)
wd POST /window "{\"handle\": \"$TAB2\"}" >/dev/null
go "$BLUE"
until_shown "blue's invite in a second tab: you play blue" "$SEATLINE" \
    "You play blue.|player"
wd POST /window "{\"handle\": \"$TAB1\"}" >/dev/null
until_shown "the first tab still plays red" "$SEATLINE" "You play red.|player"
click '#play-actions button:nth-child(5)'
poll_js "return document.querySelectorAll('#moves li[data-seq]').length;" 2 >/dev/null
wd POST /window "{\"handle\": \"$TAB2\"}" >/dev/null
until_shown "the second tab: blue's die" "$BUTTONS" "1 2 3 4 5 6"
click '#play-actions button:nth-child(3)'
poll_js "return document.querySelectorAll('#moves li[data-seq]').length;" 3 >/dev/null
check "both tabs' moves are stored, each by its seat" \
    "1,red,5:0,PASSED 2,blue,3:0,PASSED" \
    "$(cli HISTORY two 1 2 | paste -sd' ' -)"
check "no console error" "" "$(errors)"
cli LUDO.CREATE hs red blue >/dev/null
go /games/hs
until_shown "open seats: the page plays every seat, in turn" "$SEATLINE" \
    "Open seats: this page plays red, blue, in turn.|hotseat"

# ------------------------------------------ errors a browser can read
ERRPAGE="var h = document.querySelector('#error h1'); return h ? h.textContent + '|' + document.getElementById('error-hint').textContent.slice(0, 18) : document.body.textContent.slice(0, 80);"
go /games/nope
until_shown "no such game: a page that says so" "$ERRPAGE" \
    "no such game 'nope'|Check the game's n"
check "... and what to do" \
    "Check the game's name in the address, or pick a game from the list." \
    "$(js "return document.getElementById('error-hint').textContent;")"
go "/games/sc?seq=abc"
until_shown "?seq=abc: the game's own bounds, not 2^62" "$ERRPAGE" \
    "seq must be a move number: 0 (the start) to 4 (the game now)|Check the address:"
check "... as 400" "400 text/html; charset=utf-8" \
    "$(curl -s -o /dev/null -w '%{http_code} %{content_type}' \
    -H 'Accept: text/html,*/*' "$BASE/games/sc?seq=abc")"
check "the API keeps JSON, whatever the Accept" \
    "400 application/json BADARG" \
    "$(curl -s -o "$DIR/err.json" -w '%{http_code} %{content_type}' \
    -H 'Accept: text/html,*/*' "$BASE/api/games/sc/replay?seq=abc") $("$JGET" error <"$DIR/err.json")"
check "... and a page asked without HTML in Accept keeps JSON" \
    "404 application/json" \
    "$(curl -s -o /dev/null -w '%{http_code} %{content_type}' \
    "$BASE/games/nope")"
go /
until_shown "the create form is shown" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
type_in '#c-players' 'Alice Bob'
click '#create-form button[type=\"submit\"]'
until_shown "'Alice Bob': names are lower case" \
    "return /lower-case/.test(document.getElementById('create-out').textContent) ? 'said' : document.getElementById('create-out').textContent;" \
    said
# The legend of a 3-player Snake & Ladder, P2 the winner at 100: no
# entry's text runs into the next one's.
cli SNL.CREATE leg2 3 ladders=2:94 >/dev/null
for r in 3 2 3 3 6; do
	cli SNL.ROLL leg2 $r >/dev/null
done
go /games/leg2
OVERLAP="var t = Array.from(document.querySelectorAll('#board svg text')).filter(function (e) { return /^P[0-9]+ /.test(e.textContent); }); var c = Array.from(document.querySelectorAll('#board svg circle.key')); var bad = 0; t.forEach(function (e, i) { var r = e.getBoundingClientRect(); if (c[i + 1] && r.right > c[i + 1].getBoundingClientRect().left - 2 && Math.abs(r.top - c[i + 1].getBoundingClientRect().top) < 10) bad++; }); return t.map(function (e) { return e.textContent; }).join(',') + '|' + bad;"
until_shown "the legend of 'P2 100 won' does not overlap itself" "$OVERLAP" \
    "P1 6,P2 100 won,P3 3|0"
check "no console error but the error pages' own" "" \
    "$(errors | grep -v 'status of 40[04]')"

# ------------------------------------------------- a phone's screen
# 390 CSS px wide: no page scrolls sideways, and every control of the
# page lies within the screen's width.
fresh
wd POST /window/rect '{"width": 390, "height": 844}' >/dev/null
check "the window is a phone's width" 390 "$(js 'return window.innerWidth;')"
WIDE="var d = document.documentElement; var out = Array.from(document.querySelectorAll('button, input, select, a, #board svg, #moves')).filter(function (e) { var r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > d.clientWidth + 0.5); }).map(function (e) { return e.id || e.tagName; }); return (d.scrollWidth > d.clientWidth ? 'scrolls ' + d.scrollWidth : 'fits') + '|' + out.slice(0, 5).join(',');"
for page in / /games/lp /games/two /games/leg2 /games/nope; do
	go "$page"
	poll_js "return document.readyState;" complete >/dev/null
	sleep 0.3
	check "$page on a phone: no sideways scroll, every control on screen" \
	    "fits|" "$(js "$WIDE")"
done
go /
until_shown "the create form is shown on a phone" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
check "... and fits" "fits|" "$(js "$WIDE")"
go /games/lp
until_shown "a game's die buttons are there on a phone" "$BUTTONS" \
    "1 2 3 4 5 6"
click '#play-actions button:nth-child(2)'
until_shown "... a 2 marks red's token out" "$LEGAL" 1
click '#board .token.legal'
poll_js "return document.querySelectorAll('#moves li[data-seq]').length;" 5 >/dev/null
check "... and a tap on one plays it" "4,red,2:1,MOVED" "$(cli HISTORY lp 4 4)"

# ------------------------------------------------------ moves in words
fresh
cli SNL.CREATE wd 2 ladders=18:31 >/dev/null
go /games/wd
until_shown "a Snake & Ladder page follows its game" "$LIVE" on
for r in 1 5 1 5 1 4 1 4; do
	cli SNL.ROLL wd $r >/dev/null
done
LASTMOVE="var l = document.querySelectorAll('#moves li[data-seq]'); return l[l.length - 1].textContent.trim();"
until_shown "a live move in words: the roll, the cells, the ladder" \
    "$LASTMOVE" "P2 rolled 4: 14 -> 18, ladder to 31"
until_shown "... and over the board, the move that made it" \
    "return document.getElementById('last').textContent;" \
    "Move 8: P2 rolled 4: 14 -> 18, ladder to 31"
check "the history's JSON has the words too" "P1 rolled 1: 0 -> 1" \
    "$(curl -s "$BASE/api/games/wd/history?from=1&count=1" | "$JGET" history.0.words)"
go /games/wd?seq=2
check "a past board: the move that made it, from the server" \
    "Move 2: P2 rolled 5: 0 -> 5" \
    "$(js "return document.getElementById('last').textContent;")"
cli LUDO.CREATE lw red blue >/dev/null
cli LUDO.PLAY lw red 6 1 >/dev/null
go /games/lw
until_shown "Ludo's words" "$LASTMOVE" "red rolled 6: token 1 leaves the yard"
# A long game: the list keeps its latest move in view.
i=0
while [ $i -lt 40 ]; do
	cli LUDO.PLAY lw red 2 1 >/dev/null
	cli LUDO.PLAY lw blue 3 0 >/dev/null
	i=$((i + 1))
done
until_shown "a long game's list: its latest move is the last shown" \
    "var l = document.querySelectorAll('#moves li[data-seq]'); var m = document.getElementById('moves').getBoundingClientRect(); var r = l[l.length - 1].getBoundingClientRect(); return l.length + (r.bottom <= m.bottom + 1 && r.top >= m.top ? ' in view' : ' out of view');" \
    "$(($(moves lw) + 1)) in view"
# Ludo's forced pass: played without a click.
cli LUDO.CREATE fp red blue >/dev/null
go /games/fp
until_shown "Ludo: the die buttons" "$BUTTONS" "1 2 3 4 5 6"
click '#play-actions button:nth-child(4)'
poll_js "return document.querySelectorAll('#moves li[data-seq]').length;" 2 50 >/dev/null
check "a 4, no token out: the pass is played without a click" \
    "1,red,4:0,PASSED" "$(cli HISTORY fp 1 1)"
# A turn deadline: the time left, counting down.
cli LUDO.CREATE tt red blue turn-timeout=600 >/dev/null
go /games/tt
CLOCK="return document.getElementById('clock').hidden ? 'hidden' : document.getElementById('clock').textContent;"
poll_js "$CLOCK" "red has 10:00 to move." >/dev/null
case $GOT in
"red has 10:00 to move."|"red has 9:5"[0-9]" to move.")
	ok "a game with a turn timeout shows the time left: $GOT" ;;
*)	not_ok "a game with a turn timeout shows the time left: '$GOT'" ;;
esac
T1=$(js "return document.getElementById('clock').dataset.left;")
sleep 2.2
T2=$(js "return document.getElementById('clock').dataset.left;")
if [ -n "$T1" ] && [ -n "$T2" ] && [ "$T2" -lt "$T1" ]; then
	ok "... counting down: $T1 s, then $T2 s"
else
	not_ok "... counting down: '$T1' s, then '$T2' s"
fi
check "a game without one shows none" hidden \
    "$(go /games/fp; js "return document.getElementById('clock').hidden ? 'hidden' : 'shown';")"
check "no console error" "" "$(errors)"

# ------------------------------- Snake & Ladder's board, Ludo's preset
fresh
go /
until_shown "the create form is shown" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
HINT="return document.getElementById('c-hint').textContent.split(';')[0];"
check "Ludo's hint" "Ludo players are names" "$(js "$HINT")"
check "Ludo: a choice of rules, classic first" "classic interview extended|classic" \
    "$(js "var s = document.getElementById('c-rules'); return Array.from(s.options).map(function (o) { return o.value; }).join(' ') + '|' + s.value;")"
js "var s = document.getElementById('c-rules'); s.value = 'extended'; return 1;" >/dev/null
type_in '#c-id' 'lx'
click '#create-form button[type=\"submit\"]'
until_shown "a Ludo create from the form" "return location.pathname;" /games/lx
check "... has the preset chosen" extended \
    "$(curl -s "$BASE/api/games/lx" | "$JGET" state.rules.preset)"
go /
until_shown "the create form again" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
click '#c-kind option[value=\"snl\"]'
until_shown "Snake & Ladder's own hint" "$HINT" \
    "Snake & Ladder players are counted: 3 makes P1, P2 and P3"
check "... its snakes and ladders, not Ludo's rules" "shown shown hidden" \
    "$(js "return ['c-snakes', 'c-ladders', 'c-rules'].map(function (id) { return document.getElementById(id).hidden ? 'hidden' : 'shown'; }).join(' ');")"
type_in '#c-id' 'sf'
type_in '#c-ladders' '3:38,28:84'
click '#create-form button[type=\"submit\"]'
until_shown "a Snake & Ladder create from the form" "return location.pathname;" \
    /games/sf
check "... has the form's snakes and ladders" \
    "ladder,28,84 ladder,3,38 snake,36,6 snake,48,26 snake,62,19 snake,97,78" \
    "$(cli SNL.STATE sf | grep '^snake,\|^ladder,' | sort | paste -sd' ' -)"
check "... drawn on its board" "2 4" \
    "$(js "return document.querySelectorAll('#board .ladder').length + ' ' + document.querySelectorAll('#board .snake').length;")"
check "over HTTP: the create's options snakes and ladders" \
    "201 ladder,4,98 snake,99,2" \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
    -H 'Content-Type: application/json' --data-binary \
    '{"kind": "snl", "id": "sh", "players": 2, "options": {"snakes": "99:2", "ladders": "4:98"}}' \
    "$BASE/api/games") $(cli SNL.STATE sh | grep '^snake,\|^ladder,' | sort | paste -sd' ' -)"
check "no console error" "" "$(errors)"

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
