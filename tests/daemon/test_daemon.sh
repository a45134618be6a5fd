#!/bin/sh
# ludusd driven by redis-cli, the way a person would: the seed examples,
# piped input, INFO, COMMAND and redis-cli's interactive mode, RESP3, the
# configuration file and flags, and a clean stop.  TAP output; skipped
# (77) without redis-cli.
#
# The daemon listens on a port the kernel picks (--port 0) and writes it
# to a file once it is ready (--portfile); its database, log and files
# live in a temporary directory removed at the end, and the daemon is
# killed on any exit of this script.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$(dirname "$0")/../lib/daemon.sh"
. "$(dirname "$0")/../lib/store.sh"
. "$(dirname "$0")/../lib/tap.sh"

if ! command -v redis-cli >/dev/null 2>&1; then
	skip_all "redis-cli not installed"
fi
if [ ! -x "$LUDUSD" ]; then
	skip_all "$LUDUSD not built"
fi

test_setup ludusd-sh PID2

# ------------------------------------------------------- configuration
out=$("$LUDUSD" --version)
sqlv=$(ls "$top_srcdir"/sql/[0-9]*.sql | wc -l | tr -d ' ')
pgv=$(ls "$top_srcdir"/sql/pg/[0-9]*.sql | wc -l | tr -d ' ')
check "--version, with the schema version of each backend" \
    "ludusd $(sed -n 's/^AC_INIT(\[ludus\], \[\([^]]*\)\].*/\1/p' \
    "$top_srcdir/configure.ac") (schema version $sqlv on SQLite, $pgv on PostgreSQL)" \
    "$out"

"$LUDUSD" --help >"$DIR/help" 2>&1
contains "--help lists every key as a flag" "--maxclients N" "$(cat "$DIR/help")"

out=$("$LUDUSD" --test-config "$top_srcdir/etc/ludusd.conf" 2>&1)
check "the shipped ludusd.conf is valid" "ludusd: configuration OK" "$out"

printf '# a comment\n\nport 7421\nprot 7422\n' >"$DIR/bad1.conf"
out=$("$LUDUSD" "$DIR/bad1.conf" 2>&1); rc=$?
check "unknown key: exit 1 with file and line" \
    "1 ludusd: $DIR/bad1.conf:4: unknown key 'prot'" "$rc $out"

printf 'durability sometimes\n' >"$DIR/bad2.conf"
out=$("$LUDUSD" --config "$DIR/bad2.conf" 2>&1); rc=$?
check "bad value: exit 1 with file and line" \
    "1 ludusd: $DIR/bad2.conf:1: durability: must be full, normal or off" \
    "$rc $out"

out=$("$LUDUSD" --port 99999 2>&1); rc=$?
check "bad flag value: exit 1" "1 ludusd: --port: out of range" "$rc $out"

out=$("$LUDUSD" --frobnicate 3 2>&1); rc=$?
check "unknown flag: exit 1, one line and a hint" \
    "1 ludusd: unknown option '--frobnicate' (ludusd --help lists them)" \
    "$rc $out"

# ---------------------------------------------------------- the server
# A file, and flags that override it.
printf 'durability off\nloglevel warning\nmaxclients 50\n' >"$DIR/ludusd.conf"
store_for "$DIR/games.db"
if start_daemon "$DIR/port" "$DIR/log" "$DIR/ludusd.conf" \
    "$STORE_OPT" "$STORE_ARG" --durability normal --loglevel info; then
	ok "ludusd starts on a free port"
else
	not_ok "ludusd starts on a free port"
	sed 's/^/# /' "$DIR/log"
	echo "1..$N"
	exit 1
fi

out=$("$LUDUSD" --port "$PORT" --db "$DIR/other.db" 2>&1); rc=$?
contains "a port in use: exit 1" "cannot listen on 127.0.0.1:$PORT" "$rc $out"

out=$(cli INFO persistence | tr -d '\r')
contains "flags override the file" "durability:normal" "$out"
out=$(cli INFO clients | tr -d '\r')
contains "the file sets what flags do not" "maxclients:50" "$out"

# Ludo, the rules' first example game.
out=$(cli LUDO.CREATE game-1 red blue; cli LUDO.PLAY game-1 red 6 1
    cli LUDO.PLAY game-1 red 3 1; cli LUDO.PLAY game-1 blue 4 0)
