#!/bin/sh
# The page needs no edit for a new kind, in a real headless Chromium: the
# page's script (web/ludus.js, as it is) on the real templates, told of a
# fourth kind that lives in the test tree alone (tests/lib/toykind.c) by
# the GET /api/kinds the server's own code writes for it
# (tests/web/toyjson), offers it in the create form with its own field,
# hint and players, hiding what it does not take, sends its create as
# its description says, and on one of its games asks the player to move
# for its move and sends it.  A ludusd cannot serve that kind (its store
# keeps the built-in kinds alone): tests/web/toysite.py serves what one
# would and keeps what the page sends.
#
# Skipped (77) without chromium, chromedriver, curl or python3, except
# when CI is set.  Every process started here is stopped on exit, every
# wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser
PY=$(command -v python3)
need_web "$PY"
TOYJSON=$top_builddir/tests/web/toyjson
[ -x "$TOYJSON" ] || skip_all "$TOYJSON not built"

browser_dir toykind SITEPID
mkdir "$DIR/toy"
"$TOYJSON" kinds >"$DIR/toy/kinds.json" &&
    "$TOYJSON" game >"$DIR/toy/game.json" &&
    "$TOYJSON" svg >"$DIR/toy/board.svg" ||
    setup_failed "toyjson writes the toy's answers"
: >"$DIR/toy/posts"
"$PY" -u "$top_srcdir/tests/web/toysite.py" "$top_srcdir/web" "$DIR/toy" \
    >"$DIR/site.log" 2>&1 &
SITEPID=$!
wait_line "$DIR/site.log" '^port [0-9]' "$SITEPID" ||
    setup_failed "the toy's site starts" "$DIR/site.log"
BASE=http://127.0.0.1:$(sed -n 's/^port \([0-9]*\)$/\1/p' "$DIR/site.log")
if ! start_chromedriver || ! session; then
	setup_failed "a headless Chromium through chromedriver" \
	    "$DIR/chromedriver.log" 20
fi

# post N: the Nth write the page sent, "PATH BODY" (BODY's keys sorted).
post() {
	sed -n "$1p" "$DIR/toy/posts"
}
shown() {
	echo "return document.getElementById('$1').hidden ? 'hidden' : 'shown';"
}

# ------------------------------------------------- the create form
go /
until_shown "the create form is shown" "$(shown create)" shown
check "it offers every kind of GET /api/kinds, the toy last" \
    "ludo:Ludo snl:Snake & Ladder dandy:DandyLand toy:Toy" \
    "$(js "return Array.from(document.getElementById('c-kind').options).map(function (o) { return o.value + ':' + o.text; }).join(' ');")"
HINT="var h = document.getElementById('c-hint'); return h.textContent + '|' + Array.from(h.querySelectorAll('code')).map(function (c) { return c.textContent; }).join(' ');"
check "the hint is the kind's, code in <code>" \
    "Ludo players are names; a bot is name:first, name:aggressive or name:expert (bots need the server's dice).|name:first name:aggressive name:expert" \
    "$(js "$HINT")"
check "the toy's field is made, hidden for Ludo" "hidden" \
    "$(js "$(shown c-goal)")"
click '#c-kind option[value=\"toy\"]'
until_shown "choosing the toy shows its field, with its first value" \
    "return document.getElementById('c-goal').hidden ? 'hidden' : document.getElementById('c-goal').value;" \
    10
check "... the toy's own hint" "A toy race: a step is 1, 2 or 3.|1 2 3" \
    "$(js "$HINT")"
check "... and its label" "Goal" \
    "$(js "return document.querySelector('label[for=c-goal]').textContent;")"
check "... hides DandyLand's and the dice it does not take" \
    "hidden hidden hidden" \
    "$(js "return [document.getElementById('c-board').hidden, document.getElementById('c-deck').hidden, document.getElementById('c-dice').hidden].map(function (h) { return h ? 'hidden' : 'shown'; }).join(' ');")"
check "... and asks for a count of players, as it takes them" "3 P3:first" \
    "$(js "return document.getElementById('c-players').value + ' ' + document.getElementById('c-bots').placeholder;")"
type_in '#c-goal' '12'
click '#create-form button[type=\"submit\"]'
until_shown "the create takes the browser to the new game" \
    "return location.pathname;" /games/t1
check "the create sent the toy's body: a count, its field an option" \
    '/api/games {"kind": "toy", "options": {"goal": "12", "seats": "open"}, "players": 3}' \
    "$(post 1)"

# ---------------------------------------------------- one of its games
until_shown "the player to move is asked the toy's question" \
    "return document.getElementById('play-status').textContent;" \
    "Your turn, P2: how far?"
check "... with a button for each of its choices" "1 2 3" \
    "$(js "return Array.from(document.querySelectorAll('#play-actions button')).map(function (b) { return b.textContent; }).join(' ');")"
click '#play-actions button:nth-child(2)'
poll_js "return document.getElementById('game').dataset.last || '';" MOVED \
    >/dev/null
check "a click sends the toy's move, at the game's seq" \
    '/api/games/t1/moves {"seq": 4, "step": 2}' "$(post 2)"
check "... and nothing else was written" 2 \
    "$(wc -l <"$DIR/toy/posts" | tr -d ' ')"
check "the board is the toy's" "P1,3 P2,1 P3,0" \
    "$(js "$SNL_PIECES")"
check "no console error" "" "$(errors)"

echo "1..$N"
[ "$FAILED" -eq 0 ]
