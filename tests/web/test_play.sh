#!/bin/sh
# Following and playing games live in a real headless Chromium (through
# chromedriver and curl, as test_browser.sh): a page left open redraws on
# each move made over RESP; a move made by clicking in the page (a roll,
# then a legal token) is stored and seen over RESP, the seat key taken
# from an invite link's fragment, exchanged at once for a fresh one (the
# link's key is then spent: in a fresh profile the link says it was
# used), and neither key seen in a URL or the log; a
# page whose daemon restarts resumes its event stream by Last-Event-ID,
# with nothing missed and nothing twice; the create form makes a game of
# two bots that plays live in the page.
#
# Skipped (77) without chromium, chromedriver, curl or redis-cli, except
# when CI is set.  Every process started here is stopped on exit, every
# wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser

# bot-delay: the bots' games last long enough to be watched.
DAEMON_ARGS="--loglevel debug --bot-delay 20"
# shellcheck disable=SC2086
browser_setup play $DAEMON_ARGS

LIVE="return document.getElementById('game').dataset.live || '';"
ODD="return document.getElementById('game').dataset.dups + ' ' + document.getElementById('game').dataset.gaps;"
ACTION="var b = document.querySelector('#play-actions button'); return b ? b.textContent : '';"
# seqs N: "1 2 ... N".
seqs() {
	seq 1 "$1" | paste -sd' ' -
}

# -------------------------------------------- a page left open, live
cli LUDO.CREATE lv red blue >/dev/null
go /games/lv
until_shown "the page opens its event stream" "$LIVE" on
check "no console error" "" "$(errors)"
for m in "red 6 1" "red 3 1" "blue 4 0" "red 2 1"; do
	cli LUDO.PLAY lv $m >/dev/null
done
until_shown "a page left open redraws moves made over RESP" \
    "$LUDO_PIECES" "$(state LUDO.STATE lv)"
until_shown "... and lists them, each once" "$LIST" "$(seqs 4)"
check "... none twice, none after a gap" "0 0" "$(js "$ODD")"
until_shown "... and says whose turn it is" \
    "return document.getElementById('status').textContent;" "blue to move."

# ------------------------------------------- a click, seen over RESP
# A secure game against a bot, made over the API; the invite link opens
# the page with the seat key in its fragment.
curl -s -X POST -H 'Content-Type: application/json' --data-binary \
    '{"kind": "ludo", "id": "pl", "players": ["me", "bot"],
    "options": {"seats": "secure", "dice": "server", "bots": "bot:first"}}' \
    "$BASE/api/games" >"$DIR/created"
KEY=$("$JGET" seats.0.key <"$DIR/created")
INVITE=$("$JGET" seats.0.invite <"$DIR/created")
check "the create gives me an invite link" "/games/pl#key=$KEY&player=me" \
    "$INVITE"
go "$INVITE"
until_shown "the page offers the roll" "$ACTION" "Roll"
check "the key left the address bar" "" "$(js 'return location.hash;')"
SEATLINE="var l = document.getElementById('play-seat'); return l.dataset.invite + ' ' + l.dataset.view;"
until_shown "the invite was exchanged, and the page plays its seat" \
    "$SEATLINE" "exchanged player"
NEWKEY=$(js "return JSON.parse(localStorage.getItem('ludus.seat.pl')).key;")
check "the key kept in localStorage is a fresh one, not the link's" \
    "32 me 1" "$(printf '%s' "$NEWKEY" | tr -cd 0-9a-f | wc -c | tr -d ' ') \
$(js "return JSON.parse(localStorage.getItem('ludus.seat.pl')).player;") \
$([ "$NEWKEY" != "$KEY" ] && echo 1)"
check "the link's key is spent (SEAT over RESP)" \
    "NOSEAT wrong key for me in game 'pl' (a key once exchanged is spent)" \
    "$(cli SEAT pl me "$KEY")"
click '#play-actions button'
poll_js "return document.getElementById('game').dataset.last ? 'y' : 'n';" \
    y >/dev/null
ROLL=$(cli GAME.INFO pl | sed -n 's/^roll,//p')
check "the page got the server's roll" "$ROLL" \
    "$(js "return document.getElementById('game').dataset.last;")"
# A legal token to click, or a pass when none can move.
if [ "$ROLL" = 6 ]; then
	until_shown "a six: the tokens it may move are marked" \
	    "return document.querySelectorAll('#board .token.legal').length;" 4
	click '#board .token.legal[data-token=\"1\"]'
	want="1,me,6:1,MOVED"
else
	# No token can move: the page plays the pass itself.
	want="1,me,$ROLL:0,PASSED"
fi
poll_js "return document.querySelectorAll('#moves li[data-seq]').length > 1 ? 'y' : 'n';" y 50 >/dev/null
check "the click's move is stored (HISTORY)" "$want" "$(cli HISTORY pl 1 1)"
until_shown "the bot answered, and the page shows it" "$LUDO_PIECES" \
    "$(state LUDO.STATE pl)" 50
