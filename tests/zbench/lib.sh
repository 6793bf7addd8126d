# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the zbench tests: perf's output lines as regular expressions,
# taken from tools/perf/bench/mem-functions.c (bench_mem_common,
# __bench_mem_function, print_bps) and builtin-bench.c.
. "$top_srcdir/tests/tap.sh"

[ -n "${ZBENCH:-}" ] || { echo "Bail out! ZBENCH is not set (run through make check)"; exit 1; }
[ -x "$ZBENCH" ] || skip_all "zbench not built: $ZBENCH"

CZ_TMP=$(mktemp -d "${TMPDIR:-/tmp}/zbench-test.XXXXXX")
trap 'rm -rf "$CZ_TMP"' EXIT INT TERM

RE_RUNNING_MEMSET="^# Running 'mem/memset' benchmark:\$"
RE_RUNNING_MMAP="^# Running 'mem/mmap' benchmark:\$"
RE_FUNCTION="^# function '[^']+' \\(.+\\)\$"
# print_bps: " %14lf bytes/sec", " %14lfd KB/sec", " %14lf MB/sec", " %14lf GB/sec"
RE_BPS='^ [ ]*([0-9]+\.[0-9]{6} (bytes|MB|GB)|[0-9]+\.[0-9]{6}d KB)/sec$'
RE_CYCLES='^ [ ]*[0-9]+\.[0-9]{6} cycles/byte$'
RE_SIMPLE='^[0-9]+\.[0-9]{6}$'

# check_block FILE FIRSTLINE SIZE_STR [RESULT_RE]: one benchmark's lines, perf's default format:
#   # Running 'mem/X' benchmark: / # function 'N' (D) / # Copying SIZE bytes ... / (blank) / result
check_block() {
	file=$1 running=$2 size=$3 result=${4:-$RE_BPS}
	n=$(wc -l <"$file")
	[ "$n" -eq 5 ] || { diag "$file: $n lines, want 5"; return 1; }
	l1=$(sed -n 1p "$file"); l2=$(sed -n 2p "$file"); l3=$(sed -n 3p "$file")
	l4=$(sed -n 4p "$file"); l5=$(sed -n 5p "$file")
	printf '%s\n' "$l1" | grep -Eq "$running" || { diag "line 1: '$l1'"; return 1; }
	printf '%s\n' "$l2" | grep -Eq "$RE_FUNCTION" || { diag "line 2: '$l2'"; return 1; }
	[ "$l3" = "# Copying $size bytes ..." ] || { diag "line 3: '$l3'"; return 1; }
	[ -z "$l4" ] || { diag "line 4 not blank: '$l4'"; return 1; }
	printf '%s\n' "$l5" | grep -Eq "$result" || { diag "line 5: '$l5'"; return 1; }
	# " %14lf": at least 15 characters before the unit.
	w=$(printf '%s\n' "$l5" | sed -E 's/d? [A-Za-z]+\/[a-z]+$//' | awk '{ print length($0) }')
	[ "$w" -ge 15 ] || { diag "line 5: number field '$l5' narrower than ' %14lf'"; return 1; }
}

# cycles_counter: true when --cycles can open its PERF_COUNT_HW_CPU_CYCLES counter
# here (a PMU: bare metal, most clouds' large instances), false in a VM without one.
cycles_counter() { "$ZBENCH" memset -c -s 4KB -f default >/dev/null 2>&1; }
# cycles_refused FILE-OUT FILE-ERR RC: perf's refusal, "Failed to open cycles counter", exit 255
cycles_refused() {
	[ "$3" -eq 255 ] && [ "$(cat "$2")" = "Failed to open cycles counter" ] && ! grep -q "cycles/byte" "$1"
}
