#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zab-experiment(5) documents exactly the keys zab accepts.  The
# accepted keys per section are read from tools/zab/model/experiment.c (the
# strcmp/strncmp of the key in experiment_key, bench_key and variant_key,
# and the variant's dev_keys table; a prefix "var." is the key var.NAME);
# the documented ones from the page's .TP tags under .SS [experiment],
# [benchmark NAME] and [variant NAME], and those of the annotated file in
# experiments/README.md.  Both ways, per section; then a file
# using every accepted key parses (zab run --dry-run), so a key matched
# elsewhere than these functions shows as "unknown key".
. "$top_srcdir/tests/man/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-keys.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
src=$top_srcdir/tools/zab/model/experiment.c
page=$top_srcdir/man/zab-experiment.5

# accepted FUNCTION: the keys FUNCTION in experiment.c matches.
accepted() {
	awk -v fn="$1" '
		$0 ~ "^static int " fn "\\(" { on = 1; next }
		on && /^}/ { on = 0 }
		on' "$src" >"$tmp/fn.c"
	{
		grep -oE 'strcmp\(k, "[^"]+"\)' "$tmp/fn.c" | sed 's/.*"\(.*\)".*/\1/'
		grep -oE 'strncmp\(k, "[^"]+\.", [0-9]+\)' "$tmp/fn.c" | sed 's/.*"\(.*\)".*/\1NAME/'
		sed -n '/keys\[\] = {/,/};/p' "$tmp/fn.c" | grep -oE '"[^"]+"' | tr -d '"'
	} | sort -u
}

# documented SECTION: the keys of the page's .SS SECTION, from its .TP tags.
documented() {
	awk -v sec="$1" '
		/^\.SS / { on = (substr($0, 5) == sec); next }
		/^\.S[HS]/ { on = 0 }
		on && /^\.TP/ { tag = 1; next }
		on && tag { print; tag = 0 }' "$page" |
		sed -e 's/\\-/-/g' -e 's/^\.BI \([^ ]*\) \([A-Z]*\)$/\1\2/' -e 's/^\.B[IR]\{0,1\} //' \
		    -e 's/", "/ /g' -e 's/"//g' | tr ' ' '\n' | grep . | sort -u
}

# readme_keys SECTION: the keys of experiments/README.md's ```ini file in
# [SECTION ...]; var.X and env.X as var.NAME and env.NAME.
readme_keys() {
	awk '/^```ini/ { on = 1; next } /^```/ { on = 0 } on' "$top_srcdir/experiments/README.md" |
	awk -v sec="[$1" '
		/^\[/ { on = ($1 == sec || $1 == sec "]"); next }
		!on { next }
		/^[#;]/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z][a-z.-]*[A-Za-z]=/) {
				sub(/=.*/, "", $i); print $i }
			  next }
		/=/ { print $1 }' |
	sed 's/^\(var\|env\)\.[A-Za-z_]*$/\1.NAME/' | sort -u
}

[ -f "$src" ] || skip_all "no tools/zab/model/experiment.c in $top_srcdir"
for s in "experiment_key [experiment]" "bench_key [benchmark NAME]" "variant_key [variant NAME]"; do
	fn=${s%% *}
	sec=${s#* }
	accepted "$fn" >"$tmp/code"
	documented "$sec" >"$tmp/doc"
	ok "$fn in experiment.c matches keys ($(wc -l <"$tmp/code"))" -- [ -s "$tmp/code" ]
	extra=$(comm -23 "$tmp/code" "$tmp/doc" | tr '\n' ' ')
	ok "$sec: every key zab accepts is in zab-experiment(5)${extra:+; not: $extra}" -- \
		[ -z "$extra" ]
	extra=$(comm -13 "$tmp/code" "$tmp/doc" | tr '\n' ' ')
	ok "$sec: every key zab-experiment(5) documents is accepted by $fn${extra:+; not: $extra}" -- \
		[ -z "$extra" ]
	sed 's/NAME$/X/' "$tmp/code" >"$tmp/${fn%_key}.keys"
	# experiments/README.md's annotated file: a key set in it or named as
	# "key=" in a comment of the section
	name=${sec%% *}
	name=${name#[}
	readme_keys "${name%]}" >"$tmp/readme"
	extra=$(comm -23 "$tmp/code" "$tmp/readme" | tr '\n' ' ')
	ok "$sec: every key zab accepts is in experiments/README.md's file${extra:+; not: $extra}" -- \
		[ -z "$extra" ]
	extra=$(comm -13 "$tmp/code" "$tmp/readme" | tr '\n' ' ')
	ok "$sec: every key experiments/README.md's file names is accepted by $fn${extra:+; not: $extra}" -- \
		[ -z "$extra" ]
done

# A value zab accepts for every key, in file order (patch=, alt=, kconfig=
# after source=); a key zab accepts without one here is a failure to fix here.
SAMPLES='experiment name=keys
experiment sessions=1
experiment warmups=0
experiment repeats=1
experiment retries=0
experiment timeout=0
experiment order=random
experiment colocate=auto
experiment placement=fixed
experiment verdict=overlap
experiment kernel-ref=no
experiment base=a
experiment var.X=1
experiment prepare=true
benchmark cmd=echo {X}
benchmark unit=u
benchmark better=higher
benchmark group=g
benchmark in-device=auto
benchmark measure=output
variant routine=c_store_loop
variant align=0
variant align-point=loop
variant chunk=4096
variant frontend=fuse
variant threads=1
variant cusezero-args=--sched-idle
variant source=KSRC
variant patch=KSRC.patch
variant alt=FSRS=on
variant kconfig=CONFIG_X86_64=y
variant env.X=1
variant var.X=1
variant cmd={cmd}
variant placement=fixed
variant arch=ARCH'
[ -x "$ZAB" ] || { skip "a file with every key: zab not built here"; done_testing; exit; }
: >"$tmp/ksrc.S"
: >"$tmp/ksrc.S.patch"
for sec in experiment bench variant; do
	while read -r k; do
		echo "$SAMPLES" | grep -q "^${sec%bench}[a-z]* $k=" ||
			fail "[$sec] $k: no sample value in this test's SAMPLES"
	done <"$tmp/$sec.keys"
done
{
	# (variant b has arch=: c keeps two variants where zab's machine is another)
	for sec in experiment "benchmark b" "variant a" "variant c" "variant b"; do
		echo "[$sec]"
		case $sec in "variant a"|"variant c") echo "env.X = 2"; continue ;; esac
		echo "$SAMPLES" | sed -n "s/^${sec%% *} \([^=]*\)=\(.*\)/\1 = \2/p" |
			sed -e "s|KSRC|$tmp/ksrc.S|" -e "s|ARCH|${ZERO_ARCH:-$(uname -m)}|"
	done
} >"$tmp/all"
"$ZAB" run --dry-run "$tmp/all" >/dev/null 2>"$tmp/err"
rc=$?
ok "a file with every documented key parses (zab run --dry-run: exit $rc$(head -n 1 "$tmp/err" | sed 's/^/: /'))" -- \
	[ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/all"
done_testing
