#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: placement = rotate end to end: two device variants (FUSE daemons), two
# sessions of short pread_z100k runs.  Each daemon was set rotating over the
# set before its runs (read back: the offsets, the stats' offset -2, one
# seed per session shared by the variants); every cell records the set as
# layout_offsets and every in-device sample a value at every layout; the
# table says the layouts rotate.  No timing involved.
# Needs root (FUSE mounts), $CUSEZERO, $PREAD_Z100K.
# Needs: root fuse ioctl
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -n "$PREAD_Z100K" ] && [ -x "$PREAD_Z100K" ] || skip_all "pread_z100k not built (\$PREAD_Z100K='$PREAD_Z100K')"
command -v python3 >/dev/null || skip_all "python3 not found (reads the JSON)"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
TMPDIR=$CZ_TMP; export TMPDIR	# zab's mount points: this test's own
json() {	# json FILE PYTHON-EXPRESSION-OVER-d: exit 0 when true
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

before=$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)
"$ZAB" run -b "p=$PREAD_Z100K --format simple -s 100KB -n 200 {dev}" \
	-v 'a:routine=clear_user_arm64' -v 'b:routine=clear_user_arm64' \
	--placement rotate:0..12:4@entry -S 2 -W 1 -R 3 --seed 5 --cusezero "$CUSEZERO" \
	--style grid --export-zab "$CZ_TMP/r.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
if [ $rc -eq 0 ]; then pass "rotate:0..12:4@entry, 2 variants x 2 sessions: exit 0"
else fail "rotate run exit $rc: $(grep -v '^zab: \(command line\|session\)' "$CZ_TMP/err" | head -3 | tr '\n' ' ')"; fi
ok "every cell's layout_offsets is the set [0, 4, 8, 12]" -- \
	json "$CZ_TMP/r.json" "len(d['cells']) == 6 and all(c.get('layout_offsets') == [0, 4, 8, 12] for c in d['cells'])"
ok "every in-device cell: 6 samples, each with a value at every layout" -- \
	json "$CZ_TMP/r.json" "all(len(c['sample_layouts']) == 6 == len(c['samples']) and all(len(r) == 4 and all(x is not None and x > 0 for x in r) for r in c['sample_layouts']) for c in d['cells'] if 'in-device' in c['benchmark'])"
ok "the command's cells: no per-layout values" -- \
	json "$CZ_TMP/r.json" "all('sample_layouts' not in c for c in d['cells'] if c['benchmark'] == 'p')"
ok "no sample placed per run (no sample_offsets)" -- \
	json "$CZ_TMP/r.json" "all('sample_offsets' not in c for c in d['cells'])"
ok "each daemon was rotating: GET_ROTATE read back the set, the entry, stats offset -2" -- \
	json "$CZ_TMP/r.json" "all(len(v['device']['sessions']) == 2 and all(s['rotation']['offsets'] == [0, 4, 8, 12] and s['rotation']['point'] == 'entry' and s['rotation']['stats_align'] == -2 for s in v['device']['sessions']) for v in d['variants'])"
ok "one rotation seed per session, the same for both variants, another per session" -- \
	json "$CZ_TMP/r.json" "(lambda a, b: a == b and a[0] != a[1])([s['rotation']['seed'] for s in d['variants'][0]['device']['sessions']], [s['rotation']['seed'] for s in d['variants'][1]['device']['sessions']])"
ok "in-device cells: over_layouts of the rotate design over 4 layouts" -- \
	json "$CZ_TMP/r.json" "all(c['over_layouts']['design'] == 'rotate' and len(c['layouts']) == 4 for c in d['cells'] if 'in-device' in c['benchmark'])"
ok "the table: the command's class rotates, no sensitivity" -- \
	grep -q '^p: layouts rotating within each run (no sensitivity); b vs a, 6 runs paired' "$CZ_TMP/out"
ok "the table: in-device classes with the two-way model" -- \
	grep -q '^p in-device: layouts rotating within each run (.*two-way layout x run F test' "$CZ_TMP/out"
after=$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)
ok "every daemon stopped and unmounted ($before -> $after zab mounts)" -- [ "$after" -eq "$before" ]
"$ZAB" run -b "p=$PREAD_Z100K --format simple -s 100KB -n 200 {dev}" \
	-v 'a:routine=clear_user_arm64' -v 'b:routine=clear_user_arm64' \
	--placement rotate:0..12:4@entry -S 1 -W 1 -R 1 --dry-run >"$CZ_TMP/dry" 2>&1
ok "--dry-run: each variant at @rotate" -- grep -Eq '^  repeat  1 +p +(a@rotate b@rotate|b@rotate a@rotate)$' "$CZ_TMP/dry"
sed "s/^/# /" "$CZ_TMP/out" | head -12
done_testing
