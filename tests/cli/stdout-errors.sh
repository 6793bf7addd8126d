#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a result that was not written is a failure.  Every program
# run with its standard output on /dev/full (ENOSPC on every write) exits 1
# with one error line, in every output format; zab's exports to a pipe, a
# FIFO and a character device are written there (not skipped), and an
# export that cannot be written is exit 1 too.
. "$top_srcdir/tests/tap.sh"
[ -w /dev/full ] || skip_all "no writable /dev/full on this machine"
CZ_TMP=$(mktemp -d /tmp/cusezero-stdout.XXXXXX) || skip_all "mktemp failed"
trap 'rm -rf "$CZ_TMP"' EXIT
trap 'exit 1' INT TERM
PZ=${PREAD_Z100K:-$top_builddir/pread_z100k/pread_z100k}
GOLD=$top_srcdir/tests/zab/golden

# full DESC CMD...: CMD >/dev/full exits 1 with one error line on stderr
# (zbench align's "# " notes on stderr are not errors, and not counted).
full() {
	d=$1; shift
	timeout 120 "$@" >/dev/full 2>"$CZ_TMP/err"
	st=$?
	grep -av '^# ' "$CZ_TMP/err" >"$CZ_TMP/errlines"
	ok "$d >/dev/full: exit $st, $(wc -l <"$CZ_TMP/errlines") line(s): $(head -c 200 "$CZ_TMP/errlines" | tr '\n' '|')" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/errlines') -eq 1 ]"
}
have() { [ -x "$1" ]; }

if have "$PZ"; then
	full "pread_z100k" "$PZ" -n 3 -s 4KB /dev/zero
	full "pread_z100k --json" "$PZ" -n 3 -s 4KB --json /dev/zero
	full "pread_z100k --format simple" "$PZ" -n 3 -s 4KB --format simple /dev/zero
else
	skip "pread_z100k not built"
fi
if have "$ZLOAD"; then
	full "zload" "$ZLOAD" --size 64KB /dev/zero
	full "zload --json" "$ZLOAD" --size 64KB --json /dev/zero
else
	skip "zload not built"
fi
if have "$ZBENCH"; then
	r=$("$ZBENCH" align -f help 2>/dev/null | awk 'NR == 2 {print $1}')
	if [ -n "$r" ]; then
		full "zbench align --json" "$ZBENCH" align -f "$r" --offsets 0..1 -l 1 -r 2 --json
		full "zbench align --csv" "$ZBENCH" align -f "$r" --offsets 0..1 -l 1 -r 2 --csv
		full "zbench align" "$ZBENCH" align -f "$r" --offsets 0..1 -l 1 -r 2
	else
		skip "zbench align: no relocatable routine here"
	fi
	full "zbench --format json mmap" "$ZBENCH" --format json mmap -s 4KB -l 1
	full "zbench mmap" "$ZBENCH" mmap -s 4KB -l 1
	full "zbench --format json memset" "$ZBENCH" --format json memset -s 4KB -l 1
	full "zbench memset -f help" "$ZBENCH" memset -f help
	full "zbench kernel" "$ZBENCH" kernel -r 3 --no-thp -f memset
	full "zbench --format json kernel" "$ZBENCH" --format json kernel -r 3 --no-thp -f memset
	full "zbench kernel --format simple" "$ZBENCH" kernel -r 3 --no-thp -f memset --format simple
fi
if have "$ZAB"; then
	full "zab report" "$ZAB" report "$GOLD/sut-a.json"
	# With the JSON on stdout the table goes to stderr: the error is its last line.
	timeout 60 "$ZAB" report --export-zab - "$GOLD/sut-a.json" >/dev/full 2>"$CZ_TMP/err"
	st=$?
	ok "zab report --export-zab - >/dev/full: exit $st, last line: $(tail -n 1 "$CZ_TMP/err")" -- \
		sh -c "[ $st -eq 1 ] && tail -n 1 '$CZ_TMP/err' | grep -q '^zab: ' && [ \$(grep -c '^zab: ' '$CZ_TMP/err') -eq 1 ]"
	"$ZAB" report --export-csv "$CZ_TMP/ref.csv" "$GOLD/sut-a.json" >/dev/null 2>&1
	# A pipe (fd 3; the table goes to /dev/null): the same rows as the regular file.
	{ "$ZAB" report --export-csv /dev/fd/3 "$GOLD/sut-a.json" 3>&1 >/dev/null 2>"$CZ_TMP/err"; } |
		cat >"$CZ_TMP/pipe.csv"
	ok "zab --export-csv to a pipe: the rows arrive ($(wc -c <"$CZ_TMP/pipe.csv") bytes)" -- \
		sh -c "[ -s '$CZ_TMP/ref.csv' ] && cmp -s '$CZ_TMP/ref.csv' '$CZ_TMP/pipe.csv'"
	# A FIFO, read by cat (bounded: the reader is killed after 60 s).
	mkfifo "$CZ_TMP/fifo"
	timeout 60 cat "$CZ_TMP/fifo" >"$CZ_TMP/fifo.json" &
	reader=$!
	timeout 60 "$ZAB" report --export-zab "$CZ_TMP/fifo" "$GOLD/sut-a.json" >/dev/null 2>"$CZ_TMP/err"
	st=$?
	wait "$reader"
	ok "zab --export-zab to a FIFO: exit $st, the JSON arrives ($(wc -c <"$CZ_TMP/fifo.json") bytes)" -- \
		sh -c "[ $st -eq 0 ] && grep -q '\"results\"' '$CZ_TMP/fifo.json'"
	# Character devices: /dev/null takes it, /dev/full is a failure.
	timeout 60 "$ZAB" report --export-markdown /dev/null "$GOLD/sut-a.json" >/dev/null 2>"$CZ_TMP/err"
	st=$?
	ok "zab --export-markdown /dev/null: exit $st" -- [ "$st" -eq 0 ]
	timeout 60 "$ZAB" report --export-markdown /dev/full "$GOLD/sut-a.json" >/dev/null 2>"$CZ_TMP/err"
	st=$?
	ok "zab --export-markdown /dev/full: exit $st, one line ($(cat "$CZ_TMP/err"))" -- \
		sh -c "[ $st -eq 1 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q /dev/full '$CZ_TMP/err'"
fi
if have "$CUSEZERO"; then
	full "cusezero --routine help" "$CUSEZERO" --routine help
fi
for p in "$ZEROCTL" "$ZLOAD" "$ZBENCH" "$ZAB" "$PZ" "$CUSEZERO"; do
	have "$p" && full "$(basename "$p") --version" "$p" --version
	have "$p" && full "$(basename "$p") --help" "$p" --help
done
done_testing
