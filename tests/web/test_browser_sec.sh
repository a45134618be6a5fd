#!/bin/sh
# Browser attacks on the HTTP side, in a real headless Chromium (Debian's,
# through chromedriver, as test_browser.sh drives it), and the pages over
# HTTPS:
#
#  - a page of another origin (a static server on another port) fetch()es
#    the state-changing endpoints, POST /api/games and POST
#    /api/games/ID/moves, as a "simple" request (text/plain, a form's
#    type; no preflight) and as JSON (a preflight first), with
#    credentials, and posts a form: nothing changes (GAMES and HISTORY are
#    as before) and the log names each attempt and its origin;
#  - DNS rebinding: a name of the attacker's (evil.example, which the
#    browser is told resolves to 127.0.0.1) serves "its" page from
#    ludusd's port: ludusd answers 421 to the page and to its same-origin
#    write, and logs the Host;
#  - HTTPS: the browser trusts the test certificate by its SPKI hash
#    (--ignore-certificate-errors-spki-list); a game's page over HTTPS
#    loads with no console error, follows a move made over RESP live (its
#    event stream), and writes a move (its own origin is https://).
#
# Skipped (77) without chromium, chromedriver, curl, redis-cli, openssl
# or python3, except when CI is set.  Every process started here is
# stopped on exit, every wait bounded.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/web/webdriver.sh"
need_browser
PY=$(command -v /usr/bin/python3 || command -v python3)
if [ -z "$PY" ] || ! command -v openssl >/dev/null 2>&1; then
	skip_all "no python3 or openssl"
fi

browser_dir websec SPID
make_certs
start_http_daemon --loglevel info --https-port any --https-portfile \
    "$DIR/sport" --tls-cert-file "$P/server.crt" --tls-key-file \
    "$P/server.key" || setup_failed "ludusd starts" "$DIR/log"
SPORT=$(cat "$DIR/sport")
start_chromedriver ||
    setup_failed "chromedriver starts" "$DIR/chromedriver.log"

cli LUDO.CREATE lu red blue >/dev/null
cli LUDO.PLAY lu red 6 1 >/dev/null
# what: GAMES and the history of lu, to compare before and after.
what() {
	echo "$(cli GAMES | sort | paste -sd' ' -) / $(cli HISTORY lu |
	    paste -sd' ' -)"
}
BEFORE=$(what)
# fetch URL INIT: runs fetch(URL, INIT) in the page; "status N" (an
# opaque reply of a no-cors request is status 0), or "refused" when the
# browser refused it (a preflight that failed).
fetch() {
	script="var done = arguments[0]; fetch('$1', $2).then(function (r) { \
done('status ' + r.status); }, function () { done('refused'); });"
	wd POST /execute/async "{\"script\": \"$script\", \"args\": []}" |
	    "$JGET" value
}
# logged TEXT: the log's lines with TEXT.
logged() {
	grep -c -- "$1" "$DIR/log"
}

