#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a daemon started under a memory limit either fails its start
# (non-zero exit, one line saying what could not be allocated, nothing
# mounted) or serves every read: every worker allocates its buffers before
# the start reports success, and no request taken is left unanswered (a
# reader stuck in the kernel's wait for an answer cannot even be killed).
# Several limits around what --threads 8 needs, so both sides are seen.
# Bounds from measured speed: the same start and readers without a limit
# first; a start or read 20 times as slow (30 s at least) is stuck.
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

bail() { fail "$*"; done_testing; exit 1; }
# readers MNT: 3 MB through every worker (cmp reads 4 KiB at a time, dd in
# parallel 1 MiB at a time) as r1 and r2.
readers() {
	cmp -n 3000000 "$1/zero" /dev/zero >"$CZ_TMP/cmp.out" 2>&1 &
	r1=$!
	dd if="$1/zero" of=/dev/null bs=1M count=8 status=none 2>"$CZ_TMP/dd.err" &
	r2=$!
}

# The reference: how long the start and the readers take here (0.3 s natively,
# several in the arm64 VM under TCG, more on a loaded host).
t=$(cz_up)
cz_start ref --threads 8 || bail "a --threads 8 start without a limit failed: $(head -c 200 "$CZ_TMP/ref.err")"
readers "$CZ_TMP/mnt-ref"
if ! cz_within 300 "cz_gone $r1 $r2"; then
	free_mount "$CZ_TMP/mnt-ref"
	bail "without a limit, a reader still waits after 300 s ($(cz_pstate $r1 $r2))"
fi
if ! wait $r1 || ! wait $r2; then
	bail "without a limit, the reads failed: $(cat "$CZ_TMP/cmp.out" "$CZ_TMP/dd.err" | head -c 200)"
fi
ref_s=$(cz_since "$t")
cz_stop ref
bound=$(awk -v r="$ref_s" 'BEGIN { b = 20 * r; printf "%d", (b > 30 ? b + 0.5 : 30) }')
diag "without a limit: start and reads in $ref_s s; bound $bound s"

for kb in 30000 45000 60000 75000 90000 120000; do
	n=lim$kb
	M=$CZ_TMP/mnt-$n
	mkdir -p "$M"
	t=$(cz_up)
	( ulimit -v $kb; exec timeout "$bound" "$CUSEZERO" --fuse "$M" --threads 8 \
		--pidfile "$CZ_TMP/$n.pid" ) >/dev/null 2>"$CZ_TMP/$n.err"
	st=$?
	if [ "$st" -ne 0 ]; then
		ok "ulimit -v $kb: start fails (exit $st), one line, nothing mounted: $(head -c 200 "$CZ_TMP/$n.err")" -- \
			sh -c "[ $st -ne 124 ] && [ \$(wc -l <'$CZ_TMP/$n.err') -eq 1 ] && ! grep -q '^\$' '$CZ_TMP/$n.err'"
		ok "ulimit -v $kb: nothing left mounted" -- sh -c "! awk '\$5 == \"$M\"' /proc/self/mountinfo | grep -q ."
		continue
	fi
	readers "$M"
	if ! cz_within "$bound" "cz_gone $r1 $r2"; then
		fail "ulimit -v $kb: start exit 0, a reader is still waiting after $bound s ($(cz_pstate $r1 $r2))"
		free_mount "$M"
		kill -9 $r1 $r2 2>/dev/null
		cz_within 10 "cz_gone $r1 $r2"
	else
		wait $r1; s1=$?
		wait $r2; s2=$?
		ok "ulimit -v $kb: start exit 0, reads served in $(cz_since "$t") s (cmp $s1, dd $s2: $(cat "$CZ_TMP/cmp.out" "$CZ_TMP/dd.err" | head -c 200))" -- \
			sh -c "[ $s1 -eq 0 ] && [ $s2 -eq 0 ]"
	fi
	cz_stop "$n" || { kill -9 "$(cz_pid "$n")" 2>/dev/null; free_mount "$M"; }
	umount -l "$M" 2>/dev/null
done
done_testing
