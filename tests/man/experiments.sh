#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the experiments match their README: the files in
# experiments/, the table of experiments/README.md and the installed list
# (dist_experiments_DATA in data/local.am) name the same experiments, each
# compared both ways; and every one parses (zab run --dry-run, by path and,
# as an installed one, by name).
. "$top_srcdir/tests/man/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-experiments.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dir=$top_srcdir/experiments

ls "$dir" | grep -vx 'README.md' | sort >"$tmp/files"
# the README's table: "| `NAME` | what |"
sed -n 's/^| *`\([^`]*\)` *|.*/\1/p' "$dir/README.md" | sort >"$tmp/readme"
# installed: the experiments/ lines of dist_experiments_DATA
awk '/^dist_experiments_DATA/ { on = 1; next } on && !/\\$/ { on = 0 } on' \
	"$top_srcdir/data/local.am" | sed -n 's|^[[:space:]]*experiments/\([^[:space:]]*\).*|\1|p' |
	grep -vx 'README.md' | sort >"$tmp/installed"
grep -q 'experiments/README.md' "$top_srcdir/data/local.am"
ok "experiments/README.md is installed" -- [ $? -eq 0 ]

# same A B: one TAP line per direction, naming what is missing.
same() {
	extra=$(comm -23 "$tmp/$1" "$tmp/$2" | tr '\n' ' ')
	ok "every experiment in $1 is in $2${extra:+: not $extra}" -- [ -z "$extra" ]
	extra=$(comm -13 "$tmp/$1" "$tmp/$2" | tr '\n' ' ')
	ok "every experiment in $2 is in $1${extra:+: not $extra}" -- [ -z "$extra" ]
}
ok "experiments/ has experiments ($(wc -l <"$tmp/files"))" -- [ -s "$tmp/files" ]
same files readme
same files installed

[ -x "$ZAB" ] || { skip "parsing: zab not built here"; done_testing; exit; }
while read -r e; do
	"$ZAB" run --dry-run "$dir/$e" >/dev/null 2>"$tmp/err"
	rc=$?
	ok "experiments/$e parses (zab run --dry-run: exit $rc$(head -n 1 "$tmp/err" | sed 's/^/: /'))" -- \
		[ $rc -eq 0 ]
	# by name, as installed experiments are found
	(cd "$tmp" && ZAB_EXPERIMENT_PATH=$dir "$ZAB" run --dry-run "$e" >/dev/null 2>"$tmp/err")
	rc=$?
	ok "zab run --dry-run $e (by name): exit $rc$(head -n 1 "$tmp/err" | sed 's/^/: /')" -- \
		[ $rc -eq 0 ]
done <"$tmp/readme"
done_testing
