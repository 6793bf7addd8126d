#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by zab tests after tap.sh, with $ZAB and $CZ_TMP set (runs in
# the arm64 VM too: busybox, no python3).
#
# store_same FILE WHAT: FILE imported into a store of its own reads back as
# the file does: zab report's detailed table (with its notes: layouts, preempted
# shares) and CSV (every cell's statistics, verdict and per-layout figures)
# the same from the store as from the file.
store_same() {
	_db=$CZ_TMP/same-$$.db
	rm -f "$_db"*
	# the experiment's name as the store lists it (no python3 in the arm64 VM)
	"$ZAB" store import --store "sqlite:$_db" "$1" >/dev/null 2>&1
	_name=$("$ZAB" store ls experiments --store "sqlite:$_db" --format csv 2>/dev/null |
		sed -n '2s/,.*//p')
	"$ZAB" report "$1" --style detail --export-csv "$CZ_TMP/same-file.csv" \
		>"$CZ_TMP/same-file.txt" 2>&1 &&
		[ -n "$_name" ] &&
		"$ZAB" report --store "sqlite:$_db" --experiment "$_name" --style detail \
			--export-csv "$CZ_TMP/same-store.csv" >"$CZ_TMP/same-store.txt" 2>&1
	ok "$2: the store reads back what the file holds (report table and CSV)" -- \
		sh -c "cmp -s '$CZ_TMP/same-file.csv' '$CZ_TMP/same-store.csv' &&
			cmp -s '$CZ_TMP/same-file.txt' '$CZ_TMP/same-store.txt'"
}
