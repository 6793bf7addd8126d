#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every numeric option of cusezero and zeroctl follows one rule
# (lib/util.c): decimal or 0x hex, a leading 0 is not octal, no sign or
# space, out of range is refused rather than wrapped (uids/gids up to
# 4294967294); --mode is octal.  A refused value: exit 2, one line naming
# the option and the value, nothing mounted.  An accepted one is in effect.
# Needs: root fuse ioctl
. "$top_srcdir/tests/cuse/lib.sh"
cz_require_fuse

M=$CZ_TMP/mnt-bad
mkdir -p "$M"
# cz_refused OPTION VALUE: cusezero --fuse M OPTION VALUE must be refused.
cz_refused() {
	"$CUSEZERO" --fuse "$M" --pidfile "$CZ_TMP/bad.pid" "$1" "$2" >"$CZ_TMP/out" 2>"$CZ_TMP/err"
	st=$?
	if [ "$st" -eq 2 ] && [ "$(wc -l <"$CZ_TMP/err")" -eq 1 ] && grep -q -- "$1 $2:" "$CZ_TMP/err" &&
	   ! cz_mounted "$M"; then
		pass "cusezero $1 '$2': refused, exit 2: $(cat "$CZ_TMP/err")"
	else
		fail "cusezero $1 '$2': exit $st: $(head -c 200 "$CZ_TMP/err")"
		cz_stop bad
	fi
}
for v in 4295032830 4294967295 -1 +0 " 0" 0x; do cz_refused --owner "$v"; done
for v in 4294967296 -1; do cz_refused --group "$v"; cz_refused --user "$v"; done
for v in +2 " 2" 2x 1e1 010x; do cz_refused --threads "$v"; done
for v in 0x1ff 8 " 644" -1 17777; do cz_refused --mode "$v"; done
cz_refused --major 99999999999999999999
cz_refused --minor -1
cz_refused --poll-us 1e3
cz_refused --chunk 0x1KB
cz_refused --chunk -4KB
cz_refused --align 0x1000
cz_refused --cpu +0

# Accepted values take effect.
setting() { grep "^$1=" "$CZ_TMP/mnt-$2/control" | cut -d= -f2; }
if cz_start h --chunk 0x1000 --poll-us 0x10 --mode 640 --owner 65534 --threads 02; then
	ok "--chunk 0x1000 is 4096 bytes" -- [ "$(setting chunk h)" = 4096 ]
	ok "--mode 640 (octal) on the zero file" -- [ "$(stat -c %a "$CZ_TMP/mnt-h/zero")" = 640 ]
	ok "--owner 65534 owns the zero file" -- [ "$(stat -c %u "$CZ_TMP/mnt-h/zero")" = 65534 ]
	ok "--owner 65534: control is 0644 of uid 65534, the mode enforced" -- \
		[ "$(stat -c '%a %u' "$CZ_TMP/mnt-h/control")" = "644 65534" ]
	Z=$CZ_TMP/mnt-h/zero
	ok "zeroctl --chunk 0x2000 is 8192 bytes" -- \
		sh -c "'$ZEROCTL' '$Z' --chunk 0x2000 && grep -q '^chunk=8192$' '$CZ_TMP/mnt-h/control'"
	ok "control: chunk=0x4000 is 16384 bytes" -- \
		sh -c "echo chunk=0x4000 >'$CZ_TMP/mnt-h/control' && grep -q '^chunk=16384$' '$CZ_TMP/mnt-h/control'"
	if "$ZEROCTL" "$Z" --align 020 2>"$CZ_TMP/err"; then
		ok "zeroctl --align 020 is offset 20, not octal 16" -- [ "$(setting align h)" = 20 ]
		"$ZEROCTL" "$Z" --align none
	else
		skip "zeroctl --align 020: the default routine cannot be placed ($(cat "$CZ_TMP/err"))"
	fi
	for v in +5 -1 " 5" 5x; do
		"$ZEROCTL" "$Z" --align "$v" 2>"$CZ_TMP/err"
		st=$?
		ok "zeroctl --align '$v': exit $st, one line ($(cat "$CZ_TMP/err"))" -- \
			sh -c "[ $st -eq 2 ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] && grep -q -- '--align' '$CZ_TMP/err'"
	done
	"$ZEROCTL" "$Z" --chunk -1 2>"$CZ_TMP/err"
	st=$?
	ok "zeroctl --chunk -1: exit $st ($(cat "$CZ_TMP/err"))" -- [ "$st" -eq 2 ]
	ok "stop" -- cz_stop h
else
	fail "start with --chunk 0x1000 --poll-us 0x10 --mode 640 --owner 65534: $(cat "$CZ_TMP/h.err")"
fi
if cz_start a --align 020; then
	ok "--align 020 is offset 20, not octal 16 (both instruction-aligned on arm64 too)" -- [ "$(setting align a)" = 20 ]
	cz_stop a
else
	skip "--align 020: the default routine cannot be placed ($(cat "$CZ_TMP/a.err"))"
fi
done_testing
