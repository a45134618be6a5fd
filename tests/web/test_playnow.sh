#!/bin/sh
# "Play now" in two real headless Chromiums at once (two fresh profiles,
# through one chromedriver): each presses it for Ludo, gets an account
# of its own (kept in its localStorage), joins, waits on its ticket's
# stream and is taken to the same game, in its own seat; the game's seats
# are the two accounts (over RESP), the player to move rolls by clicking
# and the roll is the server's, the other is told to wait; the two play
# it to its end by clicking in their pages, and the leaderboard page then
# ranks both, their ratings moved; the player's page lists the game.  A
# page opened again while its ticket waits waits on the same ticket;
# "Stop waiting" cancels it.
#
# Skipped (77) without chromium, chromedriver, curl or redis-cli.  Every
# process started here is stopped on exit, every wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser

S1= S2=
# Both browsers go, then chromedriver.
two_stop() {
	for s in $S1 $S2; do
		curl -s --max-time 10 -X DELETE "$WD/session/$s" >/dev/null 2>&1
	done
	S1= S2= SESSION=
	webdriver_stop
}
browser_dir playnow
CLEANUP_HOOK=two_stop
start_http_daemon --loglevel debug || setup_failed "ludusd starts" "$DIR/log"
if ! start_chromedriver || ! PROFILE=$DIR/p1 session; then
	setup_failed "a headless Chromium through chromedriver" \
	    "$DIR/chromedriver.log" 20
fi
S1=$SESSION
if ! PROFILE=$DIR/p2 session; then
	setup_failed "a second Chromium, a profile of its own" \
	    "$DIR/chromedriver.log" 20
fi
S2=$SESSION

SHOWN="return document.getElementById('playnow').hidden ? 'hidden' : 'shown';"
TICKET="return document.getElementById('playnow').dataset.ticket || '';"
STATUS="return document.getElementById('playnow-status').textContent;"
WHERE="return location.pathname;"
TOKEN="return localStorage.getItem('ludus.account') || '';"
ELLIPSIS=$(printf '\342\200\246')
as() {
	SESSION=$1
}
# until_set SCRIPT [TENTHS]: polls until the script returns something
# (GOT), TENTHS tenths of a second at most (50).
until_set() {
	i=0
	GOT=$(js "$1")
	while [ -z "$GOT" ] && [ $i -lt "${2:-50}" ]; do
		sleep 0.1
		GOT=$(js "$1")
		i=$((i + 1))
	done
}

# ------------------------------------------- the first one waits
as "$S1"
go /
until_shown "the list offers Play now" "$SHOWN" shown
check "... for every kind" "ludo snl dandy" \
    "$(js "return Array.from(document.querySelectorAll('#playnow-kinds button')).map(function (b) { return b.dataset.kind; }).join(' ');")"
check "a fresh browser has no account" "" "$(js "$TOKEN")"
click '#playnow-kinds button[data-kind=\"ludo\"]'
until_set "$TICKET"
T1=$GOT
if [ -n "$T1" ]; then
	ok "Play Ludo now: a ticket ($T1), waiting"
else
	not_ok "Play Ludo now: a ticket, waiting"
	js "$STATUS" | sed 's/^/# /'
