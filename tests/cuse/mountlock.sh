#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: one daemon per mount point, and recovery from a dead one.
# A daemon killed by SIGKILL leaves a dead FUSE mount; the next start on the
# same path detaches it and serves, whether or not the dead mount was used
# before the kill (stat may then still succeed from the attribute cache),
# with --fuse and with the CUSE-less fallback /run/cusezero/NAME (whose
# directory is gone once that daemon stops).  A second start on a served
# path is refused with one line, also when the path has spaces (mountinfo
# writes them \040) and when two starts race (exactly one wins, one mount).
# A live FUSE mount that is not ours is refused, not detached.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

# stale_restart NAME TOUCH: start, maybe read, SIGKILL, restart on the same path.
stale_restart() {
	n=$1 touch=$2
	cz_start "$n" || { fail "start $n: $(cat "$CZ_TMP/$n.err")"; return; }
	[ "$touch" = yes ] && head -c 10 "$CZ_TMP/mnt-$n/zero" >/dev/null
	cz_stop "$n" KILL || { fail "$n: SIGKILL did not stop it"; return; }
	ls "$CZ_TMP/mnt-$n" >/dev/null 2>"$CZ_TMP/ls.err"
	diag "after SIGKILL ($touch read before): ls says: $(cat "$CZ_TMP/ls.err")"
	if cz_start "$n"; then
		pass "restart after SIGKILL (mount read before the kill: $touch): $(cat "$CZ_TMP/$n.err")"
	else
		fail "restart after SIGKILL (mount read before the kill: $touch): $(cat "$CZ_TMP/$n.err")"
		return
	fi
	c=$(head -c 100000 "$CZ_TMP/mnt-$n/zero" | tr -d '\000' | wc -c)
	b=$(head -c 100000 "$CZ_TMP/mnt-$n/zero" | wc -c)
	ok "restarted daemon serves zeros ($b bytes, $c non-zero)" -- [ "$b:$c" = 100000:0 ]
	ok "one mount at the path ($(nmounts "$CZ_TMP/mnt-$n"))" -- [ "$(nmounts "$CZ_TMP/mnt-$n")" -eq 1 ]
	ok "stop it: nothing mounted" -- eval 'cz_stop "$n" && [ "$(nmounts "$CZ_TMP/mnt-$n")" -eq 0 ]'
}
stale_restart k1 no
stale_restart k2 yes

# The CUSE-less fallback at /run/cusezero/NAME.
if [ -e /dev/cuse ]; then
	skip "fallback /run/cusezero/NAME: /dev/cuse exists here (no fallback)"
else
	name=czlock-$$
	R=/run/cusezero/$name
	"$CUSEZERO" --name "$name" --pidfile "$CZ_TMP/fb.pid" 2>"$CZ_TMP/fb.err"
	head -c 10 "$R/zero" >/dev/null
	cz_stop fb KILL
	if "$CUSEZERO" --name "$name" --pidfile "$CZ_TMP/fb.pid" 2>"$CZ_TMP/fb.err"; then
		pass "fallback: restart after SIGKILL of a used mount: $(tr '\n' ' ' <"$CZ_TMP/fb.err")"
		n=$(head -c 10000 "$R/zero" | wc -c)
		ok "fallback: serves $R/zero ($n bytes)" -- [ "$n" -eq 10000 ]
		cz_stop fb
	else
		fail "fallback: restart after SIGKILL: $(cat "$CZ_TMP/fb.err")"
		umount -l "$R" 2>/dev/null
	fi
	ok "fallback: unmounted and $R removed after the recovery" -- \
		sh -c "[ \$(awk '\$5 == \"$R\"' /proc/self/mountinfo | wc -l) -eq 0 ] && ! [ -e '$R' ]"
fi

# A path with spaces.
S="$CZ_TMP/mnt-sp a b"
mkdir -p "$S"
if "$CUSEZERO" --fuse "$S" --pidfile "$CZ_TMP/sp.pid" 2>"$CZ_TMP/sp.err"; then
	"$CUSEZERO" --fuse "$S" --pidfile "$CZ_TMP/sp2.pid" 2>"$CZ_TMP/sp2.err"
	st=$?
	ok "path with spaces: second start refused (exit $st): $(cat "$CZ_TMP/sp2.err")" -- \
		eval '[ "$st" -ne 0 ] && [ "$(wc -l <"$CZ_TMP/sp2.err")" -eq 1 ]'
	ok "path with spaces: one mount ($(nmounts "$S"))" -- [ "$(nmounts "$S")" -eq 1 ]
	[ -s "$CZ_TMP/sp2.pid" ] && cz_stop sp2
	head -c 10 "$S/zero" >/dev/null
	cz_stop sp KILL
	"$CUSEZERO" --fuse "$S" --pidfile "$CZ_TMP/sp.pid" 2>"$CZ_TMP/sp.err"
	st=$?
	ok "path with spaces: restart after SIGKILL (exit $st): $(cat "$CZ_TMP/sp.err")" -- [ "$st" -eq 0 ]
	ok "path with spaces: SIGTERM leaves nothing mounted" -- eval 'cz_stop sp && [ "$(nmounts "$S")" -eq 0 ]'
