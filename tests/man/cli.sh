#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the conventions lib/cli.c gives every program: -V is
# --version; an unknown option is one line, "PROG: unknown option 'OPT'
# (see PROG --help)", nothing on stdout, a non-zero exit (2, or perf's 129
# for zbench); cusezero -o takes libfuse's mount options or refuses each by
# name; zbench takes perf's global -f and memset's -p.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# one_line NAME WANT-RC WANT-LINE CMD...
one_line() {
	name=$1 want_rc=$2 want=$3; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	line=$(cat "$tmp/err")
	if [ "$rc" -eq "$want_rc" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	   [ "$line" = "$want" ]; then
		pass "$name: exit $rc, '$line'"
	else
		fail "$name: exit $rc (want $want_rc), stderr '$(tr '\n' '|' <"$tmp/err")', want '$want'"
	fi
}

for pair in "cusezero $CUSEZERO" "zeroctl $ZEROCTL" "zload $ZLOAD" "pread_z100k $PREAD_Z100K" \
	    "zbench $ZBENCH" "zab $ZAB"; do
	set -- $pair
	if [ ! -x "$2" ]; then
		skip "$1: not built here"
		continue
	fi
	ok "$1 -V prints what --version prints" -- \
		sh -c "test \"\$('$2' -V)\" = \"\$('$2' --version)\""
done
for pair in "cusezero $CUSEZERO 2" "zeroctl $ZEROCTL 2" "zload $ZLOAD 2" \
	    "pread_z100k $PREAD_Z100K 2" "zbench $ZBENCH 129"; do
	set -- $pair
	[ -x "$2" ] || continue
	one_line "$1 --no-such-option" "$3" "$1: unknown option '--no-such-option' (see $1 --help)" \
		"$2" --no-such-option
done
if [ -x "$ZBENCH" ]; then
	one_line "zbench memset --no-such-option" 129 \
		"zbench: unknown option '--no-such-option' (see zbench --help)" \
		"$ZBENCH" memset --no-such-option
	out=$("$ZBENCH" -f simple mem memset -f memset -s 64KB 2>/dev/null)
	ok "zbench -f simple mem memset: perf's global -f, one number ('$out')" -- \
		sh -c "printf '%s\n' '$out' | grep -Eqx '[0-9.]+'"
	ok "zbench mem memset -p 4KB: perf's page-size option" -- \
		sh -c "'$ZBENCH' mem memset -p 4KB -f memset -s 64KB >/dev/null 2>&1"
	"$ZBENCH" mem memset -p 3KB -f memset >/dev/null 2>"$tmp/err"
	rc=$?
	ok "zbench mem memset -p 3KB: refused (exit $rc: $(cat "$tmp/err"))" -- \
		sh -c "test $rc -eq 1 && grep -q 'Invalid page-size:3KB' '$tmp/err'"
fi
if [ -x "$CUSEZERO" ]; then
	ok "cusezero -o default_permissions,rw,debug: accepted (then --help)" -- \
		sh -c "'$CUSEZERO' -o default_permissions,rw,debug --help >/dev/null"
	for o in ro umask=022 fsname=x max_read=4096; do
		"$CUSEZERO" -o "$o" --help >"$tmp/out" 2>"$tmp/err"
		rc=$?
		ok "cusezero -o $o: refused naming it (exit $rc: $(cat "$tmp/err"))" -- \
			sh -c "test $rc -eq 2 && test \$(wc -l <'$tmp/err') -eq 1 && grep -q -- '-o $o: ' '$tmp/err'"
	done
fi
done_testing
