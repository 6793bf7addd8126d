#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-assemble.sh KERNEL_ROOT...
#
# Assembles the kernel zeroing files of every KERNEL_ROOT (a kernel source
# tree, or a directory holding exactly one linux-source-*/ tree) and the
# layer's own tests with the compat headers, exactly as the loader does,
# and checks the records each object carries (cz/records.h):
#   - cz_kextable: 16-byte entries, two R_*64 relocations each, both into
#     an executable section;
#   - cz_kalt: 24-byte entries, site relocation into an executable
#     section, repl relocation into cz_kaltinstr, feature known and
#     non-zero, site_len >= repl_len (arm64: equal).
# Also checks that bad input fails with a file:line message.
# Prints one line per assembly: "ok" with the record counts, or the first
# error.  Exit status 1 if anything failed.
#
# Environment: CC_X86 (default gcc), CC_ARM64 (aarch64-linux-gnu-gcc),
# READELF (readelf).

here=$(cd "$(dirname "$0")" && pwd)
CC_X86=${CC_X86:-gcc}
CC_ARM64=${CC_ARM64:-aarch64-linux-gnu-gcc}
READELF=${READELF:-readelf}
FLAGS="-c -x assembler-with-cpp -nostdinc -D__ASSEMBLY__ -D__KERNEL__"
INC_X86="-I$here/arch/x86_64/include -I$here/include"
INC_ARM64="-I$here/arch/aarch64/include -I$here/include"
# Non-default configurations, assembled in a second pass.
ALT_X86="-DCONFIG_MITIGATION_SLS -DCONFIG_X86_KERNEL_IBT -DCONFIG_FUNCTION_ALIGNMENT=64"
ALT_ARM64="-DCZ_NO_CONFIG_AS_HAS_MOPS -DCZ_NO_CONFIG_ARM64_BTI_KERNEL -DCONFIG_ARM64_L1_CACHE_SHIFT=7 -DCONFIG_ARM64_PAGE_SHIFT=16"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cz-kcompat.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

if [ $# -eq 0 ]; then
	echo "usage: $0 KERNEL_ROOT..." >&2
	exit 2
fi

# Bytes of section $2 of object $1 as one hex string (no spaces).
section_hex() {
	"$READELF" -x "$2" "$1" 2>/dev/null |
		awk '/^ *0x[0-9a-f]+ /{ for (i = 2; i <= 5 && i <= NF; i++)
			if ($i ~ /^[0-9a-f]+$/) printf "%s", $i }'
}

# Names of executable sections of object $1, one per line.
exec_sections() {
	"$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '{ flags = $7; if ($2 == "NOBITS" || $2 == "PROGBITS")
			if (flags ~ /X/) print $1 }'
}

# Relocations of section $2 ("offset type symbol") of object $1.
relocs() {
	"$READELF" -rW "$1" | awk -v sec="$2" '
		/^Relocation section/ { on = ($3 == "'"'"'" sec "'"'"'") ; next }
		on && /^[0-9a-f]+ / { print $1, $3, $5 }'
}

