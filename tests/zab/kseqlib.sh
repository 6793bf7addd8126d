# SPDX-License-Identifier: GPL-2.0-or-later
# What the change-sequence tests share (sourced, not run): $ZAB, a scratch
# folder $CZ_TMP (its blob cache through XDG_CACHE_HOME), and seq_make,
# which writes under $CZ_TMP a small x86-64 routine in the kernel's own
# style (SYM_FUNC_START, the rcx convention of rep_stos_alternative, the
# file named arch/x86/lib/clear_page_64.S as in a tree) and its history:
#   repo/       a git repository: the byte loop (tag base), a comment-only
#               change, a commit that changes another file only, a
#               .p2align 6 before the function, an lfence in the loop
#   fp/         git format-patch base..HEAD of it (4 patches)
#   quilt/      the same patches with a quilt series file
#   series.mbox the same patches as one mbox, plus a cover letter first and
#               a body line starting with "From " in patch 3
#   a/arch/x86/lib/clear_page_64.S   the file at base (the series' base)
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
command -v git >/dev/null || skip_all "no git"
command -v patch >/dev/null || skip_all "no GNU patch"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
XDG_CACHE_HOME=$CZ_TMP/cache
XDG_DATA_HOME=$CZ_TMP/data
TMPDIR=$CZ_TMP
CUSEZERO_KSRC_CACHE=$CZ_TMP/ksrc
export XDG_CACHE_HOME XDG_DATA_HOME TMPDIR CUSEZERO_KSRC_CACHE
REL=arch/x86/lib/clear_page_64.S

seq_file() {	# the byte loop, in the kernel's style
	cat <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <linux/linkage.h>
#include <asm/asm.h>

/*
 * A byte loop in the calling convention of the kernel's rep_stos_alternative:
 * rdi destination, rcx count, rax zero; rcx the bytes not cleared.
 */
SYM_FUNC_START(rep_stos_alternative)
	testq	%rcx, %rcx
	jz	2f
.Lunrolled:
	movb	%al, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lunrolled
2:	RET
SYM_FUNC_END(rep_stos_alternative)
EOF
}

seq_make() {
	r=$CZ_TMP/repo
	mkdir -p "$r/${REL%/*}" "$CZ_TMP/a/${REL%/*}" "$CZ_TMP/quilt" || return 1
	seq_file >"$r/$REL"
	cp "$r/$REL" "$CZ_TMP/a/$REL"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$r/Makefile"
	(
		cd "$r" || exit 1
		git init -q && git config user.email t@example.org && git config user.name test &&
		git add -A && git commit -qm "x86: the byte loop" && git tag base &&
		sed -i 's/^ \* A byte loop/ * One byte loop/' "$REL" &&
		git commit -qam "x86: reword the loop's comment" &&
		echo notes >README && git add README && git commit -qm "docs: a file of its own" &&
		sed -i 's/^SYM_FUNC_START/\t.p2align 6\nSYM_FUNC_START/' "$REL" &&
		git commit -qam "x86: align rep_stos_alternative to 64 bytes" &&
		sed -i 's/^\tincq\t%rdi/\tlfence\n\tincq\t%rdi/' "$REL" &&
		git commit -qam "x86: an lfence in the loop" &&
		git format-patch -q --cover-letter -o "$CZ_TMP/fp" base..HEAD
	) || return 1
	# the mbox: cover letter first, as git send-email sends a series; patch 3's
	# message body opens with a line "From ..." (a body line, not a new message)
	cat "$CZ_TMP"/fp/*.patch | awk '{ print } /^Subject: \[PATCH 3\/4\]/ { s = 1 }
		s && /^$/ { print "From the notes: this line belongs to the message."; s = 0 }' \
		>"$CZ_TMP/series.mbox"
	rm "$CZ_TMP"/fp/0000-cover-letter.patch
	cp "$CZ_TMP"/fp/*.patch "$CZ_TMP/quilt/"
	(cd "$CZ_TMP/quilt" && printf '# the series\n' && ls ./*.patch | sed 's|^\./||;s/$/ -p1/') \
		>"$CZ_TMP/quilt/series.tmp" && mv "$CZ_TMP/quilt/series.tmp" "$CZ_TMP/quilt/series"
}

# seq_exp FILE VARIANT-LINES...: an experiment with one benchmark and the lines.
seq_exp() {
	f=$1; shift
	{
		printf '[experiment]\nname = sequence test\n[benchmark x]\ncmd = %s\n' "${SEQ_CMD:-echo 1}"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$f"
}

# names FILE: the [variant ...] names of an experiment file, one line.
names() { sed -n 's/^\[variant \(.*\)\]$/\1/p' "$1" | tr '\n' ' ' | sed 's/ $//'; }
# labels FILE: the label = values, joined by '|'.
labels() { sed -n 's/^label = //p' "$1" | tr '\n' '|' | sed 's/|$//'; }
