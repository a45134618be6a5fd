#!/bin/sh
# What the page offers for each kind, in a real headless Chromium against
# the real ludusd (and what GET /api/kinds tells it, with curl): the
# create form's kinds, fields, hint and players as each kind takes them,
# a create from the form, and the move controls of every kind and mode
# (Snake & Ladder's values and its server's roll, DandyLand's cards and
# its deck's draw, Ludo's die then its legal tokens or a pass), each
# click a move that HISTORY then holds.  (Ludo on the server's dice is
# test_play.sh's.)
#
# Skipped (77) without chromium, chromedriver, curl or redis-cli, except
# when CI is set.  Every process started here is stopped on exit, every
# wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser
browser_setup pagekinds

STATUS="return document.getElementById('play-status').textContent;"
BUTTONS="return Array.from(document.querySelectorAll('#play-actions button')).map(function (b) { return b.textContent; }).join(' ');"
# hidden ID...: "hidden" or "shown" for each.
hidden() {
	ids=$(printf "'%s'," "$@")
	js "return [${ids%,}].map(function (id) { return document.getElementById(id).hidden ? 'hidden' : 'shown'; }).join(' ');"
}
form_state() {
	js "return document.getElementById('c-players').value + '|' + document.getElementById('c-bots').placeholder;"
}
# button LABEL: a click on the play panel's button of that label.
button() {
	click "#play-actions button:nth-child($(js "return Array.from(document.querySelectorAll('#play-actions button')).map(function (b) { return b.textContent; }).indexOf('$1') + 1;"))"
}
# fresh: a new browser.  A page left keeps its event stream open in
# Chromium (six pages of games in one browser hold the six connections
# it opens to a host, and the seventh page's writes wait for one), so
# each part starts with a browser of its own.
fresh() {
	end_session
	session || setup_failed "a new headless Chromium" \
	    "$DIR/chromedriver.log" 20
}
# stored ID N: polls until game ID holds N moves (5 s at most).
stored() {
	i=0
	while [ "$(moves "$1")" != "$2" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# ----------------------------------------------- what the page is told
curl -s -D "$DIR/kinds.h" "$BASE/api/kinds" >"$DIR/kinds.json"
check "GET /api/kinds: every kind, in the table's order" "ludo snl dandy" \
    "$(for i in 0 1 2; do "$JGET" kinds.$i.name <"$DIR/kinds.json"; done |
    paste -sd' ' -)"
contains "... as JSON" "Content-Type: application/json" "$(cat "$DIR/kinds.h")"
check "... refuses a query parameter, as every endpoint does" 400 \
    "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/kinds?x=1")"
check "... and a POST" 405 \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
    -H 'Content-Type: application/json' --data-binary '{}' \
    "$BASE/api/kinds")"

# ------------------------------------------------- the create form
go /
until_shown "the create form is shown" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
check "it offers the three kinds" \
    "ludo:Ludo snl:Snake & Ladder dandy:DandyLand" \
    "$(js "return Array.from(document.getElementById('c-kind').options).map(function (o) { return o.value + ':' + o.text; }).join(' ');")"
check "its hint" "Ludo players are names; a bot is name:first, name:aggressive or name:expert (bots need the server's dice).|3" \
    "$(js "var h = document.getElementById('c-hint'); return h.textContent.replace(/\\\\s+/g, ' ') + '|' + h.querySelectorAll('code').length;")"
check "Ludo: the dice, not DandyLand's board and deck" \
    "shown hidden hidden" "$(hidden c-dice c-board c-deck)"
check "Ludo: players by name" "red blue|blue:expert" "$(form_state)"
click '#c-kind option[value=\"dandy\"]'
until_shown "DandyLand: its board and deck, not the dice" \
    "return ['c-dice', 'c-board', 'c-deck'].map(function (id) { return document.getElementById(id).hidden ? 'hidden' : 'shown'; }).join(' ');" \
    "hidden shown shown"
check "DandyLand: their first values" "abcdefghiabcdefghi shuffled" \
    "$(js "return document.getElementById('c-board').value + ' ' + document.getElementById('c-deck').value;")"
check "DandyLand: players by count" "2|P2:first" "$(form_state)"
click '#c-kind option[value=\"snl\"]'
check "Snake & Ladder: the dice again, the count kept" \
    "shown hidden hidden 2|P2:first" \
    "$(hidden c-dice c-board c-deck) $(form_state)"
