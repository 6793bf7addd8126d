#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: what each kernel release runs for clear_user and clear_page
# (zbench kpath, zeroing/kpath.h), read from Debian's linux-source 6.1,
# 6.12 and 7.2 trees (scripts/kernel-sources.sh):
#   - the rules still match each tree's text: the alternative site is the
#     construct expected on the line named, and each vendor rule quoted
#     (6.12 and 7.2 amd.c: FSRM implies FSRS; amd.c: REP_GOOD from family
#     0x10) is the text of the line it names;
#   - described CPUs (independent of this one) get the routine each release
#     runs: FSRM+ERMS AMD, the same with FSRS assumed off, ERMS only, none,
#     REP_GOOD off, an Intel family 6;
#   - what cannot be resolved is one line naming the release and what is
#     missing (a family-0xf AMD's K8 stepping rule, a header gone, a
#     construct not understood, a vendor file missing), exit 1;
#   - this CPU: the resolution agrees with /proc/cpuinfo, and every resolved
#     routine, inline sequences included, loads, passes the pre-use check
#     and runs in zbench memset.
# Without the trees (or their vendor files) a visible SKIP.
# Needs: none
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = x86_64 ] || skip_all "x86-64 kernel paths only (ZERO_ARCH=$ZERO_ARCH)"
base=${CUSEZERO_KSRC_TREES:-/var/cache/cusezero-ksrc}
for v in 6.1 6.12 7.2; do
	t=$base/$v/linux-source-$v
	[ -f "$t/Makefile" ] || skip_all "no $v tree in $base: scripts/kernel-sources.sh installs it"
	[ -f "$t/arch/x86/kernel/cpu/amd.c" ] ||
		skip_all "$t has no arch/x86/kernel/cpu/amd.c: run scripts/kernel-sources.sh again"
done
T61=$base/6.1/linux-source-6.1 T612=$base/6.12/linux-source-6.12 T72=$base/7.2/linux-source-7.2
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
CUSEZERO_KSRC_CACHE=$CZ_TMP/cache; export CUSEZERO_KSRC_CACHE
kp() { "$ZBENCH" kpath "$@"; }

# runs TREE PATH EXPECTED CPU-ARGS...: the summary line says EXPECTED runs
runs() {
	t=$1 p=$2 want=$3; shift 3
	got=$(kp --tree "$t" --path "$p" "$@" 2>&1 | grep -v '^#')
	v=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$t/Makefile" | paste -sd.)
	case $got in
	"$v".*" $p: $want -- "*) pass "$v $p ${*:-(this CPU)}: $want" ;;
	*) fail "$v $p $*: expected '$want', got: $got" ;;
	esac
}

# 1. the rules match the trees' text
line() { sed -n "$2p" "$1"; }
site() {	# site TREE PATH MACRO: the line named holds MACRO
	s=$(kp --tree "$1" --path "$2" -v --cpu amd:0x19 | sed -n 's/^  \(arch[^ ]*\):\([0-9]*\) .*/\1 \2/p' | head -n 1)
	ok "$1 $2: the site ${s:-(none)} holds $3" -- \
		sh -c "sed -n '${s#* }p' '$1/${s% *}' | grep -q '$3('"
}
site "$T61" clear_user ALTERNATIVE_3
site "$T612" clear_user ALTERNATIVE
site "$T72" clear_user ALTERNATIVE
site "$T61" clear_page alternative_call_2
site "$T612" clear_page alternative_call_2
site "$T72" clear_page ALTERNATIVE_2
rule() {	# rule TREE FEAT RULE-TEXT COND-TEXT: the rule quoted is the file's line
	kp --tree "$1" --cpu amd:0x19:erms,fsrm -v >"$CZ_TMP/v" 2>&1
	r=$(grep -m 1 "^  $2: arch/x86/kernel/cpu/amd.c:[0-9]*: $3 -- arch/x86/kernel/cpu/amd.c:[0-9]* if " "$CZ_TMP/v")
	n=$(echo "$r" | sed -n 's/^  [A-Z_]*: arch[^:]*:\([0-9]*\):.*/\1/p')
	c=$(echo "$r" | sed -n 's/.* -- arch[^:]*:\([0-9]*\) if .*/\1/p')
	ok "$1 $2: amd.c:${n:-?} is '$3' under amd.c:${c:-?} '$4'" -- sh -c \
		"[ -n '$n' ] && [ -n '$c' ] && sed -n '${n:-0}p' '$1/arch/x86/kernel/cpu/amd.c' | grep -qF '$3' &&
		 sed -n '${c:-0}p' '$1/arch/x86/kernel/cpu/amd.c' | grep -qF '$4'"
}
for t in "$T61" "$T612" "$T72"; do
	rule "$t" REP_GOOD "set_cpu_cap(c, X86_FEATURE_REP_GOOD);" "if (c->x86 >= 0x10)"
