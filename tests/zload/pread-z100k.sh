#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: pread_z100k keeps the seed reproducer's output (one "%.6f"
# line, nothing else), its options change what they say, and a failed or
# short read or a non-zero byte is one line naming the call and exits 1.
# Needs: native
. "$top_srcdir/tests/zload/zload-lib.sh"
P=$PREAD_Z100K
[ -x "$P" ] || skip_all "pread_z100k not built ($P)"

# The no-argument mode is the reproducer itself: 1e6 x 100 KiB, 3-8 s here.
# Under a sanitizer or an emulator it can take minutes: project from 1e4
# calls and run it only when it should take under CZ_LONG_RUN_MAX_S (default
# 30 s; the arm64 VM allows 150) -- the -n runs below cover the same code path.
max_s=${CZ_LONG_RUN_MAX_S:-30}
t=$("$P" -n 10000 --json | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
if awk -v t="${t:-999}" -v m="$max_s" 'BEGIN { exit !(t * 100 < m) }'; then
	out=$("$P" 2>"$CZ_TMP/err"); rc=$?
	if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+\.[0-9]{6}' &&
	   [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [ ! -s "$CZ_TMP/err" ]; then
		pass "no arguments: one line '$out' matching ^[0-9]+.[0-9]{6}\$"
	else
		fail "no arguments: exit $rc, stdout '$out', stderr '$(cat "$CZ_TMP/err")'"
	fi
else
	skip "no-argument run would take about $(awk -v t="${t:-0}" 'BEGIN { printf "%.0f", t * 100 }') s here (over CZ_LONG_RUN_MAX_S=$max_s)"
fi

out=$("$P" -n 1000 2>"$CZ_TMP/err"); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+\.[0-9]{6}' && [ ! -s "$CZ_TMP/err" ]; then
	pass "-n 1000: default format '$out'"
else
	fail "-n 1000: exit $rc, stdout '$out'"
fi

out=$("$P" -n 1000 /dev/zero --format simple); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eqx '[0-9]+'; then
	pass "--format simple: one integer (bytes/sec) '$out'"
else
	fail "--format simple: exit $rc, stdout '$out'"
fi

out=$("$P" -s 4KB -n 10 --json /dev/zero); rc=$?
expect_eq "--json exit" "$rc" 0
expect_eq "--json -s 4KB: size" "$(json_val "$out" size)" 4096
expect_eq "--json -n 10: calls" "$(json_val "$out" calls)" 10
expect_eq "--json: bytes = size x calls" "$(json_val "$out" bytes)" 40960
expect_eq "--json: device" "$(json_val "$out" device)" /dev/zero
# a JSON number: jansson writes a small real as 2.5e-5
for k in seconds bytes_per_sec ns_per_call; do
	v=$(json_val "$out" $k)
	if printf '%s\n' "$v" | grep -Eqx '[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?'; then pass "--json: $k = $v"
	else fail "--json: $k = '$v' in $out"; fi
done

ok "--verify -n 100 on /dev/zero passes" -- quiet "$P" --verify -n 100 /dev/zero
out=$("$P" --cpu 0 -n 10 2>&1); rc=$?
if [ $rc -eq 0 ]; then pass "--cpu 0: runs ($out)"
else skip "--cpu 0: cannot pin here: $out"; fi

zero_file_with_z "$CZ_TMP/z" 12345 65536
one_line_error "--verify on a file with 0x5a at offset 12345" -- "$P" --verify -s 64KB -n 2 "$CZ_TMP/z"
case $ERRLINE in
*"call 1"*"offset 12345"*0x5a*) pass "verify failure names call 1, offset 12345 and 0x5a" ;;
*) fail "verify failure line: '$ERRLINE'" ;;
esac
ok "without --verify the same file reads fine" -- quiet "$P" -s 64KB -n 2 "$CZ_TMP/z"

head -c 1000 /dev/zero >"$CZ_TMP/short"
one_line_error "short read (1000-byte file, -s 4KB)" -- "$P" -s 4KB -n 3 "$CZ_TMP/short"
case $ERRLINE in
*"call 1"*short*1000*4096*) pass "short read names call 1, 1000 of 4096 bytes" ;;
*) fail "short read line: '$ERRLINE'" ;;
esac
one_line_error "read error (a directory)" -- "$P" -n 1 "$CZ_TMP"
case $ERRLINE in
*"call 1"*102400*"errno 21"*) pass "read error names call 1, size 102400, errno 21" ;;
*) fail "read error line: '$ERRLINE'" ;;
esac

