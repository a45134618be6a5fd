#!/bin/sh
# Each address's share of the HTTP connections (http-maxclients-per-
# address, counted in src/net/quota.c), over real sockets from the
# loopback addresses 127.0.0.2 to 127.0.0.5, each standing for another
# client: the connections one address holds (idle event streams) past
# its share get 503 LIMIT naming the key, the others are served, the
# share comes back when they close; when every slot is taken, /healthz,
# /readyz and /metrics are still answered (a reserve) and nothing else
# is; with the defaults, 1,030 event streams from one address leave the
# rest served.  TAP; skipped (77) without curl, redis-cli or perl.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"
RAW="perl $top_srcdir/tests/web/rawhttp.pl"

need_web curl redis-cli perl
test_setup ludusd-share

# from LINES...: rawhttp.pl's "from" mode, a line of status codes for
# each line given ("ADDR N PATH" or "close ADDR"), joined by " | ".
from() {
	printf '%s\n' "$@" >"$DIR/script"
	$RAW from "$HPORT" "$DIR/script" | paste -sd'|' - | sed 's/|/ | /g'
}
# get ADDR PATH: the status and error code of one request from ADDR.
get() {
	curl -s --max-time 10 --interface "$1" -o "$DIR/body" \
	    -w '%{http_code}' "$BASE$2" >"$DIR/status"
	case $(cat "$DIR/status") in
	200) echo 200 ;;
	*) echo "$(cat "$DIR/status") $("$JGET" error <"$DIR/body")" ;;
	esac
}

start_http_daemon --loglevel info --http-maxclients 12 \
    --http-maxclients-per-address 4 ||
    setup_failed "ludusd starts" "$DIR/log"
cli SNL.CREATE g 2 >/dev/null
EV=/api/games/g/events

check "one address: 4 event streams, then 503" "200x4 503" \
    "$(from "127.0.0.2 5 $EV")"
check "its share back once they close, and not before" \
    "200x4 | 503 | closed 127.0.0.2 | 200x4" \
    "$(from "127.0.0.2 4 $EV" "127.0.0.2 1 /api/kinds" "close 127.0.0.2" \
    "127.0.0.2 4 $EV")"
check "the one over its share: LIMIT naming the key" \
    "200x4 | 503 max number of HTTP connections from one address reached (http-maxclients-per-address 4)" \
    "$(from "127.0.0.2 4 $EV" "show 127.0.0.2 /api/kinds")"
check "another address is served meanwhile" \
    "200x4 | 200x4 | 200 | 200" \
    "$(from "127.0.0.2 4 $EV" "127.0.0.3 4 $EV" "127.0.0.4 1 /api/kinds" \
    "127.0.0.4 1 /api/games")"
check "a probe from an address over its share is answered" \
    "200x4 | 200 | 200" \
    "$(from "127.0.0.2 4 $EV" "127.0.0.2 1 /healthz" "127.0.0.2 1 /metrics")"

# Every slot taken (12, by three addresses): only the probes.
check "a full pool: a fourth address gets 503, probes 200" \
    "200x4 | 200x4 | 200x4 | 503 | 503 | 200 | 200 | 200" \
    "$(from "127.0.0.2 4 $EV" "127.0.0.3 4 $EV" "127.0.0.4 4 $EV" \
    "127.0.0.5 1 /api/kinds" "127.0.0.5 1 $EV" "127.0.0.5 1 /healthz" \
    "127.0.0.5 1 /readyz" "127.0.0.5 1 /metrics")"
check "the pool's own LIMIT names http-maxclients" \
    "200x4 | 200x4 | 200x4 | 503 max number of HTTP clients reached (http-maxclients 12)" \
    "$(from "127.0.0.2 4 $EV" "127.0.0.3 4 $EV" "127.0.0.4 4 $EV" \
    "show 127.0.0.5 /api/kinds")"
check "every slot free again" "200" "$(get 127.0.0.5 /api/kinds)"
metric=$(curl -s "$BASE/metrics" |
    sed -n 's/^ludus_limit_refused_total{limit="http-maxclients-per-address"} //p')
check "/metrics counts the refusals by share" 3 "$metric"
check "INFO counts the same" 3 "$(cli INFO stats | tr -d '\r' |
    sed -n 's/^limit_refused_http_maxclients_per_address://p')"
contains "the log names the address and the key" \
    "127.0.0.2:" "$(grep 'http-maxclients-per-address 4' "$DIR/log")"
stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"

# The defaults: 1,030 idle event streams from one address take its
# share (128), and the others are served, probes and pages alike.
start_http_daemon || setup_failed "ludusd starts with the defaults" "$DIR/log"
cli SNL.CREATE g 2 >/dev/null
check "defaults: 1,030 event streams from one address, 128 held" \
    "200x128 503x902" "$(from "127.0.0.2 1030 $EV")"
check "... while another address gets the games, /healthz, /metrics" \
    "200x128 503x902 | 200 | 200 | 200 | 200" \
    "$(from "127.0.0.2 1030 $EV" "127.0.0.3 1 /api/games" \
    "127.0.0.3 1 /healthz" "127.0.0.3 1 /metrics" "127.0.0.4 1 $EV")"
stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"

echo "1..$N"
[ "$FAILED" -eq 0 ]
