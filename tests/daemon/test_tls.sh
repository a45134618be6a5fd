#!/bin/sh
# TLS on ludusd's tls-port (TAP), with a throwaway CA and certificates
# (tests/lib/certs.sh, openssl req and x509): redis-cli --tls plays a
# game, the ludus CLI's --tls plays and checks the host, a wrong CA is
# refused, tls-auth-clients yes refuses a client without a certificate
# (or with one of another CA) and serves one with, a plain client on the
# TLS port gets a clean close, HTTP inside TLS is refused like HTTP in
# clear, and the TLS keys are checked at start.  The reload on SIGHUP and
# redis-py are in tests/clients/test_redis_py_tls.py.
#
# Skipped without openssl(1) (a failure when $CI is set); redis-cli's
# tests are skipped without a redis-cli that has --tls.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
need_cli
# In CI a missing tool fails the test (bootstrap installs them all).
for tool in openssl timeout; do
	if ! command -v $tool >/dev/null 2>&1; then
		case ${CI:-} in
		"" | 0 | false | no) echo "1..0 # SKIP no $tool"; exit 0 ;;
		*) echo "not ok 1 - $tool not found # install: openssl"
		   echo "1..1"; exit 1 ;;
		esac
	fi
done
REDIS_CLI=
if command -v redis-cli >/dev/null 2>&1 &&
    redis-cli --help 2>&1 | grep -q -- --tls; then
	REDIS_CLI=redis-cli
fi
PY=$(command -v /usr/bin/python3 || command -v python3)

test_setup ludus-tls
make_certs
TLS_FLAGS="--tls-port any --tls-portfile $DIR/tlsport --tls-cert-file \
$P/server.crt --tls-key-file $P/server.key"

# start LOG ARGS...: start_daemon with TLS_PORT from the TLS port file
# (written before the port file start_daemon waits for).
start() {
	log=$1
	shift
	rm -f "$DIR/tlsport"
	start_daemon "$DIR/port" "$log" "$@" || return 1
	TLS_PORT=$(cat "$DIR/tlsport" 2>/dev/null)
	[ -n "$TLS_PORT" ]
}

# ---------------------------------------------------- the start
# shellcheck disable=SC2086
start "$DIR/log" --db "$DIR/tls.db" --loglevel info $TLS_FLAGS ||
    setup_failed "ludusd starts with a tls-port" "$DIR/log"
ok "ludusd starts with a tls-port"
check "the TLS port file holds another port" yes \
    "$([ "$TLS_PORT" -gt 0 ] && [ "$TLS_PORT" != "$PORT" ] && echo yes)"
contains "the log names the TLS port" "tls-port $TLS_PORT" "$(cat "$DIR/log")"

ludus() {
	timeout "$T" "$LUDUS" -p "$TLS_PORT" --tls --cacert "$P/ca.crt" "$@"
}
plain() {
	timeout "$T" "$LUDUS" -p "$PORT" "$@"
}

# -------------------------------------------------------- redis-cli
rcli() {
	timeout "$T" "$REDIS_CLI" -p "$TLS_PORT" --tls "$@"
}
if [ -n "$REDIS_CLI" ]; then
	out=$(rcli --cacert "$P/ca.crt" LUDO.CREATE r red blue
	    rcli --cacert "$P/ca.crt" LUDO.PLAY r red 6 1
	    rcli --cacert "$P/ca.crt" LUDO.PLAY r red 3 1
	    rcli --cacert "$P/ca.crt" LUDO.PLAY r blue 4 0)
	check "redis-cli --tls --cacert plays a game" "OK
MOVED
MOVED
PASSED" "$out"
	check "... which the plain port sees" "red,1,TRACK,3" \
	    "$(plain LUDO.STATE r | sed -n 3p)"
	out=$(rcli --cacert "$P/other-ca.crt" PING 2>&1)
	contains "redis-cli with a wrong CA is refused" \
	    "certificate verify failed" "$out"
	out=$(timeout "$T" "$REDIS_CLI" -p "$TLS_PORT" PING 2>&1)
	check "redis-cli in clear on the TLS port: a clean close" \
	    "Error: Server closed the connection" "$out"
	contains "... logged as a plain client" "plain client on the TLS port?" \
	    "$(cat "$DIR/log")"
