#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench --json output is valid JSON holding every sample.
# Checked with whichever JSON parser exists: perl's JSON::PP (perl is
# needed by automake anyway), python3, or jq; none -> a visible SKIP.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

# json_count FILE: prints "<functions> <samples of the first function>".
if perl -MJSON::PP -e 1 2>/dev/null; then
	parser=perl
	json_count() { perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
		printf "%d %d\n", scalar @{$j->{functions}}, scalar @{$j->{functions}[0]{samples}}' <"$1"; }
elif command -v python3 >/dev/null 2>&1; then
	parser=python3
	json_count() { python3 -c 'import json, sys; j = json.load(sys.stdin)
print(len(j["functions"]), len(j["functions"][0]["samples"]))' <"$1"; }
elif command -v jq >/dev/null 2>&1; then
	parser=jq
	json_count() { jq -r '"\(.functions | length) \(.functions[0].samples | length)"' <"$1"; }
else
	skip_all "no JSON parser (perl JSON::PP, python3 or jq) to check --json"
fi
diag "parsing with $parser"

"$ZBENCH" memset --json -s 64KB -f default -l 5 >"$CZ_TMP/m" 2>/dev/null
ok "memset --json: exit 0" -- test $? -eq 0
ok "memset --json: 1 function, 5 samples" -- test "$(json_count "$CZ_TMP/m" 2>&1)" = "1 5"

"$ZBENCH" memset --json -s 64KB -f default -l 3 -c >"$CZ_TMP/c" 2>"$CZ_TMP/ce"
rc=$?
if cycles_counter; then
	ok "memset --json --cycles: 1 function, 3 samples" -- test "$(json_count "$CZ_TMP/c" 2>&1)" = "1 3"
else
	ok "memset --json --cycles, no cycles counter here: exit $rc (255), perf's line, no JSON" -- \
		eval 'cycles_refused "$CZ_TMP/c" "$CZ_TMP/ce" "$rc" && ! test -s "$CZ_TMP/c"'
fi

"$ZBENCH" --format json memset -s 16KB -f all >"$CZ_TMP/a" 2>/dev/null
n=$("$ZBENCH" memset -s 16KB -f all 2>/dev/null | grep -c "^# function ")
ok "--format json memset -f all: $n functions, 1 sample each" -- test "$(json_count "$CZ_TMP/a" 2>&1)" = "$n 1"

"$ZBENCH" mmap --json -f demand -s 2MB -l 4 >"$CZ_TMP/mm" 2>/dev/null
ok "mmap --json: 1 function, 4 samples" -- test "$(json_count "$CZ_TMP/mm" 2>&1)" = "1 4"

# GB is 2^30 bytes, as perf's: the document says so ("gb") and every
# function's gb_per_sec is its bytes_per_sec / 2^30 (1e9 would be 7% off).
if [ "$parser" = perl ]; then
	gb_check() { perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $bad = 0;
		for my $f (@{$j->{functions}}) {
			my $r = $f->{gb_per_sec} * 1073741824 / $f->{bytes_per_sec};
			$bad++ if abs($r - 1) > 1e-4;
		}
		printf "%s %d\n", $j->{gb}, $bad' <"$1"; }
elif [ "$parser" = python3 ]; then
	gb_check() { python3 -c 'import json, sys; j = json.load(sys.stdin)
bad = sum(abs(f["gb_per_sec"] * 2**30 / f["bytes_per_sec"] - 1) > 1e-4 for f in j["functions"])
print(int(j["gb"]), bad)' <"$1"; }
else
	gb_check() { jq -r '"\(.gb) \([.functions[] | select(((.gb_per_sec * 1073741824 / .bytes_per_sec) - 1) | fabs > 0.0001)] | length)"' <"$1"; }
fi
for f in m mm; do
	ok "$f: gb is 2^30 and gb_per_sec = bytes_per_sec / 2^30 ($(gb_check "$CZ_TMP/$f" 2>&1))" -- \
		test "$(gb_check "$CZ_TMP/$f" 2>&1)" = "1073741824 0"
done

# JSON is alone on stdout: a bad function, value or command leaves stdout
# empty (no half document), the reason goes to stderr.
for args in "memset --json -f bogus" "mmap --json -f bogus" "memset --json -s 0" \
	    "--format json memset -k 4QB"; do
	# shellcheck disable=SC2086
	"$ZBENCH" $args >"$CZ_TMP/o" 2>"$CZ_TMP/e"
	rc=$?
	ok "$args: exit $rc, stdout empty, reason on stderr" -- \
		sh -c "test $rc -eq 1 && ! test -s '$CZ_TMP/o' && test -s '$CZ_TMP/e'"
done
"$ZBENCH" --format json align -f memset >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "--format json align: usage error (exit $rc), nothing on stdout: $(cat "$CZ_TMP/e")" -- \
	sh -c "test $rc -eq 2 && ! test -s '$CZ_TMP/o' && grep -q 'format json: align has no such output' '$CZ_TMP/e'"
"$ZBENCH" --format simple align -f memset >"$CZ_TMP/o" 2>/dev/null
ok "--format simple align: usage error too" -- test $? -eq 2

done_testing
