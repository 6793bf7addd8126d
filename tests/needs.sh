# SPDX-License-Identifier: GPL-2.0-or-later
# What a test script needs from the machine, declared once in the script by
# a header line among its first 30 lines (the C tests need nothing of it):
#
#   # Needs: WORD...        (or "# Needs: none")
#
#   root      runs as root (FUSE mounts with allow_other, uid switches, sysfs)
#   fuse      mounts cusezero's FUSE front end: /dev/fuse and $CUSEZERO
#             (and so sends the device's ioctls)
#   ioctl     sends cusezero's ioctls to a live device
#   io_uring  submits io_uring requests (zload, the uring transport)
#   native    runs its programs on a kernel of their own architecture, not
#             under qemu-user (LD_PRELOAD into the program under test)
#
# Read by tests/tap.sh (a test whose root or fuse need is not met here is a
# visible SKIP naming it), by scripts/test-arm64.sh (qemu-user forwards no
# cusezero ioctl -- ENOTTY -- and has no io_uring: a test needing fuse, ioctl,
# io_uring or native runs in the arm64 VM instead) and by
# scripts/check-tree.sh (a test that starts cusezero or zload declares it).
cz_needs_words='root fuse ioctl io_uring native none'

# cz_needs FILE: the words of FILE's "# Needs:" line (nothing if it has none).
cz_needs() {
	sed -n '1,30s/^# Needs:\(\( [a-z_][a-z_]*\)\{1,\}\)$/\1/p' "$1" 2>/dev/null | head -n 1 | sed 's/^ //'
}

# cz_needs_vm WORDS: true if qemu-user cannot carry a test needing WORDS.
cz_needs_vm() {
	for w in $1; do
		case $w in fuse|ioctl|io_uring|native) return 0 ;; esac
	done
	return 1
}

# cz_require_needs FILE: skip_all unless the root and fuse needs of FILE are met.
cz_require_needs() {
	for w in $(cz_needs "$1"); do
		case $w in
		root)	[ "$(id -u)" = 0 ] || skip_all "needs root (# Needs: $w)" ;;
		fuse)	[ -c /dev/fuse ] || skip_all "no /dev/fuse on this machine (# Needs: $w)"
			[ -n "${CUSEZERO:-}" ] && [ -x "$CUSEZERO" ] ||
				skip_all "cusezero not built (\$CUSEZERO='${CUSEZERO:-}')" ;;
		esac
	done
}
