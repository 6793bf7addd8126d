#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: --reply (a speed lever): by default the FUSE front end sends
# /dev/fuse replies of two pages or more by vmsplice + splice; the daemon's
# debug summary counts them, every read is still zeros (the daemon runs with
# --poison), replies too big for the pipe (1 MiB) fall back to writev, and
# --reply writev sends none by splice.  io.sh runs the full read checks on
# the splice path (the default); io-writev.sh runs them with --reply writev.
# Needs: root fuse
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

"$CUSEZERO" --fuse "$CZ_TMP/mnt-bad" --reply bogus 2>"$CZ_TMP/bad.err"
st=$?
ok "--reply bogus exits 2 (got $st)" -- [ "$st" -eq 2 ]
ok "--reply bogus: one line naming the option and value" -- \
	sh -c "[ \$(wc -l <'$CZ_TMP/bad.err') -eq 1 ] && grep -q -- '--reply bogus' '$CZ_TMP/bad.err'"

# run_dbg NAME OPTS...: serve with -d on /dev/fuse, read 20 x 100 KiB,
# 5 x 1 MiB and 20 x 4 KiB, stop; sets nz (non-zero bytes) and spliced
# (the summary's count, empty if there is no summary line).
run_dbg() {
	n=$1; shift
	mkdir -p "$CZ_TMP/mnt-$n"
	"$CUSEZERO" -d --fuse "$CZ_TMP/mnt-$n" --transport dev --poison "$@" 2>"$CZ_TMP/$n.err" &
	dpid=$!
	echo "$dpid" >"$CZ_TMP/$n.pid"	# for cz_cleanup if we die here
	nz=x spliced=
	if ! cz_wait "[ -e '$CZ_TMP/mnt-$n/zero' ]" 100; then
		fail "cusezero -d $*: no zero file after 10 s: $(tail -3 "$CZ_TMP/$n.err")"
		return 1
	fi
	nz=$({ dd if="$CZ_TMP/mnt-$n/zero" bs=100k count=20
	       dd if="$CZ_TMP/mnt-$n/zero" bs=1M count=5
	       dd if="$CZ_TMP/mnt-$n/zero" bs=4k count=20; } 2>/dev/null | tr -d '\000' | wc -c)
	kill -TERM "$dpid"
	wait "$dpid"	# the summary is written at exit
	rm -f "$CZ_TMP/$n.pid"
	spliced=$(sed -n 's/.* \([0-9][0-9]*\) replies by splice.*/\1/p' "$CZ_TMP/$n.err")
}

if run_dbg spl; then
	ok "default: 100 KiB, 1 MiB and 4 KiB reads are zeros (non-zero: $nz)" -- [ "$nz" -eq 0 ]
	# 20 reads of 100 KiB by splice; 1 MiB (257 pipe slots) and 4 KiB (one page) by writev.
	ok "default: the 20 replies of 100 KiB went by splice (count: ${spliced:-none})" -- \
		[ "${spliced:-0}" -ge 20 ]
	ok "default: 4 KiB replies (one page) did not go by splice (count: ${spliced:-none} <= 20 + 5)" -- \
		[ "${spliced:-0}" -le 25 ]
fi
if run_dbg wv --reply writev; then
	ok "--reply writev: reads are zeros (non-zero: $nz)" -- [ "$nz" -eq 0 ]
	ok "--reply writev: no reply by splice (count: ${spliced:-none})" -- [ "${spliced:-0}" -eq 0 ]
fi
# Privileges dropped: the pipe is made after --user, within pipe-max-size.
if id nobody >/dev/null 2>&1 && run_dbg usr --user nobody; then
	ok "--user nobody: reads are zeros (non-zero: $nz)" -- [ "$nz" -eq 0 ]
	ok "--user nobody: 100 KiB replies by splice (count: ${spliced:-none})" -- \
		[ "${spliced:-0}" -ge 20 ]
fi
done_testing
