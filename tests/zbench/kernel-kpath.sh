#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench kernel resolves the running kernel's own clear_user
# path (zeroing/kpath.h) from its release's tree, else the nearest release
# below it, says which, and measures that routine beside the kernel: the
# "# closest:" and "# resolved" lines' per cent, direction, interval and
# verdict are recomputed here from the rows the same run printed (agrees
# inside the kernel's interval; agrees when no clear_user routine told
# apart from it lies between it and the kernel; else DISAGREES naming that
# routine); a forced what-if (--alt FSRS=on / off) is said assumed and
# judged by the same rule, so a forced path the data contradicts shows
# DISAGREES; JSON carries the same; with folders of made-up trees the pick
# names the release (own tree, or nearest below) and the resolution's
# failure is one comment line; a bad --alt is one line, exit 2.  No timing
# thresholds: the wording is checked against the figures printed.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"
command -v perl >/dev/null || skip_all "no perl"
# The running kernel's path is resolved for the machine's own architecture
# (x86-64's headers): an arm64 zbench under qemu-user measures an emulator
# and takes no kernel path (it says it is emulated instead).
[ "$ZERO_ARCH" = x86_64 ] && [ "$(uname -m)" = x86_64 ] ||
	skip_all "the running kernel's path is resolved for x86-64 only (zbench: $ZERO_ARCH on $(uname -m))"

