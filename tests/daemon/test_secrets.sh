#!/bin/sh
# Secrets stay secret (TAP): with a password (requirepass) and secure
# games played over RESP and HTTP, right and wrong passwords, right and
# wrong seat keys, a key put in a URL, and the password sent to the RESP
# port inside an HTTP request, no error message holds a secret that was
# sent, the seat keys are only in their create's reply (and its invite
# links, in the fragment, which a browser never sends), CONFIG GET and
# INFO do not show the password, and the log at debug level holds none
# of them.  Skipped (77) without redis-cli or curl.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"

need_web redis-cli curl
test_setup ludusd-secrets

PW=Pw-4f1c9a7e0d2b
WRONG=Wrong-9e8d7c6b5a
start_http_daemon --loglevel debug --requirepass "$PW" ||
    setup_failed "ludusd starts" "$DIR/log"

# resp LINES: the replies of one connection to these lines.
resp() {
	printf '%s\n' "$@" | timeout 10 redis-cli -p "$PORT" 2>&1
}
# post PATH JSON [curl args]: the body of a JSON POST.
post() {
	p=$1 body=$2
	shift 2
	curl -s --max-time 10 -X POST -H 'Content-Type: application/json' \
	    --data-binary "$body" "$@" "$BASE$p"
}

# ------------------------------------------------------------ RESP
out=$(resp "AUTH $WRONG" "AUTH default $WRONG" "HELLO 3 AUTH default $WRONG")
lacks "RESP: a wrong password is in no error" "$WRONG" "$out"
contains "... which says WRONGPASS" "WRONGPASS" "$out"
out=$(resp "AUTH $PW" "LUDO.CREATE r red blue seats=secure")
KR=$(echo "$out" | sed -n 's/^red,//p')
KB=$(echo "$out" | sed -n 's/^blue,//p')
check "RESP: a secure game's keys, once, in its create's reply" "32 32" \
    "${#KR} ${#KB}"
out=$(resp "AUTH $PW" "SEAT r red $KB" "SEAT r red 0123456789abcdef0123456789abcdef" \
    "SEAT r red $KR" "LUDO.PLAY r red 6 1" "CLIENT LIST" "CONFIG GET *" \
    "INFO")
lacks "RESP: a wrong seat key is in no error" "$KB" "$out"
lacks "... nor a malformed one" "0123456789abcdef0123456789abcdef" "$out"
contains "... refused as NOSEAT" "NOSEAT" "$out"
contains "RESP: the right key plays" "MOVED" "$out"
lacks "RESP: the password is not in CONFIG GET, CLIENT LIST or INFO" \
    "$PW" "$out"
lacks "... nor the right key" "$KR" "$out"
# The password sent to the RESP port inside an HTTP request (as a page
# would post it): closed before it runs, and not logged.
curl -s --max-time 10 -X POST -H 'Content-Type: text/plain' \
    --data-binary "AUTH $PW" "http://127.0.0.1:$PORT/" >/dev/null 2>&1

# ------------------------------------------------------------ HTTP
out=$(post /api/games '{"kind":"ludo","id":"h","players":["red","blue"],
    "options":{"seats":"secure"}}' -H "Authorization: Bearer $PW")
HR=$("$JGET" seats.0.key <<EOF
$out
EOF
)
HB=$("$JGET" seats.1.key <<EOF
$out
EOF
)
invite=$("$JGET" seats.0.invite <<EOF
$out
EOF
)
check "HTTP: a secure game's keys in its create's reply" "32 32" \
    "${#HR} ${#HB}"
check "HTTP: the invite link has the key in its fragment only" \
    "/games/h#key=$HR&player=red" "$invite"
out=$(post /api/games '{"kind":"snl","players":2}' \
    -H "Authorization: Bearer $WRONG")
contains "HTTP: a wrong password is refused" WRONGPASS "$out"
lacks "... and is not in the error" "$WRONG" "$out"
out=$(post /api/games/h/moves '{"player":"red","dice":6,"token":1}' \
    -H "Authorization: Bearer $PW" -H "X-Seat-Key: $HB")
contains "HTTP: a wrong seat key is refused" NOSEAT "$out"
lacks "... and is not in the error" "$HB" "$out"
out=$(post "/api/games/h/moves?key=$HR" '{"player":"red","dice":6,"token":1}' \
    -H "Authorization: Bearer $PW")
contains "HTTP: a key in a URL is refused (a write takes no query)" \
    BADARG "$out"
lacks "... and is not in the error" "$HR" "$out"
out=$(post /api/games/h/moves '{"player":"red","dice":6,"token":1}' \
    -H "Authorization: Bearer $PW" -H "X-Seat-Key: $HR")
contains "HTTP: the right key plays" MOVED "$out"
out=$(curl -s "$BASE/api/games/h"; curl -s "$BASE/api/games/h/history";
    curl -s "$BASE/games/h"; curl -s "$BASE/metrics")
lacks "HTTP: no read shows a key" "$HR" "$out"

# ------------------------------------------------------------ the log
stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"
check "the log (debug) holds neither password" 0 \
    "$(grep -c -e "$PW" -e "$WRONG" "$DIR/log")"
check "... nor any seat key" 0 \
    "$(grep -c -e "$KR" -e "$KB" -e "$HR" -e "$HB" "$DIR/log")"
contains "... though it logged the requests" "POST /api/games/h/moves" \
    "$(cat "$DIR/log")"
contains "... and the attempt on the RESP port" "cross-protocol attack" \
    "$(cat "$DIR/log")"

echo "1..$N"
[ "$FAILED" -eq 0 ]
