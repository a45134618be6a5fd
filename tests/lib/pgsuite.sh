# Runs one TAP suite for tests/pg/*.pg, sourced by them: cmocka writes a
# skipped test as "not ok N # SKIP", which the TAP driver counts as a
# failure; it is written "ok N # SKIP" here.  The exit status is the
# suite's.
run_tap() {
	tap_out=$(mktemp "${TMPDIR:-/tmp}/ludus-tap.XXXXXX") || exit 99
	"$@" >"$tap_out"
	tap_rc=$?
	sed 's/^not ok \([0-9][0-9]*\) # SKIP/ok \1 # SKIP/' "$tap_out"
	rm -f "$tap_out"
	return $tap_rc
}