run=$(uname -r)
maj=${run%%.*} rest=${run#*.} min=${rest%%[!0-9]*}

# ---- made-up trees: the pick ---------------------------------------------------------
mk() {	# mk DIR NAME A B C: DIR/NAME/linux-source/Makefile of release A.B.C
	mkdir -p "$1/$2/linux-source" &&
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' "$3" "$4" "$5" \
		>"$1/$2/linux-source/Makefile"
}
below_maj=$maj below_min=$((min - 1))
[ "$min" -eq 0 ] && below_maj=$((maj - 1)) below_min=99
mk "$CZ_TMP/own" a "$maj" "$min" 999 && mk "$CZ_TMP/own" b "$maj" $((min + 1)) 0 &&
	mk "$CZ_TMP/own" c "$below_maj" "$below_min" 7
mk "$CZ_TMP/below" b "$maj" $((min + 1)) 0 && mk "$CZ_TMP/below" c "$below_maj" "$below_min" 7
"$ZBENCH" kernel -r 3 --no-thp -f rep_stosb --tree "$CZ_TMP/own" >"$CZ_TMP/o1" 2>&1 ||
	"$ZBENCH" kernel -r 3 --no-thp --tree "$CZ_TMP/own" >"$CZ_TMP/o1" 2>&1
ok "--tree with $maj.$min's own tree: picked, said so, then one 'not resolved' line" -- sh -c "
	grep -qx '# kernel path: $run.s own tree ($maj.$min.999)' '$CZ_TMP/o1' &&
	[ \$(grep -c '^# kernel path: not resolved: ' '$CZ_TMP/o1') -eq 1 ] && ! grep -q '^resolved ' '$CZ_TMP/o1'"
"$ZBENCH" kernel -r 3 --no-thp --tree "$CZ_TMP/below" >"$CZ_TMP/o2" 2>&1
ok "--tree without it: the nearest release below ($below_maj.$below_min.7), said so" -- \
	grep -qx "# kernel path: $below_maj.$below_min.7, the nearest release at or below $run in $CZ_TMP/below (no $maj.$min tree)" \
	"$CZ_TMP/o2"
mkdir -p "$CZ_TMP/none"
"$ZBENCH" kernel -r 3 --no-thp --tree "$CZ_TMP/none" >"$CZ_TMP/o3" 2>"$CZ_TMP/e3"
rc=$?
ok "--tree of no tree: exit $rc (0), the kernel still measured, one line why" -- sh -c "
	[ $rc -eq 0 ] && grep -q '^kernel clear_user (/dev/zero) ' '$CZ_TMP/o3' &&
	grep -qx '# kernel path: not resolved: no kernel tree of release $maj.$min or below in $CZ_TMP/none (0 trees read)' '$CZ_TMP/o3'"

"$ZBENCH" kernel --alt FSRS=maybe >"$CZ_TMP/o" 2>"$CZ_TMP/e"
rc=$?
ok "--alt FSRS=maybe: exit $rc (2), one line ($(cat "$CZ_TMP/e"))" -- sh -c "
	[ $rc -eq 2 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q 'FSRS=maybe' '$CZ_TMP/e' && ! [ -s '$CZ_TMP/o' ]"

# ---- the real trees: resolution, figures and verdicts -----------------------------------
trees=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
if [ "$(uname -m)" != x86_64 ] || ! ls "$trees"/*/linux-source-*/Makefile >/dev/null 2>&1; then
	skip "resolved path: needs x86-64 and Debian's trees in $trees (scripts/kernel-sources.sh)"
	done_testing
	exit
fi
# the clear_user routines (their flag), from the JSON
"$ZBENCH" kernel --json -r 5 --no-thp --tree "$trees" >"$CZ_TMP/j" 2>&1
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
	print "$_->{routine}\n" for grep { $_->{clear_user} } @{$j->{routines}}' <"$CZ_TMP/j" >"$CZ_TMP/cu"
ok "JSON: kpath (tree, release, how) and resolved (figure, pct, verdict) as the rule says" -- \
	perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
	my ($p, $r, $k) = ($j->{kpath}, $j->{resolved}, $j->{kernel});
	my $pct = ($r->{ns_per_chunk} / $k->{ns_per_chunk} - 1) * 100;
	exit !($p->{release} =~ /^\d+\.\d+/ && $p->{how} =~ /^\Q$p->{release}\E|own tree/ &&
	       abs($pct - $r->{pct}) < 0.02 && $r->{verdict} =~ /^(agrees|disagrees)$/ &&
	       ($r->{verdict} eq "disagrees") == defined $r->{nearer})' <"$CZ_TMP/j"

# check_verdicts FILE: the closest and resolved lines against the rows of FILE
check_verdicts() {
	perl -e '
	my ($file, $cufile) = @ARGV;
	open my $c, "<", $cufile or die; my %cu = map { chomp; ($_ => 1) } <$c>;
	open my $f, "<", $file or die; my @l = <$f>;
	my (%row, @order);
	for (@l) {
		next unless /^(.+?)\s+(-?\d+\.\d+)\s+\[\s*(-?\d+\.\d+),\s+(-?\d+\.\d+)\]/;
		$row{$1} = [$2, $3, $4]; push @order, $1;
	}
	my $k = $row{"kernel clear_user (/dev/zero)"} or die "no kernel row\n";
	my ($rl) = grep { /^resolved / } @order; die "no resolved row\n" unless $rl;
	my $r = $row{$rl};
	sub txt { my ($x, $k) = @_; my $p = ($x->[0] / $k->[0] - 1) * 100;
		return (abs($p), $p < 0 ? "faster" : "slower", $k->[1] <= $x->[0] && $x->[0] <= $k->[2] ? "inside" : "outside"); }
	sub same { my ($got, $want, $what) = @_; return 1 if $got eq $want; print STDERR "$what: got $got, want $want\n"; 0 }
	my ($cl) = grep { /^# closest: / } @l;
	my ($cn, $cp, $cd, $ci) = $cl =~ /^# closest: (\S+), ([\d.]+)% (faster|slower) than the kernel; (in|out)side/ or die "closest line: $cl";
	my @w = txt($row{$cn}, $k);
	exit 1 unless abs($cp - $w[0]) <= 0.06 && same($cd, $w[1], "closest direction") && same("${ci}side", $w[2], "closest interval");
	my ($vl) = grep { /^# resolved / } @l; die "no resolved line\n" unless $vl;
	my ($rp, $rd, $ri) = $vl =~ /\): ([\d.]+)% (faster|slower) than the kernel; (in|out)side/ or die "resolved line: $vl";
	@w = txt($r, $k);
	exit 1 unless abs($rp - $w[0]) <= 0.06 && same($rd, $w[1], "resolved direction") && same("${ri}side", $w[2], "resolved interval");
	my $want;
	if ($w[2] eq "inside") { $want = "agrees with the kernel (within its 95% interval)" }
	else {
		my @cand = grep { $_ ne $rl && !/^kernel / && !/^device / } @order;
		my @c2 = grep { $cu{$_} } @cand; @cand = @c2 if @c2;
		my ($lo, $hi) = $r->[0] < $k->[0] ? ($r->[0], $k->[0]) : ($k->[0], $r->[0]);
		my ($best, $d);
		for (@cand) { my $x = $row{$_};
			next unless $x->[2] < $r->[1] || $x->[1] > $r->[2];
			next if $x->[0] <= $lo || $x->[0] > $hi;
			($best, $d) = ($_, abs($x->[0] - $k->[0])) if !defined $d || abs($x->[0] - $k->[0]) < $d; }
		$want = defined $best ? "DISAGREES: $best, told apart from it, lies between it and the kernel"
		                      : "agrees with the kernel (no routine told apart from it lies between them)";
	}
	print STDERR "verdict: $vl" unless index($vl, $want) >= 0;
	exit(index($vl, $want) >= 0 ? 0 : 1);' "$1" "$CZ_TMP/cu" 2>&1
}

"$ZBENCH" kernel -r 7 --no-thp --tree "$trees" >"$CZ_TMP/t" 2>"$CZ_TMP/te"
rc=$?
ok "table: exit $rc, the pick and the release's summary before the rows" -- sh -c "
	[ $rc -eq 0 ] && ! [ -s '$CZ_TMP/te' ] &&
	grep -Eq '^# kernel path: ([0-9.]+, the nearest release at or below $run in .* \\(no $maj\\.$min tree\\)|$run.s own tree \\([0-9.]+\\))\$' '$CZ_TMP/t' &&
	grep -Eq '^# [0-9.]+ clear_user: (call|inline) ' '$CZ_TMP/t' && grep -Eq '^resolved [0-9.]+:clear_user +[0-9.]+ +\\[' '$CZ_TMP/t'"
diag "$(grep -E '^# (kernel path|closest|resolved)' "$CZ_TMP/t")"
out=$(check_verdicts "$CZ_TMP/t")
ok "closest and resolved lines: per cent, direction, interval, verdict as the rows say ($out)" -- \
	test -z "$out"

for f in FSRS=on FSRS=off; do
	"$ZBENCH" kernel -r 7 --no-thp --tree "$trees" --alt "$f" >"$CZ_TMP/f" 2>&1
	diag "$(grep -E '^# (assumed|resolved)' "$CZ_TMP/f")"
	out=$(check_verdicts "$CZ_TMP/f")
	ok "--alt $f: said assumed, the what-if row, its verdict as the rows say ($out)" -- sh -c "
		grep -qx '# assumed: $f (--alt): a what-if, not this kernel' '$CZ_TMP/f' &&
		grep -Eq '^resolved [0-9.]+:clear_user,$(echo "$f" | tr = -) ' '$CZ_TMP/f' && [ -z '$out' ]"
done
done_testing
