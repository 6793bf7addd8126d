#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a series matched to a lone file by its name.  The
# sequence's file copied out of its tree (lone/clear_page_64.S) is not at
# a path ending like the patches' (arch/x86/lib/clear_page_64.S); as the
# series changes exactly one file of that name, zab expand takes it by
# name and says so in one line on stderr, for a format-patch folder, a
# quilt series and an mbox alike: the steps are those of the file in its
# tree (labels the same), and each step's patch applies to the lone file.
# Two files of that name in the series (x86 and arm64): refused, as a
# file no patch changes is.
# Needs: none
. "$top_srcdir/tests/zab/kseqlib.sh"

seq_make || { echo "Bail out! could not make the test repository"; exit 1; }
mkdir "$CZ_TMP/lone" && cp "$CZ_TMP/a/$REL" "$CZ_TMP/lone/clear_page_64.S"

# the steps of the file in its tree: what the lone file must give
seq_exp "$CZ_TMP/tree.exp" "[variant s]" "source = $CZ_TMP/a/$REL" "series = $CZ_TMP/fp"
"$ZAB" expand "$CZ_TMP/tree.exp" -o "$CZ_TMP/tree.x" 2>"$CZ_TMP/tree.err"
ok "in its tree: exit $?, steps $(names "$CZ_TMP/tree.x" 2>/dev/null)" -- [ "$(names "$CZ_TMP/tree.x")" = "s@0 s@1 s@2 s@3" ]

for form in fp quilt series.mbox; do
	seq_exp "$CZ_TMP/l.exp" "[variant s]" "source = $CZ_TMP/lone/clear_page_64.S" "series = $CZ_TMP/$form"
	"$ZAB" expand "$CZ_TMP/l.exp" -o "$CZ_TMP/l.x" 2>"$CZ_TMP/l.err"
	rc=$?
	ok "$form: the lone file, exit $rc, steps $(names "$CZ_TMP/l.x" 2>/dev/null), labels as in its tree" -- \
		eval '[ $rc -eq 0 ] && [ "$(names "$CZ_TMP/l.x")" = "s@0 s@1 s@2 s@3" ] &&
		      [ "$(labels "$CZ_TMP/l.x")" = "$(labels "$CZ_TMP/tree.x")" ]'
	ok "$form: one line on stderr says it matched by name: $(head -n 1 "$CZ_TMP/l.err")" -- \
		eval '[ $(wc -l <"$CZ_TMP/l.err") -eq 1 ] &&
		      grep -q "matched by name to arch/x86/lib/clear_page_64.S" "$CZ_TMP/l.err"'
done

# the last step's patches, as recorded, applied to the lone file: the file at the tree's last commit
seq_exp "$CZ_TMP/run.exp" "[variant s]" "source = $CZ_TMP/lone/clear_page_64.S" "series = $CZ_TMP/fp"
"$ZAB" expand "$CZ_TMP/run.exp" -o "$CZ_TMP/run.x" 2>/dev/null
cp "$CZ_TMP/lone/clear_page_64.S" "$CZ_TMP/applied.S"
n=0
for f in $(sed -n 's/^patch = //p' "$CZ_TMP/run.x" | tail -n 1); do
	patch -s "$CZ_TMP/applied.S" <"$f" && n=$((n + 1))
done
ok "the last step's $n patches apply to the lone file and give the tree's last version of it" -- \
	eval '[ $n -eq 3 ] && cmp -s "$CZ_TMP/applied.S" "$CZ_TMP/repo/$REL"'

# two files of that name: ambiguous, refused
mkdir "$CZ_TMP/two" && cp "$CZ_TMP"/fp/*.patch "$CZ_TMP/two/"
sed 's|arch/x86/lib/clear_page_64.S|arch/arm64/lib/clear_page_64.S|g' "$CZ_TMP/two/0004-"*.patch \
	>"$CZ_TMP/two/0005-arm64-the-same.patch"
seq_exp "$CZ_TMP/two.exp" "[variant s]" "source = $CZ_TMP/lone/clear_page_64.S" "series = $CZ_TMP/two"
"$ZAB" expand "$CZ_TMP/two.exp" -o "$CZ_TMP/two.x" 2>"$CZ_TMP/two.err"
rc=$?
ok "two files of that name: refused, exit $rc: $(head -n 1 "$CZ_TMP/two.err")" -- \
	eval '[ $rc -ne 0 ] && grep -q "none of its 5 patches changes $CZ_TMP/lone/clear_page_64.S" "$CZ_TMP/two.err"'
done_testing
