#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the store's views (tests/store/reportlib.sh: report --by
# sut-class, compare --store, history) against a real PostgreSQL server
# started for the test on 127.0.0.1 (tests/store/pglib.sh).
# Needs: root
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/reportlib.sh"
. "$top_srcdir/tests/store/pglib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON and CSV checks)"
"$ZAB" store ls --store postgresql://127.0.0.1:1/x 2>&1 | grep -q "without libpq" &&
	skip_all "this zab has no PostgreSQL back end (built without libpq: an arm64 cross build)"
if ! pg_start "$CZ_TMP/pg"; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: $PG_WHY"; exit 1; }
	skip_all "$PG_WHY"
fi
trap 'pg_stop "$CZ_TMP/pg"; rm -rf "$CZ_TMP"' EXIT
unset CUSEZERO_STORE
views_checks "$PG_URL"
done_testing