# check_records OBJ ARCH -> prints "kextable N, kalt M" or an error; rc.
check_records() {
	obj=$1 arch=$2
	case $arch in
	x86)	abs=R_X86_64_64 ;;
	*)	abs=R_AARCH64_ABS64 ;;
	esac
	execs=" $(exec_sections "$obj" | tr '\n' ' ') "

	ext=$(section_hex "$obj" cz_kextable)
	extb=$((${#ext} / 2))
	if [ $((extb % 16)) -ne 0 ]; then
		echo "cz_kextable size $extb not a multiple of 16"; return 1
	fi
	next=$((extb / 16))
	relocs "$obj" .relacz_kextable > "$tmp/r"
	if [ "$(wc -l < "$tmp/r")" -ne $((2 * next)) ]; then
		echo "cz_kextable: $next entries but $(wc -l < "$tmp/r") relocations"
		return 1
	fi
	while read -r off type sym; do
		[ "$type" = "$abs" ] || { echo "cz_kextable: relocation $type"; return 1; }
		case "$execs" in
		*" $sym "*) ;;
		*) echo "cz_kextable: entry at 0x$off points into $sym, not text"; return 1 ;;
		esac
	done < "$tmp/r"

	alt=$(section_hex "$obj" cz_kalt)
	altb=$((${#alt} / 2))
	if [ $((altb % 24)) -ne 0 ]; then
		echo "cz_kalt size $altb not a multiple of 24"; return 1
	fi
	nalt=$((altb / 24))
	relocs "$obj" .relacz_kalt > "$tmp/r"
	if [ "$(wc -l < "$tmp/r")" -ne $((2 * nalt)) ]; then
		echo "cz_kalt: $nalt entries but $(wc -l < "$tmp/r") relocations"
		return 1
	fi
	while read -r off type sym; do
		[ "$type" = "$abs" ] || { echo "cz_kalt: relocation $type"; return 1; }
		if [ $((0x$off % 24)) -eq 0 ]; then
			case "$execs" in
			*" $sym "*) ;;
			*) echo "cz_kalt: site at 0x$off points into $sym, not text"; return 1 ;;
			esac
		elif [ "$sym" != cz_kaltinstr ]; then
			echo "cz_kalt: repl at 0x$off points into $sym"; return 1
		fi
	done < "$tmp/r"
	i=0
	while [ $i -lt $nalt ]; do
		e=$(printf '%s' "$alt" | cut -c$((i * 48 + 33))-$((i * 48 + 40)))
		feat=$((0x$(printf '%s' "$e" | cut -c3-4)$(printf '%s' "$e" | cut -c1-2)))
		slen=$((0x$(printf '%s' "$e" | cut -c5-6)))
		rlen=$((0x$(printf '%s' "$e" | cut -c7-8)))
		f=$((feat & 0x7fff))
		if [ $f -eq 0 ] || [ $((feat & 0x7fff & ~0x7f)) -ne 0 ]; then
			echo "cz_kalt[$i]: bad feature $feat"; return 1
		fi
		if [ $slen -lt $rlen ]; then
			echo "cz_kalt[$i]: site_len $slen < repl_len $rlen"; return 1
		fi
		if [ "$arch" = arm64 ] && [ $slen -ne $rlen ]; then
			echo "cz_kalt[$i]: site_len $slen != repl_len $rlen"; return 1
		fi
		i=$((i + 1))
	done
	echo "kextable $next, kalt $nalt"
}

# assemble LABEL ARCH SRC [EXPECT_EXT EXPECT_ALT] [EXTRA FLAGS...]
assemble() {
	label=$1 arch=$2 src=$3 want=$4
	shift 4
	if [ "$arch" = x86 ]; then cc=$CC_X86 inc=$INC_X86; else cc=$CC_ARM64 inc=$INC_ARM64; fi
	if [ ! -f "$src" ]; then
		printf '%-52s FAIL missing %s\n' "$label" "$src"; fail=1; return
	fi
	# shellcheck disable=SC2086
	if ! $cc $FLAGS $inc "$@" "$src" -o "$tmp/out.o" 2> "$tmp/err"; then
		printf '%-52s FAIL %s\n' "$label" \
			"$(grep -m1 -E 'rror|fatal' "$tmp/err" || head -n1 "$tmp/err")"
		fail=1; return
	fi
	if ! res=$(check_records "$tmp/out.o" "$arch"); then
		printf '%-52s FAIL %s\n' "$label" "$res"; fail=1; return
	fi
	if [ -n "$want" ] && [ "$res" != "$want" ]; then
		printf '%-52s FAIL %s (expected %s)\n' "$label" "$res" "$want"
		fail=1; return
	fi
	printf '%-52s ok (%s)\n' "$label" "$res"
}

for root in "$@"; do
	if [ ! -d "$root/arch" ]; then
		set -- "$root"/linux-source-*/
		[ $# -eq 1 ] && [ -d "$1/arch" ] && root=${1%/}
	fi
	name=$(basename "$root")
	for f in clear_page_64 memset_64; do
		assemble "$name x86 $f.S" x86 "$root/arch/x86/lib/$f.S" ""
		# shellcheck disable=SC2086
		assemble "$name x86 $f.S [alt config]" x86 "$root/arch/x86/lib/$f.S" "" $ALT_X86
	done
	for f in clear_user clear_page memset; do
		assemble "$name arm64 $f.S" arm64 "$root/arch/arm64/lib/$f.S" ""
		# shellcheck disable=SC2086
		assemble "$name arm64 $f.S [alt config]" arm64 "$root/arch/arm64/lib/$f.S" "" $ALT_ARM64
	done
done

assemble "tests/x86_64-macros.S" x86 "$here/tests/x86_64-macros.S" "kextable 4, kalt 6"
# shellcheck disable=SC2086
assemble "tests/x86_64-macros.S [alt config]" x86 "$here/tests/x86_64-macros.S" "kextable 4, kalt 6" $ALT_X86
assemble "tests/aarch64-macros.S" arm64 "$here/tests/aarch64-macros.S" "kextable 10, kalt 4"
# shellcheck disable=SC2086
assemble "tests/aarch64-macros.S [alt config]" arm64 "$here/tests/aarch64-macros.S" "kextable 10, kalt 4" $ALT_ARM64

# Bad input must fail, naming the file and line.
# expect_error LABEL ARCH PATTERN  (source on stdin, written to bad.S)
expect_error() {
	label=$1 arch=$2 pat=$3
	cat > "$tmp/bad.S"
	if [ "$arch" = x86 ]; then cc=$CC_X86 inc=$INC_X86; else cc=$CC_ARM64 inc=$INC_ARM64; fi
	# shellcheck disable=SC2086
	if $cc $FLAGS $inc "$tmp/bad.S" -o "$tmp/bad.o" 2> "$tmp/err"; then
		printf '%-52s FAIL assembled without error\n' "$label"; fail=1
	elif msg=$(grep -m1 -E "$pat" "$tmp/err"); then
		printf '%-52s ok (%s)\n' "$label" "${msg#"$tmp"/}"
	else
		printf '%-52s FAIL unexpected: %s\n' "$label" "$(head -n1 "$tmp/err")"
		fail=1
	fi
}

printf '#include <linux/linkage.h>\nSYM_FUNC_START(f)\n\tfoo_unknown_macro x0\n\tret\nSYM_FUNC_END(f)\n' |
	expect_error "error: unknown macro" arm64 "bad\.S:3: Error: unknown mnemonic .foo_unknown_macro"
printf '#include <linux/linkage.h>\n#include <asm/no_such_header.h>\n' |
	expect_error "error: missing header" arm64 "bad\.S:2:[0-9]+: fatal error: asm/no_such_header\.h: No such file"
printf '#include <asm/alternative.h>\n\tALTERNATIVE "nop", "", X86_FEATURE_NO_SUCH\n' |
	expect_error "error: unknown x86 feature" x86 "unknown alternative feature X86_FEATURE_NO_SUCH"
printf '#include <asm/alternative.h>\nalternative_if_not ARM64_NO_SUCH\n\tnop\nalternative_else_nop_endif\n' |
	expect_error "error: unknown arm64 cap" arm64 "unknown alternative feature ARM64_NO_SUCH"
printf '#include <asm/alternative.h>\nalternative_if ARM64_HAS_MOPS\n\tnop\n\tnop\nalternative_else\n\tnop\nalternative_endif\n' |
	expect_error "error: arm64 alternative length" arm64 "must be the same length"
printf '#include <asm/asm.h>\n1:\tnop\n\t_ASM_EXTABLE_FAULT(1b, 1b)\n' |
	expect_error "error: x86 extable type" x86 "exception-table type"

exit $fail
