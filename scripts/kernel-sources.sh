#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-sources.sh [DIR]: the kernel trees the tests load zeroing files
# from, each reduced to arch/{x86,arm64}/{lib,include}, include/linux, the
# top Makefile (its VERSION/PATCHLEVEL/SUBLEVEL: a `kernel =` sequence's
# version, doc/kernel-changes.md) and the x86 vendor files that derive CPU
# features (arch/x86/kernel/cpu/{amd,intel,hygon,centaur,zhaoxin}.c: what
# a release runs on a CPU, zeroing/kpath.h)
# (about 20 s per tree to extract), in DIR (default
# /var/cache/cusezero-ksrc): one folder per version, VERSION/linux-source-*/.
#   6.1   Debian 12's linux-source-6.1 (bookworm)
#   6.12  linux-source-6.12 (bookworm-security / bookworm-backports)
#   7.2   linux-source-7.2 from trixie-backports: the first whose arm64
#         clear_user.S has the MOPS alternative and the label-before-padding
#         loop.  Debian 12 cannot install it (it is built for trixie), so the
#         .deb is fetched from the same archive by its index entry, its
#         SHA256 checked against the index, and only unpacked.
# Needs root for apt-get (6.1, 6.12) and curl + xz-utils for 7.2.  Prints
# the roots ready, one per line, on stdout; what it does on stderr.  A
# version that cannot be had is left out with a note (status 0 if any).
set -u
dst=${1:-/var/cache/cusezero-ksrc}
mirror=${CUSEZERO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$dst" || exit 1

# files added after a tree was first unpacked: taken from the tarball when missing
later="Makefile arch/x86/kernel/cpu/amd.c arch/x86/kernel/cpu/intel.c
arch/x86/kernel/cpu/hygon.c arch/x86/kernel/cpu/centaur.c arch/x86/kernel/cpu/zhaoxin.c"

missing() {	# missing VERSION: the later files a complete tree lacks
	for f in $later; do
		[ -f "$dst/$1/linux-source-$1/$f" ] || echo "linux-source-$1/$f"
	done
}

extract() {	# extract VERSION TARBALL
	out=$dst/$1
	if [ -f "$out/.complete" ]; then
		# a tree unpacked before the later files were kept: add them
		m=$(missing "$1")
		[ -z "$m" ] || [ ! -f "$2" ] || tar -xJf "$2" -C "$out" $m ||
			echo "kernel-sources: not all of $m in $2" >&2
		return 0
	fi
	echo "kernel-sources: extracting $2 -> $out" >&2
	rm -rf "$out"
	mkdir -p "$out"
	# shellcheck disable=SC2046
	tar -xJf "$2" -C "$out" --wildcards "linux-source-$1/arch/x86/lib/*" \
		"linux-source-$1/arch/arm64/lib/*" "linux-source-$1/arch/x86/include/*" \
		"linux-source-$1/arch/arm64/include/*" "linux-source-$1/include/linux/*" \
		$(for f in $later; do echo "linux-source-$1/$f"; done) &&
		touch "$out/.complete"
}

for v in 6.1 6.12; do
	tb=/usr/src/linux-source-$v.tar.xz
	if [ ! -f "$tb" ] && [ ! -f "$dst/$v/.complete" ]; then
		echo "kernel-sources: apt-get install linux-source-$v" >&2
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -qq \
			--no-install-recommends "linux-source-$v" >/dev/null 2>&1 ||
			echo "kernel-sources: linux-source-$v not installable here" >&2
	fi
	if [ -f "$tb" ] || [ -f "$dst/$v/.complete" ]; then
		extract "$v" "$tb" || echo "kernel-sources: extracting $tb failed" >&2
	fi
done

# 7.2 from trixie-backports' index: Filename and SHA256 of linux-source-7.2.
v=7.2
if [ ! -f "$dst/$v/.complete" ] || [ -n "$(missing "$v")" ]; then
	tmp=$(mktemp -d)
	idx=$mirror/dists/trixie-backports/main/binary-all/Packages.xz
	if curl -fsS "$idx" -o "$tmp/Packages.xz" 2>/dev/null; then
		set -- $(xz -dc "$tmp/Packages.xz" | awk -v p="linux-source-$v" '
			$1 == "Package:" { on = ($2 == p) }
			on && $1 == "Filename:" { f = $2 } on && $1 == "SHA256:" { s = $2 }
			END { if (f != "") print f, s }')
		if [ $# -eq 2 ] && echo "kernel-sources: fetching $1" >&2 &&
		   curl -fsS "$mirror/$1" -o "$tmp/src.deb" &&
		   echo "$2  $tmp/src.deb" | sha256sum -c --quiet - &&
		   dpkg-deb --fsys-tarfile "$tmp/src.deb" | tar -x -C "$tmp" ./usr/src/; then
			extract "$v" "$tmp/usr/src/linux-source-$v.tar.xz" ||
				echo "kernel-sources: extracting $v failed" >&2
		else
			echo "kernel-sources: linux-source-$v: not in trixie-backports' index or not fetched" >&2
		fi
	else
		echo "kernel-sources: no trixie-backports index at $idx" >&2
	fi
	rm -rf "$tmp"
fi

found=0
for d in "$dst"/*/linux-source-*; do
	[ -f "$(dirname "$d")/.complete" ] || continue
	echo "$d"
	found=1
done
[ "$found" = 1 ]
