#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the kernel's own zeroing files, unmodified, as routines
# (zeroing/ksrc.h), from every kernel tree scripts/kernel-sources.sh
# provides (Debian's linux-source 6.1, 6.12 and 7.2):
#   - the compat layer assembles every file of both architectures and the
#     records are well formed (zeroing/kcompat/check-assemble.sh);
#   - this architecture's files (x86-64: clear_page_64.S, memset_64.S;
#     arm64: clear_user.S, clear_page.S, memset.S) pass the routine tests
#     the built-in routines pass (routines, fault, placement), with each
#     alternative both ways;
#   - fidelity: a built-in port that claims a kernel file's layout has the
#     same loop body (objdump: instructions and offsets from the loop head)
#     and the same fault returns as the file itself;
#   - a patch written here (.p2align 6 before the function) moves the loop
#     head as expected; a patch that drops a store is refused before it is
#     ever timed; bad input is one line naming the file and exit 1.
# Without kernel sources a visible SKIP (CI: a failure).
. "$top_srcdir/tests/tap.sh"

if [ -n "${CUSEZERO_KERNEL_SOURCES:-}" ]; then
	roots=$CUSEZERO_KERNEL_SOURCES
else
	roots=$(ls -d /var/cache/cusezero-ksrc/*/linux-source-* 2>/dev/null)
fi
if [ -z "$roots" ]; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: no kernel sources (scripts/kernel-sources.sh)"; exit 1; }
	skip_all "no kernel sources: scripts/kernel-sources.sh installs Debian's linux-source packages"
fi
dir=$top_builddir/tests/zeroing
if grep -q __asan_init "$dir/routines" 2>/dev/null && [ "$ZERO_ARCH" = aarch64 ]; then
	skip_all "ASan build: qemu-aarch64 cannot host ASan's shadow memory"
fi
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
# a private build cache: every file is really assembled once in this run
CUSEZERO_KSRC_CACHE=$CZ_TMP/cache; export CUSEZERO_KSRC_CACHE
case $ZERO_ARCH in
x86_64) cc=${CUSEZERO_KSRC_CC:-gcc}; od=objdump; odm=i386:x86-64 ;;
aarch64) cc=${CUSEZERO_KSRC_CC:-aarch64-linux-gnu-gcc}; od=aarch64-linux-gnu-objdump; odm=aarch64 ;;
*) skip_all "no kernel files for $ZERO_ARCH" ;;
esac
command -v "$cc" >/dev/null || skip_all "no assembler $cc"
# arm64 programs on another host run under qemu-aarch64: -cpu max has
# FEAT_MOPS (the files' MOPS alternatives patched in), cortex-a57 has not
cpus=native
if [ "$ZERO_ARCH" = aarch64 ] && [ "$(uname -m)" != aarch64 ]; then
	command -v qemu-aarch64 >/dev/null || skip_all "qemu-aarch64 not installed"
	cpus="max cortex-a57"
fi
x() {	# x PROGRAM ARGS...: run an arm64 program under -cpu $cpu where needed
	if [ "$cpu" = native ]; then
		"$@"
	elif [ "$(head -c 4 "$1" | tr -d '\177')" = ELF ]; then
		qemu-aarch64 -cpu "$cpu" "$@"
	else
		QEMU_CPU=$cpu "$@"      # test-arm64.sh's wrapper script: qemu reads QEMU_CPU
	fi
}
cpu=${cpus%% *}

# run NAME PROGRAM ARGS...: one TAP line for a whole test program.
run() {
	name=$1; shift
	"$@" >"$CZ_TMP/out" 2>&1
	rc=$?
	bad=$(grep -m 1 '^not ok\|^Bail out' "$CZ_TMP/out")
	n=$(grep -c '^ok' "$CZ_TMP/out")
	ok "$name: $n checks pass (exit $rc)${bad:+, first failure: $bad}" -- \
		eval '[ $rc -eq 0 ] && [ -z "$bad" ] && [ "$n" -gt 0 ]'
}
has() { grep -q "^SYM_[A-Z_]*FUNC_START[A-Z_]*($2)" "$1"; }

# 1. the layer: every file of both architectures assembles, records right
# shellcheck disable=SC2086
sh "$top_srcdir/zeroing/kcompat/check-assemble.sh" $roots >"$CZ_TMP/asm" 2>&1
rc=$?
ok "compat layer: every kernel file assembles, records well formed ($(grep -c ' ok' "$CZ_TMP/asm") ok, exit $rc)" -- \
	[ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$CZ_TMP/asm" | grep -v ' ok' | head -20

# 2. the routine tests on this architecture's files
for root in $roots; do
	v=$(basename "$root")
	set --
	if [ "$ZERO_ARCH" = x86_64 ]; then
		f=$root/arch/x86/lib/clear_page_64.S
		for s in rep_stos_alternative clear_user_original clear_user_rep_good clear_user_erms \
			 clear_page_rep clear_page_orig clear_page_erms __clear_pages_unrolled; do
			has "$f" "$s" && set -- "$@" --source "$f:$s"
		done
		f=$root/arch/x86/lib/memset_64.S
		if grep -q X86_FEATURE_FSRS "$f"; then
			set -- "$@" --source "$f" --alt FSRS=on --source "$f" --alt FSRS=off
		else
			set -- "$@" --source "$f" --alt ERMS=on --source "$f" --alt ERMS=off --alt REP_GOOD=off
		fi
	else
		for f in clear_user clear_page memset; do
			set -- "$@" --source "$root/arch/arm64/lib/$f.S"
		done
	fi
	for cpu in $cpus; do
		for t in routines fault placement; do
			run "$v: $t${cpu#native} on $(echo "$@" | grep -o -- '--source [^ ]*' | sed 's|.*/||' | tr '\n' ' ')" \
				x "$dir/$t" "$@"
		done
	done
	cpu=${cpus%% *}
done

# 3. fidelity: built-in ports against the kernel's files
insns() {	# insns OUT ARGS...: the loop body, "offset instruction", up to the branch back
	x "$dir/ksrc-loop" code "$@" >"$CZ_TMP/bin" 2>"$CZ_TMP/err" || return 1
	"$od" -D -b binary -m "$odm" --no-show-raw-insn "$CZ_TMP/bin" |
		awk '/^ *[0-9a-f]+:/ { sub(/^ +/, ""); sub(/[ \t]+\/\/.*/, ""); gsub(/[ \t]+/, " "); print
			if ($0 ~ / (0x)?0$/) exit }'
}
fidelity() {	# fidelity BUILTIN KERNEL-SPEC
	insns "$1" >"$CZ_TMP/la" && insns --source "$2" >"$CZ_TMP/lb"
	d=$(diff "$CZ_TMP/la" "$CZ_TMP/lb" | grep '^[<>]' | head -4 | tr '\n' ';')
	ok "fidelity: $1's loop body = ${2##*/}'s ($(wc -l <"$CZ_TMP/lb") instructions)${d:+: differs: $d}" -- \
		eval '[ -s "$CZ_TMP/la" ] && [ -z "$d" ]'
	x "$dir/ksrc-loop" faults "$1" >"$CZ_TMP/fa" 2>&1
	x "$dir/ksrc-loop" faults --source "$2" >"$CZ_TMP/fb" 2>&1
	d=$(diff "$CZ_TMP/fa" "$CZ_TMP/fb" | grep '^[<>]' | head -2 | tr '\n' ';')
	ok "fidelity: $1's fault returns = ${2##*/}'s${d:+: differ (k d returned): $d}" -- \
		[ -z "$d" ]
}
for root in $roots; do
	if [ "$ZERO_ARCH" = x86_64 ]; then
		f=$root/arch/x86/lib/clear_page_64.S
		has "$f" rep_stos_alternative && fidelity rep_stos_alternative "$f:rep_stos_alternative"
	elif grep -q 'alternative_if_not ARM64_HAS_MOPS' "$root/arch/arm64/lib/clear_user.S"; then
		# the quirk port is the path without MOPS: compare on a CPU without it
		[ "$cpus" = native ] || cpu=cortex-a57
		fidelity clear_user_arm64_quirk "$root/arch/arm64/lib/clear_user.S"
		cpu=${cpus%% *}
	fi
