#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a change sequence's steps are shown with their labels
# everywhere, beside NAME@K: zab run of a series written out as zab
# expand writes it (tests/zab/seqlib.sh, fakebench), each step labelled
# by its patch subject, one of them long and holding | , " and <.  Every
# table style shows each subject whole (box, grid, plain, detail and
# benchstat wrap a long one onto continuation lines, the box's lines
# keeping one width; markdown keeps it on one line, | and < escaped); the
# CSV's variant_label and hyperfine's JSON "command" hold it as data
# (CSV quoting, JSON escaping), report --by sut-class's JSON and CSV too,
# the report page escapes it; zab history --by series shows it whole, its
# CI column headed, one step said so, no empty unit.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/zab/seqlib.sh"
unset CUSEZERO_STORE

long='zeroing: align | the loop, "64" <bytes> and keep this subject whole over wrapped lines'
printf '%s\n' base 'x86: use rep stosb' 'mm: short' "$long" >"$CZ_TMP/labels"
SEQ_LABELS=$CZ_TMP/labels seq_file "$CZ_TMP/e.ini" labels 3 0

# inorder FILE TEXT: the words of TEXT appear in FILE in that order, each whole
# (a label wrapped onto continuation lines, other columns' cells between its lines)
inorder() {
	printf '%s\n' "$2" | tr ' ' '\n' >"$CZ_TMP/words"
	tr -s ' \t' '\n\n' <"$1" | awk -v W="$CZ_TMP/words" '
		BEGIN { while ((getline w <W) > 0) if (w != "") want[n++] = w }
		$0 == want[k + 0] { k++ } END { exit !(k == n) }'
}

run() {	# run STYLE [ARG...]: zab run of the sequence into $CZ_TMP/out.STYLE
	st=$1; shift
	"$ZAB" run "$CZ_TMP/e.ini" --no-store --seed 7 --no-progress --style "$st" "$@" \
		>"$CZ_TMP/out.$st" 2>"$CZ_TMP/err.$st"
}

for st in box grid plain detail benchstat; do
	run "$st"
	rc=$?
	bad=
	for k in 1 2 3; do
		want="s@$k ($(sed -n "$((k + 1))p" "$CZ_TMP/labels"))"
		[ "$st" = benchstat ] && want="new ($want)"
		inorder "$CZ_TMP/out.$st" "$want" || bad="$bad s@$k"
	done
	ok "$st: exit $rc, each step's subject beside s@K, whole${bad:+ (missing or cut:$bad)}" -- \
		eval '[ "$rc" -eq 0 ] && [ -z "$bad" ]'
done
ok "box: the long subject wrapped (a continuation line under the heading), the table lines one width" -- \
	sh -c "[ \$(grep '^[╭│├╰]' '$CZ_TMP/out.box' | while IFS= read -r l; do printf '%s' \"\$l\" | LC_ALL=C.UTF-8 wc -m; done | sort -u | wc -l) -eq 1 ] &&
	       [ \$(grep -c '^│ *│' '$CZ_TMP/out.box') -ge 1 ]"
ok "box: the base's heading names its label's step as the base" -- grep -q '│ s@0 (base) │' "$CZ_TMP/out.box"
ok "plain: no trailing blanks on the continuation lines" -- sh -c "! grep -q ' \$' '$CZ_TMP/out.plain'"

run markdown --export-csv "$CZ_TMP/r.csv" --export-json "$CZ_TMP/hf.json" --export-zab "$CZ_TMP/r.json"
rc=$?
md=$(printf '%s' "$long" | sed 's/[|<>]/\\&/g')
ok "markdown: exit $rc, the long subject on the heading line, | and < escaped: $(grep -c -F -- "s@3 ($md)" "$CZ_TMP/out.markdown")" -- \
	grep -q -F -- "| s@3 ($md) |" "$CZ_TMP/out.markdown"
ok "markdown: every table line one width (no cell split by the subject's |)" -- \
	sh -c "[ \$(grep '^|' '$CZ_TMP/out.markdown' | awk '{ print length(\$0) }' | sort -u | wc -l) -eq 1 ]"
ok "markdown: the other subjects beside their steps" -- \
	sh -c "grep -q -F '| s@1 (x86: use rep stosb) |' '$CZ_TMP/out.markdown' && grep -q -F '| s@2 (mm: short) |' '$CZ_TMP/out.markdown'"

