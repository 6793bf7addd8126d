#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab variants whose routine is a kernel source file
# (source= patch= alt=): an alternative's two sides (x86 memset_64.S FSRS
# on/off) and a file base vs patched (a .p2align 6 written here), each an
# A/B through real cusezero daemons (FUSE), end to end and in device; each
# daemon got the file's options; a patch= without a source= is refused.
# Needs root, /dev/fuse, kernel sources (scripts/kernel-sources.sh) and an
# assembler: the arm64 VM has none, so there it is a visible SKIP.
# Needs: root fuse
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$CUSEZERO" ] && [ -x "$PREAD_Z100K" ] || skip_all "cusezero or pread_z100k not built"
roots=${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}
[ -n "$roots" ] || skip_all "no kernel sources (scripts/kernel-sources.sh)"
case $ZERO_ARCH in
x86_64) cc=gcc ;;
*) cc=$ZERO_ARCH-linux-gnu-gcc; [ "$(uname -m)" = "$ZERO_ARCH" ] && cc=gcc ;;
esac
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
TMPDIR=$CZ_TMP; export TMPDIR
CUSEZERO_KSRC_CACHE=$CZ_TMP/cache; export CUSEZERO_KSRC_CACHE
# Without an assembler (the arm64 VM): the objects tests/zab/ksrc-prebuild.sh
# built on the host, for its tree and its patch.
pre=$top_builddir/tests/zab/ksrc-prebuilt
if ! command -v "${CUSEZERO_KSRC_CC:-$cc}" >/dev/null; then
	[ -d "$pre/cache" ] && [ -s "$pre/root" ] ||
		skip_all "no assembler here (${CUSEZERO_KSRC_CC:-$cc}) and no prebuilt objects ($pre)"
	CUSEZERO_KSRC_CACHE=$pre/cache
	CUSEZERO_KSRC_CC_VERSION=$(cat "$pre/cc-version")
	export CUSEZERO_KSRC_CC_VERSION
	roots=$(cat "$pre/root")
	diag "no assembler: loading the objects built on the host ($pre)"
fi

if [ "$ZERO_ARCH" = x86_64 ]; then
	f= ; for r in $roots; do grep -q X86_FEATURE_FSRS "$r/arch/x86/lib/memset_64.S" && f=$r/arch/x86/lib/memset_64.S; done
	alt=FSRS
	rel=arch/x86/lib/clear_page_64.S sym=rep_stos_alternative
else
	f= ; for r in $roots; do grep -q ARM64_HAS_MOPS "$r/arch/arm64/lib/memset.S" && f=$r/arch/arm64/lib/memset.S; done
	alt=MOPS
	rel=arch/arm64/lib/clear_user.S sym=__arch_clear_user
fi
root=$(echo "$roots" | tr ' ' '\n' | tail -n 1)

ab() {	# ab NAME VARIANT-A VARIANT-B: a short A/B; one TAP line per property
	name=$1; shift
	"$ZAB" run -b "pread=$PREAD_Z100K -n 300 --format simple {dev}" -v "$1" -v "$2" \
		-S 1 -W 0 -R 2 --seed 1 --cusezero "$CUSEZERO" --no-progress \
		--json "$CZ_TMP/$name.json" >"$CZ_TMP/$name.out" 2>"$CZ_TMP/$name.err"
	rc=$?
	ok "$name: zab exit $rc$(grep -m 1 -v '^zab: ' "$CZ_TMP/$name.err" | sed 's/^/: /')" -- [ $rc -eq 0 ]
	ok "$name: every cell measured, end to end and in device (no FAILED)" -- \
		eval 'grep -q "in-device" "$CZ_TMP/$name.out" && ! grep -q FAILED "$CZ_TMP/$name.out"'
	sed 's/^/# /' "$CZ_TMP/$name.out" | grep '│' | head -6
}

if [ -n "$f" ]; then
	ab alt "on:source=$f,alt=$alt=on" "off:source=$f,alt=$alt=off"
	ok "alt: the daemons were started with --source and --alt=$alt=on / =off" -- \
		eval 'grep -q -- "--source=$f --alt=$alt=on" "$CZ_TMP/alt.json" &&
		      grep -q -- "--source=$f --alt=$alt=off" "$CZ_TMP/alt.json"'
else
	skip "alt: no memset file with the $alt alternative in $roots"
fi

if [ "$CUSEZERO_KSRC_CACHE" = "$pre/cache" ]; then
	cp "$pre/align.patch" "$CZ_TMP/align.patch"
else
	mkdir -p "$CZ_TMP/a/${rel%/*}" "$CZ_TMP/b/${rel%/*}"
	cp "$root/$rel" "$CZ_TMP/a/$rel"
	sed "s/^SYM_FUNC_START($sym)/\t.p2align 6\n&/" "$root/$rel" >"$CZ_TMP/b/$rel"
	(cd "$CZ_TMP" && diff -u "a/$rel" "b/$rel") >"$CZ_TMP/align.patch"
fi
ab patch "base:source=$root/$rel:$sym" "patched:source=$root/$rel:$sym,patch=$CZ_TMP/align.patch"
ok "patch: the patched variant's daemon got --patch" -- \
	grep -q -- "--patch=$CZ_TMP/align.patch" "$CZ_TMP/patch.json"

"$ZAB" run -b 'x=echo 1' -v "a:patch=$CZ_TMP/align.patch" -v b --dry-run >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "a patch= without a source= is refused (exit $rc: $(head -n 1 "$CZ_TMP/e"))" -- \
	eval '[ $rc -eq 2 ] && grep -q patch "$CZ_TMP/e"'
done_testing
