#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# align-in-situ.sh: does an alignment effect measured in process survive in
# the device?  Runs, back to back, the in-process sweep (zbench align) and its
# in-situ twin (zbench align --device new: the same routine placed inside one
# co-located cusezero daemon), then compares, in the device's figures, the
# pair the in-process sweep called best and worst: same direction, and
# significant where the in-process sweep said significant?
#
#   bench/align-in-situ.sh [-f ROUTINE] [--offsets LIST] [-- ZBENCH_ALIGN_ARGS...]
#   (default: -f clear_user_arm64_quirk --offsets 0..127:4, each sweep's defaults)
#
# Programs from $top_builddir (default build/ of this checkout).  Root (the
# device sweep mounts a FUSE device).  Not a test: measure on a quiet machine.
set -eu

fn=clear_user_arm64_quirk offsets=0..127:4
bench=align-in-situ
. "$(dirname "$0")/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	-f) fn=${2:?}; shift 2 ;;
	--offsets) offsets=${2:?}; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown option '$1' (see --help)" ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
b=$(cd "${top_builddir:-$top/build}" && pwd)
PATH=$b:$PATH
command -v zbench >/dev/null || die "zbench not found in $b (build first: scripts/setup build)"
work=$(mktemp -d /tmp/align-in-situ.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

echo "CPU: $(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
zbench align -f "$fn" --offsets "$offsets" "$@" >"$work/p" 2>&1 || { cat "$work/p"; die "in-process sweep failed"; }
t1=$(date +%s)
best=$(sed -n 's/^# best:  offset \([0-9]*\):.*/\1/p' "$work/p")
worst=$(sed -n 's/^# worst: offset \([0-9]*\):.*/\1/p' "$work/p")
zbench align -f "$fn" --offsets "$offsets" --device new --compare "$best,$worst" "$@" >"$work/d" 2>&1 ||
	{ cat "$work/d"; die "device sweep failed"; }
t2=$(date +%s)
echo "in process ($((t1 - t0)) s):"
grep '^# \(best\|worst\|effect\)' "$work/p" | sed 's/^/  /'
echo "in the device ($((t2 - t1)) s), the same pair:"
grep '^# \(in-device\|end-to-end\) compare' "$work/d" | sed 's/^/  /'
echo "in the device, its own best and worst:"
grep '^# in-device \(best\|worst\|effect\)' "$work/d" | sed 's/^/  /'
p_sig=no d_sig=no same=no
grep -q '^# effect: .*significant$' "$work/p" && ! grep -q '^# effect: .*not significant$' "$work/p" && p_sig=yes
line=$(grep '^# in-device compare' "$work/d")
case $line in *"do not overlap: significant"*) d_sig=yes ;; esac
p_chg=$(sed -n 's/^# effect: worst vs best \([-+][0-9.]*\)%.*/\1/p' "$work/p")
d_chg=$(echo "$line" | sed -n 's/.*: \([-+][0-9.]*\)% (medians.*/\1/p')
awk -v a="$p_chg" -v b="$d_chg" 'BEGIN { exit !((a < 0) == (b < 0)) }' && same=yes
echo "verdict: in process significant: $p_sig ($p_chg%); in device, same pair: significant: $d_sig ($d_chg%), same direction: $same"
if [ $p_sig = yes ]; then
	[ $d_sig = yes ] && [ $same = yes ] && echo "agree: yes" || echo "agree: NO"
else
	echo "agree: (nothing to agree on: the in-process sweep found no significant pair)"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
