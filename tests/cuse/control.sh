#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: run-time control of the FUSE device through its control /
# stats / stats.json files and through zeroctl (ioctls): every command, the
# invalid ones (nothing changed), and EPERM for an unprivileged user.
# Needs: root fuse ioctl
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
routines=$(cz_usable_routines)
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

# One write is applied as a whole: any invalid command in it -> EINVAL and
# nothing changed (written without a final newline, as printf does).
for cmd in "routine=nt chunk=0" "align=5 align_point=bogus" "chunk=1 routine=bogus" \
	   "routine=memset align=100" "chunk=8KB chunk=16KB" "align_point=entry" \
	   "align=none align_point=entry" "chunk=8KB reset routine=no_such_routine"; do
	before=$(cat "$D/control")
	printf '%s' "$cmd" | dd of="$D/control" conv=notrunc status=none 2>"$CZ_TMP/err"
	st=$?
	after=$(cat "$D/control")
	if [ "$st" -ne 0 ] && [ "$before" = "$after" ] && grep -q "Invalid argument" "$CZ_TMP/err"; then
		pass "control: '$cmd' refused with EINVAL, nothing changed"
	else
		fail "control: '$cmd': exit $st ($(cat "$CZ_TMP/err")), settings $(echo $before) -> $(echo $after)"
		printf 'routine=%s\nalign=none\nchunk=4KB\n' "$orig" >"$D/control"
	fi
done
ok "control: several valid commands in one write, any order" -- \
	sh -c "printf 'chunk=8KB routine=c_store_loop' >'$D/control' && grep -q '^chunk=8192' '$D/control' && grep -q '^routine=c_store_loop' '$D/control'"
printf 'routine=%s chunk=4KB\n' "$orig" >"$D/control"
if printf 'align_point=entry align=64' >"$D/control" 2>/dev/null; then
	ok "control: align_point before align in one write" -- \
		sh -c "grep -q '^align=64' '$D/control' && grep -q '^align_point=entry' '$D/control'"
	echo align=none >"$D/control"
else
	skip "control: align_point before align: routine $orig is not relocatable"
fi

# A write longer than one FUSE request (1 MiB) with a command across the
# request boundary: one write() call (dd bs=4M), applied as a whole.
big() {	# big PAD CMD: PAD spaces then CMD, into $CZ_TMP/big
	{ head -c "$1" /dev/zero | tr '\000' ' '; printf '%b' "$2"; } >"$CZ_TMP/big"
}
big 1048570 'chunk=8KB routine=c_store_loop\n'
ok "control: 1 MiB + 32 B write, 'chunk=8KB' across the request boundary, applied" -- \
	sh -c "dd if='$CZ_TMP/big' of='$D/control' bs=4M conv=notrunc status=none &&
	       grep -q '^chunk=8192$' '$D/control' && grep -q '^routine=c_store_loop$' '$D/control'"
# big_refused PAD CMD WHAT: the big write of CMD fails with EINVAL (from
# write or close, dd reports either) and changes nothing
big_refused() {
	before=$(cat "$D/control")
	big "$1" "$2"
	dd if="$CZ_TMP/big" of="$D/control" bs=4M conv=notrunc status=none 2>"$CZ_TMP/err"
	st=$?
	ok "control: $3 ($st: $(cat "$CZ_TMP/err")), nothing changed" -- \
		eval '[ "$st" -ne 0 ] && grep -q "Invalid argument" "$CZ_TMP/err" && [ "$before" = "$(cat "$D/control")" ]'
}
printf 'routine=%s chunk=4KB\n' "$orig" >"$D/control"
big_refused 1048570 'chunk=8KB chunk=0\n' "1 MiB + 20 B write with an invalid command: EINVAL"
big 2097152 'chunk=16KB'
ok "control: 2 MiB of blanks then 'chunk=16KB' (no newline), applied" -- \
	sh -c "dd if='$CZ_TMP/big' of='$D/control' bs=4M conv=notrunc status=none && grep -q '^chunk=16384$' '$D/control'"
