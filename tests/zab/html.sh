#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab's report pages opened in a real browser.  Each page kind
# is made from real zab runs (fakebench): a report with an offset sweep
# (change, runs, run order, layouts, sweep figures), a report over a store
# of two SUT classes (one of two SUTs) and its --by sut-class page, a
# compare, a history over kernel releases, a change sequence's history
# with its change point marked.  Each page is loaded headless by
# chromium from its file: no console message, every figure present and
# drawn in the rendered DOM, a screenshot of more than one colour with the
# verdict colours where a change is planted, and no request from the page
# to any network (chromium's net log).  Two control pages (a console error,
# an external image) must be caught by the same checks.  --plot draws one
# figure alone (SVG and PNG), and bad --plot/--figure values are refused.
# CZ_SCREENS=DIR keeps each page's screenshot there.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v python3 >/dev/null || skip_all "python3 not found (reads the DOM, the PNG and the net log)"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): the figures need it"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/s.db"

# --- the page kinds from real runs --------------------------------------------------------
cat >"$CZ_TMP/sweep" <<EOT
[experiment]
name = sweep page
sessions = 2
repeats = 8
placement = sweep:0..60:4
[benchmark x]
cmd = $FAKE --sd 0.01 --offset-effect 0.1
[variant a]
[variant b]
env.FAKE_SCALE = 1.2
EOT
"$ZAB" run "$CZ_TMP/sweep" --seed 3 --no-progress --no-store --export-zab "$CZ_TMP/sweep.json" \
	>/dev/null 2>"$CZ_TMP/err" || diag "sweep run: $(cat "$CZ_TMP/err")"
"$ZAB" report "$CZ_TMP/sweep.json" --html "$CZ_TMP/sweep.html" >/dev/null 2>"$CZ_TMP/err"
ok "report --html over a sweep: exit $?" -- test -s "$CZ_TMP/sweep.html"

