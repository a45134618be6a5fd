#!/bin/sh
# The documents say what the programs do (TAP): ludusd(8) lists every
# option that `ludusd --help` does and no other, the README names every
# Debian package that bootstrap installs, and the COMMAND COUNT of
# doc/protocol.md is the one a real ludusd answers, and it has a section
# for every command the server has.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/daemon.sh"
need_cli
test_setup ludus-docs

# same NAME WHAT-A WHAT-B A B: A and B, lists of words, hold the same
# words; the difference is printed both ways.
same() {
	printf '%s\n' $4 | sort -u >"$DIR/a"
	printf '%s\n' $5 | sort -u >"$DIR/b"
	if cmp -s "$DIR/a" "$DIR/b"; then
		ok "$1"
	else
		not_ok "$1"
		comm -23 "$DIR/a" "$DIR/b" | sed "s/^/# only in $2: /"
		comm -13 "$DIR/a" "$DIR/b" | sed "s/^/# only in $3: /"
	fi
}

# ------------------------------------------------ ludusd(8) and --help
# --key is the synopsis's placeholder, not an option.
help_opts=$("$LUDUSD" --help | grep -o -- '--[a-z][a-z-]*' | grep -vx -- --key)
# The tags of the OPTIONS section: the line after each .TP.
man_opts=$(awk '/^\.SH /{ in_opts = ($2 == "OPTIONS") } in_opts && tag { print }
    { tag = /^\.TP/ }' "$top_srcdir/doc/ludusd.8" | sed 's/\\-/-/g' |
    grep -o -- '--[a-z][a-z-]*')
same "ludusd(8) lists the options of ludusd --help" "--help" "ludusd.8" \
    "$help_opts" "$man_opts"

# ----------------------------------------------- README and bootstrap
# Every word of bootstrap's package lists (NAME_PACKAGES="...").
pkgs=$(sed -n '/^[A-Z_]*PACKAGES="/,/"/p' "$top_srcdir/bootstrap" |
    sed 's/^[A-Z_]*PACKAGES="//; s/"//g')
missing=
for p in $pkgs; do
	grep -q "\`$p\`" "$top_srcdir/README.md" || missing="$missing $p"
done
if [ -n "$pkgs" ] && [ -z "$missing" ]; then
	ok "the README names every package bootstrap installs"
else
	not_ok "the README names every package bootstrap installs"
	echo "# not in README.md:${missing:- (no package list in bootstrap)}"
fi

# ------------------------------- protocol.md's COMMAND COUNT and names
documented=$(sed -n '/> COMMAND COUNT$/{n;s/.*(integer) \([0-9][0-9]*\).*/\1/p;}' \
    "$top_srcdir/doc/protocol.md")
if start_daemon "$DIR/port" "$DIR/log" --db "$DIR/docs.db"; then
	answered=$("$LUDUS" -p "$PORT" COMMAND COUNT)
	check "protocol.md's COMMAND COUNT is the server's" "$answered" \
	    "$documented"
	# Every command of the table has a heading that names it (as a
	# word: INFO is not GAME.INFO, WATCH not UNWATCH).
	names=$("$LUDUS" -p "$PORT" COMMAND LIST | tr a-z A-Z)
	missing=
	for n in $names; do
		grep -Eq "^#+ (.*[^A-Z.])?$(printf '%s' "$n" |
		    sed 's/\./\\./g')([^A-Z.]|\$)" \
		    "$top_srcdir/doc/protocol.md" || missing="$missing $n"
	done
	if [ -n "$names" ] && [ -z "$missing" ]; then
		ok "protocol.md has a section for every command"
	else
		not_ok "protocol.md has a section for every command"
		echo "# no heading names:${missing:- (COMMAND LIST said nothing)}"
	fi
	stop_daemon
else
	not_ok "protocol.md's COMMAND COUNT is the server's"
	not_ok "protocol.md has a section for every command"
	sed 's/^/# /' "$DIR/log"
fi

# ----------------------------------------- internals.md's one circle
# The RESP side of the daemon (src/net/) reaches HTTP (src/http/) only
# through struct server's hooks: no file of it but main's includes a
# header of src/http/ (the program links both, so the linker cannot say).
inc=$(grep -l '#include "http/' "$top_srcdir"/src/net/*.[ch] |
    sed 's|.*/src/|src/|')
check "of src/net/, only ludusd.c includes src/http/" "src/net/ludusd.c" \
    "$inc"

echo "1..$N"
[ "$FAILED" -eq 0 ]