csv=$(printf '%s' "$long" | sed 's/"/""/g')
ok "CSV: a last column variant_label" -- [ "$(head -n 1 "$CZ_TMP/r.csv" | tr ',' '\n' | tail -n 1)" = variant_label ]
row=$(grep -F ',s@3,s@0,' "$CZ_TMP/r.csv")
ok "CSV: s@3's row ends with its subject quoted (RFC 4180)" -- \
	eval 'case $row in *",\"$csv\"") true ;; *) false ;; esac'
ok "CSV: s@1, s@2 and the base with theirs" -- \
	sh -c "grep ',s@1,s@0,' '$CZ_TMP/r.csv' | grep -q ',x86: use rep stosb\$' &&
	       grep ',s@2,s@0,' '$CZ_TMP/r.csv' | grep -q ',mm: short\$' && grep ',s@0,s@0,' '$CZ_TMP/r.csv' | grep -q ',base\$'"
js=$(printf '%s' "$long" | sed 's/"/\\"/g')
ok "hyperfine JSON: \"command\" x / s@3 (SUBJECT), the quotes escaped" -- \
	grep -q -F -- "\"command\": \"x / s@3 ($js)\"" "$CZ_TMP/hf.json"
ok "zab's JSON: s@3's label" -- grep -q -F -- "\"label\": \"$js\"" "$CZ_TMP/r.json"

"$ZAB" report "$CZ_TMP/r.json" --by sut-class --json "$CZ_TMP/by.json" --export-csv "$CZ_TMP/by.csv" \
	>"$CZ_TMP/by.txt" 2>"$CZ_TMP/err"
rc=$?
ok "report --by sut-class: exit $rc, the subject whole in the text, in JSON's variant_label and the CSV" -- \
	eval '[ $rc -eq 0 ] && inorder "$CZ_TMP/by.txt" "x [bytes/sec] / s@3 ($long)" &&
	      grep -q -F -- "\"variant_label\": \"$js\"" "$CZ_TMP/by.json" &&
	      grep -q -F -- ",s@3,\"$csv\"," "$CZ_TMP/by.csv"'
"$ZAB" report "$CZ_TMP/r.json" --html "$CZ_TMP/page.html" >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "report page: exit $rc, the subject HTML-escaped, never raw" -- \
	eval '[ $rc -eq 0 ] && grep -q -F "s@3 (zeroing: align | the loop, &quot;64&quot; &lt;bytes&gt; and keep" "$CZ_TMP/page.html" &&
	      ! grep -q "<bytes>" "$CZ_TMP/page.html"'

# history --by series: the label whole, the CI column named
url=sqlite:$CZ_TMP/s.db
"$ZAB" run "$CZ_TMP/e.ini" --store "$url" --sut zen --seed 3 --no-progress >/dev/null 2>"$CZ_TMP/err" ||
	{ echo "Bail out! zab run: $(tail -n 1 "$CZ_TMP/err")"; exit 1; }
"$ZAB" history --store "$url" --experiment labels --by series >"$CZ_TMP/h.txt" 2>"$CZ_TMP/err"
rc=$?
ok "history: exit $rc, the long label whole (wrapped, not cut at 36)" -- \
	eval '[ $rc -eq 0 ] && inorder "$CZ_TMP/h.txt" "3/3 $long"'
ok "history: the CI column headed ±CI95%" -- grep -q '^step .* mean  ±CI95%  change point$' "$CZ_TMP/h.txt"
printf '%s\n' base 'one step' >"$CZ_TMP/labels1"
SEQ_LABELS=$CZ_TMP/labels1 SEQ_UNIT='' seq_file "$CZ_TMP/one.ini" one 1 0
# 6 sessions: with fewer, one step cannot reach p < 0.01 and history says
# undecided instead of "none" (tests/zab/changepoint-reach.sh)
sed -i 's/^sessions = 2$/sessions = 6/' "$CZ_TMP/one.ini"
"$ZAB" run "$CZ_TMP/one.ini" --store "$url" --sut zen --seed 4 --no-progress >/dev/null 2>"$CZ_TMP/err" ||
	{ echo "Bail out! zab run: $(tail -n 1 "$CZ_TMP/err")"; exit 1; }
"$ZAB" history --store "$url" --experiment one --by series >"$CZ_TMP/h1.txt" 2>"$CZ_TMP/err"
rc=$?
ok "history, one step, no unit: exit $rc, [higher is better], (1 step after the base)" -- \
	eval '[ $rc -eq 0 ] && grep -q "^SUT class zen: x / s@K \[higher is better\]\$" "$CZ_TMP/h1.txt" &&
	      ! grep -q "steps after" "$CZ_TMP/h1.txt" && grep -q "(1 step after the base)" "$CZ_TMP/h1.txt"'
done_testing
