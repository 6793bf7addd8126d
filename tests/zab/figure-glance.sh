#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the pages' figures read at a glance, checked in the SVG
# gnuplot wrote.  A three-release sequence (rel@0..rel@2, kernel v6.1,
# v6.6, v6.12; the last 30% slower) of an in-device result class run on
# two SUT classes with long names, stored as a fleet stores them: the
# report page and the history page (--by series).  In every figure the
# plot, as gnuplot reports its bounds (the czr-plot comment after the
# SVG), spans at least a third of the width; every name of the figure's
# numbers table is on the figure whole (a tic, or a numbered key line), no
# text runs off the canvas; every point is in the colour the legend gives
# its verdict; the history figure is titled by the sequence (not rel@0),
# its x axis says "release", its y axis is ns per 4 KiB chunk (lower is
# better), and the change's size and 95% interval are written at its step
# in its verdict's colour.  The history of three kernel releases (--by
# kernel) the same, by "kernel release" in ns per 4 KiB, its change's
# interval from the two steps'.  A chromium screenshot of each page is not blank.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): the figures need it"
command -v python3 >/dev/null || skip_all "python3 not found (reads the SVG)"
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/s.db"

# the sequence as zab expand writes it: each step's provenance (sequence, kind, label)
{
	printf '[experiment]\nname = rel\nsessions = 4\nrepeats = 3\n\n'
	printf '[benchmark pread in-device]\ncmd = %s --sd 0.01 --mean 2e10\nbetter = higher\nunit = bytes/sec\n' "$FAKE"
	k=0
	for l in v6.1 v6.6 v6.12; do
		s=1.0
		[ $k -eq 2 ] && s=0.7
		printf '\n[variant rel@%d]\nenv.FAKE_SCALE = %s\nsequence = rel\nsequence-kind = kernel\n' $k $s
		printf 'step = %d\nsteps = 2\nlabel = %s\n' $k $l
		k=$((k + 1))
	done
} >"$CZ_TMP/seq.ini"
# two SUT classes, a run each, the benchmark's value marked in-device (bytes/sec of routine time)
for c in "Oxide Virtual Turin-like Processor:h1" \
	"AMD EPYC 9654 96-Core Processor, two sockets, SMT on, 1.5 TiB of DDR5 in NPS4, boost off:h2"; do
	"$ZAB" run -e "$CZ_TMP/seq.ini" --sut "${c%%:*}" --sut-name "${c#*:}" --seed 3 --no-progress \
		--no-store --kernel-ref no --json "$CZ_TMP/r-${c#*:}.json" >/dev/null 2>"$CZ_TMP/err" ||
		diag "run: $(tail -n 1 "$CZ_TMP/err")"
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for b in d['benchmarks']:
    b['source'] = 'device: bytes per second of routine time'
