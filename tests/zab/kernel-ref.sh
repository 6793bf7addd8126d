#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab run records the running kernel as reference with the SUT:
# environment.kernel_ref (the kernel's clear_user per 4 KiB chunk, its
# interval, the closest routine -- one of the registry's -- and the ratio)
# in the run's JSON and in the store, given back by zab store export;
# --kernel-ref no and the experiment key kernel-ref = no leave it out, the
# option overriding the key; bad values are one line, exit 2; zab report
# --by sut-class shows it under the table per class (one run, the median of
# several, "not recorded") and its JSON and CSV carry it too (per class, and
# on each row); a /dev/zero that is not the kernel's is recorded
# as an error, the run going on.  Figures are only checked to be positive
# and consistent.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON checks)"
ZBENCH=${ZBENCH:-$top_builddir/zbench}
[ -x "$ZBENCH" ] || skip_all "zbench not built ($ZBENCH)"
unset CUSEZERO_STORE
url=sqlite:$CZ_TMP/k.db
"$ZBENCH" kernel -f help | sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' >"$CZ_TMP/routines"

# krun CLASS ARGS...: one short run of the fake benchmark recorded in $url
krun() {
	c=$1
	shift
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" --unit bytes/sec -v a -v b -S 1 -R 3 --no-progress \
		--name kref --sut "$c" --store "$url" "$@"
}

krun neo --json "$CZ_TMP/neo.json" >/dev/null 2>"$CZ_TMP/neo.err"
rc=$?
ok "run: exit $rc, a 'kernel reference:' line on stderr" -- sh -c "
	[ $rc -eq 0 ] && grep -q '^zab: kernel reference: kernel clear_user [0-9.]* ns/4 KiB' '$CZ_TMP/neo.err'"
ok "JSON: environment.kernel_ref with a positive figure inside its CI, 21 rounds" -- python3 -c "
import json, math, sys
k = json.load(open('$CZ_TMP/neo.json'))['environment']['kernel_ref']
n = k['kernel']['ns_per_chunk']
sys.exit(not (math.isfinite(n) and n > 0 and k['kernel']['ci_lo'] <= n <= k['kernel']['ci_hi']
              and k['rounds'] == 21 and k['sizes'] == [16384, 262144]))"
ok "JSON: closest is a registry routine, ratio its figure over the kernel's" -- python3 -c "
import json, sys
k = json.load(open('$CZ_TMP/neo.json'))['environment']['kernel_ref']
names = open('$CZ_TMP/routines').read().split()
row = [r for r in k['routines'] if r['routine'] == k['closest']]
sys.exit(not (k['closest'] in names and row and k['ratio'] > 0 and
              abs(k['ratio'] - row[0]['ns_per_chunk'] / k['kernel']['ns_per_chunk']) < 1e-3 * k['ratio'] + 1e-3
              and ('ns_per_page' in k['thp'] or k['thp']['skipped'])))"

"$ZAB" store export --store "$url" --experiment kref >"$CZ_TMP/export.json" 2>"$CZ_TMP/export.err" ||
	diag "store export: $(cat "$CZ_TMP/export.err")"
ok "store export gives the run's kernel_ref back as recorded" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/export.json'))
runs = d['results'] if 'results' in d else [d]     # one run: the document itself
run = json.load(open('$CZ_TMP/neo.json'))
sys.exit(len(runs) != 1 or runs[0]['environment']['kernel_ref'] != run['environment']['kernel_ref'])"

krun zen >/dev/null 2>&1
krun zen >/dev/null 2>&1
krun sky --kernel-ref no --json "$CZ_TMP/sky.json" >/dev/null 2>"$CZ_TMP/sky.err"
ok "--kernel-ref no: no kernel_ref, no line" -- sh -c "
	! grep -q 'kernel reference' '$CZ_TMP/sky.err' && python3 -c \"
import json, sys
sys.exit('kernel_ref' in json.load(open('$CZ_TMP/sky.json'))['environment'])\""

cat >"$CZ_TMP/off.exp" <<EOF
[experiment]
name = kref-file
kernel-ref = no
repeats = 2
[benchmark x]
cmd = $FAKE --mean 10
[variant a]
[variant b]
EOF
"$ZAB" run -e "$CZ_TMP/off.exp" --no-store --no-progress --json "$CZ_TMP/off.json" >/dev/null 2>&1
"$ZAB" run -e "$CZ_TMP/off.exp" --kernel-ref yes --no-store --no-progress --json "$CZ_TMP/on.json" \
	>/dev/null 2>&1
ok "kernel-ref = no in the file: none; --kernel-ref yes overrides it" -- python3 -c "
import json, sys
sys.exit('kernel_ref' in json.load(open('$CZ_TMP/off.json'))['environment'] or
         'kernel_ref' not in json.load(open('$CZ_TMP/on.json'))['environment'])"

