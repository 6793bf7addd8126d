#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the results store on a real PostgreSQL server (store/pg.c),
# started for the test as an unprivileged user on 127.0.0.1
# (tests/store/pglib.sh): the same checks as on SQLite, credentials the
# libpq way (a pgpass file; never printed), a version-1 database migrated
# with its data, a newer schema refused, a server that is down or refuses
# the password refused with one line.
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/lib.sh"
. "$top_srcdir/tests/store/pglib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON comparisons)"
pg_require "$CZ_TMP/pg"
trap 'pg_stop "$CZ_TMP/pg"; rm -rf "$CZ_TMP"' EXIT
results 11 "$CZ_TMP/r" || { echo "Bail out! zab run failed"; exit 1; }
unset CUSEZERO_STORE
store_checks "$PG_URL"

"$ZAB" store export --store "$PG_URL" --experiment "command line" -o "$CZ_TMP/all2.json"
pg_sql "DROP INDEX runs_by_sut; DROP INDEX suts_by_class; UPDATE schema_version SET version = 1"
CUSEZERO_STORE=$PG_URL "$ZAB" store ls >/dev/null 2>&1
ok "a version-1 database is migrated to 3 (CUSEZERO_STORE names it)" -- \
	[ "$(pg_sql 'SELECT version FROM schema_version')" = 3 ]
"$ZAB" store export --store "$PG_URL" --experiment "command line" -o "$CZ_TMP/all3.json"
ok "its data intact through the migration" -- cmp -s "$CZ_TMP/all2.json" "$CZ_TMP/all3.json"
pg_sql "UPDATE schema_version SET version = 99"
"$ZAB" store ls --store "$PG_URL" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "a newer schema: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'version 99 is newer than this zab' '$CZ_TMP/e' && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
pg_sql "UPDATE schema_version SET version = 3"
PGPASSFILE=/dev/null PGPASSWORD=wrong "$ZAB" store ls --store "$PG_URL" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "a wrong password: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'password authentication failed' '$CZ_TMP/e' && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
"$ZAB" store ls --store "postgresql://czuser:hunter2@127.0.0.1:$PG_PORT/czstore" >/dev/null 2>"$CZ_TMP/e"
ok "a password in the URL is never printed: $(cat "$CZ_TMP/e")" -- sh -c "! grep -q hunter2 '$CZ_TMP/e'"
pg_stop "$CZ_TMP/pg"
"$ZAB" store import --store "$PG_URL" "$CZ_TMP/r1.json" >/dev/null 2>"$CZ_TMP/e"
rc=$?
ok "the server down: exit $rc, one line: $(cat "$CZ_TMP/e")" -- \
	sh -c "[ $rc -eq 1 ] && grep -q 'Connection refused' '$CZ_TMP/e' && [ \$(wc -l <'$CZ_TMP/e') -eq 1 ]"
done_testing
