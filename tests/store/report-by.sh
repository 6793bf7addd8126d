#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the store's views on SQLite (tests/store/reportlib.sh):
# report --by sut-class with one column group per SUT class and a planted
# effect flagged in its class only; compare --store between run sets, bad
# or ambiguous selectors refused with one line; history --by kernel
# flagging exactly the planted step, one history per class; their JSON and
# CSV read back by python3.
# Needs: none
. "$top_srcdir/tests/zab/lib.sh"
. "$top_srcdir/tests/store/reportlib.sh"
command -v python3 >/dev/null || skip_all "no python3 (JSON and CSV checks)"
unset CUSEZERO_STORE
views_checks "sqlite:$CZ_TMP/v.db"
done_testing
