#!/bin/sh
# Cross-protocol attacks on the RESP port (TAP): a web page's request,
# made with curl exactly as a browser's fetch() makes it, and raw bytes:
# an HTTP request whose body holds commands, a TLS ClientHello
# (openssl s_client) on the plain port.  Each connection is closed before
# anything it sent runs (GAMES is as before), with one log line naming
# the peer; a Redis client's GET (an array) and inline commands still
# work.  INFO counts them; a burst is counted in full but logged at a
# rate, the next line saying how many were left out.  Each tool missing
# skips its tests.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
need_cli timeout
PY=$(command -v /usr/bin/python3 || command -v python3)

test_setup ludus-xproto
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/x.db" --loglevel info ||
    setup_failed "ludusd starts" "$DIR/log"

ludus LUDO.CREATE g red blue >/dev/null
GAMES_BEFORE=$(ludus GAMES)

# refused NAME WHAT: nothing was created and the log has exactly one more
# line about a foreign client, which names the peer and says WHAT.
LOGGED=0
refused() {
	check "$1: nothing runs (GAMES as before)" "$GAMES_BEFORE" \
	    "$(ludus GAMES)"
	grep -e "cross-protocol attack" -e "TLS on a plain port" \
	    "$DIR/log" >"$DIR/foreign"
	n=$(wc -l <"$DIR/foreign")
	last=$(tail -n 1 "$DIR/foreign")
	case $last in
	*" 127.0.0.1:"[0-9]*": "*"$2"*) ;;
	*) n="$n, the last not naming 127.0.0.1 and \"$2\": $last" ;;
	esac
	check "$1: one log line names the peer" $((LOGGED + 1)) "$n"
	LOGGED=$((LOGGED + 1))
}

# ------------------------------------------------- curl, as a web page
if command -v curl >/dev/null 2>&1; then
	timeout "$T" curl -s -X POST -H 'Content-Type: text/plain' \
	    --data-binary "$(printf 'LUDO.CREATE pwned a b\r\n')" \
	    "http://127.0.0.1:$PORT/" >"$DIR/curl.out" 2>&1
	refused "curl POST text/plain" "cross-protocol attack"
	check "curl POST: no reply at all" "" "$(cat "$DIR/curl.out")"
	timeout "$T" curl -s "http://127.0.0.1:$PORT/LUDO.CREATE%20pwned" \
	    >/dev/null 2>&1
	refused "curl GET" "cross-protocol attack"
else
	skip "curl POST" "curl not installed"
	skip "curl GET" "curl not installed"
fi

# ------------------------------------------------------- raw bytes
# send BYTES: one write of BYTES (printf's escapes), then what comes
# back until the server closes, as "reply:..." or "closed".
send() {
	"$PY" - "$PORT" "$1" <<'PYEOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
got = b""
try:
    while True:
        d = s.recv(4096)
        if not d:
            break
        got += d
except ConnectionResetError:
    pass
print("reply:" + got.decode("latin-1").replace("\r\n", "|") if got
      else "closed")
PYEOF
}
if [ -n "$PY" ]; then
	out=$(send 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 23\r\n\r\nLUDO.CREATE pwned a b\r\n')
	check "an HTTP request in one write: closed, no reply" closed "$out"
	refused "an HTTP request in one write" "cross-protocol attack"
	out=$(send 'OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n')
	check "a preflight OPTIONS: closed" closed "$out"
	refused "a preflight OPTIONS" "cross-protocol attack"
	out=$(send 'get / http/1.1\r\nLUDO.CREATE pwned a b\r\n')
	check "lower case: closed" closed "$out"
	refused "lower case" "cross-protocol attack"
	# (PING's reply may be dropped with the connection.)
	send 'PING\r\nHost: x\r\nLUDO.CREATE pwned a b\r\n' >/dev/null
	refused "a Host: line after a command" "cross-protocol attack"
	out=$(send 'PING\r\nGET g\r\nQUIT\r\n')
	check "a later inline GET is only an unknown command" \
	    "reply:+PONG|-ERR unknown command 'GET'|+OK|" "$out"
	out=$(send '*2\r\n$3\r\nGET\r\n$1\r\ng\r\n*1\r\n$4\r\nQUIT\r\n')
	check "a Redis client's GET (an array) is a command" \
	    "reply:-ERR unknown command 'GET'|+OK|" "$out"
	out=$(send '\x16\x03\x01\x00\x05\x01\x00\x00\x01\x00PING\r\n')
	check "a TLS record on the plain port: closed" closed "$out"
	refused "a TLS record" "TLS on a plain port?"
else
	for t in "an HTTP request in one write" "a preflight OPTIONS" \
	    "lower case" "a Host: line" "a later inline GET" \
	    "a Redis client's GET" "a TLS record"; do
		skip "$t" "no python3"
	done
fi

# ----------------------------------------------- openssl s_client
if command -v openssl >/dev/null 2>&1; then
	timeout "$T" openssl s_client -connect "127.0.0.1:$PORT" \
	    </dev/null >"$DIR/s_client.out" 2>&1
	refused "openssl s_client on the plain port" "TLS on a plain port?"
else
	skip "openssl s_client on the plain port" "openssl not installed"
fi

# ------------------------------------------- counted, and not flooding
# Every foreign connection is counted in INFO; the log line is
# rate-limited (at most ten at once per kind, then one a second), so
# that a page opening connections in a loop does not fill the disk, and
# the next line written says how many were left out.
info() {
	ludus INFO stats | tr -d '\r' | sed -n "s/^$1://p"
}
check "INFO counts every foreign connection closed" "$LOGGED" \
    "$(info foreign_connections_closed)"
if [ -n "$PY" ]; then
	lines=$(grep -c "cross-protocol attack" "$DIR/log")
	"$PY" - "$PORT" <<'PYEOF'
import socket, sys
for i in range(40):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n\r\nLUDO.CREATE pwned a b\r\n")
    try:
        while s.recv(4096):
            pass
    except ConnectionResetError:
        pass
    s.close()
PYEOF
	check "a burst of 40: every one closed and counted" \
	    $((LOGGED + 40)) "$(info foreign_connections_closed)"
	check "... nothing runs" "$GAMES_BEFORE" "$(ludus GAMES)"
	more=$(($(grep -c "cross-protocol attack" "$DIR/log") - lines))
	check "... fewer log lines than connections" yes \
	    "$([ "$more" -lt 40 ] && echo yes)"
	unlogged=$(info foreign_connections_unlogged)
	check "... INFO counts those left out" $((40 - more)) "$unlogged"
	# A second later the log has room again.
	sleep 1.1
	send 'GET / HTTP/1.1\r\n\r\n' >/dev/null
	contains "the next line says how many were left out" \
	    "(and $unlogged more not logged)" \
	    "$(grep "cross-protocol attack" "$DIR/log" | tail -n 1)"
else
	for t in "a burst of 40" "... nothing runs" "... fewer log lines" \
	    "... INFO counts" "the next line says"; do
		skip "$t" "no python3"
	done
fi

# The daemon served every attack and still serves.
check "PING after the attacks" PONG "$(ludus PING)"
stop_daemon
check "ludusd exits 0 on SIGTERM" 0 "$STATUS"

echo "1..$N"
[ "$FAILED" -eq 0 ]
