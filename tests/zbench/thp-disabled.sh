#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: with transparent huge pages disabled for the process
# (prctl(PR_SET_THP_DISABLE), inherited across execve), zbench says so --
# zbench kernel's THP line, and the error of memset and mmap asked for 2MB
# pages with no hugetlb pool -- rather than blaming memory fragmentation.
# Disabled "except advised" (Linux 6.18) leaves zbench's madvised ranges
# their huge pages: then it must not say THP is disabled.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (it calls prctl for the test)"
# qemu-user (the arm64 suite on an x86-64 host) does not pass
# prctl(PR_GET_THP_DISABLE) on to the kernel: zbench cannot see the setting
[ "$(uname -m)" = "$ZERO_ARCH" ] ||
	skip_all "zbench ($ZERO_ARCH) runs under qemu-user here, which does not pass PR_GET_THP_DISABLE on"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $thp in always|madvise) ;; *) skip_all "THP is '${thp:-unavailable}' system-wide here" ;; esac
# thp_off FLAGS CMD...: run CMD with prctl(PR_SET_THP_DISABLE, 1, FLAGS)
thp_off() {
	flags=$1; shift
	python3 -c 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(41, 1, int(sys.argv[1]), 0, 0):        # PR_SET_THP_DISABLE
    sys.stderr.write("prctl: %s\n" % os.strerror(ctypes.get_errno())); sys.exit(99)
os.execvp(sys.argv[2], sys.argv[2:])' "$flags" "$@"
}
thp_off 0 true || skip_all "prctl(PR_SET_THP_DISABLE) refused here"
r=$("$ZBENCH" kernel -f help 2>&1 | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 1)
DIS='disabled for this process (prctl PR_SET_THP_DISABLE'

thp_off 0 "$ZBENCH" kernel -r 3 -s 16KB,64KB -f "$r" >"$CZ_TMP/k" 2>&1
line=$(grep '^kernel 2 MiB THP fault' "$CZ_TMP/k")
ok "zbench kernel's THP line says THP is disabled for the process: $line" -- \
	sh -c "printf '%s\n' '$line' | grep -q 'not measured: transparent huge pages are $DIS'"

free=$(cat /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages 2>/dev/null || echo 0)
if [ "$free" -gt 0 ]; then
	skip "memset and mmap -p 2MB: $free hugetlb 2MB pages free here, THP not asked"
	skip "memset and mmap -p 2MB: $free hugetlb 2MB pages free here, THP not asked"
else
	for b in memset mmap; do
		thp_off 0 "$ZBENCH" $b -p 2MB -s 4MB >"$CZ_TMP/o" 2>"$CZ_TMP/e"
		rc=$?
		ok "$b -p 2MB: exit $rc, says THP is disabled for the process, not fragmentation: $(grep -m1 "^zbench $b" "$CZ_TMP/e")" -- \
			sh -c "[ $rc -ne 0 ] && grep -q '^zbench $b: .*$DIS' '$CZ_TMP/e' && ! grep -q fragmented '$CZ_TMP/e'"
	done
fi

if thp_off 2 true 2>/dev/null; then
	thp_off 2 "$ZBENCH" kernel -r 3 -s 16KB,64KB -f "$r" >"$CZ_TMP/k" 2>&1
	line=$(grep '^kernel 2 MiB THP fault' "$CZ_TMP/k")
	ok "disabled except advised: the THP line does not say disabled: $line" -- \
		sh -c "[ -n '$line' ] && ! printf '%s\n' '$line' | grep -q 'disabled for this process'"
else
	skip "prctl(PR_SET_THP_DISABLE, 1, PR_THP_DISABLE_EXCEPT_ADVISED): not in this kernel (6.18+)"
fi
done_testing
