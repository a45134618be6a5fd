#!/bin/sh
# HTTPS (https-port) from outside, with a throwaway CA (tests/lib/certs.sh):
# curl reads /api/games with the test CA, a wrong CA is refused, plain
# HTTP on the HTTPS port is not served, writes and their Origin (https://
# is ours there, http:// is not), the Host check, an event stream, a
# certificate replaced and SIGHUP (the next connection gets it, an open
# one keeps its own and is served), a reload that fails, tls-auth-clients
# on HTTPS, HTTPS alone, and the configuration checked.  The pages in a
# browser over HTTPS are in tests/web/test_browser_sec.sh.  TAP; skipped
# (77) without curl, openssl, redis-cli or python3.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/daemon.sh"

PY=$(command -v /usr/bin/python3 || command -v python3)
need_web curl openssl redis-cli "$PY"
test_setup ludusd-https BG OLD
make_certs
# The files the daemon reads, replaced for the reload.
cp "$P/server.crt" "$DIR/cur.crt"
cp "$P/server.key" "$DIR/cur.key"

# start_https ARGS...: start_http_daemon with HTTPS; sets SPORT and SBASE.
start_https() {
	rm -f "$DIR/sport"
	start_http_daemon --https-port any --https-portfile "$DIR/sport" \
	    --tls-cert-file "$DIR/cur.crt" --tls-key-file "$DIR/cur.key" \
	    "$@" || return 1
	SPORT=$(cat "$DIR/sport" 2>/dev/null)
	SBASE=https://localhost:$SPORT
	[ -n "$SPORT" ]
}
# sget PATH [curl args]: the body of a GET over HTTPS with the test CA.
sget() {
	p=$1
	shift
	curl -s --max-time "$T" --cacert "$P/ca.crt" "$@" "$SBASE$p"
}
# spost PATH JSON [curl args]: "status body" of a JSON POST over HTTPS.
spost() {
	p=$1 body=$2
	shift 2
	curl -s --max-time "$T" --cacert "$P/ca.crt" -o "$DIR/body" \
	    -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
	    --data-binary "$body" "$@" "$SBASE$p" >"$DIR/status"
	echo "$(cat "$DIR/status") $(cat "$DIR/body")"
}
cli() {
	timeout "$T" redis-cli -p "$PORT" "$@"
}
# fingerprint FILE: the SHA-256 of a PEM certificate's DER.
fingerprint() {
	openssl x509 -in "$1" -outform der | sha256sum | cut -d' ' -f1
}
# tlsclient: a TLS client that keeps one HTTP/1.1 connection open: for
# each line "GET PATH" on its stdin it sends the request and prints the
# status and the SHA-256 of the certificate the connection was shown.
cat >"$DIR/tlsclient.py" <<'PYEOF'
import hashlib, socket, ssl, sys
ctx = ssl.create_default_context(cafile=sys.argv[2])
raw = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s = ctx.wrap_socket(raw, server_hostname="localhost")
f = s.makefile("rb")
cert = hashlib.sha256(s.getpeercert(binary_form=True)).hexdigest()
for line in sys.stdin:
    path = line.split()[1]
    s.sendall(("GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n" % path).encode())
    status = f.readline().split()[1].decode()
    n = 0
    while True:
        h = f.readline().strip()
        if not h:
            break
        k, _, v = h.decode().partition(":")
        if k.lower() == "content-length":
            n = int(v)
    f.read(n)
    print(status, cert)
PYEOF
tlsclient() {
	"$PY" -u "$DIR/tlsclient.py" "$SPORT" "$P/ca.crt"
}
# newcert: the certificate a new connection is shown.
newcert() {
	openssl s_client -connect "127.0.0.1:$SPORT" -servername localhost \
	    </dev/null 2>/dev/null | openssl x509 -outform der 2>/dev/null |
	    sha256sum | cut -d' ' -f1
}

start_https --loglevel info ||
    setup_failed "ludusd starts with an https-port" "$DIR/log"
ok "ludusd starts with an https-port"
contains "the log names the HTTPS port" "https on port $SPORT" \
    "$(cat "$DIR/log")"

# ------------------------------------------------------ reading, refusals
cli LUDO.CREATE g red blue >/dev/null
check "curl https:// reads /api/games with the test CA" "g" \
    "$(sget /api/games | "$JGET" games.0.id)"
check "... the same as the HTTP port" "$(curl -s "$BASE/api/games")" \
    "$(sget /api/games)"
big=$(head -c 20000 /dev/zero | tr '\0' 'a')
check "evhttp's own 400 over HTTPS has the security headers" \
    "400 nosniff DENY" "$(sget /api/games -H "X-Big: $big" -D - -o /dev/null |
    tr -d '\r' | sed -n 's|^HTTP/1\.1 \([0-9]*\) .*|\1|p
    s/^X-Content-Type-Options: //p; s/^X-Frame-Options: //p' | paste -sd' ' -)"
curl -s --max-time "$T" --cacert "$P/other-ca.crt" "$SBASE/api/games" \
    >/dev/null 2>&1
check "a wrong CA is refused (curl: 60)" 60 "$?"
curl -s --max-time "$T" "$SBASE/api/games" >/dev/null 2>&1
check "no CA: the test certificate is no one's (curl: 60)" 60 "$?"
out=$(curl -s --max-time "$T" -X POST -H 'Content-Type: application/json' \
    --data-binary '{"kind":"ludo","id":"clear","players":["a","b"]}' \
    "http://127.0.0.1:$SPORT/api/games" 2>&1)
