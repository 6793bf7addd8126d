#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zeroctl talks only to a cusezero device.  A file that is not
# one (a plain file beside an unrelated file named control, a FIFO, a
# character device that answers no cusezero ioctl) is refused with one line
# and exit 1, and nothing beside it is written: zeroctl never falls back to
# writing a sibling file.
# Needs: none
. "$top_srcdir/tests/tap.sh"
[ -x "$ZEROCTL" ] || skip_all "zeroctl not built (\$ZEROCTL=$ZEROCTL)"
T=$(mktemp -d /tmp/cusezero-zeroctl.XXXXXX) || skip_all "mktemp failed"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

echo hi >"$T/foo"
for opts in "--routine rep_stosq" "--reset" "--chunk 8KB" "--stats" ""; do
	printf 'IMPORTANT\n' >"$T/control"
	# shellcheck disable=SC2086
	timeout 20 "$ZEROCTL" "$T/foo" $opts 2>"$T/err" >"$T/out"
	st=$?
	ok "zeroctl FILE $opts: exit $st, one line ($(cat "$T/err"))" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'not a cusezero device' '$T/err'"
	ok "zeroctl FILE $opts: the unrelated control file is untouched" -- \
		sh -c "[ \"\$(cat '$T/control')\" = IMPORTANT ]"
	ok "zeroctl FILE $opts: nothing printed from the unrelated files" -- [ ! -s "$T/out" ]
done
ok "zeroctl FILE: the file itself is untouched" -- sh -c "[ \"\$(cat '$T/foo')\" = hi ]"

# A FIFO: refused at once (an open for reading would wait for a writer).
mkfifo "$T/fifo"
timeout 20 "$ZEROCTL" "$T/fifo" --reset 2>"$T/err"
st=$?
ok "zeroctl FIFO: exit $st, not a cusezero device ($(cat "$T/err"))" -- \
	sh -c "[ $st -eq 1 ] && grep -q 'not a cusezero device' '$T/err'"
# A character device that is not one (the kernel's /dev/null, beside a control file).
timeout 20 "$ZEROCTL" /dev/null --routine rep_stosq 2>"$T/err"
st=$?
ok "zeroctl /dev/null: exit $st, not a cusezero device ($(cat "$T/err"))" -- \
	sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'not a cusezero device' '$T/err'"
done_testing
