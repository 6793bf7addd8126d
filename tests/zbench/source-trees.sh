#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench memset --source A/FILE --source B/FILE, the same file
# name and symbol from two kernel trees, loads both: each routine is named
# with its tree -- the release of the tree's top Makefile, or without one
# the folder that tells the two apart (A, B) -- and a --patch given to
# each still finds its file (the copy keeps the file's name and path).  The
# same --source twice is one line naming it.  The routine is a small byte
# loop in the kernel's style written here (x86-64 assembly).
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"
[ "${ZERO_ARCH:-$(uname -m)}" = x86_64 ] || skip_all "the test's routine is x86-64 assembly"
command -v "${CUSEZERO_KSRC_CC:-gcc}" >/dev/null || skip_all "no assembler (gcc)"
command -v patch >/dev/null || skip_all "no GNU patch"
CUSEZERO_KSRC_CACHE=$CZ_TMP/cache TMPDIR=$CZ_TMP
export CUSEZERO_KSRC_CACHE TMPDIR
REL=arch/x86/lib/clear_page_64.S
routine() {	# a byte loop in the calling convention of rep_stos_alternative
	cat <<'S'
/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <linux/linkage.h>
#include <asm/asm.h>

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
S
}
tree() {	# tree DIR [VERSION PATCHLEVEL]: the file in a tree (with a top Makefile)
	mkdir -p "$1/${REL%/*}" && routine >"$1/$REL"
	[ $# -eq 1 ] || printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n' "$2" "$3" >"$1/Makefile"
}
tree "$CZ_TMP/r/linux-6.12" 6 12
tree "$CZ_TMP/r/linux-7.2" 7 2
mkdir -p "$CZ_TMP/A" "$CZ_TMP/B"
routine >"$CZ_TMP/A/clear_page_64.S"
routine >"$CZ_TMP/B/clear_page_64.S"
tree "$CZ_TMP/p/linux-a"
tree "$CZ_TMP/p/linux-b"
# a patch on the tree's path: an lfence in the loop
sed 's/^\tincq\t%rdi/\tlfence\n\tincq\t%rdi/' "$CZ_TMP/p/linux-a/$REL" >"$CZ_TMP/new.S"
(cd "$CZ_TMP" && diff -u --label "a/$REL" --label "b/$REL" "p/linux-a/$REL" new.S) >"$CZ_TMP/lfence.patch"

# two_loaded NAME ARGS...: zbench memset ARGS exits 0 with two functions; their names in $CZ_TMP/NAME.names
two_loaded() {
	n=$1; shift
	"$ZBENCH" memset -s 64KB -l 1 "$@" >"$CZ_TMP/$n.out" 2>"$CZ_TMP/$n.err"
	rc=$?
	sed -n "s/^# function '\([^']*\)' .*/\1/p" "$CZ_TMP/$n.out" >"$CZ_TMP/$n.names"
	ok "$n: exit $rc, two routines: $(tr '\n' ' ' <"$CZ_TMP/$n.names")$(head -n 1 "$CZ_TMP/$n.err" | sed 's/^/; /')" -- \
		sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$CZ_TMP/$n.names') -eq 2 ]"
}
two_loaded releases --source "$CZ_TMP/r/linux-6.12/$REL:rep_stos_alternative" \
	--source "$CZ_TMP/r/linux-7.2/$REL:rep_stos_alternative"
ok "releases: named 6.12.0/... and 7.2.0/..." -- \
	sh -c "sed -n 1p '$CZ_TMP/releases.names' | grep -q '^6\\.12\\.0/clear_page_64\\.S:rep_sto' &&
	       sed -n 2p '$CZ_TMP/releases.names' | grep -q '^7\\.2\\.0/clear_page_64\\.S:rep_sto'"
two_loaded folders --source "$CZ_TMP/A/clear_page_64.S:rep_stos_alternative" \
	--source "$CZ_TMP/B/clear_page_64.S:rep_stos_alternative"
ok "folders: named A/... and B/..." -- \
	[ "$(tr '\n' ' ' <"$CZ_TMP/folders.names")" = "A/clear_page_64.S:rep_stos_alternative B/clear_page_64.S:rep_stos_alternative " ]
two_loaded patched --source "$CZ_TMP/p/linux-a/$REL" --patch "$CZ_TMP/lfence.patch" \
	--source "$CZ_TMP/p/linux-b/$REL" --patch "$CZ_TMP/lfence.patch"
ok "patched: each named by its tree, each with the patch applied" -- \
	sh -c "sed -n 1p '$CZ_TMP/patched.names' | grep -q '^linux-a/clear_page_64\\.S:' &&
	       sed -n 2p '$CZ_TMP/patched.names' | grep -q '^linux-b/clear_page_64\\.S:' &&
	       [ \$(grep -c \"^# function .* + $CZ_TMP/lfence.patch, rep_stos_alternative\" '$CZ_TMP/patched.out') -eq 2 ]"
ok "one file alone keeps its plain name" -- sh -c "
	'$ZBENCH' memset -s 64KB -l 1 --source '$CZ_TMP/A/clear_page_64.S' |
	grep -q \"^# function 'clear_page_64.S:rep_stos_alternative' \""

"$ZBENCH" memset -s 64KB -l 1 --source "$CZ_TMP/A/clear_page_64.S" --source "$CZ_TMP/A/clear_page_64.S" \
	>"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "the same --source twice: exit $rc, one line naming it: $(head -n 1 "$CZ_TMP/e")" -- \
	sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && ! [ -s '$CZ_TMP/o' ] &&
	       grep -q 'A/clear_page_64.S: given twice' '$CZ_TMP/e'"
done_testing