check "plain HTTP on the HTTPS port is not served" "" "$out"
check "... and creates nothing" "g" "$(cli GAMES)"

# ------------------------------------------------------------ writes
check "a write over HTTPS from its own origin (https://): 201" "201 OK" \
    "$(spost /api/games '{"kind":"ludo","id":"s","players":["red","blue"]}' \
    -H "Origin: $SBASE" | cut -d' ' -f1) $(cli LUDO.STATE s >/dev/null &&
    echo OK)"
check "an http:// Origin is a foreign one on the HTTPS port: 403" \
    "403 ORIGIN" "$(spost /api/games '{"kind":"snl","players":2}' \
    -H "Origin: http://localhost:$SPORT" | cut -d' ' -f1) $("$JGET" error \
    <"$DIR/body")"
check "... and an https:// one on the HTTP port too" "403" \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H \
    'Content-Type: application/json' -H "Origin: https://127.0.0.1:$HPORT" \
    --data-binary '{"kind":"snl","players":2}' "$BASE/api/games")"
check "a move over HTTPS: 200 MOVED" "200 MOVED" \
    "$(spost /api/games/s/moves '{"player":"red","dice":6,"token":1}' |
    cut -d' ' -f1) $("$JGET" result <"$DIR/body")"
check "a foreign Host over HTTPS: 421" "421 HOST" \
    "$(curl -s --max-time "$T" --cacert "$P/ca.crt" -o "$DIR/body" -w \
    '%{http_code}' -H 'Host: evil.example' "$SBASE/api/games") $("$JGET" \
    error <"$DIR/body")"
check "games are as the writes left them" "g s" "$(cli GAMES | paste -sd' ' -)"

# ------------------------------------------------------ an event stream
curl -s -N --max-time 20 --cacert "$P/ca.crt" \
    "$SBASE/api/games/s/events?from=0" >"$DIR/events" 2>/dev/null &
BG=$!
wait_line "$DIR/events" '^id: 1' "" 500
cli LUDO.PLAY s red 3 1 >/dev/null
wait_line "$DIR/events" '^id: 2' "" 500
check "an event stream over HTTPS: the backlog, then a move made over RESP" \
    "1 2" "$(sed -n 's/^id: //p' "$DIR/events" | paste -sd' ' -)"
kill "$BG" 2>/dev/null
wait "$BG" 2>/dev/null
BG=

# ------------------------------------------------------------ reload
F1=$(fingerprint "$P/server.crt")
F2=$(fingerprint "$P/server2.crt")
mkfifo "$DIR/fifo"
tlsclient <"$DIR/fifo" >"$DIR/old.out" 2>&1 &
OLD=$!
exec 3>"$DIR/fifo"
echo "GET /healthz" >&3
i=0
while [ ! -s "$DIR/old.out" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "an open connection is served" "200 $F1" "$(cat "$DIR/old.out")"
cp "$P/server2.crt" "$DIR/cur.crt"
cp "$P/server2.key" "$DIR/cur.key"
kill -HUP "$PID"
wait_line "$DIR/log" 'TLS certificates reloaded' "$PID" 1000
check "SIGHUP: the next connection is shown the new certificate" "$F2" \
    "$(newcert)"
check "... and served with it" "s" "$(sget /api/games/s | "$JGET" id)"
echo "GET /api/games" >&3
exec 3>&-
wait "$OLD"
OLD=
check "... while the old connection keeps its own and is served" \
    "200 $F1
200 $F1" "$(cat "$DIR/old.out")"
echo "not a key" >"$DIR/cur.key"
kill -HUP "$PID"
wait_line "$DIR/log" 'not reloaded' "$PID" 1000
check "a reload that fails keeps the certificate in use" "$F2" "$(newcert)"
cp "$P/server2.key" "$DIR/cur.key"
stop_daemon
check "ludusd with HTTPS exits 0 on SIGTERM" 0 "$STATUS"

# ----------------------------------------- client certificates, HTTPS only
cp "$P/server.crt" "$DIR/cur.crt"
cp "$P/server.key" "$DIR/cur.key"
if start_https --tls-ca-cert-file "$P/ca.crt" --tls-auth-clients yes; then
	sget /healthz >/dev/null 2>&1
	check "tls-auth-clients yes on HTTPS: no certificate, no reply" \
	    "" "$(sget /healthz 2>/dev/null)"
	check "... one of the CA: served" "ok" "$(sget /healthz --cert \
	    "$P/client.crt" --key "$P/client.key" | "$JGET" status)"
	check "... the HTTP port is not HTTPS: served in clear" "ok" \
	    "$(curl -s "$BASE/healthz" | "$JGET" status)"
	stop_daemon
else
	not_ok "ludusd starts with tls-auth-clients yes and an https-port"
	sed 's/^/# /' "$DIR/log"
fi
rm -f "$DIR/sport"
start_daemon "$DIR/port" "$DIR/log" --db "$DIR/g.db" --http-port 0 \
    --https-port any --https-portfile "$DIR/sport" --tls-cert-file \
    "$DIR/cur.crt" --tls-key-file "$DIR/cur.key"
SPORT=$(cat "$DIR/sport" 2>/dev/null)
SBASE=https://localhost:$SPORT
check "HTTPS alone (http-port 0): served" "ok" \
    "$(sget /healthz | "$JGET" status)"
stop_daemon
out=$("$LUDUSD" --db "$DIR/g.db" --port 0 --https-port any 2>&1)
check "https-port without a certificate: exit 1" \
    "1 ludusd: https-port needs tls-cert-file and tls-key-file" "$? $out"

echo "1..$N"
[ "$FAILED" -eq 0 ]
