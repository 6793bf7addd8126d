#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the arm64 zeroing tests on two emulated CPU models, so both
# sides of the kernel's MOPS choice run on any machine with qemu-aarch64:
#   -cpu max         FEAT_MOPS (QEMU >= 8.2; HWCAP2_MOPS set): zero_default()
#                    is clear_user_arm64_mops, as __arch_clear_user takes its
#                    MOPS alternative, and no routine is skipped;
#   -cpu cortex-a57  no FEAT_MOPS: zero_default() falls back to
#                    clear_user_arm64_fixed, the three MOPS routines are
#                    visible SKIPs (not SIGILL) and every other one passes.
# With CI=true a qemu-aarch64 whose -cpu max lacks FEAT_MOPS is a failure
# (CI installs QEMU 10 from bookworm-backports), elsewhere a visible SKIP.
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = aarch64 ] || skip_all "arm64 routines only (ZERO_ARCH=$ZERO_ARCH)"
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: qemu-aarch64 not installed (qemu-user)"; exit 1; }
	skip_all "qemu-aarch64 not installed (apt-get install -t bookworm-backports qemu-user)"
fi
dir=$top_builddir/tests/zeroing
if grep -q __asan_init "$dir/routines" 2>/dev/null; then
	skip_all "ASan build: qemu-aarch64 cannot host ASan's shadow memory"
fi
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
mops="clear_user_arm64_mops clear_page_mops memset_arm64_mops"
diag "$(qemu-aarch64 --version | head -n 1)"

# run CPU TEST: one TAP line for the whole program; its output stays in $out.
run() {
	qemu-aarch64 -cpu "$1" "$dir/$2" >"$out" 2>&1
	rc=$?
	bad=$(grep -m 1 '^not ok\|^Bail out' "$out")
	ok "$2 under qemu-aarch64 -cpu $1 (exit $rc)${bad:+, first failure: $bad}" -- \
		[ $rc -eq 0 ] && [ -z "$bad" ]
}

# -cpu max: does this QEMU emulate FEAT_MOPS?
run max registry
if grep -q '^ok .* with HWCAP2_MOPS: default is clear_user_arm64_mops' "$out"; then
	pass "-cpu max: HWCAP2_MOPS set, default is clear_user_arm64_mops"
	run max routines
	n=$(grep -c '# SKIP' "$out")
	ok "-cpu max: routines skipped no routine ($n skips)" -- [ "$n" -eq 0 ]
	for r in $mops; do
		ok "-cpu max: $r ran the exhaustive sweep" -- grep -q "^ok [0-9]* - $r[: ]" "$out"
	done
elif [ "${CI:-}" = true ]; then
	fail "CI: qemu-aarch64 -cpu max has no FEAT_MOPS: $(qemu-aarch64 --version | head -n 1) (need QEMU >= 8.2)"
else
	skip "-cpu max lacks FEAT_MOPS in $(qemu-aarch64 --version | head -n 1) (QEMU >= 8.2 has it)"
fi

# -cpu cortex-a57 (Armv8.0): no MOPS.
cpu=cortex-a57
run $cpu registry
ok "$cpu: default is clear_user_arm64_fixed" -- \
	grep -q '^ok .* without HWCAP2_MOPS: default is clear_user_arm64_fixed' "$out"
run $cpu routines
for r in $mops; do
	ok "$cpu: $r is a visible SKIP" -- grep -q "^ok [0-9]* # SKIP $r: no FEAT_MOPS" "$out"
done
n=$(grep -c '# SKIP' "$out")
ok "$cpu: only the MOPS routines are skipped (2 lines each: 6, got $n)" -- [ "$n" -eq 6 ]
run $cpu placement
done_testing
