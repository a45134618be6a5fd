#!/bin/sh
# The quotas on the HTTP side (src/net/quota.c), with curl: an HTTP
# client's create rate (http-create-rate) is its peer address's,
# whatever connections it opens (429 LIMIT with Retry-After, nothing
# created), another address
# and a RESP client have their own; max-games holds for both protocols;
# /metrics counts each refusal by its key (and parses, with promtool
# when it is installed); the log names them.  TAP; skipped (77) without
# curl or redis-cli.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"

need_web curl redis-cli
test_setup ludusd-limits

# create ID [curl args]: "status error" of a POST /api/games (a new
# connection each time, as curl makes one per run).
create() {
	id=$1
	shift
	curl -s --max-time 10 -o "$DIR/body" -D "$DIR/head" -w '%{http_code}' \
	    -X POST -H 'Content-Type: application/json' --data-binary \
	    "{\"kind\":\"snl\",\"id\":\"$id\",\"players\":2}" "$@" \
	    "$BASE/api/games" >"$DIR/status"
	case $(cat "$DIR/status") in
	201) echo 201 ;;
	*) echo "$(cat "$DIR/status") $("$JGET" error <"$DIR/body")" ;;
	esac
}
metric() {
	curl -s "$BASE/metrics" | sed -n "s/^ludus_$1 //p"
}
# Two loopback addresses, so that a second HTTP client has another one.
start_http_daemon --loglevel info --bind 127.0.0.1 127.0.0.2 \
    --http-create-rate 3 --max-games 6 || setup_failed "ludusd starts" "$DIR/log"

check "3 games by an HTTP client, a connection each (a taken id is none)" \
    "201 409 EXISTS 201 201" \
    "$(create h1) $(create h1) $(create h2) $(create h3)"
check "the fourth: 429 LIMIT" "429 LIMIT" "$(create h4)"
contains "... saying which key and when to try again" \
    "max number of games created a minute reached (http-create-rate 3): try again in" \
    "$("$JGET" message <"$DIR/body")"
retry=$(tr -d '\r' <"$DIR/head" | sed -n 's/^Retry-After: //Ip')
check "... with Retry-After in seconds" yes \
    "$([ "${retry:-0}" -ge 1 ] && [ "$retry" -le 20 ] && echo yes)"
check "... and nothing created" "h1 h2 h3" "$(cli GAMES | paste -sd' ' -)"
check "another address has its own rate" "201" \
    "$(create a1 --interface 127.0.0.2)"
check "a RESP client has its own" "OK" "$(cli SNL.CREATE r1 2)"
check "the games there are played over HTTP" "200" \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H \
    'Content-Type: application/json' --data-binary '{"roll":4}' \
    "$BASE/api/games/h1/moves")"

# max-games 6: one more, then none for anyone.
check "max-games: the sixth game" "OK" "$(cli SNL.CREATE r2 2)"
check "max-games: then 429 LIMIT over HTTP" "429 LIMIT" \
    "$(create a2 --interface 127.0.0.2)"
check "... and -LIMIT over RESP" \
    "LIMIT max number of games reached (max-games 6)" \
    "$(cli SNL.CREATE r3 2)"
check "... and nothing created" 6 "$(cli DBSIZE)"

check "/metrics counts the http-create-rate refusal" 1 \
    "$(metric 'limit_refused_total{limit="http-create-rate"}')"
check "... and none of create-rate, a RESP connection's" 0 \
    "$(metric 'limit_refused_total{limit="create-rate"}')"
check "/metrics counts the max-games refusals" 2 \
    "$(metric 'limit_refused_total{limit="max-games"}')"
check "INFO counts the same" "1 2" \
    "$(cli INFO stats | tr -d '\r' | sed -n \
    's/^limit_refused_\(http_create_rate\|max_games\)://p' | paste -sd' ' -)"
if command -v promtool >/dev/null 2>&1; then
	curl -s "$BASE/metrics" >"$DIR/metrics"
	if promtool check metrics <"$DIR/metrics" >"$DIR/promtool" 2>&1; then
		ok "promtool check metrics"
	else
		not_ok "promtool check metrics"
		sed 's/^/# /' "$DIR/promtool"
	fi
else
	skip "promtool check metrics" "promtool not installed"
fi
contains "the log names the refusals" \
    "127.0.0.1: refused: max number of games created a minute" \
    "$(cat "$DIR/log")"
stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"

echo "1..$N"
[ "$FAILED" -eq 0 ]
