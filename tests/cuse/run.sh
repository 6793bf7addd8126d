#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: `cusezero run -- COMMAND` runs unmodified programs with
# /dev/zero bound to the device in a private mount namespace: they read
# zeros through the daemon (its statistics count them), CUSEZERO_DEVICE is
# exported, COMMAND's exit status is returned, and afterwards nothing is
# mounted and the system's /dev/zero is untouched.  A `cusezero run`
# killed by SIGKILL takes its daemon with it (nothing stays mounted at the
# fallback /run/cusezero/cusezero-run-PID, the directory goes), and so does
# `run --user` when it ends.
# Needs: root fuse ioctl
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
command -v unshare >/dev/null || true

zero_id() { stat -L -c '%t:%T %F' /dev/zero; }
before=$(zero_id)
M=$CZ_TMP/mnt-r
mkdir -p "$M"
export ZEROCTL
out=$("$CUSEZERO" run --fuse "$M" -- sh -c '
	dd if=/dev/zero bs=1M count=1 2>/dev/null | od -An -tx1 | sort -u
	head -c 100000 /dev/zero | od -An -tx1 | sort -u
	"$ZEROCTL" /dev/zero --stats --json' 2>"$CZ_TMP/err")
st=$?
diag "run output: $(echo "$out" | tr '\n' '|')"
ok "run: exit 0 ($(head -c 300 "$CZ_TMP/err"))" -- [ "$st" -eq 0 ]
zl=$(echo "$out" | grep -c '^ 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00$')
ok "run: dd and head -c of /dev/zero read zeros" -- \
	sh -c "[ $zl -eq 2 ] && [ \$(echo '$out' | grep -c '^ [0-9a-f][0-9a-f] ') -eq 2 ]"
bytes=$(echo "$out" | sed -n 's/.*"bytes":\([0-9]*\),.*/\1/p' | head -1)
ok "run: the daemon's stats count the reads (bytes=$bytes >= 1148576)" -- \
	[ "${bytes:-0}" -ge 1148576 ]
out=$("$CUSEZERO" run --fuse "$M" -- sh -c 'echo "$CUSEZERO_DEVICE"' 2>/dev/null)
ok "run: CUSEZERO_DEVICE=$out" -- [ "$out" = "$(cd "$M" && pwd -P)/zero" ]
"$CUSEZERO" run --fuse "$M" -- sh -c 'exit 7' 2>/dev/null
st=$?
ok "run: COMMAND's exit status is returned (7, got $st)" -- [ "$st" -eq 7 ]
# a program under a folder of the test's own that nobody made
"$CUSEZERO" run --fuse "$M" -- "$CZ_TMP/absent/program" 2>"$CZ_TMP/err"
st=$?
ok "run: missing COMMAND -> 127 ($st: $(cat "$CZ_TMP/err"))" -- [ "$st" -eq 127 ]
"$CUSEZERO" run --fuse "$M" 2>"$CZ_TMP/err"
st=$?
ok "run without -- COMMAND: one-line error ($(cat "$CZ_TMP/err"))" -- \
	sh -c "[ $st -ne 0 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ]"
out=$("$CUSEZERO" run --fuse "$M" --routine c_store_loop --chunk 1KB -- \
	sh -c '"$ZEROCTL" /dev/zero' 2>/dev/null)
ok "run: daemon options apply (routine c_store_loop, chunk 1024)" -- \
	sh -c "echo '$out' | grep -q '^routine=c_store_loop' && echo '$out' | grep -q '^chunk=1024'"
ok "after run: nothing mounted at $M" -- eval "! cz_mounted '$M'"
ok "after run: no mount on /dev/zero here" -- eval "! grep -q ' /dev/zero ' /proc/self/mountinfo"
ok "after run: /dev/zero is still the kernel's ($before)" -- [ "$(zero_id)" = "$before" ]
n=$(head -c 100000 /dev/zero | tr -d '\000' | wc -c)
ok "after run: /dev/zero still reads zeros" -- [ "$n" -eq 0 ]

# The fallback (no --fuse): /run/cusezero/cusezero-run-PID, PID the run's.
if [ -e /dev/cuse ]; then
	skip "SIGKILL of cusezero run: /dev/cuse exists here (no FUSE fallback to look at)"
	skip "run --user: /dev/cuse exists here (no FUSE fallback to look at)"
else
	"$CUSEZERO" run -- sh -c 'echo $$ >"$1"; exec sleep 300' sh "$CZ_TMP/cmd.pid" \
		2>"$CZ_TMP/kill.err" &
	rp=$!
	R=/run/cusezero/cusezero-run-$rp
	if cz_wait "[ -s '$CZ_TMP/cmd.pid' ]" 100; then
		kill -KILL "$rp"
		wait "$rp"
		kill "$(cat "$CZ_TMP/cmd.pid")"
		ok "SIGKILL of cusezero run: its daemon stops, $R unmounted and removed" -- \
			cz_wait "! cz_mounted '$R' && ! [ -e '$R' ]" 100
	else
		fail "cusezero run -- sh: COMMAND did not start: $(cat "$CZ_TMP/kill.err")"
	fi
	# (a daemon left running names our COMMAND's pidfile on its command line)
	for p in $(pgrep -f -- "$CZ_TMP/cmd.pid"); do kill "$p"; done
	cz_mounted "$R" && umount -l "$R"
	rmdir "$R" 2>/dev/null
	"$CUSEZERO" run --user 65534 -- true 2>"$CZ_TMP/user.err" &
	rp=$!
	wait "$rp"
	st=$?
	R=/run/cusezero/cusezero-run-$rp
	ok "run --user 65534: exit $st, $R unmounted and removed ($(head -c 200 "$CZ_TMP/user.err"))" -- \
		eval '[ "$st" -eq 0 ] && cz_wait "! cz_mounted $R && ! [ -e $R ]" 100'
	cz_mounted "$R" && umount -l "$R"
	rmdir "$R" 2>/dev/null
fi
done_testing
