#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench kernel prints the running kernel's clear_user per 4 KiB
# chunk (the slope of pread on /dev/zero), a row for every usable routine, the
# THP line (measured or why not) and the closest routine, one of the
# registry's, with its distance and direction; --format simple is one positive number, --format json parses
# with consistent figures; --device measures a zero file and refuses one that
# is not; bad options are one line and exit 2.  No timing thresholds: the
# figures are only checked to be positive, finite and consistent.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

if perl -MJSON::PP -e 1 2>/dev/null; then
	json() { perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); '"$1" <"$2"; }
else
	json() { skip "no perl JSON::PP to read $2"; return 1; }
fi

# The usable routines, as zbench kernel -f help lists them.
"$ZBENCH" kernel -f help >"$CZ_TMP/help" 2>&1
ok "-f help: exit 0, lists routines" -- grep -q '^	rep_stosb ... \|^	c_store_loop ... ' "$CZ_TMP/help"
sed -n 's/^	\([a-z0-9_]*\) \.\.\. .*/\1/p' "$CZ_TMP/help" | sort >"$CZ_TMP/routines"
nr=$(wc -l <"$CZ_TMP/routines")

# ---- the table ----------------------------------------------------------------
"$ZBENCH" kernel -r 7 >"$CZ_TMP/t" 2>"$CZ_TMP/te"
rc=$?
ok "default format: exit $rc" -- test "$rc" -eq 0
ok "default format: nothing on stderr" -- test ! -s "$CZ_TMP/te"
num='[0-9]+\.[0-9]{2}'
ok "a kernel row with a figure and its interval" -- \
	grep -Eq "^kernel clear_user \(/dev/zero\) +$num +\[ *-?$num, +$num\]\$" "$CZ_TMP/t"
rows=$(while read -r r; do grep -Ec "^$r +$num +\[ *-?$num, +$num\] +$num\$" "$CZ_TMP/t"; done \
	<"$CZ_TMP/routines" | grep -c '^1$')
ok "a row with its ratio for each of the $nr usable routines ($rows)" -- test "$rows" -eq "$nr"
ok "the THP line: measured, or why not" -- \
	grep -Eq "^kernel 2 MiB THP fault, per page +($num +\[|not measured: .+)" "$CZ_TMP/t"
closest=$(sed -n "s/^# closest: \([a-z0-9_]*\), [0-9.]*% \(faster\|slower\) than the kernel; \(in\|out\)side the kernel's 95% interval\$/\1/p" "$CZ_TMP/t")
ok "the closest routine ('$closest') is one of the registry's" -- \
	grep -qx "$closest" "$CZ_TMP/routines"
slope=$(sed -n 's/^kernel clear_user (\/dev\/zero) *\([0-9.]*\) .*/\1/p' "$CZ_TMP/t")
ok "the slope ($slope ns per chunk) is positive" -- awk -v s="$slope" 'BEGIN { exit !(s > 0) }'

# two of this architecture's routines (rep_stosb is x86-64's only), and one left out
r1=$(sed -n 1p "$CZ_TMP/routines") r2=$(sed -n 2p "$CZ_TMP/routines") r3=$(sed -n 3p "$CZ_TMP/routines")
"$ZBENCH" kernel -r 5 --no-thp -f "$r1,$r2" >"$CZ_TMP/n" 2>&1
ok "--no-thp -f $r1,$r2: two routine rows, THP not measured" -- sh -c "
	grep -q '^kernel 2 MiB THP fault, per page *not measured: not asked for' '$CZ_TMP/n' &&
	[ \$(grep -Ec '^($r1|$r2) ' '$CZ_TMP/n') -eq 2 ] && ! grep -q '^$r3 ' '$CZ_TMP/n'"

# ---- simple ---------------------------------------------------------------------
"$ZBENCH" --format simple kernel -r 5 >"$CZ_TMP/s" 2>&1
rc=$?
ok "--format simple: exit $rc, one positive finite number ('$(head -n 2 "$CZ_TMP/s" | tr '\n' ' ')')" -- \
	sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$CZ_TMP/s') -eq 1 ] &&
	       grep -Eqx '[0-9]+\.[0-9]{2}' '$CZ_TMP/s' && awk '{ exit !(\$1 > 0) }' '$CZ_TMP/s'"

