#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: every man page is clean under mandoc -Tlint (style messages
# included) or, without mandoc, groff -ww -z (every warning).
. "$top_srcdir/tests/man/lib.sh"

if command -v mandoc >/dev/null 2>&1; then
	lint() { mandoc -Tlint -W style "$1" 2>&1; }
	diag "linting with $(command -v mandoc) -Tlint -W style"
elif command -v groff >/dev/null 2>&1; then
	lint() { groff -ww -z -man "$1" 2>&1; }
	diag "no mandoc: linting with groff -ww -z"
else
	need_or_skip "neither mandoc nor groff installed (Debian: mandoc)"
fi
for page in "$top_srcdir"/man/*.[1-8]; do
	out=$(lint "$page")
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$out" ]; then
		pass "$(basename "$page"): lint clean"
	else
		fail "$(basename "$page"): lint exit $rc"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
done_testing
