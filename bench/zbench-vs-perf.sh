#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Does zbench's harness distort?  Runs `perf bench mem memset` (Debian's
# linux-perf) and `zbench memset` back to back, alternating which goes first,
# for the functions both have, and prints zbench/perf per case as the ratio of
# the medians (and of the fastest runs), with each side's spread
# ((max - min) / median) so a noisy machine shows.  Identical algorithms should give 0.97..1.03.  Not a test:
# it takes a minute or two and its numbers depend on the machine's load.
#
#   bench/zbench-vs-perf.sh [path/to/zbench]      env: RUNS=5 PERF=perf CPU=1 SIZES="4KB 1MB"
#
# Both are asked for the same total bytes per run (size x loops ~ 2 GB, 2
# loops at 1 GB) so that perf's microsecond gettimeofday() resolution does
# not matter.  perf's "default" calls glibc memset directly; zbench's calls it
# through the registry's memset routine (one extra call per chunk).
set -eu

ZBENCH=${1:-${ZBENCH:-./zbench}}
PERF=${PERF:-perf}
RUNS=${RUNS:-5}
SIZES=${SIZES:-"4KB 64KB 1MB 1GB"}
FUNCTIONS=${FUNCTIONS:-"default x86-64-stosb x86-64-stosq x86-64-unrolled"}

bench=zbench-vs-perf
. "$(dirname "$0")/lib.sh"
command -v "$PERF" >/dev/null 2>&1 || die "$PERF not found (Debian: apt-get install linux-perf)"
[ -x "$ZBENCH" ] || die "$ZBENCH is not an executable zbench (pass its path)"
"$PERF" bench mem memset -f help >/dev/null 2>&1 || true

pin=
if [ -n "${CPU:-}" ]; then
	command -v taskset >/dev/null 2>&1 || die "CPU=$CPU needs taskset (util-linux)"
	pin="taskset -c $CPU"
fi

loops_for() {	# about 2 GB per run
	case $1 in
	4KB) echo 500000 ;; 64KB) echo 32768 ;; 1MB) echo 2048 ;; 1GB) echo 2 ;;
	*) echo 1 ;;
	esac
}

# Both print, with --format simple, "# function ..." then bytes per second.
run_perf() { $pin "$PERF" bench --format simple mem memset -s "$2" -f "$1" -l "$3" 2>/dev/null | tail -n 1; }
run_zbench() { $pin "$ZBENCH" --format simple memset -s "$2" -f "$1" -l "$3" 2>/dev/null | tail -n 1; }

# "median spread% best": spread = (max - min) / median, how noisy the machine
# was; best = the fastest run, the least disturbed one on a loaded machine.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

printf '# zbench-vs-perf: %s runs per case, alternating order; GB = 2^30 bytes; %s\n' "$RUNS" \
	"$("$PERF" --version 2>/dev/null)"
printf '%-16s %6s %8s %10s %8s %11s %8s %7s %10s\n' function size loops perf_GB/s spread% zbench_GB/s spread% ratio best_ratio
for f in $FUNCTIONS; do
	if ! "$ZBENCH" memset -f "$f" -s 4KB >/dev/null 2>&1; then
		printf '%-16s  (no zbench routine for this perf function here)\n' "$f"
		continue
	fi
	if ! "$PERF" bench mem memset -f "$f" -s 4KB >/dev/null 2>&1; then
		printf '%-16s  (perf has no such function here)\n' "$f"
		continue
	fi
	for s in $SIZES; do
		l=$(loops_for "$s")
		: >"$tmp/p"; : >"$tmp/z"
		i=0
		while [ "$i" -lt "$RUNS" ]; do
			if [ $((i % 2)) -eq 0 ]; then
				run_perf "$f" "$s" "$l" >>"$tmp/p"
				run_zbench "$f" "$s" "$l" >>"$tmp/z"
			else
				run_zbench "$f" "$s" "$l" >>"$tmp/z"
				run_perf "$f" "$s" "$l" >>"$tmp/p"
			fi
			i=$((i + 1))
		done
		p=$(median_spread <"$tmp/p")
		z=$(median_spread <"$tmp/z")
		awk -v f="$f" -v s="$s" -v l="$l" -v p="$p" -v z="$z" 'BEGIN {
			g = 1024 * 1024 * 1024
			split(p, pp, " "); split(z, zz, " ")
			printf "%-16s %6s %8d %10.3f %8.1f %11.3f %8.1f %7.3f %10.3f\n", f, s, l, pp[1] / g, pp[2],
			       zz[1] / g, zz[2], (pp[1] > 0 ? zz[1] / pp[1] : 0), (pp[3] > 0 ? zz[3] / pp[3] : 0)
		}'
	done
done