else
	for t in "redis-cli --tls plays" "... which the plain port sees" \
	    "redis-cli with a wrong CA" "redis-cli in clear on the TLS port" \
	    "... logged"; do
		skip "$t" "no redis-cli with --tls"
	done
fi

# -------------------------------------------------------- ludus CLI
out=$(ludus LUDO.CREATE c red blue; ludus LUDO.PLAY c red 6 1;
    ludus -h localhost LUDO.STATE c | sed -n 3p)
check "ludus --tls plays, by address and by name" "OK
MOVED
red,1,TRACK,0" "$out"
out=$(printf 'LUDO.PLAY c red 2 1\nHISTORY c\n' | ludus 2>&1)
check "ludus --tls reads commands from stdin" "MOVED
1,red,6:1,MOVED
2,red,2:1,MOVED" "$out"
out=$(timeout "$T" "$LUDUS" -p "$TLS_PORT" --tls --cacert "$P/other-ca.crt" \
    PING 2>&1); rc=$?
check "ludus --tls with a wrong CA is refused" "1 ludus: 127.0.0.1:$TLS_PORT: \
TLS: the server's certificate is refused: unable to get local issuer \
certificate" "$rc $out"
out=$(timeout "$T" "$LUDUS" -p "$PORT" --tls --cacert "$P/ca.crt" PING 2>&1)
rc=$?
check "ludus --tls on the plain port fails (and is logged)" 1 "$rc"
contains "... as TLS on a plain port" "TLS on a plain port?" \
    "$(cat "$DIR/log")"

# -------------------------------------------- a clean close, HTTP inside
if [ -n "$PY" ]; then
	out=$("$PY" - "$TLS_PORT" <<'PYEOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"*1\r\n$4\r\nPING\r\n")
try:
    print("eof" if s.recv(100) == b"" else "data")
except ConnectionResetError:
    print("reset")
PYEOF
)
	check "a plain client on the TLS port reads an end, not a reset" eof "$out"
else
	skip "a plain client on the TLS port reads an end" "no python3"
fi
if command -v curl >/dev/null 2>&1; then
	timeout "$T" curl -s --cacert "$P/ca.crt" -X POST \
	    -H 'Content-Type: text/plain' \
	    --data-binary "$(printf 'LUDO.CREATE pwned a b\r\n')" \
	    "https://localhost:$TLS_PORT/" >/dev/null 2>&1
	check "curl https:// POST to the TLS port creates nothing" "c
r" "$(plain GAMES | sort)"
	contains "... and is logged" "cross-protocol attack" "$(cat "$DIR/log")"
else
	skip "curl https:// POST to the TLS port" "curl not installed"
	skip "... and is logged" "curl not installed"
fi
check "the plain port still serves" PONG "$(plain PING)"
stop_daemon
check "ludusd with TLS exits 0 on SIGTERM" 0 "$STATUS"

# -------------------------------------------- client certificates
# shellcheck disable=SC2086
if start "$DIR/log2" --db "$DIR/tls.db" --loglevel info $TLS_FLAGS \
    --tls-ca-cert-file "$P/ca.crt" --tls-auth-clients yes; then
	out=$(ludus --cert "$P/client.crt" --key "$P/client.key" GAMES | sort)
	check "tls-auth-clients yes: a client with a certificate is served" \
	    "c
r" "$out"
	out=$(ludus GAMES 2>&1); rc=$?
	check "tls-auth-clients yes: a client without one is refused" \
	    "1 yes" "$rc $(echo "$out" | grep -q 'connection to ludusd lost\|TLS' && echo yes)"
	out=$(ludus --cert "$P/rogue.crt" --key "$P/rogue.key" GAMES 2>&1)
	rc=$?
	check "tls-auth-clients yes: one of another CA is refused" 1 "$rc"
	if [ -n "$REDIS_CLI" ]; then
		out=$(rcli --cacert "$P/ca.crt" --cert "$P/client.crt" \
		    --key "$P/client.key" PING 2>&1)
		check "redis-cli --cert --key is served" PONG "$out"
		out=$(rcli --cacert "$P/ca.crt" PING 2>&1)
		case $out in PONG) not_ok "redis-cli without --cert is refused";;
		*) ok "redis-cli without --cert is refused";; esac
	else
		skip "redis-cli --cert --key is served" "no redis-cli with --tls"
		skip "redis-cli without --cert is refused" "no redis-cli with --tls"
	fi
	contains "the refusal is logged" "TLS handshake failed" \
	    "$(cat "$DIR/log2")"
	stop_daemon
