#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: zload counts the bytes each read returned, not --bs: a short
# read (a file whose text is shorter than --bs, the FUSE control file) is
# counted as what it returned, and as a short read.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"

# short FILE DESC: one read of 4 KiB at offset 0 of FILE, whose text is n
# bytes (read by cat: wc -c may believe the file's size).
short() {
	n=$(cat "$1" | wc -c)
	out=$("$Z" --size 4KB --bs 4KB --json "$1" 2>"$CZ_TMP/err")
	st=$?
	# zload's own totals (the JSON is one line: json_val finds a key's last
	# occurrence, and fio's read/write/trim objects each have io_bytes)
	b=$(json_val "$out" bytes)
	s=$(json_val "$out" short_reads)
	ok "$2: one read of 4 KiB returns $n bytes: bytes $b, short_reads $s (exit $st$(head -c 200 "$CZ_TMP/err"))" -- \
		sh -c "[ '$st' -eq 0 ] && [ '$n' -gt 0 ] && [ '$n' -lt 4096 ] && [ '$b' = '$n' ] && [ '$s' = 1 ]"
}

short /proc/version "/proc/version (a file with no size)"
if [ -x "$CUSEZERO" ] && [ "$(id -u)" -eq 0 ] && [ -c /dev/fuse ]; then
	mkdir -p "$CZ_TMP/mnt"
	if "$CUSEZERO" --fuse "$CZ_TMP/mnt" --pidfile "$CZ_TMP/pid" 2>"$CZ_TMP/start"; then
		short "$CZ_TMP/mnt/control" "the FUSE control file"
		kill "$(cat "$CZ_TMP/pid")"
		i=0
		while mountpoint -q "$CZ_TMP/mnt" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	else
		fail "cusezero did not start: $(cat "$CZ_TMP/start")"
	fi
else
	skip "the FUSE control file: no root, /dev/fuse or cusezero"
fi
done_testing
