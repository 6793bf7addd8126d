#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the scheduler levers on the io_uring transport
# (doc/fuse-uring.md, "Scheduler levers"): with --transport uring
# --sched-idle --cpu 0 the daemon has one queue thread per possible CPU plus
# the loop thread, all SCHED_IDLE (SCHED_OTHER only where the starvation
# guard says it stepped in), the loop thread on CPU 0, and reads are zeros.
# Apart from sched.sh so that the arm64 VM's second boot (a kernel with
# CONFIG_FUSE_IO_URING) runs it without the rest.  Needs root and a kernel
# with CONFIG_FUSE_IO_URING; restores /sys/module/fuse/parameters/enable_uring.
# Needs: root fuse io_uring
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
. "$top_srcdir/tests/cuse/schedlib.sh"

cz_take_enable_uring

# io_uring: the queue threads switch too (one per possible CPU, plus the loop).
if cz_start ring --poison --transport uring --sched-idle --cpu 0; then
	Z=$CZ_TMP/mnt-ring/zero
	p=$(cz_pid ring)
	possible=$(cat /sys/devices/system/cpu/possible)
	nq=$(echo "$possible" | tr ',' '\n' |
		awk -F- '{ n += (NF == 2 ? $2 - $1 + 1 : 1) } END { print n }')
	n=$(zeros "$Z")
	ok "uring --sched-idle: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	cz_check uring "$Z"
	ok "uring: $nq queue threads + the loop thread (have $(ntasks "$p"))" -- \
		cz_wait "[ \$(ntasks $p) -eq $((nq + 1)) ]" 100
	check_tasks ring "uring --sched-idle: loop and queue threads SCHED_IDLE" 5
	c=$(cpus "/proc/$p/task/$p")
	ok "uring --cpu 0: the loop thread is on CPU 0 (cpus $c)" -- [ "$c" = 0 ]
	ok "SIGTERM stops it" -- cz_stop ring
	ok "no mount left at mnt-ring" -- eval "! cz_mounted '$CZ_TMP/mnt-ring'"
else
	fail "start cusezero --transport uring --sched-idle: $(cat "$CZ_TMP/ring.err")"
fi
cz_set_enable_uring "$param_saved"
ok "enable_uring restored to '$param_saved' (now $(cat "$PARAM"))" -- [ "$(cat "$PARAM")" = "$param_saved" ]
done_testing
