# What the web tests share, sourced by them after tests/lib/tap.sh: the
# programs, the checks, and ludusd started with HTTP on ports the kernel
# picks.  The test sets DIR (its temporary directory, the daemon's
# working one) and kills $PID in its exit trap.

LUDUSD=${LUDUSD:-${top_builddir:-.}/src/ludusd}
JGET=${JGET:-${top_builddir:-.}/tests/web/jget}
case $LUDUSD in /*) ;; *) LUDUSD=$(pwd)/$LUDUSD ;; esac
case $JGET in /*) ;; *) JGET=$(pwd)/$JGET ;; esac

# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# expected: $2"
		echo "# got:      $3"
	fi
}
# contains NAME NEEDLE HAYSTACK
contains() {
	case $3 in
	*"$2"*) ok "$1" ;;
	*) not_ok "$1"; echo "# '$2' not in:"
	   printf '%s\n' "$3" | head -20 | sed 's/^/#   /' ;;
	esac
}
# lacks NAME NEEDLE HAYSTACK
lacks() {
	case $3 in
	*"$2"*) not_ok "$1"; echo "# '$2' found" ;;
	*) ok "$1" ;;
	esac
}

# wait_file FILE PID: until FILE has something, 10 s at most; false if
# it has nothing by then or PID is gone.
wait_file() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 1000 ]; do
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.01
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# start_http_daemon ARGS...: ludusd on free RESP and HTTP ports, its
# database and log in DIR; sets PID, PORT, HPORT and BASE (the HTTP
# root).  False when HTTP did not come up.
start_http_daemon() {
	rm -f "$DIR/port" "$DIR/hport"
	(cd "$DIR" && exec "$LUDUSD" --port 0 --portfile "$DIR/port" \
	    --http-port any --http-portfile "$DIR/hport" --db "$DIR/g.db" \
	    "$@" >>"$DIR/log" 2>&1) &
	PID=$!
	wait_file "$DIR/hport" "$PID"
	PORT=$(cat "$DIR/port" 2>/dev/null)
	HPORT=$(cat "$DIR/hport" 2>/dev/null)
	BASE=http://127.0.0.1:$HPORT
	[ -n "$HPORT" ]
}

cli() {
	redis-cli -p "$PORT" "$@"
}