json.dump(d, open(sys.argv[1], 'w'))" "$CZ_TMP/r-${c#*:}.json"
done
"$ZAB" store import --store "$url" "$CZ_TMP"/r-h*.json >/dev/null 2>"$CZ_TMP/err" ||
	diag "import: $(cat "$CZ_TMP/err")"
"$ZAB" report --store "$url" --experiment rel --html "$CZ_TMP/report.html" >/dev/null 2>"$CZ_TMP/err"
ok "report --html of two SUT classes: exit $?" -- test -s "$CZ_TMP/report.html"
"$ZAB" history --store "$url" --experiment rel --by series --html "$CZ_TMP/history.html" \
	>/dev/null 2>"$CZ_TMP/err"
ok "history --by series --html of the three releases: exit $?" -- test -s "$CZ_TMP/history.html"

# figcheck PAGE: every figure of the page as the description says
figcheck() {
	python3 - "$@" <<'EOT'
import html, re, sys
page = open(sys.argv[1]).read()
bad = []
def num(s):
    return float(s)
def colour(s):
    return re.sub(r'\s', '', s)
figs = re.findall(r'<figure class="czr-fig"[^>]*data-figure="([^"]*)">(.*?)</figure>', page, re.S)
if not figs:
    bad.append('no figure')
for name, body in figs:
    svg = body[:body.find('</svg>') + 6]
    m = re.search(r'<!-- czr-plot xmin=(\S+) xmax=(\S+) ymin=(\S+) ymax=(\S+) width=(\S+) height=(\S+) -->', body)
    if not m:
        bad.append('%s: no plot bounds' % name)
        continue
    x0, x1, y0, y1, w, h = map(num, m.groups())
    print('# %s: plot %.0f of %.0f px wide, %.0f of %.0f high' % (name, x1 - x0, w, y1 - y0, h))
    if x1 - x0 < w / 3 or y1 - y0 < 100:
        bad.append('%s: plot %.0fx%.0f of %.0fx%.0f' % (name, x1 - x0, y1 - y0, w, h))
    # the texts, where they are: x, y, anchor, size, text
    texts = [(num(x), num(y), num(r or '0') % 360, a, num(sz), html.unescape(t)) for x, y, r, sz, a, t in re.findall(
        r'translate\(([\d.]+),([\d.]+)\)(?: rotate\((-?[\d.]+)\))?"[^>]*font-size="([\d.]+)"[^>]*'
        r'text-anchor="(\w+)">\s*<text[^>]*>([^<]*)</text>', svg)]
    for x, y, r, a, sz, t in texts:
        # no character narrower than 0.45 of the font size: a text wider than the canvas is caught
        tw = 0.45 * sz * len(t)
        if r == 0:
            at, lim, ext = x, w, {'start': (0, tw), 'end': (-tw, 0), 'middle': (-tw / 2, tw / 2)}[a]
        elif r in (90, 270):   # upright: down from y (90), up from it (270)
            s = 1 if r == 90 else -1
            at, lim, ext = y, h, {'start': (0, s * tw), 'end': (-s * tw, 0), 'middle': (-tw / 2, tw / 2)}[a]
        else:
            bad.append('%s: text %r turned by %g' % (name, t, r))
            continue
        lo, hi = at + min(ext), at + max(ext)
        if lo < 0 or hi > lim:
            bad.append('%s: text %r runs off the canvas (%.0f..%.0f of %.0f)' % (name, t, lo, hi, lim))
    words = [t for x, y, r, a, sz, t in texts]
    # the numbered key: "K  name", continuation lines indented
    key, k = {}, None
    for t in words:
        mk = re.match(r'^(\d+)  (.*)$', t)
        if mk:
            k = mk.group(1)
            key[k] = mk.group(2)
        elif t.startswith('    ') and k:
            key[k] += ' ' + t.strip()
    table = body[body.find('</svg>'):]
    rows = [html.unescape(r) for r in re.findall(r'<tr><td>([^<]*)</td>', table)]
    for r in rows:
        if r not in words and r not in key.values():
            bad.append('%s: %r not on the figure whole' % (name, r))
    # the legend's colours and the points' (pt 7: #gpPt6, the legend's sample after its text)
    legend = {}
    for v, t in (('R', '(R) worse'), ('I', '(I) better'), ('', 'no difference')):
        mt = re.search(r'<text[^>]*>%s</text>' % re.escape(html.escape(t, quote=False)), svg)
        mc = re.compile(r"#gpPt6'[^>]*color='([^']*)'").search(svg, mt.end()) if mt else None
        if mc:
            legend[v] = colour(mc.group(1))
    pts = [colour(c) for c in re.findall(r"#gpPt6'[^>]*color='([^']*)'", svg)]
    marks = re.findall(r'<td class="(\w*)">([^<]*)</td></tr>', table)
    if legend and marks:
        for v in ('R', 'I', ''):
            want = sum(1 for c, t in marks if c == v or (c == 'C' and t == ('change (%s)' % v if v else 'change')))
            got = pts.count(legend.get(v, '?')) - 1
            print('# %s: %s points %d, table rows %d' % (name, v or 'no difference', got, want))
            if got != want:
                bad.append('%s: %d points in the colour of %r, the table has %d' % (name, got, v, want))
    if name.startswith('history'):
        xl, yl, title = sys.argv[2:5]
        if xl not in words or yl not in words or 'series' in words:
            bad.append('%s: axes not %r, %r: %s' % (name, xl, yl, [t for t in words if 'release' in t or 'ns' in t or 'series' in t]))
        if not any(t.endswith(title) for t in words) or any('rel@' in t for t in words):
            bad.append('%s: not titled %r' % (name, title))
        notes = [(t, f) for f, t in re.findall(r'fill="([^"]*)"[^>]*>\s*<text[^>]*>([^<]*)</text>', svg)
                 if re.fullmatch(r'[+-]\d+\.\d% \[[+-]\d+\.\d, [+-]\d+\.\d\] \((R|I)\)', t)]
        print('# %s: notes %s' % (name, notes))
        if len(notes) != 1 or not notes[0][0].startswith(sys.argv[5]) or \
           colour(notes[0][1]) != legend.get(notes[0][0][-2], '?'):
            bad.append('%s: the change (time per chunk up) not written at its step in its colour' % name)
for b in bad:
    print('# ' + b)
sys.exit(1 if bad else 0)
EOT
}
ok "report page: every figure's plot a third of its width, names whole, colours as the legend" -- \
	figcheck "$CZ_TMP/report.html" - - - -
ok "history page: the same; by release, in ns per 4 KiB, the change written at its step" -- \
	figcheck "$CZ_TMP/history.html" release "ns per 4 KiB chunk of routine time (lower is better)" \
	": pread in-device / rel, by release" +

# history --by kernel of three releases of an in-device rate, 30% higher from 6.12 (time per
# chunk 23% lower): the change and its interval at 6.12
for k in 6.1.0 6.6.0 6.12.0; do
	s=1.0
	[ "$k" = 6.12.0 ] && s=1.3
	"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" -v a -v "c:FAKE_SCALE=$s" --base c -S 3 -R 3 --seed 7 \
		--name hist --no-progress --no-store --kernel-ref no --sut zen --json "$CZ_TMP/k.json" >/dev/null 2>&1
	python3 -c "
import json, sys, uuid
d = json.load(open(sys.argv[1]))
d['environment']['kernel'] = sys.argv[2]
d['run']['uuid'] = str(uuid.uuid4())
for b in d['benchmarks']:
    b['source'] = 'device: bytes per second of routine time'
json.dump(d, open(sys.argv[1], 'w'))" "$CZ_TMP/k.json" "$k"
	"$ZAB" store import --store "$url" "$CZ_TMP/k.json" >/dev/null 2>&1
done
"$ZAB" history --store "$url" --experiment hist --by kernel --variant c --html "$CZ_TMP/kernels.html" \
	>/dev/null 2>"$CZ_TMP/err"
ok "history --by kernel --html: exit $?" -- test -s "$CZ_TMP/kernels.html"
ok "by kernel: the same; by kernel release, in ns per 4 KiB, the change and its interval at 6.12" -- \
	figcheck "$CZ_TMP/kernels.html" "kernel release" "ns per 4 KiB chunk of routine time (lower is better)" \
	"zen: x / c, by kernel release" -

# --- a glance in the browser: the screenshot is not blank -------------------------------
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	skip "chromium not installed (Debian: apt-get install chromium; CI installs it): no screenshot"
	done_testing
	exit
fi
# colours PNG: how many colours the (8-bit RGB or RGBA, not interlaced) PNG holds, at most 3
colours() {
	python3 - "$@" <<'EOT'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
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
raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
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
        seen.add(bytes(line[x:x + 3]))
    if len(seen) > 2:
        break
    prev = line
print(len(seen))
EOT
}
for p in report history; do
	rm -rf "$CZ_TMP/ud"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$CZ_TMP/ud" --host-resolver-rules="MAP * ~NOTFOUND" --window-size=900,700 \
		--hide-scrollbars --screenshot="$CZ_TMP/$p.png" "file://$CZ_TMP/$p.html" >/dev/null 2>&1
	n=$(colours "$CZ_TMP/$p.png" 2>"$CZ_TMP/err")
	ok "$p page: a chromium screenshot, not one colour (${n:-none}$(head -c 200 "$CZ_TMP/err"))" -- \
		test "${n:-0}" -gt 1
done
done_testing
