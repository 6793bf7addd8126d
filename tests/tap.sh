# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for shell tests: . "$top_srcdir/tests/tap.sh"
tap_n=0
tap_failed=0
ok() {		# ok DESCRIPTION -- command...   (passes when the command succeeds)
	desc=$1; shift; [ "$1" = -- ] && shift
	tap_n=$((tap_n + 1))
	if "$@"; then echo "ok $tap_n - $desc"
	else echo "not ok $tap_n - $desc"; tap_failed=$((tap_failed + 1)); fi
}
pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
fail() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $*"; tap_failed=$((tap_failed + 1)); }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { echo "# $*"; }
# A sourcing library may name a last check to run before the plan: tap_final.
done_testing() {
	[ -n "${tap_final:-}" ] && "$tap_final"
	echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]
}
# The test's own "# Needs:" line (tests/needs.sh): a visible SKIP when unmet.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/needs.sh"
cz_require_needs "$0"
