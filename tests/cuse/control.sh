#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: run-time control of the FUSE device through its control /
# stats / stats.json files and through zeroctl (ioctls): every command, the
# invalid ones (nothing changed), and EPERM for an unprivileged user.
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

if ! cz_start c --poison; then
	fail "start: $(cat "$CZ_TMP/c.err")"
	done_testing; exit
fi
D=$CZ_TMP/mnt-c
Z=$D/zero
setting() { grep "^$1=" "$D/control" | cut -d= -f2; }
# dd reports the errno of the write (dash's echo says "I/O error" for all)
ctl_write() { printf '%s\n' "$1" | dd of="$D/control" conv=notrunc status=none 2>"$CZ_TMP/err"; }
orig=$(setting routine)
ok "control shows the routine ($orig)" -- [ -n "$orig" ]

# Every usable routine, through the control file, then reads stay zero.
routines=$("$CUSEZERO" --routine help | awk 'NR > 1 && $1 != "" && !/unusable/ {print $1}')
bad=""
for r in $routines; do
	if echo "routine=$r" >"$D/control" 2>/dev/null; then
		[ "$(setting routine)" = "$r" ] || bad="$bad $r(not-set)"
		n=$(head -c 300000 "$Z" | tr -d '\000' | wc -c)
		[ "$n" -eq 0 ] || bad="$bad $r(non-zero)"
	fi
done
ok "control: routine=NAME for each usable routine, reads zero${bad:+ (bad:$bad)}" -- [ -z "$bad" ]
echo "routine=$orig" >"$D/control"

for cmd in "routine=no_such_routine" "align=4096" "align=abc" "chunk=0" "chunk=2MB" \
	   "bogus" "align_point=middle"; do
	before=$(cat "$D/control")
	if ctl_write "$cmd"; then
		fail "control: '$cmd' accepted"
	elif [ "$before" != "$(cat "$D/control")" ]; then
		fail "control: '$cmd' changed settings"
	else
		grep -q "Invalid argument" "$CZ_TMP/err" &&
			pass "control: '$cmd' refused with EINVAL, nothing changed" ||
			fail "control: '$cmd' refused, but: $(cat "$CZ_TMP/err")"
	fi
done

ok "control: chunk=64KB" -- sh -c "echo chunk=64KB >'$D/control' && grep -q '^chunk=65536' '$D/control'"
if echo "align=100" >"$D/control" 2>/dev/null; then
	ok "control: align=100 shown" -- [ "$(setting align)" = 100 ]
	ok "control: align_point=entry" -- sh -c "echo align_point=entry >'$D/control' && grep -q '^align_point=entry' '$D/control'"
	n=$(head -c 300000 "$Z" | tr -d '\000' | wc -c)
	ok "reads zero with the placed routine" -- [ "$n" -eq 0 ]
	ok "control: align=none" -- sh -c "echo align=none >'$D/control' && grep -q '^align=none' '$D/control'"
else
	skip "control: align: routine $orig is not relocatable"
fi
ok "control: several commands in one write" -- \
	sh -c "printf 'chunk=4KB\nreset\n' >'$D/control' && grep -q '^chunk=4096' '$D/control'"
ok "stats after reset: requests 0" -- grep -q '^requests *0$' "$D/stats"
dd if="$Z" of=/dev/null bs=1000 count=1 2>/dev/null	# one read(2) of 1000 B (busybox head reads 4 KiB)
ok "stats: one read of 1000 B counted" -- sh -c "grep -q '^requests *1$' '$D/stats' && grep -q '^bytes *1000$' '$D/stats'"
ok "stats.json: one JSON object with the counters" -- \
	sh -c "grep -q '^{\"routine\":\"$orig\".*\"requests\":1,\"bytes\":1000,.*}$' '$D/stats.json'"

# zeroctl (ioctls on the zero file)
ok "zeroctl DEVICE prints the settings" -- sh -c "'$ZEROCTL' '$Z' | grep -q '^routine=$orig'"
ok "zeroctl --routine c_store_loop" -- sh -c "'$ZEROCTL' '$Z' --routine c_store_loop && grep -q '^routine=c_store_loop' '$D/control'"
ok "zeroctl --chunk 8KB" -- sh -c "'$ZEROCTL' '$Z' --chunk 8KB && grep -q '^chunk=8192' '$D/control'"
"$ZEROCTL" "$Z" --routine "$orig" --chunk 4KB
if "$ZEROCTL" "$Z" --align 64 2>/dev/null; then
	ok "zeroctl --align 64 --align-point entry" -- sh -c "'$ZEROCTL' '$Z' --align 64 --align-point entry && grep -q '^align_point=entry' '$D/control'"
	ok "zeroctl --align none" -- sh -c "'$ZEROCTL' '$Z' --align none && grep -q '^align=none' '$D/control'"
else
	skip "zeroctl --align: routine $orig is not relocatable"
fi
ok "zeroctl --reset --stats: requests 0" -- sh -c "'$ZEROCTL' '$Z' --reset --stats | grep -q '^requests *0$'"
ok "zeroctl --stats --json" -- sh -c "'$ZEROCTL' '$Z' --stats --json | grep -q '^{\"routine\":\"$orig\"'"
ok "zeroctl on the stats file too" -- sh -c "'$ZEROCTL' '$D/stats' --stats | grep -q '^routine '"
for opt in "--routine no_such_routine" "--align 5000" "--chunk 0" "--align-point x" "--bogus"; do
	# shellcheck disable=SC2086
	"$ZEROCTL" "$Z" $opt 2>"$CZ_TMP/err"
	st=$?
	o=${opt%% *}
	ok "zeroctl $opt: exit $st, one line naming it ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -ne 0 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q -- '$o' '$CZ_TMP/err'"
done
ok "settings unchanged by the refused zeroctl calls" -- grep -q "^routine=$orig" "$D/control"

# Unprivileged user: settings refused (EPERM), statistics and reads allowed.
if command -v setpriv >/dev/null; then
	nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
	printf 'reset\n' | nobody dd of="$D/control" conv=notrunc status=none 2>"$CZ_TMP/err"
	ok "uid 65534: control write refused: $(cat "$CZ_TMP/err")" -- grep -q "not permitted" "$CZ_TMP/err"
	nobody "$ZEROCTL" "$Z" --routine "$orig" 2>"$CZ_TMP/err"
	ok "uid 65534: zeroctl --routine -> EPERM ($(cat "$CZ_TMP/err"))" -- grep -q "not permitted" "$CZ_TMP/err"
	ok "uid 65534: zeroctl --stats works" -- sh -c "setpriv --reuid 65534 --regid 65534 --clear-groups '$ZEROCTL' '$Z' --stats | grep -q requests"
	ok "uid 65534: reads work" -- sh -c "[ \$(setpriv --reuid 65534 --regid 65534 --clear-groups head -c 5000 '$Z' | wc -c) -eq 5000 ]"
else
	skip "uid 65534 checks: no setpriv (util-linux); zdev_check ioctl covers EPERM"
fi
ok "SIGTERM stops it" -- cz_stop c
done_testing