one_line_error "-s 3x" -- "$P" -s 3x
one_line_error "-s 0" -- "$P" -s 0
one_line_error "-n 0" -- "$P" -n 0
one_line_error "--cpu abc" -- "$P" --cpu abc
one_line_error "--format xml" -- "$P" --format xml
one_line_error "--bogus" -- "$P" --bogus
one_line_error "missing device" -- "$P" -n 1 "$CZ_TMP/nonexistent"
one_line_error "two devices" -- "$P" /dev/zero /dev/zero
ok "-h exits 0" -- sh -c '"$1" -h >/dev/null' sh "$P"
"$P" -s 3x 2>/dev/null; ok "bad value: exit 2 (usage)" -- test $? -eq 2
"$P" -n 1 "$CZ_TMP/nonexistent" 2>/dev/null; ok "missing device: exit 1 (failure)" -- test $? -eq 1

# Progress on a terminal: script(1) gives pread_z100k one.  A run well over
# 2 s must show it on stderr, one under 2 s must not; --format simple and
# json never do.  How long a run takes is read from its own output, so the
# checks hold on a fast or a slow machine (an in-between run is not judged).
if command -v script >/dev/null 2>&1; then
	# Aim for about 5 s, from the time of 50000 calls (warm: page cache,
	# buffer faulted in), not from the shorter run above.
	t5=$("$P" -n 50000 --json | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
	n=$(awk -v t="${t5:-1}" 'BEGIN { n = int(5 / (t / 50000)); print n < 1000 ? 1000 : n }')
	# A busy machine can make the estimate wrong: retry, rescaled to 5 s by
	# the run just made.
	for try in 1 2 3; do
		script -qec "'$P' -n $n" /dev/null >"$CZ_TMP/tty" 2>&1
		secs=$(tr '\r' '\n' <"$CZ_TMP/tty" | sed 's/.*\[K//' | grep -Ex '[0-9]+\.[0-9]{6}' | tail -n 1)
		awk -v s="${secs:-0}" 'BEGIN { exit !(s > 3) }' && break
		n=$(awk -v n="$n" -v s="${secs:-0}" 'BEGIN { printf "%d", n * 5 / (s > 0.5 ? s : 0.5) }')
	done
	if awk -v s="${secs:-0}" 'BEGIN { exit !(s > 3) }'; then
		ok "terminal, $secs s run: progress line (calls, %, MiB/s, time left)" -- \
			grep -Eq "pread_z100k: [0-9]+/$n calls \([0-9]+%\) [0-9.]+ s, [0-9.]+ MiB/s, [0-9]+ s left" "$CZ_TMP/tty"
		script -qec "'$P' -n $n --format simple" /dev/null >"$CZ_TMP/tty2" 2>&1
		ok "terminal, --format simple: no progress, one number" -- \
			sh -c "! grep -q 'calls (' '$CZ_TMP/tty2' && test \"\$(tr -d '\\r' <'$CZ_TMP/tty2' | grep -Ec '^[0-9]+\$')\" -eq 1"
		script -qec "'$P' -n $n --json" /dev/null >"$CZ_TMP/tty3" 2>&1
		ok "terminal, --json: no progress" -- sh -c "! grep -q 'calls (' '$CZ_TMP/tty3'"
	else
		skip "terminal run took ${secs:-?} s (want > 3 s to judge the progress line)"
	fi
	script -qec "'$P' -n 100" /dev/null >"$CZ_TMP/tty4" 2>&1
	ok "terminal, short run: no progress line" -- sh -c "! grep -q 'calls (' '$CZ_TMP/tty4'"
else
	skip "no script(1) to give pread_z100k a terminal"
fi

# A device that reports full reads and writes nothing (preadnop.so): the
# buffer still holds zeros (fresh pages, then the last call), so only the
# 0xA5 fill before each call shows it.  LD_PRELOAD cannot go before a
# sanitizer's runtime: skipped there.
nop=$top_builddir/tests/zload/preadnop.so
if [ ! -f "$nop" ]; then
	skip "--verify, a read that writes nothing: $nop not built"
elif ldd "$P" 2>/dev/null | grep -q 'lib[at]san'; then
	skip "--verify, a read that writes nothing: sanitizer build (no LD_PRELOAD)"
else
	LD_PRELOAD=$nop "$P" --verify -n 3 -s 4KB /dev/zero >/dev/null 2>"$CZ_TMP/err"
	rc=$?
	ok "--verify, a read that writes nothing: exit $rc, $(cat "$CZ_TMP/err")" -- \
		sh -c "[ $rc -eq 1 ] && grep -q 'verify: call 1: byte at offset 0 = 0xa5' '$CZ_TMP/err'"
fi

done_testing
