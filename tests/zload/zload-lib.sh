# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the tests of pread_z100k and zload: . "$top_srcdir/tests/zload/zload-lib.sh"
. "$top_srcdir/tests/tap.sh"

CZ_TMP=$(mktemp -d "${TMPDIR:-/tmp}/zload-test.XXXXXX") || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT

# json_val JSON KEY: the scalar value of "KEY" (numbers, true/false, strings unquoted).
json_val() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}

# expect_eq DESC ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"
	else fail "$1: got '$2', expected '$3'"; fi
}

# one_line_error DESC -- CMD...: non-zero exit and exactly one line on stderr
# naming something; the line is kept in $ERRLINE.
one_line_error() {
	desc=$1; shift; [ "$1" = -- ] && shift
	"$@" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	ERRLINE=$(cat "$CZ_TMP/err")
	nl=$(wc -l <"$CZ_TMP/err")
	if [ "$rc" -eq 0 ]; then fail "$desc: exit 0"
	elif [ "$nl" -ne 1 ]; then fail "$desc: $nl lines on stderr: $(tr '\n' '|' <"$CZ_TMP/err")"
	elif [ -s "$CZ_TMP/out" ]; then fail "$desc: wrote to stdout: $(head -c 200 "$CZ_TMP/out")"
	else pass "$desc (exit $rc: $ERRLINE)"; fi
}

# A zero-filled file with one 0x5a byte at offset $2: zero_file_with_z PATH OFFSET SIZE
zero_file_with_z() {
	head -c "$3" /dev/zero >"$1" &&
	printf 'Z' | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# rt_ioprio_why: why this process may not give an I/O the real-time priority
# class (the kernel's ioprio check wants CAP_SYS_ADMIN or CAP_SYS_NICE, bits
# 21 and 23 of CapEff); nothing when it may.
rt_ioprio_why() {
	cap=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status 2>/dev/null)
	[ -n "$cap" ] || { echo "no CapEff in /proc/self/status"; return; }
	[ $(( ((0x$cap >> 21) | (0x$cap >> 23)) & 1 )) -eq 1 ] ||
		echo "the real-time I/O priority class needs CAP_SYS_ADMIN or CAP_SYS_NICE (root)"
}

# quiet CMD...: run CMD with stdout discarded (keeps the TAP stream clean).
quiet() { "$@" >/dev/null; }
