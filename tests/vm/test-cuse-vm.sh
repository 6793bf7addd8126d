#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-cuse-vm.sh: the cusezero daemon as a REAL CUSE device in a REAL kernel.
#
# The build host's kernel may lack CUSE, so this boots Debian's kernel under
# QEMU (TCG) with a busybox-static initramfs holding fuse.ko + cuse.ko, a
# statically linked cusezero and the static checker tests/vm/vmcheck.c.  The
# VM's /init (tests/vm/vminit.sh) loads the modules, runs the checker and
# powers off; the checker's TAP comes back on the serial console as lines
# prefixed "@@CZTAP@@", which this script extracts, renumbers and prints.
#
# Run by `make check` or by hand from the build directory:
#     tests/vm/test-cuse-vm.sh              (or: sh /path/to/src/tests/vm/test-cuse-vm.sh)
# Environment (all optional):
#     top_builddir   build directory (default: .)
#     CZ_VM_DAEMON   static cusezero  (default $top_builddir/tests/vm/cusezero-static)
#     CZ_VM_CHECK    static checker   (default $top_builddir/tests/vm/vmcheck)
#     CZ_VM_INIT     the VM's /init   (default: vminit.sh next to this script)
#     CZ_VM_KERNEL   kernel image     (default: newest /boot/vmlinuz-* with /lib/modules/VERSION)
#     CZ_VM_MODULES  modules dir      (default /lib/modules/VERSION of the kernel image)
#     CZ_VM_BUSYBOX  static busybox   (default: busybox in PATH)
#     CZ_VM_QEMU     qemu binary      (default qemu-system-x86_64)
#     CZ_VM_TIMEOUT  seconds before qemu is killed (default 150)
#     CZ_VM_SMP      virtual CPUs (default 1; 2 makes --threads truly parallel
#                    but costs a second host CPU under TCG)
#     CZ_VM_LOG      console log      (default $top_builddir/tests/vm/test-cuse-vm.console)
#     CZ_VM_KEEP=1   keep the work directory (initramfs tree) and print its path
# Needs: qemu-system-x86, linux-image-amd64, busybox-static, cpio (Debian
# packages); root only if the kernel image is not world-readable.
# SKIPs (with the reason) when any of these is missing.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-.}
. "${top_srcdir:-$here/../..}/tests/tap.sh"

daemon=${CZ_VM_DAEMON:-$top_builddir/tests/vm/cusezero-static}
checker=${CZ_VM_CHECK:-$top_builddir/tests/vm/vmcheck}
vminit=${CZ_VM_INIT:-$here/vminit.sh}
qemu=${CZ_VM_QEMU:-qemu-system-x86_64}
tmo=${CZ_VM_TIMEOUT:-150}
smp=${CZ_VM_SMP:-1}
log=${CZ_VM_LOG:-$top_builddir/tests/vm/test-cuse-vm.console}

# ---- prerequisites: SKIP with the reason ---------------------------------
[ "${ZERO_ARCH:-$(uname -m)}" = x86_64 ] ||
	skip_all "the VM binaries are built for ${ZERO_ARCH:-$(uname -m)}, the VM is x86-64"
command -v "$qemu" >/dev/null 2>&1 ||
	skip_all "$qemu not found (Debian package qemu-system-x86)"
command -v cpio >/dev/null 2>&1 || skip_all "cpio not found (Debian package cpio)"
command -v gzip >/dev/null 2>&1 || skip_all "gzip not found"
command -v timeout >/dev/null 2>&1 || skip_all "timeout (coreutils) not found"
for b in "$daemon" "$checker"; do
	[ -x "$b" ] || skip_all "static binary $b not built: 'make check' builds it when configure reports 'VM test (static): yes' (needs libfuse3.a from libfuse3-dev)"
done
[ -r "$vminit" ] || skip_all "VM init script $vminit not found"

busybox=${CZ_VM_BUSYBOX:-$(command -v busybox 2>/dev/null)}
[ -n "$busybox" ] && [ -x "$busybox" ] ||
	skip_all "busybox not found (Debian package busybox-static)"
# A dynamically linked busybox cannot run in the library-less initramfs.
if LC_ALL=C ldd "$busybox" >/dev/null 2>&1; then
	skip_all "$busybox is dynamically linked (Debian package busybox-static)"
fi

kver() { basename "$1" | sed 's/^vmlinuz-//'; }
if [ -n "${CZ_VM_KERNEL:-}" ]; then
	kernel=$CZ_VM_KERNEL
else
	kernel=
	for k in $(ls /boot/vmlinuz-* 2>/dev/null | sort -rV); do
		if [ -f "/lib/modules/$(kver "$k")/modules.dep" ]; then kernel=$k; break; fi
	done
	[ -n "$kernel" ] ||
		skip_all "no /boot/vmlinuz-VERSION with /lib/modules/VERSION (Debian package linux-image-amd64)"
