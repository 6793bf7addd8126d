#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# device-vs-kernel.sh: the device's own overhead as one figure.
#
# pread_z100k (100 KiB per call, enough calls for >= --seconds per run)
# against the kernel's /dev/zero and against a cusezero device, alternating
# kernel/device, --runs runs each, in ONE invocation; prints the median
# throughput of each and the ratio device/kernel, first with the reader
# unpinned, then with the reader pinned to --pin CPU.  Then the per-call
# latency of 4 KiB preads (median ns/call) and zload at queue depth 32
# (median bytes/s), device vs kernel, alternating the same way.
#
#   bench/device-vs-kernel.sh [--runs N] [--seconds S] [--pin CPU]
#                             [--device PATH | --daemon-opts "OPTS"] [--no-zload]
#   bench/device-vs-kernel.sh --levers [--runs N] [--seconds S] [--pin CPU]
#
# Without --device it starts `cusezero --fuse MOUNTPOINT` with its DEFAULT
# settings (plus --daemon-opts, e.g. "--transport dev" to compare), reads
# MOUNTPOINT/zero, and stops the daemon at exit.  --levers runs the pread
# 100 KiB rounds (unpinned and pinned) for each scheduler-lever configuration
# in turn -- /dev/fuse and io_uring, default and --sched-idle [--cpu 0],
# /dev/fuse with --poll-us 50 and with --reply writev --
# and prints one table; it sets the host's enable_uring switch for the
# io_uring rows (root) and restores it at exit.  Programs come from $CUSEZERO,
# $PREAD_Z100K, $ZLOAD, else from the build directory given by $top_builddir
# (default: the current directory).  Numbers are from a shared, noisy machine
# unless you made it quiet: read the per-run values printed with each median.
set -eu

runs=5
seconds=2
pin=0
device=
daemon_opts=
do_zload=1
levers=0
size=100KB

bench=device-vs-kernel
. "$(dirname "$0")/lib.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--seconds) seconds=${2:?}; shift 2 ;;
	--pin) pin=${2:?}; shift 2 ;;
	--device) device=${2:?}; shift 2 ;;
	--daemon-opts) daemon_opts=${2:?}; shift 2 ;;
	--no-zload) do_zload=0; shift ;;
	--levers) levers=1; shift ;;
	-h|--help) sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "--runs: bad value '$runs'" ;; esac
case $seconds in ''|*[!0-9.]*) die "--seconds: bad value '$seconds'" ;; esac
case $pin in ''|*[!0-9]*) die "--pin: bad CPU '$pin'" ;; esac
if [ "$levers" = 1 ] && [ -n "$device$daemon_opts" ]; then
	die "--levers starts its own daemons: not with --device or --daemon-opts"
fi

bdir=${top_builddir:-.}
CUSEZERO=${CUSEZERO:-$bdir/cusezero}
PREAD_Z100K=${PREAD_Z100K:-$bdir/pread_z100k/pread_z100k}
ZLOAD=${ZLOAD:-$bdir/zload}
[ -x "$PREAD_Z100K" ] || die "pread_z100k not found at '$PREAD_Z100K' (set PREAD_Z100K)"
if [ "$do_zload" = 1 ] && [ ! -x "$ZLOAD" ]; then
	echo "# zload not found at '$ZLOAD': skipping the qd 32 figure" >&2
	do_zload=0
fi

tmp=$(mktemp -d /tmp/device-vs-kernel.XXXXXX)
mnt=$tmp/mnt
param=$uring_param
uring_param_save
param_saved=$uring_param_saved
cleanup() {
	daemon_stop "$mnt"
	uring_param_restore
	rm -rf "$tmp" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_daemon OPTS: cusezero --fuse $mnt OPTS; sets device and desc
start_daemon() {
	# shellcheck disable=SC2086 # the options are a list
	daemon_start "$mnt" $1 ||
		die "cannot start: $CUSEZERO --fuse $mnt $1: $(head -n 1 "$mnt.err")"
	device=$mnt/zero
	desc="cusezero --fuse${1:+ $1} (defaults otherwise)"
	[ -r "$device" ] || die "device '$device' is not readable"
}

if [ "$levers" = 1 ]; then
	:
elif [ -z "$device" ]; then
	start_daemon "$daemon_opts"
else
	desc="given device"
	[ -r "$device" ] || die "device '$device' is not readable"
fi

# json_field JSON NAME: the number after "NAME":
json_field() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p"
}


# calls SIZE DEV [PIN]: number of calls for >= $seconds (from a short probe)
calls() {
	j=$("$PREAD_Z100K" -s "$1" -n 2000 --json ${3:+--cpu "$3"} "$2") ||
		die "pread_z100k failed on $2"
	ns=$(json_field "$j" ns_per_call)
	awk -v ns="$ns" -v s="$seconds" 'BEGIN { n = int(s * 1e9 / ns * 1.1) + 1;
		if (n < 1000) n = 1000; print n }'
}