# ---- JSON -------------------------------------------------------------------------
zf=$CZ_TMP/zero.bin
truncate -s 1M "$zf"        # reads as zeroes: a zero device for --device
"$ZBENCH" kernel --json -r 7 -s 16KB,64KB,256KB --device "$zf" >"$CZ_TMP/j" 2>"$CZ_TMP/je"
rc=$?
ok "--json: exit $rc, nothing on stderr" -- sh -c "[ $rc -eq 0 ] && ! [ -s '$CZ_TMP/je' ]"
if json 'exit 0' "$CZ_TMP/j"; then
	# finite positive slope inside its interval; sizes and rounds as asked
	ok "JSON: kernel figure positive, inside its CI; 3 sizes, 7 rounds" -- json '
		my $k = $j->{kernel};
		exit !($k->{ns_per_chunk} > 0 && $k->{ns_per_chunk} < 1e9 &&
		       $k->{ci_lo} <= $k->{ns_per_chunk} && $k->{ns_per_chunk} <= $k->{ci_hi} &&
		       @{$j->{sizes}} == 3 && $j->{rounds} == 7 && $k->{rounds} == 7)' "$CZ_TMP/j"
	ok "JSON: the $nr usable routines, each ratio its figure over the kernel's" -- json '
		my ($bad, $k) = (0, $j->{kernel}{ns_per_chunk});
		for my $r (@{$j->{routines}}) {
			$bad++ unless $r->{ns_per_chunk} > 0 &&
				abs($r->{ratio} - $r->{ns_per_chunk} / $k) < 1e-3 * $r->{ratio} + 1e-3;
		}
		exit !($bad == 0 && @{$j->{routines}} == '"$nr"')' "$CZ_TMP/j"
	c=$(json 'print $j->{closest}' "$CZ_TMP/j")
	ok "JSON: closest '$c' is a registry routine, its ratio the one in its row" -- sh -c "
		grep -qx '$c' '$CZ_TMP/routines' && perl -MJSON::PP -e 'local \$/; my \$j = decode_json(<STDIN>);
		my (\$r) = grep { \$_->{routine} eq \$j->{closest} } @{\$j->{routines}};
		exit !(\$r && \$r->{ratio} == \$j->{ratio})' <'$CZ_TMP/j'"
	ok "JSON: thp measured (faults, ns_per_page > 0) or skipped with a reason" -- json '
		my $t = $j->{thp};
		exit !($t->{mode} ne "" && (($t->{faults} > 0 && $t->{ns_per_page} > 0) || $t->{skipped} ne ""))' \
		"$CZ_TMP/j"
	ok "JSON: the --device file measured, its ratio its figure over the kernel's" -- json '
		my $d = $j->{device};
		exit !($d->{path} eq "'"$zf"'" && $d->{ns_per_chunk} =~ /^-?[0-9.e+-]+$/ &&
		       abs($d->{ratio} - $d->{ns_per_chunk} / $j->{kernel}{ns_per_chunk}) < 1e-3 * abs($d->{ratio}) + 1e-3)' \
		"$CZ_TMP/j"
fi

# ---- devices that are not zero devices --------------------------------------------
head -c 300000 /dev/urandom >"$CZ_TMP/rand"
"$ZBENCH" kernel -r 3 --device "$CZ_TMP/rand" >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "--device of random bytes: exit $rc (1), one line naming it ($(cat "$CZ_TMP/e"))" -- sh -c "
	[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'rand: byte 0 = .*not zeroes' '$CZ_TMP/e'"
"$ZBENCH" kernel -r 3 --device "$CZ_TMP/absent" >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "--device of a missing file: exit $rc (1), one line ($(cat "$CZ_TMP/e"))" -- sh -c "
	[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'absent: No such file' '$CZ_TMP/e'"

# /dev/zero replaced (as cusezero run does in its namespace): not the kernel's, refused.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c "mount --bind '$zf' /dev/zero && exec '$ZBENCH' kernel -r 3" \
		>"$CZ_TMP/o" 2>"$CZ_TMP/e"
	rc=$?
	ok "/dev/zero not char 1:5: exit $rc (1), one line ($(cat "$CZ_TMP/e"))" -- sh -c "
		[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] &&
		grep -q 'not the kernel.s zero device (character device 1:5' '$CZ_TMP/e'"
else
	skip "/dev/zero replaced in a mount namespace: needs root and unshare -m"
fi

# ---- bad options: one line, exit 2, nothing on stdout --------------------------------
bad() {
	what=$1
	shift
	"$ZBENCH" "$@" >"$CZ_TMP/o" 2>"$CZ_TMP/e"
	rc=$?
	ok "$what: exit $rc (2), one line: $(cat "$CZ_TMP/e")" -- sh -c "
		[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && ! [ -s '$CZ_TMP/o' ]"
}
bad "--rounds 2" kernel --rounds 2
bad "--rounds x" kernel -r x
bad "one size" kernel --sizes 16KB
bad "a size not a multiple of 4KB" kernel -s 3KB,8KB
bad "a size twice" kernel -s 16KB,16KB
bad "a size over 16MB" kernel -s 16KB,32MB
bad "nine sizes" kernel -s 4KB,8KB,12KB,16KB,20KB,24KB,28KB,32KB,36KB
bad "an unknown routine" kernel -f "$r1,no_such_routine"
bad "an unknown option" kernel --bogus
bad "a bad --format" kernel --format xml
bad "an extra argument" kernel extra
done_testing
