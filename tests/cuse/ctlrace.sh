#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: one open `control` fd written by two threads (texts of 4..64
# KiB that end inside a word, so the daemon holds them) and closed through
# dup()s by two more (each close is a FLUSH that applies the held text), as
# the daemon's --owner user, against --threads 2, --threads 4 and the
# io_uring transport.  The kernel sends FLUSH without the inode lock, so the
# held text is touched by several workers at once; this once corrupted the
# root daemon's heap within seconds.  The daemon must stay up and serve
# zeros; under ASan/TSan (scripts/setup) a report fails the test too.
# Needs: root fuse ioctl io_uring
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

if command -v setpriv >/dev/null; then
	as_owner() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
	owner="--owner 65534"
	who="uid 65534 (--owner)"
else
	as_owner() { "$@"; }
	owner=""
	who="root (no setpriv: util-linux)"
fi

race() {
	name=$1; shift
	# shellcheck disable=SC2086 # $owner is one option and its value, or nothing
	if ! cz_start "$name" --poison $owner "$@"; then
		fail "start cusezero --fuse $*: $(cat "$CZ_TMP/$name.err")"
		return
	fi
	pid=$(cz_pid "$name")
	Z=$CZ_TMP/mnt-$name/zero
	out=$CZ_TMP/$name.check
	as_owner "$top_builddir/tests/cuse/zdev-check" ctlrace "$Z" 4 >"$out" 2>&1
	st=$?
	sed 's/^/# /' "$out"
	ok "$*: as $who, 2 writers + 2 closers on one control fd for 4 s (zdev-check status $st)" -- \
		eval '[ "$st" -eq 0 ] && grep -q "^ok " "$out"'
	ok "$*: the daemon (pid $pid) is still alive" -- kill -0 "$pid"
	got=$(head -c 1000000 "$Z" | wc -c)
	n=$(head -c 1000000 "$Z" | tr -d '\000' | wc -c)
	ok "$*: it still serves zeros (1000000 bytes read: $got, non-zero: $n)" -- \
		eval '[ "$got" -eq 1000000 ] && [ "$n" -eq 0 ]'
	ok "$*: SIGTERM stops it" -- cz_stop "$name"
}

race t2 --threads 2
race t4 --threads 4

PARAM=/sys/module/fuse/parameters/enable_uring
if [ -f "$PARAM" ]; then
	cz_lock_enable_uring
	param_saved=$(cat "$PARAM")
	if echo Y >"$PARAM" 2>/dev/null; then
		trap 'echo "$param_saved" >"$PARAM" 2>/dev/null; cz_cleanup' EXIT
		race ring --transport uring
	else
		skip "--transport uring: cannot write $PARAM"
	fi
else
	skip "--transport uring: kernel without CONFIG_FUSE_IO_URING (no $PARAM)"
fi
done_testing