printf 'chunk=4KB\n' >"$D/control"
# exactly 1 MiB ending inside a command: held, nothing follows: applied at
# close, whose error dd reports
big_refused 1048569 'chunk=0' "1 MiB ending in an invalid command: the error comes from close"

# A copier that never calls read(2) -- sendfile(2) -- would be served from
# the inode's one page cache, shared by all open files, where readers'
# texts mix: refused with EINVAL (EIO where the kernel reads FUSE pages
# through iomap, Linux 7.x), nothing copied.  busybox cat, which tries
# sendfile first, falls back to read(2) and prints the whole text, also
# when the text grew since the last copy.
printf 'chunk=4KB\n' >"$D/control"
for f in control stats stats.json; do
	cz_sendfile_refused "sendfile of $f" "$D/$f"
done
if command -v busybox >/dev/null 2>&1; then
	ok "busybox cat of control: what read(2) gives" -- \
		sh -c "[ \"\$(busybox cat '$D/control')\" = \"\$(cat '$D/control')\" ] && busybox cat '$D/control' | grep -q '^chunk=4096\$'"
	printf 'chunk=1MB\n' >"$D/control"
	ok "busybox cat of control after it grew by 3 bytes: the whole new text" -- \
		sh -c "busybox cat '$D/control' | grep -q '^chunk=1048576\$'"
	printf 'chunk=4KB\n' >"$D/control"
	ok "busybox cat of stats.json: the whole document, no NUL" -- \
		sh -c "busybox cat '$D/stats.json' | tr '\\000' @ | tail -c 2 | grep -q '}'"
else
	skip "busybox cat of the text files: no busybox here (apt-get install busybox)"
fi

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
# zeroctl applies its settings as a whole too (one ioctl): a refused value changes nothing.
for opts in "--routine memset --align 5" "--routine c_store_loop --align-point entry" \
	    "--align-point entry" "--align none --align-point entry" "--chunk 8KB --routine no_such_routine"; do
	before=$(cat "$D/control")
	# shellcheck disable=SC2086
	"$ZEROCTL" "$Z" $opts 2>"$CZ_TMP/err"
	st=$?
	after=$(cat "$D/control")
	if [ "$st" -ne 0 ] && [ "$before" = "$after" ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ]; then
		pass "zeroctl $opts: exit $st, nothing changed: $(cat "$CZ_TMP/err")"
	else
		fail "zeroctl $opts: exit $st ($(cat "$CZ_TMP/err")), settings $(echo $before) -> $(echo $after)"
		"$ZEROCTL" "$Z" --routine "$orig" --align none --chunk 4KB 2>/dev/null
	fi
done
ok "zeroctl: stats.json still says align point loop" -- grep -q '"align_point":"loop"' "$D/stats.json"
if "$ZEROCTL" "$Z" --align 64 2>/dev/null && "$ZEROCTL" "$Z" --align none; then
	ok "zeroctl --chunk 8KB --align 64 --align-point entry: all applied" -- \
		sh -c "'$ZEROCTL' '$Z' --chunk 8KB --align 64 --align-point entry && grep -q '^chunk=8192' '$D/control' && grep -q '^align=64' '$D/control' && grep -q '^align_point=entry' '$D/control'"
	"$ZEROCTL" "$Z" --align none --chunk 4KB
else
	skip "zeroctl combined: routine $orig is not relocatable"
fi


# Errors that say what is wrong: the statistics are read-only, even for root
# (EACCES at open); the four names are fixed (EPERM: the file system is not
# read-only, control and zero take writes); zeroctl on another device says so.
errno_of() {	# errno_of CMD...: the strerror text the command printed
	"$@" 2>"$CZ_TMP/err" >/dev/null
	sed 's/.*: //' "$CZ_TMP/err" | tail -1
}
for f in stats stats.json; do
	e=$(errno_of sh -c "printf x | dd of='$D/$f' status=none")
	ok "root writing $f: $e" -- [ "$e" = "Permission denied" ]
