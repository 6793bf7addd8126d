#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every program builds as a single target from a fresh build
# folder (make zbench right after configure).  BUILT_SOURCES are made first
# by make all, check and install only, so a source that includes a
# generated file (lib/cz-version.h, store/schema.inc) needs its object to
# depend on it.  For each program of a fresh configure, make -n PROGRAM
# must make each generated file (its recipe writes FILE-t) before it
# compiles a source that includes it.  make -n compiles nothing: the plan
# is the one a real make follows.
# Needs: none
. "$top_srcdir/tests/tap.sh"
[ -f "$top_srcdir/config.status" ] &&
	skip_all "the source folder is configured in place (configure refuses a second build folder)"
command -v make >/dev/null || skip_all "no make"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
src=$(cd "$top_srcdir" && pwd)
unset MAKEFLAGS MFLAGS MAKELEVEL       # not the outer make check's (-j, -w)
(cd "$T" && "$src/configure" >config.out 2>&1) ||
	{ echo "Bail out! configure in a fresh folder failed: $(tail -n 1 "$T/config.out")"; exit 1; }
# shellcheck disable=SC2016
vars() { printf 'print-vars:\n\t@echo $(%s)\n' "$1" | (cd "$T" && make -s --no-print-directory -f Makefile -f - print-vars); }
progs=$(vars 'PROGRAMS) $(check_PROGRAMS')
gen=$(vars BUILT_SOURCES)
ok "a fresh configure: programs ($(echo $progs | wc -w)) and generated files ($gen)" -- \
	[ -n "$progs" ] && [ -n "$gen" ]
# the sources (relative to the top) that include each generated file
: >"$T/includers"
for g in $gen; do
	(cd "$src" && grep -rl --include='*.c' -E "^#include \"([a-z_]+/)?${g##*/}\"" \
		--exclude-dir=.git --exclude-dir='build*' .) | sed "s|^\./||; s|\$| $g|" >>"$T/includers"
done
ok "the sources that include them: $(cut -d' ' -f1 "$T/includers" | tr '\n' ' ')" -- [ -s "$T/includers" ]
for p in $progs; do
	(cd "$T" && make -n --no-print-directory "$p") >"$T/plan" 2>&1 || { fail "make -n $p: $(tail -n 1 "$T/plan")"; continue; }
	late=
	while read -r c g; do
		# the compile line names it as 'lib/cli.c' or $(srcdir)/lib/cli.c
		at=$(grep -n -E "[ '/]$(echo "$c" | sed 's/\./\\./g')('|\$| )" "$T/plan" | head -n 1 | cut -d: -f1)
		[ -n "$at" ] || continue          # this program does not compile it
		made=$(grep -n -F ">$g-t" "$T/plan" | head -n 1 | cut -d: -f1)
		[ -n "$made" ] && [ "$made" -lt "$at" ] || late="$late $c (needs $g)"
	done <"$T/includers"
	ok "make $p from a fresh build folder: each generated file made before its use${late:+; not before:$late}" -- \
		[ -z "$late" ]
done
done_testing
