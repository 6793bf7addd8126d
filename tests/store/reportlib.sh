# SPDX-License-Identifier: GPL-2.0-or-later
# The store's views, sourced after tests/zab/lib.sh; both back ends run
#   views_checks URL   report --by sut-class, compare --store, history, as TAP
# Three SUT classes are made by real short zab runs (fakebench) recorded in
# URL, with a planted code effect (variant b 1.5x) on class zen only; the
# history's kernel releases come from zab run's JSON with environment.kernel
# edited, brought in by zab store import.

# views_run CLASS SEED 'B-VARIANT' EXTRA...: one run recorded in $url
views_run() {
	c=$1 seed=$2 vb=$3
	shift 3
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" --unit bytes/sec -v a -v "$vb" -S 2 -R 3 \
		--seed "$seed" --no-progress --sut "$c" --sut-name "h-$c" "$@" >/dev/null 2>&1
}

# views_kernel FILE KERNEL [UUID]: FILE's environment.kernel (and run.uuid: fresh, or UUID) set
views_kernel() {
	python3 -c "
import json, sys, uuid
d = json.load(open(sys.argv[1]))
d['environment']['kernel'] = sys.argv[2]
d['run']['uuid'] = sys.argv[3] if len(sys.argv) > 3 else str(uuid.uuid4())
json.dump(d, open(sys.argv[1], 'w'))" "$@"
}

# one line, exit 2: views_refused DESCRIPTION OLD NEW
views_refused() {
	"$ZAB" compare --store "$url" "$2" "$3" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "$1: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q \"selector '$2'\" '$CZ_TMP/e'"
}

views_by_class() {
	"$ZAB" report --store "$url" --experiment views --by sut-class --json "$CZ_TMP/by.json" \
		--export-csv "$CZ_TMP/by.csv" >"$CZ_TMP/by.txt" 2>&1
	rc=$?
	ok "report --by sut-class: exit $rc, a column group per class" -- \
		sh -c "[ $rc -eq 0 ] && for c in neo zen sky; do grep -Eq \"[|] \$c( |\\\$)\" '$CZ_TMP/by.txt' || exit 1; done"
	ok "JSON: one row per class, (I) on zen's b alone (+50%)" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/by.json'))
rows = {r['sut_class']: r for r in d['rows']}
sys.exit(not (d['view'] == 'by-sut-class' and sorted(rows) == ['neo', 'sky', 'zen'] and
              rows['zen']['flag'] == 'I' and 45 < rows['zen']['change_pct'] < 55 and
              rows['neo']['flag'] == rows['sky']['flag'] == '' and rows['zen']['n'] == 6))"
	ok "CSV: the same rows, flags I, '', ''" -- python3 -c "
import csv, sys
r = {x['sut_class']: x['flag'] for x in csv.DictReader(open('$CZ_TMP/by.csv'))}
sys.exit(r != {'neo': '', 'zen': 'I', 'sky': ''})"
	# the text: the (I) in zen's column group only, whatever block it is in
	ok "text: the (I) under zen, no other group flagged" -- python3 -c "
import sys
head, flagged = None, []
for line in open('$CZ_TMP/by.txt'):
    f = [x.strip() for x in line.rstrip('\n').split(' | ')]
    if len(f) > 1 and f[0] == '':
        head = f[1:]
    elif len(f) > 1 and head and f[0].startswith('x [bytes/sec] / b'):
        flagged += [c for c, g in zip(head, f[1:]) if '(R)' in g or '(I)' in g]
sys.exit(flagged != ['zen'])"
	"$ZAB" report --by sut-class "$CZ_TMP/neo.json" "$CZ_TMP/zen.json" "$CZ_TMP/sky.json" "$CZ_TMP/sky6.json" \
		--json "$CZ_TMP/byf.json" >/dev/null 2>&1
	ok "the same view from the three files (class from each file's sut)" -- python3 -c "
import json, sys
sys.exit(json.load(open('$CZ_TMP/by.json'))['rows'] != json.load(open('$CZ_TMP/byf.json'))['rows'])"
}

views_compare() {
	"$ZAB" compare --store "$url" sut-class:neo,experiment:views sut-class:zen,campaign:cv \
		--json "$CZ_TMP/cmp.json" --export-csv "$CZ_TMP/cmp.csv" >"$CZ_TMP/cmp.txt" 2>&1
	ok "compare two run sets: b +50% significant, a not" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/cmp.json'))
r = {x['variant']: x for x in d['rows']}
sys.exit(not (r['b']['significant'] and 45 < r['b']['delta_pct'] < 55 and not r['a']['significant']
              and d['old']['sut_class'] == 'neo' and d['new']['sut_class'] == 'zen'))"
	ok "compare CSV parses: 2 rows" -- python3 -c "
import csv, sys
sys.exit(len(list(csv.DictReader(open('$CZ_TMP/cmp.csv')))) != 2)"
	u=$("$ZAB" store ls runs --store "$url" --format csv | awk -F, '$4 == "h-sky" { print substr($1, 1, 8); exit }')
	"$ZAB" compare --store "$url" "$u" sut:h-sky >"$CZ_TMP/cmp.txt" 2>&1
	ok "a run by 8 characters of its UUID against its SUT's runs: every row ~" -- \
		sh -c "grep -q '2 rows compared, 0 with p < 0.05' '$CZ_TMP/cmp.txt'"
	views_refused "an empty selector" "" sut-class:zen
	views_refused "a selector of no run" campaign:none sut-class:zen
	views_refused "a key twice" sut-class:neo,sut-class:zen sut-class:zen
	views_refused "a UUID prefix of 7 characters" "${u%?}" sut-class:zen
	views_refused "runs of three SUT classes (never pooled)" experiment:views sut-class:zen
	"$ZAB" run -b "x=$FAKE" -v a -v b -S 1 -R 3 --no-store --no-progress --json "$CZ_TMP/amb.json" >/dev/null 2>&1
	cp "$CZ_TMP/amb.json" "$CZ_TMP/amb2.json"
	views_kernel "$CZ_TMP/amb.json" 6.1.0 abcdef01-0000-4000-8000-000000000001
	views_kernel "$CZ_TMP/amb2.json" 6.1.0 abcdef01-0000-4000-8000-000000000002
	"$ZAB" store import --store "$url" "$CZ_TMP/amb.json" "$CZ_TMP/amb2.json" >/dev/null 2>&1
	views_refused "an ambiguous UUID prefix" abcdef01-0000 sut-class:zen
}

