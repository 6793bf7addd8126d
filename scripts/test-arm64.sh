#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The arm64 test suite: cross-build cusezero for aarch64-linux-gnu and run
# `make check` with the test binaries executed by qemu-aarch64.
#
#   scripts/test-arm64.sh [SRCDIR [BUILDDIR]]     (defaults: the checkout, SRCDIR/build-arm64)
#
# Needs (Debian 12, all installed by `scripts/setup deps`):
# gcc-aarch64-linux-gnu libc6-dev-arm64-cross; qemu-user qemu-user-binfmt
# qemu-system-arm from bookworm-backports (QEMU 10: -cpu max, the default,
# executes FEAT_MOPS, so the MOPS routines run; Debian 12's QEMU 7.2 lacks
# it); libfuse3-dev:arm64 liburing-dev:arm64 (multiarch: configure reads
# /usr/lib/aarch64-linux-gnu/pkgconfig) for cusezero, zeroctl, zload and the
# static VM binaries; libjansson-dev:arm64 (required: every program's JSON);
# the arm64 kernel, modules and tools in
# /var/cache/cusezero-vm/arm64, and for the io_uring tests' second boot a
# kernel with CONFIG_FUSE_IO_URING in /var/cache/cusezero-vm/arm64-uring
# (scripts/vm-uring-kernel.sh, run by scripts/setup deps or here).  Without the arm64 libraries configure builds
# only the zeroing library, its tests and the in-process tools, and says so.
#
# Where the tests run: under qemu-aarch64 (user mode) on this host, except
# those that drive the device or io_uring, which qemu-user cannot carry
# (unknown ioctls -> ENOTTY, no io_uring): they run inside the arm64 VM of
# tests/vm/cuse-vm.sh, booted once, after its CUSE checks.
#
# How arm64 binaries run, in order of preference (the mode is printed):
#   binfmt        binfmt_misc runs them transparently (qemu-user-binfmt);
#                 the arm64 loader and libc are Debian multiarch's
#                 (libc6:arm64), else tests/test-env.sh sets QEMU_LD_PREFIX
#                 to the cross sysroot.  If binfmt_misc is not mounted (no
#                 systemd), root mounts it; if the qemu-aarch64 entry is
#                 missing or disabled, root enables it (update-binfmts,
#                 systemd-binfmt, or the binfmt.d line).
#   binfmt-userns binfmt_misc not mounted (a container), kernel >= 6.7: the
#                 script re-runs itself in a new user+mount namespace with a
#                 private binfmt_misc holding only qemu-aarch64; nothing
#                 outside the namespace changes.
#   wrapper       neither: make check LOG_COMPILER='qemu-aarch64 [-L SYSROOT]'
#                 for the C tests, and every program variable of
#                 AM_TESTS_ENVIRONMENT ($ZBENCH, ...) pointed at a
#                 qemu-aarch64 wrapper script; helper check programs that
#                 tests exec by path are swapped for such a script during
#                 the run.
# Environment: JOBS (make -j, default 2), QEMU_CPU (passed to qemu, e.g.
# cortex-a57 for a 64-byte DC ZVA block instead of -cpu max's 512),
# TEST_ARM64_MODE=wrapper to force the wrapper mode, TEST_ARM64_CONFIGURE
# for more configure options (e.g. "--enable-asan --enable-ubsan" in its own
# build dir; LeakSanitizer cannot stop the world under qemu-user, so
# ASAN_OPTIONS defaults to detect_leaks=0).
set -eu

host=aarch64-linux-gnu
sysroot=/usr/$host
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
build=${2:-$src/build-arm64}
jobs=${JOBS:-2}
timeout_s=600
bm=/proc/sys/fs/binfmt_misc
# -L SYSROOT only without Debian's multiarch arm64 loader (see tests/test-env.sh).
qemu_l="-L $sysroot"
[ -e /lib/ld-linux-aarch64.so.1 ] && qemu_l=
binfmt_conf=/usr/lib/binfmt.d/qemu-aarch64.conf

die() { echo "test-arm64: $*" >&2; exit 1; }

command -v "$host-gcc" >/dev/null ||
	die "$host-gcc not found (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
[ -e "$sysroot/lib/ld-linux-aarch64.so.1" ] ||
	die "$sysroot/lib/ld-linux-aarch64.so.1 not found (apt-get install libc6-dev-arm64-cross)"
command -v qemu-aarch64 >/dev/null ||
	die "qemu-aarch64 not found (apt-get install qemu-user qemu-user-binfmt)"

mkdir -p "$build"
cd "$build"
build=$(pwd)