else
	fail "path with spaces: start: $(cat "$CZ_TMP/sp.err")"
fi

# Two starts racing on one path, ten times: exactly one wins each time.
R=$CZ_TMP/mnt-race
mkdir -p "$R"
race_two() {	# two starts on $R at once: their exit statuses s1 s2, then m mounts there
	"$CUSEZERO" --fuse "$R" --pidfile "$CZ_TMP/r1.pid" 2>"$CZ_TMP/r1.err" &
	p1=$!
	"$CUSEZERO" --fuse "$R" --pidfile "$CZ_TMP/r2.pid" 2>"$CZ_TMP/r2.err" &
	p2=$!
	wait "$p1"; s1=$?
	wait "$p2"; s2=$?
	m=$(nmounts "$R")
}
bad=""
for round in 1 2 3 4 5 6 7 8 9 10; do
	race_two
	if [ $((s1 == 0)) -eq $((s2 != 0)) ] && [ "$m" -eq 1 ]; then
		:
	else
		bad="$bad round $round: rc $s1/$s2, $m mounts;"
	fi
	[ "$round" = 1 ] && diag "race: the loser says: $(cat "$CZ_TMP/r1.err" "$CZ_TMP/r2.err")"
	for r in r1 r2; do [ -s "$CZ_TMP/$r.pid" ] && cz_stop "$r"; done
	[ "$(nmounts "$R")" -eq 0 ] || { bad="$bad round $round: mount left after stop;"; umount -l "$R"; }
done
ok "10 races of two starts: one winner and one mount each time${bad:+ ($bad)}" -- [ -z "$bad" ]

# ... and ten times on a dead mount (the daemon SIGKILLed after a read): both
# starts see it dead, one detaches it and mounts, and the other must not
# detach the new live mount in its turn.
bad=""
"$CUSEZERO" --fuse "$R" --pidfile "$CZ_TMP/r1.pid" 2>"$CZ_TMP/r1.err"
for round in 1 2 3 4 5 6 7 8 9 10; do
	head -c 10 "$R/zero" >/dev/null
	for r in r1 r2; do [ -s "$CZ_TMP/$r.pid" ] && cz_stop "$r" KILL; done
	race_two
	n=$(head -c 100000 "$R/zero" 2>/dev/null | wc -c)
	if [ $((s1 == 0)) -ne $((s2 != 0)) ] || [ "$m" -ne 1 ] || [ "$n" -ne 100000 ]; then
		bad="$bad round $round: rc $s1/$s2, $m mounts, read $n bytes;"
	fi
done
ok "10 races of two starts on a dead mount: one winner, one live mount each time${bad:+ ($bad)}" -- \
	[ -z "$bad" ]
for r in r1 r2; do [ -s "$CZ_TMP/$r.pid" ] && cz_stop "$r"; done
ok "races: nothing mounted after the last stop" -- cz_wait "! cz_mounted '$R'" 50

# A live FUSE mount that is not ours (a bind of a live daemon's mount).
if cz_start live; then
	B=$CZ_TMP/mnt-bind
	mkdir -p "$B"
	if mount --bind "$CZ_TMP/mnt-live" "$B" 2>/dev/null; then
		"$CUSEZERO" --fuse "$B" --pidfile "$CZ_TMP/b.pid" 2>"$CZ_TMP/b.err"
		st=$?
		ok "a live FUSE mount not ours: refused (exit $st): $(cat "$CZ_TMP/b.err")" -- [ "$st" -ne 0 ]
		n=$(head -c 1000 "$B/zero" | wc -c)
		ok "... and left alone (it still serves: $n bytes)" -- [ "$n" -eq 1000 ]
		[ -s "$CZ_TMP/b.pid" ] && cz_stop b
		umount "$B"
	else
		skip "bind mount not possible here"
	fi
	cz_stop live
else
	fail "start live: $(cat "$CZ_TMP/live.err")"
fi
done_testing
