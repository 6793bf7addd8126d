#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: fio's latency_target depth search in zload: with a target
# every I/O meets, the depth doubles from 1 to iodepth each latency_window,
# one last window runs at that depth and the job ends early (JSON
# latency_depth, IO depths, runtime, as fio's own on the same command); a
# target missed at depth 1 with latency_percentile=100 fails the job with
# fio's message; the example job's values land in the JSON as fio's.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
command -v python3 >/dev/null || skip_all "python3 not installed"
cd "$CZ_TMP" || exit 1

# depth TOOL: latency_depth, depth-32 share >= 90, runtime < 2 s (of 5).
A="--name=l --filename=/dev/zero --ioengine=io_uring --rw=read --bs=4k --size=1t --iodepth=32
--runtime=5 --time_based --latency_target=1s --latency_window=100ms --output-format=json"
depth() {
	# shellcheck disable=SC2086
	"$1" $A 2>/dev/null | python3 -c "import json, sys
j = json.load(sys.stdin)['jobs'][0]
print(j['latency_depth'], j['iodepth_level']['32'] >= 90, j['job_runtime'] < 2000)"
}
expect_eq "latency_target met: depth 1..32 by doubling, last window at 32, ends early" \
	"$(depth "$Z")" "32 True True"
if command -v fio >/dev/null; then
	expect_eq "fio itself: the same depth, share and early end" "$(depth fio)" "32 True True"
else
	skip "fio not installed: no comparison"
fi

res=$("$Z" $A --iodepth=6 2>/dev/null | python3 -c "import json, sys
print(json.load(sys.stdin)['jobs'][0]['latency_depth'])")
expect_eq "iodepth=6: the doubling stops at 6 (4 -> 8 clamped)" "$res" "6"

"$Z" --name=l --filename=/dev/zero --rw=read --size=1g --iodepth=8 --latency_target=1us \
	--output=/dev/null 2>err
rc=$?
ok "latency_target=1us missed at depth 1: exit 1 (got $rc), fio's message" -- \
	sh -c "test $rc -eq 1 && grep -q 'exceeds specified max (1000 nsec)' err"

res=$("$Z" --name=l --filename=/dev/zero --rw=randread --size=64m --runtime=300ms \
	--latency_target=500000 --latency_window=5000000 --latency_percentile=99.9 \
	--output-format=json 2>/dev/null | python3 -c "import json, sys
j = json.load(sys.stdin)['jobs'][0]
print(j['latency_depth'], j['latency_target'], j['latency_percentile'], j['latency_window'])")
expect_eq "latency-profile.fio's values: fio's JSON (target in ns, window in us)" \
	"$res" "1 500000000 99.9 5000000"
one_line_error "latency_percentile=0 refused" -- "$Z" --latency_percentile=0 /dev/zero
done_testing
