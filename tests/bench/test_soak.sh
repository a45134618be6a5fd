#!/bin/sh
# bench/soak --ci under make check (TAP): two minutes of games created,
# played, finished, archived and deleted by finished-retention, and a
# failure when the daemon's RSS or its database file grows without bound
# (bench/soak's trend check: medians of the last and the middle third of
# the samples).  No timing is asserted.  Skipped without redis-cli or
# redis-py, unless CI is set (bootstrap installs them).

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/lib/tap.sh"

"$top_srcdir/bench/soak" --ci --builddir "$top_builddir" >soak.out 2>&1
rc=$?
if [ $rc -eq 2 ]; then
	skip_all "$(tail -n 1 soak.out)"
fi
echo "1..1"
sed 's/^/# /' soak.out
if [ $rc -eq 0 ]; then
	ok "two minutes of retention: RSS and the file stay flat"
else
	not_ok "two minutes of retention: RSS and the file stay flat"
fi
rm -f soak.out
exit $((FAILED > 0))
