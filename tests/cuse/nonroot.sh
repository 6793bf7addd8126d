#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the FUSE front end started by an ordinary user (uid 65534,
# mounting through the setuid fusermount3): it starts, serves zeros to that
# user (100 KiB and 1 MiB reads, with --poison), replies by splice within the
# unprivileged pipe size, stops on SIGTERM and leaves no mount behind.
# What needs root says so in one line: `cusezero run`, and the automatic
# fallback place /run/cusezero/NAME.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux) to run as uid 65534"
command -v fusermount3 >/dev/null || skip_all "no fusermount3 (package fuse3)"

NR=$CZ_TMP/nr
mkdir -p "$NR/mnt-bg" "$NR/mnt-fg"
chown -R 65534:65534 "$NR"
as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# Background start (returns when ready), reads as that user, SIGTERM.
if as_user "$CUSEZERO" --fuse "$NR/mnt-bg" --pidfile "$NR/bg.pid" --poison 2>"$CZ_TMP/bg.err"; then
	pass "uid 65534: cusezero --fuse starts (fusermount3 mount)"
	cp "$NR/bg.pid" "$CZ_TMP/bg.pid"	# cz_cleanup stops it if we fail
	ok "uid 65534: the daemon runs as uid 65534" -- \
		sh -c "[ \"\$(stat -c %u /proc/$(cat "$NR/bg.pid"))\" = 65534 ]"
	n=$(as_user sh -c "dd if='$NR/mnt-bg/zero' bs=100k count=20 2>/dev/null; dd if='$NR/mnt-bg/zero' bs=1M count=3 2>/dev/null" |
		tr -d '\000' | wc -c)
	ok "uid 65534: 100 KiB and 1 MiB reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	req=$(as_user awk '$1 == "requests" { print $2 }' "$NR/mnt-bg/stats")
	ok "uid 65534: stats count the reads (requests = ${req:-none})" -- [ "${req:-0}" -ge 23 ]
	ok "uid 65534: SIGTERM stops the daemon" -- cz_stop bg
	ok "uid 65534: no mount left" -- cz_wait "! cz_mounted '$NR/mnt-bg'" 100
else
	fail "uid 65534: cusezero --fuse did not start: $(head -3 "$CZ_TMP/bg.err")"
fi

# Foreground with -d: the exit summary counts replies by splice.
# (setpriv itself in the background, not a function: $! must be the daemon)
setpriv --reuid=65534 --regid=65534 --clear-groups -- \
	"$CUSEZERO" -d --fuse "$NR/mnt-fg" --transport dev >/dev/null 2>"$CZ_TMP/fg.err" &
dpid=$!
echo "$dpid" >"$CZ_TMP/fg.pid"
# root may not look into a mount without allow_other: ask as the user
if cz_wait "as_user test -e '$NR/mnt-fg/zero'" 100; then
	n=$(as_user dd if="$NR/mnt-fg/zero" bs=100k count=20 2>/dev/null | tr -d '\000' | wc -c)
	ok "uid 65534, -d: reads are zeros (non-zero: $n)" -- [ "$n" -eq 0 ]
	kill -TERM "$dpid"
	wait "$dpid"
	rm -f "$CZ_TMP/fg.pid"
	sp=$(sed -n 's/.* \([0-9][0-9]*\) replies by splice.*/\1/p' "$CZ_TMP/fg.err")
	ok "uid 65534: 100 KiB replies went by splice (count: ${sp:-none})" -- [ "${sp:-0}" -ge 20 ]
	ok "uid 65534, -d: no mount left" -- cz_wait "! cz_mounted '$NR/mnt-fg'" 100
else
	fail "uid 65534: cusezero -d --fuse: no zero file after 10 s: $(tail -3 "$CZ_TMP/fg.err")"
fi
# What needs root, asked by an ordinary user: one line that says so.
as_user "$CUSEZERO" run -- true >"$CZ_TMP/run.out" 2>"$CZ_TMP/run.err"
st=$?
ok "uid 65534: cusezero run: exit $st, one line saying it needs root ($(cat "$CZ_TMP/run.err"))" -- \
	sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/run.err') -eq 1 ] && grep -q 'needs root' '$CZ_TMP/run.err'"
if [ -e /dev/cuse ] || as_user test -w /run/cusezero || as_user test -w /run; then
	skip "uid 65534 fallback: /dev/cuse exists here, or /run/cusezero is writable by all"
else
	as_user "$CUSEZERO" --name "nr-$$" >"$CZ_TMP/fb.out" 2>"$CZ_TMP/fb.err"
	st=$?
	ok "uid 65534: the fallback /run/cusezero/NAME: exit $st, says it needs root ($(tail -1 "$CZ_TMP/fb.err"))" -- \
		sh -c "[ $st -eq 1 ] && tail -1 '$CZ_TMP/fb.err' | grep -q 'needs root'"
fi
done_testing
