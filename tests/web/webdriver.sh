# The headless Chromium of the browser tests, sourced by them (it sources
# tests/lib/tap.sh and tests/lib/daemon.sh): Debian's chromium driven by
# its chromedriver through the W3C WebDriver HTTP protocol with curl (no
# browser download, no client library).  A test calls need_browser
# (skip_all without the programs), then browser_setup, or browser_dir
# and then start_http_daemon, start_chromedriver and session itself.

. "${top_srcdir:-.}/tests/lib/tap.sh"
. "${top_srcdir:-.}/tests/lib/daemon.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver)}
SHOTS=${top_builddir:-.}/tests/web
CDPID= WD= SESSION=

need_browser() {
	missing=
	[ -x "$CHROMIUM" ] || missing="$missing chromium"
	[ -x "$CHROMEDRIVER" ] || missing="$missing chromedriver"
	for tool in curl redis-cli base64; do
		command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
	done
	[ -z "$missing" ] || skip_all "missing:$missing"
	need_web
}

# webdriver_stop: the session and chromedriver go (for the exit trap).
webdriver_stop() {
	[ -n "$SESSION" ] && curl -s --max-time 10 -X DELETE \
	    "$WD/session/$SESSION" >/dev/null 2>&1
	[ -n "$CDPID" ] && kill "$CDPID" 2>/dev/null
	[ -n "$CDPID" ] && wait "$CDPID" 2>/dev/null
	SESSION= CDPID=
}

# browser_dir NAME [VAR...]: test_setup for a browser test
# (ludusd-NAME), its exit trap stopping the browser too.
browser_dir() {
	n=$1
	shift
	test_setup "ludusd-$n" "$@"
	CLEANUP_HOOK=webdriver_stop
}

# browser_setup NAME ARGS...: browser_dir NAME, ludusd started with HTTP
# and ARGS, chromedriver and a session; a failed TAP test and exit when
# one does not come up.
browser_setup() {
	browser_dir "$1"
	shift
	start_http_daemon "$@" || setup_failed "ludusd starts" "$DIR/log"
	if ! start_chromedriver || ! session; then
		setup_failed "a headless Chromium through chromedriver" \
		    "$DIR/chromedriver.log" 20
	fi
}

# start_chromedriver: on a port the kernel picks (it says which),
# loopback only; sets CDPID and WD; false when it did not come up.
start_chromedriver() {
	: >"$DIR/chromedriver.log"
	"$CHROMEDRIVER" --port=0 >>"$DIR/chromedriver.log" 2>&1 &
	CDPID=$!
	wait_line "$DIR/chromedriver.log" 'started successfully on port' \
	    "$CDPID"
	CDPORT=$(sed -n 's/.*started successfully on port \([0-9]*\).*/\1/p' \
	    "$DIR/chromedriver.log")
	WD=http://127.0.0.1:$CDPORT
	[ -n "$CDPORT" ]
}

# wd METHOD PATH [JSON]: one WebDriver command of the session; the reply
# (JSON) on stdout.
wd() {
	curl -s --max-time 60 -X "$1" -H 'Content-Type: application/json' \
	    ${3:+--data-binary "$3"} "$WD/session/$SESSION$2"
}
# js SCRIPT: the value a script returns (a string, or JSON).
js() {
	wd POST /execute/sync "{\"script\": \"$1\", \"args\": []}" |
	    "$JGET" value
}
go() {
	wd POST /url "{\"url\": \"$BASE$1\"}" >/dev/null
}
# element SELECTOR: the WebDriver reference of the first match.
element() {
	wd POST /element "{\"using\": \"css selector\", \"value\": \"$1\"}" |
	    "$JGET" value.element-6066-11e4-a52e-4f735466cecf
}
# errors: the console's errors since the last call, one a line.
errors() {
	wd POST /se/log '{"type": "browser"}' >"$DIR/logs.json"
	n=$("$JGET" -n value <"$DIR/logs.json")
	i=0
	while [ "$i" -lt "${n:-0}" ]; do
		if [ "$("$JGET" value.$i.level <"$DIR/logs.json")" = SEVERE ]
		then
			"$JGET" value.$i.message <"$DIR/logs.json"
		fi
		i=$((i + 1))
	done
}
# session [PREFS]: a fresh browser, with these Chrome prefs (JSON), and
# the command-line switches of BROWSER_ARGS (JSON strings, comma-separated:
# "--host-resolver-rules=..."), its profile in PROFILE (DIR/profile): a
# test that drives two browsers at once gives each its own.
session() {
	prof=${PROFILE:-$DIR/profile}
	rm -rf "$prof"
	SESSION=
	prefs=${1:-'{}'}
	caps="{\"capabilities\": {\"alwaysMatch\": {\"browserName\": \"chrome\",
	    \"goog:loggingPrefs\": {\"browser\": \"ALL\"},
	    \"goog:chromeOptions\": {\"binary\": \"$CHROMIUM\", \"prefs\": $prefs,
	    \"args\": [\"--headless\", \"--no-sandbox\", \"--disable-gpu\",
	    \"--disable-quic\", \"--no-first-run\",
	    \"--disable-background-networking\", \"--disable-component-update\",
	    \"--disable-sync\", \"--user-data-dir=$prof\",
	    \"--window-size=1280,1800\"${BROWSER_ARGS:+, $BROWSER_ARGS}]}}}}"
	# A browser that failed to start (a shared machine under load can
	# make Chromium miss chromedriver's deadline for its DevTools port)
	# is tried again, twice; each reply goes to chromedriver.log.
	for try in 1 2 3; do
		rm -rf "$prof"
		curl -s --max-time 60 -X POST -H \
		    'Content-Type: application/json' --data-binary "$caps" \
		    "$WD/session" >"$DIR/session.json"
		SESSION=$("$JGET" value.sessionId <"$DIR/session.json")
		[ -n "$SESSION" ] && return 0
		{ echo "session try $try:"; cat "$DIR/session.json"; echo; } \
		    >>"$DIR/chromedriver.log"
		sleep 1
	done
	false
}
end_session() {
	wd DELETE "" >/dev/null
	SESSION=
}

