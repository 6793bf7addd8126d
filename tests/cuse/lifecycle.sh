#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: start/stop of the FUSE front end: bad options fail with one
# line and mount nothing; background start returns once ready; -f; SIGTERM
# and SIGINT unmount; SIGKILL leaves a stale mount that the next start
# detaches; the CUSE-unavailable fallback; --threads; --user.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

M=$CZ_TMP/mnt-bad
mkdir -p "$M"
for opt in "--chunk 0" "--chunk 2MB" "--align 4096" "--align x" "--routine no_such_routine" \
	   "--threads 0" "--mode 99999" "--align-point middle" "--user no_such_user_cz" \
	   "--name a/b" "--bogus" "--chunk"; do
	# shellcheck disable=SC2086
	"$CUSEZERO" --fuse "$M" $opt >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	st=$?
	o=${opt%% *}
	lines=$(wc -l <"$CZ_TMP/err")
	if [ "$st" -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$o" "$CZ_TMP/err" &&
	   ! [ -s "$CZ_TMP/out" ] && ! cz_mounted "$M"; then
		pass "bad option '$opt': exit $st, one line: $(cat "$CZ_TMP/err")"
	else
		fail "bad option '$opt': exit $st, $lines lines: $(head -c 200 "$CZ_TMP/err")"
	fi
done
"$CUSEZERO" --fuse "$CZ_TMP/does-not-exist" 2>"$CZ_TMP/err"
st=$?
ok "--fuse on a missing directory fails with one line (exit $st: $(cat "$CZ_TMP/err"))" -- \
	[ "$st" -ne 0 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ]
ok "--routine help lists routines, exit 0" -- sh -c "'$CUSEZERO' --routine help | grep -q default"

# Background start: returns only once mounted.
if cz_start a; then
	pass "background start returns 0"
else
	fail "background start: $(cat "$CZ_TMP/a.err")"
fi
ok "mounted and zero exists right after the start returned" -- \
	sh -c "grep -q ' $CZ_TMP/mnt-a ' /proc/self/mountinfo && [ -f '$CZ_TMP/mnt-a/zero' ]"
ok "stats, stats.json, control exist" -- \
	sh -c "cd '$CZ_TMP/mnt-a' && [ -f stats ] && [ -f stats.json ] && [ -f control ]"
"$CUSEZERO" --fuse "$CZ_TMP/mnt-a" 2>"$CZ_TMP/err"
st=$?
ok "second daemon on the same mount point refused (exit $st: $(cat "$CZ_TMP/err"))" -- [ "$st" -ne 0 ]
ok "SIGTERM: daemon exits" -- cz_stop a TERM
ok "SIGTERM: nothing mounted" -- eval "! cz_mounted '$CZ_TMP/mnt-a'"

# Foreground: nothing on stdout, ready when zero exists; SIGINT.
mkdir -p "$CZ_TMP/mnt-f"
"$CUSEZERO" -f --fuse "$CZ_TMP/mnt-f" --pidfile "$CZ_TMP/f.pid" >"$CZ_TMP/f.out" 2>"$CZ_TMP/f.err" &
ok "-f: zero appears (10 s)" -- cz_wait "[ -f '$CZ_TMP/mnt-f/zero' ]" 100
n=$(head -c 100000 "$CZ_TMP/mnt-f/zero" | tr -d '\000' | wc -c)
ok "-f: reads zeros" -- [ "$n" -eq 0 ]
ok "-f: pidfile written" -- cz_wait "[ -s '$CZ_TMP/f.pid' ]" 50
ok "SIGINT: daemon exits" -- cz_stop f INT
ok "SIGINT: nothing mounted" -- eval "! cz_mounted '$CZ_TMP/mnt-f'"
ok "-f: nothing on stdout" -- eval "! [ -s '$CZ_TMP/f.out' ]"

# SIGKILL leaves a stale mount; the next start detaches it.
cz_start k
p=$(cz_pid k)
ok "SIGKILL: daemon gone" -- cz_stop k KILL
stat "$CZ_TMP/mnt-k" >/dev/null 2>"$CZ_TMP/err"
if grep -q "not connected" "$CZ_TMP/err"; then
	pass "after SIGKILL the mount is stale (ENOTCONN)"
	if cz_start k; then
		grep -q "stale" "$CZ_TMP/k.err" && pass "restart detached the stale mount: $(cat "$CZ_TMP/k.err")" ||
			fail "restart said nothing about the stale mount"
	else
		fail "restart on the stale mount failed: $(cat "$CZ_TMP/k.err")"
	fi
	n=$(head -c 100000 "$CZ_TMP/mnt-k/zero" | wc -c)
	ok "restarted daemon serves reads" -- [ "$n" -eq 100000 ]
	ok "stop the restarted daemon" -- cz_stop k
	ok "nothing mounted (stale one included)" -- eval "! cz_mounted '$CZ_TMP/mnt-k'"
else
	fail "after SIGKILL of pid $p, stat says: $(cat "$CZ_TMP/err")"
fi

# CUSE unavailable: automatic FUSE fallback at /run/cusezero/NAME with a note.
if [ -e /dev/cuse ]; then
	skip "FUSE fallback: /dev/cuse exists here (CUSE is tested in tests/vm)"
else
	name=cztest-$$
	"$CUSEZERO" --name "$name" --pidfile "$CZ_TMP/fb.pid" 2>"$CZ_TMP/fb.err"
	st=$?
	ok "no CUSE: exit 0, one-line note ($(cat "$CZ_TMP/fb.err"))" -- \
		sh -c "[ $st -eq 0 ] && [ \$(wc -l <'$CZ_TMP/fb.err') -eq 1 ] && grep -q 'CUSE unavailable' '$CZ_TMP/fb.err'"
	n=$(head -c 10000 "/run/cusezero/$name/zero" 2>/dev/null | wc -c)
	ok "fallback serves /run/cusezero/$name/zero" -- [ "$n" -eq 10000 ]
	ok "fallback: SIGTERM stops it" -- cz_stop fb
	ok "fallback: unmounted, its directory removed" -- \
		eval "! cz_mounted /run/cusezero/$name && ! [ -e /run/cusezero/$name ]"
fi

# --threads 4
if cz_start t --threads 4; then
	n=$(dd if="$CZ_TMP/mnt-t/zero" bs=1M count=16 2>/dev/null | tr -d '\000' | wc -c)
	ok "--threads 4: 16 MiB of zeros" -- [ "$n" -eq 0 ]
	ok "--threads 4: SIGTERM stops all workers" -- cz_stop t
	ok "--threads 4: nothing mounted" -- eval "! cz_mounted '$CZ_TMP/mnt-t'"
else
	fail "--threads 4 start: $(cat "$CZ_TMP/t.err")"
fi

# --user: privileges dropped after the mount; still unmounted at the end.
if ! command -v fusermount3 >/dev/null; then
	skip "--user: needs fusermount3 (auto_unmount)"
elif cz_start u --user nobody; then
	uid=$(awk '/^Uid:/ {print $3}' "/proc/$(cz_pid u)/status")
	ok "--user nobody: daemon runs as uid $uid" -- [ "$uid" = "$(id -u nobody)" ]
	n=$(head -c 100000 "$CZ_TMP/mnt-u/zero" | wc -c)
	ok "--user nobody: serves reads" -- [ "$n" -eq 100000 ]
	ok "--user nobody: SIGTERM stops it" -- cz_stop u
	ok "--user nobody: unmounted (auto_unmount)" -- cz_wait "! cz_mounted '$CZ_TMP/mnt-u'" 150
else
	fail "--user nobody start: $(cat "$CZ_TMP/u.err")"
fi
done_testing
