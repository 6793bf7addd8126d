#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/zload-vs-fio.sh - zload against fio on one and the same command line
# (NOT a test).
#
# For /dev/zero and the `zero` file of a cusezero FUSE mount, for the engines
# io_uring, psync and libaio (zload runs libaio on io_uring, fio on libaio;
# psync is depth 1 in both, qd 32 noted), at bs 4 KiB and 100 KiB, qd 1 and
# 32, one job: fio and zload run back to back, alternating
# which goes first, RUNS times each, with the IDENTICAL options string (fio's
# spelling: --name --ioengine=ENGINE --filename --rw --bs --iodepth
# --runtime --time_based --size --output-format=json [--cpus_allowed]
# [batching]); only the program name differs.  One line per case with the
# median bandwidth of each and zload/fio.  Batching rows at qd 32:
# "default", fio's defaults (no batching option: one read per submission,
# reap from one, IORING_OP_READ in both), and "32/1"
# (--iodepth_batch_submit=32 --iodepth_batch_complete_min=1, the whole queue
# per submission).  The target is a ratio >= 1.0 at every row (zload is at
# least as efficient a load generator).  Numbers on a shared machine are
# preliminary.
#
#   bench/zload-vs-fio.sh [-n RUNS] [-t SECONDS] [-c CPU] [-e ENGINES] [-b SIZES] [-d DEVICE]...
#   ZLOAD=./zload CUSEZERO=./cusezero FIO=fio bench/zload-vs-fio.sh
#
#   -n RUNS     runs per tool and case (default 5)
#   -t SECONDS  length of each run, whole seconds (default 2; both time-based)
#   -c CPU|off  the CPU both tools' job and the FUSE rows' cusezero daemon are
#               pinned to (--cpus_allowed for both tools, cusezero --cpu);
#               default: the first CPU this script may run on.  Co-located, a
#               FUSE read costs no cross-CPU wake-up, whose cost depends on where
#               the scheduler put the daemon and the job (unpinned, the FUSE
#               rows measured that placement more than the tools: ratios of
#               0.91-1.01 one run, 1.08-1.36 co-located right after, on a
#               2-vCPU VM).  off: nothing pinned.
#   -e ENGINES  the engines, space-separated (default "io_uring psync libaio")
#   -b SIZES    the block sizes, space-separated (default "4k 100k")
#   -d DEVICE   read DEVICE instead of the defaults (repeatable)
#   The first line printed is the exact options string of the first row.
# The FUSE rows need root, /dev/fuse and $CUSEZERO (default ./cusezero):
# the script mounts the device on a temporary directory and unmounts it.
set -u

bench=zload-vs-fio
. "$(dirname "$0")/lib.sh"
RUNS=5
SECS=2
DEVICES=
CPU=
ENGINES="io_uring psync libaio"
SIZES="4k 100k"
while getopts n:t:c:d:e:b:h opt; do
	case $opt in
	n) RUNS=$OPTARG ;;
	t) SECS=$OPTARG ;;
	c) CPU=$OPTARG ;;
	d) DEVICES="$DEVICES $OPTARG" ;;
	e) ENGINES=$OPTARG ;;
	b) SIZES=$OPTARG ;;
	h) sed -n '3,39s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) usage "bad option (see -h)" ;;
	esac
done
case $RUNS in ''|*[!0-9]*|0) usage "-n: invalid run count '$RUNS'" ;; esac
# Whole seconds: fio reads --runtime=0.5 as 0, i.e. no limit at all.
case $SECS in ''|*[!0-9]*|0) usage "-t: invalid seconds '$SECS' (a whole number > 0)" ;; esac
case $CPU in
'') CPU=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status) ;;
off) CPU= ;;
*[!0-9]*) usage "-c: invalid CPU '$CPU' (a number or off)" ;;
esac

