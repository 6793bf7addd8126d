#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's kernel reference checks kernel paths against the
# running kernel: the running kernel's own clear_user path (its release's
# tree, else the nearest below, said so) is timed beside /dev/zero and said
# to agree or DISAGREE, and so is every kpath:clear_user variant of the
# experiment whose tree is of that release (its alt= assumed); the others
# are recorded as not checked, with why.  zab run's lines, the run's JSON
# and zab report --by sut-class (text, JSON, CSV) say the same verdicts.
# The agreeing case is only checked to be printed and well formed; the
# forced disagreement -- alt = FSRS=off on a CPU with FSRM, where the
# kernel's inline rep stosb runs, resolves to rep_stos_alternative, about
# twice as slow -- is checked to DISAGREE, and skipped visibly on a CPU
# without FSRM (there FSRS=on is forced instead, its verdict only checked
# to be said alike everywhere).  Native x86-64 only (the kernel runs on
# the hardware; under emulation no reference is taken).
# Needs: native
. "$top_srcdir/tests/zab/lib.sh"
[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 kernel paths only (ZERO_ARCH=$ZERO_ARCH)"
command -v python3 >/dev/null || skip_all "no python3 (JSON checks)"
[ -z "${CUSEZERO_EMULATED:-}" ] || skip_all "emulated (CUSEZERO_EMULATED): no kernel reference"
base=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
trees=
for v in 6.1 6.12 7.2; do
	t=$base/$v/linux-source-$v
	[ -f "$t/arch/x86/kernel/cpu/amd.c" ] || skip_all "no $v tree with its vendor files in $base: scripts/kernel-sources.sh"
	trees="$trees $t"
done
unset CUSEZERO_STORE CUSEZERO_KERNEL_SOURCES
XDG_CACHE_HOME=$CZ_TMP/cache XDG_DATA_HOME=$CZ_TMP/data CUSEZERO_KSRC_CACHE=$CZ_TMP/ksrc TMPDIR=$CZ_TMP
export XDG_CACHE_HOME XDG_DATA_HOME CUSEZERO_KSRC_CACHE TMPDIR
if grep -qw fsrm /proc/cpuinfo; then fsrm=yes; force=FSRS=off; else fsrm=no; force=FSRS=on; fi

# the experiment: a base, one kpath:clear_user variant per tree, the forced one on each tree,
# a clear_page one
{
	printf '[experiment]\nname = krefkp\nrepeats = 2\n[benchmark x]\ncmd = %s --mean 10\n[variant a]\n' "$FAKE"
	for t in $trees; do
		v=$(basename "$t" | sed 's/^linux-source-//; s/\./_/g')
		printf '[variant k%s]\nsource = kpath:%s:clear_user\n' "$v" "$t"
		printf '[variant f%s]\nsource = kpath:%s:clear_user\nalt = %s\n' "$v" "$t" "$force"
	done
	printf '[variant pg]\nsource = kpath:%s/6.12/linux-source-6.12:clear_page\n' "$base"
} >"$CZ_TMP/k.exp"
url=sqlite:$CZ_TMP/k.db
"$ZAB" run -e "$CZ_TMP/k.exp" --store "$url" --no-progress --sut neo --json "$CZ_TMP/r.json" \
	>/dev/null 2>"$CZ_TMP/r.err"
rc=$?
sed 's/^/# /' "$CZ_TMP/r.err" | grep 'kernel reference'
pct='[0-9]+\.[0-9]% (faster|slower) than the kernel; (inside|outside) the kernel.s 95% interval'
verdict='(agrees with the kernel \((within its 95% interval|no routine told apart from it lies between them)\)|DISAGREES: [a-z0-9_]+, told apart from it, lies between it and the kernel \('"$pct"'\): the emulation is not to be trusted here)'
ok "run: exit $rc (0), the kernel line says closest: ROUTINE, distance and direction" -- sh -c "[ $rc -eq 0 ] &&
	grep -Eq '^zab: kernel reference: kernel clear_user [0-9.]+ ns/4 KiB \[[0-9.]+, [0-9.]+\]; closest: [a-z0-9_]+, $pct' '$CZ_TMP/r.err'"
ok "run: the kernel path line: its tree (own or nearest below), what runs, distance, verdict" -- grep -Eq \
	"^zab: kernel reference: kernel path: [0-9.]+(('s own tree \([0-9.]+\))|, the nearest release at or below .* \(no [0-9]+\.[0-9]+ tree\)): (inline|call) [^:]*: $pct; $verdict\$" \
	"$CZ_TMP/r.err"

# which variants are of the running kernel's path's release: checked; the others not
ok "JSON: the kernel path's release, its verdict; the variants of that release checked, the rest not" -- python3 -c "
import json, sys
k = json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']
rel = k['kpath']['release']
mm = '_'.join(rel.split('.')[:2])
checked = sorted(c['variant'] for c in k['checks'])
skipped = {c['variant']: c['why'] for c in k['not_checked']}
want = sorted(['k' + mm, 'f' + mm])
others = [p + v for p in 'kf' for v in ('6_1', '6_12', '7_2') if v != mm] + ['pg']
sys.exit(not (k['resolved']['verdict'] in ('agrees', 'disagrees') and checked == want and
              sorted(skipped) == sorted(others) and 'clear_user only' in skipped['pg'] and
              all(c['verdict'] in ('agrees', 'disagrees') and c['verdict_text'] and c['label'].startswith(rel)
                  for c in k['checks'])))"
mm=$(python3 -c "
import json
print('_'.join(json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']['kpath']['release'].split('.')[:2]))")
ok "run: the agreeing case's line (k$mm, no alt=) is printed and well formed" -- grep -Eq \
	"^zab: kernel reference: variant 'k$mm' \([0-9.]+ (inline|call) [^)]*\)\): $pct; $verdict\$" "$CZ_TMP/r.err"
ok "run: the forced case's line (f$mm, alt = $force) is printed and well formed" -- grep -Eq \
	"^zab: kernel reference: variant 'f$mm' \([0-9.]+ (inline|call) [^)]*\)\): $pct; $verdict\$" "$CZ_TMP/r.err"
if [ "$fsrm" = yes ]; then
	ok "FSRM here: alt = FSRS=off resolves to rep_stos_alternative and DISAGREES with the kernel" -- sh -c "
		grep -Eq \"^zab: kernel reference: variant 'f$mm' \\([0-9.]+ call rep_stos_alternative [^)]*\\)\\): .*; DISAGREES: \" '$CZ_TMP/r.err'"
else
	skip "forced disagreement: this CPU has no FSRM (/proc/cpuinfo), so FSRS=off is what the kernel runs already"
fi

# the report says what the run recorded
"$ZAB" report --store "$url" --experiment krefkp --by sut-class --json "$CZ_TMP/by.json" \
	--export-csv "$CZ_TMP/by.csv" >"$CZ_TMP/by.txt" 2>&1
rc=$?
fv=$(python3 -c "
import json
k = json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']
print([c['verdict'] for c in k['checks'] if c['variant'] == 'f$mm'][0])")
ok "report --by sut-class: exit $rc (0), the kernel path and each checked variant under the table" -- sh -c "
	[ $rc -eq 0 ] && grep -q '^  neo: kernel path: ' '$CZ_TMP/by.txt' &&
	grep -q \"^  neo: variant 'k$mm' \" '$CZ_TMP/by.txt' && grep -q \"^  neo: variant 'f$mm' \" '$CZ_TMP/by.txt' &&
	[ \$(grep -c '^  neo: ' '$CZ_TMP/by.txt') -eq 4 ]"
ok "report: the run's lines as recorded (forced one: $fv)" -- python3 -c "
import json, re, sys
k = json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']
text = open('$CZ_TMP/by.txt').read()
run = [l[len('zab: kernel reference: '):] for l in open('$CZ_TMP/r.err').read().splitlines()
       if l.startswith('zab: kernel reference: kernel path') or l.startswith('zab: kernel reference: variant')]
sys.exit(not (len(run) == 3 and all('  neo: ' + l + '\n' in text for l in run)))"
ok "report JSON and CSV: kernel_verdict, kernel_path, kernel_disagrees as the run's verdicts say" -- python3 -c "
import csv, json, sys
k = json.load(open('$CZ_TMP/r.json'))['environment']['kernel_ref']
verdicts = [k['resolved']['verdict']] + [c['verdict'] for c in k['checks']]
want = 'disagrees' if 'disagrees' in verdicts else 'agrees'
d = {c['sut_class']: c for c in json.load(open('$CZ_TMP/by.json'))['kernel_ref']}['neo']
rows = list(csv.DictReader(open('$CZ_TMP/by.csv')))
dis = [l for l in d['kernel_checks'] if 'DISAGREES' in l]
sys.exit(not (d['kernel_verdict'] == want and d['kernel_path'].startswith('kernel path: ') and
              d['kernel_disagrees'] == ' | '.join(dis) and len(d['kernel_checks']) == 3 and
              ('$fv' != 'disagrees' or any(\"variant 'f$mm'\" in l for l in dis)) and rows and
              all(r['kernel_verdict'] == want and r['kernel_path'] == d['kernel_path'] and
                  r['kernel_disagrees'] == d['kernel_disagrees'] for r in rows)))"
if [ "$fsrm" = yes ]; then
	ok "FSRM here: the report's text, JSON and CSV show the forced variant's DISAGREES" -- sh -c "
		grep -q \"^  neo: variant 'f$mm' .*DISAGREES\" '$CZ_TMP/by.txt' &&
		grep -q \"variant 'f$mm'.*DISAGREES\" '$CZ_TMP/by.csv'"
else
	skip "forced disagreement in the report: this CPU has no FSRM"
fi
done_testing
