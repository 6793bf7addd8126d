#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the house rules of scripts/check-tree.sh (SPDX style, include
# guards by path, no function outside tests/ over 100 lines, no reference to
# documents outside the tree, every test script in make check says what it checks
# in a Description line) hold for the checkout.  The rules are about the
# source tree as developers edit it: a release tarball (make distcheck) holds
# generated files too, so the test needs a git checkout.
. "$top_srcdir/tests/tap.sh"
[ -d "$top_srcdir/.git" ] || [ -f "$top_srcdir/.git" ] || skip_all "not a git checkout (a release tarball): the rules are checked in the repository"
command -v git >/dev/null 2>&1 || skip_all "git not found"
exec sh "$top_srcdir/scripts/check-tree.sh" "$top_srcdir"
