#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-includes.sh: no dependency cycle between modules.
#
#   scripts/check-includes.sh [-s SRCDIR] [-b BUILDDIR] [DIR...]
#       SRCDIR, BUILDDIR: default $top_srcdir / $top_builddir as make check sets
#       them, else the checkout holding this script and its build/.
#       DIR...: the directories whose modules must not be on a cycle (default:
#       all, as tests/cuse/modules.sh runs it).
#
# A module is a source file and its header (cuse/readpath.c + cuse/readpath.h
# = cuse/readpath).  A cycle (A -> B -> ... -> A) means modules that cannot
# be understood, built or tested apart: a test of A then has to provide B's
# globals or stubs of them.  Two graphs are checked, each printed as TAP
# with the first cycle found:
#   1. includes: A -> B when A.c or A.h has `#include "B.h"` (resolved in
#      the includer's directory, then in the -I directories: top, include/,
#      zeroing/, lib/, devclient/, store/, render/, and for a file in a
#      program's sub-folder the program's folder: tools/zab/cmd/run.c's
#      "model/model.h" is tools/zab/model/model.h); system headers (<...>)
#      are not modules;
#   2. symbols (needs a build): A -> B when A's object file uses a global
#      symbol that B's object defines (nm).  This also sees a header that
#      declares what another file defines (the way a daemon-wide header once
#      let every module call back into main.c).  A symbol defined by more
#      than one module (each test's main) says nothing and is skipped.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
src=${top_srcdir:-$here}
bld=${top_builddir:-}
while getopts s:b: opt; do
	case $opt in
	s) src=$OPTARG ;;
	b) bld=$OPTARG ;;
	*) echo "usage: check-includes.sh [-s SRCDIR] [-b BUILDDIR] [DIR...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$src" && pwd) || exit 1
bld=${bld:-$src/build}
# absolute: the graphs are read from $src (a relative build dir would be
# taken from there, and its objects named build/...)
if [ -d "$bld" ]; then bld=$(cd "$bld" && pwd); fi
dirs=$*
cd "$src" || exit 1

n=0
failed=0

# find_cycle: edges "from to" on stdin; prints the first cycle through a
# module of $dirs (any module if empty), or nothing.
find_cycle() {
	awk -v dirs="$dirs" '
		NF == 2 && $1 != $2 { adj[$1] = adj[$1] " " $2; node[$1]; node[$2] }
		function dfs(u,    i, k, nb) {
			color[u] = 1; stack[++sp] = u
			k = split(adj[u], nb, " ")
			for (i = 1; i <= k && !found; i++) {
				if (color[nb[i]] == 1) { report(nb[i]); return }
				if (!color[nb[i]]) dfs(nb[i])
			}
			sp--; color[u] = 2
		}
		function report(v,    i, s) {
			for (i = 1; i <= sp && stack[i] != v; i++) ;
			for (s = ""; i <= sp; i++) s = s stack[i] " -> "
			print s v; found = 1
		}
		function wanted(u,    i, k, d) {
			if (dirs == "") return 1
			k = split(dirs, d, " ")
			for (i = 1; i <= k; i++) {
				sub(/\/$/, "", d[i])
				if (index(u, d[i] "/") == 1 && index(substr(u, length(d[i]) + 2), "/") == 0)
					return 1
			}
			return 0
		}
		END { for (u in node) if (!found && !color[u] && wanted(u)) dfs(u) }'
}

verdict() {	# verdict DESCRIPTION CYCLE
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		failed=1
		echo "not ok $n - $1"
		echo "# cycle: $2"
	fi
}

# 1. the include graph
if [ -d .git ] && command -v git >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h')
else
	files=$(find . -name '*.[ch]' ! -path './build*' | sed 's|^\./||' | sort)
