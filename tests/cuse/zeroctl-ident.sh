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
CZ_TMP=$(mktemp -d /tmp/cusezero-zeroctl.XXXXXX) || skip_all "mktemp failed"
trap 'rm -rf "$CZ_TMP"' EXIT
trap 'exit 1' INT TERM

echo hi >"$CZ_TMP/foo"
for opts in "--routine rep_stosq" "--reset" "--chunk 8KB" "--stats" ""; do
	printf 'IMPORTANT\n' >"$CZ_TMP/control"
	# shellcheck disable=SC2086
	timeout 20 "$ZEROCTL" "$CZ_TMP/foo" $opts 2>"$CZ_TMP/err" >"$CZ_TMP/out"
	st=$?
	ok "zeroctl FILE $opts: exit $st, one line ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q 'not a cusezero device' '$CZ_TMP/err'"
	ok "zeroctl FILE $opts: the unrelated control file is untouched" -- \
		sh -c "[ \"\$(cat '$CZ_TMP/control')\" = IMPORTANT ]"
	ok "zeroctl FILE $opts: nothing printed from the unrelated files" -- [ ! -s "$CZ_TMP/out" ]
done
ok "zeroctl FILE: the file itself is untouched" -- sh -c "[ \"\$(cat '$CZ_TMP/foo')\" = hi ]"

# A FIFO: refused at once (an open for reading would wait for a writer).
mkfifo "$CZ_TMP/fifo"
timeout 20 "$ZEROCTL" "$CZ_TMP/fifo" --reset 2>"$CZ_TMP/err"
st=$?
ok "zeroctl FIFO: exit $st, not a cusezero device ($(cat "$CZ_TMP/err"))" -- \
	sh -c "[ $st -eq 1 ] && grep -q 'not a cusezero device' '$CZ_TMP/err'"
# A character device that is not one (the kernel's /dev/null, beside a control file).
timeout 20 "$ZEROCTL" /dev/null --routine rep_stosq 2>"$CZ_TMP/err"
st=$?
ok "zeroctl /dev/null: exit $st, not a cusezero device ($(cat "$CZ_TMP/err"))" -- \
	sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q 'not a cusezero device' '$CZ_TMP/err'"
done_testing