check "Ludo example 1 moves" "OK
MOVED
MOVED
PASSED" "$out"
check "Ludo example 1 state" "turn,red
winner,NONE
red,1,TRACK,3
red,2,YARD,-1
red,3,YARD,-1
red,4,YARD,-1
blue,1,YARD,-1
blue,2,YARD,-1
blue,3,YARD,-1
blue,4,YARD,-1" "$(cli LUDO.STATE game-1)"

# Example 2 and 3 through one piped session.
out=$(printf '%s\n' \
    'LUDO.CREATE capture-game alpha beta' \
    'LUDO.PLAY capture-game alpha 6 1' 'LUDO.PLAY capture-game alpha 6 1' \
    'LUDO.PLAY capture-game alpha 6 1' 'LUDO.PLAY capture-game alpha 2 1' \
    'LUDO.PLAY capture-game beta 6 1' 'LUDO.PLAY capture-game beta 1 1' \
    'LUDO.STATE capture-game' \
    'LUDO.CREATE pass-game sun moon' \
    'LUDO.PLAY pass-game sun 3 1' 'LUDO.PLAY pass-game sun 3 0' | cli)
check "Ludo examples 2 and 3, piped" "OK
MOVED
MOVED
MOVED
MOVED
MOVED
MOVED_AND_CAPTURED
turn,alpha
winner,NONE
alpha,1,YARD,-1
alpha,2,YARD,-1
alpha,3,YARD,-1
alpha,4,YARD,-1
beta,1,TRACK,1
beta,2,YARD,-1
beta,3,YARD,-1
beta,4,YARD,-1
OK
INVALID_MOVE
PASSED" "$out"

# Snake & Ladder, the rules' example game.
out=$(printf '%s\n' 'SNL.CREATE s1 2' 'SNL.LADDER s1 4 98' 'SNL.SNAKE s1 99 2' \
    'SNL.ROLL s1 4' 'SNL.ROLL s1 6' 'SNL.ROLL s1 2' 'SNL.ROLL s1 5' \
    'SNL.ROLL s1 6' 'SNL.CREATE s2 2' 'SNL.LADDER s2 3 100' \
    'SNL.ROLL s2 3' 'SNL.ROLL s2 1' | cli)
check "Snake & Ladder examples" "OK
OK
OK
P1 98
P2 6
P1 WINS
GAME_OVER
GAME_OVER
OK
OK
P1 WINS
GAME_OVER" "$out"

# DandyLand, the rules' example game.
out=$(cli DANDY.PLAY 2 abab9abcaa abab | tr '\n' ' '
    cli DANDY.PLAY 1 7aaa abcde | tr '\n' ' '
    cli DANDY.PLAY 1 af1f1fa abcde | tr '\n' ' '
    cli DANDY.PLAY 2 1181a221aeeb1 abcd | tr '\n' ' '
    cli DANDY.PLAY 4 9b8b2a11 ab | tr '\n' ' '
    cli DANDY.PLAY 8 d53ab9e7b5decaacd59aeeeb abcdabcdabcd | tr '\n' ' '
    cli DANDY.PLAY 1 4 abcd | tr '\n' ' ')
check "DandyLand examples" \
    "3 1 4 3 4 1 5 0 3 1 0 1 1 1 0 1 0 1 0 " "$out"

out=$(cli LUDO.STATE nosuch)
check "an error reply" "NOGAME no such game 'nosuch'" "$(echo $out)"

out=$(cli -3 LUDO.STATE game-1 | head -1)
check "RESP3 (redis-cli -3)" "turn,red" "$out"
out=$(cli -3 HELLO 3 | tr '\n' ' ')
contains "HELLO 3 map" "server ludus version" "$out"

out=$(cli INFO | tr -d '\r')
contains "INFO has the version" "ludus_version:" "$out"
contains "INFO counts games by kind" "games_ludo:3" "$out"
contains "INFO counts turns" "turns_committed:" "$out"

contains "INFO has Redis's version" "redis_version:" "$out"
contains "INFO counts blocked clients" "blocked_clients:0" "$out"
contains "INFO's keyspace holds the games" \
    "# Keyspace
db0:keys=$(cli DBSIZE),expires=0,avg_ttl=0" "$out"

