#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job (README): the routines this CPU can use and their speed, the
# device (CUSE where the kernel has it, else FUSE) serving zeros, its pread
# 100 KiB throughput against the kernel's /dev/zero, a short A/B through the
# device (the default routine vs a C store loop: flagged end to end and in
# device) and the alignment sweep inside one daemon with its verdict.
# Usage: main-job.sh BUILDDIR
set -eu
b=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
PATH=$b/pread_z100k:$b:$PATH	# pread_z100k/ holds the program of that name
work=$(mktemp -d /tmp/cusezero-main.XXXXXX)
pidfile=$work/pid
dev=

step() { printf '\n=== %s\n' "$*"; }
cleanup() {
	if [ -s "$pidfile" ]; then
		kill "$(cat "$pidfile")" 2>/dev/null || true
		i=0; while kill -0 "$(cat "$pidfile")" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	mountpoint -q "$work/mnt" 2>/dev/null && umount -l "$work/mnt"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

step "zeroing routines on this CPU ($(uname -m))"
cusezero --routine help

# zbench prints perf's "GB/sec", 2^30 bytes/s: GiB/s here; the device lines below are 10^9 (GB/s).
step "in-process throughput, 100 KiB per call (zbench memset -s 100KB -l 2000 -f all)"
zbench memset -s 100KB -l 2000 -f all |
	awk -F"'" '/^# function/ { name = $2 } /GB\/sec/ { printf "  %-26s %8.2f GiB/s\n", name, $1 }'

# Daemon and readers on one CPU (co-located, as zab does): no cross-CPU wake-up per request.
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
step "starting the device (serving on CPU $cpu)"
if [ -e /dev/cuse ] || modprobe cuse 2>/dev/null; then
	cusezero --name cusezero-main --pidfile "$pidfile" --cpu "$cpu"
	dev=/dev/cusezero-main
	echo "CUSE device $dev ($(stat -c '%A %U:%G' $dev))"
else
	echo "this kernel has no CUSE (/dev/cuse missing, modprobe cuse failed): using the FUSE front end"
	mkdir -p "$work/mnt"
	cusezero --fuse "$work/mnt" --pidfile "$pidfile" --cpu "$cpu"
	dev=$work/mnt/zero
	echo "FUSE device $dev"
fi

step "reading it: the first 64 bytes, then 64 MiB compared with the kernel's /dev/zero"
head -c 64 "$dev" | od -A d -t x1
head -c 64M "$dev" | cmp - /dev/zero -n 67108864 && echo "64 MiB read: all zero"

step "pread 100 KiB: kernel /dev/zero vs the device (pread_z100k -n 20000 --cpu $cpu, co-located)"
k=$(pread_z100k -n 20000 --cpu "$cpu" --format simple /dev/zero)
d=$(pread_z100k -n 20000 --cpu "$cpu" --format simple --device-share "$dev")
awk -v k="$k" -v d="$d" 'BEGIN {
	printf "kernel /dev/zero  %8.2f GB/s (10^9 B/s)\n", k / 1e9
	printf "cusezero device   %8.2f GB/s (10^9 B/s)\n", d / 1e9
	printf "ratio device/kernel %.3f\n", d / k }'

step "device statistics (zeroctl --stats)"
zeroctl "$dev" --stats

step "stopping the device"
kill "$(cat "$pidfile")"
i=0; while kill -0 "$(cat "$pidfile")" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
: > "$pidfile"
[ -e "$dev" ] && echo "warning: $dev still present" || echo "device gone"

step "A/B through the device: default routine vs c_store_loop, co-located, end to end and in device (zab)"
zab run "$top/experiments/quick-routine" --style box

step "alignment sweep in one daemon: clear_user_arm64_quirk loop head at 0..127:4 (zbench align --device new)"
zbench align -f clear_user_arm64_quirk --offsets 0..127:4 --device new | grep -E '^# (device|in-device|end-to-end)'
