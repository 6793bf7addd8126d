#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# package.sh: the Debian package, built, linted, installed in a fresh root
# and used there (scripts/setup package; Debian 12, as root).
#
#   scripts/package.sh [TOP [BUILD]]      (defaults: the checkout, TOP/build)
#
#   1. the release tarball (make dist in BUILD, a configured tree), unpacked
#      in BUILD/deb, and dpkg-buildpackage -us -uc -b there: cusezero_*.deb.
#      DEB_BUILD_OPTIONS=nocheck unless set: the suite has just run on this
#      tree; dpkg-buildpackage runs it again otherwise.
#   2. lintian: an error or warning not overridden (debian/*.lintian-overrides
#      say why each override is there) fails the step.  Where the arm64
#      libraries are installed (multiarch), the arm64 package is cross-built too.
#   3. a fresh root: debootstrap --variant=minbase bookworm, made once per
#      machine and kept as a tarball in $CHROOT_CACHE (default
#      /var/cache/cusezero-chroot), unpacked anew for every run.
#   4. apt-get install ./cusezero_*.deb in that root (fuse3 and the libraries
#      come from the mirror), then, in a private mount namespace with /proc
#      and the host's /dev/fuse: the installed device (the FUSE fallback: the
#      root has no /dev/cuse), zeroctl, pread_z100k, zload, zbench and
#      `zab run quick-alignment`, the experiment found by name.
# Each step prints its time.  MIRROR= overrides the Debian mirror (default:
# the first of /etc/apt/sources.list*, else deb.debian.org).
set -eu

top=$(cd "${1:-$(dirname "$0")/..}" && pwd)
build=${2:-$top/build}
cache=${CHROOT_CACHE:-/var/cache/cusezero-chroot}
suite=bookworm
t0=$(date +%s)
step_t=$t0

step() {
	now=$(date +%s)
	printf '\n=== package: %s (%d s so far)\n' "$*" $((now - t0))
	step_t=$now
}
took() { echo "package: $* in $(($(date +%s) - step_t)) s"; }
die() { echo "package: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
[ -f "$build/Makefile" ] || die "$build is not a configured build tree (scripts/setup build)"
for t in dpkg-buildpackage dh lintian debootstrap unshare; do
	command -v "$t" >/dev/null || die "$t missing (scripts/setup deps installs it)"
done

# ---- 1. build --------------------------------------------------------------
step "dpkg-buildpackage -us -uc -b from the release tarball"
make -C "$build" dist >"$build/package-dist.log" 2>&1 || { tail -20 "$build/package-dist.log"; die "make dist failed"; }
tarball=$(ls -t "$build"/cusezero-*.tar.xz | head -n 1)
rm -rf "$build/deb"
mkdir -p "$build/deb"
tar -C "$build/deb" -xf "$tarball"
src=$(ls -d "$build"/deb/cusezero-*/)
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-nocheck}"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$build/deb/build.log" 2>&1 ||
	{ tail -40 "$build/deb/build.log"; die "dpkg-buildpackage failed (log: $build/deb/build.log)"; }
deb=$(ls "$build"/deb/cusezero_*.deb)
dev=$(ls "$build"/deb/cusezero-dev_*.deb)
ls -l "$deb" "$dev"
# Debian keeps headers in the -dev package, and only there.
dpkg-deb -c "$deb" | grep -q '/usr/include/' && die "$(basename "$deb") holds a header (cusezero-dev's)"
dpkg-deb -c "$dev" | grep -q '/usr/include/cusezero.h$' || die "$(basename "$dev") lacks cusezero.h"
took "built $(basename "$deb") and $(basename "$dev")"

# ---- 2. lintian ------------------------------------------------------------
step "lintian"
changes=$(ls "$build"/deb/cusezero_*.changes)
# lintian exits 0 with only info/pedantic tags; E: or W: is a failure.
lintian --pedantic --show-overrides "$changes" 2>&1 | grep -v '^running with root' | tee "$build/deb/lintian.txt" || true
if grep -Eq '^[EW]: ' "$build/deb/lintian.txt"; then
	die "lintian: errors or warnings above (explain each in debian/cusezero.lintian-overrides or fix it)"
fi
took "lintian clean (overrides shown with O:)"

