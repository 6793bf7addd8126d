#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The arm64 test suite: cross-build cusezero for aarch64-linux-gnu and run
# `make check` with the test binaries executed by qemu-aarch64.
#
#   scripts/test-arm64.sh [SRCDIR [BUILDDIR]]     (defaults: the checkout, SRCDIR/build-arm64)
#
# Needs (Debian 12): gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
# qemu-user-binfmt (binfmt-support optional).  No arm64 libfuse3/liburing:
# configure then builds only the zeroing library, its tests and the
# in-process tools, and says so in its summary.
#
# How arm64 binaries run, in order of preference (the mode is printed):
#   binfmt    binfmt_misc runs them transparently (qemu-user-binfmt); tests/
#             test-env.sh sets QEMU_LD_PREFIX for the arm64 loader and libc.
#             If binfmt_misc is mounted but the qemu-aarch64 entry is missing
#             or disabled, root tries update-binfmts / systemd-binfmt first.
#   wrapper   no usable binfmt_misc (e.g. a container without it):
#             make check LOG_COMPILER='qemu-aarch64 -L /usr/aarch64-linux-gnu'
#             for the C tests, and every program variable of
#             AM_TESTS_ENVIRONMENT ($ZBENCH, ...) pointed at a qemu-aarch64
#             wrapper script for shell tests and tests that exec a program.
# Environment: JOBS (make -j, default 2), QEMU_CPU (passed to qemu, e.g.
# cortex-a57 for a 64-byte DC ZVA block instead of -cpu max's 512).
set -eu

host=aarch64-linux-gnu
sysroot=/usr/$host
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
build=${2:-$src/build-arm64}
jobs=${JOBS:-2}
timeout_s=600

die() { echo "test-arm64: $*" >&2; exit 1; }

command -v "$host-gcc" >/dev/null ||
	die "$host-gcc not found (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] ||
	die "$sysroot/lib/ld-linux-aarch64.so.1 not found (apt-get install libc6-dev-arm64-cross)"
command -v qemu-aarch64 >/dev/null ||
	die "qemu-aarch64 not found (apt-get install qemu-user qemu-user-binfmt)"
echo "test-arm64: $(qemu-aarch64 --version | head -n 1), cpu ${QEMU_CPU:-max (default)}"

[ -x "$src/configure" ] || (cd "$src" && ./autogen.sh >/dev/null 2>&1) ||
	die "autogen.sh failed in $src"
mkdir -p "$build"
cd "$build"
build=$(pwd)
if [ ! -f Makefile ]; then
	"$src/configure" --host="$host" --enable-werror >configure.out 2>&1 ||
		{ cat configure.out; die "configure --host=$host failed"; }
	sed -n '/configured$/,$p' configure.out
fi
make -j"$jobs" >make.out 2>&1 || { cat make.out; die "cross build failed"; }

# --- can the kernel run an arm64 binary by itself? -----------------------------
probe=$build/binfmt-probe
printf 'int main(void) { return 0; }\n' >"$probe.c"
"$host-gcc" -o "$probe" "$probe.c" || die "$host-gcc cannot link a trivial program"
binfmt_runs() { QEMU_LD_PREFIX=$sysroot "$probe" >/dev/null 2>&1; }

binfmt_enable() {
	bm=/proc/sys/fs/binfmt_misc
	[ "$(id -u)" = 0 ] || return 0
	[ -e "$bm/status" ] || return 0         # not mounted: nothing to enable
	if command -v update-binfmts >/dev/null 2>&1; then
		update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
	fi
	binfmt_runs && return 0
	if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		systemctl restart systemd-binfmt >/dev/null 2>&1 || true
	elif [ -x /usr/lib/systemd/systemd-binfmt ] && [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ]; then
		/usr/lib/systemd/systemd-binfmt /usr/lib/binfmt.d/qemu-aarch64.conf >/dev/null 2>&1 || true
	fi
}

if binfmt_runs; then
	mode=binfmt
else
	binfmt_enable
	if binfmt_runs; then mode=binfmt; else mode=wrapper; fi
fi
rm -f "$probe" "$probe.c"

# --- run the suite --------------------------------------------------------------
status=0
if [ "$mode" = binfmt ]; then
	echo "test-arm64: mode binfmt (binfmt_misc runs arm64 binaries through qemu-aarch64)"
	make -j"$jobs" check || status=$?
else
	echo "test-arm64: mode wrapper (no usable binfmt_misc): LOG_COMPILER='qemu-aarch64 -L $sysroot'"
	# Tests reach programs through the variables of AM_TESTS_ENVIRONMENT
	# ($ZBENCH, ...): point each arm64 one at a script that runs it under
	# qemu, so shell tests and tests that exec a program work too.
	env_orig=$(printf 'print-env:\n\t@:$(info $(AM_TESTS_ENVIRONMENT))\n' |
		make -s -f Makefile -f - print-env)
	wrapdir=$build/qemu-wrap
	rm -rf "$wrapdir"
	extra=
	for v in $(printf '%s\n' "$env_orig" | tr ';' '\n' |
		   sed -n "s|^ *\([A-Z][A-Z0-9_]*\)='\(/[^' ]*\)'\$|\1=\2|p"); do
		name=${v%%=*} prog=${v#*=}
		[ -f "$prog" ] && [ -x "$prog" ] || continue
		[ "$(head -c 4 "$prog" | tr -d '\177')" = ELF ] || continue
		mkdir -p "$wrapdir/$name"
		w=$wrapdir/$name/${prog##*/}
		printf '#!/bin/sh\nexec qemu-aarch64 -L %s %s "$@"\n' "$sysroot" "$prog" >"$w"
		chmod +x "$w"
		extra="$extra $name='$w'; export $name;"
		echo "test-arm64: \$$name runs through $w"
	done
	make -j"$jobs" check AM_TESTS_ENVIRONMENT="$env_orig $extra" \
		LOG_COMPILER="timeout $timeout_s qemu-aarch64 -L $sysroot" || status=$?
fi
echo "test-arm64: mode $mode, make check exit $status (logs: $build/test-suite.log)"
exit "$status"
