#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the FUSE device returns zeros for every kind of read (read,
# pread, readv, io_uring, cat | head -c, dd) at sizes 1 B .. 4 MiB; writes
# are discarded; ioctls incl. invalid ones; 4 concurrent readers while the
# routine, alignment and chunk switch; killed and interrupted readers; the
# text files read by 4 readers at once.
# The daemon runs with --poison, so a routine that skips a byte shows up.
# Needs: root fuse io_uring
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

if ! cz_start io --poison ${CZ_IO_OPTS:-}; then
	fail "start cusezero --fuse: $(cat "$CZ_TMP/io.err")"
	done_testing; exit
fi
Z=$CZ_TMP/mnt-io/zero
pass "cusezero --fuse started, $Z exists"

n=$(head -c 5000000 "$Z" | tr -d '\000' | wc -c)
ok "head -c 5000000 $Z: only zero bytes (non-zero: $n)" -- [ "$n" -eq 0 ]
n=$(cat "$Z" | head -c 3000001 | wc -c)
ok "cat | head -c 3000001 gives 3000001 bytes (got $n)" -- [ "$n" -eq 3000001 ]
n=$(dd if="$Z" bs=1M count=8 2>/dev/null | tr -d '\000' | wc -c)
ok "dd bs=1M count=8: only zero bytes (non-zero: $n)" -- [ "$n" -eq 0 ]
n=$(dd if="$Z" bs=100k count=7 2>/dev/null | wc -c)
ok "dd bs=100k count=7 gives 716800 bytes (got $n)" -- [ "$n" -eq 716800 ]
ok "dd of=zero (write) accepted" -- sh -c "dd if=/dev/urandom of='$Z' bs=64k count=4 2>/dev/null"

cz_check io "$Z"
cz_check ioctl "$Z"
cz_check uring "$Z"
cz_check stress "$Z" 3
cz_check killed "$Z"

# The text files, 4 readers at once for 3 s, each opening, reading and
# closing: one worker may run a file's RELEASE while another is still
# returning from its last reply (with --threads, a use-after-free of the
# reply buffer once; lib.sh's sanitizer check sees it in ASan builds).
# Where there is a busybox, two of the readers use its cat, which copies
# with sendfile(2): through the page cache, one reader's text once came out
# cut at another's length or followed by NUL bytes (made visible as \001).
T=$CZ_TMP/text
mkdir "$T"
soh=$(printf '\001')
# reads of zero meanwhile, so that stats.json's length changes between readers
(end=$(($(date +%s) + 3))
 while [ "$(date +%s)" -lt "$end" ]; do
	dd if="$Z" of=/dev/null bs=4k count=7 2>/dev/null
 done) &
tpids="$!"
for i in 1 2 3 4; do
	cat=cat
	[ "$i" -gt 2 ] && command -v busybox >/dev/null 2>&1 && cat="busybox cat"
	(end=$(($(date +%s) + 3)) n=0 bad=0
	 while [ "$(date +%s)" -lt "$end" ]; do
		c=$($cat "$CZ_TMP/mnt-io/control" | tr '\000' '\001') || c=""
		j=$($cat "$CZ_TMP/mnt-io/stats.json" | tr '\000' '\001') || j=""
		case $c in routine=*chunk=*) ;; *) bad=$((bad + 1)) ;; esac
		case $j in "{"*"}") ;; *) bad=$((bad + 1)) ;; esac
		case $c$j in *"$soh"*) bad=$((bad + 1)) ;; esac
		n=$((n + 1))
	 done
	 echo "$n $bad" >"$T/$i") &
	tpids="$tpids $!"
done
# shellcheck disable=SC2086
wait $tpids
# shellcheck disable=SC2046
set -- $(cat "$T"/? | awk '{ n += $1; b += $2 } END { print n + 0, b + 0 }')
tn=$1 tbad=$2
ok "text files read by 4 readers at once: $tn rounds, every control and stats.json whole ($tbad not)" -- \
	eval '[ "$tn" -gt 0 ] && [ "$tbad" -eq 0 ]'
ok "the daemon still serves after them" -- eval '[ "$(head -c 4096 "$Z" | tr -d "\000" | wc -c)" -eq 0 ]'

errs=$(grep '^routine_errors' "$CZ_TMP/mnt-io/stats" | awk '{print $2}')
ok "stats: routine_errors = 0 (got $errs)" -- [ "$errs" = 0 ]
ok "SIGTERM stops the daemon" -- cz_stop io
ok "no mount left at mnt-io" -- eval "! cz_mounted '$CZ_TMP/mnt-io'"
done_testing
