#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: names stored with a run never reach gnuplot as commands.
# Runs whose benchmark, unit, variant and SUT class names hold gnuplot
# command substitution (`touch M`), a quote breaking out with system(),
# a macro (@), $(...), a newline followed by a command, a name of 5000
# bytes, are stored; zab report --html, report --plot (every figure) and
# history --html/--plot draw them, and no marker file may appear.  As
# root, the store is built by user nobody in a folder nobody owns and root
# draws it (the attack the quoting let through: another user's store
# drawn by root).
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): the figures need it"
command -v python3 >/dev/null || skip_all "python3 not found (writes the planted names)"
unset CUSEZERO_STORE

# build_store DIR: runs of seven SUT classes (one per planted name), two kernels each, in
# DIR/s.db; each name holds PLANT at first, replaced in the result file
build_store() {
	d=$1
	for i in 1 2 3 4 5 6 7; do
		"$ZAB" run -b "xPLANT=$FAKE --sd 0.01 --mean 10" --unit uPLANT -v aPLANT \
			-v "bPLANT:FAKE_SCALE=1.3" -S 2 -R 3 --seed 7 --name team --no-progress --no-store \
			--kernel-ref no --sut cPLANT --sut-name h1 --json "$d/r$i.json" >/dev/null 2>&1
		for k in 6.1.0 6.6.0; do
			python3 - "$d/r$i.json" "$d/r$i-$k.json" "$k" "$d/m.$i" "$i" <<'EOT'
import json, sys, uuid
src, dst, kernel, m, i = sys.argv[1:]
plant = ['`touch M`', '"; system("touch M"); print "', "' . system('touch M') . '",
         '\\" . system("touch M") . "\\', '\nsystem("touch M")\n`touch M`\n', '\r`touch M` @M $(touch M)', 'L' * 5000 + '`touch M`'][int(i) - 1]
d = json.load(open(src))
d['environment']['kernel'] = kernel
d['run']['uuid'] = str(uuid.uuid4())
t = json.dumps(d).replace('PLANT', json.dumps(plant.replace('M', m))[1:-1])
open(dst, 'w').write(t)
EOT
		done
	done
	"$ZAB" store import --store "sqlite:$d/s.db" "$d"/r*-*.json >/dev/null 2>"$d/err" ||
		diag "import: $(cat "$d/err")"
}

# draw DIR: every page and figure of the store in DIR
draw() {
	d=$1
	shift
	"$@" "$ZAB" report --store "sqlite:$d/s.db" --experiment team --html "$d/out/report.html" \
		>/dev/null 2>"$d/out/err"
	ok "report --html: a page" -- test -s "$d/out/report.html"
	for fig in change runs order runs-2 order-2; do
		"$@" "$ZAB" report --store "sqlite:$d/s.db" --experiment team --plot "$d/out/$fig.svg" \
			--figure "$fig" >/dev/null 2>>"$d/out/err"
	done
	ok "report --plot: the change figure drawn" -- test -s "$d/out/change.svg"
	"$@" "$ZAB" history --store "sqlite:$d/s.db" --experiment team --by kernel --html "$d/out/history.html" \
		>/dev/null 2>>"$d/out/err"
	ok "history --html: a page" -- test -s "$d/out/history.html"
	"$@" "$ZAB" history --store "sqlite:$d/s.db" --experiment team --by kernel --plot "$d/out/h.png" \
		>/dev/null 2>>"$d/out/err"
	ok "history --plot: a PNG" -- test -s "$d/out/h.png"
	ok "no planted command ran (no marker file)" -- sh -c "! ls '$d' | grep -q '^m\.'"
	ls "$d" | grep '^m\.' | sed 's/^/# ran: /'
}

mkdir "$CZ_TMP/u" "$CZ_TMP/u/out"
build_store "$CZ_TMP/u"
ok "the runs are stored" -- test -s "$CZ_TMP/u/s.db"
draw "$CZ_TMP/u"

# --- another user's store, drawn by root -------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	skip "not root: another user's store drawn by root not checked"
elif ! nobody=$(id -u nobody 2>/dev/null); then
	skip "no user nobody: another user's store drawn by root not checked"
else
	as_nobody() { setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups "$@"; }
	chmod 755 "$CZ_TMP"
	mkdir "$CZ_TMP/n" && chown nobody "$CZ_TMP/n"
	mkdir "$CZ_TMP/n/out"
	as_nobody env HOME="$CZ_TMP/n" sh -c "$(type build_store | sed 1d); ZAB='$ZAB' FAKE='$FAKE'; diag() { :; }; build_store '$CZ_TMP/n'"
	ok "nobody's runs are stored in nobody's folder" -- sh -c "[ \$(stat -c %u '$CZ_TMP/n/s.db') = $nobody ]"
	draw "$CZ_TMP/n"
fi
done_testing
