#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench align sweeps offsets: one table row per offset whose
# placed address really is that offset mod 4096; --csv rows parse; --plot
# writes a non-empty SVG (gnuplot) or says clearly that gnuplot is missing;
# non-relocatable routines and bad offsets are refused.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

# align -f help lists the routines zero_place() can move; sweep the first.
"$ZBENCH" align -f help >"$CZ_TMP/help" 2>&1
routine=$(sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' "$CZ_TMP/help" | head -n 1)
[ -n "$routine" ] || skip_all "no relocatable usable routine in this registry: $(cat "$CZ_TMP/help")"
diag "sweeping $routine"
ok "align -f help: memset listed as not relocatable" -- grep -q "^# not relocatable: memset (" "$CZ_TMP/help"

small="-s 16KB -k 4KB -l 2 -r 3"
# shellcheck disable=SC2086
"$ZBENCH" align -f "$routine" --offsets 0,8,60,124 $small >"$CZ_TMP/t" 2>"$CZ_TMP/e"
ok "align --offsets 0,8,60,124: exit 0" -- test $? -eq 0
grep -E '^ *[0-9]+ +0x[0-9a-f]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$CZ_TMP/t" >"$CZ_TMP/rows"
ok "align: 4 table rows" -- test "$(wc -l <"$CZ_TMP/rows")" -eq 4
ok "align: rows are offsets 0 8 60 124" -- test "$(awk '{ printf "%s ", $1 }' "$CZ_TMP/rows")" = "0 8 60 124 "
bad=0
while read -r off addr med min max cv; do
	if [ $((addr % 4096)) -ne "$off" ]; then
		diag "offset $off: placed point at $addr = offset $((addr % 4096))"
		bad=1
	fi
	if ! awk -v a="$min" -v b="$med" -v c="$max" 'BEGIN { exit !(a > 0 && a <= b && b <= c) }'; then
		diag "offset $off: min $min <= median $med <= max $max does not hold"
		bad=1
	fi
done <"$CZ_TMP/rows"
ok "align: each row's point address is its offset mod 4096; min <= median <= max" -- test "$bad" -eq 0
ok "align: best/worst with CI verdict" -- \
	sh -c "grep -q '^# best:  offset ' '$CZ_TMP/t' && grep -q '^# worst: offset ' '$CZ_TMP/t' && grep -Eq '^# effect: worst vs best [-+][0-9.]+%.*95% CIs (overlap|do not overlap)' '$CZ_TMP/t'"

# shellcheck disable=SC2086
"$ZBENCH" align -f "$routine" --offsets 4..12:4 --of entry --order rr $small >"$CZ_TMP/en" 2>/dev/null
ok "align --of entry --order rr --offsets 4..12:4: 3 rows" -- \
	test "$(grep -Ec '^ *[0-9]+ +0x[0-9a-f]+ ' "$CZ_TMP/en")" -eq 3

# shellcheck disable=SC2086
"$ZBENCH" align -f "$routine" --offsets 0..4095:1024 --csv $small >"$CZ_TMP/csv" 2>/dev/null
ok "align --csv: exit 0" -- test $? -eq 0
ok "align --csv: header" -- test "$(sed -n 1p "$CZ_TMP/csv")" = \
	"offset,point_address,median_gbps,min_gbps,max_gbps,mean_gbps,cv,ci_lo_gbps,ci_hi_gbps,n"
ok "align --csv: 4 rows of 10 numeric fields (offsets 0,1024,2048,3072)" -- awk -F, '
	NR == 1 { next }
	NF != 10 || $1 !~ /^[0-9]+$/ || $2 !~ /^0x[0-9a-f]+$/ || $10 != 3 { exit 1 }
	{ for (i = 3; i <= 9; i++) if ($i !~ /^-?[0-9]+\.[0-9]+$/) exit 1; offs = offs $1 " " }
	END { exit !(NR == 5 && offs == "0 1024 2048 3072 ") }' "$CZ_TMP/csv"

if command -v gnuplot >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	"$ZBENCH" align -f "$routine" --offsets 0..8 $small --plot "$CZ_TMP/a.svg" >/dev/null 2>"$CZ_TMP/e"
	ok "align --plot a.svg: exit 0" -- test $? -eq 0
	ok "align --plot: non-empty SVG" -- sh -c "test -s '$CZ_TMP/a.svg' && grep -q '<svg' '$CZ_TMP/a.svg'"
else
	skip "gnuplot not installed (Debian: gnuplot-nox): --plot SVG not checked"
	"$ZBENCH" align -f "$routine" --offsets 0 --plot "$CZ_TMP/a.svg" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "align --plot without gnuplot: exit $rc, message names gnuplot" -- \
		sh -c "test $rc -ne 0 && grep -q gnuplot '$CZ_TMP/e'"
fi
"$ZBENCH" align -f "$routine" --offsets 0 --plot "$CZ_TMP/a.pdf" >/dev/null 2>&1
ok "align --plot a.pdf: refused" -- test $? -ne 0
# An offset no instruction can start at (arm64: not a multiple of 4) is refused up front.
"$ZBENCH" align -f "$routine" --offsets 63 -s 4KB -l 1 -r 1 >/dev/null 2>"$CZ_TMP/e"
rc=$?
if [ "$ZERO_ARCH" = aarch64 ]; then
	ok "align --offsets 63 on arm64: exit $rc, 'multiples of 4'" -- \
		sh -c "test $rc -ne 0 && grep -q 'multiples of 4' '$CZ_TMP/e'"
else
	ok "align --offsets 63 on $ZERO_ARCH: exit 0 (any byte offset)" -- test "$rc" -eq 0
fi
"$ZBENCH" align -f "$routine" --offsets 4096 >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "align --offsets 4096: exit $rc, naming --offsets" -- sh -c "test $rc -ne 0 && grep -q -- '--offsets' '$CZ_TMP/e'"
"$ZBENCH" align -f memset --offsets 0 >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "align -f memset (calls glibc through the PLT): exit $rc, not relocatable" -- \
	sh -c "test $rc -ne 0 && grep -q 'not relocatable' '$CZ_TMP/e'"
"$ZBENCH" align -f "$routine" --cpu x >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "align --cpu x: exit $rc, naming --cpu" -- sh -c "test $rc -ne 0 && grep -q -- \"--cpu 'x'\" '$CZ_TMP/e'"
"$ZBENCH" align -f no_such_routine >/dev/null 2>&1
ok "align -f no_such_routine: non-zero exit" -- test $? -ne 0

# --compare A,B of two routines: both at every offset, the ratio per offset, a verdict over layouts
rel=$("$ZBENCH" align -f help 2>&1 | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' | head -n 2 | tr '\n' ' ')
set -- $rel
ALIGN_STEP=1; [ "$ZERO_ARCH" = aarch64 ] && ALIGN_STEP=4
if [ $# -eq 2 ]; then
	"$ZBENCH" align --compare "$1,$2" --offsets 0..12 -r 3 -l 2 >"$CZ_TMP/cmp" 2>"$CZ_TMP/e"
	ok "align --compare $1,$2: exit 0" -- test $? -eq 0
	ok "--compare of routines: a row per offset with B/A and its interval" -- \
		sh -c "[ \$(grep -Ec '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.-]+\.\.[0-9.-]+' '$CZ_TMP/cmp') -eq \$(seq 0 $ALIGN_STEP 12 | wc -l) ]"
	ok "--compare of routines: the verdict over layouts" -- \
		grep -Eq "^# B vs A over [0-9]+ layouts: .*(no difference|B faster|B slower) over layouts; B faster at [0-9]+/[0-9]+ layouts, slower at [0-9]+/[0-9]+ \(B = $2, A = $1\)" "$CZ_TMP/cmp"
	"$ZBENCH" align --compare "$1,$2" --offsets 0,8 -r 2 -l 1 --csv >"$CZ_TMP/cmp" 2>/dev/null
	ok "--compare of routines --csv: a header and a row per offset" -- \
		sh -c "head -n 1 '$CZ_TMP/cmp' | grep -q '^class,offset,a_median_gbps,b_median_gbps,ratio,' && [ \$(wc -l <'$CZ_TMP/cmp') -eq 3 ]"
	"$ZBENCH" align --compare "$1,$1" --offsets 0 >/dev/null 2>"$CZ_TMP/e"
	ok "--compare A,A: refused" -- grep -q 'the same routine twice' "$CZ_TMP/e"
	"$ZBENCH" align --compare "$1,memset" --offsets 0 >/dev/null 2>"$CZ_TMP/e"
	ok "--compare with a routine that cannot be placed: refused with the reason" -- \
		grep -q "invalid --compare 'memset': calls glibc memset through the PLT" "$CZ_TMP/e"
	"$ZBENCH" align --compare "$1,$2" --json --offsets 0 >/dev/null 2>"$CZ_TMP/e"
	ok "--compare of routines --json: refused" -- grep -q 'invalid --json' "$CZ_TMP/e"
	# zbench memset --align: a placed copy in process (zab's placement for in-process benchmarks)
	"$ZBENCH" memset -f "$1" -s 64KB -l 2 --align 8 --format simple >"$CZ_TMP/m" 2>"$CZ_TMP/e"
	ok "memset -f $1 --align 8: exit 0, a number" -- sh -c "[ \$? -eq 0 ] || exit 1; grep -Eq '^[0-9.]+$' '$CZ_TMP/m'"
	"$ZBENCH" memset -f "$1" -s 64KB --align 4096 >/dev/null 2>"$CZ_TMP/e"
	ok "memset --align 4096: refused" -- grep -q 'Invalid align:4096' "$CZ_TMP/e"
	"$ZBENCH" memset -f memset -s 64KB --align 8 >/dev/null 2>"$CZ_TMP/e"
	ok "memset --align with a routine that cannot be placed: refused with the reason" -- \
		grep -q 'cannot place memset at offset 8: .*through the PLT' "$CZ_TMP/e"
	# compiled C is placed by its entry (its section bounds it; no loop head is marked)
	"$ZBENCH" memset -f c_store_loop -s 64KB -l 2 --align 8@entry --format simple >"$CZ_TMP/m" 2>"$CZ_TMP/e"
	ok "memset -f c_store_loop --align 8@entry: a number" -- grep -Eq '^[0-9.]+$' "$CZ_TMP/m"
	"$ZBENCH" memset -f c_store_loop -s 64KB --align 8@loop >/dev/null 2>"$CZ_TMP/e"
	ok "memset -f c_store_loop --align 8@loop: refused, no loop head" -- \
		grep -q 'no loop head' "$CZ_TMP/e"
else
	tap_skip "--compare of routines: fewer than two relocatable routines here"
fi

done_testing
