#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# zab's tables: golden files for every style (deterministic input: saved JSON
# results of two SUT classes re-rendered by "zab report"), JSON round trip,
# pooling of same-class files, --sut, and column widths that grow with content.
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
G=$top_srcdir/tests/zab/golden
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for style in box grid plain markdown detail; do
	if "$ZAB" report --style $style "$G/sut-a.json" "$G/sut-b.json" >"$tmp/$style" 2>"$tmp/err" &&
	   cmp -s "$tmp/$style" "$G/report.$style"; then
		pass "style $style matches golden report.$style"
	else
		fail "style $style differs from golden report.$style: $(diff "$G/report.$style" "$tmp/$style" | head -3 | tr '\n' ' ') $(head -1 "$tmp/err")"
	fi
done

# box is the default style; --detail appends the detailed view
"$ZAB" report "$G/sut-a.json" "$G/sut-b.json" >"$tmp/default"
ok "default style is box" -- cmp -s "$tmp/default" "$G/report.box"
"$ZAB" report --detail "$G/sut-a.json" "$G/sut-b.json" >"$tmp/both"
{ cat "$G/report.box"; echo; cat "$G/report.detail"; } >"$tmp/both.expected"
ok "--detail appends the detailed view" -- cmp -s "$tmp/both" "$tmp/both.expected"

# round trip: report --json writes one document that re-renders identically
"$ZAB" report --json "$tmp/all.json" "$G/sut-a.json" "$G/sut-b.json" >/dev/null
"$ZAB" report --style grid "$tmp/all.json" >"$tmp/rt"
ok "report --json round trip renders the same grid" -- cmp -s "$tmp/rt" "$G/report.grid"

# seed-style headings, one section per SUT class
ok "one 'Results for SUT Class' section per machine" -- \
	[ "$(grep -c '^Results for SUT Class ' "$G/report.box")" -eq 2 ]

# same SUT class twice: samples pooled (n doubles), one section
"$ZAB" report --style detail "$G/sut-a.json" "$G/sut-a.json" >"$tmp/pool"
ok "same SUT class pooled into one section" -- [ "$(grep -c '^Results for SUT Class' "$tmp/pool")" -eq 1 ]
ok "pooled cells have n = 24" -- grep -q '^| next-20260821-vanilla (base) | 24 ' "$tmp/pool"

# --sut names the class of the files after it
"$ZAB" report --style plain --sut box-one "$G/sut-a.json" --sut box-two "$G/sut-a.json" >"$tmp/sut"
ok "--sut renames per file (two sections)" -- \
	[ "$(grep -c -E '^box-(one|two):$' "$tmp/sut")" -eq 2 ]

# column widths grow with content: a long variant and benchmark name
long_v=a-very-long-variant-name-that-is-much-wider-than-its-numbers-0123456789
long_b="memset 1GB with a long result class name"
sed -e "s/\"stnp\"/\"$long_v\"/g" -e "s/\"memset 1GB\"/\"$long_b\"/g" "$G/sut-a.json" >"$tmp/long.json"
for style in box grid markdown plain detail; do
	"$ZAB" report --style $style "$tmp/long.json" >"$tmp/long.$style"
	if grep -q -- "$long_v" "$tmp/long.$style" && grep -q -- "$long_b" "$tmp/long.$style"; then
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
ok "box: every table line has the same width" -- [ "$(widths "$tmp/long.box" '^[╭│├╰]')" -eq 1 ]
ok "grid: every table line has the same width" -- [ "$(widths "$tmp/long.grid" '^[+|]')" -eq 1 ]
ok "markdown: every table line has the same width" -- [ "$(widths "$tmp/long.markdown" '^\|')" -eq 1 ]
w_short=$(grep -m1 '^+' "$G/report.grid" | wc -c)
w_long=$(grep -m1 '^+' "$tmp/long.grid" | wc -c)
ok "grid grew by the longer names ($w_short -> $w_long)" -- [ "$w_long" -gt $((w_short + 60)) ]

done_testing
