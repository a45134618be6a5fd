# Starting the real ludusd from the shell tests, sourced by them: the
# daemon listens on a port the kernel picks (--port 0) and writes it to a
# file once it is ready (--portfile), so tests never race for ports.
# The test sets DIR (its temporary directory, the daemon's working one)
# and kills $PID in its exit trap.

LUDUSD=${LUDUSD:-${top_builddir:-.}/src/ludusd}
case $LUDUSD in /*) ;; *) LUDUSD=$(pwd)/$LUDUSD ;; esac

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
	i=0
	while [ ! -s "$pf" ] && [ $i -lt 2000 ]; do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.01
		i=$((i + 1))
	done
	PORT=$(cat "$pf" 2>/dev/null)
	[ -n "$PORT" ]
}

# stop_daemon: SIGTERM, wait; sets STATUS.
stop_daemon() {
	kill -TERM "$PID"
	wait "$PID"
	STATUS=$?
	PID=
}