done
e=$(errno_of mkdir "$D/newdir")
ok "mkdir in the mount: $e" -- [ "$e" = "Operation not permitted" ]
e=$(errno_of touch "$D/newfile")
ok "touch a new file in the mount: $e" -- [ "$e" = "Operation not permitted" ]
e=$(errno_of rm -f "$D/zero")
ok "rm zero: $e" -- [ "$e" = "Operation not permitted" ]
e=$(errno_of mv "$D/stats" "$D/stats2")
ok "mv stats: $e" -- [ "$e" = "Operation not permitted" ]
e=$(errno_of ln -s zero "$D/zero2")
ok "ln -s in the mount: $e" -- [ "$e" = "Operation not permitted" ]
ok "touch the existing zero file works" -- touch "$D/zero"
for opts in "" "--stats" "--routine c_store_loop"; do
	# shellcheck disable=SC2086
	"$ZEROCTL" /dev/zero $opts 2>"$CZ_TMP/err"
	st=$?
	ok "zeroctl /dev/zero $opts: exit $st, says it is not a cusezero device ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q '^zeroctl: /dev/zero: not a cusezero device' '$CZ_TMP/err'"
done

# Rotation through the control file and zeroctl: the settings say it, every
# copy serves and is listed in stats.json, refusals change nothing.
rel=""
for r in rep_stosb clear_user_arm64_quirk memset_portable; do
	if printf 'routine=%s rotate=0..12:4 align_point=entry' "$r" >"$D/control" 2>/dev/null; then
		rel=$r
		break
	fi
done
if [ -z "$rel" ]; then
	skip "rotation: none of rep_stosb, clear_user_arm64_quirk, memset_portable can be placed here"
