#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the pre-use check of a kernel file's routine
# (zeroing/ksrc_check.c) on arm64, under qemu-aarch64 -cpu max where the
# host is not arm64 (natively on an arm64 host):
#   - Debian's 6.12 arch/arm64/lib/clear_user.S:__arch_clear_user, as is and
#     with a patch made here (.p2align 4 -> .p2align 6), runs as
#       qemu-aarch64 -cpu max zbench memset --source FILE:__arch_clear_user \
#           [--patch P] -s 100KB -l 50
#     within a 120 s timeout and prints its rate line (perf's print_bps():
#     GB/sec, or MB/sec below 1 GiB/s, as TCG may be);
#   - on an x86-64 host with both Debian's libc6:arm64 and the cross sysroot,
#     the same with -L /usr/aarch64-linux-gnu (the sysroot's ld.so beside the
#     multiarch libc.so.6 of another glibc build: a fork() child spins there;
#     the check's _Fork() child does not);
#   - patches that clear one byte too few, one byte too many, or return one
#     byte too few at a fault are refused (exit 1, the failing case named,
#     never timed);
#   - a fixup that loops, with SIGALRM ignored by the environment, is killed
#     by the parent at the 20 s limit, after progress lines on stderr.
# Needs: none
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = aarch64 ] || skip_all "an arm64 build's check (ZERO_ARCH=$ZERO_ARCH)"
tree=
for r in ${CUSEZERO_KERNEL_SOURCES:-/var/cache/cusezero-ksrc/6.12/linux-source-6.12}; do
	case $r in */linux-source-6.12) tree=$r ;; esac
done
if [ -z "$tree" ] || [ ! -f "$tree/arch/arm64/lib/clear_user.S" ]; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: no 6.12 kernel tree (scripts/kernel-sources.sh)"; exit 1; }
	skip_all "no Debian 6.12 kernel tree: scripts/kernel-sources.sh installs it"
fi
if grep -q __asan_init "$ZBENCH" 2>/dev/null && [ "$(uname -m)" != aarch64 ]; then
	skip_all "ASan build: qemu-aarch64 cannot host ASan's shadow memory"
fi
native=false
[ "$(uname -m)" = aarch64 ] && native=true
$native || command -v qemu-aarch64 >/dev/null || skip_all "qemu-aarch64 not installed"
elf=false
[ "$(head -c 4 "$ZBENCH" | tr -d '\177')" = ELF ] && elf=true

CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
CUSEZERO_KSRC_CACHE=$CZ_TMP/cache; export CUSEZERO_KSRC_CACHE
rel=arch/arm64/lib/clear_user.S
src=$tree/$rel:__arch_clear_user

# zb [QEMU-OPTIONS --] ZBENCH-ARGS...: zbench memset under qemu-aarch64 -cpu max
# (test-arm64.sh's wrapper script reads QEMU_CPU), natively on arm64; within
# 120 s; with zb_alrm=ignore, SIGALRM ignored (SIG_IGN is inherited by exec).
zb_alrm=default
zb() {
	qo=
	if [ "${2:-}" = -- ]; then qo=$1; shift 2; fi
	if $native; then
		set -- "$ZBENCH" memset "$@"
	elif $elf; then
		# shellcheck disable=SC2086 # $qo: options and their values, or nothing
		set -- qemu-aarch64 $qo -cpu max "$ZBENCH" memset "$@"
	else
		QEMU_CPU=max; export QEMU_CPU
		set -- "$ZBENCH" memset "$@"
	fi
	if [ "$zb_alrm" = ignore ]; then
		# shellcheck disable=SC2016 # "$@" of the inner shell
		set -- sh -c 'trap "" ALRM; exec "$@"' sh "$@"
	fi
	timeout 120 "$@" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
rate='^ *[0-9][0-9.]* [GM]B/sec$'

# mkpatch NAME SED-EXPRESSION: a unified diff a/REL -> b/REL of the 6.12 file
mkpatch() {
	mkdir -p "$CZ_TMP/a/${rel%/*}" "$CZ_TMP/b/${rel%/*}"
	cp "$tree/$rel" "$CZ_TMP/a/$rel"
	sed "$2" "$tree/$rel" >"$CZ_TMP/b/$rel"
	(cd "$CZ_TMP" && diff -u "a/$rel" "b/$rel") >"$CZ_TMP/$1.patch"
	[ -s "$CZ_TMP/$1.patch" ] || fail "patch $1: the sed expression changed nothing in $rel"
}

# 1. the command, base and patched
mkpatch align 's/^\.p2align 4$/.p2align 6/; s/^\t\.p2align 4$/\t.p2align 6/'
# runs LABEL [QEMU-OPTIONS --] [PATCH]: the command prints its function and a rate
runs() {
	label=$1; shift
	if [ "${2:-}" = -- ]; then qopts=$1; shift 2; else qopts=; fi
	set -- --source "$src" ${1:+--patch "$1"} -s 100KB -l 50
	[ -z "$qopts" ] || set -- "$qopts" -- "$@"
	t0=$(now)
	zb "$@"
	rc=$? t=$(secs "$t0")
	fn=$(grep -m 1 "^# function 'clear_user.S:__arch_clear_user" "$CZ_TMP/out")
	ok "$label: exit $rc in $t s, $(grep -c "$rate" "$CZ_TMP/out") rate line(s): $(grep "$rate" "$CZ_TMP/out" | tr -s ' ')${fn:+, $fn}" -- \
		eval '[ $rc -eq 0 ] && [ -n "$fn" ] && [ "$(grep -c "$rate" "$CZ_TMP/out")" -eq 1 ]'
	[ $rc -eq 0 ] || sed 's/^/# stderr: /' "$CZ_TMP/err" | tail -n 3
}
runs "6.12 clear_user.S:__arch_clear_user"
runs "6.12 clear_user.S:__arch_clear_user, .p2align 6 patch" "$CZ_TMP/align.patch"
case $(grep -m 1 '^# function' "$CZ_TMP/out") in *__arch_clear_user+*~*) pass "the patched routine is named as patched" ;;
*) fail "the patched routine is named as patched: $(grep -m 1 '^# function' "$CZ_TMP/out")" ;; esac

