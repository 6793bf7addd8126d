#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every name written into a page is escaped.  Runs whose
# benchmark, unit, variant, SUT class and SUT names hold markup (<script>,
# an element with an attribute, a quote of either kind breaking out of an
# attribute, &) are stored; the pages of zab report --html, compare --html
# and history --html (every figure, its table, the SVG) must hold none of
# the planted markup raw.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): the figures need it"
command -v python3 >/dev/null || skip_all "python3 not found (writes the planted names)"
unset CUSEZERO_STORE

# PLANT in every name, replaced in the result files by markup
plant='<script>alert(1)</script><img src=x onerror=alert(2)>"><b id="x" class='"'"'y'"'"'>&amp;&'
for k in 6.1.0 6.6.0; do
	"$ZAB" run -b "xPLANT=$FAKE --sd 0.01 --mean 10" --unit uPLANT -v aPLANT -v "bPLANT:FAKE_SCALE=1.3" \
		-S 2 -R 3 --seed 7 --name team --no-progress --no-store --kernel-ref no --sut cPLANT \
		--sut-name hPLANT --json "$CZ_TMP/r.json" >/dev/null 2>&1
	python3 - "$CZ_TMP/r.json" "$CZ_TMP/r-$k.json" "$k" "$plant" <<'EOT'
import json, sys, uuid
src, dst, kernel, plant = sys.argv[1:]
d = json.load(open(src))
d['environment']['kernel'] = kernel
d['run']['uuid'] = str(uuid.uuid4())
open(dst, 'w').write(json.dumps(d).replace('PLANT', json.dumps(plant)[1:-1]))
EOT
done
"$ZAB" store import --store "sqlite:$CZ_TMP/s.db" "$CZ_TMP"/r-*.json >/dev/null 2>"$CZ_TMP/err" ||
	diag "import: $(cat "$CZ_TMP/err")"
"$ZAB" report --store "sqlite:$CZ_TMP/s.db" --experiment team --html "$CZ_TMP/report.html" >/dev/null 2>&1
ok "report --html: a page" -- test -s "$CZ_TMP/report.html"
"$ZAB" compare "$CZ_TMP/r-6.1.0.json" "$CZ_TMP/r-6.6.0.json" --html "$CZ_TMP/compare.html" >/dev/null 2>&1
ok "compare --html: a page" -- test -s "$CZ_TMP/compare.html"
"$ZAB" history --store "sqlite:$CZ_TMP/s.db" --experiment team --by kernel --html "$CZ_TMP/history.html" \
	>/dev/null 2>&1
ok "history --html: a page" -- test -s "$CZ_TMP/history.html"

for p in report compare history; do
	ok "$p.html: the names shown, escaped; no planted markup raw" -- python3 - "$CZ_TMP/$p.html" <<'EOT'
import re, sys
from html.parser import HTMLParser
t = open(sys.argv[1], encoding='utf-8', errors='replace').read()
bad = []
class P(HTMLParser):
    def handle_starttag(s, tag, attrs):
        if tag in ('script', 'img', 'b'):
            bad.append('<%s>' % tag)
        for k, v in attrs:
            if k == 'onerror' or (k, v) in (('id', 'x'), ('class', 'y')):
                bad.append('%s=%s' % (k, v))
P().feed(t)
raw = [m for m in ('<script', '<img', '<b id') if m in t]
amp = re.findall(r'&(?!(?:amp|lt|gt|quot|#39);)', t)
shown = '&lt;script&gt;alert(1)' in t or '&lt;script>alert(1)' in t
print('# elements/attributes planted: %s, raw: %s, bare &: %d, name shown: %s' % (bad, raw, len(amp), shown))
sys.exit(1 if bad or raw or amp or not shown else 0)
EOT
done
done_testing
