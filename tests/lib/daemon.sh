# Starting the real ludusd from the shell tests, sourced by them: the
# daemon listens on a port the kernel picks (--port 0) and writes it to a
# file once it is ready (--portfile), so tests never race for ports; with
# HTTP, its HTTP port too (--http-port any, --http-portfile).  The test
# sets DIR (its temporary directory, the daemon's working one) and kills
# $PID in its exit trap.

LUDUSD=${LUDUSD:-${top_builddir:-.}/src/ludusd}
JGET=${JGET:-${top_builddir:-.}/tests/web/jget}
case $LUDUSD in /*) ;; *) LUDUSD=$(pwd)/$LUDUSD ;; esac
case $JGET in /*) ;; *) JGET=$(pwd)/$JGET ;; esac

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
