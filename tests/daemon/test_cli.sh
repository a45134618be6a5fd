#!/bin/sh
# The ludus CLI end to end (TAP): the Snake & Ladder script format byte for byte,
# the embedded mode on stdin scripts and on the command line, persistence
# across runs, output formats and exit statuses.

LUDUS=${top_builddir:-.}/src/ludus
if [ ! -x "$LUDUS" ]; then
	echo "1..0 # SKIP $LUDUS not built"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ludus-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/store.sh"

# check_file NAME: compares $tmp/out with $tmp/want byte for byte.
check_file() {
	if cmp -s "$tmp/out" "$tmp/want"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$tmp/want" "$tmp/out" | sed 's/^/# /'
	fi
}

# status NAME WANT GOT
status() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1 (exit $3, want $2)"
	fi
}

echo "1..21"

# -------------------------------- Snake & Ladder script, example 1
printf '7\n2\nadd_ladder 4 98\nadd_snake 99 2\nroll 4\nroll 6\nroll 2\nroll 5\nroll 6\n' \
    > "$tmp/in"
printf 'P1 98\nP2 6\nP1 WINS\nGAME_OVER\nGAME_OVER\n' > "$tmp/want"
"$LUDUS" --snl-script < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
check_file "snl-script seed example 1"
status "snl-script example 1 exits 0" 0 $?

# -------------------------------- Snake & Ladder script, example 2
printf '3\n2\nadd_ladder 3 100\nroll 3\nroll 1\n' > "$tmp/in"
printf 'P1 WINS\nGAME_OVER\n' > "$tmp/want"
"$LUDUS" --snl-script < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
check_file "snl-script seed example 2"

# Malformed scripts: a message on stderr and exit 1.
printf '2\n2\nroll 9\nroll 1\n' | "$LUDUS" --snl-script > "$tmp/out" \
    2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'BADARG' "$tmp/err"; then
	ok "snl-script refuses a roll of 9"
else
	not_ok "snl-script refuses a roll of 9 (exit $rc)"
fi
printf '3\n2\nroll 1\n' | "$LUDUS" --snl-script > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -s "$tmp/err" ] && [ "$(cat "$tmp/out")" = "P1 1" ]
then
	ok "snl-script reports missing commands"
else
	not_ok "snl-script reports missing commands (exit $rc)"
fi
printf 'seven\n' | "$LUDUS" --snl-script > "$tmp/out" 2> "$tmp/err"
status "snl-script refuses a bad Q" 1 $?
printf '1\n2\nfly 3\n' | "$LUDUS" --snl-script > "$tmp/out" 2> "$tmp/err"
status "snl-script refuses an unknown command" 1 $?

# ------------------------- --db :memory:, the first Ludo example
cat > "$tmp/in" <<'EOF'
LUDO.CREATE game-1 red blue
LUDO.PLAY game-1 red 6 1
ludo.play game-1 red 3 1

LUDO.PLAY game-1 blue 4 0
LUDO.STATE game-1
EOF
cat > "$tmp/want" <<'EOF'
OK
MOVED
MOVED
PASSED
turn,red
winner,NONE
red,1,TRACK,3
red,2,YARD,-1
red,3,YARD,-1
red,4,YARD,-1
blue,1,YARD,-1
blue,2,YARD,-1
blue,3,YARD,-1
blue,4,YARD,-1
EOF
store_for :memory:
"$LUDUS" "$STORE_OPT" "$STORE_ARG" < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
check_file "embedded stdin plays Ludo example 1"
status "embedded stdin exits 0" 0 $?

