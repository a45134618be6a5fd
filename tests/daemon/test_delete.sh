#!/bin/sh
# GAME.DELETE against a real ludusd (TAP): with requirepass, refused
# before AUTH; a finished game deleted and gone at once from GAMES, SCAN,
# DBSIZE, EXISTS, HISTORY, the HTTP API's list and its page; a game in
# play refused without FORCE (nothing changed), deleted with it, its bot
# timer cancelled (the daemon plays no move of a game that is gone); a
# game that does not exist: NOGAME; the id usable again.  On PostgreSQL
# too (tests/pg/test_delete_sh.pg).

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
. "$(dirname "$0")/../lib/store.sh"
need_web curl redis-cli
test_setup ludus-delete
echo "1..18"

store_for "$DIR/g.db"
start_http_daemon --requirepass s3cret --bot-delay 50 "$STORE_OPT" \
    "$STORE_ARG" || setup_failed "ludusd starts" "$DIR/log"
A() { redis-cli -p "$PORT" --no-auth-warning -a s3cret "$@"; }

check "refused before AUTH" "NOAUTH Authentication required." \
    "$(cli GAME.DELETE x)"
A SNL.CREATE done 1 >/dev/null
A SNL.LADDER done 3 100 >/dev/null
A SNL.ROLL done 3 >/dev/null
A LUDO.CREATE play red blue >/dev/null
A LUDO.PLAY play red 6 1 >/dev/null
A LUDO.CREATE bots x y bots=x:first,y:first dice=server >/dev/null
check "a finished game deleted" OK "$(A GAME.DELETE done)"
check "... gone from GAMES" "bots play" "$(A GAMES | paste -sd' ' -)"
check "... from SCAN" "bots play" \
    "$(A SCAN 0 COUNT 100 | sed 1d | sort | paste -sd' ' -)"
check "... DBSIZE, EXISTS" "2 0" "$(A DBSIZE) $(A EXISTS done)"
check "... HISTORY" "NOGAME no such game 'done'" "$(A HISTORY done)"
check "... the HTTP list" 'bots play' \
    "$(curl -s "$BASE/api/games" | tr -d ' \n' |
    grep -o '"id":"[a-z]*"' | cut -d'"' -f4 | paste -sd' ' -)"
check "... and its page" 404 \
    "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/games/done")"
check "a game in play is refused without FORCE" \
    "STATE game 'play' is in play: GAME.DELETE play FORCE deletes it all the same" \
    "$(A GAME.DELETE play)"
check "... and nothing changed" "red,6:1,MOVED" \
    "$(A HISTORY play | cut -d, -f2-)"
check "with FORCE it goes" "OK NOGAME" \
    "$(A GAME.DELETE play FORCE) $(A GAME.INFO play | cut -d' ' -f1)"
check "a game of bots deleted in play" OK "$(A GAME.DELETE bots FORCE)"
sleep 0.3
check "... its timer cancelled: no move of it" "" \
    "$(grep -i 'autoplay bots' "$DIR/log")"
check "a game that does not exist: NOGAME" "NOGAME no such game 'never'" \
    "$(A GAME.DELETE never)"
check "the id is free again" "OK 0" \
    "$(A SNL.CREATE done 2) $(A XLEN done)"
check "AUDIT clean" "" "$(A AUDIT)"
case $STORE_OPT in
--store) check "BACKUP on PostgreSQL: its own tools" \
	"ERR BACKUP needs a SQLite store: back PostgreSQL up with pg_dump or a base backup (doc/scaling.md)" \
	"$(A BACKUP "$DIR/x.db")" ;;
*) check "BACKUP needs the password too" "NOAUTH Authentication required." \
	"$(cli BACKUP "$DIR/x.db")" ;;
esac
stop_daemon
check "ludusd exits 0" 0 "$STATUS"

exit $((FAILED > 0))
