#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: End to end: experiments/quick-alignment (shortened) through real cusezero
# daemons (FUSE front end) and pread_z100k.  Needs root, $CUSEZERO, $PREAD_Z100K.
# Needs: root fuse
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -n "$PREAD_Z100K" ] && [ -x "$PREAD_Z100K" ] || skip_all "pread_z100k not built (\$PREAD_Z100K='$PREAD_Z100K')"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
# zab's mount points go under $TMPDIR: this test's own, whatever runs beside it
TMPDIR=$CZ_TMP; export TMPDIR

before=$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)
"$ZAB" run "$top_srcdir/experiments/quick-alignment" -S 2 -W 0 -R 2 --seed 1 \
	--var count=500 --var "pread=$PREAD_Z100K" --cusezero "$CUSEZERO" \
	-b 'devenv=sh -c "test -r \"$CUSEZERO_DEVICE\" && echo 1"' \
	--style grid --json "$CZ_TMP/dev.json" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
if [ $rc -eq 0 ]; then pass "quick-alignment ran (exit 0)"
else fail "quick-alignment exit $rc: $(grep -v '^zab: quick' "$CZ_TMP/err" | head -3 | tr '\n' ' ')"; fi
ok "table has both variants" -- grep -q '| line-contained *| straddling *|' "$CZ_TMP/out"
ok "pread row measured (no FAILED)" -- sh -c "grep 'pread 100KB' '$CZ_TMP/out' | grep -qv FAILED"
ok "CUSEZERO_DEVICE readable in every run" -- sh -c "grep 'devenv' '$CZ_TMP/out' | grep -qv FAILED"
ok "JSON records a daemon per session per variant" -- \
	[ "$(grep -c '"command": ".*--fuse .*--routine clear_user_arm64' "$CZ_TMP/dev.json")" -eq 4 ]
after=$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)
ok "every daemon stopped and unmounted ($before -> $after zab mounts)" -- [ "$after" -eq "$before" ]
ok "no cusezero daemon left from this run" -- \
	sh -c "! pgrep -f -- '--fuse $CZ_TMP/zab\\.' >/dev/null"
sed "s/^/# /" "$CZ_TMP/out" | head -8

# Ctrl-C in the middle of a session: daemons stopped, mounts gone, exit 130
"$ZAB" run "$top_srcdir/experiments/quick-alignment" -S 5 -W 0 -R 50 --seed 1 \
	--var count=2000 --var "pread=$PREAD_Z100K" --cusezero "$CUSEZERO" \
	>"$CZ_TMP/int.out" 2>"$CZ_TMP/int.err" &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)" -le "$before" ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
ok "SIGINT: exit 130 (got $rc)" -- [ $rc -eq 130 ]
ok "SIGINT: says so" -- grep -q "interrupted by signal 2; devices stopped" "$CZ_TMP/int.err"
after=$(grep -c " $CZ_TMP/zab\." /proc/self/mounts)
ok "SIGINT: every mount gone ($before -> $after)" -- [ "$after" -eq "$before" ]
ok "SIGINT: no daemon left" -- sh -c "! pgrep -f -- '--fuse $CZ_TMP/zab\\.' >/dev/null"
done_testing
