#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench align --device, the sweep inside one running daemon:
# every offset is visited the requested number of times and the placement the
# daemon reports is the one requested; the device counts exactly the reads
# the sweep made; an existing device gets its settings back; bad offsets, a
# failing reader and a daemon that dies mid-sweep give one-line errors and
# leave nothing mounted.  Needs root (FUSE), $CUSEZERO, $ZEROCTL.
. "$top_srcdir/tests/zbench/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "not root: a FUSE mount needs root"
[ -n "$CUSEZERO" ] && [ -x "$CUSEZERO" ] || skip_all "cusezero not built (\$CUSEZERO='$CUSEZERO')"
[ -n "$ZEROCTL" ] && [ -x "$ZEROCTL" ] || skip_all "zeroctl not built"
[ -e /dev/fuse ] || skip_all "no /dev/fuse"
"$ZBENCH" align -f help >"$tmpdir/help" 2>&1
routine=$(sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' "$tmpdir/help" | head -n 1)
[ -n "$routine" ] || skip_all "no relocatable routine here"
diag "sweeping $routine"
export CUSEZERO
TMPDIR=$tmpdir; export TMPDIR	# the sweep's mount points: this test's own
leftovers() { grep -c " $tmpdir/zbench-align\\." /proc/self/mounts; }
before=$(leftovers)

# --device new: 4 offsets x 3 repeats, JSON
"$ZBENCH" align -f "$routine" --offsets 0,4,8,60 -r 3 -l 5 --device new --json >"$tmpdir/j" 2>"$tmpdir/e"
ok "--device new --json: exit 0" -- test $? -eq 0
# one line per entry of "offsets", whatever the JSON's layout
tr -d ' \n' <"$tmpdir/j" | awk '{ n = split($0, a, "{\"offset\""); for (i = 2; i <= n; i++) print "{\"offset\"" a[i] }' >"$tmpdir/rows"
ok "4 offsets in the JSON" -- test "$(wc -l <"$tmpdir/rows")" -eq 4
ok "each offset: placed_offset = offset" -- \
	awk -F'[:,]' '{ if ($2 + 0 != $4 + 0) bad = 1 } END { exit bad }' "$tmpdir/rows"
ok "each offset: 3 end-to-end, 3 in-device, 3 ns/chunk samples" -- awk '
	{ for (k = 1; k <= 3; k++) { key = k == 1 ? "e2e_gbps" : k == 2 ? "dev_gbps" : "dev_ns_per_chunk"
	    s = $0; sub(".*\"" key "\": *\\[", "", s); sub("\\].*", "", s)
	    if (split(s, a, ",") != 3) bad = 1 } }
	END { exit bad }' "$tmpdir/rows"
ok "verdicts in both classes on stderr" -- sh -c "grep -q '^# in-device effect: ' '$tmpdir/e' && grep -q '^# end-to-end effect: ' '$tmpdir/e'"
ok "nothing left mounted" -- test "$(leftovers)" -eq "$before"

# an existing device: exact counts, reported placement in the table, settings restored
mkdir "$tmpdir/mnt"
"$CUSEZERO" --fuse "$tmpdir/mnt" --pidfile "$tmpdir/pid" --routine c_store_loop
Z=$tmpdir/mnt/zero
"$ZEROCTL" "$Z" --reset
"$ZBENCH" align -f "$routine" --offsets 0..12:4 -r 4 -l 7 --order rr --device "$Z" >"$tmpdir/t" 2>"$tmpdir/e"
ok "--device PATH: exit 0" -- test $? -eq 0
"$ZEROCTL" "$Z" --stats >"$tmpdir/stats"
# per sample: 1 warm-up read + 7 timed reads of 100 KiB; 4 offsets x 4 repeats
ok "the device served exactly 4 x 4 x (1 + 7) = 128 reads of 102400 bytes" -- \
	sh -c "grep -q '^requests *128$' '$tmpdir/stats' && grep -q '^bytes *13107200$' '$tmpdir/stats'"
ok "the sweep's routine ran them all" -- grep -Eq "^$routine +128 +13107200 " "$tmpdir/stats"
grep -E '^ +[0-9]+ +[0-9]+ ' "$tmpdir/t" >"$tmpdir/rows"
ok "table: 4 rows, offsets 0 4 8 12, placed = offset" -- \
	sh -c "[ \"\$(awk '{ printf \"%s/%s \", \$1, \$2 }' '$tmpdir/rows')\" = '0/0 4/4 8/8 12/12 ' ]"
ok "settings restored (routine c_store_loop, align none)" -- \
	sh -c "'$ZEROCTL' '$Z' | grep -q '^routine=c_store_loop$' && '$ZEROCTL' '$Z' | grep -q '^align=none$'"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 -l 3 --device "$Z" --csv >"$tmpdir/c" 2>/dev/null
ok "--csv: header and 2 rows of 18 fields" -- \
	sh -c "head -1 '$tmpdir/c' | grep -q '^offset,placed_offset,e2e_median_gbps' && [ \$(awk -F, 'NR > 1 && NF == 18' '$tmpdir/c' | wc -l) -eq 2 ]"
kill "$(cat "$tmpdir/pid")"; sleep 0.5

# errors: one line each, nothing mounted, no daemon left
"$ZBENCH" align -f "$routine" --offsets 0..5000 --device new >/dev/null 2>"$tmpdir/e"; rc=$?
ok "bad offsets: exit $rc, one line naming --offsets" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmpdir/e') -eq 1 ] && grep -q -- \"invalid --offsets '0..5000'\" '$tmpdir/e'"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 --device new --reader 'echo broken >&2; exit 3' >/dev/null 2>"$tmpdir/e"; rc=$?
ok "failing reader: exit $rc, one line with its status and output" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmpdir/e') -eq 1 ] && grep -q 'exited with status 3: broken' '$tmpdir/e'"
ok "failing reader: nothing mounted" -- test "$(leftovers)" -eq "$before"
"$ZBENCH" align -f "$routine" --offsets 0,4 -r 2 --device new --reader 'echo not-a-number' >/dev/null 2>"$tmpdir/e"; rc=$?
ok "reader printing garbage: exit $rc, one line" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmpdir/e') -eq 1 ] && grep -q \"printed 'not-a-number'\" '$tmpdir/e'"
# a reader that kills the daemon: the next request finds it gone
"$ZBENCH" align -f "$routine" --offsets 0,4,8 -r 3 --device new \
	--reader 'kill -9 $(pgrep -f -- "--fuse $(dirname {dev}) "); echo 1000000' >/dev/null 2>"$tmpdir/e"; rc=$?
ok "daemon killed mid-sweep: exit $rc, one line saying it is gone" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmpdir/e') -eq 1 ] && grep -q 'stopped answering at offset .*its daemon is gone' '$tmpdir/e'"
sed 's/^/# /' "$tmpdir/e"
ok "daemon killed mid-sweep: nothing mounted" -- test "$(leftovers)" -eq "$before"
ok "no daemon left from the sweeps" -- sh -c "! pgrep -f -- '--fuse $tmpdir/zbench-align\.' >/dev/null"
"$ZBENCH" align -f "$routine" --offsets 0 --device /dev/zero >/dev/null 2>"$tmpdir/e"; rc=$?
ok "--device /dev/zero: exit $rc, not a cusezero device" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmpdir/e') -eq 1 ] && grep -q 'not a cusezero device' '$tmpdir/e'"
# --compare A,B of two routines in one daemon: both at each offset, the daemon switched per sample
two=$("$ZBENCH" align -f help 2>&1 | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 2 | tr '\n' ',')
two=${two%,}
case $two in
*,*)
	"$ZBENCH" align --compare "$two" --offsets 0,8 -r 2 -l 5 --device new >"$tmpdir/cmp" 2>"$tmpdir/e"
	ok "--device new --compare $two: exit 0" -- test $? -eq 0
	ok "--compare in device: a verdict over layouts in device and end to end" -- \
		sh -c "grep -q '^# B vs A over 2 layouts, in device: ' '$tmpdir/cmp' && grep -q '^# B vs A over 2 layouts, end to end: ' '$tmpdir/cmp'"
	ok "--compare in device: no mount left" -- test "$(leftovers)" -eq "$before"
	;;
*) tap_skip "--compare in device: fewer than two relocatable routines" ;;
esac
"$ZBENCH" align -f "$routine" --offsets 0 --reader true >/dev/null 2>"$tmpdir/e"; rc=$?
ok "--reader without --device: refused" -- sh -c "[ $rc -ne 0 ] && grep -q -- '--reader' '$tmpdir/e'"
done_testing
