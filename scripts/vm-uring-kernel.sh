#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vm-uring-kernel.sh [DIR]: the kernel of the arm64 VM's second, short boot
# (scripts/test-arm64.sh), which runs only the io_uring transport tests.
# The first boot's kernel (bookworm-backports' 6.12, scripts/setup) is built
# without CONFIG_FUSE_IO_URING (fs/fuse/Kconfig, "FUSE communication over
# io-uring", Linux >= 6.14); trixie-backports' linux-image-arm64 has it.
# Debian 12 cannot install that kernel (it is built for trixie), so, as
# scripts/kernel-sources.sh does for linux-source-7.2, each .deb is fetched
# from the archive by its Packages.xz entry, its SHA256 checked against the
# index, and only unpacked.  Kept in DIR (default
# /var/cache/cusezero-vm/arm64-uring), laid out as the first boot's cache:
#   Image -> Image-VERSION     the uncompressed arm64 image (qemu -kernel)
#   config-VERSION             its build configuration (CONFIG_FUSE_IO_URING=y checked)
#   lib/modules/VERSION/       fs/fuse only (fuse.ko, cuse.ko where modular), depmod'ed
#   bin/, usr/                 busybox and the device tests' tools, copied from
#                              the first boot's cache (DIR/../arm64)
# Needs curl, xz-utils, dpkg-deb, depmod.  Exit 0 when DIR is ready (also
# when it already was), 1 with one line on stderr saying what is missing.
set -u
dst=${1:-/var/cache/cusezero-vm/arm64-uring}
mirror=${CUSEZERO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
first=$(dirname "$dst")/arm64
say() { echo "vm-uring-kernel: $*" >&2; }

if [ -f "$dst/.complete" ]; then
	say "present: $dst/$(readlink "$dst/Image")"
	exit 0
fi
[ -x "$first/bin/busybox" ] && [ -d "$first/usr/bin" ] ||
	{ say "no $first/bin/busybox (scripts/setup deps makes the first boot's cache)"; exit 1; }
for t in curl xz dpkg-deb depmod sha256sum; do
	command -v $t >/dev/null 2>&1 || { say "$t not found"; exit 1; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
idx=$mirror/dists/trixie-backports/main/binary-arm64/Packages.xz
curl -fsS "$idx" -o "$tmp/Packages.xz" 2>/dev/null || { say "no index at $idx"; exit 1; }
xz -dc "$tmp/Packages.xz" >"$tmp/Packages" || { say "cannot read $idx"; exit 1; }
# The metapackage names the current version: linux-image-VERSION (VERSION ends in -arm64).
kver=$(awk '$1 == "Package:" { on = ($2 == "linux-image-arm64") }
	on && $1 == "Depends:" { for (i = 2; i <= NF; i++) if ($i ~ /^linux-image-[0-9]/) { sub(/^linux-image-/, "", $i); print $i; exit } }' \
	"$tmp/Packages")
[ -n "$kver" ] || { say "no linux-image-arm64 in trixie-backports' index"; exit 1; }
# Since 6.19 the image is in linux-binary-unsigned-VERSION, its config in
# linux-base-VERSION, its modules in linux-modules-VERSION; before, all were
# in linux-image-VERSION-unsigned.
got=0
for p in "linux-binary-unsigned-$kver" "linux-base-$kver" "linux-modules-$kver" "linux-image-$kver-unsigned"; do
	# shellcheck disable=SC2046 # Filename and SHA256, or nothing
	set -- $(awk -v p="$p" '$1 == "Package:" { on = ($2 == p) }
		on && $1 == "Filename:" { f = $2 } on && $1 == "SHA256:" { s = $2 }
		END { if (f != "") print f, s }' "$tmp/Packages")
	[ $# -eq 2 ] || continue
	say "fetching $1"
	curl -fsS "$mirror/$1" -o "$tmp/p.deb" ||
		{ say "fetching $mirror/$1 failed"; exit 1; }
	echo "$2  $tmp/p.deb" | sha256sum -c --quiet - ||
		{ say "$1: SHA256 differs from the index"; exit 1; }
	mkdir -p "$tmp/x"
	dpkg-deb -x "$tmp/p.deb" "$tmp/x" || { say "unpacking $1 failed"; exit 1; }
	rm -f "$tmp/p.deb"
	got=$((got + 1))
done
# The image and config: boot/{vmlinuz,config}-VERSION, or (since 6.19)
# usr/lib/modules/VERSION/{vmlinuz.unsigned,config}.
mods=$tmp/x/lib/modules/$kver
[ -d "$mods" ] || mods=$tmp/x/usr/lib/modules/$kver
img=$tmp/x/boot/vmlinuz-$kver
[ -f "$img" ] || img=$mods/vmlinuz.unsigned
cfg=$tmp/x/boot/config-$kver
[ -f "$cfg" ] || cfg=$mods/config
[ -f "$img" ] && [ -f "$cfg" ] && [ -d "$mods" ] ||
	{ say "linux $kver: no boot/vmlinuz, boot/config or modules in its $got packages"; exit 1; }
grep -qx 'CONFIG_FUSE_IO_URING=y' "$cfg" ||
	{ say "linux $kver: $(grep -E 'CONFIG_FUSE_(FS|IO_URING)' "$cfg" | tr '\n' ' ')(no CONFIG_FUSE_IO_URING=y)"; exit 1; }
rm -rf "$dst"
mkdir -p "$dst/lib/modules/$kver/kernel/fs" || exit 1
if [ -d "$mods/kernel/fs/fuse" ]; then cp -R "$mods/kernel/fs/fuse" "$dst/lib/modules/$kver/kernel/fs/"; fi
cp "$mods"/modules.builtin* "$mods/modules.order" "$dst/lib/modules/$kver/" 2>/dev/null
depmod -b "$dst" "$kver" || { say "depmod -b $dst $kver failed"; exit 1; }
if gzip -t "$img" 2>/dev/null; then zcat "$img" >"$dst/Image-$kver"; else cp "$img" "$dst/Image-$kver"; fi
cp "$cfg" "$dst/config-$kver"
cp -R "$first/bin" "$first/usr" "$dst/" || { say "copying $first/bin, usr failed"; exit 1; }
ln -sfn "Image-$kver" "$dst/Image"
touch "$dst/.complete"
say "ready: $dst/Image-$kver ($(grep -E '^CONFIG_FUSE_(FS|IO_URING)=' "$cfg" | tr '\n' ' '))"
