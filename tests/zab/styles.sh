#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's tables: golden files for every style (deterministic input: saved JSON
# results of two SUT classes re-rendered by "zab report"), JSON round trip,
# pooling of same-class files, --sut, and column widths that grow with content.
# Needs: none
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
G=$top_srcdir/tests/zab/golden
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT

for style in box grid plain markdown detail benchstat; do
	if "$ZAB" report --style $style "$G/sut-a.json" "$G/sut-b.json" >"$CZ_TMP/$style" 2>"$CZ_TMP/err" &&
	   cmp -s "$CZ_TMP/$style" "$G/report.$style"; then
		pass "style $style matches golden report.$style"
	else
		fail "style $style differs from golden report.$style: $(diff "$G/report.$style" "$CZ_TMP/$style" | head -3 | tr '\n' ' ') $(head -1 "$CZ_TMP/err")"
	fi
done

# box is the default style; --detail appends the detailed view
"$ZAB" report "$G/sut-a.json" "$G/sut-b.json" >"$CZ_TMP/default"
ok "default style is box" -- cmp -s "$CZ_TMP/default" "$G/report.box"
"$ZAB" report --detail "$G/sut-a.json" "$G/sut-b.json" >"$CZ_TMP/both"
{ cat "$G/report.box"; echo; cat "$G/report.detail"; } >"$CZ_TMP/both.expected"
ok "--detail appends the detailed view" -- cmp -s "$CZ_TMP/both" "$CZ_TMP/both.expected"

# round trip: report --json writes one document that re-renders identically
"$ZAB" report --json "$CZ_TMP/all.json" "$G/sut-a.json" "$G/sut-b.json" >/dev/null
"$ZAB" report --style grid "$CZ_TMP/all.json" >"$CZ_TMP/rt"
ok "report --json round trip renders the same grid" -- cmp -s "$CZ_TMP/rt" "$G/report.grid"

# seed-style headings, one section per SUT class
ok "one 'Results for SUT Class' section per machine" -- \
	[ "$(grep -c '^Results for SUT Class ' "$G/report.box")" -eq 2 ]

# same SUT class twice: samples pooled (n doubles), one section
"$ZAB" report --style detail "$G/sut-a.json" "$G/sut-a.json" >"$CZ_TMP/pool"
ok "same SUT class pooled into one section" -- [ "$(grep -c '^Results for SUT Class' "$CZ_TMP/pool")" -eq 1 ]
ok "pooled cells have n = 24" -- grep -q '^| next-20260821-vanilla (base) | 24 ' "$CZ_TMP/pool"

# --sut names the class of the files after it
"$ZAB" report --style plain --sut box-one "$G/sut-a.json" --sut box-two "$G/sut-a.json" >"$CZ_TMP/sut"
ok "--sut renames per file (two sections)" -- \
	[ "$(grep -c -E '^box-(one|two):$' "$CZ_TMP/sut")" -eq 2 ]

# column widths grow with content: a long variant and benchmark name
long_v=a-very-long-variant-name-that-is-much-wider-than-its-numbers-0123456789
long_b="memset 1GB with a long result class name"
sed -e "s/\"stnp\"/\"$long_v\"/g" -e "s/\"memset 1GB\"/\"$long_b\"/g" "$G/sut-a.json" >"$CZ_TMP/long.json"
for style in box grid markdown plain detail; do
	"$ZAB" report --style $style "$CZ_TMP/long.json" >"$CZ_TMP/long.$style"
	if grep -q -- "$long_v" "$CZ_TMP/long.$style" && grep -q -- "$long_b" "$CZ_TMP/long.$style"; then
		pass "$style: long names shown in full"
	else
		fail "$style: long names truncated or missing"
	fi
done
widths() {	# display widths of the table lines (UTF-8 aware)
	grep -E "$2" "$1" | while IFS= read -r l; do
		printf '%s' "$l" | LC_ALL=C.UTF-8 wc -m
	done | sort -u | wc -l
}
ok "box: every table line has the same width" -- [ "$(widths "$CZ_TMP/long.box" '^[╭│├╰]')" -eq 1 ]
ok "grid: every table line has the same width" -- [ "$(widths "$CZ_TMP/long.grid" '^[+|]')" -eq 1 ]
ok "markdown: every table line has the same width" -- [ "$(widths "$CZ_TMP/long.markdown" '^\|')" -eq 1 ]
w_short=$(grep -m1 '^+' "$G/report.grid" | wc -c)
w_long=$(grep -m1 '^+' "$CZ_TMP/long.grid" | wc -c)
ok "grid grew by the longer names ($w_short -> $w_long)" -- [ "$w_long" -gt $((w_short + 60)) ]

done_testing