done
rule "$T612" FSRS "set_cpu_cap(c, X86_FEATURE_FSRS);" "if (cpu_has(c, X86_FEATURE_FSRM))"
rule "$T72" FSRS "set_cpu_cap(c, X86_FEATURE_FSRS);" "if (cpu_has(c, X86_FEATURE_FSRM))"
ok "6.12 without FSRM: the FSRS rule is named as not applying" -- \
	sh -c "kp() { \"$ZBENCH\" kpath \"\$@\"; }; kp --tree '$T612' --path clear_user --cpu amd:0x19:erms |
	       grep -q 'FSRS off (described CPU lacks it; arch/x86/kernel/cpu/amd.c:[0-9]* setting it does not apply: arch/x86/kernel/cpu/amd.c:[0-9]* if (cpu_has(c, X86_FEATURE_FSRM)) \[FSRM off'"
ok "6.12: FSRS comes from amd.c's FSRM rule, named with its line" -- \
	sh -c "kp() { \"$ZBENCH\" kpath \"\$@\"; }; kp --tree '$T612' --path clear_user --cpu amd:0x19:erms,fsrm |
	       grep -q 'FSRS on (arch/x86/kernel/cpu/amd.c:[0-9]* sets it, under arch/x86/kernel/cpu/amd.c:[0-9]* if (cpu_has(c, X86_FEATURE_FSRM))'"

# 2. described CPUs: the routine per release
zen3=amd:0x19:erms,fsrm
runs "$T61" clear_user "inline rep stosb" --cpu $zen3
runs "$T612" clear_user "inline rep stosb" --cpu $zen3
runs "$T72" clear_user "inline rep stosb" --cpu $zen3
runs "$T61" clear_page "call clear_page_erms" --cpu $zen3
runs "$T612" clear_page "call clear_page_erms" --cpu $zen3
runs "$T72" clear_page "inline rep stosb" --cpu $zen3
runs "$T61" clear_user "inline rep stosb" --cpu $zen3 --alt FSRS=off
runs "$T612" clear_user "call rep_stos_alternative" --cpu $zen3 --alt FSRS=off
runs "$T72" clear_user "call rep_stos_alternative" --cpu $zen3 --alt FSRS=off
runs "$T61" clear_user "call clear_user_erms" --cpu amd:0x19:erms
runs "$T612" clear_user "call rep_stos_alternative" --cpu amd:0x19:erms
runs "$T61" clear_user "call clear_user_rep_good" --cpu amd:0x17
runs "$T61" clear_page "call clear_page_rep" --cpu amd:0x17
runs "$T72" clear_page "inline shrq \$3, %rcx; rep stosq" --cpu amd:0x17
runs "$T61" clear_user "call clear_user_original" --cpu amd:0x17 --alt REP_GOOD=off
runs "$T612" clear_page "call clear_page_orig" --cpu amd:0x17 --alt REP_GOOD=off
runs "$T72" clear_page "call __clear_pages_unrolled" --cpu amd:0x17 --alt REP_GOOD=off
# Intel: no FSRM-implies-FSRS rule in intel.c
runs "$T61" clear_user "inline rep stosb" --cpu intel:6:erms,fsrm
runs "$T612" clear_user "call rep_stos_alternative" --cpu intel:6:erms,fsrm
runs "$T612" clear_user "inline rep stosb" --cpu intel:6:erms,fsrm,fsrs
runs "$T612" clear_page "call clear_page_erms" --cpu intel:6:erms,fsrm
# 7.2 intel.c: REP_GOOD from INTEL_PENTIUM_M_DOTHAN on (asm/intel-family.h), fast strings taken as on
runs "$T72" clear_page "inline rep stosb" --cpu intel:6/0x8f:erms,fsrm
runs "$T72" clear_page "inline shrq \$3, %rcx; rep stosq" --cpu intel:6/0x8f
runs "$T72" clear_page "call __clear_pages_unrolled" --cpu intel:6/0x9