# Snake & Ladder and DandyLand through the commands, errors as text.
cat > "$tmp/in" <<'EOF'
SNL.CREATE s 2
SNL.LADDER s 4 98
SNL.SNAKE s 99 2
SNL.ROLL s 4
SNL.ROLL s 6
SNL.ROLL s 2
SNL.ROLL s 5
DANDY.PLAY 2 abab9abcaa abab
DANDY.PLAY 3 "" abcd
GAME.INFO nope
NOSUCH
EOF
cat > "$tmp/want" <<'EOF'
OK
OK
OK
P1 98
P2 6
P1 WINS
GAME_OVER
3
1
0
0
0
NOGAME no such game 'nope'
ERR unknown command 'NOSUCH'
EOF
store_for :memory:
"$LUDUS" "$STORE_OPT" "$STORE_ARG" < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
check_file "embedded stdin: Snake & Ladder, DandyLand, errors"

# --------------------------------------- one-shot calls, persistence
store_for "$tmp/games.db"
"$LUDUS" "$STORE_OPT" "$STORE_ARG" LUDO.CREATE g1 red blue > "$tmp/out" \
    2> "$tmp/err"
rc=$?
printf 'OK\n' > "$tmp/want"
check_file "one-shot LUDO.CREATE"
status "one-shot success exits 0" 0 $rc
"$LUDUS" "$STORE_OPT" "$STORE_ARG" LUDO.PLAY g1 red 6 1 > "$tmp/out" \
    2> "$tmp/err"
printf 'MOVED\n' > "$tmp/want"
check_file "one-shot LUDO.PLAY on the same file"
"$LUDUS" "$STORE_OPT=$STORE_ARG" HISTORY g1 > "$tmp/out" 2> "$tmp/err"
printf '1,red,6:1,MOVED\n' > "$tmp/want"
check_file "a later run sees the stored move"
"$LUDUS" "$STORE_OPT" "$STORE_ARG" LUDO.CREATE g1 a b > "$tmp/out" \
    2> "$tmp/err"
rc=$?
printf "EXISTS game 'g1' already exists\n" > "$tmp/want"
check_file "an error reply prints its text"
status "an error reply exits 1" 1 $rc

# ------------------------------------------------- formats and flags
"$LUDUS" --db :memory: --no-raw DANDY.PLAY 2 abab9abcaa abab \
    > "$tmp/out" 2> "$tmp/err"
printf '1) (integer) 3\n2) (integer) 1\n' > "$tmp/want"
check_file "--no-raw prints redis-cli terminal style"

"$LUDUS" --bogus > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q '^usage:' "$tmp/err"; then
	ok "a bad option prints usage and exits 2"
else
	not_ok "a bad option prints usage and exits 2 (exit $rc)"
fi
# Not the whole help: the error with a hint, and the synopsis.
if [ "$(head -n 1 "$tmp/err")" = \
    "ludus: unknown option '--bogus' (ludus --help lists them)" ] &&
    [ "$(wc -l < "$tmp/err")" -eq 2 ]; then
	ok "a bad option prints one line and a hint, not the help"
else
	not_ok "a bad option prints one line and a hint, not the help"
	sed 's/^/# /' "$tmp/err" | head -n 5
fi

"$LUDUS" --help > "$tmp/out" 2> "$tmp/err"
rc=$?
missing=
for c in LUDO.CREATE LUDO.PLAY LUDO.STATE LUDO.LEGAL SNL.CREATE SNL.SNAKE \
    SNL.LADDER SNL.ROLL SNL.STATE DANDY.CREATE DANDY.DRAW DANDY.SCORES \
    DANDY.STATE DANDY.PLAY GAMES GAME.INFO HISTORY REPLAY AUDIT; do
	grep -q "^  $c" "$tmp/out" || missing="$missing $c"
done
if [ $rc -eq 0 ] && [ -z "$missing" ]; then
	ok "--help lists every command"
else
	not_ok "--help lists every command (exit $rc, missing:$missing)"
fi

"$LUDUS" --version > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^ludus [0-9]' "$tmp/out"; then
	ok "--version"
else
	not_ok "--version (exit $rc)"
fi

[ $FAILED -eq 0 ]
