#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: mmap of the FUSE zero file.  MAP_PRIVATE works: the pages
# fault in through the read path (the stats count the requests) and are
# zero; a write stays private.  MAP_SHARED is refused with ENODEV, on
# purpose (doc/DESIGN.md, "mmap"): the kernel only allows it on a direct-I/O
# file when the daemon asks for FUSE_DIRECT_IO_ALLOW_MMAP, and then every
# mapping shares MNT/zero's page cache, so one process's writes into its
# shared mapping would show up, non-zero, in other processes' mappings --
# private ones included -- until written back.  /dev/zero gives each shared
# mapping its own anonymous memory instead.
# Needs: root fuse ioctl
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse
ZMAP=$top_builddir/tests/cuse/zmap
[ -x "$ZMAP" ] || skip_all "no $ZMAP"

if ! cz_start m; then
	fail "start: $(cat "$CZ_TMP/m.err")"
	done_testing; exit
fi
Z=$CZ_TMP/mnt-m/zero
"$ZEROCTL" "$Z" --reset
out=$("$ZMAP" "$Z" private 4MB)
st=$?
ok "MAP_PRIVATE, 4 MiB: $out" -- [ "$st" -eq 0 ]
req=$(awk '$1 == "requests" { print $2 }' "$CZ_TMP/mnt-m/stats")
ok "MAP_PRIVATE: the pages came through the read path (requests: $req)" -- [ "${req:-0}" -ge 1 ]
for mode in shared shared-ro; do
	out=$("$ZMAP" "$Z" "$mode" 1MB)
	st=$?
	ok "$mode mapping refused with ENODEV (exit $st): $out" -- \
		eval '[ "$st" -eq 2 ] && echo "$out" | grep -q ENODEV'
done
out=$("$ZMAP" "$Z" private 1MB)
ok "MAP_PRIVATE again after the refused ones: $out" -- [ $? -eq 0 ]
ok "stop" -- cz_stop m
done_testing
