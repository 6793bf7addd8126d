# SPDX-License-Identifier: GPL-2.0-or-later
# What the fake-benchmark tests of zab share: the TAP helpers, $ZAB, $FAKE
# (tests/zab/fakebench, a benchmark whose numbers the test chooses) and a
# scratch directory $CZ_TMP removed at exit.  Sourced, not run.
. "$top_srcdir/tests/tap.sh"
ZAB=${ZAB:-$top_builddir/zab}
FAKE=${FAKEBENCH:-$top_builddir/tests/zab/fakebench}
[ -x "$ZAB" ] || skip_all "zab not built ($ZAB)"
[ -x "$FAKE" ] || skip_all "fakebench not built ($FAKE)"
CZ_TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$CZ_TMP"' EXIT
