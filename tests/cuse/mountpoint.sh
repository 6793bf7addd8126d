#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: what a start accepts as a mount point, and what nobody else
# can make it do.  Refused with one line, nothing mounted, what was there
# left as it was: a directory that is not empty, a path where something is
# mounted (a tmpfs here; /proc on a host), the root directory, a FUSE mount
# whose daemon is stopped (SIGSTOP: the start must not hang) or a folder
# below it, another user's dead mount root cannot inspect (with the
# fusermount3 command to run).  A probe that is only slow (a busy machine,
# no FUSE mount on the path) is waited for, not blamed on a FUSE daemon.
# --force-mount mounts over a non-empty directory.  An unprivileged user's
# lock on the directory does not keep root from mounting there.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

# refused NAME DIR WHAT [OPTIONS]: the start on DIR fails with one line, nothing more mounted.
refused() {
	n=$1 d=$2 what=$3; shift 3
	before=$(nmounts "$d")
	timeout 60 "$CUSEZERO" --fuse "$d" --pidfile "$CZ_TMP/$n.pid" "$@" \
		>"$CZ_TMP/out" 2>"$CZ_TMP/$n.err"
	st=$?
	after=$(nmounts "$d")
	[ -s "$CZ_TMP/$n.pid" ] && cz_stop "$n"
	[ "$(nmounts "$d")" -gt "$before" ] && umount -l "$d"
	ok "$what: refused (exit $st, mounts $before -> $after): $(head -c 300 "$CZ_TMP/$n.err")" -- \
		eval '[ "$st" -ne 0 ] && [ "$st" -lt 124 ] && [ "$after" -eq "$before" ] &&
		      [ "$(wc -l <"$CZ_TMP/$n.err")" -eq 1 ]'
}

# A directory that is not empty: mounting would hide what is in it.
D=$CZ_TMP/mnt-full
mkdir -p "$D"
echo keep >"$D/file"
refused full "$D" "a directory that is not empty"
ok "... its file is still there, and the line names the directory" -- \
	eval '[ "$(cat "$D/file")" = keep ] && grep -q -- "$D" "$CZ_TMP/full.err"'
"$CUSEZERO" --fuse "$D" --pidfile "$CZ_TMP/force.pid" --force-mount 2>"$CZ_TMP/force.err"
st=$?
ok "--force-mount: mounts over it (exit $st $(head -c 200 "$CZ_TMP/force.err"))" -- \
	eval '[ "$st" -eq 0 ] && [ -e "$D/zero" ]'
[ -s "$CZ_TMP/force.pid" ] && cz_stop force
ok "... and once stopped, the file shows again" -- eval '[ "$(cat "$D/file" 2>/dev/null)" = keep ]'

# A mount point (a system mount such as /proc would be hidden the same way).
T=$CZ_TMP/mnt-tmpfs
mkdir -p "$T"
if mount -t tmpfs czmp "$T" 2>/dev/null; then
	refused tmpfs "$T" "a path where a tmpfs is mounted"
	umount "$T"
else
	skip "a path where a tmpfs is mounted: cannot mount a tmpfs here"
fi

# The root directory: refused for what it is, not as a busy lock.
refused root / "the root directory"
ok "... and the line says why (not another cusezero)" -- \
	eval '! grep -q "another cusezero" "$CZ_TMP/root.err"'

# An unprivileged user's lock on the directory (any user can flock what they can read).
L=$CZ_TMP/mnt-locked
mkdir -p "$L"
if command -v setpriv >/dev/null && command -v flock >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		sh -c 'exec 8<"$1" && flock -x 8 && exec sleep 600' sh "$L" &
	holder=$!
	if cz_wait "! flock -n -x '$L' true" 100; then
		"$CUSEZERO" --fuse "$L" --pidfile "$CZ_TMP/locked.pid" 2>"$CZ_TMP/locked.err"
		st=$?
		ok "uid 65534 holds a lock on the directory: root starts anyway (exit $st $(head -c 200 "$CZ_TMP/locked.err"))" -- \
			eval '[ "$st" -eq 0 ] && [ -e "$L/zero" ]'
		[ -s "$CZ_TMP/locked.pid" ] && cz_stop locked
	else
		fail "uid 65534 could not lock $L"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