done

# 4. patches and refusals, on the newest tree (x86: the newest with
# clear_page_orig, which follows another function in its file: aligning it
# moves it inside the file's text; a file's first function is at the
# image's start whatever its alignment)
root=$(echo "$roots" | tr ' ' '\n' | tail -n 1)
if [ "$ZERO_ARCH" = x86_64 ]; then
	for r in $roots; do
		has "$r/arch/x86/lib/clear_page_64.S" clear_page_orig && root=$r
	done
	rel=arch/x86/lib/clear_page_64.S sym=rep_stos_alternative psym=clear_page_orig
	drop='s/^\(17:[[:space:]]*\)movq %rax,56(%rdi)/\1nop/'
else
	rel=arch/arm64/lib/clear_user.S sym=__arch_clear_user psym=__arch_clear_user
	# the dropped store is the loop's: the path without MOPS (7.x has both)
	dropalt="--alt MOPS=off"
	drop='0,/sttr[[:space:]]*xzr, \[x0\]/s/sttr[[:space:]]*xzr, \[x0\]/nop/'
fi
mkpatch() {	# mkpatch NAME SED-EXPRESSION: a unified diff a/REL -> b/REL
	mkdir -p "$CZ_TMP/a/${rel%/*}" "$CZ_TMP/b/${rel%/*}"
	cp "$root/$rel" "$CZ_TMP/a/$rel"
	sed "$2" "$root/$rel" >"$CZ_TMP/b/$rel"
	(cd "$CZ_TMP" && diff -u "a/$rel" "b/$rel") >"$CZ_TMP/$1"
}
mkpatch align.patch "s/^SYM_FUNC_START($psym)/\t.p2align 6\n&/"
x "$dir/ksrc-loop" where --source "$root/$rel:$psym" >"$CZ_TMP/w0" 2>&1
ZB_PATCHED=$(x "$ZBENCH" memset -s 64KB -l 2 --format simple --source "$root/$rel:$psym" \
	--patch "$CZ_TMP/align.patch" 2>&1)
