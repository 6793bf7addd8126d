#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: In-device figures: the daemon's counters are exact deltas over a run (N reads
# of S bytes are N x S bytes cleared, as pread_z100k --device-share and zeroctl
# report them), and zab turns them into "in-device" result classes for device
# variants: one sample per measured run, none for variants without a device.
# Needs root (FUSE mounts), $CUSEZERO, $PREAD_Z100K, $ZEROCTL.
# Needs: root fuse ioctl
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -n "$PREAD_Z100K" ] && [ -x "$PREAD_Z100K" ] || skip_all "pread_z100k not built"
[ -n "$ZEROCTL" ] && [ -x "$ZEROCTL" ] || skip_all "zeroctl not built"
CZ_TMP=$(mktemp -d /tmp/zab-indev.XXXXXX) || exit 1
mkdir "$CZ_TMP/mnt"
cleanup() {
	[ -s "$CZ_TMP/pid" ] && kill "$(cat "$CZ_TMP/pid")" 2>/dev/null
	sleep 0.3
	grep -q " $CZ_TMP/mnt " /proc/self/mounts && umount -l "$CZ_TMP/mnt"
	rm -rf "$CZ_TMP"
}
trap cleanup EXIT
. "$top_srcdir/tests/zab/samelib.sh"
TMPDIR=$CZ_TMP; export TMPDIR	# zab's mount points: this test's own
"$CUSEZERO" --fuse "$CZ_TMP/mnt" --pidfile "$CZ_TMP/pid" || { echo "Bail out! cusezero did not start"; exit 1; }
Z=$CZ_TMP/mnt/zero

# exact deltas: N reads of S bytes -> N x S bytes cleared; N requests while a read fits one
# request (above ~1 MiB the kernel splits a read: how often depends on the buffer's alignment)
for case in "1 1 1" "1000 102400 1000" "7 200000 7" "5 1048576 +" "3 1572864 +"; do
	set -- $case
	n=$1 s=$2 req=$3
	"$PREAD_Z100K" -n "$n" -s "$s" --device-share --format simple "$Z" >/dev/null 2>"$CZ_TMP/share"
	got=$(sed -n 's/^pread_z100k: cusezero device: \([0-9]*\) requests, \([0-9]*\) bytes; routine .* GB\/s.*/\1 \2/p' "$CZ_TMP/share")
	if [ "$req" = + ]; then
		ok "pread_z100k -n $n -s $s --device-share: $((n * s)) bytes in >= $n requests ($got)" -- \
			sh -c "[ '${got#* }' = $((n * s)) ] && [ '${got% *}' -ge $n ]"
	else
		ok "pread_z100k -n $n -s $s --device-share: $req requests, $((n * s)) bytes" -- [ "$got" = "$req $((n * s))" ]
	fi
done
ok "--device-share: the routine's share of the daemon's busy time" -- \
	grep -q "routine [0-9.]*% of the daemon's busy time" "$CZ_TMP/share"
"$PREAD_Z100K" -n 10 --device-share --format simple /dev/zero >/dev/null 2>"$CZ_TMP/share"
ok "--device-share on /dev/zero: off (nothing printed)" -- [ ! -s "$CZ_TMP/share" ]

"$ZEROCTL" "$Z" --reset
"$PREAD_Z100K" -n 37 -s 4000 --format simple "$Z" >/dev/null
"$ZEROCTL" "$Z" --stats >"$CZ_TMP/stats"
ok "zeroctl --stats after reset + 37 x 4000 B: requests 37, bytes 148000" -- \
	sh -c "grep -q '^requests *37$' '$CZ_TMP/stats' && grep -q '^bytes *148000$' '$CZ_TMP/stats'"
ok "zeroctl --stats: routine GB/s, busy time, routine share" -- \
	sh -c "grep -Eq '^routine_gbps +[0-9]+\.[0-9]{3}$' '$CZ_TMP/stats' && grep -Eq '^busy_ns +[1-9][0-9]*$' '$CZ_TMP/stats' && grep -Eq '^routine_share +[0-9.]+%$' '$CZ_TMP/stats'"
"$ZEROCTL" "$Z" --stats --json >"$CZ_TMP/stats.json"
ok "zeroctl --stats --json: busy_ns and routine_share" -- \
	sh -c "grep -q '\"busy_ns\":[1-9]' '$CZ_TMP/stats.json' && grep -q '\"routine_share\":' '$CZ_TMP/stats.json'"
ok "zeroctl --stats --json: per-request quantiles and the preempted share" -- \
	sh -c "grep -Eq '\"request_p50_ns_4k\":[0-9.]+,\"request_p90_ns_4k\":[0-9.]+,\"request_p99_ns_4k\":[0-9.]+,\"preempted_share\":[0-9.]+' '$CZ_TMP/stats.json'"
# the histogram holds one entry per request: its quantiles order, p50 <= p90 <= p99
ok "request quantiles are ordered" -- \
	sh -c "sed 's/.*request_p50_ns_4k\":\([0-9.]*\),\"request_p90_ns_4k\":\([0-9.]*\),\"request_p99_ns_4k\":\([0-9.]*\).*/\1 \2 \3/' '$CZ_TMP/stats.json' | awk '{ exit !(\$1 > 0 && \$1 <= \$2 && \$2 <= \$3) }'"
"$ZEROCTL" "$Z" --reset
"$ZEROCTL" "$Z" --stats >"$CZ_TMP/stats"
ok "after reset: busy_ns restarts (0 requests: routine share '-')" -- grep -q '^routine_share *-$' "$CZ_TMP/stats"

