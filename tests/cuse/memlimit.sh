#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a daemon started under a memory limit either fails its start
# (non-zero exit, one line saying what could not be allocated, nothing
# mounted) or serves every read: every worker allocates its buffers before
# the start reports success, and no request taken is left unanswered (a
# reader stuck in the kernel's wait for an answer cannot even be killed).
# Several limits around what --threads 8 needs, so both sides are seen.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
[ -z "$cz_san" ] || skip_all "$cz_san build: the sanitizer's shadow memory needs no address-space limit"

# free_mount MNT: end a reader stuck on MNT (a new request, then the
# connection's abort switch) so that the test itself never hangs.
free_mount() {
	stat "$1/zero" >/dev/null 2>&1 &
	dev=$(stat -c %d "$1" 2>/dev/null)
	[ -n "$dev" ] && [ -w "/sys/fs/fuse/connections/$dev/abort" ] &&
		echo 1 >"/sys/fs/fuse/connections/$dev/abort"
}

for kb in 30000 45000 60000 75000 90000 120000; do
	n=lim$kb
	M=$CZ_TMP/mnt-$n
	mkdir -p "$M"
	( ulimit -v $kb; exec timeout 30 "$CUSEZERO" --fuse "$M" --threads 8 \
		--pidfile "$CZ_TMP/$n.pid" ) >/dev/null 2>"$CZ_TMP/$n.err"
	st=$?
	if [ "$st" -ne 0 ]; then
		ok "ulimit -v $kb: start fails (exit $st), one line, nothing mounted: $(head -c 200 "$CZ_TMP/$n.err")" -- \
			sh -c "[ $st -ne 124 ] && [ \$(wc -l <'$CZ_TMP/$n.err') -eq 1 ] && ! grep -q '^\$' '$CZ_TMP/$n.err'"
		ok "ulimit -v $kb: nothing left mounted" -- sh -c "! awk '\$5 == \"$M\"' /proc/self/mountinfo | grep -q ."
		continue
	fi
	# Started: 3 MB through every worker (cmp reads 4 KiB at a time, dd
	# in parallel 1 MiB at a time), bounded at 30 s.
	cmp -n 3000000 "$M/zero" /dev/zero >"$CZ_TMP/cmp.out" 2>&1 &
	r1=$!
	dd if="$M/zero" of=/dev/null bs=1M count=8 status=none 2>"$CZ_TMP/dd.err" &
	r2=$!
	cz_wait "! kill -0 $r1 2>/dev/null && ! kill -0 $r2 2>/dev/null" 300
	if kill -0 $r1 2>/dev/null || kill -0 $r2 2>/dev/null; then
		fail "ulimit -v $kb: start exit 0, a reader is still waiting after 30 s ($(ps -o stat=,wchan= -p $r1 $r2 | tr '\n' ' '))"
		free_mount "$M"
		kill -9 $r1 $r2 2>/dev/null
		cz_wait "! kill -0 $r1 2>/dev/null && ! kill -0 $r2 2>/dev/null" 100
	else
		wait $r1; s1=$?
		wait $r2; s2=$?
		ok "ulimit -v $kb: start exit 0, reads served (cmp $s1, dd $s2: $(cat "$CZ_TMP/cmp.out" "$CZ_TMP/dd.err" | head -c 200))" -- \
			sh -c "[ $s1 -eq 0 ] && [ $s2 -eq 0 ]"
	fi
	cz_stop "$n" || { kill -9 "$(cz_pid "$n")" 2>/dev/null; free_mount "$M"; }
	umount -l "$M" 2>/dev/null
done
done_testing