# 2. the cross sysroot's loader beside the multiarch libc (another glibc build)
sysroot=/usr/aarch64-linux-gnu
if $native || ! $elf; then
	skip "-L $sysroot: only where this script runs qemu-aarch64 itself on an x86-64 host"
elif [ ! -e "$sysroot/lib/ld-linux-aarch64.so.1" ] || [ ! -e /lib/ld-linux-aarch64.so.1 ]; then
	skip "-L $sysroot: needs both the cross sysroot and Debian's libc6:arm64"
else
	runs "-L $sysroot (its ld.so, the multiarch libc.so.6)" "-L $sysroot" --
	runs "-L $sysroot, .p2align 6 patch" "-L $sysroot" -- "$CZ_TMP/align.patch"
fi

# 3. wrong routines are refused, never timed
# refused LABEL PATCH PATTERN: exit 1, "incorrect, not measured: PATTERN", no rate
refused() {
	zb --source "$src" --patch "$CZ_TMP/$2.patch" -s 100KB -l 50
	rc=$?
	line=$(grep -m 1 'is incorrect, not measured' "$CZ_TMP/err")
	ok "$1: exit $rc: ${line#*not measured: }" -- \
		eval '[ $rc -eq 1 ] && ! grep -q "$rate" "$CZ_TMP/out" &&
		      printf "%s\n" "$line" | grep -q -- "incorrect, not measured: $3"'
}
# odd sizes below 8 skip their last byte's store: that byte stays
mkpatch few 's/^4:[[:space:]]*tbz[[:space:]]*x1, #0, 5f/4:\tb\t5f/'
refused "one byte too few (odd sizes below 8: no last byte)" few 'size [0-9]* at misalignment [0-9]*: byte [0-9]* = 0xa5 (not cleared)'
# ... one byte late: it runs past the end
mkpatch many 's/\(sttr[[:space:]]*xzr, \[x2, #\)-8\]/\1-7]/'
refused "one byte too many (last store at x2-7)" many 'size [0-9]* at misalignment [0-9]*: wrote outside the buffer'
# the fixup claims one byte more cleared than it did
mkpatch fixup 's/^\(9:[[:space:]]*sub[[:space:]]*x0, x2, x0\)/\1\n\tsub\tx0, x0, #1/'
refused "one byte wrong at a fault (fixup returns 1 less)" fixup 'a fault after [0-9]* of [0-9]* bytes: returned [0-9]* bytes not cleared (from [0-9]*)'

# 4. a fixup that loops, SIGALRM ignored by whoever started us: the parent's limit
mkpatch loop 's/^9:[[:space:]]*sub[[:space:]]*x0, x2, x0/9:\tb\t1b/'
t0=$(now)
zb_alrm=ignore
refused "a fixup that loops, SIGALRM ignored" loop 'killed by the 20 s limit during the check of a fault after'
zb_alrm=default
t=$(secs "$t0")
n=$(grep -c 'checking clear_user.S:__arch_clear_user.* before use: [0-9]* s, case [0-9]* of [0-9]*' "$CZ_TMP/err")
ok "its progress on stderr: $n line(s) in $t s, last: $(grep 'before use: stopped' "$CZ_TMP/err")" -- \
	eval '[ "$n" -ge 1 ] && grep -q "before use: stopped after" "$CZ_TMP/err"'
done_testing