# ---- 2b. the arm64 package, cross-built where the arm64 libraries are -------
# (dpkg --add-architecture arm64; libfuse3-dev:arm64 liburing-dev:arm64
# pkgconf:arm64 and the cross compiler).  Not installed here: the fresh root
# is this machine's architecture.
if [ "$(dpkg --print-architecture)" != arm64 ] &&
   (cd "$src" && dpkg-checkbuilddeps -a arm64 -P cross) >"$build/deb/arm64-deps.txt" 2>&1; then
	step "dpkg-buildpackage -a arm64 -P cross (no PostgreSQL store: libpq-dev is not Multi-Arch)"
	if (cd "$src" && dpkg-buildpackage -a arm64 --build-profiles=cross -us -uc -b) >"$build/deb/build-arm64.log" 2>&1; then
		deb64=$(ls "$build"/deb/cusezero_*_arm64.deb)
		bins=$(dpkg-deb -c "$deb64" | sed -n 's|.*\./usr/bin/||p' | sort | tr '\n' ' ')
		echo "package: $(basename "$deb64"): /usr/bin: $bins"
		case " $bins" in
		*" cusezero "*" zload "*) took "cross-built $(basename "$deb64")" ;;
		*) echo "package: NOTE: the arm64 package lacks cusezero or zload: configure found no" \
			"arm64 libfuse3/liburing that links (see $build/deb/build-arm64.log)" ;;
		esac
	else
		echo "package: NOTE: the arm64 cross build failed: $(tail -n 3 "$build/deb/build-arm64.log" | tr '\n' ' ')"
	fi
else
	echo "package: arm64 package not cross-built: $(tail -n 1 "$build/deb/arm64-deps.txt" 2>/dev/null)"
fi

# ---- 3. a fresh root -------------------------------------------------------
step "a fresh $suite root (debootstrap --variant=minbase, cached in $cache)"
mirror=${MIRROR:-$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
	head -n 1 | tr -d ' ')}
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$cache"
if [ ! -s "$cache/$suite-minbase.tar" ]; then
	rm -rf "$cache/root.new"
	debootstrap --variant=minbase "$suite" "$cache/root.new" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		{ tail -20 "$cache/debootstrap.log"; die "debootstrap from $mirror failed"; }
	tar -C "$cache/root.new" -cf "$cache/$suite-minbase.tar.tmp" .
	mv "$cache/$suite-minbase.tar.tmp" "$cache/$suite-minbase.tar"
	rm -rf "$cache/root.new"
	took "debootstrap from $mirror"
else
	echo "package: using $cache/$suite-minbase.tar ($(du -h "$cache/$suite-minbase.tar" | cut -f1))"
fi
root=$(mktemp -d /var/tmp/cusezero-root.XXXXXX)
cleanup() { rm -rf "$root"; }
trap cleanup EXIT
tar -C "$root" -xf "$cache/$suite-minbase.tar"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp "$deb" "$root/tmp/"
cp "$top/scripts/package-root-test.sh" "$root/tmp/"
took "unpacked in $root"

# ---- 4. install and use ----------------------------------------------------
step "apt-get install ./$(basename "$deb") in the fresh root, then run it there"
# A private mount namespace: /proc, /dev/fuse and every FUSE mount the test
# makes disappear with it, whatever happens inside.
unshare --mount --propagation private sh -c '
	set -e
	root=$1 deb=$2
	mount -t proc proc "$root/proc"
	mount -t tmpfs tmpfs "$root/run"
	: >"$root/dev/fuse"
	mount --bind /dev/fuse "$root/dev/fuse"
	chroot "$root" /bin/sh -c "
		export DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin
		apt-get update -qq &&
		apt-get install -y -qq --no-install-recommends /tmp/$deb >/tmp/apt.log 2>&1 ||
			{ tail -20 /tmp/apt.log; exit 1; }
		echo package: installed: \$(dpkg-query -W cusezero fuse3 libfuse3-3 liburing2 | tr \"\\t\\n\" \"= \")
		sh /tmp/package-root-test.sh"
' - "$root" "$(basename "$deb")"
took "installed and used in the fresh root"
echo "package: total $(($(date +%s) - t0)) s"
