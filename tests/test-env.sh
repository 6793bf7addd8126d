# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by AM_TESTS_ENVIRONMENT before every test.
# arm64 binaries built by a cross build run under qemu-aarch64 (binfmt_misc),
# which needs the arm64 loader and libc.
if [ "$ZERO_ARCH" = aarch64 ] && [ "$(uname -m)" != aarch64 ]; then
	QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
	export QEMU_LD_PREFIX
fi
