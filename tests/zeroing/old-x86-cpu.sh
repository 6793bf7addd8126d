#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the x86-64 zeroing tests again on OLD CPU models, emulated
# by qemu-x86_64.  -cpu Westmere (no AVX, no AVX2, no AVX-512, no ERMS/FSRM):
# the usable() predicates must turn avx2 and avx512 into visible SKIPs (not
# crashes with SIGILL), zero_default() must fall back to
# rep_stos_alternative, and every remaining routine must still pass.
# -cpu Haswell has ERMS but neither FSRM nor FSRS: the kernel's rule (and
# ours) still picks rep_stosb there -- a rule asking for FSRM/FSRS instead
# passes on every host with them and on Westmere, and fails only here.
# The host CPU covers the other side (new features present).
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 routines only (ZERO_ARCH=$ZERO_ARCH)"
command -v qemu-x86_64 >/dev/null 2>&1 || skip_all "qemu-x86_64 not installed (apt-get install qemu-user)"
dir=$top_builddir/tests/zeroing
# ASan reserves terabytes of shadow address space, which qemu-user cannot map.
if grep -q __asan_init "$dir/routines" 2>/dev/null; then
	skip_all "ASan build: qemu-x86_64 cannot host ASan's shadow memory"
fi
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

for cpu in Westmere Haswell; do
	case $cpu in
	Westmere) want=rep_stos_alternative skips="avx2 avx512" ;;
	Haswell) want=rep_stosb skips=avx512 ;;
	esac
	for t in registry routines fault placement; do
		qemu-x86_64 -cpu $cpu "$dir/$t" >"$out" 2>/dev/null
		rc=$?
		bad=$(grep -m 1 '^not ok\|^Bail out' "$out")
		if [ $rc -eq 0 ] && [ -z "$bad" ]; then
			pass "$t under qemu-x86_64 -cpu $cpu"
		else
			fail "$t under qemu-x86_64 -cpu $cpu: exit $rc${bad:+, first failure: $bad}"
		fi
		case $t in
		registry)
			ok "$cpu: default routine is $want" -- \
				grep -q "^ok .* default is $want" "$out" ;;
		routines)
			for r in $skips; do
				ok "$cpu: $r is a visible SKIP" -- grep -q "^ok [0-9]* # SKIP $r: " "$out"
			done ;;
		esac
	done
done
done_testing
