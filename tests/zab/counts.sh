#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: a bad count (zab run -R, hyperfine mode's --runs, zab
# fleet's --forks) gets the one message every count has (lib/cli.h's
# cz_opt_uint): one line naming the option, the value and the range; exit
# 2, in hyperfine mode 1 as hyperfine's.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"

: >"$CZ_TMP/e.exp"
bad() {	# bad STATUS OPTION VALUE ARGS...: exit STATUS, one line naming the option and the value
	want=$1 opt=$2 val=$3; shift 3
	"$ZAB" "$@" >/dev/null 2>"$CZ_TMP/err"
	rc=$?
	ok "zab $1 $opt $val: exit $rc, one line: $(head -n 1 "$CZ_TMP/err")" -- \
		sh -c "[ $rc -eq $want ] && [ \$(wc -l <'$CZ_TMP/err') -eq 1 ] &&
			grep -q -- \"$opt: invalid value '$val' (an integer in \" '$CZ_TMP/err'"
}
bad 2 --repeats x run -R x -b t=true -v a -v b
bad 2 --sessions 0 run --sessions 0 -b t=true -v a -v b
bad 1 --runs 0 hyperfine --runs 0 true
bad 1 --warmup -1 hyperfine --warmup -1 true
bad 2 --forks 0 fleet "$CZ_TMP/e.exp" -i "$CZ_TMP/inv" --forks 0
done_testing
