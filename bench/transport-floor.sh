#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# transport-floor.sh: what the FUSE transport alone costs per 100 KiB pread,
# i.e. the best device/kernel ratio ANY daemon can reach on this kernel and
# machine.  uring_zero_proto serves MOUNTPOINT/zero with the
# routine (as cusezero does) and with --no-clear (READ answered from zero
# pages, no routine: the transport's floor), over /dev/fuse with the daemon
# and the reader on the same CPU (the fastest placement measured here;
# replies by splice, as cusezero's by default) and over io_uring (queue
# threads pinned per CPU, the reader pinned too).  Each row alternates
# pread_z100k on /dev/zero and on the file, --runs times, in this one
# invocation, and prints medians and the ratio.
#
#   bench/transport-floor.sh [--runs N] [--calls N] [--cpu CPU]
#
# Root (mounts; the io_uring rows set /sys/module/fuse/parameters/enable_uring
# and restore it).  Programs from $top_builddir (default .): uring_zero_proto,
# pread_z100k/pread_z100k.  Run it on a quiet machine.
set -eu

runs=7
calls=100000
cpu=0
bench=transport-floor
. "$(dirname "$0")/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--calls) calls=${2:?}; shift 2 ;;
	--cpu) cpu=${2:?}; shift 2 ;;
	-h|--help) sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "--runs: bad value '$runs'" ;; esac
case $calls in ''|*[!0-9]*|0) die "--calls: bad value '$calls'" ;; esac
case $cpu in ''|*[!0-9]*) die "--cpu: bad CPU '$cpu'" ;; esac

bdir=${top_builddir:-.}
PROTO=${PROTO:-$bdir/uring_zero_proto}
PREAD=${PREAD_Z100K:-$bdir/pread_z100k/pread_z100k}
[ -x "$PROTO" ] || die "uring_zero_proto not found at '$PROTO' (built with liburing and fuse3?)"
[ -x "$PREAD" ] || die "pread_z100k not found at '$PREAD'"
[ "$(id -u)" = 0 ] || die "needs root (FUSE mounts)"

tmp=$(mktemp -d /tmp/transport-floor.XXXXXX)
mnt=$tmp/mnt
param=$uring_param
uring_param_save
param_saved=$uring_param_saved
pid=
stop() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		pid=
	fi
}
cleanup() {
	stop
	uring_param_restore
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ns() { sed -n 's/.*"ns_per_call":\([0-9.]*\).*/\1/p'; }

echo "# transport-floor: pread 100 KiB, $runs alternating runs of $calls calls, reader on CPU $cpu"
echo "# host: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
table=$tmp/table
echo "| transport | READ answered by | us per call | kernel us per call | ratio |" >"$table"
echo "|---|---|---|---|---|" >>"$table"
while IFS='|' read -r label how opts <&3; do
	case $opts in
	*uring*)
		if [ -z "$param_saved" ] || ! echo Y >"$param" 2>/dev/null; then
			echo "# $label: skipped (no FUSE over io_uring: $param)"
			continue
		fi ;;
	esac
	mkdir -p "$mnt"
	# shellcheck disable=SC2086 # the options are a list
	"$PROTO" serve "$mnt" $opts 2>"$tmp/serve.err" &
	pid=$!
	i=0
	while [ ! -e "$mnt/zero" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$mnt/zero" ] || die "$label: no $mnt/zero: $(cat "$tmp/serve.err")"
	sleep 0.3	# the ring registers after INIT
	"$PREAD" -n 1000 --verify "$mnt/zero" >/dev/null || die "$label: reads are not zeros"
	K='' D=''
	r=0
	while [ $r -lt "$runs" ]; do
		K="$K $("$PREAD" -n "$calls" --json --cpu "$cpu" /dev/zero | ns)"
		D="$D $("$PREAD" -n "$calls" --json --cpu "$cpu" "$mnt/zero" | ns)"
		r=$((r + 1))
	done
	stop
	# shellcheck disable=SC2086 # word splitting of the run lists is wanted
	km=$(median $K) dm=$(median $D)
	echo "# $label, $how: $(head -1 "$tmp/serve.err" | sed 's/^uring_zero_proto: //')"
	echo "  runs us: kernel$(for v in $K; do awk -v v="$v" 'BEGIN { printf " %.2f", v / 1000 }'; done);" \
		"file$(for v in $D; do awk -v v="$v" 'BEGIN { printf " %.2f", v / 1000 }'; done)"
	awk -v l="$label" -v h="$how" -v d="$dm" -v k="$km" 'BEGIN {
		printf "| %s | %s | %.2f | %.2f | %.3f |\n", l, h, d / 1000, k / 1000, k / d }' >>"$table"
	[ -z "$param_saved" ] || echo "$param_saved" >"$param" 2>/dev/null || true
done 3<<EOF_ROWS
/dev/fuse, daemon on CPU $cpu|the default routine|--transport dev --pin-daemon $cpu --splice
/dev/fuse, daemon on CPU $cpu|nothing (--no-clear)|--transport dev --pin-daemon $cpu --splice --no-clear
io_uring|the default routine|--transport uring
io_uring|nothing (--no-clear)|--transport uring --no-clear
EOF_ROWS
echo
cat "$table"
echo
echo "# ratio = kernel us / file us (= device GB/s / kernel GB/s); the --no-clear rows are the"
echo "# transport's floor; a daemon that clears its bytes adds the routine's time on top."
