#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload --verify passes on zeros and fails, exit 1, naming the
# offset and the value of the first non-zero byte, whatever the I/O path;
# a failed read prints op, offset, res and strerror, is counted, exits 1;
# fio's header verifies (verify=crc32c, md5) fail on the zeros read back
# with fio's "bad magic header" line and exit status, as fio itself does.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"
# fio saves local-JOB-N-verify.state in its working folder when a verify
# fails: the working folder is this test's own, not the build tree.
cd "$CZ_TMP" || exit 1

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

# fio's header verifies: the block read back from a zero device has magic 0
# where fio's 0xacca should be.  The same line and exit status as fio's.
vline() { grep -m1 '^verify: ' "$1" | sed 's/ at file .*//'; }
"$Z" --name=v --rw=write --size=64k --verify=crc32c /dev/zero >/dev/null 2>"$CZ_TMP/verr"
rc=$?
expect_eq "rw=write verify=crc32c size=64k: exit 1 and fio's line (exit $rc)" \
	"$rc:$(vline "$CZ_TMP/verr")" "1:verify: bad magic header 0, wanted acca"
"$Z" --name=v --rw=read --size=64k --verify=md5 --ioengine=psync /dev/zero >/dev/null 2>"$CZ_TMP/verr"
rc=$?
expect_eq "rw=read verify=md5: the first read fails the same way (exit $rc)" \
	"$rc:$(vline "$CZ_TMP/verr")" "1:verify: bad magic header 0, wanted acca"
"$Z" --name=v --rw=write --size=1g --time_based --runtime=200ms --verify=crc32c /dev/zero \
	>/dev/null 2>"$CZ_TMP/verr"
rc=$?
expect_eq "rw=write verify=crc32c ended by runtime: no verify phase, exit 0" \
	"$rc:$(vline "$CZ_TMP/verr")" "0:"
if command -v fio >/dev/null; then
	fio --name=v --rw=write --size=64k --verify=crc32c --filename=/dev/zero --output=/dev/null \
		2>"$CZ_TMP/ferr"
	rc=$?
	expect_eq "fio itself: the same exit status and line" \
		"$rc:$(vline "$CZ_TMP/ferr")" "1:verify: bad magic header 0, wanted acca"
else
	skip "fio not installed: no comparison"
fi
one_line_error "verify=crc32c with rw=randrw refused" -- "$Z" --rw=randrw --verify=crc32c /dev/zero
one_line_error "verify=pattern refused naming what zload checks" -- "$Z" --verify=pattern /dev/zero

done_testing
