#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: --device-share of pread_z100k and zload over a fresh daemon:
# a `zeroctl --reset` during the run is reported as such (no share), even
# when the daemon had counted next to nothing before the run (the counters
# then do not go down: the reset shows in elapsed_ns).
# Needs: root fuse ioctl
. "$top_srcdir/tests/zload/zload-lib.sh"
P=$PREAD_Z100K
[ -x "$P" ] || skip_all "pread_z100k not built ($P)"
[ -x "$ZEROCTL" ] || skip_all "zeroctl not built ($ZEROCTL)"

MNT=$CZ_TMP/mnt
mkdir -p "$MNT" || exit 1
cleanup() {
	[ -n "${rp:-}" ] && kill "$rp" 2>/dev/null
	if [ -s "$CZ_TMP/pid" ]; then
		kill "$(cat "$CZ_TMP/pid")" 2>/dev/null
		i=0
		while mountpoint -q "$MNT" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	fi
	mountpoint -q "$MNT" && umount -l "$MNT"
	rm -rf "$CZ_TMP"
}
trap cleanup EXIT
D=$MNT/zero
requests() { "$ZEROCTL" "$D" --stats | awk '$1 == "requests" {print $2; exit}'; }

# reset_during DESC CMD...: CMD (a long run with --device-share) is reset by
# zeroctl once the daemon has counted 200 requests of it.
reset_during() {
	desc=$1; shift
	"$CUSEZERO" --fuse "$MNT" --pidfile "$CZ_TMP/pid" 2>"$CZ_TMP/start" ||
		{ fail "$desc: cusezero did not start: $(cat "$CZ_TMP/start")"; return; }
	"$@" >/dev/null 2>"$CZ_TMP/share" &
	rp=$!
	i=0
	while [ "$(requests)" -lt 200 ] 2>/dev/null && kill -0 $rp 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	if kill -0 $rp 2>/dev/null; then
		"$ZEROCTL" "$D" --reset
		wait $rp
		ok "$desc: the reset is reported ($(cat "$CZ_TMP/share"))" -- \
			grep -q "reset during the run" "$CZ_TMP/share"
	else
		wait $rp
		skip "$desc: the run ended before the reset (this machine is fast): $(cat "$CZ_TMP/share")"
	fi
	rp=
	# the next start reuses the pidfile: wait until this daemon has exited
	# (it holds its pidfile's lock until then; an ASan daemon's exit is slow)
	dp=$(cat "$CZ_TMP/pid")
	kill "$dp"
	i=0
	while kill -0 "$dp" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	while mountpoint -q "$MNT" && [ $i -lt 400 ]; do sleep 0.1; i=$((i + 1)); done
}

reset_during "pread_z100k --device-share" "$P" -n 40000 -s 4KB --device-share "$D"
if [ -x "$ZLOAD" ]; then
	# --runtime 20: 160 MB through FUSE took over 300 s in the arm64 VM
	# (QEMU TCG beside CI's first lane); the run ends at whichever comes first
	reset_during "zload --device-share" "$ZLOAD" --size 160MB --runtime 20 --bs 4KB --device-share "$D"
else
	skip "zload not built"
fi
done_testing