# --- how will arm64 binaries run? -------------------------------------------------
probe=$build/binfmt-probe
printf 'int main(void) { return 0; }\n' >"$probe.c"
"$host-gcc" -o "$probe" "$probe.c" || die "$host-gcc cannot link a trivial program"
binfmt_runs() { QEMU_LD_PREFIX=$sysroot "$probe" >/dev/null 2>&1; }

binfmt_enable() {	# as root; mounts binfmt_misc where nothing did (no systemd)
	[ "$(id -u)" = 0 ] || return 0
	[ -e "$bm/register" ] || mount -t binfmt_misc binfmt_misc "$bm" 2>/dev/null || true
	[ -e "$bm/register" ] || return 0
	if command -v update-binfmts >/dev/null 2>&1; then
		update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
	fi
	binfmt_runs && return 0
	if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
		systemctl restart systemd-binfmt >/dev/null 2>&1 || true
		binfmt_runs && return 0
	fi
	[ -f "$binfmt_conf" ] || return 0
	if [ -e "$bm/qemu-aarch64" ]; then
		echo 1 >"$bm/qemu-aarch64" 2>/dev/null || true
	else
		cat "$binfmt_conf" >"$bm/register" 2>/dev/null || true
	fi
}

userns_binfmt_possible() {
	[ -z "${TEST_ARM64_USERNS:-}" ] && [ -f "$binfmt_conf" ] &&
		command -v unshare >/dev/null 2>&1 &&
		unshare --user --map-root-user --mount \
			sh -c "mount -t binfmt_misc binfmt_misc $bm" >/dev/null 2>&1
}

if [ "${TEST_ARM64_MODE:-}" = wrapper ]; then
	mode=wrapper
elif [ -n "${TEST_ARM64_USERNS:-}" ]; then
	# Re-run inside the namespace: a private binfmt_misc, ours alone.
	mount -t binfmt_misc binfmt_misc "$bm" || die "mount binfmt_misc in the user namespace failed"
	binfmt_enable
	if binfmt_runs; then mode=binfmt-userns; else mode=wrapper; fi
elif binfmt_runs; then
	mode=binfmt
else
	binfmt_enable
	if binfmt_runs; then
		mode=binfmt
	elif userns_binfmt_possible; then
		rm -f "$probe" "$probe.c"
		echo "test-arm64: no usable binfmt_misc here; re-running in a user namespace with a private one"
		TEST_ARM64_USERNS=1 exec unshare --user --map-root-user --mount \
			sh "$src/scripts/test-arm64.sh" "$src" "$build"
	else
		mode=wrapper
	fi
fi
rm -f "$probe" "$probe.c"
echo "test-arm64: $(qemu-aarch64 --version | head -n 1), cpu ${QEMU_CPU:-max (default)}, mode $mode"

# --- build ----------------------------------------------------------------------
[ -x "$src/configure" ] || (cd "$src" && ./autogen.sh >/dev/null 2>&1) ||
	die "autogen.sh failed in $src"
if [ ! -f Makefile ]; then
	# shellcheck disable=SC2086 # word splitting of the extra options is intended
	"$src/configure" --host="$host" --enable-werror ${TEST_ARM64_CONFIGURE:-} >configure.out 2>&1 ||
		{ cat configure.out; die "configure --host=$host failed"; }
	sed -n '/configured$/,$p' configure.out
fi
make -j"$jobs" >make.out 2>&1 || { cat make.out; die "cross build failed"; }

# --- which tests run where -------------------------------------------------------
# qemu-user forwards only the ioctls it knows (ENOTTY for cusezero's) and has
# no io_uring (ENOSYS), so a test script whose "# Needs:" line names fuse,
# ioctl, io_uring or native (tests/needs.sh) runs in the arm64 VM instead
# (tests/vm/cuse-vm.sh, with a real arm64 kernel).
. "$src/tests/needs.sh"
all_tests=$(printf 'print-tests:\n\t@:$(info $(TESTS))\n' | make -s -f Makefile -f - print-tests)
# This suite is for arm64 code: the routines, their placement and faults,
# the daemon on an arm64 kernel, zload, zbench, loading arm64 kernel files.
# What is the same on every architecture -- the store, fleets, man pages,
# the tree's rules, the installed tree, the command-line checks, zab's
# statistics, sequences and reports -- runs in the x86-64 suites; here
# only zab's tests that drive the daemon or load kernel files
# (TEST_ARM64_ALL=1: every test, as before).
ARM64_SKIP='tests/store/* tests/fleet/* tests/man/* tests/tree/* tests/install/* tests/cli/* tests/zab/*'
ARM64_KEEP='tests/zab/device.sh tests/zab/indevice.sh tests/zab/rotate-device.sh tests/zab/rotate.sh
	tests/zab/ksrc.sh tests/zab/layout.sh'