# 3. not resolved: one line naming the release and what is missing, exit 1
refused() {	# refused DESCRIPTION PATTERN ARGS...
	d=$1 pat=$2; shift 2
	kp "$@" >"$CZ_TMP/o" 2>"$CZ_TMP/e"
	rc=$?
	ok "$d: exit $rc, one line: $(head -n 1 "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q '$pat' '$CZ_TMP/e'"
}
refused "family 0xf AMD: init_amd_k8's stepping rule" \
	'^zbench: kpath: 6\.1\.[0-9]*: arch/x86/kernel/cpu/amd.c:[0-9]*: condition not understood: (level' \
	--tree "$T61" --path clear_page --cpu amd:0xf
refused "not a tree: one line for both paths" "^zbench: kpath: $CZ_TMP/none/Makefile: No such file or directory: not a kernel tree" \
	--tree "$CZ_TMP/none" --cpu $zen3
mk() {	# mk NAME: a copy of the 6.12 tree's files the resolver reads
	mkdir -p "$CZ_TMP/$1/arch/x86/include/asm" "$CZ_TMP/$1/arch/x86/kernel/cpu" "$CZ_TMP/$1/arch/x86/lib"
	cp "$T612/Makefile" "$CZ_TMP/$1/"
	cp "$T612/arch/x86/include/asm/uaccess_64.h" "$T612/arch/x86/include/asm/page_64.h" \
		"$CZ_TMP/$1/arch/x86/include/asm/"
	cp "$T612/arch/x86/kernel/cpu/amd.c" "$CZ_TMP/$1/arch/x86/kernel/cpu/"
	cp "$T612/arch/x86/lib/clear_page_64.S" "$CZ_TMP/$1/arch/x86/lib/"
}
mk copy
runs "$CZ_TMP/copy" clear_user "inline rep stosb" --cpu $zen3
mk moved; rm "$CZ_TMP/moved/arch/x86/include/asm/uaccess_64.h"
refused "a header moved" '^zbench: kpath: 6\.12\.[0-9]*: arch/x86/include/asm/uaccess_64.h: No such file' \
	--tree "$CZ_TMP/moved" --path clear_user --cpu $zen3
mk alt4; sed -i 's/ALTERNATIVE("rep stosb",/ALTERNATIVE_4("rep stosb",/' "$CZ_TMP/alt4/arch/x86/include/asm/uaccess_64.h"
refused "a construct not understood" "^zbench: kpath: 6\\.12\\.[0-9]*: arch/x86/include/asm/uaccess_64.h:[0-9]*: __clear_user() construct not understood: ALTERNATIVE_4" \
	--tree "$CZ_TMP/alt4" --path clear_user --cpu $zen3
mk rule; sed -i 's/if (cpu_has(c, X86_FEATURE_FSRM))/if (cpu_has(c, X86_FEATURE_FSRM) \&\& fsrs_ok)/' \
	"$CZ_TMP/rule/arch/x86/kernel/cpu/amd.c"
refused "a vendor rule changed" '^zbench: kpath: 6\.12\.[0-9]*: arch/x86/kernel/cpu/amd.c:[0-9]*: condition not understood: cpu_has(c, X86_FEATURE_FSRM) && fsrs_ok' \
	--tree "$CZ_TMP/rule" --path clear_user --cpu $zen3
mk novendor; rm "$CZ_TMP/novendor/arch/x86/kernel/cpu/amd.c"
refused "no vendor file" '^zbench: kpath: 6\.12\.[0-9]*: arch/x86/kernel/cpu/amd.c: No such file.*FSRS' \
	--tree "$CZ_TMP/novendor" --path clear_user --cpu $zen3
mk feat; sed -i 's/ALT_NOT(X86_FEATURE_FSRS))/ALT_NOT(X86_FEATURE_FSRS_NEW))/' "$CZ_TMP/feat/arch/x86/include/asm/uaccess_64.h"
refused "a feature not decided here" '^zbench: kpath: 6\.12\.[0-9]*: arch/x86/include/asm/uaccess_64.h:[0-9]*: ALTERNATIVE replacement 1: X86_FEATURE_FSRS_NEW is not a feature decided here' \
	--tree "$CZ_TMP/feat" --path clear_user --cpu $zen3