fi
[ -f "$kernel" ] || skip_all "kernel image $kernel not found"
[ -r "$kernel" ] ||
	skip_all "kernel image $kernel is not readable by uid $(id -u) (0600 on Debian): run as root or set CZ_VM_KERNEL"
moddir=${CZ_VM_MODULES:-/lib/modules/$(kver "$kernel")}
[ -f "$moddir/modules.dep" ] || skip_all "$moddir/modules.dep not found (modules of $kernel)"

# Load order for cuse (modules.dep: "path: deps..."; a dependency's own
# dependencies follow it, so the reversed list loads leaves first).
# Built-in modules (modules.builtin) need no loading.
deps=$(awk -v want=cuse '
	{ name = $1; sub(/:$/, "", name); n = name; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n)
	  if (n == want) { for (i = NF; i >= 2; i--) print $i; print name; exit } }' \
	"$moddir/modules.dep")
if [ -z "$deps" ]; then
	grep -q '/cuse\.ko' "$moddir/modules.builtin" 2>/dev/null ||
		skip_all "kernel $(kver "$kernel") has no cuse module (CONFIG_CUSE) in $moddir"
fi

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
echo 'root:x:0:0:root:/:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
: >"$root/lib/modules/order"
for m in $deps; do
	src=$moddir/$m
	[ -f "$src" ] || skip_all "module $src (listed in modules.dep) not found"
	base=$(basename "$m")
	case $base in
	*.ko)	  cp "$src" "$root/lib/modules/$base" ;;
	*.ko.xz)  base=${base%.xz};  xz -dc "$src" >"$root/lib/modules/$base" ;;
	*.ko.zst) base=${base%.zst}; zstd -qdc "$src" >"$root/lib/modules/$base" ;;
	*.ko.gz)  base=${base%.gz};  gzip -dc "$src" >"$root/lib/modules/$base" ;;
	*)	  skip_all "module $src: unknown compression" ;;
	esac || skip_all "cannot decompress $src (install xz-utils / zstd)"
	echo "$base" >>"$root/lib/modules/order"
done
initrd=$work/initrd.cpio.gz
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$initrd" ||
	{ echo "Bail out! building the initramfs failed"; exit 1; }

# ---- boot --------------------------------------------------------------------
diag "kernel $kernel, modules: $(tr '\n' ' ' <"$root/lib/modules/order")"
diag "qemu TCG, $smp CPU(s), timeout ${tmo}s, console log $log"
mkdir -p "$(dirname "$log")"
: >"$log" || { echo "Bail out! cannot write $log"; exit 1; }
t0=$(date +%s)
# -serial file: keeps the terminal out of raw mode when run by hand;
# -no-reboot + panic=-1: a kernel panic ends qemu at once.
timeout -k 5 "$tmo" "$qemu" -accel tcg -cpu max -m 512 -smp "$smp" \
	-display none -monitor none -serial "file:$log" -net none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=3" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!
wait "$qpid"
qrc=$?
qpid=
t1=$(date +%s)

# ---- results -------------------------------------------------------------------
# Keep the marked lines only, drop the checker's numbers and plan, renumber.
tr -d '\r' <"$log" | sed -n 's/^.*@@CZTAP@@ //p' >"$work/tap"
plan=$(sed -n 's/^1\.\.\([0-9]*\).*$/\1/p' "$work/tap" | head -n 1)
ntests=0
while IFS= read -r l; do
	case $l in
	"ok "*|"not ok "*)
		ntests=$((ntests + 1))
		st=${l%%ok *}ok
		rest=$(echo "$l" | sed 's/^\(not \)\{0,1\}ok [0-9]*//')
		tap_n=$((tap_n + 1))
		echo "$st $tap_n$rest"
		case $st in "not ok") tap_failed=$((tap_failed + 1)) ;; esac ;;
	1..*)	;;
	*)	echo "$l" ;;
	esac
done <"$work/tap"

if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	fail "VM finished within ${tmo}s (qemu killed after $((t1 - t0))s; see $log)"
else
	ok "VM powered off by itself (qemu exit $qrc after $((t1 - t0))s)" -- [ "$qrc" -eq 0 ]
fi
if grep -q '@@CZDONE@@' "$log"; then
	complete=false
	[ -n "$plan" ] && [ "$plan" -eq "$ntests" ] && [ "$plan" -gt 0 ] && complete=true
	ok "in-VM checker completed its plan (1..${plan:-none}, got $ntests results)" -- $complete
else
	fail "in-VM checker did not finish (plan 1..${plan:-none}, got $ntests results)"
fi
if [ "$tap_failed" -gt 0 ]; then
	diag "last console lines ($log):"
	tr -d '\r' <"$log" | grep -v '@@CZ' | tail -n 30 | sed 's/^/# console: /'
	sed 's/^/# qemu: /' "$work/qemu.out"
fi
diag "boot-to-poweroff $((t1 - t0))s"
done_testing