click '#c-kind option[value=\"ludo\"]'
check "back to Ludo: names again" "red blue|blue:expert" "$(form_state)"
click '#c-kind option[value=\"dandy\"]'
type_in '#c-id' 'fd'
type_in '#c-board' 'abcabc'
click '#create-form button[type=\"submit\"]'
until_shown "a DandyLand create from the form" "return location.pathname;" \
    /games/fd
check "... has its board, its players and the shuffled deck" \
    "kind,dandy players,2 board,abcabc deck,shuffled" \
    "$(cli GAME.INFO fd | grep '^kind,\|^players,\|^board,\|^deck,' |
    paste -sd' ' -)"
go /
until_shown "the form again" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
click '#c-kind option[value=\"snl\"]'
click '#c-dice option[value=\"manual\"]'
type_in '#c-id' 'fs'
type_in '#c-players' '3'
click '#create-form button[type=\"submit\"]'
until_shown "a Snake & Ladder create from the form" \
    "return location.pathname;" /games/fs
check "... of three players on their own dice" "snl 3 manual" \
    "$(cli GAME.INFO fs | sed -n 's/^kind,//p;s/^players,//p' |
    paste -sd' ' -) $(curl -s "$BASE/api/games/fs" | "$JGET" options.dice)"

# ------------------------------------------------ Snake & Ladder
fresh
cli SNL.CREATE sm 2 >/dev/null
go /games/sm
until_shown "Snake & Ladder, own dice: the value rolled is asked" "$STATUS" \
    "Your turn, P1: what did you roll?"
check "... a button for each" "1 2 3 4 5 6" "$(js "$BUTTONS")"
button 4
stored sm 1
check "... a click is the roll" "1,P1,4,P1 4" "$(cli HISTORY sm 1 1)"
cli SNL.CREATE ss 2 dice=server >/dev/null
go /games/ss
until_shown "Snake & Ladder, the server's dice: the roll alone" "$STATUS" \
    "Your turn, P1: roll."
check "... one button" "Roll" "$(js "$BUTTONS")"
button Roll
stored ss 1
check "... a click rolls" "1 P1" \
    "$(moves ss) $(cli HISTORY ss 1 1 | cut -d, -f2)"

# ----------------------------------------------------- DandyLand
fresh
cli DANDY.CREATE dm 2 abcdefghi >/dev/null
go /games/dm
until_shown "DandyLand, no deck: the card is asked" "$STATUS" \
    "Your turn, P1: which card?"
check "... a button for each" "a b c d e f g h i 1 2 3 4 5 6 7 8 9" \
    "$(js "$BUTTONS")"
button c
stored dm 1
check "... a click is the card" "c" "$(cli HISTORY dm 1 1 | cut -d, -f3)"
cli DANDY.CREATE dk 2 abcdefghi deck=shuffled >/dev/null
go /games/dk
until_shown "DandyLand, a deck: the draw alone" "$STATUS" "Your turn, P1: draw."
check "... one button" "Draw" "$(js "$BUTTONS")"
button Draw
stored dk 1
check "... a click draws" "1" "$(moves dk)"

# ---------------------------------------------------------- Ludo
fresh
cli LUDO.CREATE lm red blue >/dev/null
go /games/lm
until_shown "Ludo, own dice: the die is asked" "$STATUS" \
    "Your turn, red: pick the die."
check "... a button for each" "1 2 3 4 5 6" "$(js "$BUTTONS")"
button 3
until_shown "... a 3 moves no token out of the yard: a pass" "$STATUS" \
    "A 3: no token can move. Pass…"
check "... no button to click" "" "$(js "$BUTTONS")"
stored lm 1
check "... the pass is played without a click" "1,red,3:0,PASSED" \
    "$(cli HISTORY lm 1 1)"
until_shown "then blue's die" "$STATUS" "Your turn, blue: pick the die."
button 6
until_shown "... a 6: the tokens it lets out are marked" \
    "return Array.from(document.querySelectorAll('#board .token.legal')).map(function (t) { return t.dataset.player + t.dataset.token; }).join(' ');" \
    "blue1 blue2 blue3 blue4"
check "... and said" "A 6: click a token to move it." "$(js "$STATUS")"
click '#board .token.legal[data-token=\"2\"]'
stored lm 2
check "... a click on one moves it" "2,blue,6:2,MOVED" "$(cli HISTORY lm 2 1)"
check "no console error" "" "$(errors)"

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
