#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# device-vs-kernel.sh: the device's own overhead as one figure (issue #7).
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
#
# Without --device it starts `cusezero --fuse MOUNTPOINT` with its DEFAULT
# settings (plus --daemon-opts, e.g. "--transport dev" to compare), reads
# MOUNTPOINT/zero, and stops the daemon at exit.  Programs come from $CUSEZERO,
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
size=100KB

die() { echo "device-vs-kernel: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--seconds) seconds=${2:?}; shift 2 ;;
	--pin) pin=${2:?}; shift 2 ;;
	--device) device=${2:?}; shift 2 ;;
	--daemon-opts) daemon_opts=${2:?}; shift 2 ;;
	--no-zload) do_zload=0; shift ;;
	-h|--help) sed -n '4,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $runs in ''|*[!0-9]*|0) die "--runs: bad value '$runs'" ;; esac
case $seconds in ''|*[!0-9.]*) die "--seconds: bad value '$seconds'" ;; esac
case $pin in ''|*[!0-9]*) die "--pin: bad CPU '$pin'" ;; esac

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
pidfile=$tmp/pid
mnt=$tmp/mnt
cleanup() {
	if [ -s "$pidfile" ]; then
		kill "$(cat "$pidfile")" 2>/dev/null || true
		i=0
		while mountpoint -q "$mnt" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
	fi
	rm -rf "$tmp" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$device" ]; then
	[ -x "$CUSEZERO" ] || die "cusezero not found at '$CUSEZERO' (set CUSEZERO)"
	mkdir -p "$mnt"
	# shellcheck disable=SC2086 # daemon_opts is a list of options
	"$CUSEZERO" --name "dvk$$" --fuse "$mnt" --pidfile "$pidfile" $daemon_opts ||
		die "cannot start: $CUSEZERO --fuse $mnt $daemon_opts"
	device=$mnt/zero
	desc="cusezero --fuse${daemon_opts:+ $daemon_opts} (defaults otherwise)"
else
	desc="given device"
fi
[ -r "$device" ] || die "device '$device' is not readable"

# json_field JSON NAME: the number after "NAME":
json_field() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p"
}

# median of the arguments (numbers)
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
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
echo "# device: $device ($desc)"
echo "# host: $(uname -r), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
param=/sys/module/fuse/parameters/enable_uring
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
