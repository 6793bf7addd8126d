#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zbench memset/mmap reject bad input as perf does: unknown
# function -> "Unknown function: X" + the list; bad sizes -> "Invalid
# size:X" on stderr; non-zero exit every time.  zbench's own --source error
# comes before perf's "# Running" header, not after it.
# Needs: none
. "$top_srcdir/tests/zbench/lib.sh"

# expect_err NAME STDERR_LINE -- ARGS...: non-zero exit and that exact stderr line.
expect_err() {
	name=$1 want=$2; shift 3
	"$ZBENCH" "$@" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "$name: exit 0, want non-zero"
	elif ! grep -qxF "$want" "$CZ_TMP/err"; then
		diag "$name: stderr was '$(head -n 1 "$CZ_TMP/err")'"
		fail "$name: stderr line '$want'"
	else
		pass "$name: exit $rc, '$want'"
	fi
}

expect_err "bad size unit" "Invalid size:4XB" -- memset -s 4XB
expect_err "zero size" "Invalid size:0" -- memset -s 0
expect_err "empty size" "Invalid size:" -- memset -s ""
expect_err "negative size" "Invalid size:-1" -- memset -s -1
expect_err "size overflow" "Invalid size:99999999999TB" -- memset -s 99999999999TB
expect_err "chunk larger than size" "Invalid chunk_size:2MB" -- memset -s 1MB -k 2MB
expect_err "bad chunk" "Invalid chunk_size:4QB" -- memset -k 4QB
expect_err "zero loops" "Invalid nr_loops:0" -- memset -l 0
expect_err "bad hugepages" "Invalid hugepages:3MB (2MB or 1GB)" -- memset --hugepages 3MB
expect_err "mmap bad size" "Invalid size:1ZB" -- mmap -s 1ZB
expect_err "mmap bad page size" "Invalid page-size:3KB" -- mmap -p 3KB

# perf prints "# Running" first, then the error.
"$ZBENCH" memset -s 4XB >"$CZ_TMP/out" 2>/dev/null
ok "bad size: stdout is just perf's '# Running' line" -- \
	test "$(cat "$CZ_TMP/out")" = "# Running 'mem/memset' benchmark:"

"$ZBENCH" memset -f no_such_routine >"$CZ_TMP/out" 2>&1
rc=$?
ok "unknown function: non-zero exit ($rc)" -- test "$rc" -ne 0
ok "unknown function: 'Unknown function: no_such_routine'" -- grep -qx "Unknown function: no_such_routine" "$CZ_TMP/out"
ok "unknown function: 'Available functions:' and the list" -- \
	sh -c "grep -qx 'Available functions:' '$CZ_TMP/out' && grep -q '^	memset \\.\\.\\. ' '$CZ_TMP/out'"

"$ZBENCH" memset -f help >"$CZ_TMP/out" 2>&1
rc=$?
ok "-f help: exit 1 as perf" -- test "$rc" -eq 1
ok "-f help: no 'Unknown function'" -- sh -c "! grep -q 'Unknown function' '$CZ_TMP/out'"
ok "-f help: every line '\\tNAME ... DESC'" -- \
	sh -c "sed 1,2d '$CZ_TMP/out' | grep -vq '^	[a-z0-9_-]* \\.\\.\\. .' && exit 1 || exit 0"

"$ZBENCH" mmap -f nope >"$CZ_TMP/out" 2>&1
ok "mmap unknown function: non-zero exit" -- test $? -ne 0
ok "mmap unknown function: lists demand and populate" -- \
	sh -c "grep -qx 'Unknown function: nope' '$CZ_TMP/out' && grep -q '^	demand \\.\\.\\. Demand loaded mmap()' '$CZ_TMP/out' && grep -q '^	populate \\.\\.\\. Eagerly populated mmap()' '$CZ_TMP/out'"

"$ZBENCH" memset --no-such-option >/dev/null 2>&1
ok "unknown option: exit 129 (perf's usage exit)" -- test $? -eq 129
"$ZBENCH" frobnicate >/dev/null 2>&1
ok "unknown command: non-zero exit" -- test $? -ne 0

# zbench's own --source error comes before perf's header: nothing on stdout
for b in memset mmap; do
	"$ZBENCH" $b -s 4KB --source "$CZ_TMP/absent/clear_user.S:__arch_clear_user" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	rc=$?
	ok "$b --source MISSING: exit $rc, no header, one line: $(head -n 1 "$CZ_TMP/err")$(head -n 1 "$CZ_TMP/out" | sed 's/^/; stdout: /')" -- \
		sh -c "[ $rc -ne 0 ] && ! [ -s '$CZ_TMP/out' ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] &&
		       grep -q 'absent/clear_user.S: No such file' '$CZ_TMP/err'"
done

done_testing
