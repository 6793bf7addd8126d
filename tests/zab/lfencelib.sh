# SPDX-License-Identifier: GPL-2.0-or-later
# What the tests that plant an lfence in the unrolled 64-byte loop of x86's
# rep_stos_alternative share (sourced, not run: bisect-git.sh,
# bisect-revert.sh, judge-git.sh): $ZAB; cusezero and pread_z100k when
# LFENCE_DEVICE=yes is set before sourcing; x86-64, git and gcc; $src, the
# clear_page_64.S of a kernel tree (scripts/kernel-sources.sh) that has the
# loop's `addq $64,%rdi` to plant after; and a scratch folder $CZ_TMP that
# holds TMPDIR and zab's caches, with no default store.  Each need missing
# is a visible skip of the whole test.
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
if [ "${LFENCE_DEVICE:-}" = yes ]; then
	[ -x "$CUSEZERO" ] && [ -x "$PREAD_Z100K" ] || skip_all "cusezero or pread_z100k not built"
fi
[ "$ZERO_ARCH" = x86_64 ] || skip_all "the planted lfence is x86-64's (ZERO_ARCH $ZERO_ARCH)"
command -v git >/dev/null || skip_all "no git"
command -v gcc >/dev/null || skip_all "no assembler (gcc)"
src=
for r in ${CUSEZERO_KERNEL_SOURCES:-$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)}; do
	grep -q '^	addq \$64,%rdi$' "$r/arch/x86/lib/clear_page_64.S" 2>/dev/null &&
		src=$r/arch/x86/lib/clear_page_64.S
done
[ -n "$src" ] || skip_all "no kernel tree with rep_stos_alternative's unrolled loop (scripts/kernel-sources.sh)"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
TMPDIR=$CZ_TMP; export TMPDIR
XDG_CACHE_HOME=$CZ_TMP/xdg; export XDG_CACHE_HOME
CUSEZERO_KSRC_CACHE=$CZ_TMP/ksrc; export CUSEZERO_KSRC_CACHE
unset CUSEZERO_STORE