arm64_wanted() {
	[ -z "${TEST_ARM64_ALL:-}" ] || return 0
	for k in $ARM64_KEEP; do [ "$1" != "$k" ] || return 0; done
	set -f
	for p in $ARM64_SKIP; do
		# shellcheck disable=SC2254
		case $1 in $p) set +f; return 1 ;; esac
	done
	set +f
	return 0
}
host_tests= CZ_VM_DEVICE_TESTS= skipped=0
for t in $all_tests; do
	arm64_wanted "$t" || { skipped=$((skipped + 1)); continue; }
	if [ "$(uname -m)" != aarch64 ] && cz_needs_vm "$(cz_needs "$src/$t")"; then
		CZ_VM_DEVICE_TESTS="$CZ_VM_DEVICE_TESTS $t"
		continue
	fi
	host_tests="$host_tests $t"
done
export CZ_VM_DEVICE_TESTS
[ "$skipped" -eq 0 ] || echo "test-arm64: $skipped tests left to the x86-64 suites (the same on every architecture): $ARM64_SKIP, but $(echo $ARM64_KEEP)"
# With the device tests inside, the VM test runs after the others and alone:
# a TCG guest next to the qemu-user tests takes three times as long.
vm_test=
if [ -n "$CZ_VM_DEVICE_TESTS" ]; then
	echo "test-arm64: in the arm64 VM (tests/vm/cuse-vm.sh):$CZ_VM_DEVICE_TESTS"
	vm_test=tests/vm/cuse-vm.sh
	host_tests=$(printf '%s\n' $host_tests | grep -vx "$vm_test" | tr '\n' ' ')
fi
# run_vm_test [MAKE ARGS]: the VM test alone, with room for its one boot.
# The VM has no assembler: the kernel files tests/zab/ksrc.sh loads there
# are built here first (a failure only makes that test SKIP in the VM).
run_vm_test() {
	[ -n "$vm_test" ] || return 0
	case " $CZ_VM_DEVICE_TESTS " in
	*" tests/zab/ksrc.sh "*)
		if [ "$mode" = wrapper ]; then
			# shellcheck disable=SC2086 # $qemu_l: an option and its value, or nothing
			sh "$src/tests/zab/ksrc-prebuild.sh" "$build" qemu-aarch64 $qemu_l
		else
			sh "$src/tests/zab/ksrc-prebuild.sh" "$build"
		fi ;;
	esac
	CZ_VM_TIMEOUT=1500 make check TESTS="$vm_test" TEST_TIMEOUT=1600 "$@" || status=$?
	run_vm_uring_test "$@"
}
# A second, short boot for the io_uring transport tests alone: the first
# boot's kernel (bookworm-backports' 6.12) is built without
# CONFIG_FUSE_IO_URING, so there they skip.  trixie-backports' arm64 kernel
# has it; scripts/vm-uring-kernel.sh fetches it into $uring_cache (once;
# scripts/setup deps does it too).  Without it: a visible SKIP, or with
# CI=true a failure.  Its log: tests/vm/cuse-vm-uring.log (and .console).
uring_cache=/var/cache/cusezero-vm/arm64-uring
# fuse-uring.sh and ctlrace.sh (its uring race): 55 s to 4 minutes in TCG,
# by the host's load; sched-uring.sh and tests/zab/colocate-uring.sh are the
# io_uring checks of sched.sh and colocate.sh (those took 5 and 2 minutes
# more in TCG, so they run whole in the first boot only).
uring_tests="tests/cuse/fuse-uring.sh tests/cuse/ctlrace.sh tests/cuse/sched-uring.sh tests/zab/colocate-uring.sh"
run_vm_uring_test() {
	if ! sh "$src/scripts/vm-uring-kernel.sh" "$uring_cache"; then
		if [ "${CI:-}" = true ]; then
			echo "test-arm64: FAIL: no arm64 kernel with CONFIG_FUSE_IO_URING for the second VM boot (CI: scripts/setup deps provides $uring_cache)"
			status=1
		else
			echo "test-arm64: SKIP: second VM boot ($uring_tests): no arm64 kernel with CONFIG_FUSE_IO_URING in $uring_cache"
		fi
		return 0
	fi
	# cuse-vm.sh once more under its own name, so its logs stay apart; the
	# device tests alone (the first boot ran the CUSE checker).
	printf '#!/bin/sh\nCZ_VM_CACHE=%s CZ_VM_DEVICE_TESTS="%s" CZ_VM_CHECKER=0 \\\n\tCZ_VM_LOG=tests/vm/cuse-vm-uring.console exec sh %s "$@"\n' \
		"$uring_cache" "$uring_tests" "$src/tests/vm/cuse-vm.sh" >tests/vm/cuse-vm-uring.sh
	echo "test-arm64: second arm64 VM boot, kernel $(readlink "$uring_cache/Image"), for:" $uring_tests
	CZ_VM_TIMEOUT=600 make check TESTS=tests/vm/cuse-vm-uring.sh TEST_TIMEOUT=700 \
		TEST_SUITE_LOG=test-suite-vm-uring.log "$@" || status=$?
}

