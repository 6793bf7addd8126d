#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the figures read at a glance.  The change figure of a
# report whose rows have long names (SUT class, benchmark, unit, variant)
# keeps at least a third of its width for the plot (the x axis' tic labels
# span it), numbers its rows and lists the names under the figure; a
# history step that is both (R) and a change point is drawn red, as the
# legend promises for (R), with the orange change-point ring around it.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): the figures need it"
command -v python3 >/dev/null || skip_all "python3 not found (reads the SVG)"
unset CUSEZERO_STORE

"$ZAB" run -b "pread in-device=$FAKE --sd 0.01 --mean 10" --unit bytes/sec \
	-b "fault latency of a huge page=$FAKE --sd 0.01 --mean 3" --unit ns --lower -v base \
	-v "rel@1:FAKE_SCALE=0.8" -v "rel@2:FAKE_SCALE=1.2" -v "rel@3:FAKE_SCALE=1.0" -S 2 -R 3 --seed 7 \
	--name team --no-progress --no-store --kernel-ref no --sut "Oxide Virtual Turin-like Processor" \
	--sut-name h1 --json "$CZ_TMP/r.json" >/dev/null 2>&1
"$ZAB" report "$CZ_TMP/r.json" --plot "$CZ_TMP/change.svg" --figure change >/dev/null 2>"$CZ_TMP/err"
ok "report --plot change.svg: exit $?" -- test -s "$CZ_TMP/change.svg"
ok "long row names: the plot spans at least a third of the width, rows numbered, names listed" -- \
	python3 - "$CZ_TMP/change.svg" <<'EOT'
import re, sys
t = open(sys.argv[1]).read()
w = float(re.search(r'<svg[^>]*width="(\d+)', t).group(1))
labels = [(float(x), float(y), s) for x, y, s in
          re.findall(r'translate\(([\d.]+),([\d.]+)\)[^>]*>\s*<text[^>]*>([^<]*)</text>', t)]
rows = {}
for x, y, s in labels:
    if re.fullmatch(r'\s*-?[\d.]+', s):
        rows.setdefault(y, []).append(x)
xaxis = max(rows.values(), key=lambda xs: len(set(xs)))
span = max(xaxis) - min(xaxis)
numbered = sorted(s for x, y, s in labels if re.fullmatch(r'[1-6]', s))
keyed = [k for k in range(1, 7) if any(s.startswith('%d  Oxide Virtual' % k) for x, y, s in labels)]
print('# width %g, x axis tic labels span %.0f px, row numbers %s, names listed %s' % (w, span, numbered, keyed))
sys.exit(0 if span >= w / 3 and numbered == [str(k) for k in range(1, 7)] and len(keyed) == 6 else 1)
EOT

# a change sequence 30% slower from step 4: step 4 is (R) and a change point
. "$top_srcdir/tests/zab/seqlib.sh"
SEQ_BLIP= seq_file "$CZ_TMP/seq.ini" seqlayout 6 4
"$ZAB" run -e "$CZ_TMP/seq.ini" --store "sqlite:$CZ_TMP/s.db" --sut zen --seed 3 --no-progress \
	--kernel-ref no >/dev/null 2>"$CZ_TMP/err" || diag "sequence run: $(tail -n 1 "$CZ_TMP/err")"
"$ZAB" history --store "sqlite:$CZ_TMP/s.db" --experiment seqlayout --by series --export-csv "$CZ_TMP/h.csv" \
	--plot "$CZ_TMP/h.svg" >/dev/null 2>"$CZ_TMP/err"
ok "history --plot h.svg: exit $?" -- test -s "$CZ_TMP/h.svg"
ok "a step both (R) and a change point: red, ringed orange" -- python3 - "$CZ_TMP/h.svg" "$CZ_TMP/h.csv" <<'EOT'
import csv, re, sys
t = open(sys.argv[1]).read()
rows = list(csv.DictReader(open(sys.argv[2])))
both = [r for r in rows if r.get('flag') == 'R' and r.get('change_point') in ('true', '1', 'True')]
# the points (pt 7, filled) and their colours
pts = re.findall(r"<use xlink:href='#gpPt6' transform='translate\(([\d.]+),[\d.]+\) scale\([\d.]+\)' color='([^']*)'", t)
red = 'rgb(192,  57,  43)'
orange = 'rgb(230, 126,  34)'
nred = sum(c == red for x, c in pts)
# the legend draws one red point ((R) worse): the step is a second
print('# rows (R) and change point: %d; red points (one is the legend): %d' % (len(both), nred))
sys.exit(0 if both and nred >= 2 and orange in t else 1)
EOT
done_testing