# ------------------------------------------- a page of another origin
start_site "$PY"
EVIL=http://127.0.0.1:$SITE_PORT
API=http://127.0.0.1:$HPORT
# Bodies for the scripts: inside their JSON, a quote is \".
CREATE='{\"kind\": \"ludo\", \"id\": \"pwned\", \"players\": [\"a\", \"b\"]}'
MOVE='{\"player\": \"red\", \"dice\": 3, \"token\": 1}'
BLUE='{\"player\": \"blue\", \"dice\": 6, \"token\": 1}'
# A form whose text/plain body reads as JSON: name {"kind":"ludo","x":"
# and value "}, joined by "=".
FORM='var f = document.createElement(\"form\"); f.method = \"POST\";
f.enctype = \"text/plain\"; f.action = \"API/api/games\";
var i = document.createElement(\"input\");
i.name = String.fromCharCode(123) + JSON.stringify(\"kind\") + \":\" +
JSON.stringify(\"ludo\") + \",\" + JSON.stringify(\"x\") + \":\" +
String.fromCharCode(34); i.value = String.fromCharCode(34, 125);
f.appendChild(i); document.body.appendChild(f); f.submit(); return 1;'
if [ -n "$SITE_PORT" ] && session; then
	ok "a headless Chromium through chromedriver"
	wd POST /url "{\"url\": \"$EVIL/\"}" >/dev/null
	check "the page is of another origin" "$EVIL" \
	    "$(js 'return location.origin;')"
	types=$(logged "refused a write of type")
	flights=$(logged "refused a CORS preflight")
	# Simple requests: the browser sends them as they are (and hides
	# the reply): each is refused 415 for its type.
	check "POST /api/games, text/plain (simple, with credentials): sent" \
	    "status 0" "$(fetch "$API/api/games" "{method: 'POST', mode: \
'no-cors', credentials: 'include', headers: {'Content-Type': \
'text/plain'}, body: '$CREATE'}")"
	check "POST /api/games, a form's type: sent" "status 0" \
	    "$(fetch "$API/api/games" "{method: 'POST', mode: 'no-cors', \
headers: {'Content-Type': 'application/x-www-form-urlencoded'}, \
body: 'kind=ludo&id=pwned&players=a'}")"
	check "POST .../moves, text/plain, with credentials: sent" "status 0" \
	    "$(fetch "$API/api/games/lu/moves" "{method: 'POST', mode: \
'no-cors', credentials: 'include', headers: {'Content-Type': \
'text/plain'}, body: '$MOVE'}")"
	# JSON is no simple request: its preflight is refused, and the
	# browser never sends the write.
	check "POST /api/games, JSON, with credentials: the browser refuses" \
	    refused "$(fetch "$API/api/games" "{method: 'POST', credentials: \
'include', headers: {'Content-Type': 'application/json'}, \
body: '$CREATE'}")"
	check "POST .../moves, JSON: the browser refuses" refused \
	    "$(fetch "$API/api/games/lu/moves" "{method: 'POST', headers: \
{'Content-Type': 'application/json'}, body: '$MOVE'}")"
	check "... nothing changed (GAMES, HISTORY)" "$BEFORE" "$(what)"
	check "the log names the three simple ones and their origin" 3 \
	    "$(grep "refused a write of type" "$DIR/log" | grep -c \
	    "from origin '$EVIL'")"
	check "... and the two preflights" $((flights + 2)) \
	    "$(logged "refused a CORS preflight from origin '$EVIL'")"
	# A form of the page, posted (a navigation: no fetch() at all).
	js "$(echo "$FORM" | sed "s|API|$API|" | tr '\n' ' ')" >/dev/null
	poll_js "return document.body.innerText.indexOf('TYPE') >= 0 ? 'yes' : 'no';" yes
	check "a form posted by the page: 415 TYPE" yes "$GOT"
	check "... nothing changed" "$BEFORE" "$(what)"
	check "... and logged" $((types + 4)) "$(logged "refused a write of type")"
	end_session
else
	not_ok "a page of another origin, in a browser"
fi

# ------------------------------------------------------- DNS rebinding
# The attacker's name now resolves to us: the browser takes ludusd's
# port for evil.example's, and the page for its own origin.
BROWSER_ARGS="\"--host-resolver-rules=MAP evil.example 127.0.0.1\""
if session; then
	hosts=$(logged "refused Host 'evil.example")
	wd POST /url "{\"url\": \"http://evil.example:$HPORT/\"}" >/dev/null
	check "DNS rebinding: the page is evil.example's" \
	    "http://evil.example:$HPORT" "$(js 'return location.origin;')"
	check "... and ludusd answers it 421 HOST" yes \
	    "$(js "return document.body.innerText.indexOf('HOST') >= 0 ? 'yes' : 'no';")"
	check "... its same-origin write (JSON, its own Origin): 421" \
	    "status 421" "$(fetch /api/games "{method: 'POST', headers: \
{'Content-Type': 'application/json'}, body: '$CREATE'}")"
	check "... its read: 421 too" "status 421" \
	    "$(fetch /api/games/lu "{}")"
	check "... nothing changed" "$BEFORE" "$(what)"
	check "... and each is logged with the Host" yes \
	    "$([ "$(logged "refused Host 'evil.example:$HPORT'")" -ge \
	    $((hosts + 3)) ] && echo yes)"
	end_session
else
	not_ok "a browser with its own resolver rules"
fi

# ----------------------------------------------------------- HTTPS
BROWSER_ARGS=
if session; then
	url="{\"url\": \"https://localhost:$SPORT/\"}"
	wd POST /url "$url" >/dev/null
	check "HTTPS: a browser that does not know the test CA refuses it" \
	    "Privacy error / chrome-error://chromewebdata/" \
	    "$(js "return document.title + ' / ' + location.href;")"
	end_session
else
	not_ok "a browser for HTTPS"
fi
SPKI=$(openssl x509 -in "$P/server.crt" -pubkey -noout |
    openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
    base64)
BROWSER_ARGS="\"--ignore-certificate-errors-spki-list=$SPKI\""
BASE=https://localhost:$SPORT
LUDO_PIECES="return Array.from(document.querySelectorAll('#board .token')).map(function (t) { return [t.dataset.player, t.dataset.token, t.dataset.loc, t.dataset.pos].join(','); }).join(' ');"
state() {
	cli "$@" | grep -v '^turn,\|^winner,' | paste -sd' ' -
}
if session; then
	go /games/lu
	check "HTTPS: the game's page, its certificate trusted" \
	    "https://localhost:$SPORT" "$(js 'return location.origin;')"
	check "HTTPS: no console error" "" "$(errors)"
	check "HTTPS: the board of LUDO.STATE" "$(state LUDO.STATE lu)" \
	    "$(js "$LUDO_PIECES")"
	# The page follows the game through its event stream, over TLS.
	poll_js "return document.querySelectorAll('#moves li').length - 1;" 1
	cli LUDO.PLAY lu red 2 1 >/dev/null
	until_shown "HTTPS: a move made over RESP arrives live" \
	    "return document.querySelectorAll('#moves li').length - 1;" 2
	until_shown "... and the board follows" "$LUDO_PIECES" \
	    "$(state LUDO.STATE lu)"
	check "HTTPS: the page writes a move (its origin is https://)" \
	    "status 200" "$(fetch /api/games/lu/moves "{method: 'POST', \
headers: {'Content-Type': 'application/json'}, body: '$BLUE'}")"
	check "... which is stored" "3,blue,6:1,MOVED" \
	    "$(cli HISTORY lu | tail -n 1)"
	until_shown "... and shown" \
	    "return document.querySelectorAll('#moves li').length - 1;" 3
	check "HTTPS: no console error after" "" "$(errors)"
	end_session
else
	not_ok "a browser trusting the test certificate"
fi

check "ludusd served it all" "PONG" "$(cli PING)"
echo "1..$N"
[ "$FAILED" -eq 0 ]
