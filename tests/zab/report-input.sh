#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: what zab reads back is checked as strictly as what it writes.
# Result files: numbers in JSON's grammar only (no -nan, inf, 0x10, 0x1p4,
# 1e999, NaN, no trailing comma; \u surrogate pairs decode to UTF-8),
# counts that are whole numbers in range, no cell or key given
# twice; a merge past the limit of benchmarks or variants is one error line
# (not a crash); endless or binary input ends with an error.  A benchmark
# printing a hex number is a failed run, not 16.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

# result FILE NB NV [SAMPLE] [EXTRA_EXPERIMENT_MEMBER]: a result file with
# benchmarks b0.. and variants v0.., each cell holding three samples.
result() {
	awk -v nb="$2" -v nv="$3" -v sample="${4:-1.5}" -v extra="${5:-}" 'BEGIN {
		# text, not a JSON library: the samples may be bad tokens on purpose
		printf "%s", "{"
		printf "\"zab\": 1, \"sut\": \"t\", \"experiment\": {\"name\": \"t\", "
		printf "\"sessions\": 1, \"warmups\": 0, \"repeats\": 3%s},\n", extra
		printf "\"benchmarks\": ["
		for (b = 0; b < nb; b++)
			printf "%s{\"name\": \"b%d\", \"unit\": \"x\"}", b ? ", " : "", b
		printf "],\n\"variants\": ["
		for (v = 0; v < nv; v++)
			printf "%s{\"name\": \"v%d\"}", v ? ", " : "", v
		printf "],\n\"cells\": ["
		for (b = 0; b < nb; b++)
			for (v = 0; v < nv; v++)
				printf "%s{\"benchmark\": \"b%d\", \"variant\": \"v%d\", \"samples\": [%s, 2, 3]}", \
					(b || v) ? ",\n" : "", b, v, sample
		printf "]}\n"
	}' >"$1"
}
# refused DESC WANT_REGEX FILE...: zab report exits 2, one line matching, no signal
refused() {
	d=$1; want=$2; shift 2
	timeout 60 "$ZAB" report "$@" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	n=$(wc -l <"$CZ_TMP/err")
	if [ $rc -eq 2 ] && [ "$n" -eq 1 ] && grep -q -E -- "$want" "$CZ_TMP/err"; then
		pass "$d: $(cat "$CZ_TMP/err")"
	else
		fail "$d: exit $rc, $n stderr lines, wanted /$want/: $(head -c 300 "$CZ_TMP/err" | tr '\n' ' ')"
	fi
}

# Merging past the limit (64): 63 benchmarks + 2 new ones, then variants.
result "$CZ_TMP/b63.json" 63 2
sed 's/"b0"/"new0"/g; s/"b1"/"new1"/g' "$CZ_TMP/b63.json" >"$CZ_TMP/b-new.json"
refused "merge to 65 benchmarks" "more than 64 benchmarks or variants" "$CZ_TMP/b63.json" "$CZ_TMP/b-new.json"
result "$CZ_TMP/v63.json" 1 63
sed 's/"v0"/"new0"/g; s/"v1"/"new1"/g' "$CZ_TMP/v63.json" >"$CZ_TMP/v-new.json"
refused "merge to 65 variants" "more than 64 benchmarks or variants" "$CZ_TMP/v63.json" "$CZ_TMP/v-new.json"
# ... and exactly 64 is fine.
sed 's/"b0"/"new0"/g' "$CZ_TMP/b63.json" >"$CZ_TMP/b-one-new.json"
timeout 60 "$ZAB" report "$CZ_TMP/b63.json" "$CZ_TMP/b-one-new.json" >/dev/null 2>"$CZ_TMP/err"
ok "merge to exactly 64 benchmarks: exit $?" -- [ ! -s "$CZ_TMP/err" ]

# Numbers outside JSON's grammar or range, as a sample.
for x in -nan nan -inf inf Infinity 1e999 -1e999 0x10 0x1p4 +1 .5 1. 01 - 1e; do
	result "$CZ_TMP/num.json" 1 2 "$x"
	refused "sample $x" "num.json" "$CZ_TMP/num.json"
