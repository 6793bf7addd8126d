#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-tree.sh: the house rules a reviewer would otherwise check by eye.
#
#   scripts/check-tree.sh [SRCDIR]       (default: the checkout holding this script)
#
# Prints one TAP line per rule and a diagnostic line per offence:
#   1. every source, build and script file starts with an SPDX line in its
#      language's comment style (C, headers, assembly: /* */; shell, .am: #);
#   2. every header's include guard is named after its path
#      (cuse/fuse_uring.h -> CUSE_FUSE_URING_H; the installed include/cusezero.h
#      keeps the public CUSEZERO_H);
#   3. no function outside tests/ is longer than 100 lines (liburing's src/
#      has none; split by step: parse / validate / run / print);
#   4. the tree is self-contained: no file points at documents outside the
#      repository or at tracker numbers (the word issue, a hash, a number);
#   5. a test script that starts cusezero (--fuse, --cusezero, the
#      tests/cuse/ helpers) or zload (zload-lib.sh) declares it on its
#      "# Needs:" line (tests/needs.sh: what scripts/test-arm64.sh sends to
#      the arm64 VM and what the test skips on), in the words it knows;
#   6. a test's scratch directory variable is set before it is used;
#   7. every test script registered in make check (a tests/*.sh named in a
#      *TESTS variable of Makefile.am or a local.am) says what it checks in
#      a "Description:" comment among its first 10 lines.
# Works from a git checkout (git ls-files) or an unpacked tarball (find).
set -u

src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cd "$src" || exit 1
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

if { [ -d .git ] || [ -f .git ]; } && command -v git >/dev/null 2>&1; then
	files=$(git ls-files)
else
	files=$(find . -type f ! -path './build*' ! -name '*.o' | sed 's|^\./||' | sort)
fi
code=$(printf '%s\n' "$files" | grep -E '\.(c|h|S|sh|am|ac)$|^scripts/[a-z-]+$|^\.ci/run$')

# 1. SPDX line and its comment style
bad=$(for f in $code; do
	[ -f "$f" ] || continue
	case $f in
	*.c|*.h|*.S) want='/\* SPDX-License-Identifier: [-A-Za-z0-9.+ ]+ \*/$' ;;
	*) want='^# SPDX-License-Identifier: [-A-Za-z0-9.+ ]+$' ;;
	esac
	head -3 "$f" | grep -Eq "$want" || echo "$f"
done)
if [ -z "$bad" ]; then ok "SPDX line in every file, one comment style per language"
else not_ok "SPDX line in every file, one comment style per language"
	printf '%s\n' "$bad" | sed 's/^/# missing or wrong style: /'
fi

# 2. include guards named after the path
bad=$(for f in $(printf '%s\n' "$code" | grep '\.h$'); do
	[ -f "$f" ] || continue
	case $f in
	include/cusezero.h) want=CUSEZERO_H ;;
	*) want=$(printf '%s' "$f" | tr 'a-z/.-' 'A-Z___') ;;
	esac
	guard=$(grep -m1 -E '^#ifndef [A-Z0-9_]+_H$' "$f" | cut -d' ' -f2)
	[ "$guard" = "$want" ] || echo "$f:$guard (want $want)"
