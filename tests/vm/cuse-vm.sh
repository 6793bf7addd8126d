#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the cusezero daemon as a REAL CUSE device in a REAL kernel
# of the architecture it was built for: x86-64 (Debian's amd64 kernel under
# qemu-system-x86_64) or arm64 (Debian's arm64 kernel under
# qemu-system-aarch64 -M virt -cpu max), both TCG, one boot each.
#
# The build host's kernel may lack CUSE (and cannot run arm64 code), so this
# boots a kernel with a busybox-static initramfs holding cuse.ko (+ fuse.ko
# where modular), a statically linked cusezero and the static checker
# tests/vm/vmcheck.c.  The VM's /init (tests/vm/vminit.sh) loads the modules,
# runs the checker, then -- for a build foreign to this host, e.g. arm64
# built on x86-64 -- the device test scripts listed in $CZ_VM_DEVICE_TESTS
# with the build's own dynamically linked binaries (their arm64 libraries
# copied in at the same paths): qemu-user cannot carry those tests (it
# forwards only the ioctls it knows, ENOTTY for cusezero's, and has no
# io_uring).  Results come back on the serial console as lines prefixed
# "@@CZTAP@@", which this script extracts, renumbers and prints as one TAP
# stream (device test results prefixed with the script's name).
#
# Run by `make check` or by hand from the build directory:
#     tests/vm/cuse-vm.sh              (or: sh /path/to/src/tests/vm/cuse-vm.sh)
# Environment (all optional):
#     top_builddir   build directory (default: .)
#     ZERO_ARCH      architecture of the build: x86_64 or aarch64 (default: uname -m)
#     CZ_VM_DAEMON   static cusezero  (default $top_builddir/tests/vm/cusezero-static)
#     CZ_VM_CHECK    static checker   (default $top_builddir/tests/vm/vmcheck)
#     CZ_VM_INIT     the VM's /init   (default: vminit.sh next to this script)
#     CZ_VM_KERNEL   kernel image     (x86-64: newest /boot/vmlinuz-* with /lib/modules/VERSION;
#                                      arm64: /var/cache/cusezero-vm/arm64/Image, from scripts/setup)
#     CZ_VM_MODULES  modules dir      (default: the kernel's lib/modules/VERSION)
#     CZ_VM_BUSYBOX  static busybox   (x86-64: busybox in PATH; arm64: the cache's bin/busybox)
#     CZ_VM_QEMU     qemu binary      (default qemu-system-x86_64 / qemu-system-aarch64)
#     CZ_VM_TIMEOUT  seconds before qemu is killed (default 150; 540 with device tests)
#     CZ_VM_SMP      virtual CPUs (default 1; 2 with device tests, which pin to CPU 1)
#     CZ_VM_DEVICE_TESTS  device test scripts (paths under $top_srcdir) to run in the VM
#                    as well; scripts/test-arm64.sh sets it for the arm64 cross build
#     CZ_VM_LOG      console log      (default $top_builddir/tests/vm/cuse-vm.console)
#     CZ_VM_KEEP=1   keep the work directory (initramfs tree) and print its path
#     CZ_VM_CHECKER=0  the device tests alone, no CUSE checker (scripts/test-arm64.sh's
#                    second, io_uring-only boot: the first boot ran the checker)
# Needs: x86-64: qemu-system-x86, linux-image-amd64, busybox-static, cpio;
# arm64: qemu-system-arm and the kernel, modules and busybox that
# `scripts/setup deps` unpacks into /var/cache/cusezero-vm/arm64.  A missing
# one is a SKIP with the reason -- or, with CI=true (CI installs them all), a
# failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-.}
. "${top_srcdir:-$here/../..}/tests/tap.sh"
. "$here/vmlib.sh"

arch=${ZERO_ARCH:-$(uname -m)}
daemon=${CZ_VM_DAEMON:-$top_builddir/tests/vm/cusezero-static}
checker=${CZ_VM_CHECK:-$top_builddir/tests/vm/vmcheck}
vminit=${CZ_VM_INIT:-$here/vminit.sh}
devtests=${CZ_VM_DEVICE_TESTS:-}
log=${CZ_VM_LOG:-$top_builddir/tests/vm/cuse-vm.console}
if [ -n "$devtests" ]; then smp=${CZ_VM_SMP:-2} tmo=${CZ_VM_TIMEOUT:-540}
else smp=${CZ_VM_SMP:-1} tmo=${CZ_VM_TIMEOUT:-150}; fi

# ---- prerequisites: SKIP (CI: fail) with the reason ---------------------------
vm_arch_setup "$arch"
command -v "$qemu" >/dev/null 2>&1 || vm_missing "$qemu not found (Debian package $qemu_pkg)"
for t in cpio gzip timeout; do
	command -v $t >/dev/null 2>&1 || vm_missing "$t not found (Debian packages cpio, gzip, coreutils)"
