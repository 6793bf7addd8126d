#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench align --device, the sweep inside one running daemon:
# every offset is visited the requested number of times and the placement the
# daemon reports is the one requested; the device counts exactly the reads
# the sweep made; an existing device gets its settings back; bad offsets, a
# failing reader and a daemon that dies mid-sweep give one-line errors and
# leave nothing mounted.  Needs root (FUSE), $CUSEZERO, $ZEROCTL.
# Needs: root fuse ioctl
. "$top_srcdir/tests/zbench/lib.sh"
[ -n "$ZEROCTL" ] && [ -x "$ZEROCTL" ] || skip_all "zeroctl not built"
"$ZBENCH" align -f help >"$CZ_TMP/help" 2>&1
routine=$(sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' "$CZ_TMP/help" | head -n 1)
[ -n "$routine" ] || skip_all "no relocatable routine here"
diag "sweeping $routine"
export CUSEZERO
TMPDIR=$CZ_TMP; export TMPDIR	# the sweep's mount points: this test's own
leftovers() { grep -c " $CZ_TMP/zbench-align\\." /proc/self/mounts; }
before=$(leftovers)

# --device new: 4 offsets x 3 repeats, JSON
"$ZBENCH" align -f "$routine" --offsets 0,4,8,60 -r 3 -l 5 --device new --json >"$CZ_TMP/j" 2>"$CZ_TMP/e"
ok "--device new --json: exit 0" -- test $? -eq 0
# one line per entry of "offsets", whatever the JSON's layout
tr -d ' \n' <"$CZ_TMP/j" | awk '{ n = split($0, a, "[{]\"offset\""); for (i = 2; i <= n; i++) print "{\"offset\"" a[i] }' >"$CZ_TMP/rows"
ok "4 offsets in the JSON" -- test "$(wc -l <"$CZ_TMP/rows")" -eq 4
ok "each offset: placed_offset = offset" -- \
	awk -F'[:,]' '{ if ($2 + 0 != $4 + 0) bad = 1 } END { exit bad }' "$CZ_TMP/rows"
ok "each offset: 3 end-to-end, 3 in-device, 3 ns/chunk samples" -- awk '
	{ for (k = 1; k <= 3; k++) { key = k == 1 ? "e2e_gbps" : k == 2 ? "dev_gbps" : "dev_ns_per_chunk"
	    s = $0; sub(".*\"" key "\": *\\[", "", s); sub("\\].*", "", s)
	    if (split(s, a, ",") != 3) bad = 1 } }
	END { exit bad }' "$CZ_TMP/rows"
ok "verdicts in both classes on stderr" -- sh -c "grep -q '^# in-device effect: ' '$CZ_TMP/e' && grep -q '^# end-to-end effect: ' '$CZ_TMP/e'"
ok "nothing left mounted" -- test "$(leftovers)" -eq "$before"

# an existing device: exact counts, reported placement in the table, settings restored
mkdir "$CZ_TMP/mnt"
"$CUSEZERO" --fuse "$CZ_TMP/mnt" --pidfile "$CZ_TMP/pid" --routine c_store_loop
Z=$CZ_TMP/mnt/zero
"$ZEROCTL" "$Z" --reset
"$ZBENCH" align -f "$routine" --offsets 0..12:4 -r 4 -l 7 --order rr --device "$Z" >"$CZ_TMP/t" 2>"$CZ_TMP/e"
ok "--device PATH: exit 0" -- test $? -eq 0
"$ZEROCTL" "$Z" --stats >"$CZ_TMP/stats"
# per sample: 1 warm-up read + 7 timed reads of 100 KiB; 4 offsets x 4 repeats
ok "the device served exactly 4 x 4 x (1 + 7) = 128 reads of 102400 bytes" -- \
	sh -c "grep -q '^requests *128$' '$CZ_TMP/stats' && grep -q '^bytes *13107200$' '$CZ_TMP/stats'"
ok "the sweep's routine ran them all" -- grep -Eq "^$routine +128 +13107200 " "$CZ_TMP/stats"
grep -E '^ +[0-9]+ +[0-9]+ ' "$CZ_TMP/t" >"$CZ_TMP/rows"
ok "table: 4 rows, offsets 0 4 8 12, placed = offset" -- \
	sh -c "[ \"\$(awk '{ printf \"%s/%s \", \$1, \$2 }' '$CZ_TMP/rows')\" = '0/0 4/4 8/8 12/12 ' ]"
ok "settings restored (routine c_store_loop, align none)" -- \
	sh -c "'$ZEROCTL' '$Z' | grep -q '^routine=c_store_loop$' && '$ZEROCTL' '$Z' | grep -q '^align=none$'"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 -l 3 --device "$Z" --csv >"$CZ_TMP/c" 2>/dev/null
ok "--csv: header and 2 rows of 18 fields" -- \
	sh -c "head -1 '$CZ_TMP/c' | grep -q '^offset,placed_offset,e2e_median_gbps' && [ \$(awk -F, 'NR > 1 && NF == 18' '$CZ_TMP/c' | wc -l) -eq 2 ]"
kill "$(cat "$CZ_TMP/pid")"; sleep 0.5

# errors: one line each, nothing mounted, no daemon left
"$ZBENCH" align -f "$routine" --offsets 0..5000 --device new >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "bad offsets: exit $rc, one line naming --offsets" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q -- \"invalid --offsets '0..5000'\" '$CZ_TMP/e'"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 --device new --reader 'echo broken >&2; exit 3' >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "failing reader: exit $rc, one line with its status and output" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'exited with status 3: broken' '$CZ_TMP/e'"
ok "failing reader: nothing mounted" -- test "$(leftovers)" -eq "$before"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 --device new --reader 'echo not-a-number' >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "reader printing garbage: exit $rc, one line" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q \"printed 'not-a-number'\" '$CZ_TMP/e'"
# a reader that kills the daemon: the next request finds it gone
"$ZBENCH" align -f "$routine" --offsets 0,4,8 -r 3 --device new \
	--reader 'kill -9 $(pgrep -f -- "--fuse $(dirname {dev}) "); echo 1000000' >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "daemon killed mid-sweep: exit $rc, one line saying it is gone" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'stopped answering at offset .*its daemon is gone' '$CZ_TMP/e'"
sed 's/^/# /' "$CZ_TMP/e"
ok "daemon killed mid-sweep: nothing mounted" -- test "$(leftovers)" -eq "$before"
ok "no daemon left from the sweeps" -- sh -c "! pgrep -f -- '--fuse $CZ_TMP/zbench-align\.' >/dev/null"
"$ZBENCH" align -f "$routine" --offsets 0 --device /dev/zero >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "--device /dev/zero: exit $rc, not a cusezero device" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'not a cusezero device' '$CZ_TMP/e'"
# --compare A,B of two routines in one daemon: both at each offset, the daemon switched per sample
two=$("$ZBENCH" align -f help 2>&1 | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 2 | tr '\n' ',')
two=${two%,}
case $two in
*,*)
	"$ZBENCH" align --compare "$two" --offsets 0,8 -r 2 -l 5 --device new >"$CZ_TMP/cmp" 2>"$CZ_TMP/e"
	ok "--device new --compare $two: exit 0" -- test $? -eq 0
	ok "--compare in device: a verdict over layouts in device and end to end" -- \
		sh -c "grep -q '^# B vs A over 2 layouts, in device: ' '$CZ_TMP/cmp' && grep -q '^# B vs A over 2 layouts, end to end: ' '$CZ_TMP/cmp'"
	ok "--compare in device: no mount left" -- test "$(leftovers)" -eq "$before"
	;;
*) tap_skip "--compare in device: fewer than two relocatable routines" ;;
esac
"$ZBENCH" align -f "$routine" --offsets 0 --reader true >/dev/null 2>"$CZ_TMP/e"; rc=$?
ok "--reader without --device: refused" -- sh -c "[ $rc -ne 0 ] && grep -q -- '--reader' '$CZ_TMP/e'"
done_testing
