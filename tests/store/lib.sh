# SPDX-License-Identifier: GPL-2.0-or-later
# What the store tests share, sourced after tests/zab/lib.sh:
#   results N PREFIX      N real zab result files PREFIX1.json ... (fakebench,
#                         two variants, b 1.5x a; run object with UUIDs)
#   store_checks URL      the checks both back ends must pass, as TAP lines
#   nsamples URL          the samples the store holds, summed over its runs
results() {
	i=1
	while [ "$i" -le "$1" ]; do
		"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" --unit bytes/sec -v a \
			-v 'b:FAKE_SCALE=1.5' -S 2 -R 3 --seed "$i" --no-store --no-progress --sut "class-$((i % 2))" \
			--sut-name "sut$i" --campaign c1 --json "$2$i.json" >/dev/null 2>&1 || return 1
		i=$((i + 1))
	done
}

nsamples() {
	"$ZAB" store ls runs --store "$1" --format csv | awk -F, 'NR > 1 { s += $NF } END { print s + 0 }'
}

store_checks() {
	url=$1
	# round trip: import, export, the same document and the same table
	"$ZAB" store import --store "$url" "$CZ_TMP/r1.json" >"$CZ_TMP/imp" 2>&1
	ok "import: $(cat "$CZ_TMP/imp")" -- grep -q ': imported [0-9a-f-]\{36\}$' "$CZ_TMP/imp"
	uuid=$(sed -n 's/.*imported //p' "$CZ_TMP/imp")
	"$ZAB" store export --store "$url" --run "$uuid" -o "$CZ_TMP/back.json"
	ok "export of that run: the very document imported (JSON equal)" -- \
		python3 -c "import json,sys; sys.exit(json.load(open('$CZ_TMP/r1.json')) != json.load(open('$CZ_TMP/back.json')))"
	"$ZAB" report "$CZ_TMP/r1.json" >"$CZ_TMP/t1" 2>&1
	"$ZAB" report "$CZ_TMP/back.json" >"$CZ_TMP/t2" 2>&1
	ok "report of the export prints the same table" -- cmp -s "$CZ_TMP/t1" "$CZ_TMP/t2"
	"$ZAB" store import --store "$url" "$CZ_TMP/r1.json" "$CZ_TMP/back.json" >"$CZ_TMP/imp" 2>&1
	ok "import twice adds nothing: $(tr '\n' ' ' <"$CZ_TMP/imp")" -- \
		sh -c "[ \$(grep -c 'already stored $uuid' '$CZ_TMP/imp') -eq 2 ] && [ \$('$ZAB' store ls runs --store '$url' --format csv | wc -l) -eq 2 ]"
	# a file without run.uuid: its UUID from its content, so twice is once too
	python3 -c "import json; d=json.load(open('$CZ_TMP/r2.json')); d.pop('run'); json.dump(d, open('$CZ_TMP/old.json','w'))"
	"$ZAB" store import --store "$url" "$CZ_TMP/old.json" "$CZ_TMP/old.json" >"$CZ_TMP/imp" 2>&1
	ok "a file from before run.uuid: imported once, then already stored" -- \
		sh -c "grep -q 'imported' '$CZ_TMP/imp' && grep -q 'already stored' '$CZ_TMP/imp'"
	# eight writers at once: every run and every sample
	before=$(nsamples "$url")
	for i in 3 4 5 6 7 8 9 10; do
		"$ZAB" store import --store "$url" "$CZ_TMP/r$i.json" >"$CZ_TMP/w$i" 2>&1 &
	done
	wait
	after=$(nsamples "$url")
	runs=$("$ZAB" store ls runs --store "$url" --format csv | tail -n +2 | wc -l)
	ok "8 concurrent writers: 10 runs, $((after - before)) samples added (8 x 12 = 96)" -- \
		sh -c "[ $runs -eq 10 ] && [ $((after - before)) -eq 96 ] && ! grep -qv imported $CZ_TMP/w*"
	"$ZAB" store ls suts --store "$url" --format json >"$CZ_TMP/suts.json"
	ok "ls suts: each SUT named, with its class, cpu_id and cores" -- python3 -c "
import json, sys
s = json.load(open('$CZ_TMP/suts.json'))
names = {x['sut_name'] for x in s}
sys.exit(not ({'sut3', 'sut10'} <= names and all(x['sut_class'].startswith('class-') and x['cores'] > 0 for x in s)))"
	"$ZAB" report --store "$url" --experiment "command line" --campaign c1 >"$CZ_TMP/rep" 2>&1
	ok "report --store: a table per SUT class" -- \
		sh -c "grep -q 'SUT Class class-0' '$CZ_TMP/rep' && grep -q 'SUT Class class-1' '$CZ_TMP/rep'"
	# bad input: one line, non-zero, nothing changed
	before=$(nsamples "$url")
	head -c 300 "$CZ_TMP/r11.json" >"$CZ_TMP/trunc.json"
	printf '{"fio version": "fio-3.33", "jobs": []}\n' >"$CZ_TMP/fio.json"
	for f in trunc fio; do
		"$ZAB" store import --store "$url" "$CZ_TMP/$f.json" >/dev/null 2>"$CZ_TMP/e"
		rc=$?
		ok "import of a $f file: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
			sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
	done
	ok "the store unchanged by them ($before samples)" -- [ "$(nsamples "$url")" = "$before" ]
}