else
	ok "control: rotate=0..12:4 align_point=entry ($rel): the settings say so" -- \
		sh -c "grep -qx 'align=rotate' '$D/control' && grep -qx 'rotate=0,4,8,12' '$D/control' && grep -qx 'align_point=entry' '$D/control' && grep -qx 'rotate_period=8' '$D/control'"
	echo reset >"$D/control"
	n=$(dd if="$Z" bs=64k count=400 status=none | tr -d '\000' | wc -c)
	ok "rotating: 400 reads of 64 KiB, $n non-zero bytes" -- [ "$n" -eq 0 ]
	cp "$D/stats.json" "$CZ_TMP/rot.json"
	# (grep and awk only: the arm64 VM runs this test with busybox)
	offs=$(grep -o '"layouts":\[.*\]' "$CZ_TMP/rot.json" | grep -o '"offset":[0-9]*' | cut -d: -f2 | tr '\n' ' ')
	reqs=$(grep -o '"layouts":\[.*\]' "$CZ_TMP/rot.json" | grep -o '"requests":[0-9]*' | cut -d: -f2 |
		awk '{ s += $1; z += $1 == 0 } END { print s + 0, z + 0 }')
	p50s=$(grep -o '"layouts":\[.*\]' "$CZ_TMP/rot.json" | grep -o '"request_p50_ns_4k"' | wc -l)
	ok "stats.json: layouts at offsets '$offs', requests (sum, idle copies) '$reqs', $p50s medians" -- \
		sh -c "[ '$offs' = '0 4 8 12 ' ] && [ '$reqs' = '400 0' ] && [ $p50s -eq 4 ] && grep -q '\"align\":-2,' '$CZ_TMP/rot.json' && grep -q '\"rotate_point\":\"entry\",\"rotate_period\":8,' '$CZ_TMP/rot.json'"
	ok "stats: a per-layout table" -- sh -c "grep -q '^per layout (entry placed at the offset, 8 requests per turn):' '$D/stats' && [ \$(grep -cE '^ +(0|4|8|12) +[0-9]+ ' '$D/stats') -eq 4 ]"
	for cmd in "rotate=0..12:4 align=8" "rotate_period=4" "rotate=0..300" "rotate=0,0x1000" \
		   "rotate=0..12:4 rotate_period=0" "rotate=abc" "rotate=none align_point=entry"; do
		before=$(cat "$D/control")
		printf '%s' "$cmd" | dd of="$D/control" conv=notrunc status=none 2>"$CZ_TMP/err"
		st=$?
		ok "control: '$cmd' refused (exit $st, $(cat "$CZ_TMP/err")), nothing changed" -- \
			sh -c "[ $st -ne 0 ] && grep -q 'Invalid argument' '$CZ_TMP/err' && [ \"\$(cat '$D/control')\" = '$before' ]"
	done
	ok "zeroctl shows the rotation" -- sh -c "'$ZEROCTL' '$Z' | grep -qx 'rotate=0,4,8,12'"
	ok "zeroctl --rotate 0..60:4 --rotate-period 2 --chunk 8KB" -- \
		sh -c "'$ZEROCTL' '$Z' --rotate 0..60:4 --rotate-period 2 --chunk 8KB --align-point entry && grep -qx 'rotate=0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60' '$D/control' && grep -qx 'rotate_period=2' '$D/control' && grep -qx 'chunk=8192' '$D/control'"
	# c_store_loop has no loop head: the routine switch and the rotation are refused together
	before=$(cat "$D/control")
	"$ZEROCTL" "$Z" --routine c_store_loop --rotate 0,8 --chunk 4KB 2>"$CZ_TMP/err"
	st=$?
	ok "zeroctl --routine c_store_loop --rotate 0,8 (loop heads): exit $st, one line, settings put back ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q 'offset 0: routine c_store_loop' '$CZ_TMP/err' && [ \"\$(cat '$D/control')\" = '$before' ]"
	for args in "--rotate 0..1000" "--rotate 4 --align 8" "--rotate-period 3" "--rotate none --rotate-period 3" \
		    "--rotate 0..8:4 --rotate-period 0"; do
		# shellcheck disable=SC2086
		"$ZEROCTL" "$Z" $args 2>"$CZ_TMP/err"
		st=$?
		ok "zeroctl $args: exit $st, one line ($(cat "$CZ_TMP/err"))" -- \
			sh -c "[ $st -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && [ \"\$(cat '$D/control')\" = '$before' ]"
	done
	ok "zeroctl --rotate none: placement off" -- sh -c "'$ZEROCTL' '$Z' --rotate none && grep -qx 'align=none' '$D/control'"
fi
printf 'routine=%s chunk=4KB\n' "$orig" >"$D/control"

# Unprivileged user: settings refused (EPERM), statistics and reads allowed.
if command -v setpriv >/dev/null; then
	nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
	printf 'reset\n' | nobody dd of="$D/control" conv=notrunc status=none 2>"$CZ_TMP/err"
	ok "uid 65534: control write refused: $(cat "$CZ_TMP/err")" -- grep -q "Permission denied\|not permitted" "$CZ_TMP/err"
	ok "control shows the mode enforced: $(stat -c '%a %u' "$D/control")" -- \
		sh -c "[ \"\$(stat -c '%a %u' '$D/control')\" = \"644 \$(id -u)\" ]"
	nobody "$ZEROCTL" "$Z" --routine "$orig" 2>"$CZ_TMP/err"
	ok "uid 65534: zeroctl --routine -> EPERM ($(cat "$CZ_TMP/err"))" -- grep -q "not permitted" "$CZ_TMP/err"
	ok "uid 65534: zeroctl --stats works" -- sh -c "setpriv --reuid 65534 --regid 65534 --clear-groups '$ZEROCTL' '$Z' --stats | grep -q requests"
	ok "uid 65534: reads work" -- sh -c "[ \$(setpriv --reuid 65534 --regid 65534 --clear-groups head -c 5000 '$Z' | wc -c) -eq 5000 ]"
else
	skip "uid 65534 checks: no setpriv (util-linux); zdev-check ioctl covers EPERM"
fi
ok "SIGTERM stops it" -- cz_stop c
done_testing
