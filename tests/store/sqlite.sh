#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the results store on SQLite (store/sqlite.c): zab result
# files imported and exported unchanged, import idempotent, eight writers
# at once losing nothing, reports from the store; the schema migrated
# forward from every earlier version with its data intact; a database that
# is not ours, a file that is no database, a newer schema, a malformed URL
# and bad result files refused with one line and nothing changed.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON comparisons)"
results 11 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
unset CUSEZERO_STORE
store_checks "sqlite:$CZ_TMP/s.db"

# the default store: $XDG_DATA_HOME/cusezero/results.db, made on first use
XDG_DATA_HOME=$CZ_TMP/xdg "$ZAB" store import "$CZ_TMP/r1.json" >/dev/null 2>&1
ok "no --store: \$XDG_DATA_HOME/cusezero/results.db" -- test -s "$CZ_TMP/xdg/cusezero/results.db"
XDG_DATA_HOME=$CZ_TMP/xdg "$ZAB" run -b "x=$FAKE" -v a -v b -S 1 -R 3 --no-progress >/dev/null 2>"$CZ_TMP/e"
ok "zab run records by default and says where: $(tail -n 1 "$CZ_TMP/e")" -- \
	grep -q "recorded run [0-9a-f-]\{36\} in sqlite:$CZ_TMP/xdg/cusezero/results.db" "$CZ_TMP/e"
ok "zab run --no-store records nothing" -- sh -c "XDG_DATA_HOME='$CZ_TMP/xdg' '$ZAB' run -b 'x=$FAKE' -v a -v b -S 1 -R 3 --no-store --no-progress 2>&1 >/dev/null | grep -vq recorded; [ \$(XDG_DATA_HOME='$CZ_TMP/xdg' '$ZAB' store ls runs --format csv | wc -l) -eq 3 ]"
command -v sqlite3 >/dev/null || { skip "migrations and foreign files: no sqlite3 (Debian: sqlite3)"; done_testing; }

# a version-1 store (002's indexes dropped, the version set back), with data
db=$CZ_TMP/s.db
"$ZAB" store export --store "sqlite:$db" --experiment "command line" -o "$CZ_TMP/all2.json"
sqlite3 "$db" "DROP INDEX runs_by_sut; DROP INDEX suts_by_class; UPDATE schema_version SET version = 1"
"$ZAB" store ls runs --store "sqlite:$db" >/dev/null 2>&1
ok "a version-1 store is migrated to 3 on open" -- \
	sh -c "[ \$(sqlite3 '$db' 'SELECT version FROM schema_version') = 3 ] && sqlite3 '$db' .indexes | grep -q suts_by_class"
"$ZAB" store export --store "sqlite:$db" --experiment "command line" -o "$CZ_TMP/all3.json"
ok "its data intact through the migration" -- cmp -s "$CZ_TMP/all2.json" "$CZ_TMP/all3.json"
sed 's/@ID@/INTEGER PRIMARY KEY/' "$top_srcdir/store/schema/001.sql" | sqlite3 "$CZ_TMP/v1.db"
"$ZAB" store import --store "sqlite:$CZ_TMP/v1.db" "$CZ_TMP/r1.json" >/dev/null 2>&1
ok "a store made by 001.sql alone takes runs after its migration" -- \
	[ "$(sqlite3 "$CZ_TMP/v1.db" 'SELECT version FROM schema_version; SELECT count(*) FROM runs' | tr '\n' ' ')" = "3 1 " ]

refused() {	# refused WHAT FILE PATTERN: exit 1, one line, FILE unchanged
	sum=$(md5sum <"$2")
	"$ZAB" store ls --store "sqlite:$2" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "$1: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ] && grep -q -- '$3' '$CZ_TMP/e' && [ \"\$(md5sum <'$2')\" = '$sum' ]"
}
sqlite3 "$CZ_TMP/other.db" "CREATE TABLE accounts (id INTEGER, name TEXT); INSERT INTO accounts VALUES (1, 'x')"
refused "another application's database, left as it is" "$CZ_TMP/other.db" "not a cusezero results store"
head -c 8192 /dev/urandom >"$CZ_TMP/noise.db"
refused "a file that is no database" "$CZ_TMP/noise.db" "not a database"
cp "$db" "$CZ_TMP/newer.db"
sqlite3 "$CZ_TMP/newer.db" "UPDATE schema_version SET version = 99"
refused "a store of a newer schema" "$CZ_TMP/newer.db" "version 99 is newer than this zab.s (3)"
cp "$db" "$CZ_TMP/corrupt.db"
dd if=/dev/urandom of="$CZ_TMP/corrupt.db" bs=1 seek=0 count=100 conv=notrunc status=none
refused "a store with its header overwritten" "$CZ_TMP/corrupt.db" "not a database"
for u in "sqlite:" "mysql://h/db" "results.txt"; do
	"$ZAB" store ls --store "$u" >/dev/null 2>"$CZ_TMP/e"
	rc=$?
	ok "--store '$u': exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
		sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
done
done_testing