else
	not_ok "ludusd starts with tls-auth-clients yes"
	sed 's/^/# /' "$DIR/log2"
fi

# shellcheck disable=SC2086
if start "$DIR/log3" --db "$DIR/tls.db" $TLS_FLAGS \
    --tls-ca-cert-file "$P/ca.crt" --tls-auth-clients optional; then
	check "tls-auth-clients optional: served without a certificate" PONG \
	    "$(ludus PING 2>&1)"
	check "tls-auth-clients optional: and with one" PONG \
	    "$(ludus --cert "$P/client.crt" --key "$P/client.key" PING 2>&1)"
	out=$(ludus --cert "$P/rogue.crt" --key "$P/rogue.key" PING 2>&1)
	case $out in PONG) not_ok "tls-auth-clients optional: a bad one is refused";;
	*) ok "tls-auth-clients optional: a bad one is refused";; esac
	stop_daemon
else
	not_ok "ludusd starts with tls-auth-clients optional"
	sed 's/^/# /' "$DIR/log3"
fi

# ------------------------------------------------ TLS only, host names
# port off: no plain port (the port file says 0); the TLS one on two
# loopback addresses, of which the certificate names one.  (start_daemon
# would add --port 0.)
rm -f "$DIR/port" "$DIR/tlsport"
# shellcheck disable=SC2086
(cd "$DIR" && exec "$LUDUSD" --db "$DIR/tls.db" --port off --http-port 0 \
    --bind 127.0.0.1 127.0.0.2 $TLS_FLAGS --portfile "$DIR/port" \
    >>"$DIR/log5" 2>&1) &
PID=$!
i=0
while [ ! -s "$DIR/port" ] && [ $i -lt 2000 ] && kill -0 "$PID" 2>/dev/null
do
	sleep 0.01
	i=$((i + 1))
done
TLS_PORT=$(cat "$DIR/tlsport" 2>/dev/null)
if [ -n "$TLS_PORT" ]; then
	check "port off: the port file says 0" 0 "$(cat "$DIR/port")"
	check "port off: TLS is served" PONG "$(ludus PING 2>&1)"
	check "port off: the start line names the TLS port alone" \
	    "listening on 127.0.0.1 127.0.0.2 tls-port $TLS_PORT," \
	    "$(grep -o 'listening on [^,]*,' "$DIR/log5")"
	out=$(ludus -h 127.0.0.2 PING 2>&1); rc=$?
	check "ludus --tls refuses a certificate that does not name the host" \
	    "1 ludus: 127.0.0.2:$TLS_PORT: TLS: the server's certificate is \
refused: IP address mismatch" "$rc $out"
	stop_daemon
	check "... and exits 0 on SIGTERM" 0 "$STATUS"
else
	not_ok "ludusd starts with port off and a tls-port"
	sed 's/^/# /' "$DIR/log5"
fi

# ------------------------------------------------- bad configurations
out=$("$LUDUSD" --db "$DIR/tls.db" --port 0 --tls-port any 2>&1); rc=$?
check "tls-port without a certificate: exit 1" \
    "1 ludusd: tls-port needs tls-cert-file and tls-key-file" "$rc $out"
out=$("$LUDUSD" --db "$DIR/tls.db" --port 0 --tls-port any \
    --tls-cert-file "$DIR/nosuch.crt" --tls-key-file "$P/server.key" 2>&1)
rc=$?
contains "an unreadable certificate: exit 1, named" \
    "tls-cert-file $DIR/nosuch.crt:" "$rc $out"
check "... exit status 1" 1 "$rc"
out=$("$LUDUSD" --db "$DIR/tls.db" --port 0 --tls-port any \
    --tls-cert-file "$P/server.crt" --tls-key-file "$P/client.key" 2>&1)
contains "a key that is not the certificate's: refused" \
    "tls-key-file $P/client.key:" "$out"

echo "1..$N"
[ "$FAILED" -eq 0 ]