# The fleet test with an arm64 member (tests/fleet/fleet-arm64.sh): one zab
# fleet run over an x86-64 SUT on this host and the arm64 VM as a second SUT
# (Dropbear sshd + python3.11 from /var/cache/cusezero-vm/arm64/sut).  It needs
# this arm64 build and the native one (CZ_FLEET_X86_BUILD, default
# SRCDIR/build, as scripts/setup makes it); not in TESTS, so here only.
# Then, in the same boot, a second zab fleet on the arm64 VM alone: Debian's
# arm64 clear_user.S as is and with a .p2align 6 patch, shipped, with objects
# built here (cz_ksrc_cache).  About 3 to 5 minutes (VM boot and the two
# plays); log tests/fleet/fleet-arm64.log.
run_fleet_arm64_test() {
	[ "$(uname -m)" != aarch64 ] || return 0
	echo "test-arm64: zab fleet over x86-64 and the arm64 VM (tests/fleet/fleet-arm64.sh)"
	make check TESTS=tests/fleet/fleet-arm64.sh TEST_TIMEOUT=1300 \
		TEST_SUITE_LOG=test-suite-fleet-arm64.log "$@" || status=$?
}

# --- run the suite --------------------------------------------------------------
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS
# The tests check the tools' output formats, which on emulated hardware gain
# an "emulated" line (lib/emul.h); that line has its own test
# (tests/zbench/emul.sh, which detects without this and forces it on).
CUSEZERO_EMULATED=${CUSEZERO_EMULATED:-0}
export CUSEZERO_EMULATED
status=0
case $mode in
binfmt*)
	echo "test-arm64: mode $mode (binfmt_misc runs arm64 binaries through qemu-aarch64)"
	make -j"$jobs" check TESTS="$host_tests" || status=$?
	run_vm_test
	run_fleet_arm64_test
	;;
wrapper)
	echo "test-arm64: mode wrapper (no usable binfmt_misc): LOG_COMPILER='qemu-aarch64 $qemu_l'"
	# Tests reach programs through the variables of AM_TESTS_ENVIRONMENT
	# ($ZBENCH, ...): point each arm64 one at a script that runs it under
	# qemu, so shell tests and tests that exec such a program work too.
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
		printf '#!/bin/sh\nexec qemu-aarch64 %s %s "$@"\n' "$qemu_l" "$prog" >"$w"
		chmod +x "$w"
		extra="$extra $name='$w'; export $name;"
		echo "test-arm64: \$$name runs through $w"
	done
	# Helper programs a test execs by path (check_PROGRAMS that are not
	# TESTS, e.g. a fake benchmark): swapped for a wrapper script during the
	# run, the binary kept beside it as NAME.arm64 and put back on exit.
	make -j"$jobs" check TESTS= >>make.out 2>&1 || { cat make.out; die "building the tests failed"; }
	vars=$(printf 'print-vars:\n\t@:$(info $(TESTS))$(info $(check_PROGRAMS))\n' |
		make -s -f Makefile -f - print-vars)
	tests=$(printf '%s\n' "$vars" | sed -n 1p)
	swapped=
	restore() { for p in $swapped; do mv -f "$p.arm64" "$p"; done; }
	trap restore EXIT
	trap 'exit 130' INT TERM
	for p in $(printf '%s\n' "$vars" | sed -n 2p); do
		case " $tests " in *" $p "*) continue ;; esac
		[ -f "$p" ] && [ "$(head -c 4 "$p" | tr -d '\177')" = ELF ] || continue
		mv -f "$p" "$p.arm64"
		swapped="$swapped $p"
		printf '#!/bin/sh\nexec qemu-aarch64 %s %s "$@"\n' "$qemu_l" "$build/$p.arm64" >"$p"
		chmod +x "$p"
		touch -r "$p.arm64" "$p"
		echo "test-arm64: helper $p runs through qemu-aarch64 for this run"
	done
	make -j"$jobs" check TESTS="$host_tests" AM_TESTS_ENVIRONMENT="$env_orig $extra" \
		LOG_COMPILER="timeout $timeout_s qemu-aarch64 $qemu_l" || status=$?
	run_vm_test AM_TESTS_ENVIRONMENT="$env_orig $extra"
	run_fleet_arm64_test AM_TESTS_ENVIRONMENT="$env_orig $extra"
	restore
	swapped=
	;;
esac
echo "test-arm64: mode $mode, make check exit $status (logs: $build/test-suite.log)"
exit "$status"
