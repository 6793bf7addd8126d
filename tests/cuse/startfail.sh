#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a start-up that fails stops: a --pidfile that cannot be
# written and a privilege drop that fails end the start with a non-zero
# exit and one line naming the option, in the background (the parent
# reports its child's failure) and with -f; nothing stays mounted, no daemon
# keeps running, and no pidfile is left naming a dead or foreign process.
# A --pidfile that is not a regular file (a device node) or that a running
# daemon holds is refused and left as it was: a failed start removes only a
# pidfile it created.  Out of file descriptors (ulimit -n 5), the start
# says why in one line too.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

# running MNT: a process whose command line serves MNT, for up to 5 s.
# Busybox's timeout leaves its watcher (same command line) for up to a
# second after the command exited: a process that stays is a daemon.
running() {
	i=0
	while pgrep -f -- "--fuse $1" >/dev/null; do
		i=$((i + 1))
		[ "$i" -lt 50 ] || return 0
		sleep 0.1
	done
	return 1
}

# a pidfile in a folder that does not exist (one of the test's own, never
# made), and one that is a folder
for fg in "" -f; do
	for pf in "$CZ_TMP/absent/dir/pid" "$CZ_TMP"; do
		M=$CZ_TMP/mnt-pf${fg:-bg}
		mkdir -p "$M"
		timeout 20 "$CUSEZERO" $fg --fuse "$M" --pidfile "$pf" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
		st=$?
		sleep 0.2
		if [ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] &&
		   grep -q -- "--pidfile $pf" "$CZ_TMP/err" && ! cz_mounted "$M" && ! running "$M"; then
			pass "${fg:-background}: --pidfile $pf: exit $st, one line: $(cat "$CZ_TMP/err")"
		else
			fail "${fg:-background}: --pidfile $pf: exit $st, mounted: $(nmounts "$M"): $(head -c 300 "$CZ_TMP/err")"
			kill $(pgrep -f -- "--fuse $M") 2>/dev/null
			umount -l "$M" 2>/dev/null
		fi
	done
done

# A --pidfile that is a device node: refused, and the node stays.
M=$CZ_TMP/mnt-pfdev
mkdir -p "$M"
mknod "$CZ_TMP/full" c 1 7
timeout 20 "$CUSEZERO" --fuse "$M" --pidfile "$CZ_TMP/full" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
st=$?
ok "--pidfile naming a device node: exit $st, one line ($(cat "$CZ_TMP/err")), the node stays" -- \
	eval '[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] &&
	      [ -c "$CZ_TMP/full" ] && cz_wait "! cz_mounted $M" 50'

# A running daemon's pidfile, given to a second start that fails after
# opening it (--transport uring cannot go with --user): it still names the
# running daemon.
if cz_start pfa; then
	M=$CZ_TMP/mnt-pfb
	mkdir -p "$M"
	timeout 20 "$CUSEZERO" --fuse "$M" --pidfile "$CZ_TMP/pfa.pid" --transport uring \
		--user 65534 >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	st=$?
	ok "a failed second start with a running daemon's --pidfile: exit $st ($(cat "$CZ_TMP/err")), the file still names the daemon" -- \
		eval '[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ -n "$(cz_pid pfa)" ] &&
		      [ "$(cat /proc/$(cz_pid pfa)/comm)" = cusezero ] && cz_wait "! cz_mounted $M" 50'
	cz_stop pfa
else
	fail "start pfa: $(cat "$CZ_TMP/pfa.err")"
fi

# Out of descriptors (ulimit -n 5), in the background: whatever runs out
# first, the start says so in one line (or serves).
M=$CZ_TMP/mnt-nofile
mkdir -p "$M"
for pf in "" "$CZ_TMP/nofile.pid"; do
	(ulimit -n 5 && exec "$CUSEZERO" --fuse "$M" ${pf:+--pidfile "$pf"}) >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	st=$?
	[ -s "$CZ_TMP/nofile.pid" ] && cz_stop nofile
	cz_mounted "$M" && umount "$M"
	ok "ulimit -n 5${pf:+, --pidfile}: exit $st, one line ($(cat "$CZ_TMP/err"))" -- \
		eval '[ "$st" -eq 0 ] || [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ]'
done

# A privilege drop that fails: an ordinary user asking for root.
if command -v setpriv >/dev/null && command -v fusermount3 >/dev/null; then
	NR=$CZ_TMP/nr
	mkdir -p "$NR/mnt"
	chown -R 65534:65534 "$NR"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$CUSEZERO" --fuse "$NR/mnt" --pidfile "$NR/pid" --user root >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	st=$?
	sleep 0.2
	ok "privilege drop fails: exit $st, says so ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -ne 0 ] && grep -q -- '--user root' '$CZ_TMP/err'"
	ok "privilege drop fails: no daemon, no mount, no pidfile left" -- \
		eval '! running "$NR/mnt" && cz_wait "! cz_mounted $NR/mnt" 50 && ! [ -e "$NR/pid" ]'
else
	skip "privilege drop: needs setpriv and fusermount3"
fi
done_testing