ok "a .p2align 6 patch loads and runs (zbench memset --patch --format simple: $(echo "$ZB_PATCHED" | tail -n 1))" -- \
	sh -c "echo '$ZB_PATCHED' | tail -n 1 | grep -q '^ *[0-9][0-9.]*\$'"
# where of the patched file: a copy with the patch applied
mkdir -p "$CZ_TMP/p/${rel%/*}"
cp "$CZ_TMP/b/$rel" "$CZ_TMP/p/$rel"
x "$dir/ksrc-loop" where --source "$CZ_TMP/p/$rel:$psym" >"$CZ_TMP/w1" 2>&1
read -r _ e0 _ l0 <"$CZ_TMP/w0"
read -r _ e1 _ l1 <"$CZ_TMP/w1"
ok "the patch puts $psym at a 64-byte boundary (entry $e0 -> $e1) and its loop head moves with it ($l0 -> $l1)" -- \
	eval '[ $((e1 % 64)) -eq 0 ] && [ $((l1 - e1)) -eq $((l0 - e0)) ] && [ "$l1" -ne 0 ] &&
	      { [ "$ZERO_ARCH" != x86_64 ] || [ $((e0 % 64)) -ne 0 ]; }'
mkpatch drop.patch "$drop"
# shellcheck disable=SC2086 # $dropalt: an option and its value, or nothing
x "$ZBENCH" memset -s 64KB --source "$root/$rel:$sym" --patch "$CZ_TMP/drop.patch" ${dropalt:-} \
	>/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "a patch that drops a store is refused, never timed (exit $rc: $(cat "$CZ_TMP/e"))" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'incorrect, not measured: .*not cleared' '$CZ_TMP/e' && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"

refused() {	# refused WHAT PATTERN ZBENCH-ARGS...: exit 1, one line matching PATTERN
	what=$1 pat=$2; shift 2
	x "$ZBENCH" memset -s 4KB "$@" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "$what: exit $rc, one line: $(head -n 1 "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q -- '$pat' '$CZ_TMP/e'"
}
sed 's/^SYM_FUNC_END(/\tfoo_unknown_macro x0\n&/' "$root/$rel" >"$CZ_TMP/p/${rel##*/}"
refused "a macro the layer lacks" "${rel##*/}:[0-9]*:.*foo_unknown_macro" --source "$CZ_TMP/p/${rel##*/}:$sym"
refused "a symbol that is not there" "no symbol no_such_fn" --source "$root/$rel:no_such_fn%clear_user"
if [ "$ZERO_ARCH" = x86_64 ]; then other=arch/arm64/lib/clear_user.S; else other=arch/x86/lib/memset_64.S; fi
refused "a file of the other architecture" "architecture mismatch" --source "$root/$other"
printf -- '--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n-no such line 1\n+x\n no such line 2\n no such line 3\n' \
	"$rel" "$rel" >"$CZ_TMP/bad.patch"
refused "a patch that does not apply, its hunk shown" "does not apply to .*rejected: @@ -1,3 +1,3 @@ . -no such line 1" --source "$root/$rel:$sym" --patch "$CZ_TMP/bad.patch"
sed "s|$rel|arch/other/lib/other.S|g" "$CZ_TMP/drop.patch" >"$CZ_TMP/other.patch"
refused "a patch of another file" "changes no file ending in" --source "$root/$rel:$sym" --patch "$CZ_TMP/other.patch"
done_testing
