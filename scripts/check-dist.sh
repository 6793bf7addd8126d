#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-dist.sh: the release tarball holds every file of the checkout
# (`git ls-files`) but those listed below as not shipped, each with why.
#
#   scripts/check-dist.sh [TOP [BUILD]]    (defaults: the checkout, TOP/build)
#
# BUILD is a configured tree; its newest cusezero-*.tar.xz (or .gz) is checked (made
# by `make dist` there first when there is none).  Without git or outside a
# checkout it says so and exits 0 (a tarball has nothing to compare with).
set -eu
top=$(cd "${1:-$(dirname "$0")/..}" && pwd)
build=${2:-$top/build}

# Files of the checkout a release tarball does not need, as patterns:
#   .gitignore files: git's own;
#   m4/.gitkeep: keeps the empty m4/ folder in git (aclocal fills it).
NOT_SHIPPED='.gitignore */.gitignore m4/.gitkeep'

command -v git >/dev/null && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || {
	echo "check-dist: SKIP: $top is not a git checkout: nothing to compare the tarball with"
	exit 0
}
tarball=$(ls -t "$build"/cusezero-*.tar.[gx]z 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
	make -C "$build" dist >/dev/null
	tarball=$(ls -t "$build"/cusezero-*.tar.[gx]z | head -n 1)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -tf "$tarball" | sed 's|^[^/]*/||; /\/$/d; /^$/d' | sort -u >"$tmp/tar"
git -C "$top" ls-files | sort -u >"$tmp/git"
comm -23 "$tmp/git" "$tmp/tar" | while read -r f; do
	for p in $NOT_SHIPPED; do
		# shellcheck disable=SC2254
		case $f in $p) continue 2 ;; esac
	done
	echo "$f"
done >"$tmp/missing"
if [ -s "$tmp/missing" ]; then
	echo "check-dist: $(wc -l <"$tmp/missing") file(s) of the checkout missing from ${tarball##*/}" \
		"(add them to EXTRA_DIST or a dist_ variable, or to NOT_SHIPPED with why):"
	sed 's/^/  /' "$tmp/missing"
	exit 1
fi
echo "check-dist: ${tarball##*/} holds every file of the checkout ($(wc -l <"$tmp/git") in git; not shipped: $NOT_SHIPPED)"
