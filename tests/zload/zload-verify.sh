#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload --verify passes on zeros and fails, exit 1, naming the
# offset and the value of the first non-zero byte, whatever the I/O path;
# a failed read prints op, offset, res and strerror, is counted, exits 1.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"

zero_file_with_z "$CZ_TMP/z" 12345 65536
head -c 65536 /dev/zero >"$CZ_TMP/zeros"

for opts in "" "--qd 8" "--qd 8 --fixedbufs --registerfiles" "--nonvectored" "--bs 16KB --qd 4"; do
	ok "--verify $opts: zeros pass" -- quiet "$Z" --verify --size 256KB $opts "$CZ_TMP/zeros"
	"$Z" --verify --size 256KB $opts "$CZ_TMP/z" >/dev/null 2>"$CZ_TMP/err"; rc=$?
	line=$(grep 'verify' "$CZ_TMP/err" | head -n 1)
	if [ $rc -eq 1 ] && printf '%s\n' "$line" | grep -q 'offset 12345 = 0x5a'; then
		pass "--verify $opts: exit 1, '$line'"
	else
		fail "--verify $opts: exit $rc, stderr '$(head -n 3 "$CZ_TMP/err" | tr '\n' '|')'"
	fi
done

# Without --verify the same file is only read.
ok "no --verify: non-zero file reads with exit 0" -- quiet "$Z" --size 256KB "$CZ_TMP/z"
ok "--verify on /dev/zero passes (qd 16, 100KB)" -- quiet "$Z" --verify --qd 16 --bs 100KB --size 16MB /dev/zero

# A failed read: /proc/self/mem at offset 0 (never mapped) gives EIO.
J=$("$Z" --json --size 64KB --qd 8 /proc/self/mem 2>"$CZ_TMP/err"); rc=$?
line=$(head -n 1 "$CZ_TMP/err")
case $rc:$line in
1:*"read of 4096 bytes at offset 0 failed: res -5 (Input/output error)"*)
	pass "failed CQE: exit 1, '$line'" ;;
*)	fail "failed CQE on /proc/self/mem: exit $rc, '$line'" ;;
esac
e=$(json_val "$J" errors)
if [ -n "$e" ] && [ "$e" -ge 1 ] && [ "$e" -le 8 ]; then pass "failed CQEs counted: errors $e (stops issuing, drains qd 8)"
else fail "failed CQEs counted: errors '$e'"; fi

done_testing