# redis-cli --stat reads used_memory, blocked_clients and the keyspace:
# its third line is keys, mem, clients, blocked, requests, connections
# (line-buffered: it runs until killed).
out=$(timeout 2 stdbuf -oL redis-cli -p "$PORT" --stat -i 0.2 | sed -n 3p)
set -- $out
check "redis-cli --stat counts the games as keys" "$(cli DBSIZE)" "${1:-}"
case ${2:-} in
[0-9]*[0-9BKMG]) ok "redis-cli --stat shows the memory used" ;;
*) not_ok "redis-cli --stat shows the memory used"; echo "# got '$out'" ;;
esac
check "redis-cli --stat: nobody blocked" "0" "${4:-}"

# The CLIENT subcommands that mean nothing here answer as Redis does to
# a client that nothing paused and that tracks nothing.
check "CLIENT UNPAUSE, GETREDIR, TRACKINGINFO as Redis answers" \
    "OK -1 flags off redirect -1 prefixes" \
    "$({ cli CLIENT UNPAUSE; cli CLIENT GETREDIR; cli CLIENT TRACKINGINFO; } |
    paste -sd' ' - | sed 's/ *$//')"
check "... and in RESP3" "flags off redirect -1 prefixes" \
    "$(redis-cli -3 -p "$PORT" CLIENT TRACKINGINFO | tr -d '\r' |
    sed 's/^[0-9]*) //; s/^[0-9]*) //' | paste -sd' ' - | tr -s ' ' |
    sed 's/ *$//')"

out=$(cli COMMAND COUNT)
case $out in
[0-9]*) [ "$out" -ge 27 ] && ok "COMMAND COUNT" || not_ok "COMMAND COUNT" ;;
*) not_ok "COMMAND COUNT"; echo "# got '$out'" ;;
esac

# redis-cli --scan (SCAN's cursor) lists every game, as GAMES does; its
# --bigkeys asks TYPE, then XLEN of each "stream".
out=$(cli --scan | sort | tr '\n' ' ')
check "redis-cli --scan lists the games" "$(cli GAMES | tr '\n' ' ')" "$out"
out=$(cli --scan --pattern 'game-*' | sort | tr '\n' ' ')
check "redis-cli --scan --pattern" "$(cli GAMES | grep '^game-' |
    tr '\n' ' ')" "$out"
out=$(cli --bigkeys 2>&1)
contains "redis-cli --bigkeys walks the games as streams" "Biggest stream" \
    "$out"

# redis-cli's interactive mode asks COMMAND (DOCS) at start and must not
# print errors; it needs a terminal, which script(1) provides.
if command -v script >/dev/null 2>&1; then
	printf 'PING\nLUDO.STATE game-1\nhelp LUDO.PLAY\n' >"$DIR/repl.in"
	out=$(TERM=dumb timeout 20 script -qfc "redis-cli -p $PORT" /dev/null \
	    <"$DIR/repl.in" 2>&1 | tr -d '\r')
	case $out in
	*"(error)"*) not_ok "redis-cli interactive mode"
	    printf '%s\n' "$out" | sed 's/^/# /' ;;
	*PONG*"turn,red"*"LUDO.PLAY id player dice token"*)
	    ok "redis-cli interactive mode" ;;
	*) not_ok "redis-cli interactive mode"
	    printf '%s\n' "$out" | sed 's/^/# /' ;;
	esac
else
	skip "redis-cli interactive mode" "no script(1)"
fi

# Listening on IPv6 too, when the host has it.
if grep -qw lo /proc/net/if_inet6 2>/dev/null &&
    grep -q '^0*1 ' /proc/net/if_inet6 2>/dev/null; then
	PID1=$PID PORT1=$PORT
	if start_daemon "$DIR/port6" "$DIR/log6" --db "$DIR/v6.db" \
	    --bind 127.0.0.1 ::1; then
		PID2=$PID
		out=$(redis-cli -h ::1 -p "$PORT" PING; \
		    redis-cli -h 127.0.0.1 -p "$PORT" PING)
		check "bind 127.0.0.1 ::1" "PONG
PONG" "$out"
		stop_daemon
		PID2=
	else
		not_ok "bind 127.0.0.1 ::1"
		sed 's/^/# /' "$DIR/log6"
	fi
	PID=$PID1 PORT=$PORT1
else
	skip "bind 127.0.0.1 ::1" "no IPv6 loopback"
fi

stop_daemon
check "SIGTERM: exit 0" "0" "$STATUS"
contains "start and stop are logged" "stopped" "$(cat "$DIR/log")"
[ ! -e "$DIR/port" ] && ok "the port file is removed" ||
    not_ok "the port file is removed"

echo "1..$N"
exit $((FAILED > 0))
