# Starting the real ludusd from the shell tests, sourced by them: the
# daemon listens on a port the kernel picks (--port 0) and writes it to a
# file once it is ready (--portfile), so tests never race for ports; with
# HTTP, its HTTP port too (--http-port any, --http-portfile).  The test
# calls test_setup (its temporary directory DIR, the daemon's working one,
# and the exit trap that kills $PID); tests/lib/tap.sh comes first.

LUDUSD=${LUDUSD:-${top_builddir:-.}/src/ludusd}
LUDUS=${LUDUS:-${top_builddir:-.}/src/ludus}
JGET=${JGET:-${top_builddir:-.}/tests/web/jget}
case $LUDUSD in /*) ;; *) LUDUSD=$(pwd)/$LUDUSD ;; esac
case $LUDUS in /*) ;; *) LUDUS=$(pwd)/$LUDUS ;; esac
case $JGET in /*) ;; *) JGET=$(pwd)/$JGET ;; esac
T=10	# seconds any one client may take (ludus, and a test's own)

# need_cli [TOOL...]: ludusd, the ludus CLI and the TOOLs are there, or
# skip_all.
need_cli() {
	if [ ! -x "$LUDUSD" ] || [ ! -x "$LUDUS" ]; then
		skip_all "ludusd or ludus not built"
	fi
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			skip_all "no $tool"
		fi
	done
}

# need_web [TOOL...]: the TOOLs are on PATH (an empty one is python3, not
# found), ludusd and jget are built, or skip_all.
need_web() {
	for tool in "$@"; do
		if [ -z "$tool" ] || ! command -v "$tool" >/dev/null 2>&1; then
			skip_all "${tool:-python3} not installed"
		fi
	done
	if [ ! -x "$LUDUSD" ] || [ ! -x "$JGET" ]; then
		skip_all "$LUDUSD or $JGET not built"
	fi
}

# test_setup NAME [VAR...]: DIR, a new temporary directory
# (${TMPDIR:-/tmp}/NAME.XXXXXX), and the exit trap, test_cleanup.  PID
# (the daemon) and each VAR, the name of a variable that will hold the
# ids of other processes the test starts, are emptied.
test_setup() {
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
	shift
	PID=
	CLEANUP_VARS=$*
	for v in "$@"; do
		eval "$v="
	done
	trap test_cleanup EXIT
	trap 'exit 1' HUP INT TERM
}

# test_cleanup: SIGTERM to the processes of test_setup's VARs, then
# $CLEANUP_HOOK (a command: webdriver_stop for the browser tests), then
# SIGKILL to the daemon, and DIR goes.
test_cleanup() {
	for v in $CLEANUP_VARS; do
		eval "pids=\$$v"
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill $pids 2>/dev/null
	done
	[ -n "${CLEANUP_HOOK:-}" ] && $CLEANUP_HOOK
	[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
	rm -rf "$DIR"
}

# make_certs: the throwaway PKI of tests/lib/certs.sh in P=DIR/pki, or a
# failed test and exit.
make_certs() {
	P=$DIR/pki
	sh "${top_srcdir:-.}/tests/lib/certs.sh" "$P" 2>"$DIR/certs.err" ||
	    setup_failed "the test certificates are made" "$DIR/certs.err"
}

# wait_file FILE PID [TICKS]: until FILE has something, TICKS hundredths
# of a second at most (2000: 20 s); false if it has nothing by then or
# PID is gone.
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt "${3:-2000}" ]; do
		kill -0 "$2" 2>/dev/null || break
		sleep 0.01
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# wait_line FILE REGEX PID [TICKS]: until a line of FILE matches REGEX
# (grep's), TICKS hundredths of a second at most (1000: 10 s); false if
# none does by then or PID (when not empty) is gone.
wait_line() {
	i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null && [ $i -lt "${4:-1000}" ]; do
		[ -z "$3" ] || kill -0 "$3" 2>/dev/null || break
		sleep 0.01
		i=$((i + 1))
	done
	grep -q -- "$2" "$1" 2>/dev/null
}

# start_daemon PORTFILE LOG ARGS...: sets PID and PORT; false if the
# daemon did not come up within 20 seconds.  A config file, if any, must
# come first in ARGS, before the flags.
start_daemon() {
	pf=$1 log=$2
	shift 2
	rm -f "$pf"
	(cd "$DIR" && exec "$LUDUSD" "$@" --port 0 --portfile "$pf" \
	    >>"$log" 2>&1) &
	PID=$!
	wait_file "$pf" "$PID"
	PORT=$(cat "$pf" 2>/dev/null)
	[ -n "$PORT" ]
}

# start_http_daemon ARGS...: ludusd on free RESP and HTTP ports (flags in
# ARGS come after these and override them: --http-port N for a restart
# on the same port), its database DIR/g.db and its log DIR/log; sets PID,
# PORT, HPORT and BASE (the HTTP root).  False when HTTP did not come up
# (ludusd writes the HTTP port file right after the RESP one).
start_http_daemon() {
	rm -f "$DIR/hport"
	start_daemon "$DIR/port" "$DIR/log" --http-port any \
	    --http-portfile "$DIR/hport" --db "$DIR/g.db" "$@" &&
	    wait_file "$DIR/hport" "$PID" 100
	HPORT=$(cat "$DIR/hport" 2>/dev/null)
	BASE=http://127.0.0.1:$HPORT
	[ -n "$HPORT" ]
}

# stop_daemon: SIGTERM, wait; sets STATUS.
stop_daemon() {
	kill -TERM "$PID"
	wait "$PID"
	STATUS=$?
	PID=
}

cli() {
	redis-cli -p "$PORT" "$@"
}

# ludus ARGS...: the CLI against the daemon, bounded by timeout(1): a
# hang fails its test.
ludus() {
	timeout "$T" "$LUDUS" -p "$PORT" "$@"
}
