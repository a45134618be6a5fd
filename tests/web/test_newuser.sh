#!/bin/sh
# What a new user does, in a real headless Chromium (as the other
# browser tests): with ludusd started as `src/ludusd` (here on free ports
# and a database of its own), open the root page, create a game of two
# bots with its form, watch it play live, scrub through its history, then
# create a game against a bot and play it to its end from the page:
# roll, click a legal token, pass when none can move.
#
# The server plays its bots with bot-delay 20 (ms) so that a game of bots
# lasts long enough to be watched; a user who wants to watch one sets it
# too (doc/http.md).  Skipped (77) without chromium, chromedriver, curl or
# redis-cli, except when CI is set.  Every process started here is
# stopped on exit, every wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser

browser_setup newuser --bot-delay 20

STATUS="return document.getElementById('status').textContent;"
WON="return /won\\\\.\$/.test(document.getElementById('status').textContent) ? 'over' : 'playing';"
# The game the page shows: its path's last part.
game_id() {
	js "return location.pathname.split('/').pop();"
}
# create PLAYERS BOTS: fills the list page's form for a Ludo game on the
# server's dice, and sends it.
create() {
	go /
	type_in '#c-players' "$1"
	type_in '#c-bots' "$2"
	click '#create-form button[type=\"submit\"]'
	poll_js "return location.pathname.indexOf('/games/') === 0 ? 'y' : 'n';" \
	    y 100
}

# ---------------------------------------------- two bots, watched live
go /
check "the root page lists the games" "Games · ludus" \
    "$(js 'return document.title;')"
until_shown "it has a form to create one" \
    "return document.getElementById('create').hidden ? 'no' : 'yes';" yes
create "a b" "a:expert b:aggressive"
G=$(game_id)
contains "the form takes the browser to the new game" "/games/g-" \
    "$(js 'return location.pathname;')"
until_shown "the bots play it to its end, live" "$WON" over 900
live=$(js "return document.querySelectorAll('#moves li[data-live]').length;")
if [ "${live:-0}" -gt 0 ]; then
	ok "the page got $live of its $(moves "$G") moves as they were made"
else
	not_ok "the page got none of its moves live"
fi
until_shown "the move list is the history" "$LIST" \
    "$(seq 1 "$(moves "$G")" | paste -sd' ' -)"
check "the board is LUDO.STATE's" "$(state LUDO.STATE "$G")" \
    "$(js "$LUDO_PIECES")"
check "the status names the winner" \
    "$(cli GAME.INFO "$G" | sed -n 's/^winner,//p') won." "$(js "$STATUS")"

# ------------------------------------------------- scrub its history
click '#moves li[data-seq=\"1\"] a'
until_shown "a click on move 1 shows REPLAY 1" "$LUDO_PIECES" \
    "$(state REPLAY "$G" 1)"
mid=$(($(moves "$G") / 2))
js "var r = document.getElementById('seq'); r.value = '$mid'; r.dispatchEvent(new Event('input')); return r.value;" >/dev/null
until_shown "the scrubber at move $mid shows REPLAY $mid" "$LUDO_PIECES" \
    "$(state REPLAY "$G" "$mid")"
wd POST /actions '{"actions": [{"type": "key", "id": "k",
    "actions": [{"type": "keyDown", "value": "\ue012"},
    {"type": "keyUp", "value": "\ue012"}]}]}' >/dev/null
until_shown "the left arrow key: move $((mid - 1))" "$LUDO_PIECES" \
    "$(state REPLAY "$G" $((mid - 1)))"
check "no console error" "" "$(errors)"

# --------------------------------------------- a game against a bot
create "me bot" "bot:expert"
P=$(game_id)
until_shown "my game against a bot offers me the roll" \
    "var b = document.querySelector('#play-actions button'); return b ? b.textContent : '';" \
    Roll
# What the page offers, clicked until the game is over (a stale click,
# made while the page redraws, is refused by its seq and harmless).
NEXT="if (/won\\\\.\$/.test(document.getElementById('status').textContent)) return 'over'; if (document.querySelector('#board .token.legal')) return 'token'; var b = document.querySelector('#play-actions button'); return b ? b.textContent : 'wait';"
clicks=0
i=0
while [ $i -lt 4000 ]; do
	a=$(js "$NEXT")
	case $a in
	over)	break ;;
	token)	click '#board .token.legal'; clicks=$((clicks + 1)) ;;
	Roll|Pass) click '#play-actions button'; clicks=$((clicks + 1)) ;;
	*)	sleep 0.05 ;;
	esac
	i=$((i + 1))
done
check "played from the page to the end" over "$(js "$WON")"
winner=$(cli GAME.INFO "$P" | sed -n 's/^winner,//p')
case $winner in
me|bot) ok "$winner won, after $(moves "$P") moves and $clicks clicks" ;;
*) not_ok "no winner: '$winner'" ;;
esac
mine=$(cli HISTORY "$P" | grep -c '^[0-9]*,me,')
check "my moves are in the history, made by a player" "$mine" \
    "$(cli HISTORY "$P" | grep '^[0-9]*,me,' | grep -vc ',bot$')"
if [ "$mine" -gt 0 ]; then
	ok "I made $mine of them"
else
	not_ok "I made none of them"
fi
check "the history replays to the game (AUDIT)" "" "$(cli AUDIT "$P")"
until_shown "the page's board is LUDO.STATE's" "$LUDO_PIECES" \
    "$(state LUDO.STATE "$P")"
until_shown "... its move list the history" "$LIST" \
    "$(seq 1 "$(moves "$P")" | paste -sd' ' -)"

echo "1..$N"
[ "$FAILED" -eq 0 ]
