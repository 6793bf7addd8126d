#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: output files never follow a link planted at their name.
# A symbolic link at the output's name points to a 0600 file; zab report
# --html, --plot, --json, run --json, history --json, compare --json and
# --export-csv, expand -o, store export -o, and pack (its expanded copy of
# the experiment) must leave that file as it was and make the output a new
# regular file.  As root, the links are planted by user nobody in a folder
# anyone may write (not sticky, so the kernel's protected_symlinks does not
# help) and the target is root's.  A FIFO and /dev/null are still written.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
command -v gnuplot >/dev/null || skip_all "gnuplot not found (Debian: gnuplot-nox): --html and --plot need it"
unset CUSEZERO_STORE

D=$CZ_TMP/shared
mkdir -m 777 "$D" && chmod 777 "$D"
plant() { sh -c "ln -s '$CZ_TMP/victim' '$1'"; }
if [ "$(id -u)" = 0 ] && nobody=$(id -u nobody 2>/dev/null); then
	chmod 755 "$CZ_TMP"
	plant() { setpriv --reuid="$nobody" --regid="$(id -g nobody)" --clear-groups ln -s "$CZ_TMP/victim" "$1"; }
	diag "links planted by nobody ($nobody) in a folder of mode 777"
else
	diag "not root: links planted by this user"
fi

"$ZAB" run -b "x=$FAKE --sd 0.01 --mean 10" -v a -v "b:FAKE_SCALE=1.3" -S 2 -R 3 --seed 7 --name team \
	--no-progress --no-store --kernel-ref no --sut zen --json "$CZ_TMP/r.json" >/dev/null 2>&1
"$ZAB" store import --store "sqlite:$CZ_TMP/s.db" "$CZ_TMP/r.json" >/dev/null 2>&1
cat >"$CZ_TMP/exp.ini" <<EOT
[experiment]
name = links
sessions = 1
repeats = 2
[benchmark x]
cmd = $FAKE --mean 10
[variant a]
[variant b]
env.FAKE_SCALE = 1.1
EOT

# check NAME OUT -- command...: a link at OUT to the victim; the command; the victim as it was
check() {
	name=$1 out=$2
	shift 3
	printf 'secret\n' >"$CZ_TMP/victim" && chmod 600 "$CZ_TMP/victim"
	rm -f "$out"
	plant "$out"
	"$@" >"$CZ_TMP/o" 2>"$CZ_TMP/e"
	rc=$?
	if [ "$(cat "$CZ_TMP/victim")" != secret ] || [ "$(stat -c %a "$CZ_TMP/victim")" != 600 ]; then
		fail "$name: the link's target was written (exit $rc)"
	elif [ -L "$out" ] || [ ! -f "$out" ] || [ ! -s "$out" ] || [ "$rc" -ne 0 ]; then
		fail "$name: exit $rc, the output not a new regular file: $(ls -l "$out") $(head -c 300 "$CZ_TMP/e")"
	else
		pass "$name: the link's target untouched, the output a new file"
	fi
}
check "report --html" "$D/p.html" -- "$ZAB" report "$CZ_TMP/r.json" --html "$D/p.html"
check "report --plot" "$D/p.svg" -- "$ZAB" report "$CZ_TMP/r.json" --plot "$D/p.svg"
check "report --json" "$D/r.json" -- "$ZAB" report "$CZ_TMP/r.json" --json "$D/r.json"
check "run --json" "$D/run.json" -- "$ZAB" run -b "x=$FAKE --mean 10" -v a -v b -S 1 -R 2 --no-progress --no-store \
	--kernel-ref no --json "$D/run.json"
check "history --json" "$D/h.json" -- "$ZAB" history --store "sqlite:$CZ_TMP/s.db" --experiment team \
	--by kernel -j "$D/h.json"
check "compare --json" "$D/c.json" -- "$ZAB" compare "$CZ_TMP/r.json" "$CZ_TMP/r.json" --json "$D/c.json"
check "compare --export-csv" "$D/c.csv" -- "$ZAB" compare "$CZ_TMP/r.json" "$CZ_TMP/r.json" \
	--export-csv "$D/c.csv"
check "expand -o" "$D/x.ini" -- "$ZAB" expand "$CZ_TMP/exp.ini" -o "$D/x.ini"
check "store export -o" "$D/e.json" -- "$ZAB" store export --store "sqlite:$CZ_TMP/s.db" -o "$D/e.json"

# pack: its expanded copy is not made beside the bundle any more
printf 'secret\n' >"$CZ_TMP/victim" && chmod 600 "$CZ_TMP/victim"
plant "$D/bundle.expanded"
"$ZAB" pack "$CZ_TMP/exp.ini" "$D/bundle" >/dev/null 2>"$CZ_TMP/e"
rc=$?
[ "$rc" -eq 0 ] || diag "pack: $(cat "$CZ_TMP/e")"
ok "pack: exit $rc, the link at bundle.expanded left alone, its target untouched" -- \
	sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$CZ_TMP/victim')\" = secret ] && [ -L '$D/bundle.expanded' ]"

# a FIFO, /dev/null: written in place
mkfifo "$CZ_TMP/fifo"
cat "$CZ_TMP/fifo" >"$CZ_TMP/fifo.out" &
"$ZAB" report "$CZ_TMP/r.json" --json "$CZ_TMP/fifo" >/dev/null 2>"$CZ_TMP/e"
rc=$?
wait
ok "report --json FIFO: exit $rc, the JSON through the FIFO" -- \
	sh -c "[ $rc -eq 0 ] && grep -q '\"zab\"' '$CZ_TMP/fifo.out' && [ -p '$CZ_TMP/fifo' ]"
"$ZAB" report "$CZ_TMP/r.json" --json /dev/null >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "report --json /dev/null: exit $rc, /dev/null still a device" -- sh -c "[ $rc -eq 0 ] && [ -c /dev/null ]"
done_testing