# zab: in-device classes for an all-device experiment, one sample per measured run
"$ZAB" run -b "pread=$PREAD_Z100K --format simple -n 300 {dev}" --unit bytes/sec \
	-v 'fast:routine=memset' -v 'slow:routine=c_store_loop' -S 2 -W 1 -R 2 --seed 1 \
	--cusezero "$CUSEZERO" --style grid --export-zab "$CZ_TMP/dev.json" --export-csv "$CZ_TMP/dev.csv" \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
ok "all-device experiment: exit 0" -- [ $rc -eq 0 ]
ok "rows: pread, pread in-device, pread in-device per chunk" -- \
	sh -c "grep -q '| pread (bytes/sec) ' '$CZ_TMP/out' && grep -q '| pread in-device (bytes/sec) ' '$CZ_TMP/out' && grep -q '| pread in-device per chunk (ns) ' '$CZ_TMP/out'"
ok "each in-device cell has S x R = 4 samples, none FAILED" -- \
	sh -c "[ \$(grep -c ',pread in-device[^,]*,.*,[a-z]*,[a-z]*,4,' '$CZ_TMP/dev.csv') -eq 4 ] && ! grep -q FAILED '$CZ_TMP/out'"
ok "JSON: each in-device sample with its run's preempted share" -- \
	sh -c "[ \$(grep -c '\"sample_preempted\"' '$CZ_TMP/dev.json') -eq 4 ]"
store_same "$CZ_TMP/dev.json" "per-sample preempted shares"
ok "footer: the preempted share per variant" -- \
	grep -q 'In device: the median request of each run; requests that looked preempted' "$CZ_TMP/out"
ok "JSON names each class's source" -- \
	sh -c "grep -q '\"source\": \"device: bytes per second of routine time\"' '$CZ_TMP/dev.json' && grep -q '\"source\": \"device: routine ns per chunk\"' '$CZ_TMP/dev.json'"

# placement = random in the device: per run the offset drawn ($ZAB_OFFSET), the one the daemon
# runs at during the run (zeroctl), and the one recorded (read back from its stats) are one
"$ZAB" run -b "pread=sh -c 'echo \$ZAB_VARIANT \$ZAB_OFFSET \$($ZEROCTL {dev} --stats | sed -n \"s/^align *\\([0-9]*\\) (loop)\$/\\1/p\") >>$CZ_TMP/placed; $PREAD_Z100K --format simple -n 50 {dev}'" \
	--unit bytes/sec -v 'a:routine=clear_user_arm64_fixed,placement=random:0..60:4' \
	-v 'b:routine=clear_user_arm64_quirk,placement=random:0..60:4' -S 2 -W 1 -R 3 --seed 5 \
	--cusezero "$CUSEZERO" --style grid --export-zab "$CZ_TMP/placed.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "placement = random in the device: exit 0" -- [ $? -eq 0 ]
ok "every run: the daemon ran at the offset drawn" -- \
	sh -c "[ \$(wc -l <'$CZ_TMP/placed') -eq 16 ] && awk 'NF != 3 || \$2 != \$3 { bad = 1 } END { exit bad }' '$CZ_TMP/placed'"
# the log has warm-ups too: the recorded offsets are the measured runs' (3 of every 4 per session)
for v in a b; do
	drawn=$(awk -v v=$v '$1 == v { n++; if (n % 4 != 1) printf "%s ", $2 }' "$CZ_TMP/placed")
	# the first cell's "sample_offsets", on one line or one number a line
	rec=$(awk -v v="$v" '/"variant": "/ { in_v = index($0, "\"variant\": \"" v "\"") > 0 }
		in_v && /"sample_offsets"/ { on = 1 }
		on { s = $0; sub(/.*"sample_offsets": */, "", s); gsub(/[][,]/, " ", s)
		     n = split(s, f, " "); for (i = 1; i <= n; i++) printf "%s ", f[i]
		     if ($0 ~ /]/) exit }' "$CZ_TMP/placed.json")
	ok "variant $v: offsets recorded from the daemon's stats = drawn ($rec)" -- [ "$drawn" = "$rec" ]
done
ok "in-device classes carry the offsets too" -- [ "$(grep -c '"sample_offsets"' "$CZ_TMP/placed.json")" -eq 6 ]

# a variant without a device: no in-device classes unless asked; asked, its cells stay empty
"$ZAB" run -b "pread=$PREAD_Z100K --format simple -n 100 {dev}" -v 'kernel' -v 'dev:routine=c_store_loop' \
	-R 2 --seed 1 --cusezero "$CUSEZERO" --style grid >"$CZ_TMP/mixed" 2>/dev/null
ok "mixed experiment: no in-device classes by default" -- sh -c "! grep -q 'in-device' '$CZ_TMP/mixed'"
"$ZAB" run -b "pread=$PREAD_Z100K --format simple -n 100 {dev}" -v 'kernel' -v 'dev:routine=c_store_loop' \
	-R 2 --seed 1 --cusezero "$CUSEZERO" --in-device yes --style grid >"$CZ_TMP/mixed" 2>/dev/null
ok "--in-device yes: the kernel's cell is '-', the device's measured" -- \
	grep -Eq '^\| +\| pread in-device \(bytes/sec\) +\| +- \| +n/a \|$' "$CZ_TMP/mixed"
"$ZAB" run -b "pread=$PREAD_Z100K --format simple -n 100 {dev}" -v 'a:routine=c_store_loop' \
	-v 'b:routine=c_store_loop' -R 2 --seed 1 --cusezero "$CUSEZERO" --in-device no >"$CZ_TMP/off" 2>/dev/null
ok "--in-device no: none" -- sh -c "! grep -q 'in-device' '$CZ_TMP/off'"
done_testing