# two classes, neo on two SUTs; b 1.5x on zen only, a slower time on neo
for s in neo:h1 neo:h2 zen:h3; do
	c=${s%%:*} h=${s#*:} scale=1.0
	[ "$c" = zen ] && scale=1.5
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" --unit bytes/sec -b "t=$FAKE --sd 0.01 --mean 3" \
		--unit ns --lower -v a -v "b:FAKE_SCALE=$scale" -S 2 -R 3 --seed 7 --name fleet \
		--no-progress --no-store --sut "$c" --sut-name "$h" --json "$CZ_TMP/f-$h.json" >/dev/null 2>&1
done
"$ZAB" store import --store "$url" "$CZ_TMP"/f-h*.json >/dev/null 2>"$CZ_TMP/err" ||
	diag "import: $(cat "$CZ_TMP/err")"
"$ZAB" report --store "$url" --experiment fleet --html "$CZ_TMP/fleet.html" >"$CZ_TMP/fleet.txt" 2>"$CZ_TMP/err"
ok "report --store --html over two SUT classes: exit $?" -- test -s "$CZ_TMP/fleet.html"
ok "the fleet page counts SUTs: '2 of 2 SUTs' on neo, '1 of 1 SUTs' on zen" -- \
	sh -c "grep -q 'neo: x \[bytes/sec\] / b (2 of 2 SUTs)' '$CZ_TMP/fleet.html' &&
	       grep -q 'zen: x \[bytes/sec\] / b (1 of 1 SUTs)' '$CZ_TMP/fleet.html'"
"$ZAB" report --store "$url" --experiment fleet --by sut-class --html "$CZ_TMP/byclass.html" \
	>/dev/null 2>"$CZ_TMP/err"
ok "report --by sut-class --html: exit $?" -- test -s "$CZ_TMP/byclass.html"
"$ZAB" compare "$CZ_TMP/f-h1.json" "$CZ_TMP/f-h3.json" --html "$CZ_TMP/compare.html" >/dev/null 2>"$CZ_TMP/err"
ok "compare --html: exit $?" -- test -s "$CZ_TMP/compare.html"
for k in 6.1.0 6.6.0 6.12.0 6.18.0; do
	s=1.0
	[ "$k" = 6.12.0 ] || [ "$k" = 6.18.0 ] && s=1.3
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" -v a -v "c:FAKE_SCALE=$s" --base c -S 2 -R 3 --seed 7 \
		--name hist --no-progress --no-store --sut zen --json "$CZ_TMP/h.json" >/dev/null 2>&1
	python3 -c "
import json, sys, uuid
d = json.load(open(sys.argv[1]))
d['environment']['kernel'] = sys.argv[2]
d['run']['uuid'] = str(uuid.uuid4())
json.dump(d, open(sys.argv[1], 'w'))" "$CZ_TMP/h.json" "$k"
	"$ZAB" store import --store "$url" "$CZ_TMP/h.json" >/dev/null 2>&1
done
"$ZAB" history --store "$url" --experiment hist --by kernel --variant c --html "$CZ_TMP/history.html" \
	>/dev/null 2>"$CZ_TMP/err"
ok "history --html: exit $?" -- test -s "$CZ_TMP/history.html"

# a change sequence (variants s@0..s@6, 30% slower from step 4): history --by series marks
# its change point on the figure
. "$top_srcdir/tests/zab/seqlib.sh"
SEQ_BLIP= seq_file "$CZ_TMP/seq.ini" seqpage 6 4
"$ZAB" run -e "$CZ_TMP/seq.ini" --store "$url" --sut zen --seed 3 --no-progress >/dev/null 2>"$CZ_TMP/err" ||
	diag "sequence run: $(tail -n 1 "$CZ_TMP/err")"
"$ZAB" history --store "$url" --experiment seqpage --by series --html "$CZ_TMP/series.html" \
	>/dev/null 2>"$CZ_TMP/err"
ok "history --by series --html: exit $?" -- test -s "$CZ_TMP/series.html"
ok "the series page names step 4 a change point" -- grep -q 'class="C"' "$CZ_TMP/series.html"

# --- --plot, --figure ------------------------------------------------------------------------
"$ZAB" report "$CZ_TMP/sweep.json" --plot "$CZ_TMP/one.svg" --figure sweep >/dev/null 2>&1
ok "--plot one.svg --figure sweep: an SVG with its cache lines' legend" -- \
	sh -c "grep -q '<svg' '$CZ_TMP/one.svg' && grep -q '64-byte line' '$CZ_TMP/one.svg'"
"$ZAB" history --store "$url" --experiment hist --by kernel --variant c --plot "$CZ_TMP/h.png" >/dev/null 2>&1
ok "history --plot h.png: a PNG" -- sh -c "head -c 8 '$CZ_TMP/h.png' | grep -q PNG"
"$ZAB" report "$CZ_TMP/sweep.json" --plot "$CZ_TMP/x.svg" --figure nosuch >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "--figure nosuch: exit $rc, one line listing the figures" -- \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q 'figures: change, runs' '$CZ_TMP/err'"
"$ZAB" report "$CZ_TMP/sweep.json" --plot "$CZ_TMP/x.pdf" >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "--plot x.pdf: exit $rc, one line" -- sh -c "[ $rc -eq 2 ] && grep -q \"x.pdf'\" '$CZ_TMP/err'"
"$ZAB" report "$CZ_TMP/sweep.json" --figure runs >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "--figure without --plot: exit $rc" -- sh -c "[ $rc -eq 2 ] && grep -q -- '--plot' '$CZ_TMP/err'"

"$ZAB" report "$CZ_TMP/sweep.json" --html - >/dev/null 2>"$CZ_TMP/err"
rc=$?
ok "--html -: exit $rc, one line (the tables own stdout)" -- \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q \"html '-'\" '$CZ_TMP/err'"

# --- nothing from elsewhere: no reference outside the page ------------------------------
for p in sweep fleet byclass compare history series; do
	ok "$p.html: no URL but the SVG namespaces, no script, no external src/href" -- python3 -c "
import re, sys
t = open(sys.argv[1]).read()
urls = set(re.findall(r'(?:https?|ftp|wss?)://[^\s\"\'<>)]*', t)) - {'http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink'}
refs = [r for r in re.findall(r'(?:src|href)\s*=\s*[\"\']([^\"\']*)', t) if not r.startswith('#')]
sys.exit(bool(urls or refs or '<script' in t or '@import' in t))" "$CZ_TMP/$p.html"
done

# --- the browser -------------------------------------------------------------------------------
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	skip "chromium not installed (Debian: apt-get install chromium; CI installs it): pages not opened"
	done_testing
	exit
fi
# browse PAGE OUT MODE...: chromium headless on file PAGE; OUT.log, OUT.net (net log), OUT.dom|OUT.png
browse() {
	page=$1 out=$2
	shift 2
	rm -rf "$CZ_TMP/ud"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$CZ_TMP/ud" --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr \
		--log-net-log="$out.net" --window-size=1400,2600 --hide-scrollbars "$@" "file://$page" \
		2>"$out.log"
}
# The page's own requests (net log events whose isolation key is the file's): none allowed.
netcheck() {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
bad = {e['params']['url'] for e in d.get('events', [])
       if 'url' in e.get('params', {}) and 'file://' in str(e['params'].get('network_isolation_key', ''))
       and not e['params']['url'].startswith(('file:', 'data:'))}
print('# net: ' + ' '.join(sorted(bad)))
sys.exit(1 if bad else 0)" "$1"
}
# The console: chromium logs a page's console messages as CONSOLE lines.
consolecheck() {
	! grep -E 'CONSOLE|Uncaught|net::ERR' "$1"
}
# Every figure of the page is in the rendered DOM with an SVG of at least 20 drawn elements.
domcheck() {
	python3 - "$1" "$2" <<'EOT'
import re, sys
from html.parser import HTMLParser
want = sys.argv[2].split()
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.cur = None; s.depth = 0; s.figs = {}
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == 'figure' and 'czr-fig' in (a.get('class') or ''):
            s.cur = a.get('data-figure'); s.figs[s.cur] = [0, 0]
        elif s.cur and tag == 'svg':
            s.figs[s.cur][0] += 1
        elif s.cur and tag in ('path', 'circle', 'use', 'rect', 'polyline', 'line', 'polygon'):
            s.figs[s.cur][1] += 1
    def handle_endtag(s, tag):
        if tag == 'figure':
            s.cur = None
p = P(); p.feed(open(sys.argv[1]).read())
bad = [w for w in want if w not in p.figs or p.figs[w][0] != 1 or p.figs[w][1] < 20]
print('# figures:', {k: v for k, v in p.figs.items()}, 'missing or empty:', bad)
sys.exit(1 if bad or sorted(p.figs) != sorted(want) else 0)
EOT
}
# PNG: decoded (zlib, the filters), its distinct colours; colours named as RRGGBB must appear.
pngcheck() {
	python3 - "$@" <<'EOT'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, t = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if t == b'IHDR':
        w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
        assert depth == 8 and ctype in (2, 6) and not inter, 'unexpected PNG layout'
        bpp = 3 if ctype == 2 else 4
    elif t == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, colours = zlib.decompress(idat), w * bpp, None, {}
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    prev = prev or bytearray(stride)
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        k = bytes(line[x:x + 3])
        colours[k] = colours.get(k, 0) + 1
    prev = line
need = [bytes.fromhex(c) for c in sys.argv[2:]]
missing = [c.hex() for c in need if colours.get(c, 0) < 10]
print('# %dx%d, %d colours, missing: %s' % (w, h, len(colours), missing))
sys.exit(0 if len(colours) > 1 and not missing else 1)
EOT
}

# the checks can fail: a console error and an external image are caught
printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("planted")</script></body></html>\n' \
	>"$CZ_TMP/bad-console.html"
printf '<!DOCTYPE html><html><body><img src="https://example.com/a.png"></body></html>\n' \
	>"$CZ_TMP/bad-net.html"
browse "$CZ_TMP/bad-console.html" "$CZ_TMP/bc" --dump-dom >/dev/null
if consolecheck "$CZ_TMP/bc.log" >/dev/null || ! grep -q planted "$CZ_TMP/bc.log"; then
	fail "control: the console check missed a page's console.error"
else
	pass "control: the console check sees a page's console.error"
fi
browse "$CZ_TMP/bad-net.html" "$CZ_TMP/bn" --dump-dom >/dev/null
if netcheck "$CZ_TMP/bn.net" >/dev/null; then
	fail "control: the net log check missed https://example.com/a.png"
else
	pass "control: the net log check sees https://example.com/a.png"
fi

# page FIGURES COLOURS...: the page checked in the browser
page() {
	name=$1 figs=$2
	shift 2
	f="$CZ_TMP/$name.html"
	browse "$f" "$CZ_TMP/$name" --dump-dom >"$CZ_TMP/$name.dom"
	ok "$name: loaded, no console message or network error" -- consolecheck "$CZ_TMP/$name.log"
	ok "$name: figures $figs in the rendered DOM, each drawn" -- domcheck "$CZ_TMP/$name.dom" "$figs"
	ok "$name: no request left the machine (net log)" -- netcheck "$CZ_TMP/$name.net"
	browse "$f" "$CZ_TMP/$name" --screenshot="$CZ_TMP/$name.png" >/dev/null
	ok "$name: screenshot of more than one colour${1:+, with $*}" -- pngcheck "$CZ_TMP/$name.png" "$@"
	[ -n "${CZ_SCREENS:-}" ] && mkdir -p "$CZ_SCREENS" && cp "$CZ_TMP/$name.png" "$CZ_SCREENS/$name.png" &&
		cp "$f" "$CZ_SCREENS/$name.html"
}
# 1e8449: (I) green, c0392b: (R) red
page sweep "change runs order layouts sweep" 1e8449
page fleet "change runs order runs-2 order-2" 1e8449 c0392b
page byclass "change runs order runs-2 order-2" 1e8449
page compare "change runs" 1e8449
page history "history" 1e8449
# e67e22: a change point (orange)
page series "history" e67e22
done_testing
