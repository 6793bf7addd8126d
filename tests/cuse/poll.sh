#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: --poll-us (a speed lever, off by default): bad values are
# refused with one line; with it the daemon spins on /dev/fuse after a
# request (its CPU time while requests trickle in is several times that of
# a daemon without it, measured side by side) and sleeps once the budget is
# spent; reads are zeros; SIGTERM stops it while it sleeps or spins, with one
# worker or several.  io-poll.sh runs all of io.sh with it.
# Needs: root fuse
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

# Two daemons in the same run, one with --poll-us 400000 (p1) and one without
# (p0), get the same reads (one 100 KiB read each every 0.2 s for 2 s): the
# polling one keeps spinning through that window, the other sleeps between
# requests.  Then nothing for 0.6 s (the 0.4 s budget runs out) and a 1 s
# window with no request.  Every check compares the two daemons, or a daemon
# with itself, measured side by side: a busy machine slows both alike and
# does not decide the result (absolute tick counts would).
if cz_start p1 --poll-us 400000 && cz_start p0; then
	P=$(cz_pid p1) D=$(cz_pid p0)
	nz=0
	p_0=$(cpu_ticks "$P") d_0=$(cpu_ticks "$D")
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for n in p1 p0; do
			z=$(dd if="$CZ_TMP/mnt-$n/zero" bs=100k count=1 2>/dev/null | tr -d '\000' | wc -c)
			nz=$((nz + z))
		done
		sleep 0.2
	done
	p_1=$(cpu_ticks "$P") d_1=$(cpu_ticks "$D")
	sleep 0.6
	p_2=$(cpu_ticks "$P") d_2=$(cpu_ticks "$D")
	sleep 1
	p_3=$(cpu_ticks "$P") d_3=$(cpu_ticks "$D")
	busy=$((p_1 - p_0)) base=$((d_1 - d_0)) idle=$((p_3 - p_2)) base_idle=$((d_3 - d_2))
	diag "ticks while reading: --poll-us $busy, default $base; idle 1 s: --poll-us $idle, default $base_idle"
	ok "reads of both daemons give zeros (non-zero: $nz)" -- [ "$nz" -eq 0 ]
	ok "--poll-us 400000 spins between requests: $busy ticks against $base without it (want > 4x)" -- \
		[ "$busy" -gt $((4 * base)) ]
	ok "--poll-us 400000 then sleeps: $idle ticks idle against $busy while reading (want < 1/4)" -- \
		[ $((4 * idle)) -lt "$busy" ]
	ok "default (no --poll-us) does not spin: $base ticks while reading, $base_idle idle, against $busy" -- \
		[ $((4 * (base + base_idle))) -lt "$busy" ]
	ok "--poll-us: SIGTERM stops it while it sleeps" -- cz_stop p1
	cz_stop p0
else
	fail "start: $(cat "$CZ_TMP/p1.err" "$CZ_TMP/p0.err" 2>/dev/null)"
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