mk nosym; sed -i 's/(rep_stos_alternative)/(rep_stos_other)/' "$CZ_TMP/nosym/arch/x86/lib/clear_page_64.S"
refused "the called function gone" '^zbench: kpath: 6\.12\.[0-9]*: rep_stos_alternative is defined in no arch/x86/lib/\*\.S' \
	--tree "$CZ_TMP/nosym" --path clear_user --cpu amd:0x19:erms
"$ZBENCH" kpath --tree "$T612" --cpu amd:zen >/dev/null 2>"$CZ_TMP/e"
ok "a bad --cpu: exit $?, $(cat "$CZ_TMP/e")" -- grep -q "^zbench: kpath: --cpu amd:zen: expected" "$CZ_TMP/e"

# 4. this CPU: as /proc/cpuinfo says, and every routine loads and runs
flag() { grep -m 1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -qx "$1"; }
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if [ "$vendor" = AuthenticAMD ] && flag rep_good; then
	if flag fsrm; then w61="inline rep stosb"; elif flag erms; then w61="call clear_user_erms"
	else w61="call clear_user_rep_good"; fi
	# AMD: FSRM implies FSRS from 6.3 on (cpuinfo has no fsrs flag)
	if flag fsrm; then w612="inline rep stosb"; else w612="call rep_stos_alternative"; fi
	if flag erms; then w72p="inline rep stosb"; else w72p="inline shrq \$3, %rcx; rep stosq"; fi
	runs "$T61" clear_user "$w61"
	runs "$T612" clear_user "$w612"
	runs "$T72" clear_user "$w612"
	runs "$T72" clear_page "$w72p"
else
	skip "this CPU's expectations are written for an AMD with rep_good ($vendor)"
fi
for t in "$T61" "$T612" "$T72"; do
	kp --tree "$t" --load >"$CZ_TMP/l" 2>&1
	rc=$?
	ok "$t: both paths load and pass the check on this CPU (exit $rc, $(grep -c '^  loaded: ' "$CZ_TMP/l") loaded)" -- \
		sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^  loaded: ' '$CZ_TMP/l') -eq 2 ]"
	[ $rc -eq 0 ] || sed 's/^/# /' "$CZ_TMP/l"
done
for a in "$T612 clear_user FSRS=on" "$T72 clear_page ERMS=on" "$T72 clear_page ERMS=off"; do
	set -- $a
	out=$("$ZBENCH" memset -s 64KB -l 2 --format simple --source "kpath:$1:$2" --alt "$3" 2>&1)
	ok "zbench memset --source kpath:${1##*/}:$2 --alt $3 runs: $(echo "$out" | tail -n 1)" -- \
		sh -c "echo '$out' | tail -n 1 | grep -q '^ *[0-9][0-9.]*\$'"
done

# 5. a file of a tree: its alternatives on the features its release derives
# (6.12 memset_64.S's FSRS alternative; amd.c: FSRM implies FSRS)
desc() { "$ZBENCH" memset -s 64KB -l 2 --source "$@" 2>&1 | sed -n "s/^# function '[^']*' (\(.*\))\$/\1/p"; }
d=$(desc "$T612/arch/x86/lib/memset_64.S" --alt FSRM=on)
if [ "$vendor" = AuthenticAMD ] || [ "$vendor" = HygonGenuine ]; then want="FSRS patched"; else want="FSRS kept"; fi
[ "$vendor" = HygonGenuine ] && ! grep -q X86_FEATURE_FSRS "$T612/arch/x86/kernel/cpu/hygon.c" && want="FSRS kept"
echo "$d" >"$CZ_TMP/desc"
ok "6.12 memset_64.S with FSRM assumed on: $want ($d)" -- grep -q "$want (features as the tree's release derives them)" "$CZ_TMP/desc"
cp "$T612/arch/x86/lib/memset_64.S" "$CZ_TMP/memset_64.S"
d=$(desc "$CZ_TMP/memset_64.S" --alt FSRM=on)
echo "$d" >"$CZ_TMP/desc"
ok "the same file outside a tree: features from CPUID ($d)" -- grep -q "(features from CPUID)" "$CZ_TMP/desc"
done_testing
