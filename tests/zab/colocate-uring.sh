#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: Co-location on the io_uring transport: in a zab run with --colocate 0 and
# `--transport uring` daemons, the benchmark runs on CPU 0 and the daemon has
# a queue thread pinned to each CPU (the kernel hands a request to the queue
# of the reader's CPU, pinned there by design).  The daemons switch
# enable_uring on and back, as `--transport uring` does as root, under the
# lock fuse-uring.sh takes.  Apart from colocate.sh so that the arm64 VM's
# second boot (a kernel with CONFIG_FUSE_IO_URING) runs it without the rest.
# Needs root (FUSE mounts), $CUSEZERO and CONFIG_FUSE_IO_URING.
# Needs: root fuse io_uring
. "$top_srcdir/tests/cuse/lib.sh"	# (TAP helpers, cz_lock_enable_uring)
[ -e /sys/module/fuse/parameters/enable_uring ] ||
	skip_all "kernel without CONFIG_FUSE_IO_URING (no /sys/module/fuse/parameters/enable_uring)"
. "$top_srcdir/tests/zab/colocatelib.sh"
cz_lock_enable_uring

# io_uring: the reader's CPU's queue thread serves it, pinned there by design
: >"$CZ_TMP/log"
"$ZAB" run -b "p=$CZ_TMP/probe $CZ_TMP/log" -v 'a:routine=c_store_loop,cusezero-args=--transport uring' \
	-v 'b:routine=c_store_loop,cusezero-args=--transport uring' -S 1 -R 1 --colocate 0 \
	--cusezero "$CUSEZERO" >/dev/null 2>&1
# (a queue thread pinned to each CPU: the ring transport did start; its
# loop thread runs on CPU 0 as --cpu 0 says)
ok "io_uring: benchmark on CPU 0 and a queue thread pinned to each of the $ncpu CPUs in every run" -- \
	awk -v n="$ncpu" '{ if ($2 != "0") bad = 1; delete f
		for (i = 3; i <= NF; i++) { split($i, t, "/"); if (t[1] ~ /^[0-9]+$/) f[t[1]] = 1 }
		for (c = 0; c < n; c++) if (!(c in f)) bad = 1 }
	     END { exit bad || NR != 2 }' "$CZ_TMP/log"
sed 's/^/# /' "$CZ_TMP/log"
done_testing