views_history() {
	# the same seed: an unchanged step has the very same samples, so only the planted one can flag
	for k in 6.9.0 6.12.0 6.12.0 6.10.2 6.14.1; do
		s=1.0
		[ "$k" = 6.14.1 ] && s=1.3
		for c in zen sky; do
			[ "$c" = sky ] && s=1.0
			views_run "$c" 7 b --name hist --no-store -v "c:FAKE_SCALE=$s" --base c --json "$CZ_TMP/h.json"
			views_kernel "$CZ_TMP/h.json" "$k"
			"$ZAB" store import --store "$url" "$CZ_TMP/h.json" >/dev/null 2>&1
		done
	done
	"$ZAB" history --store "$url" --experiment hist --by kernel --variant c --json "$CZ_TMP/hi.json" \
		--export-csv "$CZ_TMP/hi.csv" >"$CZ_TMP/hi.txt" 2>&1
	ok "history --by kernel: version order, the 2 runs of 6.12.0 pooled, (I) at 6.14.1 on zen only" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/hi.json'))
z = [(r['step'], r['runs'], r['flag']) for r in d['rows'] if r['sut_class'] == 'zen']
s = [r['flag'] for r in d['rows'] if r['sut_class'] == 'sky']
sys.exit(z != [('6.9.0', 1, ''), ('6.10.2', 1, ''), ('6.12.0', 2, ''), ('6.14.1', 1, 'I')] or s != [''] * 4)"
	ok "history text: one history per class, the (I) step named" -- \
		sh -c "grep -q '^SUT class sky' '$CZ_TMP/hi.txt' && grep -q '^6.14.1 .*(I)' '$CZ_TMP/hi.txt'"
	ok "history CSV parses: 8 rows" -- python3 -c "
import csv, sys
sys.exit(len(list(csv.DictReader(open('$CZ_TMP/hi.csv')))) != 8)"
	# --by patch: variant c's routine source as a device variant records it, edited; steps in
	# the order of their first runs' starts (the later patch's hash sorts first)
	for p in ff:1.0:10 00:1.3:11 ff:1.0:12; do
		views_run zen 7 b --name patch --no-store -v "c:FAKE_SCALE=$(echo "$p" | cut -d: -f2)" \
			--base c --json "$CZ_TMP/p.json"
		views_kernel "$CZ_TMP/p.json" 6.12.0
		python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
h, hour = sys.argv[2], sys.argv[3]
d['run']['started'] = '2026-01-01T%s:00:00Z' % hour
for v in d['variants']:
    if v['name'] == 'c':
        v['routine_source'] = {'kind': 'kernel source', 'file': 'arch/x86/lib/clear_page_64.S',
                               'file_sha256': h * 32, 'patch': 'p.diff', 'patch_sha256': h * 32}
json.dump(d, open(sys.argv[1], 'w'))" "$CZ_TMP/p.json" "$(echo "$p" | cut -d: -f1)" "$(echo "$p" | cut -d: -f3)"
		"$ZAB" store import --store "$url" "$CZ_TMP/p.json" >/dev/null 2>&1
	done
	"$ZAB" history --store "$url" --experiment patch --by patch --variant c --json "$CZ_TMP/hp.json" \
		>/dev/null 2>&1
	ok "history --by patch: two steps in start order, the 2 runs of ff pooled, (I) at 00" -- python3 -c "
import json, sys
z = [(r['step'][-12:], r['runs'], r['flag']) for r in json.load(open('$CZ_TMP/hp.json'))['rows']]
sys.exit(z != [('ffffffffffff', 2, ''), ('000000000000', 1, 'I')])"
	"$ZAB" history --store "$url" --experiment hist --by colour >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "history --by colour: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
}

views_checks() {
	url=$1
	views_run neo 3 b --store "$url" --campaign cv --name views --json "$CZ_TMP/neo.json" &&
	views_run zen 2 b:FAKE_SCALE=1.5 --store "$url" --campaign cv --name views --json "$CZ_TMP/zen.json" &&
	views_run sky 5 b --store "$url" --campaign cv --name views --json "$CZ_TMP/sky.json" ||
		{ echo "Bail out! zab run failed"; exit 1; }
	views_run sky 6 b --store "$url" --campaign cv --name views --json "$CZ_TMP/sky6.json"
	views_by_class
	views_compare
	views_history
	"$ZAB" store ls runs --store "$url" --format json >"$CZ_TMP/ls.json"
	"$ZAB" store ls runs --store "$url" --format csv >"$CZ_TMP/ls.csv"
	ok "store ls JSON and CSV parse, the same runs" -- python3 -c "
import csv, json, sys
j = [r['uuid'] for r in json.load(open('$CZ_TMP/ls.json'))]
c = [r['uuid'] for r in csv.DictReader(open('$CZ_TMP/ls.csv'))]
sys.exit(j != c or len(j) < 10)"
}
