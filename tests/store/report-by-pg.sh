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
pg_require "$CZ_TMP/pg"
trap 'pg_stop "$CZ_TMP/pg"; rm -rf "$CZ_TMP"' EXIT
unset CUSEZERO_STORE
views_checks "$PG_URL"
done_testing