done
result "$CZ_TMP/num.json" 1 2 "-1.5e-3"
ok "sample -1.5e-3 (JSON's grammar) is read" -- sh -c "'$ZAB' report '$CZ_TMP/num.json' >/dev/null"
# Counts: whole numbers in range.
for kv in '"repeats": -5' '"sessions": 1e300' '"warmups": 1.5' '"sessions": 0' '"repeats": "3"'; do
	result "$CZ_TMP/count.json" 1 2 1 ", $kv"
	# (the member given last wins in the generator: remove the earlier one)
	k=$(echo "$kv" | cut -d'"' -f2)
	sed "0,/\"$k\": [0-9]*, */s///" "$CZ_TMP/count.json" >"$CZ_TMP/count2.json"
	refused "experiment $kv" "'?$k'?" "$CZ_TMP/count2.json"
done
# The same cell twice, a key twice, a benchmark or variant named twice.
result "$CZ_TMP/dup.json" 1 2
sed 's/"cells": \[/"cells": [{"benchmark": "b0", "variant": "v0", "samples": [9]},\n/' \
	"$CZ_TMP/dup.json" >"$CZ_TMP/dup-cell.json"
refused "a cell given twice" "b0.*v0" "$CZ_TMP/dup-cell.json"
sed 's/"samples": \[1.5, 2, 3\]}/"samples": [1.5, 2, 3], "samples": [9]}/' \
	"$CZ_TMP/dup.json" >"$CZ_TMP/dup-key.json"
refused "a key given twice in an object" "samples" "$CZ_TMP/dup-key.json"
sed 's/{"name": "v1"}/{"name": "v0"}/' "$CZ_TMP/dup.json" >"$CZ_TMP/dup-var.json"
refused "a variant named twice" "v0" "$CZ_TMP/dup-var.json"

# The decoder is RFC 8259's (jansson): a \u surrogate pair is one character
# in UTF-8; a trailing comma, NaN and a number out of range are refused.
result "$CZ_TMP/u.json" 1 2
sed 's/"b0"/"smile \\ud83d\\ude00"/g' "$CZ_TMP/u.json" >"$CZ_TMP/u2.json"
"$ZAB" report "$CZ_TMP/u2.json" --style plain >"$CZ_TMP/out" 2>"$CZ_TMP/err"
ok "surrogate pair \\ud83d\\ude00 in a name: read as U+1F600 in UTF-8" -- \
	grep -q "smile $(printf '\360\237\230\200')" "$CZ_TMP/out"
sed 's/"samples": \[1.5, 2, 3\]/"samples": [1.5, 2, 3,]/' "$CZ_TMP/u.json" >"$CZ_TMP/comma.json"
refused "a trailing comma in an array" "comma.json:[0-9]+: bad JSON" "$CZ_TMP/comma.json"
sed 's/"repeats": 3}/"repeats": 3,}/' "$CZ_TMP/u.json" >"$CZ_TMP/comma2.json"
refused "a trailing comma in an object" "comma2.json:[0-9]+: bad JSON" "$CZ_TMP/comma2.json"
for x in NaN 1e999; do
	result "$CZ_TMP/nan.json" 1 2 "$x"
	refused "sample $x" "nan.json:[0-9]+: bad JSON" "$CZ_TMP/nan.json"
done
sed 's/"sut": "t"/"sut": "t", "sut": "u"/' "$CZ_TMP/u.json" >"$CZ_TMP/dupsut.json"
refused "a top-level key given twice" "dupsut.json:[0-9]+: bad JSON: duplicate .*sut" "$CZ_TMP/dupsut.json"

# Endless and binary input: an error, bounded in time and memory.
refused "report /dev/zero" "/dev/zero" /dev/zero
timeout 60 "$ZAB" run /dev/zero --dry-run >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "run /dev/zero: exit $rc, one line ($(head -c 200 "$CZ_TMP/err"))" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q /dev/zero '$CZ_TMP/err'"

# A benchmark printing a hex number: a failed run (FAILED), never 16.
"$ZAB" run -b "h=$FAKE --print 0x10" --group fake -v a -v b -R 1 --seed 1 \
	>"$CZ_TMP/out" 2>"$CZ_TMP/err"
rc=$?
ok "benchmark printing 0x10: exit $rc, cells FAILED" -- \
	sh -c "[ $rc -eq 1 ] && grep -q FAILED '$CZ_TMP/out' && ! grep -q '16\.00' '$CZ_TMP/out'"
done_testing