done
for b in "$daemon" "$checker"; do
	[ -x "$b" ] || vm_missing "static binary $b not built: 'make check' builds it when configure reports 'VM test (static): yes' (needs libfuse3.a from libfuse3-dev${host_suffix})"
done
[ -r "$vminit" ] || vm_missing "VM init script $vminit not found"
[ -n "$busybox" ] && [ -x "$busybox" ] || vm_missing "static busybox for $arch not found ($busybox_hint)"
# A dynamically linked busybox cannot run in the library-less initramfs.
if readelf -l "$busybox" 2>/dev/null | grep -q 'Requesting program interpreter'; then
	vm_missing "$busybox is dynamically linked ($busybox_hint)"
fi
vm_find_kernel		# sets kernel, kver, moddir
deps=$(vm_cuse_modules "$moddir") || vm_missing "kernel $kver has no cuse module (CONFIG_CUSE) in $moddir"

work=$(mktemp -d "${TMPDIR:-/tmp}/cz-vm.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	if [ "${CZ_VM_KEEP:-0}" = 1 ]; then echo "# kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the initramfs ------------------------------------------------------------
root=$work/root
mkdir -p "$root/bin" "$root/lib/modules" "$root/dev" "$root/proc" "$root/sys" \
	"$root/run" "$root/tmp" "$root/etc" || exit 1
cp "$busybox" "$root/bin/busybox" && cp "$daemon" "$root/bin/cusezero" &&
	cp "$checker" "$root/bin/vmcheck" && cp "$vminit" "$root/init" &&
	chmod 0755 "$root/init" "$root/bin/"* || { echo "Bail out! copying into $root failed"; exit 1; }
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
vm_copy_modules "$moddir" "$root/lib/modules" $deps
[ -z "$devtests" ] || vm_add_device_tests "$root" "$devtests"
checker_on=${CZ_VM_CHECKER:-1}
[ "$checker_on" = 1 ] || : >"$root/etc/cz-no-checker"
initrd=$work/initrd.cpio.gz
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$initrd" ||
	{ echo "Bail out! building the initramfs failed"; exit 1; }

# ---- boot --------------------------------------------------------------------
diag "$arch kernel $kernel, modules: $(tr '\n' ' ' <"$root/lib/modules/order")"
diag "$($qemu --version | head -n 1): $qemu_machine, TCG, $smp CPU(s), timeout ${tmo}s, console log $log"
[ -z "$devtests" ] || diag "device tests in the VM: $(echo $devtests)"
mkdir -p "$(dirname "$log")"
: >"$log" || { echo "Bail out! cannot write $log"; exit 1; }
t0=$(date +%s)
# -serial file: keeps the terminal out of raw mode when run by hand;
# -no-reboot + panic=-1: a kernel panic ends qemu at once.
# shellcheck disable=SC2086 # $qemu_machine is a list of options
timeout -k 5 "$tmo" "$qemu" -accel tcg $qemu_machine -m 1024 -smp "$smp" \
	-display none -monitor none -serial "file:$log" -net none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=$console panic=-1 quiet loglevel=3" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!
wait "$qpid"
qrc=$?
qpid=
t1=$(date +%s)

# ---- results -------------------------------------------------------------------
tr -d '\r' <"$log" | sed -n 's/^.*@@CZTAP@@ //p' >"$work/tap"
vm_relay_tap "$work/tap" "$work/summary"
# checker plan and results, device tests started and complete, TAP lines, failures
read -r plan ntests ndev ndevok tap_n tap_failed <"$work/summary"

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail "VM finished within ${tmo}s (qemu killed after $((t1 - t0))s; see $log)"
else
	ok "VM powered off by itself (qemu exit $qrc after $((t1 - t0))s)" -- [ "$qrc" -eq 0 ]
fi
if [ "$checker_on" != 1 ]; then
	ok "in-VM run finished (the CUSE checker not run in this boot: CZ_VM_CHECKER=0)" -- \
		grep -q '@@CZDONE@@' "$log"
elif grep -q '@@CZDONE@@' "$log"; then
	ok "in-VM checker completed its plan (1..$plan, got $ntests results)" -- \
		[ "$plan" -gt 0 ] && [ "$plan" -eq "$ntests" ]
else
	fail "in-VM run did not finish (checker plan 1..$plan, got $ntests results)"
fi
if [ -n "$devtests" ]; then
	want=$(echo $devtests | wc -w)
	ok "device tests in the VM: $ndevok of $want ran to their plan and exited 0 (started: $ndev)" -- \
		[ "$ndevok" -eq "$want" ]
fi
if [ "$tap_failed" -gt 0 ]; then
	diag "last console lines ($log):"
	tr -d '\r' <"$log" | grep -v '@@CZ' | tail -n 30 | sed 's/^/# console: /'
	sed 's/^/# qemu: /' "$work/qemu.out"
fi
diag "boot-to-poweroff $((t1 - t0))s"
done_testing
