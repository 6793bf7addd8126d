#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a change sequence whose steps are real routine variants
# through cusezero daemons (FUSE) and pread_z100k, judged in device: the
# daemon's default routine for steps 0..4 and a slower one from step 5 on
# (see $slow), as a patch that slows the loop down and stays in the
# series.  zab bisect names step 5 (exit 0); an A/A
# sequence (the default routine at every step) has no change (exit 1);
# history --by series over one sweep of every step flags step 5 alone;
# bisect --stored on that sweep runs nothing and names step 5, or, where
# the sweep's sessions cannot show a step the same as the base within 2%,
# says undecided with a range holding step 5 (exit 125) -- or, where two
# sessions leave even step 8 against the base undecided (Student t with one
# degree of freedom: an interval of +-12.7 standard errors), undecided over
# the whole sequence -- never another step and never "no change".
# The band is 5%: the non-temporal routine's sessions spread by 3-4% on a
# loaded machine, so that step 8 vs step 5 (the same code) took 32
# sessions to stay undecided within +-2%; the change hunted is -40%.
# Needs: root fuse
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -n "$PREAD_Z100K" ] && [ -x "$PREAD_Z100K" ] || skip_all "pread_z100k not built (\$PREAD_Z100K='$PREAD_Z100K')"
[ -n "$CUSEZERO" ] && [ -x "$CUSEZERO" ] || skip_all "cusezero not built (\$CUSEZERO='$CUSEZERO')"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
TMPDIR=$CZ_TMP; export TMPDIR	# zab's mount points: this test's own
unset CUSEZERO_STORE
url="sqlite:$CZ_TMP/d.db"

# The planted routine: one slower than the default on every CPU.  The C
# store loop is several times slower than rep stosb where FSRM makes that
# fast, but on a CPU without ERMS/FSRM the default is a movq loop and the C
# loop as fast (measured: 212 vs 217 ns per 4 KiB): on x86-64 the
# non-temporal routine (movnti + sfence, 1.6 times the default there, more
# beside a fast rep stosb) is slower on both.
slow=c_store_loop
[ "$ZERO_ARCH" = x86_64 ] && slow=nt
# dev_seq FILE NAME PLANT: steps 0..8, $slow from step PLANT (0: never)
dev_seq() {
	{
		printf '[experiment]\nname = %s\nsessions = 2\nwarmups = 1\nrepeats = 3\n\n' "$2"
		printf '[benchmark pread]\ncmd = %s --format simple -s 100KB -n 500 {dev}\n' "$PREAD_Z100K"
		printf 'unit = bytes/sec\nbetter = higher\n'
		for k in 0 1 2 3 4 5 6 7 8; do
			r=default
			[ "$3" -gt 0 ] && [ "$k" -ge "$3" ] && r=$slow
			printf '\n[variant s@%d]\nroutine = %s\n' "$k" "$r"
		done
	} >"$1"
}
dev_seq "$CZ_TMP/plant.ini" devplant 5
dev_seq "$CZ_TMP/aa.ini" devaa 0

"$ZAB" bisect --store "$url" --sut dev --seed 1 --band 5 --cusezero "$CUSEZERO" "$CZ_TMP/plant.ini" \
	>"$CZ_TMP/p.out" 2>"$CZ_TMP/p.err"
rc=$?
ok "planted at step 5: exit $rc, $(cat "$CZ_TMP/p.out")" -- sh -c "[ $rc -eq 0 ] &&
	grep -qx 'first change: step 5/8 s@5: -[0-9.]*% (R) in device on dev' '$CZ_TMP/p.out'"
"$ZAB" bisect --store "$url" --sut dev --seed 2 --band 5 --cusezero "$CUSEZERO" "$CZ_TMP/aa.ini" \
	>"$CZ_TMP/a.out" 2>"$CZ_TMP/a.err"
rc=$?
ok "A/A sequence: exit $rc, $(cat "$CZ_TMP/a.out")" -- sh -c "[ $rc -eq 1 ] &&
	grep -q '^no change on dev: step 8/8' '$CZ_TMP/a.out'"
"$ZAB" run "$CZ_TMP/plant.ini" --store "$url" --sut sweep --seed 3 --cusezero "$CUSEZERO" \
	--no-progress >/dev/null 2>"$CZ_TMP/err" || { echo "Bail out! sweep: $(tail -1 "$CZ_TMP/err")"; exit 1; }
"$ZAB" history --store "$url" --experiment devplant --by series --sut-class sweep \
	--export-csv "$CZ_TMP/h.csv" >"$CZ_TMP/h.txt" 2>&1
flags=$(awk -F, 'NR > 1 && $NF != "" { print $2 ":" $NF }' "$CZ_TMP/h.csv" | tr '\n' ' ')
ok "history --by series over the sweep: step 5 alone flagged ($flags)" -- [ "$flags" = "5:R " ]
"$ZAB" bisect --store "$url" --sut sweep --stored "$CZ_TMP/plant.ini" >"$CZ_TMP/s.out" 2>"$CZ_TMP/s.err"
rc=$?
lo=$(sed -n 's/.*the first change is in steps \([0-9]*\)\.\.\([0-9]*\)$/\1/p' "$CZ_TMP/s.out")
hi=$(sed -n 's/.*the first change is in steps \([0-9]*\)\.\.\([0-9]*\)$/\2/p' "$CZ_TMP/s.out")
ok "bisect --stored on the sweep: step 5 or a range holding it, nothing run ($(cat "$CZ_TMP/s.out"))" -- sh -c "
	grep -q ' 0 runs made' '$CZ_TMP/s.err' && { { [ $rc -eq 0 ] && grep -q '^first change: step 5/8' '$CZ_TMP/s.out'; } ||
	{ [ $rc -eq 125 ] && [ '${lo:-9}' -le 5 ] && [ '${hi:-0}' -ge 5 ]; } ||
	{ [ $rc -eq 125 ] && grep -q '^undecided on sweep: step 8/8 ' '$CZ_TMP/s.out'; }; }"
done_testing