"$ZAB" run -b "x=$FAKE" -v a -v b --kernel-ref maybe --no-store >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "--kernel-ref maybe: exit $rc (2), one line: $(cat "$CZ_TMP/e")" -- sh -c "
	[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q -- \"--kernel-ref 'maybe'\" '$CZ_TMP/e'"
sed 's/^kernel-ref = no$/kernel-ref = maybe/' "$CZ_TMP/off.exp" >"$CZ_TMP/bad.exp"
"$ZAB" run -e "$CZ_TMP/bad.exp" --no-store >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "kernel-ref = maybe in a file: exit $rc (2), one line naming it: $(cat "$CZ_TMP/e")" -- sh -c "
	[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'kernel-ref' '$CZ_TMP/e'"

"$ZAB" report --store "$url" --experiment kref --by sut-class >"$CZ_TMP/by.txt" 2>&1
rc=$?
num='[0-9]+\.[0-9]'
ok "report --by sut-class: exit $rc, the reference block under the table" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '^kernel reference (environment.kernel_ref' '$CZ_TMP/by.txt'"
pct="$num% (faster|slower) than the kernel"
ok "  neo: its run's figure, interval, closest routine: distance, direction, interval" -- grep -Eq \
	"^  neo: kernel clear_user $num ns/4 KiB \[$num, $num\]; closest: [a-z0-9_]+, $pct; (inside|outside) the kernel's 95% interval" \
	"$CZ_TMP/by.txt"
ok "  zen: the median of its 2 runs and their range" -- grep -Eq \
	"^  zen: kernel clear_user $num ns/4 KiB \(median of 2 runs, $num to $num\); closest: [a-z0-9_]+, $pct \(median; closest in [12] of 2 runs\)" \
	"$CZ_TMP/by.txt"
ok "  sky: not recorded" -- grep -q '^  sky: not recorded' "$CZ_TMP/by.txt"
closest=$(sed -n 's/^  neo: kernel clear_user .*; closest: \([a-z0-9_]*\),.*/\1/p' "$CZ_TMP/by.txt")
ok "  neo's routine ('$closest') is the one its run recorded" -- python3 -c "
import json, sys
sys.exit(json.load(open('$CZ_TMP/neo.json'))['environment']['kernel_ref']['closest'] != '$closest')"

# the same reference in the view's JSON (per class, and on each row) and CSV
"$ZAB" report --store "$url" --experiment kref --by sut-class --json "$CZ_TMP/by.json" \
	--export-csv "$CZ_TMP/by.csv" >"$CZ_TMP/byj.txt" 2>&1
rc=$?
ok "report --by sut-class --json: exit $rc, kernel_ref per class as the text says it" -- python3 -c "
import json, re, sys
d = json.load(open('$CZ_TMP/by.json'))
k = {c['sut_class']: c for c in d['kernel_ref']}
run = json.load(open('$CZ_TMP/neo.json'))['environment']['kernel_ref']
text = dict(re.findall(r'^  (\w+): ((?:kernel clear_user|not recorded).*)\$', open('$CZ_TMP/by.txt').read(), re.M))
sys.exit(not ($rc == 0 and sorted(k) == ['neo', 'sky', 'zen'] and
              all(k[c]['kernel_ref'] == text[c] for c in k) and
              k['neo']['kernel_runs'] == 1 and k['zen']['kernel_runs'] == 2 and k['sky']['kernel_runs'] == 0 and
              abs(k['neo']['kernel_ns_per_chunk'] - run['kernel']['ns_per_chunk']) < 1e-9 and
              k['neo']['kernel_like'] == run['closest'] and 'kernel_ns_per_chunk' not in k['sky']))"
ok "  each row carries its class's reference" -- python3 -c "
import json, sys
d = json.load(open('$CZ_TMP/by.json'))
k = {c['sut_class']: c for c in d['kernel_ref']}
sys.exit(not (d['rows'] and all(r['kernel_ref'] == k[r['sut_class']]['kernel_ref'] and
              r.get('kernel_ns_per_chunk') == k[r['sut_class']].get('kernel_ns_per_chunk') for r in d['rows'])))"
ok "report --by sut-class --export-csv: the reference's columns, per class" -- python3 -c "
import csv, json, sys
k = {c['sut_class']: c for c in json.load(open('$CZ_TMP/by.json'))['kernel_ref']}
rows = list(csv.DictReader(open('$CZ_TMP/by.csv')))
sys.exit(not (rows and all(r['kernel_ref'] == k[r['sut_class']]['kernel_ref'] and
              r['kernel_runs'] == str(k[r['sut_class']]['kernel_runs']) and
              r['kernel_like'] == k[r['sut_class']].get('kernel_like', '') for r in rows) and
              any(r['sut_class'] == 'neo' and float(r['kernel_ns_per_chunk']) > 0 for r in rows) and
              all(r['kernel_ns_per_chunk'] == '' for r in rows if r['sut_class'] == 'sky')))"

# /dev/zero replaced (as in cusezero run's namespace): recorded as an error, the run goes on.
zf=$CZ_TMP/zero.bin
truncate -s 1M "$zf"
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c "mount --bind '$zf' /dev/zero && exec '$ZAB' run -b 'x=$FAKE --mean 10' -v a -v b -R 2 \
		--no-store --no-progress --json '$CZ_TMP/ns.json'" >/dev/null 2>"$CZ_TMP/ns.err"
	rc=$?
	ok "/dev/zero not the kernel's: exit $rc (0), kernel_ref.error, a line saying so" -- sh -c "
		[ $rc -eq 0 ] && grep -q 'kernel reference not measured: /dev/zero is not the kernel' '$CZ_TMP/ns.err' &&
		python3 -c \"
import json, sys
sys.exit('1:5' not in json.load(open('$CZ_TMP/ns.json'))['environment']['kernel_ref']['error'])\""
else
	skip "/dev/zero replaced in a mount namespace: needs root and unshare -m"
fi
done_testing