done)
if [ -z "$bad" ]; then ok "include guards follow the path"
else not_ok "include guards follow the path"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# 3. function length (C outside tests/: a body from a "{" in column 0 to the next "}" in column 0)
bad=$(for f in $(printf '%s\n' "$code" | grep '\.c$' | grep -v '^tests/'); do
	[ -f "$f" ] || continue
	awk -v f="$f" '
		/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { hdr = FNR; name = $0 }
		/^\{/ { start = hdr ? hdr : FNR }
		/^\}/ && start { len = FNR - start + 1
			if (len > 100) { sub(/\(.*/, "", name); print f ":" start " " name " " len " lines" }
			start = 0; hdr = 0 }' "$f"
done)
if [ -z "$bad" ]; then ok "no function outside tests/ over 100 lines"
else not_ok "no function outside tests/ over 100 lines"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# 4. self-contained.  The patterns are spelled with bracket expressions so that
# this script does not match them itself (nor a plain git grep for them).
pat='REFERENCE[.]md|seed[s]/|[.][.]/shared|[Ii]ssue [#][0-9]|[Ii]ssue [0-9]+\b'
bad=$(for f in $files; do
	[ -f "$f" ] && [ "$f" != COPYING ] || continue
	grep -EnI "$pat" "$f" /dev/null 2>/dev/null
done)
if [ -z "$bad" ]; then ok "no reference to documents outside the tree or to tracker numbers"
else not_ok "no reference to documents outside the tree or to tracker numbers"
	printf '%s\n' "$bad" | head -20 | sed 's/^/# /'
fi

# 5. tests say what they need.
. "$src/tests/needs.sh"
bad=$(for f in $(printf '%s\n' "$files" | grep -E '^tests/.*\.sh$'); do
	[ -f "$f" ] && grep -q 'Description:' "$f" || continue
	words=$(cz_needs "$f")
	for w in $words; do
		case " $cz_needs_words " in *" $w "*) ;; *) echo "$f: unknown need '$w'" ;; esac
	done
	if grep -qE -e '--fuse|--cusezero|cz_require_fuse|cz_start|zload-lib[.]sh' "$f" &&
	   ! cz_needs_vm "$words"; then
		echo "$f: starts cusezero or zload but its '# Needs:' line ('$words') names none of fuse ioctl io_uring native"
	fi
	if grep -q cz_require_fuse "$f"; then
		case " $words " in *" fuse "*) ;; *) echo "$f: uses cz_require_fuse without '# Needs: root fuse'" ;; esac
	fi
done)
if [ -z "$bad" ]; then ok "every device or io_uring test declares it (# Needs:)"
else not_ok "every device or io_uring test declares it (# Needs:)"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# 6. a test's scratch files go to a directory it made: the test libraries
# name it $CZ_TMP; a script using $tmp or $tmpdir without setting it would
# write its files to / (an empty variable: "$tmp/out" is "/out").
bad=$(for f in $(printf '%s\n' "$files" | grep -E '^tests/.*\.sh$'); do
	[ -f "$f" ] || continue
	for v in tmp tmpdir; do
		grep -q "\\\$$v\\b\|\\\${$v}" "$f" || continue
		grep -Eq "(^|[^A-Za-z_])$v=" "$f" || echo "$f: uses \$$v but never sets it (the libraries' name is \$CZ_TMP)"
	done
done)
if [ -z "$bad" ]; then ok "every scratch directory a test uses is set (\$CZ_TMP)"
else not_ok "every scratch directory a test uses is set (\$CZ_TMP)"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

# 7. every registered test script has a Description: line.  The list is the
# .am files' *TESTS assignments, continuation lines joined.
bad=$(for f in $(printf '%s\n' "$files" | grep -E '(^|/)(Makefile|local)[.]am$'); do
	[ -f "$f" ] && cat "$f"
done | awk '
	{ line = cont ? line " " $0 : $0; cont = sub(/\\$/, "", line) }
	cont { next }
	line ~ /^[A-Z_]*TESTS[ \t]*[+]?=/ {
		n = split(line, w, /[ \t]+/)
		for (i = 1; i <= n; i++) if (w[i] ~ /^tests\/.*[.]sh$/) print w[i]
	}' | sort -u | while read -r t; do
	if [ ! -f "$t" ]; then echo "$t: registered but not in the tree"
	elif ! head -10 "$t" | grep -q '^# Description: '; then echo "$t: no '# Description:' line among its first 10"; fi
done)
if [ -z "$bad" ]; then ok "every test script in make check has a Description: line"
else not_ok "every test script in make check has a Description: line"
	printf '%s\n' "$bad" | sed 's/^/# /'
fi

echo "1..$n"
exit $failed