else
	skip "a lock held by another user: needs setpriv and flock"
fi

# A FUSE mount whose daemon is stopped: every probe of it is bounded.
if cz_start stopped; then
	p=$(cz_pid stopped)
	kill -STOP "$p"
	refused stopped2 "$CZ_TMP/mnt-stopped" "a mount whose daemon is stopped (SIGSTOP)"
	refused stopped3 "$CZ_TMP/mnt-stopped/sub" "a folder below it"
	ok "... both blamed on the FUSE mount on the path" -- \
		eval 'grep -q "FUSE mount.*not answer" "$CZ_TMP/stopped2.err" &&
		      grep -q "not answer.*FUSE mount on its path" "$CZ_TMP/stopped3.err"'
	kill -CONT "$p"
	ok "... the stopped daemon, continued, still serves and stops" -- \
		eval '[ "$(head -c 1000 "$CZ_TMP/mnt-stopped/zero" | wc -c)" -eq 1000 ] && cz_stop stopped'
else
	fail "start stopped: $(cat "$CZ_TMP/stopped.err")"
fi

# A slow probe of an ordinary directory (a busy machine): strace holds the
# probe's readdir (getdents64, made only by the probe child) for 5 s, longer
# than the 3 s a FUSE mount's daemon is given.  Nothing FUSE lies on the
# path, so the start waits and mounts; blaming a stopped FUSE daemon there
# would be wrong.
if command -v strace >/dev/null; then
	S=$CZ_TMP/mnt-slow
	mkdir -p "$S"
	strace -f -qq -o /dev/null -e trace=getdents64 \
		-e inject=getdents64:delay_enter=5000000:when=1 \
		"$CUSEZERO" -f --fuse "$S" --pidfile "$CZ_TMP/slow.pid" 2>"$CZ_TMP/slow.err" &
	sp=$!
	cz_wait "cz_mounted '$S' || ! kill -0 $sp 2>/dev/null" 1200
	ok "a probe held 5 s on an ordinary directory: waited for, mounted ($(head -c 300 "$CZ_TMP/slow.err"))" -- \
		cz_mounted "$S"
	[ -s "$CZ_TMP/slow.pid" ] && cz_stop slow
	cz_wait "! kill -0 $sp 2>/dev/null" 600 || kill -KILL "$sp" 2>/dev/null
	wait "$sp" 2>/dev/null
	cz_mounted "$S" && umount -l "$S"
else
	skip "a slow probe: needs strace (apt-get install strace)"
fi

# Another user's dead mount (no allow_other): root cannot ask its daemon.
if command -v setpriv >/dev/null && command -v fusermount3 >/dev/null; then
	U=$CZ_TMP/nr/mnt
	mkdir -p "$U"
	chown -R 65534:65534 "$CZ_TMP/nr"
	if setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$CUSEZERO" --fuse "$U" --pidfile "$CZ_TMP/nr/pid" 2>"$CZ_TMP/nr.err"; then
		cp "$CZ_TMP/nr/pid" "$CZ_TMP/nr.pid"
		cz_stop nr KILL
		refused nr2 "$U" "another user's dead mount"
		ok "... with the command to run ($(cat "$CZ_TMP/nr2.err"))" -- \
			grep -q "fusermount3 -u -z" "$CZ_TMP/nr2.err"
		umount -l "$U" 2>/dev/null
	else
		fail "uid 65534: start: $(cat "$CZ_TMP/nr.err")"
	fi
else
	skip "another user's dead mount: needs setpriv and fusermount3"
fi
done_testing
