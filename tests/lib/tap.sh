# TAP for the shell tests, sourced by them: ok NAME, not_ok NAME,
# skip NAME WHY, check NAME EXPECTED ACTUAL, contains NAME NEEDLE
# HAYSTACK and lacks NAME NEEDLE HAYSTACK print one result each; N counts
# the results, FAILED the failures.

N=0
FAILED=0
ok() {
	N=$((N + 1))
	echo "ok $N - $1"
}
not_ok() {
	N=$((N + 1))
	FAILED=$((FAILED + 1))
	echo "not ok $N - $1"
}
skip() {
	N=$((N + 1))
	echo "ok $N - $1 # SKIP $2"
}
# check NAME EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# expected:"; printf '%s\n' "$2" | sed 's/^/#   /'
		echo "# got:"; printf '%s\n' "$3" | sed 's/^/#   /'
	fi
}
# contains NAME NEEDLE HAYSTACK
contains() {
	case $3 in
	*"$2"*) ok "$1" ;;
	*) not_ok "$1"; echo "# '$2' not in:"
	   printf '%s\n' "$3" | sed 's/^/#   /' ;;
	esac
}
# lacks NAME NEEDLE HAYSTACK
lacks() {
	case $3 in
	*"$2"*) not_ok "$1"; echo "# '$2' found" ;;
	*) ok "$1" ;;
	esac
}
# skip_all WHY: what the test needs is not here.  With CI set (where
# bootstrap has installed it all) that is a failure; else the whole test
# is skipped, as TAP says it: a plan of none, and exit 0 (the TAP driver
# counts any other status as an error).
skip_all() {
	if [ -n "${CI:-}" ]; then
		setup_failed "$1 (CI is set: bootstrap installs it)"
	fi
	echo "1..0 # SKIP $1"
	exit 0
}
# setup_failed WHAT [FILE [LINES]]: what the tests need did not come up:
# a plan of one test, that test failed (named WHAT), FILE (a log, its
# last LINES lines when given) as comments, and exit 1.
setup_failed() {
	echo "1..1"
	echo "not ok 1 - $1"
	if [ -n "${3:-}" ]; then
		tail -n "$3" "$2" | sed 's/^/# /'
	elif [ -n "${2:-}" ]; then
		sed 's/^/# /' "$2"
	fi
	exit 1
}