ZLOAD=${ZLOAD:-./zload}
CUSEZERO=${CUSEZERO:-./cusezero}
FIO=${FIO:-fio}
[ -x "$ZLOAD" ] || die "zload not found at '$ZLOAD' (set ZLOAD=)"
command -v "$FIO" >/dev/null || die "fio not found (apt-get install fio)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/zload-vs-fio.XXXXXX") || exit 1
MNT=
cleanup() {
	[ -z "$MNT" ] || daemon_stop "$MNT"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$DEVICES" ]; then
	DEVICES=/dev/zero
	if [ -x "$CUSEZERO" ] && [ "$(id -u)" -eq 0 ] && [ -c /dev/fuse ]; then
		MNT=$TMP/mnt
		if daemon_start "$MNT" ${CPU:+--cpu $CPU}; then
			DEVICES="$DEVICES $MNT/zero"
		else
			echo "# FUSE rows skipped: cusezero --fuse failed: $(head -n 1 "$MNT.err")"
			MNT=
		fi
	else
		echo "# FUSE rows skipped: need root, /dev/fuse and cusezero at '$CUSEZERO' (set CUSEZERO=)"
	fi
fi

# The one options string both tools get: DEVICE BS QD BATCH (default or S/C),
# with $ENGINE.
# size=1t: fio needs a size on a character device; 1t so time_based never
# wraps (fio 3.33 can assert in td_io_queue when it reopens /dev/zero to wrap).
common() {
	batch=
	[ "$4" = default ] || batch="--iodepth_batch_submit=${4%/*} --iodepth_batch_complete_min=${4#*/}"
	echo "--name=zvf --ioengine=$ENGINE --filename=$1 --rw=read --bs=$2 --iodepth=$3" \
	     "--runtime=$SECS --time_based --size=1t --output-format=json" \
	     "${CPU:+--cpus_allowed=$CPU }$batch"
}

# Bytes/sec of one run of PROGRAM on stdout (one line), nothing when it failed.
run_bw() {	# PROGRAM DEVICE BS QD BATCH
	prog=$1; shift
	# shellcheck disable=SC2046
	if "$prog" $(common "$@") 2>"$TMP/err" >"$TMP/out.json"; then
		v=$(sed -n '/^{/,$p' "$TMP/out.json" | tr -d ' \n' |
			sed -n 's/.*"read":{[^}]*"bw_bytes":\([0-9]*\).*/\1/p')
		[ -n "$v" ] && echo "$v" && return
	fi
	echo "# $prog $* failed: $(grep -v '^$' "$TMP/err" | head -n 1)" >&2
}

echo "# zload-vs-fio: $RUNS runs x ${SECS}s per tool and case, alternating; $(nproc) CPUs, $(uname -r), $("$FIO" --version), $("$ZLOAD" --version)"
echo "# batch = iodepth_batch_submit/iodepth_batch_complete_min (default: none given)${CPU:+; both jobs and the FUSE daemon pinned to CPU $CPU (co-located; -c off: none)}"
set -- $DEVICES
ENGINE=${ENGINES%% *}
echo "# options of the first row, identical for both: $(common "$1" 4k 1 default)"
echo "# bandwidth in MiB/s (2^20 bytes/s), medians; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-20s %-8s %6s %3s %7s %12s %12s %7s\n' device engine bs qd batch "fio MiB/s" "zload MiB/s" ratio
for dev in $DEVICES; do
	for ENGINE in $ENGINES; do
	for bs in $SIZES; do
		for qd in 1 32; do
			batches=default
			[ "$qd" -eq 32 ] && [ "$ENGINE" = io_uring ] && batches="default 32/1"
			for b in $batches; do
				: >"$TMP/f"; : >"$TMP/z"
				r=1
				while [ $r -le "$RUNS" ]; do
					if [ $((r % 2)) -eq 1 ]; then
						run_bw "$FIO" "$dev" $bs $qd "$b" >>"$TMP/f"
						run_bw "$ZLOAD" "$dev" $bs $qd "$b" >>"$TMP/z"
					else
						run_bw "$ZLOAD" "$dev" $bs $qd "$b" >>"$TMP/z"
						run_bw "$FIO" "$dev" $bs $qd "$b" >>"$TMP/f"
					fi
					r=$((r + 1))
				done
				f=$(median <"$TMP/f"); z=$(median <"$TMP/z")
				nf=$(wc -l <"$TMP/f"); nz=$(wc -l <"$TMP/z")
				label=$dev
				[ -n "$MNT" ] && [ "$dev" = "$MNT/zero" ] && label=cusezero-fuse/zero
				awk -v n="$RUNS" -v nf="$nf" -v nz="$nz" -v d="$label" -v e="$ENGINE" -v bs=$bs -v qd=$qd -v b="$b" -v f="$f" -v z="$z" 'BEGIN {
					printf "%-20s %-8s %6s %3s %7s %12.1f %12.1f %7s %s\n", d, e, bs, qd, b,
					       f / 1048576, z / 1048576, (f > 0 ? sprintf("%.2f", z / f) : "n/a"),
					       (nf < n || nz < n ? sprintf("(%d/%d fio, %d/%d zload runs ok)", nf, n, nz, n) : "") }'
			done
		done
	done
	done
done