fi
A1=$(js "$TOKEN")
N1=${A1%%:*}
check "... an account made, kept in localStorage" "OK" \
    "$(printf 'PLAYER.LOGIN %s %s\n' "$N1" "${A1#*:}" | cli)"
check "... the ticket waits in the Ludo queue" "1" \
    "$(curl -s "$BASE/api/lobby?kind=ludo" | "$JGET" queues.0.waiting)"
until_shown "... it says it waits" "$STATUS" \
    "Waiting for another player (ticket $T1)$ELLIPSIS"
# A page opened again waits on the same ticket.
go /
until_shown "a page opened again waits on the same ticket" "$TICKET" "$T1"
check "... and made no other" "1" \
    "$(curl -s "$BASE/api/lobby?kind=ludo" | "$JGET" queues.0.waiting)"
check "... with the same account" "$A1" "$(js "$TOKEN")"

# ------------------------------------------ the second one meets it
as "$S2"
go /
until_shown "a second, fresh browser: Play now" "$SHOWN" shown
check "... its own account, none yet" "" "$(js "$TOKEN")"
click '#playnow-kinds button[data-kind=\"ludo\"]'
poll_js "return location.pathname.indexOf('/games/') === 0 ? 'y' : 'n';" y \
    100 >/dev/null
G2=$(js "$WHERE")
G2=${G2#/games/}
if [ -n "$G2" ] && [ "$G2" != / ]; then
	ok "the second is taken to a game: $G2"
else
	not_ok "the second is taken to a game"
	js "$STATUS" | sed 's/^/# /'
fi
A2=$(js "$TOKEN")
N2=${A2%%:*}
as "$S1"
until_shown "the first, waiting, is taken to the same game" "$WHERE" \
    "/games/$G2" 100
check "two accounts, not one" 1 "$([ -n "$N1" ] && [ -n "$N2" ] &&
    [ "$N1" != "$N2" ] && echo 1)"
check "the game's seats are the two accounts (RESP)" \
    "$(printf '%s\n' "$N1" "$N2" | sort | paste -sd' ' -)" \
    "$( (curl -s "$BASE/api/games/$G2" | "$JGET" players.0.name
    curl -s "$BASE/api/games/$G2" | "$JGET" players.1.name) | sort |
    paste -sd' ' -)"
check "secure seats" secure "$(curl -s "$BASE/api/games/$G2" |
    "$JGET" options.seats)"
SEAT1="return JSON.parse(localStorage.getItem('ludus.seat.$G2')).player;"
check "the first's page holds its own seat" "$N1" "$(js "$SEAT1")"
as "$S2"
check "the second's page holds its own seat" "$N2" "$(js "$SEAT1")"
check "no ticket left waiting" 0 \
    "$(curl -s "$BASE/api/lobby" | "$JGET" -n queues)"

# ------------------------------------ each plays its own seat only
TURN=$(curl -s "$BASE/api/games/$G2" | "$JGET" turn)
if [ "$TURN" = "$N1" ]; then
	MOVER=$S1 IDLE=$S2
else
	MOVER=$S2 IDLE=$S1
fi
ACTION="var b = document.querySelector('#play-actions button'); return b ? b.textContent : '';"
PSTATUS="return document.getElementById('play-status').textContent;"
as "$IDLE"
until_shown "the one not to move is told to wait" "$PSTATUS" \
    "Waiting for $TURN."
as "$MOVER"
until_shown "the one to move is offered the roll" "$ACTION" Roll
click '#play-actions button'
poll_js "return document.getElementById('game').dataset.last ? 'y' : 'n';" y \
    >/dev/null
ROLL=$(cli GAME.INFO "$G2" | sed -n 's/^roll,//p')
check "its click rolled the server's die, as its account" "$ROLL" \
    "$(js "return document.getElementById('game').dataset.last;")"
check "no console error" "" "$(errors)"
as "$IDLE"
check "... nor in the other" "" "$(errors)"

# ------------------------------- to the end, clicking in both pages
# Whoever is to move clicks what the page offers: the roll, then a token
# the page marks legal (the page passes by itself when none can move).
STEP="var b = document.querySelector('#play-actions button'); if (b && b.textContent === 'Roll') { b.click(); return 'roll'; } var t = document.querySelector('#board .token.legal'); if (t) { t.dispatchEvent(new MouseEvent('click', { bubbles: true })); return 'token'; } return 'wait';"
i=0 clicks=0
while [ $i -lt 3000 ]; do
	g=$(curl -s "$BASE/api/games/$G2")
	[ "$(printf %s "$g" | "$JGET" winner)" != null ] && break
	if [ "$(printf %s "$g" | "$JGET" turn)" = "$N1" ]; then
		as "$S1"
	else
		as "$S2"
	fi
	case $(js "$STEP") in
	roll | token) clicks=$((clicks + 1)) ;;
	esac
	sleep 0.03
	i=$((i + 1))
done
W=$(curl -s "$BASE/api/games/$G2" | "$JGET" winner)
if [ "$W" = "$N1" ] || [ "$W" = "$N2" ]; then
	ok "played to its end by clicking: $clicks clicks, $W won"