until_shown "... and lists every move once" "$LIST" "$(seqs "$(moves pl)")"
check "the seat keys are in no URL nor log line" 0 \
    "$(grep -c -e "$KEY" -e "$NEWKEY" "$DIR/log")"
check "no console error" "" "$(errors)"
# The invite opened again in a fresh profile (another browser, or one
# that read this one's history): its key is spent, the page says so and
# watches; the seat is still the first browser's.
end_session
session || setup_failed "a second headless Chromium" "$DIR/chromedriver.log"
go "$INVITE"
until_shown "in a fresh profile the used invite says so, and watches" \
    "$SEATLINE" "used spectator"
check "... in words" "This invite was used already (an invite works once): \
you can watch the game." "$(js \
    "return document.getElementById('play-seat').textContent;")"
check "... keeps no key, offers no move, and the link left the address \
bar" "none 0 " "$(js "return (localStorage.getItem('ludus.seat.pl') || \
'none') + ' ' + document.querySelectorAll('#play-actions button').length \
+ ' ' + location.hash;")"
check "... its one console error is the refused exchange's 403" \
    "1 0" "$(errors >"$DIR/errors"; echo "$(grep -c 'exchange.*403' \
    "$DIR/errors") $(grep -vc 'exchange.*403' "$DIR/errors")")"
check "the first browser's key still holds the seat" OK \
    "$(cli SEAT pl me "$NEWKEY")"

# ---------------------------------------- the daemon restarts: resume
cli LUDO.CREATE rs a b >/dev/null
go /games/rs
until_shown "a page follows game rs" "$LIVE" on
js "document.body.dataset.marker = 'kept'; return 1;" >/dev/null
for m in "a 6 1" "a 3 1" "b 4 0"; do
	cli LUDO.PLAY rs $m >/dev/null
done
until_shown "three moves shown" "$LIST" "$(seqs 3)"
# The board of the last one too: a board still being fetched when the
# daemon stops is fetched again until it answers, each refusal a
# console error.
until_shown "... and their board" "$LUDO_PIECES" "$(state LUDO.STATE rs)"
stop_daemon
check "ludusd stops cleanly with a stream open" 0 "$STATUS"
# shellcheck disable=SC2086
start_http_daemon $DAEMON_ARGS --http-port "$HPORT"
# Moves made before the page has reconnected (it waits a second) come
# from the history, the later ones live.
for m in "a 5 1" "b 2 0" "a 1 1"; do
	cli LUDO.PLAY rs $m >/dev/null
done
until_shown "the page reconnects" "$LIVE" on 100
for m in "b 3 0" "a 4 1"; do
	cli LUDO.PLAY rs $m >/dev/null
done
until_shown "after the restart: every move, once, in order" "$LIST" \
    "$(seqs 8)" 50
check "... none twice, none after a gap" "0 0" "$(js "$ODD")"
until_shown "... and the board of LUDO.STATE" "$LUDO_PIECES" \
    "$(state LUDO.STATE rs)"
check "the same page: no reload" kept \
    "$(js 'return document.body.dataset.marker;')"
check "it resumed by Last-Event-ID, after move 3" 1 \
    "$(grep -c 'events of rs after move 3$' "$DIR/log")"
# A reconnect tried while the daemon was down (a slow start on a busy
# machine outlasts the page's one second) is logged by the browser
# itself, which no page can silence: that and nothing else.
check "while it was down: no console error but refused connections" "" \
    "$(errors | grep -v 'net::ERR_CONNECTION_REFUSED$')"

# ------------------------------------------ the create form: two bots
go /
until_shown "the list has a create form" \
    "return document.getElementById('create').hidden ? 'hidden' : 'shown';" \
    shown
type_in '#c-id' 'two-bots'
type_in '#c-players' 'a b'
type_in '#c-bots' 'a:expert b:aggressive'
click '#create-form button[type=\"submit\"]'
until_shown "the form takes the browser to the new game" \
    "return location.pathname;" /games/two-bots
until_shown "the bots play it to its end, live in the page" \
    "return document.getElementById('status').textContent.slice(-4);" \
    "won." 600
LIVE_ITEMS=$(js "return document.querySelectorAll('#moves li[data-live]').length;")
if [ "${LIVE_ITEMS:-0}" -gt 0 ]; then
	ok "moves arrived live: $LIVE_ITEMS of $(moves two-bots)"
else
	not_ok "moves arrived live: none"
fi
until_shown "the page lists every move of the game, once" "$LIST" \
    "$(seqs "$(moves two-bots)")"
check "... none twice, none after a gap" "0 0" "$(js "$ODD")"
check "the board is LUDO.STATE's" "$(state LUDO.STATE two-bots)" \
    "$(js "$LUDO_PIECES")"
check "no console error" "" "$(errors)"

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
