# SPDX-License-Identifier: GPL-2.0-or-later
# The set-up of the co-location tests (colocate.sh, colocate-uring.sh):
# $ZAB, a scratch $CZ_TMP (zab's mount points too), the allowed CPUs, and
# $CZ_TMP/probe, a benchmark that logs where it and the session's daemon run.
# Sourced after tests/cuse/lib.sh.
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
TMPDIR=$CZ_TMP; export TMPDIR	# zab's mount points: this test's own

allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
ncpu=$(nproc)
# The probe: run as a benchmark; logs "SESSION OWN_CPUS TASK_CPUS/POLICY..." and prints 1.
cat >"$CZ_TMP/probe" <<'PROBE'
#!/bin/sh
log=$1
mnt=$(dirname "$CUSEZERO_DEVICE")
pid=$(pgrep -f -- "--fuse $mnt " | head -n 1)
line="${ZAB_SESSION:-0} $(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)"
for t in /proc/"$pid"/task/*; do
	[ "$(cat "$t/comm")" = cz-guard ] && continue
	line="$line $(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")/$(awk '/^policy/ { print $3 }' "$t/sched")"
done
echo "$line" >>"$log"
echo 1
PROBE
chmod +x "$CZ_TMP/probe"