else
	not_ok "played to its end by clicking ($clicks clicks, winner $W)"
fi
check "every move a player's, none the server's" "$(moves "$G2")" \
    "$(curl -s "$BASE/api/games/$G2/history?count=10000" | tr '}' '\n' |
    grep -c '"by":"player"')"
as "$S1"
go /leaderboard/ludo
RANKS="return Array.from(document.querySelectorAll('#ranks tbody tr')).map(function (r) { return r.cells[1].textContent + ',' + r.cells[4].textContent + ',' + r.cells[5].textContent; }).join(' ');"
if [ "$W" = "$N1" ]; then
	L=$N2
else
	L=$N1
fi
until_shown "the leaderboard page: the winner first, then the other" \
    "$RANKS" "$W,1,1 $L,1,0"
check "... both ratings moved from 1500" "" \
    "$(js "return Array.from(document.querySelectorAll('#ranks tbody tr')).filter(function (r) { return r.cells[2].textContent === '1500.00'; }).length ? 'unmoved' : '';")"
check "... no console error" "" "$(errors)"

# ------------------------------------------------ the player's page
as "$S1"
go "/players/$N1"
until_shown "the player's page lists the game" \
    "return Array.from(document.querySelectorAll('#player-games a')).map(function (a) { return a.textContent; }).join(' ');" \
    "$G2"
check "... and its ratings, one row a kind" 3 \
    "$(js "return document.querySelectorAll('#ratings tbody tr').length;")"
check "... no console error" "" "$(errors)"

# ------------------------------------------------- stop waiting
as "$S1"
go /
until_shown "back on the list" "$SHOWN" shown
click '#playnow-kinds button[data-kind=\"snl\"]'
until_set "$TICKET"
T3=$GOT
click '#playnow-cancel'
until_shown "Stop waiting cancels the ticket" "$STATUS" Cancelled.
check "... the server has none waiting" 0 \
    "$(curl -s "$BASE/api/lobby" | "$JGET" -n queues)"
check "... nor the page" "" "$(js "return localStorage.getItem('ludus.ticket') || '';")"
# An account the server does not know (a new database): a new one.
js "localStorage.setItem('ludus.account', 'gone:00112233445566778899aabbccddeeff'); return 1;" >/dev/null
go /
until_shown "back on the list, an account the server lost" "$SHOWN" shown
click '#playnow-kinds button[data-kind=\"snl\"]'
until_set "$TICKET"
A3=$(js "$TOKEN")
check "... Play now makes a new one and joins" "1 p-" \
    "$(curl -s "$BASE/api/lobby" | "$JGET" queues.0.waiting) \
$(printf %s "$A3" | cut -c1-2)"
check "... not the lost one" "" \
    "$(printf %s "$A3" | grep '^gone:')"
click '#playnow-cancel'
until_shown "... and Stop waiting cancels it" "$STATUS" Cancelled.

# --------------------------------- an app's plain join meets Play now
# A client of a Redis library joins as the protocol's example does; Play
# now must land in that queue, not one spelled with the form's defaults.
RKEY=$(cli PLAYER.CREATE resp-app)
RT=$(printf 'PLAYER.LOGIN resp-app %s\nMATCH.JOIN ludo players=2\n' \
    "$RKEY" | cli | tail -n 1)
check "an app's MATCH.JOIN ludo players=2 waits" 1 \
    "$(curl -s "$BASE/api/lobby?kind=ludo" | "$JGET" queues.0.waiting)"
as "$S1"
go /
until_shown "back on the list" "$SHOWN" shown
click '#playnow-kinds button[data-kind=\"ludo\"]'
poll_js "return location.pathname.indexOf('/games/') === 0 ? 'y' : 'n';" y \
    100 >/dev/null
G4=$(js "$WHERE")
G4=${G4#/games/}
check "Play now is matched with the app's ticket ($RT)" "$G4" \
    "$(cli PLAYER.GAMES resp-app | head -n 1)"

check "no token in the log" 0 "$(grep -c "${A1#*:}\|${A2#*:}" "$DIR/log")"

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
