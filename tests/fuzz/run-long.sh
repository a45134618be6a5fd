#!/bin/sh
# The long form of the fuzz tests (doc/testing.md, "Fuzzing"): builds the
# libFuzzer harnesses with clang, ASan and UBSan, runs each for a time or
# a number of executions and prints, per harness, the executions and the
# crashes.  The target before a release: 10 million executions per
# harness, no crash.
#
#	tests/fuzz/run-long.sh [-t seconds | -n runs] [-f workers] [-j jobs]
#	    [-b builddir] [harness ...]
#
# harness: resp, cmd, engine, http (default: all four).  -t: seconds per
# harness (default 600); -n: executions per harness instead; -f: worker
# processes per harness, libFuzzer's -fork=N (default: the number of
# cores; 0 runs the harness in one process, as libFuzzer does by
# default); -j: harnesses run at once (default 1 with workers, else 2);
# -b: the build directory (default ./build-fuzz-clang), configured with
# CC=clang --enable-fuzzing unless it already is (which needs a source
# tree not configured in place).  Each harness starts from
# tests/fuzz/corpus/NAME and tests/fuzz/regress/NAME and grows a working
# corpus in BUILDDIR/fuzz-work/NAME/corpus (kept between runs; the source
# tree is never written).  A crash is saved as
# BUILDDIR/fuzz-work/NAME/crash-*:
# copy it to tests/fuzz/regress/NAME/ under a telling name.
#
# Exit status: 0 when no harness crashed.

set -u

me=$(basename "$0")
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
seconds=600
runs=
jobs=
workers=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
builddir=build-fuzz-clang

usage() {
	echo "usage: $me [-t seconds | -n runs] [-f workers] [-j jobs]" \
	    "[-b builddir] [resp|cmd|engine|http ...]" >&2
	exit 2
}

while getopts t:n:f:j:b:h opt; do
	case $opt in
	t) seconds=$OPTARG; runs= ;;
	n) runs=$OPTARG ;;
	f) workers=$OPTARG ;;
	j) jobs=$OPTARG ;;
	b) builddir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
case $workers in
''|*[!0-9]*) echo "$me: -f wants a number of workers" >&2; usage ;;
esac
if [ -z "$jobs" ]; then
	if [ "$workers" -gt 0 ]; then jobs=1; else jobs=2; fi
fi
harnesses=${*:-resp cmd engine http}
for h in $harnesses; do
	case $h in
	resp|cmd|engine|http) ;;
	*) echo "$me: no harness '$h'" >&2; usage ;;
	esac
done

# --- build --------------------------------------------------------------
mkdir -p "$builddir" || exit 1
builddir=$(cd "$builddir" && pwd)
# configure refuses to build elsewhere from a tree configured in place.
if [ "$builddir" != "$srcdir" ] && [ -f "$srcdir/config.status" ] &&
    ! [ -f "$builddir/config.status" ]; then
	echo "$me: $srcdir is configured in place: run 'make distclean'" \
	    "there, or this from a clean clone" >&2
	exit 1
fi
cd "$builddir" || exit 1
if ! grep -q 'S\["ENABLE_FUZZING_TRUE"\]=""' config.status 2>/dev/null; then
	echo "$me: configuring $builddir (CC=${CC:-clang} --enable-fuzzing)"
	"$srcdir/configure" -q CC="${CC:-clang}" --enable-fuzzing \
	    --disable-werror || exit 1
fi
targets=
for h in $harnesses; do
	targets="$targets tests/fuzz/fuzz_$h"
done
echo "$me: building$targets"
# shellcheck disable=SC2086
make -s $targets >make.log 2>&1 || { cat make.log; exit 1; }

# --- run ----------------------------------------------------------------
# One harness: its options, then libFuzzer until the time or the runs
# are spent or it crashes.
run_one() {
	h=$1
	work=$builddir/fuzz-work/$h
	mkdir -p "$work/corpus"
	rm -f "$work/log"
	# 8192: the largest seed (cmd's many-games, 6,290 bytes) must fit
	# whole, or libFuzzer cuts it and most of its creates are lost.
	set -- -max_len=8192 -timeout=20 -print_final_stats=1 \
	    -artifact_prefix="$work/"
	if [ -n "$runs" ]; then
		set -- "$@" -runs="$runs"
	else
		set -- "$@" -max_total_time="$seconds"
	fi
	# Workers: each a process of its own fuzzing a part of the corpus
	# for a while, what it finds merged into the working corpus; the
	# first crash stops them all, as in one process.
	if [ "$workers" -gt 0 ]; then
		set -- "$@" -fork="$workers"
	fi
	if [ -f "$srcdir/tests/fuzz/$h.dict" ]; then
		set -- "$@" -dict="$srcdir/tests/fuzz/$h.dict"
	fi
	touch "$work/stamp"
	start=$(date +%s)
	"$builddir/tests/fuzz/fuzz_$h" "$@" "$work/corpus" \
	    "$srcdir/tests/fuzz/corpus/$h" "$srcdir/tests/fuzz/regress/$h" \
	    >"$work/log" 2>&1
	echo $? >"$work/status"
	echo $(($(date +%s) - start)) >"$work/seconds"
}

pids=
running=0
for h in $harnesses; do
	if [ "$running" -ge "$jobs" ]; then
		# Wait for the oldest one; good enough for four harnesses.
		set -- $pids
		wait "$1"
		shift
		pids=$*
		running=$((running - 1))
	fi
	if [ -n "$runs" ]; then
		echo "$me: fuzzing $h for $runs runs ($workers workers)"
	else
		echo "$me: fuzzing $h for $seconds s ($workers workers)"
	fi
	run_one "$h" &
	pids="$pids $!"
	running=$((running + 1))
done
wait

# --- report ---------------------------------------------------------------
status=0
printf '%-8s %14s %10s %8s %8s %7s\n' harness executions exec/s seconds \
    corpus crashes
for h in $harnesses; do
	work=$builddir/fuzz-work/$h
	secs=$(cat "$work/seconds")
	if [ "$workers" -gt 0 ]; then
		# The parent's status lines, "#EXECS: cov: ... exec/s R ...",
		# count every worker's executions; R is the last job's.
		execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$work/log" |
		    tail -n 1)
		rate=
		[ -n "$execs" ] && [ "$secs" -gt 0 ] &&
		    rate=$((execs / secs))
	else
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		    "$work/log" | tail -n 1)
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' \
		    "$work/log" | tail -n 1)
	fi
	units=$(find "$work/corpus" -type f | wc -l)
	# libFuzzer stops at the first crash (or leak, timeout, OOM) with a
	# non-zero status, after saving the input.
	crashes=0
	[ "$(cat "$work/status")" = 0 ] || crashes=1
	printf '%-8s %14s %10s %8s %8s %7s\n' "$h" "${execs:-?}" \
	    "${rate:-?}" "$secs" "$units" "$crashes"
	if [ "$crashes" -ne 0 ]; then
		status=1
		find "$work" -maxdepth 1 -type f -newer "$work/stamp" \
		    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
		    -o -name 'oom-*' \) | sed "s|^|  $h: saved |"
		echo "  $h: log in $work/log"
	fi
done
exit $status
