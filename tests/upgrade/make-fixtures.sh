#!/bin/sh
# Makes the upgrade fixtures: a database of each earlier schema version,
# written by the code of that version and dumped as SQL text, so that
# tests/daemon/test_upgrade.sh can show that today's ludusd opens,
# migrates and AUDITs it.  Not run by make check: a maintainer runs it
# when a migration is added, and commits the dumps it writes, not the old
# code.
#
#	tests/upgrade/make-fixtures.sh [VERSION...]
#
# VERSION is sqlite-vN or pg-vN (all of the table below by default).
# Each is built from the newest commit whose schema is that version (the
# parent of the commit that added the next migration; the last one is a
# named commit), in a scratch worktree under ${TMPDIR:-/tmp}, with only
# the CLI built; its embedded `ludus --db` (or `--store` on a throwaway
# PostgreSQL cluster of tests/lib/pgcluster) plays the games of
# play_games below, then sqlite3 .dump (or pg_dump) writes the fixture.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/upgrade
work=${TMPDIR:-/tmp}/ludus-fixtures.$$

# version commit: the code that wrote that schema.
fixtures() {
	cat <<'LIST'
sqlite-v1 67bb2df^
sqlite-v2 9caa14a^
sqlite-v3 5e735af^
sqlite-v4 87a78f0
sqlite-v5 d40d42e
sqlite-v6 720889c
sqlite-v7 37acb7e
pg-v1 87a78f0
pg-v2 d40d42e
pg-v3 a468a7e
LIST
}

# play_games LUDUS [--db FILE | --store URI]: games of every kind that
# each version's commands can make, some finished, some in play, Snake &
# Ladder with its jumps, one game with no moves.
play_games() {
	l=$1
	shift
	run() { "$l" "$@" >>"$work/replies"; }
	run "$@" LUDO.CREATE ludo-done red blue
	for m in "red 6 1" "red 6 1" "red 6 1"; do
		run "$@" LUDO.PLAY ludo-done $m || true
	done
	run "$@" LUDO.CREATE ludo-four a b c d
	for m in "a 6 1" "a 3 1" "b 6 2" "b 2 2" "c 5 0" "d 6 4" "d 6 4" \
	    "d 1 4"; do
		run "$@" LUDO.PLAY ludo-four $m || true
	done
	run "$@" LUDO.CREATE ludo-new red blue green
	run "$@" SNL.CREATE snl-done 2
	run "$@" SNL.LADDER snl-done 4 97
	run "$@" SNL.SNAKE snl-done 99 2
	for r in 4 3 3; do
		run "$@" SNL.ROLL snl-done $r
	done
	run "$@" SNL.CREATE snl-play 3
	# More than four players: migration 7 indexes the fifth seat on.
	run "$@" SNL.CREATE snl-six 6
	for r in 3 4 5 6 1 2 3; do
		run "$@" SNL.ROLL snl-six $r || true
	done
	run "$@" SNL.SNAKE snl-play 50 10
	for r in 6 6 6 5 4 3 2 1; do
		run "$@" SNL.ROLL snl-play $r || true
	done
	run "$@" DANDY.CREATE dandy-deck 2 abcabcghi deck=abcdefghi123
	for i in 1 2 3 4 5; do
		run "$@" DANDY.DRAW dandy-deck
	done
	run "$@" DANDY.CREATE dandy-hand 3 aabbccddeeffgghhii
	for c in a b c 1 d e; do
		run "$@" DANDY.DRAW dandy-hand $c
	done
	# Seats, bots and server dice, from schema version 2 on (refused
	# before: the line is then left out).
	run "$@" LUDO.CREATE ludo-seats a b seats=secure bots=b:expert \
	    dice=server turn-timeout=3600 || true
	run "$@" SNL.CREATE snl-bots 2 bots=P1:first,P2:first dice=server ||
	    true
}

# build COMMIT: its CLI, built once, in $dir.
build() {
	dir=$work/build-$(git -C "$top" rev-parse --short "$1")
	[ -x "$dir/src/ludus" ] && return 0
	git -C "$top" worktree add --detach "$dir" "$1" >/dev/null 2>&1
	(cd "$dir" && autoreconf -fi >/dev/null 2>&1 &&
	    ./configure --disable-werror >/dev/null 2>&1 &&
	    make -j2 src/ludus >/dev/null 2>&1)
}

one() {
	name=$1
	commit=$2
	build "$commit"
	rev=$(git -C "$dir" rev-parse --short HEAD)
	case $name in
	sqlite-*)
		rm -f "$work/$name.db"
		play_games "$dir/src/ludus" --db "$work/$name.db"
		{
			echo "-- ludus upgrade fixture $name: written by commit $rev's"
			echo "-- ludus --db (tests/upgrade/make-fixtures.sh), dumped by sqlite3."
			sqlite3 "$work/$name.db" .dump
			# .dump leaves the schema version out.
			echo "PRAGMA user_version = $(sqlite3 "$work/$name.db" \
			    'PRAGMA user_version');"
		} >"$out/$name.sql"
		;;
	pg-*)
		"$top/tests/lib/pgcluster" start "$work/pg" >/dev/null
		uri=$("$top/tests/lib/pgcluster" uri "$work/pg")
		play_games "$dir/src/ludus" --store "$uri"
		{
			echo "-- ludus upgrade fixture $name: written by commit $rev's"
			echo "-- ludus --store (tests/upgrade/make-fixtures.sh), dumped by pg_dump."
			pg_dump --no-owner --no-privileges --inserts "$uri" |
			    sed '/^-- Dumped \(from\|by\)/d'
		} >"$out/$name.sql"
		"$top/tests/lib/pgcluster" stop "$work/pg" >/dev/null
		;;
	esac
	echo "$name: $out/$name.sql (commit $rev)"
}

mkdir -p "$work"
trap 'for d in "$work"/build-*; do
	[ -d "$d" ] && git -C "$top" worktree remove --force "$d"
done; rm -rf "$work"; git -C "$top" worktree prune' EXIT
want=${*:-$(fixtures | cut -d' ' -f1)}
for v in $want; do
	c=$(fixtures | sed -n "s/^$v //p")
	[ -n "$c" ] || { echo "unknown fixture $v" >&2; exit 2; }
	one "$v" "$c"
done
