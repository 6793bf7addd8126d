#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every long option a program's --help names is in its man page,
# every option it defines is in its bash completion; --version prints "NAME (cusezero) VERSION" and
# exits 0; each zab command's --help ends "See zab-CMD(1)." naming a page
# in man/, and the options it names are in zab's pages.  Programs not built
# here (no libfuse3 / liburing) are skipped.
. "$top_srcdir/tests/man/lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-help.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

programs | while read -r name bin args; do
	if [ ! -x "$bin" ]; then
		skip "$name: not built here ($bin)"
		continue
	fi
	# shellcheck disable=SC2086
	"$bin" $args >"$tmp/help" 2>&1
	# zab: the overview and a page per command (zab-CMD.1)
	case $name in
	zab) man_pages "$top_srcdir/man/zab.1" "$top_srcdir"/man/zab-*.1 >"$tmp/man"
	     where="man/zab.1 and man/zab-*.1" ;;
	*) man_text "$top_srcdir/man/$name.1" >"$tmp/man"; where=man/$name.1 ;;
	esac
	comp=$top_srcdir/data/bash-completion/$name
	missing= nocomp= n=0
	# The man page has every option the text names, the completion every
	# option it defines.
	for opt in $(long_options <"$tmp/help"); do
		n=$((n + 1))
		mentions "$tmp/man" "$opt" || missing="$missing $opt"
	done
	for opt in $(defined_options <"$tmp/help"); do
		mentions "$comp" "$opt" || nocomp="$nocomp $opt"
	done
	what="$name $args: $n long options"
	if [ "$n" -eq 0 ]; then fail "$what: none found in the help text"
	elif [ -n "$missing" ]; then fail "$what; not in $where:$missing"
	else pass "$what, all in $where"; fi
	if [ -n "$nocomp" ]; then fail "$what; not in data/bash-completion/$name:$nocomp"
	else pass "$what, all in data/bash-completion/$name"; fi
done >"$tmp/tap"
cat "$tmp/tap"
tap_n=$(grep -c '^ok\|^not ok' "$tmp/tap")
tap_failed=$(grep -c '^not ok' "$tmp/tap")

# zab CMD --help: its last line names the command's page, which exists; the
# options it names are in zab's pages.
man_pages "$top_srcdir/man/zab.1" "$top_srcdir"/man/zab-*.1 >"$tmp/zabman"
if [ ! -x "$ZAB" ]; then
	skip "zab CMD --help: zab not built here"
elif [ -z "$(zab_commands)" ]; then
	fail "zab --help: no command found in its synopsis lines"
fi
for cmd in $(zab_commands); do
	"$ZAB" "$cmd" --help >"$tmp/help" 2>&1
	rc=$?
	last=$(sed '/^$/d' "$tmp/help" | tail -n 1)
	if [ "$last" != "See zab-$cmd(1)." ]; then
		fail "zab $cmd --help: exit $rc, last line '$last' (want 'See zab-$cmd(1).')"
	elif [ ! -f "$top_srcdir/man/zab-$cmd.1" ]; then
		fail "zab $cmd --help names zab-$cmd(1): no man/zab-$cmd.1"
	else
		pass "zab $cmd --help ends naming man/zab-$cmd.1"
	fi
	missing=
	for opt in $(long_options <"$tmp/help"); do
		mentions "$tmp/zabman" "$opt" || missing="$missing $opt"
	done
	if [ -n "$missing" ]; then fail "zab $cmd --help: not in man/zab.1 nor man/zab-*.1:$missing"
	else pass "zab $cmd --help: its long options are in zab's pages"; fi
done
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
for pair in "cusezero $CUSEZERO" "zeroctl $ZEROCTL" "zload $ZLOAD" \
	    "pread_z100k $PREAD_Z100K" "zbench $ZBENCH" "zab $ZAB"; do
	set -- $pair
	if [ ! -x "$2" ]; then
		skip "$1 --version: not built here"
		continue
	fi
	out=$("$2" --version 2>&1)
	rc=$?
	case $out in
	"$1 (cusezero) $version"|"$1 (cusezero) $version (git "*")")
		ok "$1 --version: '$out'" -- test "$rc" -eq 0 ;;
	*)	fail "$1 --version: exit $rc, '$out' (want '$1 (cusezero) $version[ (git ...)]')" ;;
	esac
done
done_testing
