#!/bin/sh
# ludus backup (TAP): an online backup of the SQLite file of a running
# ludusd while clients play on it.  The copy is a store that opens and
# AUDITs clean, holds every move acknowledged before the backup began
# (and no move that was never acknowledged: each game's history is a
# prefix of the source's), and the daemon's clients are not stopped.  A
# DEST already there, a PostgreSQL store, a missing file: refused,
# nothing written.  The daemon's own BACKUP (a thread, as Redis's
# BGSAVE) makes the same copy, INFO says how it went, and refuses a file
# there.

top_builddir=${top_builddir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
need_cli redis-cli
test_setup ludus-backup LOAD
echo "1..16"

A=$DIR/a.db
start_daemon "$DIR/port" "$DIR/log" --db "$A" || setup_failed "ludusd starts" "$DIR/log"
i=0
while [ $i -lt 40 ]; do
	cli SNL.CREATE "g$i" 2 >/dev/null
	i=$((i + 1))
done
# Moves acknowledged before the backup: two rolls of every game.
for r in 1 2; do
	i=0
	while [ $i -lt 40 ]; do
		cli SNL.ROLL "g$i" 1 >/dev/null
		i=$((i + 1))
	done
done
# A load that goes on during the backup, its replies kept.
(
	k=0
	while [ $k -lt 2000 ] && [ ! -e "$DIR/stop" ]; do
		echo "SNL.ROLL g$((k % 40)) 1"
		k=$((k + 1))
	done | redis-cli -p "$PORT" >"$DIR/load.out"
) &
LOAD=$!
sleep 0.2
out=$("$LUDUS" --db "$A" backup "$DIR/b.db" 2>"$DIR/err")
rc=$?
touch "$DIR/stop"
wait "$LOAD"
LOAD=
check "a backup of a file ludusd is playing on" 0 "$rc"
contains "... says what it did" "backed up 40 games, " "$out"
contains "... and that AUDIT of the copy found nothing" \
    "AUDIT of the copy: no differences" "$out"
check "the load went on meanwhile" 0 \
    "$(grep -c -v '^P[12] ' "$DIR/load.out")"
B() { "$LUDUS" --db "$DIR/b.db" "$@"; }
check "the copy opens and AUDITs clean" "" "$(B AUDIT)"
bad=
i=0
while [ $i -lt 40 ]; do
	n=$(B XLEN "g$i")
	a=$(cli HISTORY "g$i" 1 "$n" | paste -sd' ' -)
	b=$(B HISTORY "g$i" 1 "$n" | paste -sd' ' -)
	if [ "$n" -lt 2 ] || [ "$a" != "$b" ]; then bad="$bad g$i"; fi
	i=$((i + 1))
done
check "every acknowledged move before it, and a prefix of each history" \
    "" "$bad"

cp "$DIR/b.db" "$DIR/b.copy"
out=$("$LUDUS" --db "$A" backup "$DIR/b.db" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "exists: not overwritten" &&
    cmp -s "$DIR/b.db" "$DIR/b.copy"
then ok "a DEST there is refused, untouched"
else not_ok "a DEST there is refused, untouched (exit $rc)"; fi
out=$("$LUDUS" --store postgresql://nobody@127.0.0.1/x backup "$DIR/p.db" 2>&1)
contains "a PostgreSQL store: its own tools" "not a SQLite file" "$out"
out=$("$LUDUS" --db "$DIR/none.db" backup "$DIR/n.db" 2>&1)
check "a missing file is refused, nothing made" "1 no" \
    "$? $([ -e "$DIR/n.db" ] || [ -e "$DIR/none.db" ] && echo yes || echo no)"

# ----------------------------------------------- the daemon's BACKUP
check "BACKUP answers at once" "Background backup started" \
    "$(cli BACKUP "$DIR/d.db")"
k=0
while [ $k -lt 100 ] && [ "$(cli INFO persistence | tr -d '\r' |
    sed -n 's/^backup_in_progress://p')" != 0 ]; do
	sleep 0.1
	k=$((k + 1))
done
check "... and INFO says it went well" "backup_last_status:ok" \
    "$(cli INFO persistence | tr -d '\r' | grep '^backup_last_status:')"
check "... the copy AUDITs clean" "" "$("$LUDUS" --db "$DIR/d.db" AUDIT)"
check "... with every game" 40 "$("$LUDUS" --db "$DIR/d.db" DBSIZE)"
check "BACKUP to a file there is refused" \
    "ERR $DIR/d.db exists: not overwritten" "$(cli BACKUP "$DIR/d.db")"
check "... and to no directory" "ERR $DIR/no: no such directory" \
    "$(cli BACKUP "$DIR/no/d.db")"
stop_daemon
check "ludusd exits 0" 0 "$STATUS"

exit $((FAILED > 0))
