#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: --poll-us (issue #7 lever, off by default): bad values are
# refused with one line; with it the daemon spins on /dev/fuse after a
# request (its CPU time grows while the device is idle, and does not
# without it); reads are zeros; SIGTERM stops it while it sleeps or spins,
# with one worker or several.  io-poll.sh runs all of io.sh with it.
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

for v in x -1 1000001; do
	"$CUSEZERO" --fuse "$CZ_TMP/mnt-bad" --poll-us "$v" 2>"$CZ_TMP/bad.err"
	st=$?
	ok "--poll-us $v exits 2 (got $st): $(head -1 "$CZ_TMP/bad.err")" -- \
		sh -c "[ $st -eq 2 ] && [ \$(wc -l <'$CZ_TMP/bad.err') -eq 1 ] && grep -q -- '--poll-us $v' '$CZ_TMP/bad.err'"
done

# cpu_ticks PID: user + system time of the whole process, in clock ticks.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# spin NAME OPTS...: one 100 KiB read, then the daemon's CPU ticks over the
# next second ($ticks) and over the second after that ($idle); reads zeros ($nz).
spin() {
	n=$1; shift
	ticks=x idle=x nz=x
	cz_start "$n" "$@" || { fail "start cusezero $*: $(cat "$CZ_TMP/$n.err")"; return 1; }
	p=$(cz_pid "$n")
	t0=$(cpu_ticks "$p")
	nz=$(dd if="$CZ_TMP/mnt-$n/zero" bs=100k count=1 2>/dev/null | tr -d '\000' | wc -c)
	sleep 1
	t1=$(cpu_ticks "$p")
	sleep 1
	t2=$(cpu_ticks "$p")
	ticks=$((t1 - t0)) idle=$((t2 - t1))
}

if spin p1 --poll-us 400000; then
	ok "--poll-us 400000: a read gives zeros (non-zero: $nz)" -- [ "$nz" -eq 0 ]
	# 0.4 s of spinning is ~40 ticks on an idle CPU; a busy machine gives it less
	ok "--poll-us 400000: the daemon spins after a request ($ticks ticks in 1 s)" -- [ "$ticks" -ge 5 ]
	# the spin follows requests: an idle device's poll wake-ups (every 200 ms) do not spin
	ok "--poll-us 400000: then it sleeps ($idle ticks in the next second)" -- [ "$idle" -lt 5 ]
	ok "--poll-us: SIGTERM stops it while it sleeps" -- cz_stop p1
fi
if spin p0; then
	ok "default (no --poll-us): idle daemon, no spinning ($ticks ticks in 1 s)" -- [ "$ticks" -lt 5 ]
	cz_stop p0
fi
# SIGTERM while spinning (1 s budget after each request), two workers.
if cz_start p2 --poll-us 1000000 --threads 2; then
	Z=$CZ_TMP/mnt-p2/zero
	n=$(dd if="$Z" bs=1M count=4 2>/dev/null | tr -d '\000' | wc -c)
	ok "--poll-us 1000000 --threads 2: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	ok "--poll-us 1000000 --threads 2: SIGTERM stops it mid-spin" -- cz_stop p2
	ok "--poll-us: no mount left" -- eval "! cz_mounted '$CZ_TMP/mnt-p2'"
else
	fail "start cusezero --poll-us 1000000 --threads 2: $(cat "$CZ_TMP/p2.err")"
fi
done_testing
