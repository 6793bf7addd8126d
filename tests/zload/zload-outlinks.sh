#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload's output files never follow a link planted at their
# name.  --output FILE and the --write_bw_log / --write_lat_log /
# --write_hist_log files are each given a name where a symbolic link to a
# 0600 file waits (as root: planted by user nobody in a folder anyone may
# write, not sticky); the file pointed to stays as it was and each output
# is a new regular file holding what zload wrote.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
D=$CZ_TMP/shared
mkdir -m 777 "$D" && chmod 777 "$D"
plant() { ln -s "$CZ_TMP/victim" "$1"; }
if [ "$(id -u)" = 0 ] && nobody=$(id -u nobody 2>/dev/null); then
	chmod 755 "$CZ_TMP"
	plant() { setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups ln -s "$CZ_TMP/victim" "$1"; }
fi
printf 'secret\n' >"$CZ_TMP/victim" && chmod 600 "$CZ_TMP/victim"
for f in out.json zb_bw.1.log zl_lat.1.log zh_clat_hist.1.log; do
	plant "$D/$f"
done
"$Z" --name=j --bs=4k --runtime=300ms --time_based --filename=/dev/zero --output-format=json \
	--output="$D/out.json" --write_bw_log="$D/zb" --write_lat_log="$D/zl" --write_hist_log="$D/zh" \
	--log_avg_msec=100 --log_hist_msec=100 >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "zload with --output and logs at planted links: exit $rc $(head -n 1 "$CZ_TMP/err")" -- test $rc -eq 0
ok "the links' target untouched (0600, its content)" -- \
	sh -c "[ \"\$(cat '$CZ_TMP/victim')\" = secret ] && [ \$(stat -c %a '$CZ_TMP/victim') = 600 ]"
for f in out.json zb_bw.1.log zl_lat.1.log zh_clat_hist.1.log; do
	ok "$f: a new regular file, not empty" -- sh -c "[ ! -L '$D/$f' ] && [ -f '$D/$f' ] && [ -s '$D/$f' ]"
done
ok "out.json holds zload's JSON" -- sh -c "head -c 1 '$D/out.json' | grep -q '{'"
done_testing