# poll_js SCRIPT EXPECTED [TENTHS]: polls until the script returns
# EXPECTED, TENTHS tenths of a second at most (50: 5 s); GOT is the last
# value; false if it never came.
poll_js() {
	i=0
	GOT=$(js "$1")
	while [ "$GOT" != "$2" ] && [ $i -lt "${3:-50}" ]; do
		sleep 0.1
		GOT=$(js "$1")
		i=$((i + 1))
	done
	[ "$GOT" = "$2" ]
}
# until_shown NAME SCRIPT EXPECTED [TENTHS]: poll_js as a test, as a page
# that redraws after a fetch or an event needs it.
until_shown() {
	poll_js "$2" "$3" "$4"
	check "$1" "$3" "$GOT"
}
# shot NAME: a screenshot of the board alone.
shot() {
	eid=$(element '#board svg')
	wd GET "/element/$eid/screenshot" | "$JGET" value |
	    base64 -d >"$SHOTS/board-$1.png" 2>/dev/null
	if [ -s "$SHOTS/board-$1.png" ]; then
		ok "screenshot of the $1 board: tests/web/board-$1.png"
	else
		not_ok "screenshot of the $1 board"
	fi
}
# click SELECTOR: a real click (WebDriver's) on the first match.
click() {
	wd POST "/element/$(element "$1")/click" '{}' >/dev/null
}
# type_in SELECTOR TEXT: clears the field, then types TEXT into it.
type_in() {
	eid=$(element "$1")
	wd POST "/element/$eid/clear" '{}' >/dev/null
	wd POST "/element/$eid/value" "{\"text\": \"$2\"}" >/dev/null
}

# start_site PYTHON: a page of another origin, DIR/site/index.html served
# by PYTHON's http.server on a loopback port the kernel picks; sets SPID
# and SITE_PORT; false when it did not come up.
start_site() {
	mkdir -p "$DIR/site" &&
	    echo '<!doctype html><title>elsewhere</title>' >"$DIR/site/index.html"
	"$1" -u -m http.server 0 --bind 127.0.0.1 --directory "$DIR/site" \
	    >"$DIR/site.log" 2>&1 &
	SPID=$!
	wait_line "$DIR/site.log" ' port [0-9]' "$SPID"
	SITE_PORT=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$DIR/site.log" |
	    head -n 1)
	[ -n "$SITE_PORT" ]
}

# The pieces of the board shown, as the kind's STATE writes them.
LUDO_PIECES="return Array.from(document.querySelectorAll('#board .token')).map(function (t) { return [t.dataset.player, t.dataset.token, t.dataset.loc, t.dataset.pos].join(','); }).join(' ');"
SNL_PIECES="return Array.from(document.querySelectorAll('#board .piece')).map(function (t) { return [t.dataset.player, t.dataset.pos].join(','); }).join(' ');"
DANDY_PIECES="return Array.from(document.querySelectorAll('#board .piece')).map(function (t) { return [t.dataset.player, t.dataset.pos, t.dataset.points].join(','); }).join(' ');"
# The moves of the list, their seqs in order (0 is the start).
LIST="return Array.from(document.querySelectorAll('#moves li[data-seq]')).map(function (l) { return l.dataset.seq; }).slice(1).join(' ');"
# state CMD...: the piece lines of a STATE or REPLAY reply (over RESP).
state() {
	cli "$@" | grep -v '^turn,\|^winner,\|^snake,\|^ladder,' | paste -sd' ' -
}
# moves ID: the number of moves of game ID (GAME.INFO).
moves() {
	cli GAME.INFO "$1" | sed -n 's/^moves,//p'
}
