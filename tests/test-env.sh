# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by AM_TESTS_ENVIRONMENT before every test.
# arm64 binaries built by a cross build run under qemu-aarch64 (binfmt_misc),
# which needs the arm64 loader and libc: Debian multiarch's (libc6:arm64, in
# /lib, which scripts/setup installs with the arm64 libraries) where present,
# else the cross sysroot through QEMU_LD_PREFIX.  Multiarch first: under
# qemu-aarch64 10.0 with a QEMU_LD_PREFIX, a forked child spins forever (seen
# in every test that forks: zab, fault, the daemon's background start).
if [ "$ZERO_ARCH" = aarch64 ] && [ "$(uname -m)" != aarch64 ] &&
   [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
	QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
	export QEMU_LD_PREFIX
fi
# zab run records every run in the results store: the tests' runs go to one
# SQLite file of the build tree, never to the tester's own store.
CUSEZERO_STORE=${CUSEZERO_STORE_TESTS:-sqlite:$top_builddir/tests/results.db}
export CUSEZERO_STORE
