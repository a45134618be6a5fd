# TAP for the shell tests, sourced by them: ok NAME, not_ok NAME and
# skip NAME WHY print one result each; N counts the results, FAILED the
# failures.

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