# pread_round SIZE FIELD [PIN]: alternate kernel/device; sets K and D (lists)
pread_round() {
	nk=$(calls "$1" /dev/zero "${3:-}")
	nd=$(calls "$1" "$device" "${3:-}")
	K='' D=''
	r=0
	while [ $r -lt "$runs" ]; do
		j=$("$PREAD_Z100K" -s "$1" -n "$nk" --json ${3:+--cpu "$3"} /dev/zero) ||
			die "pread_z100k failed on /dev/zero"
		K="$K $(json_field "$j" "$2")"
		j=$("$PREAD_Z100K" -s "$1" -n "$nd" --json ${3:+--cpu "$3"} "$device") ||
			die "pread_z100k failed on $device"
		D="$D $(json_field "$j" "$2")"
		r=$((r + 1))
	done
}

gbs() { awk -v b="$1" 'BEGIN { printf "%.2f GB/s", b / 1e9 }'; }
runs_gbs() { for v in "$@"; do awk -v b="$v" 'BEGIN { printf " %.2f", b / 1e9 }'; done; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "# device-vs-kernel: $runs runs per side, alternating, >= ${seconds} s per run"
echo "# host: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$levers" = 1 ]; then
	table=$tmp/table
	printf '| %s | %s | %s | %s | %s |\n' configuration "device GB/s" "kernel GB/s" \
		"ratio unpinned" "ratio reader on CPU $pin" >"$table"
	echo '|---|---|---|---|---|' >>"$table"
	# enable_uring for the row (- = leave it)|daemon options
	while IFS='|' read -r sw opts <&3; do
		label="\`$opts\`"
		[ "$sw" = - ] || label="$label (enable_uring=$sw)"
		if [ "$sw" != - ]; then
			if [ -z "$param_saved" ]; then
				echo "# $label: skipped (no $param: kernel without FUSE over io_uring)"
				continue
			fi
			echo "$sw" >"$param" 2>/dev/null || {
				echo "# $label: skipped (cannot write $param; needs root)"
				continue
			}
		fi
		start_daemon "$opts"
		echo "# $label: $desc; enable_uring $(cat "$param" 2>/dev/null || echo absent)"
		# shellcheck disable=SC2086 # word splitting of the run lists is wanted
		{
		pread_round "$size" bytes_per_sec
		km=$(median $K) dm=$(median $D)
		echo "  unpinned runs GB/s: kernel$(runs_gbs $K); device$(runs_gbs $D)"
		ru=$(ratio "$dm" "$km")
		pread_round "$size" bytes_per_sec "$pin"
		echo "  reader on CPU $pin runs GB/s: kernel$(runs_gbs $K); device$(runs_gbs $D)"
		rp=$(ratio "$(median $D)" "$(median $K)")
		}
		printf '| %s | %s | %s | %s | %s |\n' "$label" "$(gbs "$dm" | cut -d' ' -f1)" \
			"$(gbs "$km" | cut -d' ' -f1)" "$ru" "$rp" >>"$table"
		daemon_stop "$mnt"
		if [ -n "$param_saved" ]; then
			echo "$param_saved" >"$param" 2>/dev/null || true
		fi
	done 3<<-EOF
	-|--transport dev
	-|--transport dev --sched-idle
	-|--transport dev --sched-idle --cpu 0
	-|--transport dev --poll-us 50
	-|--transport dev --reply writev
	Y|--transport uring
	Y|--transport uring --sched-idle
	EOF
	echo "# pread $size, medians of $runs runs; device and kernel GB/s with the reader unpinned"
	cat "$table"
	exit 0
fi

echo "# device: $device ($desc)"
echo "# FUSE over io_uring switch (cusezero --transport auto uses it when Y): $(cat "$param" 2>/dev/null || echo "absent (kernel without CONFIG_FUSE_IO_URING)")"

# shellcheck disable=SC2086 # word splitting of the run lists is wanted
{
pread_round "$size" bytes_per_sec
km=$(median $K) dm=$(median $D)
echo "pread $size unpinned:  kernel $(gbs "$km")  device $(gbs "$dm")  ratio $(ratio "$dm" "$km")"
echo "  runs GB/s: kernel$(runs_gbs $K); device$(runs_gbs $D)"

pread_round "$size" bytes_per_sec "$pin"
km=$(median $K) dm=$(median $D)
echo "pread $size reader on CPU $pin:  kernel $(gbs "$km")  device $(gbs "$dm")  ratio $(ratio "$dm" "$km")"
echo "  runs GB/s: kernel$(runs_gbs $K); device$(runs_gbs $D)"

pread_round 4KB ns_per_call
km=$(median $K) dm=$(median $D)
echo "pread 4KB latency:  kernel $km ns/call  device $dm ns/call  (device/kernel $(ratio "$dm" "$km"))"
echo "  runs ns/call: kernel$(printf ' %s' $K); device$(printf ' %s' $D)"
}

if [ "$do_zload" = 1 ]; then
	K='' D=''
	r=0
	while [ $r -lt "$runs" ]; do
		K="$K $("$ZLOAD" --bs "$size" --qd 32 --time "$seconds" --format simple /dev/zero)" ||
			die "zload failed on /dev/zero"
		D="$D $("$ZLOAD" --bs "$size" --qd 32 --time "$seconds" --format simple "$device")" ||
			die "zload failed on $device"
		r=$((r + 1))
	done
	# shellcheck disable=SC2086
	{
	km=$(median $K) dm=$(median $D)
	echo "zload $size qd 32:  kernel $(gbs "$km")  device $(gbs "$dm")  ratio $(ratio "$dm" "$km")"
	echo "  runs GB/s: kernel$(runs_gbs $K); device$(runs_gbs $D)"
	}
fi