fi
inc_edges=$(for f in $files; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	# a program with folders of its own (tools/zab) includes from its top
	prog=$(echo "$f" | sed -n 's|^\(tools/[^/]*\)/.*/.*|\1|p')
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		for cand in "$dir/$inc" "$inc" "include/$inc" "zeroing/$inc" "lib/$inc" "devclient/$inc" "store/$inc" "render/$inc" ${prog:+"$prog/$inc"}; do
			cand=${cand#./}
			if [ -f "$cand" ]; then
				echo "${f%.[ch]} ${cand%.h}"
				break
			fi
		done
	done
done | sort -u)
cycle=$(echo "$inc_edges" | find_cycle)
verdict "no include cycle through the modules of ${dirs:-every directory}" "$cycle"

# 2. the symbol graph of the objects in the build tree
if ! command -v nm >/dev/null 2>&1; then
	n=$((n + 1)); echo "ok $n # SKIP symbol graph: no nm (binutils)"
elif [ -z "$(find "$bld" -name '*.o' 2>/dev/null | head -1)" ]; then
	n=$((n + 1)); echo "ok $n # SKIP symbol graph: no object files in $bld (build first)"
else
	# automake names an object DIR/TARGET-STEM.o when the target has its own
	# flags: the module is DIR/STEM either way.  An LD_PRELOAD shim (TARGET.so,
	# objects *_so-*.o) defines libc's names (pread) to interpose on them:
	# no module depends on it.
	sym_edges=$(cd "$bld" && find . -name '*.o' ! -path './tests/vm/*' ! -name '*_so-*.o' | sed 's|^\./||' | sort |
		xargs nm -A 2>/dev/null | awk '
		{
			split($1, p, ":"); obj = p[1]
			dir = obj; sub(/\/[^\/]*$/, "", dir); if (dir == obj) dir = "."
			base = obj; sub(/.*\//, "", base); sub(/\.o$/, "", base)
			if (index(base, "-")) base = substr(base, index(base, "-") + 1)
			mod = dir "/" base
			type = $(NF - 1); sym = $NF
			if (type == "U") use[mod " " sym]
			else if (type ~ /^[TDBRGSVW]$/) {
				if (!(sym in def)) def[sym] = mod
				else if (def[sym] != mod) amb[sym]
			}
		}
		END {
			for (k in use) {
				split(k, a, " ")
				if ((a[2] in def) && !(a[2] in amb) && def[a[2]] != a[1])
					print a[1], def[a[2]]
			}
		}' | sort -u)
	cycle=$(echo "$sym_edges" | find_cycle)
	verdict "no symbol cycle through the modules of ${dirs:-every directory} (nm over $bld)" "$cycle"
fi

# 3. folders: both graphs with each module replaced by its folder (a
# program's or a test suite's folder under tools/ and tests/, and a
# program's own sub-folders (tools/zab/cmd), else the top-level one:
# zeroing/x86_64 belongs to zeroing).  lib/ must not need the daemon, a
# tool must not need another tool.
folder_edges=$(printf '%s\n%s\n' "$inc_edges" "${sym_edges:-}" | awk '
	function folder(m,    p, k) {
		k = split(m, p, "/")
		if (k > 3 && p[1] == "tools") return p[1] "/" p[2] "/" p[3]
		if (k > 2 && (p[1] == "tools" || p[1] == "tests")) return p[1] "/" p[2]
		return k > 1 ? p[1] : "."
	}
	NF == 2 { a = folder($1); b = folder($2); if (a != b) print a, b }' | sort -u)
cycle=$(dirs="" && echo "$folder_edges" | find_cycle)
verdict "no cycle between folders (include and symbol graphs)" "$cycle"

# 4. layers: a program's sub-folders in the order they may be used, top
# first (doc/zab-layout.md).  A folder uses only folders of later layers
# (folders in one layer, comma-separated, not each other): the commands
# build on the jobs, and views/ and run/ on model/, never the other way.
# The program's own top (main.c) is the first layer.
layers='tools/zab: . cmd fleet,hf views run model'
for spec in "$layers"; do
	prog=${spec%%:*}
	order=${spec#*: }
	bad=$(echo "$folder_edges" | awk -v prog="$prog" -v order="$order" '
		BEGIN { k = split(order, l, " "); for (i = 1; i <= k; i++) { m = split(l[i], f, ","); for (j = 1; j <= m; j++) rank[f[j]] = i } }
		function sub_of(d) {
			if (d == prog) return "."
			if (index(d, prog "/") == 1) return substr(d, length(prog) + 2)
			return ""
		}
		NF == 2 {
			a = sub_of($1); b = sub_of($2)
			if (a == "" || b == "") next
			if (!(a in rank) || !(b in rank)) { print $1 " -> " $2 " (a folder not in the layers)"; exit }
			if (rank[a] >= rank[b]) { print $1 " -> " $2; exit }
		}')
	n=$((n + 1))
	if [ -z "$bad" ]; then
		echo "ok $n - $prog: each folder uses only the layers below it ($order)"
	else
		failed=1
		echo "not ok $n - $prog: each folder uses only the layers below it ($order)"
		echo "# up or across: $bad"
	fi
done
echo "1..$n"
exit $failed
